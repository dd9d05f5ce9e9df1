r"""Standard errors and confidence intervals for the many-rater coefficients.

Two routes, one front (:func:`ratings_standard_error`, :func:`ratings_confint`):

* **analytic** (``method="analytic"``): Gwet's (2008; 2014, ch. 5) linearization variance
  for Fleiss' (generalized) kappa, Gwet's AC1/AC2 and Brennan-Prediger, with the
  finite-population correction ``1 - n / n_population``; the interval is Gwet's
  :math:`\hat\theta \pm t_{n-1} \widehat{\mathrm{se}}`, its upper end cut at 1, as irrCAC
  computes it.  For Fleiss' kappa, ``null=True`` gives the standard error under
  :math:`\kappa = 0` of Fleiss, Nee and Landis (1979), for a test, not for an interval.
* **bootstrap over units** (``method="bootstrap"`` percentile, ``"bca"``): every coefficient,
  Krippendorff's alpha included.  A rating table with ``n`` units *is* its data set up to
  the order of the units, so drawing ``n`` units with replacement is one multinomial draw
  of ``n`` over the ``U`` distinct units (rows of the table), with probabilities
  ``multiplicity / n``: chapter 11's engine (``_bootstrap._resample``, ``_interval``,
  ``_jackknife``) applied to the vector of multiplicities.  Every coefficient here is a
  function of sums over units, so the ``B`` resamples are one ``(B, U)`` weight matrix and
  one matrix product, never a loop over resamples.

Symbols as in :mod:`kappalib._multirater` and Gwet (2014): ``n_ik`` the table, ``r_i`` the
ratings of unit ``i``, ``w`` the agreement weights, ``p_a``, ``p_e``, ``pi_k``; for alpha,
``o`` the coincidences and ``delta`` the squared distances.  ``m`` (multiplicities) and
``Wt`` (a ``(B, U)`` stack of resampled multiplicities) are the bootstrap's.
"""

from __future__ import annotations

import math
import numbers
from statistics import NormalDist
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

from ._agreement import kappa
from ._bootstrap import _check_n_resamples, _interval, _jackknife, _resample, _rng
from ._counting import tabulate
from ._designs import _rater_indicators, conger_kappa, fleiss_kappa_generalized, light_kappa
from ._multirater import (
    _delta,
    brennan_prediger_multi,
    fleiss_kappa,
    gwet_ac1_multi,
    krippendorff_alpha,
)
from ._ratings import (
    Layout,
    check_weighted_order,
    default_scores,
    table_and_categories,
)
from ._two_rater import _agreement_weights
from ._validation import _short, check_confidence, check_zero_division, finish

__all__ = ["ratings_confint", "ratings_standard_error"]

Coefficient = Literal[
    "fleiss", "fleiss_generalized", "alpha", "ac1", "ac2", "bp", "conger", "light"
]
_COEFFICIENTS = ("fleiss", "fleiss_generalized", "alpha", "ac1", "ac2", "bp", "conger", "light")
# take a units x categories count table; the others take raw ratings
_TABLE = ("fleiss", "fleiss_generalized", "ac1", "ac2", "bp")
_WEIGHTED = ("fleiss_generalized", "ac1", "ac2", "bp", "conger")
_NO_ANALYTIC = ("alpha", "light")
_METHODS = ("analytic", "bootstrap", "bca")
_NAMES = {
    "fleiss": "Fleiss' kappa",
    "fleiss_generalized": "the generalized Fleiss kappa",
    "ac1": "Gwet's AC1",
    "ac2": "Gwet's AC2",
    "bp": "Brennan-Prediger",
    "alpha": "Krippendorff's alpha",
    "conger": "Conger's kappa",
    "light": "Light's kappa",
}


