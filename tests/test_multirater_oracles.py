"""Published values and exact arithmetic for the multi-rater coefficients, fast enough for the
mutation check (``make mutants``) to run them once per mutant.

The oracles: Krippendorff's (2011) published alphas, Fleiss' (1971) kappa, Gwet's (2014)
abstractors and the values irrCAC documents for them, a plain-Python count of raw ratings,
and Gwet's formulas evaluated in ``fractions`` on small tables with missing ratings.  The
random parity with the packages lives in test_multirater.py and test_parity_irrcac.py.
"""

from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from ratings_data import case, read_csv

import kappalib as kl
from kappalib import datasets

NAN = np.nan
# Krippendorff (2011): four observers x twelve units (raters x units), values 1-5, gaps
KRIPPENDORFF = datasets.load("krippendorff2011_example").data
ABSTRACTORS = [[13, 0, 0], [0, 20, 7], [0, 4, 56]]  # Gwet (2014), two abstractors


# --- rating_table against a plain-Python count -------------------------------------------


@pytest.mark.parametrize("seed", range(20))
def test_rating_table_counts_each_unit(seed):
    data, _ = case(seed)
    table = kl.rating_table(data, layout="raters x units")
    cats = np.asarray(table.labels)
    present = sorted({v for v in data.ravel().tolist() if v == v})
    assert cats.tolist() == present
    expected = []
    for u in range(data.shape[1]):
        counts = Counter(v for v in data[:, u].tolist() if v == v)
        expected.append([counts[v] for v in present])
    assert table.tolist() == expected


def test_rating_table_of_strings_with_missing():
    data = [["a", "b", None], ["a", None, "c"], ["b", "b", "c"]]
    table = kl.rating_table(data, layout="raters x units")
    cats = np.asarray(table.labels)
    assert cats.tolist() == ["a", "b", "c"]
    assert table.tolist() == [[2, 1, 0], [0, 2, 0], [0, 0, 2]]


# --- Krippendorff's alpha: the published values -------------------------------------------


def test_krippendorff_2011_published_alphas():
    published = {"nominal": 0.743, "ordinal": 0.815, "interval": 0.849, "ratio": 0.797}
    for level, value in published.items():
        assert (
            round(
                kl.krippendorff_alpha(
                    KRIPPENDORFF, level_of_measurement=level, layout="raters x units"
                ),
                3,
            )
            == value
        ), level


def test_krippendorff_nominal_alpha_by_hand():
    """Two raters, no missing: alpha = 1 - (n - 1) D_o / D_e on the coincidence matrix.

    Ratings (a, a), (a, b), (b, b), (b, b): o = [[2, 1], [1, 4]], n = 8, n_a = 3, n_b = 5,
    D_o-part = o_ab + o_ba = 2, D_e-part = 2 n_a n_b = 30: alpha = 1 - 7 * 2 / 30 = 8/15.
    """
    data = [["a", "a", "b", "b"], ["a", "b", "b", "b"]]
    assert kl.krippendorff_alpha(data, layout="raters x units") == pytest.approx(
        float(Fraction(8, 15)), abs=1e-15
    )


# --- Fleiss' kappa ------------------------------------------------------------------------


def test_fleiss_1971_published_kappa():
    _, rows = read_csv("fleiss1971_diagnoses.csv")
    table = np.array([[int(v) for v in row[1:]] for row in rows])
    assert round(kl.fleiss_kappa(table), 3) == 0.430


def _fleiss_exact(table):
    n = sum(table[0])
    N = len(table)
    P = sum(Fraction(sum(x * x for x in row) - n, n * (n - 1)) for row in table) / N
    p = [Fraction(sum(row[k] for row in table), N * n) for k in range(len(table[0]))]
    pe = sum(x * x for x in p)
    return (P - pe) / (1 - pe)


def test_fleiss_kappa_exact():
    table = [[3, 1, 0], [0, 4, 0], [2, 1, 1], [0, 0, 4], [1, 3, 0]]
    assert kl.fleiss_kappa(table) == pytest.approx(float(_fleiss_exact(table)), abs=1e-15)


# --- Gwet's AC1/AC2 and Brennan-Prediger, two raters ---------------------------------------


