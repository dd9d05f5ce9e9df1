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

import math
from dataclasses import dataclass
from typing import Any, Generic, NamedTuple, TypeAlias, TypeVar

import numpy as np
from numpy.typing import ArrayLike

from ._shared.words import (
    DIGITS,
    Block,
    Table,
    Text,
    count_text,
    interval_ends,
    join_list,
    join_words,
    label_text,
    number_text,
    p_text,
    plural,
    render_html,
    render_markdown,
    say,
    software_sentence,
    template,
)

__all__ = [
    "AgreementReport",
    "AlphaBeta",
    "BenchmarkResult",
    "BiasTest",
    "BlandAltmanResult",
    "CCCResult",
    "CategoryKappas",
    "ClassValidity",
    "ClusteredKappa",
    "ConfidenceInterval",
    "ConfusionMatrix",
    "Estimate",
    "Gap",
    "ICCForm",
    "ICCResult",
    "IntervalEstimate",
    "KappaDifference",
    "LabelPair",
    "MeasurementsReport",
    "OverallCCCResult",
    "ProportionalBias",
    "RatingTable",
    "RatingsReport",
    "SpecificAgreement",
    "SubgroupKappas",
]

T = TypeVar("T")

Label: TypeAlias = str | int | float
"""A category: a string or a number (a bool is a number)."""


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


def _label_tuple(labels: Any, what: str) -> tuple[Label, ...]:
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

    labels: tuple[Label, ...] | None
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
        """The transposed counts as a plain array: a transposed table has no categories."""
        return self._plain_view().transpose(*axes)

    @property
    def T(self) -> Any:
        """The transposed counts as a plain array (see :meth:`transpose`)."""
        return self._plain_view().T

    def swapaxes(self, *args: Any, **kwargs: Any) -> Any:
        """The counts with two axes swapped, as a plain array (see :meth:`transpose`)."""
        return self._plain_view().swapaxes(*args, **kwargs)

    def __iter__(self) -> Any:
        raise TypeError(
            "a RatingTable is one table, not a pair to unpack: write table = "
            "kl.rating_table(...) and read its categories as table.labels (iterate over "
            "np.asarray(table) for its rows)"
        )


# --- small named results ------------------------------------------------------------------


class LabelPair(NamedTuple):
    """The cases behind a confusion matrix (:func:`kappalib.labels_from_matrix`): the row
    label ``y1`` and the column label ``y2`` of each case."""

    y1: np.ndarray
    y2: np.ndarray


class AlphaBeta(NamedTuple, Generic[T]):
    """Delgado & Tibau's alpha and beta of a 2 x 2 matrix
    (:func:`kappalib.closed_forms.binary_alpha_beta`)."""

    alpha: T
    beta: T


class Gap(NamedTuple):
    """Where the gap between MCC and kappa on C0 is largest, and that gap
    (:func:`kappalib.closed_forms.max_gap_C0`)."""

    mcc: float
    gap: float


# --- per category, and the tests of bias --------------------------------------------------


def _fmt4g(v: Any) -> str:
    return "None" if v is None or (isinstance(v, float) and math.isnan(v)) else f"{v:.4g}"


def _per_class_repr(name: str, labels: tuple[Any, ...], columns: list[tuple[str, Any]]) -> str:
    head = f"{name}(" + ", ".join(f"{k}=[...]" for k, _ in columns) + ")"
    width = max([5, *(len(str(lab)) for lab in labels)]) + 2
    rows = [f"{'class':>{width}}" + "".join(f"{k:>13}" for k, _ in columns)]
    for i, lab in enumerate(labels):
        rows.append(f"{lab!s:>{width}}" + "".join(f"{_fmt4g(float(v[i])):>13}" for _, v in columns))
    return head + "\n" + "\n".join(rows)


@dataclass(frozen=True, repr=False, eq=False)
class SpecificAgreement:
    """Specific agreement per class: ``values[k]`` = ``2 n_kk / (n_k. + n_.k)``.

    ``labels`` are the classes (those of :func:`confusion_matrix`, else 0..K-1); for a
    2 x 2 table ``positive`` is the agreement on the second class and ``negative`` on the
    first (scikit-learn's ``pos_label=1`` with labels 0 and 1)."""

    values: np.ndarray
    labels: tuple[Label, ...]

    @property
    def positive(self) -> float:
        return self._binary(1)

    @property
    def negative(self) -> float:
        return self._binary(0)

    def _binary(self, i: int) -> float:
        if self.values.shape[0] != 2:
            raise ValueError(
                "positive and negative agreement are defined for 2 x 2 tables, got "
                f"{self.values.shape[0]} classes: read .values, one per class"
            )
        return float(self.values[i])

    def __repr__(self) -> str:
        if self.values.shape[0] == 2:
            return (
                f"SpecificAgreement(positive={_fmt4g(self.positive)}, "
                f"negative={_fmt4g(self.negative)}, labels={self.labels!r})"
            )
        return _per_class_repr("SpecificAgreement", self.labels, [("agreement", self.values)])


