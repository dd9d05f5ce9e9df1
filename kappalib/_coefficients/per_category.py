"""Agreement per category and against a reference: specific agreement (positive and negative for
2 x 2) and per-class sensitivity and PPV (their results are in ``kappalib.results``).  The
per-category Fleiss kappas, with their tests and standard errors, are in
``_uncertainty/category_kappas``."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from .._input.matrix import matrix_function, one_matrix
from .._shared.errors import UndefinedMetricError
from .._shared.policy import check_zero_division
from ..results import ClassValidity, ConfusionMatrix, SpecificAgreement

__all__ = ["class_validity", "specific_agreement"]


def _labels_of(C, K):
    if isinstance(C, ConfusionMatrix) and C.labels is not None and len(C.labels) == K:
        return C.labels
    return tuple(range(K))


def _divide(num, den, zero_division, what="the statistic", why="", labels=None):
    """num / den elementwise; NaN (or ``zero_division``) where den is 0."""
    zero_division = check_zero_division(zero_division)
    if zero_division == "raise" and (den == 0).any():
        i = int(np.argmax(den == 0))
        label = labels[i] if labels is not None else i
        raise UndefinedMetricError(f"{what} is undefined (0/0) for class {label!r}{why}")
    fill = np.nan if zero_division is None else zero_division
    out = np.full(num.shape, float(fill))
    np.divide(num, den, out=out, where=den != 0)
    return out


@matrix_function
def specific_agreement(
    C: ArrayLike, *, zero_division: str | float | None = None
) -> SpecificAgreement:
    r"""Specific agreement per class: how often the raters agree when one of them says ``k``.

    .. math:: p_s(k) = \frac{2\,n_{kk}}{n_{k\cdot} + n_{\cdot k}}

    For a 2 x 2 table these are the positive agreement :math:`2a / (2a + b + c)` and the
    negative agreement :math:`2d / (2d + b + c)` (Cicchetti & Feinstein 1990; Uebersax
    1990), the two numbers a reader of "high agreement, low kappa" needs: with a rare class
    the observed agreement is carried by the common one.

    Parameters
    ----------
    C : array-like of shape (K, K)
        Confusion matrix of counts (rows = rater 1, columns = rater 2); the statistic is
        symmetric in the two raters.
    zero_division : {None, "raise"} or float
        The value for a class that neither rater used (0/0): NaN by default.

    Returns
    -------
    SpecificAgreement
        ``.values`` (one per class), ``.labels``, and ``.positive`` / ``.negative`` for
        2 x 2 tables.

    References
    ----------
    Cicchetti, D. V. & Feinstein, A. R. (1990). High agreement but low kappa: II. Resolving
    the paradoxes. *Journal of Clinical Epidemiology* 43(6), 551-558.

    Examples
    --------
    Feinstein and Cicchetti's paradox: p_o = 0.85, kappa 0.32, but agreement on the
    positives is only 0.4.

    >>> import kappalib as kl
    >>> s = kl.specific_agreement([[80, 10], [5, 5]])
    >>> round(s.positive, 4), round(s.negative, 4)
    (0.4, 0.9143)
    """
    M = one_matrix(C, "specific_agreement")
    r, c = M.sum(axis=1), M.sum(axis=0)
    labels = _labels_of(C, M.shape[0])
    values = _divide(
        2.0 * np.diag(M),
        r + c,
        zero_division,
        "specific agreement",
        ": neither rater used it",
        labels,
    )
    return SpecificAgreement(values, labels)


@matrix_function
def class_validity(C: ArrayLike, *, zero_division: str | float | None = None) -> ClassValidity:
    r"""Per-class sensitivity and positive predictive value against a reference.

    .. math:: \mathrm{sens}_k = \frac{C_{kk}}{n_{k\cdot}}, \qquad
              \mathrm{PPV}_k = \frac{C_{kk}}{n_{\cdot k}}

    When rater 1 (the rows) is a gold standard the question is validity, not agreement:
    how often is each class found, and how often is a call of it right.  Scikit-learn's
    ``recall_score`` and ``precision_score`` with ``average=None``.

    Parameters
    ----------
    C : array-like of shape (K, K)
        Confusion matrix, rows = the reference, columns = the rater or classifier.
    zero_division : {None, "raise"} or float
        The value of 0/0 (a class absent from the reference, or never predicted): NaN by
        default (scikit-learn warns and gives 0).

    Returns
    -------
    ClassValidity
        ``.sensitivity``, ``.ppv``, ``.support`` (the reference's count of each class) and
        ``.labels``.

    Examples
    --------
    >>> import kappalib as kl
    >>> v = kl.class_validity([[40, 10], [5, 45]])
    >>> v.sensitivity.tolist(), [round(float(x), 4) for x in v.ppv]
    ([0.8, 0.9], [0.8889, 0.8182])
    """
    M = one_matrix(C, "class_validity")
    d = np.diag(M)
    r, c = M.sum(axis=1), M.sum(axis=0)
    labels = _labels_of(C, M.shape[0])
    return ClassValidity(
        _divide(d, r, zero_division, "sensitivity", ": the reference has no such case", labels),
        _divide(d, c, zero_division, "PPV", ": it is never predicted", labels),
        r,
        labels,
    )
