"""The chi-square, F and t distributions that the tests of bias, the ICC intervals and the
many-rater intervals need.

kappalib depends on numpy alone, so the three functions it needs are written here from the
standard library's ``math.lgamma``: the survival function of chi-square (the regularized
upper incomplete gamma function), and the survival function and the quantile of F (the
regularized incomplete beta function).  Both special functions are evaluated as in
Press et al., *Numerical Recipes* (3rd ed., sections 6.2 and 6.4): a series or a continued
fraction (modified Lentz), whichever converges fast for the arguments.  The quantile is
Newton's method on ``log x``, kept inside a bracket that halves when a step leaves it.
``tests/test_distributions.py`` checks them against scipy.stats.
"""

from __future__ import annotations

import math
from statistics import NormalDist

_EPS = 1e-16


_TINY = 1e-300


_MAXIT = 100_000


def _lentz(coef, start):
    """The continued fraction 1 / (start + d_2 / (1 + d_3 / (1 + ...))) with ``coef(j)``
    the numerator d_j (modified Lentz); convergence is checked after the odd terms."""
    c, d = 1.0, start
    d = 1.0 / (d if abs(d) > _TINY else _TINY)
    h = d
    for j in range(2, _MAXIT):
        a = coef(j)
        d = 1.0 + a * d
        d = 1.0 / (d if abs(d) > _TINY else _TINY)
        c = 1.0 + a / c
        c = c if abs(c) > _TINY else _TINY
        step = c * d
        h *= step
        if j % 2 and abs(step - 1.0) < _EPS:
            return h
    raise ArithmeticError("continued fraction did not converge")  # pragma: no cover


def _betacf(a, b, x):
    """Numerical Recipes' betacf: the continued fraction of I_x(a, b); its d_1 is in the
    start value 1 - (a + b) x / (a + 1)."""

    def coef(j):
        m = j // 2
        if j % 2:  # d_{2m+1}
            return -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
        return m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m))

    return _lentz(coef, 1.0 - (a + b) * x / (a + 1.0))


def _beta_reg(a, b, x, upper, xc):
    """I_x(a, b), or 1 - I_x(a, b) when ``upper``, each without cancellation in its tail;
    ``xc`` is 1 - x, computed by the caller without rounding x to 1 first."""
    if x <= 0.0:
        return 1.0 if upper else 0.0
    if xc <= 0.0:
        return 0.0 if upper else 1.0
    log_front = (
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log(xc)
    )
    front = math.exp(log_front)
    if x < (a + 1.0) / (a + b + 2.0):
        low = front * _betacf(a, b, x) / a
        return 1.0 - low if upper else low
    high = front * _betacf(b, a, xc) / b
    return high if upper else 1.0 - high


def _gamma_q(s, x):
    """The regularized upper incomplete gamma function Q(s, x) = Gamma(s, x) / Gamma(s)."""
    if x <= 0.0:
        return 1.0
    log_front = -x + s * math.log(x) - math.lgamma(s)
    if x < s + 1.0:  # series for P(s, x)
        term = total = 1.0 / s
        ap = s
        for _ in range(_MAXIT):
            ap += 1.0
            term *= x / ap
            total += term
            if abs(term) < abs(total) * _EPS:
                break
        return 1.0 - total * math.exp(log_front)
    # continued fraction for Q(s, x) (Numerical Recipes' gcf)
    b = x + 1.0 - s
    c = 1.0 / _TINY
    d = 1.0 / b
    h = d
    for i in range(1, _MAXIT):
        an = -i * (i - s)
        b += 2.0
        d = an * d + b
        d = 1.0 / (d if abs(d) > _TINY else _TINY)
        c = b + an / c
        c = c if abs(c) > _TINY else _TINY
        step = d * c
        h *= step
        if abs(step - 1.0) < _EPS:
            break
    return math.exp(log_front) * h


def chi2_sf(x: float, df: float) -> float:
    """P(X >= x) for X ~ chi-square with ``df`` degrees of freedom."""
    if math.isinf(x):
        return 0.0
    return min(1.0, max(0.0, _gamma_q(df / 2.0, x / 2.0)))


