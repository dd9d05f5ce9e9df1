"""One name per idea (issue 22): the old names still work for one release, each with a
DeprecationWarning that names the new one, and give exactly what the new name gives."""

import numpy as np
import pytest

import kappalib as kl

C = [[8, 2], [1, 9]]
Y = [0, 1, 1, 0, 1, 0, 0, 1, 1, 1]
A = [0, 1, 0, 0, 1, 1, 0, 1, 1, 0]
B = [0, 1, 1, 0, 1, 0, 0, 1, 0, 1]


@pytest.mark.parametrize(
    ("old", "new", "args", "kwargs"),
    [
        ("kappa_bootstrap_ci", "bootstrap_confint", (C,), {"n_resamples": 200, "rng": 0}),
        (
            "paired_difference_ci",
            "paired_difference_confint",
            (Y, A, B),
            {"n_resamples": 200, "rng": 0},
        ),
    ],
)
def test_renamed_functions_warn_and_agree(old, new, args, kwargs):
    with pytest.warns(DeprecationWarning, match=f"kl.{old} is deprecated.*use kl.{new}"):
        got = getattr(kl, old)(*args, **kwargs)
    assert got == getattr(kl, new)(*args, **kwargs)
    assert getattr(kl, old).__deprecated__ == new


@pytest.mark.parametrize(
    ("call", "new"),
    [
        (lambda **kw: kl.kappa_confint(C, **kw), "kappa_confint"),
        (lambda **kw: kl.bootstrap_confint(C, n_resamples=200, rng=0, **kw), "bootstrap_confint"),
        (
            lambda **kw: kl.paired_difference_confint(Y, A, B, n_resamples=200, rng=0, **kw),
            "paired_difference_confint",
        ),
        (
            lambda **kw: kl.kappa_sample_size(0.6, [0.5, 0.5], half_width=0.1, **kw),
            "kappa_sample_size",
        ),
    ],
)
def test_confidence_is_renamed_confidence_level(call, new):
    with pytest.warns(DeprecationWarning, match="confidence_level="):
        old = call(confidence=0.9)
    assert old == call(confidence_level=0.9)
    assert old != call()  # 0.95 by default: the keyword was not ignored
    with pytest.raises(TypeError, match="once"), pytest.warns(DeprecationWarning):
        call(confidence=0.9, confidence_level=0.8)


def test_disagreement_weights_kind_is_renamed_weighting():
    with pytest.warns(DeprecationWarning, match="weighting="):
        old = kl.disagreement_weights(3, kind="quadratic")
    assert np.array_equal(old, kl.disagreement_weights(3, weighting="quadratic"))
    assert np.array_equal(old, kl.disagreement_weights(3, "quadratic"))  # positional: no warning
    assert old.tolist() == [[0, 1, 4], [1, 0, 1], [4, 1, 0]]


def test_weights_keyword_on_a_matrix_function_is_one_sentence():
    for f in (kl.kappa, kl.kappa_confint, kl.gwet_ac1):
        with pytest.raises(TypeError, match="weighting="):
            f(C, weights="linear")
    # scikit-learn's name stays in the scikit-learn look-alike
    assert kl.cohen_kappa_score(Y, A, weights="linear") == kl.cohen_kappa_score(
        Y, A, weighting="linear"
    )


def test_new_names_emit_no_warning():
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        kl.kappa_confint(C, confidence_level=0.9)
        kl.bootstrap_confint(C, n_resamples=50, rng=0, confidence_level=0.9)
        kl.paired_difference_confint(Y, A, B, n_resamples=50, rng=0)
        kl.cohen_kappa_confint(Y, A, confidence_level=0.9)
        kl.disagreement_weights(3, "linear")
