r"""Agreement statistics computed from a confusion matrix.

Symbols follow the course notation (``book/notation.md``) and Cohen (1960):

* ``C``: the K x K confusion matrix, rows = reference (rater 1), columns = prediction
  (rater 2); any stack ``(..., K, K)`` works too.
* ``N``: the number of cases, ``C.sum()``.
* ``r``, ``c``: row and column totals.
* ``p_o = trace(C) / N`` and ``p_e = sum_k r_k c_k / N^2``.
* ``W``: disagreement weights (zero diagonal) and ``E = r c^T / N``, the counts expected under
  independence with both margins kept.

Everything is accumulated in float64, so counts of 10^9 and more do not overflow.
"""

from __future__ import annotations

from typing import overload

import numpy as np
from numpy.typing import ArrayLike

from .._input.matrix import OneMatrix, as_matrix, check_class_count, matrix_function
from .._input.weights import resolve_weights
from .._shared.policy import finish, to_float
from .arithmetic import dot, margins, others, ratio, scale_free, trace

__all__ = [
    "bias_index",
    "expected_agreement",
    "expected_counts",
    "kappa",
    "kappa_max",
    "observed_agreement",
    "prevalence_index",
]


def chance_parts(C):
    """N, r, c and the numerator and denominator of unweighted kappa, multiplied by N^2.

    ``N tr(C) - sum_k r_k c_k`` and ``N^2 - sum_k r_k c_k`` are rewritten as

        num = sum_k r_k (sum_{j != k} C_jj - sum_{i != k} C_ik),
        den = sum_k r_k sum_{j != k} c_j,

    which are equal in exact arithmetic but never subtract two numbers of the size of N^2,
    so one dominant cell (counts of 10^9 next to counts of 1) does not wipe out the rest.
    """
    N, r, c = margins(C)
    K = C.shape[-1]
    off = 1.0 - np.eye(K)
    diag = np.einsum("...ii->...i", C)
    col_off = np.einsum("...ik,ik->...k", C, off)
    num = dot(r, others(diag) - col_off)
    den = dot(r, others(c))
    return N, r, c, num, den


@overload
def observed_agreement(C: OneMatrix) -> float: ...


@overload
def observed_agreement(C: ArrayLike) -> float | np.ndarray: ...


@matrix_function
def observed_agreement(C: ArrayLike) -> float | np.ndarray:
    r"""Observed agreement (raw agreement, accuracy): the diagonal share of the cases.

    .. math:: p_o = \frac{1}{N} \sum_k C_{kk}

    Parameters
    ----------
    C : array-like of shape (K, K) or (..., K, K)
        Confusion matrix of counts (or weighted counts); rows are the reference.

    Returns
    -------
    p_o : float or ndarray of shape (...)

    Raises
    ------
    ValueError, TypeError
        If ``C`` is not a valid matrix of non-negative counts with at least one case.

    References
    ----------
    Cohen, J. (1960). A coefficient of agreement for nominal scales.

    Examples
    --------
    The kappa explainer's table: 17 of the 20 cases lie on the diagonal.

    >>> import kappalib as kl
    >>> kl.observed_agreement([[8, 2], [1, 9]])
    0.85
    """
    C = scale_free(as_matrix(C))
    N, _, _ = margins(C)
    return to_float(trace(C) / N)


@overload
def expected_agreement(C: OneMatrix) -> float: ...


@overload
def expected_agreement(C: ArrayLike) -> float | np.ndarray: ...


@matrix_function
def expected_agreement(C: ArrayLike) -> float | np.ndarray:
    r"""Expected (chance) agreement: independent draws that keep both margins.

    .. math:: p_e = \sum_k \frac{r_k}{N}\,\frac{c_k}{N}

    Parameters
    ----------
    C : array-like of shape (K, K) or (..., K, K)
        Confusion matrix; rows are the reference.

    Returns
    -------
    p_e : float or ndarray of shape (...)

    Raises
    ------
    ValueError, TypeError
        If ``C`` is not a valid matrix of non-negative counts with at least one case.

    References
    ----------
    Cohen, J. (1960). A coefficient of agreement for nominal scales.

    Examples
    --------
    The kappa explainer's table: row shares 0.5/0.5 and column shares 0.45/0.55.

    >>> import kappalib as kl
    >>> kl.expected_agreement([[8, 2], [1, 9]])
    0.5
    """
    C = scale_free(as_matrix(C))
    N, r, c = margins(C)
    return to_float(dot(r, c) / (N * N))


def expected_counts_of(C):
    """E = r c^T / N for a valid float matrix or stack."""
    N, r, c = margins(C)
    return r[..., :, None] * (c / N[..., None])[..., None, :]  # c / N <= 1: no overflow


