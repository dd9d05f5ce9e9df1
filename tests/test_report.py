"""The report in one call (kl.agreement_report, kl.ratings_report): its numbers against
outside oracles, its paragraph against its numbers as printed, its caveats exactly when
they apply, and its bad inputs.

Oracles: scikit-learn's cohen_kappa_score (the estimate, from labels), statsmodels'
cohens_kappa (standard errors, interval, z and p, weighted too), exact arithmetic with
fractions (p_o, p_e, PABAK, kappa_max, the indices), scipy's normal distribution (p).
"""

from __future__ import annotations

import functools
import re
from fractions import Fraction

import numpy as np
import pytest
from scipy.stats import norm
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats.inter_rater import cohens_kappa

import kappalib as kl

# the many-rater reports with few bootstrap resamples, seeded (the tests of the intervals
# themselves say how many they draw)
_ratings_report = functools.partial(kl.ratings_report, n_resamples=200, rng=0)
# plain arrays of raters x units say so (issue 30, item 9: a layout is never read from a shape)
_raw_report = functools.partial(_ratings_report, layout="raters x units")

EXPLAINER = [[8, 2], [1, 9]]
FCE = [[106, 10, 4], [22, 28, 10], [2, 12, 6]]  # Fleiss, Cohen & Everitt (1969)


def _sm(C, wt=None):
    return cohens_kappa(np.asarray(C, dtype=float), wt=wt, return_results=True)


def _random_tables(n, seed=23):
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        K = int(rng.integers(2, 5))
        C = rng.integers(0, 30, size=(K, K)) + np.diag(rng.integers(5, 40, size=K))
        out.append(C)
    return out


# --- numbers against the oracles ------------------------------------------------------------


@pytest.mark.parametrize("wt", [None, "linear", "quadratic"])
def test_numbers_equal_statsmodels_on_random_tables(wt):
    weighting = {"linear": "linear", "quadratic": "quadratic"}.get(wt)
    for C in _random_tables(40):
        r = kl.agreement_report(C=C, weighting=weighting)
        sm = _sm(C, wt={"linear": "linear", "quadratic": "quadratic"}.get(wt))
        assert r.estimate == pytest.approx(sm.kappa, abs=1e-12)
        assert r.standard_error == pytest.approx(sm.std_kappa, abs=1e-12)
        assert r.null_standard_error == pytest.approx(sm.std_kappa0, abs=1e-12)
        assert r.z == pytest.approx(sm.z_value, rel=1e-10)
        # statsmodels' 2 (1 - Phi(|z|)) loses digits in the far tail: equal to 1e-12 there,
        # and to scipy's survival function relatively
        assert r.pvalue == pytest.approx(sm.pvalue_two_sided, abs=1e-12)
        assert r.pvalue == pytest.approx(2 * norm.sf(abs(sm.z_value)), rel=1e-9)
        lo, hi = r.confidence_interval
        assert lo == pytest.approx(max(sm.kappa_low, -1.0), abs=1e-12)
        assert hi == pytest.approx(min(sm.kappa_upp, 1.0), abs=1e-12)


def test_confidence_level_reaches_the_interval():
    C = FCE
    r = kl.agreement_report(C=C, confidence_level=0.9)
    sm = _sm(C)  # statsmodels' interval is 95% only: its estimate and SE, scipy's quantile
    half = norm.ppf(0.95) * sm.std_kappa
    assert r.confidence_interval == pytest.approx((sm.kappa - half, sm.kappa + half), abs=1e-12)
    assert r.confidence_level == 0.9


def test_labels_give_sklearns_kappa():
    rng = np.random.default_rng(5)
    y1 = rng.choice(["a", "b", "c"], size=300)
    y2 = np.where(rng.random(300) < 0.6, y1, rng.choice(["a", "b", "c"], size=300))
    r = kl.agreement_report(y1, y2)
    assert r.estimate == pytest.approx(cohen_kappa_score(y1, y2), abs=1e-12)
    assert r.labels == ("a", "b", "c")
    assert r.n_units == 300
    order = ["c", "a", "b"]
    rw = kl.agreement_report(y1, y2, labels=order, weighting="quadratic")
    assert rw.estimate == pytest.approx(
        cohen_kappa_score(y1, y2, labels=order, weights="quadratic"), abs=1e-12
    )
    assert rw.labels == tuple(order)


