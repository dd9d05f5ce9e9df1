"""nbgrader configuration of the course's problem sets (see book/for_instructors.md).

Run nbgrader from a course directory made by `python coursework/variants.py --seed N --out DIR`
(`make assignments SEED=N` does it): `source/psN/psN.ipynb` holds the instructor's notebook
with the reference solution, the hidden tests and the rubrics; `nbgrader generate_assignment
psN` writes the student version to `release/psN/`.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from course_plugins import CsvWithStatus, HideHiddenTests, TenPercentPerDay

c = get_config()  # noqa: F821  (nbgrader injects get_config)

c.CourseDirectory.course_id = "kappa-honestly"
# The stub that replaces a solution in the released notebook.
c.ClearSolutions.code_stub = {"python": "# YOUR CODE HERE\nraise NotImplementedError()"}
# Every cell of a problem set runs in well under a second; a stuck submission is cut off.
c.ExecutePreprocessor.timeout = 60
c.Execute.timeout = 60
# Feedback shows the visible tests, the hints and each failed check's message, but neither the
# hidden tests nor the tracebacks that would quote them (course_plugins.py).
c.GenerateFeedback.preprocessors = [
    "nbgrader.preprocessors.GetGrades",
    HideHiddenTests,
    "nbconvert.preprocessors.CSSHTMLHeaderPreprocessor",
]
# Late work: the due date is set per problem set (nbgrader db assignment add psN
# --duedate=...); a late notebook loses 10% of its score per started day (course_plugins.py).
c.AssignLatePenalties.plugin_class = TenPercentPerDay
# The CSV says which submissions are missing instead of scoring them 0 (course_plugins.py).
c.ExportApp.plugin_class = CsvWithStatus
