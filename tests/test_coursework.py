"""The coursework's problem sets (coursework/, issues 7 and 14).

* Five sets, at least 50 points, each with a written answer and its rubric; one graded cell
  per function or sub-part; the committed setup cells hold the data of ``variants.SEED``.
* The grading support of the setup cell (grading_setup.py), in a fresh interpreter: it notices
  a replaced numpy, math, builtins or kappalib function and refuses rigged answers.
* The integrity audit flags the monkeypatching student in every set and no honest one.
* Feedback keeps neither hidden tests nor the tracebacks that quote them.
* The leak check collects every solution of every chapter (``book/*.ipynb``) and catches one
  that is planted, or shown through a hidden check cell.
* Term variants: two seeds give different data; the reference solution passes every graded
  cell on both, and the blank release passes none (nbgrader releases, nbclient runs).

The reference solutions themselves run under nbval (``make nbval`` covers coursework/source).
nbgrader comes from requirements-coursework.txt, which ``make test`` installs; without it the
release tests are skipped. ``make autograde-demo`` runs the whole loop with simulated students.
"""

import html
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
COURSE = ROOT / "coursework"
sys.path.insert(0, str(COURSE))

import autograde_demo as demo  # noqa: E402
import integrity_audit  # noqa: E402
import leak_check  # noqa: E402
import student_edition  # noqa: E402
import students  # noqa: E402
import variants  # noqa: E402

SETS = variants.problem_sets(COURSE / "source")


def cells(ps):
    return json.loads((COURSE / "source" / ps / f"{ps}.ipynb").read_text())["cells"]


def meta(cell):
    return cell["metadata"].get("nbgrader", {})


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
        assert demo.sentinels(COURSE / "source", ps), f"{ps} has no solution sentinel"
    assert total >= 50


@pytest.mark.parametrize("ps", SETS)
def test_graded_cells_one_part_each_checked_through_the_setup_cell(ps):
    code = [c for c in cells(ps) if meta(c).get("grade") and c["cell_type"] == "code"]
    assert len(code) >= 3
    for cell in code:
        m, text = meta(cell), "".join(cell["source"])
        assert 0 < m["points"] <= 2 and m["locked"], m["grade_id"]
        visible = text.split("### BEGIN HIDDEN TESTS")[0]
        assert "assert" in visible, f"{m['grade_id']}: no visible check"
        # every cell trusts nothing before the modules are checked
        assert "_grading.intact()" in text, f"{m['grade_id']}: no integrity check"
        if "### BEGIN HIDDEN TESTS" in text:
            hidden = text.split("### BEGIN HIDDEN TESTS")[1]
            # a failed hidden test says what it checked
            for line in hidden.splitlines():
                if line.startswith("assert "):
                    assert '"' in line or line.rstrip().endswith("("), f"{m['grade_id']}: {line}"


@pytest.mark.parametrize("ps", SETS)
def test_setup_cell_holds_the_committed_seed(ps):
    setup = [c for c in cells(ps) if meta(c).get("grade_id") == f"{ps}-setup"]
    assert len(setup) == 1 and meta(setup[0])["locked"]
    assert "".join(setup[0]["source"]) == variants.setup_source(ps, variants.SEED)
    # it is the first code cell: nothing the student writes can run before it
    first = next(c for c in cells(ps) if c["cell_type"] == "code")
    assert meta(first)["grade_id"] == f"{ps}-setup"


def test_two_seeds_give_different_data():
    for ps in SETS:
        a, b = variants.term_data(ps, variants.SEED), variants.term_data(ps, 7)
        varying = [k for k in a if not isinstance(a[k], tuple)]
        assert varying, ps
        for key in varying:
            assert str(a[key]) != str(b[key]), f"{ps}: {key} is the same for seeds 2026 and 7"


