"""Issue 30 at the Python API: one rule for missing-value tokens and for spellings that
differ only by case, the same for the two-rater and the many-rater paths.

Oracles: scikit-learn's ``cohen_kappa_score`` and the ``krippendorff`` package on the data
as the user meant them (tokens removed, spellings corrected), and counts made by hand.
"""

from __future__ import annotations

import io
import re

import krippendorff
import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import cohen_kappa_score

import kappalib as kl

SCALE = ["none", "mild", "moderate", "severe"]


def _scale(n=40, seed=30):
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 4, size=n)
    b = np.where(rng.random(n) < 0.75, a, rng.integers(0, 4, size=n))
    c = np.where(rng.random(n) < 0.75, a, rng.integers(0, 4, size=n))
    return [[SCALE[i] for i in x] for x in (a, b, c)]


def _with_case_noise(y, word="moderate", spelling="Moderate", times=3):
    hits = [i for i, v in enumerate(y) if v == word][:times]
    return [spelling if i in hits else v for i, v in enumerate(y)], len(hits)


# --- item 2 at the reports: case variants -------------------------------------------------


def test_agreement_report_refuses_case_variants_naming_both():
    y1, y2, _ = _scale()
    noisy, _ = _with_case_noise(y2)
    with pytest.raises(ValueError, match="'moderate' and 'Moderate' differ only by case"):
        kl.agreement_report(y1, noisy)


def test_agreement_report_reads_a_variant_as_the_listed_category():
    y1, y2, _ = _scale()
    noisy, n = _with_case_noise(y2)
    report = kl.agreement_report(y1, noisy, labels=SCALE)
    assert report.estimate == pytest.approx(cohen_kappa_score(y1, y2, labels=SCALE), abs=1e-12)
    assert report.labels == tuple(SCALE)
    assert f"Read as the categories listed: 'Moderate' as 'moderate' ({n} cells)." in (
        report.methods_paragraph()
    )


def test_ratings_report_refuses_case_variants_and_reads_them_with_labels():
    a, b, c = ([v.replace("none", "absent") for v in y] for y in _scale())
    noisy, n = _with_case_noise(c, "mild", " mild")
    data = pd.DataFrame({"a": a, "b": b, "c": noisy})
    with pytest.raises(ValueError, match="'mild' and ' mild' differ only by case or surround"):
        kl.ratings_report(data)
    scale = ["absent", *SCALE[1:]]
    report = kl.ratings_report(data, labels=scale, rng=0)
    codes = np.array([[scale.index(v) for v in col] for col in (a, b, c)], dtype=float)
    alpha = krippendorff.alpha(codes, level_of_measurement="nominal", value_domain=[0, 1, 2, 3])
    assert report["Krippendorff's alpha"].estimate == pytest.approx(alpha, abs=1e-12)
    assert f"' mild' as 'mild' ({n} cells)" in report.methods_paragraph()


# --- item 8: the many-rater functions and listed tokens ------------------------------------


@pytest.mark.parametrize("word", ["none", "None", "na", "NA", "null", "nan", "NaN", "-"])
def test_a_listed_token_is_a_category_of_the_many_rater_functions(word):
    """Before: refused even with labels= listing it ('none' even without a list)."""
    scale = [word, "mild", "moderate"]
    data = [
        [word, "mild", "moderate", word, "mild", word],
        [word, "mild", "mild", word, "moderate", word],
        [word, "moderate", "moderate", "mild", "mild", word],
    ]  # raters x units
    codes = np.array([[scale.index(v) for v in row] for row in data], dtype=float)
    expected = krippendorff.alpha(codes, level_of_measurement="nominal", value_domain=[0, 1, 2])
    alpha = kl.krippendorff_alpha(data, labels=scale, layout="raters x units")
    assert alpha == pytest.approx(expected, abs=1e-12)
    table = kl.rating_table(data, labels=scale, layout="raters x units")
    assert table.tolist() == [[3, 0, 0], [0, 2, 1], [0, 1, 2], [2, 1, 0], [0, 2, 1], [3, 0, 0]]
    report = kl.ratings_report(np.array(data), labels=scale, rng=0, layout="raters x units")
    assert report["Krippendorff's alpha"].estimate == pytest.approx(expected, abs=1e-12)
    assert report.n_missing == 0


