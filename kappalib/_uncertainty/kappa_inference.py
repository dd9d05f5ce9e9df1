r"""Large-sample standard error and confidence interval of kappa (Fleiss, Cohen & Everitt 1969).

With proportions ``p_ij = C_ij / N``, margins ``p_i.`` and ``p_.j``, and **agreement**
weights ``w_ij`` (``w_ii = 1``), the paper's variance of weighted kappa is

    var = [ sum_ij p_ij (w_ij - (wbar_i. + wbar_.j)(1 - k))^2 - (k - p_e (1 - k))^2 ]
          / (N (1 - p_e)^2),

    wbar_i. = sum_j p_.j w_ij,   wbar_.j = sum_i p_i. w_ij,   p_e = sum_ij w_ij p_i. p_.j.

kappalib takes disagreement weights ``W``; weighted kappa does not change when ``W`` is
rescaled, so ``w = 1 - W / max(W)`` are the agreement weights used here.  Unweighted kappa
is ``W = 1 - I``, that is ``w = I``, which reduces the formula to the paper's eq. (13).
"""

from __future__ import annotations

import math
import numbers
from fractions import Fraction
from statistics import NormalDist
from typing import cast, overload

import numpy as np
from numpy.typing import ArrayLike

from .._coefficients.arithmetic import agreement_weights, margins, ratio, scale_free
from .._coefficients.kappa import kappa_parts
from .._count.confusion import labelled_matrix
from .._input.matrix import (
    OneMatrix,
    as_matrix,
    check_label_order,
    counts_of_cases,
    matrix_function,
)
from .._input.options import check_confidence
from .._input.weights import resolve_weights
from .._shared.distributions import normal_pvalue
from .._shared.messages import short
from .._shared.policy import check_zero_division, finish
from ..results import ConfidenceInterval
from .intervals import finish_interval

__all__ = ["cohen_kappa_confint", "kappa_confint", "kappa_sample_size", "kappa_standard_error"]


def _below_rounding(var_num, dev):
    """0 where a variance about the mean is below the rounding error of its deviations.

    Each deviation carries a few ulps of error, so where every deviation is the same in
    exact arithmetic (one dominant cell: the standard error is exactly 0) their spread is
    about (eps * |dev|)^2, not 0.  Anything below (64 eps max|dev|)^2 is that noise.
    """
    scale = np.abs(dev).max(axis=(-2, -1)) + 1.0
    return np.where(var_num <= (64.0 * np.finfo(np.float64).eps * scale) ** 2, 0.0, var_num)


def _se_parts(C, weighting, scores):
    """kappa, its standard error and the undefined mask, for valid input (vectorised)."""
    K = C.shape[-1]
    W = resolve_weights(weighting, K, scores)
    if W is None:
        W = 1.0 - np.eye(K)
    num, den = kappa_parts(scale_free(C), W if weighting is not None else None)
    undefined = den == 0
    k = ratio(num, den)
    w = agreement_weights(W, K)
    N, r, c = margins(C)
    p = C / N[..., None, None]
    pr = r / N[..., None]
    pc = c / N[..., None]
    pe = np.einsum("...i,ij,...j->...", pr, w, pc)
    wbar_row = np.einsum("ij,...j->...i", w, pc)
    wbar_col = np.einsum("...i,ij->...j", pr, w)
    one_minus_k = (1.0 - k)[..., None, None]
    dev = w - (wbar_row[..., :, None] + wbar_col[..., None, :]) * one_minus_k
    # The numerator is sum p dev^2 - (k - p_e (1 - k))^2, and k - p_e (1 - k) is the mean of
    # dev under p: it is the variance of dev, computed about its mean (two passes), never as
    # a difference of two nearly equal squares (which left 2e-7 where the answer is 0).
    mean = (p * dev).sum(axis=(-2, -1))
    centred = dev - mean[..., None, None]
    var_num = _below_rounding((p * centred * centred).sum(axis=(-2, -1)), dev)
    var = ratio(var_num, N * (1.0 - pe) ** 2)
    var = np.maximum(var, 0.0)  # rounding can leave -1e-17 at perfect agreement
    undefined = undefined | ((1.0 - pe) <= 0)
    return k, np.sqrt(var), undefined


