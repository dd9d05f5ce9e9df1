"""The coursework (coursework/, issues 7, 14 and 21): problem sets, scorer, audit, export.

* Five sets, at least 50 points, each with a written answer and its rubric; one graded cell
  per function or sub-part, each with a visible check; the committed setup cells hold the
  setup of ``variants.SEED``; each student's data come from the seed and their id.
* The trusted scorer (scoring.py) has one part per graded cell, with its points; it accepts
  every reasonable representation (through the harness's encoding), refuses malformed data
  with a sentence, never shows the expected value, and every hint can fire.
* The integrity audit flags a verbatim copy of the reference solutions and one with its names
  changed, and no honest student.
* The export: statuses, the late penalty on the whole score, extensions.
* End to end (nbgrader, the sandbox): the reference solution earns every automatic point and
  the blank release none, for two seeds.
* The leak check and the student edition.

The sandbox's walls are proved in tests/test_sandbox.py; ``make autograde-demo`` runs the
whole loop with simulated honest students, copies and cheats.
"""

import csv
import json
import os
import re
import shutil
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
import yaml

import kappalib as kl

ROOT = Path(__file__).resolve().parent.parent
COURSE = ROOT / "coursework"
sys.path.insert(0, str(COURSE))

import grade as grade_mod  # noqa: E402
import harness  # noqa: E402
import integrity_audit  # noqa: E402
import leak_check  # noqa: E402
import scoring  # noqa: E402
import student_edition  # noqa: E402
import students  # noqa: E402
import variants  # noqa: E402

pytestmark = [pytest.mark.toolchain, pytest.mark.slow]

SETS = variants.problem_sets(COURSE / "source")


def cells(ps):
    return json.loads((COURSE / "source" / ps / f"{ps}.ipynb").read_text())["cells"]


def meta(cell):
    return cell["metadata"].get("nbgrader", {})


def auto_points(ps):
    return {
        meta(c)["grade_id"]: float(meta(c)["points"])
        for c in cells(ps)
        if meta(c).get("grade") and c["cell_type"] == "code"
    }


def test_five_sets_at_least_50_points_each_with_a_written_answer():
    assert SETS == ["ps1", "ps2", "ps3", "ps4", "ps5"]
    total = 0
    for ps in SETS:
        graded = [c for c in cells(ps) if meta(c).get("grade")]
        total += sum(meta(c)["points"] for c in graded)
        written = [c for c in graded if c["cell_type"] == "markdown" and meta(c)["solution"]]
        assert written, f"{ps} has no written answer"
        for cell in written:
            assert "**Rubric (" in "".join(cell["source"]), meta(cell)["grade_id"]
    assert total >= 50


@pytest.mark.parametrize("ps", SETS)
def test_graded_cells_visible_checks_no_hidden_tests(ps):
    code = [c for c in cells(ps) if meta(c).get("grade") and c["cell_type"] == "code"]
    assert len(code) >= 3
    for cell in code:
        m, text = meta(cell), "".join(cell["source"])
        assert 0 < m["points"] <= 2 and m["locked"], m["grade_id"]
        assert "assert" in text, f"{m['grade_id']}: no visible check"
        # one tolerance: the setup cell's close(), never numpy's own rtol
        assert "np.isclose" not in text and "np.allclose" not in text, m["grade_id"]
        assert "HIDDEN TESTS" not in text and "_grading" not in text, m["grade_id"]
        for line in text.splitlines():  # a failed check says what it checked
            if line.startswith("assert "):
                assert '"' in line or "'" in line or line.rstrip().endswith("("), line


@pytest.mark.parametrize("ps", SETS)
def test_id_cell_then_setup_cell_with_the_committed_seed(ps):
    code = [c for c in cells(ps) if c["cell_type"] == "code"]
    assert "".join(code[0]["source"]) == variants.id_source(ps)
    assert meta(code[1])["grade_id"] == f"{ps}-setup" and meta(code[1])["locked"]
    assert "".join(code[1]["source"]) == variants.setup_source(ps, variants.SEED)
    assert f"TOL = {variants.TOL!r}" in variants.setup_source(ps, variants.SEED)


