r"""Bland and Altman's limits of agreement between two methods of measurement.

Symbols (Bland & Altman 1986, 1999): the differences :math:`d = y_1 - y_2` of ``n`` units,
their mean :math:`\bar d` (the bias) and standard deviation :math:`s`; ``z`` the normal
quantile that leaves ``agreement_level`` of the differences between the limits
:math:`\bar d \pm z s`; ``t`` Student's quantile for the ``confidence_level``.

Three designs:

* one measurement by each method per unit (Bland & Altman 1986): the limits' intervals are
  exact under normality, from the noncentral t (:mod:`kappalib._shared.noncentral`; Carkeet 2015),
  or Bland & Altman's approximation :math:`\pm t_{n-1}\sqrt{3 s^2/n}` (``"approximate"``,
  as their 1986 paper and pingouin compute it);
* replicates, the true value constant within a unit (Bland & Altman 1999, section 5): the
  difference of the unit means, corrected for the within-unit variances;
* replicates in pairs, the true value varying (Bland & Altman 2007): the one-way analysis of
  variance of the paired differences.

With replicates the intervals are MOVER intervals (Zou 2013): the bias's t interval and the
standard deviation's interval (from the chi-square intervals of the mean squares, Graybill &
Wang's method for a sum of variance components) recovered into each limit.

The proportional-bias check is the least-squares regression of the differences on the means
(Bland & Altman 1999, section 3.2), with the slope's t test.
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from statistics import NormalDist
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

from .._input.options import check_confidence
from .._shared.distributions import t_ppf
from .._shared.messages import short
from .._shared.noncentral import chi2_ppf, nct_ppf, t_pvalue
from ..results import (
    BlandAltmanResult,
    ConfidenceInterval,
    IntervalEstimate,
    ProportionalBias,
)

__all__ = ["bland_altman"]

TrueValue = Literal["constant", "varying"]
Method = Literal["exact", "approximate", "mover"]

_METHODS = ("exact", "approximate", "mover")
_TRUE_VALUES = ("constant", "varying")


# --- checks --------------------------------------------------------------------------------


def _measurements(v, name, allow_missing):
    try:
        arr = np.asarray(v, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a 1-D sequence of numbers, got {short(v)}") from None
    if arr.ndim != 1:
        raise ValueError(f"{name} must be 1-D, got shape {arr.shape}: {short(v)}")
    bad = np.isinf(arr) if allow_missing else ~np.isfinite(arr)
    if bad.any():
        i = int(np.argmax(bad))
        where = (
            "(NaN marks a measurement one method did not make; an infinite one is no measurement)"
            if allow_missing
            else "(drop the pairs with a missing value first, or pass units= and "
            "true_value='constant' for replicates whose numbers differ between the methods)"
        )
        raise ValueError(
            f"{name} must hold finite numbers, got {float(arr[i])!r} at index {i} {where}"
        )
    return arr


def _unit_codes(units, size):
    try:
        labels = np.asarray(units, dtype=object)
    except Exception:  # pragma: no cover - np.asarray(dtype=object) takes anything
        raise TypeError(
            f"units must be a 1-D sequence of unit labels, got {short(units)}"
        ) from None
    if labels.ndim != 1:
        raise ValueError(f"units must be 1-D, one label per pair, got shape {labels.shape}")
    if labels.size != size:
        raise ValueError(
            f"units must give the unit of each of the {size} pairs, got {labels.size} labels"
        )
    codes = {}
    out = np.empty(size, dtype=np.intp)
    for i, lab in enumerate(labels.tolist()):
        if lab is None or (isinstance(lab, float) and math.isnan(lab)):
            raise ValueError(f"units must name the unit of every pair, got {lab!r} at index {i}")
        if not isinstance(lab, Hashable):
            raise TypeError(f"units must hold hashable labels, got {short(lab)} at index {i}")
        out[i] = codes.setdefault(lab, len(codes))
    return out, list(codes)


def _check_agreement_level(value):
    return check_confidence(value, "agreement_level")


# --- shared arithmetic ---------------------------------------------------------------------


def _t(level, df):
    """Student's two-sided quantile t_{(1 + level)/2, df}."""
    return t_ppf((1.0 + level) / 2.0, df)


