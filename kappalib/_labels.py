"""Label-level front ends with scikit-learn's names: build C, then call the matrix functions.

The confusion matrix is built with a single ``np.bincount`` over ``i * K + j``.  When the
labels are integers in a small range, ``np.unique`` (a sort) is skipped: the codes are the
labels minus their minimum.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from ._agreement import kappa
from ._correlation import mcc
from ._validation import _short

__all__ = ["cohen_kappa_score", "confusion_matrix", "matthews_corrcoef"]

# Integer labels spanning at most this many values are coded by subtraction, not by sorting.
_MAX_DIRECT_SPAN = 1 << 16


def _as_vector(y, name):
    try:
        arr = np.asarray(y)
    except Exception as exc:
        raise TypeError(
            f"{name} must be a 1-D array-like of labels, got {_short(y)} ({exc})"
        ) from None
    if arr.ndim != 1:
        raise ValueError(
            f"{name} must be a 1-D array-like of labels, got shape {arr.shape}: {_short(y)}"
        )
    if arr.shape[0] == 0:
        raise ValueError(f"{name} must contain at least one label, got an empty sequence")
    if arr.dtype.kind == "f" and np.isnan(arr).any():
        raise ValueError(f"{name} must not contain NaN labels, got {_short(arr.tolist())}")
    return arr


def _check_pair(y_true, y_pred, names):
    a = _as_vector(y_true, names[0])
    b = _as_vector(y_pred, names[1])
    if a.shape[0] != b.shape[0]:
        raise ValueError(
            f"{names[0]} and {names[1]} must have the same length, got {a.shape[0]} and "
            f"{b.shape[0]}"
        )
    return a, b


def _check_sample_weight(sample_weight, n):
    if sample_weight is None:
        return None
    w = np.asarray(sample_weight)
    if w.dtype == object or not (np.issubdtype(w.dtype, np.number) or w.dtype == np.bool_):
        raise TypeError(f"sample_weight must be numbers, got {_short(sample_weight)}")
    w = w.astype(np.float64)
    if w.ndim != 1 or w.shape[0] != n:
        raise ValueError(
            f"sample_weight must have one weight per case ({n}), got shape {w.shape}: "
            f"{_short(sample_weight)}"
        )
    if not np.isfinite(w).all():
        raise ValueError(f"sample_weight must be finite, got {_short(w.tolist())}")
    if (w < 0).any():
        bad = float(w[np.argmax(w < 0)])
        raise ValueError(
            f"sample_weight must be non-negative, got {bad!r} among {_short(w.tolist())}"
        )
    return w


def _check_labels(labels):
    arr = np.asarray(labels)
    if arr.ndim != 1 or arr.shape[0] == 0:
        raise ValueError(f"labels must be a non-empty 1-D sequence, got {_short(labels)}")
    values = arr.tolist()
    try:
        distinct = len(set(values))
    except TypeError:
        raise TypeError(f"labels must be hashable values, got {_short(labels)}") from None
    if distinct != len(values):
        seen, dup = set(), None
        for v in values:
            if v in seen:
                dup = v
                break
            seen.add(v)
        raise ValueError(f"labels must not repeat a label, got {dup!r} twice in {_short(values)}")
    return arr


def _small_int_range(y_true, y_pred):
    """(lo, span) when both vectors hold integers in a small range, else None."""
    if y_true.dtype.kind in "iu" and y_pred.dtype.kind in "iu":
        lo = int(min(y_true.min(), y_pred.min()))
        span = int(max(y_true.max(), y_pred.max())) - lo + 1
        if span <= _MAX_DIRECT_SPAN:
            return lo, span
    return None


def _factorize_strings(s):
    """np.unique(s, return_inverse=True) for fixed-width strings, without sorting strings.

    Each string's code points are hashed to one uint64 and the integers are sorted instead
    (several times faster).  Every case is then checked against its group's representative,
    so a hash collision is detected and answered with the plain string sort.
    """
    unit = np.uint32 if s.dtype.kind == "U" else np.uint8
    width = s.dtype.itemsize // np.dtype(unit).itemsize
    if width == 0:
        return np.unique(s, return_inverse=True)
    v = np.ascontiguousarray(s).view(unit).reshape(-1, width)
    h = v[:, 0].astype(np.uint64)
    prime = np.uint64(1_000_003)
    for k in range(1, width):
        h *= prime
        h += v[:, k]
    distinct = np.unique(h)  # a plain sort: much faster than return_inverse
    inv = np.searchsorted(distinct, h)
    first = np.empty(distinct.shape[0], dtype=np.intp)
    first[inv] = np.arange(h.shape[0])  # one position per distinct hash
    reps = s[first]
    if not np.array_equal(reps[inv], s):  # a collision: two strings share a hash
        return np.unique(s, return_inverse=True)
    order = np.argsort(reps, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(order.shape[0])
    return reps[order], rank[inv]


def _unique_codes(y_true, y_pred):
    """Sorted distinct labels and the position of each case's labels among them."""
    try:
        both = np.concatenate([y_true, y_pred])
        if both.dtype.kind in "US":
            uniq, inv = _factorize_strings(both)
        elif both.dtype.kind in "iufb":
            uniq = np.unique(both)
            inv = np.searchsorted(uniq, both)
        else:
            uniq, inv = np.unique(both, return_inverse=True)
    except TypeError:
        raise TypeError(
            "y_true and y_pred must hold labels of one comparable kind (all numbers or all "
            f"strings), got {_short(y_true.tolist())} and {_short(y_pred.tolist())}"
        ) from None
    inv = inv.reshape(-1)
    n = y_true.shape[0]
    return uniq, inv[:n], inv[n:]


