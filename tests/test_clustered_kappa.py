"""kl.clustered_kappa: Cohen's kappa of clustered cases.

Oracles: scikit-learn for the estimate; the cluster-robust delta method by complex-step
differentiation of kappa as a function of the clusters' mean cell counts
(tests/oracle_delta.py); with one case per cluster, statsmodels' Fleiss-Cohen-Everitt
standard error times sqrt(N/(N-1)); a plain loop bootstrap over clusters; R's survey
package through the conformance table (conformance/cases/clustered_kappa.json).
"""

import math

import numpy as np
import pytest
from oracle_delta import clustered_variance
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats.inter_rater import cohens_kappa

import kappalib as kl


def _clustered(seed, *, G=None, K=3, icc=0.5):
    """Clusters whose cases share a tendency to be rated alike (a cluster effect)."""
    rng = np.random.default_rng(seed)
    G = G or int(rng.integers(8, 40))
    sizes = rng.integers(1, 6, size=G)
    y1, y2, ids = [], [], []
    for g, m in enumerate(sizes):
        agree = rng.random() < 0.5 + 0.4 * icc
        truth = rng.integers(0, K, size=m)
        other = np.where(rng.random(m) < (0.9 if agree else 0.3), truth, rng.integers(0, K, size=m))
        y1 += truth.tolist()
        y2 += other.tolist()
        ids += [f"p{g}"] * int(m)
    return np.array(y1), np.array(y2), np.array(ids)


@pytest.mark.parametrize("weighting", [None, "linear", "quadratic", "bipolar"])
@pytest.mark.parametrize("seed", range(10))
def test_cluster_robust_se_against_the_complex_step_oracle(seed, weighting):
    y1, y2, ids = _clustered(seed)
    r = kl.clustered_kappa(y1, y2, ids, weighting=weighting, labels=[0, 1, 2])
    W = kl.disagreement_weights(3, weighting) if weighting else 1 - np.eye(3)
    w = 1 - W / W.max()
    if weighting in (None, "linear", "quadratic"):
        sk = cohen_kappa_score(y1, y2, labels=[0, 1, 2], weights=weighting)
        assert r.estimate == pytest.approx(sk, abs=1e-12)
    assert r.standard_error == pytest.approx(
        math.sqrt(clustered_variance(y1, y2, ids, 3, w)), abs=1e-12
    )
    assert r.n_units == y1.size and r.n_clusters == np.unique(ids).size
    if weighting is None:
        naive = cohens_kappa(np.asarray(kl.confusion_matrix(y1, y2, labels=[0, 1, 2])))
        assert r.design_effect == pytest.approx((r.standard_error / naive["std_kappa"]) ** 2)


def test_one_case_per_cluster_is_fce_times_n_over_n_minus_1():
    rng = np.random.default_rng(3)
    y1 = rng.integers(0, 4, 200)
    y2 = np.where(rng.random(200) < 0.6, y1, rng.integers(0, 4, 200))
    r = kl.clustered_kappa(y1, y2, np.arange(200))
    sm = cohens_kappa(np.asarray(kl.confusion_matrix(y1, y2)))
    assert r.standard_error == pytest.approx(sm["std_kappa"] * math.sqrt(200 / 199), abs=1e-12)
    assert r.design_effect == pytest.approx(200 / 199)


def test_the_wald_interval_is_cut_at_one():
    y1 = [1, 1, 1, 0, 0, 0, 1, 1, 1, 0, 0, 0, 1, 1, 0, 0, 0, 1, 1, 1, 1, 0, 0, 0]
    y2 = [1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 1, 1, 1, 1, 1, 1, 0, 0, 0]
    r = kl.clustered_kappa(y1, y2, [p for p in range(8) for _ in range(3)])
    assert r.confidence_interval.high == 1.0
    assert r.confidence_interval.low == pytest.approx(
        r.estimate - 1.959963984540054 * r.standard_error
    )
    assert r.design_effect > 2  # the disagreements come by whole patients


def _loop_cluster_bootstrap(y1, y2, ids, B, seed):
    rng = np.random.default_rng(seed)
    groups = [np.flatnonzero(ids == g) for g in np.unique(ids)]
    out = []
    for _ in range(B):
        take = np.concatenate([groups[i] for i in rng.integers(0, len(groups), len(groups))])
        out.append(cohen_kappa_score(y1[take], y2[take], labels=[0, 1, 2]))
    return np.array(out)


def test_the_cluster_bootstrap_matches_a_plain_loop():
    y1, y2, ids = _clustered(4, G=60)
    B = 2000
    r = kl.clustered_kappa(y1, y2, ids, method="percentile", n_resamples=B, rng=1, labels=[0, 1, 2])
    loop = _loop_cluster_bootstrap(y1, y2, ids, B, 2)
    sd = loop.std(ddof=1)
    assert r.standard_error == pytest.approx(sd, abs=2 * 5 * sd / math.sqrt(2 * B))
    lo, hi = np.quantile(loop, [0.025, 0.975])
    assert r.confidence_interval.low == pytest.approx(lo, abs=0.35 * sd)
    assert r.confidence_interval.high == pytest.approx(hi, abs=0.35 * sd)
    analytic = kl.clustered_kappa(y1, y2, ids, labels=[0, 1, 2])
    assert analytic.standard_error == pytest.approx(sd, rel=0.15)
    bca = kl.clustered_kappa(y1, y2, ids, method="bca", n_resamples=B, rng=1, labels=[0, 1, 2])
    assert bca.confidence_interval.low < r.estimate < bca.confidence_interval.high
    assert "clusters" in bca.interval_method


def test_bad_input_gets_one_sentence():
    with pytest.raises(ValueError, match="clusters must give one id per case"):
        kl.clustered_kappa([0, 1, 1], [0, 1, 0], [1, 2])
    with pytest.raises(ValueError, match="clusters must not be missing"):
        kl.clustered_kappa([0, 1, 1], [0, 1, 0], [1.0, float("nan"), 2.0])
    with pytest.raises(ValueError, match="clusters must not be missing"):
        kl.clustered_kappa([0, 1, 1], [0, 1, 0], ["a", None, "b"])
    with pytest.raises(ValueError, match="at least 2 clusters"):
        kl.clustered_kappa([0, 1, 1], [0, 1, 0], ["a", "a", "a"])
    with pytest.raises(ValueError, match="same length"):
        kl.clustered_kappa([0, 1, 1], [0, 1], [1, 2, 3])
    with pytest.raises(ValueError, match="method must be"):
        kl.clustered_kappa([0, 1, 1], [0, 1, 0], [1, 2, 3], method="normal")
    with pytest.raises(ValueError, match="measures distances"):
        kl.clustered_kappa(["a", "b"], ["b", "a"], [1, 2], weighting="linear")


def test_undefined_kappa_follows_the_policy():
    r = kl.clustered_kappa([1, 1, 1, 1], [1, 1, 1, 1], [1, 1, 2, 2])
    assert r.estimate is None and r.standard_error is None and r.confidence_interval.low is None
    with pytest.raises(kl.UndefinedMetricError):
        kl.clustered_kappa([1, 1, 1, 1], [1, 1, 1, 1], [1, 1, 2, 2], zero_division="raise")
