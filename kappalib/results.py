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
    "BenchmarkResult",
    "BlandAltmanResult",
    "ConfidenceInterval",
    "ConfusionMatrix",
    "IntervalEstimate",
    "OverallCCCResult",
    "ProportionalBias",
    "RatingTable",
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


# --- measurements on a continuous scale: limits of agreement, overall concordance ---------


def _fmt(value: Any, spec: str = ".4g") -> str:
    return "None" if value is None else format(value, spec)


def _fmt_interval(ci: ConfidenceInterval[Any], spec: str = ".4g") -> str:
    if ci.low is None or ci.high is None:
        return "None"
    return f"[{ci.low:{spec}}, {ci.high:{spec}}]"


class IntervalEstimate(NamedTuple):
    """A number with its standard error and its confidence interval (a bias, a limit of
    agreement, a regression slope).  Each is None where it is undefined."""

    estimate: float | None
    standard_error: float | None
    confidence_interval: ConfidenceInterval[float | None]


class ProportionalBias(NamedTuple):
    """The regression of the difference on the mean (Bland & Altman 1999, section 3.2): a
    slope other than 0 means the two methods differ by an amount that grows or shrinks with
    the size of what is measured.  ``statistic`` is the slope's t, on ``df`` degrees of
    freedom, with its two-sided ``pvalue``; each is None where it is undefined (every mean
    the same, or fewer than 3 points)."""

    slope: IntervalEstimate
    intercept: IntervalEstimate
    statistic: float | None
    df: int
    pvalue: float | None


@dataclass(frozen=True, eq=False)
class BlandAltmanResult:
    """Bland and Altman's limits of agreement, with their confidence intervals.

    ``bias`` is the mean difference ``y1 - y2``; ``lower_limit`` and ``upper_limit`` are
    ``bias -/+ z * standard_deviation`` with ``z`` the normal quantile that leaves
    ``agreement_level`` of the differences between them; each is an
    :class:`IntervalEstimate` (estimate, standard error, ``confidence_level`` interval,
    computed as ``interval_method`` says).  ``standard_deviation`` is that of the difference
    between single measurements.  With replicates, ``true_value`` says which design
    (``"constant"``: Bland & Altman 1999, section 5; ``"varying"``: Bland & Altman 2007),
    ``within_unit_variance`` holds the within-unit variances (of ``y1`` and of ``y2`` when
    the true value is constant; of the differences when it varies).  ``means`` and
    ``differences`` are the points of the Bland-Altman plot (one per unit when the true value
    is constant); ``proportional_bias`` is the regression of the differences on the means.
    """

    bias: IntervalEstimate
    lower_limit: IntervalEstimate
    upper_limit: IntervalEstimate
    standard_deviation: float
    agreement_level: float
    confidence_level: float
    interval_method: str
    n_units: int
    n_pairs: int
    true_value: str | None
    within_unit_variance: tuple[float, ...]
    proportional_bias: ProportionalBias
    means: np.ndarray
    differences: np.ndarray

    def __repr__(self) -> str:
        pct = f"{100 * self.confidence_level:g}%"
        design = f", true value {self.true_value}" if self.true_value else ""
        rows = [
            f"BlandAltmanResult: {self.n_units} units, {self.n_pairs} pairs{design}; "
            f"{100 * self.agreement_level:g}% limits of agreement, {pct} intervals "
            f"({self.interval_method})",
            f"{'':14}{'estimate':>10}{'SE':>10}   {pct} interval",
        ]
        for name, part in (
            ("bias", self.bias),
            ("lower limit", self.lower_limit),
            ("upper limit", self.upper_limit),
        ):
            rows.append(
                f"{name:14}{_fmt(part.estimate):>10}{_fmt(part.standard_error):>10}   "
                f"{_fmt_interval(part.confidence_interval)}"
            )
        pb = self.proportional_bias
        rows.append(
            f"SD of differences {_fmt(self.standard_deviation)}; slope of the difference on "
            f"the mean {_fmt(pb.slope.estimate)} (p = {_fmt(pb.pvalue, '.3g')})"
        )
        return "\n".join(rows)


