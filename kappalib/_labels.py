"""Label-level front ends with scikit-learn's names: build C (``_encoding``), then call the
matrix functions.  The rules for labels (all numbers or all strings, missing values, the
order of the classes) are written in ``_encoding``.
"""

from __future__ import annotations

from typing import cast

import numpy as np
from numpy.typing import ArrayLike

from ._agreement import kappa
from ._correlation import mcc
from ._encoding import _labelled, _matrix
from ._validation import _short, as_matrix, check_label_order, matrix_function
from .results import ConfidenceInterval, ConfusionMatrix, LabelPair

__all__ = [
    "cohen_kappa_confint",
    "cohen_kappa_score",
    "confusion_matrix",
    "labels_from_matrix",
    "matthews_corrcoef",
]


def confusion_matrix(
    y1: ArrayLike,
    y2: ArrayLike,
    *,
    labels: ArrayLike | None = None,
    sample_weight: ArrayLike | None = None,
) -> ConfusionMatrix:
    """Confusion matrix of two label vectors: rows are the reference, columns the prediction.

    ``C[i, j]`` counts the cases whose reference (rater 1) label is ``labels[i]`` and whose
    predicted (rater 2) label is ``labels[j]``.  This is scikit-learn's orientation, and
    Delgado & Tibau's ("C_ij = class i assigned to class j").

    Parameters
    ----------
    y1 : array-like of shape (n,)
        Reference labels (rater 1, the rows): a list, a numpy array of any integer, bool,
        float or string dtype, an object array or a pandas Series or Categorical.  The labels
        of ``y1``, ``y2`` and ``labels`` together must be all numbers or all strings.
        (scikit-learn calls these ``y_true``.)
    y2 : array-like of shape (n,)
        Predicted labels (rater 2, the columns; scikit-learn's ``y_pred``).
    labels : array-like of shape (K,), optional
        The classes and their order.  Cases with a label outside ``labels`` are left out.
        By default, the sorted union of the observed labels.
    sample_weight : array-like of shape (n,), optional
        Non-negative weight per case; the matrix then holds summed weights (float).

    Returns
    -------
    C : ConfusionMatrix of shape (K, K)
        int64 counts, or float64 with ``sample_weight``: a numpy array that also carries
        ``C.labels`` (the category of each row and column) and ``C.ordered`` (False when
        they are strings sorted by their spelling, which a weighted coefficient refuses).

    Raises
    ------
    ValueError, TypeError
        On empty or unequal label vectors, NaN labels, a mix of numbers and strings, bad
        ``labels`` or bad ``sample_weight``.

    References
    ----------
    Pedregosa, F. et al. (2011). Scikit-learn: machine learning in Python (same orientation).

    Examples
    --------
    The yes/no votes of the blog article: rater 1 in rows, rater 2 in columns.

    >>> import kappalib as kl
    >>> r1 = ["yes", "no", "yes", "no", "yes", "no", "yes", "no", "yes"]
    >>> r2 = ["yes", "yes", "yes", "no", "no", "no", "yes", "yes", "yes"]
    >>> kl.confusion_matrix(r1, r2, labels=["yes", "no"]).tolist()
    [[4, 1], [2, 2]]
    """
    C, order, _, source = _labelled(y1, y2, labels, sample_weight, names=("y1", "y2"))
    return ConfusionMatrix(C, order, ordered=source != "spelling")


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
        positions in this order.
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
    C, order, _, source = _labelled(y1, y2, labels, sample_weight, names=("y1", "y2"))
    check_label_order(weighting, order, source, "cohen_kappa_score")
    return kappa(C, weighting=weighting, scores=scores, zero_division=zero_division)


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
        ordered pandas Categoricals).
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
    from ._inference import kappa_confint

    C, order, _, source = _labelled(y1, y2, labels, sample_weight, names=("y1", "y2"))
    check_label_order(weighting, order, source, "cohen_kappa_confint")
    ci = kappa_confint(
        C,
        confidence_level=confidence_level,
        weighting=weighting,
        scores=scores,
        zero_division=zero_division,
    )
    return cast("ConfidenceInterval[float | None]", ci)  # one matrix: floats (or None)


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
        The classes to keep (MCC does not depend on their order).
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
    C, _, _ = _matrix(y1, y2, labels, sample_weight, names=("y1", "y2"))
    return mcc(C, zero_division=zero_division)


@matrix_function
def labels_from_matrix(C: ArrayLike, *, labels: ArrayLike | None = None) -> LabelPair:
    r"""The cases behind a confusion matrix, as two label vectors: the inverse of
    :func:`confusion_matrix`.

    Cell :math:`C_{ij}` becomes :math:`C_{ij}` cases whose first label is class :math:`i` (the
    row: the reference, or rater 1) and whose second is class :math:`j` (the column), in
    row-major cell order, so that ``confusion_matrix(*labels_from_matrix(C))`` is ``C`` again
    (where every class occurs).  Use it to hand a published table to a function that takes
    labels (scikit-learn's, or :func:`cohen_kappa_confint`).

    Parameters
    ----------
    C : array-like of shape (K, K)
        Whole, non-negative counts.
    labels : array-like of shape (K,), optional
        The classes, in the order of the rows and columns. Default ``0 .. K - 1``.

    Returns
    -------
    LabelPair
        ``y1`` and ``y2``, ndarrays of shape (N,): the row and the column label of each of the
        ``N = C.sum()`` cases (``y1, y2 = kl.labels_from_matrix(C)``).

    Raises
    ------
    ValueError
        If ``C`` is not one square matrix of whole non-negative counts, or ``labels`` does not
        have K distinct entries.

    Examples
    --------
    Cohen's (1960) 2 x 2 example has 200 cases:

    >>> import kappalib as kl
    >>> y1, y2 = kl.labels_from_matrix([[88, 14], [10, 88]], labels=["yes", "no"])
    >>> len(y1), y1[:2].tolist(), y2[86:90].tolist()
    (200, ['yes', 'yes'], ['yes', 'yes', 'no', 'no'])
    >>> round(kl.cohen_kappa_score(y1, y2), 4) == round(kl.kappa([[88, 14], [10, 88]]), 4)
    True
    """
    arr = as_matrix(C)
    if arr.ndim != 2:
        raise ValueError(
            f"C must be one matrix of shape (K, K) for labels_from_matrix, got shape {arr.shape}"
        )
    whole = np.rint(arr)
    if not np.array_equal(whole, arr) or arr.max() >= 2.0**53:
        raise ValueError(
            f"C must hold whole counts (each cell becomes that many cases), got {_short(C)}"
        )
    K = arr.shape[0]
    if labels is None:
        names = np.arange(K)
    else:
        names = np.asarray(labels)
        if names.shape != (K,) or len(set(names.tolist())) != K:
            raise ValueError(
                f"labels must list the {K} distinct classes of C's rows and columns, in order, "
                f"got {_short(labels)}"
            )
    cells = np.repeat(np.arange(K * K), whole.astype(np.int64).ravel())
    return LabelPair(names[cells // K], names[cells % K])
