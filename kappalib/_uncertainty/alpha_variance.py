r"""Gwet's (2014) linearization variance of Krippendorff's alpha, as irrCAC computes it.

Gwet writes alpha in the form of the other chance-corrected coefficients.  Over the ``n``
units with two ratings or more (:math:`r_i` ratings each, mean :math:`\bar r`,
:math:`\varepsilon = 1/\sum_i r_i`), with agreement weights :math:`w` and
:math:`r^\star_{ik} = \sum_l w_{kl} r_{il}`:

.. math::

    p'_a = \frac{1}{n}\sum_i \sum_k \frac{r_{ik}(r^\star_{ik} - 1)}{\bar r (r_i - 1)},
    \quad p_a = (1 - \varepsilon) p'_a + \varepsilon, \quad
    \pi_k = \frac{1}{n}\sum_i \frac{r_{ik}}{\bar r}, \quad
    p_e = \sum_{kl} w_{kl}\pi_k\pi_l, \quad
    \alpha = \frac{p_a - p_e}{1 - p_e},

which is Krippendorff's alpha with :math:`\delta^2 = 1 - w`.  Each unit's share of
:math:`\alpha' = (p'_a - p_e)/(1 - p_e)`,

.. math::

    \alpha^\star_i = \frac{p_{a|i} - p_e}{1 - p_e}
        - 2 (1 - \alpha') \frac{p_{e|i} - p_e}{1 - p_e},

with :math:`p_{a|i} = \sum_k \frac{r_{ik}(r^\star_{ik} - 1)}{\bar r (r_i - 1)}
- p_a \frac{r_i - \bar r}{\bar r}` and :math:`p_{e|i} = \sum_k \frac{r_{ik}}{\bar r}
\bar\pi_k - p_e \frac{r_i - \bar r}{\bar r}`, :math:`\bar\pi = (w + w^\top)\pi / 2`, gives

.. math::

    \widehat{\mathrm{var}}(\hat\alpha) = \frac{1 - f}{n(n-1)} \sum_i
        (\alpha^\star_i - \alpha')^2 .

These are the formulas of irrCAC's ``krippen_alpha_raw`` (Gwet's R and Python packages),
which Gwet (2014) derives; ``f = n / n_population``.
"""

from __future__ import annotations

import numpy as np

__all__ = ["alpha_linearized_variance"]


def alpha_linearized_variance(T, w, f):
    """(alpha, var) from a units x values count table ``T`` (any units; those with fewer
    than two ratings are dropped) and agreement weights ``w``; var None where alpha is 0/0."""
    T = np.asarray(T, dtype=np.float64)
    r = T.sum(axis=1)
    T, r = T[r >= 2], r[r >= 2]
    n = T.shape[0]
    r_bar = r.mean()
    eps = 1.0 / r.sum()
    agree = (T * (T @ w.T - 1.0)).sum(axis=1)  # sum_k r_ik (r*_ik - 1)
    share = agree / (r_bar * (r - 1.0))
    pa_prime = share.mean()
    p_a = (1.0 - eps) * pa_prime + eps
    pi = (T / r_bar).mean(axis=0)
    p_e = float(pi @ w @ pi)
    if not 1.0 - p_e > 0:
        return float("nan"), None
    alpha = (p_a - p_e) / (1.0 - p_e)
    alpha_prime = (pa_prime - p_e) / (1.0 - p_e)
    pa_i = share - p_a * (r - r_bar) / r_bar
    pi_w = (w + w.T) @ pi / 2.0
    pe_i = (T @ pi_w) / r_bar - p_e * (r - r_bar) / r_bar
    x = (pa_i - p_e) / (1.0 - p_e) - 2.0 * (1.0 - alpha_prime) * (pe_i - p_e) / (1.0 - p_e)
    d = x - alpha_prime
    return float(alpha), (1.0 - f) / (n * (n - 1.0)) * float(d @ d)
