"""nbgrader plugins of the course: feedback without hidden tests, late policy, export.

nbgrader's feedback HTML is the autograded notebook, and that notebook holds the hidden tests
(restored from the gradebook to run them) and, for a failed test, the full traceback, whose
context lines quote the hidden test's code. ``HideHiddenTests`` cuts the source of every
graded cell at ``### BEGIN HIDDEN TESTS`` and leaves a note in its place, and replaces each
error output of a graded cell by its last line, the message that says what was checked
(``AssertionError: observed(C) on this term's table and on 16 random tables``).
"""

from __future__ import annotations

import csv

from nbgrader.api import MissingEntry
from nbgrader.plugins import ExportPlugin, LateSubmissionPlugin
from nbgrader.preprocessors import NbGraderPreprocessor

BEGIN, END = "### BEGIN HIDDEN TESTS", "### END HIDDEN TESTS"
NOTE = "# (the grader's further tests are not shown)"


def strip_hidden(source: str) -> str:
    out, hidden, removed = [], False, False
    for line in source.splitlines():
        if BEGIN in line:
            hidden = removed = True
        elif END in line:
            hidden = False
        elif not hidden:
            out.append(line)
    if removed:
        out.append(NOTE)
    return "\n".join(out)


class HideHiddenTests(NbGraderPreprocessor):
    def preprocess_cell(self, cell, resources, index):
        if cell.cell_type == "code":
            cell.source = strip_hidden(cell.source)
            for output in cell.get("outputs", []):
                if output.get("output_type") == "error":
                    output["traceback"] = [f"{output.get('ename')}: {output.get('evalue')}"]
        return cell, resources


class TenPercentPerDay(LateSubmissionPlugin):
    """Late work loses 10% of its score for each started day after the due date (at most all)."""

    def late_submission_penalty(self, student_id, score, total_seconds_late):
        days = -(-total_seconds_late // 86400)
        return min(score, round(score * 0.1 * days, 2))


class CsvWithStatus(ExportPlugin):
    """nbgrader's CSV export, plus a `status` column: on time, late or missing.

    nbgrader's own CSV gives a missing submission a score of 0, which reads like a real zero.
    Here a missing submission has status ``missing`` and an empty score.
    """

    def export(self, gradebook):
        dest = self.to or "grades.csv"
        keys = ["assignment", "duedate", "timestamp", "student_id", "last_name",
                "first_name", "email", "status", "raw_score", "late_submission_penalty",
                "score", "max_score"]  # fmt: skip
        with open(dest, "w", newline="") as fh:
            out = csv.DictWriter(fh, keys)
            out.writeheader()
            for assignment in gradebook.assignments:
                for student in gradebook.students:
                    row = {
                        "assignment": assignment.name,
                        "duedate": assignment.duedate or "",
                        "student_id": student.id,
                        "last_name": student.last_name or "",
                        "first_name": student.first_name or "",
                        "email": student.email or "",
                        "max_score": assignment.max_score,
                    }
                    try:
                        sub = gradebook.find_submission(assignment.name, student.id)
                    except MissingEntry:
                        row.update(status="missing", timestamp="", raw_score="", score="")
                        row["late_submission_penalty"] = ""
                    else:
                        penalty = sub.late_submission_penalty or 0.0
                        row.update(
                            status="late" if sub.total_seconds_late > 0 else "on time",
                            timestamp=sub.timestamp,
                            raw_score=sub.score,
                            late_submission_penalty=penalty,
                            score=max(sub.score - penalty, 0.0),
                        )
                    out.writerow(row)
