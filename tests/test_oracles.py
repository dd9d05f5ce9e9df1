"""Independent oracles for the statistics that a mutant could once change unnoticed.

Each expected value comes from an outside package (statsmodels), exact arithmetic
(``fractions``) or margins computed by hand on an asymmetric table, where rows and columns
differ, so that a formula which confuses them gives another number.
"""

from fractions import Fraction

import numpy as np
import pytest
from ratings_data import subjects_by_categories
from statsmodels.stats.inter_rater import fleiss_kappa

import kappalib as kl

# rows (reference) total 6, 9, 5; columns (prediction) total 4, 10, 6; N = 20
ASYM = np.array([[3, 2, 1], [1, 7, 1], [0, 1, 4]])


@pytest.mark.parametrize("seed", range(20))
def test_scotts_pi_is_fleiss_kappa_with_two_raters(seed):
    rng = np.random.default_rng(1200 + seed)
    K = int(rng.integers(2, 6))
    C = rng.integers(0, 15, size=(K, K)) + np.diag(rng.integers(1, 20, size=K))
    expected = fleiss_kappa(subjects_by_categories(C), method="fleiss")
    assert kl.scotts_pi(C) == pytest.approx(expected, abs=1e-12)


def test_scotts_pi_by_hand_on_an_asymmetric_table():
    # pooled shares (6+4)/40, (9+10)/40, (5+6)/40; p_o = 14/20
    p_e = Fraction(10, 40) ** 2 + Fraction(19, 40) ** 2 + Fraction(11, 40) ** 2
    p_o = Fraction(14, 20)
    assert kl.scotts_pi(ASYM) == pytest.approx(float((p_o - p_e) / (1 - p_e)), abs=1e-15)


@pytest.mark.parametrize("K", [3, 4, 5, 7])
def test_pabak_for_more_than_two_classes(K):
    """Brennan & Prediger's kappa with p_e = 1/K: (p_o - 1/K) / (1 - 1/K), exactly."""
    rng = np.random.default_rng(K)
    C = rng.integers(0, 9, size=(K, K)) + np.eye(K, dtype=int)
    p_o = Fraction(int(np.trace(C)), int(C.sum()))
    expected = (p_o - Fraction(1, K)) / (1 - Fraction(1, K))
    assert kl.pabak(C) == pytest.approx(float(expected), abs=1e-15)
    np.testing.assert_allclose(kl.pabak(np.stack([C, C.T])), [float(expected)] * 2, atol=1e-15)


def test_margins_by_hand_on_an_asymmetric_table():
    # p_e = (6*4 + 9*10 + 5*6) / 20^2 = 144/400
    assert kl.expected_agreement(ASYM) == pytest.approx(144 / 400, abs=1e-15)
    assert kl.observed_agreement(ASYM) == pytest.approx(14 / 20, abs=1e-15)
    assert kl.kappa(ASYM) == pytest.approx((14 / 20 - 144 / 400) / (1 - 144 / 400), abs=1e-15)
    E = np.array([[6 * 4, 6 * 10, 6 * 6], [9 * 4, 9 * 10, 9 * 6], [5 * 4, 5 * 10, 5 * 6]]) / 20
    np.testing.assert_allclose(kl.expected_counts(ASYM), E, rtol=1e-15)
    # kappa_max: min(r_k, c_k) = 4, 9, 5 -> p_o,max = 18/20
    assert kl.kappa_max(ASYM) == pytest.approx((18 / 20 - 144 / 400) / (1 - 144 / 400), abs=1e-15)
    # MCC (Gorodkin): (N t - sum r c) / sqrt((N^2 - sum r^2)(N^2 - sum c^2))
    num = 20 * 14 - 144
    den = ((400 - (36 + 81 + 25)) * (400 - (16 + 100 + 36))) ** 0.5
    assert kl.mcc(ASYM) == pytest.approx(num / den, abs=1e-15)


def test_bias_and_prevalence_index_signs():
    """Byrt et al. (1993): BI = (b - c) / N and PI = (a - d) / N for [[a, b], [c, d]]."""
    C = [[1, 2], [5, 12]]  # the reference uses class 0 for 3 cases, the prediction for 6
    assert kl.bias_index(C) == pytest.approx(-3 / 20, abs=1e-15)
    assert kl.prevalence_index(C) == pytest.approx(-11 / 20, abs=1e-15)
    C = [[12, 5], [2, 1]]
    assert kl.bias_index(C) == pytest.approx(3 / 20, abs=1e-15)
    assert kl.prevalence_index(C) == pytest.approx(11 / 20, abs=1e-15)


def test_named_weighting_with_one_class_is_undefined():
    """K = 1: no disagreement is possible, so weighted kappa is 0/0."""
    assert kl.kappa([[7]], weighting="linear") is None
    assert kl.kappa([[7]], weighting="quadratic", zero_division=0.0) == 0.0
    assert kl.cohen_kappa_score([3, 3], [3, 3], weighting="linear") is None


@pytest.mark.parametrize("confidence", [0.80, 0.90, 0.99])
def test_confidence_interval_against_statsmodels_and_scipy(confidence):
    """kappa -+ z se, with statsmodels' kappa and std_kappa and scipy's normal quantile."""
    from scipy.stats import norm
    from statsmodels.stats.inter_rater import cohens_kappa

    table = np.array([[106, 10, 4], [22, 28, 10], [2, 12, 6]])  # Fleiss et al. (1969)
    res = cohens_kappa(table)
    z = norm.ppf((1 + confidence) / 2)
    low, high = kl.kappa_confint(table, confidence_level=confidence)
    assert low == pytest.approx(res.kappa - z * res.std_kappa, abs=1e-12)
    assert high == pytest.approx(res.kappa + z * res.std_kappa, abs=1e-12)


def test_mcc_is_exact_at_its_extremes():
    """Perfect disagreement is exactly -1 and the cyclic shift of 3 classes exactly -1/2
    (as the book's chapters assert): no rounding from taking two square roots."""
    assert kl.mcc([[0, 8], [7, 0]]) == -1.0
    assert kl.mcc(np.roll(np.eye(3), 1, axis=1)) == -0.5
    assert kl.mcc([[8, 0], [0, 7]]) == 1.0
