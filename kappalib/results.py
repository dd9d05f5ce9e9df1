"""What kappalib returns: every result class, in one public module.

Every class here is re-exported by ``kappalib`` (``kl.ConfusionMatrix``, ...); a type
checker shows them as ``kappalib.results.<name>``.  They hold numbers; none computes a
statistic.

**Labelled counts.**  :class:`ConfusionMatrix` (what :func:`kappalib.confusion_matrix` and
:func:`kappalib.matrix_from_counts` return) and :class:`RatingTable` (what
:func:`kappalib.rating_table` returns) are numpy arrays of counts that also carry their
categories, ``.labels``, and whether that order means anything, ``.ordered`` (False when the
labels are strings sorted by their spelling).  Every numpy operation works on them.  The
labels are kept where they still describe the rows and columns: by a copy, a whole view
(``C[:]``), the transpose of a confusion matrix, a selection of a table's rows (units) and
elementwise arithmetic (``C / C.sum()``); anything else (a sub-matrix, a reduction, a
reordering by indexing, ``np.asarray``) gives a plain ``numpy.ndarray``.

**What a plain matrix means.**  kappalib reads a plain array as it stands: its rows and
columns are the categories in that order, positions ``0 .. K-1``, and a weighting measures
distances between those positions.  A plain array carries no labels to check, so the order
is the caller's to get right; only a labelled array whose labels were sorted by their
spelling (``.ordered`` False) is refused by a weighted coefficient.  Label a typed-in table
with ``kl.ConfusionMatrix(C, labels=[...])`` or ``kl.RatingTable(T, labels=[...])``, which
also reindexes a labelled one (a category nobody used gets its row and column of zeros).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generic, NamedTuple, TypeVar

import numpy as np
from numpy.typing import ArrayLike

__all__ = [
    "ClusteredKappa",
    "ConfidenceInterval",
    "ConfusionMatrix",
    "KappaDifference",
    "RatingTable",
    "SubgroupKappas",
]

T = TypeVar("T")


class ConfidenceInterval(NamedTuple, Generic[T]):
    """An interval: ``low`` and ``high`` (as ``scipy.stats``' ``ConfidenceInterval``).

    A named pair: ``ci.low``, ``ci.high``, or ``low, high = ci``.  Where the statistic is
    undefined (0/0), both ends follow the undefined-value policy of the call: ``None`` by
    default, the float that ``zero_division`` gives, or an ``UndefinedMetricError`` for
    ``zero_division="raise"``.  A batched call (a stack of matrices) holds an array of each.

    Examples
    --------
    >>> import kappalib as kl
    >>> ci = kl.kappa_confint([[8, 2], [1, 9]])
    >>> round(ci.low, 3), round(ci.high, 3)
    (0.389, 1.0)
    >>> kl.kappa_confint([[5, 0], [0, 0]])
    ConfidenceInterval(low=None, high=None)
    """

    low: T
    high: T


def _plain(value: Any) -> Any:
    """A label as a plain Python value (numpy scalars unwrapped)."""
    return value.item() if isinstance(value, np.generic) else value


def _label_tuple(labels: Any, what: str) -> tuple[Any, ...]:
    if isinstance(labels, (str, bytes)) or not hasattr(labels, "__len__"):
        raise TypeError(f"labels must be a sequence of categories, got {labels!r}")
    values = tuple(_plain(v) for v in np.asarray(labels, dtype=object).ravel().tolist())
    if len(np.shape(labels)) != 1:
        raise ValueError(f"labels must be a 1-D sequence, got shape {np.shape(labels)}")
    if len(set(values)) != len(values):
        dup = next(v for i, v in enumerate(values) if v in values[:i])
        raise ValueError(f"labels must not repeat a category, got {dup!r} twice for {what}")
    return values


def _is_whole(part: Any) -> bool:
    return isinstance(part, slice) and part == slice(None)


class _Labelled(np.ndarray):
    """An ndarray of counts whose last axis (and, for a square matrix, the one before it)
    stands for ``labels``.  Subclasses say which axes are labelled (``_square``)."""

    labels: tuple[Any, ...] | None
    ordered: bool
    _square = False  # True: rows and columns are both the labels (a confusion matrix)

    @classmethod
    def _build(cls, counts: ArrayLike, labels: ArrayLike | None, ordered: bool) -> Any:
        if not isinstance(ordered, (bool, np.bool_)):
            raise TypeError(f"ordered must be True or False, got {ordered!r}")
        arr = np.asarray(counts)
        old = counts.labels if isinstance(counts, _Labelled) else None
        cls._check_shape(arr)
        K = arr.shape[-1]
        if labels is None:
            new = old if old is not None else tuple(range(K))
            ordered = bool(counts.ordered) if old is not None else bool(ordered)  # type: ignore[union-attr]
        else:
            new = _label_tuple(labels, cls.__name__)
            if old is not None:
                arr = cls._reindex(arr, old, new)
            elif len(new) != K:
                raise ValueError(
                    f"labels must name each of the {K} {cls._axis_name()} once, got "
                    f"{len(new)} labels: {list(new)!r}; a plain array cannot say where other "
                    f"categories go: build it with {cls._builder()} so that a category "
                    "nobody used has its zeros"
                )
        out = np.array(arr, copy=True).view(cls)
        out.labels = new
        out.ordered = bool(ordered)
        return out

    # -- the shape each class takes, and reindexing -------------------------------------
    @classmethod
    def _axis_name(cls) -> str:
        return "rows and columns" if cls._square else "columns"

    @classmethod
    def _builder(cls) -> str:
        if cls._square:
            return "kl.confusion_matrix(y1, y2, labels=[...])"
        return "kl.rating_table(ratings, labels=[...])"

    @classmethod
    def _check_shape(cls, arr: np.ndarray) -> None:
        if arr.ndim != 2 or (cls._square and arr.shape[0] != arr.shape[1]):
            want = "a square matrix (K, K)" if cls._square else "a 2-D table (units, K)"
            raise ValueError(f"{cls.__name__} holds {want}, got shape {arr.shape}")

    @classmethod
    def _reindex(cls, arr: np.ndarray, old: tuple[Any, ...], new: tuple[Any, ...]) -> np.ndarray:
        position = {v: i for i, v in enumerate(new)}
        left_out = [v for v in old if v not in position]
        if left_out:
            raise ValueError(
                f"labels={list(new)!r} leaves out {left_out[0]!r}, a category of this "
                f"{cls.__name__} (its labels are {list(old)!r})"
            )
        at = [position[v] for v in old]
        K = len(new)
        if cls._square:
            out = np.zeros((K, K), dtype=arr.dtype)
            out[np.ix_(at, at)] = arr
        else:
            out = np.zeros((arr.shape[0], K), dtype=arr.dtype)
            out[:, at] = arr
        return out

    def _fits(self, shape: tuple[int, ...]) -> bool:
        if self.labels is None or len(shape) != 2:
            return False
        K = len(self.labels)
        return shape == (K, K) if self._square else shape[1] == K

    # -- numpy's hooks: keep the labels only where they still describe the axes -----------
    def __array_finalize__(self, obj: Any) -> None:
        self.labels = getattr(obj, "labels", None)
        self.ordered = getattr(obj, "ordered", True)
        if not self._fits(self.shape):
            self.labels = None

    def __array_wrap__(self, out: Any, context: Any = None, return_scalar: bool = False) -> Any:
        elementwise = context is not None and getattr(context[0], "signature", None) is None
        if elementwise and out.dtype != np.bool_ and self._fits(out.shape):
            res = out.view(type(self))
            res.labels, res.ordered = self.labels, self.ordered
            return res
        plain = np.asarray(out).view(np.ndarray)
        return plain[()] if return_scalar else plain

    def _whole(self, key: Any) -> bool:
        """Does ``self[key]`` keep every labelled axis whole and in order?"""
        parts = key if isinstance(key, tuple) else (key,)
        if any(p is None or (self._square and isinstance(p, (list, np.ndarray))) for p in parts):
            return False
        if any(p is Ellipsis for p in parts):
            if sum(p is Ellipsis for p in parts) > 1:
                return False
            at = parts.index(Ellipsis)
            fill = (slice(None),) * (self.ndim - len(parts) + 1)
            parts = parts[:at] + fill + parts[at + 1 :]
        parts = parts + (slice(None),) * (self.ndim - len(parts))
        if self._square:
            return all(_is_whole(p) for p in parts)
        return _is_whole(parts[-1])  # any selection of the rows (units) keeps the categories

    def __getitem__(self, key: Any) -> Any:
        out = super().__getitem__(key)
        if isinstance(out, _Labelled) and not (self._whole(key) and self._fits(out.shape)):
            return out.view(np.ndarray)
        return out

    def _plain_view(self) -> np.ndarray:
        return self.view(np.ndarray)

    def reshape(self, *args: Any, **kwargs: Any) -> Any:
        return self._plain_view().reshape(*args, **kwargs)

    def ravel(self, *args: Any, **kwargs: Any) -> Any:
        return self._plain_view().ravel(*args, **kwargs)

    def flatten(self, *args: Any, **kwargs: Any) -> Any:
        return self._plain_view().flatten(*args, **kwargs)

    def __reduce__(self) -> Any:
        rebuild, args, state = super().__reduce__()  # type: ignore[str-unpack]
        return rebuild, args, (state, self.labels, self.ordered)

    def __setstate__(self, state: Any) -> None:
        base, self.labels, self.ordered = state
        super().__setstate__(base)

    def __repr__(self) -> str:
        body = repr(self._plain_view()).removeprefix("array(").removesuffix(")")
        indent = len(type(self).__name__) - len("array")
        if indent:
            body = body.replace("\n", "\n" + " " * indent)
        if self.labels is None:
            return f"{type(self).__name__}({body})"
        return (
            f"{type(self).__name__}({body}, labels={list(self.labels)!r}"
            + ("" if self.ordered else ", ordered=False")
            + ")"
        )


class ConfusionMatrix(_Labelled):
    """A K x K confusion matrix of counts, rows = rater 1 (the reference), columns = rater 2
    (the prediction), that carries its categories.

    ``ConfusionMatrix(C, labels=None, *, ordered=True)`` labels a matrix typed in (one label
    per row, in the order of the rows), or reindexes a ``ConfusionMatrix`` to ``labels``
    (every one of its labels must be among them; a new category gets a row and a column of
    zeros).

    Attributes
    ----------
    labels : tuple
        The category of each row (and column), in order.
    ordered : bool
        Whether that order means something: False when the labels are strings that
        :func:`kappalib.confusion_matrix` sorted by their spelling, which a weighted
        coefficient refuses.

    Examples
    --------
    >>> import kappalib as kl
    >>> C = kl.confusion_matrix(["yes", "no", "yes"], ["yes", "yes", "no"])
    >>> C
    ConfusionMatrix([[0, 1],
                     [1, 1]], labels=['no', 'yes'], ordered=False)
    >>> kl.ConfusionMatrix(C, labels=["yes", "no", "maybe"]).tolist()
    [[1, 1, 0], [1, 0, 0], [0, 0, 0]]
    """

    _square = True

    def __new__(
        cls, C: ArrayLike, labels: ArrayLike | None = None, *, ordered: bool = True
    ) -> ConfusionMatrix:
        return cls._build(C, labels, ordered)


class RatingTable(_Labelled):
    """A units x categories table of counts (``table[u, k]`` raters put unit ``u`` in
    category ``labels[k]``) that carries its categories.

    ``RatingTable(T, labels=None, *, ordered=True)`` names the columns of a count table
    (one label per column), or reindexes a ``RatingTable`` to ``labels`` (a category nobody
    chose gets a column of zeros).  A table is not unpacked: iterating over one raises.

    Attributes
    ----------
    labels : tuple
        The category of each column, in order.
    ordered : bool
        False when the categories are strings sorted by their spelling.

    Examples
    --------
    >>> import kappalib as kl
    >>> T = kl.RatingTable([[3, 0], [1, 2]], labels=["mild", "severe"])
    >>> kl.RatingTable(T, labels=["mild", "moderate", "severe"]).tolist()
    [[3, 0, 0], [1, 0, 2]]
    """

    def __new__(
        cls, table: ArrayLike, labels: ArrayLike | None = None, *, ordered: bool = True
    ) -> RatingTable:
        return cls._build(table, labels, ordered)

    def transpose(self, *axes: Any) -> Any:
        return self._plain_view().transpose(*axes)

    @property
    def T(self) -> Any:
        return self._plain_view().T

    def swapaxes(self, *args: Any, **kwargs: Any) -> Any:
        return self._plain_view().swapaxes(*args, **kwargs)

    def __iter__(self) -> Any:
        raise TypeError(
            "a RatingTable is one table, not a pair to unpack: write table = "
            "kl.rating_table(...) and read its categories as table.labels (iterate over "
            "np.asarray(table) for its rows)"
        )


# --- comparisons of kappas: dependent, clustered, by subgroup (issue 34) ------------------


def _f4(v: float | None) -> str:
    return "None" if v is None else f"{v:.4f}"


def _interval_text(ci: ConfidenceInterval[Any]) -> str:
    if ci.low is None or ci.high is None:
        return "None"
    return f"[{ci.low:.4f}, {ci.high:.4f}]"


def _p_text(p: float | None) -> str:
    return "None" if p is None else f"{p:.3g}"


@dataclass(frozen=True, repr=False, eq=False)
class KappaDifference:
    """Two Cohen kappas of the same units (two pairs of raters, or a rater before and after
    training against a reference) and their difference, second minus first
    (:func:`kappalib.kappa_difference`).

    ``estimate``, ``standard_error``, ``confidence_interval``, ``z`` and ``pvalue`` are the
    difference's: the test is of equal kappas (``z = estimate / standard_error``, two-sided
    normal).  ``coefficients`` holds the two kappas, each with its own standard error and
    interval by the same method; ``raters`` the two pairs as named in the data.
    """

    estimate: float | None
    standard_error: float | None
    confidence_interval: ConfidenceInterval[float | None]
    confidence_level: float
    interval_method: str
    z: float | None
    pvalue: float | None
    coefficients: tuple[Any, ...]
    raters: tuple[tuple[str, str], ...]
    n_units: int
    weighting: Any

    def __repr__(self) -> str:
        (a, b), (c, d) = self.raters
        pct = f"{100 * self.confidence_level:g}%"
        k1, k2 = (e.estimate for e in self.coefficients)
        return (
            f"KappaDifference(kappa({c}, {d}) - kappa({a}, {b}) = {_f4(self.estimate)} "
            f"({_f4(k2)} - {_f4(k1)}), SE {_f4(self.standard_error)}, {pct} CI "
            f"{_interval_text(self.confidence_interval)}, z = {_f4(self.z)}, "
            f"p = {_p_text(self.pvalue)}; {self.interval_method}; n_units = {self.n_units})"
        )


@dataclass(frozen=True, repr=False, eq=False)
class ClusteredKappa:
    """Cohen's kappa of cases that come in clusters (lesions of a patient, items of an
    annotator's batch), with a standard error and interval that respect the clusters
    (:func:`kappalib.clustered_kappa`).

    ``design_effect`` is the variance ratio of this standard error to the one that treats
    every case as independent (Fleiss, Cohen & Everitt 1969): above 1, the clusters carry
    less information than their cases would alone.
    """

    estimate: float | None
    standard_error: float | None
    confidence_interval: ConfidenceInterval[float | None]
    confidence_level: float
    interval_method: str
    design_effect: float | None
    n_units: int
    n_clusters: int
    weighting: Any

    def __repr__(self) -> str:
        pct = f"{100 * self.confidence_level:g}%"
        return (
            f"ClusteredKappa(estimate = {_f4(self.estimate)}, SE {_f4(self.standard_error)}, "
            f"{pct} CI {_interval_text(self.confidence_interval)}, design effect "
            f"{_f4(self.design_effect)}; {self.interval_method}; {self.n_units} units in "
            f"{self.n_clusters} clusters)"
        )


@dataclass(frozen=True, repr=False, eq=False)
class SubgroupKappas:
    """Cohen's kappa in each subgroup (site, class, period) and the test that they are equal
    (:func:`kappalib.subgroup_kappas`).

    ``coefficients`` holds one estimate per subgroup, in the order of ``groups``, each with
    its standard error (Fleiss, Cohen & Everitt 1969) and Wald interval.  ``statistic``,
    ``df`` and ``pvalue`` are the homogeneity test named by ``test``; ``estimate``,
    ``standard_error`` and ``confidence_interval`` the common kappa it pools (inverse-variance
    weights), meaningful only where the subgroups agree.  ``notes`` say why the test is
    missing where it is.
    """

    coefficients: tuple[Any, ...]
    groups: tuple[Any, ...]
    estimate: float | None
    standard_error: float | None
    confidence_interval: ConfidenceInterval[float | None]
    confidence_level: float
    statistic: float | None
    df: int
    pvalue: float | None
    test: str
    n_units: int
    weighting: Any
    notes: tuple[str, ...] = ()

    def __repr__(self) -> str:
        pct = f"{100 * self.confidence_level:g}%"
        width = max([5, *(len(str(g)) for g in self.groups)]) + 2
        lines = [
            f"SubgroupKappas: {len(self.groups)} subgroups, {self.n_units} units, {pct} intervals",
            f"{'group':>{width}}{'kappa':>9}{'SE':>9}   interval",
        ]
        for g, e in zip(self.groups, self.coefficients, strict=True):
            lines.append(
                f"{g!s:>{width}}{_f4(e.estimate):>9}{_f4(e.standard_error):>9}   "
                f"{_interval_text(e.confidence_interval)}"
            )
        stat = "None" if self.statistic is None else f"{self.statistic:.3f}"
        lines.append(
            f"{self.test}: chi-square = {stat}, df = {self.df}, p = {_p_text(self.pvalue)}; "
            f"common kappa {_f4(self.estimate)} {_interval_text(self.confidence_interval)}"
        )
        lines += list(self.notes)
        return "\n".join(lines)
