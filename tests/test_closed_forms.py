"""The closed forms of Delgado & Tibau (2019) against kl.kappa and kl.mcc.

Every closed form in ``kappalib.closed_forms`` is compared with the library's definitions on
parameter grids (to 1e-9); every limit the paper states is checked at extreme parameter
values; every minimiser is compared with a dense numerical minimisation done with one
batched ``kl.kappa`` call.  The paper's case tables (Proposition 3, Corollaries 4-7) are
checked on grids as the inequality chains they state.
"""

import numpy as np
import pytest

import kappalib as kl
from kappalib import closed_forms as cf
from kappalib import families

TOL = {"rtol": 1e-9, "atol": 1e-9}

# Positive parameter values, from tiny to large, and a few round ones.
VALUES = np.unique(np.r_[np.geomspace(1e-3, 1e3, 13), 0.2, 0.5, 1.0, 2.0, 5.0])


def grid3():
    return np.meshgrid(VALUES, VALUES, VALUES, indexing="ij")


# Limits are checked along a sequence of extreme values (one batched call each): the
# distance to the stated limit must shrink at every step and end below ``tol``.  (Plugging
# in 1e12 directly would test float64 cancellation in S^2 - sum r_k c_k, not the paper.)
TO_INF = 10.0 ** np.arange(2, 9)
TO_ZERO = 10.0 ** -np.arange(2, 13)


def tends_to(values, limit, tol=1e-5):
    err = np.abs(np.asarray(values, dtype=float) - limit)
    assert np.isfinite(err).all()
    assert (np.diff(err) < 0).all() or (err < 1e-12).all(), err
    assert err[-1] < tol, err


# --------------------------------------------------------------------------- C0


def test_C0_closed_forms_match_kappalib():
    a, b, d = grid3()
    C = families.C0(a, b, d)
    np.testing.assert_allclose(cf.mcc_C0(a, b, d), kl.mcc(C), **TOL)
    np.testing.assert_allclose(cf.kappa_C0(a, b, d), kl.kappa(C), **TOL)


def test_C0_undefined_mcc_where_kappalib_is_undefined():
    # a = 0: nothing is predicted positive; d = 0: no actual negative.  MCC is 0/0.
    a = np.array([0.0, 1.0, 0.0])
    d = np.array([1.0, 0.0, 0.0])
    C = families.C0(a, 1.0, d)
    assert np.isnan(cf.mcc_C0(a, 1.0, d)).all()
    assert np.isnan(kl.mcc(C)).all()
    # kappa stays defined (0) when a = 0 or d = 0 but not both rows empty
    np.testing.assert_allclose(cf.kappa_C0(a, 1.0, d), kl.kappa(C), **TOL)


def test_proposition_2_functional_relation():
    a, b, d = grid3()
    C = families.C0(a, b, d)
    np.testing.assert_allclose(cf.kappa_from_mcc_C0(kl.mcc(C)), kl.kappa(C), **TOL)


def test_proposition_2_item_2_chain():
    # 0 < ad/((a+b)(b+d)) < K(C0) < MCC(C0) < 1 for a, b, d > 0; the first term is MCC^2.
    a, b, d = grid3()
    C = families.C0(a, b, d)
    k, m = kl.kappa(C), kl.mcc(C)
    low = a * d / ((a + b) * (b + d))
    np.testing.assert_allclose(low, m**2, **TOL)
    assert (low > 0).all()
    assert (low < k).all()
    assert (k < m).all()
    assert (m < 1).all()


def test_proposition_2_item_3_max_gap_against_dense_search():
    # The gap MCC - K on C0 (a = d = 1, b swept), maximised on a fine grid of b.
    b = np.linspace(1e-3, 30, 30_001)
    C = families.C0(1.0, b, 1.0)
    i = int(np.argmax(kl.mcc(C) - kl.kappa(C)))
    b = np.linspace(b[i - 1], b[i + 1], 100_001)  # refine around the coarse maximum
    C = families.C0(1.0, b, 1.0)
    gap = kl.mcc(C) - kl.kappa(C)
    i = int(np.argmax(gap))
    m_star, gap_star = cf.max_gap_C0()
    assert abs(kl.mcc(C[i]) - m_star) < 1e-5
    assert abs(gap[i] - gap_star) < 1e-9
    # the other root of (1 + m^2)^2 = 4m is m = 1 (a minimum of the gap, which is 0 there)
    assert np.isclose((1 + m_star**2) ** 2, 4 * m_star, rtol=0, atol=1e-12)
    # the paper rounds to "MCC ~ 0.3" and "~ 0.13"
    assert round(m_star, 1) == 0.3 and round(gap_star, 2) == 0.13
    assert round(m_star, 3) == 0.296 and round(gap_star, 3) == 0.135


