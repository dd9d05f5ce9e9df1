r"""Benchmarking an agreement coefficient against a verbal scale with its uncertainty: Gwet's
(2014, chapter 6) cumulative interval membership probabilities.

A point estimate read against a band ("0.67 is substantial") ignores how far the true value
may be from it.  Gwet's rule: take the coefficient's sampling distribution (normal, with the
estimate as mean and its standard error, truncated to [-1, 1]), compute the probability that
the true value lies in each band of the scale, accumulate them from the top band down, and
report the first band whose cumulative probability reaches 0.95.  irrCAC (R and Python)
computes the same probabilities (``landis.koch.bf``, ``Benchmark.landis_koch``, ...).
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from typing import Any

import numpy as np

from .._input.options import check_confidence
from .._shared.messages import short
from ..results import BenchmarkResult

__all__ = ["SCALES", "benchmark"]

# (name as cited, [(low, high, label), ...] from the top band down): irrCAC's data sets
# landis.koch, fleiss and altman (Gwet 2014, table 6.1).
SCALES: dict[str, tuple[str, tuple[tuple[float, float, str], ...]]] = {
    "landis_koch": (
        "Landis and Koch (1977)",
        (
            (0.8, 1.0, "Almost Perfect"),
            (0.6, 0.8, "Substantial"),
            (0.4, 0.6, "Moderate"),
            (0.2, 0.4, "Fair"),
            (0.0, 0.2, "Slight"),
            (-1.0, 0.0, "Poor"),
        ),
    ),
    "fleiss": (
        "Fleiss (1981)",
        (
            (0.75, 1.0, "Excellent"),
            (0.4, 0.75, "Intermediate to Good"),
            (-1.0, 0.4, "Poor"),
        ),
    ),
    "altman": (
        "Altman (1991)",
        (
            (0.8, 1.0, "Very Good"),
            (0.6, 0.8, "Good"),
            (0.4, 0.6, "Moderate"),
            (0.2, 0.4, "Fair"),
            (-1.0, 0.2, "Poor"),
        ),
    ),
}


def _phi(x: float) -> float:
    """The standard normal cdf, with its limits at +-inf."""
    if math.isinf(x):
        return 1.0 if x > 0 else 0.0
    return 0.5 * math.erfc(-x / math.sqrt(2.0))


def _ratio(a: float, se: float) -> float:
    """a / se, with se = 0 read as the limit: +-inf, or 0 at a = 0 (a cdf of 1/2)."""
    if se > 0:
        return a / se
    return 0.0 if a == 0 else math.copysign(math.inf, a)


def _number(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number, got {short(value)}")
    value = float(value)
    if not math.isfinite(value):
        raise ValueError(f"{name} must be finite, got {value!r}")
    return value


def _scale(scale: Any) -> tuple[str, tuple[tuple[float, float, str], ...]]:
    if isinstance(scale, str):
        if scale not in SCALES:
            raise ValueError(
                f"scale must be 'landis_koch', 'fleiss', 'altman' or a sequence of (low, high, "
                f"label) bands from the top down, got {scale!r}"
            )
        return SCALES[scale]
    if not isinstance(scale, Sequence) or not scale:
        raise TypeError(
            "scale must be 'landis_koch', 'fleiss', 'altman' or a sequence of (low, high, "
            f"label) bands from the top down, got {short(scale)}"
        )
    bands: list[tuple[float, float, str]] = []
    for k, band in enumerate(scale):
        if not isinstance(band, Sequence) or isinstance(band, str) or len(band) != 3:
            raise TypeError(f"scale[{k}] must be a (low, high, label) band, got {short(band)}")
        low, high = _number(band[0], f"scale[{k}] low"), _number(band[1], f"scale[{k}] high")
        if not low < high:
            raise ValueError(f"scale[{k}] must have low < high, got {short(band)}")
        if k and high > bands[-1][0] + 1e-12:
            raise ValueError(
                f"scale must list its bands from the top down without overlap, got "
                f"{short(band)} after {short(bands[-1])}"
            )
        bands.append((low, high, str(band[2])))
    return "given", tuple(bands)


def benchmark(
    estimate: float | None,
    standard_error: float | None,
    *,
    scale: str | Sequence[tuple[float, float, str]] = "landis_koch",
    confidence_level: float = 0.95,
    coefficient: str = "The coefficient",
) -> BenchmarkResult | None:
    r"""The band of a benchmark scale that a coefficient reaches, with its uncertainty.

    With :math:`\hat\kappa` the estimate and :math:`s` its standard error, the probability
    that the true value lies in the band :math:`(a, b]` is (Gwet 2014, chapter 6)

    .. math::

        P(a < \kappa \le b) = \frac{\Phi\big((\hat\kappa - a)/s\big)
                                    - \Phi\big((\hat\kappa - b)/s\big)}
                                   {\Phi\big((\hat\kappa + 1)/s\big)
                                    - \Phi\big((\hat\kappa - 1)/s\big)},

    a normal distribution truncated to [-1, 1].  The probabilities are accumulated from the
    top band down, and the benchmark is the first band whose cumulative probability reaches
    ``confidence_level``: with a wide interval it is lower than the band the estimate falls
    in.

    Parameters
    ----------
    estimate : float or None
        The coefficient (kappa, AC1, alpha, ...); None (undefined) gives None.
    standard_error : float or None
        Its standard error (:func:`kappa_standard_error`, :func:`ratings_standard_error`,
        a report's ``standard_error``); None gives None.
    scale : {"landis_koch", "fleiss", "altman"} or sequence of (low, high, label)
        Landis and Koch (1977), Fleiss (1981) or Altman (1991), as irrCAC defines them, or
        your own bands from the top down.
    confidence_level : float, default 0.95
        The cumulative probability to reach (Gwet's 0.95).
    coefficient : str
        The coefficient's name, for the sentence.

    Returns
    -------
    BenchmarkResult or None
        ``labels``, ``bounds``, ``probabilities``, ``cumulative_probabilities``, the
        ``band`` reached and its ``sentence``.

    Raises
    ------
    ValueError, TypeError
        On an estimate that is not a number or above 1, a negative or non-finite standard
        error, an unknown scale or bands out of order, a level outside (0, 1).

    References
    ----------
    Gwet, K. L. (2014). *Handbook of Inter-Rater Reliability*, 4th ed., chapter 6.
    Advanced Analytics.
    Landis, J. R. & Koch, G. G. (1977). The measurement of observer agreement for
    categorical data. *Biometrics* 33(1), 159-174.

    Examples
    --------
    irrCAC's example: kappa 0.67 with standard error 0.15 on Altman's scale is "Good" on
    its face, but only "Moderate" or better with probability 0.95 (irrCAC's
    ``Benchmark(coeff=0.67, se=0.15).altman()`` prints the same cumulative probabilities):

    >>> import kappalib as kl
    >>> res = kl.benchmark(0.67, 0.15, scale="altman")
    >>> res.cumulative_probabilities.round(5).tolist()
    [0.18168, 0.67511, 0.96356, 0.99912, 1.0]
    >>> res.band
    'Moderate'
    """
    level = check_confidence(confidence_level)
    name, bands = _scale(scale)
    if estimate is None or standard_error is None:
        return None
    est = _number(estimate, "estimate")
    se = _number(standard_error, "standard_error")
    if est > 1.0:
        raise ValueError(f"estimate must be at most 1 (an agreement coefficient), got {est!r}")
    if se < 0:
        raise ValueError(f"standard_error must be non-negative, got {se!r}")
    if not isinstance(coefficient, str):
        raise TypeError(f"coefficient must be the coefficient's name, got {short(coefficient)}")
    truncation = _phi(_ratio(est + 1.0, se)) - _phi(_ratio(est - 1.0, se))
    probabilities = np.array(
        [
            (_phi(_ratio(est - low, se)) - _phi(_ratio(est - high, se))) / truncation
            for low, high, _ in bands
        ]
    )
    cumulative = np.cumsum(probabilities)
    reached = np.flatnonzero(cumulative >= level - 1e-12)
    k = int(reached[0]) if reached.size else len(bands) - 1
    return BenchmarkResult(
        estimate=est,
        standard_error=se,
        coefficient=coefficient,
        scale=name,
        labels=tuple(b[2] for b in bands),
        bounds=tuple((b[0], b[1]) for b in bands),
        probabilities=probabilities,
        cumulative_probabilities=cumulative,
        confidence_level=level,
        band=bands[k][2],
    )