GUARD = (
    (COURSE / "grading_setup.py").read_text()
    + """
C = np.array([[3, 1], [2, 4]])
_grading = _make_grading({"C": C})
C[0, 0] = 99  # the student rebinds or edits the data: the grader keeps its copy
assert _grading.data("C")[0, 0] == 3
assert _grading.number(np.float64(0.5), "x") == 0.5 and _grading.number(2, "x") == 2.0
assert _grading.table([[1, 2], [3, 4]], "T").shape == (2, 2)
_grading.intact()


class Anything(float):
    def __eq__(self, other):
        return True


for bad in (Anything(0.5), "0.5", None, True, np.array([0.5])):
    try:
        _grading.number(bad, "answer")
    except AssertionError:
        pass
    else:
        raise SystemExit(f"number() accepted {bad!r}")
for bad in (np.zeros(2).view(type("Rigged", (np.ndarray,), {})), np.array(["a"])):
    try:
        _grading.table(bad, "answer")
    except AssertionError:
        pass
    else:
        raise SystemExit(f"table() accepted {bad!r}")
"""
)

PATCHES = [
    "np.isclose = lambda *a, **k: True",
    "import math; math.isclose = lambda *a, **k: True",
    "kl.kappa = lambda *a, **k: 0.5",
    "import kappalib._agreement as m; m.expected_agreement = lambda *a, **k: 0.5",
    "import builtins; builtins.abs = lambda x: 0",
    "import builtins; builtins.all = lambda x: True",
    "import sys; sys.modules['numpy'] = type(sys)('numpy')",
    "np.asarray.__doc__; kl.asymmetry.__wrapped__.__code__ = (lambda C: 1.0).__code__",
    "np.asarray.__doc__; kl.rating_table.__code__ = (lambda r, categories=None: 1).__code__",
]


@pytest.mark.parametrize("patch", PATCHES)
def test_the_setup_cell_notices_replaced_functions(patch):
    code = GUARD + f"\n{patch}\ntry:\n    _grading.intact()\nexcept AssertionError as e:\n"
    code += "    print(e)\nelse:\n    raise SystemExit('not noticed')\n"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "cannot trust this run" in run.stdout