# ------------------------------------------------------------------------------ checks
def _check_options(coefficient, method, weighting, level, layout, null, n_population):
    if not isinstance(coefficient, str) or coefficient not in _COEFFICIENTS:
        raise ValueError(
            "coefficient must be 'fleiss', 'fleiss_generalized', 'alpha', 'ac1', 'ac2', 'bp', "
            f"'conger' or 'light', got {_short(coefficient)}"
        )
    if not isinstance(method, str) or method not in _METHODS:
        raise ValueError(f"method must be 'analytic', 'bootstrap' or 'bca', got {_short(method)}")
    name = _NAMES[coefficient]
    if method == "analytic" and coefficient in _NO_ANALYTIC:
        raise ValueError(
            f"{name} has no analytic standard error in kappalib: use method='bootstrap' (or "
            "'bca'), which resamples the units"
        )
    if coefficient == "ac2" and weighting is None:
        raise ValueError(
            "coefficient='ac2' is AC1 with weights and needs weighting= ('linear', "
            "'quadratic' or a matrix); use coefficient='ac1' for unweighted ratings"
        )
    if coefficient not in _WEIGHTED and weighting is not None:
        hint = (
            "; for alpha the distance comes from level="
            if coefficient == "alpha"
            else "; 'fleiss_generalized' takes weights"
            if coefficient == "fleiss"
            else ""
        )
        raise ValueError(
            f"weighting does not apply to {name}, got weighting={_short(weighting)}{hint}"
        )
    if coefficient != "alpha" and level != "nominal":
        raise ValueError(
            f"level applies to Krippendorff's alpha only, got level={_short(level)} with "
            f"coefficient={coefficient!r}"
        )
    if coefficient in _TABLE and layout is not None:
        raise ValueError(
            f"layout applies to raw ratings, and {name} takes a units x categories count "
            f"table (kl.rating_table), got layout={layout!r}"
        )
    if not isinstance(null, (bool, np.bool_)):
        raise TypeError(f"null must be True or False, got {_short(null)}")
    if null and (coefficient != "fleiss" or method != "analytic"):
        raise ValueError(
            "null=True (the standard error under kappa = 0 of Fleiss, Nee and Landis 1979) "
            f"exists for coefficient='fleiss' with method='analytic' only, got "
            f"coefficient={coefficient!r}, method={method!r}"
        )
    if n_population is not None and method != "analytic":
        raise ValueError(
            "n_population (the finite-population correction) applies to the analytic "
            f"variance; the bootstrap treats the units as drawn from an infinite population, "
            f"got n_population={_short(n_population)} with method={method!r}"
        )
    if null and n_population is not None:
        raise ValueError(
            "n_population applies to the non-null standard error (Gwet's); Fleiss, Nee and "
            f"Landis' null standard error has no finite-population form, got "
            f"n_population={_short(n_population)} with null=True"
        )


def _population_share(n_population, n):
    """f = n / n_population of the finite-population correction 1 - f (0 when None)."""
    if n_population is None:
        return 0.0
    if isinstance(n_population, bool) or not isinstance(n_population, numbers.Real):
        raise TypeError(
            f"n_population must be a number of units (or math.inf), got {_short(n_population)}"
        )
    if not n_population >= n:
        raise ValueError(
            f"n_population must be at least the number of rated units, {n}, got {n_population!r}"
        )
    return n / float(n_population)


def _at_least_two_units(n, coefficient):
    if n < 2:
        raise ValueError(
            f"{_NAMES[coefficient]} needs at least 2 rated units for a standard error or an "
            f"interval, got {n}"
        )


