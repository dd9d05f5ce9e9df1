"""kl.subgroup_kappas: kappa per subgroup and Fleiss' (1981) homogeneity chi-square.

Oracles: statsmodels' cohens_kappa (kappa, its Fleiss-Cohen-Everitt standard error and Wald
interval) per subgroup; the chi-square written out from those standard errors and scipy's
chi-square tail; the conformance table (conformance/cases/subgroup_kappas.json) holds the same
through R's survey package and exact fractions.
"""

import math

import numpy as np
import pytest
from scipy.stats import chi2, norm
from statsmodels.stats.inter_rater import cohens_kappa

import kappalib as kl


def _sites(seed, G=4, K=3):
    rng = np.random.default_rng(seed)
    y1, y2, site = [], [], []
    for g in range(G):
        n = int(rng.integers(30, 90))
        truth = rng.integers(0, K, n)
        other = np.where(rng.random(n) < rng.uniform(0.3, 0.9), truth, rng.integers(0, K, n))
        y1 += truth.tolist()
        y2 += other.tolist()
        site += [f"site {g}"] * n
    return np.array(y1), np.array(y2), np.array(site)


@pytest.mark.parametrize("weighting", [None, "linear", "quadratic"])
@pytest.mark.parametrize("seed", range(8))
def test_each_subgroup_and_the_test_against_statsmodels(seed, weighting):
    y1, y2, site = _sites(seed)
    s = kl.subgroup_kappas(y1, y2, site, weighting=weighting, labels=[0, 1, 2])
    ks, vs = [], []
    for g, e in zip(s.groups, s.coefficients, strict=True):
        C = kl.confusion_matrix(y1[site == g], y2[site == g], labels=[0, 1, 2])
        sm = cohens_kappa(np.asarray(C), wt=weighting)
        assert e.estimate == pytest.approx(sm["kappa"], abs=1e-12)
        assert e.standard_error == pytest.approx(sm["std_kappa"], abs=1e-12)
        assert e.confidence_interval.low == pytest.approx(max(sm["kappa_low"], -1), abs=1e-12)
        assert e.confidence_interval.high == pytest.approx(min(sm["kappa_upp"], 1), abs=1e-12)
        ks.append(sm["kappa"])
        vs.append(sm["std_kappa"] ** 2)
    ks, vs = np.array(ks), np.array(vs)
    pooled = (ks / vs).sum() / (1 / vs).sum()
    stat = ((ks - pooled) ** 2 / vs).sum()
    assert s.estimate == pytest.approx(pooled, abs=1e-12)
    assert s.standard_error == pytest.approx(math.sqrt(1 / (1 / vs).sum()), abs=1e-12)
    assert s.statistic == pytest.approx(stat, abs=1e-10)
    assert s.df == 3
    assert s.pvalue == pytest.approx(chi2.sf(stat, 3), rel=1e-8)
    z = norm.ppf(0.975)
    assert s.confidence_interval.low == pytest.approx(pooled - z * s.standard_error)


def test_groups_are_sorted_and_named():
    y1, y2, site = _sites(1, G=3)
    s = kl.subgroup_kappas(y1, y2, site)
    assert s.groups == ("site 0", "site 1", "site 2")
    assert s.coefficients[1].coefficient == "kappa (site 1)"
    assert "homogeneity" in s.test and "site 2" in repr(s)


def test_a_subgroup_without_variance_or_without_kappa_is_left_out_with_a_note():
    # subgroups: perfect (4 cases), b (6), one class (3), d (6)
    y1 = [0, 1, 0, 1, 0, 0, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1, 0, 1, 0]
    y2 = [0, 1, 0, 1, 0, 1, 1, 0, 0, 1, 1, 1, 1, 0, 1, 0, 0, 1, 1]
    g = ["perfect"] * 4 + ["b"] * 6 + ["one class"] * 3 + ["d"] * 6
    s = kl.subgroup_kappas(y1, y2, g)
    by = dict(zip(s.groups, s.coefficients, strict=True))
    assert by["perfect"].estimate == 1.0 and by["perfect"].standard_error == 0.0
    assert by["one class"].estimate is None
    assert s.df == 1  # b and d only
    assert any("standard error 0" in n and "perfect" in n for n in s.notes)
    assert any("undefined" in n and "one class" in n for n in s.notes)
    with pytest.raises(kl.UndefinedMetricError, match="one class"):
        kl.subgroup_kappas(y1, y2, g, zero_division="raise")


def test_fewer_than_two_subgroups_left_leaves_the_test_out():
    s = kl.subgroup_kappas([0, 1, 0, 1, 1, 1], [0, 1, 1, 1, 1, 1], ["a", "a", "a", "a", "b", "b"])
    assert s.statistic is None and s.pvalue is None and s.estimate is None
    assert any("Fewer than 2" in n for n in s.notes)


def test_bad_input_gets_one_sentence():
    with pytest.raises(ValueError, match="at least 2 subgroups"):
        kl.subgroup_kappas([0, 1], [0, 1], ["a", "a"])
    with pytest.raises(ValueError, match="groups must give one id per case"):
        kl.subgroup_kappas([0, 1], [0, 1], ["a"])
    with pytest.raises(ValueError, match="confidence_level"):
        kl.subgroup_kappas([0, 1], [0, 1], ["a", "b"], confidence_level=2)