@dataclass(frozen=True, repr=False, eq=False)
class ClassValidity:
    """Validity against a reference (rows of C): per class, ``sensitivity[k]`` = ``C_kk / n_k.``
    (recall) and ``ppv[k]`` = ``C_kk / n_.k`` (precision), ``support[k]`` = ``n_k.``"""

    sensitivity: np.ndarray
    ppv: np.ndarray
    support: np.ndarray
    labels: tuple[Label, ...]

    def __repr__(self) -> str:
        return _per_class_repr(
            "ClassValidity",
            self.labels,
            [("sensitivity", self.sensitivity), ("ppv", self.ppv), ("support", self.support)],
        )


@dataclass(frozen=True, repr=False, eq=False)
class CategoryKappas:
    """Per-category Fleiss kappas (irr's ``kappam.fleiss(detail=TRUE)``): ``kappa[k]``, its
    z statistic against 0 and the two-sided p-value, for ``labels[k]``; and, for intervals,
    ``standard_error[k]`` (Gwet's linearization, not the null one) and
    ``confidence_interval`` (arrays ``low``, ``high``) at ``confidence_level``."""

    kappa: np.ndarray
    z: np.ndarray
    pvalue: np.ndarray
    labels: tuple[Label, ...]
    standard_error: np.ndarray
    confidence_interval: ConfidenceInterval[np.ndarray]
    confidence_level: float

    def __repr__(self) -> str:
        return _per_class_repr(
            "CategoryKappas",
            self.labels,
            [("kappa", self.kappa), ("z", self.z), ("p", self.pvalue)],
        )


@dataclass(frozen=True)
class BiasTest:
    """A test of marginal homogeneity: the statistic, its degrees of freedom (None for the
    exact binomial test), the p-value and the method's name.  ``statistic`` and ``pvalue``
    are None when the test is undefined (no discordant case)."""

    statistic: float | None
    df: int | None
    pvalue: float | None
    method: str

    def __repr__(self) -> str:
        return (
            f"BiasTest(statistic={_fmt4g(self.statistic)}, df={self.df}, "
            f"pvalue={_fmt4g(self.pvalue)}, method={self.method!r})"
        )


# --- continuous ratings ------------------------------------------------------------------------


def _fmt4f(v: float | None, spec: str = ".4f") -> str:
    return "None" if v is None else format(v, spec)


@dataclass(frozen=True)
class ICCForm:
    """One intraclass correlation: its names, value, F test and interval.

    ``name`` is psych's (``"ICC2k"``), ``shrout_fleiss`` the paper's (``"ICC(2,k)"``),
    ``mcgraw_wong`` McGraw and Wong's (``"ICC(A,k)"``).  ``estimate`` and both ends of
    ``confidence_interval`` are None where a ratio is 0/0 (every rating the same)."""

    name: str
    shrout_fleiss: str
    mcgraw_wong: str
    description: str
    estimate: float | None
    F: float | None
    df1: float
    df2: float
    pvalue: float | None
    confidence_interval: ConfidenceInterval[float | None]


@dataclass(frozen=True, eq=False)
class ICCResult:
    """The six intraclass correlations of one units x raters table.

    ``result.ICC2`` (psych's names), ``result["ICC(A,1)"]`` (McGraw-Wong's) or
    ``result["ICC(2,1)"]`` (Shrout-Fleiss') give one :class:`ICCForm`; ``forms`` holds all
    six in that order.  ``n_units``, ``n_raters``, the mean squares of the ANOVA and the
    ``confidence_level`` of the intervals are kept."""

    forms: tuple[ICCForm, ...]
    n_units: int
    n_raters: int
    confidence_level: float
    BMS: float
    WMS: float
    JMS: float
    EMS: float

    def __getitem__(self, name: str) -> ICCForm:
        for form in self.forms:
            if name in (form.name, form.shrout_fleiss, form.mcgraw_wong):
                return form
        names = ", ".join(f.name for f in self.forms)
        raise KeyError(
            f"no ICC form named {name!r}: use {names}, their Shrout-Fleiss names ICC(1,1) ... "
            "ICC(3,k) or McGraw-Wong's ICC(1), ICC(A,1), ICC(C,1), ICC(k), ICC(A,k), ICC(C,k)"
        )

    def __getattr__(self, name: str) -> ICCForm:
        if name.startswith("ICC"):
            return self[name]
        raise AttributeError(name)

    def __repr__(self) -> str:
        pct = f"{100 * self.confidence_level:g}%"
        lines = [
            f"ICCResult: {self.n_units} units x {self.n_raters} raters, {pct} intervals",
            f"{'form':<6}{'Shrout-Fleiss':>14}{'McGraw-Wong':>12}{'ICC':>9}{'F':>10}"
            f"{'df1':>6}{'df2':>8}{'p':>11}   {pct + ' interval'}",
        ]
        for f in self.forms:
            interval = (
                f"[{f.confidence_interval.low:.4f}, {f.confidence_interval.high:.4f}]"
                if f.confidence_interval.low is not None and f.confidence_interval.high is not None
                else "None"
            )
            F = _fmt4f(f.F, ".3f" if f.F is None or f.F < 1e6 else ".3g")
            lines.append(
                f"{f.name:<6}{f.shrout_fleiss:>14}{f.mcgraw_wong:>12}{_fmt4f(f.estimate):>9}"
                f"{F:>10}{f.df1:>6g}{f.df2:>8g}{_fmt4f(f.pvalue, '.3g'):>11}   {interval}"
            )
        return "\n".join(lines)


