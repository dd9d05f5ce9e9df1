"""The whole coursework loop, headless, with simulated students (run by `make autograde-demo`).

1. ``make course`` in a scratch directory: a roster and due dates from CSV files, the release
   (nbgrader), an instructor's home (a fake ``HOME``) holding a planted secret in ``.ssh``;
2. submissions: five honest styles (``different``: loops and own formulas; ``rounded``,
   ``exact``, ``pandas``: the same answers as rounded numbers, Fractions and 0-d arrays, pandas
   objects; ``scratch``: extra cells, and a classmate's id typed in), ``reference`` (a
   verbatim copy of the source solutions) and ``renamed`` (the same with every name changed),
   ``blank``, ``mistakes``, ``patcher`` (monkeypatches numpy, math, builtins and kappalib,
   rigged objects), ``hardcoder`` (last term's numbers) and ``classmate`` (another student's
   numbers), ``late`` and ``extended`` (ps1 two days late, without and with a three-day
   extension), and one student per cheat in ``cheats/``; a folder of an unknown id, which
   ``make grade`` must refuse;
3. ``make grade`` for each set (the sandbox, the scorer, the gradebook, feedback, the CSVs),
   the integrity audit, the written answers graded through nbgrader's gradebook API, export;
4. checks: honest styles full marks and no flag; both copies flagged in every set; blank 0;
   mistakes partial with hints; every cheat at most 10% of each set's automatic points; the
   hard-coders 0 on every part that uses the student's own data; late and extension; statuses
   (missing, needs manual grading, failed to run); no file outside the private copies changed
   (the submissions, the source, the release, the home, the repository's coursework); the
   planted secret in no feedback page; the table of points, and the time per set.

Exit status 1 when a check fails.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import os
import shutil
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import course as course_mod  # noqa: E402
import export  # noqa: E402
import grade  # noqa: E402
import integrity_audit  # noqa: E402
import scoring  # noqa: E402
import students as sims  # noqa: E402
import variants  # noqa: E402

DUE = "2026-12-04 17:00:00 UTC"
ON_TIME, LATE = "2026-12-04 12:00:00 UTC", "2026-12-06 09:30:00 UTC"
LAST_TERM = 2025
SECRET = "planted-secret-of-the-instructor-7f3a9c"
HONEST = ["different", "rounded", "exact", "pandas", "scratch"]
COPIES = ["reference", "renamed"]
CHEATS = sorted(p.stem for p in (HERE / "cheats").glob("*.py"))
OTHERS = ["blank", "mistakes", "patcher", "hardcoder", "classmate", "late", "extended", "broken"]
STUDENTS = HONEST + COPIES + OTHERS + [f"cheat-{c}" for c in CHEATS]
WRITTEN = {s: 1.0 for s in [*HONEST, *COPIES, "late", "extended"]} | {"mistakes": 0.5}


def answer(release_nb: dict, cells: dict[str, str]) -> dict:
    """The released notebook with the answer cells replaced by a student's code or text."""
    nb = json.loads(json.dumps(release_nb))
    for cell in nb["cells"]:
        gid = cell["metadata"].get("nbgrader", {}).get("grade_id")
        if gid in cells:
            cell["source"] = cells[gid].strip("\n").splitlines(keepends=True)
    return nb


def typed(nb: dict, student: str) -> dict:
    for cell in nb["cells"]:
        if cell["cell_type"] == "code" and variants.ID_LINE.search("".join(cell["source"])):
            cell["source"] = variants.ID_LINE.sub(
                f"STUDENT_ID = {student!r}", "".join(cell["source"])
            )
            break
    return nb


def code_cell(text: str) -> dict:
    return {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
            "source": text.splitlines(keepends=True)}  # fmt: skip


def renamed(nb: dict, ps: str) -> dict:
    """The reference solutions with every local name changed and the comments dropped."""
    import ast

    data = variants.term_data(ps, 0, "x")
    req = scoring.request(ps, data, variants.student_rng(ps, 0, "x"))
    keep = set(req["values"]) | set(req["calls"]) | set(data)
    out = json.loads(json.dumps(nb))
    for cell in out["cells"]:
        meta = cell["metadata"].get("nbgrader", {})
        if not (meta.get("solution") and cell["cell_type"] == "code"):
            continue
        tree = ast.parse("".join(cell["source"]))
        local = {
            n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
        }
        local |= {n.arg for n in ast.walk(tree) if isinstance(n, ast.arg)}
        new = {name: f"my_{name.strip('_').lower()}" for name in local - keep}
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and node.id in new:
                node.id = new[node.id]
            elif isinstance(node, ast.arg) and node.arg in new:
                node.arg = new[node.arg]
        cell["source"] = (ast.unparse(tree) + "\n").splitlines(keepends=True)
    return out


