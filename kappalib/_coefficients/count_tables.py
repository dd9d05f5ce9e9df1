r"""The coefficients of a units x categories count table ``n_uk`` (how many raters put unit
``u`` in category ``k``): Fleiss' kappa, Gwet's generalized Fleiss kappa, Gwet's AC1/AC2 and
Brennan-Prediger for any number of raters.

Symbols follow Gwet (2014): ``r_u`` the ratings of unit ``u``, ``w = 1 - W / max(W)`` the
agreement weights made from kappalib's disagreement weights ``W``, ``p_a`` and ``p_e``
observed and chance agreement, ``pi_k`` the category shares.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from .._input.tables import check_weighted_order, default_scores, table_and_categories
from .._shared.policy import check_zero_division, finish
from .arithmetic import checked_agreement_weights

__all__ = ["brennan_prediger_multi", "fleiss_kappa", "fleiss_kappa_generalized", "gwet_ac1_multi"]


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


def multi_parts(table, weighting, scores, name):
    """Gwet's (2014) p_a over units with >= 2 ratings, and pi_k over rated units."""
    T, domain, source = table_and_categories(table, None, name)
    check_weighted_order(weighting, domain, source, name)
    scores = default_scores(weighting, scores, domain)
    K = T.shape[1]
    w = checked_agreement_weights(weighting, K, scores, name)
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
    >>> round(kl.gwet_ac1_multi(kl.rating_table(data, layout="raters x units")), 5)
    0.77544
    """
    K, w, p_a, pi = multi_parts(table, weighting, scores, "gwet_ac1_multi")
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
    >>> round(kl.brennan_prediger_multi(kl.rating_table(data, layout="raters x units")), 6)
    0.772727
    """
    K, w, p_a, _ = multi_parts(table, weighting, scores, "brennan_prediger_multi")
    p_e = w.sum() / (K * K)
    return float((p_a - p_e) / (1.0 - p_e))


def fleiss_kappa_generalized(
    table: ArrayLike,
    *,
    weighting: str | ArrayLike | None = None,
    scores: ArrayLike | None = None,
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
    weighting, scores :
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

    >>> import kappalib as kl
    >>> data = kl.datasets.load("krippendorff2011_example").data  # 4 raters x 12 units
    >>> round(kl.fleiss_kappa_generalized(kl.rating_table(data, layout="raters x units")), 5)
    0.76117
    """
    zero_division = check_zero_division(zero_division)
    _, w, p_a, pi = multi_parts(table, weighting, scores, "fleiss_kappa_generalized")
    p_e = float(pi @ w @ pi)
    den = 1.0 - p_e
    undefined = not den > 1e-15
    return finish(
        (p_a - p_e) / den if not undefined else 0.0,
        undefined,
        zero_division,
        "the generalized Fleiss kappa is undefined (0/0): every rating falls in one category",
    )
