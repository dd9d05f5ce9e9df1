"""The whole nbgrader loop, headless, in a scratch course directory (run by `make autograde-demo`).

1. copy nbgrader_config.py and source/ into a fresh course directory (default
   _build/autograde-demo/), so the repository is never written to;
2. `nbgrader generate_assignment` for every problem set, then check the released notebooks:
   no solution or hidden-test marker and no solution sentinel may survive;
3. `nbgrader db student add` two students: `reference` submits the source notebook (the
   reference solution), `blank` submits the released notebook untouched;
4. `nbgrader autograde` and `nbgrader export` to grades.csv;
5. check the CSV: full marks for `reference`, zero for `blank`, on every problem set.

Exit status 1 when a check fails. The nbgrader commands are those an instructor types (see
book/for_instructors.md); each spends a few seconds starting.
"""

from __future__ import annotations

import argparse
import csv
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
MARKERS = ("BEGIN SOLUTION", "END SOLUTION", "BEGIN HIDDEN TESTS", "END HIDDEN TESTS")
SENTINEL = re.compile(r"sentinel: (ps\d-solution-[\w-]+)")


def problem_sets(source: Path) -> list[str]:
    return sorted(p.name for p in source.iterdir() if (p / f"{p.name}.ipynb").is_file())


def sentinels(source: Path, ps: str) -> set[str]:
    """The unique `# sentinel: psN-solution-...` strings inside the solutions of a problem set."""
    return set(SENTINEL.findall((source / ps / f"{ps}.ipynb").read_text()))


def release_leaks(source: Path, release: Path) -> list[str]:
    """What a released notebook must not contain: markers, sentinels. Empty when clean."""
    leaks = []
    for ps in problem_sets(source):
        found = sentinels(source, ps)
        if not found:
            leaks.append(f"{ps}: the source has no sentinel to look for")
        text = (release / ps / f"{ps}.ipynb").read_text()
        leaks += [f"{ps}: {s!r} in the release" for s in (*MARKERS, *found) if s in text]
    return leaks


def nbgrader(course: Path, *args: str) -> None:
    env = dict(os.environ)
    # nbgrader runs `alembic` (its database migrations) from PATH: use the one beside it.
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    cmd = [sys.executable, "-m", "nbgrader", *args, "--log-level=ERROR"]
    print("$ nbgrader " + " ".join(args), flush=True)
    subprocess.run(cmd, cwd=course, env=env, check=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--course", type=Path, default=Path("_build/autograde-demo"))
    course = parser.parse_args().course.resolve()
    if course.exists():
        shutil.rmtree(course)
    course.mkdir(parents=True)
    shutil.copy(HERE / "nbgrader_config.py", course)
    shutil.copytree(HERE / "source", course / "source")
    sets = problem_sets(course / "source")

    for ps in sets:
        nbgrader(course, "generate_assignment", ps)
    leaks = release_leaks(course / "source", course / "release")
    for leak in leaks:
        print("LEAK:", leak)

    students = {"reference": "source", "blank": "release"}
    for student in students:
        nbgrader(course, "db", "student", "add", student, f"--last-name={student.title()}")
    for ps in sets:
        for student, origin in students.items():
            dest = course / "submitted" / student / ps
            dest.mkdir(parents=True)
            shutil.copy(course / origin / ps / f"{ps}.ipynb", dest / f"{ps}.ipynb")
        nbgrader(course, "autograde", ps)
    nbgrader(course, "export", "--to=grades.csv")

    csv_path = course / "grades.csv"
    rows = list(csv.DictReader(csv_path.open()))
    print(f"\n{csv_path}:\n" + csv_path.read_text())
    failures = list(leaks)
    for ps in sets:
        for student in students:
            row = [r for r in rows if r["assignment"] == ps and r["student_id"] == student]
            if len(row) != 1:
                failures.append(f"{ps}/{student}: {len(row)} rows in the CSV")
                continue
            score, max_score = float(row[0]["score"]), float(row[0]["max_score"])
            want = max_score if student == "reference" else 0.0
            if max_score <= 0 or score != want:
                failures.append(f"{ps}/{student}: {score:g} of {max_score:g}, expected {want:g}")
    for failure in failures:
        print("FAIL:", failure)
    if failures:
        return 1
    print(
        f"autograde-demo: {len(sets)} problem sets released clean; "
        "the reference solution has full marks and the blank submission 0."
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
