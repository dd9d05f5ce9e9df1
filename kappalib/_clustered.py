r"""Cohen's kappa of cases that come in clusters: several lesions per patient, several items
per annotator's batch.  The cases of a cluster are not independent, so the usual standard
error (Fleiss, Cohen & Everitt 1969), and a bootstrap that draws cases, understate the
uncertainty; the cluster is the sampled unit.

* **cluster-robust standard error** (``method="analytic"``): each case's influence on kappa
  (``_linearization``), summed over its cluster, :math:`\Psi_g = \sum_{i \in g} \psi_i`,

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

from ._bootstrap import _check_n_resamples, _interval, _jackknife, _rng
from ._dependent import _ci, _method_text, _sd, _wald, batched_kappa, check_method, chunked
from ._encoding import _as_vector, _categorical_order, _code, joint_counts
from ._inference import kappa_standard_error
from ._linearization import cell_influence
from ._validation import (
    _short,
    check_confidence,
    check_label_order,
    check_zero_division,
    finish,
    finish_interval,
)
from ._weights import resolve_weights
from .results import ClusteredKappa

__all__ = ["clustered_kappa", "group_codes", "pair_codes"]


def pair_codes(y1, y2, labels, name):
    """``(a, b, order, source)``: each case's row and column position in the confusion
    matrix that :func:`confusion_matrix` builds from ``y1``, ``y2`` and ``labels`` (-1 for a
    case with a label outside ``labels``), the labels in order, and where the order came from
    ("given", "numbers" or "spelling")."""
    source = "given"
    if labels is None:
        orders = [o for o in (_categorical_order(y, n) for y, n in ((y1, "y1"), (y2, "y2"))) if o]
        if len(orders) == 2 and orders[0] != orders[1]:
            raise ValueError(
                f"y1 and y2 are ordered Categoricals with different categories "
                f"({_short(orders[0], 40)} and {_short(orders[1], 40)}); give both the same "
                "categories, or pass labels=[...]"
            )
        if orders:
            labels = orders[0]
        else:
            source = None
    names = ("y1", "y2")
    together = "y1 and y2" if labels is None else "y1, y2 and labels"
    vectors = [_as_vector(y, n, together) for y, n in zip((y1, y2), names, strict=True)]
    if vectors[0][0].shape[0] != vectors[1][0].shape[0]:
        raise ValueError(
            f"y1 and y2 must have the same length, got {vectors[0][0].shape[0]} and "
            f"{vectors[1][0].shape[0]}"
        )
    # the same checks, order and kinds as confusion_matrix (one joint count)
    _, order, kind = joint_counts(vectors, names, labels, together=together)
    if source is None:
        source = "numbers" if kind == "number" else "spelling"
    position = {x: i for i, x in enumerate(order)}
    out = []
    for (arr, k), n in zip(vectors, names, strict=True):
        values, _, encode = _code(arr, k, n, together)
        remap = np.array([position.get(x, -1) for x in values], dtype=np.intp)
        out.append(encode(remap)(slice(0, arr.shape[0])))
    return out[0], out[1], order, source


def group_codes(groups, n, name):
    """``(codes, names)``: each case's group as 0 .. G-1 and the groups' names, in sorted
    order (first-seen order for values that do not sort)."""
    try:
        arr = np.asarray(groups)
    except Exception as exc:
        raise TypeError(
            f"{name} must be a 1-D sequence of ids, got {_short(groups)} ({exc})"
        ) from None
    if arr.ndim != 1 or arr.shape[0] != n:
        raise ValueError(
            f"{name} must give one id per case ({n}), got shape {arr.shape}: {_short(groups)}"
        )
    if arr.dtype.kind == "f" and np.isnan(arr).any():
        i = int(np.argmax(np.isnan(arr)))
        raise ValueError(f"{name} must not be missing, got NaN at position {i}")
    if arr.dtype.kind in "biufUS":
        uniq, codes = np.unique(arr, return_inverse=True)
        names = [v.item() if isinstance(v, np.generic) else v for v in uniq]
        return codes.reshape(-1).astype(np.intp), names
    items = arr.tolist()
    for i, v in enumerate(items):
        if v is None or (isinstance(v, float) and math.isnan(v)):
            raise ValueError(f"{name} must not be missing, got {v!r} at position {i}")
    try:
        names = sorted(set(items))
    except TypeError:
        names = list(dict.fromkeys(items))
    where = {v: i for i, v in enumerate(names)}
    return np.fromiter(map(where.__getitem__, items), dtype=np.intp, count=n), names


def cluster_tables(y1, y2, clusters, labels, name):
    """``(S of shape (G, K, K), order, source)``: one confusion matrix per cluster, cases
    with a label outside ``labels`` left out, by one bincount."""
    a, b, order, source = pair_codes(y1, y2, labels, name)
    g, names = group_codes(clusters, a.shape[0], "clusters")
    keep = (a >= 0) & (b >= 0)
    K, G = len(order), len(names)
    flat = (g[keep] * K + a[keep]) * K + b[keep]
    S = np.bincount(flat, minlength=G * K * K).reshape(G, K, K).astype(np.float64)
    return S, order, source, names


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
    check_method(method)
    if method != "analytic":
        n_resamples = _check_n_resamples(n_resamples)
    S, order, source, _ = cluster_tables(y1, y2, clusters, labels, "clustered_kappa")
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
    text = _method_text(method).replace("over units", "over clusters")
    if psi is None:
        message = "kappa is undefined (0/0): both raters put every case in the same single class"
        none = finish(np.nan, True, zero_division, message)
        ci = finish_interval(np.nan, np.nan, True, zero_division, message)
        return ClusteredKappa(none, none, ci, confidence, text, none, N, G, weighting)
    naive = kappa_standard_error(C, weighting=W)
    if method == "analytic":
        Psi = np.einsum("gab,ab->g", S, psi)
        se = math.sqrt(G / (G - 1.0) * float(Psi @ Psi)) / N
        ci = _wald(k, se, confidence, 1.0)
        text = "cluster-robust delta method (Wald)"
    else:
        rows, m = np.unique(S.reshape(G, K * K), axis=0, return_counts=True)
        m = m.astype(np.float64)

        def stat(Wt):
            Wt = np.atleast_2d(Wt)
            return batched_kappa((Wt @ rows).reshape(-1, K, K), W)

        boot = chunked(stat, m, n_resamples, _rng(rng))
        se = _sd(boot)
        ci = _interval(k, boot, confidence, method, lambda: _jackknife(m, stat))
    deff = None if se is None or not naive > 0 else (se / naive) ** 2
    return ClusteredKappa(k, se, _ci(ci), confidence, text, deff, N, G, weighting)
