r"""The two matrix diagnostics of Delgado & Tibau (2019), Section 5.

* ``Asy(C) = ||C - C^T||_F``, the Frobenius norm of the antisymmetric part (times 2).
* ``Ent(C) = -sum_i p_i log_b p_i`` over the off-diagonal cells, with
  ``p_i = n_i / sum(n)`` and zero cells skipped (0 log 0 = 0); base 2 by default.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from .._input.matrix import as_matrix, matrix_function
from .._shared.messages import short
from .._shared.policy import finish, to_float
from .arithmetic import scale_free

__all__ = ["asymmetry", "off_diagonal_entropy"]


@matrix_function
def asymmetry(C: ArrayLike) -> float | np.ndarray:
    r"""Asymmetry of a square matrix: the Frobenius norm of :math:`C - C^T`.

    .. math:: \mathrm{Asy}(C) = \lVert C - C^T \rVert_F
              = \sqrt{\sum_{i,j} (C_{ij} - C_{ji})^2}

    Parameters
    ----------
    C : array-like of shape (K, K) or (..., K, K)

    Returns
    -------
    asy : float or ndarray of shape (...)
        Zero exactly when ``C`` is symmetric.

    Raises
    ------
    ValueError, TypeError
        On an invalid matrix.

    References
    ----------
    Delgado, R. & Tibau, X.-A. (2019). Why Cohen's Kappa should be avoided as performance
    measure in classification. PLoS ONE 14(9): e0222916.

    Examples
    --------
    The paper's M1(A) = [[1, 2A, A], [A, 1, 2A], [A, A, 1]] has Asy = 2A; here A = 3.

    >>> import kappalib as kl
    >>> kl.asymmetry([[1, 6, 3], [3, 1, 6], [3, 3, 1]])
    6.0
    """
    C = as_matrix(C)
    # Asy scales with C: compute it on C / 2^e (exact), so that D * D neither overflows nor
    # underflows, then scale back
    S = scale_free(C)
    D = S - np.swapaxes(S, -1, -2)
    value = np.sqrt((D * D).sum(axis=(-2, -1)))
    if S is not C:
        _, e = np.frexp(np.einsum("...ij->...", C))
        value = np.ldexp(value, e)
    return to_float(value)


@matrix_function
def off_diagonal_entropy(
    C: ArrayLike, *, base: float = 2, zero_division: str | float | None = None
) -> float | np.ndarray | None:
    r"""Shannon entropy of the off-diagonal cells, taken as a probability distribution.

    .. math:: \mathrm{Ent}(C) = -\sum_{i \ne j} p_{ij} \log_b p_{ij}, \qquad
              p_{ij} = \frac{C_{ij}}{\sum_{k \ne l} C_{kl}},

    with zero cells skipped (:math:`0 \log 0 = 0`).

    Parameters
    ----------
    C : array-like of shape (K, K) or (..., K, K)
    base : float, default 2
        Base of the logarithm; 2 gives bits, as in the paper.
    zero_division : {None, "raise"} or float
        What to return when there is no off-diagonal mass (a perfect diagonal), where the
        distribution, and so its entropy, is undefined.

    Returns
    -------
    ent : float, None, or ndarray of shape (...)
        Between 0 and :math:`\log_b (K^2 - K)`.

    Raises
    ------
    ValueError, TypeError
        On an invalid matrix or base.

    References
    ----------
    Delgado, R. & Tibau, X.-A. (2019). Why Cohen's Kappa should be avoided as performance
    measure in classification. PLoS ONE 14(9): e0222916.

    Examples
    --------
    The paper's M1(A): off-diagonal cells {2A, A, A, 2A, A, A} give 2.5 bits for every A.

    >>> import kappalib as kl
    >>> kl.off_diagonal_entropy([[1, 2, 1], [1, 1, 2], [1, 1, 1]])
    2.5
    """
    if isinstance(base, bool) or not isinstance(base, (int, float, np.integer, np.floating)):
        raise TypeError(f"base must be a positive number other than 1, got {short(base)}")
    if not (np.isfinite(base) and base > 0 and base != 1):
        raise ValueError(f"base must be a positive number other than 1, got {base!r}")
    C = scale_free(as_matrix(C))
    K = C.shape[-1]
    off = ~np.eye(K, dtype=bool)
    n = C[..., off]  # shape (..., K*K - K)
    total = n.sum(axis=-1)
    undefined = total <= 0
    safe_total = np.where(undefined, 1.0, total)
    p = n / safe_total[..., None]
    logp = np.log(np.where(p > 0, p, 1.0))
    value = -(p * logp).sum(axis=-1) / np.log(base)
    value = np.maximum(value, 0.0) + 0.0  # no -0.0
    return finish(
        value,
        undefined,
        zero_division,
        "the off-diagonal entropy is undefined: C has no off-diagonal mass, so there is no "
        "distribution to take the entropy of",
    )
