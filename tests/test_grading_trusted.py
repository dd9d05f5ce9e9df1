"""The grader's trusted side is total (issue 32): every crasher of the issue, one by one.

Each input below once stopped ``make grade`` for the whole class (or took 79 s on a regular
expression). Here each is read or scored on its own, and must end in one sentence, or a
guarded step's failure that names the step, in bounded time and memory:

* reading: a notebook ``[`` nested 100,000 deep, answers with a 400-digit integer or nested
  100,000 deep, ``STUDENT_ID = x<40,000 spaces>y`` (parsed in linear time: checked by counting
  the work, not the clock);
* scoring: a family with negative counts (kappalib's ``ValueError``) is the part's problem;
  a failure of the scorer's own code is the part's ``grader_error``;
* the guard: a timeout, a ``RecursionError``, a ``MemoryError``, an interpreter that dies;
* unearned credit: a constant ``weighted_kappa``, a zero-width interval, ``A_min = 0`` with
  ``kappa_min`` from the closed form;
* honest forms: numpy scalars, 0-d arrays and a 0-d array of strings are answers;
* the export: no CSV cell a spreadsheet would run (OWASP);
* collection: by LMS user id or exact e-mail, never a name a student chose; a zip bomb
  refused; an earlier submission kept, not overwritten;
* the audit: a magic on top of a copied cell, ``os.fork`` and friends, pairs of students.
"""

import io
import json
import os
import sys
import time
import zipfile
from pathlib import Path

import numpy as np
import pytest

pytestmark = [pytest.mark.toolchain]

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "coursework"))

import bounded  # noqa: E402
import export  # noqa: E402
import guard  # noqa: E402
import harness  # noqa: E402
import integrity_audit  # noqa: E402
import scoring  # noqa: E402
import students  # noqa: E402
import variants  # noqa: E402

SETS = variants.problem_sets(ROOT / "coursework" / "source")


def auto_points(ps):
    nb = json.loads((ROOT / "coursework" / "source" / ps / f"{ps}.ipynb").read_text())
    return {
        c["metadata"]["nbgrader"]["grade_id"]: float(c["metadata"]["nbgrader"]["points"])
        for c in nb["cells"]
        if c["metadata"].get("nbgrader", {}).get("grade") and c["cell_type"] == "code"
    }


# ---------------------------------------------------------------- reading with bounds


def test_a_notebook_nested_100000_deep_is_refused_in_one_sentence(tmp_path):
    path = tmp_path / "ps1.ipynb"
    path.write_text("[" * 100_000)
    with pytest.raises(ValueError, match="nested 100000 deep"):
        bounded.read_notebook(path)


@pytest.mark.parametrize(
    "text, words",
    [
        ('{"values": {"C_target": ' + "9" * 400 + "}}", "400 digits"),
        ('{"values": {"C_target": ' + "[" * 100_000 + "]" * 100_000 + "}}", "nested"),
        ('{"a": "' + "[" * 1000 + '"}', None),  # brackets inside a string do not count
    ],
)
def test_answers_with_a_huge_integer_or_deep_nesting_are_refused(text, words):
    if words is None:
        assert bounded.bounded_json(text, "the answers", max_depth=4) == {"a": "[" * 1000}
        return
    with pytest.raises(ValueError, match=words):
        bounded.bounded_json(text, "the answers", max_depth=40, max_digits=30)


def test_a_huge_number_is_a_bad_answer_not_a_crash():
    with pytest.raises(scoring.BadAnswerError, match="sensible size"):
        scoring.number(10**400, "p_o")


def test_the_typed_id_is_read_in_linear_time():
    """The old regular expression backtracked: 79 s for 40,000 spaces, growing with the
    square. Plain string operations: the work grows with the length (counted, not timed)."""
    calls = []

    class Counting(str):
        def split(self, *a, **k):
            calls.append(len(self))
            return str.split(self, *a, **k)

    text = "STUDENT_ID = x" + " " * 40_000 + "y"
    assert variants.find_id(text) == "x" + " " * 40_000 + "y"
    assert variants.find_id(Counting(text)) is not None
    assert len(calls) <= 2  # a constant number of passes over the line
    assert variants.set_id("import pandas as pd\nSTUDENT_ID = 'x'  # me\n", "ada") == (
        "import pandas as pd\nSTUDENT_ID = 'ada'\n"
    )


