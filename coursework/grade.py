"""Grade every submission of one problem set in the sandbox (run by `make grade`).

    python coursework/grade.py --course DIR --ps ps1 [--jobs 2] [--UNSAFE-no-sandbox]

For each ``DIR/submitted/<student id>/<ps>/<ps>.ipynb`` (with ``timestamp.txt`` beside it
when the collection knew the time):

1. the cells to run are built from the *release* (trusted) and the submission: first
   ``STUDENT_ID = "<the folder's id>"`` and the release's setup cell, then the student's
   code cells in order, with the release's version of every locked cell (imports) and none
   of the check cells;
2. the grader draws the inputs for the student's functions (scoring.request, from the
   course's private key), and the cells run in the sandbox (sandbox.py) with harness.py,
   which writes the answers as plain data;
3. the scorer (scoring.py, in this process, which never imports or runs student code)
   validates the data, computes the expected values with kappalib and scores every part;
4. the points go into the gradebook (nbgrader's API), the feedback page to
   ``DIR/feedback/<id>/<ps>/<ps>.html``, the scorer's record to ``DIR/autograded/``.

Then ``DIR/grades.csv`` and ``DIR/lms_grades.csv`` are written for every set (export.py).
A submission under a student id that is not in the gradebook stops the run before anything
is graded. Without a working sandbox the run refuses, with the sentence that says how to
install it; only ``--UNSAFE-no-sandbox`` runs the students' code unsandboxed.
"""

from __future__ import annotations

import argparse
import html
import json
import os
import queue
import shutil
import sys
import tempfile
import time
import warnings
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import export  # noqa: E402
import sandbox  # noqa: E402
import scoring  # noqa: E402
import variants  # noqa: E402

HARNESS = HERE / "harness.py"
MAX_ANSWERS = 8 * 2**20
FAILED = "failed to run"


class GradeError(ValueError):
    """A course or submission the grader cannot work with (one sentence)."""


def meta(cell: dict) -> dict:
    return cell.get("metadata", {}).get("nbgrader", {}) or {}


def source(cell: dict) -> str:
    s = cell.get("source", "")
    return "".join(s) if isinstance(s, list) else str(s)


def graded_points(release_nb: dict) -> tuple[dict[str, float], dict[str, float]]:
    """(automatic, manual) points of the release's graded cells, by grade id."""
    auto, manual = {}, {}
    for cell in release_nb["cells"]:
        m = meta(cell)
        if m.get("grade"):
            (manual if m.get("solution") else auto)[m["grade_id"]] = float(m["points"])
    return auto, manual


def typed_id(submitted_nb: dict) -> str | None:
    for cell in submitted_nb.get("cells", []):
        if cell.get("cell_type") == "code":
            found = variants.ID_LINE.search(source(cell))
            if found:
                return found.group(1).strip("'\" ")
    return None


def cells_to_run(release_nb: dict, submitted_nb: dict, ps: str, student: str) -> list[str]:
    release = {meta(c)["grade_id"]: c for c in release_nb["cells"] if meta(c).get("grade_id")}
    setup = source(release[f"{ps}-setup"])
    locked_code = [
        gid
        for gid, c in release.items()
        if c["cell_type"] == "code" and meta(c).get("locked") and not meta(c).get("grade")
        and gid != f"{ps}-setup"
    ]  # fmt: skip
    run = [f"STUDENT_ID = {student!r}", setup] + [source(release[g]) for g in locked_code]
    for cell in submitted_nb.get("cells", []):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        gid, text = meta(cell).get("grade_id"), source(cell)
        if gid in release and meta(release[gid]).get("locked"):
            continue  # the release's locked cells: run above, or check cells (not needed)
        if variants.ID_LINE.search(text) and len(text.splitlines()) <= 3:
            continue  # the id cell: the grader uses the folder's id
        run.append(text)
    return run


def parse_timestamp(folder: Path) -> datetime | None:
    path = folder / "timestamp.txt"
    if not path.exists():
        return None
    text = path.read_text().strip()
    for fmt in ("%Y-%m-%d %H:%M:%S.%f %Z", "%Y-%m-%d %H:%M:%S %Z", "%Y-%m-%d %H:%M:%S %z",
                "%Y-%m-%dT%H:%M:%S%z", "%Y-%m-%dT%H:%M:%S.%f%z"):  # fmt: skip
        try:
            when = datetime.strptime(text, fmt)
        except ValueError:
            continue
        return when if when.tzinfo else when.replace(tzinfo=UTC)
    raise GradeError(f"{path}: {text!r} is not a time like '2027-02-05 16:59:00 UTC'")


def strict_json(text: str):
    def constant(name):  # NaN, Infinity: not finite, so not an answer
        return {"unsupported": f"non-finite number {name}"}

    return json.loads(text, parse_constant=constant)


