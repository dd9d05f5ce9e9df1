r"""The noncentral t distribution and the chi-square quantile, for the intervals of the limits
of agreement (:mod:`kappalib._coefficients.limits_of_agreement`).

kappalib depends on numpy alone, so both are written here:

* the noncentral t: :math:`T = (Z + \delta) / \sqrt{V/\nu}` with :math:`Z` standard normal and
  :math:`V \sim \chi^2_\nu` independent.  Conditioning on :math:`x = \sqrt{V/\nu}`,

  .. math::

      P(T \le t) = \int_0^\infty \Phi(t x - \delta)\, g_\nu(x)\, dx,

  where :math:`g_\nu` is the density of :math:`x` (a scaled chi distribution).  The integral is
  taken over :math:`y = \log x`, where the integrand is smooth, on the span where the density
  exceeds :math:`e^{-45}` of its peak, by Gauss-Legendre panels of 16 nodes: 40 even panels
  for the density, with breaks added where :math:`\Phi(t x - \delta)` turns (:math:`t x -
  \delta` = 0, ±0.5, ±1, ±2, ±4, ±8), which is narrow when :math:`|\delta|` is large.  The
  weights are normalised by their own sum, so the rule integrates the density to 1.  The
  quantile is found by bracketing and the Illinois variant of false position.
* Student's two-sided p-value: the noncentral t with noncentrality 0, its lower tail
  computed directly (no 1 - cdf);
* the chi-square quantile: Newton's method on the survival function of
  :mod:`kappalib._distributions`, from the Wilson-Hilferty approximation, inside a bracket.

``tests/test_bland_altman.py`` checks both against scipy.stats (``nct``, ``chi2``).
"""

from __future__ import annotations

import math
from functools import lru_cache
from statistics import NormalDist

import numpy as np

from .distributions import chi2_sf

__all__ = ["chi2_ppf", "nct_cdf", "nct_ppf", "t_pvalue"]

_LOG_FLOOR = 45.0  # the grid covers the density down to exp(-45) of its peak
_PANELS = 40  # Gauss-Legendre panels over the density's span
_ORDER = 16  # nodes per panel


def _solve(g, lo, hi):
    """The root of the increasing function ``g`` in [lo, hi] (g(lo) < 0 < g(hi)), by bisection."""
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if g(mid) < 0.0:
            lo = mid
        else:
            hi = mid
        if hi - lo <= 1e-15 * max(1.0, abs(mid)):
            break
    return 0.5 * (lo + hi)


@lru_cache(maxsize=256)
def _span(df: float) -> tuple[float, float]:
    """Where the density of y = log x exceeds exp(-45) of its peak.

    In y the log density is df (y - (e^{2y} - 1)/2) up to a constant: 0 at its peak y = 0.
    """

    def excess(y):
        return df * (y - math.expm1(2.0 * y) / 2.0) + _LOG_FLOOR

    left = _solve(lambda y: excess(y), -_LOG_FLOOR / df - 1.0, 0.0)
    right = _solve(lambda y: -excess(y), 0.0, 0.5 * math.log1p(2.0 * _LOG_FLOOR / df) + 1.0)
    return left, right


_GL_NODES, _GL_WEIGHTS = np.polynomial.legendre.leggauss(_ORDER)
_STEPS = (-8.0, -4.0, -2.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0, 4.0, 8.0)
_SQRT_HALF = math.sqrt(0.5)
_erfc = np.frompyfunc(math.erfc, 1, 1)


def nct_cdf(t: float, df: float, nc: float) -> float:
    r"""P(T <= t) for T noncentral t with ``df`` degrees of freedom and noncentrality ``nc``."""
    if math.isinf(t):
        return 1.0 if t > 0 else 0.0
    left, right = _span(float(df))
    # panels: even in y for the density, and where Phi(t x - nc) turns (t x - nc near 0)
    breaks = set(np.linspace(left, right, _PANELS + 1).tolist())
    if t != 0.0:
        for z in _STEPS:
            x = (nc + z) / t
            if x > 0.0 and left < math.log(x) < right:
                breaks.add(math.log(x))
    edges = np.array(sorted(breaks))
    half = np.diff(edges)[:, None] / 2.0
    y = (edges[:-1, None] + half * (_GL_NODES[None, :] + 1.0)).ravel()
    w = (half * _GL_WEIGHTS[None, :]).ravel() * np.exp(df * (y - np.expm1(2.0 * y) / 2.0))
    zs = t * np.exp(y) - nc
    phi = 0.5 * np.asarray(_erfc(-zs * _SQRT_HALF), dtype=np.float64)  # Phi, both tails
    return float(min(1.0, max(0.0, (w @ phi) / w.sum())))


