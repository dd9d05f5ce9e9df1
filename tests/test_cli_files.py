"""Issue 30, the command line on files as a practitioner has them: R's ``NA`` and other
missing-value tokens, case variants, empty trailing rows of a spreadsheet, a semicolon or a
decimal comma, several typos at once.  Every test runs ``python -m kappalib`` in a real
process, as the issue found each item.

Oracles: scikit-learn's ``cohen_kappa_score`` on the complete pairs, the ``krippendorff``
package, and the issue's own numbers (kappa 0.701, 0.345 to 1.000, on the 10 complete pairs
of the NA file).
"""

from __future__ import annotations

import re
import subprocess
import sys

import krippendorff
import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score

# Twelve units of two raters; the last two lack one rating each, written as `token`.
PAIRS = [
    ("1", "1"), ("2", "2"), ("3", "3"), ("1", "1"), ("2", "2"), ("3", "2"),
    ("1", "1"), ("2", "2"), ("3", "3"), ("1", "2"), (None, "1"), ("2", None),
]  # fmt: skip


def _cli(*args, cwd=None):
    done = subprocess.run(
        [sys.executable, "-m", "kappalib", *map(str, args)],
        capture_output=True,
        text=True,
        cwd=cwd,
    )
    assert "Traceback" not in done.stderr, done.stderr
    return done


def _file(path, text, encoding="utf-8"):
    path.write_bytes(text.encode(encoding))
    return path


def _na_file(tmp_path, token, sep=","):
    lines = [sep.join(["id", "rater1", "rater2"])]
    for i, (a, b) in enumerate(PAIRS):
        lines.append(sep.join([str(i + 1), token if a is None else a, token if b is None else b]))
    return _file(tmp_path / "na.csv", "\n".join(lines) + "\n")


def _value(out, quantity):
    return re.search(rf"^\| {re.escape(quantity)} \| (.*) \|$", out, re.M).group(1)


# --- item 1: missing-value tokens -------------------------------------------------------


@pytest.mark.parametrize("token", ["NA", ".", "-", "n/a", "NaN", "#N/A", " NA "])
def test_na_tokens_are_missing_ratings_not_a_category(tmp_path, token):
    """Before: "4 categories (1, 2, 3, NA)", kappa 0.525, N = 12, exit 0."""
    done = _cli("report", _na_file(tmp_path, token), "--columns", "rater1", "rater2")
    assert done.returncode == 0, done.stderr
    complete = [(a, b) for a, b in PAIRS if a is not None and b is not None]
    y1, y2 = zip(*complete, strict=True)
    expected = cohen_kappa_score(y1, y2)
    assert round(expected, 3) == 0.701  # the number
    out = done.stdout
    assert _value(out, "Cohen's kappa") == f"{expected:.3f}"
    assert _value(out, "95% confidence interval") == "0.345 to 1.000"  # the interval
    assert _value(out, "N (units)") == "10"
    assert _value(out, "categories") == "1, 2, 3"
    assert _value(out, "units left out (a rating missing)") == "2"
    assert "2 units lacking a rating from one of the raters were left out." in out
    assert f"Read as missing: {token.strip()!r} (2 cells)." in out


