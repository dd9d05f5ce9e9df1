"""Kappa and MCC from two label vectors, with scikit-learn's names (``cohen_kappa_score``,
``matthews_corrcoef``): count the confusion matrix (``_count.confusion``), then call the matrix
functions."""

from __future__ import annotations

from numpy.typing import ArrayLike

from .._count.confusion import count_matrix, labelled_matrix
from .._input.matrix import check_label_order
from .kappa import kappa
from .mcc import mcc

__all__ = ["cohen_kappa_score", "matthews_corrcoef"]


def cohen_kappa_score(
    y1: ArrayLike,
    y2: ArrayLike,
    *,
    labels: ArrayLike | None = None,
    weighting: str | ArrayLike | None = None,
    scores: ArrayLike | None = None,
    sample_weight: ArrayLike | None = None,
    zero_division: str | float | None = None,
) -> float | None:
    r"""Cohen's kappa between two label vectors (scikit-learn's name and orientation).

    .. math:: \kappa = \frac{p_o - p_e}{1 - p_e}

    Builds the confusion matrix with :func:`confusion_matrix` and calls :func:`kappa`.

    Parameters
    ----------
    y1, y2 : array-like of shape (n,)
        Labels of rater 1 (rows) and rater 2 (columns).
    labels : array-like of shape (K,), optional
        The classes **and their order**.  Weighted kappa measures distances between
        positions in this order.  A case with a label outside ``labels`` is left out, as
        scikit-learn leaves it out (so the number is scikit-learn's), with a
        ``UserWarning`` that counts the cases and names the labels (issue 30, item 13).
    weighting : {None, "linear", "quadratic"} or array-like of shape (K, K)
        See :func:`kappa`.
    scores : array-like of shape (K,), optional
        Numeric values of the labels, in label order, for unevenly spaced categories.
    sample_weight : array-like of shape (n,), optional
    zero_division : {None, "raise"} or float
        Policy when kappa is 0/0; ``None`` (default) returns ``None``.

    Notes
    -----
    What differs from scikit-learn: the weight keyword is ``weighting`` (scikit-learn's
    ``weights``, a name kappalib keeps for nothing else); a 0/0 kappa returns ``None``
    (scikit-learn: NaN); weighting string labels needs an explicit ``labels`` order; labels
    must be all numbers or all strings.

    Returns
    -------
    kappa : float or None

    Raises
    ------
    ValueError, TypeError
        On bad input; and when ``weighting`` is set, the labels are not numbers and no
        ``labels`` order is given (an alphabetical sort is rarely the ordinal order).
    UndefinedMetricError
        If kappa is undefined and ``zero_division="raise"``.

    References
    ----------
    Cohen, J. (1960). A coefficient of agreement for nominal scales.

    Examples
    --------
    The blog article's two raters: kappa = 12/39.

    >>> import kappalib as kl
    >>> r1 = ["yes", "no", "yes", "no", "yes", "no", "yes", "no", "yes"]
    >>> r2 = ["yes", "yes", "yes", "no", "no", "no", "yes", "yes", "yes"]
    >>> round(kl.cohen_kappa_score(r1, r2), 6)
    0.307692

    The CohenKappa.Score example's rater and model on a three-point scale:

    >>> rater = [1, 1, 2, 2, 3, 3, 1, 3]
    >>> model = [1, 3, 2, 1, 3, 2, 1, 3]
    >>> round(kl.cohen_kappa_score(rater, model), 6)
    0.428571
    >>> round(kl.cohen_kappa_score(rater, model, weighting="linear"), 6)
    0.466667
    >>> kl.cohen_kappa_score(rater, model, weighting="quadratic")
    0.5
    >>> round(kl.cohen_kappa_score(rater, model, weighting="quadratic", labels=[3, 1, 2]), 6)
    0.384615
    """
    C, order, _, source = labelled_matrix(y1, y2, labels, sample_weight, names=("y1", "y2"))
    check_label_order(weighting, order, source, "cohen_kappa_score")
    return kappa(C, weighting=weighting, scores=scores, zero_division=zero_division)


def matthews_corrcoef(
    y1: ArrayLike,
    y2: ArrayLike,
    *,
    labels: ArrayLike | None = None,
    sample_weight: ArrayLike | None = None,
    zero_division: str | float | None = None,
) -> float | None:
    r"""Matthews correlation coefficient between two label vectors (Gorodkin's :math:`R_K`).

    Builds the confusion matrix with :func:`confusion_matrix` and calls :func:`mcc`.

    Parameters
    ----------
    y1, y2 : array-like of shape (n,)
        Reference (rater 1) and predicted (rater 2) labels; scikit-learn's ``y_true`` and
        ``y_pred``.
    labels : array-like of shape (K,), optional
        The classes to keep (MCC does not depend on their order); a case with a label
        outside them is left out, as in scikit-learn, with a ``UserWarning`` that counts it.
    sample_weight : array-like of shape (n,), optional
    zero_division : {None, "raise"} or float
        Policy when MCC is 0/0; ``None`` (default) returns ``None`` where scikit-learn
        returns 0.0.

    Returns
    -------
    mcc : float or None

    Raises
    ------
    ValueError, TypeError
        On bad input.
    UndefinedMetricError
        If MCC is undefined and ``zero_division="raise"``.

    References
    ----------
    Gorodkin, J. (2004). Comparing two K-category assignments by a K-category correlation
    coefficient.

    Examples
    --------
    The blog article's two raters: (4*2 - 1*2) / sqrt(5 * 6 * 4 * 3).

    >>> import kappalib as kl
    >>> r1 = ["yes", "no", "yes", "no", "yes", "no", "yes", "no", "yes"]
    >>> r2 = ["yes", "yes", "yes", "no", "no", "no", "yes", "yes", "yes"]
    >>> round(kl.matthews_corrcoef(r1, r2), 6)
    0.316228
    """
    C, _, _ = count_matrix(y1, y2, labels, sample_weight, names=("y1", "y2"))
    return mcc(C, zero_division=zero_division)
