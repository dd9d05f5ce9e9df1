r"""The overall concordance correlation coefficient of several methods (Lin 1989; Barnhart,
Haber & Song 2002).

Symbols: ``n`` units measured by each of ``J`` methods; :math:`\mu_j` the methods' means,
:math:`\Sigma = (\sigma_{jk})` their covariance matrix, moments divided by ``n`` as in Lin
(1989).  For ``J = 2`` everything here is Lin's concordance correlation and its interval
(:func:`kappalib.lins_ccc`).
"""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np
from numpy.typing import ArrayLike

from ._continuous import _as_table
from ._ratings import Layout
from ._validation import check_confidence
from .results import ConfidenceInterval, OverallCCCResult

__all__ = ["overall_ccc"]


def overall_ccc(
    ratings: ArrayLike,
    *,
    layout: Layout | None = None,
    confidence_level: float = 0.95,
) -> OverallCCCResult:
    r"""The overall concordance correlation of ``J`` methods, with its interval.

    .. math::

        \rho_o = \frac{2\sum_{j<k}\sigma_{jk}}
                      {(J-1)\sum_j \sigma_j^2 + \sum_{j<k}(\mu_j - \mu_k)^2}
               = \frac{\sum_{j<k} \xi_{jk}\,\rho_{c,jk}}{\sum_{j<k}\xi_{jk}},

    the average of the pairwise concordance correlations :math:`\rho_{c,jk}` weighted by
    their denominators :math:`\xi_{jk} = \sigma_j^2 + \sigma_k^2 + (\mu_j - \mu_k)^2` (Lin
    1989; Barnhart, Haber & Song 2002).  It is 1 only when every method gives every unit the
    same value.  ``precision`` :math:`= \sum_{j<k}\sigma_{jk} / \sum_{j<k}\sigma_j\sigma_k`
    and ``accuracy`` :math:`= 2\sum_{j<k}\sigma_j\sigma_k / \sum_{j<k}\xi_{jk}` are its two
    factors, as epiR's ``epi.occc`` gives them (for two methods: Pearson's r and Lin's
    :math:`C_b`).

    The interval is Lin's, generalised: the delta method on the sample moments under
    normality (the means have covariance :math:`\Sigma/n`, the covariances
    :math:`(\sigma_{ac}\sigma_{bd} + \sigma_{ad}\sigma_{bc})/n`, independent of the means),
    on Fisher's :math:`z = \operatorname{atanh}\rho_o`, with ``n - 2`` in place of ``n`` as
    Lin (1989, 2000) has it:

    .. math::

        \operatorname{Var}(\hat z) = \frac{g_\mu^\top \Sigma\, g_\mu
            + 2\operatorname{tr}(G\Sigma G\Sigma)}{(n-2)(1-\rho_o^2)^2},

    with :math:`g_\mu` and :math:`G` the gradients of :math:`\rho_o` in the means and the
    covariances.  For two methods it is Lin's interval exactly.

    Parameters
    ----------
    ratings : array-like of shape (units, raters) or (raters, units)
        Numeric measurements, complete; one column per method.  A DataFrame is one row per
        unit; a plain array is raters x units unless ``layout="units x raters"``.
    layout : {None, "raters x units", "units x raters"}
    confidence_level : float, default 0.95

    Returns
    -------
    OverallCCCResult
        ``estimate`` (None when every measurement is the same), ``standard_error`` (of
        the estimate, by the delta method), ``confidence_interval`` (None when undefined:
        :math:`|\rho_o| = 1`, a constant method, or fewer than 3 units), ``precision``,
        ``accuracy``, ``n_units``, ``n_raters``.

    Raises
    ------
    ValueError, TypeError
        As :func:`kappalib.icc`: a missing or non-numeric measurement, fewer than 2 units or
        2 methods, an ambiguous layout; ``confidence_level`` outside (0, 1).

    References
    ----------
    Lin, L. I.-K. (1989). A concordance correlation coefficient to evaluate
    reproducibility. *Biometrics* 45(1), 255-268.
    Barnhart, H. X., Haber, M. & Song, J. (2002). Overall concordance correlation
    coefficient for evaluating agreement among multiple observers. *Biometrics* 58(4),
    1020-1027.

    Examples
    --------
    Shrout and Fleiss' (1979) four judges of six targets: the judges differ in level, so
    their concordance is far below their consistency (ICC(3,1) = 0.71).

    >>> import kappalib as kl
    >>> ratings = [[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8],
    ...            [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7]]
    >>> res = kl.overall_ccc(ratings, layout="units x raters")
    >>> round(res.estimate, 4), res.n_raters
    (0.2537, 4)
    """
    level = check_confidence(confidence_level)
    Y = _as_table(ratings, layout)
    n, J = Y.shape
    mu = Y.mean(axis=0)
    dev = Y - mu
    S = dev.T @ dev / n
    sd = np.sqrt(np.diag(S))
    upper = np.triu_indices(J, 1)
    num = float(S[upper].sum())  # sum over j < k of sigma_jk
    gaps = float(((mu[:, None] - mu[None, :])[upper] ** 2).sum())
    den = (J - 1) * float(np.trace(S)) + gaps  # sum over j < k of xi_jk
    rho = 2.0 * num / den if den > 0 else None
    cross = float(np.outer(sd, sd)[upper].sum())  # sum over j < k of sigma_j sigma_k
    precision = num / cross if cross > 0 else None
    accuracy = 2.0 * cross / den if den > 0 else None
    se = low = high = None
    if rho is not None and n > 2:
        N = 2.0 * num
        g_mu = -(N / den**2) * 2.0 * (J * mu - mu.sum())
        G = ((np.ones((J, J)) - np.eye(J)) * den - N * (J - 1) * np.eye(J)) / den**2
        GS = G @ S
        var_rho = (float(g_mu @ S @ g_mu) + 2.0 * float(np.trace(GS @ GS))) / (n - 2)
        se = math.sqrt(max(var_rho, 0.0))
        if abs(rho) < 1.0 and cross > 0 and var_rho > 0:
            z = NormalDist().inv_cdf((1.0 + level) / 2.0)
            half = z * se / (1.0 - rho * rho)
            low, high = math.tanh(math.atanh(rho) - half), math.tanh(math.atanh(rho) + half)
    return OverallCCCResult(
        estimate=rho,
        standard_error=se,
        confidence_interval=ConfidenceInterval(low, high),
        confidence_level=level,
        precision=precision,
        accuracy=accuracy,
        n_units=n,
        n_raters=J,
    )
