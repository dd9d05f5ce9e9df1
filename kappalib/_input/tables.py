"""Check a units x categories count table: whole non-negative counts, never raw ratings
taken for counts; its categories (a :class:`~kappalib.RatingTable`'s labels, or ``labels=``),
where their order came from, and the default scores of Gwet's weights."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._shared.messages import short
from ..results import RatingTable
from .ratings import check_categories, is_dataframe


def as_table(table: Any, name: str = "table", *, declared: bool = False) -> np.ndarray:
    """A float64 (units, K) array of whole non-negative counts, or one clear sentence.

    A table that :func:`rating_table` did not return and that was not ``declared``
    (``categories=`` names its columns) is refused when it looks like raw ratings: no zero
    count anywhere and rows of different totals.  In a count table a unit rated by fewer
    raters than there are categories has a zero; in ratings coded 1, 2, ... there is none.
    """
    if isinstance(table, RatingTable):
        declared = True
    if is_dataframe(table):
        table = table.to_numpy()
    try:
        arr = np.asarray(table)
    except ValueError:
        raise ValueError(
            f"{name} must be a rectangular units x categories array of counts, got ragged "
            f"rows: {short(table)}"
        ) from None
    if arr.dtype == object or not (np.issubdtype(arr.dtype, np.number) or arr.dtype == np.bool_):
        hint = (
            " (raw ratings go through kl.rating_table(ratings, layout=...) first)"
            if arr.dtype.kind in "USO"
            else ""
        )
        raise TypeError(
            f"{name} must hold numeric counts, got an array of dtype {arr.dtype}: "
            f"{short(table)}{hint}"
        )
    if np.issubdtype(arr.dtype, np.complexfloating):
        raise TypeError(f"{name} must hold real counts, got {short(table)}")
    if arr.ndim != 2 or arr.shape[0] == 0 or arr.shape[1] == 0:
        raise ValueError(
            f"{name} must be a 2-D units x categories array of counts, got shape {arr.shape}"
        )
    arr = np.array(arr, dtype=np.float64)
    lo, hi = arr.min(), arr.max()
    if not (np.isfinite(lo) and np.isfinite(hi)):
        pos = tuple(int(i) for i in np.argwhere(~np.isfinite(arr))[0])
        raise ValueError(
            f"{name} must contain only finite counts, got {float(arr[pos])!r} at index {pos} "
            "(a missing rating is a count of 0; raw ratings with NaN go through "
            "kl.rating_table(ratings, layout=...) first)"
        )
    if lo < 0:
        pos = tuple(int(i) for i in np.argwhere(arr < 0)[0])
        raise ValueError(
            f"{name} must contain non-negative counts, got {float(arr[pos])!r} at index {pos}"
        )
    if hi == 0:
        raise ValueError(f"{name} must contain at least one rating, got an all-zero table")
    whole = np.floor(arr) == arr
    if not whole.all():
        pos = tuple(int(i) for i in np.argwhere(~whole)[0])
        raise ValueError(
            f"{name} must hold counts of ratings (whole numbers), got {float(arr[pos])!r} at "
            f"index {pos}; raw ratings go through kl.rating_table(ratings, layout=...) first"
        )
    if not declared and arr.shape[1] >= 2:
        totals = np.einsum("ik->i", arr)
        if (totals != totals[0]).any() and lo == 0 and looks_like_codes(totals):
            values, times = np.unique(totals, return_counts=True)
            common = int(np.argmax(times))
            raise ValueError(
                f"{name} looks like raw ratings coded from 0, not a units x categories table "
                f"of counts: its rows add up to {values.size} different numbers of ratings "
                f"(from {values[0]:g} to {values[-1]:g}; the commonest, {values[common]:g}, in "
                f"{times[common]} of {totals.size} rows), where a count table has most units "
                "rated by the same raters and none by nobody; count them with "
                "kl.rating_table(ratings, layout='units x raters'), or name the columns with "
                "kl.RatingTable(table, labels=[...]) if this is a count table"
            )
    if not declared and lo > 0 and arr.shape[1] >= 2:
        if (totals != totals[0]).any():
            j = int(np.argmax(totals != totals[0]))
            raise ValueError(
                f"{name} looks like raw ratings, not a units x categories table of counts: "
                f"no count is 0 and the rows add up to different numbers of ratings "
                f"({totals[0]:g} in row 0, {totals[j]:g} in row {j}); count them with "
                "kl.rating_table(ratings, layout='units x raters'), or name the columns with "
                "kl.RatingTable(table, labels=[...]) if this is a count table"
            )
    return arr


def looks_like_codes(totals: np.ndarray) -> bool:
    """Row totals of ratings coded 0, 1, ... read as counts, on at least 10 units: a row that
    adds up to no rating at all (every rater chose code 0), or no one total shared by half of
    the rows.  In a count table a unit nobody rated is left out, and most units have all
    their ratings; on a handful of units (Gwet's worked examples) the totals tell nothing."""
    if totals.size < 10:
        return False
    if (totals == 0).any():
        return True
    _, times = np.unique(totals, return_counts=True)
    return 2 * int(times.max()) < totals.size


def table_and_categories(table, categories, name):
    """The count table (float64) reindexed to ``categories``, those categories (or None)
    and where their order came from (``"given"``, ``"numbers"``, ``"spelling"`` or None for
    a plain table without ``categories``)."""
    known = source = None
    if isinstance(table, RatingTable) and table.labels is not None:
        known = np.asarray(table.labels)
        source = "given" if table.ordered else "spelling"
    T = as_table(table, declared=categories is not None)
    if categories is None:
        return T, known, source
    numeric = known.dtype.kind in "biuf" if known is not None else True
    if known is None:
        domain = check_categories(categories, np.asarray(categories).dtype.kind in "biuf")
        if domain.size != T.shape[1]:
            raise ValueError(
                f"labels lists {domain.size} categories for a table of {T.shape[1]} "
                f"columns: a plain count table needs one name per column; build the table "
                "with kl.rating_table(ratings, labels=...) so that a category nobody "
                "chose has its column of zeros"
            )
        return T, domain, "given"
    domain = check_categories(categories, numeric)
    position = {v: i for i, v in enumerate(domain.tolist())}
    missing = [v for v in known.tolist() if v not in position]
    if missing:
        raise ValueError(
            f"labels={short(domain.tolist())} leaves out {missing[0]!r}, which the table's "
            f"ratings use (its categories are {short(known.tolist())})"
        )
    out = np.zeros((T.shape[0], domain.size))
    out[:, [position[v] for v in known.tolist()]] = T
    return out, domain, "given"


def labelled_table(table, labels, name):
    """The count table as a :class:`~kappalib.RatingTable` named (or reindexed) by ``labels``:
    what ``labels=`` means where a function takes a table or ratings (the ratings' intervals
    and report)."""
    T, domain, source = table_and_categories(table, labels, name)
    if domain is None:
        return T
    return RatingTable(T, domain, ordered=source != "spelling")


def check_weighted_order(weighting, categories, source, name):
    if weighting is not None and source == "spelling":
        raise ValueError(
            f"{name}(weighting={short(weighting, 30)}) measures distances between "
            "categories, and this table's categories are strings in the order of their "
            f"spelling ({short(categories.tolist(), 60)}); give labels=[...] in their ordinal "
            "order to kl.rating_table (or kl.RatingTable(table, labels=[...])), or use an "
            "ordered pandas Categorical"
        )


def default_scores(weighting, scores, categories):
    """Gwet's (2014) weights use the categories' numeric values: the default scores (not for
    his ordinal weights, which count categories)."""
    if (
        scores is None
        and isinstance(weighting, str)
        and weighting != "ordinal"
        and categories is not None
        and categories.dtype.kind in "biuf"
    ):
        return categories.astype(np.float64)
    return scores
