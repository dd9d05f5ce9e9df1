"""nbgrader configuration of the course's problem sets (see book/for_instructors.md).

nbgrader releases the sets (``generate_assignment``: solutions replaced by stubs, reference
answers by "YOUR ANSWER HERE") and keeps the gradebook (students, due dates, submissions and
the points of every graded cell). It never runs a student's notebook here: ``make grade``
runs each submission in the sandbox (coursework/sandbox.py) and scores the answers outside it
(coursework/scoring.py), then writes the points into this gradebook.
"""

c = get_config()  # noqa: F821  (nbgrader injects get_config)

c.CourseDirectory.course_id = "kappa-honestly"
# The stub that replaces a solution in the released notebook.
c.ClearSolutions.code_stub = {"python": "# YOUR CODE HERE\nraise NotImplementedError()"}