def test_gwet_2014_abstractors_documented_by_irrcac():
    assert round(kl.gwet_ac1(ABSTRACTORS), 5) == 0.84933
    assert round(kl.gwet_ac1(ABSTRACTORS, weighting="quadratic"), 5) == 0.94024


def _agreement_weights(K, kind):
    if kind is None:
        return [[Fraction(int(i == j)) for j in range(K)] for i in range(K)]
    power = 1 if kind == "linear" else 2
    D = [[Fraction(abs(i - j)) ** power for j in range(K)] for i in range(K)]
    top = max(max(row) for row in D)
    return [[1 - d / top for d in row] for row in D]


def _two_rater_exact(C, kind):
    """(AC, BP) in exact arithmetic: Gwet (2014) eq. for two raters; BP with p_e = T_w/K^2."""
    K = len(C)
    w = _agreement_weights(K, kind)
    N = sum(map(sum, C))
    p_a = sum(w[i][j] * C[i][j] for i in range(K) for j in range(K)) / Fraction(N)
    T_w = sum(map(sum, w))
    pi = [Fraction(sum(C[k]) + sum(row[k] for row in C), 2 * N) for k in range(K)]
    pe_ac = T_w / (K * (K - 1)) * sum(p * (1 - p) for p in pi)
    pe_bp = T_w / (K * K)
    return (p_a - pe_ac) / (1 - pe_ac), (p_a - pe_bp) / (1 - pe_bp)


@pytest.mark.parametrize("kind", [None, "linear", "quadratic"])
@pytest.mark.parametrize("C", [ABSTRACTORS, [[5, 3, 0], [1, 2, 6], [0, 0, 1]], [[9, 1], [4, 2]]])
def test_two_rater_coefficients_exact(C, kind):
    ac, bp = _two_rater_exact(C, kind)
    assert kl.gwet_ac1(C, weighting=kind) == pytest.approx(float(ac), abs=1e-14)
    assert kl.brennan_prediger(C, weighting=kind) == pytest.approx(float(bp), abs=1e-14)


# --- Gwet's AC1/AC2 and Brennan-Prediger, many raters with missing ratings ------------------


def _multi_exact(table, kind):
    """Gwet (2014, ch. 4): p_a over units with r_i >= 2; pi_k the mean of per-unit shares."""
    K = len(table[0])
    w = _agreement_weights(K, kind)
    rated = [row for row in table if sum(row) > 0]
    pairable = [row for row in rated if sum(row) >= 2]
    p_a = Fraction(0)
    for row in pairable:
        r = sum(row)
        star = [sum(w[k][j] * row[j] for j in range(K)) for k in range(K)]
        p_a += sum(row[k] * (star[k] - 1) for k in range(K)) / Fraction(r * (r - 1))
    p_a /= len(pairable)
    pi = [sum(Fraction(row[k], sum(row)) for row in rated) / len(rated) for k in range(K)]
    T_w = sum(map(sum, w))
    pe_ac = T_w / (K * (K - 1)) * sum(p * (1 - p) for p in pi)
    pe_bp = T_w / (K * K)
    return (p_a - pe_ac) / (1 - pe_ac), (p_a - pe_bp) / (1 - pe_bp)


def test_krippendorff_example_ac1_documented_by_irrcac():
    table = kl.rating_table(KRIPPENDORFF, layout="raters x units")
    assert round(kl.gwet_ac1_multi(table), 5) == 0.77544
    assert kl.brennan_prediger_multi(table) == pytest.approx((9 / 11 - 1 / 5) / (4 / 5), abs=1e-14)


MULTI_TABLES = [
    [[3, 0, 0], [1, 2, 0], [0, 1, 1], [0, 0, 2], [2, 0, 1], [1, 0, 0]],  # r_i = 3, 3, 2, 2, 3, 1
    [[4, 1], [0, 2], [3, 0], [1, 1], [0, 5]],
]


@pytest.mark.parametrize("kind", [None, "linear", "quadratic"])
@pytest.mark.parametrize("table", MULTI_TABLES, ids=["K3", "K2"])
def test_multi_rater_coefficients_exact(table, kind):
    ac, bp = _multi_exact(table, kind)
    assert kl.gwet_ac1_multi(table, weighting=kind) == pytest.approx(float(ac), abs=1e-14)
    assert kl.brennan_prediger_multi(table, weighting=kind) == pytest.approx(float(bp), abs=1e-14)
