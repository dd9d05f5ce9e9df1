"""The whole nbgrader loop, headless, in a scratch course directory (run by `make autograde-demo`).

1. write a course directory for this term's seed (variants.py), so the repository is never
   written to; import the problem sets with a due date and the students from CSV files;
2. `nbgrader generate_assignment`, then check the release: no solution, hidden test or
   reference answer may survive;
3. submit for each simulated student (students.py): `reference` (the instructor's notebook),
   `blank` (the untouched release), `different` (correct, written differently), `mistakes`
   (typical mistakes), `patcher` (monkeypatches numpy, math, builtins and kappalib, returns
   rigged objects), `hardcoder` (last term's numbers) and `late` (ps1 only, two days late);
4. `nbgrader autograde`, the integrity audit (integrity_audit.py), the written answers graded
   through nbgrader's gradebook API, `nbgrader generate_feedback`, `nbgrader export`;
5. check: reference full marks, blank 0, different full, mistakes partial with hints in the
   feedback, patcher <= 10% and flagged, hardcoder 0 on every question whose data vary with
   the seed, the late penalty, the missing submissions marked missing, and no hidden test in
   the feedback. Print the score table.

Exit status 1 when a check fails.
"""

from __future__ import annotations

import argparse
import csv
import html
import itertools
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import integrity_audit  # noqa: E402
import students as sims  # noqa: E402
import variants  # noqa: E402

MARKERS = ("BEGIN SOLUTION", "END SOLUTION", "BEGIN HIDDEN TESTS", "END HIDDEN TESTS")
SENTINEL = re.compile(r"sentinel: (ps\d-solution-[\w-]+)")
DUE = "2026-12-04 17:00:00 UTC"
ON_TIME, LATE = "2026-12-04 12:00:00 UTC", "2026-12-06 09:30:00 UTC"
LAST_TERM = 2025
STUDENTS = ["reference", "blank", "different", "mistakes", "patcher", "hardcoder", "late"]
# Manual grades of the written answers, as a fraction of their points (the demo's instructor).
WRITTEN = {"reference": 1.0, "different": 1.0, "mistakes": 0.5, "late": 1.0}
problem_sets = variants.problem_sets


def sentinels(source: Path, ps: str) -> set[str]:
    """The unique `# sentinel: psN-solution-...` strings inside the solutions of a problem set."""
    return set(SENTINEL.findall((source / ps / f"{ps}.ipynb").read_text()))


def solution_texts(notebook: Path) -> list[str]:
    """Each reference answer of a source notebook: solution regions and written answers."""
    texts = []
    for cell in json.loads(notebook.read_text())["cells"]:
        meta, src = cell["metadata"].get("nbgrader", {}), "".join(cell["source"])
        if not meta.get("solution"):
            continue
        if cell["cell_type"] == "markdown":
            texts.append(src)
        else:
            texts += re.findall(r"### BEGIN SOLUTION\n(.*?)### END SOLUTION", src, re.S)
    return texts


def release_leaks(source: Path, release: Path) -> list[str]:
    """What a released notebook must not contain: markers, sentinels, reference answers."""
    leaks = []
    for ps in problem_sets(source):
        found = sentinels(source, ps)
        if not found:
            leaks.append(f"{ps}: the source has no sentinel to look for")
        text = (release / ps / f"{ps}.ipynb").read_text()
        released = "".join(
            "".join(c["source"]) for c in json.loads(text)["cells"]
        )  # the cells' text, as a student sees it
        leaks += [f"{ps}: {s!r} in the release" for s in (*MARKERS, *found) if s in text]
        for answer in solution_texts(source / ps / f"{ps}.ipynb"):
            for line in answer.splitlines():
                if len(line.strip()) >= 30 and line.strip() in released:
                    leaks.append(f"{ps}: reference answer line {line.strip()!r} in the release")
    return leaks


