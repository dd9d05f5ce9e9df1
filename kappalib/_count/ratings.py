"""Count ratings: raw ratings (checked and coded by ``_input.ratings``) -> units x values counts,
and the coincidences that Krippendorff's alpha needs.

Two engines, both without a sort where they can:

* integer ratings in a small range (:func:`_integer_blocks`): one comparison per value, or
  one ``np.bincount``, over blocks of units so that no temporary is as large as the data;
* anything else: ``np.unique`` or ``categories`` give each rating a code, then one
  ``np.bincount`` over ``unit * (V + 1) + code`` (:func:`_bincount_table`).

Symbols: ``n_uc`` the units x values counts, ``m_u`` the ratings of unit ``u``, ``o`` the
coincidence matrix (Krippendorff 2011).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from .._input.ratings import RATINGS_DOC, Layout, check_categories, prepare
from .._shared.messages import short
from ..results import RatingTable

__all__ = ["rating_table"]


# integers spanning fewer values than this are coded by subtracting their minimum (no sort)
MAX_DIRECT_SPAN = 1 << 16


def _bincount_table(codes, V):
    """(raters, units) codes in 0..V, V marking a missing rating -> (units, V) counts.

    One ``np.bincount`` over ``unit * (V + 1) + code``; the missing bin is then cut off.
    """
    n_units = codes.shape[1]
    flat = codes + (V + 1) * np.arange(n_units)
    counts = np.bincount(flat.ravel(), minlength=n_units * (V + 1))
    return counts.reshape(n_units, V + 1)[:, :V]


def _scatter(codes, missing, some_missing, V):
    """Codes of the present ratings back into the (raters, units) grid, then counted."""
    if some_missing:
        full = np.full(missing.shape, V, dtype=np.intp)
        full[~missing] = codes
    else:
        full = codes.reshape(missing.shape)
    return _bincount_table(full, V)


_CHUNK = 1 << 16  # ratings per block of the np.bincount path: its buffers stay in cache


_COMPARE_CHUNK = 1 << 17  # ratings per block of the comparison path (fastest, measured)


_SMALL_SPAN = 16  # up to this many values, one comparison per value beats np.bincount


def _integer_blocks(arr, extremes=None):
    """The fast path for integer values in a small range: ``(lo, span, blocks)`` or None.

    The domain is ``lo, lo + 1, ..., lo + span - 1``.  ``blocks`` yields ``(first unit,
    counts of shape (w, span))`` for consecutive blocks of units, so that no temporary array
    is as large as the data (allocating those dominated the run time); the counts may be a
    view of a buffer that the next block reuses.  It yields ``(first unit, None)`` and stops
    if a value is not an integer.  Two ways to count, both without a sort:

    * up to ``_SMALL_SPAN`` values (and fewer than 256 raters, so that a count fits a byte):
      :func:`_compare_blocks`, one ``==`` per value;
    * otherwise :func:`_bincount_blocks`.
    """
    if extremes is None:
        flat = arr.ravel()
        extremes = (np.fmin.reduce(flat), np.fmax.reduce(flat))
    lo, hi = extremes
    # integers: the difference in Python ints (int8's 100 - (-100) overflows in int8)
    gap = int(hi) - int(lo) if arr.dtype.kind in "iu" else hi - lo
    if not gap < MAX_DIRECT_SPAN:
        return None
    R, n_units = arr.shape
    span = int(gap) + 1
    if span * n_units > 4 * arr.size + 4096:  # keep the table within a few times the data
        return None
    if span <= _SMALL_SPAN and R < 256:
        return lo, span, _compare_blocks(arr, lo, span)
    return lo, span, _bincount_blocks(arr, lo, span)


def _compare_blocks(arr, lo, span):
    """Counts by comparison: ``n_uc`` = the number of raters whose rating equals ``lo + c``.

    Each ``==`` gives a (raters, w) mask whose bytes are summed over the raters.  A missing
    rating (NaN) equals nothing; a rating that is not an integer equals nothing either, so the
    counts fall short of the ratings present in the block.  Beyond 2^53, ``lo + c`` may round
    onto its neighbour, which is then counted twice: the counts exceed the ratings present.
    Either way the block does not add up, and the caller takes the general path.
    """
    R, n_units = arr.shape
    width = max(1, min(n_units, _COMPARE_CHUNK // R))
    hit = np.empty((R, width), dtype=bool)
    counts = np.empty((span, width), dtype=np.uint8)
    floats = arr.dtype.kind == "f"
    for a in range(0, n_units, width):
        w = min(width, n_units - a)
        x, h, n = arr[:, a : a + w], hit[:, :w], counts[:, :w]
        for c in range(span):
            np.equal(x, lo + c, out=h)
            np.add.reduce(h.view(np.uint8), axis=0, out=n[c])
        present = x.size - (np.count_nonzero(np.isnan(x, out=h)) if floats else 0)
        if int(np.add.reduce(n, axis=0).sum(dtype=np.intp)) != present:  # R < 256: no wrap
            yield a, None
            return
        yield a, n.T


def _bincount_blocks(arr, lo, span):
    """Counts by ``np.bincount``: rating ``x`` of unit ``u`` goes to bin ``u * (span + 1) +
    (x - lo)``; ``np.fmin`` sends NaN (missing) to ``x = lo + span``, the spare last bin of
    its unit.  Values are coded into reused buffers."""
    R, n_units = arr.shape
    width = max(1, min(n_units, _CHUNK // R))
    if arr.dtype.kind in "iu":  # no NaN; x - lo in 64-bit integers, exact for every dtype
        wide = np.uint64 if arr.dtype.kind == "u" else np.int64
        offset = (span + 1) * np.arange(width)
        for a in range(0, n_units, width):
            w = min(width, n_units - a)
            codes = (arr[:, a : a + w].astype(wide) - wide(lo)).astype(np.intp) + offset[:w]
            counts = np.bincount(codes.ravel(), minlength=w * (span + 1))
            yield a, counts.reshape(w, span + 1)[:, :span]
        return
    offset = (span + 1.0) * np.arange(width) - lo
    where = np.empty((R, width))
    whole = np.empty((R, width)) if arr.dtype.kind == "f" else None
    codes = np.empty((R, width), dtype=np.intp)
    for a in range(0, n_units, width):
        w = min(width, n_units - a)
        x, c = where[:, :w], codes[:, :w]
        np.fmin(arr[:, a : a + w], lo + span, out=x)
        # integers? checked before the offset is added: 1e-300 + 2.0 rounds to 2.0
        if whole is not None and not np.array_equal(np.rint(x, out=whole[:, :w]), x):
            yield a, None
            return
        np.add(x, offset[:w], out=x)
        np.copyto(c, x, casting="unsafe")
        counts = np.bincount(c.ravel(), minlength=w * (span + 1))
        yield a, counts.reshape(w, span + 1)[:, :span]


def _tabulate_integers(arr, keep_unused, extremes):
    """:func:`_tabulate` through :func:`_integer_blocks`, or None if it does not apply."""
    plan = _integer_blocks(arr, extremes)
    if plan is None:
        return None
    lo, span, blocks = plan
    table = np.empty((arr.shape[1], span), dtype=np.int64)
    for a, counts in blocks:
        if counts is None:
            return None
        table[a : a + counts.shape[0]] = counts
    if keep_unused:
        return table, _values(lo, np.arange(span), arr.dtype)
    present = table.any(axis=0)
    return table[:, present], _values(lo, np.flatnonzero(present), arr.dtype)


def _values(lo, steps, dtype):
    """``lo + steps`` in ``dtype``, exactly: in 64-bit integers for an integer dtype (int64
    plus a uint64 scalar would be float64, and int8 cannot hold the steps)."""
    if dtype.kind in "iu":
        wide = np.uint64 if dtype.kind == "u" else np.int64
        return (steps.astype(wide) + wide(lo)).astype(dtype)
    return (lo + steps).astype(dtype)


def _coincidences(n_uc):
    """Coincidence matrix o (V, V) of a units x values count block, and its largest m_u.

    o_ck = sum_u (n_uc n_uk - [c = k] n_uc) / (m_u - 1) over units with m_u >= 2, as one
    matrix product per slice of units: small enough that OpenBLAS runs it on one thread (a
    single product over 10^5 units woke its thread pool and took four times as long).
    """
    n_units, V = n_uc.shape
    step = max(1024, (1 << 18) // max(1, V * V))
    o = np.zeros((V, V))
    own = np.zeros(V)
    m_max = 0
    for s in range(0, n_units, step):
        counts = n_uc[s : s + step].T  # (V, w): one row per value
        m = np.add.reduce(counts, axis=0)  # in the counts' own integer type: no overflow, as
        top = int(m.max()) if m.size else 0  # a unit's count never exceeds the raters
        inv = np.zeros(top + 1)
        inv[2:] = 1.0 / np.arange(1.0, top)  # 1 / (m_u - 1); 0 drops a unit with m_u < 2
        inv_u = inv.take(m.astype(np.intp))  # numpy 1.26 will not take with uint64
        n = np.array(counts, dtype=np.float64, order="C")
        weighted = n * inv_u
        o += weighted @ n.T
        own += n @ inv_u
        m_max = max(m_max, top)
    o[np.diag_indices(V)] -= own
    return o, m_max


def ratings_coincidences(data, categories, layout, name="ratings"):
    """(o, domain, largest m_u, where the order came from) of ratings in either layout.

    On the integer fast path each block of counts is paired as soon as it is counted, while
    it is still in cache, and the units x values table is never built.
    """
    arr, missing, extremes, categories, source = prepare(data, layout, categories, name)
    plan = None
    if arr.dtype.kind in "iuf" and categories is None and (missing is None or not missing.any()):
        plan = _integer_blocks(arr, extremes)
        if plan is not None:
            lo, span, blocks = plan
            o, m_max = np.zeros((span, span)), 0
            for _, counts in blocks:
                if counts is None:
                    break
                o_block, m_block = _coincidences(counts)
                o += o_block
                m_max = max(m_max, m_block)
            else:
                return o, _values(lo, np.arange(span), arr.dtype), m_max, source
    table, domain = tabulate_ratings(
        arr, missing, extremes, categories, name, keep_unused=True, integers=plan is None
    )
    o, m_max = _coincidences(table)
    return o, domain, m_max, source


def tabulate(data, categories, layout, name="ratings", *, keep_unused=False):
    """The (units, V) count table of raters x units ratings, and the value domain (V,).

    Integer-valued numbers spanning fewer than 2^16 values are coded by subtracting their
    minimum (no sort); anything else goes through ``np.unique`` or ``categories``.  With
    ``keep_unused``, that fast path may keep integers between the extremes that nobody
    used, as empty columns (harmless for alpha: they add nothing to any sum).  Returns
    ``(table, domain, where the order came from)``.
    """
    arr, missing, extremes, categories, source = prepare(data, layout, categories, name)
    table, domain = tabulate_ratings(
        arr, missing, extremes, categories, name, keep_unused=keep_unused
    )
    return table, domain, source


def tabulate_ratings(arr, missing, extremes, categories, name, *, keep_unused, integers=True):
    """:func:`tabulate` after :func:`prepare`; ``integers=False`` skips the fast path."""
    numeric = arr.dtype.kind in "iuf"
    if numeric and categories is None and integers and (missing is None or not missing.any()):
        found = _tabulate_integers(arr, keep_unused, extremes)
        if found is not None:
            return found
    if missing is None:
        missing = np.isnan(arr)
    if missing.all():
        raise ValueError(
            f"{name} has no rating at all: every one of its {arr.size} cells is missing"
        )
    some_missing = bool(missing.any())
    if categories is not None:
        domain = check_categories(categories, numeric)
        values = arr[~missing] if some_missing else arr.ravel()
        order = np.argsort(domain, kind="stable")
        sorted_domain = domain[order]
        pos = np.minimum(np.searchsorted(sorted_domain, values), domain.size - 1)
        bad = sorted_domain[pos] != values
        if bad.any():
            raise ValueError(
                f"{name} holds the rating {short(values[np.argmax(bad)])}, which is not among "
                f"labels {short(domain.tolist())}"
            )
        return _scatter(order[pos], missing, some_missing, domain.size), domain
    values = arr[~missing] if some_missing else arr.ravel()
    domain, codes = np.unique(values, return_inverse=True)
    return _scatter(codes.ravel(), missing, some_missing, domain.size), domain


def rating_table(
    ratings: ArrayLike,
    *,
    labels: ArrayLike | None = None,
    layout: Layout | None = None,
) -> RatingTable:
    r"""Count how many raters put each unit in each category.

    .. math:: n_{uk} = \#\{\text{raters } i : x_{iu} = k\}

    Parameters
    ----------
    ratings : array-like of shape (raters, units) or (units, raters)
        RATINGS_DOC
    labels : array-like of shape (K,), optional
        The categories **offered**, in the order of the table's columns.  Without it the
        table has a column only for the categories somebody chose, sorted; Brennan-Prediger
        and Gwet's AC1 depend on how many categories were offered, so give them here.  For
        string ratings the sorted order is their spelling, which a weighted coefficient
        refuses: give the order here, or use an ordered pandas Categorical.
    layout : {None, "raters x units", "units x raters"}
        See ``ratings``.

    Returns
    -------
    table : RatingTable of int64, shape (units, K)
        ``table[u, k]`` raters put unit ``u`` in category ``table.labels[k]``; a row sums to
        the number of ratings of that unit.  A numpy array that carries ``table.labels`` (the
        categories, in order) and ``table.ordered`` (False for strings sorted by their
        spelling), which the coefficient functions given this table use.

    Raises
    ------
    ValueError, TypeError
        On ragged or non-2-D data, an implausible or unknown layout, a column that looks
        like subject ids, a mix of numbers and strings, a string that reads as missing,
        infinite values, no rating at all, or a rating outside ``labels``.

    Examples
    --------
    Three raters, four units, one rating missing:

    >>> import numpy as np
    >>> import kappalib as kl
    >>> data = [[1, 2, 2, 1], [1, 2, 1, np.nan], [1, 2, 2, 2]]  # 3 raters x 4 units
    >>> table = kl.rating_table(data, layout="raters x units")
    >>> table.tolist(), table.labels
    ([[3, 0], [0, 3], [1, 2], [1, 1]], (1.0, 2.0))
    """
    table, domain, source = tabulate(ratings, labels, layout, "ratings")
    return RatingTable(np.asarray(table, dtype=np.int64), domain, ordered=source != "spelling")


rating_table.__doc__ = (rating_table.__doc__ or "").replace("RATINGS_DOC", RATINGS_DOC)