def test_none_is_a_category_without_a_list():
    """'none' is not a missing-value token: a clinical scale's first step."""
    data = [["none", "mild", "none", "severe"], ["none", "mild", "mild", "severe"]]
    codes = {"mild": 0, "none": 1, "severe": 2}
    expected = krippendorff.alpha(
        [[codes[v] for v in row] for row in data], level_of_measurement="nominal"
    )
    assert kl.krippendorff_alpha(data, layout="raters x units") == pytest.approx(
        expected, abs=1e-12
    )


@pytest.mark.parametrize("word", ["nan", "NaN", "NA", "n/a", "null", "."])
def test_an_unlisted_token_is_refused_by_every_many_rater_function_alike(word):
    """One rule for "nan" and "NaN" (case does not matter): refused, with the way out."""
    data = np.array([["a", "b", word], ["a", "b", "b"]])
    for f in (kl.krippendorff_alpha, kl.rating_table, kl.conger_kappa, kl.light_kappa):
        with pytest.raises(ValueError, match=rf"'{re.escape(word)}' at index \(0, 2\).*labels="):
            f(data, layout="raters x units")


# --- item 7: pandas reads the category "None" as missing -----------------------------------

# 20 units; 'None' is a category (8 cells), 3 cells are blank (units 2, 9 and 15).
CSV = """id,a,b,c
1,None,None,None
2,mild,,mild
3,severe,severe,moderate
4,None,mild,None
5,moderate,moderate,moderate
6,mild,mild,mild
7,None,None,mild
8,severe,moderate,severe
9,,mild,mild
10,moderate,moderate,severe
11,mild,None,mild
12,severe,severe,severe
13,moderate,mild,moderate
14,mild,mild,None
15,moderate,moderate,
16,severe,severe,severe
17,mild,moderate,mild
18,None,None,mild
19,moderate,moderate,moderate
20,mild,mild,severe
"""
LEVELS = ["None", "mild", "moderate", "severe"]


def _rows():
    return [line.split(",")[1:] for line in CSV.splitlines()[1:]]


def test_pandas_default_na_strings_are_named_when_labels_list_one():
    """Before: 11 units left out without a word; 8 of them held the category 'None'."""
    df = pd.read_csv(io.StringIO(CSV))  # pandas' default: 'None' becomes NaN
    with pytest.warns(UserWarning, match=r"'None'.*keep_default_na=False"):
        kl.agreement_report(df.a, df.b, labels=LEVELS, missing="drop")
    with pytest.warns(UserWarning, match=r"'None'.*keep_default_na=False"):
        kl.ratings_report(df[["a", "b", "c"]], labels=LEVELS, rng=0)


def test_read_as_written_the_report_counts_the_dropped_units_right():
    df = pd.read_csv(io.StringIO(CSV), keep_default_na=False)  # blanks stay ''
    report = kl.agreement_report(df.a, df.b, missing="drop")
    pairs = [(a, b) for a, b, _ in _rows() if a and b]
    assert len(pairs) == 18
    assert report.n_left_out == 2  # units 2 and 9 lack a rating of a or b
    assert report.n_units == 18
    expected = cohen_kappa_score(*zip(*pairs, strict=True))
    assert report.estimate == pytest.approx(expected, abs=1e-12)
    assert "None" in report.labels
    assert "2 units lacking a rating from one of the raters were left out." in (
        report.methods_paragraph()
    )
    three = kl.ratings_report(df[["a", "b", "c"]], labels=LEVELS, rng=0)
    assert three.n_missing == 3
    codes = np.array(
        [[LEVELS.index(v) if v else np.nan for v in col] for col in zip(*_rows(), strict=True)]
    )
    alpha = krippendorff.alpha(codes, level_of_measurement="nominal", value_domain=[0, 1, 2, 3])
    assert three["Krippendorff's alpha"].estimate == pytest.approx(alpha, abs=1e-12)


# --- item 14 at the report: every label outside labels= at once ----------------------------