def submit(course: Path, student: str, ps: str, nb: dict, when: str | None) -> None:
    dest = course / "submitted" / student / ps
    dest.mkdir(parents=True, exist_ok=True)
    (dest / f"{ps}.ipynb").write_text(json.dumps(nb, indent=1))
    if when:
        (dest / "timestamp.txt").write_text(when)


def cheat_notebook(release_nb: dict, name: str, targets: dict) -> dict:
    text = (HERE / "cheats" / f"{name}.py").read_text()
    text = text.replace("TARGETS = {}", f"TARGETS = {targets!r}", 1)
    nb = json.loads(json.dumps(release_nb))
    if name == "before_setup":
        nb["cells"].insert(1, code_cell(text))
        return nb
    first = next(c for c in nb["cells"] if c["metadata"].get("nbgrader", {}).get("solution"))
    first["source"] = text.splitlines(keepends=True)
    if name == "input_transformer":
        first["metadata"]["nbgrader"]["locked"] = True
    return nb


def fingerprint(roots: list[Path]) -> dict[str, str]:
    out = {}
    for root in roots:
        for p in sorted(root.rglob("*")) if root.exists() else []:
            if p.is_file():
                out[str(p)] = hashlib.sha256(p.read_bytes()).hexdigest()
            elif p.is_dir():
                out[str(p)] = "dir"
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--course", type=Path, default=Path("_build/autograde-demo"))
    parser.add_argument("--seed", type=int, default=variants.SEED)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    root, seed = args.course.resolve(), args.seed
    if root.exists():
        shutil.rmtree(root)
    course, home = root / "course", root / "instructor-home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text(SECRET + "\n")
    os.environ["HOME"] = str(home)
    started = time.perf_counter()
    failures: list[str] = []

    # 1. The course.
    root.mkdir(exist_ok=True)
    sets = variants.problem_sets(HERE / "source")
    (root / "assignments.csv").write_text(
        "name,duedate\n" + "".join(f"{ps},{DUE}\n" for ps in sets)
    )
    (root / "students.csv").write_text(
        "id,first_name,last_name,email\n"
        + "".join(f"{s},{s.title()},Student,{s}@example.org\n" for s in STUDENTS)
    )
    course_mod.make_course(course, seed, root / "students.csv", root / "assignments.csv")
    (course / "extensions.csv").write_text("student_id,assignment,days\nextended,ps1,3\n")

    # 2. Submissions.
    last = {ps: variants.term_data(ps, LAST_TERM, "hardcoder") for ps in sets}
    mate = {ps: variants.term_data(ps, seed, "different") for ps in sets}
    for ps in sets:
        source_nb = json.loads((course / "source" / ps / f"{ps}.ipynb").read_text())
        release_nb = json.loads((course / "release" / ps / f"{ps}.ipynb").read_text())

        def put(student, nb, when=ON_TIME, ps=ps):
            submit(course, student, ps, typed(nb, student), when)

        put("reference", source_nb)
        put("renamed", renamed(source_nb, ps))
        put("blank", release_nb)
        put("different", answer(release_nb, sims.DIFFERENT))
        req = scoring.request(ps, variants.term_data(ps, 0, "x"), variants.student_rng(ps, 0, "x"))
        for style in ("rounded", "exact", "pandas"):
            nb = answer(release_nb, sims.DIFFERENT)
            nb["cells"].append(code_cell(sims.style_cell(style, req["values"], list(req["calls"]))))
            put(style, nb)
        scratch = answer(release_nb, sims.DIFFERENT)
        scratch["cells"][3:3] = [code_cell("# scratch\nprint(C if 'C' in dir() else None)\n")]
        scratch["cells"].append(code_cell("import matplotlib.pyplot as plt\nplt.plot([1, 2]);\n"))
        submit(course, "scratch", ps, typed(scratch, "different"), ON_TIME)  # a classmate's id
        put("mistakes", answer(release_nb, sims.MISTAKES))
        put("patcher", answer(release_nb, sims.MONKEYPATCHER))
        put("hardcoder", answer(release_nb, sims.hard_coder(last)))
        put("classmate", answer(release_nb, sims.hard_coder(mate)))
        for name in CHEATS:
            student = f"cheat-{name}"
            targets = {
                "course": str(course),
                "home": str(home),
                "gradebook": str(course / "gradebook.db"),
                "grades": str(course / "grades.csv"),
                "source": str(course / "source"),
                "other": str(course / "submitted" / "different" / ps / f"{ps}.ipynb"),
                "other_dir": str(course / "submitted" / "different" / ps),
                "timestamp": str(course / "submitted" / student / ps / "timestamp.txt"),
            }
            put(student, cheat_notebook(release_nb, name, targets))
    release1 = json.loads((course / "release" / "ps1" / "ps1.ipynb").read_text())
    (course / "submitted" / "broken" / "ps1").mkdir(parents=True)
    (course / "submitted" / "broken" / "ps1" / "ps1.ipynb").write_text("{ not a notebook")
    for student in ("late", "extended"):
        submit(course, student, "ps1", typed(answer(release1, sims.DIFFERENT), student), LATE)

    # 3. Grade: an unknown id first (refused), then every set.
    submit(course, "intruder", "ps1", release1, ON_TIME)
    try:
        grade.grade(course, "ps1", jobs=args.jobs)
        failures.append("make grade accepted a submission of an unknown student id")
    except grade.GradeError as err:
        print(f"unknown id refused: {err}")
    shutil.rmtree(course / "submitted" / "intruder")
    guarded = [course / "submitted", course / "source", course / "release", home, HERE]
    before = fingerprint(guarded)
    top_before = sorted(p.name for p in course.iterdir())
    records, seconds = {}, {}
    for ps in sets:
        t = time.perf_counter()
        for r in grade.grade(course, ps, jobs=args.jobs):
            records[(r["student"], ps)] = r
        seconds[ps] = time.perf_counter() - t
        n = sum(1 for s, p in records if p == ps)
        print(f"graded {ps}: {n} submissions in {seconds[ps]:.1f} s")
    time.sleep(1.5)  # a detached process, if one had survived, would write now
    after = fingerprint(guarded)
    changed = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))
    if changed:
        failures.append(f"files outside the private copies changed: {changed[:5]}")
    new_top = sorted(set(p.name for p in course.iterdir()) - set(top_before))
    if set(new_top) - {"autograded", "feedback", "grades.csv", "lms_grades.csv"}:
        failures.append(f"unexpected new files in the course directory: {new_top}")

    rows_before = {(r["student_id"], r["assignment"]): r for r in export.rows(course)}
    flags = integrity_audit.audit(course / "submitted", course / "source")
    record_manual_grades(course, sets)
    table = {(r["student_id"], r["assignment"]): r for r in export.export(course)}

    # 4. Checks.
    auto_max = {
        ps: sum(p["max_points"] for p in records[("different", ps)]["parts"]) for ps in sets
    }

    def auto(student, ps):
        return sum(p["points"] for p in records[(student, ps)]["parts"])

    for s in HONEST + COPIES:
        for ps in sets:
            if auto(s, ps) != auto_max[ps]:
                bad = [
                    p["grade_id"] + ": " + str(p["problem"])
                    for p in records[(s, ps)]["parts"]
                    if not p["ok"]
                ]
                failures.append(f"{s} {ps}: {auto(s, ps):g} of {auto_max[ps]:g}; {bad[:3]}")
    for ps in sets:
        if auto("blank", ps) != 0:
            failures.append(f"blank {ps}: {auto('blank', ps):g}, want 0")
        if not 0 < auto("mistakes", ps) < auto_max[ps]:
            failures.append(f"mistakes {ps}: {auto('mistakes', ps):g}, want partial credit")
        if not any(p["hint"] for p in records[("mistakes", ps)]["parts"]):
            failures.append(f"mistakes {ps}: no hint in the feedback")
        for s in ["patcher", *[f"cheat-{c}" for c in CHEATS]]:
            if auto(s, ps) > 0.1 * auto_max[ps]:
                failures.append(f"{s} {ps}: {auto(s, ps):g} of {auto_max[ps]:g}, want at most 10%")
        for s in ("hardcoder", "classmate"):
            other = last if s == "hardcoder" else mate
            got = [
                p["grade_id"]
                for p in records[(s, ps)]["parts"]
                if p["ok"]
                and "your" in p["checked"]
                and not same_anyway(p["grade_id"], other[ps], s, seed)
            ]
            if got:
                failures.append(f"{s} {ps}: points for other data's numbers on {got}")
    flagged = {(f.student, f.ps) for f in flags if f.integrity and "reference solutions" in f.what}
    for s in COPIES:
        missed = [ps for ps in sets if (s, ps) not in flagged]
        if missed:
            failures.append(f"the audit misses the copy {s} in {missed}")
    honest_flags = [str(f) for f in flags if f.integrity and f.student in [*HONEST, "mistakes"]]
    if honest_flags:
        failures.append(f"the audit flags honest students: {honest_flags[:3]}")
    notes = " ".join(records[("scratch", "ps1")]["notes"])
    if "'different'" not in notes:
        failures.append("the feedback does not say that the typed id is not the submitter's")
    # statuses, late work, extensions
    want = {("late", "ps1"): "late", ("extended", "ps1"): "on time", ("late", "ps2"): "missing",
            ("different", "ps1"): "on time", ("blank", "ps1"): "on time",
            ("broken", "ps1"): "failed to run"}  # fmt: skip
    for key, status in want.items():
        if table[key]["status"] != status:
            failures.append(f"{key}: status {table[key]['status']!r}, want {status!r}")
    if rows_before[("different", "ps1")]["status"] != "needs manual grading":
        failures.append("before the written answers are graded, the status must say so")
    late = table[("late", "ps1")]
    if not float(late["late_penalty"]) > 0 or float(late["manual_score"]) == 0:
        failures.append(f"late ps1: penalty {late['late_penalty']}")
    elif abs(float(late["late_penalty"]) - 0.2 * float(late["raw_score"])) > 0.01:
        failures.append(
            "late ps1: the penalty is not 20% of the whole score, written part included"
        )
    # the gradebook holds what the scorer decided, and nothing else
    for (s, ps), r in records.items():
        want = sum(p["points"] for p in r["parts"])
        if float(table[(s, ps)]["auto_score"]) != want:
            failures.append(f"{s} {ps}: the gradebook says {table[(s, ps)]['auto_score']}, "
                            f"the scorer {want:g}")  # fmt: skip
    # the secret and the feedback
    pages = sorted((course / "feedback").glob("*/*/*.html"))
    if len(pages) != len(records):
        failures.append(f"{len(pages)} feedback pages for {len(records)} submissions")
    leaked = [
        str(p)
        for p in [*pages, *(course / "autograded").rglob("*.json")]
        if SECRET in p.read_text()
    ]
    if leaked:
        failures.append(f"the planted secret is in {leaked[:3]}")
    lms = list(csv.DictReader((course / "lms_grades.csv").open()))
    if len(lms) != len(STUDENTS) or "SIS User ID" not in lms[0]:
        failures.append("lms_grades.csv: one row per student with an SIS User ID")

    print_table(sets, records, auto_max, flags)
    for failure in failures:
        print("FAIL:", failure)
    took = time.perf_counter() - started
    if failures:
        return 1
    per = sorted(seconds.values())[len(seconds) // 2]
    n = len(STUDENTS)
    print(
        f"\nautograde-demo: {len(sets)} problem sets, {n} students ({len(CHEATS)} cheats), seed "
        f"{seed}: every check passed in {took:.0f} s; grading one set of about {n} submissions "
        f"took {per:.1f} s (median over the sets, {args.jobs} at a time)."
    )
    return 0


def same_anyway(gid: str, other: dict, student: str, seed: int) -> bool:
    """Parts whose right answer is the same on the other data (a copied number is right)."""
    import kappalib as kl

    if gid == "ps5-q3a-sym":  # Proposition 1: kappa = MCC on every symmetric matrix
        return True
    if gid == "ps4-q3b-higher":
        now = variants.term_data("ps4", seed, student)
        return (kl.kappa(now["C_a"]) > kl.kappa(now["C_b"])) == (
            kl.kappa(other["C_a"]) > kl.kappa(other["C_b"])
        )
    return False


def record_manual_grades(course: Path, sets: list[str]) -> None:
    """Grade the written answers through nbgrader's gradebook API (what formgrader does)."""
    import warnings

    from nbgrader.api import Gradebook, MissingEntry

    with warnings.catch_warnings(), Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        warnings.simplefilter("ignore")
        for ps in sets:
            for student in STUDENTS:
                try:
                    sub = gb.find_submission_notebook(ps, ps, student)
                except MissingEntry:
                    continue
                for g in sub.grades:
                    if g.cell.cell_type == "markdown":
                        g.manual_score = WRITTEN.get(student, 0.0) * g.max_score
                        g.needs_manual_grade = False
        gb.db.commit()


def print_table(sets, records, auto_max, flags) -> None:
    copy_flags = {
        (f.student, f.ps) for f in flags if f.integrity and "reference solutions" in f.what
    }
    print("\nAutomatic points (of each set's automatic points); * = flagged as a copy by the audit")
    print("\n| student | " + " | ".join(f"{ps} /{auto_max[ps]:g}" for ps in sets) + " | share |")
    print("|---" * (len(sets) + 2) + "|")
    for student in STUDENTS:
        cells, got, top = [], 0.0, 0.0
        for ps in sets:
            r = records.get((student, ps))
            if r is None:
                cells.append("missing")
                continue
            pts = sum(p["points"] for p in r["parts"])
            got, top = got + pts, top + auto_max[ps]
            mark = "*" if (student, ps) in copy_flags else ""
            failed = "" if r["status_run"] == "ok" else " (failed to run)"
            cells.append(f"{pts:g}{mark}{failed}")
        share = f"{got / top:.0%}" if top else ""
        print(f"| {student} | " + " | ".join(cells) + f" | {share} |")


if __name__ == "__main__":
    sys.exit(main())