@dataclass(frozen=True)
class CCCResult:
    """Lin's concordance correlation with its interval and its two factors.

    ``estimate`` = ``pearson`` x ``accuracy`` (Lin's bias-correction factor C_b, 1 when the
    two raters have the same mean and variance); ``location_shift`` is u = (mean_1 -
    mean_2) / sqrt(s_1 s_2), ``scale_shift`` v = s_1 / s_2; ``n_units`` the pairs."""

    estimate: float | None
    confidence_interval: ConfidenceInterval[float | None]
    confidence_level: float
    pearson: float | None
    accuracy: float | None
    location_shift: float | None
    scale_shift: float | None
    n_units: int

    def __repr__(self) -> str:
        pct = f"{100 * self.confidence_level:g}%"
        interval = (
            f"[{self.confidence_interval.low:.4f}, {self.confidence_interval.high:.4f}]"
            if self.confidence_interval.low is not None
            and self.confidence_interval.high is not None
            else "None"
        )
        return (
            f"CCCResult(estimate={_fmt4f(self.estimate)}, {pct} interval {interval}, "
            f"pearson={_fmt4f(self.pearson)}, accuracy={_fmt4f(self.accuracy)}, "
            f"n_units={self.n_units})"
        )


# --- reports ------------------------------------------------------------------------------


class _Report:
    """What the two reports share: one rendering, as Markdown (``str``, ``to_markdown``) and
    as HTML in a notebook, of their blocks (tables and sentences) and their caveats."""

    caveats: tuple[str, ...]
    notes: tuple[str, ...]

    def _blocks(self) -> list[Block]:
        raise NotImplementedError

    def to_markdown(self) -> str:
        """The report as Markdown: its tables, the sentences between them, the caveats."""
        return render_markdown(self._blocks(), self.caveats, self.notes)

    def __str__(self) -> str:
        return self.to_markdown()

    def _repr_html_(self) -> str:
        return render_html(self._blocks(), self.caveats, self.notes)


