"""kappa_standard_error(..., null=True): the standard error under kappa = 0 (FCE 1969).

Oracles: the values the issue quotes for the paper's table, and statsmodels' ``std_kappa0``
on random tables.  For unweighted kappa statsmodels uses the closed form of FCE's eq. (14),
(p_e + p_e^2 - sum_k p_k. p_.k (p_k. + p_.k)) / (N (1 - p_e)^2), a different formula from
kappalib's weighted form with w = I, so the unweighted parity is a second-formula check.
"""

from __future__ import annotations

import numpy as np
import pytest
from statsmodels.stats.inter_rater import cohens_kappa

import kappalib as kl

FCE_TABLE = [[106, 10, 4], [22, 28, 10], [2, 12, 6]]
FCE_W = [[0, 1, 5 / 9], [1, 0, 1 / 3], [5 / 9, 1 / 3, 0]]  # disagreement = 1 - the paper's


def test_fce_1969_table():
    # null 0.0555 vs non-null 0.0537 unweighted; 0.0653 vs 0.0570 with the paper's weights
    assert round(kl.kappa_standard_error(FCE_TABLE, null=True), 4) == 0.0555
    assert round(kl.kappa_standard_error(FCE_TABLE, weighting=FCE_W, null=True), 4) == 0.0653
    assert round(kl.kappa_standard_error(FCE_TABLE, null=False), 4) == 0.0537


def _sm_weights(K, weighting):
    if weighting is None:
        return None
    W = kl.disagreement_weights(K, weighting)
    return W / W.max()  # statsmodels takes w = 1 - weights as agreement weights


@pytest.mark.parametrize("weighting", [None, "linear", "quadratic"])
@pytest.mark.parametrize("K", [2, 3, 5])
def test_null_and_non_null_se_match_statsmodels(K, weighting):
    rng = np.random.default_rng(100 * K + (weighting is None))
    for _ in range(20):
        C = rng.integers(0, 40, size=(K, K)) + rng.integers(0, 60, size=K) * np.eye(K, dtype=int)
        C[0, 0] += 1  # never an all-zero matrix
        res = cohens_kappa(C, weights=_sm_weights(K, weighting), return_results=True)
        se0 = kl.kappa_standard_error(C, weighting=weighting, null=True)
        se1 = kl.kappa_standard_error(C, weighting=weighting)
        assert se0 == pytest.approx(np.sqrt(res.var_kappa0), rel=1e-9)
        assert se1 == pytest.approx(np.sqrt(res.var_kappa), rel=1e-9)


def test_null_se_on_a_stack_matches_scalar_calls():
    rng = np.random.default_rng(7)
    stack = rng.integers(1, 30, size=(6, 4, 4))
    batched = kl.kappa_standard_error(stack, weighting="quadratic", null=True)
    for C, value in zip(stack, batched, strict=True):
        res = cohens_kappa(C, weights=_sm_weights(4, "quadratic"), return_results=True)
        assert value == pytest.approx(np.sqrt(res.var_kappa0), rel=1e-9)


def test_null_se_is_the_spread_of_kappa_under_independence():
    # Simulation: tables drawn from r c^T / N^2 (kappa = 0) have an SD of kappa close to se0.
    # 20,000 tables: the SD's relative Monte Carlo error is about 1/sqrt(2 * 20000) = 0.5%;
    # 3% allows 6 of those plus the O(1/N) gap of the large-sample formula at N = 400.
    pr = np.array([0.5, 0.3, 0.2])
    pc = np.array([0.4, 0.4, 0.2])
    N = 400
    P = np.outer(pr, pc)
    rng = np.random.default_rng(2024)
    tables = rng.multinomial(N, P.ravel(), size=20_000).reshape(-1, 3, 3)
    sd = np.nanstd(kl.kappa(tables))
    se0 = kl.kappa_standard_error(np.round(P * N), null=True)  # whole: 80, 48, 32, ...
    assert sd == pytest.approx(se0, rel=0.03)


def test_null_se_is_zero_for_a_one_class_margin():
    # every reference case in class 0: kappa is 0 in every sample, and so is se0
    assert kl.kappa_standard_error([[5, 3], [0, 0]], null=True) == pytest.approx(0.0, abs=1e-12)


def test_null_must_be_a_bool():
    with pytest.raises(TypeError, match="null must be True or False, got 'yes'"):
        kl.kappa_standard_error(FCE_TABLE, null="yes")
