r"""More than two raters, and the coefficients that replace kappa's chance model.

Layouts, following the ecosystem:

* ``reliability_data``: **raters x units**, as in the ``krippendorff`` package; a missing
  rating is NaN (or ``None``).  :func:`rating_table` turns it into
* ``table``: **units (subjects) x categories** counts, ``table[u, k]`` = how many raters put
  unit ``u`` in category ``k``, as in statsmodels' ``fleiss_kappa``.
* ``C``: a two-rater confusion matrix, as everywhere else in kappalib.

Symbols follow Krippendorff (2011) and Gwet (2014): ``n_uk`` the table, ``m_u`` the number of
ratings of unit ``u``, ``o`` the coincidence matrix, ``n_c`` its margins, ``delta`` the
squared difference of the level of measurement, ``w = 1 - W / max(W)`` the agreement weights
made from kappalib's disagreement weights ``W``, ``p_a`` and ``p_e`` observed and chance
agreement.
"""

from __future__ import annotations

from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

from ._agreement import _margins
from ._labels import _has_big_int
from ._validation import _short, as_matrix, finish, matrix_function
from ._validation import to_float as _scalar_or_array
from ._weights import resolve_weights

__all__ = [
    "brennan_prediger",
    "brennan_prediger_multi",
    "fleiss_kappa",
    "gwet_ac1",
    "gwet_ac1_multi",
    "krippendorff_alpha",
    "rating_table",
]

_LEVELS = ("nominal", "ordinal", "interval", "ratio")
_MAX_DIRECT_SPAN = 1 << 16


# --- raw ratings -> codes ------------------------------------------------------------------


def _as_ratings(data, name):
    """Return ``(array of shape (raters, units), missing mask, extremes)`` or raise one clear
    sentence.  For floats the mask is None (``np.isnan`` on demand: the integer fast path never
    needs it) and ``extremes`` the smallest and largest rating; otherwise ``extremes`` is None.
    """
    try:
        arr = np.asarray(data)
    except ValueError:
        lengths = None
        try:
            lengths = [len(row) for row in data]
        except TypeError:
            pass
        raise ValueError(
            f"{name} must be a rectangular raters x units array (pad a missing rating with "
            f"NaN), got rows of lengths {lengths}"
        ) from None
    if arr.ndim != 2:
        raise ValueError(
            f"{name} must be a 2-D raters x units array, got shape {arr.shape}: {_short(data)}"
        )
    if arr.size == 0:
        raise ValueError(f"{name} must hold at least one rating, got shape {arr.shape}")
    kind = arr.dtype.kind
    if (
        kind == "f"
        and isinstance(data, (list, tuple))
        and any(_has_big_int(row) for row in data if isinstance(row, (list, tuple)))
    ):
        # np.asarray([[0, 2**64 - 4]]) rounds to float64: keep the Python integers exact
        # (only nested lists are scanned: a DataFrame or an array already has its dtype)
        arr, kind = np.asarray(data, dtype=object), "O"
    if kind in "biu":
        arr = arr.astype(np.int64) if kind == "b" else arr
        return arr, np.zeros(arr.shape, dtype=bool), None
    if kind == "f":
        flat = arr.ravel()
        lo, hi = np.fmin.reduce(flat), np.fmax.reduce(flat)  # skip NaN, one pass each
        if np.isnan(lo):
            raise ValueError(
                f"{name} has no rating at all: every one of its {arr.size} cells is missing"
            )
        if np.isinf(lo) or np.isinf(hi):
            pos = tuple(int(i) for i in np.argwhere(np.isinf(arr))[0])
            raise ValueError(
                f"{name} must hold finite ratings or NaN for missing, got {float(arr[pos])!r} at "
                f"index {pos}"
            )
        return arr, None, (lo, hi)
    if kind in "US":
        missing = (arr == "") | (arr == "nan")
        return arr, missing, None
    if kind == "O":
        flat = arr.ravel()
        missing = np.array(
            [v is None or (isinstance(v, float) and v != v) for v in flat], dtype=bool
        )
        present = flat[~missing]
        if all(isinstance(v, str) for v in present):
            out = np.where(missing, "", flat).astype(str)
        elif all(
            isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool)
            for v in present
        ):
            if _has_big_int(present):
                return _exact_integers(present, missing, arr.shape, name)
            out = np.where(missing, np.nan, flat).astype(np.float64)
        else:
            num = next(v for v in present if not isinstance(v, str))
            word = next((v for v in present if isinstance(v, str)), None)
            raise TypeError(
                f"{name} must hold either numbers or strings (None or NaN for missing), "
                f"got a mix such as {num!r} and {word!r}"
            )
        return (
            _as_ratings(out.reshape(arr.shape), name)
            if out.dtype.kind == "f"
            else (out.reshape(arr.shape), missing.reshape(arr.shape), None)
        )
    raise TypeError(
        f"{name} must hold numbers or strings, got an array of dtype {arr.dtype}: {_short(data)}"
    )


