r"""Bangdiwala's agreement statistic B and its weighted form (Bangdiwala 1985), the numbers
behind the agreement chart (:func:`kappalib.plotting.agreement_chart`; vcd's
``agreementplot``).  Its interval is in :mod:`kappalib._uncertainty.bangdiwala_interval`.

Symbols: ``C`` the K x K table, ``r_i`` and ``c_i`` its row and column totals.  The chart
draws, for each category, an ``r_i`` x ``c_i`` rectangle (the agreement possible given the
margins) and inside it a square of side ``C_ii`` (the exact agreement); B is the shaded area
over the rectangles' area.  Partial agreement adds bands: for a distance ``d``, the
rectangle of the column's cases within ``d`` categories of ``i`` by the row's cases within
``d`` of ``i``, weighted by the agreement weight ``w_d``.
"""

from __future__ import annotations

from typing import Any, overload

import numpy as np
from numpy.typing import ArrayLike

from .._input.matrix import OneMatrix, as_matrix, matrix_function
from .._input.weights import resolve_weights
from .._shared.policy import check_zero_division, finish

__all__ = ["UNDEFINED", "band_weights", "bangdiwala_b", "bangdiwala_parts"]

UNDEFINED = (
    "Bangdiwala's B is undefined (0/0): no category has cases in both its row and its column, "
    "so the rectangles of the agreement chart have no area"
)


def band_weights(weighting: Any, K: int) -> np.ndarray:
    """The agreement weight of each distance 0..K-1 from a disagreement weighting that
    depends on the distance alone (``1 - W[0, d] / max W``), or one sentence."""
    W = resolve_weights(weighting, K)
    if W is None:
        w = np.zeros(K)
        w[0] = 1.0
        return w
    top = float(W.max())
    if top > 0:
        W = W / top
    i, j = np.indices((K, K))
    by_distance = W[0, np.abs(i - j)]
    if not np.allclose(W, by_distance, rtol=0, atol=1e-12):
        raise ValueError(
            "weighting must depend on the distance between categories alone for Bangdiwala's "
            "B (its partial agreement is a band around the diagonal), got a matrix whose "
            f"entries differ along a diagonal: {np.round(W, 4).tolist()!r}"
        )
    return 1.0 - W[0]


def bangdiwala_parts(C: np.ndarray, w: np.ndarray):
    """(numerator, denominator) of B for a stack of probability tables, and their gradients
    in the cells (the delta method's ingredients)."""
    K = C.shape[-1]
    r = C.sum(axis=-1)
    c = C.sum(axis=-2)
    den = np.einsum("...i,...i->...", r, c)
    v = w - np.append(w[1:], 0.0)  # weight of each band (the rectangles are nested)
    i, j = np.indices((K, K))
    num = np.zeros(C.shape[:-2])
    d_num = np.zeros(C.shape)
    for d in range(K):
        if v[d] == 0.0:
            continue
        band = (np.abs(i - j) <= d).astype(np.float64)
        col = np.einsum("...ri,ri->...i", C, band)  # column i's cases within d of i
        row = np.einsum("...ic,ic->...i", C, band)  # row i's cases within d of i
        num = num + v[d] * np.einsum("...i,...i->...", col, row)
        # d/dC[a, b]: C[a, b] sits in column b's band (times row b's) and in row a's band
        d_num = d_num + v[d] * band * (row[..., None, :] + col[..., :, None])
    d_den = c[..., :, None] + r[..., None, :]
    return num, den, d_num, d_den


@overload
def bangdiwala_b(
    C: OneMatrix,
    *,
    weighting: str | ArrayLike | None = ...,
    zero_division: str | float | None = ...,
) -> float | None: ...


@overload
def bangdiwala_b(
    C: ArrayLike,
    *,
    weighting: str | ArrayLike | None = ...,
    zero_division: str | float | None = ...,
) -> float | np.ndarray | None: ...


@matrix_function
def bangdiwala_b(
    C: ArrayLike,
    *,
    weighting: str | ArrayLike | None = None,
    zero_division: str | float | None = None,
) -> float | np.ndarray | None:
    r"""Bangdiwala's agreement statistic B (Bangdiwala 1985), or its weighted form.

    .. math::

        B = \frac{\sum_i C_{ii}^2}{\sum_i r_i c_i}, \qquad
        B^w = \frac{\sum_i \sum_{d} (w_d - w_{d+1})\,
                    \big(\sum_{|k-i| \le d} C_{ki}\big)\big(\sum_{|k-i| \le d} C_{ik}\big)}
                   {\sum_i r_i c_i},

    the share of the agreement chart's rectangles (``r_i`` by ``c_i``) that the agreement
    squares fill; the weighted form adds, for each distance ``d``, the band of cases within
    ``d`` categories of the diagonal with agreement weight :math:`w_d` (vcd's
    ``agreementplot``, whose ``Bangdiwala_Weighted`` it reproduces).  B is 1 for perfect
    agreement and 0 when no case lies on the diagonal; unlike kappa it makes no correction
    for chance.

    Parameters
    ----------
    C : array-like of shape (K, K) or (..., K, K)
        Counts; rows = rater 1, columns = rater 2.
    weighting : {None, "linear", "quadratic"} or array-like of shape (K, K)
        Disagreement weights that depend on the distance ``|i - j|`` alone; the agreement
        weight of distance ``d`` is :math:`w_d = 1 - W_{0d}/\max W`.  vcd's default
        (``weights = c(1, 1 - 1/(K-1)^2)``: partial credit for neighbours only) is
        ``kl.disagreement_weights(K, "quadratic") / (K - 1)**2`` with every distance beyond
        1 set to 1.
    zero_division : {None, "raise"} or float
        Policy when B is 0/0 (no category has cases in both its row and its column).

    Returns
    -------
    float or None, or ndarray of shape (...)

    Raises
    ------
    ValueError, TypeError
        On an invalid matrix, or a weighting that is not a function of the distance alone.

    References
    ----------
    Bangdiwala, S. I. (1985). A graphical test for observer agreement. *Proceedings of the
    45th Session of the International Statistical Institute*, Amsterdam, 1, 307-308.
    Friendly, M. & Meyer, D. (2016). *Discrete Data Analysis with R*, section 4.5.
    Chapman & Hall.

    Examples
    --------
    The kappa explainer's table: B = (64 + 81) / (10 * 9 + 10 * 11).

    >>> import kappalib as kl
    >>> round(kl.bangdiwala_b([[8, 2], [1, 9]]), 4)
    0.725
    """
    zero_division = check_zero_division(zero_division)
    C = as_matrix(C)
    w = band_weights(weighting, C.shape[-1])
    num, den, _, _ = bangdiwala_parts(C, w)
    undefined = den <= 0
    with np.errstate(all="ignore"):
        value = np.where(undefined, 0.0, num / np.where(undefined, 1.0, den))
    return finish(value, undefined, zero_division, UNDEFINED)
