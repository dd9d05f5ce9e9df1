r"""Bootstrap intervals for kappa and MCC, the paired difference of two classifiers, and the
number of cases to label for a target precision.

A confusion matrix ``C`` with ``N`` cases *is* the data set, up to the order of the cases, so
resampling ``N`` cases with replacement is one multinomial draw of ``N`` over the ``K^2``
cells with probabilities ``C / N``.  ``n_resamples`` draws give a stack of shape
``(n_resamples, K, K)`` and one batched call of :func:`kappa` or :func:`mcc` gives the whole
bootstrap distribution, with no loop over resamples or over cases.

BCa's acceleration needs the jackknife: the statistic with one case left out.  Leaving out
any of the ``C_ij`` cases of cell ``(i, j)`` gives the same matrix ``C - e_ij``, so the ``N``
jackknife values are ``K^2`` values with multiplicities ``C_ij``, again one batched call.

Two classifiers scored on the same cases are resampled together: the ``K x K x K`` table
``T[t, a, b]`` (truth, prediction of A, prediction of B) is resampled as above, and the two
confusion matrices of each resample are its margins ``T.sum(axis=-1)`` and
``T.sum(axis=-2)``.

Symbols: ``theta`` the statistic, ``theta_b`` its bootstrap values, ``z0`` the bias
correction, ``a`` the acceleration, as in Efron (1987) and ``scipy.stats.bootstrap``.
"""

from __future__ import annotations

import math
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

from .._coefficients.kappa import kappa
from .._coefficients.mcc import mcc
from .._count.confusion import joint_counts
from .._input.labels import as_vector
from .._input.matrix import as_matrix, check_label_order, first_fraction, matrix_function
from .._input.options import check_choice, check_confidence, check_n_resamples, make_rng
from .._shared.messages import short
from .._shared.policy import check_zero_division
from ..results import ConfidenceInterval
from .bootstrap import bootstrap_interval, jackknife, resample
from .intervals import finish_interval

__all__ = ["bootstrap_confint", "paired_difference_confint"]


_COEFFICIENTS = ("kappa", "mcc")


_METHODS = ("percentile", "bca")


def _statistic(coefficient, weighting, scores):
    """The batched coefficient: a stack (..., K, K) -> float array (...), NaN where undefined."""
    check_choice(coefficient, "coefficient", _COEFFICIENTS)
    nan = float("nan")
    if coefficient == "mcc":
        if weighting is not None or scores is not None:
            raise ValueError(
                f"weighting and scores apply to kappa only, got weighting={short(weighting)} "
                "with coefficient='mcc'"
            )
        return lambda S: np.asarray(mcc(S, zero_division=nan), dtype=np.float64)
    return lambda S: np.asarray(
        kappa(S, weighting=weighting, scores=scores, zero_division=nan), dtype=np.float64
    )


def _whole_counts(C, name="C"):
    """C as float64 counts that are whole numbers (the multinomial draws whole cases)."""
    pos = first_fraction(C)
    if pos is not None:
        raise ValueError(
            f"{name} must hold whole counts of cases to be resampled, got {float(C[pos])!r} at "
            f"index {pos}"
        )
    N = float(C.sum())
    if not N < 2.0**63:  # numpy's multinomial draws at most 2^63 - 1 cases
        raise ValueError(
            f"{name} must hold fewer than 2**63 cases to be resampled, got {N:.4g} in total"
        )
    return C


def _policy(interval, zero_division, message):
    """The interval, or an undefined one as the undefined-value policy says."""
    if interval is None:
        return finish_interval(np.nan, np.nan, True, zero_division, message)
    return ConfidenceInterval(float(interval[0]), float(interval[1]))