def hidden_lines(source: Path) -> set[str]:
    """Distinctive lines of the hidden tests (none of them may reach a feedback page)."""
    lines, visible = set(), set()
    for nb in source.glob("*/*.ipynb"):
        for cell in json.loads(nb.read_text())["cells"]:
            text = "".join(cell["source"])
            hidden = re.findall(r"### BEGIN HIDDEN TESTS\n(.*?)### END HIDDEN TESTS", text, re.S)
            for block in hidden:
                lines |= {x.strip() for x in block.splitlines() if len(x.strip()) >= 25}
                text = text.replace(block, "")
            visible |= {x.strip() for x in text.splitlines()}
    return lines - visible


def nbgrader(course: Path, *args: str) -> None:
    env = dict(os.environ)
    # nbgrader runs `alembic` (its database migrations) from PATH: use the one beside it.
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["PYTHONWARNINGS"] = "ignore"  # SQLAlchemy's warnings about nbgrader's own sessions
    cmd = [sys.executable, "-m", "nbgrader", *args, "--log-level=ERROR"]
    print("$ nbgrader " + " ".join(args), flush=True)
    run = subprocess.run(cmd, cwd=course, env=env, capture_output=True, text=True)
    # The kernels' "running over TCP without encryption" warnings are noise; errors are not.
    for line in (run.stdout + run.stderr).splitlines():
        if "without encryption" not in line and line.strip():
            print("   ", line)
    if run.returncode:
        raise SystemExit(f"nbgrader {args[0]} failed ({run.returncode})")


def answer(release_nb: dict, cells: dict[str, str]) -> dict:
    """The released notebook with the answer cells replaced by a student's code or text."""
    nb = json.loads(json.dumps(release_nb))
    for cell in nb["cells"]:
        gid = cell["metadata"].get("nbgrader", {}).get("grade_id")
        if gid in cells:
            cell["source"] = cells[gid].strip("\n").splitlines(keepends=True)
    return nb


def submit(course: Path, student: str, ps: str, nb: dict, when: str) -> None:
    dest = course / "submitted" / student / ps
    dest.mkdir(parents=True)
    (dest / f"{ps}.ipynb").write_text(json.dumps(nb, indent=1))
    (dest / "timestamp.txt").write_text(when)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--course", type=Path, default=Path("_build/autograde-demo"))
    parser.add_argument("--seed", type=int, default=variants.SEED)
    args = parser.parse_args()
    course, seed = args.course.resolve(), args.seed
    started = time.perf_counter()
    if course.exists():
        shutil.rmtree(course)
    variants.write_course(course, seed)
    sets = problem_sets(course / "source")
    failures: list[str] = []

    # 1. The term: problem sets with a due date, students from a CSV (as for a real class).
    (course / "assignments.csv").write_text(
        "name,duedate\n" + "".join(f"{ps},{DUE}\n" for ps in sets)
    )
    (course / "students.csv").write_text(
        "id,first_name,last_name,email\n"
        + "".join(f"{s},{s.title()},Student,{s}@example.org\n" for s in STUDENTS)
    )
    nbgrader(course, "db", "assignment", "import", "assignments.csv")
    nbgrader(course, "db", "student", "import", "students.csv")

    # 2. Release, and check it.
    for ps in sets:
        nbgrader(course, "generate_assignment", ps)
    failures += release_leaks(course / "source", course / "release")

    # 3. Submissions.
    last = {ps: variants.term_data(ps, LAST_TERM) for ps in sets}
    answers = {
        "different": sims.DIFFERENT,
        "mistakes": sims.MISTAKES,
        "patcher": sims.MONKEYPATCHER,
        "hardcoder": sims.hard_coder(last),
    }
    for ps in sets:
        source_nb = json.loads((course / "source" / ps / f"{ps}.ipynb").read_text())
        release_nb = json.loads((course / "release" / ps / f"{ps}.ipynb").read_text())
        submit(course, "reference", ps, source_nb, ON_TIME)
        submit(course, "blank", ps, release_nb, ON_TIME)
        for student, cells in answers.items():
            submit(course, student, ps, answer(release_nb, cells), ON_TIME)
    submit(
        course,
        "late",
        "ps1",
        answer(json.loads((course / "release" / "ps1" / "ps1.ipynb").read_text()), sims.DIFFERENT),
        LATE,
    )

    # 4. Grade: autograde, audit, the written answers by hand, feedback, export.
    for ps in sets:
        nbgrader(course, "autograde", ps)
    flags = integrity_audit.audit(course / "submitted")
    print("\nIntegrity audit:")
    for flag in flags:
        print("  ", flag)
    written = record_manual_grades(course, sets)
    for ps in sets:
        nbgrader(course, "generate_feedback", ps)
    nbgrader(course, "export", "--to=grades.csv")

    # 5. Checks.
    rows = {
        (r["student_id"], r["assignment"]): r
        for r in csv.DictReader((course / "grades.csv").open())
    }
    cells = cell_scores(course, sets)
    failures += check(course, sets, rows, cells, flags, written, last, seed)
    print_table(sets, rows)
    for failure in failures:
        print("FAIL:", failure)
    took = time.perf_counter() - started
    if failures:
        return 1
    print(
        f"\nautograde-demo: {len(sets)} problem sets, {len(STUDENTS)} students, seed {seed}: "
        f"every check passed in {took:.0f} s."
    )
    return 0