@pytest.mark.parametrize("d", [0.5, 1.0, 3.0])
@pytest.mark.parametrize("a", [0.5, 1.0, 3.0])
def test_C0_limits_in_b(a, d):
    # fixed a, d: b -> +inf gives MCC = K = 0; b -> 0 gives MCC = K = 1
    big, tiny = families.C0(a, TO_INF, d), families.C0(a, TO_ZERO, d)
    tends_to(kl.mcc(big), 0.0)
    tends_to(kl.kappa(big), 0.0)
    tends_to(kl.mcc(tiny), 1.0, tol=1e-9)
    tends_to(kl.kappa(tiny), 1.0, tol=1e-9)


@pytest.mark.parametrize("d", [0.5, 1.0, 3.0])
@pytest.mark.parametrize("b", [0.5, 1.0, 3.0])
def test_C0_limits_in_a(b, d):
    # fixed b, d: a -> +inf gives 0 < K -> 2d/(2d + b) < MCC -> sqrt(d/(b + d)) < 1
    big = families.C0(TO_INF, b, d)
    lim_k, lim_m = 2 * d / (2 * d + b), np.sqrt(d / (b + d))
    tends_to(kl.kappa(big), lim_k)
    tends_to(kl.mcc(big), lim_m)
    assert 0 < lim_k < lim_m < 1
    # a -> 0: MCC = K = 0 (complete misclassification of the positive class)
    tiny = families.C0(TO_ZERO, b, d)
    tends_to(kl.kappa(tiny), 0.0)
    tends_to(kl.mcc(tiny), 0.0)
    # "as b -> 0, both limits tend to 1"
    bs = TO_ZERO
    tends_to(2 * d / (2 * d + bs), 1.0, tol=1e-9)
    tends_to(np.sqrt(d / (bs + d)), 1.0, tol=1e-9)


# --------------------------------------------------------------------------- C1


def test_C1_closed_forms_match_kappalib():
    a, b, d = grid3()
    C = families.C1(a, b, d)
    np.testing.assert_allclose(cf.mcc_C1(a, b, d), kl.mcc(C), **TOL)
    np.testing.assert_allclose(cf.kappa_C1(a, b, d), kl.kappa(C), **TOL)


def test_C1_with_zeros_matches_kappalib_including_undefined():
    vals = np.array([0.0, 0.5, 1.0, 4.0])
    a, b, d = np.meshgrid(vals, vals, vals, indexing="ij")
    C = families.C1(a, b, d)
    np.testing.assert_allclose(cf.mcc_C1(a, b, d), kl.mcc(C), equal_nan=True, **TOL)
    np.testing.assert_allclose(cf.kappa_C1(a, b, d), kl.kappa(C), **TOL)


# The simplified expressions the paper prints for each scenario (rebuilt from the PDF text).
PAPER_SCENARIOS = {
    "d=a": (
        lambda a, b: (a * a - b) / ((a + 1) * (a + b)),
        lambda a, b: 2 * (a * a - b) / ((a + 1) ** 2 + (a + b) ** 2),
    ),
    "d=0": (
        lambda a, b: -np.sqrt(b / ((a + 1) * (a + b))),
        lambda a, b: -2 * b / ((a + 1) + b * (a + b)),
    ),
    "d=1": (
        lambda a, b: (a - b) / np.sqrt(2 * (a + 1) * (b + 1) * (a + b)),
        lambda a, b: 2 * (a - b) / (2 * (a + 1) + (b + 1) * (a + b)),
    ),
}


def scenario_d(a, scenario):
    return {"d=a": a, "d=0": np.zeros_like(a), "d=1": np.ones_like(a)}[scenario]


