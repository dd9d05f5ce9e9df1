"""An independent delta method for kappas of the same units, by complex-step differentiation.

The units take U distinct rating patterns (a row of codes, -1 where a rating is missing)
with shares ``p``; the shares are multinomial, with covariance ``(diag(p) - p p^T) / n``.
Each kappa is written here as a plain function of ``p`` (its pair's confusion matrix is a
sum of the patterns' cells), and its gradient is taken by the complex step
``Im f(p + i h e_j) / h``, exact to rounding for a rational function.  Then
``cov(kappa_1, kappa_2) = grad_1^T (diag(p) - p p^T) grad_2 / n`` (the delta method).

Nothing here calls kappalib's influence functions (``kappalib._linearization``), which
derive the same covariance by hand.  With clusters (:func:`clustered_variance`), kappa is a
function of the mean of the clusters' cell counts, and the multinomial covariance gives way
to the sample covariance of those counts over the clusters (the ratio-estimator variance of
Obuchowski 1998, with its G/(G-1)).
"""

from __future__ import annotations

import numpy as np

H = 1e-30


def kappa_of(M, w):
    """Cohen's kappa of a (complex) table M with agreement weights w: generic arithmetic."""
    M = M / M.sum()
    r, c = M.sum(axis=1), M.sum(axis=0)
    po = (M * w).sum()
    pe = r @ w @ c
    return (po - pe) / (1 - pe)


def _pattern_table(pats, p, g, h, K):
    M = np.zeros((K, K), dtype=complex)
    for u in range(len(p)):
        a, b = pats[u, g], pats[u, h]
        if a >= 0 and b >= 0:
            M[a, b] += p[u]
    return M


def gradients(pats, p, pairs, K, w):
    """The gradient of each pair's kappa with respect to the pattern shares."""
    out = []
    eye = np.eye(len(p))
    for g, h in pairs:
        grad = np.array(
            [
                kappa_of(_pattern_table(pats, p + 1j * H * eye[j], g, h, K), w).imag / H
                for j in range(len(p))
            ]
        )
        out.append(grad)
    return out


def delta_covariance(codes, pairs, K, w):
    """(kappas, covariance matrix) of the pairs' kappas, codes of shape (raters, n)."""
    pats, m = np.unique(codes.T, axis=0, return_counts=True)
    n = m.sum()
    p = m / n
    grads = gradients(pats, p, pairs, K, w)
    S = (np.diag(p) - np.outer(p, p)) / n
    kappas = [kappa_of(_pattern_table(pats, p.astype(complex), g, h, K), w).real for g, h in pairs]
    return np.array(kappas), np.array([[a @ S @ b for b in grads] for a in grads])


def clustered_variance(a, b, clusters, K, w):
    """The cluster-robust variance of kappa: kappa is a function of the cluster totals'
    mean t_bar (K*K cell counts per cluster); var = G/(G-1) * sum_g (grad . (t_g - t_bar))^2
    / G^2 with the gradient at t_bar (kappa is scale-free, so any total works)."""
    ids = {c: i for i, c in enumerate(dict.fromkeys(clusters))}
    G = len(ids)
    T = np.zeros((G, K * K))
    for ai, bi, ci in zip(a, b, clusters, strict=True):
        T[ids[ci], ai * K + bi] += 1
    t_bar = T.mean(axis=0)
    eye = np.eye(K * K)
    grad = np.array(
        [kappa_of((t_bar + 1j * H * eye[j]).reshape(K, K), w).imag / H for j in range(K * K)]
    )
    dev = (T - t_bar) @ grad
    return G / (G - 1) * float(dev @ dev) / G**2
