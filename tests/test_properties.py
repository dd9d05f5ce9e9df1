"""Hypothesis properties: the invariants that any correct implementation must satisfy."""

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import kappalib as kl

settings.register_profile("course", max_examples=150, deadline=None)
settings.load_profile("course")


def matrices(min_k=2, max_k=6, max_count=1000):
    return (
        st.integers(min_k, max_k)
        .flatmap(lambda K: arrays(np.int64, (K, K), elements=st.integers(0, max_count)))
        .filter(lambda C: C.sum() > 0)
    )


def _both_none_or_close(a, b, tol=1e-9):
    if a is None or b is None:
        return a is None and b is None
    return math.isclose(a, b, rel_tol=tol, abs_tol=tol)


@given(matrices(), st.floats(1e-3, 1e6))
def test_scale_invariance(C, s):
    for f in (kl.kappa, kl.mcc):
        assert _both_none_or_close(f(C), f(C * s))
    for weighting in ("linear", "quadratic"):
        assert _both_none_or_close(
            kl.kappa(C, weighting=weighting), kl.kappa(C * s, weighting=weighting)
        )


@given(matrices())
def test_transpose_symmetry(C):
    assert _both_none_or_close(kl.kappa(C), kl.kappa(C.T))
    assert _both_none_or_close(kl.mcc(C), kl.mcc(C.T))
    assert _both_none_or_close(
        kl.kappa(C, weighting="quadratic"), kl.kappa(C.T, weighting="quadratic")
    )


@given(matrices())
def test_symmetric_matrix_gives_kappa_equal_mcc(C):
    S = C + C.T  # Proposition 1 of Delgado & Tibau (2019)
    assert _both_none_or_close(kl.kappa(S), kl.mcc(S))


@given(st.integers(0, 500), st.integers(0, 500), st.integers(0, 500), st.integers(0, 500))
def test_binary_harmonic_and_geometric_means(a, b, c, d):
    det = a * d - b * c
    den_alpha, den_beta = (a + b) * (b + d), (a + c) * (c + d)
    assume(den_alpha > 0 and den_beta > 0 and det != 0)
    alpha, beta = det / den_alpha, det / den_beta
    C = [[a, b], [c, d]]
    harmonic = 2 * alpha * beta / (alpha + beta)
    geometric = math.copysign(math.sqrt(alpha * beta), det)
    assert kl.kappa(C) == pytest.approx(harmonic, rel=1e-9, abs=1e-12)
    assert kl.mcc(C) == pytest.approx(geometric, rel=1e-9, abs=1e-12)
    assert abs(kl.kappa(C)) <= abs(kl.mcc(C)) + 1e-12


@given(matrices())
def test_kappa_at_most_kappa_max_and_in_range(C):
    k, kmax = kl.kappa(C), kl.kappa_max(C)
    assume(k is not None)
    assert -1 - 1e-12 <= k <= kmax + 1e-12 <= 1 + 2e-12
    m = kl.mcc(C)
    if m is not None:
        assert -1 <= m <= 1


@given(matrices())
def test_byrt_identity_for_2x2(C):
    C = C[:2, :2]
    assume(C.sum() > 0)
    k = kl.kappa(C)
    assume(k is not None)
    pa, pi, bi = kl.pabak(C), kl.prevalence_index(C), kl.bias_index(C)
    # Byrt, Bishop & Carlin (1993): kappa = (PABAK - PI^2 + BI^2) / (1 - PI^2 + BI^2)
    assert k == pytest.approx((pa - pi**2 + bi**2) / (1 - pi**2 + bi**2), abs=1e-9)


@given(
    st.integers(2, 5).flatmap(lambda K: arrays(np.int64, (7, K, K), elements=st.integers(0, 50)))
)
def test_batched_equals_loop(stack):
    stack = stack + np.eye(stack.shape[-1], dtype=np.int64)  # no all-zero matrix
    for f, kw in [
        (kl.kappa, {}),
        (kl.kappa, {"weighting": "linear"}),
        (kl.mcc, {}),
        (kl.observed_agreement, {}),
        (kl.expected_agreement, {}),
        (kl.kappa_max, {}),
        (kl.scotts_pi, {}),
        (kl.asymmetry, {}),
        (kl.off_diagonal_entropy, {}),
        (kl.kappa_standard_error, {"weighting": "quadratic"}),
    ]:
        batched = f(stack, **kw)
        assert batched.shape == (7,)
        for i, C in enumerate(stack):
            one = f(C, **kw)
            if one is None:
                assert np.isnan(batched[i])
            else:
                assert batched[i] == pytest.approx(one, abs=1e-12)


@given(matrices())
@example(np.array([[1000, 2], [0, 0]]))  # issue 22, bug 8: 0.0 against 2.36e-7 (cancellation)
def test_weighted_with_flat_weights_is_unweighted(C):
    K = C.shape[0]
    assert _both_none_or_close(kl.kappa(C), kl.kappa(C, weighting=1 - np.eye(K)))
    assert _both_none_or_close(
        kl.kappa_standard_error(C), kl.kappa_standard_error(C, weighting=3 * (1 - np.eye(K)))
    )


@given(matrices(min_k=3, max_k=3))
def test_two_class_weighted_kappa_is_cohens_kappa(C):
    """For K = 2 every distance weighting is a multiple of 1 - I: weighted = unweighted,
    checked against kappa in exact arithmetic (not against kappalib's unweighted path)."""
    C2 = C[:2, :2]
    assume(C2.sum() > 0)
    F = [[Fraction(int(x)) for x in row] for row in C2]
    N = sum(map(sum, F))
    r = [sum(row) for row in F]
    c = [F[0][0] + F[1][0], F[0][1] + F[1][1]]
    p_o = (F[0][0] + F[1][1]) / N
    p_e = (r[0] * c[0] + r[1] * c[1]) / N**2
    exact = None if p_e == 1 else float((p_o - p_e) / (1 - p_e))
    for weighting in ("linear", "quadratic"):
        assert _both_none_or_close(kl.kappa(C2, weighting=weighting), exact, tol=1e-12)