def _se_null(C, weighting, scores):
    """The standard error under kappa = 0 (FCE 1969, eq. 9 weighted, eq. 14 unweighted).

    The cells are replaced by their expected shares under independence, p_i. p_.j, and kappa
    by 0 in the non-null variance:  var0 = [sum_ij p_i. p_.j (w_ij - wbar_i. - wbar_.j)^2
    - p_e^2] / (N (1 - p_e)^2).
    """
    K = C.shape[-1]
    W = resolve_weights(weighting, K, scores)
    if W is None:
        W = 1.0 - np.eye(K)
    w = agreement_weights(W, K)
    N, r, c = margins(C)
    pr = r / N[..., None]
    pc = c / N[..., None]
    pe = np.einsum("...i,ij,...j->...", pr, w, pc)
    wbar_row = np.einsum("ij,...j->...i", w, pc)
    wbar_col = np.einsum("...i,ij->...j", pr, w)
    dev = w - wbar_row[..., :, None] - wbar_col[..., None, :]
    # sum p_i. p_.j dev^2 - p_e^2 is the variance of dev under independence (its mean is
    # -p_e): computed about the mean, as in _se_parts
    mean = np.einsum("...i,...ij,...j->...", pr, dev, pc)
    centred = dev - mean[..., None, None]
    term = _below_rounding(np.einsum("...i,...ij,...j->...", pr, centred * centred, pc), dev)
    var = ratio(term, N * (1.0 - pe) ** 2)
    return np.sqrt(np.maximum(var, 0.0))  # a one-class margin gives 0 up to rounding


_UNDEFINED = (
    "the standard error of kappa is undefined because kappa itself is 0/0: both raters put "
    "every case in the same single class"
)


@overload
def kappa_standard_error(
    C: OneMatrix,
    *,
    weighting: str | ArrayLike | None = ...,
    scores: ArrayLike | None = ...,
    zero_division: str | float | None = ...,
    null: bool = ...,
) -> float | None: ...


@overload
def kappa_standard_error(
    C: ArrayLike,
    *,
    weighting: str | ArrayLike | None = ...,
    scores: ArrayLike | None = ...,
    zero_division: str | float | None = ...,
    null: bool = ...,
) -> float | np.ndarray | None: ...


@matrix_function
def kappa_standard_error(
    C: ArrayLike,
    *,
    weighting: str | ArrayLike | None = None,
    scores: ArrayLike | None = None,
    zero_division: str | float | None = None,
    null: bool = False,
) -> float | np.ndarray | None:
    r"""Large-sample standard error of (weighted) kappa, Fleiss, Cohen & Everitt (1969).

    .. math::

        \widehat{\mathrm{var}}(\hat\kappa_w) = \frac{
            \sum_{ij} p_{ij}\left[w_{ij} - (\bar w_{i\cdot} + \bar w_{\cdot j})
            (1 - \hat\kappa_w)\right]^2 - \left[\hat\kappa_w - p_e(1 - \hat\kappa_w)\right]^2
        }{N (1 - p_e)^2}

    with agreement weights :math:`w = 1 - W/\max W`.  This is the standard error away from
    the null hypothesis, for confidence intervals (statsmodels' ``std_kappa``).

    With ``null=True`` it is the standard error under the hypothesis :math:`\kappa = 0`, for
    a test of "no agreement beyond chance" (statsmodels' ``std_kappa0``): the cells are
    replaced by their shares under independence and :math:`\kappa` by 0,

    .. math::

        \widehat{\mathrm{var}}_0(\hat\kappa_w) = \frac{
            \sum_{ij} p_{i\cdot} p_{\cdot j}\left[w_{ij} - (\bar w_{i\cdot} + \bar w_{\cdot j})
            \right]^2 - p_e^2}{N (1 - p_e)^2}.

    Use it for :math:`z = \hat\kappa / \mathrm{se}_0` and never for an interval: away from
    0 it is not the spread of :math:`\hat\kappa`.  It is 0 when a margin puts every case in
    one class (then :math:`\hat\kappa = 0` exactly, whatever the sample, so there is nothing
    to test).

    Parameters
    ----------
    C : array-like of shape (K, K) or (..., K, K)
        Confusion matrix of **counts** (the standard error shrinks with N).
    weighting : {None, "linear", "quadratic"} or array-like of shape (K, K)
        As in :func:`kappa`.
    scores : array-like of shape (K,), optional
        As in :func:`kappa`.
    zero_division : {None, "raise"} or float
        Policy when kappa is undefined.
    null : bool, default False
        If True, the standard error under :math:`\kappa = 0` (see above).

    Returns
    -------
    se : float, None, or ndarray of shape (...)

    Raises
    ------
    ValueError, TypeError
        On an invalid matrix or weighting.
    UndefinedMetricError
        If kappa is undefined and ``zero_division="raise"``.

    References
    ----------
    Fleiss, J. L., Cohen, J. & Everitt, B. S. (1969). Large sample standard errors of kappa
    and weighted kappa. *Psychological Bulletin* 72(5), 323-327.

    Examples
    --------
    The paper's table, unweighted (reported 0.0537) and with its weights (0.0570):

    >>> import kappalib as kl
    >>> table = [[106, 10, 4], [22, 28, 10], [2, 12, 6]]
    >>> round(kl.kappa_standard_error(table), 4)
    0.0537
    >>> W = [[0, 1, 5/9], [1, 0, 1/3], [5/9, 1/3, 0]]
    >>> round(kl.kappa_standard_error(table, weighting=W), 4)
    0.057

    Under the null hypothesis (reported 0.0555 unweighted and 0.0653 weighted):

    >>> round(kl.kappa_standard_error(table, null=True), 4)
    0.0555
    >>> round(kl.kappa_standard_error(table, weighting=W, null=True), 4)
    0.0653
    """
    if not isinstance(null, (bool, np.bool_)):
        raise TypeError(f"null must be True or False, got {short(null)}")
    C = counts_of_cases(as_matrix(C), "kappa_standard_error")
    _, se, undefined = _se_parts(C, weighting, scores)
    if null:
        se = _se_null(C, weighting, scores)
    return finish(se, undefined, zero_division, _UNDEFINED)