def record_manual_grades(course: Path, sets: list[str]) -> dict:
    """Grade the written answers through nbgrader's gradebook API (what formgrader does)."""
    from nbgrader.api import Gradebook

    recorded = {}
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        for ps in sets:
            for student in STUDENTS:
                try:
                    sub = gb.find_submission_notebook(ps, ps, student)
                except Exception:
                    continue  # missing submission
                for grade in sub.grades:
                    if grade.auto_score is None and grade.max_score > 0:
                        grade.manual_score = WRITTEN.get(student, 0.0) * grade.max_score
                        recorded[(student, ps, grade.name)] = grade.manual_score
        gb.db.commit()
    return recorded


def cell_scores(course: Path, sets: list[str]) -> dict:
    from nbgrader.api import Gradebook

    scores = {}
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        for ps in sets:
            for student in STUDENTS:
                try:
                    sub = gb.find_submission_notebook(ps, ps, student)
                except Exception:
                    continue
                for grade in sub.grades:
                    scores[(student, ps, grade.name)] = (grade.score, grade.max_score)
    return scores


def seeded_cells(sets: list[str], last: dict, seed: int) -> set[tuple[str, str]]:
    """(ps, grade id) of each autograded cell whose expected answer differs between terms."""
    import kappalib as kl

    def higher(d):
        return "a" if kl.kappa(d["C_a"]) > kl.kappa(d["C_b"]) else "b"

    def worst(d):
        orders = list(itertools.permutations([1, 2, 3, 4]))
        values = [
            kl.cohen_kappa_score(d["rater"], d["model"], weighting="quadratic", labels=list(p))
            for p in orders
        ]
        return min(values)

    answer_of = {  # what each graded cell's expected answer is made of
        "ps1": {"q1a-observed": "C", "q1b-expected": "C", "q1c-kappa": "C",
                "q2b-targets": lambda d: (d["target_po"], d["target_kappa"])},
        "ps2": {"q3a-matrix": "rater", "q3b-linear": "rater", "q3c-quadratic": "rater",
                "q4-tests": worst},
        "ps3": {"q1a-curves": "K", "q1b-argmin": "K", "q1c-minimum": "K"},
        "ps4": {"q1-tests": "C_a", "q2-tests": "C_a", "q3a-kappas": "C_a",
                "q3b-higher": higher, "q4a-se": "C_a", "q4b-interval": "C_a"},
        "ps5": {"q1-tests": "M_skew", "q2-tests": "M_skew",
                "q3a-sym": lambda d: 0.0,  # Proposition 1: the same answer every term
                "q3b-skew": "M_skew"},
    }  # fmt: skip
    out = set()
    for ps in sets:
        now = variants.term_data(ps, seed)
        for cell, key in answer_of.get(ps, {}).items():
            get = key if callable(key) else (lambda d, k=key: d[k])
            if str(get(now)) != str(get(last[ps])):
                out.add((ps, f"{ps}-{cell}"))
    return out


