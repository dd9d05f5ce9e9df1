r"""The delta method for Cohen's kappa, one case at a time: what each case contributes.

Kappa is a smooth function of means over the cases (the share of weighted agreement
:math:`p_o` and the two raters' category shares :math:`r`, :math:`c`), so to first order

.. math::

    \hat\kappa - \kappa \approx \frac{1}{N} \sum_{i=1}^{N} \psi_i, \qquad
    \psi_i = \frac{(w_{a_i b_i} - p_o) - (1 - \kappa)\,
        \big((w c)_{a_i} + (r^\top w)_{b_i} - 2 p_e\big)}{1 - p_e},

for a case rated :math:`a_i` by rater 1 and :math:`b_i` by rater 2, with agreement weights
:math:`w = 1 - W/\max W`, :math:`p_e = r^\top w c`.  The :math:`\psi_i` sum to 0, and

* :math:`\frac{1}{N^2}\sum_i \psi_i^2` is the variance of Fleiss, Cohen & Everitt (1969)
  (their formula is this sum, grouped by cells);
* two kappas of the same cases (two pairs of raters, a rater before and after training)
  have the covariance :math:`\frac{1}{N^2}\sum_i \psi^{(1)}_i \psi^{(2)}_i`: the delta
  method for dependent kappas (Vanbelle & Albert 2008; Vanbelle 2017);
* with the cases in clusters (lesions of a patient), the cluster totals
  :math:`\Psi_g = \sum_{i \in g} \psi_i` replace the cases:
  :math:`\frac{G}{G-1}\frac{1}{N^2}\sum_g \Psi_g^2`, the ratio-estimator variance of
  Obuchowski (1998) carried through the delta method (Yang & Zhou 2014, 2015).

:math:`\psi` depends on the case through its cell :math:`(a, b)` only, so it is computed
as a K x K matrix and looked up.  Symbols: ``C`` the counts, ``N`` their total, ``w`` the
agreement weights, ``r``, ``c`` the row and column shares, ``p_o``, ``p_e``, ``k`` kappa,
``psi`` the influence of one case in each cell.
"""

from __future__ import annotations

import numpy as np

from .._coefficients.arithmetic import agreement_weights
from .._coefficients.kappa import kappa

__all__ = ["cell_influence", "codes_influence"]


def cell_influence(C, W):
    """``(kappa, psi)`` of one K x K table of counts and the resolved disagreement weights
    ``W`` (None: unweighted): ``psi[a, b]`` is the influence of one case in cell ``(a, b)``.
    ``(nan, None)`` where kappa is 0/0 (:func:`kappa`'s rule)."""
    C = np.asarray(C, dtype=np.float64)
    K = C.shape[0]
    if not C.sum() > 0:
        return float("nan"), None
    k = float(kappa(C, weighting=W, zero_division=float("nan")))
    if np.isnan(k):
        return k, None
    w = agreement_weights(W, K)
    P = C / C.sum()
    r, c = P.sum(axis=1), P.sum(axis=0)
    p_o = float((P * w).sum())
    wc, rw = w @ c, r @ w
    p_e = float(r @ wc)
    psi = ((w - p_o) - (1.0 - k) * (wc[:, None] + rw[None, :] - 2.0 * p_e)) / (1.0 - p_e)
    return float(k), psi


def codes_influence(a, b, K, W):
    """Kappa of the cases with both codes present (>= 0), and each case's influence on the
    scale of all ``n`` cases: ``(n / n_used) psi`` where rated, 0 where a code is missing
    (-1).  A kappa over a subset is a ratio of sums over all cases; this is its
    linearization.  Returns ``(kappa, influence of shape (n,), n_used)``; kappa NaN and the
    influence None where it is 0/0."""
    ok = (a >= 0) & (b >= 0)
    n_used = int(ok.sum())
    if n_used == 0:
        return float("nan"), None, 0
    C = np.bincount(a[ok] * K + b[ok], minlength=K * K).reshape(K, K)
    k, psi = cell_influence(C, W)
    if psi is None:
        return k, None, n_used
    out = np.zeros(a.shape[0])
    out[ok] = psi[a[ok], b[ok]] * (a.shape[0] / n_used)
    return k, out, n_used
