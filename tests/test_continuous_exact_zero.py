"""The ICC's zero residual (issue 34, found by the conformance table): a residual within the
rounding of the centred table is 0, so F is infinite; a residual just above it is not.

The expected values are exact: the two-way ANOVA's mean squares in ``fractions.Fraction``.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

import kappalib as kl


def exact_F3(rows):
    """BMS / EMS of a units x raters table, in fractions (None when EMS = 0)."""
    Y = [[Fraction(v) for v in r] for r in rows]
    n, k = len(Y), len(Y[0])
    grand = sum(map(sum, Y)) / (n * k)
    row = [sum(r) / k for r in Y]
    col = [sum(Y[i][j] for i in range(n)) / n for j in range(k)]
    SSR = k * sum((m - grand) ** 2 for m in row)
    SSE = sum((Y[i][j] - row[i] - col[j] + grand) ** 2 for i in range(n) for j in range(k))
    BMS, EMS = SSR / (n - 1), SSE / ((n - 1) * (k - 1))
    return None if EMS == 0 else BMS / EMS


@pytest.mark.parametrize("shift", [2, 0.125, 1e6 + 0.25, -3.5])
def test_an_exact_shift_gives_an_infinite_F_and_p_zero(shift):
    x = [1.5, 2.0, 3.25, 4.0, 6.0, 7.75]
    rows = [[a, a + shift] for a in x]
    assert exact_F3(rows) is None  # the shifts are exact in binary floating point
    res = kl.icc(rows, layout="units x raters")
    for form in ("ICC2", "ICC3", "ICC2k", "ICC3k"):
        assert math.isinf(res[form].F) and res[form].pvalue == 0.0
    assert res.ICC3.estimate == pytest.approx(1.0, abs=1e-15)


@pytest.mark.parametrize("eps", [1e-9, 1e-6, 1e-3])
def test_a_small_true_residual_keeps_a_finite_F(eps):
    rows = [[1, 3], [2, 4], [3, 5 + eps], [4, 6], [6, 8]]
    F = exact_F3(rows)
    res = kl.icc(rows, layout="units x raters")
    assert math.isfinite(res.ICC3.F)
    assert res.ICC3.F == pytest.approx(float(F), rel=1e-5)
