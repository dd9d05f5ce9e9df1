r"""Fleiss' per-category kappas (Fleiss 1971) with their test under kappa = 0 and their
standard errors and intervals away from it.

:math:`\kappa_k` is Fleiss' kappa of the table collapsed to "k" and "not k".  Fleiss (1971)
and irr's ``kappam.fleiss(detail=TRUE)`` give only its standard error under the null,
:math:`\sqrt{2/(N n (n-1))}`, for the test.  For an interval this module applies Gwet's
(2008; 2014, ch. 5) linearization variance of Fleiss' kappa, the one
:func:`ratings_standard_error` computes for ``coefficient="fleiss"``, to each collapsed
table: the per-category kappa *is* Fleiss' kappa of that two-column table, so its standard
error is that coefficient's (irrCAC's ``fleiss()`` on the dichotomized ratings gives the
same), and the interval is Gwet's :math:`\hat\kappa_k \pm t_{N-1}\,\mathrm{se}_k`, its upper
end cut at 1.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike

from .._coefficients.count_tables import fleiss_kappa
from .._input.options import check_confidence
from .._input.tables import table_and_categories
from .._shared.distributions import normal_pvalue, t_ppf
from ..results import CategoryKappas, ConfidenceInterval
from .ratings_variance import analytic_variance

__all__ = ["category_fleiss_kappas"]


def category_fleiss_kappas(table: ArrayLike, *, confidence_level: float = 0.95) -> CategoryKappas:
    r"""Fleiss' kappa of each category against all the others (Fleiss 1971), with its test
    under :math:`\kappa_k = 0` and its standard error and interval away from it.

    .. math::

        \kappa_k = 1 - \frac{\sum_i n_{ik}(n - n_{ik})}{N n (n - 1)\, p_k (1 - p_k)},
        \qquad z_k = \kappa_k \Big/ \sqrt{\tfrac{2}{N n (n-1)}}

    with the notation of :func:`fleiss_kappa`; :math:`\kappa_k` is the Fleiss kappa of the
    table collapsed to "k" and "not k".  ``z`` uses Fleiss' standard error under the null
    hypothesis of no agreement beyond chance, as R's irr ``kappam.fleiss(detail=TRUE)``.
    ``standard_error`` is the non-null one, for the interval: Gwet's (2008; 2014, ch. 5)
    linearization variance of Fleiss' kappa applied to the collapsed table (as
    :func:`ratings_standard_error` with ``coefficient="fleiss"``; irrCAC's ``fleiss()`` on the
    dichotomized ratings), and ``confidence_interval`` is Gwet's
    :math:`\hat\kappa_k \pm t_{N-1}\,\mathrm{se}_k`, cut at 1.

    Parameters
    ----------
    table : array-like of shape (N, K)
        Counts per subject and category, every row summing to the same ``n >= 2``; a
        :class:`RatingTable` names its categories (``kl.RatingTable(table, labels=...)``
        names those of a plain one).
    confidence_level : float, default 0.95
        The coverage of the intervals, strictly between 0 and 1.

    Returns
    -------
    CategoryKappas
        ``.kappa``, ``.z``, ``.pvalue`` (two-sided), ``.standard_error``,
        ``.confidence_interval`` (arrays ``low``, ``high``) and ``.labels``; NaN for a
        category that nobody used or that every rating used (0/0).

    References
    ----------
    Fleiss, J. L. (1971). Measuring nominal scale agreement among many raters.
    *Psychological Bulletin* 76(5), 378-382.
    Gwet, K. L. (2008). Computing inter-rater reliability and its variance in the presence
    of high agreement. *British Journal of Mathematical and Statistical Psychology* 61,
    29-48.

    Examples
    --------
    >>> import kappalib as kl
    >>> res = kl.category_fleiss_kappas([[3, 0], [0, 3], [1, 2], [2, 1]])
    >>> [round(float(k), 4) for k in res.kappa]
    [0.3333, 0.3333]
    >>> [round(float(s), 4) for s in res.standard_error]
    [0.3849, 0.3849]
    """
    confidence = check_confidence(confidence_level)
    T, known, _ = table_and_categories(table, None, "category_fleiss_kappas")
    n_i = T.sum(axis=1)
    n = n_i[0]
    if (n_i != n).any() or n < 2:
        # the checks and sentences of fleiss_kappa
        fleiss_kappa(table)
    N, K = T.shape
    p = T.sum(axis=0) / (N * n)
    num = np.einsum("ik,ik->k", T, n - T)
    den = N * n * (n - 1.0) * p * (1.0 - p)
    k = np.full(K, np.nan)
    np.divide(num, den, out=k, where=den != 0)
    k = 1.0 - k
    z = k / math.sqrt(2.0 / (N * n * (n - 1.0)))
    pvalue = np.array([normal_pvalue(v) if np.isfinite(v) else np.nan for v in z])
    se = np.full(K, np.nan)
    for j in range(K):
        if not np.isfinite(k[j]):
            continue
        collapsed = np.stack([T[:, j], n - T[:, j]], axis=1)
        _, _, var = analytic_variance(collapsed, "fleiss", None, None, None, None, None, False)
        if var is not None:
            se[j] = math.sqrt(max(var, 0.0))
    half = t_ppf((1.0 + confidence) / 2.0, N - 1.0) * se
    interval = ConfidenceInterval(k - half, np.minimum(k + half, 1.0))
    labels = tuple(known.tolist()) if known is not None else tuple(range(K))
    return CategoryKappas(k, z, pvalue, labels, se, interval, confidence)