def check(course, sets, rows, cells, flags, written, last, seed) -> list[str]:
    failures = []

    def total(student):
        return sum(float(rows[(student, ps)]["score"] or 0) for ps in sets)

    full = sum(float(rows[("reference", ps)]["max_score"]) for ps in sets)
    for student in ("reference", "different"):
        for ps in sets:
            r = rows[(student, ps)]
            if float(r["score"]) != float(r["max_score"]):
                failures.append(f"{student} {ps}: {r['score']} of {r['max_score']}, want full")
    for ps in sets:
        if float(rows[("blank", ps)]["score"]) != 0:
            failures.append(f"blank {ps}: {rows[('blank', ps)]['score']}, want 0")
    if not 0 < total("mistakes") < full:
        failures.append(f"mistakes: {total('mistakes')} of {full}, want partial credit")
    if total("patcher") > 0.1 * full:
        failures.append(f"patcher: {total('patcher')} of {full}, want at most 10%")
    patched = {f.ps for f in flags if f.student == "patcher" and f.integrity}
    if patched != set(sets):
        failures.append(f"the audit flags the patcher in {sorted(patched)}, want every set")
    honest = {f.student for f in flags if f.integrity} - {"patcher"}
    if honest:
        failures.append(f"the audit flags honest students: {sorted(honest)}")
    caught = seeded_cells(sets, last, seed)
    if not caught:
        failures.append("no question's data differ between the two terms")
    for ps, gid in sorted(caught):
        score, _ = cells[("hardcoder", ps, gid)]
        if score:
            failures.append(f"hardcoder {ps} {gid}: {score} points for last term's numbers")
    late = rows[("late", "ps1")]
    if late["status"] != "late" or not float(late["late_submission_penalty"]) > 0:
        failures.append(
            f"late ps1: status {late['status']}, penalty {late['late_submission_penalty']}"
        )
    for ps in sets[1:]:
        if rows[("late", ps)]["status"] != "missing" or rows[("late", ps)]["score"] != "":
            failures.append(f"late {ps}: a missing submission must show as missing")
    if not written:
        failures.append("no manual grade recorded")
    # Feedback: every submission has a page; hints reach it; the hidden tests do not.
    secret = hidden_lines(course / "source")
    pages = sorted((course / "feedback").glob("*/*/*.html"))
    if len(pages) != len(sets) * (len(STUDENTS) - 1) + 1:
        failures.append(f"{len(pages)} feedback pages")
    for page in pages:
        text = html.unescape(re.sub(r"<[^>]+>", "", page.read_text()))
        shown = [line for line in secret if line in text]
        if "BEGIN HIDDEN TESTS" in text or shown:
            failures.append(f"{page.relative_to(course)} shows hidden tests: {shown[:1]}")
    hints = [p for p in pages if "mistakes" in p.parts and "Hint:" in p.read_text()]
    if len(hints) != len(sets):
        failures.append(f"hints in {len(hints)} of the mistakes student's feedback pages")
    return failures


def print_table(sets: list[str], rows: dict) -> None:
    maxes = [float(rows[("reference", ps)]["max_score"]) for ps in sets]
    print("\n| student | " + " | ".join(f"{ps} /{m:g}" for ps, m in zip(sets, maxes, strict=True))
          + f" | total /{sum(maxes):g} |")  # fmt: skip
    print("|---" * (len(sets) + 2) + "|")
    for student in STUDENTS:
        cells, tot = [], 0.0
        for ps in sets:
            r = rows[(student, ps)]
            if r["status"] == "missing":
                cells.append("missing")
                continue
            cells.append(f"{float(r['score']):g}" + (" (late)" if r["status"] == "late" else ""))
            tot += float(r["score"])
        print(f"| {student} | " + " | ".join(cells) + f" | {tot:g} |")


if __name__ == "__main__":
    sys.exit(main())
