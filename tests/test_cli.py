"""The command line ``python -m kappalib report``: the same report as the library, from a CSV
file with blanks; Markdown on stdout or an HTML page; bad input gets one sentence on stderr
and exit status 2, never a traceback.

Oracles: scikit-learn's cohen_kappa_score on the complete pairs (the estimate), the
``krippendorff`` package (alpha of a ratings table), and the library's report of the same
data for the paragraph (the command line is a front end: it must print that very text).
"""

from __future__ import annotations

import csv
import subprocess
import sys

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score

import kappalib as kl
from kappalib.__main__ import main


def _write(path, header, rows):
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)
    return str(path)


@pytest.fixture
def grades(tmp_path):
    rng = np.random.default_rng(14)
    levels = ["low", "mid", "high"]
    a = rng.integers(0, 3, size=80)
    b = np.where(rng.random(80) < 0.7, a, rng.integers(0, 3, size=80))
    c = np.where(rng.random(80) < 0.7, a, rng.integers(0, 3, size=80))
    rows = [
        [f"u{i}", levels[x], levels[y], levels[z]]
        for i, (x, y, z) in enumerate(zip(a, b, c, strict=True))
    ]
    rows[3][1] = ""  # a blank: rater_a did not rate unit 3
    rows[10][3] = ""
    return _write(tmp_path / "grades.csv", ["unit", "rater_a", "rater_b", "rater_c"], rows), rows


def _run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_two_columns_print_the_librarys_report(capsys, grades):
    path, rows = grades
    code, out, err = _run(capsys, "report", path, "--columns", "rater_a", "rater_b")
    assert code == 0 and err == ""
    pairs = [(r[1], r[2]) for r in rows if r[1] and r[2]]
    y1, y2 = zip(*pairs, strict=True)
    expected = cohen_kappa_score(y1, y2)
    assert f"| Cohen's kappa | {expected:.3f} |" in out
    report = kl.agreement_report(
        [r[1] or None for r in rows],
        [r[2] or None for r in rows],
        raters=("rater_a", "rater_b"),
        missing="drop",
    )
    assert report.methods_paragraph() in out
    assert "1 unit lacking a rating" in out
    assert out.startswith("# Agreement report:")


def test_order_and_weighting(capsys, grades):
    path, rows = grades
    code, out, _ = _run(
        capsys, "report", path, "--columns", "rater_a", "rater_b",
        "--labels", "low", "mid", "high", "--weighting", "quadratic",
    )  # fmt: skip
    assert code == 0
    pairs = [(r[1], r[2]) for r in rows if r[1] and r[2]]
    y1, y2 = zip(*pairs, strict=True)
    expected = cohen_kappa_score(y1, y2, labels=["low", "mid", "high"], weights="quadratic")
    assert f"quadratically weighted kappa was {expected:.3f}" in out
    assert "ordered low < mid < high" in out


def test_three_columns_are_a_ratings_table(capsys, grades):
    import krippendorff

    path, rows = grades
    code, out, _ = _run(
        capsys, "report", path, "--columns", "rater_a", "rater_b", "rater_c",
        "--labels", "low", "mid", "high", "--level-of-measurement", "ordinal",
    )  # fmt: skip
    assert code == 0
    code_of = {"low": 0, "mid": 1, "high": 2, "": np.nan}
    data = np.array([[code_of[r[j]] for r in rows] for j in (1, 2, 3)])  # raters x units
    alpha = krippendorff.alpha(data, level_of_measurement="ordinal", value_domain=[0, 1, 2])
    assert f"Krippendorff's alpha (ordinal) was {alpha:.3f} (95% CI " in out
    assert "Agreement among 3 raters was assessed on 80 units" in out
    assert "2 were missing" in out


def test_raters_x_units_layout(capsys, tmp_path):
    path = _write(
        tmp_path / "wide.csv",
        ["rater", "u1", "u2", "u3", "u4", "u5", "u6"],
        [["A", 1, 2, 3, 3, 2, 1], ["B", 1, 2, 3, 3, 2, 2], ["C", "", 3, 3, 3, 2, 3]],
    )
    units = ["u1", "u2", "u3", "u4", "u5", "u6"]
    code, out, _ = _run(capsys, "report", path, "--columns", *units, "--layout", "raters x units")
    assert code == 0
    nan = float("nan")
    data = [[1, 2, 3, 3, 2, 1], [1, 2, 3, 3, 2, 2], [nan, 3, 3, 3, 2, 3]]
    expected = kl.ratings_report(
        data, rng=0, layout="raters x units"
    ).methods_paragraph()  # the CLI's default seed
    assert expected in out
    assert "Agreement among 3 raters was assessed on 6 units" in out


def test_long_count_table(capsys, tmp_path):
    rows = [["yes", "yes", 8], ["yes", "no", 2], ["no", "yes", 1], ["no", "no", 9]]
    path = _write(tmp_path / "counts.csv", ["a", "b", "n"], rows)
    code, out, _ = _run(
        capsys, "report", path, "--columns", "a", "b", "--count", "n", "--labels", "yes", "no"
    )
    assert code == 0
    assert "Cohen's kappa was 0.700" in out  # the kappa explainer's 0.7
    assert "yes: 8, 2; no: 1, 9" in out


