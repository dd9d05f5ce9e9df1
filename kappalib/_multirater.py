r"""More than two raters, and the coefficients that replace kappa's chance model.

Layouts, following the ecosystem:

* ``ratings``: one row per unit and one column per rater (``layout="units x raters"``, a
  DataFrame's layout) or the transpose (``"raters x units"``, the ``krippendorff``
  package's and a plain array's default); a missing rating is NaN (or ``None``).
  :func:`rating_table` turns them into
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

from ._counting import ratings_coincidences, tabulate
from ._ratings import (
    Layout,
    check_weighted_order,
    default_scores,
    table_and_categories,
)
from ._two_rater import _agreement_weights
from ._validation import _short, finish
from ._weights import resolve_weights
from .results import RatingTable

__all__ = [
    "brennan_prediger_multi",
    "fleiss_kappa",
    "gwet_ac1_multi",
    "krippendorff_alpha",
    "rating_table",
]

_LEVELS = ("nominal", "ordinal", "interval", "ratio")


# --- rating tables ---------------------------------------------------------------------


_RATINGS_DOC = """One row per unit, one column per rater (``layout="units x raters"``, the layout
        of pandas, statsmodels, pingouin and irr), or one row per rater
        (``layout="raters x units"``, the ``krippendorff`` package's).  A DataFrame is
        read units x raters; a plain array raters x units, and one with more rows than
        columns is refused unless ``layout`` is given.  ``None``, NaN or pandas' ``NA``
        marks a missing rating (a string is always a rating).  Numbers or strings."""


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
    >>> table = kl.rating_table([[1, 2, 2, 1], [1, 2, 1, np.nan], [1, 2, 2, 2]])
    >>> table.tolist(), table.labels
    ([[3, 0], [0, 3], [1, 2], [1, 1]], (1.0, 2.0))
    """
    table, domain, source = tabulate(ratings, labels, layout, "ratings")
    return RatingTable(np.asarray(table, dtype=np.int64), domain, ordered=source != "spelling")


rating_table.__doc__ = (rating_table.__doc__ or "").replace("RATINGS_DOC", _RATINGS_DOC)


# --- count tables --------------------------------------------------------------------------


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
    T, _, _ = table_and_categories(table, None, "fleiss_kappa")
    n_i = np.einsum("ik->i", T)
    n = n_i[0]
    unequal = n_i != n
    if unequal.any():
        j = int(np.argmax(unequal))
        raise ValueError(
            "table must have the same number of ratings in every row (Fleiss' kappa assumes "
            f"each subject is rated n times), got {n:g} in row 0 and {n_i[j]:g} in row {j}; "
            "for units with different numbers of ratings use kl.fleiss_kappa_generalized"
            "(table), Gwet's (2014) generalized Fleiss kappa"
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
    ratings: ArrayLike,
    *,
    level_of_measurement: Literal["nominal", "ordinal", "interval", "ratio"] = "nominal",
    weighting: str | ArrayLike | None = None,
    scores: ArrayLike | None = None,
    labels: ArrayLike | None = None,
    layout: Layout | None = None,
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
    ratings : array-like of shape (raters, units) or (units, raters)
        RATINGS_DOC
        Strings only for the nominal and ordinal levels.
    level_of_measurement : {"nominal", "ordinal", "interval", "ratio"}
        Which fixes the distance :math:`\delta^2`.
    weighting : str or array-like of shape (V, V), optional
        Instead of a level, a distance :math:`\delta^2 = W` of
        :func:`disagreement_weights` (Gwet 2014, as irrCAC's ``krippen_alpha_raw``):
        ``"quadratic"`` on numbers is the interval level, ``"ratio"`` the ratio level,
        ``"circular"`` and ``"bipolar"`` are Krippendorff's own metrics of those names,
        ``"ordinal"`` is Gwet's (it counts values, unlike the ordinal level's ranks).
        Numeric values are the default ``scores``; only with the default
        ``level_of_measurement``.
    scores : array-like of shape (V,), optional
        The values' scores for a named ``weighting`` (default: the numeric values).
    labels : array-like of shape (V,), optional
        The value domain.  For ordinal strings it is required (or an ordered pandas
        Categorical) and gives their order; for ordinal numbers, its order (default:
        ascending).
    layout : {None, "raters x units", "units x raters"}
        See ``ratings``.
    zero_division : {None, "raise"} or float
        Policy when the expected disagreement is 0 (all pairable ratings equal).

    Returns
    -------
    alpha : float or None

    Raises
    ------
    ValueError, TypeError
        On ragged or non-2-D data, an unknown level, interval or ratio on strings, ordinal
        strings without ``labels``, negative values at the ratio level, all ratings
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
    0.743, 0.815, 0.849 and 0.797 for the nominal, ordinal, interval and ratio levels.  The
    array is raters x units, the default for arrays (``layout="units x raters"`` reads the
    transpose, and a DataFrame is read that way).

    >>> import kappalib as kl
    >>> data = kl.datasets.load("krippendorff2011_example").data  # 4 raters x 12 units
    >>> [round(kl.krippendorff_alpha(data, level_of_measurement=lv), 3)
    ...  for lv in ("nominal", "ordinal", "interval", "ratio")]
    [0.743, 0.815, 0.849, 0.797]
    """
    level = level_of_measurement
    if not isinstance(level, str) or level not in _LEVELS:
        raise ValueError(
            "level_of_measurement must be 'nominal', 'ordinal', 'interval' or 'ratio', got "
            f"{level!r}"
        )
    if weighting is not None and level != "nominal":
        raise ValueError(
            f"give either level_of_measurement or weighting, got level_of_measurement={level!r} "
            f"and weighting={_short(weighting, 40)}"
        )
    o, domain, m_max, source = ratings_coincidences(ratings, labels, layout, "ratings")
    if weighting is not None:
        return _weighted_alpha(o, domain, source, m_max, weighting, scores, zero_division)
    strings = domain.dtype.kind in "US"
    if strings and level in ("interval", "ratio"):
        raise TypeError(
            f"level_of_measurement={level!r} needs numeric ratings, got strings such as "
            f"{_short(domain[0])}; use 'nominal', or 'ordinal' with labels= giving their order"
        )
    if strings and level == "ordinal" and source == "spelling":
        raise ValueError(
            "level_of_measurement='ordinal' on string ratings needs labels= listing them in "
            f"order, got labels=None for values {_short(domain.tolist())}"
        )
    if level == "ratio" and (domain < 0).any():
        raise ValueError(
            "level_of_measurement='ratio' needs non-negative values, got "
            f"{_short(domain[np.argmax(domain < 0)])}"
        )
    if m_max < 2:
        raise ValueError(
            "ratings must have at least one unit rated by two or more raters, got "
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


krippendorff_alpha.__doc__ = (krippendorff_alpha.__doc__ or "").replace("RATINGS_DOC", _RATINGS_DOC)


def alpha_distance(weighting, scores, domain, source, name="krippendorff_alpha"):
    """delta^2 of a ``weighting`` on the value domain (numeric values are the scores)."""
    check_weighted_order(weighting, domain, source, name)
    scores = default_scores(weighting, scores, domain)
    return resolve_weights(weighting, domain.size, scores)


def _weighted_alpha(o, domain, source, m_max, weighting, scores, zero_division):
    delta = alpha_distance(weighting, scores, domain, source)
    if m_max < 2:
        raise ValueError(
            "ratings must have at least one unit rated by two or more raters, got "
            f"{int(m_max)} rating(s) per unit at most"
        )
    value, undefined = _alpha_from_coincidences(o, delta)
    return finish(
        value,
        undefined,
        zero_division,
        "Krippendorff's alpha is undefined (0/0): no pair of pairable ratings is at a distance",
    )


# --- Gwet's AC1/AC2 and Brennan-Prediger ---------------------------------------------------


def _multi_parts(table, weighting, scores, name):
    """Gwet's (2014) p_a over units with >= 2 ratings, and pi_k over rated units."""
    T, domain, source = table_and_categories(table, None, name)
    check_weighted_order(weighting, domain, source, name)
    scores = default_scores(weighting, scores, domain)
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
        Counts per unit and category (:func:`rating_table`), one column per category
        **offered**: AC1 depends on K, so a category nobody chose still needs its column
        (``kl.rating_table(ratings, labels=offered)``, or ``kl.RatingTable(table,
        labels=offered)`` to name or reindex the columns).  Raw ratings are refused (a table
        with no zero count and rows of different totals looks like them).
    weighting : {None, "linear", "quadratic"} or array-like of shape (K, K)
        Disagreement weights as in :func:`kappa`; string categories need their order from a
        :class:`RatingTable` whose labels were given, never from their spelling.
    scores : array-like of shape (K,), optional
        Category values for ``"linear"``/``"quadratic"``.  Default: the numeric labels of a
        :class:`RatingTable` (as irrCAC), else 0..K-1.

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

    >>> import kappalib as kl
    >>> data = kl.datasets.load("krippendorff2011_example").data  # 4 raters x 12 units
    >>> round(kl.gwet_ac1_multi(kl.rating_table(data)), 5)
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
        As in :func:`gwet_ac1_multi`: one column per category offered (BP's chance
        agreement is 1/K).
    weighting : {None, "linear", "quadratic"} or array-like of shape (K, K)
    scores : array-like of shape (K,), optional
        As in :func:`gwet_ac1_multi`.

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

    >>> import kappalib as kl
    >>> data = kl.datasets.load("krippendorff2011_example").data  # 4 raters x 12 units
    >>> round(kl.brennan_prediger_multi(kl.rating_table(data)), 6)
    0.772727
    """
    K, w, p_a, _ = _multi_parts(table, weighting, scores, "brennan_prediger_multi")
    p_e = w.sum() / (K * K)
    return float((p_a - p_e) / (1.0 - p_e))