@dataclass(frozen=True, eq=False, repr=False)
class AgreementReport(_Report):
    """Everything about the agreement of two raters, from one confusion matrix.

    Attributes are plain Python numbers (or ``None`` where a value does not apply): the
    estimate with its standard errors, interval and test; the agreement proportions; the
    table; the prevalence and bias indices (2 x 2 only), PABAK and the largest kappa the
    margins allow; and the caveats that apply to these data, as sentences.
    """

    coefficient: str
    """What was estimated: "Cohen's kappa", "linearly weighted kappa", ..."""
    estimate: float
    standard_error: float
    """Large-sample standard error (Fleiss, Cohen & Everitt 1969), for the interval."""
    null_standard_error: float
    """Standard error under kappa = 0, for the test (never for an interval)."""
    confidence_interval: ConfidenceInterval[float]
    confidence_level: float
    interval_method: str
    z: float | None
    """kappa / null_standard_error; None when that standard error is 0 (a one-class margin)."""
    pvalue: float | None
    """Two-sided normal p-value of ``z``."""
    test: str
    observed_agreement: float
    """p_o, the share of exact agreements (unweighted, also for weighted kappa)."""
    expected_agreement: float
    """p_e, the chance agreement of Cohen's kappa (unweighted)."""
    C: ConfusionMatrix
    labels: tuple[Label, ...]
    raters: tuple[str, str]
    n_units: float
    weighting: str | np.ndarray | None
    pabak: float
    kappa_max: float | None
    prevalence_index: float | None
    bias_index: float | None
    specific_agreement: tuple[float | None, ...]
    """Per category, ``2 n_kk / (n_k. + n_.k)`` (:func:`specific_agreement`), in the order of
    ``labels``; None for a category neither rater used.  For 2 x 2: negative, positive."""
    bias_test: BiasTest | None
    """McNemar's test (2 x 2) or the Stuart-Maxwell test (K x K) of equal margins, as
    :func:`mcnemar_test` / :func:`stuart_maxwell_test` return it; None for fractional counts."""
    caveats: tuple[str, ...]
    notes: tuple[str, ...] = ()
    n_left_out: int = 0
    weighted_observed_agreement: float | None = None
    """p_o,w = sum(w C) / N with the agreement weights w = 1 - W / max(W), for a weighted
    kappa (None unweighted): kappa_w = (p_o,w - p_e,w) / (1 - p_e,w)."""
    weighted_expected_agreement: float | None = None
    """p_e,w = sum(w E) / N, E = r c^T / N, the chance term of a weighted kappa (else None)."""

    # -- rendering

    def _rows(self) -> list[tuple[str, str]]:
        lo, hi = self.confidence_interval
        level = f"{self.confidence_level:.0%}"
        rows = [
            (self.coefficient, number_text(self.estimate)),
            (f"{level} confidence interval", f"{number_text(lo)} to {number_text(hi)}"),
            ("interval method", self.interval_method),
            ("standard error", number_text(self.standard_error, 4)),
            ("standard error under kappa = 0", number_text(self.null_standard_error, 4)),
            ("z (with the null standard error)", number_text(self.z, 2)),
            ("p (two-sided)", p_text(self.pvalue).removeprefix("p = ").removeprefix("p ")),
            ("N (units)", count_text(self.n_units)),
            ("categories", ", ".join(map(label_text, self.labels))),
            ("observed agreement p_o", number_text(self.observed_agreement)),
            ("chance agreement p_e", number_text(self.expected_agreement)),
        ]
        if self.weighted_observed_agreement is not None:
            rows.append(
                ("weighted observed agreement p_o,w", number_text(self.weighted_observed_agreement))
            )
            rows.append(
                ("weighted chance agreement p_e,w", number_text(self.weighted_expected_agreement))
            )
        rows += [
            (
                "PABAK (unweighted)" if self.weighting is not None else "PABAK",
                number_text(self.pabak),
            ),
            ("kappa_max (unweighted)", number_text(self.kappa_max)),
        ]
        if self.prevalence_index is not None:
            rows.append(("prevalence index", number_text(self.prevalence_index)))
            rows.append(("bias index", number_text(self.bias_index)))
        for v, lab in zip(self.specific_agreement, self.labels, strict=True):
            rows.append((f"specific agreement, {label_text(lab)}", number_text(v)))
        t = self.bias_test
        if t is not None:
            if t.statistic is None:
                rows.append((f"{t.method} (equal margins)", "undefined: no unit in dispute"))
            else:
                df = f", df = {t.df}" if t.df is not None else ""
                rows.append(
                    (
                        f"{t.method} (equal margins)",
                        f"{t.statistic:.2f}{df}, {p_text(t.pvalue)}",
                    )
                )
        if self.n_left_out:
            rows.append(("units left out (a rating missing)", f"{self.n_left_out}"))
        return rows

    def _blocks(self) -> list[Block]:
        a, b = self.raters
        head = [f"{a} \\ {b}", *map(label_text, self.labels)]
        rows = zip(self.labels, self._matrix_rows(), strict=True)
        counts = [[label_text(lab), *row] for lab, row in rows]
        return [
            Table(["quantity", "value"], [list(r) for r in self._rows()]),
            Text(f"Counts (rows: {a}, columns: {b}):"),
            Table(head, counts, row_headers=True),
        ]

    def _matrix_rows(self) -> list[list[str]]:
        return [[count_text(v) for v in row] for row in np.asarray(self.C).tolist()]

    def __repr__(self) -> str:
        lo, hi = self.confidence_interval
        return (
            f"AgreementReport({self.coefficient} = {number_text(self.estimate)}, "
            f"{self.confidence_level:.0%} CI {number_text(lo)} to {number_text(hi)}, "
            f"N = {count_text(self.n_units)})"
        )

    def methods_paragraph(self, *, table_location: str | None = None) -> str:
        """A paragraph for a methods or results section that meets GRRAS.

        Parameters
        ----------
        table_location : str, optional
            Where the reader finds the table of counts ("Table 2", "the supplement").
            By default the counts are written into the paragraph.

        Returns
        -------
        str
            The numbers rounded as in the report, the interval with its method, the test,
            the table (or where it is) and the caveats that apply; never a verbal band.
        """
        a, b = self.raters
        K = len(self.labels)
        lo, hi = self.confidence_interval
        labels = [label_text(lab) for lab in self.labels]
        analytic = self.interval_method == say("interval_methods.analytic")
        if self.weighting is None:
            cats = join_list(labels)
        else:
            cats = say("two_raters.categories_ordered", labels=join_list(labels, "order_separator"))
            if not isinstance(self.weighting, str):
                cats = say("two_raters.categories_custom_weights", categories=cats)
        weighted = self.weighting is not None
        p_o, p_e = number_text(self.observed_agreement), number_text(self.expected_agreement)
        if self.weighted_observed_agreement is None:
            agreement = say("two_raters.agreement", p_o=p_o, p_e=p_e)
        else:
            agreement = say(
                "two_raters.agreement_weighted",
                p_o=number_text(self.weighted_observed_agreement),
                p_e=number_text(self.weighted_expected_agreement),
                coefficient=self.coefficient,
                p_o_exact=p_o,
                p_e_exact=p_e,
            )
        # kappa_confint clips its ends at kappa's range, [-1, 1] (no lower end for a custom
        # weight matrix); with a standard error above 0, an end on the range was clipped there
        moved = analytic and self.standard_error > 0
        floor = -1.0 if self.weighting is None or isinstance(self.weighting, str) else None
        s = [
            say(
                "two_raters.design",
                a=a,
                b=b,
                n_units=count_text(self.n_units),
                K=K,
                categories=cats,
                coefficient=self.coefficient,
            ),
            software_sentence(),
            say(
                "two_raters.estimate",
                agreement=agreement,
                coefficient=self.coefficient,
                estimate=number_text(self.estimate),
                level=f"{self.confidence_level:.0%}",
                low=number_text(lo),
                high=number_text(hi),
                clipped=interval_ends(
                    lo, hi, moved and floor is not None and lo <= floor, moved and hi >= 1.0, floor
                ),
                interval_method=self.interval_method,
                standard_error=number_text(self.standard_error, DIGITS["standard_error"]),
            ),
            say("two_raters.conditional"),
        ]
        if self.z is None:
            M = np.asarray(self.C, dtype=np.float64)
            single = a if np.count_nonzero(M.sum(axis=1)) == 1 else b
            s.append(say("two_raters.no_test", rater=single))
        else:
            z = number_text(self.z, DIGITS["z"])
            s.append(say("two_raters.test", z=z, p=p_text(self.pvalue)))
        indices = ""
        if self.prevalence_index is not None:
            indices = say(
                "two_raters.indices",
                prevalence_index=number_text(self.prevalence_index),
                bias_index=number_text(self.bias_index),
            )
        s.append(
            say(
                "two_raters.margins",
                pabak_name=say("two_raters.pabak_of_weighted" if weighted else "two_raters.pabak"),
                pabak=number_text(self.pabak),
                kappa=say("two_raters.kappa_of_weighted" if weighted else "two_raters.kappa"),
                kappa_max=number_text(self.kappa_max),
                indices=indices,
            )
        )
        shown = [
            say("two_raters.specific_value", value=number_text(v), label=label)
            for v, label in zip(self.specific_agreement, labels, strict=True)
        ]
        s.append(say("two_raters.specific", values=join_words(shown)))
        if table_location is None:
            rows = [
                say("two_raters.counts_row", label=label, counts=join_list(row))
                for label, row in zip(labels, self._matrix_rows(), strict=True)
            ]
            s.append(say("two_raters.counts", a=a, b=b, rows=join_list(rows, "rows_separator")))
        else:
            s.append(say("two_raters.counts_elsewhere", a=a, b=b, table_location=table_location))
        s += list(self.caveats)
        return " ".join(s)


