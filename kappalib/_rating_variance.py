"""The parts of the many-rater intervals: Gwet's linearized variance of each coefficient (with
the finite-population correction), Fleiss, Nee and Landis' null standard error, and the
statistics the bootstrap over units recomputes (count tables, raters' ratings, Krippendorff's
alpha from per-unit coincidences). :func:`ratings_standard_error` and
:func:`ratings_confint` (``_rating_inference``) check their arguments and call these."""

from __future__ import annotations

import math
import numbers

import numpy as np

from ._agreement import kappa
from ._bootstrap import make_rng, resample
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
    check_weighted_order,
    default_scores,
    labelled_table,
    table_and_categories,
)
from ._two_rater import _agreement_weights
from ._validation import _short

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
    if categories is not None:
        table = labelled_table(table, categories, name)
    if coefficient == "fleiss":
        value = fleiss_kappa(table, zero_division=nan)
        T, _, _ = table_and_categories(table, None, name)
        w = np.eye(T.shape[1])
    else:
        if coefficient == "fleiss_generalized":
            value = fleiss_kappa_generalized(
                table, weighting=weighting, scores=scores, zero_division=nan
            )
        else:
            f = brennan_prediger_multi if coefficient == "bp" else gwet_ac1_multi
            value = f(table, weighting=weighting, scores=scores)
        T, domain, source = table_and_categories(table, None, name)
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
            labels=categories,
            weighting=weighting,
            scores=scores,
            zero_division=nan,
        )
    else:
        value = light_kappa(data, layout=layout, labels=categories, zero_division=nan)
    X, table, domain, _ = _rater_indicators(data, layout, categories, "ratings")
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
            data,
            level_of_measurement=level,
            labels=categories,
            layout=layout,
            zero_division=float("nan"),
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
    return stat(resample(m, n_resamples, make_rng(rng)))