def _exact_integers(present, missing, shape, name):
    """Ratings with an integer beyond 2^53, kept exact in int64 or uint64 with a missing mask
    (as float64, NaN's type, 2^62 and 2^62 + 1 would be one value)."""
    if not all(isinstance(v, (int, np.integer)) or float(v).is_integer() for v in present):
        big = next(v for v in present if isinstance(v, (int, np.integer)) and abs(v) > 2**53)
        frac = next(
            v for v in present if not isinstance(v, (int, np.integer)) and not float(v).is_integer()
        )
        raise ValueError(
            f"{name} mixes integers beyond 2**53 such as {big!r} with non-integers such as "
            f"{frac!r}: no numeric type holds both exactly; pass strings for the nominal level"
        )
    values = [int(v) for v in present]
    lo, hi = min(values), max(values)
    if -(2**63) <= lo and hi < 2**63:
        dtype = np.int64
    elif 0 <= lo and hi < 2**64:
        dtype = np.uint64
    else:
        raise ValueError(
            f"{name} holds integers from {lo} to {hi}, which no 64-bit integer type holds; "
            "pass them as strings for the nominal level"
        )
    out = np.zeros(missing.size, dtype=dtype)
    out[~missing] = np.array(values, dtype=dtype)
    return out.reshape(shape), missing.reshape(shape), None


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


def _check_categories(categories, numeric):
    domain = np.asarray(categories)
    if domain.ndim != 1 or domain.size == 0:
        raise ValueError(f"categories must be a non-empty 1-D sequence, got {_short(categories)}")
    if numeric and domain.dtype.kind not in "biuf":
        raise TypeError(
            f"categories must be numbers to match numeric ratings, got {_short(categories)}"
        )
    if not numeric and domain.dtype.kind not in "US":
        raise TypeError(
            f"categories must be strings to match string ratings, got {_short(categories)}"
        )
    if len(np.unique(domain)) != domain.size:
        raise ValueError(f"categories must not repeat a value, got {_short(categories)}")
    return domain


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
    if not gap < _MAX_DIRECT_SPAN:
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
        inv_u = inv.take(m)
        n = np.array(counts, dtype=np.float64, order="C")
        weighted = n * inv_u
        o += weighted @ n.T
        own += n @ inv_u
        m_max = max(m_max, top)
    o[np.diag_indices(V)] -= own
    return o, m_max


def _ratings_coincidences(data, categories, name="reliability_data"):
    """(o, domain, largest m_u) of raters x units ratings.

    On the integer fast path each block of counts is paired as soon as it is counted, while
    it is still in cache, and the units x values table is never built.
    """
    arr, missing, extremes = _as_ratings(data, name)
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
                return o, _values(lo, np.arange(span), arr.dtype), m_max
    table, domain = _tabulate_ratings(
        arr, missing, extremes, categories, name, keep_unused=True, integers=plan is None
    )
    o, m_max = _coincidences(table)
    return o, domain, m_max


def _tabulate(data, categories, name="reliability_data", *, keep_unused=False):
    """The (units, V) count table of raters x units ratings, and the value domain (V,).

    Integer-valued numbers spanning fewer than 2^16 values are coded by subtracting their
    minimum (no sort); anything else goes through ``np.unique`` or ``categories``.  With
    ``keep_unused``, that fast path may keep integers between the extremes that nobody
    used, as empty columns (harmless for alpha: they add nothing to any sum).
    """
    arr, missing, extremes = _as_ratings(data, name)
    return _tabulate_ratings(arr, missing, extremes, categories, name, keep_unused=keep_unused)


def _tabulate_ratings(arr, missing, extremes, categories, name, *, keep_unused, integers=True):
    """:func:`_tabulate` after :func:`_as_ratings`; ``integers=False`` skips the fast path."""
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
        domain = _check_categories(categories, numeric)
        values = arr[~missing] if some_missing else arr.ravel()
        order = np.argsort(domain, kind="stable")
        sorted_domain = domain[order]
        pos = np.minimum(np.searchsorted(sorted_domain, values), domain.size - 1)
        bad = sorted_domain[pos] != values
        if bad.any():
            raise ValueError(
                f"{name} holds the rating {values[np.argmax(bad)]!r}, which is not among "
                f"categories {_short(domain.tolist())}"
            )
        return _scatter(order[pos], missing, some_missing, domain.size), domain
    values = arr[~missing] if some_missing else arr.ravel()
    domain, codes = np.unique(values, return_inverse=True)
    return _scatter(codes.ravel(), missing, some_missing, domain.size), domain