# ------------------------------------------------------------------ Student's t quantile
def _betacf(a, b, x):
    """Continued fraction of the regularized incomplete beta (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 400):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return h


def _betainc(a, b, x):
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def _t_upper(t, df):
    """P(T > t) for t >= 0."""
    return 0.5 * _betainc(df / 2.0, 0.5, df / (df + t * t))


def _t_quantile(p, df):
    """Quantile of Student's t with ``df`` degrees of freedom, for 0.5 < p < 1.

    Newton's method on the CDF from the normal quantile, which lies below it: the CDF is
    concave there, so the steps approach the root from below and never overshoot.
    """
    z = NormalDist().inv_cdf(p)
    if df > 2000:
        # Cornish-Fisher expansion in 1/df (Abramowitz & Stegun 26.7.5), exact to ~1e-12
        # here, where the incomplete beta of df / 2 loses digits in its log-gamma terms
        z2 = z * z
        g = (
            z * (z2 + 1) / 4,
            z * ((5 * z2 + 16) * z2 + 3) / 96,
            z * (((3 * z2 + 19) * z2 + 17) * z2 - 15) / 384,
            z * ((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945) / 92160,
        )
        return z + sum(gi / df ** (i + 1) for i, gi in enumerate(g))
    q = 1.0 - p
    t = z
    log_c = math.lgamma((df + 1) / 2) - math.lgamma(df / 2) - 0.5 * math.log(df * math.pi)
    for _ in range(100):
        pdf = math.exp(log_c - (df + 1) / 2 * math.log1p(t * t / df))
        step = (_t_upper(t, df) - q) / pdf
        t += step
        if abs(step) <= 1e-13 * max(1.0, t):
            break
    return t


# ---------------------------------------------------------- count-table coefficients
def _table_parts(table, coefficient, weighting, scores, categories):
    """The table (rows with a rating), agreement weights, the library's estimate (NaN where
    undefined) and the kind of chance agreement ("fleiss", "ac1" or "bp")."""
    names = {
        "fleiss": "fleiss_kappa",
        "fleiss_generalized": "fleiss_kappa_generalized",
        "bp": "brennan_prediger_multi",
    }
    name = names.get(coefficient, "gwet_ac1_multi")
    nan = float("nan")
    if coefficient == "fleiss":
        value = fleiss_kappa(table, categories=categories, zero_division=nan)
        T, _, _ = table_and_categories(table, categories, name)
        w = np.eye(T.shape[1])
    else:
        if coefficient == "fleiss_generalized":
            value = fleiss_kappa_generalized(
                table, weighting=weighting, scores=scores, categories=categories, zero_division=nan
            )
        else:
            f = brennan_prediger_multi if coefficient == "bp" else gwet_ac1_multi
            value = f(table, weighting=weighting, scores=scores, categories=categories)
        T, domain, source = table_and_categories(table, categories, name)
        check_weighted_order(weighting, domain, source, name)
        scores = default_scores(weighting, scores, domain)
        w = _agreement_weights(weighting, T.shape[1], scores, name)
    T = T[np.einsum("ik->i", T) > 0]
    kind = {"fleiss_generalized": "fleiss", "ac2": "ac1"}.get(coefficient, coefficient)
    return T, w, float(value), kind


def _unit_terms(T, w):
    """Per unit: p_a,i over its pairs (0 with fewer than 2 ratings), whether it has two
    ratings, and its shares n_ik / r_i."""
    r = np.einsum("ik->i", T)
    two = r >= 2
    S = T / r[:, None]
    # sum_k n_ik (n*_ik - 1) / (r_i (r_i - 1)), in shares: no product of counts overflows
    agree = np.einsum("ik,ik->i", S, S @ w.T) - 1.0 / r
    pa_i = np.where(two, agree * (r / np.where(two, r - 1.0, 1.0)), 0.0)
    return pa_i, two.astype(np.float64), S


def _chance(coefficient, w, pi):
    """p_e from the category shares pi of shape (..., K)."""
    K = w.shape[0]
    if coefficient == "fleiss":
        return np.einsum("...k,kl,...l->...", pi, w, pi)
    if coefficient == "bp":
        return np.full(pi.shape[:-1], w.sum() / (K * K))
    return w.sum() / (K * (K - 1.0)) * np.einsum("...k,...k->...", pi, 1.0 - pi)


def _linearized_variance(T, w, coefficient, f):
    """Gwet's (2008, 2014) variance: (1 - f) / (n (n - 1)) sum_i (theta*_i - theta)^2."""
    n = T.shape[0]
    pa_i, two, S = _unit_terms(T, w)
    n2 = two.sum()
    p_a = pa_i.sum() / n2
    pi = S.mean(axis=0)
    p_e = float(_chance(coefficient, w, pi))
    if not 1.0 - p_e > 0:
        return None
    theta = (p_a - p_e) / (1.0 - p_e)
    x = (n / n2) * (pa_i - p_e * two) / (1.0 - p_e)
    if coefficient == "fleiss":
        pe_i = S @ ((w + w.T) / 2.0 @ pi)
    elif coefficient == "bp":
        pe_i = np.full(n, p_e)
    else:
        K = w.shape[0]
        pe_i = w.sum() / (K * (K - 1.0)) * (S @ (1.0 - pi))
    x = x - 2.0 * (1.0 - theta) * (pe_i - p_e) / (1.0 - p_e)
    d = x - theta
    return (1.0 - f) / (n * (n - 1.0)) * float(d @ d)


def _fleiss_null_se(T):
    """Fleiss, Nee & Landis (1979): var_0 = 2 [(sum p q)^2 - sum p q (q - p)] /
    (N n (n - 1) (sum p q)^2), n ratings per subject, p_k the pooled shares, q = 1 - p."""
    N = T.shape[0]
    n = float(T[0].sum())
    p = T.sum(axis=0) / (N * n)
    q = 1.0 - p
    s = float(p @ q)
    if not s > 0:
        return None
    var = 2.0 * (s * s - float((p * q) @ (q - p))) / (N * n * (n - 1.0) * s * s)
    return math.sqrt(max(var, 0.0))


def _table_bootstrap(T, w, coefficient):
    """Distinct units, their multiplicities, and the batched statistic of (B, U) weights."""
    rows, m = np.unique(T, axis=0, return_counts=True)
    pa_i, two, S = _unit_terms(rows, w)
    pa_two = pa_i * two

    def stat(Wt):
        Wt = np.atleast_2d(Wt)
        n2 = Wt @ two
        with np.errstate(invalid="ignore", divide="ignore"):
            p_a = (Wt @ pa_two) / n2
            pi = (Wt @ S) / Wt.sum(axis=1)[:, None]
            p_e = _chance(coefficient, w, pi)
            value = (p_a - p_e) / (1.0 - p_e)
        return np.where((n2 > 0) & (1.0 - p_e > 0), value, np.nan)

    return m.astype(np.float64), stat