@overload
def kappa_confint(
    C: OneMatrix,
    *,
    confidence_level: float = ...,
    weighting: str | ArrayLike | None = ...,
    scores: ArrayLike | None = ...,
    zero_division: str | float | None = ...,
) -> ConfidenceInterval[float | None]: ...


@overload
def kappa_confint(
    C: ArrayLike,
    *,
    confidence_level: float = ...,
    weighting: str | ArrayLike | None = ...,
    scores: ArrayLike | None = ...,
    zero_division: str | float | None = ...,
) -> ConfidenceInterval[float | None] | ConfidenceInterval[np.ndarray]: ...


@matrix_function
def kappa_confint(
    C: ArrayLike,
    *,
    confidence_level: float = 0.95,
    weighting: str | ArrayLike | None = None,
    scores: ArrayLike | None = None,
    zero_division: str | float | None = None,
) -> ConfidenceInterval[float | None] | ConfidenceInterval[np.ndarray]:
    r"""Normal-approximation confidence interval for (weighted) kappa.

    .. math:: \hat\kappa \pm z_{(1+\gamma)/2}\,\widehat{\mathrm{se}}(\hat\kappa),

    with the standard error of :func:`kappa_standard_error`.  The upper end is clipped at 1
    (no kappa exceeds 1).  The lower end is clipped at -1 for unweighted, linear and
    quadratic kappa, which cannot fall below -1; a custom weight matrix can give a weighted
    kappa below -1 (one that charges a single rare cell, say), so its lower end is not
    clipped.

    Parameters
    ----------
    C : array-like of shape (K, K) or (..., K, K)
        Confusion matrix of counts.
    confidence_level : float, default 0.95
        Coverage, strictly between 0 and 1 (scipy's name).
    weighting, scores :
        As in :func:`kappa`.
    zero_division : {None, "raise"} or float
        Policy when kappa is undefined: ``None`` gives ``ConfidenceInterval(None, None)``.

    Returns
    -------
    ci : ConfidenceInterval
        ``ci.low`` and ``ci.high``: floats (None where kappa is undefined), or arrays of
        shape (...) for a stack (NaN where undefined).

    Raises
    ------
    ValueError, TypeError
        On an invalid matrix or weighting, or ``confidence_level`` outside (0, 1).
    UndefinedMetricError
        If kappa is undefined and ``zero_division="raise"``.

    References
    ----------
    Fleiss, J. L., Cohen, J. & Everitt, B. S. (1969). Large sample standard errors of kappa
    and weighted kappa.

    Examples
    --------
    The kappa explainer's table: kappa 0.7 from only 20 cases leaves a wide interval.

    >>> import kappalib as kl
    >>> ci = kl.kappa_confint([[8, 2], [1, 9]])
    >>> round(ci.low, 3), round(ci.high, 3)
    (0.389, 1.0)
    """
    level = check_confidence(confidence_level)
    zero_division = check_zero_division(zero_division)
    C = counts_of_cases(as_matrix(C), "kappa_confint")
    k, se, undefined = _se_parts(C, weighting, scores)
    z = NormalDist().inv_cdf((1.0 + level) / 2.0)
    # kappa <= 1 always; kappa >= -1 for None, linear and quadratic weights (any scores),
    # but not for every custom matrix: there the lower end is left as computed.
    floor = -1.0 if weighting is None or isinstance(weighting, str) else -np.inf
    low = np.clip(k - z * se, floor, 1.0)
    high = np.clip(k + z * se, floor, 1.0)
    return finish_interval(low, high, undefined, zero_division, _UNDEFINED)