def rating_table(
    reliability_data: ArrayLike, *, categories: ArrayLike | None = None
) -> tuple[np.ndarray, np.ndarray]:
    r"""Count how many raters put each unit in each category.

    .. math:: n_{uk} = \#\{\text{raters } i : x_{iu} = k\}

    Parameters
    ----------
    reliability_data : array-like of shape (raters, units)
        One row per rater, one column per unit (the ``krippendorff`` package's layout; this is
        the transpose of statsmodels' ``aggregate_raters``).  NaN or ``None`` marks a missing
        rating; for string ratings ``""`` and ``"nan"`` do too.  Numbers or strings.
    categories : array-like of shape (K,), optional
        The categories, in the order of the table's columns.  Use it to keep a category that
        nobody chose, or to fix an order.  Default: the sorted distinct ratings.

    Returns
    -------
    table : ndarray of int64, shape (units, K)
        ``table[u, k]`` raters put unit ``u`` in ``categories[k]``; a row sums to the number
        of ratings of that unit.
    categories : ndarray of shape (K,)

    Raises
    ------
    ValueError, TypeError
        On ragged or non-2-D data, a mix of numbers and strings, infinite values, no rating
        at all, or a rating outside ``categories``.

    Examples
    --------
    Three raters, four units, one rating missing:

    >>> import numpy as np
    >>> import kappalib as kl
    >>> table, cats = kl.rating_table([[1, 2, 2, 1], [1, 2, 1, np.nan], [1, 2, 2, 2]])
    >>> table.tolist(), cats.tolist()
    ([[3, 0], [0, 3], [1, 2], [1, 1]], [1.0, 2.0])
    """
    table, domain = _tabulate(reliability_data, categories)
    return table.astype(np.int64, copy=False), domain


# --- count tables --------------------------------------------------------------------------


def _as_table(table, name="table"):
    """A float64 (units, K) array of finite non-negative counts, or one clear sentence."""
    try:
        arr = np.asarray(table)
    except ValueError:
        raise ValueError(
            f"{name} must be a rectangular units x categories array of counts, got ragged "
            f"rows: {_short(table)}"
        ) from None
    if arr.dtype == object or not (np.issubdtype(arr.dtype, np.number) or arr.dtype == np.bool_):
        raise TypeError(
            f"{name} must hold numeric counts, got an array of dtype {arr.dtype}: {_short(table)}"
        )
    if np.issubdtype(arr.dtype, np.complexfloating):
        raise TypeError(f"{name} must hold real counts, got {_short(table)}")
    if arr.ndim != 2 or arr.shape[0] == 0 or arr.shape[1] == 0:
        raise ValueError(
            f"{name} must be a 2-D units x categories array of counts, got shape {arr.shape}"
        )
    arr = arr.astype(np.float64, copy=False)
    lo, hi = arr.min(), arr.max()
    if not (np.isfinite(lo) and np.isfinite(hi)):
        pos = tuple(int(i) for i in np.argwhere(~np.isfinite(arr))[0])
        raise ValueError(
            f"{name} must contain only finite counts, got {float(arr[pos])!r} at index {pos}"
        )
    if lo < 0:
        pos = tuple(int(i) for i in np.argwhere(arr < 0)[0])
        raise ValueError(
            f"{name} must contain non-negative counts, got {float(arr[pos])!r} at index {pos}"
        )
    if hi == 0:
        raise ValueError(f"{name} must contain at least one rating, got an all-zero table")
    return arr


