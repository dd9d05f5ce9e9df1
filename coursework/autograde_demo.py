"""The whole coursework loop, headless, with simulated students (run by `make autograde-demo`).

1. ``make course`` in a scratch directory: a roster (one student's first name a spreadsheet
   formula) and due dates from CSV files, the release (nbgrader), an instructor's home (a fake
   ``HOME``) holding a planted secret in ``.ssh``;
2. submissions, in every set: eight honest styles (``different``: loops and own formulas;
   ``rounded``, ``exact``, ``pandas``: the same answers as rounded numbers, Fractions and 0-d
   arrays, pandas objects; ``scratch``: extra cells, and a classmate's id typed in; in ps1 and
   ps4 ``magic-inline``: ``%matplotlib inline`` on top of every answer, and ``id-import``: the
   id cell also says ``import pandas as pd``; in ps4 ``where-string``: ``np.where(ka > kb,
   "a", "b")``),
   ``reference`` (a verbatim copy of the source solutions), ``renamed`` (the same with every
   name changed) and ``timed-copy`` (the copy with ``%%time`` on top of every answer),
   ``sharer-a`` and ``sharer-b`` (their own code, shared, the second renamed and timed),
   ``blank``, ``mistakes``, ``patcher``, ``hardcoder`` (last term's numbers) and ``classmate``
   (another student's numbers);
   in ps1 only: ``late`` and ``extended`` (two days late, without and with an extension),
   ``broken``, one student per cheat of ``cheats/`` and per attack of ``attacks/`` (a memory bomb
   of several processes, a tmpfs in a user namespace, a disk filler, a fork bomb, a sleeper that
   ignores interrupts, 1,500 nested directories, forged answers with a 400-digit integer and
   nested 100,000 deep), ``crash-deep`` (a notebook ``[`` nested 100,000 deep),
   ``crash-regex`` (``STUDENT_ID = x<40,000 spaces>y``), ``spoofer`` and ``mailer`` (collected
   from an LMS zip: a Moodle upload named after a classmate, an e-mail whose local part is a
   classmate's id), and a folder of an unknown id, which ``make grade`` must refuse; in ps3 and
   ps5, ``crash-family`` (a family with negative counts, which kappalib refuses);
3. ``make grade`` for each set (the sandbox, the scorer, the gradebook, feedback, the audit,
   the CSVs), honest and hostile students graded side by side, then the written answers graded
   through nbgrader's gradebook API, and the export;
4. checks (the issues' "done when"): every honest style full marks; every crasher and attacker
   0 with a status that names what happened, and the run's summary names each; the memory
   of the memory bomb under the cap, measured on the host by its cgroup, and the disk a
   submission may fill capped; the copies, the %%time copy and the sharing pair flagged in
   the audit's report, no honest student flagged but for the demo's honest styles, which
   share one code base; every cheat at most 10% of the points; the hard-coders 0 on every part
   that uses the student's own data; the LMS zip collected by identity (no classmate's
   submission replaced, a zip bomb refused); late work and extensions; statuses; no CSV cell
   that starts with a formula character; no file outside the private copies changed; the
   planted secret in no feedback page; the table of points, and the time per set.

Exit status 1 when a check fails.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import io
import json
import os
import shutil
import sys
import time
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import collect  # noqa: E402
import course as course_mod  # noqa: E402
import export  # noqa: E402
import grade  # noqa: E402
import sandbox  # noqa: E402
import scoring  # noqa: E402
import students as sims  # noqa: E402
import variants  # noqa: E402

DUE = "2026-12-04 17:00:00 UTC"
ON_TIME, LATE = "2026-12-04 12:00:00 UTC", "2026-12-06 09:30:00 UTC"
LAST_TERM = 2025
SECRET = "planted-secret-of-the-instructor-7f3a9c"
HONEST = ["different", "rounded", "exact", "pandas", "scratch", "magic-inline", "id-import",
          "where-string"]  # fmt: skip
COPIES = ["reference", "renamed", "timed-copy"]
SHARERS = ["sharer-a", "sharer-b"]
EVERY_SET = [*HONEST, *COPIES, *SHARERS, "blank", "mistakes", "patcher", "hardcoder",
             "classmate"]  # fmt: skip
CHEATS = sorted(p.stem for p in (HERE / "cheats").glob("*.py"))
ATTACKS = sorted(p.stem for p in (HERE / "attacks").glob("*.py"))
CRASHERS = ["crash-deep", "crash-regex", "crash-family"]
COLLECTED = ["spoofer", "mailer"]
PS1_ONLY = ["late", "extended", "broken", *[f"cheat-{c}" for c in CHEATS],
            *[f"attack-{a}" for a in ATTACKS], "crash-deep", "crash-regex", *COLLECTED,
            "formula"]  # fmt: skip
STUDENTS = [*EVERY_SET, *PS1_ONLY, "crash-family"]
FORMULA_NAME = '=HYPERLINK("http://x", "y")'
WRITTEN = {s: 1.0 for s in [*HONEST, *COPIES, "late", "extended"]} | {"mistakes": 0.5}
LIMITS = sandbox.Limits()
# Students whose code is, by construction, one code base (students.DIFFERENT, and MISTAKES for
# mistakes and spoofer; the hard-coders reuse DIFFERENT's functions in ps2): the pairwise audit
# rightly groups them; the demo checks that no copy, sharer or cheat joins them.
SAME_CODE = {*HONEST, "late", "extended", "mistakes", "spoofer", "hardcoder", "classmate"}
# What each attacker's status must say (a word of it), and whether it may end "ok" (0 points,
# nothing left behind: its attack did nothing the grader has to report).
EXPECTED = {
    "attack-memory_bomb": "memory",
    "attack-fork_bomb": "",
    "attack-sleeper": "interrupted",
    "attack-forged_bigint": "digits",
    "attack-forged_nested": "nested",
    "crash-deep": "nested",
    "cheat-forged_answers": "",
}


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
        if cell["cell_type"] == "code" and variants.find_id("".join(cell["source"])):
            cell["source"] = variants.set_id("".join(cell["source"]), student)
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


def with_top(release_nb: dict, cells: dict[str, str], magic: str) -> dict:
    """answer(), with `magic` on top of every code answer (the written answers left alone)."""
    kinds = {c["metadata"].get("nbgrader", {}).get("grade_id"): c["cell_type"]
             for c in release_nb["cells"]}  # fmt: skip
    return answer(release_nb, {g: f"{magic}\n{t.lstrip()}" if kinds.get(g) == "code" else t
                               for g, t in cells.items()})  # fmt: skip


def timed_copy(source_nb: dict) -> dict:
    """The source notebook (the reference solutions) with %%time on top of every answer."""
    nb = json.loads(json.dumps(source_nb))
    for cell in nb["cells"]:
        m = cell["metadata"].get("nbgrader", {})
        if m.get("solution") and cell["cell_type"] == "code":
            cell["source"] = ["%%time\n", *cell["source"]]
    return nb


def first_answer(release_nb: dict, code: str) -> dict:
    """The release with `code` in its first answer cell and nothing else answered."""
    nb = json.loads(json.dumps(release_nb))
    first = next(c for c in nb["cells"] if c["metadata"].get("nbgrader", {}).get("solution"))
    first["source"] = code.splitlines(keepends=True)
    return nb


def lms_zip(course: Path, ps: str, release_nb: dict) -> tuple[Path, Path]:
    """A Moodle download: the spoofer's upload named after a classmate (different), the
    mailer's folder named by its e-mail, whose local part is a classmate's id; and the map of
    LMS user ids from the LMS's grade export."""
    path = course.parent / "moodle.zip"
    spoof = answer(release_nb, sims.MISTAKES)
    with zipfile.ZipFile(path, "w") as z:
        z.writestr(
            zipfile.ZipInfo(
                "Spoofer Student_901_assignsubmission_file_/different_ps1.ipynb",
                (2026, 12, 4, 10, 0, 0),
            ),
            json.dumps(typed(spoof, "different")),
        )
        z.writestr(zipfile.ZipInfo("different@example.net/ps1.ipynb", (2026, 12, 4, 11, 0, 0)),
                   json.dumps(release_nb))  # fmt: skip
    ids = course.parent / "lms_ids.csv"
    ids.write_text("student_id,lms_id\nspoofer,901\ndifferent,902\n")
    return path, ids