@pytest.mark.parametrize("scenario", ["d=a", "d=0", "d=1"])
def test_paper_scenario_expressions(scenario):
    a, b = np.meshgrid(VALUES, VALUES, indexing="ij")
    C = families.C1(a, b, scenario_d(a, scenario))
    mcc_expr, kappa_expr = PAPER_SCENARIOS[scenario]
    np.testing.assert_allclose(mcc_expr(a, b), kl.mcc(C), **TOL)
    np.testing.assert_allclose(kappa_expr(a, b), kl.kappa(C), **TOL)


def test_proposition_3_all_misclassified():
    b = np.r_[VALUES, 1.0]
    C = families.C1(0.0, b, 0.0)
    np.testing.assert_allclose(kl.mcc(C), -1.0, **TOL)
    np.testing.assert_allclose(kl.kappa(C), -2 * b / (1 + b * b), **TOL)
    off = b != 1
    assert (kl.kappa(C)[off] > -1).all() and (kl.kappa(C)[off] < 0).all()
    assert kl.kappa(families.C1(0, 1, 0)) == pytest.approx(-1.0, abs=1e-12)


def test_proposition_3_case_table():
    """Proposition 3's bounds: the paper's alpha and beta, clipped at -1 where it says so."""
    vals = np.r_[0.0, VALUES]
    a, b, d = (x.ravel() for x in np.meshgrid(vals, VALUES, vals, indexing="ij"))
    keep = ~((a == 0) & (d == 0))  # "Otherwise": the a = d = 0 case is handled above
    a, b, d = a[keep], b[keep], d[keep]
    C = families.C1(a, b, d)
    k, m = kl.kappa(C), kl.mcc(C)
    det = a * d - b
    alpha = det / ((a + b) * (d + b))  # the paper's (ad - b)/((a + b)(d + b))
    beta = det / ((a + 1) * (d + 1))  # the paper's (ad - b)/((a + 1)(d + 1))
    eps = 1e-12

    zero = np.isclose(det, 0, atol=1e-12)
    assert np.allclose(k[zero], 0, atol=1e-9) and np.allclose(m[zero], 0, atol=1e-9)

    pos, neg = (det > 0) & ~zero, (det < 0) & ~zero
    one = b == 1
    # ad > b: b > 1 alpha < K < MCC < beta; b = 1 K = MCC = beta; b < 1 beta < K < MCC < alpha
    s = pos & (b > 1)
    assert (0 < alpha[s]).all() and (alpha[s] < k[s] - eps).all() and (k[s] < m[s]).all()
    assert (m[s] < beta[s]).all() and (beta[s] < 1).all()
    s = pos & one
    assert np.allclose(k[s], m[s], **TOL) and np.allclose(m[s], beta[s], **TOL)
    s = pos & (b < 1)
    assert (0 < beta[s]).all() and (beta[s] < k[s]).all() and (k[s] < m[s]).all()
    assert (m[s] < alpha[s]).all() and (alpha[s] < 1).all()
    # ad < b: b > 1 max(-1, beta) < MCC < K < alpha < 0; b = 1 -1 < MCC = K = beta < 0;
    #         b < 1 max(-1, alpha) < MCC < K < beta < 0
    s = neg & (b > 1)
    assert (np.maximum(-1, beta[s]) < m[s]).all() and (m[s] < k[s]).all()
    assert (k[s] < alpha[s]).all() and (alpha[s] < 0).all()
    s = neg & one
    assert np.allclose(k[s], m[s], **TOL) and np.allclose(m[s], beta[s], **TOL)
    assert (-1 < m[s]).all() and (m[s] < 0).all()
    s = neg & (b < 1)
    assert (np.maximum(-1, alpha[s]) < m[s]).all() and (m[s] < k[s]).all()
    assert (k[s] < beta[s]).all() and (beta[s] < 0).all()