def fleiss_kappa(table: ArrayLike, *, zero_division: str | float | None = None) -> float | None:
    r"""Fleiss' kappa: agreement among ``n`` raters per subject, chance from pooled shares.

    Each of the ``N`` subjects is rated by the same number ``n`` of raters, not necessarily
    the same people.

    .. math::

        P_i = \frac{\sum_k n_{ik}^2 - n}{n(n-1)}, \quad
        \bar P = \frac1N \sum_i P_i, \quad
        p_k = \frac{1}{Nn}\sum_i n_{ik}, \quad
        \bar P_e = \sum_k p_k^2, \quad
        \kappa = \frac{\bar P - \bar P_e}{1 - \bar P_e}.

    With two raters it is Scott's pi (:func:`scotts_pi`) of their confusion matrix.

    Parameters
    ----------
    table : array-like of shape (N, K)
        Counts: ``table[i, k]`` raters put subject ``i`` in category ``k`` (statsmodels'
        layout; build it from raw ratings with :func:`rating_table`).  Every row must sum to
        the same ``n >= 2``.
    zero_division : {None, "raise"} or float
        Policy when :math:`\bar P_e = 1` (every rating in one category).

    Returns
    -------
    kappa : float or None

    Raises
    ------
    ValueError, TypeError
        On a table that is not 2-D, negative or non-finite counts, rows with different
        totals, or fewer than two ratings per subject.
    UndefinedMetricError
        If kappa is undefined and ``zero_division="raise"``.

    Notes
    -----
    Kappa is 0/0 when every rating falls in a single category; it then returns ``None``,
    or ``zero_division``.

    References
    ----------
    Fleiss, J. L. (1971). Measuring nominal scale agreement among many raters.
    *Psychological Bulletin* 76(5), 378-382.

    Examples
    --------
    Fleiss (1971), table 1: six psychiatrists per patient, 30 patients, five diagnoses
    (depression, personality disorder, schizophrenia, neurosis, other); the paper reports
    kappa = 0.430.

    >>> import kappalib as kl
    >>> table = [[0, 0, 0, 6, 0], [0, 3, 0, 0, 3], [0, 1, 4, 0, 1], [0, 0, 0, 0, 6],
    ...          [0, 3, 0, 3, 0], [2, 0, 4, 0, 0], [0, 0, 4, 0, 2], [2, 0, 3, 1, 0],
    ...          [2, 0, 0, 4, 0], [0, 0, 0, 0, 6], [1, 0, 0, 5, 0], [1, 1, 0, 4, 0],
    ...          [0, 3, 3, 0, 0], [1, 0, 0, 5, 0], [0, 2, 0, 3, 1], [0, 0, 5, 0, 1],
    ...          [3, 0, 0, 1, 2], [5, 1, 0, 0, 0], [0, 2, 0, 4, 0], [1, 0, 2, 0, 3],
    ...          [0, 0, 0, 0, 6], [0, 1, 0, 5, 0], [0, 2, 0, 1, 3], [2, 0, 0, 4, 0],
    ...          [1, 0, 0, 4, 1], [0, 5, 0, 1, 0], [4, 0, 0, 0, 2], [0, 2, 0, 4, 0],
    ...          [1, 0, 5, 0, 0], [0, 0, 0, 0, 6]]
    >>> round(kl.fleiss_kappa(table), 3)
    0.43
    """
    T = _as_table(table)
    n_i = np.einsum("ik->i", T)
    n = n_i[0]
    unequal = n_i != n
    if unequal.any():
        j = int(np.argmax(unequal))
        raise ValueError(
            "table must have the same number of ratings in every row (Fleiss' kappa assumes "
            f"each subject is rated n times), got {n:g} in row 0 and {n_i[j]:g} in row {j}"
        )
    if n < 2:
        raise ValueError(
            f"table must hold at least 2 ratings per subject for Fleiss' kappa, got {n:g}"
        )
    # in shares S = T / n, so that no square of a count over- or underflows:
    # P_i = (sum_k n_ik^2 - n) / (n (n - 1)) = (sum_k S_ik^2 - 1/n) n / (n - 1)
    N = T.shape[0]
    S = T / n
    p = np.einsum("ik->k", S) / N
    P_bar = (np.einsum("ik,ik->", S, S) / N - 1.0 / n) * (n / (n - 1.0))
    P_e = float(p @ p)
    den = 1.0 - P_e
    value = (P_bar - P_e) / den if den > 0 else 0.0
    return finish(
        value,
        not den > 0,
        zero_division,
        "Fleiss' kappa is undefined (0/0): every rating falls in one single category",
    )


# --- Krippendorff's alpha ------------------------------------------------------------------


