r"""Cohen's kappa by subgroup (site, class, period) and the test that the subgroups agree.

Each subgroup's kappa is independent of the others' (different units), with its standard
error from Fleiss, Cohen & Everitt (1969).  Fleiss' (1981) homogeneity test pools them with
inverse-variance weights and asks whether their spread exceeds what those errors allow:

.. math::

    \bar\kappa = \frac{\sum_g \hat\kappa_g / v_g}{\sum_g 1 / v_g}, \qquad
    \chi^2 = \sum_{g=1}^{G} \frac{(\hat\kappa_g - \bar\kappa)^2}{v_g}
    \;\sim\; \chi^2_{G-1} \text{ under equal kappas},

with :math:`v_g = \widehat{\mathrm{se}}^2(\hat\kappa_g)`; :math:`\bar\kappa` has standard
error :math:`(\sum_g 1/v_g)^{-1/2}`.  Donner, Eliasziw & Klar (1996) found this test
liberal (it rejects too often) in small subgroups with binary ratings; their
goodness-of-fit test is not here.

Symbols: ``S[g]`` the confusion matrix of subgroup ``g``, ``k`` the kappas, ``v`` their
variances.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike

from .._coefficients.kappa import kappa
from .._count.groups import group_tables
from .._input.matrix import check_label_order
from .._input.options import check_confidence
from .._input.weights import resolve_weights
from .._shared.distributions import chi2_sf
from .._shared.policy import check_zero_division, finish
from ..results import ConfidenceInterval, Estimate, SubgroupKappas
from .dependent_kappas import wald
from .kappa_inference import kappa_confint, kappa_standard_error

__all__ = ["subgroup_kappas"]

TEST = "Fleiss (1981) homogeneity chi-square"


def subgroup_kappas(
    y1: ArrayLike,
    y2: ArrayLike,
    groups: ArrayLike,
    *,
    confidence_level: float = 0.95,
    weighting: str | ArrayLike | None = None,
    scores: ArrayLike | None = None,
    labels: ArrayLike | None = None,
    zero_division: str | float | None = None,
) -> SubgroupKappas:
    r"""Cohen's kappa in each subgroup, with intervals, and Fleiss' test that they are equal.

    The cases of each subgroup (``groups``: a site, a class, a period per case) give their
    own confusion matrix on the same categories, and their kappa with the standard error of
    Fleiss, Cohen & Everitt (1969) and its Wald interval (:func:`kappa_confint`).  The
    homogeneity test (Fleiss 1981):

    .. math::

        \chi^2 = \sum_{g} \frac{(\hat\kappa_g - \bar\kappa)^2}{v_g} \sim \chi^2_{G-1},
        \qquad \bar\kappa = \frac{\sum_g \hat\kappa_g / v_g}{\sum_g 1 / v_g},

    :math:`v_g` the squared standard errors.  :math:`\bar\kappa`, the common kappa, is
    returned with its standard error :math:`(\sum_g 1/v_g)^{-1/2}` and Wald interval; report
    it only where the subgroups agree.

    Parameters
    ----------
    y1, y2 : array-like of shape (N,)
        Two raters' labels of the same cases, as in :func:`cohen_kappa_score`.
    groups : array-like of shape (N,)
        The subgroup of each case.
    confidence_level : float, default 0.95
    weighting, scores, labels :
        As in :func:`cohen_kappa_score`; ``labels`` fixes the categories of every subgroup.
    zero_division : {None, "raise"} or float
        Policy for a subgroup whose kappa is undefined (0/0).

    Returns
    -------
    SubgroupKappas
        ``coefficients`` (one estimate per subgroup, in the order of ``groups``: sorted
        ids), ``statistic``, ``df``, ``pvalue`` of the test, the common kappa
        ``estimate`` with ``standard_error`` and ``confidence_interval``, and ``notes``.

    Raises
    ------
    ValueError, TypeError
        On labels as :func:`cohen_kappa_score` refuses them, ``groups`` of another length
        or with a missing id, fewer than 2 subgroups, or ``confidence_level`` outside (0, 1).
    UndefinedMetricError
        If a subgroup's kappa is undefined and ``zero_division="raise"``.

    Notes
    -----
    A subgroup whose kappa is 0/0 (both raters used one single category there) has no
    estimate and is left out of the test, and so is one whose standard error is 0 (perfect
    agreement: its inverse-variance weight would be infinite); ``notes`` say which.  With
    fewer than two subgroups left, the test is None.  The test is large-sample: Donner,
    Eliasziw & Klar (1996) found it liberal for small binary subgroups.

    References
    ----------
    Fleiss, J. L. (1981). *Statistical Methods for Rates and Proportions*, 2nd ed., ch. 13.
    Fleiss, J. L., Cohen, J. & Everitt, B. S. (1969). Large sample standard errors of kappa
    and weighted kappa. *Psychological Bulletin* 72(5), 323-327.
    Donner, A., Eliasziw, M. & Klar, N. (1996). Testing the homogeneity of kappa
    statistics. *Biometrics* 52, 176-183.

    Examples
    --------
    Two sites, the kappa explainer's table at one and a worse one at the other:

    >>> import kappalib as kl
    >>> y1 = [0] * 10 + [1] * 10 + [0] * 10 + [1] * 10
    >>> y2 = [0] * 8 + [1] * 2 + [0] + [1] * 9 + [0] * 6 + [1] * 4 + [0] * 3 + [1] * 7
    >>> site = ["A"] * 20 + ["B"] * 20
    >>> s = kl.subgroup_kappas(y1, y2, site)
    >>> [round(e.estimate, 2) for e in s.coefficients], round(s.pvalue, 3)
    ([0.7, 0.3], 0.131)
    """
    confidence = check_confidence(confidence_level)
    zero_division = check_zero_division(zero_division)
    S, order, source, names = group_tables(y1, y2, groups, labels, "subgroup_kappas", "groups")
    check_label_order(weighting, order, source, "subgroup_kappas")
    K = len(order)
    notes = []
    present = S.sum(axis=(1, 2)) > 0
    if not present.all():
        left = [names[i] for i in np.flatnonzero(~present)]
        notes.append(f"No case of subgroup(s) {left} has both labels among labels=; left out.")
        S = S[present]
        names = [n for n, p in zip(names, present, strict=True) if p]
    if S.shape[0] < 2:
        raise ValueError(
            f"groups must hold at least 2 subgroups to compare, got {S.shape[0]}: {names!r}"
        )
    W = resolve_weights(weighting, K, scores)
    nan = float("nan")
    k = np.asarray(kappa(S, weighting=W, zero_division=nan), dtype=np.float64)
    se = np.asarray(kappa_standard_error(S, weighting=W, zero_division=nan), dtype=np.float64)
    ci = kappa_confint(S, weighting=W, confidence_level=confidence, zero_division=nan)
    lo, hi = np.asarray(ci.low, dtype=np.float64), np.asarray(ci.high, dtype=np.float64)
    message = (
        "Cohen's kappa of subgroup {} is undefined (0/0): both raters put every case in one class"
    )
    estimates = []
    for i, name in enumerate(names):
        undefined = bool(np.isnan(k[i]))
        text = message.format(repr(name))
        estimates.append(
            Estimate(
                f"kappa ({name})",
                finish(k[i], undefined, zero_division, text),
                finish(se[i], undefined, zero_division, text),
                ConfidenceInterval(
                    finish(lo[i], undefined, zero_division, text),
                    finish(hi[i], undefined, zero_division, text),
                ),
                "normal (Wald), Fleiss-Cohen-Everitt standard error",
            )
        )
    usable = np.isfinite(k) & (se > 0)
    if np.isnan(k).any():
        notes.append(
            "Left out of the test, kappa undefined (0/0): "
            f"{[names[i] for i in np.flatnonzero(np.isnan(k))]}."
        )
    zero = np.isfinite(k) & ~(se > 0)
    if zero.any():
        notes.append(
            "Left out of the test, standard error 0 (its weight would be infinite): "
            f"{[names[i] for i in np.flatnonzero(zero)]}."
        )
    G_used = int(usable.sum())
    statistic = pvalue = pooled = pooled_se = None
    interval: ConfidenceInterval[float | None] = ConfidenceInterval(None, None)
    if G_used >= 2:
        v = se[usable] ** 2
        weights = 1.0 / v
        pooled = float(weights @ k[usable] / weights.sum())
        pooled_se = math.sqrt(1.0 / float(weights.sum()))
        statistic = float(((k[usable] - pooled) ** 2 / v).sum())
        pvalue = chi2_sf(statistic, G_used - 1)
        interval = ConfidenceInterval(*wald(pooled, pooled_se, confidence, 1.0))
    else:
        notes.append("Fewer than 2 subgroups are left for the test.")
    return SubgroupKappas(
        tuple(estimates),
        tuple(names),
        pooled,
        pooled_se,
        interval,
        confidence,
        statistic,
        max(G_used - 1, 0),
        pvalue,
        TEST,
        int(S.sum()),
        weighting,
        tuple(notes),
    )
