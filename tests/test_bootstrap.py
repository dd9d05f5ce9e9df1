"""bootstrap_confint, paired_difference_confint and kappa_sample_size.

Oracles:

* ``scipy.stats.bootstrap`` (percentile and BCa) resampling the *labels* of the same cases,
  with its own generator and its own jackknife over the N cases.  The two intervals are
  independent Monte Carlo estimates of the same interval, so they agree only within Monte
  Carlo error; the tolerance is derived in :func:`mc_tolerance`.
* Seeded simulation for coverage and for the sample size, with tolerances from the Monte
  Carlo standard error, stated beside each assertion.
* statsmodels' ``var_kappa`` and the binary closed form of Donner & Eliasziw for the
  variance behind the sample size.
"""

from __future__ import annotations

import inspect
import math
from statistics import NormalDist

import numpy as np
import pytest
from matrices import labels_of
from scipy import stats
from statsmodels.stats.inter_rater import cohens_kappa

import kappalib as kl


def _scipy_bootstrap(*args, rng, **kwargs):
    """scipy.stats.bootstrap with a Generator: rng= from scipy 1.15, random_state= before
    (the minimum-versions job has scipy 1.12, irrCAC's pin); SPEC 7 keeps a Generator's
    draws the same under both names."""
    if "rng" in inspect.signature(stats.bootstrap).parameters:
        return stats.bootstrap(*args, rng=rng, **kwargs)
    return stats.bootstrap(*args, random_state=rng, **kwargs)


NAN = float("nan")
PHI = NormalDist()


def batched_stat(K, statistic, weighting=None):
    """A vectorised statistic of label arrays for scipy (axis = -1 holds the cases).

    The labels of each resample are counted into its own K x K matrix by one bincount over
    row-offset codes; the statistic of that stack then comes from kl.kappa / kl.mcc, which are
    checked against scikit-learn and statsmodels elsewhere.  What this oracle checks is the
    resampling and the interval, which scipy does on the labels, independently of kappalib.
    """

    def counts(y1, y2):
        y1 = np.atleast_2d(y1)
        y2 = np.atleast_2d(y2)
        m = y1.shape[0]
        idx = (np.arange(m)[:, None] * K + y1) * K + y2
        return np.bincount(idx.ravel(), minlength=m * K * K).reshape(m, K, K)

    def f(S):
        if statistic == "mcc":
            return kl.mcc(S, zero_division=NAN)
        return kl.kappa(S, weighting=weighting, zero_division=NAN)

    def stat(y1, y2, axis=-1):
        shape = y1.shape[:-1]
        return np.asarray(f(counts(y1, y2))).reshape(shape)

    def paired(t, a, b, axis=-1):
        shape = t.shape[:-1]
        return (np.asarray(f(counts(t, b))) - np.asarray(f(counts(t, a)))).reshape(shape)

    return stat, paired


def mc_tolerance(boot_sd, B, confidence, method, n_sd=4.5):
    """How far two independent bootstrap endpoints may differ, from the Monte Carlo error.

    The q-quantile of B draws from a distribution with density f at that quantile has
    Monte Carlo SD sqrt(q (1 - q) / B) / f; for a near-normal bootstrap distribution with SD s,
    f = phi(z_q) / s.  BCa also estimates z0 from the share of resamples below the estimate
    (SD 0.5 / sqrt(B) on the share, 0.5 / (phi(0) sqrt(B)) on z0); a shift dz0 moves both
    quantile levels by about 2 phi(z_q) dz0, which is 1 / phi(0) * s / sqrt(B) in value
    (added, an upper bound).  Two independent estimates differ by sqrt(2) times that SD;
    n_sd = 4.5 leaves a chance of about 1e-5 of a false alarm per endpoint.
    """
    q = (1 - confidence) / 2
    zq = PHI.inv_cdf(q)
    sd = math.sqrt(q * (1 - q)) / PHI.pdf(zq)
    if method == "bca":
        sd += 1 / PHI.pdf(0)
    return n_sd * math.sqrt(2) * sd * boot_sd / math.sqrt(B)