def test_html_page(capsys, grades, tmp_path):
    path, _ = grades
    out_file = tmp_path / "report.html"
    code, out, _ = _run(
        capsys, "report", path, "--columns", "rater_a", "rater_b", "--html", str(out_file)
    )
    assert code == 0 and out.strip() == f"wrote {out_file}"
    page = out_file.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "<h2>Methods paragraph</h2>" in page
    assert "Cohen&#x27;s kappa was" in page


def test_bootstrap_interval_with_a_seed(capsys, grades):
    path, rows = grades
    args = ["report", path, "--columns", "rater_a", "rater_b", "--method", "bca"]
    _, out, _ = _run(capsys, *args, "--n-resamples", "999", "--rng", "5")
    y1 = [r[1] or None for r in rows]
    y2 = [r[2] or None for r in rows]
    report = kl.agreement_report(
        y1, y2, raters=("rater_a", "rater_b"), missing="drop", method="bca",
        n_resamples=999, rng=5,
    )  # fmt: skip
    assert report.methods_paragraph() in out
    assert "BCa bootstrap over the units, 999 resamples" in out


def test_table_option_points_to_it(capsys, grades):
    path, _ = grades
    _, out, _ = _run(
        capsys, "report", path, "--columns", "rater_a", "rater_b", "--table-location", "Table 3"
    )
    assert "is given in Table 3." in out


# --- bad input: one sentence, exit status 2 -----------------------------------------------


@pytest.fixture
def tiny(tmp_path):
    return {
        "ok": _write(tmp_path / "ok.csv", ["a", "b", "n"], [["x", "y", 1], ["y", "y", 2]]),
        "one": _write(tmp_path / "one.csv", ["a", "b"], [["x", "x"], ["x", "x"]]),
        "blank": _write(tmp_path / "blank.csv", ["a", "b"], [["", ""], ["", ""]]),
        "header": _write(tmp_path / "header.csv", ["a", "b"], []),
        "mixed": _write(tmp_path / "mixed.csv", ["a", "b"], [["1", "2"], ["x", "2"]]),
        "negative": _write(tmp_path / "neg.csv", ["a", "b", "n"], [["x", "y", -1]]),
        "hole": _write(tmp_path / "hole.csv", ["a", "b", "n"], [["x", "y", 1], ["", "y", 2]]),
        "empty": str(tmp_path / "empty.csv"),
    }


@pytest.mark.parametrize(
    ("which", "extra", "words"),
    [
        ("ok", ["--columns", "a", "c"], "has no column 'c'; its columns are a, b, n"),
        ("one", ["--columns", "a", "b"], "one category x"),
        ("one", ["--columns", "a", "b", "--ratings"], "at least two categories"),
        (
            "ok",
            ["--columns", "a", "b", "--labels", "x"],
            "'y' (column 'b', lines 2 and 3; column 'a', line 3) is not in --labels x;",
        ),
        ("ok", ["--columns", "a", "b", "--weighting", "linear"], "give their order with --labels"),
        ("ok", ["--columns", "a"], "at least two rater columns"),
        ("ok", ["--columns", "a", "a"], "names a column twice"),
        ("ok", ["--columns", "a", "b", "--confidence-level", "1.5"], "confidence_level"),
        ("blank", ["--columns", "a", "b"], "no rows of data (its 2 rows are all blank)"),
        ("header", ["--columns", "a", "b"], "no rows of data"),
        ("empty", ["--columns", "a", "b"], "empty"),
        ("negative", ["--columns", "a", "b", "--count", "n"], "non-negative counts"),
        ("ok", ["--columns", "a", "b", "n", "--count", "n"], "names a column twice"),
        ("hole", ["--columns", "a", "b", "--count", "n"], "column 'a' is blank in line 3"),
        ("missing", ["--columns", "a", "b"], "no such file"),
    ],
)
def test_bad_input_one_sentence(capsys, tiny, tmp_path, which, extra, words):
    if which == "empty":
        open(tiny["empty"], "w").close()
    path = tiny.get(which, str(tmp_path / "nothing_here.csv"))
    code, out, err = _run(capsys, "report", path, *extra)
    assert code == 2 and out == ""
    assert err.startswith("error: ") and err.count("\n") == 1, err
    assert words in err


def test_mixed_numbers_and_words_are_read_as_words(capsys, tiny):
    code, out, _ = _run(capsys, "report", tiny["mixed"], "--columns", "a", "b")
    assert code == 0 and "categories (1, 2, x)" in out


def test_a_real_process_prints_no_traceback(tiny):
    bad = subprocess.run(
        [sys.executable, "-m", "kappalib", "report", tiny["one"], "--columns", "a", "b"],
        capture_output=True,
        text=True,
    )
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert bad.stderr.startswith("error: kappa is undefined")
    good = subprocess.run(
        [
            sys.executable,
            "-m",
            "kappalib",
            "report",
            tiny["ok"],
            "--columns",
            "a",
            "b",
            "--count",
            "n",
        ],
        capture_output=True,
        text=True,
    )
    assert good.returncode == 0 and "## Methods paragraph" in good.stdout


def test_no_command_prints_help_and_fails(capsys):
    assert main([]) == 2
    assert "report" in capsys.readouterr().err
