r"""The interval of Bangdiwala's B: the delta method under multinomial sampling of the cases,
on the numerator and denominator of :mod:`kappalib._coefficients.bangdiwala`."""

from __future__ import annotations

from statistics import NormalDist
from typing import overload

import numpy as np
from numpy.typing import ArrayLike

from .._coefficients.bangdiwala import UNDEFINED, band_weights, bangdiwala_parts
from .._input.matrix import OneMatrix, as_matrix, counts_of_cases, matrix_function
from .._input.options import check_confidence
from .._shared.policy import check_zero_division
from ..results import ConfidenceInterval
from .intervals import finish_interval

__all__ = ["bangdiwala_confint"]


def _standard_error(C: np.ndarray, w: np.ndarray):
    N = C.sum(axis=(-2, -1))
    p = C / N[..., None, None]
    num, den, d_num, d_den = bangdiwala_parts(p, w)
    undefined = den <= 0
    safe = np.where(undefined, 1.0, den)
    B = num / safe
    g = (d_num - B[..., None, None] * d_den) / safe[..., None, None]
    mean = np.einsum("...ij,...ij->...", p, g)  # 0: B is homogeneous of degree 0
    var = np.einsum("...ij,...ij->...", p, g * g) - mean * mean
    return B, np.sqrt(np.maximum(var, 0.0) / N), undefined


@overload
def bangdiwala_confint(
    C: OneMatrix,
    *,
    weighting: str | ArrayLike | None = ...,
    confidence_level: float = ...,
    zero_division: str | float | None = ...,
) -> ConfidenceInterval[float | None]: ...


@overload
def bangdiwala_confint(
    C: ArrayLike,
    *,
    weighting: str | ArrayLike | None = ...,
    confidence_level: float = ...,
    zero_division: str | float | None = ...,
) -> ConfidenceInterval[float | None] | ConfidenceInterval[np.ndarray]: ...


@matrix_function
def bangdiwala_confint(
    C: ArrayLike,
    *,
    weighting: str | ArrayLike | None = None,
    confidence_level: float = 0.95,
    zero_division: str | float | None = None,
) -> ConfidenceInterval[float | None] | ConfidenceInterval[np.ndarray]:
    r"""The Wald interval of Bangdiwala's B: :math:`B \pm z\,\mathrm{se}`, cut to [0, 1].

    The standard error is the delta method's under multinomial sampling of the ``N`` cases:

    .. math::

        \mathrm{se}^2 = \frac1N\Big[\sum_{ij} p_{ij}\,g_{ij}^2
                        - \Big(\sum_{ij} p_{ij}\,g_{ij}\Big)^2\Big],
        \qquad g_{ij} = \frac{\partial B}{\partial p_{ij}},

    with :math:`p = C/N` (the second sum is 0: B does not change when every cell is scaled).

    Parameters
    ----------
    C : array-like of shape (K, K) or (..., K, K)
    weighting : as in :func:`bangdiwala_b`
    confidence_level : float, default 0.95
    zero_division : {None, "raise"} or float
        Policy for both ends when B is undefined.

    Returns
    -------
    ConfidenceInterval
        ``low`` and ``high``: floats (None where B is undefined) or arrays for a stack.

    Examples
    --------
    >>> import kappalib as kl
    >>> ci = kl.bangdiwala_confint([[8, 2], [1, 9]])
    >>> round(ci.low, 3), round(ci.high, 3)
    (0.462, 0.988)
    """
    level = check_confidence(confidence_level)
    zero_division = check_zero_division(zero_division)
    C = counts_of_cases(as_matrix(C), "bangdiwala_confint")
    w = band_weights(weighting, C.shape[-1])
    B, se, undefined = _standard_error(C, w)
    z = NormalDist().inv_cdf((1.0 + level) / 2.0)
    low = np.clip(B - z * se, 0.0, 1.0)
    high = np.clip(B + z * se, 0.0, 1.0)
    return finish_interval(low, high, undefined, zero_division, UNDEFINED)
