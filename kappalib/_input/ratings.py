"""Check and encode raw ratings: the first stage of every multi-rater function.

**Layout.**  Ratings come in one of two layouts, and a function is never left to guess:

* ``"units x raters"``: one row per unit (subject), one column per rater.  The layout of
  pandas, statsmodels' ``aggregate_raters``, pingouin, R's irr and every spreadsheet, and
  the one a :class:`pandas.DataFrame` is read in without ``layout=``: its columns are
  named variables, and a rater is a variable of the unit (a tidy table's rule, which every
  one of those tools follows), so the frame itself says which way it runs.
* ``"raters x units"``: one row per rater, the ``krippendorff`` package's layout.

A plain array or list says neither: a 3 x 5 array is 3 raters of 5 units or 5 raters of 3
units, and the two readings give different numbers (issue 30, item 9).  So without
``layout=`` it is refused, whatever its shape, in one sentence that names both readings.
(Until issue 30 it was read raters x units unless it had more rows than columns: a guess
from the shape.)

**What is missing.**  One rule (``missing.py``): a rating is missing when it is ``None``, a
float NaN or pandas' ``NA``/``NaT``.  A string is a rating; a string that reads as a
missing-value token (blank, ``NA``, ``N/A``, ``NaN``, ``null``, ``#N/A``, ``<NA>``, ``.``,
``-``, any case) is refused unless ``labels=`` lists it, because numpy turns NaN into the
string ``"nan"`` inside a string array and the two cannot be told apart.  (The reports read a
token as missing, ``na_values=``.)

**Counts or ratings.**  A units x categories count table (:func:`rating_table`'s result, a
:class:`~kappalib.RatingTable` that carries its categories) and raw ratings are told apart:
a count function refuses what looks like ratings (:func:`as_table`), and a rating function
refuses a table that :func:`rating_table` returned.
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np

from .._shared.messages import short
from ..results import RatingTable
from .labels import has_big_int
from .missing import DEFAULT_TOKENS, token_key

Layout = Literal["raters x units", "units x raters"]


LAYOUTS = ("raters x units", "units x raters")


# Strings that read as "missing" (stripped, case-folded): refused unless listed, never guessed.
MISSING_WORDS = DEFAULT_TOKENS


def is_dataframe(data: Any) -> bool:
    return type(data).__module__.split(".")[0] == "pandas" and hasattr(data, "columns")


def frame_columns(data: Any) -> list[Any] | None:
    """The column names of a data frame that is not pandas' (a polars DataFrame, a pyarrow
    Table, anything that speaks the dataframe interchange protocol or the Arrow PyCapsule
    stream), else None.  Read column by column through numpy, so neither polars nor pyarrow
    is a dependency (issue 30, item 15)."""
    if is_dataframe(data) or not (
        hasattr(data, "__dataframe__") or hasattr(data, "__arrow_c_stream__")
    ):
        return None
    names = getattr(data, "column_names", None)  # pyarrow
    if names is None:
        names = getattr(data, "columns", None)  # polars
    if names is None or isinstance(names, str):
        return None
    return list(names)


def _column(col: Any) -> np.ndarray:
    """One column of a polars or pyarrow frame as a 1-D numpy array (nulls as None or NaN)."""
    to_numpy = getattr(col, "to_numpy", None)
    if to_numpy is not None:
        try:
            arr = to_numpy(zero_copy_only=False)  # pyarrow
        except TypeError:
            arr = to_numpy()  # polars
    else:
        arr = np.asarray(col)
    return np.asarray(arr)


def _foreign_frame_values(data: Any, names: list[Any]) -> np.ndarray:
    """A polars or pyarrow frame as a units x raters array: numbers as float64 (a null as
    NaN), otherwise Python objects (a null as None)."""
    cols = [_column(data[c] if not hasattr(data, "column") else data.column(c)) for c in names]
    if cols and all(c.dtype.kind in "biuf" for c in cols):
        return np.column_stack([c.astype(np.float64) for c in cols])
    return np.column_stack([c.astype(object) for c in cols]) if cols else np.empty((0, 0))


def _is_missing(v: Any) -> bool:
    if v is None:
        return True
    if isinstance(v, (float, np.floating)):
        return bool(v != v)
    return type(v).__name__ in ("NAType", "NaTType")


def check_layout(layout: Any) -> str | None:
    if layout is None or (isinstance(layout, str) and layout in LAYOUTS):
        return layout
    raise ValueError(f"layout must be None, 'raters x units' or 'units x raters', got {layout!r}")


def _frame_values(df: Any) -> tuple[np.ndarray, list[Any] | None]:
    """The values of a DataFrame as an array (units x raters), and the shared categories of
    ordered Categorical columns (None if the columns are not all such)."""
    dtypes = list(df.dtypes)
    cats = [c for c in (getattr(dt, "categories", None) for dt in dtypes) if c is not None]
    ordered = [bool(getattr(dt, "ordered", False)) for dt in dtypes]
    if dtypes and len(cats) == len(dtypes):
        first = list(cats[0])
        if all(ordered) and all(list(c) == first for c in cats):
            order: list[Any] | None = first
        else:
            order = None
        values = df.astype(object).to_numpy(dtype=object)
        return values, order
    kinds = [getattr(dt, "kind", "O") for dt in dtypes]
    if dtypes and all(k in "biuf" for k in kinds):
        if any(type(dt).__module__.split(".")[0] == "pandas" for dt in dtypes):
            # nullable Int64 / Float64 / boolean columns: pd.NA becomes NaN
            return df.to_numpy(dtype=np.float64, na_value=np.nan), None
        return df.to_numpy(), None
    return df.to_numpy(dtype=object), None


def orient(data: Any, layout: Any, name: str) -> tuple[Any, list[Any] | None, list[str] | None]:
    """``data`` turned raters x units (a DataFrame or array; a list is left to numpy), the
    categories of ordered Categorical columns, and how to name each rater in a message."""
    layout = check_layout(layout)
    if isinstance(data, RatingTable):
        raise TypeError(
            f"{name} must be raw ratings, got the units x categories count table that "
            "kl.rating_table returns; pass that table to fleiss_kappa, gwet_ac1_multi or "
            "brennan_prediger_multi, and the ratings themselves here"
        )
    names = frame_columns(data)
    if names is not None:  # polars, pyarrow: read as a DataFrame is, one row per unit
        values = _foreign_frame_values(data, names)
        if layout == "raters x units":
            return values, None, [f"row {i}" for i in range(values.shape[0])]
        return values.T, None, [f"column {v!r}" for v in names]
    if is_dataframe(data):
        values, order = _frame_values(data)
        if layout == "raters x units":
            return values, order, [f"row {v!r}" for v in data.index]
        # one row per unit by default: the columns are the raters
        return values.T, order, [f"column {v!r}" for v in data.columns]
    if layout is None:
        try:
            shape = np.shape(data)
        except ValueError:
            shape = ()
        if len(shape) == 2:
            r, c = shape
            raise ValueError(
                f"{name} is a {r} x {c} array with no layout, and its shape does not say "
                f"which way it runs: pass layout='raters x units' if each row is a rater "
                f"({r} raters, {c} units; the krippendorff package's layout) or "
                f"layout='units x raters' if each row is a unit ({r} units, {c} raters; "
                "the layout of pandas, statsmodels and irr)"
            )
        return data, None, None
    if layout == "units x raters":
        if isinstance(data, (list, tuple)):
            if len({len(row) if hasattr(row, "__len__") else -1 for row in data}) == 1:
                # transposed as Python objects: big integers stay exact
                return [list(col) for col in zip(*data, strict=True)], None, _columns(data)
            return data, None, None  # ragged: as_ratings explains
        arr = np.asarray(data)
        return arr.T, None, _columns(arr)
    return data, None, None


def _columns(data: Any) -> list[str] | None:
    shape = np.shape(data)
    return [f"column {j}" for j in range(shape[1])] if len(shape) == 2 else None


ID_ADVICE = (
    "drop it (or make it the DataFrame's index with df.set_index), or pass labels= listing "
    "the rating scale if these really are ratings"
)


def check_not_ids(
    arr: np.ndarray,
    missing: np.ndarray | None,
    name: str,
    raters: list[str] | None,
    advice: str = ID_ADVICE,
) -> None:
    """Refuse a rater whose every rating differs (a subject-id column left in the table).

    A rater (row of ``arr``, raters x units) is taken for an id when it has a different value
    for each of at least 8 units, none missing, more distinct values than all the other
    raters together, and at most half of its values appear among theirs.  A rater cannot use
    more categories than there are; an id column uses one per unit, mostly values that no
    rater uses.  Skipped by the caller when ``categories=`` is given.  ``advice`` ends the
    sentence (the command line gives its own, in its options' words).
    """
    R, n = arr.shape
    if R < 3 or n < 8:
        return
    if arr.dtype.kind in "iuf":
        flat = arr.ravel()
        lo, hi = np.fmin.reduce(flat), np.fmax.reduce(flat)
        if arr.dtype.kind in "iu" and int(hi) - int(lo) + 1 < n:
            return  # too few integer values for one per unit
    rows = []
    for i in range(R):
        row = arr[i] if missing is None else arr[i][~missing[i]]
        if arr.dtype.kind == "f":
            row = row[~np.isnan(row)]
        rows.append(row)
    for i, row in enumerate(rows):
        if row.shape[0] != n:
            continue
        own = np.unique(row)
        if own.size != n:
            continue
        others = np.unique(np.concatenate([r for j, r in enumerate(rows) if j != i]))
        shared = np.isin(own, others).sum()
        if own.size > others.size and 2 * shared <= own.size:
            where = raters[i] if raters else f"row {i} (rater {i} as raters x units)"
            raise ValueError(
                f"{name} {where} holds a different value for each of the {n} units "
                f"({short(own[:5].tolist(), 50)}), more values than all the other raters "
                f"together ({others.size}): it looks like a subject id, not a rating; {advice}"
            )


def check_not_unit_numbers(Y: np.ndarray, raters: list[str] | None, name: str) -> None:
    """Refuse a column of a units x raters table of measurements that numbers the units.

    :func:`check_not_ids` cannot serve measurements (every unit has its own value), so here
    an id is a column of consecutive whole numbers in the units' order (1, 2, ..., n or
    101, 102, ...) for at least 8 units (as :func:`check_not_ids`), the only such column: a
    measurement that counts up by exactly 1 from unit to unit, unlike the other raters'
    measurements, is a numbering, not a rating.
    """
    n, k = Y.shape
    if n < 8 or k < 2:
        return
    numbering = (np.diff(Y, axis=0) == 1.0).all(axis=0) & (np.floor(Y) == Y).all(axis=0)
    if numbering.sum() == 1:
        j = int(np.argmax(numbering))
        col = Y[:, j]
        where = raters[j] if raters else f"rater {j}"
        raise ValueError(
            f"{name} {where} holds the consecutive whole numbers {col[0]:g}, {col[1]:g}, ..., "
            f"{col[-1]:g}, one per unit in order: it looks like a subject id, not a "
            "measurement; drop it (df.drop(columns=...)) or make it the DataFrame's index "
            "with df.set_index(...)"
        )


def as_ratings(
    data: Any, name: str, listed: Any = None
) -> tuple[np.ndarray, np.ndarray | None, Any]:
    """Return ``(array of shape (raters, units), missing mask, extremes)`` or raise one clear
    sentence.  For floats the mask is None (``np.isnan`` on demand: the integer fast path never
    needs it) and ``extremes`` the smallest and largest rating; otherwise ``extremes`` is None.
    A missing-value token that ``listed`` (the ``labels``) names is a rating.
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
            f"{name} must be a 2-D raters x units array, got shape {arr.shape}: {short(data)}"
        )
    if arr.size == 0:
        raise ValueError(f"{name} must hold at least one rating, got shape {arr.shape}")
    kind = arr.dtype.kind
    if (
        kind == "f"
        and isinstance(data, (list, tuple))
        and any(has_big_int(row) for row in data if isinstance(row, (list, tuple)))
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
        _refuse_missing_words(arr, np.zeros(arr.shape, dtype=bool), name, listed)
        return arr, np.zeros(arr.shape, dtype=bool), None
    if kind == "O":
        flat = arr.ravel()
        missing = np.fromiter(map(_is_missing, flat), dtype=bool, count=flat.size)
        present = flat[~missing]
        if all(isinstance(v, str) for v in present):
            out = np.where(missing, "", flat).astype(str)
            _refuse_missing_words(out.reshape(arr.shape), missing.reshape(arr.shape), name, listed)
        elif all(
            isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool)
            for v in present
        ):
            if has_big_int(present):
                return _exact_integers(present, missing, arr.shape, name)
            out = np.where(missing, np.nan, flat).astype(np.float64)
        else:
            num = next(v for v in present if not isinstance(v, str))
            word = next((v for v in present if isinstance(v, str)), None)
            if word is None:
                raise TypeError(
                    f"{name} must hold numbers or strings (None, NaN or pandas' NA for "
                    f"missing), got {num!r} of type {type(num).__name__}"
                )
            raise TypeError(
                f"{name} must hold either numbers or strings (None, NaN or pandas' NA for "
                f"missing), got a mix such as {num!r} and {word!r}"
            )
        return (
            as_ratings(out.reshape(arr.shape), name)
            if out.dtype.kind == "f"
            else (out.reshape(arr.shape), missing.reshape(arr.shape), None)
        )
    raise TypeError(
        f"{name} must hold numbers or strings, got an array of dtype {arr.dtype}: {short(data)}"
    )