def test_each_student_and_each_term_has_other_data():
    def same(x, y):
        return all(np.array_equal(np.asarray(x[k]), np.asarray(y[k])) for k in x)

    for ps in SETS:
        a = variants.term_data(ps, variants.SEED, "ada")
        assert not same(a, variants.term_data(ps, variants.SEED, "ben")), f"{ps}: two students"
        assert not same(a, variants.term_data(ps, 7, "ada")), f"{ps}: two terms"
        assert same(a, variants.term_data(ps, variants.SEED, "ada"))


def test_the_setup_cell_makes_the_same_data_as_the_grader():
    for ps in SETS:
        ns = {"STUDENT_ID": "ada"}
        exec(variants.setup_source(ps, 7), ns)  # the notebook's own cell, as the student runs it
        want = variants.term_data(ps, 7, "ada")
        for k, v in want.items():
            assert np.array_equal(np.asarray(ns[k]), np.asarray(v)), (ps, k)


@pytest.mark.parametrize("ps", SETS)
def test_the_scorer_has_one_part_per_graded_cell_with_its_points(ps):
    data = variants.term_data(ps, variants.SEED, "ada")
    req = scoring.request(ps, data, np.random.default_rng(1))
    parts = scoring.score(ps, {"values": {}, "calls": {}}, data, req, auto_points(ps))
    assert {p.grade_id: p.max_points for p in parts} == auto_points(ps)
    assert all(p.points == 0 and p.problem for p in parts)  # nothing answered: 0, and why


def enc(x):
    return json.loads(json.dumps(harness.encode(x)))


@pytest.mark.parametrize(
    "x", [0.5, np.float64(0.5), np.float32(0.5), Fraction(1, 2), np.array(0.5), np.int64(1) / 2]
)
def test_every_representation_of_a_number_is_accepted(x):
    assert scoring.number(enc(x), "p_o") == 0.5


def test_every_representation_of_a_table_is_accepted():
    pd = pytest.importorskip("pandas")
    T = [[3, 1], [2, 4]]
    for x in (T, tuple(map(tuple, T)), np.array(T), np.array(T, dtype=np.int8),
              pd.DataFrame(T), np.array(T, dtype=float)):  # fmt: skip
        assert np.array_equal(scoring.table(enc(x), "C_target", ndim=2), np.array(T, dtype=float))
    assert np.array_equal(scoring.table(enc(pd.Series([1.0, 2.0])), "ci_a", ndim=1), [1, 2])
    assert scoring.table(enc([Fraction(1, 2), 0.25]), "ci_a").tolist() == [0.5, 0.25]


@pytest.mark.parametrize(
    "bad, words",
    [
        ({"missing": True}, "not defined"),
        ({"error": "ZeroDivisionError: division by zero"}, "ZeroDivisionError"),
        (True, "boolean"),
        ("0.5", "string"),
        (None, "None"),
        ({"unsupported": "non-finite number NaN"}, "non-finite"),
        ({"array": [0.5, 0.5], "shape": [2]}, "array of shape (2,)"),
        (float("inf"), "finite"),
    ],
)
def test_bad_data_for_a_number_is_refused_with_a_sentence(bad, words):
    with pytest.raises(scoring.BadAnswerError, match=re.escape(words)):
        scoring.number(bad, "kappa_a")


@pytest.mark.parametrize(
    "bad",
    [
        {"array": [[1, 2], [3]], "shape": [2, 2]},
        {"array": [[1, 2], [3, 4]], "shape": [4]},
        {"array": [1e400], "shape": [1]},
        {"array": [], "shape": [10**9]},
        {"array": "abc", "shape": []},
        {"array": [[1, 2]], "shape": [-1, 2]},
        [[1, 2], [3, 4]],  # not the harness's encoding
    ],
)
def test_malformed_tables_are_refused(bad):
    with pytest.raises(scoring.BadAnswerError):
        scoring.table(bad, "C_target")


def test_one_tolerance_rounding_to_six_decimals_passes():
    assert variants.TOL == 1e-6
    assert scoring.close(round(0.123456789, 6), 0.123456789)
    assert scoring.close(round(123.4567891, 6), 123.4567891)
    assert not scoring.close(0.1235, 0.1234)
    ns = {"STUDENT_ID": "x"}
    exec(variants.setup_source("ps1", 7), ns)  # the notebook's close() is the scorer's
    for a, b in ((round(0.123456789, 6), 0.123456789), (0.1235, 0.1234), ([1, 2], [1, 2.0000001])):
        assert ns["close"](a, b) == scoring.close(a, b)