def _f_tails(x, d1, d2):
    """(P(F <= x), P(F > x)) for F ~ F(d1, d2)."""
    if x <= 0.0:
        return 0.0, 1.0
    if math.isinf(x):
        return 1.0, 0.0
    y, yc = d1 * x / (d1 * x + d2), d2 / (d1 * x + d2)
    return (
        _beta_reg(d1 / 2.0, d2 / 2.0, y, False, yc),
        _beta_reg(d1 / 2.0, d2 / 2.0, y, True, yc),
    )


def f_sf(x: float, d1: float, d2: float) -> float:
    """P(F > x) for F ~ F(d1, d2)."""
    return _f_tails(x, d1, d2)[1]


def _f_logpdf(x, d1, d2):
    return (
        0.5 * d1 * math.log(d1 / d2)
        + (0.5 * d1 - 1.0) * math.log(x)
        - 0.5 * (d1 + d2) * math.log1p(d1 * x / d2)
        - (math.lgamma(d1 / 2.0) + math.lgamma(d2 / 2.0) - math.lgamma((d1 + d2) / 2.0))
    )


def f_ppf(q: float, d1: float, d2: float) -> float:
    """The ``q`` quantile of F(d1, d2), 0 < q < 1."""
    upper = q > 0.5
    target = 1.0 - q if upper else q
    lo, hi = -745.0, 745.0  # log x
    t = 0.0
    for _ in range(400):
        x = math.exp(t)
        cdf, sf = _f_tails(x, d1, d2)
        # g(t) increases with t: the cdf minus q, written in the smaller tail
        g = (target - sf) if upper else (cdf - target)
        if g == 0.0:
            return x
        if g > 0.0:
            hi = t
        else:
            lo = t
        slope = math.exp(_f_logpdf(x, d1, d2) + t)  # d cdf / d log x
        step = g / slope if slope > 0.0 else math.inf
        new = t - step
        if not (lo < new < hi):
            new = 0.5 * (lo + hi)
        if abs(new - t) <= 4e-16 * max(1.0, abs(t)) or hi - lo < 1e-15:
            return math.exp(new)
        t = new
    return math.exp(t)  # pragma: no cover


def _t_upper(t, df):
    """P(T > t) for t >= 0: half the regularized incomplete beta I_x(df/2, 1/2) at
    x = df / (df + t^2), with 1 - x = t^2 / (df + t^2) passed unrounded."""
    return 0.5 * _beta_reg(df / 2.0, 0.5, df / (df + t * t), False, t * t / (df + t * t))


def t_ppf(p: float, df: float) -> float:
    """Quantile of Student's t with ``df`` degrees of freedom, for 0.5 < p < 1 (the intervals of
    the many-rater coefficients, Gwet's t with n - 1 df).

    Newton's method on the CDF from the normal quantile, which lies below it: the CDF is
    concave there, so the steps approach the root from below and never overshoot.
    """
    z = NormalDist().inv_cdf(p)
    if df > 2000:
        # Cornish-Fisher expansion in 1/df (Abramowitz & Stegun 26.7.5), exact to ~1e-12
        # here, where the incomplete beta of df / 2 loses digits in its log-gamma terms
        z2 = z * z
        g = (
            z * (z2 + 1) / 4,
            z * ((5 * z2 + 16) * z2 + 3) / 96,
            z * (((3 * z2 + 19) * z2 + 17) * z2 - 15) / 384,
            z * ((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945) / 92160,
        )
        return z + sum(gi / df ** (i + 1) for i, gi in enumerate(g))
    q = 1.0 - p
    t = z
    log_c = math.lgamma((df + 1) / 2) - math.lgamma(df / 2) - 0.5 * math.log(df * math.pi)
    for _ in range(100):
        pdf = math.exp(log_c - (df + 1) / 2 * math.log1p(t * t / df))
        step = (_t_upper(t, df) - q) / pdf
        t += step
        if abs(step) <= 1e-13 * max(1.0, t):
            break
    return t


def normal_pvalue(z: float) -> float:
    """The two-sided p-value of a standard normal z, 2 Phi(-|z|) = erfc(|z| / sqrt 2): no
    cancellation of 1 - Phi in the far tail."""
    return math.erfc(abs(z) / math.sqrt(2.0))
