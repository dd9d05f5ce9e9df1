r"""Two raters, other chance models than Cohen's: PABAK, Scott's pi, Gwet's AC1/AC2 and
Brennan-Prediger, from the confusion matrix ``C`` (rows = rater 1, columns = rater 2).

Each reads check (``as_matrix``) -> count (the margins) -> compute.  Symbols: ``p_a`` the
(weighted) observed agreement, ``p_e`` the chance agreement of the model, ``pi`` the pooled
category shares of the two raters, ``w = 1 - W / max(W)`` agreement weights, ``T_w`` their
sum, ``K`` the number of categories **offered** (AC1 and BP depend on it).
"""

from __future__ import annotations

from typing import overload

import numpy as np
from numpy.typing import ArrayLike

from .._input.matrix import OneMatrix, as_matrix, matrix_function
from .._shared.policy import finish, to_float
from .arithmetic import checked_agreement_weights, dot, margins, others, ratio, scale_free, trace

__all__ = ["brennan_prediger", "gwet_ac1", "pabak", "scotts_pi"]


@overload
def pabak(C: OneMatrix) -> float: ...


@overload
def pabak(C: ArrayLike) -> float | np.ndarray: ...


@matrix_function
def pabak(C: ArrayLike) -> float | np.ndarray:
    r"""Prevalence- and bias-adjusted kappa: kappa with a uniform chance baseline.

    .. math:: \mathrm{PABAK} = \frac{K p_o - 1}{K - 1}

    Parameters
    ----------
    C : array-like of shape (K, K) or (..., K, K), with K >= 2

    Returns
    -------
    pabak : float or ndarray of shape (...)

    Raises
    ------
    ValueError, TypeError
        On an invalid matrix, or K < 2.

    References
    ----------
    Byrt, T., Bishop, J. & Carlin, J. B. (1993). Bias, prevalence and kappa.

    Examples
    --------
    The kappa explainer's table: p_o = 0.85 and K = 2 give 2(0.85) - 1.

    >>> import kappalib as kl
    >>> round(kl.pabak([[8, 2], [1, 9]]), 6)
    0.7
    """
    C = scale_free(as_matrix(C))
    K = C.shape[-1]
    if K < 2:
        raise ValueError(f"pabak needs C with at least 2 classes, got shape {C.shape}")
    N, _, _ = margins(C)
    return to_float((K * trace(C) / N - 1.0) / (K - 1))


@overload
def scotts_pi(C: OneMatrix, *, zero_division: str | float | None = ...) -> float | None: ...


@overload
def scotts_pi(
    C: ArrayLike, *, zero_division: str | float | None = ...
) -> float | np.ndarray | None: ...