# ---------------------------------------------------------------- the guard


def _recurse(n):
    return _recurse(n + 1)


@pytest.mark.parametrize(
    "fn, args, kw, words",
    [
        (time.sleep, (30,), {"seconds": 0.5}, "took more than 0.5 s"),
        (json.loads, ("[" * 100_000,), {}, "RecursionError"),
        (int, ("9" * 5000,), {}, "ValueError"),
        (bytearray, (2 * 2**30,), {"memory_bytes": 2**30}, "MemoryError"),
        (os._exit, (3,), {}, "the worker died (exit code 3)"),
    ],
)
def test_a_guarded_step_turns_every_failure_into_a_sentence(fn, args, kw, words):
    with pytest.raises(guard.StepFailed) as err:
        guard.call("scoring", fn, *args, **kw)
    assert err.value.step == "scoring" and words in str(err.value)


def test_a_guarded_step_returns_its_result():
    assert guard.call("reading", json.loads, '{"a": [1, 2]}') == {"a": [1, 2]}


# ---------------------------------------------------------------- scoring


def score(ps, values=None, calls=None):
    data = variants.term_data(ps, variants.SEED, "ada")
    req = scoring.request(ps, data, np.random.default_rng(3))
    answers = {"values": values or {}, "calls": calls or {}}
    return {p.grade_id: p for p in scoring.score(ps, answers, data, req, auto_points(ps))}, req


def enc(x):
    return json.loads(json.dumps(harness.encode(x)))


@pytest.mark.parametrize("ps, name", [("ps3", "family"), ("ps5", "family")])
def test_a_family_with_negative_counts_is_the_parts_problem(ps, name):
    from kappalib import families

    family = families.ZA(np.array([10.0, 20.0, 40.0]), 3)
    family[:, 1, 0] -= 2
    parts, _ = score(ps, {name: enc(family)})
    flip = parts[f"{ps}-q2c-flip" if ps == "ps3" else f"{ps}-q4c-flip"]
    assert not flip.ok and "negative" in flip.problem and not flip.grader_error


def test_a_failure_of_the_scorers_own_code_is_that_parts_grader_error():
    p = scoring.Parts("ps1", {"ps1-x": 1.0, "ps1-y": 1.0})
    p.check("x", "something", lambda: {}["missing"])
    p.check("y", "something else", lambda: True)
    assert p.parts[0].grader_error and "KeyError" in p.parts[0].problem
    assert p.parts[1].ok  # the next part is scored as usual


def test_a_constant_weighted_kappa_earns_no_carried_forward_credit():
    parts, req = score("ps2")
    sizes = req["sizes"]
    right_w = [kl_weights(K, None) for K in sizes] + [
        kl_weights(K, k) for K in sizes for k in ("linear", "quadratic")
    ]
    n = len(req["calls"]["weighted_kappa"])
    calls = {"weights": [enc(W) for W in right_w], "weighted_kappa": [0.0] * n}
    data = variants.term_data("ps2", variants.SEED, "ada")
    import kappalib as kl

    C4 = kl.confusion_matrix(data["rater"], data["model"], labels=[1, 2, 3, 4])
    values = {"C4": enc(C4), "k_linear": 0.0, "k_quadratic": 0.0, "worst_order": [1, 2, 3, 4]}
    parts, _ = score("ps2", values, calls)
    got = {g for g, p in parts.items() if p.ok}
    assert "ps2-q3b-linear" not in got and "ps2-q3c-quadratic" not in got
    # the same student with a real (if wrong) function keeps the carried-forward credit
    real = [0.5 + 0.01 * i for i in range(n)]
    own = {"k_linear": real[-2], "k_quadratic": real[-1]}
    parts, _ = score("ps2", values | own, calls | {"weighted_kappa": real})
    assert parts["ps2-q3b-linear"].ok and parts["ps2-q3c-quadratic"].ok


def kl_weights(K, kind):
    import kappalib as kl

    return kl.disagreement_weights(K, kind)


