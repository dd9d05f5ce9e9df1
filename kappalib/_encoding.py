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

import math
import numbers

import numpy as np

from ._counting import MAX_DIRECT_SPAN
from ._errors import LabelKindError
from ._validation import _short
from ._validation import has_big_int as _has_big_int

# Integer labels are coded by subtraction (no sort) when their span is at most
# MAX_DIRECT_SPAN, or at most the number of cases: the lookup table then costs no more memory
# than the input.


# Integer labels are coded by subtraction (no sort) when their span is at most
# MAX_DIRECT_SPAN, or at most the number of cases: the lookup table then costs no more memory
# than the input.
# Two integer vectors whose common span^2 is at most this are counted in one joint bincount.
_MAX_JOINT_CELLS = 1 << 18


# Cases handled at a time: the intp temporaries stay below 8 MiB whatever the input size.
_CHUNK = 1 << 20


_RULE = "labels must be all numbers or all strings, in {names} together"


def _value_kind(value):
    """'number', 'string', or None for a value that is neither."""
    if isinstance(value, str):
        return "string"
    if isinstance(value, (numbers.Real, np.bool_)) and not isinstance(value, np.timedelta64):
        return "number"
    return None


def _missing_message(name, first, count, size):
    return (
        f"{name} must not contain missing (NaN or None) labels, got one at index {first} "
        f"({count} of {size} cases); drop those cases from both vectors first, for example "
        "with df.dropna(subset=[...]) on a DataFrame, or keep = ~np.isnan(y1) & ~np.isnan(y2)"
    )


def _is_missing_label(v):
    return (
        v is None
        or (isinstance(v, (float, np.floating)) and v != v)
        or (type(v).__name__ in ("NAType", "NaTType"))
    )


def _check_values(values, name, names):
    """The kind shared by ``values`` (Python objects); raise on NaN, None or a mix."""
    kinds = set()
    for v in values:
        kind = _value_kind(v)
        if kind is None:
            raise LabelKindError(
                f"{name} must hold numbers or strings ({_RULE.format(names=names)}), "
                f"got {v!r} of type {type(v).__name__}"
            )
        if kind == "number" and isinstance(v, (float, np.floating)) and math.isnan(v):
            raise ValueError(f"{name} must not contain NaN labels, got {v!r}")
        kinds.add(kind)
    if len(kinds) > 1:
        raise LabelKindError(
            f"{_RULE.format(names=names)}, got both numbers and strings in {name}: "
            f"{_short(list(values))}"
        )
    return kinds.pop() if kinds else None


def _as_vector(y, name, names):
    """y as a 1-D array and its kind ('number', 'string' or 'object' to be checked later)."""
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
    kind = arr.dtype.kind
    if kind == "f" and not isinstance(y, np.ndarray) and _has_big_int(y):
        # np.asarray([0, 2**64 - 4]) rounds to float64: keep the Python integers exact
        arr, kind = np.asarray(y, dtype=object), "O"
    if kind in "biuf":
        if kind == "f":
            nan = np.isnan(arr)
            if nan.any():
                raise ValueError(
                    _missing_message(name, int(np.argmax(nan)), int(nan.sum()), nan.size)
                )
        return arr, "number"
    if kind in "US":
        if not isinstance(y, np.ndarray):
            # np.asarray(["a", 1]) silently gives strings: check the original elements' types
            types = set(map(type, y))
            if not all(issubclass(t, (str, bytes)) for t in types):
                _check_values(dict.fromkeys(y), name, names)
        return arr, "string"
    if kind == "O":
        return arr, "object"
    raise LabelKindError(
        f"{name} must hold numbers or strings ({_RULE.format(names=names)}), got an array "
        f"of dtype {arr.dtype}: {_short(y)}"
    )


def _check_pair(y1, y2, names, together):
    a, ka = _as_vector(y1, names[0], together)
    b, kb = _as_vector(y2, names[1], together)
    if a.shape[0] != b.shape[0]:
        raise ValueError(
            f"{names[0]} and {names[1]} must have the same length, got {a.shape[0]} and "
            f"{b.shape[0]}"
        )
    return (a, ka), (b, kb)


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


def _check_labels(labels, names):
    """The ``labels`` argument as a list of Python values, and their kind."""
    arr = np.asarray(labels)
    if arr.ndim != 1 or arr.shape[0] == 0:
        raise ValueError(f"labels must be a non-empty 1-D sequence, got {_short(labels)}")
    values = list(labels) if not isinstance(labels, np.ndarray) else arr.tolist()
    values = [v.item() if isinstance(v, np.generic) else v for v in values]
    kind = _check_values(values, "labels", names)
    if len(set(values)) != len(values):
        seen, dup = set(), None
        for v in values:
            if v in seen:
                dup = v
                break
            seen.add(v)
        raise ValueError(f"labels must not repeat a label, got {dup!r} twice in {_short(values)}")
    return values, kind


def _categorical_order(y, name):
    """The categories of an ordered pandas Categorical (or Series of one), else None."""
    dtype = getattr(y, "dtype", None)
    if getattr(dtype, "ordered", False) and hasattr(dtype, "categories"):
        return [v.item() if isinstance(v, np.generic) else v for v in dtype.categories]
    return None


