"""kl.kappa_difference and kl.light_kappa_test: kappas of the same units.

Oracles: scikit-learn's cohen_kappa_score for each kappa; an independent delta method by
complex-step differentiation of the multinomial of rating patterns (tests/oracle_delta.py)
for the standard errors and the covariance; statsmodels' null standard error of each pair
for Light's test; a plain loop bootstrap (its own generator) for the bootstrap's spread;
R's survey package through the conformance table (conformance/cases/kappa_difference.json).
"""

import math

import numpy as np
import pandas as pd
import pytest
from oracle_delta import delta_covariance
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats.inter_rater import cohens_kappa

import kappalib as kl


def _ratings(seed, *, R=4, K=3, n=None, missing=0.0):
    rng = np.random.default_rng(seed)
    n = n or int(rng.integers(20, 80))
    truth = rng.integers(0, K, size=n)
    data = np.where(
        rng.random((R, n)) < rng.uniform(0.3, 0.9, size=(R, 1)), truth, rng.integers(0, K, (R, n))
    )
    data = data.astype(float)
    if missing:
        data[rng.random((R, n)) < missing] = np.nan
    return data


def _codes(data):
    return np.where(np.isnan(data), -1, data).astype(int)


@pytest.mark.parametrize("weighting", [None, "linear", "quadratic", "circular"])
@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("pairs", [((0, 1), (2, 3)), ((0, 1), (0, 2)), ((1, 0), (3, 1))])
def test_delta_method_against_the_complex_step_oracle(seed, weighting, pairs):
    data = _ratings(seed, missing=0.1 if seed % 2 else 0.0)
    K = 3
    d = kl.kappa_difference(
        data, pairs, weighting=weighting, labels=[0, 1, 2], layout="raters x units"
    )
    W = kl.disagreement_weights(K, weighting) if weighting else 1 - np.eye(K)
    w = 1 - W / W.max()
    kappas, V = delta_covariance(_codes(data), pairs, K, w)
    np.testing.assert_allclose([e.estimate for e in d.coefficients], kappas, atol=1e-12)
    assert d.standard_error == pytest.approx(math.sqrt(V[0, 0] + V[1, 1] - 2 * V[0, 1]), abs=1e-12)
    for e, v in zip(d.coefficients, np.diag(V), strict=True):
        assert e.standard_error == pytest.approx(math.sqrt(v), abs=1e-12)
    assert d.estimate == pytest.approx(kappas[1] - kappas[0], abs=1e-12)


@pytest.mark.parametrize("seed", range(5))
def test_each_kappa_is_scikit_learns_and_the_se_is_fce(seed):
    data = _ratings(seed, K=4)
    d = kl.kappa_difference(
        data, ((0, 2), (1, 3)), weighting="quadratic", labels=[0, 1, 2, 3], layout="raters x units"
    )
    for e, (g, h) in zip(d.coefficients, ((0, 2), (1, 3)), strict=True):
        sk = cohen_kappa_score(data[g], data[h], weights="quadratic", labels=[0, 1, 2, 3])
        assert e.estimate == pytest.approx(sk, abs=1e-12)
        C = kl.confusion_matrix(data[g].astype(int), data[h].astype(int), labels=[0, 1, 2, 3])
        sm = cohens_kappa(np.asarray(C), wt="quadratic")
        assert e.standard_error == pytest.approx(sm["std_kappa"], abs=1e-12)  # complete data: FCE


def test_the_wald_interval_and_the_test():
    data = _ratings(3, n=60)
    d = kl.kappa_difference(data, ((0, 1), (2, 3)), confidence_level=0.9, layout="raters x units")
    z90 = 1.6448536269514722  # scipy.stats.norm.ppf(0.95)
    assert d.confidence_interval.low == pytest.approx(d.estimate - z90 * d.standard_error)
    assert d.confidence_interval.high == pytest.approx(d.estimate + z90 * d.standard_error)
    assert d.z == pytest.approx(d.estimate / d.standard_error)
    from scipy.stats import norm

    assert d.pvalue == pytest.approx(2 * norm.sf(abs(d.z)), rel=1e-9)


def test_two_identical_pairs_differ_by_exactly_nothing():
    data = _ratings(1, R=2)
    data = np.vstack([data, data])
    d = kl.kappa_difference(data, ((0, 1), (2, 3)), layout="raters x units")
    assert d.estimate == 0.0 and d.standard_error == 0.0
    assert d.z is None and d.pvalue is None
    assert d.confidence_interval == (0.0, 0.0)


