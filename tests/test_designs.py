"""Crossed designs and per-category agreement (issue 23, section 2), against outside oracles.

* Conger's kappa and Gwet's generalized Fleiss kappa: irrCAC 0.4.4 (``CAC.conger``,
  ``CAC.fleiss``) on 500 random rating sets with missing ratings and weights; Krippendorff's
  (2011) example, where issue 23 (erratum 4) quotes 0.762 and 0.761; with two raters and
  no missing rating Conger's kappa is Cohen's (scikit-learn).
* Light's kappa: the mean of scikit-learn's ``cohen_kappa_score`` over the pairs of raters,
  each on the units both rated.
"""

import itertools
import sys
import warnings

import numpy as np
import pandas as pd
import pytest
from ratings_data import BATCH, ROOT, cases
from sklearn.metrics import cohen_kappa_score
from sweeps import sweep

import kappalib as kl
from kappalib import datasets

sys.path.insert(0, str(ROOT / ".venv" / "oracles"))
from irrCAC.raw import CAC

N_CASES = 500
NAN = np.nan
# Krippendorff (2011): four observers x twelve units (raters x units), values 1-5, gaps
KRIPPENDORFF = datasets.load("krippendorff2011_example").data


def _irr(data, domain, weights="identity"):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return CAC(pd.DataFrame(data.T), weights=weights, categories=domain.tolist(), digits=15)


# irrCAC 0.4.4 calls DataFrame.all(1) positionally, which pandas 3.1 warns about
IRRCAC_NOISE = pytest.mark.filterwarnings("ignore:Starting with pandas version 4.0")


def _value(result):
    return float(result["est"]["coefficient_value"])


def _every_rater_rates(data):
    return bool((~np.isnan(data)).any(axis=1).all())


# --- Conger -------------------------------------------------------------------------------


@IRRCAC_NOISE
def test_conger_and_generalized_fleiss_on_krippendorffs_example():
    # issue 23, erratum 4: Conger's kappa 0.762, Gwet's generalized Fleiss kappa 0.761
    assert round(kl.conger_kappa(KRIPPENDORFF, layout="raters x units"), 3) == 0.762
    table = kl.rating_table(KRIPPENDORFF, layout="raters x units")
    assert round(kl.fleiss_kappa_generalized(table), 3) == 0.761
    data = np.array(KRIPPENDORFF, dtype=float)
    cac = _irr(data, np.arange(1.0, 6.0))
    assert kl.conger_kappa(data, layout="raters x units") == pytest.approx(
        _value(cac.conger()), abs=1e-12
    )
    assert kl.fleiss_kappa_generalized(table) == pytest.approx(_value(cac.fleiss()), abs=1e-12)
    # the units x raters layout and a DataFrame give the same value
    assert kl.conger_kappa(data.T, layout="units x raters") == kl.conger_kappa(
        data, layout="raters x units"
    )
    assert kl.conger_kappa(pd.DataFrame(data.T)) == kl.conger_kappa(data, layout="raters x units")


