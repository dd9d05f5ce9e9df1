r"""Cohen's kappa of cases that come in clusters: several lesions per patient, several items
per annotator's batch.  The cases of a cluster are not independent, so the usual standard
error (Fleiss, Cohen & Everitt 1969), and a bootstrap that draws cases, understate the
uncertainty; the cluster is the sampled unit.

* **cluster-robust standard error** (``method="analytic"``): each case's influence on kappa
  (``kappa_linearization``), summed over its cluster, :math:`\Psi_g = \sum_{i \in g} \psi_i`,

  .. math::

      \widehat{\mathrm{var}}(\hat\kappa) = \frac{G}{G - 1}\,\frac{1}{N^2}
          \sum_{g=1}^{G} \Psi_g^2,

  the ratio-estimator variance of Obuchowski (1998) carried through the delta method, as
  Yang & Zhou (2014, 2015) derive it for (weighted) kappa; the Wald interval on it.
* **bootstrap over clusters** (``"percentile"``, ``"bca"``; Kang et al. 2013): a resample
  draws ``G`` clusters with replacement, each with all of its cases.  Each cluster is its
  K x K table, so a resample is a weighted sum of the distinct tables, one matrix product
  for all resamples; BCa's jackknife leaves out one cluster.

Symbols: ``S[g]`` the confusion matrix of cluster ``g``, ``G`` clusters, ``N`` cases, ``W``
disagreement weights, ``psi`` a case's influence by cell, ``Psi`` the cluster totals.
"""

from __future__ import annotations

import math
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

from .._count.groups import group_tables
from .._input.matrix import check_label_order
from .._input.options import check_choice, check_confidence, check_n_resamples, make_rng
from .._input.weights import resolve_weights
from .._shared.policy import check_zero_division, finish
from ..results import ClusteredKappa
from .bootstrap import bootstrap_interval, jackknife
from .dependent_kappas import (
    METHODS,
    batched_kappa,
    chunked,
    method_text,
    sd_of,
    to_interval,
    wald,
)
from .intervals import finish_interval
from .kappa_inference import kappa_standard_error
from .kappa_linearization import cell_influence

__all__ = ["clustered_kappa"]


