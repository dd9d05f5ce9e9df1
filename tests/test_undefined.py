"""The undefined-value policy: None for one matrix, NaN in a stack, or what zero_division says."""

import math
import warnings

import numpy as np
import pytest

import kappalib as kl

ONE_CLASS = [[5, 0], [0, 0]]  # both raters use class 0 only: kappa and MCC are 0/0
ONE_SIDED = [[3, 2], [0, 0]]  # the reference uses one class: MCC is 0/0, kappa is 0
PERFECT = [[4, 0], [0, 6]]  # no off-diagonal mass: entropy is undefined

UNDEFINED_CALLS = [
    ("kappa", lambda zd: kl.kappa(ONE_CLASS, zero_division=zd)),
    ("weighted kappa", lambda zd: kl.kappa(ONE_CLASS, weighting="linear", zero_division=zd)),
    ("mcc", lambda zd: kl.mcc(ONE_SIDED, zero_division=zd)),
    ("kappa_max", lambda zd: kl.kappa_max(ONE_CLASS, zero_division=zd)),
    ("scotts_pi", lambda zd: kl.scotts_pi(ONE_CLASS, zero_division=zd)),
    ("standard error", lambda zd: kl.kappa_standard_error(ONE_CLASS, zero_division=zd)),
    ("entropy", lambda zd: kl.off_diagonal_entropy(PERFECT, zero_division=zd)),
    ("cohen_kappa_score", lambda zd: kl.cohen_kappa_score([2, 2], [2, 2], zero_division=zd)),
    ("matthews_corrcoef", lambda zd: kl.matthews_corrcoef([0, 0, 0], [0, 1, 1], zero_division=zd)),
]


@pytest.mark.parametrize(
    "call", [c[1] for c in UNDEFINED_CALLS], ids=[c[0] for c in UNDEFINED_CALLS]
)
def test_policy(call):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert call(None) is None
        assert call(0.0) == 0.0
        assert type(call(0.0)) is float
        assert math.isnan(call(float("nan")))
        with pytest.raises(kl.UndefinedMetricError, match="undefined"):
            call("raise")


def test_undefined_error_is_a_value_error():
    with pytest.raises(ValueError):
        kl.kappa(ONE_CLASS, zero_division="raise")


def test_mcc_defined_where_kappa_is_zero():
    # the reference uses one class: kappa is 0 (defined), MCC is 0/0
    assert kl.kappa(ONE_SIDED) == 0.0
    assert kl.mcc(ONE_SIDED) is None


def test_batched_gives_nan_where_undefined_and_never_zero():
    stack = np.array([[[8, 2], [1, 9]], ONE_CLASS])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = kl.kappa(stack)
    assert out[0] == pytest.approx(0.7)
    assert math.isnan(out[1])
    assert kl.kappa(stack, zero_division=-2.0)[1] == -2.0
    with pytest.raises(kl.UndefinedMetricError, match=r"stack index \(1,\)"):
        kl.kappa(stack, zero_division="raise")


def test_confint_undefined_is_none_not_a_pair():
    assert kl.kappa_confint(ONE_CLASS).low is None
    low, high = kl.kappa_confint(ONE_CLASS, zero_division=float("nan"))
    assert math.isnan(low) and math.isnan(high)


def test_confint_contains_kappa_and_is_clipped():
    low, high = kl.kappa_confint([[8, 2], [1, 9]])
    assert low < 0.7 < high == 1.0
    lo90, hi90 = kl.kappa_confint([[80, 20], [10, 90]], confidence_level=0.90)
    lo99, hi99 = kl.kappa_confint([[80, 20], [10, 90]], confidence_level=0.99)
    assert lo99 < lo90 < 0.7 < hi90 < hi99 < 1
    # symmetric around kappa when not clipped, half-width z * se
    se = kl.kappa_standard_error([[80, 20], [10, 90]])
    assert hi90 - lo90 == pytest.approx(2 * 1.6448536269514722 * se, rel=1e-12)