TABLES = {
    "seed001 x3": np.array([[24, 6], [3, 27]]),  # kappa 0.7 from 60 cases: skewed
    "3x3": np.array([[20, 5, 1], [4, 15, 3], [1, 2, 9]]),
    "imbalanced": np.array([[45, 3], [2, 10]]),  # prevalence 0.8: strongly skewed kappa
}
B = 20_000


@pytest.mark.parametrize("method", ["percentile", "bca"])
@pytest.mark.parametrize(
    ("name", "statistic", "weighting"),
    [
        ("seed001 x3", "kappa", None),
        ("seed001 x3", "mcc", None),
        ("3x3", "kappa", None),
        ("3x3", "kappa", "quadratic"),
        ("3x3", "mcc", None),
        ("imbalanced", "kappa", None),
    ],
)
def test_interval_agrees_with_scipy(name, statistic, weighting, method):
    C = TABLES[name]
    K = C.shape[0]
    y1, y2 = labels_of(C)
    stat, _ = batched_stat(K, statistic, weighting)
    ref = _scipy_bootstrap(
        (y1, y2),
        stat,
        paired=True,
        vectorized=True,
        n_resamples=B,
        batch=5000,
        confidence_level=0.95,
        method="BCa" if method == "bca" else "percentile",
        rng=np.random.default_rng(1),
    )
    low, high = kl.bootstrap_confint(
        C, method=method, coefficient=statistic, weighting=weighting, n_resamples=B, rng=2
    )
    tol = mc_tolerance(ref.standard_error, B, 0.95, method)
    assert low == pytest.approx(ref.confidence_interval.low, abs=tol)
    assert high == pytest.approx(ref.confidence_interval.high, abs=tol)


def test_bca_bias_correction_agrees_with_scipy():
    # z0 is small for kappa on most tables (|z0| < 0.05 on the tables above), so a sign error
    # in it hides inside the tolerance at B = 20,000.  This table has z0 = 0.1 and no
    # undefined resamples; B = 100,000 shrinks the tolerance to about 0.1 bootstrap SD while
    # flipping z0 moves the ends by about 2 z0 = 0.2 bootstrap SD.
    C = np.array([[10, 0, 0], [3, 10, 0], [0, 3, 10]])
    big = 100_000
    y1, y2 = labels_of(C)
    stat, _ = batched_stat(3, "kappa")
    ref = _scipy_bootstrap(
        (y1, y2),
        stat,
        paired=True,
        vectorized=True,
        n_resamples=big,
        batch=20_000,
        method="BCa",
        rng=np.random.default_rng(21),
    )
    low, high = kl.bootstrap_confint(C, method="bca", n_resamples=big, rng=22)
    tol = mc_tolerance(ref.standard_error, big, 0.95, "bca")
    assert low == pytest.approx(ref.confidence_interval.low, abs=tol)
    assert high == pytest.approx(ref.confidence_interval.high, abs=tol)


def test_bca_differs_from_percentile_where_it_should():
    # the skewed table, same seed (so the same resamples): BCa moves both ends down, so the
    # agreement with scipy above is not the percentile interval agreeing with itself
    C = TABLES["imbalanced"]
    p = kl.bootstrap_confint(C, n_resamples=B, rng=3)
    b = kl.bootstrap_confint(C, method="bca", n_resamples=B, rng=3)
    assert b[0] < p[0] - 0.02
    assert b[1] < p[1] - 0.01


def test_paired_difference_agrees_with_scipy():
    rng = np.random.default_rng(5)
    n, K = 300, 3
    y = rng.integers(0, K, n)
    a = np.where(rng.random(n) < 0.7, y, rng.integers(0, K, n))
    b = np.where(rng.random(n) < 0.8, y, a)  # B fixes some of A's errors: correlated
    _, paired = batched_stat(K, "kappa")
    for method in ("percentile", "bca"):
        ref = _scipy_bootstrap(
            (y, a, b),
            paired,
            paired=True,
            vectorized=True,
            n_resamples=B,
            batch=2000,
            method="BCa" if method == "bca" else "percentile",
            rng=np.random.default_rng(6),
        )
        low, high = kl.paired_difference_confint(y, a, b, method=method, n_resamples=B, rng=7)
        tol = mc_tolerance(ref.standard_error, B, 0.95, method)
        assert low == pytest.approx(ref.confidence_interval.low, abs=tol)
        assert high == pytest.approx(ref.confidence_interval.high, abs=tol)


