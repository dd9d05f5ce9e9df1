"""Long count tables (label pairs and a count, from pandas, a dict, row tuples, a DB-API cursor
or DuckDB): :func:`matrix_from_counts` makes the confusion matrix, summing duplicates and
never guessing an order."""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .._input.labels import is_missing_label
from .._input.ratings import MISSING_WORDS
from .._shared.messages import short
from ..results import ConfusionMatrix
from .confusion import labelled_matrix

__all__ = ["matrix_from_counts"]


def _count_columns(frame: Any, columns: Any, count: Any) -> tuple[list[Any], list[str], str]:
    """The three columns of a long count table as sequences, and how to name them."""
    if not isinstance(columns, (tuple, list)) or len(columns) != 2:
        raise TypeError(
            "columns must name the two label columns, such as columns=('rater_a', 'rater_b'), "
            f"got {short(columns, 60)}"
        )
    wanted = [columns[0], columns[1], count]
    names: list[str] | None = None
    rows: Any = None
    if hasattr(frame, "description") and hasattr(frame, "fetchall"):  # a DB-API cursor
        if frame.description is None:
            raise ValueError("frame is a cursor with no result: execute a SELECT first")
        names = [d[0] for d in frame.description]
        rows = frame.fetchall()
    elif hasattr(frame, "fetchall") and hasattr(frame, "columns"):  # a DuckDB relation
        names = [str(c) for c in frame.columns]
        rows = frame.fetchall()
    if names is not None:
        missing = [w for w in wanted if w not in names]
        if missing:
            raise ValueError(
                f"the query's result has no column {missing[0]!r}; its columns are "
                f"{', '.join(map(str, names))}"
            )
        at = [names.index(w) for w in wanted]
        cols = [[row[j] for row in rows] for j in at]
        return cols, [str(w) for w in wanted], "query"
    if hasattr(frame, "columns") and hasattr(frame, "__getitem__"):  # a pandas DataFrame
        known = list(frame.columns)
        missing = [w for w in wanted if w not in known]
        if missing:
            raise ValueError(
                f"frame has no column {missing[0]!r}; its columns are {', '.join(map(str, known))}"
            )
        return [frame[w] for w in wanted], [str(w) for w in wanted], "frame"
    if isinstance(frame, dict):
        missing = [w for w in wanted if w not in frame]
        if missing:
            raise ValueError(
                f"frame has no column {missing[0]!r}; its keys are {', '.join(map(str, frame))}"
            )
        return [list(frame[w]) for w in wanted], [str(w) for w in wanted], "dict"
    if isinstance(frame, (list, tuple)):
        if not all(isinstance(w, int) and not isinstance(w, bool) for w in wanted):
            raise TypeError(
                "frame is a list of rows, which has no column names: give positions, such as "
                "columns=(0, 1), count=2, or pass the cursor itself (its description names "
                f"the columns); got columns={short(columns, 40)}, count={count!r}"
            )
        width = {len(row) for row in frame} if frame else {0}
        if len(width) != 1 or max(wanted) >= min(width) or min(wanted) < 0:
            raise ValueError(
                f"frame's rows must all have the positions {wanted}, got rows of lengths "
                f"{sorted(width)}"
            )
        return [[row[j] for row in frame] for j in wanted], [f"column {w}" for w in wanted], "rows"
    raise TypeError(
        "frame must be a pandas DataFrame, a dict of columns, a list of row tuples or a "
        f"DB-API cursor, got {type(frame).__name__}"
    )


