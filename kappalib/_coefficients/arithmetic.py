"""Shared arithmetic of the coefficients: margins, scale-free counts, agreement weights.

Every function here takes validated float64 arrays (``_input.matrix`` checks, this module
only computes) of shape ``(..., K, K)`` and works on stacks.  Symbols: ``C`` the confusion
matrix, ``N`` its total, ``r`` and ``c`` its row and column totals, ``W`` disagreement
weights and ``w = 1 - W / max(W)`` the agreement weights of Gwet and of Fleiss, Cohen &
Everitt (1969).
"""

from __future__ import annotations

import numpy as np

from .._input.weights import resolve_weights


# einsum rather than .sum(axis=...): on a stack of many small matrices it is several times
# faster, and these few lines are the whole hot path of a batched call.
def margins(C):
    N = np.einsum("...ij->...", C)
    r = np.einsum("...ij->...i", C)
    c = np.einsum("...ij->...j", C)
    return N, r, c


def trace(C):
    return np.einsum("...ii->...", C)


def dot(u, v):
    """sum_k u_k v_k over the last axis, for stacks."""
    return np.einsum("...i,...i->...", u, v)


def others(v):
    """sum_{j != k} v_j for each k, summed directly (no N - v_k cancellation)."""
    K = v.shape[-1]
    return np.einsum("...j,jk->...k", v, 1.0 - np.eye(K))


def ratio(num, den):
    """num / den with 0 where den == 0 (the caller marks those as undefined)."""
    num = np.asarray(num, dtype=np.float64)
    den = np.asarray(den, dtype=np.float64)
    out = np.zeros(np.broadcast(num, den).shape)
    np.divide(num, den, out=out, where=den != 0)
    return out


def scale_free(C: np.ndarray) -> np.ndarray:
    """C times a power of two per matrix, so that every total lies in [0.5, 1).

    For a statistic that does not change when C is multiplied by a constant.  A power of
    two is exact in floating point, and products of margins then neither overflow (counts
    of 1e154 and more) nor underflow (1e-154 and less).  Applied only when some total lies
    outside [2^-200, 2^200], so ordinary counts are left as they are.
    """
    N = np.einsum("...ij->...", C)
    if N.min() >= 2.0**-200 and N.max() <= 2.0**200:
        return C
    _, e = np.frexp(N)
    return np.ldexp(C, -e[..., None, None])


def agreement_weights(W: np.ndarray | None, K: int) -> np.ndarray:
    """Agreement weights ``w = 1 - W / max(W)`` (the identity when ``W`` is None)."""
    if W is None:
        return np.eye(K)
    top = W.max() if W.size and W.max() > 0 else 1.0
    return 1.0 - W / top


def checked_agreement_weights(weighting, K, scores, name):
    """Gwet's agreement weights w = 1 - W / max(W) from kappalib's disagreement weights."""
    if K < 2:
        raise ValueError(f"{name} needs at least 2 categories, got {K}")
    return agreement_weights(resolve_weights(weighting, K, scores), K)