def answers_for(ps, data, req, funcs=None, values=None):
    """What the harness would return for answers computed here by plain functions."""
    funcs, values = funcs or {}, values or {}
    out = {"values": {k: enc(v) for k, v in values.items()}, "calls": {}}
    for name, arglists in req["calls"].items():
        if name in funcs:
            out["calls"][name] = [
                enc(funcs[name](*[harness.decode(a, funcs) for a in args])) for args in arglists
            ]
    return out


def part(parts, gid):
    return next(p for p in parts if p.grade_id == gid)


def test_the_pabak_hint_can_fire_and_no_message_shows_the_expected_value():
    ps, data = "ps4", variants.term_data("ps4", variants.SEED, "ada")
    req = scoring.request(ps, data, np.random.default_rng(3))

    def two_classes_only(C):
        C = np.asarray(C, dtype=float)
        return 2 * np.trace(C) / C.sum() - 1

    ans = answers_for(ps, data, req, {"pabak_by_hand": two_classes_only},
                      {"kappa_a": 0.123, "se_a": 0.01})  # fmt: skip
    parts = scoring.score(ps, ans, data, req, auto_points(ps))
    q2 = part(parts, "ps4-q2-tests")
    assert not q2.ok and "1/K" in q2.hint
    right = kl.kappa(data["C_a"])
    for p in parts:
        for text in (p.problem or "", p.hint or "", p.checked):
            assert f"{right:.3f}"[2:] not in text, text  # no expected value in a message


def test_charged_once_kappa_from_the_students_own_p_e():
    ps, data = "ps1", variants.term_data("ps1", variants.SEED, "ada")
    req = scoring.request(ps, data, np.random.default_rng(4))

    def observed(C):
        return np.trace(C) / np.sum(C)

    def expected(C):  # row totals twice: wrong
        r = np.sum(C, axis=1) / np.sum(C)
        return float(r @ r)

    def kappa_by_hand(C):
        return (observed(C) - expected(C)) / (1 - expected(C))

    funcs = {"observed": observed, "expected": expected, "kappa_by_hand": kappa_by_hand}
    parts = scoring.score(ps, answers_for(ps, data, req, funcs), data, req, auto_points(ps))
    assert part(parts, "ps1-q1a-observed").ok and part(parts, "ps1-q1c-kappa").ok
    q1b = part(parts, "ps1-q1b-expected")
    assert not q1b.ok and "row AND column" in q1b.hint


def test_the_reference_answers_computed_here_earn_every_automatic_point():
    """The scorer's expected values against the source notebook's own solution code."""
    for ps in SETS:
        ns = {"STUDENT_ID": "ada"}
        for c in cells(ps):
            m = meta(c)
            if (
                c["cell_type"] == "code"
                and not m.get("grade")
                and "STUDENT_ID =" not in "".join(c["source"])
            ):
                exec("".join(c["source"]), ns)
        data = variants.term_data(ps, variants.SEED, "ada")
        req = scoring.request(ps, data, np.random.default_rng(5))
        funcs = {k: ns[k] for k in req["calls"]}
        values = {k: ns[k] for k in req["values"]}
        parts = scoring.score(
            ps, answers_for(ps, data, req, funcs, values), data, req, auto_points(ps)
        )
        assert [p.grade_id for p in parts if not p.ok] == [], ps


def write_nb(path, answers, ps):
    nb = {"cells": [json.loads(json.dumps(c)) for c in cells(ps)]}
    for cell in nb["cells"]:
        if meta(cell).get("grade_id") in answers:
            cell["source"] = answers[meta(cell)["grade_id"]]
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(nb))


@pytest.mark.parametrize("ps", SETS)
def test_audit_flags_copies_and_no_honest_student(ps, tmp_path):
    submitted = tmp_path / "submitted"
    source = COURSE / "source"
    shutil.copy(source / ps / f"{ps}.ipynb", (submitted / "copy" / ps).mkdir(parents=True) or
                submitted / "copy" / ps / f"{ps}.ipynb")  # fmt: skip
    write_nb(submitted / "different" / ps / f"{ps}.ipynb", students.DIFFERENT, ps)
    write_nb(submitted / "mistakes" / ps / f"{ps}.ipynb", students.MISTAKES, ps)
    write_nb(submitted / "patcher" / ps / f"{ps}.ipynb", students.MONKEYPATCHER, ps)
    flags = [f for f in integrity_audit.audit(submitted, source) if f.integrity]
    copies = {f.student for f in flags if "reference solutions" in f.what}
    assert copies == {"copy"}
    assert {f.student for f in flags} <= {"copy", "patcher"}