class Estimate(NamedTuple):
    """One coefficient of a :class:`RatingsReport`, with its standard error and interval."""

    coefficient: str
    estimate: float | None
    standard_error: float | None
    confidence_interval: ConfidenceInterval[float | None]
    interval_method: str | None
    note: str = ""
    null_standard_error: float | None = None
    """Under no agreement beyond chance (Fleiss' kappa only: Fleiss, Nee & Landis 1979)."""
    z: float | None = None
    """``estimate / null_standard_error``, where that exists."""
    pvalue: float | None = None
    """Two-sided normal p-value of ``z``."""
    lower_bound: float | None = None
    """The coefficient's smallest possible value on this design, where kappalib knows one
    (Fleiss' kappa: -1/(m - 1) for m ratings per unit; AC1, AC2, Brennan-Prediger:
    -p/(1 - p), p = sum(w) / K^2 their largest chance agreement; Conger's kappa on complete
    data: -1); None where there is none (Gwet's generalized Fleiss kappa: a unit with a
    single rating moves its chance term, not its agreement) or for a bootstrap interval."""
    clipped: tuple[bool, bool] = (False, False)
    """Whether the interval's lower and upper end were clipped at the coefficient's range."""


@dataclass(frozen=True, eq=False, repr=False)
class RatingsReport(_Report):
    """Everything about the agreement in a ratings table (any number of raters, gaps allowed).

    ``coefficients`` holds every coefficient that applies to these data, each with its
    standard error, interval and the interval's method; ``table`` is the units x categories
    count table of :func:`rating_table`.
    """

    coefficients: tuple[Estimate, ...]
    table: RatingTable
    labels: tuple[Label, ...]
    n_units: int
    n_raters: int | None
    """The number of raters (columns of the data); None for a count table, whose units may
    each have been rated by different people."""
    n_ratings: int
    n_missing: int
    level_of_measurement: str
    weighting: str | np.ndarray | None
    confidence_level: float
    caveats: tuple[str, ...]
    notes: tuple[str, ...] = ()
    ratings_per_unit: tuple[int, int] = (0, 0)
    """The fewest and the most ratings a unit has."""
    primary: str = ""
    """The coefficient the paragraph names as the primary one (see ``primary_reason``)."""
    primary_reason: str = ""
    """Why it is the primary one, as the paragraph says."""

    def __getitem__(self, name: str) -> Estimate:
        """The coefficient called ``name`` ("Fleiss' kappa", "Krippendorff's alpha", ...)."""
        for c in self.coefficients:
            if c.coefficient == name or c.coefficient.split(" (")[0] == name:
                return c
        known = ", ".join(c.coefficient for c in self.coefficients)
        raise KeyError(f"no coefficient {name!r} in this report; it has {known}")

    def _design(self) -> str:
        lo, hi = self.ratings_per_unit
        who = (
            f"{self.n_raters} raters"
            if self.n_raters is not None
            else f"{lo if lo == hi else f'{lo} to {hi}'} ratings per unit"
        )
        return (
            f"{self.n_units} units, {who}, {self.n_ratings} ratings ({self.n_missing} "
            f"missing), level of measurement: {self.level_of_measurement}."
        )

    def _totals(self) -> list[str]:
        """The number of ratings in each category, as printed."""
        return [count_text(v) for v in np.asarray(self.table).sum(axis=0).tolist()]

    def _interval(self, c: Estimate) -> str:
        lo, hi = c.confidence_interval
        if lo is None or hi is None:
            return "-"
        return f"{number_text(lo)} to {number_text(hi)}"

    def _blocks(self) -> list[Block]:
        level = f"{self.confidence_level:.0%}"
        rows = []
        for c in self.coefficients:
            se = number_text(c.standard_error, 4) if c.standard_error is not None else "-"
            method = c.interval_method or c.note or "-"
            rows.append([c.coefficient, number_text(c.estimate), se, self._interval(c), method])
        return [
            Table(["coefficient", "estimate", "SE", f"{level} interval", "method"], rows),
            Text(self._design()),
            Table(
                ["category", *map(label_text, self.labels)],
                [["ratings", *self._totals()]],
                row_headers=True,
            ),
        ]

    def __repr__(self) -> str:
        shown = ", ".join(f"{c.coefficient} = {number_text(c.estimate)}" for c in self.coefficients)
        return f"RatingsReport({shown}; {self.n_units} units)"

    def methods_paragraph(self, *, table_location: str | None = None) -> str:
        """A paragraph for a methods or results section that meets GRRAS.

        Parameters
        ----------
        table_location : str, optional
            Where the reader finds the units x categories table ("Table S1"); by default
            the paragraph says it belongs in the supplementary material.

        Returns
        -------
        str
            The design, every coefficient rounded as in the report with its interval and
            method where kappalib has one, the category totals and the caveats that apply;
            never a verbal band.
        """
        K = len(self.labels)
        labels = [label_text(lab) for lab in self.labels]
        cats = join_list(labels)
        if (
            self.level_of_measurement in ("ordinal", "interval", "ratio")
            and self.weighting is not None
        ):
            cats = say("ratings.categories_ordered", labels=join_list(labels, "order_separator"))
        if self.n_raters is not None:
            missing = (
                say(
                    "ratings.missing_some",
                    n_missing=self.n_missing,
                    was=plural("was", self.n_missing),
                )
                if self.n_missing
                else say("ratings.missing_none")
            )
            s = [
                say(
                    "ratings.design_raters",
                    n_raters=self.n_raters,
                    n_units=self.n_units,
                    K=K,
                    categories=cats,
                    n_ratings=self.n_ratings,
                    missing=missing,
                )
            ]
        else:
            fewest, most = self.ratings_per_unit
            each = most if fewest == most else say("ratings.range", fewest=fewest, most=most)
            s = [
                say(
                    "ratings.design_table",
                    n_units=self.n_units,
                    K=K,
                    categories=cats,
                    each=each,
                    n_ratings=self.n_ratings,
                )
            ]
        s.append(software_sentence())
        level = f"{self.confidence_level:.0%}"
        parts = []
        lacking = []
        methods: dict[str, list[str]] = {}
        for c in self.coefficients:
            with_the = any(c.coefficient.startswith(n) for n in template("ratings.the"))
            name = ("the " if with_the else "") + c.coefficient
            lo, hi = c.confidence_interval
            if lo is not None and hi is not None:
                text = say(
                    "ratings.estimate_interval",
                    coefficient=name,
                    estimate=number_text(c.estimate),
                    level=level,
                    low=number_text(lo),
                    high=number_text(hi),
                    clipped=interval_ends(lo, hi, *c.clipped, c.lower_bound),
                )
                methods.setdefault(c.interval_method or "", []).append(name)
            else:
                text = say("ratings.estimate", coefficient=name, estimate=number_text(c.estimate))
                lacking.append(name)
            parts.append(text)
        s.append(join_words(parts)[0].upper() + join_words(parts)[1:] + ".")
        if methods:
            said = [
                say("ratings.intervals_of", coefficients=join_words(names), method=method)
                if len(methods) > 1
                else method
                for method, names in methods.items()
            ]
            s.append(say("ratings.intervals", methods=join_list(said, "rows_separator")))
        if lacking:
            s.append(say("ratings.no_interval", coefficients=join_words(lacking)))
        if methods:
            if self.n_raters is not None:
                s.append(say("ratings.conditional", n_raters=self.n_raters))
            else:
                s.append(say("ratings.conditional_table"))
        analytic = say("interval_methods.ratings_analytic")
        if self.n_raters == 2 and any(
            c.coefficient.startswith("Conger")
            and c.interval_method == analytic
            and c.confidence_interval[0] is not None
            for c in self.coefficients
        ):
            s.append(say("ratings.two_methods"))
        if self.primary:
            s.append(say("ratings.primary", coefficient=self.primary, why=self.primary_reason))
        for c in self.coefficients:
            if c.z is not None:
                s.append(
                    say(
                        "ratings.test",
                        coefficient=c.coefficient,
                        z=number_text(c.z, DIGITS["z"]),
                        p=p_text(c.pvalue),
                    )
                )
        totals = [
            say("ratings.total", label=label, count=count)
            for label, count in zip(labels, self._totals(), strict=True)
        ]
        s.append(
            say(
                "ratings.totals",
                totals=join_list(totals),
                table_location=table_location or say("ratings.table_location"),
            )
        )
        s += list(self.caveats)
        return " ".join(s)


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
        p = float(self.cumulative_probabilities[k])
        chance = "above 0.999" if p > 0.9995 else f"{p:.3f}"
        text = (
            f"{self.coefficient} = {self.estimate:.3f} (standard error "
            f"{self.standard_error:.3f}) is {reach} on the {self.scale} scale: the probability "
            f"that the true value lies in that band{' or a higher one' if k > 0 else ''} is "
            f"{chance}, the first to reach {self.confidence_level:g} (Gwet's benchmarking, "
            "2014, ch. 6)"
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
    coefficients: tuple[Estimate, ...]
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

    coefficients: tuple[Estimate, ...]
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


# --- a report on measurements (interval or ratio level) ------------------------------------


@dataclass(frozen=True, eq=False, repr=False)
class MeasurementsReport(_Report):
    """The agreement of raters (or methods) who measure on an interval or ratio scale
    (:func:`kappalib.ratings_report` with ``level_of_measurement="interval"`` or
    ``"ratio"``): the intraclass correlations, the concordance correlation, Bland and
    Altman's limits of agreement (two raters) and Krippendorff's alpha, never a nominal
    coefficient over the distinct values.

    ``coefficients`` holds each coefficient with its interval (the six ICCs, Lin's or the
    overall concordance correlation, alpha with Gwet's analytic standard error); ``icc``,
    ``concordance`` and ``limits_of_agreement`` are the full results of :func:`kappalib.icc`,
    :func:`kappalib.lins_ccc` (two raters) or :func:`kappalib.overall_ccc`, and
    :func:`kappalib.bland_altman` (two raters), computed on the ``n_complete`` units that
    every rater measured (None where fewer than 2); ``benchmark`` reads alpha on Landis and
    Koch's scale with its uncertainty (:func:`kappalib.benchmark`).
    """

    coefficients: tuple[Estimate, ...]
    icc: ICCResult | None
    concordance: CCCResult | OverallCCCResult | None
    limits_of_agreement: BlandAltmanResult | None
    benchmark: BenchmarkResult | None
    raters: tuple[str, ...]
    n_units: int
    n_complete: int
    n_raters: int
    n_missing: int
    level_of_measurement: str
    confidence_level: float
    caveats: tuple[str, ...]
    notes: tuple[str, ...] = ()

    def __getitem__(self, name: str) -> Estimate:
        """The coefficient called ``name`` ("ICC(A,1)", "Krippendorff's alpha", ...)."""
        for c in self.coefficients:
            full = c.coefficient
            if full == name or full.startswith(name + " ") or f" = {name}," in full:
                return c
        known = ", ".join(c.coefficient for c in self.coefficients)
        raise KeyError(f"no coefficient {name!r} in this report; it has {known}")

    def _interval(self, ci: ConfidenceInterval[Any]) -> str:
        if ci.low is None or ci.high is None:
            return "-"
        return f"{number_text(ci.low)} to {number_text(ci.high)}"

    def _blocks(self) -> list[Block]:
        level = f"{self.confidence_level:.0%}"
        rows = []
        for c in self.coefficients:
            se = number_text(c.standard_error, 4) if c.standard_error is not None else "-"
            rows.append(
                [
                    c.coefficient,
                    number_text(c.estimate),
                    se,
                    self._interval(c.confidence_interval),
                    c.interval_method or "-",
                ]
            )
        blocks: list[Block] = [
            Table(["coefficient", "estimate", "SE", f"{level} interval", "method"], rows),
            Text(
                say(
                    "measurements.design",
                    n_units=self.n_units,
                    n_raters=self.n_raters,
                    raters=join_list(list(self.raters)),
                    n_measurements=self.n_units * self.n_raters - self.n_missing,
                    n_missing=self.n_missing,
                    level_of_measurement=self.level_of_measurement,
                    n_complete=self.n_complete,
                )
            ),
        ]
        ba = self.limits_of_agreement
        if ba is not None:
            first, second = self.raters
            parts = (
                ("measurements.limits_rows.bias", ba.bias),
                ("measurements.limits_rows.lower", ba.lower_limit),
                ("measurements.limits_rows.upper", ba.upper_limit),
            )
            blocks.append(
                Table(
                    ["", "estimate", "SE", f"{level} interval"],
                    [
                        [
                            say(key, first=first, second=second),
                            number_text(part.estimate),
                            number_text(part.standard_error, 4),
                            self._interval(part.confidence_interval),
                        ]
                        for key, part in parts
                    ],
                    row_headers=True,
                )
            )
            pb = ba.proportional_bias
            blocks.append(
                Text(
                    say(
                        "measurements.limits_design",
                        agreement=f"{100 * ba.agreement_level:g}",
                        level=level,
                        interval_method=ba.interval_method,
                        sd=number_text(ba.standard_deviation),
                        slope=number_text(pb.slope.estimate),
                        p=p_text(pb.pvalue),
                    )
                )
            )
        if self.benchmark is not None:
            blocks.append(Text(self.benchmark.sentence))
        return blocks

    def __repr__(self) -> str:
        shown = ", ".join(f"{c.coefficient} = {number_text(c.estimate)}" for c in self.coefficients)
        return f"MeasurementsReport({shown}; {self.n_units} units)"

    def methods_paragraph(self, *, table_location: str | None = None) -> str:
        """A paragraph for a methods or results section: the design, the ICC named by its
        model, type and definition (Koo and Li 2016), the concordance correlation, the
        limits of agreement with their intervals, alpha, the benchmark and the caveats.

        Parameters
        ----------
        table_location : str, optional
            Accepted for the command line's sake (the other reports' paragraphs point to
            their table of counts); a report on measurements has none to point to.
        """
        level = f"{self.confidence_level:.0%}"
        missing = (
            say("measurements.missing_some", n_missing=self.n_missing, n_complete=self.n_complete)
            if self.n_missing
            else say("measurements.missing_none")
        )
        s = [
            say(
                "measurements.paragraph_design",
                n_raters=self.n_raters,
                raters=join_words(list(self.raters)),
                n_units=self.n_units,
                a_scale=say(f"measurements.scale.{self.level_of_measurement}"),
                n_measurements=self.n_units * self.n_raters - self.n_missing,
                missing=missing,
            )
        ]
        s.append(software_sentence())

        def ends(ci: ConfidenceInterval[Any]) -> tuple[str, str]:
            return number_text(ci.low), number_text(ci.high)

        if self.icc is not None:
            a1, c1, ak = self.icc["ICC(A,1)"], self.icc["ICC(C,1)"], self.icc["ICC(A,k)"]
            (lo, hi), (clo, chi), (alo, ahi) = (ends(f.confidence_interval) for f in (a1, c1, ak))
            s.append(
                say(
                    "measurements.icc",
                    estimate=number_text(a1.estimate),
                    level=level,
                    low=lo,
                    high=hi,
                    consistency=number_text(c1.estimate),
                    consistency_low=clo,
                    consistency_high=chi,
                    n_raters=self.n_raters,
                    average=number_text(ak.estimate),
                    average_low=alo,
                    average_high=ahi,
                )
            )
        cc = self.concordance
        if isinstance(cc, CCCResult):
            lo, hi = ends(cc.confidence_interval)
            s.append(
                say(
                    "measurements.ccc",
                    estimate=number_text(cc.estimate),
                    level=level,
                    low=lo,
                    high=hi,
                    pearson=number_text(cc.pearson),
                    accuracy=number_text(cc.accuracy),
                )
            )
        elif isinstance(cc, OverallCCCResult):
            lo, hi = ends(cc.confidence_interval)
            s.append(
                say(
                    "measurements.overall_ccc",
                    n_raters=self.n_raters,
                    estimate=number_text(cc.estimate),
                    level=level,
                    low=lo,
                    high=hi,
                    precision=number_text(cc.precision),
                    accuracy=number_text(cc.accuracy),
                )
            )
        ba = self.limits_of_agreement
        if ba is not None:
            first, second = self.raters
            (blo, bhi), (llo, lhi), (ulo, uhi) = (
                ends(p.confidence_interval) for p in (ba.bias, ba.lower_limit, ba.upper_limit)
            )
            s.append(
                say(
                    "measurements.limits",
                    first=first,
                    second=second,
                    bias=number_text(ba.bias.estimate),
                    level=level,
                    bias_low=blo,
                    bias_high=bhi,
                    agreement=f"{100 * ba.agreement_level:g}",
                    lower=number_text(ba.lower_limit.estimate),
                    lower_low=llo,
                    lower_high=lhi,
                    upper=number_text(ba.upper_limit.estimate),
                    upper_low=ulo,
                    upper_high=uhi,
                    interval_method=ba.interval_method,
                )
            )
            pb = ba.proportional_bias
            s.append(
                say(
                    "measurements.proportional",
                    slope=number_text(pb.slope.estimate),
                    p=p_text(pb.pvalue),
                )
            )
        alpha = self.coefficients[-1]
        a_lo, a_hi = alpha.confidence_interval
        if a_lo is not None and a_hi is not None:
            s.append(
                say(
                    "measurements.alpha",
                    level_of_measurement=self.level_of_measurement,
                    estimate=number_text(alpha.estimate),
                    level=level,
                    low=number_text(a_lo),
                    high=number_text(a_hi),
                    standard_error=number_text(alpha.standard_error, DIGITS["standard_error"]),
                )
            )
        else:
            s.append(
                say(
                    "measurements.no_interval",
                    level_of_measurement=self.level_of_measurement,
                    estimate=number_text(alpha.estimate),
                )
            )
        if self.benchmark is not None:
            s.append(self.benchmark.sentence)
        s.append(say("measurements.no_nominal", level_of_measurement=self.level_of_measurement))
        s += list(self.caveats)
        return " ".join(s)