def kappa_sample_size(
    kappa: float,
    marginals: ArrayLike,
    *,
    half_width: float,
    confidence_level: float = 0.95,
    weighting: str | ArrayLike | None = None,
    scores: ArrayLike | None = None,
) -> int:
    r"""Cases to label so that the Wald interval of kappa has a target half-width.

    Both raters are taken to share the class shares :math:`\pi` (``marginals``) and to agree
    beyond chance by :math:`\kappa`, the usual planning model

    .. math:: p_{ij} = (1 - \kappa)\,\pi_i \pi_j + \kappa\,\pi_i\,[i = j],

    whose kappa (and weighted kappa, for any weights) is exactly :math:`\kappa`.  The
    Fleiss-Cohen-Everitt variance of that table is :math:`v / N` (see
    :func:`kappa_standard_error`, :math:`v` = its value at ``N = 1``), and the answer is the
    smallest ``N`` with :math:`z_{(1+\gamma)/2}\sqrt{v / N} \le h`,

    .. math:: N = \left\lceil z_{(1+\gamma)/2}^2 \, v / h^2 \right\rceil .

    Parameters
    ----------
    kappa : float
        The kappa you expect, in ``[-min_i pi_i / (1 - pi_i), 1)`` (the range where the
        planning table has no negative cell).
    marginals : array-like of shape (K,)
        Expected class shares (or counts; they are normalised), at least two positive.
    half_width : float
        Target half-width ``h`` of the interval, > 0.
    confidence_level : float, default 0.95
        Coverage of the interval, strictly between 0 and 1.
    weighting, scores :
        As in :func:`kappa`.

    Returns
    -------
    N : int

    Raises
    ------
    ValueError, TypeError
        On marginals that are not a non-negative vector with two positive shares, a kappa
        outside the range above (``kappa = 1`` included: its variance is 0, so no ``N`` is
        needed and the question has no answer), ``half_width <= 0``, or ``confidence_level``
        outside (0, 1).

    Notes
    -----
    The formula is large-sample: for ``N`` below about 50, or kappa near 1, the real
    interval is wider or lopsided (see chapter 11, where the answer is checked against
    simulation).

    References
    ----------
    Fleiss, J. L., Cohen, J. & Everitt, B. S. (1969). Large sample standard errors of kappa
    and weighted kappa.
    Flack, V. F., Afifi, A. A., Lachenbruch, P. A. & Schouten, H. J. A. (1988). Sample size
    determinations for the two rater kappa statistic. *Psychometrika* 53(3), 321-325.

    Examples
    --------
    Two balanced classes and kappa 0.7 (the kappa explainer's table).  For two classes with
    shares :math:`\pi, 1 - \pi` the variance per case has the closed form
    :math:`v = (1-\kappa)\,[(1-\kappa)(1-2\kappa) + \kappa(2-\kappa)/(2\pi(1-\pi))]`
    :math:`= 0.3\,(-0.12 + 1.82) = 0.51`, so :math:`\pm 0.1` needs
    :math:`\lceil 1.96^2 \cdot 0.51 / 0.01 \rceil = 196` cases, ten times the kappa explainer's 20:

    >>> import kappalib as kl
    >>> kl.kappa_sample_size(0.7, [0.5, 0.5], half_width=0.1)
    196
    """
    confidence = check_confidence(confidence_level)
    if isinstance(kappa, bool) or not isinstance(kappa, numbers.Real):
        raise TypeError(f"kappa must be a number below 1, got {short(kappa)}")
    if isinstance(half_width, bool) or not isinstance(half_width, numbers.Real):
        raise TypeError(f"half_width must be a positive number, got {short(half_width)}")
    if not (half_width > 0 and math.isfinite(half_width)):
        raise ValueError(f"half_width must be a positive number, got {half_width!r}")
    try:
        pi = np.asarray(marginals, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"marginals must be a vector of shares, got {short(marginals)}") from None
    if pi.ndim != 1 or not np.all(np.isfinite(pi)) or np.any(pi < 0) or (pi > 0).sum() < 2:
        raise ValueError(
            "marginals must be a 1-D vector of non-negative shares with at least two positive, "
            f"got {short(marginals)}"
        )
    pi = pi / pi.max()  # first by the largest share: the sum of 1e308s overflows
    pi = pi / pi.sum()
    smallest = pi[pi > 0].min()
    lowest = -smallest / (1.0 - smallest)
    if not (lowest <= kappa < 1.0):
        raise ValueError(f"kappa must lie in [{lowest:.4g}, 1) for these marginals, got {kappa!r}")
    k = float(kappa)
    table = (1.0 - k) * np.outer(pi, pi) + k * np.diag(pi)
    _, se, _ = _se_parts(table, weighting, scores)  # shares, N = 1: se**2 = v
    z = NormalDist().inv_cdf((1.0 + confidence) / 2.0)
    v = z * z * float(se) ** 2
    if half_width >= 1e-150 and v / half_width**2 < 1e300:
        return max(math.ceil(v / half_width**2 - 1e-9), 1)
    # half-widths so small that h^2 underflows or N overflows a float: exact rationals
    return max(math.ceil(Fraction(v) / Fraction(half_width) ** 2), 1)