def test_audit_sees_a_copy_with_its_names_changed():
    ref = "def observed(C):\n    C = np.asarray(C, dtype=float)\n"
    ref += "    return float(np.trace(C) / C.sum())"
    renamed = "def observed(M):  # mine\n    M = np.asarray(M, dtype=float)\n"
    renamed += "    return float(np.trace(M) / M.sum())"
    other = "def observed(C):\n    n = len(C)\n"
    other += "    return sum(C[i][i] for i in range(n)) / sum(map(sum, C))"
    assert integrity_audit.shape_of(ref) == integrity_audit.shape_of(renamed)
    assert integrity_audit.shape_of(ref) != integrity_audit.shape_of(other)


@pytest.mark.parametrize(
    "code",
    [
        "np.isclose = f",
        "setattr(np, 'isclose', f)",
        "import sys\nsys.modules['kappalib'] = x",
        "class A:\n    def __float__(self):\n        return 1.0",
        "f.__code__ = g.__code__",
        "del kl.kappa",
        "globals()['_x'] = None",
        "import numpy.linalg as la\nla.norm = f",
        "import sys\nsys.settrace(f)",
        "import sys\nf = sys._getframe()",
        "get_ipython().events.register('post_run_cell', f)",
        "import subprocess",
        "open('/etc/passwd')",
    ],
)
def test_audit_patterns(code):
    assert [w for _, w, integrity in integrity_audit.scan(code, {"np", "kl", "la"}) if integrity]


def test_audit_notes_kappalib_in_a_by_hand_answer_without_an_integrity_flag():
    found = integrity_audit.scan("def observed(C):\n    return kl.observed_agreement(C)\n",
                                 {"np", "kl"}, by_hand=True)  # fmt: skip
    assert [(w, i) for _, w, i in found] == [
        ("calls kl.observed_agreement in a by-hand answer", False)
    ]
    assert (
        integrity_audit.scan("def observed(C):\n    return np.trace(C) / C.sum()\n", {"np"}) == []
    )


def test_late_penalty_on_the_whole_score():
    import export

    assert export.late_penalty(10, 0) == 0
    assert export.late_penalty(10, 1) == 1.0  # a started day
    assert export.late_penalty(10, 2 * 86400 - 5) == 2.0
    assert export.late_penalty(10, 30 * 86400) == 10


def test_leak_check_collects_every_solution_of_every_chapter():
    chapters, _ = leak_check.book_solutions(ROOT / "book")
    for nb_path in sorted((ROOT / "book").glob("*.ipynb")):
        text = "".join("".join(c["source"]) for c in json.loads(nb_path.read_text())["cells"])
        n = len(re.findall(r"\{solution(?:-start)?\}", text))
        assert len(chapters[nb_path.stem]) == n, nb_path.name
        for solution in chapters[nb_path.stem]:
            assert leak_check.words(solution), nb_path.name
    sets, _ = leak_check.coursework_solutions(COURSE / "source")
    assert all(len(sets[ps]) >= 3 for ps in SETS)


def test_leak_check_catches_a_planted_solution(tmp_path):
    chapters, outside = leak_check.book_solutions(ROOT / "book")
    label, texts = next((k, v) for k, v in chapters.items() if v)
    planted = {"page.html": "A page. " + texts[0] + " The end."}
    assert leak_check.leaks({label: texts}, outside, planted)
    assert not leak_check.leaks({label: texts}, outside, {"page.html": outside[:5000]})


def test_leak_check_does_not_trust_a_hidden_check_cell(tmp_path):
    book = tmp_path / "book"
    book.mkdir()
    solution = "```{solution} ex-x\n:class: dropdown\n\nThe minimiser is 8.3485.\n```"
    check = {"cell_type": "code", "source": "assert round(a, 4) == 8.3485", "outputs": [],
             "metadata": {"tags": ["hide-input"]}, "execution_count": None}  # fmt: skip
    nb = {"cells": [{"cell_type": "markdown", "source": solution, "metadata": {}}, check]}
    (book / "01_x.ipynb").write_text(json.dumps(nb))
    chapters, outside = leak_check.book_solutions(book)
    page = {"01_x.html": "assert round ( a , 4 ) == 8.3485"}
    assert leak_check.leaks(chapters, outside, page)