def test_agreement_report_names_every_label_outside_its_list():
    y1 = ["low", "hgh", "mid", "high", "lo", "mid"]
    y2 = ["low", "high", "mid", "lo", "low", "medium"]
    with pytest.raises(ValueError) as info:
        kl.agreement_report(y1, y2, labels=["low", "mid", "high"])
    message = str(info.value)
    for part in ("'hgh' (first at y1[1])", "'lo' (first at y2[3])", "'medium' (first at y2[5])"):
        assert part in message, message


# --- the reports read a token as missing, in every container -------------------------------


def test_agreement_report_reads_tokens_as_missing_in_string_arrays():
    y1 = np.array(["yes", "no", "NA", "yes", "no", "yes", "n/a", "no"])
    y2 = np.array(["yes", "no", "yes", ".", "no", "no", "no", "no"])
    with pytest.raises(ValueError, match=r"'NA' \(1 of them\).*missing='drop'"):
        kl.agreement_report(y1, y2)
    report = kl.agreement_report(y1, y2, missing="drop")
    keep = [0, 1, 4, 5, 7]
    assert report.n_left_out == 3 and report.n_units == 5
    assert report.estimate == pytest.approx(cohen_kappa_score(y1[keep], y2[keep]), abs=1e-12)
    said = "Read as missing: 'NA' (1 cell), 'n/a' (1 cell) and '.' (1 cell)."
    assert said in report.methods_paragraph()
    as_lists = kl.agreement_report(list(y1), list(y2), missing="drop")  # np.str_ items
    assert said in as_lists.methods_paragraph()


def test_ratings_report_reads_numpys_nan_string_as_missing():
    """np.array([['a', np.nan]]) holds the string 'nan': the report reads it as missing."""
    data = np.array([["a", "b", "a", np.nan], ["a", "b", "b", "b"], ["a", "a", "b", "b"]])
    assert data.dtype.kind == "U" and "nan" in data
    report = kl.ratings_report(data, rng=0, layout="raters x units")
    codes = np.array([[0, 1, 0, np.nan], [0, 1, 1, 1], [0, 0, 1, 1]])
    alpha = krippendorff.alpha(codes, level_of_measurement="nominal")
    assert report["Krippendorff's alpha"].estimate == pytest.approx(alpha, abs=1e-12)
    assert report.n_missing == 1
    assert "Read as missing: 'nan' (1 cell)." in report.methods_paragraph()


def test_na_values_replaces_the_tokens_in_the_reports():
    y1 = ["yes", "no", "-99", "yes", "no", "yes", "no", "no"]
    y2 = ["yes", "no", "yes", "yes", "no", "no", "-99", "no"]
    report = kl.agreement_report(y1, y2, missing="drop", na_values=["-99"])
    keep = [0, 1, 3, 4, 5, 7]
    expected = cohen_kappa_score([y1[i] for i in keep], [y2[i] for i in keep])
    assert report.estimate == pytest.approx(expected, abs=1e-12) and report.n_left_out == 2
    with pytest.raises(ValueError, match=r"'NA'.*na_values= does not list it"):
        kl.agreement_report([*y1, "NA"], [*y2, "yes"], missing="drop", na_values=["-99"])
    with pytest.raises(TypeError, match="na_values must be a list of strings"):
        kl.agreement_report(y1, y2, missing="drop", na_values=[-99])


def test_a_blank_is_missing_even_when_listed():
    """The one token a list cannot make a category: a blank is never a rating."""
    data = np.array([["a", "b", "a", ""], ["a", "b", "b", "b"], ["a", "a", "b", "b"]])
    with pytest.raises(ValueError, match="holds the string '' at index"):
        kl.krippendorff_alpha(data, labels=["a", "b", ""], layout="raters x units")
    report = kl.ratings_report(data, labels=["a", "b"], rng=0, layout="raters x units")
    assert report.n_missing == 1


def test_ratings_report_names_every_rating_outside_its_labels():
    """Before: "ratings holds the rating 'q', which is not among labels ['a', 'b']" only."""
    data = [["a", "b", "q", "a"], ["a", "zz", "b", "q"], ["b", "b", "a", "c"]]
    with pytest.raises(ValueError) as info:
        kl.ratings_report(data, labels=["a", "b"])
    message = str(info.value)
    for part in ("'q' (2 cells)", "'zz' (1 cell)", "'c' (1 cell)", "['a', 'b']"):
        assert part in message, message
