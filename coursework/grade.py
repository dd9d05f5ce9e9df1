"""Grade every submission of one problem set in the sandbox (run by `make grade`).

    python coursework/grade.py --course DIR --ps ps1 [--jobs 2] [--only id,id]
                               [--UNSAFE-no-sandbox]

For each ``DIR/submitted/<student id>/<ps>/<ps>.ipynb`` (with ``timestamp.txt`` beside it
when the collection knew the time):

1. **prepare** (a guarded step, guard.py): the notebook is read with bounds (size, nesting
   depth, number and size of cells); the cells to run are the release's (trusted) setup with
   ``STUDENT_ID = "<the folder's id>"``, then the student's code cells in order, with every
   ``STUDENT_ID = ...`` line set to the folder's id and the release's version of every locked
   cell; the grader draws the inputs for the student's functions from the course's key;
2. **run** in the sandbox (sandbox.py): a real Jupyter kernel (harness.py) runs the cells and
   writes the answers as plain data; the run's cgroup limits the whole submission;
3. **score** (a guarded step): the scorer (scoring.py, which never imports or runs student
   code) validates the answers and computes every expected value with kappalib;
4. the points go into the gradebook (nbgrader's API), the feedback page to
   ``DIR/feedback/<id>/<ps>/<ps>.html``, the record to ``DIR/autograded/<id>/<ps>/score.json``
   (written as soon as that student is graded);
5. then the integrity audit of the set (integrity_audit.py: copies of the reference, pairs of
   students who share code, tricks) into ``DIR/integrity/<ps>.md``, and ``DIR/grades.csv``
   and ``DIR/lms_grades.csv`` for every set (export.py).

Every student gets a status: ``ok``; ``failed to run: <why>`` (the submission's own fault:
unreadable, a limit of its sandbox, no answers; 0 points); ``needs regrading: <why>`` (the
machine was too busy to judge: the run is graded again once, alone, when the machine is
quieter, and keeps this status, with no points, if it is still too busy); ``grader error:
<step>: <reason>`` (the grader's own code failed on this submission: 0 points until it is
fixed and graded again). No submission stops the others, and the summary names every student
who did not get ``ok``. A submission under a student id that is not in the gradebook stops
the run before anything is graded. Without a working sandbox the run refuses, with the
sentence that says how to install it; only ``--UNSAFE-no-sandbox`` runs the students' code
unsandboxed.
"""

from __future__ import annotations

import argparse
import html
import json
import os
import subprocess
import sys
import tempfile
import time
import traceback
import warnings
from concurrent.futures import ThreadPoolExecutor, as_completed
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import export  # noqa: E402
import guard  # noqa: E402
import integrity_audit  # noqa: E402
import sandbox  # noqa: E402
import scoring  # noqa: E402
import variants  # noqa: E402
from bounded import bounded_json, meta, read_notebook, source  # noqa: E402

HARNESS = HERE / "harness.py"
MAX_ANSWERS = 8 * 2**20
ANSWERS_DEPTH = 40
MAX_DIGITS = 30  # of an integer in the answers (more is not a count or a score)
OK, FAILED, REGRADE, GRADER_ERROR = "ok", "failed to run", "needs regrading", "grader error"
QUIET_WAIT = 120.0  # seconds to wait for a quieter machine before the one regrade
STEP_SECONDS = 60.0  # for each guarded step of one student


class GradeError(ValueError):
    """A course or submission the grader cannot work with (one sentence)."""


def graded_points(release_nb: dict) -> tuple[dict[str, float], dict[str, float]]:
    """(automatic, manual) points of the release's graded cells, by grade id."""
    auto, manual = {}, {}
    for cell in release_nb["cells"]:
        m = meta(cell)
        if m.get("grade"):
            (manual if m.get("solution") else auto)[m["grade_id"]] = float(m["points"])
    return auto, manual


def typed_id(submitted_nb: dict) -> str | None:
    """The id the student typed (``STUDENT_ID = ...`` in a code cell), or None."""
    for cell in submitted_nb.get("cells", []):
        if cell.get("cell_type") == "code":
            found = variants.find_id(source(cell))
            if found is not None:
                return found
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
        if cell.get("cell_type") != "code":
            continue
        gid, text = meta(cell).get("grade_id"), source(cell)
        if gid in release and meta(release[gid]).get("locked"):
            continue  # the release's locked cells: run above, or check cells (not needed)
        # The id is the folder's, whatever the student typed; the rest of the cell runs.
        run.append(variants.set_id(text, student))
    return run