@matrix_function
def scotts_pi(
    C: ArrayLike, *, zero_division: str | float | None = None
) -> float | np.ndarray | None:
    r"""Scott's pi: chance agreement from the pooled margins of both raters.

    .. math:: \pi = \frac{p_o - p_e^{\pi}}{1 - p_e^{\pi}}, \qquad
              p_e^{\pi} = \sum_k \left(\frac{r_k + c_k}{2N}\right)^2

    For two raters this is Fleiss' kappa (:func:`fleiss_kappa`) of the ``N x K`` table
    whose rows count the two ratings of each case; Fleiss (1971) generalised it to ``n``
    raters.

    Parameters
    ----------
    C : array-like of shape (K, K) or (..., K, K)
    zero_division : {None, "raise"} or float
        Policy when ``p_e = 1`` (both raters use one single class).

    Returns
    -------
    pi : float, None, or ndarray of shape (...)

    Raises
    ------
    ValueError, TypeError
        On an invalid matrix.

    References
    ----------
    Scott, W. A. (1955). Reliability of content analysis: the case of nominal scale coding.
    Fleiss, J. L. (1971). Measuring nominal scale agreement among many raters.

    Examples
    --------
    The kappa explainer's table: pooled shares 0.475/0.525 give p_e = 0.50125.

    >>> import kappalib as kl
    >>> round(kl.scotts_pi([[8, 2], [1, 9]]), 6)
    0.699248
    """
    C = scale_free(as_matrix(C))
    # With the pooled half-margins h = (r + c) / 2 (they sum to N), N tr(C) - sum_k h_k^2
    # and N^2 - sum_k h_k^2 are rewritten as sums of products of cells, as for kappa:
    #   num = sum_k h_k (sum_{j != k} C_jj - (h_k - C_kk)),   den = sum_k h_k sum_{j != k} h_j,
    # with h_k - C_kk = (off-diagonal row k + off-diagonal column k) / 2: no cancellation.
    _, r, c = margins(C)
    h = (r + c) / 2.0
    off = 1.0 - np.eye(C.shape[-1])
    diag = np.einsum("...ii->...i", C)
    off_k = (np.einsum("...kj,kj->...k", C, off) + np.einsum("...ik,ik->...k", C, off)) / 2.0
    num = dot(h, others(diag) - off_k)
    den = dot(h, others(h))
    return finish(
        ratio(num, den),
        den == 0,
        zero_division,
        "Scott's pi is undefined (0/0): both raters put every case in the same single class",
    )


def _two_rater_parts(C, weighting, scores, name):
    C = as_matrix(C)
    K = C.shape[-1]
    w = checked_agreement_weights(weighting, K, scores, name)
    N, r, c = margins(C)
    p_a = np.einsum("...ij,ij->...", C, w) / N
    pi = (r + c) / (2.0 * N[..., None])  # pooled category shares of the two raters
    return K, w, pi, p_a


@overload
def gwet_ac1(
    C: OneMatrix,
    *,
    weighting: str | ArrayLike | None = ...,
    scores: ArrayLike | None = ...,
) -> float: ...


@overload
def gwet_ac1(
    C: ArrayLike,
    *,
    weighting: str | ArrayLike | None = ...,
    scores: ArrayLike | None = ...,
) -> float | np.ndarray: ...


@matrix_function
def gwet_ac1(
    C: ArrayLike,
    *,
    weighting: str | ArrayLike | None = None,
    scores: ArrayLike | None = None,
) -> float | np.ndarray:
    r"""Gwet's AC1 (AC2 with weights) for two raters, from their confusion matrix.

    Chance agreement is the chance of agreeing on a "hard" case, rated at random:

    .. math::

        \pi_k = \frac{r_k + c_k}{2N}, \qquad
        p_e = \frac{T_w}{K(K-1)} \sum_k \pi_k (1 - \pi_k), \qquad
        \mathrm{AC} = \frac{p_a - p_e}{1 - p_e},

    with :math:`p_a = \sum_{ij} w_{ij} C_{ij} / N`, agreement weights
    :math:`w = 1 - W/\max W` (identity when unweighted) and :math:`T_w = \sum_{ij} w_{ij}`.
    :math:`p_e \le T_w / K^2 < 1`, so AC1 is always defined.

    Parameters
    ----------
    C : array-like of shape (K, K) or (..., K, K), with K >= 2
        One row and one column per category **offered**: AC1 depends on K, not only on the
        categories used, so a category nobody used needs its row and column of zeros (build
        C with ``kl.confusion_matrix(y1, y2, labels=offered)``, or reindex one with
        ``kl.ConfusionMatrix(C, labels=offered)``).
    weighting : {None, "linear", "quadratic"} or array-like of shape (K, K)
        Disagreement weights as in :func:`kappa`; ``"linear"`` and ``"quadratic"`` give
        Gwet's linear and quadratic agreement weights.
    scores : array-like of shape (K,), optional
        Category values for ``"linear"``/``"quadratic"``.

    Returns
    -------
    ac1 : float or ndarray of shape (...)

    Raises
    ------
    ValueError, TypeError
        On an invalid matrix or weighting, or K < 2.

    References
    ----------
    Gwet, K. L. (2008). Computing inter-rater reliability and its variance in the presence
    of high agreement. *British Journal of Mathematical and Statistical Psychology* 61,
    29-48.
    Gwet, K. L. (2014). *Handbook of Inter-Rater Reliability*, 4th ed.

    Examples
    --------
    Gwet (2014): two abstractors classify 100 pregnancies as ectopic, abnormal or normal
    intrauterine (irrCAC ships the table as ``table_cont3x3abstractors``; its documented
    values are AC1 = 0.84933 and, with quadratic weights, AC2 = 0.94024).

    >>> import kappalib as kl
    >>> C = [[13, 0, 0], [0, 20, 7], [0, 4, 56]]
    >>> round(kl.gwet_ac1(C), 5), round(kl.gwet_ac1(C, weighting="quadratic"), 5)
    (0.84933, 0.94024)
    """
    K, w, pi, p_a = _two_rater_parts(C, weighting, scores, "gwet_ac1")
    p_e = w.sum() / (K * (K - 1.0)) * np.einsum("...k,...k->...", pi, 1.0 - pi)
    return to_float((p_a - p_e) / (1.0 - p_e))