def _count(ct, cp, K, w, offset=0):
    """One bincount over (ct - offset) * K + (cp - offset) gives the K x K matrix."""
    idx = ct.astype(np.intp, copy=True)
    if offset:
        idx -= offset
    idx *= K
    idx += cp
    if offset:
        idx -= offset
    return np.bincount(idx, weights=w, minlength=K * K).reshape(K, K)


def _matrix(y_true, y_pred, labels, sample_weight, names=("y_true", "y_pred")):
    """Validated confusion matrix and the label values of its rows and columns."""
    y_true, y_pred = _check_pair(y_true, y_pred, names)
    w = _check_sample_weight(sample_weight, y_true.shape[0])
    small = _small_int_range(y_true, y_pred)

    if labels is None:
        if small is None:
            uniq, ct, cp = _unique_codes(y_true, y_pred)
            return _count(ct, cp, uniq.shape[0], w), uniq
        # integer labels in a small range: the codes are offsets from the minimum, no sort
        lo, span = small
        full = _count(y_true, y_pred, span, w, offset=lo)
        if w is None:
            present = (full.sum(axis=0) + full.sum(axis=1)) > 0
        else:
            present = (
                np.bincount(y_true - lo, minlength=span) + np.bincount(y_pred - lo, minlength=span)
            ) > 0
        if present.all():
            return full, np.arange(lo, lo + span)
        keep = np.flatnonzero(present)
        return full[np.ix_(keep, keep)], keep + lo

    labels = _check_labels(labels)
    K = labels.shape[0]
    if small is not None:
        lo, span = small
        lookup = np.full(span, -1, dtype=np.intp)
        for pos, lab in enumerate(labels.tolist()):
            if isinstance(lab, (int, float)) and float(lab).is_integer():
                if lo <= int(lab) < lo + span:
                    lookup[int(lab) - lo] = pos
        ct, cp = lookup[y_true - lo], lookup[y_pred - lo]
    else:
        uniq, it, ip = _unique_codes(y_true, y_pred)
        position = {lab: pos for pos, lab in enumerate(labels.tolist())}
        lookup = np.array([position.get(u, -1) for u in uniq.tolist()], dtype=np.intp)
        ct, cp = lookup[it], lookup[ip]
    keep = (ct >= 0) & (cp >= 0)
    if keep.all():
        return _count(ct, cp, K, w), labels
    if not keep.any():
        observed = np.unique(np.concatenate([y_true[:1000], y_pred[:1000]])).tolist()
        if (ct < 0).all() and (cp < 0).all():
            raise ValueError(
                f"labels must include at least one observed label, got {_short(labels.tolist())} "
                f"while the data use {_short(observed)}"
            )
        raise ValueError(
            f"labels={_short(labels.tolist())} leaves no case whose two labels are both listed"
        )
    return _count(ct[keep], cp[keep], K, None if w is None else w[keep]), labels