def parse_timestamp(folder: Path) -> datetime | None:
    path = folder / "timestamp.txt"
    if not path.exists():
        return None
    text = path.read_bytes()[:200].decode("utf-8", "replace").strip()
    for fmt in ("%Y-%m-%d %H:%M:%S.%f %Z", "%Y-%m-%d %H:%M:%S %Z", "%Y-%m-%d %H:%M:%S %z",
                "%Y-%m-%dT%H:%M:%S%z", "%Y-%m-%dT%H:%M:%S.%f%z"):  # fmt: skip
        try:
            when = datetime.strptime(text, fmt)
        except ValueError:
            continue
        return when if when.tzinfo else when.replace(tzinfo=UTC)
    raise GradeError(f"{path}: {text!r} is not a time like '2027-02-05 16:59:00 UTC'")


def probe_rng(course: Path, ps: str, student: str) -> np.random.Generator:
    key = int((course / ".grading_key").read_text().strip())
    return variants.student_rng(ps, key, f"grading/{student}")


# ------------------------------------------------------------------ the guarded steps


def prepare(course: str, ps: str, student: str, seed: int) -> dict:
    """Step 1 (in a guarded child): what to run, and the notes on the typed id."""
    course_p = Path(course)
    folder = course_p / "submitted" / student / ps
    release_nb = json.loads((course_p / "release" / ps / f"{ps}.ipynb").read_text())
    out = {"status": OK, "notes": [], "request": None}
    try:
        submitted_nb = read_notebook(folder / f"{ps}.ipynb")
    except (OSError, ValueError, RecursionError) as err:
        out["status"] = f"{FAILED}: the notebook could not be read ({err})"[:300]
        return out
    typed = typed_id(submitted_nb)
    if typed == variants.PLACEHOLDER:
        out["notes"].append(
            "The notebook's STUDENT_ID was not filled in: it was graded with the data of "
            f"{student!r}."
        )
    elif typed is not None and typed != student:
        out["notes"].append(
            f"The notebook's STUDENT_ID is {typed[:80]!r}, but it was submitted by "
            f"{student!r}: it was graded with the data of {student!r}."
        )
    data = variants.term_data(ps, seed, student)
    req = scoring.request(ps, data, probe_rng(course_p, ps, student))
    out["request"] = {"cells": cells_to_run(release_nb, submitted_nb, ps, student),
                      "values": req["values"], "calls": req["calls"]}  # fmt: skip
    return out


def judge(course: str, ps: str, student: str, seed: int, answers_text: str | None) -> dict:
    """Step 3 (in a guarded child): the answers, read with bounds, scored part by part."""
    course_p = Path(course)
    release_nb = json.loads((course_p / "release" / ps / f"{ps}.ipynb").read_text())
    auto, _ = graded_points(release_nb)
    data = variants.term_data(ps, seed, student)
    req = scoring.request(ps, data, probe_rng(course_p, ps, student))
    out = {"problem": None, "cell_errors": [], "timeouts": 0, "kernel": None}
    answers: dict = {}
    if answers_text is not None:
        try:
            got = bounded_json(answers_text, "the answers", max_depth=ANSWERS_DEPTH,
                               max_digits=MAX_DIGITS)  # fmt: skip
            answers = got if isinstance(got, dict) else {}
            if not isinstance(got, dict):
                out["problem"] = "its answers are not readable data (not an object)"
        except (ValueError, RecursionError) as err:
            out["problem"] = f"its answers are not readable data ({err})"[:300]
    errors = answers.get("cell_errors")
    if isinstance(errors, list):
        out["cell_errors"] = [
            str(e.get("error", ""))[:300] for e in errors[:20] if isinstance(e, dict)
        ]
    if isinstance(answers.get("timeouts"), list):
        out["timeouts"] = len(answers["timeouts"])
    if isinstance(answers.get("kernel"), str):
        out["kernel"] = answers["kernel"][:300]
    parts = scoring.score(ps, answers if out["problem"] is None else {}, data, req, auto)
    if {p.grade_id for p in parts} != set(auto):
        raise GradeError(f"{ps}: the scorer's parts do not match the notebook's graded cells")
    out["parts"] = [
        {"grade_id": p.grade_id, "points": p.points, "max_points": p.max_points,
         "checked": p.checked, "ok": p.ok, "problem": p.problem, "hint": p.hint,
         "grader_error": p.grader_error}
        for p in parts
    ]  # fmt: skip
    return out