def clustered_kappa(
    y1: ArrayLike,
    y2: ArrayLike,
    clusters: ArrayLike,
    *,
    method: Literal["analytic", "percentile", "bca"] = "analytic",
    confidence_level: float = 0.95,
    weighting: str | ArrayLike | None = None,
    scores: ArrayLike | None = None,
    labels: ArrayLike | None = None,
    n_resamples: int = 9999,
    rng: int | np.random.Generator | None = None,
    zero_division: str | float | None = None,
) -> ClusteredKappa:
    r"""Cohen's kappa of clustered cases, with a standard error and interval that respect
    the clusters: cluster-robust (delta method) or a bootstrap over clusters.

    The estimate is the kappa of all the cases, :func:`cohen_kappa_score`'s.  With
    :math:`\psi_i` the influence of case ``i`` on kappa (Fleiss, Cohen & Everitt's variance
    is :math:`\sum_i \psi_i^2 / N^2`) and :math:`\Psi_g` its sum over cluster ``g``:

    .. math::

        \widehat{\mathrm{var}}(\hat\kappa) = \frac{G}{G - 1}\,\frac{1}{N^2}
            \sum_{g=1}^{G} \Psi_g^2
        \qquad \text{(Obuchowski 1998; Yang \& Zhou 2014, 2015)},

    and ``design_effect`` is its ratio to Fleiss, Cohen & Everitt's variance.  With
    ``method="percentile"`` or ``"bca"`` the ``G`` clusters are resampled with replacement,
    each with all of its cases (Kang et al. 2013), and the interval is that of
    :func:`bootstrap_confint` over the resampled kappas.

    Parameters
    ----------
    y1, y2 : array-like of shape (N,)
        Two raters' labels of the same cases (rater 1 the rows), as in
        :func:`cohen_kappa_score`.
    clusters : array-like of shape (N,)
        The cluster of each case (a patient's id, a batch's name).
    method : {"analytic", "percentile", "bca"}, default "analytic"
    confidence_level : float, default 0.95
    weighting, scores, labels :
        As in :func:`cohen_kappa_score`.
    n_resamples : int, default 9999
        Bootstrap only.
    rng : None, int or numpy.random.Generator
        Bootstrap only: seed it for a reproducible interval.
    zero_division : {None, "raise"} or float
        Policy when kappa is undefined (0/0).

    Returns
    -------
    ClusteredKappa
        ``estimate``, ``standard_error``, ``confidence_interval`` (Wald cut to [-1, 1], or
        the bootstrap's), ``design_effect``, ``n_units`` (cases), ``n_clusters``.

    Raises
    ------
    ValueError, TypeError
        On labels as :func:`cohen_kappa_score` refuses them, ``clusters`` of another length
        or with a missing id, fewer than 2 clusters, an unknown method, or
        ``confidence_level`` outside (0, 1).
    UndefinedMetricError
        If kappa is undefined and ``zero_division="raise"``.

    Notes
    -----
    With one case per cluster the analytic variance is Fleiss, Cohen & Everitt's times
    :math:`N/(N-1)`.  The cluster-robust variance is large-sample in the number of
    clusters: Yang & Zhou find it reliable from about 50 clusters; with fewer, prefer the
    BCa bootstrap, and read a design effect computed from few clusters as rough.  Every
    number is None (or ``zero_division``'s value) where kappa is 0/0.

    References
    ----------
    Obuchowski, N. A. (1998). On the comparison of correlated proportions for clustered
    data. *Statistics in Medicine* 17, 1495-1507.
    Yang, Z. & Zhou, M. (2014). Kappa statistic for clustered matched-pair data.
    *Statistics in Medicine* 33, 2612-2633.
    Yang, Z. & Zhou, M. (2015). Weighted kappa statistic for clustered matched-pair ordinal
    data. *Computational Statistics & Data Analysis* 82, 1-18.
    Kang, C., Qaqish, B., Monaco, J., Sheridan, S. L. & Cai, J. (2013). Kappa statistic for
    clustered dichotomous responses from physicians and patients. *Statistics in Medicine*
    32, 3700-3710.

    Examples
    --------
    Two readers, three lesions on each of eight patients; the readers disagree on every
    lesion of two patients (rows of three), so the patients, not the lesions, are the
    independent units:

    >>> import kappalib as kl
    >>> y1 = [1, 1, 1, 0, 0, 0, 1, 1, 1, 0, 0, 0, 1, 1, 0, 0, 0, 1, 1, 1, 1, 0, 0, 0]
    >>> y2 = [1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 1, 1, 1, 1, 1, 1, 0, 0, 0]
    >>> patient = [p for p in range(8) for _ in range(3)]
    >>> r = kl.clustered_kappa(y1, y2, patient)
    >>> round(r.estimate, 4), round(r.standard_error, 4), round(r.design_effect, 2)
    (0.5833, 0.2767, 2.81)
    >>> round(kl.kappa_standard_error(kl.confusion_matrix(y1, y2)), 4)  # as if independent
    0.1652
    """
    confidence = check_confidence(confidence_level)
    zero_division = check_zero_division(zero_division)
    check_choice(method, "method", METHODS)
    if method != "analytic":
        n_resamples = check_n_resamples(n_resamples)
    S, order, source, _ = group_tables(y1, y2, clusters, labels, "clustered_kappa")
    check_label_order(weighting, order, source, "clustered_kappa")
    K = len(order)
    W = resolve_weights(weighting, K, scores)
    sizes = S.sum(axis=(1, 2))
    S = S[sizes > 0]  # a cluster whose every case was left out by labels=
    G = S.shape[0]
    if G < 2:
        raise ValueError(
            f"clusters must hold at least 2 clusters for a standard error that respects them, "
            f"got {G}"
        )
    C = S.sum(axis=0)
    N = int(C.sum())
    k, psi = cell_influence(C, W)
    text = method_text(method).replace("over units", "over clusters")
    if psi is None:
        message = "kappa is undefined (0/0): both raters put every case in the same single class"
        none = finish(np.nan, True, zero_division, message)
        ci = finish_interval(np.nan, np.nan, True, zero_division, message)
        return ClusteredKappa(none, none, ci, confidence, text, none, N, G, weighting)
    naive = kappa_standard_error(C, weighting=W)
    if method == "analytic":
        Psi = np.einsum("gab,ab->g", S, psi)
        se = math.sqrt(G / (G - 1.0) * float(Psi @ Psi)) / N
        ci = wald(k, se, confidence, 1.0)
        text = "cluster-robust delta method (Wald)"
    else:
        rows, m = np.unique(S.reshape(G, K * K), axis=0, return_counts=True)
        m = m.astype(np.float64)

        def stat(Wt):
            Wt = np.atleast_2d(Wt)
            return batched_kappa((Wt @ rows).reshape(-1, K, K), W)

        boot = chunked(stat, m, n_resamples, make_rng(rng))
        se = sd_of(boot)
        ci = bootstrap_interval(k, boot, confidence, method, lambda: jackknife(m, stat))
    deff = None if se is None or not naive > 0 else (se / naive) ** 2
    return ClusteredKappa(k, se, to_interval(ci), confidence, text, deff, N, G, weighting)
