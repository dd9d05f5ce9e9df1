"""nbgrader configuration of the course's problem sets (see book/for_instructors.md).

Run nbgrader from this directory: `source/psN/psN.ipynb` holds the instructor's notebook with
the reference solution and the hidden tests; `nbgrader generate_assignment psN` writes the
student version to `release/psN/`. `make assignments` and `make autograde-demo` do it for you.
"""

c = get_config()  # noqa: F821  (nbgrader injects get_config)

c.CourseDirectory.course_id = "kappa-honestly"
# The stub that replaces a solution in the released notebook.
c.ClearSolutions.code_stub = {"python": "# YOUR CODE HERE\nraise NotImplementedError()"}
# Every cell of a problem set runs in well under a second; a stuck submission is cut off.
c.ExecutePreprocessor.timeout = 60
c.Execute.timeout = 60