def _t_interval(center, se, level, df):
    if se is None or df <= 0:
        return ConfidenceInterval(None, None)
    half = _t(level, df) * se
    return ConfidenceInterval(center - half, center + half)


def _regression(means, differences, level):
    """Least squares of the differences on the means: slope and intercept with their t
    intervals, the slope's t statistic and its two-sided p-value (n - 2 df)."""
    n = means.size
    df = n - 2
    undefined = IntervalEstimate(None, None, ConfidenceInterval(None, None))
    a_bar, d_bar = float(means.mean()), float(differences.mean())
    da = means - a_bar
    Sxx = float(da @ da)
    if Sxx <= 0.0:  # every mean the same: no slope
        return ProportionalBias(undefined, undefined, None, df, None)
    slope = float(da @ (differences - d_bar)) / Sxx
    intercept = d_bar - slope * a_bar
    if df < 1:
        point = IntervalEstimate(slope, None, ConfidenceInterval(None, None))
        return ProportionalBias(
            point, IntervalEstimate(intercept, None, ConfidenceInterval(None, None)), None, df, None
        )
    resid = differences - intercept - slope * means
    s2 = float(resid @ resid) / df
    se_slope = math.sqrt(s2 / Sxx)
    se_intercept = math.sqrt(s2 * (1.0 / n + a_bar * a_bar / Sxx))
    if se_slope > 0.0:
        statistic = slope / se_slope
        pvalue = t_pvalue(statistic, df)
    elif slope != 0.0:  # the points lie on a line that is not flat
        statistic, pvalue = math.copysign(math.inf, slope), 0.0
    else:
        statistic, pvalue = None, None
    return ProportionalBias(
        IntervalEstimate(slope, se_slope, _t_interval(slope, se_slope, level, df)),
        IntervalEstimate(intercept, se_intercept, _t_interval(intercept, se_intercept, level, df)),
        statistic,
        df,
        pvalue,
    )


def _mover_limits(bias, bias_ci, sd, sd_ci, z):
    """The MOVER intervals (Zou 2008, 2013) of bias -/+ z sd from the intervals of its two
    parts, taken as independent."""
    lb, ub = bias_ci
    ls, us = sd_ci
    lower = bias - z * sd
    upper = bias + z * sd
    lower_ci = ConfidenceInterval(
        lower - math.hypot(bias - lb, z * (us - sd)),
        lower + math.hypot(ub - bias, z * (sd - ls)),
    )
    upper_ci = ConfidenceInterval(
        upper - math.hypot(bias - lb, z * (sd - ls)),
        upper + math.hypot(ub - bias, z * (us - sd)),
    )
    return lower_ci, upper_ci


def _variance_sum_interval(terms, level):
    """Interval of sigma^2 = sum c_k E[MS_k] from mean squares MS_k on nu_k df (c_k >= 0):
    the MOVER for a sum (Graybill & Wang 1980), from each term's chi-square interval."""
    alpha = 1.0 - level
    est = sum(c * ms for c, ms, _ in terms)
    down = up = 0.0
    for c, ms, nu in terms:
        part = c * ms
        down += (part * (1.0 - nu / chi2_ppf(1.0 - alpha / 2.0, nu))) ** 2
        up += (part * (nu / chi2_ppf(alpha / 2.0, nu) - 1.0)) ** 2
    return max(0.0, est - math.sqrt(down)), est + math.sqrt(up)


def _sd_interval(terms, level):
    low, high = _variance_sum_interval(terms, level)
    return ConfidenceInterval(math.sqrt(low), math.sqrt(high))


# --- the three designs -----------------------------------------------------------------