def zip_bomb(course: Path) -> Path:
    path = course.parent / "bomb.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        with z.open("Bomb_903_assignsubmission_file_/ps1.ipynb", "w") as fh:
            block = b"\0" * 2**20
            for _ in range(100):  # 100 MiB unpacked, 100 KiB packed
                fh.write(block)
    return path


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
    os.environ["MPLCONFIGDIR"] = str(root / "grader-matplotlib")  # the grader's own (copydetect)
    started = time.perf_counter()
    failures: list[str] = []

    # 1. The course.
    root.mkdir(exist_ok=True)
    sets = variants.problem_sets(HERE / "source")
    (root / "assignments.csv").write_text(
        "name,duedate\n" + "".join(f"{ps},{DUE}\n" for ps in sets)
    )
    roster = io.StringIO()
    w = csv.writer(roster)
    w.writerow(["id", "first_name", "last_name", "email"])
    for s in STUDENTS:
        first = FORMULA_NAME if s == "formula" else s.title()
        email = "different@example.net" if s == "mailer" else f"{s}@example.org"
        w.writerow([s, first, "Student", email])
    (root / "students.csv").write_text(roster.getvalue())
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
        put("timed-copy", timed_copy(source_nb))
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
        if ps in ("ps1", "ps4"):  # the kernel's behaviour, the same in every set
            put("magic-inline", with_top(release_nb, sims.DIFFERENT, "%matplotlib inline"))
        idimp = with_top(release_nb, sims.DIFFERENT, "_check = pd.Series([0.0])")
        for cell in idimp["cells"]:  # the id cell says import pandas as pd too (3 lines)
            if cell["cell_type"] == "code" and variants.find_id("".join(cell["source"])):
                cell["source"] = ["import pandas as pd\n", *cell["source"]]
                break
        if ps in ("ps1", "ps4"):
            put("id-import", idimp)
        where = dict(sims.DIFFERENT)
        where["ps4-q3-answer"] = where["ps4-q3-answer"].replace(
            'higher = ["b", "a"][int(kappa_a > kappa_b)]',
            'higher = np.where(kappa_a > kappa_b, "a", "b")',
        )
        if ps == "ps4":  # the only set with a string answer built by numpy
            put("where-string", answer(release_nb, where))
        put("sharer-a", answer(release_nb, sims.SHARED))
        put("sharer-b", answer(release_nb, sims.shared_by_classmate(sims.SHARED)))
        put("mistakes", answer(release_nb, sims.MISTAKES))
        put("patcher", answer(release_nb, sims.MONKEYPATCHER))
        put("hardcoder", answer(release_nb, sims.hard_coder(last)))
        put("classmate", answer(release_nb, sims.hard_coder(mate)))
        if ps in ("ps3", "ps5"):
            q = "ps3-q2-answer" if ps == "ps3" else "ps5-q4-answer"
            put(
                "crash-family",
                answer(
                    release_nb,
                    {
                        q: (
                            "family = families.ZA(np.array([10., 20., 40.]), 3)\n"
                            "family[:, 1, 0] -= 2\n"
                        )
                    },
                ),
            )
        if ps != "ps1":
            continue
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
        for name in ATTACKS:
            put(
                f"attack-{name}",
                first_answer(release_nb, (HERE / "attacks" / f"{name}.py").read_text()),
            )
        put("formula", release_nb)
        put("crash-regex", release_nb)
        regex = course / "submitted" / "crash-regex" / ps / f"{ps}.ipynb"
        regex.write_text(
            regex.read_text().replace(
                "STUDENT_ID = 'crash-regex'", "STUDENT_ID = x" + " " * 40_000 + "y"
            )
        )
        deep = course / "submitted" / "crash-deep" / ps
        deep.mkdir(parents=True)
        (deep / f"{ps}.ipynb").write_text("[" * 100_000)
        (course / "submitted" / "broken" / ps).mkdir(parents=True)
        (course / "submitted" / "broken" / ps / f"{ps}.ipynb").write_text("{ not a notebook")
        for student in ("late", "extended"):
            submit(course, student, ps, typed(answer(release_nb, sims.DIFFERENT), student), LATE)

    # The LMS download: collected by identity, a classmate's submission never replaced.
    release1 = json.loads((course / "release" / "ps1" / "ps1.ipynb").read_text())
    before_collect = (course / "submitted" / "different" / "ps1" / "ps1.ipynb").read_bytes()
    download, ids = lms_zip(course, "ps1", release1)
    try:
        got = collect.collect(course, "ps1", download, lms_ids=ids)
        if set(got) != {"spoofer", "mailer"}:
            failures.append(f"the LMS zip was collected as {sorted(got)}, want spoofer and mailer")
    except collect.CollectError as err:
        failures.append(f"the LMS zip was refused: {err}")
    if (course / "submitted" / "different" / "ps1" / "ps1.ipynb").read_bytes() != before_collect:
        failures.append("collecting the LMS zip changed a classmate's submission")
    t = time.perf_counter()
    try:
        collect.collect(course, "ps1", zip_bomb(course), lms_ids=ids)
        failures.append("a zip entry of 100 MiB unpacked was collected")
    except collect.CollectError as err:
        print(f"zip bomb refused in {time.perf_counter() - t:.1f} s: {err}")

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
    summaries = {}
    for ps in sets:
        t = time.perf_counter()
        got = grade.grade(course, ps, jobs=args.jobs, quiet_wait=15)
        for r in got:
            records[(r["student"], ps)] = r
        seconds[ps] = time.perf_counter() - t
        summaries[ps] = grade.summary(got)
        print(f"graded {ps}: {len(got)} submissions in {seconds[ps]:.1f} s\n{summaries[ps]}")
    time.sleep(1.5)  # a detached process, if one had survived, would write now
    after = fingerprint(guarded)
    changed = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))
    if changed:
        failures.append(f"files outside the private copies changed: {changed[:5]}")
    new_top = sorted(set(p.name for p in course.iterdir()) - set(top_before))
    if set(new_top) - {"autograded", "feedback", "grades.csv", "lms_grades.csv", "integrity"}:
        failures.append(f"unexpected new files in the course directory: {new_top}")

    rows_before = {(r["student_id"], r["assignment"]): r for r in export.rows(course)}
    record_manual_grades(course, sets)
    table = {(r["student_id"], r["assignment"]): r for r in export.export(course)}
    reports = {ps: (course / "integrity" / f"{ps}.md").read_text() for ps in sets}

    # 4. Checks.
    auto_max = {
        ps: sum(p["max_points"] for p in records[("different", ps)]["parts"]) for ps in sets
    }

    def auto(student, ps):
        return sum(p["points"] for p in records[(student, ps)]["parts"])

    for s in HONEST + COPIES:
        for ps in sets:
            if (s, ps) not in records:
                continue
            r = records[(s, ps)]
            if auto(s, ps) != auto_max[ps] or r["status"] != grade.OK:
                bad = [p["grade_id"] + ": " + str(p["problem"]) for p in r["parts"] if not p["ok"]]
                failures.append(f"{s} {ps}: {auto(s, ps):g} of {auto_max[ps]:g}, {r['status']}; "
                                f"{bad[:3]} {r['cell_errors'][:2]}")  # fmt: skip
    for ps in sets:
        if auto("blank", ps) != 0:
            failures.append(f"blank {ps}: {auto('blank', ps):g}, want 0")
        if not 0 < auto("mistakes", ps) < auto_max[ps]:
            failures.append(f"mistakes {ps}: {auto('mistakes', ps):g}, want partial credit")
        if not any(p["hint"] for p in records[("mistakes", ps)]["parts"]):
            failures.append(f"mistakes {ps}: no hint in the feedback")
        hostile = ["patcher"] + ([f"cheat-{c}" for c in CHEATS] if ps == "ps1" else [])
        for s in hostile:
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
        report = reports[ps]
        copies_part = report.split("## Students who share code")[0]
        pairs_part = report.split("## Students who share code")[1].split("## Code that")[0]
        for s in COPIES:
            if f"**{s}**" not in copies_part:
                failures.append(f"the audit's report of {ps} misses the copy {s}")
        if not any(line.startswith("- **") and "sharer-a" in line and "sharer-b" in line
                   for line in pairs_part.splitlines()):  # fmt: skip
            failures.append(f"the audit's report of {ps} misses the pair sharer-a, sharer-b")
        family = SAME_CODE
        for line in pairs_part.splitlines():
            if line.startswith("- **"):
                members = set(line.strip("-*: ").split("**")[0].split(", "))
                if members & set(HONEST) and not members <= family:
                    failures.append(
                        f"{ps}: the audit pairs an honest style with {members - family}"
                    )
        tricks = report.split("## Code that tries to game a grader")[1].split("## Notes")[0]
        flagged = [s for s in [*HONEST, "mistakes", *SHARERS] if f"**{s}**" in tricks]
        if flagged:
            failures.append(f"{ps}: the audit flags honest students as tricks: {flagged}")
    # crashers and attackers: 0, a status that names it, named in the run's summary
    for s, word in EXPECTED.items():
        r = records[(s, "ps1")]
        if auto(s, "ps1") != 0 or word.lower() not in r["status"].lower():
            failures.append(f"{s}: {auto(s, 'ps1'):g} points, status {r['status']!r}; want 0 "
                            f"and {word!r}")  # fmt: skip
        if r["status"] != grade.OK and s not in summaries["ps1"]:
            failures.append(f"the summary of ps1 does not name {s}")
    for s in [*[f"attack-{a}" for a in ATTACKS], "crash-regex", "crash-deep"]:
        if auto(s, "ps1") != 0:
            failures.append(f"{s}: {auto(s, 'ps1'):g} points, want 0")
    for ps in ("ps3", "ps5"):
        r = records[("crash-family", ps)]
        problems = " ".join(str(p["problem"]) for p in r["parts"])
        if auto("crash-family", ps) != 0 or "negative" not in problems:
            failures.append(f"crash-family {ps}: {auto('crash-family', ps):g}, {problems[:200]}")
    if "x   " not in " ".join(records[("crash-regex", "ps1")]["notes"]):
        failures.append("crash-regex: the feedback does not quote the typed id")
    bomb = records[("attack-memory_bomb", "ps1")].get("run", {})
    cap = LIMITS.memory_bytes / 2**20
    if not bomb or bomb["memory_peak_mib"] > cap:
        failures.append(f"the memory bomb's peak {bomb.get('memory_peak_mib')} MiB is over the cap")
    # The disk filler fills its tmpfs (counted in its memory) and its answers file (16 MiB,
    # the file size limit, on the host's disk), and no more: its peak, above an honest run's.
    filler = records[("attack-disk_filler", "ps1")].get("run", {})
    honest = records[("blank", "ps1")].get("run", {})
    tmpfs, most = LIMITS.tmpfs_bytes / 2**20, (LIMITS.tmpfs_bytes + LIMITS.file_bytes) / 2**20
    extra = filler.get("memory_peak_mib", 0) - honest.get("memory_peak_mib", 0)
    if not 0.9 * tmpfs <= extra <= most + 32:
        failures.append(f"the disk filler took {extra:.0f} MiB more than a blank run: want its "
                        f"{tmpfs:g} MiB tmpfs filled and at most {most:g} MiB")  # fmt: skip
    for s in COLLECTED:
        if (s, "ps1") not in records:
            failures.append(f"{s}: the LMS upload was not collected under its own id")
    notes = " ".join(records[("scratch", "ps1")]["notes"])
    if "'different'" not in notes:
        failures.append("the feedback does not say that the typed id is not the submitter's")
    # statuses, late work, extensions
    want = {("late", "ps1"): "late", ("extended", "ps1"): "on time", ("late", "ps2"): "missing",
            ("different", "ps1"): "on time", ("blank", "ps1"): "on time",
            ("broken", "ps1"): "failed to run", ("crash-deep", "ps1"): "failed to run",
            ("attack-memory_bomb", "ps1"): "failed to run"}  # fmt: skip
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
        want_points = sum(p["points"] for p in r["parts"])
        if table[(s, ps)]["auto_score"] not in ("", f"{want_points:g}") or (
            table[(s, ps)]["auto_score"] == "" and not r["status"].startswith(grade.REGRADE)
        ):
            failures.append(f"{s} {ps}: the gradebook says {table[(s, ps)]['auto_score']}, "
                            f"the scorer {want_points:g}")  # fmt: skip
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
    # the CSV files: no cell a spreadsheet would run
    for name in ("grades.csv", "lms_grades.csv"):
        with open(course / name, newline="") as fh:
            cells = [c for row in csv.reader(fh) for c in row]
        bad = [
            c for c in cells if c.startswith(export.FORMULA_START) and not export.NUMBER.match(c)
        ]
        if bad:
            failures.append(f"{name}: cells a spreadsheet would run: {bad[:3]}")
        if name == "grades.csv" and "'" + FORMULA_NAME not in cells:
            failures.append("grades.csv: the formula name is not kept, neutralised")
    lms = list(csv.DictReader((course / "lms_grades.csv").open()))
    if len(lms) != len(STUDENTS) or "SIS User ID" not in lms[0]:
        failures.append("lms_grades.csv: one row per student with an SIS User ID")

    print_table(sets, records, auto_max)
    for failure in failures:
        print("FAIL:", failure)
    took = time.perf_counter() - started
    if failures:
        return 1
    per = sorted(seconds.values())[len(seconds) // 2]
    print(
        f"\nautograde-demo: {len(sets)} problem sets, {len(STUDENTS)} students ({len(CHEATS)} "
        f"cheats, {len(ATTACKS)} attacks, {len(CRASHERS)} crashers), seed {seed}: every check "
        f"passed in {took:.0f} s; grading one set took {per:.1f} s (median over the sets, "
        f"{args.jobs} at a time; ps1, with every attack, {seconds['ps1']:.1f} s). The memory "
        f"bomb peaked at {bomb['memory_peak_mib']:.0f} MiB (cap {cap:g} MiB)."
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


def print_table(sets, records, auto_max) -> None:
    print("\nAutomatic points (of each set's automatic points), and the status when not ok")
    print("\n| student | " + " | ".join(f"{ps} /{auto_max[ps]:g}" for ps in sets) + " | share |")
    print("|---" * (len(sets) + 2) + "|")
    for student in STUDENTS:
        cells, got, top = [], 0.0, 0.0
        for ps in sets:
            r = records.get((student, ps))
            if r is None:
                cells.append("")
                continue
            pts = sum(p["points"] for p in r["parts"])
            got, top = got + pts, top + auto_max[ps]
            status = "" if r["status"] == grade.OK else f" ({r['status'][:70]})"
            cells.append(f"{pts:g}{status}")
        share = f"{got / top:.0%}" if top else ""
        print(f"| {student} | " + " | ".join(cells) + f" | {share} |")


if __name__ == "__main__":
    sys.exit(main())
