"""The non-null standard errors and intervals of Fleiss' per-category kappas.

Oracle: irrCAC 0.4.4's ``fleiss()`` (Gwet's linearization, his t-interval) on the ratings
dichotomized to "k" and "not k", one category at a time: the per-category kappa is Fleiss'
kappa of that two-category table (Fleiss 1971), so its standard error is that coefficient's.
The kappas and null z are checked elsewhere (tests/test_designs.py, the conformance table).
"""

import sys
import warnings

import numpy as np
import pandas as pd
import pytest
from ratings_data import ROOT

import kappalib as kl

sys.path.insert(0, str(ROOT / ".venv" / "oracles"))
from irrCAC.raw import CAC


def _table(seed):
    rng = np.random.default_rng(seed)
    N, n, K = int(rng.integers(8, 40)), int(rng.integers(2, 7)), int(rng.integers(2, 6))
    truth = rng.integers(0, K, N)
    ratings = np.where(
        rng.random((N, n)) < rng.uniform(0.2, 0.9), truth[:, None], rng.integers(0, K, (N, n))
    )
    return np.stack([(ratings == k).sum(axis=1) for k in range(K)], axis=1)


def _irrcac_dichotomized(T, k, level):
    n = int(T[0].sum())
    rows = [[1.0] * int(r[k]) + [0.0] * (n - int(r[k])) for r in T]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cac = CAC(pd.DataFrame(rows), categories=[0.0, 1.0], digits=15, confidence_level=level)
        return cac.fleiss()["est"]


@pytest.mark.parametrize("seed", range(25))
def test_per_category_se_and_interval_against_irrcac(seed):
    T = _table(seed)
    res = kl.category_fleiss_kappas(T, confidence_level=0.9)
    for k in range(T.shape[1]):
        if not np.isfinite(res.kappa[k]):
            continue
        est = _irrcac_dichotomized(T, k, 0.9)
        assert res.kappa[k] == pytest.approx(est["coefficient_value"], abs=1e-10)
        if est["se"] < 1e-14:  # irrCAC's 1e-15 for 0
            assert res.standard_error[k] == pytest.approx(0.0, abs=1e-12)
            continue
        assert res.standard_error[k] == pytest.approx(est["se"], abs=1e-10)
        lo, hi = est["confidence_interval"]
        assert res.confidence_interval.low[k] == pytest.approx(lo, abs=1e-9)
        assert res.confidence_interval.high[k] == pytest.approx(hi, abs=1e-9)


def test_a_category_nobody_used_has_no_standard_error():
    res = kl.category_fleiss_kappas([[3, 0, 0], [0, 3, 0], [1, 2, 0], [2, 1, 0]])
    assert np.isnan(res.kappa[2]) and np.isnan(res.standard_error[2])
    assert np.isnan(res.confidence_interval.low[2])
    with pytest.raises(ValueError, match="confidence_level"):
        kl.category_fleiss_kappas([[3, 0], [0, 3]], confidence_level=1)