def test_paired_interval_is_narrower_than_the_unpaired_one():
    # With correlated classifiers the variance of the difference is var_a + var_b - 2 cov:
    # the paired interval must be clearly narrower than sqrt(var_a + var_b) suggests.
    rng = np.random.default_rng(8)
    n = 400
    y = rng.integers(0, 2, n)
    a = np.where(rng.random(n) < 0.8, y, 1 - y)
    b = np.where(rng.random(n) < 0.5, a, y)
    low, high = kl.paired_difference_confint(y, a, b, n_resamples=4000, rng=9)
    se_a = kl.kappa_standard_error(kl.confusion_matrix(y, a))
    se_b = kl.kappa_standard_error(kl.confusion_matrix(y, b))
    unpaired = 2 * 1.96 * math.hypot(se_a, se_b)
    assert high - low < 0.8 * unpaired


def test_percentile_coverage_by_simulation():
    # 1000 tables of N = 200 from a known p; coverage of the 95% percentile interval.
    # Monte Carlo SE of a coverage near 0.95 from 1000 tables: sqrt(0.95 * 0.05 / 1000) =
    # 0.0069; the tolerance 0.025 is 3.6 of those (the interval's own finite-N error at
    # N = 200 is under 1% here, from a 20,000-table run while writing this test).
    p = np.array([[0.40, 0.10], [0.05, 0.45]])
    true = kl.kappa(p)
    rng = np.random.default_rng(11)
    tables = rng.multinomial(200, p.ravel(), size=1000).reshape(-1, 2, 2)
    hits = 0
    for C in tables:
        low, high = kl.bootstrap_confint(C, n_resamples=999, rng=rng)
        hits += low <= true <= high
    assert abs(hits / 1000 - 0.95) < 0.025


# ----------------------------------------------------------------------- sample size
def test_sample_size_binary_closed_form():
    # Donner & Eliasziw (1992): two classes with shares pi, 1 - pi and kappa k give
    # N var = (1 - k) [(1 - k)(1 - 2k) + k (2 - k) / (2 pi (1 - pi))]
    for k, pi, h in [(0.7, 0.5, 0.1), (0.4, 0.2, 0.05), (0.9, 0.3, 0.08), (0.0, 0.5, 0.1)]:
        v = (1 - k) * ((1 - k) * (1 - 2 * k) + k * (2 - k) / (2 * pi * (1 - pi)))
        expected = math.ceil(1.959963984540054**2 * v / h**2)
        assert kl.kappa_sample_size(k, [pi, 1 - pi], half_width=h) == expected


@pytest.mark.parametrize("weighting", [None, "quadratic"])
def test_sample_size_matches_statsmodels_variance(weighting):
    rng = np.random.default_rng(12)
    for _ in range(10):
        pi = rng.dirichlet(np.ones(4))
        k = rng.uniform(0.2, 0.9)
        P = (1 - k) * np.outer(pi, pi) + k * np.diag(pi)
        W = None
        if weighting is not None:
            W = kl.disagreement_weights(4, weighting)
            W = W / W.max()
        v = cohens_kappa(P * 1000, weights=W, return_results=True).var_kappa * 1000
        z = PHI.inv_cdf(0.9)
        expected = math.ceil(z * z * v / 0.05**2)
        got = kl.kappa_sample_size(
            k, pi, half_width=0.05, confidence_level=0.8, weighting=weighting
        )
        assert abs(got - expected) <= 1  # the ceiling may fall either side of a rounding


