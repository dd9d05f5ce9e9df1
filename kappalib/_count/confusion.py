"""Encode label vectors: check, then code, then count, for the two-vector front ends.

**What a label is.**  One rule: the labels of ``y1``, ``y2`` and ``labels`` together must be
all numbers (bool, int, float) or all strings.  A mix (``1`` next to ``"1"``) raises a
TypeError, so integer and string labels are never merged silently.

**How the matrix is built.**  Each vector is coded on its own as its sorted distinct values
and one integer code per case:

* two integer (or bool) vectors whose common span is at most 512: one joint bincount of
  ``(a - lo) * span + (b - lo)``, computed in ``intp`` (no overflow, whatever the dtype);
* integers whose span ``max - min + 1`` is at most ``max(65,536, n)``: the offset from the
  minimum and a lookup table of the labels present; no sort, and the table is never longer
  than the input;
* other numbers: ``np.unique`` (a sort);
* fixed-width strings (``<U``): each string hashed to one uint64, the integers sorted, every
  case checked against its group's representative (a collision falls back to the plain sort);
* object arrays (a pandas column, Python objects): a dict of the distinct values, then one
  dict look-up per case; the type rule is checked on the distinct values only.

The distinct values of the two vectors (K of them) are merged in Python, the codes are mapped
through the merged order, and ``np.bincount`` over ``i * K + j`` gives the K x K matrix.  The
codes are computed a million cases at a time, so the temporaries stay small; memory is K x K
cells plus at most the input's size, whatever the labels' span.

:func:`confusion_matrix` returns a :class:`~kappalib.ConfusionMatrix`, which carries its labels
and whether their order came from their spelling, so that a weighted function can refuse it.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from .._input.labels import (
    LABEL_RULE,
    categorical_order,
    check_labels,
    check_pair,
    check_sample_weight,
    check_values,
    is_missing_label,
    join_names,
    labels_of_kind,
    missing_message,
    refuse_missing_tokens,
    warn_left_out,
)
from .._input.matrix import as_matrix, matrix_function
from .._shared.errors import LabelKindError
from .._shared.messages import short
from ..results import ConfusionMatrix, LabelPair
from .ratings import MAX_DIRECT_SPAN

__all__ = ["confusion_matrix", "labels_from_matrix"]


# Integer labels are coded by subtraction (no sort) when their span is at most
# MAX_DIRECT_SPAN, or at most the number of cases: the lookup table then costs no more memory
# than the input.
# Two integer vectors whose common span^2 is at most this are counted in one joint bincount.
_MAX_JOINT_CELLS = 1 << 18


# Cases handled at a time: the intp temporaries stay below 8 MiB whatever the input size.
_CHUNK = 1 << 20


def labelled_matrix(y1, y2, labels, sample_weight, names=("y1", "y2")):
    """:func:`_matrix`, with the order of ordered Categoricals, and where the order came from:
    ``(C, order, kind, source)``."""
    source = "given"
    if labels is None:
        orders = [
            o
            for o in (categorical_order(y, n) for y, n in zip((y1, y2), names, strict=True))
            if o is not None
        ]
        if len(orders) == 2 and orders[0] != orders[1]:
            raise ValueError(
                f"{names[0]} and {names[1]} are ordered Categoricals with different "
                f"categories ({short(orders[0], 40)} and {short(orders[1], 40)}); give "
                "both the same categories, or pass labels=[...]"
            )
        if orders:
            labels = orders[0]
        else:
            source = None
    C, order, kind = count_matrix(y1, y2, labels, sample_weight, names)
    if source is None:
        source = "numbers" if kind == "number" else "spelling"
    return C, order, kind, source


def _int_offsets(v, lo):
    """v - lo as intp, exact for every integer dtype (the span is known to be small)."""
    if v.dtype.kind == "u" and v.dtype.itemsize >= np.dtype(np.intp).itemsize:
        out = np.empty(v.shape[0], dtype=np.intp)
        np.subtract(v, v.dtype.type(lo), out=out, casting="unsafe")
        return out
    return np.subtract(v, lo, dtype=np.intp)


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


def _chunks(n):
    """Slices of at most _CHUNK cases: the intp temporaries never exceed 8 MiB each."""
    return [slice(s, min(s + _CHUNK, n)) for s in range(0, n, _CHUNK)]


def _code(v, kind, name, names):
    """(distinct values as a sorted list of Python values, kind, encode).

    ``encode(remap)`` returns a function of a slice that gives the intp code of each case in
    it, ``remap[i]`` being the final position of the i-th distinct value (or -1 to drop it).
    """
    if kind == "number" and v.dtype.kind in "biu":
        lo, hi = int(v.min()), int(v.max())
        span = hi - lo + 1
        if span <= max(MAX_DIRECT_SPAN, v.shape[0]):
            present = np.zeros(span, dtype=bool)
            for s in _chunks(v.shape[0]):
                present[_int_offsets(v[s], lo)] = True
            values = [lo + i for i in np.flatnonzero(present).tolist()]
            if v.dtype.kind == "b":
                values = [bool(x) for x in values]
            table = np.cumsum(present, dtype=np.intp) - 1  # rank among the present labels

            def encode(remap):
                composed = remap[table]
                return lambda s: composed.take(_int_offsets(v[s], lo))

            return values, kind, encode
    if kind == "categorical":
        return _code_categorical(v, name, names)
    if kind == "number":
        uniq = np.unique(v)
        return uniq.tolist(), kind, lambda remap: lambda s: remap[np.searchsorted(uniq, v[s])]
    if kind == "string":
        uniq, inv = _factorize_strings(v)
        inv = inv.reshape(-1)
        return uniq.tolist(), kind, lambda remap: lambda s: remap.take(inv[s])
    # object arrays: the distinct values by hashing, the type rule on those values only
    items = v.tolist()  # one list of the objects, walked twice at C speed
    distinct = list(dict.fromkeys(items))
    if any(map(is_missing_label, distinct)):
        where = [i for i, x in enumerate(items) if is_missing_label(x)]
        raise ValueError(missing_message(name, where[0], len(where), len(items)))
    kind = check_values(distinct, name, names)
    try:
        values = sorted(distinct)
    except TypeError:  # mixed number types that do not compare: keep first-seen order
        values = distinct
    position = {x: i for i, x in enumerate(values)}
    codes = np.fromiter(map(position.__getitem__, items), dtype=np.intp, count=v.shape[0])
    del items
    return values, kind, lambda remap: lambda s: remap.take(codes[s])


def _code_categorical(v, name, names):
    """:func:`_code` of a pandas Categorical through its codes: one bincount finds the
    categories in use, one take per chunk maps codes to positions; no string is touched."""
    codes, cats = v.codes, v.categories
    n = codes.shape[0]
    if n and int(codes.min()) < 0:
        where = np.flatnonzero(codes < 0)
        raise ValueError(missing_message(name, int(where[0]), int(where.size), n))
    counts = np.zeros(len(cats), dtype=np.int64)
    for s in _chunks(n):
        counts += np.bincount(codes[s].astype(np.intp), minlength=len(cats))
    used = np.flatnonzero(counts).tolist()
    present = [cats[i] for i in used]
    kind = check_values(present, name, names)
    try:
        values = sorted(present)
    except TypeError:
        values = present
    position = {x: i for i, x in enumerate(values)}
    catmap = np.full(len(cats), -1, dtype=np.intp)
    catmap[used] = [position[cats[i]] for i in used]

    def encode(remap):
        composed = np.where(catmap >= 0, remap[np.maximum(catmap, 0)], -1)
        return lambda s: composed.take(codes[s])

    return values, kind, encode


def _categorical_matrix(a, b, labels, w, names, together):
    """Two pandas Categoricals counted through their codes, as two integer vectors are (one
    bincount, :func:`_small_joint`): the second one's codes are moved into the first one's
    categories when they differ (one take), and only the categories in use are read as
    Python values.  None when there are too many categories for one joint count."""
    cats = list(a.categories)
    where = {v: i for i, v in enumerate(cats)}
    for v in b.categories:
        if v not in where:
            where[v] = len(cats)
            cats.append(v)
    c1 = a.codes
    if b.categories == a.categories:
        c2 = b.codes
    else:
        move = np.array([where[v] for v in b.categories] + [-1], dtype=np.intp)
        c2 = move.take(b.codes)  # -1 (missing) stays -1
    for codes, name in ((c1, names[0]), (c2, names[1])):
        if codes.shape[0] and int(codes.min()) < 0:
            bad = np.flatnonzero(codes < 0)
            raise ValueError(missing_message(name, int(bad[0]), int(bad.size), codes.shape[0]))
    joint = _small_joint(c1, c2, w)
    if joint is None:
        return None
    counts, weighted, lo = joint
    full = counts if weighted is None else weighted
    used = [np.flatnonzero(counts.sum(axis=k) > 0) for k in (1, 0)]  # rows: a, columns: b
    distinct = [[cats[lo + i] for i in u.tolist()] for u in used]
    present = np.flatnonzero((counts.sum(axis=0) + counts.sum(axis=1)) > 0).tolist()
    observed = [cats[lo + i] for i in present]
    kind = check_values(observed, join_names(list(names)), together)
    if kind == "string":
        refuse_missing_tokens([a, b], distinct, names, labels)
    if labels is None:
        try:
            order = sorted(observed)
        except TypeError:
            order = observed
    else:
        order = labels_of_kind(labels, kind, names, together)
    seen = {cats[lo + i]: i for i in present}
    mine = [i for i, v in enumerate(order) if v in seen]
    src = [seen[order[i]] for i in mine]
    C = np.zeros((len(order), len(order)), dtype=full.dtype)
    C[np.ix_(mine, mine)] = full[np.ix_(src, src)]
    if labels is not None:
        _say_left_out(counts, src, order, observed, bool(mine), names)
    return C, order, kind


def _small_joint(a, b, w):
    """Fast path for two integer vectors in a small common range (the commonest case).

    ``np.bincount`` over ``(a - lo) * span + (b - lo)``, computed in intp chunk by chunk:
    no sort.  Taken only when the span^2 cells number at most 2^18, so memory never follows
    the span.  Returns (counts, weighted counts or None, lo), or None.
    """
    if not (np.can_cast(a.dtype, np.intp) and np.can_cast(b.dtype, np.intp)):
        return None  # uint64 (on 64-bit): the per-vector path computes exact offsets
    lo = min(int(a.min()), int(b.min()))
    span = max(int(a.max()), int(b.max())) - lo + 1
    n = a.shape[0]
    limit = np.iinfo(np.intp).max // 4
    if span * span > _MAX_JOINT_CELLS or abs(lo) * (span + 1) > limit:
        return None
    counts = np.zeros(span * span, dtype=np.int64)
    weighted = None if w is None else np.zeros(span * span)
    for s in _chunks(n):
        idx = np.multiply(a[s], span, dtype=np.intp)
        idx += b[s]
        idx -= lo * (span + 1)
        counts += np.bincount(idx, minlength=span * span)
        if w is not None:
            weighted += np.bincount(idx, w[s], minlength=span * span)
    counts = counts.reshape(span, span)
    return counts, (None if w is None else weighted.reshape(span, span)), lo


def _say_left_out(counts, src, order, observed, any_label_observed, names):
    """The cases whose labels ``labels=`` does not list: none kept is refused, some left out
    is warned of with their count (as scikit-learn leaves them out, never silently)."""
    kept = int(counts[np.ix_(src, src)].sum())
    if kept == 0:
        _no_pair_left(order, observed, any_label_observed)
    listed = set(order)
    outside = [v for v in observed if v not in listed]
    warn_left_out(int(counts.sum()) - kept, int(counts.sum()), order, outside, names)


def _no_pair_left(order, observed, any_label_observed):
    if not any_label_observed:
        raise ValueError(
            f"labels must include at least one observed label, got {short(order)} while the "
            f"data use {short(observed)}"
        )
    raise ValueError(f"labels={short(order)} leaves no case whose two labels are both listed")


def _from_joint(joint, labels, names, together):
    counts, weighted, lo = joint
    full = counts if weighted is None else weighted
    present = np.flatnonzero((counts.sum(axis=0) + counts.sum(axis=1)) > 0)
    observed = [lo + i for i in present.tolist()]
    if labels is None:
        return full[np.ix_(present, present)], observed, "number"
    order = labels_of_kind(labels, "number", names, together)
    span = counts.shape[0]
    at = [int(v) - lo if float(v).is_integer() and 0 <= int(v) - lo < span else -1 for v in order]
    seen = set(present.tolist())
    mine = [i for i, p in enumerate(at) if p in seen]
    K = len(order)
    C = np.zeros((K, K), dtype=full.dtype)
    src = [at[i] for i in mine]
    C[np.ix_(mine, mine)] = full[np.ix_(src, src)]
    _say_left_out(counts, src, order, observed, bool(mine), names)
    return C, order, "number"


def joint_counts(vectors, names, labels, weights=None, together=None):
    """The joint table of m label vectors by one bincount: ``(T of shape (K,) * m, order,
    kind)``.

    ``vectors`` are ``(array, kind)`` pairs from :func:`_as_vector`, of one length.  Each is
    coded on its own (:func:`_code`), the distinct values are merged (sorted, or ``labels``),
    and the codes of a case become one index ``((c_0 K + c_1) K + c_2) ...``, counted a chunk
    at a time.  With ``labels``, cases with a label outside them are left out.  This is the
    one joint-count function of the label front ends (m = 2, :func:`_matrix`) and of the
    paired bootstrap (m = 3).
    """
    m = len(vectors)
    if together is None:
        together = join_names(list(names) + (["labels"] if labels is not None else []))
    coded = [
        _code(arr, kind, name, together) for (arr, kind), name in zip(vectors, names, strict=True)
    ]
    kinds = [kind for _, kind, _ in coded]
    if len(set(kinds)) != 1:
        if m == 2:
            (va, ka, _), (vb, kb, _) = coded
            raise LabelKindError(
                f"{LABEL_RULE.format(names=together)}, got {ka}s in {names[0]} ({short(va)}) and "
                f"{kb}s in {names[1]} ({short(vb)})"
            )
        raise LabelKindError(
            f"{LABEL_RULE.format(names=together)}, got "
            + ", ".join(f"{k}s in {n}" for k, n in zip(kinds, names, strict=True))
        )
    kind = kinds[0]
    values = [v for v, _, _ in coded]
    if kind == "string":
        refuse_missing_tokens([a for a, _ in vectors], values, names, labels)
    if labels is None:
        try:
            order = sorted(set().union(*values))
        except TypeError:
            order = list(dict.fromkeys(x for v in values for x in v))
    else:
        order, kind_l = check_labels(labels, together)
        if kind_l != kind:
            raise LabelKindError(
                f"{LABEL_RULE.format(names=together)}, got {kind_l}s in labels "
                f"({short(order)}) and {kind}s in {join_names(list(names))}"
            )
    position = {x: i for i, x in enumerate(order)}
    K = len(order)
    encoders = [
        encode(np.array([position.get(x, -1) for x in v], dtype=np.intp))
        for v, (_, _, encode) in zip(values, coded, strict=True)
    ]
    n = vectors[0][0].shape[0]
    T = np.zeros(K**m, dtype=np.int64 if weights is None else np.float64)
    kept = any_listed = 0
    for s in _chunks(n):
        codes = [encode(s) for encode in encoders]
        ws = None if weights is None else weights[s]
        if labels is not None:
            keep = np.logical_and.reduce([c >= 0 for c in codes])
            any_listed = any_listed or bool(np.logical_or.reduce([c >= 0 for c in codes]).any())
            if not keep.all():
                codes = [c[keep] for c in codes]
                ws = None if ws is None else ws[keep]
        kept += codes[0].shape[0]
        idx = codes[0].astype(np.intp, copy=True)
        for c in codes[1:]:
            idx *= K
            idx += c
        T += np.bincount(idx, weights=ws, minlength=K**m).astype(T.dtype, copy=False)
    if kept == 0:
        if m == 2:
            observed = sorted(set(values[0]) | set(values[1]), key=lambda x: (str(type(x)), x))
            _no_pair_left(order, observed, any_listed)
        raise ValueError(f"labels={short(order)} leaves no case whose {m} labels are all listed")
    if labels is not None and kept < n:
        outside = [x for x in dict.fromkeys(x for v in values for x in v) if x not in position]
        warn_left_out(n - kept, n, order, outside, names)
    return T.reshape((K,) * m), order, kind


def count_matrix(y1, y2, labels, sample_weight, names=("y1", "y2")):
    """Validated confusion matrix, its label values (a list) and their kind."""
    together = (
        f"{names[0]} and {names[1]}" if labels is None else f"{names[0]}, {names[1]} and labels"
    )
    (a, ka), (b, kb) = check_pair(y1, y2, names, together)
    w = check_sample_weight(sample_weight, a.shape[0])
    if ka == kb == "categorical":
        out = _categorical_matrix(a, b, labels, w, names, together)
        if out is not None:
            return out
    if a.dtype.kind in "biu" and b.dtype.kind in "biu":
        joint = _small_joint(a, b, w)
        if joint is not None:
            return _from_joint(joint, labels, names, together)
    return joint_counts([(a, ka), (b, kb)], names, labels, w, together)


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
        The classes and their order.  Cases with a label outside ``labels`` are left out, as
        scikit-learn leaves them out, with a ``UserWarning`` that counts them and names the
        labels (never silently; the reports refuse such a list instead).
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
    C, order, _, source = labelled_matrix(y1, y2, labels, sample_weight, names=("y1", "y2"))
    return ConfusionMatrix(C, order, ordered=source != "spelling")


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
            f"C must hold whole counts (each cell becomes that many cases), got {short(C)}"
        )
    K = arr.shape[0]
    if labels is None:
        names = np.arange(K)
    else:
        names = np.asarray(labels)
        if names.shape != (K,) or len(set(names.tolist())) != K:
            raise ValueError(
                f"labels must list the {K} distinct classes of C's rows and columns, in order, "
                f"got {short(labels)}"
            )
    cells = np.repeat(np.arange(K * K), whole.astype(np.int64).ravel())
    return LabelPair(names[cells // K], names[cells % K])