def test_a_listed_token_is_a_category(tmp_path):
    """--labels 1 2 3 NA: NA is what the user said, a category."""
    done = _cli(
        "report", _na_file(tmp_path, "NA"), "--columns", "rater1", "rater2",
        "--labels", "1", "2", "3", "NA",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    y1 = [a or "NA" for a, _ in PAIRS]
    y2 = [b or "NA" for _, b in PAIRS]
    expected = cohen_kappa_score(y1, y2)
    assert round(expected, 3) == 0.525  # the number, now asked for
    assert _value(done.stdout, "Cohen's kappa") == f"{expected:.3f}"
    assert _value(done.stdout, "N (units)") == "12"
    assert "Read as missing" not in done.stdout


def test_na_values_replaces_the_tokens(tmp_path):
    """--na-values -99: "-99" is missing; an "NA" it does not list is refused, 1-based."""
    path = _file(
        tmp_path / "codes.csv",
        "id,rater1,rater2\n" + "".join(f"{i},{a or '-99'},{b or '-99'}\n" for i, (a, b) in
                                       enumerate(PAIRS)),
    )  # fmt: skip
    done = _cli("report", path, "--columns", "rater1", "rater2", "--na-values", "-99")
    assert done.returncode == 0, done.stderr
    assert _value(done.stdout, "Cohen's kappa") == "0.701"
    assert "Read as missing: '-99' (2 cells)." in done.stdout
    refused = _cli(
        "report", _na_file(tmp_path, "NA"), "--columns", "rater1", "rater2", "--na-values", "-99"
    )
    assert refused.returncode == 2 and refused.stdout == ""
    err = refused.stderr
    assert err.startswith("error: ") and err.count("\n") == 1, err
    assert "column 'rater1', line 12 has 'NA'" in err
    assert "--na-values" in err and "--labels" in err


def test_three_raters_read_na_as_missing(tmp_path):
    """Before: a refusal advising Python's None with a 0-based (rater, unit) index."""
    rows = [
        ("1", "1", "1"), ("2", "2", "NA"), ("1", "2", "1"), ("2", "2", "2"),
        ("1", "1", "2"), ("3", "3", "3"), ("NA", "3", "2"), ("1", "1", "1"),
    ]  # fmt: skip
    path = _file(
        tmp_path / "three.csv",
        "id,a,b,c\n" + "".join(f"{i},{','.join(r)}\n" for i, r in enumerate(rows)),
    )
    done = _cli("report", path, "--columns", "a", "b", "c")
    assert done.returncode == 0, done.stderr
    data = np.array([[np.nan if v == "NA" else float(v) for v in r] for r in rows]).T
    alpha = krippendorff.alpha(data, level_of_measurement="nominal")
    assert f"Krippendorff's alpha (nominal) was {alpha:.3f}" in done.stdout
    assert "22 ratings were given and 2 were missing." in done.stdout
    assert "Read as missing: 'NA' (2 cells)." in done.stdout


def test_three_raters_refusal_speaks_to_the_command_line(tmp_path):
    path = _file(tmp_path / "three.csv", "id,a,b,c\n1,1,1,1\n2,2,2,NA\n3,1,2,1\n")
    done = _cli("report", path, "--columns", "a", "b", "c", "--na-values", "?")
    assert done.returncode == 2
    err = done.stderr
    assert "column 'c', line 3 has 'NA'" in err, err
    assert "None" not in err and "float('nan')" not in err and "index" not in err


# --- item 3: empty trailing rows ----------------------------------------------------------


def test_empty_rows_of_a_spreadsheet_are_not_units(tmp_path):
    """Before: "14 units", "8 missing" for 12 units and 2 missing ratings."""
    rng = np.random.default_rng(3)
    truth = rng.integers(1, 4, size=12)
    ratings = np.where(rng.random((12, 4)) < 0.8, truth[:, None], rng.integers(1, 4, (12, 4)))
    cells = ratings.astype(str).astype(object)
    cells[2, 1] = cells[7, 3] = ""
    lines = ["id,r1,r2,r3,r4"] + [f"u{i}," + ",".join(row) for i, row in enumerate(cells)]
    path = _file(tmp_path / "sheet.csv", "\r\n".join([*lines, ",,,,", ",,,,", ""]))
    done = _cli("report", path, "--columns", "r1", "r2", "r3", "r4")
    assert done.returncode == 0, done.stderr
    data = np.where(cells == "", np.nan, ratings).astype(float).T
    alpha = krippendorff.alpha(data, level_of_measurement="nominal")
    assert "Agreement among 4 raters was assessed on 12 units" in done.stdout
    assert "46 ratings were given and 2 were missing." in done.stdout
    assert f"Krippendorff's alpha (nominal) was {alpha:.3f}" in done.stdout
    two = _cli("report", path, "--columns", "r1", "r2")
    assert two.returncode == 0, two.stderr
    assert _value(two.stdout, "N (units)") == "11"
    assert _value(two.stdout, "units left out (a rating missing)") == "1"
    pairs = [(a, b) for a, b in cells[:, :2] if a and b]
    expected = cohen_kappa_score(*zip(*pairs, strict=True))
    assert _value(two.stdout, "Cohen's kappa") == f"{expected:.3f}"


def test_lines_are_counted_in_the_file_past_empty_rows(tmp_path):
    """A blank line and a ',,' row in the middle: the line named is the file's own."""
    path = _file(tmp_path / "gaps.csv", "a,b\nx,y\n\n,\ny,y\nz,y\n")
    done = _cli("report", path, "--columns", "a", "b", "--labels", "x", "y")
    assert done.returncode == 2
    assert "'z' (column 'a', line 6)" in done.stderr, done.stderr


# --- item 2: spellings that differ only by case ---------------------------------------------

SCALE = ["none", "mild", "moderate", "severe"]


def _scale_file(tmp_path):
    """40 units of two raters on a none/mild/moderate/severe scale; rater b writes
    'Moderate' for the first three of its 'moderate' (their lines are returned)."""
    rng = np.random.default_rng(30)
    a = rng.integers(0, 4, size=40)
    b = np.where(rng.random(40) < 0.75, a, rng.integers(0, 4, size=40))
    y1 = [SCALE[i] for i in a]
    y2 = [SCALE[i] for i in b]
    moderate = [i for i, v in enumerate(y2) if v == "moderate"][:3]
    noisy = list(y2)
    for i in moderate:
        noisy[i] = "Moderate"
    text = "id,a,b\n" + "".join(
        f"{i},{u},{v}\n" for i, (u, v) in enumerate(zip(y1, noisy, strict=True))
    )
    return _file(tmp_path / "scale.csv", text), y1, y2, [i + 2 for i in moderate]


def test_case_variants_are_refused_with_both_spellings(tmp_path):
    """Before: 'Moderate' became a fifth category, exit 0."""
    path, _, _, lines = _scale_file(tmp_path)
    done = _cli("report", path, "--columns", "a", "b")
    assert done.returncode == 2 and done.stdout == ""
    err = done.stderr
    assert err.startswith("error: ") and err.count("\n") == 1, err
    assert "'Moderate'" in err and "'moderate'" in err and f"line {lines[0]}" in err
    assert "--labels" in err


def test_case_variants_with_the_order_given_are_read_as_listed(tmp_path):
    path, y1, y2, _ = _scale_file(tmp_path)
    done = _cli("report", path, "--columns", "a", "b", "--labels", *SCALE)
    assert done.returncode == 0, done.stderr
    expected = cohen_kappa_score(y1, y2, labels=SCALE)
    assert _value(done.stdout, "Cohen's kappa") == f"{expected:.3f}"
    assert _value(done.stdout, "categories") == "none, mild, moderate, severe"
    assert "Read as the categories listed: 'Moderate' as 'moderate' (3 cells)." in done.stdout


# --- item 14: every bad label at once -------------------------------------------------------


def test_every_label_outside_the_order_is_named_at_once(tmp_path):
    """Before: only the first ('hgh' in line 3) was named: one run per typo."""
    rows = [
        ("low", "mid"), ("hgh", "high"), ("mid", "mid"), ("high", "lo"), ("low", "low"),
        ("mid", "hgh"), ("medium", "mid"), ("high", "high"), ("lo", "low"),
    ]  # fmt: skip
    path = _file(tmp_path / "typos.csv", "a,b\n" + "".join(f"{x},{y}\n" for x, y in rows))
    done = _cli("report", path, "--columns", "a", "b", "--labels", "low", "mid", "high")
    assert done.returncode == 2 and done.stdout == ""
    err = done.stderr
    assert err.startswith("error: ") and err.count("\n") == 1, err
    assert "'hgh' (column 'a', line 3; column 'b', line 7)" in err
    assert "'lo' (column 'b', line 5; column 'a', line 10)" in err
    assert "'medium' (column 'a', line 8)" in err
    assert "are not in --labels low mid high; correct them" in err


def test_many_bad_labels_are_cut_to_a_few(tmp_path):
    words = [f"w{i}" for i in range(9)]
    path = _file(tmp_path / "many.csv", "a,b\n" + "".join(f"{w},x\n" for w in words))
    done = _cli("report", path, "--columns", "a", "b", "--labels", "x", "y")
    assert done.returncode == 2
    assert "'w4' (column 'a', line 6)" in done.stderr
    assert "'w5'" not in done.stderr and "and 4 more" in done.stderr


# --- item 5: the delimiter and the decimal mark ---------------------------------------------


@pytest.mark.parametrize(("sep", "given"), [(";", None), ("\t", None), ("|", None), (";", ";")])
def test_the_delimiter_is_sniffed_or_given(tmp_path, sep, given):
    """Before: "has no column 'rater1'; its columns are id;rater1;rater2"."""
    path = _na_file(tmp_path, "NA", sep=sep)
    extra = ["--sep", given] if given else []
    done = _cli("report", path, "--columns", "rater1", "rater2", *extra)
    assert done.returncode == 0, done.stderr
    assert _value(done.stdout, "Cohen's kappa") == "0.701"
    assert _value(done.stdout, "N (units)") == "10"


def test_a_header_that_two_delimiters_split_is_refused(tmp_path):
    path = _file(tmp_path / "both.csv", "id;a,b;c\n1;x,y;z\n2;y,y;z\n")
    done = _cli("report", path, "--columns", "a", "b")
    assert done.returncode == 2
    assert "--sep" in done.stderr and "';'" in done.stderr and "','" in done.stderr


# Three raters' scores with a decimal comma, as a spreadsheet in a German locale writes them.
SCORES = [
    ("2,5", "3,0", "2,5"), ("4,0", "4,5", "4,0"), ("1,5", "1,0", "2,0"), ("3,5", "3,5", "3,0"),
    ("5,0", "4,5", "5,0"), ("2,0", "2,5", ""), ("3,0", "3,0", "3,5"), ("4,5", "4,0", "4,5"),
]  # fmt: skip


def test_a_decimal_comma_is_read_as_a_decimal(tmp_path):
    """Before: '2,5' was a nominal category (and with ';' the file had one column)."""
    text = "id;a;b;c\r\n" + "".join(f"{i};{';'.join(r)}\r\n" for i, r in enumerate(SCORES))
    path = _file(tmp_path / "scores.csv", "\ufeff" + text)
    done = _cli("report", path, "--columns", "a", "b", "c", "--level-of-measurement", "interval")
    assert done.returncode == 0, done.stderr
    data = np.array([[float(v.replace(",", ".")) if v else np.nan for v in r] for r in SCORES]).T
    alpha = krippendorff.alpha(data, level_of_measurement="interval")
    assert f"Krippendorff's alpha (interval) was {alpha:.3f}" in done.stdout
    assert "Read with a decimal comma: '2,5' as 2.5." in done.stdout
    # the scores are measurements at the interval level (issue 30 item 4): never categories
    assert "No nominal coefficient" in done.stdout and "categories (" not in done.stdout


def test_decimals_written_both_ways_are_refused(tmp_path):
    path = _file(tmp_path / "mixed.csv", "a;b\n2,5;3.5\n1,0;1.5\n")
    done = _cli("report", path, "--columns", "a", "b", "--level-of-measurement", "interval")
    assert done.returncode == 2
    assert "'2,5'" in done.stderr and "'3.5'" in done.stderr and "--decimal" in done.stderr
    given = _cli("report", path, "--columns", "a", "b", "--decimal", ".")
    assert given.returncode == 0, given.stderr  # words then: "2,5" is a category as asked


def test_a_count_table_row_with_a_missing_label_says_which(tmp_path):
    path = _file(tmp_path / "long.csv", "a,b,n\nx,y,3\nNA,y,2\ny,y,4\n")
    done = _cli("report", path, "--columns", "a", "b", "--count", "n")
    assert done.returncode == 2
    assert "column 'a' has 'NA', a missing label, in line 3" in done.stderr, done.stderr


def test_an_id_column_among_the_raters_is_refused_in_the_command_lines_words(tmp_path):
    """Before: "ratings column 0 holds a different value ... make it the DataFrame's index
    with df.set_index, or pass labels=" (0-based, Python's words)."""
    rng = np.random.default_rng(1)
    rows = [f"{100 + i},{','.join(map(str, rng.integers(1, 4, 3)))}" for i in range(12)]
    path = _file(tmp_path / "ids.csv", "id,a,b,c\n" + "\n".join(rows) + "\n")
    done = _cli("report", path, "--columns", "id", "a", "b", "c")
    assert done.returncode == 2
    err = done.stderr
    assert "column 'id' holds a different value for each of the 12 units" in err, err
    assert "leave it out of --columns" in err and "--labels" in err
    assert "DataFrame" not in err and "labels=" not in err and "column 0" not in err