def probe_rng(course: Path, ps: str, student: str) -> np.random.Generator:
    key = int((course / ".grading_key").read_text().strip())
    return variants.student_rng(ps, key, f"grading/{student}")


def grade_one(course: Path, ps: str, student: str, seed: int, *, unsafe: bool, slot: int) -> dict:
    folder = course / "submitted" / student / ps
    release_nb = json.loads((course / "release" / ps / f"{ps}.ipynb").read_text())
    auto, _ = graded_points(release_nb)
    record = {"student": student, "ps": ps, "status_run": "ok", "notes": []}
    try:
        submitted_nb = json.loads((folder / f"{ps}.ipynb").read_text())
        if not isinstance(submitted_nb, dict) or not isinstance(submitted_nb.get("cells"), list):
            raise ValueError("no cells")
    except (OSError, ValueError) as err:
        submitted_nb = {"cells": []}
        record["status_run"] = f"{FAILED}: the notebook could not be read ({type(err).__name__})"
    typed = typed_id(submitted_nb)
    if typed == variants.PLACEHOLDER:
        record["notes"].append(
            "The notebook's STUDENT_ID was not filled in: it was graded with the data of "
            f"{student!r}."
        )
    elif typed is not None and typed != student:
        record["notes"].append(
            f"The notebook's STUDENT_ID is {typed!r}, but it was submitted by {student!r}: it "
            f"was graded with the data of {student!r}."
        )
    data = variants.term_data(ps, seed, student)
    req = scoring.request(ps, data, probe_rng(course, ps, student))
    answers = {"values": {}, "calls": {}}
    started = time.perf_counter()
    if record["status_run"] == "ok":
        with tempfile.TemporaryDirectory(prefix=f"grade-{ps}-") as tmp:
            private = Path(tmp) / "submission"
            private.mkdir()
            shutil.copy(folder / f"{ps}.ipynb", private / f"{ps}.ipynb")
            ask = {"cells": cells_to_run(release_nb, submitted_nb, ps, student),
                   "values": req["values"], "calls": req["calls"]}  # fmt: skip
            (private / "request.json").write_text(json.dumps(ask))
            argv = [sys.executable, "-I", str(HARNESS)]
            result = sandbox.run(private, argv, unsafe=unsafe, slot=slot, extra_ro=(HARNESS,))
            out = private / "answers.json"
            if result.timed_out:
                record["status_run"] = f"{FAILED}: it ran out of time"
            elif not out.is_file() or out.is_symlink():
                why = "it stopped before the answers were collected"
                if result.returncode < 0 or result.returncode > 128:
                    why += " (killed: a CPU, memory or process limit)"
                record["status_run"] = f"{FAILED}: {why}"
            elif out.stat().st_size > MAX_ANSWERS:
                record["status_run"] = f"{FAILED}: its answers are too large"
            else:
                try:
                    answers = strict_json(out.read_text(errors="replace"))
                except ValueError:
                    record["status_run"] = f"{FAILED}: its answers are not readable data"
            errors = answers.get("cell_errors") if isinstance(answers, dict) else None
            if isinstance(errors, list):
                record["cell_errors"] = [
                    str(e.get("error", ""))[:300] for e in errors[:20] if isinstance(e, dict)
                ]
    record["seconds"] = round(time.perf_counter() - started, 2)
    parts = scoring.score(ps, answers if record["status_run"] == "ok" else {}, data, req, auto)
    record["parts"] = [
        {"grade_id": p.grade_id, "points": p.points, "max_points": p.max_points,
         "checked": p.checked, "ok": p.ok, "problem": p.problem, "hint": p.hint}
        for p in parts
    ]  # fmt: skip
    if {p.grade_id for p in parts} != set(auto):
        raise GradeError(f"{ps}: the scorer's parts do not match the notebook's graded cells")
    return record


def feedback_page(record: dict, manual: dict[str, float]) -> str:
    e = html.escape
    auto = sum(p["points"] for p in record["parts"])
    top = sum(p["max_points"] for p in record["parts"])
    rows = []
    for p in record["parts"]:
        verdict = "right" if p["ok"] else e(p["problem"] or "not right")
        hint = f"<br><b>Hint:</b> {e(p['hint'])}" if p.get("hint") else ""
        rows.append(
            f"<tr><td>{e(p['grade_id'])}</td><td>{p['points']:g} / {p['max_points']:g}</td>"
            f"<td>{e(p['checked'])}</td><td>{verdict}{hint}</td></tr>"
        )
    notes = "".join(f"<p>{e(n)}</p>" for n in record["notes"])
    if record["status_run"] != "ok":
        notes += f"<p><b>Your notebook {e(record['status_run'])}.</b></p>"
    errs = "".join(f"<li><code>{e(x)}</code></li>" for x in record.get("cell_errors", []))
    if errs:
        notes += f"<p>Errors raised by your cells when graded:</p><ul>{errs}</ul>"
    written = ", ".join(f"{e(g)} ({v:g} points)" for g, v in manual.items())
    return (
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
        f"<title>{e(record['ps'])}: feedback for {e(record['student'])}</title></head><body>"
        f"<h1>{e(record['ps'])}: feedback for {e(record['student'])}</h1>"
        f"<p>Graded automatically: {auto:g} of {top:g} points. Written answers, graded by "
        f"your instructor: {written or 'none'}.</p>{notes}"
        "<table border='1'><tr><th>part</th><th>points</th><th>what was checked</th>"
        f"<th>result</th></tr>{''.join(rows)}</table></body></html>\n"
    )