def test_agreement_proportions_and_indices_by_exact_arithmetic():
    for C in _random_tables(30, seed=7):
        r = kl.agreement_report(C=C)
        F = [[Fraction(int(v)) for v in row] for row in C]
        K = len(F)
        N = sum(sum(row) for row in F)
        rows = [sum(row) for row in F]
        cols = [sum(F[i][j] for i in range(K)) for j in range(K)]
        p_o = sum(F[k][k] for k in range(K)) / N
        p_e = sum(rows[k] * cols[k] for k in range(K)) / N**2
        p_max = sum(min(rows[k], cols[k]) for k in range(K)) / N
        assert r.observed_agreement == pytest.approx(float(p_o), abs=1e-14)
        assert r.expected_agreement == pytest.approx(float(p_e), abs=1e-14)
        assert r.estimate == pytest.approx(float((p_o - p_e) / (1 - p_e)), abs=1e-13)
        assert r.pabak == pytest.approx(float((K * p_o - 1) / (K - 1)), abs=1e-14)
        assert r.kappa_max == pytest.approx(float((p_max - p_e) / (1 - p_e)), abs=1e-13)
        assert r.n_units == float(N)
        if K == 2:
            assert r.prevalence_index == pytest.approx(float((F[0][0] - F[1][1]) / N))
            assert r.bias_index == pytest.approx(float((F[0][1] - F[1][0]) / N))
        else:
            assert r.prevalence_index is None and r.bias_index is None


def test_p_value_is_two_sided_normal():
    r = kl.agreement_report(C=EXPLAINER)
    assert r.pvalue == pytest.approx(2 * norm.sf(abs(r.z)), rel=1e-12)


def test_matrix_from_confusion_matrix_keeps_its_labels():
    C = kl.confusion_matrix(["x", "y", "y", "x", "y"], ["x", "y", "x", "x", "y"])
    r = kl.agreement_report(C=C)
    assert r.labels == ("x", "y")


# --- the paragraph --------------------------------------------------------------------------


def _f(x, d=3):
    return f"{x:.{d}f}"


@pytest.mark.parametrize("C", [EXPLAINER, FCE, [[40, 3], [5, 52]]])
def test_paragraph_holds_the_numbers_as_printed(C):
    r = kl.agreement_report(C=C, labels=None)
    sm = _sm(C)
    text = r.methods_paragraph()
    lo, hi = min(sm.kappa_upp, 1.0), max(sm.kappa_low, -1.0)
    for number in (
        f"kappa was {_f(sm.kappa)}",
        f"95% CI {_f(hi)} to {_f(lo)}",
        f"SE = {_f(sm.std_kappa, 4)}",
        f"z = {sm.z_value:.2f}",
        f"N = {np.sum(C):g} units",
        f"p_o = {_f(np.trace(C) / np.sum(C))}",
    ):
        assert number in text, number
    p = sm.pvalue_two_sided
    assert ("p < 0.001" if p < 0.001 else f"p = {p:.3f}") in text
    assert "Fleiss, Cohen and Everitt 1969" in text
    # the counts, row by row
    for row in C:
        assert ", ".join(str(v) for v in row) in text


def test_paragraph_names_the_raters_the_weighting_and_the_order():
    r = kl.agreement_report(
        C=FCE, labels=["none", "mild", "severe"], weighting="linear", raters=("A", "B")
    )
    text = r.methods_paragraph()
    assert "between A and B" in text
    assert "linearly weighted kappa" in text
    assert "ordered none < mild < severe" in text
    assert "unweighted kappa the raters' margins allow" in text


def test_paragraph_can_point_to_a_table_instead():
    text = kl.agreement_report(C=FCE).methods_paragraph(table_location="Table 2")
    assert "is given in Table 2" in text
    assert "106, 10, 4" not in text


BANDS = ["slight", "fair", "moderate", "substantial", "almost perfect", "excellent", "poor"]