@dataclass(frozen=True)
class OverallCCCResult:
    """The overall concordance correlation of several methods (Lin 1989; Barnhart, Haber &
    Song 2002), with its interval; ``precision`` and ``accuracy`` are its two factors
    (``estimate = precision * accuracy``, as epiR's ``epi.occc``); ``n_raters`` methods
    measured each of ``n_units`` units."""

    estimate: float | None
    standard_error: float | None
    confidence_interval: ConfidenceInterval[float | None]
    confidence_level: float
    precision: float | None
    accuracy: float | None
    n_units: int
    n_raters: int

    def __repr__(self) -> str:
        pct = f"{100 * self.confidence_level:g}%"
        return (
            f"OverallCCCResult(estimate={_fmt(self.estimate, '.4f')}, {pct} interval "
            f"{_fmt_interval(self.confidence_interval, '.4f')}, precision="
            f"{_fmt(self.precision, '.4f')}, accuracy={_fmt(self.accuracy, '.4f')}, "
            f"n_units={self.n_units}, n_raters={self.n_raters})"
        )


@dataclass(frozen=True, eq=False)
class BenchmarkResult:
    """A coefficient read against a benchmark scale with its uncertainty (Gwet 2014, ch. 6).

    The scale's bands run from the top down: ``labels[k]`` covers ``bounds[k]`` = (low,
    high].  ``probabilities[k]`` is the probability that the true coefficient lies in band
    ``k``, under a normal distribution with the estimate's mean and standard error, truncated
    to [-1, 1] (irrCAC's); ``cumulative_probabilities[k]`` that it lies in band ``k`` or a
    higher one.  ``band`` is the first band whose cumulative probability reaches
    ``confidence_level``, the benchmark to report; ``sentence`` says so in words."""

    estimate: float
    standard_error: float
    coefficient: str
    scale: str
    labels: tuple[str, ...]
    bounds: tuple[tuple[float, float], ...]
    probabilities: np.ndarray
    cumulative_probabilities: np.ndarray
    confidence_level: float
    band: str

    @property
    def sentence(self) -> str:
        """The benchmark as a reviewer reads it: the band reached with the stated
        probability, and where the point estimate alone would have put it."""
        k = self.labels.index(self.band)
        naive = next(
            (
                lab
                for lab, (lo, hi) in zip(self.labels, self.bounds, strict=True)
                if lo < self.estimate <= hi
            ),
            None,
        )
        reach = f'at least "{self.band}"' if k > 0 else f'"{self.band}"'
        text = (
            f"{self.coefficient} = {self.estimate:.2f} (standard error "
            f"{self.standard_error:.2f}) is {reach} on the {self.scale} scale: the probability "
            f"that the true value lies in that band{' or a higher one' if k > 0 else ''} is "
            f"{self.cumulative_probabilities[k]:.3f}, the first to reach "
            f"{self.confidence_level:g} (Gwet's benchmarking, 2014, ch. 6)"
        )
        if naive is not None and naive != self.band:
            text += f'; the estimate alone falls in "{naive}"'
        return text + "."

    def __repr__(self) -> str:
        width = max(len(lab) for lab in self.labels) + 2
        rows = [
            f"BenchmarkResult: {self.coefficient} = {self.estimate:.4g} (SE "
            f"{self.standard_error:.4g}) on the {self.scale} scale",
            f"{'band':<{width}}{'interval':>16}{'P(band)':>10}{'cumulative':>12}",
        ]
        for lab, (lo, hi), p, c in zip(
            self.labels,
            self.bounds,
            self.probabilities,
            self.cumulative_probabilities,
            strict=True,
        ):
            mark = "  <- benchmark" if lab == self.band else ""
            rows.append(f"{lab:<{width}}{f'({lo:g}, {hi:g}]':>16}{p:>10.4f}{c:>12.4f}{mark}")
        return "\n".join(rows)