def zero_parts(release_auto: dict[str, float], why: str) -> list[dict]:
    return [
        {"grade_id": g, "points": 0.0, "max_points": v, "checked": "not graded", "ok": False,
         "problem": why, "hint": None, "grader_error": False}
        for g, v in release_auto.items()
    ]  # fmt: skip


# ------------------------------------------------------------------ one student


def warm_up(unsafe: bool) -> dict[str, bytes]:
    """Import what the sandbox's kernel imports once on the host, so that Python's bytecode
    is written (the sandbox's view of the environment is read-only), and build matplotlib's
    font list once; the font list is copied into every run's private copy."""
    with tempfile.TemporaryDirectory(prefix="grade-warm-") as tmp:
        code = (
            "import jupyter_client, ipykernel.kernelapp, ipykernel.ipkernel, IPython, numpy, "
            "pandas, matplotlib.pyplot, matplotlib_inline.backend_inline, kappalib"
        )
        env = os.environ | {"MPLCONFIGDIR": tmp}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        try:
            subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, timeout=300)
        except (OSError, subprocess.SubprocessError):
            return {}  # only slower: each run then compiles and builds the font list itself
        return {f".tmp/{p.name}": p.read_bytes() for p in Path(tmp).glob("fontlist-*.json")}


def grade_one(
    course: Path, ps: str, student: str, seed: int, *, unsafe: bool, slot: int,
    extra_inputs: dict[str, bytes] | None = None, limits: sandbox.Limits | None = None,
) -> dict:  # fmt: skip
    """One student's record; never raises for anything in the submission."""
    release_nb = json.loads((course / "release" / ps / f"{ps}.ipynb").read_text())
    auto, _ = graded_points(release_nb)
    limits = limits or sandbox.Limits()
    record = {"student": student, "ps": ps, "status": OK, "notes": [], "cell_errors": [],
              "parts": []}  # fmt: skip
    started = time.perf_counter()
    try:
        prep = guard.call("reading the notebook", prepare, str(course), ps, student, seed,
                          seconds=STEP_SECONDS)  # fmt: skip
    except guard.StepFailed as err:
        record["status"] = f"{GRADER_ERROR}: {err}"
        record["parts"] = zero_parts(auto, f"not graded: {GRADER_ERROR} ({err.step})")
        return record
    record["notes"] += prep["notes"]
    record["status"] = prep["status"]
    answers_text = None
    run = None
    if record["status"] == OK:
        inputs = {"request.json": json.dumps(prep["request"]).encode()} | (extra_inputs or {})
        argv = [sys.executable, "-I", str(HARNESS)]
        try:
            run = sandbox.run(argv, inputs=inputs, outputs=("answers.json",), limits=limits,
                              unsafe=unsafe, slot=slot, extra_ro=(HARNESS,))  # fmt: skip
        except (sandbox.SandboxUnavailableError, OSError) as err:
            record["status"] = f"{REGRADE}: the sandbox could not run ({err})"[:300]
        if run is not None:
            record["run"] = {"seconds": round(run.seconds, 2),
                             "cpu_seconds": round(run.cpu_seconds, 2),
                             "wait_seconds": round(run.wait_seconds, 2),
                             "memory_peak_mib": round(run.memory_peak / 2**20, 1),
                             "limit": run.limit, "host_busy": run.host_busy}  # fmt: skip
            raw = run.outputs.get("answers.json")
            if run.limit:
                record["status"] = f"{FAILED}: {run.describe_limit(limits)}"
            elif not raw:
                why = "it stopped before the answers were collected"
                if run.returncode < 0 or run.returncode > 128:
                    why += f" (killed by signal {abs(run.returncode) % 128})"
                record["status"] = f"{FAILED}: {why}"
            elif len(raw) > MAX_ANSWERS:
                record["status"] = f"{FAILED}: its answers are too large"
            else:
                answers_text = raw.decode("utf-8", "replace")
    try:
        judged = guard.call("scoring", judge, str(course), ps, student, seed,
                            answers_text if record["status"] == OK else None,
                            seconds=STEP_SECONDS)  # fmt: skip
    except guard.StepFailed as err:
        record["status"] = f"{GRADER_ERROR}: {err}"
        record["parts"] = zero_parts(auto, f"not graded: {GRADER_ERROR} ({err.step})")
        record["seconds"] = round(time.perf_counter() - started, 2)
        return record
    record["parts"] = judged["parts"]
    record["cell_errors"] = judged["cell_errors"]
    if record["status"] == OK and judged["problem"]:
        record["status"] = f"{FAILED}: {judged['problem']}"
    if record["status"] == OK and judged["kernel"]:
        record["status"] = f"{FAILED}: {judged['kernel']}"
    # Out of time (a cell cut off, the wall clock, a kernel that did not start in time) while
    # the machine was too busy to judge: not the student's fault. Nothing else depends on load.
    late = run is not None and (run.limit == "time" or judged["timeouts"]
                                or "kernel failed" in (judged["kernel"] or ""))  # fmt: skip
    if run is not None and run.host_busy and late:
        share = run.wait_seconds / max(run.seconds, 1e-9)
        record["status"] = (
            f"{REGRADE}: the machine was busy (the run waited for a CPU {share:.0%} of its "
            f"{run.seconds:.0f} s)"
        )
    if record["status"].startswith((FAILED, REGRADE)):
        for p in record["parts"]:
            p.update(points=0.0, ok=False)
    errors = [p for p in record["parts"] if p.get("grader_error")]
    if errors and record["status"] == OK:
        record["status"] = (
            f"{GRADER_ERROR}: scoring {errors[0]['grade_id']}: {errors[0]['problem']}"
        )
    record["seconds"] = round(time.perf_counter() - started, 2)
    return record