@pytest.mark.parametrize("C", [EXPLAINER, FCE, [[1, 0], [0, 1]], [[5, 5], [5, 5]]])
def test_no_verbal_band(C):
    r = kl.agreement_report(C=C)
    text = (r.methods_paragraph() + str(r) + r._repr_html_()).lower()
    for band in BANDS:
        assert not re.search(rf"\b{band}\b", text), band


# --- caveats exactly when they apply --------------------------------------------------------


def _caveat(r, word):
    return [c for c in r.caveats if c.startswith(word)]


def test_few_units_caveat_at_49_not_at_50():
    small = kl.agreement_report(C=[[20, 4], [5, 20]])  # 49
    large = kl.agreement_report(C=[[20, 4], [5, 21]])  # 50
    assert _caveat(small, "Few units") and "N = 49" in small.methods_paragraph()
    assert not _caveat(large, "Few units")
    assert "Few units" not in large.methods_paragraph()


def test_prevalence_caveat_below_a_quarter_for_two_classes():
    # pooled share of class 1: (r_1 + c_1) / 2N
    rare = kl.agreement_report(C=[[70, 3], [3, 24]])  # (27 + 27) / 200 = 0.27: not rare
    assert not _caveat(rare, "Prevalence")
    rare = kl.agreement_report(C=[[72, 3], [3, 22]])  # 25 / 100 = 0.25: not below
    assert not _caveat(rare, "Prevalence")
    rare = kl.agreement_report(C=[[73, 3], [3, 21]])  # 24 / 100 = 0.24
    assert _caveat(rare, "Prevalence")
    assert "1 (0.240)" in rare.methods_paragraph()


def test_bias_caveat_at_a_tenth():
    # rows (rater 1) 50 / 50, columns 60 / 40: shares differ by 0.10
    at = kl.agreement_report(C=[[45, 5], [15, 35]])
    assert _caveat(at, "Bias")
    assert "(rater 1 0.500, rater 2 0.600), so part" in at.methods_paragraph()
    below = kl.agreement_report(C=[[45, 5], [14, 36]])  # 0.09
    assert not _caveat(below, "Bias")


def test_unused_category_caveat():
    used = kl.agreement_report(C=[[30, 5, 0], [4, 30, 0], [0, 0, 0]], labels=["a", "b", "c"])
    assert _caveat(used, "Unused categories")
    assert "neither rater used c" in used.methods_paragraph()
    one_side = kl.agreement_report(C=[[30, 5, 1], [4, 30, 0], [0, 0, 0]], labels=["a", "b", "c"])
    assert not _caveat(one_side, "Unused")


def test_a_rater_with_one_category_gets_no_test():
    r = kl.agreement_report(C=[[30, 5], [0, 0]], raters=("A", "B"))
    assert r.estimate == 0.0 and r.z is None and r.pvalue is None
    assert "A used a single category" in r.methods_paragraph()
    r = kl.agreement_report(C=[[30, 0], [5, 0]], raters=("A", "B"))
    assert "B used a single category" in r.methods_paragraph()


def test_no_caveat_on_a_plain_large_table():
    r = kl.agreement_report(C=[[40, 6], [5, 49]])
    assert r.caveats == ()


def test_missing_ratings_dropped_and_said():
    y1 = ["a", "b", None, "a", "b", "a"]
    y2 = ["a", "b", "a", float("nan"), "a", "a"]
    r = kl.agreement_report(y1, y2, missing="drop")
    assert r.n_units == 4 and r.n_left_out == 2
    assert "2 units lacking a rating" in r.methods_paragraph()
    with pytest.raises(ValueError):
        kl.agreement_report(y1, y2)


# --- rendering ------------------------------------------------------------------------------


def test_html_and_markdown_hold_the_same_numbers():
    r = kl.agreement_report(C=FCE, labels=["a", "b", "c"])
    md, page = str(r), r._repr_html_()
    assert md == r.to_markdown()
    for s in (f"{r.estimate:.3f}", f"{r.standard_error:.4f}", "106", "rater 1 \\ rater 2"):
        assert s in md
    assert page.startswith("<table>") and f"<td>{r.estimate:.3f}</td>" in page
    assert "<th>a</th>" in page


