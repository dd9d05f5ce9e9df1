r"""The bootstrap engine, shared by the two-rater intervals and the many-rater ones: draw
resamples as multinomial counts, leave one case (or unit) out for the jackknife, and turn the
resampled values into a percentile or BCa interval.

Symbols: ``theta`` the statistic, ``z0`` the bias correction, ``a`` the acceleration, as in
Efron (1987) and ``scipy.stats.bootstrap``.
"""

from __future__ import annotations

from statistics import NormalDist

import numpy as np

NORMAL = NormalDist()


# ---------------------------------------------------------------------------- the engine
# The engine is shared: the many-rater intervals (``ratings_intervals``) resample units with it.
def resample(counts, n_resamples, rng):
    """n_resamples multinomial draws of counts.sum() cases over the cells of ``counts``."""
    flat = counts.reshape(-1)
    N = int(flat.sum())
    draws = rng.multinomial(N, flat / flat.sum(), size=n_resamples)
    return draws.reshape((n_resamples, *counts.shape)).astype(np.float64)


def jackknife(counts, f):
    """Jackknife values of f on the distinct leave-one-case-out tables, and multiplicities."""
    cells = np.flatnonzero(counts.reshape(-1) > 0)
    stack = np.broadcast_to(counts.reshape(-1), (cells.size, counts.size)).copy()
    stack[np.arange(cells.size), cells] -= 1.0
    values = f(stack.reshape((cells.size, *counts.shape)))
    return values, counts.reshape(-1)[cells]


def acceleration(values, weights):
    """BCa's a = sum m (mean - t)^3 / (6 (sum m (mean - t)^2)^(3/2)), over defined values."""
    keep = np.isfinite(values)
    values, weights = values[keep], weights[keep]
    if values.size == 0:
        return 0.0
    mean = np.dot(weights, values) / weights.sum()
    d = mean - values
    ss = np.dot(weights, d * d)
    if ss <= 0:
        return 0.0  # every leave-one-out value equal: no skewness to correct
    return float(np.dot(weights, d * d * d) / (6.0 * ss**1.5))


def bootstrap_interval(theta, boot, confidence, method, jackknife_values):
    """(low, high) from the bootstrap values ``boot`` (NaN dropped) of the estimate theta."""
    boot = boot[np.isfinite(boot)]
    if boot.size == 0:
        return None
    alpha = (1.0 - confidence) / 2.0
    probs = np.array([alpha, 1.0 - alpha])
    if method == "bca":
        B = boot.size
        # mid-rank share of resamples below the estimate, as scipy.stats.bootstrap
        share = ((boot < theta).sum() + (boot <= theta).sum()) / (2.0 * B)
        share = min(max(share, 0.5 / B), 1.0 - 0.5 / B)  # theta outside every resample
        z0 = NORMAL.inv_cdf(share)
        a = acceleration(*jackknife_values())
        z = np.array([NORMAL.inv_cdf(p) for p in probs])
        adj = z0 + (z0 + z) / (1.0 - a * (z0 + z))
        probs = np.array([NORMAL.cdf(float(v)) for v in adj])
    low, high = np.quantile(boot, probs)
    return float(low), float(high)