# ------------------------------------------------------------------------------- public
@matrix_function
def bootstrap_confint(
    C: ArrayLike,
    *,
    confidence_level: float = 0.95,
    method: Literal["percentile", "bca"] = "percentile",
    n_resamples: int = 9999,
    coefficient: Literal["kappa", "mcc"] = "kappa",
    weighting: str | ArrayLike | None = None,
    scores: ArrayLike | None = None,
    rng: int | np.random.Generator | None = None,
    zero_division: str | float | None = None,
) -> ConfidenceInterval[float | None]:
    r"""Bootstrap confidence interval for kappa (weighted too) or MCC, from the matrix.

    The ``N`` cases are resampled with replacement: each resample is one multinomial draw

    .. math:: C^{*b} \sim \mathrm{Multinomial}\left(N, \; C / N\right), \qquad
              b = 1, \dots, B,

    and the statistic of every :math:`C^{*b}` comes from one batched call.  The
    *percentile* interval is the :math:`\alpha = (1-\gamma)/2` and :math:`1-\alpha`
    quantiles of :math:`\hat\theta^{*b}`.  *BCa* (Efron 1987) moves the two quantile levels
    to

    .. math::

        \alpha_{1,2} = \Phi\left(z_0 + \frac{z_0 + z_{\alpha, 1-\alpha}}
                       {1 - a\,(z_0 + z_{\alpha, 1-\alpha})}\right),
        \qquad z_0 = \Phi^{-1}\left(\#\{\hat\theta^{*b} < \hat\theta\} / B\right),

    with the acceleration from the jackknife values :math:`\hat\theta_{(i)}`,
    :math:`a = \sum (\bar\theta - \hat\theta_{(i)})^3 / (6 [\sum (\bar\theta -
    \hat\theta_{(i)})^2]^{3/2})`.  The ``N`` jackknife values take only ``K^2`` distinct
    values (leave out one case of cell ``(i, j)``), so they are computed once per cell and
    weighted by ``C_ij``.  Ties count one half in :math:`z_0`, as in
    ``scipy.stats.bootstrap``.

    ``coefficient`` selects kappa or MCC in one function rather than two: the resampling, the
    interval and the edge cases are the same, only the batched coefficient differs, and
    :func:`paired_difference_confint` takes the same argument.

    Parameters
    ----------
    C : array-like of shape (K, K)
        Confusion matrix of whole counts (rows = reference); the cases to resample.
    confidence_level : float, default 0.95
        Coverage, strictly between 0 and 1.
    method : {"percentile", "bca"}, default "percentile"
        Percentile, or bias-corrected and accelerated.
    n_resamples : int, default 9999
        Number of bootstrap resamples ``B``, at least 1.
    coefficient : {"kappa", "mcc"}, default "kappa"
        The coefficient to bootstrap.
    weighting, scores :
        As in :func:`kappa` (kappa only).
    rng : None, int or numpy.random.Generator
        Seed or generator of the resampling; seed it for a reproducible interval.
    zero_division : {None, "raise"} or float
        Policy when the coefficient of ``C`` itself is undefined (0/0), or of every resample.

    Returns
    -------
    ci : ConfidenceInterval
        ``ci.low``, ``ci.high``; both None when the coefficient of ``C`` itself is undefined
        (0/0), or ``zero_division``'s value.

    Raises
    ------
    ValueError, TypeError
        On an invalid or non-whole matrix, ``confidence_level`` outside (0, 1), ``n_resamples < 1``,
        an unknown ``method`` or ``coefficient``, or ``weighting`` with ``coefficient="mcc"``.

    Notes
    -----
    *Degenerate intervals.*  When every resample gives the same value the interval is
    ``(theta, theta)``, of width zero.  It happens exactly when the statistic cannot move
    under resampling, above all at perfect agreement: every resample of a diagonal matrix is
    diagonal, so kappa is 1 in all of them.  The zero width then says that the bootstrap
    cannot see any uncertainty from these cases, not that there is none; with ``N`` cases
    and no disagreement the true disagreement rate may still be up to about ``3 / N`` (the
    rule of three).  BCa returns the same interval there (its :math:`z_0` is 0 when every
    resample ties with the estimate, and :math:`a` is 0 when the jackknife values are equal).

    *Undefined resamples.*  A resample whose statistic is 0/0 (every case in one class of a
    margin) is left out, so the interval is conditional on the statistic being defined; with
    the point estimate defined this is rare unless ``N`` is tiny.  When the estimate lies
    outside every resample, BCa's share in :math:`z_0` is clipped to ``[1/(2B), 1 - 1/(2B)]``.

    References
    ----------
    Efron, B. (1987). Better bootstrap confidence intervals. *JASA* 82(397), 171-185.
    Efron, B. & Tibshirani, R. J. (1993). *An Introduction to the Bootstrap*, ch. 13-14.

    Examples
    --------
    The kappa explainer's table, kappa 0.7 from 20 cases (seeded, so the interval is reproducible):

    >>> import kappalib as kl
    >>> ci = kl.bootstrap_confint([[8, 2], [1, 9]], rng=0)
    >>> round(ci.low, 2), round(ci.high, 2)
    (0.34, 1.0)
    >>> ci = kl.bootstrap_confint([[8, 2], [1, 9]], method="bca", rng=0)
    >>> round(ci.low, 2), round(ci.high, 2)
    (0.3, 1.0)
    """
    confidence = check_confidence(confidence_level)
    zero_division = check_zero_division(zero_division)
    n_resamples = check_n_resamples(n_resamples)
    check_choice(method, "method", _METHODS)
    f = _statistic(coefficient, weighting, scores)
    C = as_matrix(C)
    if C.ndim != 2:
        raise ValueError(f"C must be one matrix of shape (K, K), got a stack of shape {C.shape}")
    C = _whole_counts(C)
    theta = float(f(C))
    interval = None
    if not math.isnan(theta):
        boot = f(resample(C, n_resamples, make_rng(rng)))
        interval = bootstrap_interval(theta, boot, confidence, method, lambda: jackknife(C, f))
    return _policy(interval, zero_division, f"the {coefficient} of C is undefined (0/0)")


