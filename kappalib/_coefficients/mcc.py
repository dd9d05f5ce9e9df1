r"""The Matthews correlation coefficient, in Gorodkin's K-category form.

With ``N`` cases, diagonal sum ``t = trace(C)``, row totals ``r`` (reference) and column
totals ``c`` (prediction), Gorodkin (2004) gives

    R_K = (N t - sum_k r_k c_k) / sqrt((N^2 - sum_k r_k^2) (N^2 - sum_k c_k^2)),

which for K = 2 and C = [[a, b], [c, d]] is Matthews' (ad - bc) / sqrt((a+b)(a+c)(b+d)(c+d)).
The numerator is the same as kappa's: both vanish together.
"""

from __future__ import annotations

from typing import overload

import numpy as np
from numpy.typing import ArrayLike

from .._input.matrix import OneMatrix, as_matrix, matrix_function
from .._shared.policy import finish
from .arithmetic import dot, others, ratio, scale_free
from .kappa import chance_parts

__all__ = ["mcc"]


@overload
def mcc(C: OneMatrix, *, zero_division: str | float | None = ...) -> float | None: ...


@overload
def mcc(C: ArrayLike, *, zero_division: str | float | None = ...) -> float | np.ndarray | None: ...


@matrix_function
def mcc(C: ArrayLike, *, zero_division: str | float | None = None) -> float | np.ndarray | None:
    r"""Matthews correlation coefficient (Gorodkin's :math:`R_K`) of a confusion matrix.

    .. math::

        \mathrm{MCC} = \frac{N \sum_k C_{kk} - \sum_k r_k c_k}
                            {\sqrt{\left(N^2 - \sum_k r_k^2\right)\left(N^2 - \sum_k c_k^2\right)}}

    For K = 2 and ``C = [[a, b], [c, d]]`` this is
    :math:`(ad - bc)/\sqrt{(a+b)(a+c)(b+d)(c+d)}`, Pearson's correlation of the two 0/1
    label vectors.

    Parameters
    ----------
    C : array-like of shape (K, K) or (..., K, K)
        Confusion matrix; rows are the reference, columns the prediction.
    zero_division : {None, "raise"} or float
        What to return when MCC is 0/0 (see Notes).

    Returns
    -------
    mcc : float, None, or ndarray of shape (...)
        In [-1, 1].

    Raises
    ------
    ValueError, TypeError
        On an invalid matrix.
    UndefinedMetricError
        If MCC is undefined and ``zero_division="raise"``.

    Notes
    -----
    MCC is undefined (0/0) when either rater puts every case in one class, so that one of
    the two variances is zero.  scikit-learn returns 0.0 there; kappalib returns ``None``
    for one matrix and NaN inside a stack, unless ``zero_division`` says otherwise.

    References
    ----------
    Matthews, B. W. (1975). Comparison of the predicted and observed secondary structure of
    T4 phage lysozyme.
    Gorodkin, J. (2004). Comparing two K-category assignments by a K-category correlation
    coefficient.

    Examples
    --------
    The kappa explainer's table: (8*9 - 2*1) / sqrt(10 * 9 * 10 * 11).

    >>> import kappalib as kl
    >>> round(kl.mcc([[8, 2], [1, 9]]), 6)
    0.703526

    The Z_A family of Delgado & Tibau (2019) at N = 2, A = 1 (all ones): no correlation.

    >>> kl.mcc([[1, 1], [1, 1]])
    0.0
    """
    C = scale_free(as_matrix(C))
    # N^2 - sum_k r_k^2 = sum_k r_k sum_{j != k} r_j: the same value with no cancellation
    _, r, c, num, _ = chance_parts(C)
    var_ref = dot(r, others(r))
    var_pred = dot(c, others(c))
    # C is scale-free (N in [0.5, 1) when counts are extreme), so the product of the two
    # variances cannot overflow; where it underflows (variances below ~1e-154) take the
    # square roots one by one
    var_ref = np.maximum(var_ref, 0.0)
    var_pred = np.maximum(var_pred, 0.0)
    product = var_ref * var_pred
    den = np.sqrt(product)
    tiny = (product < 2.0**-1000) & (var_ref > 0) & (var_pred > 0)
    if np.any(tiny):
        den = np.where(tiny, np.sqrt(var_ref) * np.sqrt(var_pred), den)
    undefined = (var_ref <= 0) | (var_pred <= 0)
    value = np.clip(ratio(num, np.where(undefined, 0.0, den)), -1.0, 1.0)
    return finish(
        value,
        undefined,
        zero_division,
        "MCC is undefined (0/0): one rater puts every case in a single class, so its "
        "variance is zero",
    )