def test_html_escapes_labels():
    page = kl.agreement_report(C=EXPLAINER, labels=["<b>", "&"])._repr_html_()
    assert "<th>&lt;b&gt;</th>" in page and "<th>&amp;</th>" in page
    assert "<th><b></th>" not in page


# --- bad input ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "error", "words"),
    [
        ({"C": [[5, 0], [0, 0]]}, ValueError, "undefined"),
        ({"C": [[1, 2, 3], [4, 5, 6]]}, ValueError, "square"),
        ({"C": [[1, 2], [3, 4]], "labels": ["a"]}, ValueError, "labels must name"),
        ({"C": [[1, 2], [3, 4]], "labels": ["a", "a"]}, ValueError, "labels must name"),
        ({"C": [[1, 2], [3, 4]], "confidence_level": 1.5}, ValueError, "confidence_level"),
        ({"C": [[1, 2], [3, 4]], "weighting": "cubic"}, ValueError, "weighting"),
        ({"C": [[1, 2], [3, 4]], "missing": "skip"}, ValueError, "missing"),
        ({"C": [[1, 2], [3, 4]], "raters": "AB"}, TypeError, "raters"),
        ({"C": np.ones((2, 2, 2))}, ValueError, "one (K, K)"),
        ({}, TypeError, "needs two label sequences"),
        ({"y1": [1, 2], "y2": [1, 2], "C": [[1, 0], [0, 1]]}, TypeError, "not both"),
        ({"y1": ["a", "b", "z"], "y2": ["a", "b", "a"], "labels": ["a", "b"]}, ValueError, "'z'"),
        (
            {"y1": ["lo", "hi", "lo"], "y2": ["lo", "hi", "hi"], "weighting": "linear"},
            ValueError,
            "ordinal order",
        ),
        ({"y1": ["a", "a"], "y2": ["a", "a"]}, ValueError, "category a"),
        ({"y1": [1, 2, 3], "y2": [1, 2]}, ValueError, "y1"),
    ],
)
def test_bad_input_gets_one_sentence(kwargs, error, words):
    with pytest.raises(error) as info:
        kl.agreement_report(**kwargs)
    assert words in str(info.value)
    assert "\n" not in str(info.value)


# --- ratings_report ---------------------------------------------------------------------------


def _irrcac():
    import sys
    import warnings

    from ratings_data import ROOT

    sys.path.insert(0, str(ROOT / ".venv" / "oracles"))
    from irrCAC.raw import CAC

    def run(data, domain):
        import pandas as pd

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return CAC(pd.DataFrame(np.asarray(data).T), categories=list(domain), digits=15)

    return run


def _ratings_cases(n, seed=11):
    rng = np.random.default_rng(seed)
    for _ in range(n):
        R, U, K = int(rng.integers(2, 6)), int(rng.integers(8, 60)), int(rng.integers(2, 5))
        truth = rng.integers(0, K, size=U)
        data = np.where(rng.random((R, U)) < 0.7, truth, rng.integers(0, K, size=(R, U)))
        data = data.astype(float)
        if rng.random() < 0.5:
            data[rng.random((R, U)) < 0.1] = np.nan
        yield data, np.arange(K, dtype=float)


@pytest.mark.filterwarnings("ignore:Starting with pandas version 4.0")
def test_ratings_numbers_equal_irrcac_and_krippendorff():
    import krippendorff
    from statsmodels.stats.inter_rater import fleiss_kappa as sm_fleiss

    CAC = _irrcac()
    for data, domain in _ratings_cases(25):
        try:
            r = _raw_report(data, labels=domain)
        except ValueError:
            continue  # fewer than two categories used: refused, as tested below
        cac = CAC(data, domain)

        def est(result):
            return float(result["est"]["coefficient_value"])

        assert r["Krippendorff's alpha"].estimate == pytest.approx(
            krippendorff.alpha(data, level_of_measurement="nominal", value_domain=domain),
            abs=1e-12,
        )
        assert r["Krippendorff's alpha"].estimate == pytest.approx(
            est(cac.krippendorff()), abs=1e-9
        )
        assert r["Gwet's AC1"].estimate == pytest.approx(est(cac.gwet()), abs=1e-9)
        assert r["Brennan-Prediger coefficient"].estimate == pytest.approx(est(cac.bp()), abs=1e-9)
        complete = not np.isnan(data).any()
        names = [c.coefficient for c in r.coefficients]
        assert ("Fleiss' kappa" in names) == complete
        if complete:
            table = np.stack([(data == v).sum(axis=0) for v in domain], axis=1)
            assert r["Fleiss' kappa"].estimate == pytest.approx(sm_fleiss(table), abs=1e-12)
        assert r.n_raters == data.shape[0] and r.n_units == data.shape[1]
        assert r.n_missing == int(np.isnan(data).sum())