# ------------------------------------------------------------- Conger and Light (raw)
def _rater_parts(data, coefficient, weighting, scores, categories, layout):
    """X[g, u, k] (rater g put unit u in k) over the rated units, their table, the agreement
    weights (Conger) and the library's estimate (NaN where undefined)."""
    nan = float("nan")
    if coefficient == "conger":
        value = conger_kappa(
            data,
            layout=layout,
            categories=categories,
            weighting=weighting,
            scores=scores,
            zero_division=nan,
        )
    else:
        value = light_kappa(data, layout=layout, categories=categories, zero_division=nan)
    X, table, domain, _ = _rater_indicators(data, layout, categories, "reliability_data")
    keep = table.sum(axis=1) > 0
    X, table = X[:, keep], table[keep]
    w = np.eye(domain.size)
    if coefficient == "conger" and not math.isnan(value):
        scores = default_scores(weighting, scores, domain)
        w = _agreement_weights(weighting, domain.size, scores, "conger_kappa")
    return X, table, w, float(value)


def _conger_chance(p, w):
    """Conger's p_e = sum_kl w_kl (pbar_k pbar_l - s2_kl / R) from rater shares p (..., R, K)."""
    R = p.shape[-2]
    p_bar = p.mean(axis=-2)
    D = p - p_bar[..., None, :]
    s2 = np.einsum("...gk,...gl->...kl", D, D) / (R - 1.0)
    return np.einsum("kl,...kl->...", w, p_bar[..., :, None] * p_bar[..., None, :] - s2 / R)


def _conger_variance(X, T, w, f):
    """Gwet's (2014) linearization variance of Conger's kappa, as irrCAC's ``conger``."""
    R, n, _ = X.shape
    pa_i, two, _ = _unit_terms(T, w)
    n2 = two.sum()
    p_a = pa_i.sum() / n2
    ng = X.sum(axis=(1, 2))  # ratings of each rater
    p = X.sum(axis=1) / ng[:, None]  # p_gk
    p_e = float(_conger_chance(p, w))
    if not 1.0 - p_e > 1e-15:
        return None
    theta = (p_a - p_e) / (1.0 - p_e)
    eps = X.sum(axis=2)  # 1 where rater g rated unit i
    # lambda_gi = sum_k (n / n_g) [ (X w^T)_gik - (eps_gi - n_g / n) (p w^T)_gk ] (R pbar_k - p_gk)
    A = X @ w.T - (eps - (ng / n)[:, None])[:, :, None] * (p @ w.T)[:, None, :]
    A *= (n / ng)[:, None, None]
    lam = np.einsum("gik,gk->gi", A, R * p.mean(axis=0)[None, :] - p)
    pe_i = lam.sum(axis=0) / (R * (R - 1.0))
    x = (n / n2) * (pa_i - p_e * two) / (1.0 - p_e)
    x = x - 2.0 * (1.0 - theta) * (pe_i - p_e) / (1.0 - p_e)
    d = x - theta
    return (1.0 - f) / (n * (n - 1.0)) * float(d @ d)