@matrix_function
def expected_counts(C: ArrayLike) -> np.ndarray:
    r"""The counts expected under independence with both marginals kept.

    .. math:: E_{ij} = \frac{r_i c_j}{N}

    ``E`` has the same row and column totals as ``C``; its diagonal sums to ``N p_e``, and
    weighted kappa compares ``sum(W * C)`` with ``sum(W * E)``.

    Parameters
    ----------
    C : array-like of shape (K, K) or (..., K, K)
        Confusion matrix; rows are the reference.

    Returns
    -------
    E : ndarray of the shape of ``C``

    Raises
    ------
    ValueError, TypeError
        If ``C`` is not a valid matrix of non-negative counts with at least one case.

    References
    ----------
    Cohen, J. (1968). Weighted kappa.

    Examples
    --------
    The kappa explainer's table: row totals (10, 10), column totals (9, 11), N = 20.

    >>> import kappalib as kl
    >>> kl.expected_counts([[8, 2], [1, 9]]).tolist()
    [[4.5, 5.5], [4.5, 5.5]]
    """
    return expected_counts_of(as_matrix(C))


def kappa_parts(C, W):
    """Numerator and denominator such that kappa = num / den, for valid C and W (or None)."""
    if W is None:
        # kappa = (p_o - p_e) / (1 - p_e), multiplied through by N^2 to stay exact on counts
        _, _, _, num, den = chance_parts(C)
        return num, den
    # kappa_w = 1 - sum(W*O) / sum(W*E) = (sum(W*E) - sum(W*O)) / sum(W*E), with E = r c^T / N
    E = expected_counts_of(C)
    wo = (W * C).sum(axis=(-2, -1))
    we = (W * E).sum(axis=(-2, -1))
    return we - wo, we


@overload
def kappa(
    C: OneMatrix,
    *,
    weighting: str | ArrayLike | None = ...,
    scores: ArrayLike | None = ...,
    zero_division: str | float | None = ...,
) -> float | None: ...


@overload
def kappa(
    C: ArrayLike,
    *,
    weighting: str | ArrayLike | None = ...,
    scores: ArrayLike | None = ...,
    zero_division: str | float | None = ...,
) -> float | np.ndarray | None: ...


@matrix_function
def kappa(
    C: ArrayLike,
    *,
    weighting: str | ArrayLike | None = None,
    scores: ArrayLike | None = None,
    zero_division: str | float | None = None,
) -> float | np.ndarray | None:
    r"""Cohen's kappa, unweighted or weighted, from a confusion matrix.

    .. math::

        \kappa = \frac{p_o - p_e}{1 - p_e}, \qquad
        \kappa_w = 1 - \frac{\sum_{ij} W_{ij} C_{ij}}{\sum_{ij} W_{ij} E_{ij}},
        \quad E_{ij} = \frac{r_i c_j}{N}.

    Unweighted kappa is weighted kappa with ``W = 1 - I``.

    Parameters
    ----------
    C : array-like of shape (K, K) or (..., K, K)
        Confusion matrix; rows are the reference (rater 1), columns the prediction (rater 2).
    weighting : {None, "linear", "quadratic"} or array-like of shape (K, K)
        ``"linear"`` charges ``|i - j|`` and ``"quadratic"`` ``(i - j)^2``, with ``i`` and
        ``j`` the **positions** of the classes in the matrix.  A matrix is taken as
        disagreement weights: zero diagonal, non-negative.
    scores : array-like of shape (K,), optional
        Numeric values of the classes, used instead of positions by ``"linear"`` and
        ``"quadratic"``.
    zero_division : {None, "raise"} or float
        What to return when kappa is 0/0 (see Notes).

    Returns
    -------
    kappa : float, None, or ndarray of shape (...)

    Raises
    ------
    ValueError, TypeError
        On an invalid matrix or weighting.
    UndefinedMetricError
        If kappa is undefined and ``zero_division="raise"``.

    Notes
    -----
    Kappa is undefined (0/0) when ``p_e = 1``, that is when both raters put every case in
    the same single class (for weighted kappa: when ``sum(W * E) = 0``).  A single matrix
    then gives ``None``; a stack gives NaN at those positions; a float ``zero_division`` is
    returned as given; ``"raise"`` raises :class:`UndefinedMetricError`.

    References
    ----------
    Cohen, J. (1960). A coefficient of agreement for nominal scales.
    Cohen, J. (1968). Weighted kappa.
    Fleiss, J. L., Cohen, J. & Everitt, B. S. (1969). Large sample standard errors of kappa
    and weighted kappa.

    Examples
    --------
    The kappa explainer's table: p_o = 0.85 and p_e = 0.5 give kappa = 0.7.

    >>> import kappalib as kl
    >>> kl.kappa([[8, 2], [1, 9]])
    0.7

    Fleiss, Cohen & Everitt (1969), with their agreement weights passed as disagreement
    weights ``1 - w``; the paper reports 0.4286 unweighted and 0.5071 weighted.

    >>> table = [[106, 10, 4], [22, 28, 10], [2, 12, 6]]
    >>> round(kl.kappa(table), 4)
    0.4286
    >>> W = [[0, 1, 5/9], [1, 0, 1/3], [5/9, 1/3, 0]]
    >>> round(kl.kappa(table, weighting=W), 4)
    0.5071

    Undefined: both raters use one class.

    >>> kl.kappa([[5, 0], [0, 0]]) is None
    True
    """
    C = scale_free(as_matrix(C))
    W = resolve_weights(weighting, C.shape[-1], scores)
    num, den = kappa_parts(C, W)
    undefined = den == 0
    reason = (
        "kappa is undefined (0/0): p_e = 1 because both raters put every case in the same "
        "single class"
        if W is None
        else "weighted kappa is undefined (0/0): sum(W * E) = 0 because no expected "
        "disagreement carries a positive weight"
    )
    return finish(ratio(num, den), undefined, zero_division, reason)


