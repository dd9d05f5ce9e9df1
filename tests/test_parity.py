"""Parity with scikit-learn and statsmodels, the independent oracles, on random cases."""

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score as sk_kappa
from sklearn.metrics import confusion_matrix as sk_confusion
from sklearn.metrics import matthews_corrcoef as sk_mcc
from statsmodels.stats.inter_rater import cohens_kappa as sm_kappa
from sweeps import sweep

import kappalib as kl

N_CASES = 500


def _case(seed):
    rng = np.random.default_rng(seed)
    K = int(rng.integers(2, 8))
    n = int(rng.integers(5, 200))
    pool = rng.permutation(np.arange(-3, 12))[:K]
    # a correlated pair, so that kappa spans negative to near 1
    y1 = rng.choice(pool, size=n)
    flip = rng.random(n) < rng.uniform(0.05, 0.95)
    y2 = np.where(flip, rng.choice(pool, size=n), y1)
    w = rng.uniform(0.0, 3.0, size=n) if seed % 2 else None
    labels = None
    if seed % 3 == 0:
        labels = rng.permutation(np.union1d(y1, y2))
    if seed % 5 == 0:
        y1, y2 = y1.astype(str), y2.astype(str)
        labels = None if labels is None else labels.astype(str)
    return y1, y2, w, labels


@pytest.mark.parametrize("seed", sweep(N_CASES, 50))
def test_random_pairs_against_sklearn(seed):
    y1, y2, w, labels = _case(seed)
    C = kl.confusion_matrix(y1, y2, labels=labels, sample_weight=w)
    np.testing.assert_allclose(
        C, sk_confusion(y1, y2, labels=labels, sample_weight=w), rtol=0, atol=1e-9
    )
    weightings = (
        [None] if y1.dtype.kind == "U" and labels is None else [None, "linear", "quadratic"]
    )
    for weighting in weightings:
        ours = kl.cohen_kappa_score(y1, y2, labels=labels, weighting=weighting, sample_weight=w)
        theirs = sk_kappa(y1, y2, labels=labels, weights=weighting, sample_weight=w)
        if np.isnan(theirs):
            assert ours is None
        else:
            assert ours == pytest.approx(theirs, abs=1e-9)
    # MCC does not depend on the order of the classes, and here labels= lists them all
    ours = kl.matthews_corrcoef(y1, y2, labels=labels, sample_weight=w)
    theirs = sk_mcc(y1, y2, sample_weight=w)
    one_class = C.sum(axis=1).astype(bool).sum() == 1 or C.sum(axis=0).astype(bool).sum() == 1
    if one_class:  # 0/0: kappalib says None where scikit-learn says 0.0
        assert ours is None and theirs == 0.0
    else:
        assert ours == pytest.approx(theirs, abs=1e-9)


def test_string_labels_need_an_order_for_weighting():
    with pytest.raises(ValueError, match="labels=") as info:
        kl.cohen_kappa_score(["low", "high"], ["high", "high"], weighting="linear")
    assert "sorted, they would be ['high', 'low']" in str(info.value)
    value = kl.cohen_kappa_score(
        ["low", "high", "mid"],
        ["low", "mid", "mid"],
        weighting="linear",
        labels=["low", "mid", "high"],
    )
    expected = sk_kappa(
        ["low", "high", "mid"],
        ["low", "mid", "mid"],
        weights="linear",
        labels=["low", "mid", "high"],
    )
    assert value == pytest.approx(expected, abs=1e-12)


FLEISS_1969 = np.array([[106, 10, 4], [22, 28, 10], [2, 12, 6]])


@pytest.mark.parametrize("weighting", [None, "linear", "quadratic", "fleiss"])
def test_standard_error_against_statsmodels(weighting):
    if weighting is None:
        res = sm_kappa(FLEISS_1969)
        ours = kl.kappa_standard_error(FLEISS_1969)
    elif weighting == "fleiss":
        W = np.array([[0, 1, 1 - 0.4444], [1, 0, 1 - 0.6667], [1 - 0.4444, 1 - 0.6667, 0]])
        res = sm_kappa(FLEISS_1969, weights=W)
        ours = kl.kappa_standard_error(FLEISS_1969, weighting=W)
        assert kl.kappa(FLEISS_1969, weighting=W) == pytest.approx(res.kappa, abs=1e-12)
    else:
        res = sm_kappa(FLEISS_1969, wt=weighting)
        ours = kl.kappa_standard_error(FLEISS_1969, weighting=weighting)
        assert kl.kappa(FLEISS_1969, weighting=weighting) == pytest.approx(res.kappa, abs=1e-12)
    assert ours == pytest.approx(res.std_kappa, abs=1e-9)


@pytest.mark.parametrize("seed", range(40))
@pytest.mark.parametrize("weighting", [None, "linear", "quadratic"])
def test_standard_error_random_tables_against_statsmodels(seed, weighting):
    rng = np.random.default_rng(1000 + seed)
    K = int(rng.integers(2, 7))
    C = rng.integers(0, 30, size=(K, K)) + np.diag(rng.integers(1, 40, size=K))
    res = sm_kappa(C) if weighting is None else sm_kappa(C, wt=weighting)
    assert kl.kappa(C, weighting=weighting) == pytest.approx(res.kappa, abs=1e-9)
    assert kl.kappa_standard_error(C, weighting=weighting) == pytest.approx(res.std_kappa, abs=1e-9)
    assert kl.kappa_max(C) == pytest.approx(res.kappa_max, abs=1e-9)


@pytest.mark.parametrize("seed", range(20))
def test_expected_counts_against_scipy(seed):
    from scipy.stats.contingency import expected_freq

    rng = np.random.default_rng(3000 + seed)
    K = int(rng.integers(2, 7))
    C = rng.integers(1, 50, size=(K, K))
    np.testing.assert_allclose(kl.expected_counts(C), expected_freq(C), rtol=1e-12)
    stack = np.stack([C, C.T, 2 * C])
    np.testing.assert_allclose(kl.expected_counts(stack)[1], expected_freq(C.T), rtol=1e-12)


@pytest.mark.filterwarnings("ignore:A single label was found")
@pytest.mark.parametrize(
    "y_true, y_pred, labels",
    [
        ([0, 1, 1, 0], [1, 1, 1, 1], None),  # the prediction uses one class
        ([2, 2, 2], [0, 1, 2], None),  # the reference uses one class
        (["a", "b", "a"], ["b", "b", "b"], ["b", "a"]),  # with labels=
        ([5, 5], [5, 5], None),  # both use one class
    ],
)
def test_mcc_where_sklearn_says_zero(y_true, y_pred, labels):
    """0/0: scikit-learn returns 0.0; kappalib returns None, or the zero_division value."""
    assert sk_mcc(y_true, y_pred) == 0.0
    assert kl.matthews_corrcoef(y_true, y_pred, labels=labels) is None
    assert kl.matthews_corrcoef(y_true, y_pred, labels=labels, zero_division=0.0) == 0.0