def _refuse_missing_words(
    arr: np.ndarray, missing: np.ndarray, name: str, listed: Any = None
) -> None:
    distinct = np.unique(arr[~missing]) if missing.any() else np.unique(arr)
    keys = set()
    if listed is not None and not isinstance(listed, str) and hasattr(listed, "__iter__"):
        keys = {token_key(v) for v in np.asarray(listed).tolist() if isinstance(v, str)} - {""}
    bad = [
        v
        for v in distinct.tolist()
        if token_key(str(v)) in MISSING_WORDS and token_key(str(v)) not in keys
    ]
    if bad:
        pos = tuple(int(i) for i in np.argwhere((arr == bad[0]) & ~missing)[0])
        raise ValueError(
            f"{name} holds the string {bad[0]!r} at index {pos}, which reads as a missing "
            "rating: mark a missing rating with None or float('nan') in a list or an object "
            "array (numpy turns NaN into the string 'nan' inside a string array), list "
            f"{bad[0]!r} in labels= if it is a category, or let ratings_report read it as "
            "missing (na_values=)"
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


def check_categories(categories: Any, numeric: bool, name: str = "labels") -> np.ndarray:
    """The ``categories`` argument as a 1-D array of distinct numbers or strings."""
    if is_dataframe(categories) or not hasattr(categories, "__len__"):
        raise TypeError(f"{name} must be a 1-D sequence of categories, got {short(categories)}")
    domain = np.asarray(categories)
    if domain.ndim != 1 or domain.size == 0:
        raise ValueError(f"{name} must be a non-empty 1-D sequence, got {short(categories)}")
    if numeric and domain.dtype.kind not in "biuf":
        raise TypeError(f"{name} must be numbers to match numeric ratings, got {short(categories)}")
    if not numeric and domain.dtype.kind not in "US":
        raise TypeError(f"{name} must be strings to match string ratings, got {short(categories)}")
    if len(np.unique(domain)) != domain.size:
        raise ValueError(f"{name} must not repeat a value, got {short(categories)}")
    return domain


def prepare(
    data: Any, layout: Any, categories: Any, name: str
) -> tuple[np.ndarray, np.ndarray | None, Any, Any, str]:
    """Check raw ratings in either layout: ``(raters x units array, missing mask, extremes,
    categories, where their order comes from)``, the last ``"given"`` (``categories=`` or an
    ordered pandas Categorical), ``"numbers"`` or ``"spelling"``."""
    data, categorical, raters = orient(data, layout, name)
    if categories is None and categorical is not None:
        categories = categorical
    arr, missing, extremes = as_ratings(data, name, categories)
    if categories is not None:
        return arr, missing, extremes, categories, "given"
    check_not_ids(arr, missing, name, raters)
    return arr, missing, extremes, None, "numbers" if arr.dtype.kind in "biuf" else "spelling"


RATINGS_DOC = """One row per unit, one column per rater (``layout="units x raters"``, the layout
        of pandas, statsmodels, pingouin and irr), or one row per rater
        (``layout="raters x units"``, the ``krippendorff`` package's).  A DataFrame is
        read units x raters (its columns are the raters); a plain array or list must say
        which with ``layout``: its shape never does.  ``None``, NaN or pandas' ``NA``
        marks a missing rating; a string that reads as one (blank, ``"NA"``, ``"nan"``,
        ``"null"``, ``"."``, ... in any case) is refused unless ``labels`` lists it.
        Numbers or strings."""
