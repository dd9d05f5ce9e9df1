r"""Designs beyond two raters with one chance model: fixed raters, categories, bias, validity.

* Crossed designs (the same raters rate every unit, and they are the raters of interest):
  Conger's (1980) kappa, whose chance agreement keeps each rater's own margins, and Light's
  (1971) kappa, the mean of the pairwise Cohen kappas.  Gwet's (2014) generalized Fleiss
  kappa for units with different numbers of ratings (:func:`fleiss_kappa_generalized`).
* Per category: specific agreement (positive and negative agreement for 2 x 2) and the
  per-category Fleiss kappas of irr's ``kappam.fleiss(detail=TRUE)``.
* Bias (marginal homogeneity) of two raters: McNemar's test for 2 x 2, the Stuart-Maxwell
  test for K x K.
* Validity against a gold standard: per-class sensitivity and positive predictive value.

Symbols follow Gwet (2014): ``X[g, u, k]`` is 1 when rater ``g`` put unit ``u`` in category
``k``, ``n_uk`` the units x categories table, ``r_u`` the ratings of unit ``u``, ``p_gk`` the
share of rater ``g``'s ratings in category ``k``, ``w`` the agreement weights.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from ._agreement import kappa
from ._counting import _tabulate_ratings
from ._distributions import chi2_sf
from ._errors import UndefinedMetricError
from ._multirater import _multi_parts, fleiss_kappa
from ._ratings import Layout, check_weighted_order, default_scores, prepare, table_and_categories
from ._validation import (
    as_matrix,
    check_zero_division,
    finish,
    matrix_function,
    origin,
    remember,
)

__all__ = [
    "BiasTest",
    "CategoryKappas",
    "ClassValidity",
    "SpecificAgreement",
    "category_fleiss_kappas",
    "class_validity",
    "conger_kappa",
    "fleiss_kappa_generalized",
    "light_kappa",
    "mcnemar_test",
    "specific_agreement",
    "stuart_maxwell_test",
]


# --- crossed designs: Conger and Light ---------------------------------------------------


def _rater_indicators(data, layout, categories, name):
    """``(X, domain, source)``: ``X`` of shape (raters, units, K), 1 where rater ``g`` put
    unit ``u`` in category ``k`` (all 0 for a missing rating), from raw ratings checked by
    ``_ratings`` and counted by ``_counting``, one rater at a time."""
    arr, missing, extremes, categories, source = prepare(data, layout, categories, name)
    table, domain = _tabulate_ratings(arr, missing, extremes, categories, name, keep_unused=False)
    R = arr.shape[0]
    if R < 2:
        raise ValueError(
            f"{name} must hold the ratings of at least 2 raters, got {R} rater (shape "
            f"{arr.shape} read as raters x units)"
        )
    absent = np.isnan(arr) if missing is None else missing
    empty = absent.all(axis=1)
    if empty.any():
        g = int(np.argmax(empty))
        raise ValueError(
            f"{name}: rater {g} (row {g} as raters x units) has no rating at all; a "
            "fixed-raters coefficient needs each rater's margins: drop that rater"
        )
    X = np.empty((R, arr.shape[1], domain.size))
    for g in range(R):
        X[g] = _tabulate_ratings(
            arr[g : g + 1], absent[g : g + 1], None, domain, name, keep_unused=True
        )[0]
    return X, np.asarray(table, dtype=np.float64), domain, source


def conger_kappa(
    reliability_data: ArrayLike,
    *,
    layout: Layout | None = None,
    categories: ArrayLike | None = None,
    weighting: str | ArrayLike | None = None,
    scores: ArrayLike | None = None,
    zero_division: str | float | None = None,
) -> float | None:
    r"""Conger's kappa: Fleiss' agreement, chance from each rater's own margins.

    For a crossed design, where the same ``r`` raters rate the units and they are the raters
    one cares about (fixed raters).  Missing ratings are allowed (Gwet 2014).  With
    :math:`p_{gk}` the share of rater ``g``'s ratings in category ``k`` and
    :math:`\bar p_k` their mean over the raters:

    .. math::

        p_a = \frac{1}{N'} \sum_{u: r_u \ge 2}
              \sum_k \frac{n_{uk}(n^*_{uk} - 1)}{r_u (r_u - 1)}, \qquad
        s^2_{kl} = \frac{1}{r - 1} \sum_g (p_{gk} - \bar p_k)(p_{gl} - \bar p_l),

        p_e = \sum_{k,l} w_{kl} \left(\bar p_k \bar p_l - s^2_{kl} / r\right), \qquad
        \kappa_C = \frac{p_a - p_e}{1 - p_e},

    :math:`n^*_{uk} = \sum_l w_{kl} n_{ul}` and :math:`N'` the units with two ratings or
    more.  :math:`p_e` is the mean over the :math:`r(r-1)/2` pairs of raters of Cohen's
    chance agreement :math:`\sum_k p_{gk} p_{hk}`; with two raters and no missing rating
    Conger's kappa is Cohen's kappa.  Fleiss' kappa pools the margins instead (raters drawn
    at random for each unit).

    Parameters
    ----------
    reliability_data : array-like of shape (raters, units) or (units, raters)
        RATINGS_DOC
    layout : {None, "raters x units", "units x raters"}
        See ``reliability_data``.
    categories : array-like of shape (K,), optional
        The categories offered (their order for ``weighting``).
    weighting : {None, "linear", "quadratic"} or array-like of shape (K, K)
        Disagreement weights as in :func:`kappa` (Gwet's weighted Conger coefficient).
    scores : array-like of shape (K,), optional
        Category values for ``"linear"``/``"quadratic"``; default the numeric categories.
    zero_division : {None, "raise"} or float
        Policy when :math:`p_e = 1` (every rating in one category).

    Returns
    -------
    kappa : float or None

    Raises
    ------
    ValueError, TypeError
        As :func:`rating_table`, and on fewer than 2 raters, a rater without any rating, or
        no unit with two ratings.

    References
    ----------
    Conger, A. J. (1980). Integration and generalization of kappas for multiple raters.
    *Psychological Bulletin* 88(2), 322-328.
    Gwet, K. L. (2014). *Handbook of Inter-Rater Reliability*, 4th ed., chapter 2.

    Examples
    --------
    Krippendorff's (2011) example (see :func:`krippendorff_alpha`): four fixed observers,
    missing ratings.  Gwet's irrCAC gives Conger's kappa 0.76207.

    >>> import numpy as np
    >>> import kappalib as kl
    >>> nan = np.nan
    >>> data = [[1, 2, 3, 3, 2, 1, 4, 1, 2, nan, nan, nan],
    ...         [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, nan, 3],
    ...         [nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, nan],
    ...         [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, nan]]
    >>> round(kl.conger_kappa(data), 5)
    0.76207
    """
    zero_division = check_zero_division(zero_division)
    X, table, domain, source = _rater_indicators(
        reliability_data, layout, categories, "reliability_data"
    )
    check_weighted_order(weighting, domain, source, "conger_kappa")
    message = "Conger's kappa is undefined (0/0): every rating falls in one single category"
    if domain.size < 2:
        return finish(0.0, True, zero_division, message)
    _, w, p_a, _ = _multi_parts(
        remember(table, "counts", domain, source),
        weighting,
        default_scores(weighting, scores, domain),
        None,
        "conger_kappa",
    )
    R = X.shape[0]
    counts = np.einsum("guk->gk", X)
    p = counts / counts.sum(axis=1, keepdims=True)  # p_gk
    p_bar = p.mean(axis=0)
    D = p - p_bar
    s2 = D.T @ D / (R - 1.0)
    p_e = float(np.sum(w * (np.outer(p_bar, p_bar) - s2 / R)))
    den = 1.0 - p_e
    undefined = not den > 1e-15
    return finish(
        (p_a - p_e) / den if not undefined else 0.0,
        undefined,
        zero_division,
        message,
    )


def light_kappa(
    reliability_data: ArrayLike,
    *,
    layout: Layout | None = None,
    categories: ArrayLike | None = None,
    zero_division: str | float | None = None,
) -> float | None:
    r"""Light's kappa: the mean of Cohen's kappa over every pair of raters.

    .. math:: \kappa_L = \frac{2}{r(r-1)} \sum_{g<h} \kappa_{gh}

    For a crossed design with fixed raters (Light 1971; irr's ``kappam.light``).  Each pair's
    kappa uses the units that both raters rated (pairwise deletion of missing ratings; irr
    drops every unit with a missing rating first, so it differs from this where ratings are
    missing).  A category nobody chose does not change Cohen's kappa.

    Parameters
    ----------
    reliability_data : array-like of shape (raters, units) or (units, raters)
        RATINGS_DOC
    layout : {None, "raters x units", "units x raters"}
        See ``reliability_data``.
    categories : array-like of shape (K,), optional
        The categories offered (a check that every rating is one of them).
    zero_division : {None, "raise"} or float
        Policy when a pair's kappa is undefined (both raters put every shared unit in one
        and the same category): Light's kappa is then undefined too.

    Returns
    -------
    kappa : float or None

    Raises
    ------
    ValueError, TypeError
        As :func:`rating_table`, and on fewer than 2 raters or two raters without a unit in
        common.

    References
    ----------
    Light, R. J. (1971). Measures of response agreement for qualitative data: some
    generalizations and alternatives. *Psychological Bulletin* 76(5), 365-377.

    Examples
    --------
    Three raters, four units: the pairwise kappas are 1/2, 1 and 1/2.

    >>> import kappalib as kl
    >>> round(kl.light_kappa([[1, 1, 2, 2], [1, 2, 2, 2], [1, 1, 2, 2]]), 6)
    0.666667
    """
    zero_division = check_zero_division(zero_division)
    X, _, _, _ = _rater_indicators(reliability_data, layout, categories, "reliability_data")
    R = X.shape[0]
    g, h = np.triu_indices(R, 1)
    C = np.einsum("puk,pul->pkl", X[g], X[h])
    N = C.sum(axis=(1, 2))
    if not (N > 0).all():
        p = int(np.argmin(N > 0))
        raise ValueError(
            f"reliability_data: raters {int(g[p])} and {int(h[p])} rated no unit in common, "
            "so their Cohen kappa does not exist; Light's kappa needs a crossed design (use "
            "kl.krippendorff_alpha or kl.fleiss_kappa_generalized for sparse designs)"
        )
    k = np.asarray(kappa(C, zero_division=np.nan), dtype=np.float64)
    undefined = bool(np.isnan(k).any())
    return finish(
        float(np.mean(k)) if not undefined else 0.0,
        undefined,
        zero_division,
        f"Light's kappa is undefined: the Cohen kappa of raters {_first_nan_pair(k, g, h)} is "
        "0/0 (both put every unit they share in one single category)",
    )


def _first_nan_pair(k, g, h):
    bad = np.isnan(k)
    if not bad.any():
        return ""
    p = int(np.argmax(bad))
    return f"{int(g[p])} and {int(h[p])}"


def fleiss_kappa_generalized(
    table: ArrayLike,
    *,
    weighting: str | ArrayLike | None = None,
    scores: ArrayLike | None = None,
    categories: ArrayLike | None = None,
    zero_division: str | float | None = None,
) -> float | None:
    r"""Gwet's generalized Fleiss kappa: Fleiss' kappa for units with unequal numbers of ratings.

    :math:`p_a` and :math:`\pi_k` as in :func:`gwet_ac1_multi` (units with two ratings or
    more; per-unit shares), chance agreement
    :math:`p_e = \sum_{k,l} w_{kl}\,\pi_k \pi_l` and
    :math:`\kappa = (p_a - p_e)/(1 - p_e)`.  When every unit has the same number of ratings
    and no weights are given it is :func:`fleiss_kappa`, which refuses unequal counts.

    Parameters
    ----------
    table : array-like of shape (N, K)
        Counts per unit and category (:func:`rating_table`); rows may have different totals.
    weighting, scores, categories :
        As in :func:`gwet_ac1_multi`.
    zero_division : {None, "raise"} or float
        Policy when :math:`p_e = 1` (every rating in one category).

    Returns
    -------
    kappa : float or None

    References
    ----------
    Gwet, K. L. (2014). *Handbook of Inter-Rater Reliability*, 4th ed., chapter 2 (irrCAC's
    ``fleiss``).

    Examples
    --------
    Krippendorff's (2011) example (see :func:`krippendorff_alpha`); irrCAC gives 0.76117.

    >>> import numpy as np
    >>> import kappalib as kl
    >>> nan = np.nan
    >>> data = [[1, 2, 3, 3, 2, 1, 4, 1, 2, nan, nan, nan],
    ...         [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, nan, 3],
    ...         [nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, nan],
    ...         [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, nan]]
    >>> round(kl.fleiss_kappa_generalized(kl.rating_table(data)[0]), 5)
    0.76117
    """
    zero_division = check_zero_division(zero_division)
    _, w, p_a, pi = _multi_parts(table, weighting, scores, categories, "fleiss_kappa_generalized")
    p_e = float(pi @ w @ pi)
    den = 1.0 - p_e
    undefined = not den > 1e-15
    return finish(
        (p_a - p_e) / den if not undefined else 0.0,
        undefined,
        zero_division,
        "the generalized Fleiss kappa is undefined (0/0): every rating falls in one category",
    )


_RATINGS_DOC = """One row per unit, one column per rater (``layout="units x raters"``, the layout
        of pandas, irr and irrCAC), or one row per rater (``layout="raters x units"``).  A
        DataFrame is read units x raters; a plain array raters x units, and one with more
        rows than columns is refused unless ``layout`` is given.  ``None``, NaN or pandas'
        ``NA`` marks a missing rating.  Numbers or strings."""
for _f in (conger_kappa, light_kappa):
    _f.__doc__ = (_f.__doc__ or "").replace("RATINGS_DOC", _RATINGS_DOC)


# --- results --------------------------------------------------------------------------------


def _fmt(v):
    return "None" if v is None or (isinstance(v, float) and math.isnan(v)) else f"{v:.4g}"


def _labels_of(C, K):
    kind, labels, _ = origin(C)
    if kind == "confusion" and labels is not None and len(labels) == K:
        return tuple(np.asarray(labels).tolist())
    return tuple(range(K))


def _per_class_repr(name, labels, columns):
    head = f"{name}(" + ", ".join(f"{k}=[...]" for k, _ in columns) + ")"
    width = max([5, *(len(str(lab)) for lab in labels)]) + 2
    rows = [f"{'class':>{width}}" + "".join(f"{k:>13}" for k, _ in columns)]
    for i, lab in enumerate(labels):
        rows.append(f"{lab!s:>{width}}" + "".join(f"{_fmt(float(v[i])):>13}" for _, v in columns))
    return head + "\n" + "\n".join(rows)


@dataclass(frozen=True, repr=False, eq=False)
class SpecificAgreement:
    """Specific agreement per class: ``values[k]`` = 2 n_kk / (n_k. + n_.k).

    ``labels`` are the classes (those of :func:`confusion_matrix`, else 0..K-1); for a
    2 x 2 table ``positive`` is the agreement on the second class and ``negative`` on the
    first (scikit-learn's ``pos_label=1`` with labels 0 and 1)."""

    values: np.ndarray
    labels: tuple

    @property
    def positive(self) -> float:
        return self._binary(1)

    @property
    def negative(self) -> float:
        return self._binary(0)

    def _binary(self, i):
        if self.values.shape[0] != 2:
            raise ValueError(
                "positive and negative agreement are defined for 2 x 2 tables, got "
                f"{self.values.shape[0]} classes: read .values, one per class"
            )
        return float(self.values[i])

    def __repr__(self) -> str:
        if self.values.shape[0] == 2:
            return (
                f"SpecificAgreement(positive={_fmt(self.positive)}, "
                f"negative={_fmt(self.negative)}, labels={self.labels!r})"
            )
        return _per_class_repr("SpecificAgreement", self.labels, [("agreement", self.values)])


@dataclass(frozen=True, repr=False, eq=False)
class ClassValidity:
    """Validity against a reference (rows of C): per class, ``sensitivity[k]`` = C_kk / n_k.
    (recall) and ``ppv[k]`` = C_kk / n_.k (precision), ``support[k]`` = n_k."""

    sensitivity: np.ndarray
    ppv: np.ndarray
    support: np.ndarray
    labels: tuple

    def __repr__(self) -> str:
        return _per_class_repr(
            "ClassValidity",
            self.labels,
            [("sensitivity", self.sensitivity), ("ppv", self.ppv), ("support", self.support)],
        )


@dataclass(frozen=True, repr=False, eq=False)
class CategoryKappas:
    """Per-category Fleiss kappas (irr's ``kappam.fleiss(detail=TRUE)``): ``kappa[k]``, its
    z statistic against 0 and the two-sided p-value, for ``categories[k]``."""

    kappa: np.ndarray
    z: np.ndarray
    pvalue: np.ndarray
    categories: tuple

    def __repr__(self) -> str:
        return _per_class_repr(
            "CategoryKappas",
            self.categories,
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
            f"BiasTest(statistic={_fmt(self.statistic)}, df={self.df}, "
            f"pvalue={_fmt(self.pvalue)}, method={self.method!r})"
        )


def _one_matrix(C, name):
    M = as_matrix(C)
    if M.ndim != 2:
        raise ValueError(f"{name} takes one confusion matrix of shape (K, K), got shape {M.shape}")
    return M


def _counts(C, name):
    M = _one_matrix(C, name)
    whole = np.floor(M) == M
    if not whole.all():
        pos = tuple(int(i) for i in np.argwhere(~whole)[0])
        raise ValueError(
            f"{name} is a test on counts of cases: C must hold whole numbers, got "
            f"{float(M[pos])!r} at index {pos} (a table of proportions has lost its N)"
        )
    return M


def _divide(num, den, zero_division, what="the statistic", why="", labels=None):
    """num / den elementwise; NaN (or ``zero_division``) where den is 0."""
    zero_division = check_zero_division(zero_division)
    if zero_division == "raise" and (den == 0).any():
        i = int(np.argmax(den == 0))
        label = labels[i] if labels is not None else i
        raise UndefinedMetricError(f"{what} is undefined (0/0) for class {label!r}{why}")
    fill = np.nan if zero_division is None else zero_division
    out = np.full(num.shape, float(fill))
    np.divide(num, den, out=out, where=den != 0)
    return out


# --- per category ----------------------------------------------------------------------------


@matrix_function
def specific_agreement(C: ArrayLike, *, zero_division: str | float | None = None) -> Any:
    r"""Specific agreement per class: how often the raters agree when one of them says ``k``.

    .. math:: p_s(k) = \frac{2\,n_{kk}}{n_{k\cdot} + n_{\cdot k}}

    For a 2 x 2 table these are the positive agreement :math:`2a / (2a + b + c)` and the
    negative agreement :math:`2d / (2d + b + c)` (Cicchetti & Feinstein 1990; Uebersax
    1990), the two numbers a reader of "high agreement, low kappa" needs: with a rare class
    the observed agreement is carried by the common one.

    Parameters
    ----------
    C : array-like of shape (K, K)
        Confusion matrix of counts (rows = rater 1, columns = rater 2); the statistic is
        symmetric in the two raters.
    zero_division : {None, "raise"} or float
        The value for a class that neither rater used (0/0): NaN by default.

    Returns
    -------
    SpecificAgreement
        ``.values`` (one per class), ``.labels``, and ``.positive`` / ``.negative`` for
        2 x 2 tables.

    References
    ----------
    Cicchetti, D. V. & Feinstein, A. R. (1990). High agreement but low kappa: II. Resolving
    the paradoxes. *Journal of Clinical Epidemiology* 43(6), 551-558.

    Examples
    --------
    Feinstein and Cicchetti's paradox: p_o = 0.85, kappa 0.32, but agreement on the
    positives is only 0.4.

    >>> import kappalib as kl
    >>> s = kl.specific_agreement([[80, 10], [5, 5]])
    >>> round(s.positive, 4), round(s.negative, 4)
    (0.4, 0.9143)
    """
    M = _one_matrix(C, "specific_agreement")
    r, c = M.sum(axis=1), M.sum(axis=0)
    labels = _labels_of(C, M.shape[0])
    values = _divide(
        2.0 * np.diag(M),
        r + c,
        zero_division,
        "specific agreement",
        ": neither rater used it",
        labels,
    )
    return SpecificAgreement(values, labels)


def category_fleiss_kappas(table: ArrayLike, *, categories: ArrayLike | None = None) -> Any:
    r"""Fleiss' kappa of each category against all the others (Fleiss 1971).

    .. math::

        \kappa_k = 1 - \frac{\sum_i n_{ik}(n - n_{ik})}{N n (n - 1)\, p_k (1 - p_k)},
        \qquad z_k = \kappa_k \Big/ \sqrt{\tfrac{2}{N n (n-1)}}

    with the notation of :func:`fleiss_kappa`; :math:`\kappa_k` is the Fleiss kappa of the
    table collapsed to "k" and "not k".  The standard error is Fleiss' under the null
    hypothesis of no agreement beyond chance, as R's irr ``kappam.fleiss(detail=TRUE)``.

    Parameters
    ----------
    table : array-like of shape (N, K)
        Counts per subject and category, every row summing to the same ``n >= 2``.
    categories : array-like, optional
        As in :func:`fleiss_kappa`.

    Returns
    -------
    CategoryKappas
        ``.kappa``, ``.z``, ``.pvalue`` (two-sided) and ``.categories``; NaN for a category
        that nobody used or that every rating used (0/0).

    Examples
    --------
    >>> import kappalib as kl
    >>> res = kl.category_fleiss_kappas([[3, 0], [0, 3], [1, 2], [2, 1]])
    >>> [round(float(k), 4) for k in res.kappa]
    [0.3333, 0.3333]
    """
    T, known, _ = table_and_categories(table, categories, "category_fleiss_kappas")
    n_i = T.sum(axis=1)
    n = n_i[0]
    if (n_i != n).any() or n < 2:
        # the checks and sentences of fleiss_kappa
        fleiss_kappa(table, categories=categories)
    N = T.shape[0]
    p = T.sum(axis=0) / (N * n)
    num = np.einsum("ik,ik->k", T, n - T)
    den = N * n * (n - 1.0) * p * (1.0 - p)
    k = 1.0 - _divide(num, den, None)
    z = k / math.sqrt(2.0 / (N * n * (n - 1.0)))
    # two-sided p = 2 Phi(-|z|) = erfc(|z| / sqrt 2), without the cancellation of 1 - Phi
    pvalue = np.array([math.erfc(abs(v) / math.sqrt(2.0)) if np.isfinite(v) else np.nan for v in z])
    labels = tuple(known.tolist()) if known is not None else tuple(range(T.shape[1]))
    return CategoryKappas(k, z, pvalue, labels)


@matrix_function
def class_validity(C: ArrayLike, *, zero_division: str | float | None = None) -> Any:
    r"""Per-class sensitivity and positive predictive value against a reference.

    .. math:: \mathrm{sens}_k = \frac{C_{kk}}{n_{k\cdot}}, \qquad
              \mathrm{PPV}_k = \frac{C_{kk}}{n_{\cdot k}}

    When rater 1 (the rows) is a gold standard the question is validity, not agreement:
    how often is each class found, and how often is a call of it right.  Scikit-learn's
    ``recall_score`` and ``precision_score`` with ``average=None``.

    Parameters
    ----------
    C : array-like of shape (K, K)
        Confusion matrix, rows = the reference, columns = the rater or classifier.
    zero_division : {None, "raise"} or float
        The value of 0/0 (a class absent from the reference, or never predicted): NaN by
        default (scikit-learn warns and gives 0).

    Returns
    -------
    ClassValidity
        ``.sensitivity``, ``.ppv``, ``.support`` (the reference's count of each class) and
        ``.labels``.

    Examples
    --------
    >>> import kappalib as kl
    >>> v = kl.class_validity([[40, 10], [5, 45]])
    >>> v.sensitivity.tolist(), [round(float(x), 4) for x in v.ppv]
    ([0.8, 0.9], [0.8889, 0.8182])
    """
    M = _one_matrix(C, "class_validity")
    d = np.diag(M)
    r, c = M.sum(axis=1), M.sum(axis=0)
    labels = _labels_of(C, M.shape[0])
    return ClassValidity(
        _divide(d, r, zero_division, "sensitivity", ": the reference has no such case", labels),
        _divide(d, c, zero_division, "PPV", ": it is never predicted", labels),
        r,
        labels,
    )


# --- bias: marginal homogeneity --------------------------------------------------------------


@matrix_function
def mcnemar_test(C: ArrayLike, *, correction: bool = True, exact: bool = False) -> BiasTest:
    r"""McNemar's test that two raters of a 2 x 2 table have the same margins (no bias).

    Only the discordant cells count: with :math:`b = C_{01}` and :math:`c = C_{10}`,

    .. math:: \chi^2 = \frac{(|b - c| - 1)^2}{b + c} \quad (\text{1 df}),

    without the ``- 1`` when ``correction=False``; ``exact=True`` gives the binomial test of
    ``b`` out of ``b + c`` at 1/2 (two-sided: twice the smaller tail).

    Parameters
    ----------
    C : array-like of shape (2, 2)
        Counts of cases (whole numbers).
    correction : bool, default True
        Edwards' continuity correction (R's ``mcnemar.test`` default).  As R, it is not
        applied when ``b == c`` (the statistic is then 0, not 1 / (b + c) as in
        statsmodels).
    exact : bool, default False
        The exact binomial test (statsmodels' default); ``statistic`` is then min(b, c).

    Returns
    -------
    BiasTest
        ``statistic``, ``df`` (1, or None for the exact test), ``pvalue``, ``method``.
        With no discordant case (b = c = 0) the chi-square statistic is 0/0: statistic and
        pvalue are None; the exact test gives p = 1.

    Raises
    ------
    ValueError, TypeError
        On a matrix that is not 2 x 2 or holds non-integer counts.

    References
    ----------
    McNemar, Q. (1947). Note on the sampling error of the difference between correlated
    proportions or percentages. *Psychometrika* 12(2), 153-157.

    Examples
    --------
    >>> import kappalib as kl
    >>> t = kl.mcnemar_test([[80, 10], [5, 5]])
    >>> round(t.statistic, 4), round(t.pvalue, 4)
    (1.0667, 0.3017)
    """
    if not isinstance(correction, (bool, np.bool_)) or not isinstance(exact, (bool, np.bool_)):
        raise TypeError(
            f"correction and exact must be True or False, got correction={correction!r}, "
            f"exact={exact!r}"
        )
    M = _counts(C, "mcnemar_test")
    if M.shape != (2, 2):
        raise ValueError(
            f"mcnemar_test is defined for 2 x 2 tables, got C of shape {M.shape}; for K x K "
            "use kl.stuart_maxwell_test(C)"
        )
    b, c = int(M[0, 1]), int(M[1, 0])
    if exact:
        m = b + c
        low = min(b, c)
        tail = sum(math.comb(m, i) for i in range(low + 1)) / 2.0**m if m else 1.0
        return BiasTest(float(low), None, min(1.0, 2.0 * tail), "McNemar exact binomial")
    method = "McNemar chi-square" + (" with continuity correction" if correction else "")
    if b + c == 0:
        return BiasTest(None, 1, None, method)
    gap = abs(b - c) - (1 if correction and b != c else 0)
    stat = gap * gap / (b + c)
    return BiasTest(stat, 1, chi2_sf(stat, 1), method)


@matrix_function
def stuart_maxwell_test(C: ArrayLike) -> BiasTest:
    r"""The Stuart-Maxwell test of marginal homogeneity of a K x K table (bias of two raters).

    With :math:`d = (n_{k\cdot} - n_{\cdot k})_{k < K}` and :math:`S` the covariance of
    ``d`` under homogeneity, :math:`S_{kk} = n_{k\cdot} + n_{\cdot k} - 2 n_{kk}`,
    :math:`S_{kl} = -(n_{kl} + n_{lk})`:

    .. math:: \chi^2 = d^\top S^{-1} d \quad (K - 1 \text{ df}),

    McNemar's test (uncorrected) for K = 2.  A class that no discordant case involves adds
    nothing to ``d`` or ``S`` and is left out (one degree of freedom fewer): with K = 3
    and one such class this is McNemar's test on the other two.  When the discordant cases
    split the classes into groups that no case links (say only 1 <-> 3 and 2 <-> 4), ``S``
    is singular; the statistic is then the sum of each group's, with the sum of their
    degrees of freedom (the generalized inverse gives the same).

    Parameters
    ----------
    C : array-like of shape (K, K), K >= 2
        Counts of cases (whole numbers).

    Returns
    -------
    BiasTest
        ``statistic``, ``df``, ``pvalue``, ``method``; statistic and pvalue are None with
        fewer than two classes in discordant cases (nothing to test).

    References
    ----------
    Stuart, A. (1955). A test for homogeneity of the marginal distributions in a two-way
    classification. *Biometrika* 42, 412-416.  Maxwell, A. E. (1970). Comparing the
    classification of subjects by two independent judges. *British Journal of Psychiatry*
    116, 651-655.

    Examples
    --------
    >>> import kappalib as kl
    >>> t = kl.stuart_maxwell_test([[20, 5, 1], [2, 15, 6], [1, 2, 18]])
    >>> round(t.statistic, 4), t.df, round(t.pvalue, 4)
    (2.1628, 2, 0.3391)
    """
    M = _counts(C, "stuart_maxwell_test")
    if M.shape[0] < 2:
        raise ValueError(f"stuart_maxwell_test needs at least 2 classes, got C of shape {M.shape}")
    off = M - np.diag(np.diag(M))
    used = (off.sum(axis=0) + off.sum(axis=1)) > 0
    method = "Stuart-Maxwell"
    if used.sum() < 2:
        return BiasTest(None, None, None, method)
    # The classes fall into groups that discordant cases connect (class k and l are linked when
    # n_kl + n_lk > 0). S is singular when there is more than one group (each group's margins
    # sum to the same total on both sides), so the statistic is summed over the groups, each
    # with its own K_g - 1 degrees of freedom: the exact value of d' S^- d, never a solve on a
    # singular matrix.
    link = (off + off.T) > 0
    group = -np.ones(M.shape[0], dtype=int)
    for start in np.flatnonzero(used):
        if group[start] >= 0:
            continue
        group[start] = start
        stack = [start]
        while stack:
            k = stack.pop()
            for j in np.flatnonzero(link[k] & (group < 0)):
                group[j] = start
                stack.append(j)
    stat, df = 0.0, 0
    for g in np.unique(group[used]):
        members = np.flatnonzero(group == g)
        A = M[np.ix_(members, members)]
        r, c = A.sum(axis=1), A.sum(axis=0)
        d = (r - c)[:-1]
        S = -(A + A.T)
        np.fill_diagonal(S, r + c - 2.0 * np.diag(A))
        stat += float(d @ np.linalg.solve(S[:-1, :-1], d))
        df += members.size - 1
    return BiasTest(max(stat, 0.0), df, chi2_sf(max(stat, 0.0), df), method)