def test_a_zero_width_interval_earns_nothing():
    import kappalib as kl

    data = variants.term_data("ps4", variants.SEED, "ada")
    k = kl.kappa(data["C_a"])
    parts, _ = score("ps4", {"se_a": 0.0, "ci_a": enc([k, k])})
    assert not parts["ps4-q4b-interval"].ok


def test_a_min_zero_with_the_closed_form_earns_nothing():
    from kappalib import closed_forms as cf

    data = variants.term_data("ps3", variants.SEED, "ada")
    parts, _ = score("ps3", {"A_min": 0.0, "kappa_min": cf.kappa_ZA(0.0, data["K"])})
    assert not parts["ps3-q1c-minimum"].ok


@pytest.mark.parametrize(
    "x, want",
    [(np.where(0.3 > 0.2, "a", "b"), "a"), (np.str_("b"), "b"), (np.array("a"), "a")],
)
def test_strings_the_notebooks_own_check_accepts_are_answers(x, want):
    assert x in ("a", "b")  # the notebook's own check
    assert scoring.text(enc(x), "higher") == want


def test_numpy_scalars_and_0d_arrays_are_numbers():
    for x in (np.float32(0.25), np.int8(3), np.array(0.25), np.array([[0.5]])[0, 0]):
        assert scoring.number(enc(x), "p_o") == float(x)


# ---------------------------------------------------------------- export