def test_the_setup_cell_passes_an_honest_run():
    run = subprocess.run([sys.executable, "-c", GUARD], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr


def audit_cells(answers, ps):
    nb = {"cells": [c for c in cells(ps)]}
    for cell in nb["cells"]:
        if meta(cell).get("grade_id") in answers:
            cell["source"] = answers[meta(cell)["grade_id"]]
    return nb


@pytest.mark.parametrize("ps", SETS)
def test_audit_flags_the_patcher_and_no_honest_student(ps, tmp_path):
    last = {p: variants.term_data(p, demo.LAST_TERM) for p in SETS}
    cases = {
        "different": students.DIFFERENT,
        "mistakes": students.MISTAKES,
        "hardcoder": students.hard_coder(last),
        "patcher": students.MONKEYPATCHER,
    }
    for name, answers in cases.items():
        path = tmp_path / name / ps / f"{ps}.ipynb"
        path.parent.mkdir(parents=True)
        path.write_text(json.dumps(audit_cells(answers, ps)))
    flags = [f for f in integrity_audit.audit(tmp_path) if f.integrity]
    assert {f.student for f in flags} == {"patcher"}
    assert all(f.question.startswith(ps) for f in flags)


@pytest.mark.parametrize(
    "code",
    [
        "np.isclose = f",
        "setattr(np, 'isclose', f)",
        "import sys\nsys.modules['kappalib'] = x",
        "class A:\n    def __float__(self):\n        return 1.0",
        "f.__code__ = g.__code__",
        "del kl.kappa",
        "globals()['_grading'] = None",
        "import numpy.linalg as la\nla.norm = f",
    ],
)
def test_audit_patterns(code):
    assert [w for _, w, integrity in integrity_audit.scan(code, {"np", "kl", "la"}) if integrity]


def test_feedback_hides_hidden_tests_and_tracebacks():
    from course_plugins import HideHiddenTests
    from nbconvert import HTMLExporter
    from nbformat import v4

    nb = v4.new_notebook()
    secret = "_secret_expected_value = kl.kappa(_grading.data('C'))"
    cell = v4.new_code_cell(
        f"assert True, 'visible'\n### BEGIN HIDDEN TESTS\n{secret}\n### END HIDDEN TESTS"
    )
    cell.metadata["nbgrader"] = {"grade": True, "grade_id": "q", "points": 1, "locked": True}
    cell.outputs = [
        v4.new_output(
            "error",
            ename="AssertionError",
            evalue="kappa on this term's table",
            traceback=[f"----> 3 {secret}", "AssertionError: kappa on this term's table"],
        )
    ]
    nb.cells.append(cell)
    exporter = HTMLExporter()
    exporter.register_preprocessor(HideHiddenTests(), enabled=True)
    page, _ = exporter.from_notebook_node(nb)
    page = html.unescape(page)
    assert "visible" in page and "kappa on this term's table" in page
    assert "_secret_expected_value" not in page and "HIDDEN TESTS" not in page


def test_nbgrader_config_uses_the_feedback_preprocessor():
    text = (COURSE / "nbgrader_config.py").read_text()
    assert "c.GenerateFeedback.preprocessors" in text and "HideHiddenTests" in text


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


def nbgrader_api(course):
    pytest.importorskip("nbgrader")
    from nbgrader.apps import NbGraderAPI
    from nbgrader.coursedir import CourseDirectory
    from traitlets.config import Config

    config = Config()
    config.CourseDirectory.root = str(course)
    config.ClearSolutions.code_stub = {"python": "# YOUR CODE HERE\nraise NotImplementedError()"}
    return NbGraderAPI(coursedir=CourseDirectory(config=config), config=config)


def graded_errors(nb_path):
    """The grade ids of the autograded cells that raise when the notebook runs."""
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(nb_path, as_version=4)
    NotebookClient(nb, timeout=60, allow_errors=True, kernel_name="python3").execute()
    out = set()
    for cell in nb.cells:
        m = cell.metadata.get("nbgrader", {})
        if m.get("grade") and cell.cell_type == "code":
            if any(o.get("output_type") == "error" for o in cell.get("outputs", [])):
                out.add(m["grade_id"])
    return out


@pytest.mark.parametrize("seed", [variants.SEED, 7])
def test_term_variant_reference_full_marks_blank_zero(seed, tmp_path, monkeypatch):
    # nbgrader runs `alembic` (its database migrations) from PATH: the one beside it
    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}:{os.environ.get('PATH', '')}")
    api = nbgrader_api(tmp_path)
    variants.write_course(tmp_path, seed)
    for ps in SETS:
        result = api.generate_assignment(ps)
        assert result["success"], result.get("error")
    assert demo.release_leaks(tmp_path / "source", tmp_path / "release") == []
    for ps in SETS:
        graded = {
            meta(c)["grade_id"]
            for c in json.loads((tmp_path / "source" / ps / f"{ps}.ipynb").read_text())["cells"]
            if meta(c).get("grade") and c["cell_type"] == "code"
        }
        assert graded_errors(tmp_path / "source" / ps / f"{ps}.ipynb") == set(), ps
        assert graded_errors(tmp_path / "release" / ps / f"{ps}.ipynb") == graded, ps


def test_audit_notes_kappalib_in_a_by_hand_answer_without_an_integrity_flag():
    found = integrity_audit.scan("def observed(C):\n    return kl.observed_agreement(C)\n",
                                 {"np", "kl"}, by_hand=True)  # fmt: skip
    assert [(w, i) for _, w, i in found] == [
        ("calls kl.observed_agreement in a by-hand answer", False)
    ]
    assert (
        integrity_audit.scan("def observed(C):\n    return np.trace(C) / C.sum()\n", {"np"}) == []
    )