def _delta(level, domain, n_c):
    """Squared distances delta^2 between the values of the domain, for one level."""
    V = domain.size
    if level == "nominal":
        return 1.0 - np.eye(V)
    if level == "ordinal":
        # ranks at the middle of each value's block of pairable values: M_c = sum_{g<c} n_g
        # + n_c / 2, and delta_ck = (sum_{g=c}^{k} n_g - (n_c + n_k)/2)^2 = (M_k - M_c)^2
        M = np.cumsum(n_c) - n_c / 2.0
        return (M[:, None] - M[None, :]) ** 2
    v = domain.astype(np.float64)
    if domain.dtype.kind in "iu" and V:
        # integers: each value's distance from the smallest, exact in uint64 (wrapping int64
        # arithmetic gives it too), then floats.  As floats the values themselves would lose
        # their last digits beyond 2^53: 2^62, 2^62 + 1 and 2^62 + 2 would all be 2^62.
        wide = np.uint64 if domain.dtype.kind == "u" else np.int64
        up = (domain.astype(wide) - wide(domain.min())).view(np.uint64).astype(np.float64)
        diff = up[:, None] - up[None, :]
    else:
        # interval and ratio alpha do not change when every value is multiplied by a
        # constant: a power of two (exact) brings the largest |value| into [0.5, 1), so that
        # neither the differences nor their squares over- or underflow (1e-300 or 1e300)
        top = float(np.abs(v).max()) if v.size else 0.0
        if top > 0:
            v = np.ldexp(v, -np.frexp(top)[1])
        diff = v[:, None] - v[None, :]
    if level == "interval":
        return diff * diff
    s = v[:, None] + v[None, :]
    out = np.zeros((V, V))
    np.divide(diff, s, out=out, where=s != 0)
    return out * out


def _alpha_from_coincidences(o, delta):
    """alpha = 1 - (n - 1) sum(o delta) / sum(n_c n_k delta) for o of shape (..., V, V).

    Returns ``(value, undefined)``, arrays of the stack shape; ``value`` is 0 where the
    expected disagreement is 0 (``undefined``).  The coefficient explorer calls this with
    the coincidences ``N (C + C^T)`` of a two-rater table of proportions.
    """
    n_c = o.sum(axis=-1)
    n = n_c.sum(axis=-1)
    D_o = np.einsum("...ck,ck->...", o, delta)
    D_e = np.einsum("...c,ck,...k->...", n_c, delta, n_c)
    undefined = ~(D_e > 0)
    safe = np.where(undefined, 1.0, D_e)
    return np.where(undefined, 0.0, 1.0 - (n - 1.0) * D_o / safe), undefined


def krippendorff_alpha(
    reliability_data: ArrayLike,
    *,
    level: Literal["nominal", "ordinal", "interval", "ratio"] = "nominal",
    categories: ArrayLike | None = None,
    zero_division: str | float | None = None,
) -> float | None:
    r"""Krippendorff's alpha: one minus observed over expected disagreement.

    Any number of raters, missing ratings allowed.  Units with fewer than two ratings have
    no pair to compare and are dropped, as the definition says.  From the units x values
    table :math:`n_{uc}` (see :func:`rating_table`) with :math:`m_u = \sum_c n_{uc}`:

    .. math::

        o_{ck} = \sum_{u: m_u \ge 2} \frac{n_{uc}\,n_{uk} - [c = k]\,n_{uc}}{m_u - 1},
        \qquad n_c = \sum_k o_{ck}, \qquad n = \sum_c n_c,

        \alpha = 1 - \frac{D_o}{D_e}
               = 1 - (n - 1)\,\frac{\sum_{ck} o_{ck}\,\delta^2_{ck}}
                                   {\sum_{ck} n_c\,n_k\,\delta^2_{ck}},

    with :math:`\delta^2_{ck} = [c \ne k]` (nominal), :math:`(c - k)^2` (interval),
    :math:`((c - k)/(c + k))^2` (ratio) and, for ordinal,
    :math:`(\sum_{g=c}^{k} n_g - (n_c + n_k)/2)^2`.  The coincidence matrix ``o`` is built
    with matrix products over blocks of units, never a loop over single units.

    Parameters
    ----------
    reliability_data : array-like of shape (raters, units)
        One row per rater (the ``krippendorff`` package's layout); NaN or ``None`` for a
        missing rating.  Numbers, or strings for the nominal and ordinal levels.
    level : {"nominal", "ordinal", "interval", "ratio"}
        Level of measurement, which fixes the distance :math:`\delta^2`.
    categories : array-like of shape (V,), optional
        The value domain.  For ordinal strings it is required and gives their order; for
        ordinal numbers, its order (default: ascending).
    zero_division : {None, "raise"} or float
        Policy when the expected disagreement is 0 (all pairable ratings equal).

    Returns
    -------
    alpha : float or None

    Raises
    ------
    ValueError, TypeError
        On ragged or non-2-D data, an unknown level, interval or ratio on strings, ordinal
        strings without ``categories``, negative values at the ratio level, all ratings
        missing, or no unit with two ratings.
    UndefinedMetricError
        If alpha is undefined and ``zero_division="raise"``.

    Notes
    -----
    For two raters and no missing data, nominal alpha is Scott's pi corrected for sample
    size: :math:`\alpha = 1 - (1 - \pi)\,(2N - 1)/(2N)`.  Alpha is undefined (0/0) when
    every pairable rating is the same value: ``None``, or ``zero_division``.

    References
    ----------
    Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability. Annenberg School
    for Communication, University of Pennsylvania.
    Krippendorff, K. (2004). *Content Analysis: An Introduction to its Methodology*, 2nd ed.

    Examples
    --------
    Krippendorff (2011): four observers, twelve units, values 1-5, some missing.  He reports
    0.743, 0.815, 0.849 and 0.797 for the nominal, ordinal, interval and ratio levels.

    >>> import numpy as np
    >>> import kappalib as kl
    >>> nan = np.nan
    >>> data = [[1, 2, 3, 3, 2, 1, 4, 1, 2, nan, nan, nan],
    ...         [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, nan, 3],
    ...         [nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, nan],
    ...         [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, nan]]
    >>> [round(kl.krippendorff_alpha(data, level=lv), 3)
    ...  for lv in ("nominal", "ordinal", "interval", "ratio")]
    [0.743, 0.815, 0.849, 0.797]
    """
    if not isinstance(level, str) or level not in _LEVELS:
        raise ValueError(
            f"level must be 'nominal', 'ordinal', 'interval' or 'ratio', got {level!r}"
        )
    arr_kind = np.asarray(categories).dtype.kind if categories is not None else None
    o, domain, m_max = _ratings_coincidences(reliability_data, categories)
    strings = domain.dtype.kind in "US"
    if strings and level in ("interval", "ratio"):
        raise TypeError(
            f"level={level!r} needs numeric ratings, got strings such as {domain[0]!r}; use "
            "'nominal', or 'ordinal' with categories= giving their order"
        )
    if strings and level == "ordinal" and arr_kind is None:
        raise ValueError(
            "level='ordinal' on string ratings needs categories= listing them in order, "
            f"got categories=None for values {_short(domain.tolist())}"
        )
    if level == "ratio" and (domain < 0).any():
        raise ValueError(
            f"level='ratio' needs non-negative values, got {domain[np.argmax(domain < 0)]!r}"
        )
    if m_max < 2:
        raise ValueError(
            "reliability_data must have at least one unit rated by two or more raters, got "
            f"{int(m_max)} rating(s) per unit at most"
        )
    value, undefined = _alpha_from_coincidences(o, _delta(level, domain, o.sum(axis=1)))
    return finish(
        value,
        undefined,
        zero_division,
        "Krippendorff's alpha is undefined (0/0): every pairable rating has the same value, "
        "so there is no expected disagreement",
    )