def matrix_from_counts(
    frame: Any,
    *,
    columns: tuple[Any, Any],
    count: Any = "n",
    labels: ArrayLike | None = None,
) -> ConfusionMatrix:
    r"""The confusion matrix of a long table of counts: one row per label pair and its count.

    .. math:: C_{ij} = \sum_{\text{rows } t:\ a_t = \ell_i,\ b_t = \ell_j} n_t

    This is what ``SELECT a, b, COUNT(*) AS n FROM ratings GROUP BY a, b`` returns, in a
    database, in DuckDB or in pandas (``df.value_counts([a, b]).reset_index(name="n")``).
    Rows with the same pair are summed; a pair with no row counts 0.

    Parameters
    ----------
    frame : DataFrame, dict of columns, list of row tuples, or DB-API cursor
        The long table.  A cursor (or a DuckDB relation) is read with ``fetchall`` and its
        column names; a list of row tuples (what ``fetchall`` returns) has no names, so
        ``columns`` and ``count`` are positions there.
    columns : (a, b)
        The columns of rater 1 (the rows of ``C``) and rater 2 (its columns).
    count : str or int, default "n"
        The column of counts: non-negative, finite numbers.
    labels : array-like of shape (K,), optional
        The categories **and their order**.  Every label in the table must be one of them
        (an error otherwise, never dropped).  Without it the order is the sorted union of
        the labels (``C.ordered`` is False for strings sorted by their spelling, and a
        weighted kappa of such a matrix is refused).

    Returns
    -------
    C : ConfusionMatrix of shape (K, K)
        int64 when every count is a whole number, else float64; ``C.labels`` names the
        categories (:func:`agreement_report` given this matrix uses them).

    Raises
    ------
    ValueError, TypeError
        On a missing column, an empty table, a missing (NULL) label, counts that are not
        non-negative finite numbers, or a label outside ``labels``.

    Examples
    --------
    A count table as an SQL query returns it (the kappa explainer's table):

    >>> import kappalib as kl
    >>> rows = [("yes", "yes", 8), ("yes", "no", 2), ("no", "yes", 1), ("no", "no", 9)]
    >>> kl.matrix_from_counts(rows, columns=(0, 1), count=2, labels=["yes", "no"]).tolist()
    [[8, 2], [1, 9]]
    >>> kl.matrix_from_counts({"a": [1, 1, 2], "b": [1, 1, 2], "n": [3, 4, 5]},
    ...                       columns=("a", "b")).tolist()
    [[7, 0], [0, 5]]
    """
    (a, b, n), names, _ = _count_columns(frame, columns, count)
    if len(a) == 0:
        raise ValueError("frame must hold at least one row of counts, got an empty table")
    values = np.asarray(n, dtype=object).ravel() if not hasattr(n, "to_numpy") else None
    if values is None:
        values = np.asarray(n.to_numpy(dtype=object, na_value=None)).ravel()
    bad = next(
        (
            v
            for v in values
            if isinstance(v, (bool, np.bool_))
            or not isinstance(v, (int, float, np.integer, np.floating))
            or not math.isfinite(float(v))
            or v < 0
        ),
        "ok",
    )
    if not (isinstance(bad, str) and bad == "ok"):
        raise ValueError(
            f"the count column {names[2]!r} must hold non-negative finite numbers, got {bad!r}"
        )
    for col, name in ((a, names[0]), (b, names[1])):
        seq = list(col)
        hole = next((i for i, v in enumerate(seq) if is_missing_label(v)), None)
        if hole is not None:
            raise ValueError(
                f"column {name!r} has a missing label (NULL/NaN) in row {hole}: a count of "
                "units lacking a rating belongs to no cell; filter them out (WHERE "
                f"{name} IS NOT NULL) and report how many there were"
            )
        word = next(
            (
                (i, v)
                for i, v in enumerate(seq)
                if isinstance(v, str) and v.strip().lower() in MISSING_WORDS
            ),
            None,
        )
        if word is not None:
            raise ValueError(
                f"column {name!r} has the label {word[1]!r} in row {word[0]}, which reads as a "
                "missing rating (a blank cell of a CSV file or a spreadsheet); filter those "
                f"rows out (WHERE {name} <> '') and report how many there were, or give the "
                "category a name"
            )
    weights = values.astype(np.float64)
    with warnings.catch_warnings():  # a label outside labels= is refused below, not warned
        warnings.filterwarnings("ignore", message="labels=.* leaves out", category=UserWarning)
        C, order, _, source = labelled_matrix(a, b, labels, weights, names=(names[0], names[1]))
    if labels is not None and C.sum() != weights.sum():
        inside = set(order)
        outside = next(v for v in list(a) + list(b) if v not in inside)
        raise ValueError(
            f"labels={short(np.asarray(labels).tolist())} must list every category, got the label "
            f"{outside!r} outside it"
        )
    whole = np.all(weights == np.floor(weights)) and weights.sum() < 2.0**53
    out = np.asarray(C, dtype=np.int64 if whole else np.float64)
    return ConfusionMatrix(out, order, ordered=source != "spelling")