def _loop_bootstrap(data, pairs, B, seed):
    rng = np.random.default_rng(seed)
    n = data.shape[1]
    out = []
    for _ in range(B):
        s = data[:, rng.integers(0, n, n)]
        ks = [cohen_kappa_score(s[g], s[h], labels=[0, 1, 2]) for g, h in pairs]
        out.append(ks[1] - ks[0])
    return np.array(out)


def test_the_bootstrap_spread_matches_a_plain_loop():
    """Same distribution, different streams: the SDs agree within their sampling error."""
    data = _ratings(7, n=120)
    pairs = ((0, 1), (2, 3))
    B = 2000
    d = kl.kappa_difference(
        data,
        pairs,
        method="percentile",
        n_resamples=B,
        rng=11,
        labels=[0, 1, 2],
        layout="raters x units",
    )
    loop = _loop_bootstrap(data, pairs, B, 12)
    sd = loop.std(ddof=1)
    # the SD of an SD estimate from B draws is about sd / sqrt(2B); allow 5 of those per side
    assert d.standard_error == pytest.approx(sd, abs=2 * 5 * sd / math.sqrt(2 * B))
    lo, hi = np.quantile(loop, [0.025, 0.975])
    assert d.confidence_interval.low == pytest.approx(lo, abs=0.35 * sd)
    assert d.confidence_interval.high == pytest.approx(hi, abs=0.35 * sd)
    # and the delta method's standard error is close to the bootstrap's at n = 120
    delta = kl.kappa_difference(data, pairs, labels=[0, 1, 2], layout="raters x units")
    assert delta.standard_error == pytest.approx(sd, rel=0.15)


def test_the_bootstrap_is_reproducible_and_bca_runs():
    data = _ratings(2, n=40)
    a = kl.kappa_difference(
        data, ((0, 1), (0, 2)), method="bca", n_resamples=500, rng=3, layout="raters x units"
    )
    b = kl.kappa_difference(
        data, ((0, 1), (0, 2)), method="bca", n_resamples=500, rng=3, layout="raters x units"
    )
    assert a.confidence_interval == b.confidence_interval
    assert a.confidence_interval.low < a.estimate < a.confidence_interval.high
    assert "BCa" in a.interval_method


def test_a_dataframe_names_its_raters():
    data = _ratings(4, n=30)
    df = pd.DataFrame(data.T, columns=["ref", "before", "after", "other"])
    d = kl.kappa_difference(df, (("ref", "before"), ("ref", "after")))
    by_position = kl.kappa_difference(data, ((0, 1), (0, 2)), layout="raters x units")
    assert d.estimate == pytest.approx(by_position.estimate)
    assert d.raters == (("ref", "before"), ("ref", "after"))
    assert "kappa(ref, after) - kappa(ref, before)" in repr(d)


@pytest.mark.parametrize(
    ("pairs", "match"),
    [
        (((0, 1),), "two pairs of raters"),
        (((0, 1), (0, 1)), "two different pairs"),
        (((0, 1), (1, 0)), "two different pairs"),
        (((0, 0), (1, 2)), "two different raters"),
        (((0, 9), (1, 2)), "rater 9"),
        ("01", "two pairs"),
        (5, "two pairs"),
    ],
)
def test_bad_pairs_get_one_sentence(pairs, match):
    with pytest.raises((ValueError, TypeError), match=match):
        kl.kappa_difference(_ratings(0), pairs, layout="raters x units")


def test_bad_options_get_one_sentence():
    data = _ratings(0)
    with pytest.raises(ValueError, match="method must be"):
        kl.kappa_difference(data, ((0, 1), (2, 3)), method="jackknife")
    with pytest.raises(ValueError, match="confidence_level"):
        kl.kappa_difference(data, ((0, 1), (2, 3)), confidence_level=1.5)
    sparse = np.array([[0, 1, np.nan, np.nan], [1, 0, np.nan, np.nan], [np.nan, np.nan, 0, 1]])
    with pytest.raises(ValueError, match="no unit in common"):
        kl.kappa_difference(sparse, ((0, 1), (0, 2)), layout="raters x units")