# --- Gwet's AC1/AC2 and Brennan-Prediger ---------------------------------------------------


def _agreement_weights(weighting, K, scores, name):
    """Gwet's agreement weights w = 1 - W / max(W) from kappalib's disagreement weights."""
    if K < 2:
        raise ValueError(f"{name} needs at least 2 categories, got {K}")
    W = resolve_weights(weighting, K, scores)
    if W is None:
        return np.eye(K)
    return 1.0 - W / W.max()


def _two_rater_parts(C, weighting, scores, name):
    C = as_matrix(C)
    K = C.shape[-1]
    w = _agreement_weights(weighting, K, scores, name)
    N, r, c = _margins(C)
    p_a = np.einsum("...ij,ij->...", C, w) / N
    pi = (r + c) / (2.0 * N[..., None])  # pooled category shares of the two raters
    return K, w, pi, p_a


@matrix_function
def gwet_ac1(
    C: ArrayLike,
    *,
    weighting: str | ArrayLike | None = None,
    scores: ArrayLike | None = None,
) -> float | np.ndarray:
    r"""Gwet's AC1 (AC2 with weights) for two raters, from their confusion matrix.

    Chance agreement is the chance of agreeing on a "hard" case, rated at random:

    .. math::

        \pi_k = \frac{r_k + c_k}{2N}, \qquad
        p_e = \frac{T_w}{K(K-1)} \sum_k \pi_k (1 - \pi_k), \qquad
        \mathrm{AC} = \frac{p_a - p_e}{1 - p_e},

    with :math:`p_a = \sum_{ij} w_{ij} C_{ij} / N`, agreement weights
    :math:`w = 1 - W/\max W` (identity when unweighted) and :math:`T_w = \sum_{ij} w_{ij}`.
    :math:`p_e \le T_w / K^2 < 1`, so AC1 is always defined.

    Parameters
    ----------
    C : array-like of shape (K, K) or (..., K, K), with K >= 2
    weighting : {None, "linear", "quadratic"} or array-like of shape (K, K)
        Disagreement weights as in :func:`kappa`; ``"linear"`` and ``"quadratic"`` give
        Gwet's linear and quadratic agreement weights.
    scores : array-like of shape (K,), optional
        Category values for ``"linear"``/``"quadratic"``.

    Returns
    -------
    ac1 : float or ndarray of shape (...)

    Raises
    ------
    ValueError, TypeError
        On an invalid matrix or weighting, or K < 2.

    References
    ----------
    Gwet, K. L. (2008). Computing inter-rater reliability and its variance in the presence
    of high agreement. *British Journal of Mathematical and Statistical Psychology* 61,
    29-48.
    Gwet, K. L. (2014). *Handbook of Inter-Rater Reliability*, 4th ed.

    Examples
    --------
    Gwet (2014): two abstractors classify 100 pregnancies as ectopic, abnormal or normal
    intrauterine (irrCAC ships the table as ``table_cont3x3abstractors``; its documented
    values are AC1 = 0.84933 and, with quadratic weights, AC2 = 0.94024).

    >>> import kappalib as kl
    >>> C = [[13, 0, 0], [0, 20, 7], [0, 4, 56]]
    >>> round(kl.gwet_ac1(C), 5), round(kl.gwet_ac1(C, weighting="quadratic"), 5)
    (0.84933, 0.94024)
    """
    K, w, pi, p_a = _two_rater_parts(C, weighting, scores, "gwet_ac1")
    p_e = w.sum() / (K * (K - 1.0)) * np.einsum("...k,...k->...", pi, 1.0 - pi)
    return _scalar_or_array((p_a - p_e) / (1.0 - p_e))