def write_gradebook(course: Path, record: dict, timestamp: datetime | None) -> None:
    from nbgrader.api import Gradebook

    with warnings.catch_warnings(), Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        warnings.simplefilter("ignore")  # SQLAlchemy's, about nbgrader's own session use
        kwargs = {"timestamp": timestamp} if timestamp else {}
        gb.update_or_create_submission(record["ps"], record["student"], **kwargs)
        nb = gb.find_submission_notebook(record["ps"], record["ps"], record["student"])
        points = {p["grade_id"]: p["points"] for p in record["parts"]}
        for grade in nb.grades:
            if grade.name in points:
                grade.auto_score = points[grade.name]
                grade.needs_manual_grade = False
        gb.db.commit()


def grade(course: Path, ps: str, *, jobs: int = 2, unsafe: bool = False) -> list[dict]:
    from nbgrader.api import Gradebook

    course = course.resolve()
    if not (course / "course.json").exists():
        raise GradeError(f"{course} is not a course directory: run make course first")
    seed = json.loads((course / "course.json").read_text())["seed"]
    if not (course / "release" / ps / f"{ps}.ipynb").exists():
        raise GradeError(f"{ps} is not released in {course} (make course)")
    if not unsafe:
        sandbox.check_available()
    folders = sorted(
        p.parent.parent.name for p in (course / "submitted").glob(f"*/{ps}/{ps}.ipynb")
    )
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        known = {s.id for s in gb.students}
    unknown = [s for s in folders if s not in known]
    if unknown:
        raise GradeError(
            f"submitted/ holds {ps} of student ids that are not in the gradebook: "
            f"{', '.join(unknown)}. Add them to the student list and run make course again, "
            "or move those folders away."
        )
    times = {s: parse_timestamp(course / "submitted" / s / ps) for s in folders}
    untimed = [s for s, t in times.items() if t is None]
    if untimed:
        print(
            f"warning: no timestamp.txt for {', '.join(untimed)}: counted as on time (see "
            "book/for_instructors.md, collecting from an LMS)",
            file=sys.stderr,
        )
    _, manual = graded_points(json.loads((course / "release" / ps / f"{ps}.ipynb").read_text()))
    slots: queue.Queue[int] = queue.Queue()
    for i in range(max(1, jobs)):
        slots.put(i)  # where each run starts looking for a free user id (sandbox._lease_uid)

    def one(student: str) -> dict:
        slot = slots.get()
        try:
            return grade_one(course, ps, student, seed, unsafe=unsafe, slot=slot)
        finally:
            slots.put(slot)

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        records = list(pool.map(one, folders))
    for record in records:
        s = record["student"]
        write_gradebook(course, record, times[s])
        out = course / "autograded" / s / ps
        out.mkdir(parents=True, exist_ok=True)
        (out / "score.json").write_text(json.dumps(record, indent=1) + "\n")
        page = course / "feedback" / s / ps / f"{ps}.html"
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(feedback_page(record, manual))
    export.export(course)
    return records


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--course", type=Path, required=True)
    parser.add_argument("--ps", required=True)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument(
        "--UNSAFE-no-sandbox",
        dest="unsafe",
        action="store_true",
        help="run the students' code WITHOUT the sandbox, with your permissions",
    )
    args = parser.parse_args()
    os.environ["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    started = time.perf_counter()
    try:
        records = grade(args.course, args.ps, jobs=args.jobs, unsafe=args.unsafe)
    except (GradeError, sandbox.SandboxUnavailableError) as err:
        print(f"make grade: {err}", file=sys.stderr)
        return 2
    failed = [r["student"] for r in records if r["status_run"] != "ok"]
    print(
        f"graded {len(records)} submissions of {args.ps} in {time.perf_counter() - started:.1f} s"
        + (f"; {FAILED}: {', '.join(failed)}" if failed else "")
        + f". Grades: {args.course / 'grades.csv'}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