def test_ratings_report_on_fleiss_1971_and_krippendorff_2011():
    from kappalib import datasets

    fleiss = datasets.load("fleiss1971_diagnoses")
    # the published table is units x categories counts; expand to six ratings per patient
    ratings = np.array([np.repeat(np.arange(5), row) for row in fleiss.data])
    r = _ratings_report(ratings, layout="units x raters")
    assert round(r["Fleiss' kappa"].estimate, 3) == 0.430  # Fleiss (1971)
    assert "Fleiss' kappa was 0.430" in r.methods_paragraph()
    kr = _raw_report(datasets.load("krippendorff2011_example").data, level_of_measurement="ordinal")
    # Krippendorff (2011) reports 0.815 at the ordinal level
    assert "Krippendorff's alpha (ordinal) was 0.815" in kr.methods_paragraph()
    assert kr.n_missing == 7 and "7 were missing" in kr.methods_paragraph()


def test_ratings_paragraph_and_caveats():
    rng = np.random.default_rng(3)
    truth = rng.integers(0, 3, size=60)
    data = np.where(rng.random((3, 60)) < 0.8, truth, rng.integers(0, 3, size=(3, 60)))
    r = _raw_report(data)
    text = r.methods_paragraph()
    assert "Agreement among 3 raters was assessed on 60 units in 3 categories" in text
    for c in r.coefficients:
        assert f"{c.coefficient} was {c.estimate:.3f}" in text, c.coefficient
    assert r.caveats == ()  # 60 units, no gap, no rare or unused category
    few = _raw_report(data[:, :49])
    assert any(c.startswith("Few units: with 49 units") for c in few.caveats)
    assert not any(c.startswith("Few") for c in _raw_report(data[:, :50]).caveats)
    unused = _raw_report(data, labels=[0, 1, 2, 3])
    assert any("no rater used 3" in c for c in unused.caveats)
    gaps = data.astype(float)
    gaps[0, :5] = np.nan
    g = _raw_report(gaps)
    assert any(c.startswith("Missing ratings: 5 of 180") for c in g.caveats)
    assert "Fleiss' kappa" not in [c.coefficient for c in g.coefficients]
    empty = data.astype(float)
    empty[:, 7] = np.nan  # one unit nobody rated, every other unit rated three times
    assert "Fleiss' kappa" not in [c.coefficient for c in _raw_report(empty).coefficients]
    rare = data.copy()
    rare[rare == 2] = 1
    rare[:, :3] = 2  # 9 of 180 ratings: 0.05 < 1/6
    assert any(c.startswith("Prevalence: 2 (0.050)") for c in _raw_report(rare).caveats)
    for band in BANDS:
        assert not re.search(rf"\b{band}\b", (text + str(r) + r._repr_html_()).lower())


def test_ratings_html_and_markdown():
    from kappalib import datasets

    r = _raw_report(datasets.load("gwet2014_5observers").data, weighting="quadratic")
    page, md = r._repr_html_(), r.to_markdown()
    assert page.startswith("<table>") and "Gwet&#x27;s AC2 (quadratic weights)" in page
    assert "| Gwet's AC2 (quadratic weights) |" in md
    with pytest.raises(KeyError, match="no coefficient"):
        r["Cohen's kappa"]