def test_corollary_4_thresholds_b1_b2():
    # Corollary 4 (d = a), a^2 < b < 1: the lower bound alpha = (a^2 - b)/(a + b)^2 is -1
    # exactly at b1, b2 = ((1 - 2a) -/+ sqrt((1 - 2a)^2 - 8a^2)) / 2, real when
    # 0 < a <= (sqrt(2) - 1)/2, and below -1 between them.
    a_max = (np.sqrt(2) - 1) / 2
    for a in np.linspace(0.01, a_max, 12):
        disc = max((1 - 2 * a) ** 2 - 8 * a * a, 0.0)
        b1, b2 = ((1 - 2 * a) - np.sqrt(disc)) / 2, ((1 - 2 * a) + np.sqrt(disc)) / 2
        assert 0 < b1 <= b2 < 1
        for bb in (b1, b2):
            alpha, _ = cf.binary_alpha_beta(families.C1(a, bb, a))
            assert alpha == pytest.approx(-1.0, abs=1e-9)
        if b2 - b1 > 1e-6:
            alpha, _ = cf.binary_alpha_beta(families.C1(a, (b1 + b2) / 2, a))
            assert alpha < -1


@pytest.mark.parametrize("a", [0.2, 1.0, 3.0])
def test_corollary_thresholds_where_beta_is_minus_one(a):
    # Corollary 4: beta = (a^2 - b)/(a + 1)^2 = -1 at b = (a + 1)^2 + a^2;
    # Corollary 5: beta = -b/(a + 1) = -1 at b = a + 1, alpha = -1/(a + b) = -1 at a + b = 1;
    # Corollary 6: beta = (a - b)/(2(a + 1)) = -1 at b = 3a + 2.
    _, beta = cf.binary_alpha_beta(families.C1(a, (a + 1) ** 2 + a * a, a))
    assert beta == pytest.approx(-1.0, abs=1e-12)
    _, beta = cf.binary_alpha_beta(families.C1(a, a + 1, 0))
    assert beta == pytest.approx(-1.0, abs=1e-12)
    _, beta = cf.binary_alpha_beta(families.C1(a, 3 * a + 2, 1))
    assert beta == pytest.approx(-1.0, abs=1e-12)
    if a < 1:
        alpha, _ = cf.binary_alpha_beta(families.C1(a, 1 - a, 0))
        assert alpha == pytest.approx(-1.0, abs=1e-12)


# Limits stated after Corollaries 4, 5 and 6: (b -> inf: MCC, K), (b -> 0: MCC, K).
def scenario_limits(a, scenario):
    if scenario == "d=a":
        return (-1 / (a + 1), 0.0), (a / (a + 1), 2 * a * a / ((a + 1) ** 2 + a * a))
    if scenario == "d=0":
        return (-1 / np.sqrt(a + 1), 0.0), (0.0, 0.0)
    return (-1 / np.sqrt(2 * (a + 1)), 0.0), (np.sqrt(a / (2 * (a + 1))), 2 * a / (3 * a + 2))


@pytest.mark.parametrize("a", [0.2, 1.0, 5.0])
@pytest.mark.parametrize("scenario", ["d=a", "d=0", "d=1"])
def test_corollaries_4_to_6_limits(scenario, a):
    (m_inf, k_inf), (m_0, k_0) = scenario_limits(a, scenario)
    big = families.C1(a, TO_INF, scenario_d(np.full_like(TO_INF, a), scenario))
    tiny = families.C1(a, TO_ZERO, scenario_d(np.full_like(TO_ZERO, a), scenario))
    tends_to(kl.mcc(big), m_inf)
    tends_to(kl.kappa(big), k_inf)
    tends_to(kl.mcc(tiny), m_0)
    tends_to(kl.kappa(tiny), k_0)
    assert -1 < m_inf < k_inf
    if scenario == "d=a":  # 0 < a^2/(a+1)^2 < lim K < lim MCC < 1
        assert 0 < a * a / (a + 1) ** 2 < k_0 < m_0 < 1
    if scenario == "d=1":  # 0 < a/(2(a+1)) < lim K < lim MCC < 1
        assert 0 < a / (2 * (a + 1)) < k_0 < m_0 < 1


