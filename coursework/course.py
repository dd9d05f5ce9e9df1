"""Make or update a course directory (run by `make course`).

    python coursework/course.py --course DIR --seed N --students students.csv \\
        --assignments assignments.csv

* ``DIR/source/psN``: the instructor's notebooks with this term's setup (variants.py);
* ``DIR/release/psN``: the sets to hand out (nbgrader ``generate_assignment``);
* ``DIR/gradebook.db``: nbgrader's gradebook, with the roster from ``students.csv``
  (columns ``id,first_name,last_name,email``) and the due dates from ``assignments.csv``
  (columns ``name,duedate``; the date as ``YYYY-MM-DD HH:MM:SS`` followed by a time zone
  name or offset, e.g. ``2027-02-12 17:00:00 UTC`` or ``2027-02-12 17:00:00 +0100``);
* ``DIR/course.json``: the term's seed; ``DIR/.grading_key``: a random key from which the
  grader draws the inputs it gives students' functions (never released).

Running it again on the same directory updates the roster and the due dates, adds new sets
and loses nothing: submissions, grades and the key stay. A different seed is refused (the
released data would no longer match the grading). Templates of both CSV files are in
``coursework/templates/``.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import re
import secrets
import sys
from datetime import datetime
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import variants  # noqa: E402

ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
STUDENT_COLUMNS = ["id", "first_name", "last_name", "email"]
ASSIGNMENT_COLUMNS = ["name", "duedate"]


class CourseError(ValueError):
    """A bad course directory, roster or list of due dates (one sentence)."""


def read_csv(path: Path, columns: list[str], what: str) -> list[dict]:
    with open(path, newline="", encoding="utf-8-sig") as fh:
        rows = list(csv.DictReader(fh))
        header = rows[0].keys() if rows else []
    if not rows or list(header)[: len(columns)] != columns:
        raise CourseError(f"{what} {path} must start with the columns {','.join(columns)}")
    return rows


def parse_due(text: str, where: str) -> datetime:
    text = text.strip()
    for fmt in ("%Y-%m-%d %H:%M:%S %Z", "%Y-%m-%d %H:%M:%S %z", "%Y-%m-%dT%H:%M:%S%z"):
        try:
            when = datetime.strptime(text, fmt)
        except ValueError:
            continue
        if when.tzinfo is None:  # %Z accepts UTC and GMT only, without setting tzinfo
            from datetime import UTC

            when = when.replace(tzinfo=UTC)
        return when
    raise CourseError(
        f"{where}: due date {text!r} is not 'YYYY-MM-DD HH:MM:SS UTC' (or with an offset +0100)"
    )


def students(path: Path) -> list[dict]:
    rows = read_csv(path, STUDENT_COLUMNS, "the student list")
    seen = set()
    for i, row in enumerate(rows, start=2):
        sid = (row["id"] or "").strip()
        if not ID.match(sid):
            raise CourseError(f"{path} line {i}: student id {sid!r} must be letters, digits, . _ -")
        if sid in seen:
            raise CourseError(f"{path} line {i}: student id {sid!r} appears twice")
        seen.add(sid)
    return rows


def assignments(path: Path, sets: list[str]) -> list[tuple[str, datetime]]:
    out = []
    for i, row in enumerate(read_csv(path, ASSIGNMENT_COLUMNS, "the assignment list"), start=2):
        name = (row["name"] or "").strip()
        if name not in sets:
            raise CourseError(f"{path} line {i}: assignment {name!r} is not one of {sets}")
        out.append((name, parse_due(row["duedate"] or "", f"{path} line {i}")))
    return out


def nbgrader_env() -> None:
    # nbgrader runs `alembic` (its database migrations) from PATH: use the one beside Python.
    os.environ["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"


def make_course(course: Path, seed: int, students_csv: Path, assignments_csv: Path) -> None:
    from nbgrader.api import Gradebook
    from nbgrader.apps import NbGraderAPI
    from nbgrader.coursedir import CourseDirectory
    from traitlets.config import Config

    course = course.resolve()
    roster = students(students_csv)
    meta = course / "course.json"
    if meta.exists():
        old = json.loads(meta.read_text())["seed"]
        if old != seed:
            raise CourseError(
                f"{course} was made with SEED={old}; a new seed would change every student's "
                f"data after release. Use SEED={old}, or a new course directory."
            )
    variants.write_course(course, seed)
    sets = variants.problem_sets(course / "source")
    dues = assignments(assignments_csv, sets)
    meta.write_text(json.dumps({"seed": seed}) + "\n")
    key = course / ".grading_key"
    if not key.exists():
        key.write_text(str(secrets.randbits(63)) + "\n")
        key.chmod(0o600)
    nbgrader_env()
    url = f"sqlite:///{course / 'gradebook.db'}"
    with Gradebook(url) as gb:
        for row in roster:
            gb.update_or_create_student(
                row["id"].strip(),
                first_name=row["first_name"],
                last_name=row["last_name"],
                email=row["email"],
            )
        for name, due in dues:
            gb.update_or_create_assignment(name, duedate=due)
    config = Config()
    config.CourseDirectory.root = str(course)
    config.CourseDirectory.db_url = url
    config.ClearSolutions.code_stub = {"python": "# YOUR CODE HERE\nraise NotImplementedError()"}
    config.Application.log_level = "ERROR"
    api = NbGraderAPI(coursedir=CourseDirectory(config=config), config=config)
    for ps in sets:
        result = api.generate_assignment(ps, force=True)
        if not result["success"]:
            raise CourseError(f"nbgrader could not release {ps}: {result.get('error')}")
    print(
        f"course {course}: seed {seed}, {len(roster)} students, due dates for "
        f"{', '.join(n for n, _ in dues)}; released {', '.join(sets)} under {course / 'release'}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--course", type=Path, required=True)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--students", type=Path, required=True)
    parser.add_argument("--assignments", type=Path, required=True)
    args = parser.parse_args()
    try:
        make_course(args.course, args.seed, args.students, args.assignments)
    except (CourseError, OSError) as err:
        print(f"make course: {err}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