@pytest.mark.parametrize(
    "text, want",
    [
        ('=HYPERLINK("http://x", "y")', '\'=HYPERLINK("http://x", "y")'),
        ("+1 555", "'+1 555"),
        ("-cmd", "'-cmd"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tx", "'\tx"),
        ("\rx", "'\rx"),
        ("-0.5", "-0.5"),  # a number stays a number
        ("Ada", "Ada"),
    ],
)
def test_csv_cells_a_spreadsheet_would_run_are_neutralised(text, want):
    assert export.neutral(text) == want


# ---------------------------------------------------------------- the audit


def test_a_magic_on_top_of_a_copied_cell_hides_nothing():
    ref = "def observed(C):\n    C = np.asarray(C, dtype=float)\n    return np.trace(C) / C.sum()\n"
    assert integrity_audit.shape_of("%%time\n" + ref) == integrity_audit.shape_of(ref)
    assert integrity_audit.shape_of("%matplotlib inline\n" + ref) is not None


@pytest.mark.parametrize(
    "code",
    ["import os\nos.fork()", "import os\nos._exit(0)", "import os\nos.kill(1, 9)",
     "import os\nfd = os.open('x', os.O_RDONLY)", "import os\nos.symlink('a', 'b')",
     "from os import fork"],
)  # fmt: skip
def test_the_audit_flags_process_and_file_calls_of_os(code):
    found = integrity_audit.scan(code, {"os"})
    assert [w for _, w, integrity in found if integrity], code


def test_the_audit_pairs_students_who_share_their_own_code(tmp_path):
    source = ROOT / "coursework" / "source"
    ps = "ps1"
    nb = json.loads((source / ps / f"{ps}.ipynb").read_text())

    def write(student, answers):
        out = json.loads(json.dumps(nb))
        for cell in out["cells"]:
            gid = cell["metadata"].get("nbgrader", {}).get("grade_id")
            if gid in answers:
                cell["source"] = answers[gid]
        path = tmp_path / "submitted" / student / ps / f"{ps}.ipynb"
        path.parent.mkdir(parents=True)
        path.write_text(json.dumps(out))

    write("a", students.SHARED)
    write("b", students.shared_by_classmate(students.SHARED))
    write("c", students.DIFFERENT)
    flags = integrity_audit.audit(tmp_path / "submitted", source, ps)
    pairs = [f for f in flags if f.question == "pair"]
    assert [(f.student, f.what.split(":")[0]) for f in pairs] == [("a", "shares code with b")]
    assert "ps1-q1-answer" in pairs[0].what
    assert integrity_audit.clusters(pairs) == [["a", "b"]]
    assert "**a, b**" in integrity_audit.report(flags, ps)


# ---------------------------------------------------------------- collection


@pytest.fixture(scope="module")
def gradebook(tmp_path_factory):
    """A gradebook of three students (nbgrader's API), made once: its migrations take seconds."""
    pytest.importorskip("nbgrader")
    from nbgrader.api import Gradebook

    path = tmp_path_factory.mktemp("gradebook") / "gradebook.db"
    old = os.environ["PATH"]
    os.environ["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{old}"  # its alembic
    try:
        with Gradebook(f"sqlite:///{path}") as gb:
            gb.update_or_create_student("ann", email="ann@uni.edu")
            gb.update_or_create_student("bob", email="bob@uni.edu")
            gb.update_or_create_student("eve", email="bob@evil.org")  # local part: a classmate
    finally:
        os.environ["PATH"] = old
    return path


@pytest.fixture
def roster(tmp_path, monkeypatch, gradebook):
    """A course directory with a copy of that gradebook."""
    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    course = tmp_path / "course"
    course.mkdir()
    (course / "gradebook.db").write_bytes(gradebook.read_bytes())
    return course


def zipped(path, entries):
    with zipfile.ZipFile(path, "w") as z:
        for name, data in entries:
            z.writestr(zipfile.ZipInfo(name, (2026, 12, 4, 9, 0, 0)), data)
    return path


def test_collection_is_by_lms_identity_never_by_a_name(roster, tmp_path):
    import collect

    ids = tmp_path / "ids.csv"
    ids.write_text("student_id,lms_id\nann,11\nbob,12\neve,13\n")
    z = zipped(tmp_path / "d.zip", [
        ("Ann A_11_assignsubmission_file_/bob_ps1.ipynb", b"ann's"),  # named after bob
        ("bob@evil.org/ps1.ipynb", b"eve's"),  # eve's e-mail; its local part is bob's id
        ("ann_12_99_ps1.ipynb", b"bob's"),  # Canvas: user id 12 is bob, whatever the name
    ])  # fmt: skip
    got = collect.collect(roster, "ps1", z, lms_ids=ids)
    assert sorted(got) == ["ann", "bob", "eve"]
    read = {s: (roster / "submitted" / s / "ps1" / "ps1.ipynb").read_bytes() for s in got}
    assert read == {"ann": b"ann's", "bob": b"bob's", "eve": b"eve's"}


def test_collection_refuses_the_unknown_and_writes_nothing(roster, tmp_path):
    import collect

    z = zipped(tmp_path / "d.zip", [("Zed_99_assignsubmission_file_/x.ipynb", b"x"),
                                    ("ann@uni.edu/ps1.ipynb", b"a")])  # fmt: skip
    ids = tmp_path / "ids.csv"
    ids.write_text("student_id,lms_id\nann,11\n")
    with pytest.raises(collect.CollectError, match=r"Zed_99.* matches no student"):
        collect.collect(roster, "ps1", z, lms_ids=ids)
    assert not (roster / "submitted").exists()


def test_an_earlier_submission_is_kept_not_overwritten(roster, tmp_path, capsys):
    import collect

    first = zipped(tmp_path / "1.zip", [("ann@uni.edu/ps1.ipynb", b"first")])
    second = zipped(tmp_path / "2.zip", [("ann@uni.edu/ps1.ipynb", b"second")])
    collect.collect(roster, "ps1", first)
    collect.collect(roster, "ps1", second)
    folder = roster / "submitted" / "ann" / "ps1"
    assert (folder / "ps1.ipynb").read_bytes() == b"second"
    kept = list((folder / "previous").glob("ps1-*.ipynb"))
    assert [p.read_bytes() for p in kept] == [b"first"]
    assert "kept in" in capsys.readouterr().out


def test_a_zip_bomb_is_refused_before_it_is_read(roster, tmp_path):
    import collect

    path = tmp_path / "bomb.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        with z.open("ann@uni.edu/ps1.ipynb", "w") as fh:
            for _ in range(40):
                fh.write(b"\0" * 2**20)
    with pytest.raises(collect.CollectError, match="unpacked"):
        collect.collect(roster, "ps1", path)
    # a header that lies about the size is caught by the bounded read
    data = io.BytesIO(path.read_bytes())
    with zipfile.ZipFile(data) as z:
        info = z.infolist()[0]
        info.file_size = 10
        with pytest.raises(collect.CollectError, match=r"damaged|more than"):
            collect._bounded_read(z, info)