# ------------------------------------------------------------------ outputs of one student


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
    status = record["status"]
    if status.startswith(FAILED):
        notes += f"<p><b>Your notebook {e(status)}.</b></p>"
    elif status != OK:
        notes += f"<p><b>Not graded yet ({e(status)}): your instructor will grade it again.</b></p>"
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
        pending = record["status"].startswith(REGRADE)
        for grade in nb.grades:
            if grade.name in points:
                grade.auto_score = None if pending else points[grade.name]
                grade.needs_manual_grade = False
        gb.db.commit()


def save(course: Path, record: dict, manual: dict[str, float], when: datetime | None) -> None:
    """score.json first (what was graded survives anything after), then the gradebook and the
    feedback page; a failure here becomes the student's status."""
    s, ps = record["student"], record["ps"]
    out = course / "autograded" / s / ps
    out.mkdir(parents=True, exist_ok=True)
    (out / "score.json").write_text(json.dumps(record, indent=1) + "\n")
    try:
        write_gradebook(course, record, when)
        page = course / "feedback" / s / ps / f"{ps}.html"
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(feedback_page(record, manual))
    except Exception as err:
        record["status"] = f"{GRADER_ERROR}: saving: {type(err).__name__}: {str(err)[:200]}"
        (out / "score.json").write_text(json.dumps(record, indent=1) + "\n")


# ------------------------------------------------------------------ the class


def wait_for_quiet(limit: float = QUIET_WAIT) -> float:
    """Wait (at most `limit` s) until the 1-minute load is below the number of cores."""
    started = time.monotonic()
    cores = os.cpu_count() or 1
    while time.monotonic() - started < limit and os.getloadavg()[0] >= cores:
        time.sleep(2)
    return time.monotonic() - started


