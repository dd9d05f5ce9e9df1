"""Bangdiwala's B and its weighted form (issue 34).

Oracles: exact fractions (B, and the weighted B as the area of vcd's nested rectangles, and
the delta-method variance whose gradient is taken by exact central differences: the
numerator and the denominator are quadratic in the cells, so a central difference is their
derivative exactly).  vcd's ``agreementplot`` (R) is in the conformance table
(conformance/cases/bangdiwala_b.json).
"""

import math
from fractions import Fraction

import numpy as np
import pytest
from scipy import stats

import kappalib as kl


def vcd_area(M, w):
    """vcd 1.4-11's agreementplot: A[j, i] = (column i within j - 1 of i) x (row i within
    j - 1 of i), minus the band inside it; B_w = sum_j w_j A_j / sum_i r_i c_i."""
    K = len(M)
    num = Fraction(0)
    for i in range(K):
        prev = Fraction(0)
        for j, wj in enumerate(w, start=1):
            lb, tr = max(0, i - j + 1), min(K - 1, i + j - 1)
            A = sum(M[r][i] for r in range(lb, tr + 1)) * sum(M[i][c] for c in range(lb, tr + 1))
            num += Fraction(wj) * (A - prev)
            prev = A
    den = sum(sum(M[i]) * sum(r[i] for r in M) for i in range(K))
    return num, den


def random_table(rng, K):
    C = rng.integers(0, 12, (K, K)) + np.diag(rng.integers(5, 30, K))
    return C.tolist()


@pytest.mark.parametrize("seed", range(10))
def test_b_is_exact(seed):
    rng = np.random.default_rng(seed)
    C = random_table(rng, int(rng.integers(2, 7)))
    K = len(C)
    num, den = vcd_area(C, [1])
    assert kl.bangdiwala_b(C) == pytest.approx(float(num / den), rel=1e-14)
    assert num == sum(Fraction(C[i][i]) ** 2 for i in range(K))
    linear = [Fraction(K - 1 - d, K - 1) for d in range(K)]
    num, den = vcd_area(C, linear)
    assert kl.bangdiwala_b(C, weighting="linear") == pytest.approx(float(num / den), rel=1e-13)
    vcd_default = [1, 1 - Fraction(1, (K - 1) ** 2)] if K > 2 else [1, 0]
    W = kl.disagreement_weights(K, "quadratic") / (K - 1) ** 2
    W[np.abs(np.subtract.outer(range(K), range(K))) >= 2] = 1
    num, den = vcd_area(C, vcd_default)
    assert kl.bangdiwala_b(C, weighting=W) == pytest.approx(float(num / den), rel=1e-13)


def _b(M, w):
    num, den = vcd_area(M, w)
    return num / den


@pytest.mark.parametrize("seed", range(6))
def test_interval_is_the_delta_method(seed):
    rng = np.random.default_rng(30 + seed)
    C = random_table(rng, int(rng.integers(2, 6)))
    K, N = len(C), sum(map(sum, C))
    w = [Fraction(1)] + [Fraction(K - 1 - d, K - 1) for d in range(1, K)] if seed % 2 else [1]
    P = [[Fraction(v, N) for v in row] for row in C]
    B = _b(P, w)
    h = Fraction(1, 10**6)
    grad = []
    for i in range(K):
        for j in range(K):
            up = [row[:] for row in P]
            down = [row[:] for row in P]
            up[i][j] += h
            down[i][j] -= h
            nu, du = vcd_area(up, w)
            nd, dd = vcd_area(down, w)
            dn, dD = (nu - nd) / (2 * h), (du - dd) / (2 * h)  # exact: both are quadratic
            _, den = vcd_area(P, w)
            grad.append((P[i][j], (dn - B * dD) / den))
    mean = sum(p * g for p, g in grad)
    var = (sum(p * g * g for p, g in grad) - mean * mean) / N
    se = math.sqrt(var)
    z = stats.norm.ppf(0.975)
    weighting = None if len(w) == 1 else "linear"
    ci = kl.bangdiwala_confint(C, weighting=weighting)
    assert ci.low == pytest.approx(max(0.0, float(B) - z * se), rel=1e-12)
    assert ci.high == pytest.approx(min(1.0, float(B) + z * se), rel=1e-12)
    assert mean == 0  # B does not change when every cell is scaled


def test_stack_and_undefined():
    C = [[[8, 2], [1, 9]], [[0, 5], [0, 0]], [[5, 0], [0, 5]]]
    out = kl.bangdiwala_b(np.array(C))
    assert out[0] == pytest.approx(145 / 200) and np.isnan(out[1]) and out[2] == 1.0
    assert kl.bangdiwala_b(C[1]) is None
    assert kl.bangdiwala_b(C[1], zero_division=0.0) == 0.0
    with pytest.raises(kl.UndefinedMetricError, match="Bangdiwala's B is undefined"):
        kl.bangdiwala_b(C[1], zero_division="raise")
    assert kl.bangdiwala_confint(C[1]) == (None, None)
    ci = kl.bangdiwala_confint(np.array(C))
    assert np.isnan(ci.low[1]) and ci.low[2] == ci.high[2] == 1.0


def test_bad_input():
    with pytest.raises(ValueError, match="depend on the distance between categories alone"):
        kl.bangdiwala_b(
            [[5, 1, 0], [1, 5, 1], [0, 1, 5]], weighting=[[0, 1, 2], [1, 0, 1], [1, 1, 0]]
        )
    with pytest.raises(ValueError, match="weighting must be None, 'linear', 'quadratic'"):
        kl.bangdiwala_b([[5, 1], [1, 5]], weighting="cubic")
    with pytest.raises(ValueError, match="square"):
        kl.bangdiwala_b([[5, 1, 2], [1, 5, 0]])
    with pytest.raises(TypeError, match="bangdiwala_b\\(\\) takes one confusion matrix"):
        kl.bangdiwala_b([1, 2], [1, 2])