def test_sample_size_by_simulation():
    # At the N it returns, the SD of kappa-hat over simulated tables times z should be the
    # target half-width.  20,000 tables: relative MC SE of an SD ~ 1/sqrt(2 * 20000) = 0.5%;
    # tolerance 4% = 3 MC SE plus 2.5% for the O(1/N) gap of the large-sample variance.
    pi = np.array([0.5, 0.3, 0.2])
    k, h = 0.6, 0.08
    n = kl.kappa_sample_size(k, pi, half_width=h)
    P = (1 - k) * np.outer(pi, pi) + k * np.diag(pi)
    rng = np.random.default_rng(13)
    tables = rng.multinomial(n, P.ravel(), size=20_000).reshape(-1, 3, 3)
    sd = np.nanstd(kl.kappa(tables))
    assert 1.959963984540054 * sd == pytest.approx(h, rel=0.04)
    # and the planning table's kappa is the kappa asked for
    assert kl.kappa(P) == pytest.approx(k, abs=1e-12)


# ----------------------------------------------------------------- degenerate cases
@pytest.mark.parametrize("method", ["percentile", "bca"])
def test_perfect_agreement_gives_the_documented_point_interval(method):
    assert kl.bootstrap_confint(np.diag([5, 7, 3]), method=method, rng=0) == (1.0, 1.0)
    assert kl.bootstrap_confint(np.diag([5, 7]), method=method, coefficient="mcc", rng=0) == (
        1.0,
        1.0,
    )


def test_identical_predictions_give_a_zero_difference():
    y = [0, 1, 1, 0, 2, 2, 1]
    a = [0, 1, 0, 0, 2, 1, 1]
    for method in ("percentile", "bca"):
        assert kl.paired_difference_confint(y, a, a, method=method, rng=0) == (0.0, 0.0)


def test_an_undefined_interval_follows_the_undefined_value_policy():
    """0/0 is said by the policy, never by another type: ConfidenceInterval(None, None) by
    default, zero_division's float, or UndefinedMetricError for "raise"."""
    none = kl.ConfidenceInterval(None, None)
    assert kl.bootstrap_confint([[5, 0], [0, 0]], rng=0) == none
    assert kl.bootstrap_confint([[3, 2], [0, 0]], coefficient="mcc", rng=0) == none
    assert kl.paired_difference_confint([0, 0, 0], [0, 0, 0], [0, 1, 0], rng=0) == none
    nan = kl.bootstrap_confint([[5, 0], [0, 0]], rng=0, zero_division=float("nan"))
    assert isinstance(nan, kl.ConfidenceInterval) and np.isnan(nan.low) and np.isnan(nan.high)
    with pytest.raises(kl.UndefinedMetricError, match="kappa of C is undefined"):
        kl.bootstrap_confint([[5, 0], [0, 0]], rng=0, zero_division="raise")
    with pytest.raises(kl.UndefinedMetricError, match="mcc of one of the classifiers"):
        kl.paired_difference_confint(
            [0, 0, 0], [0, 0, 0], [0, 1, 0], coefficient="mcc", zero_division="raise"
        )


def test_seeded_results_repeat():
    C = TABLES["3x3"]
    first = kl.bootstrap_confint(C, method="bca", rng=np.random.default_rng(3))
    assert first == kl.bootstrap_confint(C, method="bca", rng=3)


def test_labels_argument_orders_classes_for_weights():
    y = ["lo", "hi", "mid", "mid", "lo", "hi", "mid", "lo"]
    a = ["lo", "mid", "mid", "lo", "lo", "hi", "hi", "lo"]
    b = ["lo", "hi", "mid", "lo", "lo", "hi", "mid", "mid"]
    order = ["lo", "mid", "hi"]
    codes = {lab: i for i, lab in enumerate(order)}
    num = [[codes[v] for v in vec] for vec in (y, a, b)]
    got = kl.paired_difference_confint(
        y, a, b, labels=order, weighting="linear", n_resamples=500, rng=4
    )
    want = kl.paired_difference_confint(*num, weighting="linear", n_resamples=500, rng=4)
    assert got == want