def _labelled(y1, y2, labels, sample_weight, names=("y1", "y2")):
    """:func:`_matrix`, with the order of ordered Categoricals, and where the order came from:
    ``(C, order, kind, source)``."""
    source = "given"
    if labels is None:
        orders = [
            o
            for o in (_categorical_order(y, n) for y, n in zip((y1, y2), names, strict=True))
            if o is not None
        ]
        if len(orders) == 2 and orders[0] != orders[1]:
            raise ValueError(
                f"{names[0]} and {names[1]} are ordered Categoricals with different "
                f"categories ({_short(orders[0], 40)} and {_short(orders[1], 40)}); give "
                "both the same categories, or pass labels=[...]"
            )
        if orders:
            labels = orders[0]
        else:
            source = None
    C, order, kind = _matrix(y1, y2, labels, sample_weight, names)
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
    if any(map(_is_missing_label, distinct)):
        where = [i for i, x in enumerate(items) if _is_missing_label(x)]
        raise ValueError(_missing_message(name, where[0], len(where), len(items)))
    kind = _check_values(distinct, name, names)
    try:
        values = sorted(distinct)
    except TypeError:  # mixed number types that do not compare: keep first-seen order
        values = distinct
    position = {x: i for i, x in enumerate(values)}
    codes = np.fromiter(map(position.__getitem__, items), dtype=np.intp, count=v.shape[0])
    del items
    return values, kind, lambda remap: lambda s: remap.take(codes[s])


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


def _no_pair_left(order, observed, any_label_observed):
    if not any_label_observed:
        raise ValueError(
            f"labels must include at least one observed label, got {_short(order)} while the "
            f"data use {_short(observed)}"
        )
    raise ValueError(f"labels={_short(order)} leaves no case whose two labels are both listed")


def _labels_of_kind(labels, kind, names, together):
    order, kind_l = _check_labels(labels, together)
    if kind_l != kind:
        raise LabelKindError(
            f"{_RULE.format(names=together)}, got {kind_l}s in labels ({_short(order)}) and "
            f"{kind}s in {names[0]} and {names[1]}"
        )
    return order


def _from_joint(joint, labels, names, together):
    counts, weighted, lo = joint
    full = counts if weighted is None else weighted
    present = np.flatnonzero((counts.sum(axis=0) + counts.sum(axis=1)) > 0)
    observed = [lo + i for i in present.tolist()]
    if labels is None:
        return full[np.ix_(present, present)], observed, "number"
    order = _labels_of_kind(labels, "number", names, together)
    span = counts.shape[0]
    at = [int(v) - lo if float(v).is_integer() and 0 <= int(v) - lo < span else -1 for v in order]
    seen = set(present.tolist())
    mine = [i for i, p in enumerate(at) if p in seen]
    K = len(order)
    C = np.zeros((K, K), dtype=full.dtype)
    src = [at[i] for i in mine]
    C[np.ix_(mine, mine)] = full[np.ix_(src, src)]
    if counts[np.ix_(src, src)].sum() == 0:
        _no_pair_left(order, observed, bool(mine))
    return C, order, "number"


def _names(names):
    """'a and b', or 'a, b and c'."""
    return " and ".join([", ".join(names[:-1]), names[-1]]) if len(names) > 1 else names[0]


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
        together = _names(list(names) + (["labels"] if labels is not None else []))
    coded = [
        _code(arr, kind, name, together) for (arr, kind), name in zip(vectors, names, strict=True)
    ]
    kinds = [kind for _, kind, _ in coded]
    if len(set(kinds)) != 1:
        if m == 2:
            (va, ka, _), (vb, kb, _) = coded
            raise LabelKindError(
                f"{_RULE.format(names=together)}, got {ka}s in {names[0]} ({_short(va)}) and "
                f"{kb}s in {names[1]} ({_short(vb)})"
            )
        raise LabelKindError(
            f"{_RULE.format(names=together)}, got "
            + ", ".join(f"{k}s in {n}" for k, n in zip(kinds, names, strict=True))
        )
    kind = kinds[0]
    values = [v for v, _, _ in coded]
    if labels is None:
        try:
            order = sorted(set().union(*values))
        except TypeError:
            order = list(dict.fromkeys(x for v in values for x in v))
    else:
        order, kind_l = _check_labels(labels, together)
        if kind_l != kind:
            raise LabelKindError(
                f"{_RULE.format(names=together)}, got {kind_l}s in labels ({_short(order)}) and "
                f"{kind}s in {_names(list(names))}"
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
        raise ValueError(f"labels={_short(order)} leaves no case whose {m} labels are all listed")
    return T.reshape((K,) * m), order, kind


def _matrix(y1, y2, labels, sample_weight, names=("y1", "y2")):
    """Validated confusion matrix, its label values (a list) and their kind."""
    together = (
        f"{names[0]} and {names[1]}" if labels is None else f"{names[0]}, {names[1]} and labels"
    )
    (a, ka), (b, kb) = _check_pair(y1, y2, names, together)
    w = _check_sample_weight(sample_weight, a.shape[0])
    if a.dtype.kind in "biu" and b.dtype.kind in "biu":
        joint = _small_joint(a, b, w)
        if joint is not None:
            return _from_joint(joint, labels, names, together)
    return joint_counts([(a, ka), (b, kb)], names, labels, w, together)
