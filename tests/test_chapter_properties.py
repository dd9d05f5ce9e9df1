"""Properties that chapters state for every table, checked here on many random tables.

The chapters check each identity on the tables they show; the sweeps over thousands of random
tables used to run on the page too, in the reader's way. They live here now, with exact
arithmetic (``fractions``) as the oracle instead of a comparison of kappalib with itself.

- Chapter 4 (Byrt, Bishop and Carlin 1993): for a 2 x 2 table,
  kappa = (PABAK - PI^2 + BI^2) / (1 - PI^2 + BI^2).
- Chapter 5 (Proposition prop-05-unweighted): weighted kappa with W = 1 - I is plain kappa.
"""

from fractions import Fraction

import numpy as np
import pytest

import kappalib as kl


def _exact_kappa(C):
    """Cohen's kappa of one integer table in exact arithmetic; None when p_e = 1."""
    N = int(C.sum())
    r, c = C.sum(axis=1), C.sum(axis=0)
    p_o = Fraction(int(np.trace(C)), N)
    p_e = Fraction(sum(int(ri) * int(ci) for ri, ci in zip(r, c, strict=True)), N * N)
    return None if p_e == 1 else (p_o - p_e) / (1 - p_e)


def _exact_weighted_kappa(C, W):
    """1 - sum(W C) / sum(W E) with E = r c^T / N, exactly; None when sum(W E) = 0."""
    K, N = C.shape[0], int(C.sum())
    r, c = C.sum(axis=1), C.sum(axis=0)
    observed = sum(int(W[i][j]) * int(C[i, j]) for i in range(K) for j in range(K))
    expected = sum(
        Fraction(int(W[i][j]) * int(r[i]) * int(c[j]), N) for i in range(K) for j in range(K)
    )
    return None if expected == 0 else 1 - observed / expected


def _as_float(values):
    return np.array([np.nan if v is None else float(v) for v in values])


def test_weighted_kappa_with_one_minus_identity_is_plain_kappa():
    """Chapter 5: kl.kappa(C, weighting=1 - I) = kl.kappa(C) = the exact kappa, 1,000 tables."""
    rng = np.random.default_rng(5)
    stack = rng.integers(0, 20, size=(1000, 4, 4))
    W = [[0 if i == j else 1 for j in range(4)] for i in range(4)]
    exact = [_exact_kappa(C) for C in stack]
    # the proposition itself, in exact arithmetic: the two formulas are one number
    assert exact == [_exact_weighted_kappa(C, W) for C in stack]
    oracle = _as_float(exact)
    plain = kl.kappa(stack)
    weighted = kl.kappa(stack, weighting=1 - np.eye(4))
    assert plain.shape == weighted.shape == (1000,)
    np.testing.assert_allclose(plain, oracle, rtol=0, atol=1e-12)
    np.testing.assert_allclose(weighted, oracle, rtol=0, atol=1e-12)


def test_byrt_identity_on_random_two_by_two_tables():
    """Chapter 4: PABAK, PI and BI recover kappa on 10,000 random 2 x 2 tables."""
    rng = np.random.default_rng(4)
    tables = rng.integers(0, 50, size=(10_000, 2, 2)) + 1
    N = tables.sum(axis=(1, 2))
    exact_kappa = _as_float(_exact_kappa(C) for C in tables)
    exact_pabak = _as_float(2 * Fraction(int(np.trace(C)), int(C.sum())) - 1 for C in tables)
    pairs = list(zip(tables, N, strict=True))
    exact_pi = _as_float(Fraction(int(C[0, 0] - C[1, 1]), int(n)) for C, n in pairs)
    exact_bi = _as_float(Fraction(int(C[0, 1] - C[1, 0]), int(n)) for C, n in pairs)
    pabak, pi, bi = kl.pabak(tables), kl.prevalence_index(tables), kl.bias_index(tables)
    np.testing.assert_allclose(pabak, exact_pabak, rtol=0, atol=1e-12)
    np.testing.assert_allclose(pi, exact_pi, rtol=0, atol=1e-12)
    np.testing.assert_allclose(bi, exact_bi, rtol=0, atol=1e-12)
    byrt = (pabak - pi**2 + bi**2) / (1 - pi**2 + bi**2)
    np.testing.assert_allclose(byrt, exact_kappa, rtol=0, atol=1e-12)
    np.testing.assert_allclose(kl.kappa(tables), exact_kappa, rtol=0, atol=1e-12)


@pytest.mark.parametrize("C", [np.array([[40, 9], [6, 45]]), np.array([[80, 10], [5, 5]])])
def test_byrt_identity_by_hand(C):
    """Two tables worked by hand: the exact oracle itself, against Byrt's closed form."""
    n = Fraction(int(C.sum()))
    p_o = (C[0, 0] + C[1, 1]) / n
    pi, bi = (C[0, 0] - C[1, 1]) / n, (C[0, 1] - C[1, 0]) / n
    pabak = 2 * p_o - 1
    assert _exact_kappa(C) == (pabak - pi**2 + bi**2) / (1 - pi**2 + bi**2)


def test_kappa_at_most_mcc_on_two_by_two_tables_equal_iff_positive_margins_match():
    """Chapter 12 (erratum 8 of issue 23): for a 2 x 2 table with ad > bc, kappa <= MCC, with
    equality exactly when the two positive margins match (a + b = a + c), by AM-GM on kappa's
    denominator (a + b)(b + d) + (a + c)(c + d) >= 2 sqrt(r1 r2 c1 c2).

    Exact arithmetic: kappa^2 and MCC^2 are both rational, so the comparison is exact; 3,000
    random tables, a third of them built with b = c (matched positive margins).
    """
    rng = np.random.default_rng(23)
    tables = rng.integers(0, 40, size=(3000, 2, 2))
    tables[::3, 1, 0] = tables[::3, 0, 1]  # b = c: the positive margins match
    checked = matched = 0
    for C in tables:
        a, b, c, d = (int(x) for x in C.ravel())
        r1, r2, c1, c2 = a + b, c + d, a + c, b + d
        if 0 in (r1, r2, c1, c2) or a * d == b * c:
            continue
        if a * d < b * c:  # both negative: |kappa| <= |MCC|, the same inequality
            kappa_neg = _exact_kappa(C)
            assert kappa_neg < 0 and kappa_neg**2 <= Fraction(
                (a * d - b * c) ** 2, r1 * r2 * c1 * c2
            )
            continue
        kappa = _exact_kappa(C)
        mcc_squared = Fraction((a * d - b * c) ** 2, r1 * r2 * c1 * c2)
        assert kappa == Fraction(2 * (a * d - b * c), r1 * c2 + c1 * r2)
        assert kappa > 0 and kappa**2 <= mcc_squared
        assert (kappa**2 == mcc_squared) == (r1 == c1)
        assert abs(kl.mcc(C) ** 2 - float(mcc_squared)) < 1e-12 and kl.mcc(C) > 0
        assert float(kappa) <= kl.mcc(C) + 1e-12
        assert abs(kl.kappa(C) - float(kappa)) < 1e-12
        checked += 1
        matched += r1 == c1
    assert checked > 1000 and matched > 300  # both sides of "exactly when" are exercised