def _two_methods(x, y, z, level, method):
    d = x - y
    n = d.size
    if n < 2:
        raise ValueError(f"y1 and y2 must hold at least 2 pairs for limits of agreement, got {n}")
    bias = float(d.mean())
    dev = d - bias
    s = math.sqrt(float(dev @ dev) / (n - 1))
    se_bias = s / math.sqrt(n)
    bias_part = IntervalEstimate(bias, se_bias, _t_interval(bias, se_bias, level, n - 1))
    lower, upper = bias - z * s, bias + z * s
    if method == "approximate":
        # Bland & Altman (1986): the variance of a limit is about 3 s^2 / n
        se = math.sqrt(3.0 * s * s / n)
        lower_ci = _t_interval(lower, se, level, n - 1)
        upper_ci = _t_interval(upper, se, level, n - 1)
    else:
        # exact under normality: sqrt(n) (limit - mean d) / s is noncentral t (n - 1, sqrt(n) z)
        se = s * math.sqrt(1.0 / n + z * z / (2.0 * (n - 1)))
        if s > 0.0:
            nc = math.sqrt(n) * z
            q_lo = nct_ppf((1.0 - level) / 2.0, n - 1, nc)
            q_hi = nct_ppf((1.0 + level) / 2.0, n - 1, nc)
            k_lo, k_hi = q_lo / math.sqrt(n), q_hi / math.sqrt(n)
        else:
            k_lo = k_hi = 0.0
        upper_ci = ConfidenceInterval(bias + k_lo * s, bias + k_hi * s)
        lower_ci = ConfidenceInterval(bias - k_hi * s, bias - k_lo * s)
    means = (x + y) / 2.0
    return (
        bias_part,
        IntervalEstimate(lower, se, lower_ci),
        IntervalEstimate(upper, se, upper_ci),
        s,
        n,
        n,
        (),
        means,
        d,
    )


def _within(values, codes, n_units):
    """(within-unit sum of squares, its df, unit means, counts) of ``values`` grouped by
    ``codes``."""
    counts = np.bincount(codes, minlength=n_units).astype(np.float64)
    means = np.bincount(codes, weights=values, minlength=n_units) / counts
    dev = values - means[codes]
    return float(dev @ dev), int(values.size - n_units), means, counts


def _constant(x, y, codes, labels, z, level):
    n = len(labels)
    has_x, has_y = ~np.isnan(x), ~np.isnan(y)
    for name, has in (("y1", has_x), ("y2", has_y)):
        per_unit = np.bincount(codes[has], minlength=n)
        if (per_unit == 0).any():
            u = labels[int(np.argmin(per_unit))]
            raise ValueError(
                f"{name} has no measurement of unit {u!r}: with replicates and a constant true "
                "value, each method must measure each unit at least once"
            )
    ss_x, df_x, mx, m_x = _within(x[has_x], codes[has_x], n)
    ss_y, df_y, my, m_y = _within(y[has_y], codes[has_y], n)
    D = mx - my
    bias = float(D.mean())
    sD2 = float(((D - bias) ** 2).sum()) / (n - 1)
    vx = ss_x / df_x if df_x > 0 else 0.0
    vy = ss_y / df_y if df_y > 0 else 0.0
    cx, cy = 1.0 - float(np.mean(1.0 / m_x)), 1.0 - float(np.mean(1.0 / m_y))
    # Bland & Altman (1999), section 5.2: the variance of the difference of single
    # measurements, from the unit means' differences and the within-unit variances
    s2 = sD2 + cx * vx + cy * vy
    s = math.sqrt(s2)
    se_bias = math.sqrt(sD2 / n)
    bias_ci = _t_interval(bias, se_bias, level, n - 1)
    terms = [(1.0, sD2, n - 1)]
    terms += [(c, v, df) for c, v, df in ((cx, vx, df_x), (cy, vy, df_y)) if c > 0 and df > 0]
    return _finish_replicates(
        bias, se_bias, bias_ci, s, terms, z, level, n, int(x.size), (vx, vy), (mx + my) / 2.0, D
    )