def test_student_edition_has_no_way_back_to_the_solutions():
    config = student_edition.student_config(ROOT / "_config.yml")
    assert "repository" not in config and "launch_buttons" not in config
    assert config["html"]["use_repository_button"] is False
    assert config["html"]["use_issues_button"] is False
    assert "book/for_instructors.md" in config["exclude_patterns"]
    toc = json.dumps(student_edition.student_toc(ROOT / "_toc.yml"))
    assert "for_instructors" not in toc and "01_raw_agreement" in toc
    # nor anywhere else in the configuration: the footer of every page once linked the licence
    # files and cited the course by the repository's address
    repo_url = yaml.safe_load((ROOT / "_config.yml").read_text())["repository"]["url"]
    assert repo_url in json.dumps(yaml.safe_load((ROOT / "_config.yml").read_text()))
    assert repo_url not in json.dumps(config)
    assert "MIT licence" in config["html"]["extra_footer"]


def test_leak_check_finds_a_link_to_the_repository(tmp_path):
    (tmp_path / "a.html").write_text('<p>see <a href="https://github.com/o/r/blob/main/X">X</a>')
    (tmp_path / "b.html").write_text("<p>nothing here</p>")
    assert leak_check.ways_back(tmp_path, "https://github.com/o/r") == [
        "a.html names the repository https://github.com/o/r"
    ]


