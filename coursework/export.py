"""The grades of a course directory as CSV: one for the instructor, one for the LMS.

    python coursework/export.py --course DIR      # make grade runs it after grading

``DIR/grades.csv``: one row per student and problem set, with the columns

    student_id, assignment, status, duedate, extension_days, timestamp, days_late,
    auto_score, auto_max, manual_score, manual_max, raw_score, late_penalty, score,
    max_score, last_name, first_name, email

``status`` is one of ``on time``, ``late``, ``missing`` (no submission: empty scores, the
maximum points filled in), ``failed to run`` (the notebook could not be read, hit a limit of
its sandbox, or its answers could not be read: 0 automatic points, and the reason in
``status_detail``), ``needs regrading`` (the machine was too busy to judge the run, twice: no
automatic points yet, the scores empty), ``grader error`` (the grader's own code failed on this
submission: 0 automatic points until it is fixed and graded again) and ``needs manual grading``
(a written answer has no grade yet: the score so far, not final). The late penalty is 10% of
the whole score (automatic *and* written) per started day after the due date plus the
student's extension, computed here, at export time, so a written answer graded later is
penalised like the rest. Extensions come from
``DIR/extensions.csv`` (columns ``student_id,assignment,days``), if there is one.

``DIR/lms_grades.csv``: one row per student, the columns ``Student,SIS User ID,SIS Login ID,
Section`` and one column per problem set holding the final score (empty while missing or
not fully graded). Canvas imports it from Grades > Import (it matches students on the SIS
User ID, here the course's student id, or on the SIS Login ID, here the e-mail address);
Moodle imports it from Grades > Import > CSV file, mapping "SIS Login ID" to "Email address"
and each set's column to its grade item. Neither import is tested here.

A spreadsheet runs a cell that starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage
return as a formula, and a roster name or a status is text a student may influence. As OWASP's
CSV injection rule says, every such text cell is written with a ``'`` in front (``neutral``):
the spreadsheet shows it as text. Numbers are written as numbers.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import re
import sys
from datetime import UTC, timedelta
from pathlib import Path

COLUMNS = ["student_id", "assignment", "status", "status_detail", "duedate", "extension_days",
           "timestamp",
           "days_late", "auto_score", "auto_max", "manual_score", "manual_max", "raw_score",
           "late_penalty", "score", "max_score", "last_name", "first_name", "email"]  # fmt: skip
PENALTY_PER_DAY = 0.10
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
NUMBER = re.compile(r"^-?\d+(\.\d+)?$")


def neutral(value) -> str:
    """A CSV cell a spreadsheet shows as text, never runs (OWASP's rule): a ``'`` before a text
    that starts with a formula character. A plain number is left as it is."""
    text = "" if value is None else str(value)
    if text.startswith(FORMULA_START) and not NUMBER.match(text):
        return "'" + text
    return text


def write_csv(path: Path, columns: list[str], rows: list[dict]) -> None:
    with open(path, "w", newline="") as fh:
        w = csv.DictWriter(fh, columns)
        w.writeheader()
        for row in rows:
            w.writerow({k: neutral(row.get(k, "")) for k in columns})


def late_penalty(raw: float, seconds_late: float) -> float:
    """10% of the score for each started day late, at most the whole score."""
    if seconds_late <= 0:
        return 0.0
    days = math.ceil(seconds_late / 86400)
    return round(min(raw, raw * PENALTY_PER_DAY * days), 2)


def extensions(course: Path) -> dict[tuple[str, str], float]:
    path = course / "extensions.csv"
    if not path.exists():
        return {}
    out = {}
    with open(path, newline="", encoding="utf-8-sig") as fh:
        for i, row in enumerate(csv.DictReader(fh), start=2):
            try:
                out[(row["student_id"].strip(), row["assignment"].strip())] = float(row["days"])
            except (KeyError, ValueError, AttributeError):
                raise ValueError(
                    f"{path} line {i}: columns student_id,assignment,days, days a number"
                ) from None
    return out


def aware(t):
    return None if t is None else (t if t.tzinfo else t.replace(tzinfo=UTC))


def rows(course: Path) -> list[dict]:
    from nbgrader.api import Gradebook, MissingEntry

    ext = extensions(course)
    out = []
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        for assignment in sorted(gb.assignments, key=lambda a: a.name):
            for student in sorted(gb.students, key=lambda s: s.id):
                days = ext.get((student.id, assignment.name), 0.0)
                due = aware(assignment.duedate)
                row = {"student_id": student.id, "assignment": assignment.name,
                       "duedate": due.isoformat() if due else "", "extension_days": f"{days:g}",
                       "last_name": student.last_name or "", "first_name": student.first_name or "",
                       "email": student.email or ""}  # fmt: skip
                try:
                    sub = gb.find_submission(assignment.name, student.id)
                except MissingEntry:
                    row.update({k: "" for k in COLUMNS if k not in row})
                    cells = [g for nb in assignment.notebooks for g in nb.grade_cells]
                    a_max = sum(g.max_score for g in cells if g.cell_type == "code")
                    m_max = sum(g.max_score for g in cells if g.cell_type == "markdown")
                    row.update(status="missing", auto_max=f"{a_max:g}", manual_max=f"{m_max:g}",
                               max_score=f"{a_max + m_max:g}")  # fmt: skip
                    out.append(row)
                    continue
                auto = manual = auto_max = manual_max = 0.0
                ungraded = False
                for nb in sub.notebooks:
                    for g in nb.grades:
                        if g.cell.cell_type == "markdown":
                            manual_max += g.max_score
                            if g.manual_score is None:
                                ungraded = True
                            else:
                                manual += g.manual_score
                        else:
                            auto_max += g.max_score
                            auto += (
                                g.manual_score
                                if g.manual_score is not None
                                else (g.auto_score or 0.0)
                            )
                graded = graded_status(course, student.id, assignment.name)
                ts = aware(sub.timestamp)
                late_s = (ts - (due + timedelta(days=days))).total_seconds() if ts and due else 0.0
                raw = auto + manual
                penalty = late_penalty(raw, late_s)
                kind = graded.split(":")[0]
                status = (kind if kind in ("failed to run", "needs regrading", "grader error")
                          else "needs manual grading" if ungraded
                          else "late" if late_s > 0 else "on time")  # fmt: skip
                row.update(
                    status_detail=graded if graded != "ok" else "",
                    status=status,
                    timestamp=ts.isoformat() if ts else "",
                    days_late=f"{max(late_s, 0) / 86400:.2f}",
                    auto_score=f"{auto:g}", auto_max=f"{auto_max:g}",
                    manual_score="" if ungraded else f"{manual:g}", manual_max=f"{manual_max:g}",
                    raw_score=f"{raw:g}", late_penalty=f"{penalty:g}",
                    score=f"{max(raw - penalty, 0.0):g}", max_score=f"{auto_max + manual_max:g}",
                )  # fmt: skip
                if kind == "needs regrading":  # not a real zero: no score until regraded
                    row.update(auto_score="", raw_score="", late_penalty="", score="")
                out.append(row)
    return out


def graded_status(course: Path, student: str, ps: str) -> str:
    """The grader's status of one submission ("ok", "failed to run: ...", ...), from its record."""
    record = course / "autograded" / student / ps / "score.json"
    if not record.exists():
        return "ok"
    try:
        got = json.loads(record.read_text())
        return str(got.get("status", got.get("status_run", "ok")))[:300]
    except (OSError, ValueError, AttributeError):
        return "grader error: its record autograded/.../score.json cannot be read"


def export(course: Path) -> list[dict]:
    table = rows(course)
    write_csv(course / "grades.csv", COLUMNS, table)
    sets = sorted({r["assignment"] for r in table})
    people = {}
    for r in table:
        p = people.setdefault(r["student_id"], {
            "Student": f"{r['last_name']}, {r['first_name']}".strip(", "),
            "SIS User ID": r["student_id"], "SIS Login ID": r["email"], "Section": ""})  # fmt: skip
        final = r["status"] in ("on time", "late", "failed to run")
        p[r["assignment"]] = r["score"] if final else ""
    write_csv(course / "lms_grades.csv", ["Student", "SIS User ID", "SIS Login ID", "Section",
                                           *sets], list(people.values()))  # fmt: skip
    return table


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--course", type=Path, required=True)
    args = parser.parse_args()
    export(args.course.resolve())
    print(f"{args.course / 'grades.csv'} and {args.course / 'lms_grades.csv'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
