"""Bias between two raters as marginal homogeneity: McNemar's test (2 x 2) and the
Stuart-Maxwell test (K x K)."""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike

from .._input.matrix import matrix_function, whole_counts
from .._shared.distributions import chi2_sf
from ..results import BiasTest

__all__ = ["mcnemar_test", "stuart_maxwell_test"]


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
    M = whole_counts(C, "mcnemar_test")
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
    M = whole_counts(C, "stuart_maxwell_test")
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