@pytest.mark.parametrize("a", [0.05, 0.2, 1.0, 3.0])
@pytest.mark.parametrize("scenario", ["d=a", "d=0", "d=1"])
def test_argmin_kappa_C1_against_dense_minimisation(scenario, a):
    b = np.linspace(0, 60, 1_200_001)  # step 5e-5
    C = families.C1(a, b, scenario_d(np.full_like(b, a), scenario))
    k, m = kl.kappa(C), kl.mcc(C)
    i = int(np.nanargmin(k))
    b_star = cf.argmin_kappa_C1(a, scenario)
    assert abs(b[i] - b_star) <= 5e-5
    # kappa falls before b*, rises after; MCC falls all the way (the paper's point)
    assert (np.diff(k[: i + 1]) < 0).all() and (np.diff(k[i:]) > 0).all()
    assert (np.diff(m[np.isfinite(m)]) < 0).all()


def test_argmin_kappa_C1_is_vectorised_and_checks_input():
    a = np.array([0.2, 1.0])
    assert cf.argmin_kappa_C1(a, "d=1").shape == (2,)
    with pytest.raises(ValueError, match="scenario"):
        cf.argmin_kappa_C1(1.0, "d=2")
    with pytest.raises(ValueError, match="a must be finite and non-negative, got -1"):
        cf.argmin_kappa_C1(-1, "d=a")


def test_Z_A_with_two_classes_is_C1_with_a_equal_one():
    # "Note that when N = 2, this family is a particular case of iii) with a = 1 and b = A",
    # and Remark 1: "Case b > 1, with a = 1, corresponds to matrix Z_A".
    A = np.linspace(0, 20, 41)
    np.testing.assert_array_equal(families.ZA(A, 2), families.C1(1.0, A, 1.0))
    assert cf.argmin_kappa_C1(1.0, "d=1") == pytest.approx(cf.argmin_kappa_ZA(2), abs=1e-12)
    assert cf.argmin_kappa_C1(1.0, "d=a") == pytest.approx(cf.argmin_kappa_ZA(2), abs=1e-12)


# --------------------------------------------------------------------------- binary alpha, beta


def test_binary_alpha_beta_means():
    rng = np.random.default_rng(7)
    C = rng.integers(0, 50, size=(20000, 2, 2)).astype(float)
    alpha, beta = cf.binary_alpha_beta(C)
    k, m = kl.kappa(C), kl.mcc(C)
    det = C[:, 0, 0] * C[:, 1, 1] - C[:, 0, 1] * C[:, 1, 0]
    ok = np.isfinite(alpha) & np.isfinite(beta) & (det != 0)
    harmonic = 2 / (1 / alpha[ok] + 1 / beta[ok])
    geometric = np.sign(det[ok]) * np.sqrt(alpha[ok] * beta[ok])
    np.testing.assert_allclose(harmonic, k[ok], **TOL)
    np.testing.assert_allclose(geometric, m[ok], **TOL)
    # transposing swaps alpha and beta
    a_t, b_t = cf.binary_alpha_beta(np.swapaxes(C, -1, -2))
    np.testing.assert_array_equal(a_t[ok], beta[ok])
    np.testing.assert_array_equal(b_t[ok], alpha[ok])


def test_equation_7():
    rng = np.random.default_rng(8)
    C = rng.integers(0, 30, size=(20000, 2, 2)).astype(float)
    alpha, beta = cf.binary_alpha_beta(C)
    k, m = kl.kappa(C), kl.mcc(C)
    ok = np.isfinite(alpha) & np.isfinite(beta)
    alpha, beta, k, m = alpha[ok], beta[ok], k[ok], m[ok]
    lo, hi = np.minimum(alpha, beta) - 1e-12, np.maximum(alpha, beta) + 1e-12
    assert ((lo <= k) & (k <= hi) & (lo <= m) & (m <= hi)).all()
    det = alpha  # same sign as ad - bc
    assert ((k > 0) == (det > 0)).all() and ((m > 0) == (det > 0)).all()
    assert ((k < 0) == (det < 0)).all() and ((m < 0) == (det < 0)).all()
    assert (np.abs(k) <= np.abs(m) + 1e-12).all()
    assert (k[det == 0] == 0).all() and (m[det == 0] == 0).all()


def test_binary_alpha_beta_input():
    with pytest.raises(ValueError, match="shape"):
        cf.binary_alpha_beta(np.ones((3, 3)))
    with pytest.raises(ValueError, match="non-negative"):
        cf.binary_alpha_beta([[1, -2], [3, 4]])


# --------------------------------------------------------------------------- Z_A