@matrix_function
def brennan_prediger(
    C: ArrayLike,
    *,
    weighting: str | ArrayLike | None = None,
    scores: ArrayLike | None = None,
) -> float | np.ndarray:
    r"""Brennan and Prediger's coefficient: chance agreement from uniform category use.

    .. math::

        p_e = \frac{T_w}{K^2}, \qquad
        \mathrm{BP} = \frac{p_a - p_e}{1 - p_e},

    with :math:`p_a = \sum_{ij} w_{ij} C_{ij} / N`, :math:`w = 1 - W / \max W` and
    :math:`T_w = \sum_{ij} w_{ij}`.  Unweighted, :math:`p_e = 1/K` and BP is the K-class
    PABAK, :math:`(K p_o - 1)/(K - 1)` (:func:`pabak`).

    Parameters
    ----------
    C : array-like of shape (K, K) or (..., K, K), with K >= 2
    weighting : {None, "linear", "quadratic"} or array-like of shape (K, K)
        Disagreement weights as in :func:`kappa`.
    scores : array-like of shape (K,), optional
        Category values for ``"linear"``/``"quadratic"``.

    Returns
    -------
    bp : float or ndarray of shape (...)

    Raises
    ------
    ValueError, TypeError
        On an invalid matrix or weighting, or K < 2.

    References
    ----------
    Brennan, R. L. & Prediger, D. J. (1981). Coefficient kappa: some uses, misuses, and
    alternatives. *Educational and Psychological Measurement* 41, 687-699.

    Examples
    --------
    Gwet's (2014) abstractors (see :func:`gwet_ac1`): p_o = 0.89 and K = 3 give
    (3 * 0.89 - 1) / 2 = 0.835.

    >>> import kappalib as kl
    >>> round(kl.brennan_prediger([[13, 0, 0], [0, 20, 7], [0, 4, 56]]), 6)
    0.835
    """
    K, w, _, p_a = _two_rater_parts(C, weighting, scores, "brennan_prediger")
    p_e = w.sum() / (K * K)
    return _scalar_or_array((p_a - p_e) / (1.0 - p_e))


def _multi_parts(table, weighting, scores, name):
    """Gwet's (2014) p_a over units with >= 2 ratings, and pi_k over rated units."""
    T = _as_table(table)
    K = T.shape[1]
    w = _agreement_weights(weighting, K, scores, name)
    r = np.einsum("ik->i", T)
    T = T[r > 0]
    r = r[r > 0]
    two = r >= 2
    if not two.any():
        raise ValueError(
            f"table must have at least one unit with two or more ratings for {name}, got at "
            f"most {r.max():g} per unit"
        )
    # in shares S = n_ik / r_i, so that no product of counts over- or underflows:
    # sum_k n_ik (n*_ik - 1) / (r_i (r_i - 1)) = (sum_k S_ik S*_ik - 1/r_i) r_i / (r_i - 1)
    T2, r2 = T[two], r[two]
    S2 = T2 / r2[:, None]
    agree = np.einsum("ik,ik->i", S2, S2 @ w.T) - 1.0 / r2
    p_a = float(np.mean(agree * (r2 / (r2 - 1.0))))
    pi = (T / r[:, None]).mean(axis=0)
    return K, w, p_a, pi