def _joint_table(y1, y2_a, y2_b, labels):
    """The K x K x K table T[t, a, b] of the three label vectors (``joint_counts``, the
    same coding and counting as ``confusion_matrix``), its order and where it came from."""
    names = ("y1", "y2_a", "y2_b")
    together = "y1, y2_a, y2_b" + (" and labels" if labels is not None else "")
    vectors = [
        as_vector(y, name, together) for y, name in zip((y1, y2_a, y2_b), names, strict=True)
    ]
    lengths = [arr.shape[0] for arr, _ in vectors]
    if len(set(lengths)) != 1:
        raise ValueError(
            "y1, y2_a and y2_b must have the same length, got "
            f"{lengths[0]}, {lengths[1]} and {lengths[2]}"
        )
    T, order, kind = joint_counts(vectors, names, labels, together=together)
    source = "given" if labels is not None else "numbers" if kind == "number" else "spelling"
    return T.astype(np.float64), order, source


def paired_difference_confint(
    y1: ArrayLike,
    y2_a: ArrayLike,
    y2_b: ArrayLike,
    *,
    coefficient: Literal["kappa", "mcc"] = "kappa",
    confidence_level: float = 0.95,
    method: Literal["percentile", "bca"] = "percentile",
    n_resamples: int = 9999,
    weighting: str | ArrayLike | None = None,
    scores: ArrayLike | None = None,
    labels: ArrayLike | None = None,
    rng: int | np.random.Generator | None = None,
    zero_division: str | float | None = None,
) -> ConfidenceInterval[float | None]:
    r"""Paired bootstrap interval for the difference B - A of two classifiers on one test set.

    Both classifiers are scored on the **same** cases, so a resample draws cases, and each
    drawn case brings its truth and both predictions.  With the table
    :math:`T_{tab}` = number of cases with truth ``t``, prediction ``a`` by A and ``b`` by B,

    .. math::

        T^{*} \sim \mathrm{Multinomial}(N, T/N), \qquad
        C_A^{*} = \sum_b T^{*}_{\cdot\cdot b}, \quad C_B^{*} = \sum_a T^{*}_{\cdot a \cdot},
        \qquad \hat\Delta^{*} = \theta(C_B^{*}) - \theta(C_A^{*}),

    and the interval is the percentile or BCa interval of :math:`\hat\Delta^{*}` (see
    :func:`bootstrap_confint`; BCa's jackknife runs over the ``K^3`` cells of ``T``).
    Resampling ``K^3`` cells instead of ``N`` labels keeps the cost independent of ``N``.
    The cases on which A and B agree move both statistics together, which is why this
    interval is much narrower than two separate intervals suggest.

    Parameters
    ----------
    y1, y2_a, y2_b : array-like of shape (N,)
        Reference labels (rater 1, the rows) and the predictions of classifiers A and B
        (rater 2, the columns), case by case.
    coefficient : {"kappa", "mcc"}, default "kappa"
        The coefficient whose difference is estimated.
    confidence_level : float, default 0.95
        Coverage, strictly between 0 and 1.
    method : {"percentile", "bca"}, default "percentile"
    n_resamples : int, default 9999
        At least 1.
    weighting, scores :
        As in :func:`kappa` (kappa only).
    labels : array-like of shape (K,), optional
        The classes, in order (matters for linear or quadratic weights); cases with a label
        outside ``labels`` are left out.  Default: the sorted distinct labels of all three.
    rng : None, int or numpy.random.Generator
        Seed or generator of the resampling.
    zero_division : {None, "raise"} or float
        Policy when either coefficient is undefined on the full data.

    Returns
    -------
    ci : ConfidenceInterval
        An interval for :math:`\theta_B - \theta_A`; both ends None if either coefficient
        is undefined on the full data (or ``zero_division``'s value).

    Raises
    ------
    ValueError, TypeError
        On vectors of different lengths or empty ones, ``confidence_level`` outside (0, 1),
        ``n_resamples < 1``, or an unknown ``method`` or ``coefficient``.

    Notes
    -----
    If A and B predict the same label on every case, every resample has difference 0 and
    the interval is ``(0.0, 0.0)``.  The zero width says that the bootstrap sees no case on
    which A and B differ, not that they never differ: with no discordant case among ``N``,
    the population's discordance rate may still be up to about ``3 / N`` (the rule of three;
    the same caveat as the zero-width interval of :func:`bootstrap_confint`).  Resamples in
    which either statistic is undefined are left out, as in :func:`bootstrap_confint`.

    References
    ----------
    Efron, B. & Tibshirani, R. J. (1993). *An Introduction to the Bootstrap*.

    Examples
    --------
    The kappa explainer's 20 cases: A errs on cases 0, 1 and 2, B on case 0 only.

    >>> import kappalib as kl
    >>> y = [0] * 10 + [1] * 10
    >>> a = [1, 1] + [0] * 8 + [0] + [1] * 9
    >>> b = [1] + [0] * 9 + [1] * 10
    >>> round(kl.kappa([[8, 2], [1, 9]]), 2), round(kl.cohen_kappa_score(y, b), 2)
    (0.7, 0.9)
    >>> ci = kl.paired_difference_confint(y, a, b, rng=0)
    >>> round(ci.low, 2), round(ci.high, 2)
    (0.0, 0.51)
    """
    confidence = check_confidence(confidence_level)
    zero_division = check_zero_division(zero_division)
    n_resamples = check_n_resamples(n_resamples)
    check_choice(method, "method", _METHODS)
    f = _statistic(coefficient, weighting, scores)
    T, order, source = _joint_table(y1, y2_a, y2_b, labels)
    check_label_order(weighting, order, source, "paired_difference_confint")

    def diff(S):
        return f(S.sum(axis=-2)) - f(S.sum(axis=-1))

    theta = float(diff(T))
    interval = None
    if not math.isnan(theta):
        boot = diff(resample(T, n_resamples, make_rng(rng)))
        interval = bootstrap_interval(theta, boot, confidence, method, lambda: jackknife(T, diff))
    return _policy(
        interval, zero_division, f"the {coefficient} of one of the classifiers is undefined (0/0)"
    )