@overload
def brennan_prediger(
    C: OneMatrix,
    *,
    weighting: str | ArrayLike | None = ...,
    scores: ArrayLike | None = ...,
) -> float: ...


@overload
def brennan_prediger(
    C: ArrayLike,
    *,
    weighting: str | ArrayLike | None = ...,
    scores: ArrayLike | None = ...,
) -> float | np.ndarray: ...


@matrix_function
def brennan_prediger(
    C: ArrayLike,
    *,
    weighting: str | ArrayLike | None = None,
    scores: ArrayLike | None = None,
) -> float | np.ndarray:
    r"""Brennan and Prediger's coefficient: chance agreement from uniform category use.

    .. math::

        p_e = \frac{T_w}{K^2}, \qquad
        \mathrm{BP} = \frac{p_a - p_e}{1 - p_e},

    with :math:`p_a = \sum_{ij} w_{ij} C_{ij} / N`, :math:`w = 1 - W / \max W` and
    :math:`T_w = \sum_{ij} w_{ij}`.  Unweighted, :math:`p_e = 1/K` and BP is the K-class
    PABAK, :math:`(K p_o - 1)/(K - 1)` (:func:`pabak`).

    Parameters
    ----------
    C : array-like of shape (K, K) or (..., K, K), with K >= 2
        One row and one column per category offered, as for :func:`gwet_ac1`: BP's chance
        agreement is 1/K.
    weighting : {None, "linear", "quadratic"} or array-like of shape (K, K)
        Disagreement weights as in :func:`kappa`.
    scores : array-like of shape (K,), optional
        Category values for ``"linear"``/``"quadratic"``.

    Returns
    -------
    bp : float or ndarray of shape (...)

    Raises
    ------
    ValueError, TypeError
        On an invalid matrix or weighting, or K < 2.

    References
    ----------
    Brennan, R. L. & Prediger, D. J. (1981). Coefficient kappa: some uses, misuses, and
    alternatives. *Educational and Psychological Measurement* 41, 687-699.

    Examples
    --------
    Gwet's (2014) abstractors (see :func:`gwet_ac1`): p_o = 0.89 and K = 3 give
    (3 * 0.89 - 1) / 2 = 0.835.

    >>> import kappalib as kl
    >>> round(kl.brennan_prediger([[13, 0, 0], [0, 20, 7], [0, 4, 56]]), 6)
    0.835
    """
    K, w, _, p_a = _two_rater_parts(C, weighting, scores, "brennan_prediger")
    p_e = w.sum() / (K * K)
    return to_float((p_a - p_e) / (1.0 - p_e))