def test_an_undefined_kappa_follows_the_policy():
    data = np.array([[0, 0, 0, 0], [0, 0, 0, 0], [0, 1, 0, 1], [0, 1, 1, 1]])
    d = kl.kappa_difference(data, ((0, 1), (2, 3)), layout="raters x units")
    assert d.estimate is None and d.standard_error is None and d.confidence_interval.low is None
    assert d.coefficients[0].estimate is None
    assert d.coefficients[1].estimate == pytest.approx(
        cohen_kappa_score([0, 1, 0, 1], [0, 1, 1, 1])
    )
    with pytest.raises(kl.UndefinedMetricError, match="raters 0 and 1"):
        kl.kappa_difference(data, ((0, 1), (2, 3)), zero_division="raise", layout="raters x units")
    nan = kl.kappa_difference(
        data, ((0, 1), (2, 3)), zero_division=float("nan"), layout="raters x units"
    )
    assert math.isnan(nan.estimate)


# --- Light's kappa with its test ------------------------------------------------------------


@pytest.mark.parametrize("seed", range(6))
def test_light_null_se_is_statsmodels_pairs_combined(seed):
    data = _ratings(seed, R=4)
    t = kl.light_kappa_test(data, labels=[0, 1, 2], layout="raters x units")
    R = data.shape[0]
    var0, ks = 0.0, []
    for g in range(R):
        for h in range(g + 1, R):
            C = kl.confusion_matrix(data[g].astype(int), data[h].astype(int), labels=[0, 1, 2])
            sm = cohens_kappa(np.asarray(C))
            var0 += sm["std_kappa0"] ** 2
            ks.append(sm["kappa"])
    P = len(ks)
    assert t.estimate == pytest.approx(np.mean(ks), abs=1e-12)
    assert t.estimate == pytest.approx(
        kl.light_kappa(data, labels=[0, 1, 2], layout="raters x units"), abs=1e-15
    )
    assert t.null_standard_error == pytest.approx(math.sqrt(var0) / P, abs=1e-12)
    assert t.z == pytest.approx(t.estimate / t.null_standard_error)


@pytest.mark.parametrize("seed", range(6))
def test_light_delta_se_against_the_complex_step_oracle(seed):
    data = _ratings(seed, R=4, missing=0.1 if seed % 2 else 0.0)
    t = kl.light_kappa_test(data, labels=[0, 1, 2], layout="raters x units")
    pairs = [(g, h) for g in range(4) for h in range(g + 1, 4)]
    _, V = delta_covariance(_codes(data), pairs, 3, np.eye(3))
    assert t.standard_error == pytest.approx(math.sqrt(V.sum()) / len(pairs), abs=1e-12)
    se = kl.ratings_standard_error(
        data, coefficient="light", labels=[0, 1, 2], layout="raters x units"
    )
    assert se == pytest.approx(t.standard_error, abs=1e-15)
    ci = kl.ratings_confint(data, coefficient="light", labels=[0, 1, 2], layout="raters x units")
    assert ci == (
        pytest.approx(t.confidence_interval.low),
        pytest.approx(t.confidence_interval.high),
    )


def test_light_null_se_is_the_spread_under_independence():
    """Permute each rater's ratings on its own (the hypothesis of independent raters): the
    spread of Light's kappa over the permutations is close to the null standard error."""
    rng = np.random.default_rng(5)
    data = _ratings(9, R=5, n=150)
    se0 = kl.light_kappa_test(data, layout="raters x units").null_standard_error
    values = [
        kl.light_kappa(np.array([rng.permutation(row) for row in data]), layout="raters x units")
        for _ in range(1500)
    ]
    sd = float(np.std(values, ddof=1))
    assert se0 == pytest.approx(sd, rel=0.1)  # 1500 draws: sd known to about 2%


def test_light_test_undefined_and_bad_input():
    t = kl.light_kappa_test([[1, 1, 1], [1, 1, 1], [0, 1, 0]], layout="raters x units")
    assert t.estimate is None and t.z is None and t.confidence_interval.low is None
    with pytest.raises(kl.UndefinedMetricError):
        kl.light_kappa_test(
            [[1, 1, 1], [1, 1, 1], [0, 1, 0]], zero_division="raise", layout="raters x units"
        )
    with pytest.raises(ValueError, match="confidence_level"):
        kl.light_kappa_test([[1, 0, 1], [1, 1, 0]], confidence_level=0)