@pytest.mark.parametrize(
    ("data", "kwargs", "error", "words"),
    [
        ([[1, 1, 1], [1, 1, 1]], {}, ValueError, "at least two categories"),
        (
            [[1, 2, 1], [1, 2, 1]],
            {"level_of_measurement": "metric"},
            ValueError,
            "level_of_measurement must be",
        ),
        ([[1, 2, 1], [1, 2, 1]], {"confidence_level": 0}, ValueError, "confidence_level"),
        ([[1, 2, 1], [1, 2, 1]], {"layout": "rows"}, ValueError, "layout"),
        ([[1, 2, 5], [1, 2, 1]], {"labels": [1, 2]}, ValueError, "5"),
        ([["a", "b"], ["a", "b"]], {"level_of_measurement": "ordinal"}, ValueError, "labels"),
    ],
)
def test_ratings_bad_input(data, kwargs, error, words):
    with pytest.raises(error) as info:
        _ratings_report(data, **{"layout": "raters x units", **kwargs})
    assert words in str(info.value)


def test_count_table_mode_on_fleiss_1971():
    import krippendorff
    from statsmodels.stats.inter_rater import fleiss_kappa as sm_fleiss

    from kappalib import datasets

    fleiss = datasets.load("fleiss1971_diagnoses")
    r = _ratings_report(table=fleiss.data, labels=list(fleiss.columns))
    assert r["Fleiss' kappa"].estimate == pytest.approx(sm_fleiss(fleiss.data), abs=1e-12)
    # alpha does not ask who rated what: the six ratings of each patient in any order
    ratings = np.array([np.repeat(np.arange(5), row) for row in fleiss.data]).T
    alpha = krippendorff.alpha(ratings, level_of_measurement="nominal")
    assert r["Krippendorff's alpha"].estimate == pytest.approx(alpha, abs=1e-12)
    raw = _raw_report(ratings)
    for name in ("Gwet's AC1", "Brennan-Prediger coefficient"):
        assert r[name].estimate == pytest.approx(raw[name].estimate, abs=1e-12)
    text = r.methods_paragraph()
    assert r.n_raters is None and r.ratings_per_unit == (6, 6)
    assert "each rated by 6 raters (not necessarily the same raters for every unit)" in text
    assert "depression: 26" in text and "Fleiss' kappa was 0.430" in text
    assert "the Brennan-Prediger coefficient was" in text


def test_count_table_with_unequal_rows_and_numeric_levels():
    import krippendorff

    table = np.array([[2, 1, 0], [0, 3, 1], [1, 0, 1], [0, 0, 4], [3, 0, 0], [0, 2, 2]])
    r = _ratings_report(table=table, labels=[1, 2, 5], level_of_measurement="interval")
    ratings = np.full((4, 6), np.nan)
    for u, row in enumerate(table):
        v = np.repeat([1, 2, 5], row)
        ratings[: v.size, u] = v
    alpha = krippendorff.alpha(ratings, level_of_measurement="interval")
    assert r["Krippendorff's alpha"].estimate == pytest.approx(alpha, abs=1e-12)
    assert "Fleiss' kappa" not in [c.coefficient for c in r.coefficients]
    assert "each rated by 2 to 4 raters" in r.methods_paragraph()


@pytest.mark.parametrize(
    ("kwargs", "error", "words"),
    [
        ({}, TypeError, "exactly one"),
        ({"ratings": [[1, 2]], "table": [[1, 1]]}, TypeError, "exactly one"),
        ({"table": [[1.5, 0.5], [1, 1]]}, ValueError, "whole numbers"),
        (
            {"table": [[1, 1], [2, 0]], "labels": ["a", "b"], "level_of_measurement": "interval"},
            TypeError,
            "numeric",
        ),
        ({"table": [[2, 0], [2, 0]]}, ValueError, "at least two categories"),
    ],
)
def test_count_table_bad_input(kwargs, error, words):
    with pytest.raises(error) as info:
        _ratings_report(**kwargs)
    assert words in str(info.value)


def test_reprs_are_short_and_hold_the_estimate():
    r = kl.agreement_report(C=EXPLAINER)
    assert repr(r) == "AgreementReport(Cohen's kappa = 0.700, 95% CI 0.389 to 1.000, N = 20)"
    from kappalib import datasets

    rr = _raw_report(datasets.load("krippendorff2011_example").data)
    assert repr(rr).startswith("RatingsReport(Fleiss' kappa (Gwet's generalized) = 0.761, ")
    assert "Krippendorff's alpha (nominal) = 0.743" in repr(rr)


