"""Disagreement weights for weighted kappa.

A weight matrix ``W`` charges each cell of the confusion matrix for the disagreement it
records: ``W[i, j]`` is the cost of reference class ``i`` being rated as class ``j``.  The
diagonal costs nothing.  Unweighted kappa is the special case ``W = 1 - I``.

Distances are measured between **positions in the label order** (0, 1, ..., K-1), or between
the ``scores`` given for the labels, never between the label values themselves.

Besides ``"linear"`` and ``"quadratic"``, the named schemes of Gwet (2014, ch. 3), which
irrCAC offers (``ordinal``, ``radical``, ``ratio``, ``circular``, ``bipolar``), are distances
of the same kind: :data:`NAMED` lists them.  ``"ratio"`` measures from a true zero, so its
positions count from 1 (irrCAC numbers categories that are not numbers 1, 2, ..., K), and
``"ordinal"`` counts categories, so it takes no scores.
"""

from __future__ import annotations

from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

from .._shared.messages import short

__all__ = ["disagreement_weights"]

__all__ = ["NAMED", "disagreement_weights", "resolve_weights"]

Weighting = Literal["linear", "quadratic", "ordinal", "radical", "ratio", "circular", "bipolar"]
# every named scheme, in the order the error messages list them
NAMED = ("linear", "quadratic", "ordinal", "radical", "ratio", "circular", "bipolar")
_NAMES_TEXT = "None, " + ", ".join(repr(n) for n in NAMED)


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


def _named(weighting, K, scores):
    """The (K, K) disagreement weights of a named scheme (Gwet 2014, ch. 3; irrCAC's
    ``Weights``), before any scaling: kappa and the agreement weights ``1 - W / max W`` of
    Gwet's coefficients do not depend on the scale."""
    if weighting == "ordinal":
        if scores is not None:
            raise ValueError(
                "weighting='ordinal' counts the categories from one position to another "
                f"(Gwet 2014), so it takes no scores, got scores={short(scores)}"
            )
        n = np.abs(np.arange(K)[:, None] - np.arange(K)[None, :]).astype(np.float64)
        return n * (n + 1.0) / 2.0  # C(|i - j| + 1, 2): the pairs among the categories spanned
    if scores is None:
        s = np.arange(K, dtype=np.float64) + (1.0 if weighting == "ratio" else 0.0)
    else:
        s = _check_scores(scores, K)
    d = s[:, None] - s[None, :]
    if weighting == "linear":
        return np.abs(d)
    if weighting == "quadratic":
        return d * d
    if weighting == "radical":
        return np.sqrt(np.abs(d))
    if weighting == "circular":
        U = s.max() - s.min() + 1.0  # the values on the circle (Krippendorff; Gwet 2014)
        return np.sin(np.pi * d / U) ** 2
    total = s[:, None] + s[None, :]
    if weighting == "ratio":
        if (s < 0).any():
            raise ValueError(
                "weighting='ratio' measures ratios from a true zero and needs non-negative "
                f"scores, got {short(s.tolist())}"
            )
        out = np.zeros((K, K))
        np.divide(d, total, out=out, where=total != 0)
        return out * out
    # bipolar: (s_i - s_j)^2 / ((s_i + s_j - 2 min)(2 max - s_i - s_j)), 0 on the diagonal;
    # the denominator is 0 only for i = j at an end of the scale
    den = (total - 2.0 * s.min()) * (2.0 * s.max() - total)
    out = np.zeros((K, K))
    off = ~np.eye(K, dtype=bool)
    np.divide(d * d, den, out=out, where=off & (den != 0))
    return out