def confusion_matrix(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    labels: ArrayLike | None = None,
    sample_weight: ArrayLike | None = None,
) -> np.ndarray:
    """Confusion matrix of two label vectors: rows are the reference, columns the prediction.

    ``C[i, j]`` counts the cases whose reference (rater 1) label is ``labels[i]`` and whose
    predicted (rater 2) label is ``labels[j]``.  This is scikit-learn's orientation, and
    Delgado & Tibau's ("C_ij = class i assigned to class j").

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Reference labels (rater 1).
    y_pred : array-like of shape (n,)
        Predicted labels (rater 2).
    labels : array-like of shape (K,), optional
        The classes and their order.  Cases with a label outside ``labels`` are left out.
        By default, the sorted union of the observed labels.
    sample_weight : array-like of shape (n,), optional
        Non-negative weight per case; the matrix then holds summed weights (float).

    Returns
    -------
    C : ndarray of shape (K, K)
        int64 counts, or float64 with ``sample_weight``.

    Raises
    ------
    ValueError, TypeError
        On empty or unequal label vectors, bad ``labels`` or bad ``sample_weight``.

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
    C, _ = _matrix(y_true, y_pred, labels, sample_weight)
    return C


def _labels_are_numbers(y1, y2, labels):
    return labels is not None or (
        np.asarray(y1).dtype.kind in "iuf" and np.asarray(y2).dtype.kind in "iuf"
    )


def _sorted_distinct(y1, y2):
    """The distinct labels of y1 and y2, sorted as the default order would sort them."""
    values = np.concatenate([np.asarray(y1).ravel(), np.asarray(y2).ravel()])
    try:
        return [v.item() if isinstance(v, np.generic) else v for v in np.unique(values)]
    except TypeError:  # labels that cannot be compared: show them unsorted
        return list(dict.fromkeys(values.tolist()))


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
    if weighting is not None and not _labels_are_numbers(y1, y2, labels):
        raise ValueError(
            f"weighting={weighting!r} measures distances between positions in the label "
            f"order, and these labels are not numbers: sorted, they would be "
            f"{_short(_sorted_distinct(y1, y2))}. Pass labels=[...] in their ordinal "
            "order: sorting strings alphabetically happens to order 'mild' < 'moderate' < "
            "'severe' but puts 'high' before 'low'"
        )
    C, _ = _matrix(y1, y2, labels, sample_weight, names=("y1", "y2"))
    return kappa(C, weighting=weighting, scores=scores, zero_division=zero_division)


def matthews_corrcoef(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    labels: ArrayLike | None = None,
    sample_weight: ArrayLike | None = None,
    zero_division: str | float | None = None,
) -> float | None:
    r"""Matthews correlation coefficient between two label vectors (Gorodkin's :math:`R_K`).

    Builds the confusion matrix with :func:`confusion_matrix` and calls :func:`mcc`.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n,)
        Reference and predicted labels.
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
    C, _ = _matrix(y_true, y_pred, labels, sample_weight)
    return mcc(C, zero_division=zero_division)