def test_far_tail_p_and_large_counts_print_in_full():
    tail = kl.agreement_report(C=[[400, 100], [100, 400]])  # z near 19, p near 1e-80
    assert 0 < tail.pvalue < 1e-60
    assert tail.pvalue == pytest.approx(2 * norm.sf(tail.z), rel=1e-9)
    r = kl.agreement_report(C=[[400_000, 100_000], [100_000, 400_000]])
    small = kl.agreement_report(C=FCE)
    assert small.pvalue == pytest.approx(2 * norm.sf(small.z), rel=1e-9)
    text = r.methods_paragraph()
    assert "N = 1000000 units" in text and "400000, 100000" in text
    assert "e+" not in text + str(r)


@pytest.mark.parametrize("interval", ["percentile", "bca"])
def test_bootstrap_interval_is_the_librarys_and_said(interval):
    r = kl.agreement_report(C=EXPLAINER, method=interval, n_resamples=2000, rng=3)
    assert r.confidence_interval == kl.bootstrap_confint(
        EXPLAINER, method=interval, n_resamples=2000, rng=3
    )
    text = r.methods_paragraph()
    kind = "percentile" if interval == "percentile" else "BCa"
    assert f"{kind} bootstrap over the units, 2000 resamples" in text
    assert "clipped" not in text  # the bootstrap's upper end is a resampled kappa of 1
    assert "the bootstrap interval is also approximate" in text
    # the standard error and the test stay Fleiss, Cohen and Everitt's
    assert r.standard_error == kl.kappa_standard_error(EXPLAINER) and round(r.z, 2) == 3.15
    with pytest.raises(ValueError, match="method must be"):
        kl.agreement_report(C=EXPLAINER, method="wald")


# --- specific agreement, the bias test and the many-rater intervals ---------------------------


def test_specific_agreement_by_exact_arithmetic():
    for C in [*_random_tables(20, seed=31), [[30, 5, 0], [0, 30, 0], [0, 0, 0]]]:
        r = kl.agreement_report(C=C)
        F = [[Fraction(int(v)) for v in row] for row in C]
        K = len(F)
        for k in range(K):
            den = sum(F[k]) + sum(F[i][k] for i in range(K))
            if den == 0:
                assert r.specific_agreement[k] is None
                assert "undefined for" in r.methods_paragraph()
            else:
                assert r.specific_agreement[k] == pytest.approx(float(2 * F[k][k] / den))
                assert f"{float(2 * F[k][k] / den):.3f} for {k}" in r.methods_paragraph()


def test_bias_test_against_statsmodels():
    from statsmodels.stats.contingency_tables import SquareTable, mcnemar

    for C in _random_tables(20, seed=41):
        r = kl.agreement_report(C=C)
        if len(C) == 2:
            sm = mcnemar(C, exact=False, correction=True)
            assert r.bias_test.method.startswith("McNemar")
        else:
            sm = SquareTable(np.asarray(C, float), shift_zeros=False).homogeneity()
            assert r.bias_test.method == "Stuart-Maxwell"
        assert r.bias_test.statistic == pytest.approx(sm.statistic, rel=1e-9)
        assert r.bias_test.pvalue == pytest.approx(sm.pvalue, rel=1e-7, abs=1e-12)
        assert f"{r.bias_test.method} (equal margins)" in str(r)
    # issue 30 item 12: a fractional table has no N for kappa's standard error, so the
    # report refuses it (before, it printed an interval and noted only the bias test)
    with pytest.raises(ValueError, match=r"needs counts of cases.*got 3\.5 at index \(0, 0\)"):
        kl.agreement_report(C=[[3.5, 1], [1, 4]])