def z_test(
    estimate: float | None, null_standard_error: float | None
) -> tuple[float | None, float | None]:
    """The test against no agreement beyond chance: ``z = estimate / se_0`` and its
    two-sided normal p-value, ``(None, None)`` where ``se_0`` is 0 or missing (a one-class
    margin: then the estimate is 0 whatever the sample, and nothing can be tested).  The
    reports (two raters, many raters) take their z and p from here."""
    if estimate is None or not null_standard_error:
        return None, None
    z = estimate / null_standard_error
    return z, normal_pvalue(z)


def cohen_kappa_confint(
    y1: ArrayLike,
    y2: ArrayLike,
    *,
    labels: ArrayLike | None = None,
    weighting: str | ArrayLike | None = None,
    scores: ArrayLike | None = None,
    sample_weight: ArrayLike | None = None,
    confidence_level: float = 0.95,
    zero_division: str | float | None = None,
) -> ConfidenceInterval[float | None]:
    r"""Confidence interval for (weighted) kappa between two label vectors.

    Builds the confusion matrix with :func:`confusion_matrix` (in the order of ``labels``)
    and calls :func:`kappa_confint`, so that the interval is always about the estimate of
    :func:`cohen_kappa_score` with the same arguments.

    Parameters
    ----------
    y1, y2 : array-like of shape (n,)
        Labels of rater 1 (rows) and rater 2 (columns).
    labels : array-like of shape (K,), optional
        The classes **and their order**; required for weighting string labels (or pass
        ordered pandas Categoricals).  A case with a label outside them is left out, with a
        ``UserWarning`` that counts it (as :func:`confusion_matrix`).
    weighting, scores :
        As in :func:`kappa`.
    sample_weight : array-like of shape (n,), optional
    confidence_level : float, default 0.95
        Coverage, strictly between 0 and 1 (scipy's name).
    zero_division : {None, "raise"} or float
        Policy when kappa is undefined: ``None`` gives ``ConfidenceInterval(None, None)``.

    Returns
    -------
    ci : ConfidenceInterval
        ``ci.low``, ``ci.high`` (None where kappa is undefined).

    Raises
    ------
    ValueError, TypeError
        As :func:`cohen_kappa_score` and :func:`kappa_confint`.
    UndefinedMetricError
        If kappa is undefined and ``zero_division="raise"``.

    References
    ----------
    Fleiss, J. L., Cohen, J. & Everitt, B. S. (1969). Large sample standard errors of kappa
    and weighted kappa.

    Examples
    --------
    The kappa explainer's table (see :func:`kappa_confint`), from its labels:

    >>> import kappalib as kl
    >>> y1 = [0] * 10 + [1] * 10
    >>> y2 = [0] * 8 + [1] * 2 + [0] + [1] * 9
    >>> ci = kl.cohen_kappa_confint(y1, y2)
    >>> round(ci.low, 3), round(ci.high, 3)
    (0.389, 1.0)
    """
    C, order, _, source = labelled_matrix(y1, y2, labels, sample_weight, names=("y1", "y2"))
    check_label_order(weighting, order, source, "cohen_kappa_confint")
    if sample_weight is not None and not (np.floor(C) == C).all():
        raise ValueError(
            "cohen_kappa_confint needs counts of cases (its standard error shrinks with N): "
            f"sample_weight must hold whole numbers (frequency weights), got "
            f"{short(np.asarray(sample_weight).ravel()[:5].tolist())}; fractional weights "
            "have no N for an interval"
        )
    ci = kappa_confint(
        C,
        confidence_level=confidence_level,
        weighting=weighting,
        scores=scores,
        zero_division=zero_division,
    )
    return cast("ConfidenceInterval[float | None]", ci)  # one matrix: floats (or None)