def _varying(x, y, codes, labels, z, level):
    n = len(labels)
    d = x - y
    N = d.size
    ss_w, df_w, means_d, m = _within(d, codes, n)
    if df_w < 1:
        raise ValueError(
            "units must repeat: with true_value='varying' some unit needs two or more pairs, "
            f"got one pair for each of the {n} units (call without units for one pair per unit)"
        )
    bias = float(d.mean())  # Bland & Altman (2007): the mean of all the differences
    ss_b = float(m @ (means_d - bias) ** 2)
    MSB, MSW = ss_b / (n - 1), ss_w / df_w
    sum_m2 = float(m @ m)
    m0 = (N - sum_m2 / N) / (n - 1)
    # sigma_d^2 = sigma_b^2 + sigma_w^2 with sigma_b^2 = (MSB - MSW) / m0
    s2 = MSB / m0 + (1.0 - 1.0 / m0) * MSW
    s = math.sqrt(max(s2, 0.0))
    # Var(mean of all d) = (sum m_i^2 sigma_b^2 + N sigma_w^2) / N^2
    c_b, c_w = sum_m2 / (m0 * N * N), (N - sum_m2 / m0) / (N * N)
    var_bias = c_b * MSB + c_w * MSW
    if var_bias > MSW / N:
        df_bias = var_bias**2 / ((c_b * MSB) ** 2 / (n - 1) + (c_w * MSW) ** 2 / df_w)
    else:  # sigma_b^2 estimated at or below 0: the pairs as independent
        var_bias, df_bias = MSW / N, df_w
    se_bias = math.sqrt(var_bias)
    bias_ci = _t_interval(bias, se_bias, level, df_bias)
    terms = [(1.0 / m0, MSB, n - 1), (1.0 - 1.0 / m0, MSW, df_w)]
    terms = [t for t in terms if t[0] > 0]
    mean_a = np.bincount(codes, weights=(x + y) / 2.0, minlength=n) / m
    return _finish_replicates(
        bias, se_bias, bias_ci, s, terms, z, level, n, N, (MSW,), mean_a, means_d
    )


def _finish_replicates(bias, se_bias, bias_ci, s, terms, z, level, n, N, within, means, diffs):
    if n < 2:
        raise ValueError(f"units must name at least 2 units for limits of agreement, got {n}")
    sd_ci = _sd_interval(terms, level)
    lower_ci, upper_ci = _mover_limits(bias, bias_ci, s, sd_ci, z)
    # the large-sample standard error of a limit: Var(bias) + z^2 Var(s), Var(s) from the
    # mean squares' variances 2 (c MS)^2 / nu and the delta method (s^2 -> s)
    var_s2 = sum(2.0 * (c * ms) ** 2 / nu for c, ms, nu in terms)
    se = math.sqrt(se_bias**2 + z * z * var_s2 / (4.0 * s * s)) if s > 0 else se_bias
    return (
        IntervalEstimate(bias, se_bias, bias_ci),
        IntervalEstimate(bias - z * s, se, lower_ci),
        IntervalEstimate(bias + z * s, se, upper_ci),
        s,
        n,
        N,
        tuple(float(v) for v in within),
        np.asarray(means, dtype=np.float64),
        np.asarray(diffs, dtype=np.float64),
    )


# --- the public function ---------------------------------------------------------------