@pytest.mark.parametrize("N", [2, 3, 4, 5, 10])
def test_Z_A_closed_forms_match_kappalib(N):
    A = np.r_[0.0, VALUES, 1e5]
    Z = families.ZA(A, N)
    np.testing.assert_allclose(cf.mcc_ZA(A, N), kl.mcc(Z), **TOL)
    np.testing.assert_allclose(cf.kappa_ZA(A, N), kl.kappa(Z), **TOL)


def test_corollary_7_expressions():
    A = np.r_[0.0, VALUES]
    Z = families.ZA(A, 2)
    np.testing.assert_allclose((1 - A) / (2 * (1 + A)), kl.mcc(Z), **TOL)
    np.testing.assert_allclose(2 * (1 - A) / (4 + (1 + A) ** 2), kl.kappa(Z), **TOL)


def test_corollary_7_case_table_and_limits():
    A = np.r_[VALUES, 4.99, 5.0, 7.0, 100.0]
    k, m = kl.kappa(families.ZA(A, 2)), kl.mcc(families.ZA(A, 2))
    low, high = (1 - A) / 4, (1 - A) / (1 + A) ** 2
    s = A < 1
    assert (0 < low[s]).all() and (low[s] < k[s]).all() and (k[s] < m[s]).all()
    assert (m[s] < high[s]).all() and (high[s] < 1).all()
    s = (A > 1) & (A < 5)
    assert (-1 < low[s]).all() and (low[s] < m[s]).all() and (m[s] < k[s]).all()
    assert (k[s] < high[s]).all() and (high[s] < 0).all()
    s = A >= 5
    assert (-1 < m[s]).all() and (m[s] < k[s]).all() and (k[s] < high[s]).all()
    assert (high[s] < 0).all()
    assert kl.kappa(families.ZA(1, 2)) == 0 and kl.mcc(families.ZA(1, 2)) == 0
    # limits: A -> inf: -1 < MCC -> -1/2 < K -> 0; A -> 0: 0 < 1/4 < K -> 2/5 < MCC -> 1/2 < 1
    big = families.ZA(TO_INF, 2)
    tends_to(kl.mcc(big), -0.5)
    tends_to(kl.kappa(big), 0.0)
    zero = families.ZA(0.0, 2)
    assert kl.kappa(zero) == pytest.approx(0.4, abs=1e-12)
    assert kl.mcc(zero) == pytest.approx(0.5, abs=1e-12)


@pytest.mark.parametrize("N", [2, 3, 5, 10])
def test_proposition_8_identity_and_signs(N):
    A = np.r_[0.0, VALUES, 1e4]
    A = A[A != 1]
    Z = families.ZA(A, N)
    k, m = kl.kappa(Z), kl.mcc(Z)
    # item 2: 1/MCC(A) - 1/K(A) = (A - 1)/N  (not (1 - A)/N: checked here with kl)
    np.testing.assert_allclose(1 / m - 1 / k, (A - 1) / N, rtol=1e-9, atol=1e-7)
    s = A < 1
    assert (0 < k[s]).all() and (k[s] < m[s]).all() and (m[s] < 1).all()
    s = A > 1
    assert (-1 < m[s]).all() and (m[s] < k[s]).all() and (k[s] < 0).all()
    # item 1
    assert kl.mcc(families.ZA(1.0, N)) == 0 and kl.kappa(families.ZA(1.0, N)) == 0


@pytest.mark.parametrize("N", [2, 3, 5, 10])
def test_proposition_8_limits(N):
    big, zero = families.ZA(TO_INF, N), families.ZA(0.0, N)
    tends_to(kl.mcc(big), -1 / (2 * (N - 1)))
    tends_to(kl.kappa(big), 0.0)
    tends_to(kl.mcc(families.ZA(TO_ZERO, N)), 1 / ((N - 1) * (N * N - 2)), tol=1e-9)
    lim_k = N / (1 + N * (N - 1) * (N * N - 2))
    lim_m = 1 / ((N - 1) * (N * N - 2))
    assert kl.kappa(zero) == pytest.approx(lim_k, abs=1e-12)
    assert kl.mcc(zero) == pytest.approx(lim_m, abs=1e-12)
    assert 0 < lim_k < lim_m < 1
    assert -1 < -1 / (2 * (N - 1)) < 0