def _rater_bootstrap(X, w, coefficient):
    """Distinct units (all their raters' ratings), multiplicities, and Conger's or Light's
    kappa of (B, U) weights."""
    R, n, K = X.shape
    flat = X.transpose(1, 0, 2).reshape(n, R * K)
    rows, m = np.unique(flat, axis=0, return_counts=True)
    per = rows.reshape(-1, R, K)
    if coefficient == "conger":
        pa_i, two, _ = _unit_terms(per.sum(axis=1), w)
        pa_two = pa_i * two

        def stat(Wt):
            Wt = np.atleast_2d(Wt)
            n2 = Wt @ two
            counts = (Wt @ rows).reshape(-1, R, K)
            ng = counts.sum(axis=-1)
            with np.errstate(invalid="ignore", divide="ignore"):
                p_a = (Wt @ pa_two) / n2
                p_e = _conger_chance(counts / ng[..., None], w)
                value = (p_a - p_e) / (1.0 - p_e)
            ok = (n2 > 0) & (ng > 0).all(axis=-1) & (1.0 - p_e > 1e-15)
            return np.where(ok, value, np.nan)

        return m.astype(np.float64), stat
    g, h = np.triu_indices(R, 1)
    P = g.size
    pairs = np.einsum("upk,upl->upkl", per[:, g], per[:, h]).reshape(rows.shape[0], P * K * K)
    chunk = max(1, (1 << 21) // (P * K * K))
    eye = np.eye(K)

    def stat(Wt):
        Wt = np.atleast_2d(Wt)
        out = np.empty(Wt.shape[0])
        for s in range(0, Wt.shape[0], chunk):
            C = (Wt[s : s + chunk] @ pairs).reshape(-1, P, K, K)
            empty = ~(C.sum(axis=(-2, -1)) > 0)
            C[empty] = eye  # a pair with no unit in common: its kappa, and Light's, undefined
            k = np.asarray(kappa(C, zero_division=np.nan), dtype=np.float64)
            k[empty] = np.nan
            out[s : s + chunk] = k.mean(axis=-1)
        return out

    return m.astype(np.float64), stat


# ------------------------------------------------------------------ Krippendorff's alpha
def _alpha_bootstrap(data, level, categories, layout):
    """Pairable distinct units, multiplicities, and alpha of (B, U) weights."""
    table, domain, _ = tabulate(data, categories, layout, keep_unused=True)
    table = np.asarray(table, dtype=np.float64)
    table = table[table.sum(axis=1) >= 2]  # units with one rating have no pair
    rows, m = np.unique(table, axis=0, return_counts=True)
    V = rows.shape[1]
    mu = rows.sum(axis=1)
    # o_u = (n_u n_u^T - diag(n_u)) / (m_u - 1), flattened: o* = Wt @ o_units
    o_units = rows[:, :, None] * rows[:, None, :] - rows[:, :, None] * np.eye(V)
    o_units = (o_units / (mu - 1.0)[:, None, None]).reshape(rows.shape[0], V * V)
    fixed = None if level == "ordinal" else _delta(level, domain, None)
    chunk = max(1, (1 << 21) // max(1, V * V))

    def stat(Wt):
        Wt = np.atleast_2d(Wt)
        out = np.empty(Wt.shape[0])
        for s in range(0, Wt.shape[0], chunk):
            o = (Wt[s : s + chunk] @ o_units).reshape(-1, V, V)
            n_c = o.sum(axis=-1)
            n = n_c.sum(axis=-1)
            if fixed is None:
                M = np.cumsum(n_c, axis=-1) - n_c / 2.0
                delta = (M[:, :, None] - M[:, None, :]) ** 2
                D_o = np.einsum("bck,bck->b", o, delta)
                D_e = np.einsum("bc,bck,bk->b", n_c, delta, n_c)
            else:
                D_o = np.einsum("bck,ck->b", o, fixed)
                D_e = np.einsum("bc,ck,bk->b", n_c, fixed, n_c)
            with np.errstate(invalid="ignore", divide="ignore"):
                value = 1.0 - (n - 1.0) * D_o / D_e
            out[s : s + chunk] = np.where(D_e > 0, value, np.nan)
        return out

    return m.astype(np.float64), stat


# ------------------------------------------------------------------------------ engine
def _prepare_bootstrap(data, coefficient, weighting, scores, categories, level, layout):
    """(estimate, multiplicities of the distinct units, batched statistic)."""
    if coefficient == "alpha":
        value = krippendorff_alpha(
            data, level=level, categories=categories, layout=layout, zero_division=float("nan")
        )
        m, stat = _alpha_bootstrap(data, level, categories, layout)
        return float(value), m, stat
    if coefficient in ("conger", "light"):
        X, _, w, value = _rater_parts(data, coefficient, weighting, scores, categories, layout)
        m, stat = _rater_bootstrap(X, w, coefficient)
        return value, m, stat
    T, w, value, kind = _table_parts(data, coefficient, weighting, scores, categories)
    m, stat = _table_bootstrap(T, w, kind)
    return value, m, stat


def _analytic(data, coefficient, weighting, scores, categories, layout, n_population, null):
    """(estimate, number of rated units, variance or None where undefined)."""
    if coefficient == "conger":
        X, T, w, value = _rater_parts(data, coefficient, weighting, scores, categories, layout)
        n = T.shape[0]
        _at_least_two_units(n, coefficient)
        f = _population_share(n_population, n)
        return value, n, None if math.isnan(value) else _conger_variance(X, T, w, f)
    T, w, value, kind = _table_parts(data, coefficient, weighting, scores, categories)
    n = T.shape[0]
    _at_least_two_units(n, coefficient)
    f = _population_share(n_population, n)
    if math.isnan(value):
        return value, n, None
    if null:
        se0 = _fleiss_null_se(T)
        return value, n, None if se0 is None else se0 * se0
    return value, n, _linearized_variance(T, w, kind, f)


def _bootstrap_values(m, stat, n_resamples, rng):
    return stat(_resample(m, n_resamples, _rng(rng)))


_UNDEFINED = "{name} is undefined (0/0) on these data, and so is its standard error"

_DATA_DOC = """What the point estimate takes: for ``"fleiss"``, ``"fleiss_generalized"``,
        ``"ac1"``, ``"ac2"`` and ``"bp"`` the units x categories count table of
        :func:`rating_table` (as :func:`fleiss_kappa`, :func:`fleiss_kappa_generalized`,
        :func:`gwet_ac1_multi`, :func:`brennan_prediger_multi`); for ``"alpha"``,
        ``"conger"`` and ``"light"`` the raw ratings (as :func:`krippendorff_alpha`,
        :func:`conger_kappa`, :func:`light_kappa`, with ``layout=``)."""


def ratings_standard_error(
    data: ArrayLike,
    *,
    coefficient: Coefficient,
    method: Literal["analytic", "bootstrap", "bca"] = "analytic",
    weighting: str | ArrayLike | None = None,
    scores: ArrayLike | None = None,
    categories: ArrayLike | None = None,
    level: Literal["nominal", "ordinal", "interval", "ratio"] = "nominal",
    layout: Layout | None = None,
    null: bool = False,
    n_population: float | None = None,
    n_resamples: int = 9999,
    rng: int | np.random.Generator | None = None,
    zero_division: str | float | None = None,
) -> float | None:
    r"""Standard error of a many-rater coefficient: Gwet's linearization, or the bootstrap.

    **Analytic** (Gwet 2008; 2014, ch. 5).  Each of the ``n`` rated units gets its share of
    the coefficient :math:`\theta = (p_a - p_e)/(1 - p_e)`,

    .. math::

        \theta^\star_i = \frac{n}{n'}\,\frac{p_{a|i} - p_e\,[r_i \ge 2]}{1 - p_e}
            - 2\,(1 - \hat\theta)\,\frac{p_{e|i} - p_e}{1 - p_e}, \qquad
        \widehat{\mathrm{var}}(\hat\theta) = \frac{1 - f}{n(n-1)}
            \sum_{i=1}^{n} (\theta^\star_i - \hat\theta)^2,

    :math:`p_{a|i}` the agreement among unit ``i``'s ratings, :math:`n'` the units with two
    ratings or more, :math:`f = n / n_\text{population}` and :math:`p_{e|i}` the unit's
    share of chance agreement: :math:`\sum_k (n_{ik}/r_i)\,\bar\pi_k` with
    :math:`\bar\pi = (w + w^\top)\pi/2` for Fleiss' kappa,
    :math:`\frac{T_w}{K(K-1)} \sum_k (n_{ik}/r_i)(1 - \pi_k)` for AC1/AC2,
    :math:`p_e` itself for Brennan-Prediger (its chance agreement is fixed), and for
    Conger's kappa Gwet's term for each rater's margins (as irrCAC's ``conger``).

    For Fleiss' kappa, ``null=True`` gives instead the standard error under
    :math:`\kappa = 0` (Fleiss, Nee & Landis 1979), for the test
    :math:`z = \hat\kappa / \mathrm{se}_0`, never for an interval:

    .. math::

        \mathrm{se}_0^2 = \frac{2}{N n (n-1)}\,
            \frac{(\sum_k p_k q_k)^2 - \sum_k p_k q_k (q_k - p_k)}{(\sum_k p_k q_k)^2},
        \qquad q_k = 1 - p_k.

    **Bootstrap** (``method="bootstrap"`` or ``"bca"``, the same number): the standard
    deviation of the coefficient over ``n_resamples`` resamples of the units, for every
    coefficient, Krippendorff's alpha too (see :func:`ratings_confint`).

    Parameters
    ----------
    data : array-like
        DATA_DOC
    coefficient : {"fleiss", "fleiss_generalized", "alpha", "ac1", "ac2", "bp", "conger", "light"}
        ``"ac2"`` is AC1 with ``weighting``; ``"fleiss"`` needs the same number of ratings
        per unit, ``"fleiss_generalized"`` (Gwet's) does not.
    method : {"analytic", "bootstrap", "bca"}, default "analytic"
        Krippendorff's alpha and Light's kappa have no analytic standard error here: use
        the bootstrap.
    weighting, scores, categories :
        As in the coefficient's own function (``weighting`` for the generalized Fleiss,
        AC1/AC2, BP and Conger).
    level : {"nominal", "ordinal", "interval", "ratio"}
        Krippendorff's alpha only.
    layout : {None, "raters x units", "units x raters"}
        Raw ratings (alpha, Conger, Light) only.
    null : bool, default False
        Fleiss' kappa, analytic only: the standard error under :math:`\kappa = 0`.
    n_population : float, optional
        The number of units in the population the ``n`` rated units were drawn from
        (analytic only; default infinite: no correction).
    n_resamples : int, default 9999
        Bootstrap only.
    rng : None, int or numpy.random.Generator
        Bootstrap only: seed it for a reproducible number.
    zero_division : {None, "raise"} or float
        Policy when the coefficient is undefined (0/0).

    Returns
    -------
    se : float or None

    Raises
    ------
    ValueError, TypeError
        On an unknown coefficient or method, ``method="analytic"`` for alpha, an option that
        does not apply to the coefficient or the method, fewer than 2 rated units, an
        ``n_population`` below the number of units, or invalid data (as the coefficient's
        own function).
    UndefinedMetricError
        If the coefficient is undefined and ``zero_division="raise"``.

    Notes
    -----
    The standard error is undefined, ``None``, where the coefficient is (0/0).  It is 0
    where every unit contributes the same (perfect agreement, say); that says the formula
    cannot see any uncertainty in these units, not that there is none.

    References
    ----------
    Gwet, K. L. (2008). Computing inter-rater reliability and its variance in the presence
    of high agreement. *British Journal of Mathematical and Statistical Psychology* 61,
    29-48.  Gwet, K. L. (2014). *Handbook of Inter-Rater Reliability*, 4th ed., ch. 5.
    Fleiss, J. L., Nee, J. C. M. & Landis, J. R. (1979). Large sample variance of kappa in
    the case of different sets of raters. *Psychological Bulletin* 86(5), 974-977.

    Examples
    --------
    Krippendorff's (2011) example, four raters with missing ratings; Gwet's irrCAC
    documents AC1 = 0.77544 with standard error 0.14295:

    >>> import numpy as np
    >>> import kappalib as kl
    >>> nan = np.nan
    >>> data = [[1, 2, 3, 3, 2, 1, 4, 1, 2, nan, nan, nan],
    ...         [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, nan, 3],
    ...         [nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, nan],
    ...         [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, nan]]
    >>> table, _ = kl.rating_table(data)
    >>> round(kl.ratings_standard_error(table, coefficient="ac1"), 5)
    0.14295
    """
    _check_options(coefficient, method, weighting, level, layout, null, n_population)
    zero_division = check_zero_division(zero_division)
    name = _NAMES[coefficient]
    if method == "analytic":
        _, _, var = _analytic(
            data, coefficient, weighting, scores, categories, layout, n_population, null
        )
        se = None if var is None else math.sqrt(max(var, 0.0))
    else:
        n_resamples = _check_n_resamples(n_resamples)
        value, m, stat = _prepare_bootstrap(
            data, coefficient, weighting, scores, categories, level, layout
        )
        _at_least_two_units(int(m.sum()), coefficient)
        se = None
        if not math.isnan(value):
            boot = _bootstrap_values(m, stat, n_resamples, rng)
            boot = boot[np.isfinite(boot)]
            se = float(np.std(boot, ddof=1)) if boot.size > 1 else None
    return finish(
        np.nan if se is None else se, se is None, zero_division, _UNDEFINED.format(name=name)
    )


def ratings_confint(
    data: ArrayLike,
    *,
    coefficient: Coefficient,
    method: Literal["analytic", "bootstrap", "bca"] = "analytic",
    confidence_level: float = 0.95,
    n_resamples: int = 9999,
    rng: int | np.random.Generator | None = None,
    level: Literal["nominal", "ordinal", "interval", "ratio"] = "nominal",
    weighting: str | ArrayLike | None = None,
    scores: ArrayLike | None = None,
    categories: ArrayLike | None = None,
    layout: Layout | None = None,
    n_population: float | None = None,
    zero_division: str | float | None = None,
) -> tuple[float, float] | None:
    r"""Confidence interval of a many-rater coefficient: analytic, or the bootstrap over units.

    **Analytic** (Gwet 2014, as irrCAC): with the standard error of
    :func:`ratings_standard_error` and Student's t with ``n - 1`` degrees of freedom,

    .. math:: \hat\theta \pm t_{n-1,\,(1+\gamma)/2}\;\widehat{\mathrm{se}}(\hat\theta),

    its upper end cut at 1, the largest value any of these coefficients takes.

    **Bootstrap over units** (``"bootstrap"``: percentile; ``"bca"``: bias-corrected and
    accelerated).  The units are the sampled objects, so a resample draws ``n`` units with
    replacement, each with all of its ratings, and recomputes the coefficient.  The ``n``
    units take ``U`` distinct rating patterns, so the ``B`` resamples are ``B``
    multinomial draws of ``n`` over those patterns,

    .. math:: m^{*b} \sim \mathrm{Multinomial}(n, \; m / n), \qquad b = 1, \dots, B,

    and the coefficient of every resample comes from one batched computation (its sums
    over units are ``m^{*b}`` times per-pattern terms).  The interval is the percentile or
    BCa interval of :func:`bootstrap_confint`, with BCa's jackknife leaving out one unit of
    each pattern.  For alpha only units with two ratings or more are resampled (the others
    do not enter alpha); for AC1 and BP a unit with a single rating stays (it enters
    :math:`\pi_k`).

    Parameters
    ----------
    data : array-like
        DATA_DOC
    coefficient : {"fleiss", "fleiss_generalized", "alpha", "ac1", "ac2", "bp", "conger", "light"}
        As in :func:`ratings_standard_error`.
    method : {"analytic", "bootstrap", "bca"}, default "analytic"
        ``"analytic"`` is refused for Krippendorff's alpha and Light's kappa.
    confidence_level : float, default 0.95
        Coverage, strictly between 0 and 1.
    n_resamples : int, default 9999
        Bootstrap only, at least 1.
    rng : None, int or numpy.random.Generator
        Bootstrap only: seed it for a reproducible interval.
    level, weighting, scores, categories, layout, n_population, zero_division :
        As in :func:`ratings_standard_error`.

    Returns
    -------
    (low, high) : tuple of two floats, or None
        ``None`` when the coefficient is undefined (0/0) and ``zero_division`` is None.

    Raises
    ------
    ValueError, TypeError
        As :func:`ratings_standard_error`, and ``confidence_level`` outside (0, 1).
    UndefinedMetricError
        If the coefficient is undefined and ``zero_division="raise"``.

    Notes
    -----
    The analytic interval is large-sample: with few units, or a rare category, it is too
    narrow (chapter 13 measures its coverage).  A zero-width interval (every resample, or
    every unit's share, the same: perfect agreement, say) says that these units show no
    variation, not that there is no uncertainty.  Resamples on which the coefficient is
    undefined are left out, as in :func:`bootstrap_confint`.

    *Against irrCAC* (Gwet's package), the analytic numbers are the same (tested on 500
    random rating sets per coefficient), with four differences by design: a standard error
    of 0 stays 0 here (irrCAC puts 1e-15 in its place); irrCAC's ``fleiss`` is
    ``"fleiss_generalized"`` here, ``"fleiss"`` being Fleiss' own coefficient for units with
    equal numbers of ratings; irrCAC's linearization SE of alpha has no counterpart (alpha
    is bootstrapped); and any ``confidence_level`` in (0, 1) is accepted (irrCAC: 0.90 to
    0.99).

    Hayes and Krippendorff's (2007) KALPHA bootstraps alpha differently: it draws pairs of
    values from the coincidence matrix and keeps the data's expected disagreement fixed.
    The bootstrap here resamples units, keeping the ratings of a unit together, and
    recomputes both disagreements; Zapf et al. (2016) compare such intervals by simulation.

    References
    ----------
    Gwet, K. L. (2014). *Handbook of Inter-Rater Reliability*, 4th ed., ch. 5.
    Efron, B. & Tibshirani, R. J. (1993). *An Introduction to the Bootstrap*.
    Hayes, A. F. & Krippendorff, K. (2007). Answering the call for a standard reliability
    measure for coding data. *Communication Methods and Measures* 1(1), 77-89.
    Zapf, A., Castell, S., Morawietz, L. & Karch, A. (2016). Measuring inter-rater
    reliability for nominal data: which coefficients and confidence intervals are
    appropriate? *BMC Medical Research Methodology* 16, 93.

    Examples
    --------
    Krippendorff's (2011) example: irrCAC documents AC1's interval (0.46081, 1):

    >>> import numpy as np
    >>> import kappalib as kl
    >>> nan = np.nan
    >>> data = [[1, 2, 3, 3, 2, 1, 4, 1, 2, nan, nan, nan],
    ...         [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, nan, 3],
    ...         [nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, nan],
    ...         [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, nan]]
    >>> table, _ = kl.rating_table(data)
    >>> low, high = kl.ratings_confint(table, coefficient="ac1")
    >>> round(low, 5), round(high, 5)
    (0.46081, 1.0)

    Alpha has no analytic interval; the bootstrap over its 11 pairable units (seeded):

    >>> low, high = kl.ratings_confint(data, coefficient="alpha", method="bootstrap", rng=0)
    >>> round(low, 2), round(high, 2)
    (0.41, 1.0)
    """
    _check_options(coefficient, method, weighting, level, layout, False, n_population)
    confidence = check_confidence(confidence_level)
    zero_division = check_zero_division(zero_division)
    name = _NAMES[coefficient]
    message = f"{name} is undefined (0/0) on these data, and so is its interval"
    if method == "analytic":
        value, n, var = _analytic(
            data, coefficient, weighting, scores, categories, layout, n_population, False
        )
        if var is None:
            interval = None
        else:
            half = _t_quantile((1.0 + confidence) / 2.0, n - 1.0) * math.sqrt(max(var, 0.0))
            interval = (value - half, min(value + half, 1.0))
    else:
        n_resamples = _check_n_resamples(n_resamples)
        value, m, stat = _prepare_bootstrap(
            data, coefficient, weighting, scores, categories, level, layout
        )
        _at_least_two_units(int(m.sum()), coefficient)
        interval = None
        if not math.isnan(value):
            boot = _bootstrap_values(m, stat, n_resamples, rng)
            kind = "bca" if method == "bca" else "percentile"
            interval = _interval(value, boot, confidence, kind, lambda: _jackknife(m, stat))
    if interval is None:
        if zero_division is None:
            return None
        return (
            finish(np.nan, True, zero_division, message),
            finish(np.nan, True, zero_division, message),
        )
    return float(interval[0]), float(interval[1])


for _f in (ratings_standard_error, ratings_confint):
    _f.__doc__ = (_f.__doc__ or "").replace("DATA_DOC", _DATA_DOC)