def disagreement_weights(
    n_classes: int,
    weighting: Weighting | None = None,
    *,
    scores: ArrayLike | None = None,
) -> np.ndarray:
    r"""The (K, K) disagreement-weight matrix that :func:`kappa` uses, K = ``n_classes``.

    .. math::

        W^{\text{none}}_{ij} = [i \ne j], \qquad
        W^{\text{linear}}_{ij} = |s_i - s_j|, \qquad
        W^{\text{quadratic}}_{ij} = (s_i - s_j)^2,

    where :math:`s_i = i` (the position in the label order) unless ``scores`` are given,
    and Gwet's (2014, ch. 3) named schemes, which irrCAC offers:

    .. math::

        W^{\text{ordinal}}_{ij} = \binom{|i - j| + 1}{2}, \qquad
        W^{\text{radical}}_{ij} = \sqrt{|s_i - s_j|}, \qquad
        W^{\text{ratio}}_{ij} = \left(\frac{s_i - s_j}{s_i + s_j}\right)^2,

        W^{\text{circular}}_{ij} = \sin^2\frac{\pi (s_i - s_j)}{s_{\max} - s_{\min} + 1},
        \qquad
        W^{\text{bipolar}}_{ij} = \frac{(s_i - s_j)^2}
            {(s_i + s_j - 2 s_{\min})(2 s_{\max} - s_i - s_j)} \; (i \ne j).

    ``"ordinal"`` counts the categories spanned (positions only, no scores); ``"ratio"``
    measures from a true zero, so its default positions are :math:`s_i = i + 1` (1 to K, as
    irrCAC numbers categories that are not numbers) and its scores must not be negative.
    Weighted kappa, and Gwet's agreement weights :math:`1 - W/\max W`, do not depend on the
    scale of :math:`W`, so these are irrCAC's weights up to a factor.

    Parameters
    ----------
    n_classes : int
        The number of classes K, at least 2.
    weighting : {None, "linear", "quadratic", "ordinal", "radical", "ratio", "circular", "bipolar"}
        ``None`` gives the unweighted ``1 - I``; the name every other function uses.
    scores : array-like of shape (K,), optional
        A numeric value per label, in label order, for categories that are not evenly spaced.
        For every named scheme but ``"ordinal"``.

    Returns
    -------
    W : ndarray of shape (K, K)
        Zero diagonal, non-negative, symmetric.

    Raises
    ------
    ValueError
        If ``n_classes`` is below 2, ``weighting`` is unknown, or ``scores`` has the wrong
        length, is not finite, or repeats a value (negative, for ``"ratio"``; any, for
        ``"ordinal"``).

    References
    ----------
    Cohen, J. (1968). Weighted kappa. *Psychological Bulletin* 70(4), 213-220.
    Gwet, K. L. (2014). *Handbook of Inter-Rater Reliability*, 4th ed., ch. 3.

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

    Gwet's ordinal weights count the categories spanned; circular weights put the first and
    the last category next to each other (a four-point compass):

    >>> kl.disagreement_weights(4, "ordinal")
    array([[0., 1., 3., 6.],
           [1., 0., 1., 3.],
           [3., 1., 0., 1.],
           [6., 3., 1., 0.]])
    >>> kl.disagreement_weights(4, "circular").round(3)
    array([[0. , 0.5, 1. , 0.5],
           [0.5, 0. , 0.5, 1. ],
           [1. , 0.5, 0. , 0.5],
           [0.5, 1. , 0.5, 0. ]])
    """
    K = n_classes
    if isinstance(K, bool) or not isinstance(K, (int, np.integer)) or K < 2:
        raise ValueError(f"n_classes must be an integer of at least 2, got {K!r}")
    K = int(K)
    if weighting is None:
        if scores is not None:
            raise ValueError(
                "scores only apply to a named weighting such as 'linear' or 'quadratic', got "
                f"weighting=None with scores={short(scores)}"
            )
        return 1.0 - np.eye(K)
    if not isinstance(weighting, str) or weighting not in NAMED:
        raise ValueError(f"weighting must be {_NAMES_TEXT}, got {weighting!r}")
    return _named(weighting, K, scores)


def resolve_weights(weighting, K, scores=None):
    """Turn the ``weighting`` argument into a validated (K, K) matrix, or None (unweighted)."""
    if weighting is None:
        if scores is not None:
            raise ValueError(
                "scores only apply to a named weighting such as 'linear' or 'quadratic', got "
                f"weighting=None with scores={short(scores)}"
            )
        return None
    if isinstance(weighting, str):
        if weighting not in NAMED:
            raise ValueError(
                f"weighting must be {_NAMES_TEXT} or a (K, K) array, got {weighting!r}"
            )
        if K < 2:
            return np.zeros((K, K))
        return _named(weighting, K, scores)
    if scores is not None:
        raise ValueError(
            "scores only apply to a named weighting such as 'linear' or 'quadratic'; a custom "
            "weight matrix already fixes the distances"
        )
    try:
        W = np.asarray(weighting)
    except Exception:
        W = np.asarray([], dtype=object)
    if W.dtype == object or not (np.issubdtype(W.dtype, np.number) or W.dtype == np.bool_):
        raise TypeError(
            f"weighting must be {_NAMES_TEXT} or a (K, K) array, got {short(weighting)}"
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
