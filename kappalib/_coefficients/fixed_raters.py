r"""Crossed designs, the same raters on every unit (fixed raters): Conger's (1980) kappa,
whose chance agreement keeps each rater's own margins, and Light's (1971) kappa, the mean of
the pairwise Cohen kappas.

Symbols follow Gwet (2014): ``X[g, u, k]`` is 1 when rater ``g`` put unit ``u`` in category
``k``, ``p_gk`` the share of rater ``g``'s ratings in category ``k``.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from .._count.ratings import tabulate_ratings
from .._input.ratings import RATINGS_DOC, Layout, prepare
from .._input.tables import check_weighted_order, default_scores
from .._shared.policy import check_zero_division, finish
from ..results import RatingTable
from .count_tables import multi_parts
from .kappa import kappa

__all__ = ["conger_kappa", "light_kappa"]


def rater_indicators(data, layout, categories, name):
    """``(X, domain, source)``: ``X`` of shape (raters, units, K), 1 where rater ``g`` put
    unit ``u`` in category ``k`` (all 0 for a missing rating), from raw ratings checked by
    ``_input.ratings`` and counted by ``_count.ratings``, one rater at a time."""
    arr, missing, extremes, categories, source = prepare(data, layout, categories, name)
    table, domain = tabulate_ratings(arr, missing, extremes, categories, name, keep_unused=False)
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
        X[g] = tabulate_ratings(
            arr[g : g + 1], absent[g : g + 1], None, domain, name, keep_unused=True
        )[0]
    return X, np.asarray(table, dtype=np.float64), domain, source


def conger_kappa(
    ratings: ArrayLike,
    *,
    layout: Layout | None = None,
    labels: ArrayLike | None = None,
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
    ratings : array-like of shape (raters, units) or (units, raters)
        RATINGS_DOC
    layout : {None, "raters x units", "units x raters"}
        See ``ratings``.
    labels : array-like of shape (K,), optional
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

    >>> import kappalib as kl
    >>> data = kl.datasets.load("krippendorff2011_example").data  # 4 raters x 12 units
    >>> round(kl.conger_kappa(data, layout="raters x units"), 5)
    0.76207
    """
    zero_division = check_zero_division(zero_division)
    X, table, domain, source = rater_indicators(ratings, layout, labels, "ratings")
    check_weighted_order(weighting, domain, source, "conger_kappa")
    message = "Conger's kappa is undefined (0/0): every rating falls in one single category"
    if domain.size < 2:
        return finish(0.0, True, zero_division, message)
    _, w, p_a, _ = multi_parts(
        RatingTable(table, domain, ordered=source != "spelling"),
        weighting,
        default_scores(weighting, scores, domain),
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
    ratings: ArrayLike,
    *,
    layout: Layout | None = None,
    labels: ArrayLike | None = None,
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
    ratings : array-like of shape (raters, units) or (units, raters)
        RATINGS_DOC
    layout : {None, "raters x units", "units x raters"}
        See ``ratings``.
    labels : array-like of shape (K,), optional
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
    >>> data = [[1, 1, 2, 2], [1, 2, 2, 2], [1, 1, 2, 2]]  # 3 raters x 4 units
    >>> round(kl.light_kappa(data, layout="raters x units"), 6)
    0.666667
    """
    zero_division = check_zero_division(zero_division)
    X, _, _, _ = rater_indicators(ratings, layout, labels, "ratings")
    R = X.shape[0]
    g, h = np.triu_indices(R, 1)
    C = np.einsum("puk,pul->pkl", X[g], X[h])
    N = C.sum(axis=(1, 2))
    if not (N > 0).all():
        p = int(np.argmin(N > 0))
        raise ValueError(
            f"ratings: raters {int(g[p])} and {int(h[p])} rated no unit in common, "
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


for _f in (conger_kappa, light_kappa):
    _f.__doc__ = (_f.__doc__ or "").replace("RATINGS_DOC", RATINGS_DOC)
