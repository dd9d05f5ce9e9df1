"""The overall concordance correlation of several methods (issue 34).

Oracles: exact fractions for the coefficient and its two factors (Barnhart, Haber & Song
2002's formula, moments divided by n); for two methods, Lin's (1989) interval as
kappalib.lins_ccc computes it (itself checked against epiR in the conformance table); for
more methods, the delta method re-derived here by finite differences of an independent
evaluation of the coefficient, with the normal-theory covariances of the sample moments.
epiR's ``epi.occc`` (R) is in the conformance table (conformance/cases/overall_ccc.json).
"""

import math
from fractions import Fraction

import numpy as np
import pytest
from scipy import stats

import kappalib as kl


def exact_occc(rows):
    """(rho_o, precision^2 parts, accuracy) in fractions: the pairwise sums of Barnhart et
    al. (2002), moments divided by n."""
    X = [[Fraction(v) for v in r] for r in rows]
    n, J = len(X), len(X[0])
    mu = [sum(r[j] for r in X) / n for j in range(J)]
    S = [[sum((r[a] - mu[a]) * (r[b] - mu[b]) for r in X) / n for b in range(J)] for a in range(J)]
    pairs = [(j, k) for j in range(J) for k in range(j + 1, J)]
    num = sum(2 * S[j][k] for j, k in pairs)
    den = sum(S[j][j] + S[k][k] + (mu[j] - mu[k]) ** 2 for j, k in pairs)
    return num / den, S, pairs, den


@pytest.mark.parametrize("seed", range(10))
def test_coefficient_and_factors_are_exact(seed):
    rng = np.random.default_rng(seed)
    n, J = int(rng.integers(3, 25)), int(rng.integers(2, 6))
    truth = rng.normal(10, 3, n)
    rows = np.round(
        truth[:, None] + rng.normal(rng.normal(0, 1, J), rng.uniform(0.5, 2, J), (n, J)), 2
    )
    res = kl.overall_ccc(rows, layout="units x raters")
    rho, S, pairs, den = exact_occc(rows.tolist())
    assert res.estimate == pytest.approx(float(rho), rel=1e-13)
    cross = sum(math.sqrt(S[j][j] * S[k][k]) for j, k in pairs)
    assert res.precision == pytest.approx(float(sum(S[j][k] for j, k in pairs)) / cross, rel=1e-12)
    assert res.accuracy == pytest.approx(2 * cross / float(den), rel=1e-12)
    assert res.estimate == pytest.approx(res.precision * res.accuracy, rel=1e-12)
    assert (res.n_units, res.n_raters) == (n, J)


@pytest.mark.parametrize("seed", range(6))
def test_two_methods_are_lins_ccc(seed):
    rng = np.random.default_rng(50 + seed)
    n = int(rng.integers(4, 40))
    x = rng.normal(0, 1, n)
    y = 0.8 * x + rng.normal(0.2, 0.6, n)
    level = (0.9, 0.95, 0.99)[seed % 3]
    occ = kl.overall_ccc(np.column_stack([x, y]), layout="units x raters", confidence_level=level)
    lin = kl.lins_ccc(x, y, confidence_level=level)
    assert occ.estimate == pytest.approx(lin.estimate, rel=1e-13)
    assert occ.confidence_interval == pytest.approx(tuple(lin.confidence_interval), rel=1e-12)
    assert occ.accuracy == pytest.approx(lin.accuracy, rel=1e-12)
    assert occ.precision == pytest.approx(lin.pearson, rel=1e-12)


def _occc(mu, S):
    J = len(mu)
    num = sum(2 * S[j, k] for j in range(J) for k in range(j + 1, J))
    den = sum(S[j, j] + S[k, k] + (mu[j] - mu[k]) ** 2 for j in range(J) for k in range(j + 1, J))
    return num / den