@pytest.mark.parametrize("N", [2, 3, 5, 10])
def test_argmin_kappa_ZA_against_dense_minimisation(N):
    A_star = cf.argmin_kappa_ZA(N)
    # a coarse sweep over [0, 4 A*], then a fine one around its minimum (N x N stacks are
    # big, so two sweeps of 20,001 matrices instead of one of millions)
    A = np.linspace(0, 4 * A_star, 20_001)
    Z = families.ZA(A, N)
    k, m = kl.kappa(Z), kl.mcc(Z)
    i = int(np.argmin(k))
    # item 5: MCC decreases monotonically; kappa falls to A*, then rises
    assert (np.diff(m) < 0).all()
    assert (np.diff(k[: i + 1]) < 0).all() and (np.diff(k[i:]) > 0).all()
    assert k[i] < 0
    fine = np.linspace(A[i - 1], A[i + 1], 20_001)
    j = int(np.argmin(kl.kappa(families.ZA(fine, N))))
    assert abs(fine[j] - A_star) <= fine[1] - fine[0]


@pytest.mark.parametrize("N", [2, 3, 5, 10])
def test_proposition_8_item_5_kappa_is_not_convex(N):
    # The paper calls K(A) "a convex function of A".  It is unimodal, but for large A it
    # behaves like -N/A, which is concave: the second difference turns negative.
    A = np.linspace(0, 100 * cf.argmin_kappa_ZA(N), 100_001)
    k = cf.kappa_ZA(A, N)
    second = np.diff(k, 2)
    assert (second[:10] > 0).all()  # convex near A = 0 ...
    assert (second[-10:] < 0).all()  # ... concave far out


@pytest.mark.parametrize("N", [2, 3, 5, 10])
def test_proposition_8_item_6_divergence_grows(N):
    A = np.linspace(1, 1e4, 100_001)
    Z = families.ZA(A, N)
    gap = np.abs(kl.mcc(Z) - kl.kappa(Z))
    assert (np.diff(gap) > 0).all()


def test_Z_A_input_checks():
    with pytest.raises(ValueError, match="n_classes"):
        cf.mcc_ZA(1.0, 1)
    with pytest.raises(ValueError, match="n_classes"):
        cf.kappa_ZA(1.0, 2.0)
    with pytest.raises(ValueError, match="n_classes"):
        cf.argmin_kappa_ZA(True)
    with pytest.raises(ValueError, match="A must be finite and non-negative"):
        cf.kappa_ZA([1.0, -3.0], 3)


# --------------------------------------------------------------------------- conventions


def test_scalar_calls_give_python_floats_and_arrays_keep_shape():
    for f in (cf.mcc_C0, cf.kappa_C0, cf.mcc_C1, cf.kappa_C1):
        assert type(f(1, 2, 3)) is float
        assert f(np.ones((4, 1)), np.ones(3), 1.0).shape == (4, 3)
    assert type(cf.kappa_from_mcc_C0(0.5)) is float
    assert type(cf.mcc_ZA(2, 3)) is float and type(cf.kappa_ZA(2, 3)) is float
    alpha, beta = cf.binary_alpha_beta([[1, 2], [3, 4]])
    assert type(alpha) is float and type(beta) is float
    assert cf.binary_alpha_beta(np.ones((5, 2, 2)))[0].shape == (5,)


@pytest.mark.parametrize(
    ("bad", "text"),
    [(-1.0, "-1.0"), (float("nan"), "nan"), (float("inf"), "inf"), ([1.0, -2.0], "-2.0")],
)
def test_bad_parameters_are_named_and_echoed(bad, text):
    for f in (cf.mcc_C0, cf.kappa_C0, cf.mcc_C1, cf.kappa_C1):
        with pytest.raises(ValueError, match=f"b must be finite and non-negative, got {text}"):
            f(1.0, bad, 1.0)


def test_kappa_from_mcc_C0_rejects_values_outside_unit_interval():
    with pytest.raises(ValueError, match="mcc must lie in"):
        cf.kappa_from_mcc_C0(1.5)
    with pytest.raises(ValueError, match="mcc must be finite and non-negative"):
        cf.kappa_from_mcc_C0(-0.1)