def grade(course: Path, ps: str, *, jobs: int = 2, unsafe: bool = False,
          only: list[str] | None = None, audit: bool = True,
          limits: sandbox.Limits | None = None,
          quiet_wait: float = QUIET_WAIT) -> list[dict]:  # fmt: skip
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
    if only:
        missing = sorted(set(only) - set(folders))
        if missing:
            raise GradeError(f"no {ps} submission of {', '.join(missing)} in submitted/")
        folders = [s for s in folders if s in set(only)]
    times = {}
    for s in folders:
        try:
            times[s] = parse_timestamp(course / "submitted" / s / ps)
        except (GradeError, OSError) as err:
            print(f"warning: {s}: {err}; counted as on time", file=sys.stderr)
            times[s] = None
    untimed = [s for s, t in times.items() if t is None]
    if untimed:
        print(
            f"warning: no timestamp for {', '.join(untimed)}: counted as on time (see "
            "book/for_instructors.md, collecting from an LMS)",
            file=sys.stderr,
        )
    auto_all, manual = graded_points(
        json.loads((course / "release" / ps / f"{ps}.ipynb").read_text())
    )
    guard.preload(["grade", "copydetect"])  # copydetect: matplotlib, pygments (1-2 s)
    extra = warm_up(unsafe)
    records: dict[str, dict] = {}
    in_progress: set[str] = set()

    def one(student: str, slot: int) -> dict:
        in_progress.add(student)
        try:
            return grade_one(course, ps, student, seed, unsafe=unsafe, slot=slot,
                             extra_inputs=extra, limits=limits)  # fmt: skip
        finally:
            in_progress.discard(student)

    try:
        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            futures = {pool.submit(one, s, i % max(1, jobs)): s for i, s in enumerate(folders)}
            for future in as_completed(futures):
                s = futures[future]
                try:
                    record = future.result()
                except Exception as err:
                    record = {"student": s, "ps": ps, "notes": [], "cell_errors": [],
                              "status": f"{GRADER_ERROR}: grading: {type(err).__name__}: "
                                        f"{err}"[:300],
                              "parts": zero_parts(auto_all, "not graded")}  # fmt: skip
                records[s] = record
                save(course, record, manual, times[s])
        pending = [s for s, r in records.items() if r["status"].startswith(REGRADE)]
        if pending:
            waited = wait_for_quiet(quiet_wait)
            print(f"regrading {', '.join(pending)} one at a time (after waiting {waited:.0f} s "
                  "for a quieter machine)", file=sys.stderr)  # fmt: skip
            for s in pending:
                record = one(s, 0)
                if record["status"].startswith(REGRADE):
                    record["notes"].append(
                        "Graded twice, the second time alone: the machine was too busy both "
                        "times. Grade it again later: make grade ... GRADE_ARGS=--only " + s
                    )
                records[s] = record
                save(course, record, manual, times[s])
    except BaseException:
        done = ", ".join(sorted(records)) or "none"
        now = ", ".join(sorted(in_progress)) or "between students"
        print(f"make grade: the grader itself failed while grading {now}; "
              f"already graded and saved in autograded/: {done}", file=sys.stderr)  # fmt: skip
        traceback.print_exc()
        raise
    out = [records[s] for s in folders]
    if audit:
        try:
            flags = integrity_audit.audit_set(course, ps)
            path = integrity_audit.write_report(course, ps, flags)
            n = len({f.student for f in flags if f.integrity})
            print(f"integrity audit of {ps}: {n} students to look at; report: {path}")
        except Exception as err:
            print(f"grader error: the integrity audit of {ps} failed ({type(err).__name__}: {err})",
                  file=sys.stderr)  # fmt: skip
    export.export(course)
    return out


def summary(records: list[dict]) -> str:
    groups: dict[str, list[str]] = {}
    for r in records:
        kind = r["status"].split(":")[0]
        groups.setdefault(kind, []).append(
            r["student"]
            if kind == OK
            else f"{r['student']} ({r['status'].split(':', 1)[1].strip()})"
        )
    lines = [f"{OK}: {len(groups.pop(OK, []))}"]
    for kind, who in groups.items():
        lines.append(f"{kind}: {len(who)}: " + "; ".join(who))
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--course", type=Path, required=True)
    parser.add_argument("--ps", required=True)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", default="", help="comma-separated student ids to grade")
    parser.add_argument(
        "--UNSAFE-no-sandbox",
        dest="unsafe",
        action="store_true",
        help="run the students' code WITHOUT the sandbox, with your permissions",
    )
    args = parser.parse_args()
    os.environ["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    started = time.perf_counter()
    only = [s.strip() for s in args.only.split(",") if s.strip()] or None
    try:
        records = grade(args.course, args.ps, jobs=args.jobs, unsafe=args.unsafe, only=only)
    except (GradeError, sandbox.SandboxUnavailableError) as err:
        print(f"make grade: {err}", file=sys.stderr)
        return 2
    print(
        f"graded {len(records)} submissions of {args.ps} in {time.perf_counter() - started:.1f} s"
        f". Grades: {args.course / 'grades.csv'}\n{summary(records)}"
    )
    return 0


if __name__ == "__main__":
    import grade as _grade  # the guarded steps must be importable by the name "grade"

    sys.exit(_grade.main())