@pytest.mark.filterwarnings("ignore:Starting with pandas version 4.0")
def test_ratings_intervals_equal_irrcac():
    CAC = _irrcac()
    checked = 0
    for data, domain in _ratings_cases(20, seed=29):
        try:
            r = _raw_report(data, labels=domain, rng=0, n_resamples=500)
        except ValueError:
            continue
        cac = CAC(data, domain)
        complete = not np.isnan(data).any()
        fleiss = "Fleiss' kappa" if complete else "Fleiss' kappa (Gwet's generalized)"
        for name, result in (
            (fleiss, cac.fleiss()),
            ("Gwet's AC1", cac.gwet()),
            ("Brennan-Prediger coefficient", cac.bp()),
            ("Conger's kappa", cac.conger()),
        ):
            est = result["est"]
            ours = r[name]
            assert ours.estimate == pytest.approx(float(est["coefficient_value"]), abs=1e-9)
            assert ours.standard_error == pytest.approx(float(est["se"]), abs=1e-9), name
            lo, hi = est["confidence_interval"]
            assert ours.confidence_interval == pytest.approx((float(lo), float(hi)), abs=1e-9)
            assert ours.interval_method.startswith("Gwet's linearization")
        for name in ("Krippendorff's alpha", "Light's kappa"):
            c = r[name]
            assert c.interval_method == "percentile bootstrap over the units, 500 resamples"
            assert c.confidence_interval[0] <= c.estimate <= c.confidence_interval[1] + 1e-12
        checked += 1
    assert checked >= 15


def test_fleiss_null_test_on_fleiss_1971():
    from kappalib import datasets

    r = _ratings_report(table=datasets.load("fleiss1971_diagnoses").data, rng=0)
    c = r["Fleiss' kappa"]
    # R's irr documents kappam.fleiss(diagnoses): kappa = 0.43, z = 17.7
    assert round(c.estimate, 2) == 0.43 and round(c.z, 1) == 17.7
    assert c.pvalue == pytest.approx(2 * norm.sf(c.z), rel=1e-9)
    text = r.methods_paragraph()
    assert f"Fleiss' kappa has z = {c.z:.2f} (p < 0.001" in text
    assert "Conger" not in text and "Conger's and Light's kappa: not given" in r.notes[0]
    lo, hi = c.confidence_interval
    assert f"Fleiss' kappa was 0.430 (95% CI {lo:.3f} to {hi:.3f})" in text
    assert "Intervals: " in text and "percentile bootstrap over the units, 200" in text


def test_ratings_bootstrap_is_seeded():
    from kappalib import datasets

    data = datasets.load("krippendorff2011_example").data
    a = _raw_report(data, rng=7, n_resamples=300)
    b = _raw_report(data, rng=7, n_resamples=300)
    assert (
        a["Krippendorff's alpha"].confidence_interval
        == b["Krippendorff's alpha"].confidence_interval
    )
    assert a["Krippendorff's alpha"].confidence_interval == kl.ratings_confint(
        data,
        coefficient="alpha",
        method="percentile",
        n_resamples=300,
        rng=7,
        layout="raters x units",
    )


def test_caveats_and_notes_are_shown_in_the_text_and_the_table():
    # Every caveat the report holds is listed in its Markdown and in its notebook table
    # (escaped), for both reports: a reader of str(report) or of the notebook sees them.
    import html

    two = kl.agreement_report(["a", "b", "a", None, "b"], ["a", "b", "b", "a", "b"], missing="drop")
    ratings = _ratings_report(
        [[1, 1, 2], [2, 2, 2], [1, 2, np.nan], [3, 3, 3]], layout="units x raters"
    )
    for r in (two, ratings):
        assert r.caveats, "these data should carry caveats (few units)"
        md, page = r.to_markdown(), r._repr_html_()
        for item in (*r.caveats, *r.notes):
            assert f"- {item}" in md, item
            assert f"<li>{html.escape(str(item))}</li>" in page, item
    assert any(c.startswith("Missing ratings") for c in two.caveats), two.caveats


def test_the_report_words_are_data_that_the_page_reads_too(monkeypatch):
    """The sentences come from kappalib/_shared/report_words.json (the file the calculator
    page embeds: tests/test_js_twin.py), not from code: a template changed there changes
    the paragraph."""
    from kappalib._shared import words

    changed = dict(words.WORDS["two_raters"], specific="Specific agreement: {values}.")
    monkeypatch.setitem(words.WORDS, "two_raters", changed)
    text = kl.agreement_report(C=[[40, 3], [5, 52]]).methods_paragraph()
    assert "Specific agreement: 0.909 for 0 and 0.929 for 1." in text
