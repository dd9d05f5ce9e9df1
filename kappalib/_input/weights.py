"""Disagreement weights for weighted kappa.

A weight matrix ``W`` charges each cell of the confusion matrix for the disagreement it
records: ``W[i, j]`` is the cost of reference class ``i`` being rated as class ``j``.  The
diagonal costs nothing.  Unweighted kappa is the special case ``W = 1 - I``.

Distances are measured between **positions in the label order** (0, 1, ..., K-1), or between
the ``scores`` given for the labels, never between the label values themselves.
"""

from __future__ import annotations

from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

from .._shared.messages import short

__all__ = ["disagreement_weights"]


Weighting = Literal["linear", "quadratic"] | None


def _check_scores(scores, K):
    arr = np.asarray(scores)
    if (
        arr.dtype == object
        or not np.issubdtype(arr.dtype, np.number)
        or np.issubdtype(arr.dtype, np.complexfloating)
    ):
        raise TypeError(f"scores must be real numbers, one per label, got {short(scores)}")
    arr = arr.astype(np.float64)
    if arr.ndim != 1 or arr.shape[0] != K:
        raise ValueError(
            f"scores must be a 1-D sequence with one value per label (K = {K}), "
            f"got shape {arr.shape}: {short(scores)}"
        )
    if not np.isfinite(arr).all():
        raise ValueError(f"scores must be finite, got {short(scores)}")
    if len(np.unique(arr)) != K:
        raise ValueError(f"scores must give each label a different value, got {short(scores)}")
    return arr


def disagreement_weights(
    n_classes: int,
    weighting: Literal["linear", "quadratic"] | None = None,
    *,
    scores: ArrayLike | None = None,
) -> np.ndarray:
    r"""The (K, K) disagreement-weight matrix that :func:`kappa` uses, K = ``n_classes``.

    .. math::

        W^{\text{none}}_{ij} = [i \ne j], \qquad
        W^{\text{linear}}_{ij} = |s_i - s_j|, \qquad
        W^{\text{quadratic}}_{ij} = (s_i - s_j)^2,

    where :math:`s_i = i` (the position in the label order) unless ``scores`` are given.

    Parameters
    ----------
    n_classes : int
        The number of classes K, at least 2.
    weighting : {None, "linear", "quadratic"}
        ``None`` gives the unweighted ``1 - I``; the name every other function uses.
    scores : array-like of shape (K,), optional
        A numeric value per label, in label order, for categories that are not evenly spaced.
        Only used with ``"linear"`` or ``"quadratic"``.

    Returns
    -------
    W : ndarray of shape (K, K)
        Zero diagonal, non-negative, symmetric.

    Raises
    ------
    ValueError
        If ``n_classes`` is below 2, ``weighting`` is unknown, or ``scores`` has the wrong
        length, is not finite, or repeats a value.

    References
    ----------
    Cohen, J. (1968). Weighted kappa. *Psychological Bulletin* 70(4), 213-220.

    Examples
    --------
    The three schemes for the three-point scale of the CohenKappa.Score example:

    >>> import kappalib as kl
    >>> kl.disagreement_weights(3, "quadratic")
    array([[0., 1., 4.],
           [1., 0., 1.],
           [4., 1., 0.]])
    >>> kl.disagreement_weights(3, "linear", scores=[1, 2, 5])
    array([[0., 1., 4.],
           [1., 0., 3.],
           [4., 3., 0.]])
    """
    K = n_classes
    if isinstance(K, bool) or not isinstance(K, (int, np.integer)) or K < 2:
        raise ValueError(f"n_classes must be an integer of at least 2, got {K!r}")
    K = int(K)
    if weighting is None:
        if scores is not None:
            raise ValueError(
                "scores only apply to weighting='linear' or 'quadratic', got weighting=None "
                f"with scores={short(scores)}"
            )
        return 1.0 - np.eye(K)
    if not isinstance(weighting, str) or weighting not in ("linear", "quadratic"):
        raise ValueError(f"weighting must be None, 'linear' or 'quadratic', got {weighting!r}")
    s = np.arange(K, dtype=np.float64) if scores is None else _check_scores(scores, K)
    d = np.abs(s[:, None] - s[None, :])
    return d if weighting == "linear" else d * d


def resolve_weights(weighting, K, scores=None):
    """Turn the ``weighting`` argument into a validated (K, K) matrix, or None (unweighted)."""
    if weighting is None:
        if scores is not None:
            raise ValueError(
                "scores only apply to weighting='linear' or 'quadratic', got weighting=None "
                f"with scores={short(scores)}"
            )
        return None
    if isinstance(weighting, str):
        if weighting not in ("linear", "quadratic"):
            raise ValueError(
                "weighting must be None, 'linear', 'quadratic' or a (K, K) array, "
                f"got {weighting!r}"
            )
        if K < 2:
            return np.zeros((K, K))
        return disagreement_weights(K, weighting, scores=scores)
    if scores is not None:
        raise ValueError(
            "scores only apply to weighting='linear' or 'quadratic'; a custom weight matrix "
            "already fixes the distances"
        )
    try:
        W = np.asarray(weighting)
    except Exception:
        W = np.asarray([], dtype=object)
    if W.dtype == object or not (np.issubdtype(W.dtype, np.number) or W.dtype == np.bool_):
        raise TypeError(
            "weighting must be None, 'linear', 'quadratic' or a (K, K) array, "
            f"got {short(weighting)}"
        )
    W = W.astype(np.float64)
    if W.shape != (K, K):
        raise ValueError(
            f"weighting must be a ({K}, {K}) disagreement-weight matrix to match the "
            f"{K} classes, got shape {W.shape}"
        )
    if not np.isfinite(W).all():
        raise ValueError(f"weighting must contain only finite weights, got {short(W.tolist())}")
    if (W < 0).any():
        raise ValueError(
            f"weighting must contain non-negative disagreement weights, got {short(W.tolist())}"
        )
    diag = np.diag(W)
    if (diag != 0).any():
        if np.all(diag == 1):
            raise ValueError(
                "weighting has ones on its diagonal, so it looks like agreement weights; "
                "kappalib takes disagreement weights with a zero diagonal, so pass 1 - W, "
                f"got {short(W.tolist())}"
            )
        raise ValueError(
            "weighting must have a zero diagonal (agreeing costs nothing), "
            f"got diagonal {short(diag.tolist())}"
        )
    if K >= 2 and not (W > 0).any():
        raise ValueError("weighting must charge at least one disagreement, got an all-zero matrix")
    return W
