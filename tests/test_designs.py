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

import kappalib as kl

sys.path.insert(0, str(ROOT / ".venv" / "oracles"))
from irrCAC.raw import CAC

N_CASES = 500
NAN = np.nan
# Krippendorff (2011): four observers, twelve units, raters x units
KRIPPENDORFF = [
    [1, 2, 3, 3, 2, 1, 4, 1, 2, NAN, NAN, NAN],
    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, NAN, 3],
    [NAN, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, NAN],
    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, NAN],
]


def _irr(data, domain, weights="identity"):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return CAC(pd.DataFrame(data.T), weights=weights, categories=domain.tolist(), digits=15)


def _value(result):
    return float(result["est"]["coefficient_value"])


def _every_rater_rates(data):
    return bool((~np.isnan(data)).any(axis=1).all())


# --- Conger -------------------------------------------------------------------------------


def test_conger_and_generalized_fleiss_on_krippendorffs_example():
    # issue 23, erratum 4: Conger's kappa 0.762, Gwet's generalized Fleiss kappa 0.761
    assert round(kl.conger_kappa(KRIPPENDORFF), 3) == 0.762
    table, _ = kl.rating_table(KRIPPENDORFF)
    assert round(kl.fleiss_kappa_generalized(table), 3) == 0.761
    data = np.array(KRIPPENDORFF, dtype=float)
    cac = _irr(data, np.arange(1.0, 6.0))
    assert kl.conger_kappa(data) == pytest.approx(_value(cac.conger()), abs=1e-12)
    assert kl.fleiss_kappa_generalized(table) == pytest.approx(_value(cac.fleiss()), abs=1e-12)
    # the units x raters layout and a DataFrame give the same value
    assert kl.conger_kappa(data.T, layout="units x raters") == kl.conger_kappa(data)
    assert kl.conger_kappa(pd.DataFrame(data.T)) == kl.conger_kappa(data)


@pytest.mark.parametrize("batch", range(N_CASES // BATCH))
def test_conger_against_irrcac(batch):
    checked = 0
    for seed, data, domain in cases(batch):
        if not _every_rater_rates(data):
            continue
        weighted = seed % 3 == 1
        cac = _irr(data, domain, "quadratic" if weighted else "identity")
        kw = {"weighting": "quadratic", "categories": domain} if weighted else {}
        ours = kl.conger_kappa(data, layout="raters x units", **kw)
        assert ours == pytest.approx(_value(cac.conger()), abs=1e-9), seed
        table, _ = kl.rating_table(data, layout="raters x units", categories=domain)
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
    assert kl.conger_kappa([a, b]) == pytest.approx(cohen_kappa_score(a, b), abs=1e-12)


def test_generalized_fleiss_equals_fleiss_on_complete_tables():
    for _seed, data, domain in cases(3, missing=False):
        table, _ = kl.rating_table(data, layout="raters x units", categories=domain)
        expected = kl.fleiss_kappa(table)
        assert kl.fleiss_kappa_generalized(table) == pytest.approx(expected, abs=1e-12)


def test_conger_undefined_and_bad_input():
    assert kl.conger_kappa([[1, 1, 1], [1, 1, 1]]) is None
    assert kl.conger_kappa([[1, 1, 1], [1, 1, 1]], zero_division=0.0) == 0.0
    with pytest.raises(ValueError, match="at least 2 raters"):
        kl.conger_kappa([[1, 2, 3]])
    with pytest.raises(ValueError, match=r"rater 1 .* no rating at all"):
        kl.conger_kappa([[1, 2, 3], [NAN, NAN, NAN], [1, 2, 2]])
    with pytest.raises(ValueError, match="layout="):
        kl.conger_kappa(np.ones((5, 2)))
    with pytest.raises(ValueError, match="spelling"):
        kl.conger_kappa([["a", "b", "c"], ["a", "c", "c"]], weighting="linear")


# --- Light --------------------------------------------------------------------------------


def _light_oracle(data):
    """Mean of scikit-learn's Cohen kappa over the pairs, each on the units both rated."""
    values = []
    for g, h in itertools.combinations(range(data.shape[0]), 2):
        both = ~np.isnan(data[g]) & ~np.isnan(data[h])
        values.append(cohen_kappa_score(data[g, both], data[h, both]))
    return float(np.mean(values))


@pytest.mark.parametrize("batch", range(N_CASES // BATCH))
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
    assert kl.light_kappa([[1, 1, 2, 2], [1, 2, 2, 2], [1, 1, 2, 2]]) == pytest.approx(2 / 3)
    with pytest.raises(ValueError, match="rated no unit in common"):
        kl.light_kappa([[1, 2, NAN, NAN], [NAN, NAN, 1, 2], [1, 2, 1, 2]])
    assert kl.light_kappa([[1, 1, 1], [1, 1, 2], [1, 1, 1]]) is None
    with pytest.raises(kl.UndefinedMetricError, match="raters 0 and 2"):
        kl.light_kappa([[1, 1, 1], [1, 1, 2], [1, 1, 1]], zero_division="raise")