# --------------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    ("kwargs", "exc", "match"),
    [
        ({"n_resamples": 0}, ValueError, "n_resamples must be at least 1, got 0"),
        ({"n_resamples": 2.5}, TypeError, "n_resamples must be a whole number"),
        (
            {"confidence_level": 1.5},
            ValueError,
            r"confidence_level must be strictly between 0 and 1, got 1.5",
        ),
        (
            {"confidence_level": 0},
            ValueError,
            "confidence_level must be strictly between 0 and 1, got 0",
        ),
        ({"method": "basic"}, ValueError, "method must be 'percentile' or 'bca', got 'basic'"),
        ({"coefficient": "f1"}, ValueError, "coefficient must be 'kappa' or 'mcc', got 'f1'"),
        (
            {"coefficient": "mcc", "weighting": "linear"},
            ValueError,
            "weighting and scores apply to kappa only",
        ),
        ({"rng": "seed"}, TypeError, "rng must be None, an int seed"),
    ],
)
def test_bad_input_one_sentence(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        kl.bootstrap_confint([[8, 2], [1, 9]], **kwargs)


def test_bad_matrix():
    with pytest.raises(ValueError, match=r"C must hold whole counts .* got 2.5 at index \(0, 1\)"):
        kl.bootstrap_confint([[8, 2.5], [1, 9]])
    with pytest.raises(ValueError, match="C must be one matrix of shape"):
        kl.bootstrap_confint(np.ones((3, 2, 2)))


def test_paired_bad_input():
    with pytest.raises(
        ValueError, match="y1, y2_a and y2_b must have the same length, got 3, 3 and 2"
    ):
        kl.paired_difference_confint([0, 1, 1], [0, 1, 0], [0, 1])
    with pytest.raises(ValueError, match="n_resamples must be at least 1, got -5"):
        kl.paired_difference_confint([0, 1], [0, 1], [1, 1], n_resamples=-5)
    with pytest.raises(ValueError, match="confidence_level must be strictly between 0 and 1"):
        kl.paired_difference_confint([0, 1], [0, 1], [1, 1], confidence_level=1.0)


@pytest.mark.parametrize(
    ("args", "kwargs", "match"),
    [
        ((1.0, [0.5, 0.5]), {"half_width": 0.1}, r"kappa must lie in \[-1, 1\)"),
        ((-0.5, [0.2, 0.8]), {"half_width": 0.1}, r"kappa must lie in \[-0.25, 1\)"),
        ((0.5, [1.0, 0.0]), {"half_width": 0.1}, "marginals must be a 1-D vector"),
        ((0.5, [0.5, 0.5]), {"half_width": 0.0}, "half_width must be a positive number, got 0.0"),
        (
            (0.5, [0.5, 0.5]),
            {"half_width": 0.1, "confidence_level": 2},
            "confidence_level must be strictly",
        ),
    ],
)
def test_sample_size_bad_input(args, kwargs, match):
    with pytest.raises(ValueError, match=match):
        kl.kappa_sample_size(*args, **kwargs)


@pytest.mark.parametrize("statistic", ["kappa", "mcc"])
def test_percentile_interval_is_the_quantiles_over_the_same_resamples(statistic):
    """The documented resampling, redone by hand: multinomial draws of N cases with
    probabilities C / N from the same seeded generator, the statistic of each drawn matrix by
    a scalar call (None left out), and the quantiles.  kappa and MCC differ by 0.13 here
    (0.2 and 1/3), far more than the 1e-12 allowed, so a swapped statistic cannot pass."""
    C = np.array([[50, 40], [0, 10]])
    f = {"kappa": kl.kappa, "mcc": kl.mcc}[statistic]
    draws = np.random.default_rng(5).multinomial(100, C.ravel() / 100, size=2000)
    values = [f(d.reshape(2, 2)) for d in draws]
    expected = np.quantile([v for v in values if v is not None], [0.025, 0.975])
    low, high = kl.bootstrap_confint(C, coefficient=statistic, n_resamples=2000, rng=5)
    assert (low, high) == pytest.approx(tuple(expected), abs=1e-12)