@overload
def kappa_max(C: OneMatrix, *, zero_division: str | float | None = ...) -> float | None: ...


@overload
def kappa_max(
    C: ArrayLike, *, zero_division: str | float | None = ...
) -> float | np.ndarray | None: ...


@matrix_function
def kappa_max(
    C: ArrayLike, *, zero_division: str | float | None = None
) -> float | np.ndarray | None:
    r"""The largest kappa that the two margins allow.

    The most agreement compatible with fixed row and column totals puts
    :math:`\min(r_k, c_k)` cases on each diagonal cell:

    .. math:: \kappa_{\max} = \frac{p_{o,\max} - p_e}{1 - p_e},
              \qquad p_{o,\max} = \frac{1}{N}\sum_k \min(r_k, c_k).

    Parameters
    ----------
    C : array-like of shape (K, K) or (..., K, K)
    zero_division : {None, "raise"} or float
        Policy when ``p_e = 1`` (see :func:`kappa`).

    Returns
    -------
    kappa_max : float, None, or ndarray of shape (...)

    Raises
    ------
    ValueError, TypeError
        On an invalid matrix.

    References
    ----------
    Cohen, J. (1960). A coefficient of agreement for nominal scales.

    Examples
    --------
    The kappa explainer's table: the margins (10, 10) and (9, 11) allow at most 19 agreements.

    >>> import kappalib as kl
    >>> kl.kappa_max([[8, 2], [1, 9]])
    0.9
    """
    C = scale_free(as_matrix(C))
    _, r, c = margins(C)
    # N sum_k min(r_k, c_k) - sum_k r_k c_k = sum_k r_k (sum_{j != k} min_j - (c_k - min_k))
    m = np.minimum(r, c)
    num = dot(r, others(m) - (c - m))
    den = dot(r, others(c))
    return finish(
        ratio(num, den),
        den == 0,
        zero_division,
        "kappa_max is undefined (0/0): p_e = 1 because both raters use one single class",
    )


def _check_binary(C, name):
    check_class_count(C, name, exactly=2, reason=" (Byrt et al. 1993)")


@overload
def prevalence_index(C: OneMatrix) -> float: ...


@overload
def prevalence_index(C: ArrayLike) -> float | np.ndarray: ...


@matrix_function
def prevalence_index(C: ArrayLike) -> float | np.ndarray:
    r"""Prevalence index of a 2 x 2 table: the imbalance between the two agreement cells.

    .. math:: \mathrm{PI} = \frac{C_{00} - C_{11}}{N}

    Parameters
    ----------
    C : array-like of shape (2, 2) or (..., 2, 2)

    Returns
    -------
    pi : float or ndarray of shape (...)

    Raises
    ------
    ValueError, TypeError
        On an invalid matrix, or one that is not 2 x 2.

    References
    ----------
    Byrt, T., Bishop, J. & Carlin, J. B. (1993). Bias, prevalence and kappa.

    Examples
    --------
    The kappa explainer's table: (8 - 9) / 20.

    >>> import kappalib as kl
    >>> kl.prevalence_index([[8, 2], [1, 9]])
    -0.05
    """
    C = scale_free(as_matrix(C))
    _check_binary(C, "prevalence_index")
    N, _, _ = margins(C)
    return to_float((C[..., 0, 0] - C[..., 1, 1]) / N)


@overload
def bias_index(C: OneMatrix) -> float: ...


@overload
def bias_index(C: ArrayLike) -> float | np.ndarray: ...


@matrix_function
def bias_index(C: ArrayLike) -> float | np.ndarray:
    r"""Bias index of a 2 x 2 table: how differently the two raters use class 0.

    .. math:: \mathrm{BI} = \frac{C_{01} - C_{10}}{N} = \frac{r_0 - c_0}{N}

    Parameters
    ----------
    C : array-like of shape (2, 2) or (..., 2, 2)

    Returns
    -------
    bi : float or ndarray of shape (...)

    Raises
    ------
    ValueError, TypeError
        On an invalid matrix, or one that is not 2 x 2.

    References
    ----------
    Byrt, T., Bishop, J. & Carlin, J. B. (1993). Bias, prevalence and kappa.

    Examples
    --------
    The kappa explainer's table: (2 - 1) / 20; the reference uses class 0 for 10 cases, the
    prediction for 9.

    >>> import kappalib as kl
    >>> kl.bias_index([[8, 2], [1, 9]])
    0.05
    """
    C = scale_free(as_matrix(C))
    _check_binary(C, "bias_index")
    N, _, _ = margins(C)
    return to_float((C[..., 0, 1] - C[..., 1, 0]) / N)