@lru_cache(maxsize=1024)
def nct_ppf(p: float, df: float, nc: float) -> float:
    """The ``p`` quantile of the noncentral t, 0 < p < 1 (cached: a simulation asks for the
    same few quantiles again and again)."""
    # a first guess from the normal approximation of (Z + nc) / x, then a bracket around it
    z = NormalDist().inv_cdf(p)
    guess = nc + z * math.sqrt(1.0 + nc * nc / (2.0 * df))
    step = 1.0 + abs(guess) * 0.1
    lo, hi = guess - step, guess + step
    f_lo, f_hi = nct_cdf(lo, df, nc) - p, nct_cdf(hi, df, nc) - p
    for _ in range(200):
        if f_lo <= 0.0:
            break
        step *= 2.0
        lo, f_lo = lo - step, nct_cdf(lo - step, df, nc) - p
    for _ in range(200):
        if f_hi >= 0.0:
            break
        step *= 2.0
        hi, f_hi = hi + step, nct_cdf(hi + step, df, nc) - p
    side = 0
    for _ in range(200):  # Illinois false position
        new = hi - f_hi * (hi - lo) / (f_hi - f_lo) if f_hi != f_lo else 0.5 * (lo + hi)
        if not lo < new < hi:
            new = 0.5 * (lo + hi)
        f_new = nct_cdf(new, df, nc) - p
        if f_new == 0.0 or hi - lo <= 1e-13 * max(1.0, abs(new)):
            return new
        if f_new < 0.0:
            lo, f_lo = new, f_new
            if side == -1:
                f_hi /= 2.0
            side = -1
        else:
            hi, f_hi = new, f_new
            if side == 1:
                f_lo /= 2.0
            side = 1
    return 0.5 * (lo + hi)  # pragma: no cover


def _chi2_cdf(x: float, df: float) -> float:
    """P(X <= x): the regularized lower incomplete gamma P(df/2, x/2) by its series where it
    converges fast (x/2 < df/2 + 1), else 1 - Q from :mod:`kappalib._distributions`."""
    s, h = df / 2.0, x / 2.0
    if h <= 0.0:
        return 0.0
    if h >= s + 1.0:
        return 1.0 - chi2_sf(x, df)
    term = total = 1.0 / s
    a = s
    for _ in range(10_000):
        a += 1.0
        term *= h / a
        total += term
        if term < total * 1e-17:
            break
    return min(1.0, math.exp(s * math.log(h) - h - math.lgamma(s)) * total)


def chi2_ppf(p: float, df: float) -> float:
    """The ``p`` quantile of chi-square with ``df`` degrees of freedom, 0 < p < 1.

    Newton's method on log x, in the smaller tail (the cdf below the median, the survival
    function above it), kept inside a bracket that halves when a step leaves it.
    """
    z = NormalDist().inv_cdf(p)
    c = 2.0 / (9.0 * df)
    guess = df * (1.0 - c + z * math.sqrt(c)) ** 3  # Wilson-Hilferty
    t = math.log(guess) if guess > 0.0 else math.log(df) - 10.0
    lo, hi = -745.0, 745.0  # log x
    log_norm = math.lgamma(df / 2.0) + df / 2.0 * math.log(2.0)
    upper = p > 0.5
    for _ in range(400):
        x = math.exp(t)
        g = (1.0 - p) - chi2_sf(x, df) if upper else _chi2_cdf(x, df) - p  # increasing in t
        if g == 0.0:
            return x
        if g > 0.0:
            hi = t
        else:
            lo = t
        slope = math.exp(df / 2.0 * math.log(x) - x / 2.0 - log_norm)  # d cdf / d log x
        new = t - g / slope if slope > 0.0 else math.nan
        if not lo < new < hi:
            new = 0.5 * (lo + hi)
        if abs(new - t) <= 1e-15 * max(1.0, abs(t)) or hi - lo < 1e-15:
            return math.exp(new)
        t = new
    return math.exp(t)  # pragma: no cover


def t_pvalue(t: float, df: float) -> float:
    """Two-sided p-value of Student's t: 2 P(T <= -|t|), the tail computed directly."""
    if math.isinf(t):
        return 0.0
    return min(1.0, 2.0 * nct_cdf(-abs(t), df, 0.0))