def gwet_ac1_multi(
    table: ArrayLike,
    *,
    weighting: str | ArrayLike | None = None,
    scores: ArrayLike | None = None,
) -> float:
    r"""Gwet's AC1 (AC2 with weights) for any number of raters, from a units x categories table.

    Units may have different numbers of ratings (missing ratings).  With
    :math:`r_i = \sum_k n_{ik}` and :math:`n^*_{ik} = \sum_l w_{kl} n_{il}`:

    .. math::

        p_a = \frac{1}{N'} \sum_{i: r_i \ge 2}
              \sum_k \frac{n_{ik}(n^*_{ik} - 1)}{r_i (r_i - 1)}, \qquad
        \pi_k = \frac1N \sum_{i: r_i \ge 1} \frac{n_{ik}}{r_i}, \qquad
        p_e = \frac{T_w}{K(K-1)} \sum_k \pi_k (1 - \pi_k),

    :math:`N'` the number of units with two ratings or more, :math:`N` the number of rated
    units, and :math:`\mathrm{AC} = (p_a - p_e)/(1 - p_e)`.  With two raters and no missing
    rating it equals :func:`gwet_ac1` of their confusion matrix.

    Parameters
    ----------
    table : array-like of shape (N, K), K >= 2
        Counts per unit and category (:func:`rating_table`).
    weighting : {None, "linear", "quadratic"} or array-like of shape (K, K)
        Disagreement weights as in :func:`kappa`.
    scores : array-like of shape (K,), optional

    Returns
    -------
    ac1 : float

    Raises
    ------
    ValueError, TypeError
        On an invalid table or weighting, K < 2, or no unit with two ratings.

    References
    ----------
    Gwet, K. L. (2014). *Handbook of Inter-Rater Reliability*, 4th ed., chapter 4.

    Examples
    --------
    Krippendorff's (2011) example (see :func:`krippendorff_alpha`), four raters with
    missing ratings; Gwet's irrCAC documents AC1 = 0.77544 for the same ratings.

    >>> import numpy as np
    >>> import kappalib as kl
    >>> nan = np.nan
    >>> data = [[1, 2, 3, 3, 2, 1, 4, 1, 2, nan, nan, nan],
    ...         [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, nan, 3],
    ...         [nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, nan],
    ...         [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, nan]]
    >>> table, categories = kl.rating_table(data)
    >>> round(kl.gwet_ac1_multi(table), 5)
    0.77544
    """
    K, w, p_a, pi = _multi_parts(table, weighting, scores, "gwet_ac1_multi")
    p_e = w.sum() / (K * (K - 1.0)) * float(pi @ (1.0 - pi))
    return float((p_a - p_e) / (1.0 - p_e))


def brennan_prediger_multi(
    table: ArrayLike,
    *,
    weighting: str | ArrayLike | None = None,
    scores: ArrayLike | None = None,
) -> float:
    r"""Brennan-Prediger for any number of raters, from a units x categories table.

    :math:`p_a` as in :func:`gwet_ac1_multi`, :math:`p_e = T_w / K^2`,
    :math:`\mathrm{BP} = (p_a - p_e)/(1 - p_e)`.

    Parameters
    ----------
    table : array-like of shape (N, K), K >= 2
    weighting : {None, "linear", "quadratic"} or array-like of shape (K, K)
    scores : array-like of shape (K,), optional

    Returns
    -------
    bp : float

    Raises
    ------
    ValueError, TypeError
        On an invalid table or weighting, K < 2, or no unit with two ratings.

    References
    ----------
    Brennan, R. L. & Prediger, D. J. (1981). Coefficient kappa: some uses, misuses, and
    alternatives.  Gwet, K. L. (2014). *Handbook of Inter-Rater Reliability*, 4th ed.

    Examples
    --------
    Krippendorff's (2011) example (see :func:`gwet_ac1_multi`): p_a = 9/11 over the 11
    units with two ratings or more and p_e = 1/5 give (9/11 - 1/5) / (4/5) = 0.772727.

    >>> import numpy as np
    >>> import kappalib as kl
    >>> nan = np.nan
    >>> data = [[1, 2, 3, 3, 2, 1, 4, 1, 2, nan, nan, nan],
    ...         [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, nan, 3],
    ...         [nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, nan],
    ...         [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, nan]]
    >>> round(kl.brennan_prediger_multi(kl.rating_table(data)[0]), 6)
    0.772727
    """
    K, w, p_a, _ = _multi_parts(table, weighting, scores, "brennan_prediger_multi")
    p_e = w.sum() / (K * K)
    return float((p_a - p_e) / (1.0 - p_e))
