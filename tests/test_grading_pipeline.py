"""make grade goes on for everyone (issue 32): a starved run is regraded, a grader error named.

A small course (two students, ps1: the reference solution and a blank release) is graded with
the real sandbox, with one thing made to go wrong for one student:

* the machine "too busy": the first run of ada is reported starved (out of time while its
  threads waited for a CPU), as the sandbox would report it; she is graded again once, alone,
  and gets her points; starved twice, her status is ``needs regrading``, with no score in
  either CSV rather than a 0;
* the grader's own scoring step fails for ben: his status is ``grader error`` naming the step,
  ada is graded as usual, and the summary names ben.
"""

import csv
import json
import os
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "coursework"))

import sandbox  # noqa: E402

if shutil.which("bwrap") is None:
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(sandbox.INSTALL, pytrace=False)
    pytest.skip(f"bwrap is not installed. {sandbox.INSTALL}", allow_module_level=True)
pytest.importorskip("nbgrader")

import grade  # noqa: E402
import guard  # noqa: E402


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    import course as course_mod

    root = tmp_path_factory.mktemp("pipeline")
    (root / "s.csv").write_text("id,first_name,last_name,email\nada,A,S,a@x\nben,B,S,b@x\n")
    (root / "a.csv").write_text("name,duedate\nps1,2026-12-04 17:00:00 UTC\n")
    os.environ["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"
    course_mod.make_course(root / "c", 7, root / "s.csv", root / "a.csv")
    return root / "c"


@pytest.fixture
def course(made, tmp_path):
    course = tmp_path / "c"
    shutil.copytree(made, course)
    for who, nb in (("ada", course / "source"), ("ben", course / "release")):
        dest = course / "submitted" / who / "ps1"
        dest.mkdir(parents=True)
        shutil.copy(nb / "ps1" / "ps1.ipynb", dest)
        (dest / "timestamp.txt").write_text("2026-12-04 12:00:00 UTC")
    return course


def starved(limits):
    return sandbox.Result(returncode=-9, stdout="", stderr="", timed_out=True,
                          seconds=limits.wall_seconds, sandboxed=True, uid=None,
                          outputs={"answers.json": None}, cpu_seconds=3.0,
                          wait_seconds=0.8 * limits.wall_seconds, limit="time",
                          host_busy=True)  # fmt: skip


def rows(course):
    rows = csv.DictReader((course / "grades.csv").open())
    return {r["student_id"]: r for r in rows if r["assignment"] == "ps1"}


@pytest.mark.parametrize("times_starved", [1, 2])
def test_a_run_starved_by_a_busy_machine_is_graded_again_not_given_0(
    course, monkeypatch, times_starved
):
    real = grade.sandbox.run
    calls = []

    def run(argv, *, inputs=None, **kw):
        request = json.loads((inputs or {}).get("request.json", b'{"cells": [""]}'))
        if "STUDENT_ID = 'ada'" in request["cells"][0]:
            calls.append("ada")
            if len(calls) <= times_starved:
                return starved(kw.get("limits") or sandbox.Limits())
        return real(argv, inputs=inputs, **kw)

    monkeypatch.setattr(grade.sandbox, "run", run)
    records = {r["student"]: r for r in grade.grade(course, "ps1", quiet_wait=0, audit=False)}
    ada = records["ada"]
    assert calls == ["ada", "ada"]  # graded again once, and only once
    row = rows(course)["ada"]
    if times_starved == 1:
        assert ada["status"] == grade.OK and sum(p["points"] for p in ada["parts"]) == 9
        assert row["auto_score"] == "9"
    else:
        assert ada["status"].startswith("needs regrading: the machine was busy")
        assert row["status"] == "needs regrading" and row["auto_score"] == row["score"] == ""
        assert "--only ada" in " ".join(ada["notes"])
        lms = list(csv.DictReader((course / "lms_grades.csv").open()))
        assert next(r for r in lms if r["SIS User ID"] == "ada")["ps1"] == ""
    assert records["ben"]["status"] == grade.OK


def test_a_grader_error_for_one_student_is_his_status_and_the_class_goes_on(course, monkeypatch):
    real = guard.call

    def call(step, fn, *args, **kw):
        if step == "scoring" and args[2] == "ben":
            raise guard.StepFailed(step, "ZeroDivisionError: planted in the test")
        return real(step, fn, *args, **kw)

    monkeypatch.setattr(grade.guard, "call", call)
    records = {r["student"]: r for r in grade.grade(course, "ps1", audit=False)}
    assert (
        records["ben"]["status"] == "grader error: scoring: ZeroDivisionError: planted in the test"
    )
    assert records["ada"]["status"] == grade.OK
    assert sum(p["points"] for p in records["ada"]["parts"]) == 9
    assert "grader error: 1: ben (scoring: ZeroDivisionError" in grade.summary(records.values())
    row = rows(course)["ben"]
    assert row["status"] == "grader error" and "planted" in row["status_detail"]
    saved = json.loads((course / "autograded" / "ben" / "ps1" / "score.json").read_text())
    assert saved["status"].startswith("grader error")