@pytest.mark.parametrize("seed", range(6))
def test_interval_is_the_delta_method_on_fisher_z(seed):
    """Finite differences of the coefficient in the means and the covariances, with
    Var(mean) = S/n and Cov(s_ab, s_cd) = (s_ac s_bd + s_ad s_bc)/n, n - 2 for n as Lin."""
    rng = np.random.default_rng(80 + seed)
    n, J = int(rng.integers(6, 40)), int(rng.integers(3, 6))
    X = rng.normal(0, 1, (n, 1)) + rng.normal(rng.normal(0, 0.5, J), 0.7, (n, J))
    mu, S = X.mean(axis=0), np.cov(X.T, ddof=0)
    h = 1e-6
    g_mu = np.array([(_occc(mu + h * e, S) - _occc(mu - h * e, S)) / (2 * h) for e in np.eye(J)])
    params = [(a, b) for a in range(J) for b in range(a, J)]
    g_s = []
    for a, b in params:
        E = np.zeros((J, J))
        E[a, b] = E[b, a] = h
        g_s.append((_occc(mu, S + E) - _occc(mu, S - E)) / (2 * h))
    cov = np.array([[S[a, c] * S[b, d] + S[a, d] * S[b, c] for c, d in params] for a, b in params])
    var = (g_mu @ S @ g_mu + np.array(g_s) @ cov @ np.array(g_s)) / (n - 2)
    rho = _occc(mu, S)
    half = stats.norm.ppf(0.975) * math.sqrt(var) / (1 - rho**2)
    want = (math.tanh(math.atanh(rho) - half), math.tanh(math.atanh(rho) + half))
    res = kl.overall_ccc(X, layout="units x raters")
    assert res.standard_error == pytest.approx(math.sqrt(var), rel=1e-6)
    assert res.confidence_interval == pytest.approx(want, rel=1e-6)


def test_undefined_cases():
    same = kl.overall_ccc([[4, 4, 4], [4, 4, 4], [4, 4, 4]], layout="units x raters")
    assert same.estimate is None and same.confidence_interval == (None, None)
    perfect = kl.overall_ccc([[1, 1, 1], [2, 2, 2], [5, 5, 5]], layout="units x raters")
    assert perfect.estimate == 1.0 and perfect.confidence_interval == (None, None)
    # a constant method beside one other (as kl.lins_ccc): rho_o = 0, no interval
    constant = kl.overall_ccc([[3, 1], [3, 2], [3, 5]], layout="units x raters")
    assert constant.estimate == 0.0 and constant.confidence_interval == (None, None)


@pytest.mark.parametrize(
    ("ratings", "error", "match"),
    [
        ([[1, 2], [np.nan, 3], [2, 2]], ValueError, "missing rating"),
        ([[1, 2]], ValueError, "at least 2 units and 2 raters"),
        ([["a", "b"], ["c", "d"]], TypeError, "numeric ratings"),
    ],
)
def test_bad_input(ratings, error, match):
    with pytest.raises(error, match=match):
        kl.overall_ccc(ratings, layout="units x raters")
    with pytest.raises(ValueError, match="confidence_level must be strictly between"):
        kl.overall_ccc([[1, 2], [2, 3], [4, 4]], layout="units x raters", confidence_level=2)


def test_epir_occc_in_the_conformance_table_is_the_n_minus_1_moments():
    """The table marks epiR's epi.occc a convention (sd and cov with n - 1); its diagnosis
    reproduces every such value."""
    import json
    import sys

    from ratings_data import ROOT

    sys.path.insert(0, str(ROOT / "conformance" / "scripts"))
    import diagnoses

    body = json.loads((ROOT / "conformance" / "cases" / "overall_ccc.json").read_text())
    seen = 0
    for case in body["cases"]:
        for ref in case["references"]:
            for q, d in ref.get("disputed", {}).items():
                assert d["verdict"] == "epiR-occc-divisor"
                assert diagnoses.epir_occc(case)[q] == pytest.approx(ref["values"][q], rel=1e-9)
                seen += 1
    assert seen >= 20