@IRRCAC_NOISE
@pytest.mark.parametrize("batch", sweep(N_CASES // BATCH, 5, also=[31]))  # 31: a rater rates none
def test_conger_against_irrcac(batch):
    checked = 0
    for seed, data, domain in cases(batch):
        if not _every_rater_rates(data):
            continue
        weighted = seed % 3 == 1
        cac = _irr(data, domain, "quadratic" if weighted else "identity")
        kw = {"weighting": "quadratic", "labels": domain} if weighted else {}
        ours = kl.conger_kappa(data, layout="raters x units", **kw)
        assert ours == pytest.approx(_value(cac.conger()), abs=1e-9), seed
        table = kl.rating_table(data, layout="raters x units", labels=domain)
        kw = {"weighting": "quadratic"} if weighted else {}
        ours = kl.fleiss_kappa_generalized(table, **kw)
        assert ours == pytest.approx(_value(cac.fleiss()), abs=1e-9), seed
        checked += 1
    assert checked >= BATCH // 2


@pytest.mark.parametrize("seed", range(40))
def test_conger_of_two_complete_raters_is_cohens_kappa(seed):
    rng = np.random.default_rng(seed)
    n, K = int(rng.integers(5, 60)), int(rng.integers(2, 5))
    a = rng.integers(0, K, n)
    b = np.where(rng.random(n) < 0.6, a, rng.integers(0, K, n))
    if len(set(a) | set(b)) < 2:
        return
    assert kl.conger_kappa([a, b], layout="raters x units") == pytest.approx(
        cohen_kappa_score(a, b), abs=1e-12
    )


def test_generalized_fleiss_equals_fleiss_on_complete_tables():
    for _seed, data, domain in cases(3, missing=False):
        table = kl.rating_table(data, layout="raters x units", labels=domain)
        expected = kl.fleiss_kappa(table)
        assert kl.fleiss_kappa_generalized(table) == pytest.approx(expected, abs=1e-12)


def test_conger_undefined_and_bad_input():
    assert kl.conger_kappa([[1, 1, 1], [1, 1, 1]], layout="raters x units") is None
    assert (
        kl.conger_kappa([[1, 1, 1], [1, 1, 1]], zero_division=0.0, layout="raters x units") == 0.0
    )
    with pytest.raises(ValueError, match="at least 2 raters"):
        kl.conger_kappa([[1, 2, 3]], layout="raters x units")
    with pytest.raises(ValueError, match=r"rater 1 .* no rating at all"):
        kl.conger_kappa([[1, 2, 3], [NAN, NAN, NAN], [1, 2, 2]], layout="raters x units")
    with pytest.raises(ValueError, match="layout="):
        kl.conger_kappa(np.ones((5, 2)))
    with pytest.raises(ValueError, match="spelling"):
        kl.conger_kappa(
            [["a", "b", "c"], ["a", "c", "c"]], weighting="linear", layout="raters x units"
        )


# --- Light --------------------------------------------------------------------------------


def _light_oracle(data):
    """Mean of scikit-learn's Cohen kappa over the pairs, each on the units both rated."""
    values = []
    for g, h in itertools.combinations(range(data.shape[0]), 2):
        both = ~np.isnan(data[g]) & ~np.isnan(data[h])
        values.append(cohen_kappa_score(data[g, both], data[h, both]))
    return float(np.mean(values))


@pytest.mark.parametrize("batch", sweep(N_CASES // BATCH, 5))
def test_light_against_sklearn_pairs(batch):
    checked = 0
    for _seed, data, _ in cases(batch):
        pairs = list(itertools.combinations(range(data.shape[0]), 2))
        ok = True
        for g, h in pairs:
            both = ~np.isnan(data[g]) & ~np.isnan(data[h])
            if both.sum() < 1 or np.unique(np.r_[data[g, both], data[h, both]]).size < 2:
                ok = False
        if not ok:
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            expected = _light_oracle(data)
        assert kl.light_kappa(data, layout="raters x units") == pytest.approx(expected, abs=1e-9)
        checked += 1
    assert checked >= 3


def test_light_published_and_bad_input():
    # hand count: pairs (0, 1) and (1, 2) have kappa 1/2, pair (0, 2) agrees fully
    assert kl.light_kappa(
        [[1, 1, 2, 2], [1, 2, 2, 2], [1, 1, 2, 2]], layout="raters x units"
    ) == pytest.approx(2 / 3)
    with pytest.raises(ValueError, match="rated no unit in common"):
        kl.light_kappa([[1, 2, NAN, NAN], [NAN, NAN, 1, 2], [1, 2, 1, 2]], layout="raters x units")
    assert kl.light_kappa([[1, 1, 1], [1, 1, 2], [1, 1, 1]], layout="raters x units") is None
    with pytest.raises(kl.UndefinedMetricError, match="raters 0 and 2"):
        kl.light_kappa(
            [[1, 1, 1], [1, 1, 2], [1, 1, 1]], zero_division="raise", layout="raters x units"
        )


# --- specific agreement, per-category kappas, validity --------------------------------------


def _random_matrix(rng, K=None):
    K = K or int(rng.integers(2, 6))
    return rng.integers(0, 30, size=(K, K)) * (rng.random((K, K)) < 0.8)


@pytest.mark.parametrize("seed", range(100))
def test_specific_agreement_in_exact_fractions(seed):
    from fractions import Fraction

    rng = np.random.default_rng(seed)
    C = _random_matrix(rng)
    if C.sum() == 0:
        return
    res = kl.specific_agreement(C)
    for k in range(C.shape[0]):
        den = int(C[k].sum() + C[:, k].sum())
        if den == 0:
            assert np.isnan(res.values[k])
        else:
            assert res.values[k] == float(Fraction(2 * int(C[k, k]), den))
    if C.shape[0] == 2:
        a, b, c, d = (int(v) for v in C.ravel())
        if 2 * d + b + c:
            assert res.positive == float(Fraction(2 * d, 2 * d + b + c))
        if 2 * a + b + c:
            assert res.negative == float(Fraction(2 * a, 2 * a + b + c))


def test_specific_agreement_labels_and_bad_input():
    C = kl.confusion_matrix(["no", "no", "yes", "no"], ["no", "yes", "yes", "no"])
    res = kl.specific_agreement(C)
    assert res.labels == ("no", "yes")
    assert res.positive == pytest.approx(2 / 3) and res.negative == pytest.approx(0.8)
    assert "positive=0.6667" in repr(res)
    assert kl.specific_agreement([[1, 0], [0, 0]], zero_division=0.0).positive == 0.0
    with pytest.raises(ValueError, match="2 x 2 tables"):
        kl.specific_agreement(np.eye(3)).positive  # noqa: B018
    with pytest.raises(TypeError, match="confusion_matrix"):
        kl.specific_agreement([0, 1, 1], [0, 1, 0])
    with pytest.raises(ValueError, match="one confusion matrix"):
        kl.specific_agreement(np.ones((2, 3, 3)))


@pytest.mark.parametrize("seed", range(60))
def test_class_validity_against_sklearn(seed):
    from sklearn.metrics import precision_score, recall_score

    rng = np.random.default_rng(seed)
    C = _random_matrix(rng)
    C = C + np.eye(C.shape[0], dtype=int)  # every class occurs in both margins
    y_true, y_pred = kl.labels_from_matrix(C)
    labels = list(range(C.shape[0]))
    res = kl.class_validity(C)
    np.testing.assert_allclose(
        res.sensitivity, recall_score(y_true, y_pred, labels=labels, average=None), rtol=1e-15
    )
    np.testing.assert_allclose(
        res.ppv, precision_score(y_true, y_pred, labels=labels, average=None), rtol=1e-15
    )
    assert res.support.tolist() == np.bincount(y_true, minlength=C.shape[0]).tolist()


def test_class_validity_rows_are_the_reference():
    res = kl.class_validity([[40, 10], [5, 45]])
    assert res.sensitivity.tolist() == [0.8, 0.9]  # 40 / 50, 45 / 50 by hand
    assert res.ppv.tolist() == [40 / 45, 45 / 55]
    assert np.isnan(kl.class_validity([[3, 0], [0, 0]]).ppv[1])
    with pytest.raises(kl.UndefinedMetricError, match=r"sensitivity .* class 1: the reference"):
        kl.class_validity([[3, 0], [0, 0]], zero_division="raise")
    with pytest.raises(kl.UndefinedMetricError, match="neither rater used it"):
        kl.specific_agreement([[3, 0], [0, 0]], zero_division="raise")


@pytest.mark.parametrize("batch", sweep(N_CASES // BATCH, 5))
def test_category_fleiss_kappas_against_statsmodels_collapsed(batch):
    from scipy.stats import norm
    from statsmodels.stats.inter_rater import fleiss_kappa as sm_fleiss

    for _seed, data, domain in cases(batch, missing=False):
        table = kl.rating_table(data, layout="raters x units", labels=domain)
        res = kl.category_fleiss_kappas(table)
        N, n = table.shape[0], table[0].sum()
        for k in range(table.shape[1]):
            collapsed = np.c_[table[:, k], n - table[:, k]]
            if collapsed[:, 0].sum() in (0, N * n):
                assert np.isnan(res.kappa[k])
                continue
            expected = sm_fleiss(collapsed)
            assert res.kappa[k] == pytest.approx(expected, abs=1e-12)
            z = expected / np.sqrt(2 / (N * n * (n - 1)))
            assert res.z[k] == pytest.approx(z, rel=1e-12)
            assert res.pvalue[k] == pytest.approx(2 * norm.sf(abs(z)), rel=1e-9, abs=1e-300)
        assert res.labels == tuple(domain.tolist())


def test_category_fleiss_kappas_bad_input():
    with pytest.raises(ValueError, match=r"same number of ratings.*fleiss_kappa_generalized"):
        kl.category_fleiss_kappas([[2, 0], [1, 2]])


# --- bias: McNemar and Stuart-Maxwell ------------------------------------------------------


@pytest.mark.parametrize("seed", sweep(N_CASES, 50))
def test_mcnemar_against_statsmodels(seed):
    from statsmodels.stats.contingency_tables import mcnemar

    rng = np.random.default_rng(seed)
    C = rng.integers(0, [[50, 12], [12, 50]]) if seed % 2 else rng.integers(0, 200, (2, 2))
    b, c = C[0, 1], C[1, 0]
    ex = kl.mcnemar_test(C, exact=True)
    sm = mcnemar(C, exact=True)
    assert ex.statistic == sm.statistic and ex.df is None
    assert ex.pvalue == pytest.approx(sm.pvalue, rel=1e-12)
    for correction in (True, False):
        ours = kl.mcnemar_test(C, correction=correction)
        if b + c == 0:
            assert ours.statistic is None and ours.pvalue is None
            continue
        if correction and b == c:  # R's rule: no correction, statistic 0, p 1
            assert ours.statistic == 0.0 and ours.pvalue == pytest.approx(1.0)
            continue
        sm = mcnemar(C, exact=False, correction=correction)
        assert ours.statistic == pytest.approx(sm.statistic, rel=1e-14)
        assert ours.pvalue == pytest.approx(sm.pvalue, rel=1e-10, abs=1e-300)


def test_mcnemar_bad_input():
    with pytest.raises(ValueError, match="stuart_maxwell_test"):
        kl.mcnemar_test(np.ones((3, 3)))
    with pytest.raises(ValueError, match=r"whole numbers, got 0\.5"):
        kl.mcnemar_test([[0.5, 0.5], [0.25, 0.75]])
    with pytest.raises(TypeError, match="correction and exact must be True or False"):
        kl.mcnemar_test([[1, 2], [3, 4]], exact="yes")


@pytest.mark.parametrize("seed", sweep(N_CASES, 50, also=[293]))  # 293: a class not discordant
def test_stuart_maxwell_against_statsmodels(seed):
    from scipy.stats import chi2
    from statsmodels.stats.contingency_tables import SquareTable

    rng = np.random.default_rng(seed)
    K = int(rng.integers(2, 6))
    C = rng.integers(1, 40, (K, K)) * (rng.random((K, K)) < 0.9) + np.diag(rng.integers(0, 50, K))
    off = C - np.diag(np.diag(C))
    if ((off.sum(0) + off.sum(1)) == 0).any():
        return  # a class in no discordant case: statsmodels' S is singular (tested below)
    sm = SquareTable(C, shift_zeros=False).homogeneity(method="stuart_maxwell")
    ours = kl.stuart_maxwell_test(C)
    assert ours.df == sm.df == K - 1
    assert ours.statistic == pytest.approx(sm.statistic, rel=1e-10)
    # statsmodels computes 1 - cdf, which loses the digits of a small p: scipy's sf
    assert ours.pvalue == pytest.approx(chi2.sf(sm.statistic, sm.df), rel=1e-9, abs=1e-300)
    assert ours.pvalue == pytest.approx(sm.pvalue, abs=1e-12)
    if K == 2:  # McNemar's test without the correction
        mc = kl.mcnemar_test(C, correction=False)
        assert ours.statistic == pytest.approx(mc.statistic, rel=1e-12)


def test_stuart_maxwell_leaves_out_a_class_without_discordance():
    from statsmodels.stats.contingency_tables import mcnemar

    C = np.array([[10, 4, 0], [9, 12, 0], [0, 0, 7]])
    res = kl.stuart_maxwell_test(C)
    sm = mcnemar(C[:2, :2], exact=False, correction=False)
    assert res.df == 1 and res.statistic == pytest.approx(sm.statistic)
    assert kl.stuart_maxwell_test(np.diag([3, 4, 5])).statistic is None
    with pytest.raises(ValueError, match="whole numbers"):
        kl.stuart_maxwell_test(np.full((3, 3), 0.1))


def test_category_fleiss_kappas_on_fleiss_1971():
    # irr's documented kappam.fleiss(diagnoses, detail=TRUE): kappa .245 .245 .520 .471 .566,
    # z 5.192 5.192 11.031 9.994 12.009 (Fleiss 1971's own per-category kappas)
    data = kl.datasets.load("fleiss1971_diagnoses")
    res = kl.category_fleiss_kappas(kl.RatingTable(data.data, labels=list(data.columns)))
    assert [round(float(k), 3) for k in res.kappa] == [0.245, 0.245, 0.520, 0.471, 0.566]
    assert [round(float(z), 3) for z in res.z] == [5.192, 5.192, 11.031, 9.994, 12.009]
    assert res.labels[2] == "schizophrenia" and "schizophrenia" in repr(res)


def test_stuart_maxwell_with_unlinked_groups_of_classes():
    # Discordant cases only between classes 1 and 3, and 2 and 4: S is singular, and the test
    # is the generalized-inverse statistic d' S^- d with df = rank(S) (found by the JS twin's
    # report cases, where np.linalg.solve raised "Singular matrix"). Hand value: the two
    # McNemar statistics, (2 - 0)^2 / 2 + (16 - 0)^2 / 16 = 18, on 2 df.
    C = [[0, 0, 0, 0, 0], [0, 10, 0, 0, 0], [0, 0, 0, 0, 0], [0, 2, 0, 0, 0], [0, 0, 16, 0, 0]]
    t = kl.stuart_maxwell_test(C)
    assert t.df == 2 and t.statistic == pytest.approx(18.0, rel=1e-12)
    rng = np.random.default_rng(23)
    for _ in range(200):
        K = int(rng.integers(3, 8))
        M = rng.integers(0, 6, size=(K, K)).astype(float)
        blocks = rng.integers(0, 2, size=K)  # no discordant case across the two blocks
        M[blocks[:, None] != blocks[None, :]] = 0
        off = M - np.diag(np.diag(M))
        if not off.any():
            continue
        r, c = M.sum(axis=1), M.sum(axis=0)
        d = r - c
        S = -(M + M.T)
        np.fill_diagonal(S, r + c - 2 * np.diag(M))
        want = float(d @ np.linalg.pinv(S) @ d)
        t = kl.stuart_maxwell_test(M)
        assert t.df == np.linalg.matrix_rank(S)
        assert t.statistic == pytest.approx(want, rel=1e-9, abs=1e-9)