def bland_altman(
    y1: ArrayLike,
    y2: ArrayLike,
    *,
    units: ArrayLike | None = None,
    true_value: TrueValue | None = None,
    agreement_level: float = 0.95,
    confidence_level: float = 0.95,
    method: Method | None = None,
) -> BlandAltmanResult:
    r"""Bland and Altman's limits of agreement, with a confidence interval for each.

    .. math::

        d_i = y_{1i} - y_{2i}, \qquad
        \text{limits} = \bar d \pm z\, s, \qquad
        z = \Phi^{-1}\!\Big(\frac{1 + \text{agreement\_level}}{2}\Big),

    where :math:`\bar d` is the bias and :math:`s` the standard deviation of the differences:
    about ``agreement_level`` of the differences between the two methods lie between the
    limits, if the differences are roughly normal.  Whether limits that wide are acceptable
    is a clinical question, not a statistical one (Bland & Altman 1986).

    One measurement by each method per unit (``units=None``): the bias has Student's
    interval; the limits' intervals are exact under normality (``method="exact"``, the
    default): :math:`\sqrt n(\theta - \bar d)/s` follows the noncentral t with ``n - 1`` df
    and noncentrality :math:`\pm\sqrt n z` (Carkeet 2015), so

    .. math::

        \theta_{\text{upper}} \in \Big[\bar d + \frac{q_{\alpha/2}}{\sqrt n} s,\;
        \bar d + \frac{q_{1-\alpha/2}}{\sqrt n} s\Big].

    ``method="approximate"`` is Bland & Altman's (1986) :math:`\pm t_{n-1}\sqrt{3s^2/n}`
    (pingouin's), a little narrow in small samples.

    Replicates (``units`` names the unit of each pair): with ``true_value="constant"`` the
    bias is the mean of the units' mean differences :math:`D_i = \bar y_{1i} - \bar y_{2i}`
    and (Bland & Altman 1999, section 5)

    .. math::

        s^2 = s_D^2 + \Big(1 - \frac1n\sum\frac{1}{m_{1i}}\Big) s_{1w}^2
                    + \Big(1 - \frac1n\sum\frac{1}{m_{2i}}\Big) s_{2w}^2,

    with :math:`s_{1w}^2, s_{2w}^2` the within-unit variances and :math:`m_{1i}, m_{2i}` the
    replicates; the two methods' replicates need not be paired (a NaN in ``y1`` or ``y2``
    marks a measurement that method did not make).  With ``true_value="varying"`` the
    replicates are pairs taken together; the bias is the mean of all the differences and
    :math:`s^2 = \sigma_b^2 + \sigma_w^2` from the one-way analysis of variance of the
    differences, :math:`\sigma_b^2 = (MSB - MSW)/m_0` (Bland & Altman 2007).  The intervals
    are MOVER intervals (``method="mover"``; Zou 2013): the bias's t interval (Satterthwaite's
    df for unequal replicates) and the interval of :math:`s` (each mean square's chi-square
    interval, summed as Graybill & Wang 1980) recovered into each limit.

    The regression of the differences on the means (``proportional_bias``; Bland & Altman
    1999, section 3.2) checks whether the difference grows with the size of what is
    measured: its slope, intercept and the slope's t test.  With replicates it is fitted to
    the units' means.

    Parameters
    ----------
    y1, y2 : array-like of shape (n,)
        The two methods' measurements, paired by position.  Finite numbers (NaN only with
        ``units`` and ``true_value="constant"``).
    units : array-like of shape (n,), optional
        The unit (subject) of each pair, for replicated measurements.
    true_value : {"constant", "varying"}
        Required with ``units``: whether the quantity measured stays the same within a unit
        (replicates taken together, in any number per method) or changes (replicates in pairs,
        over time).  kappalib does not guess it.
    agreement_level : float, default 0.95
        The share of differences the limits are to hold: 0.95 gives :math:`\pm 1.96 s`;
        ``math.erf(math.sqrt(2))`` (0.9545) gives Bland & Altman's :math:`\pm 2 s`.
    confidence_level : float, default 0.95
        The coverage of every interval.
    method : {None, "exact", "approximate", "mover"}
        How the limits' intervals are computed; None: ``"exact"`` for one pair per unit,
        ``"mover"`` with replicates.

    Returns
    -------
    BlandAltmanResult
        ``bias``, ``lower_limit``, ``upper_limit`` (each an estimate, a standard error and an
        interval), ``standard_deviation``, ``proportional_bias``, the plot's ``means`` and
        ``differences``, ``n_units``, ``n_pairs``.  A quantity that cannot be computed (a
        slope when every mean is the same) is None.

    Raises
    ------
    ValueError, TypeError
        On measurements that are not finite numbers, of different lengths, fewer than 2
        units, ``units`` without ``true_value`` (or the reverse), an unknown ``method``, or
        a level outside (0, 1).

    References
    ----------
    Bland, J. M. & Altman, D. G. (1986). Statistical methods for assessing agreement between
    two methods of clinical measurement. *Lancet* 327(8476), 307-310.
    Bland, J. M. & Altman, D. G. (1999). Measuring agreement in method comparison studies.
    *Statistical Methods in Medical Research* 8(2), 135-160.
    Bland, J. M. & Altman, D. G. (2007). Agreement between methods of measurement with
    multiple observations per individual. *Journal of Biopharmaceutical Statistics* 17(4),
    571-582.
    Carkeet, A. (2015). Exact parametric confidence intervals for Bland-Altman limits of
    agreement. *Optometry and Vision Science* 92(3), e71-e80.
    Zou, G. Y. (2013). Confidence interval estimation for the Bland-Altman limits of
    agreement with multiple observations per individual. *Statistical Methods in Medical
    Research* 22(6), 630-642.

    Examples
    --------
    Bland and Altman's (1986) peak flow data: the Wright meter's first reading minus the mini
    Wright meter's, 17 people.  The paper gives a bias of -2.1 l/min, an SD of 38.8 and
    limits of -79.7 to 75.5 (with 2 SD):

    >>> import math
    >>> import kappalib as kl
    >>> pefr = kl.datasets.load("bland_altman1986_pefr").data
    >>> res = kl.bland_altman(pefr[:, 0], pefr[:, 2], agreement_level=math.erf(math.sqrt(2)))
    >>> round(res.bias.estimate, 1), round(res.standard_deviation, 1)
    (-2.1, 38.8)
    >>> round(res.lower_limit.estimate, 1), round(res.upper_limit.estimate, 1)
    (-79.6, 75.4)
    """
    level = check_confidence(confidence_level)
    agreement = _check_agreement_level(agreement_level)
    if method is not None and method not in _METHODS:
        raise ValueError(
            f"method must be None, 'exact', 'approximate' or 'mover', got {short(method)}"
        )
    if true_value is not None and true_value not in _TRUE_VALUES:
        raise ValueError(f"true_value must be 'constant' or 'varying', got {short(true_value)}")
    if units is None and true_value is not None:
        raise ValueError(
            f"true_value={true_value!r} describes replicates: pass units= naming the unit of "
            "each pair too"
        )
    if units is not None and true_value is None:
        raise ValueError(
            "true_value must be 'constant' (the quantity stays the same within a unit) or "
            "'varying' (it changes between the paired replicates) when units= is given, got "
            "None: kappalib does not guess the design"
        )
    replicates = units is not None
    if method is None:
        method = "mover" if replicates else "exact"
    if replicates and method != "mover":
        raise ValueError(
            f"method={method!r} is for one pair per unit; with replicates the limits' "
            "intervals are method='mover' (or None)"
        )
    if not replicates and method == "mover":
        raise ValueError(
            "method='mover' is for replicates (units=...); one pair per unit takes 'exact' or "
            "'approximate'"
        )
    allow_missing = replicates and true_value == "constant"
    x = _measurements(y1, "y1", allow_missing)
    y = _measurements(y2, "y2", allow_missing)
    if x.size != y.size:
        raise ValueError(
            f"y1 and y2 must be paired measurements of the same length, got {x.size} and {y.size}"
        )
    z = NormalDist().inv_cdf((1.0 + agreement) / 2.0)
    if not replicates:
        parts = _two_methods(x, y, z, level, method)
    else:
        codes, labels = _unit_codes(units, x.size)
        if len(labels) < 2:
            raise ValueError(
                f"units must name at least 2 units for limits of agreement, got {len(labels)}"
            )
        if true_value == "constant":
            parts = _constant(x, y, codes, labels, z, level)
        else:
            parts = _varying(x, y, codes, labels, z, level)
    bias, lower, upper, s, n_units, n_pairs, within, means, diffs = parts
    return BlandAltmanResult(
        bias=bias,
        lower_limit=lower,
        upper_limit=upper,
        standard_deviation=s,
        agreement_level=agreement,
        confidence_level=level,
        interval_method=method,
        n_units=n_units,
        n_pairs=n_pairs,
        true_value=true_value,
        within_unit_variance=within,
        proportional_bias=_regression(means, diffs, level),
        means=means,
        differences=diffs,
    )