def test_built_student_edition_and_release_have_no_solution():
    html, release = ROOT / "_build" / "student" / "_build" / "html", COURSE / "release"
    if not (html / "index.html").exists() or not release.exists():
        pytest.skip("no student edition built (make assignments builds it and runs this check)")
    assert not (html / "book" / "for_instructors.html").exists()
    # The repository's URL as configured (make publish-config rewrites it), not a literal.
    repo_url = yaml.safe_load((ROOT / "_config.yml").read_text())["repository"]["url"]
    for page in html.rglob("*.html"):
        text = page.read_text()
        assert repo_url not in text and "/issues" not in text, page.name
    run = subprocess.run(
        [
            sys.executable,
            str(COURSE / "leak_check.py"),
            "--html",
            str(html),
            "--release",
            str(release),
        ],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stdout


@pytest.fixture(scope="module")
def graded_course(tmp_path_factory):
    """make course + make grade on two submissions per set: the reference and the release."""
    pytest.importorskip("nbgrader")
    import sandbox

    if shutil.which("bwrap") is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(sandbox.INSTALL)
        pytest.skip(sandbox.INSTALL)
    import course as course_mod
    import grade

    root = tmp_path_factory.mktemp("course")
    course = root / "c"
    (root / "s.csv").write_text("id,first_name,last_name,email\nada,A,S,a@x\nben,B,S,b@x\n")
    (root / "a.csv").write_text(
        "name,duedate\n" + "".join(f"{ps},2026-12-04 17:00:00 UTC\n" for ps in SETS)
    )
    os.environ["PATH"] = f"{Path(sys.executable).parent}:{os.environ['PATH']}"
    course_mod.make_course(course, 7, root / "s.csv", root / "a.csv")
    for ps in SETS:
        for who, nb in (("ada", course / "source"), ("ben", course / "release")):
            dest = course / "submitted" / who / ps
            dest.mkdir(parents=True)
            shutil.copy(nb / ps / f"{ps}.ipynb", dest)
            (dest / "timestamp.txt").write_text(
                "2026-12-05 18:00:00 UTC"
                if who == "ada" and ps == "ps1"
                else "2026-12-04 12:00:00 UTC"
            )
        grade.grade(course, ps)
    return course


@pytest.mark.sandbox
def test_reference_full_blank_zero_in_the_sandbox(graded_course):
    rows = {
        (r["student_id"], r["assignment"]): r
        for r in csv.DictReader((graded_course / "grades.csv").open())
    }
    for ps in SETS:
        ada, ben = rows[("ada", ps)], rows[("ben", ps)]
        assert ada["auto_score"] == ada["auto_max"] and float(ada["auto_max"]) > 0, ps
        assert float(ben["auto_score"]) == 0, ps
        assert ben["status"] == "needs manual grading" and ben["manual_score"] == ""
        assert float(ada["max_score"]) == float(ada["auto_max"]) + float(ada["manual_max"])
    # a day late: 10% of the whole score, written part to come
    assert rows[("ada", "ps1")]["days_late"] == "1.04"
    page = (graded_course / "feedback" / "ben" / "ps1" / "ps1.html").read_text()
    assert "not filled in" in page and "NotImplementedError" in page


@pytest.mark.sandbox
def test_rerunning_make_course_keeps_the_grades_and_refuses_a_new_seed(graded_course, tmp_path):
    import course as course_mod

    (tmp_path / "s.csv").write_text(
        "id,first_name,last_name,email\nada,A,S,a@x\nben,B,S,b@x\ncy,C,S,c@x\n"
    )
    (tmp_path / "a.csv").write_text("name,duedate\nps1,2026-12-11 17:00:00 UTC\n")
    course_mod.make_course(graded_course, 7, tmp_path / "s.csv", tmp_path / "a.csv")
    import export

    rows = {(r["student_id"], r["assignment"]): r for r in export.rows(graded_course)}
    assert rows[("cy", "ps1")]["status"] == "missing"
    assert rows[("ada", "ps2")]["auto_score"] == rows[("ada", "ps2")]["auto_max"]
    assert rows[("ada", "ps1")]["status"] != "late"  # the new due date
    with pytest.raises(course_mod.CourseError, match="SEED=7"):
        course_mod.make_course(graded_course, 8, tmp_path / "s.csv", tmp_path / "a.csv")


@pytest.mark.sandbox
def test_collect_from_an_lms_zip_keeps_the_times_and_refuses_strangers(graded_course, tmp_path):
    import zipfile

    import collect

    nb = (graded_course / "release" / "ps2" / "ps2.ipynb").read_bytes()
    download = tmp_path / "download.zip"
    with zipfile.ZipFile(download, "w") as z:
        z.writestr(zipfile.ZipInfo("ada_12345_678_ps2.ipynb", (2026, 12, 6, 9, 30, 0)), nb)
        z.writestr(zipfile.ZipInfo("Ben S_99_assignsubmission_file_/ben_ps2.ipynb",
                                   (2026, 12, 4, 9, 0, 0)), nb)  # fmt: skip
    (tmp_path / "times.csv").write_text("student_id,timestamp\nben,2026-12-04 16:00:00 UTC\n")
    (tmp_path / "ids.csv").write_text("student_id,lms_id\nada,12345\nben,99\n")
    got = collect.collect(graded_course, "ps2", download, tmp_path / "times.csv",
                          tmp_path / "ids.csv")  # fmt: skip
    assert got == {"ada": "2026-12-06 09:30:00 UTC", "ben": "2026-12-04 16:00:00 UTC"}
    stamp = graded_course / "submitted" / "ada" / "ps2" / "timestamp.txt"
    assert stamp.read_text().strip() == "2026-12-06 09:30:00 UTC"
    with zipfile.ZipFile(tmp_path / "bad.zip", "w") as z:
        z.writestr("zed_1_2_ps2.ipynb", nb)
    with pytest.raises(
        collect.CollectError, match=re.escape("zed_1_2_ps2.ipynb matches no student")
    ):
        collect.collect(graded_course, "ps2", tmp_path / "bad.zip", lms_ids=tmp_path / "ids.csv")


def test_written_questions_two_versions_per_set_chosen_by_the_seed():
    import written

    picked = {ps: {variants.written_version(ps, seed) for seed in range(2020, 2040)} for ps in SETS}
    for ps in SETS:
        versions = written.VERSIONS[ps]
        assert len(versions) >= 2 and picked[ps] == set(range(len(versions))), ps
        heads = {re.search(r"\((\d) points", q).group(1) for q, _ in versions}
        rubrics = {re.search(r"\*\*Rubric \((\d) points", a).group(1) for _, a in versions}
        assert len(heads) == 1 and heads == rubrics, f"{ps}: versions with other points"
        for seed in (variants.SEED, 7):
            nb = variants.with_seed({"cells": cells(ps)}, ps, seed)
            question, reference = versions[variants.written_version(ps, seed)]
            texts = ["".join(c["source"]) for c in nb["cells"]]
            assert question in texts and reference in texts, (ps, seed)
    # the committed notebooks hold SEED's versions
    for ps in SETS:
        question, _ = written.VERSIONS[ps][variants.written_version(ps, variants.SEED)]
        assert question in ["".join(c["source"]) for c in cells(ps)], ps


def test_a_stuck_call_is_cut_off_and_costs_only_its_own_part():
    import signal
    import time

    signal.signal(signal.SIGALRM, harness._alarm)
    started = time.perf_counter()
    with pytest.raises(harness.OutOfTime):
        harness.timed(0.2, time.sleep, 5)
    assert time.perf_counter() - started < 2
    assert harness.timed(1, sum, [1, 2]) == 3


# make grade goes on for everyone (issue 32): a run starved by a busy machine is graded again
# once (and keeps "needs regrading", with no score, when starved twice); a grader error for one
# student is his status, named in the summary, while the others are graded as usual.


@pytest.fixture
def pipeline_course(graded_course, tmp_path, monkeypatch):
    import grade as grade_mod

    course = tmp_path / "c"
    shutil.copytree(graded_course, course)
    monkeypatch.setattr(grade_mod, "QUIET_WAIT", 0)
    return course


def starved(limits):
    return grade_mod.sandbox.Result(returncode=-9, stdout="", stderr="", timed_out=True,
                          seconds=limits.wall_seconds, sandboxed=True, uid=None,
                          outputs={"answers.json": None}, cpu_seconds=3.0,
                          wait_seconds=0.8 * limits.wall_seconds, limit="time",
                          host_busy=True)  # fmt: skip


def ps1_rows(course):
    rows = csv.DictReader((course / "grades.csv").open())
    return {r["student_id"]: r for r in rows if r["assignment"] == "ps1"}


@pytest.mark.parametrize("times_starved", [1, 2])
def test_a_run_starved_by_a_busy_machine_is_graded_again_not_given_0(
    pipeline_course, monkeypatch, times_starved
):
    course = pipeline_course
    real = grade_mod.sandbox.run
    calls = []

    def run(argv, *, inputs=None, **kw):
        request = json.loads((inputs or {}).get("request.json", b'{"cells": [""]}'))
        if "STUDENT_ID = 'ada'" in request["cells"][0]:
            calls.append("ada")
            if len(calls) <= times_starved:
                return starved(kw.get("limits") or grade_mod.sandbox.Limits())
        return real(argv, inputs=inputs, **kw)

    monkeypatch.setattr(grade_mod.sandbox, "run", run)
    records = {r["student"]: r for r in grade_mod.grade(course, "ps1", quiet_wait=0, audit=False)}
    ada = records["ada"]
    assert calls == ["ada", "ada"]  # graded again once, and only once
    row = ps1_rows(course)["ada"]
    if times_starved == 1:
        assert ada["status"] == grade_mod.OK and sum(p["points"] for p in ada["parts"]) == 9
        assert row["auto_score"] == "9"
    else:
        assert ada["status"].startswith("needs regrading: the machine was busy")
        assert row["status"] == "needs regrading" and row["auto_score"] == row["score"] == ""
        assert "--only ada" in " ".join(ada["notes"])
        lms = list(csv.DictReader((course / "lms_grades.csv").open()))
        assert next(r for r in lms if r["SIS User ID"] == "ada")["ps1"] == ""
    assert records["ben"]["status"] == grade_mod.OK


def test_a_grader_error_for_one_student_is_his_status_and_the_class_goes_on(
    pipeline_course, monkeypatch
):
    course = pipeline_course
    real = grade_mod.guard.call

    def call(step, fn, *args, **kw):
        if step == "scoring" and args[2] == "ben":
            raise grade_mod.guard.StepFailed(step, "ZeroDivisionError: planted in the test")
        return real(step, fn, *args, **kw)

    monkeypatch.setattr(grade_mod.guard, "call", call)
    records = {r["student"]: r for r in grade_mod.grade(course, "ps1", audit=False)}
    assert (
        records["ben"]["status"] == "grader error: scoring: ZeroDivisionError: planted in the test"
    )
    assert records["ada"]["status"] == grade_mod.OK
    assert sum(p["points"] for p in records["ada"]["parts"]) == 9
    assert "grader error: 1: ben (scoring: ZeroDivisionError" in grade_mod.summary(records.values())
    row = ps1_rows(course)["ben"]
    assert row["status"] == "grader error" and "planted" in row["status_detail"]
    saved = json.loads((course / "autograded" / "ben" / "ps1" / "score.json").read_text())
    assert saved["status"].startswith("grader error")
