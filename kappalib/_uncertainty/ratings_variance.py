"""The analytic standard errors of the many-rater coefficients: Gwet's (2008, 2014)
linearized variance with the finite-population correction (Fleiss, the generalized Fleiss
kappa, AC1/AC2, Brennan-Prediger, Conger) and Fleiss, Nee and Landis' (1979) null standard
error of Fleiss' kappa; Gwet's variance of Krippendorff's alpha (``alpha_variance``) and the
delta method of Light's kappa (``dependent_kappas``)."""

from __future__ import annotations

import math
import numbers

import numpy as np

from .._coefficients.arithmetic import checked_agreement_weights
from .._coefficients.count_tables import (
    brennan_prediger_multi,
    fleiss_kappa,
    fleiss_kappa_generalized,
    gwet_ac1_multi,
)
from .._coefficients.fixed_raters import conger_kappa, light_kappa, rater_indicators
from .._coefficients.krippendorff import alpha_distance, delta, krippendorff_alpha
from .._count.ratings import tabulate
from .._input.tables import (
    check_weighted_order,
    default_scores,
    labelled_table,
    table_and_categories,
)
from .._shared.messages import short
from .alpha_variance import alpha_linearized_variance
from .dependent_kappas import light_parts, rater_codes

COEFFICIENT_NAMES = {
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
            f"n_population must be a number of units (or math.inf), got {short(n_population)}"
        )
    if not n_population >= n:
        raise ValueError(
            f"n_population must be at least the number of rated units, {n}, got {n_population!r}"
        )
    return n / float(n_population)


def at_least_two_units(n, coefficient):
    if n < 2:
        raise ValueError(
            f"{COEFFICIENT_NAMES[coefficient]} needs at least 2 rated units for a standard "
            f"error or an interval, got {n}"
        )


# ---------------------------------------------------------- count-table coefficients
def table_parts(table, coefficient, weighting, scores, categories):
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
        w = checked_agreement_weights(weighting, T.shape[1], scores, name)
    T = T[np.einsum("ik->i", T) > 0]
    kind = {"fleiss_generalized": "fleiss", "ac2": "ac1"}.get(coefficient, coefficient)
    return T, w, float(value), kind


def unit_terms(T, w):
    """Per unit: p_a,i over its pairs (0 with fewer than 2 ratings), whether it has two
    ratings, and its shares n_ik / r_i."""
    r = np.einsum("ik->i", T)
    two = r >= 2
    S = T / r[:, None]
    # sum_k n_ik (n*_ik - 1) / (r_i (r_i - 1)), in shares: no product of counts overflows
    agree = np.einsum("ik,ik->i", S, S @ w.T) - 1.0 / r
    pa_i = np.where(two, agree * (r / np.where(two, r - 1.0, 1.0)), 0.0)
    return pa_i, two.astype(np.float64), S


def chance_agreement(coefficient, w, pi):
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
    pa_i, two, S = unit_terms(T, w)
    n2 = two.sum()
    p_a = pa_i.sum() / n2
    pi = S.mean(axis=0)
    p_e = float(chance_agreement(coefficient, w, pi))
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


# ------------------------------------------------------------- Conger and Light (raw)
def rater_parts(data, coefficient, weighting, scores, categories, layout):
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
    X, table, domain, _ = rater_indicators(data, layout, categories, "ratings")
    keep = table.sum(axis=1) > 0
    X, table = X[:, keep], table[keep]
    w = np.eye(domain.size)
    if coefficient == "conger" and not math.isnan(value):
        scores = default_scores(weighting, scores, domain)
        w = checked_agreement_weights(weighting, domain.size, scores, "conger_kappa")
    return X, table, w, float(value)


def conger_chance(p, w):
    """Conger's p_e = sum_kl w_kl (pbar_k pbar_l - s2_kl / R) from rater shares p (..., R, K)."""
    R = p.shape[-2]
    p_bar = p.mean(axis=-2)
    D = p - p_bar[..., None, :]
    s2 = np.einsum("...gk,...gl->...kl", D, D) / (R - 1.0)
    return np.einsum("kl,...kl->...", w, p_bar[..., :, None] * p_bar[..., None, :] - s2 / R)


def _conger_variance(X, T, w, f):
    """Gwet's (2014) linearization variance of Conger's kappa, as irrCAC's ``conger``."""
    R, n, _ = X.shape
    pa_i, two, _ = unit_terms(T, w)
    n2 = two.sum()
    p_a = pa_i.sum() / n2
    ng = X.sum(axis=(1, 2))  # ratings of each rater
    p = X.sum(axis=1) / ng[:, None]  # p_gk
    p_e = float(conger_chance(p, w))
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


def analytic_variance(
    data, coefficient, weighting, scores, categories, layout, n_population, null, level="nominal"
):
    """(estimate, number of rated units, variance or None where undefined)."""
    if coefficient == "alpha":
        return _alpha_analytic(data, weighting, scores, categories, layout, n_population, level)
    if coefficient == "light":
        return _light_analytic(data, categories, layout, n_population)
    if coefficient == "conger":
        X, T, w, value = rater_parts(data, coefficient, weighting, scores, categories, layout)
        n = T.shape[0]
        at_least_two_units(n, coefficient)
        f = _population_share(n_population, n)
        return value, n, None if math.isnan(value) else _conger_variance(X, T, w, f)
    T, w, value, kind = table_parts(data, coefficient, weighting, scores, categories)
    n = T.shape[0]
    at_least_two_units(n, coefficient)
    f = _population_share(n_population, n)
    if math.isnan(value):
        return value, n, None
    if null:
        se0 = _fleiss_null_se(T)
        return value, n, None if se0 is None else se0 * se0
    return value, n, _linearized_variance(T, w, kind, f)


# ----------------------------------------- analytic alpha (Gwet) and Light (delta method)
def _alpha_analytic(data, weighting, scores, categories, layout, n_population, level):
    """Gwet's linearization of alpha (``alpha_variance``): (estimate, units, variance)."""
    if level == "ordinal":
        raise ValueError(
            "Krippendorff's alpha at the ordinal level has no analytic standard error in "
            "kappalib: its distances depend on the values' frequencies, which Gwet's variance "
            "holds fixed; use the bootstrap: method='bootstrap' (standard error), "
            "method='percentile' or method='bca' (interval)"
        )
    krippendorff_alpha(  # the checks and sentences of the coefficient itself
        data,
        level_of_measurement=level,
        weighting=weighting,
        scores=scores,
        labels=categories,
        layout=layout,
        zero_division=float("nan"),
    )
    table, domain, source = tabulate(data, categories, layout, keep_unused=True)
    T = np.asarray(table, dtype=np.float64)
    if weighting is not None:
        distance = alpha_distance(weighting, scores, domain, source)
    else:
        distance = delta(level, domain, None)
    top = distance.max() if distance.size and distance.max() > 0 else 1.0
    w = 1.0 - distance / top
    n = int((T.sum(axis=1) >= 2).sum())
    at_least_two_units(n, "alpha")
    f = _population_share(n_population, n)
    value, var = alpha_linearized_variance(T, w, f)
    return value, n, var


def _light_analytic(data, categories, layout, n_population):
    """The delta method of Light's kappa (``dependent_kappas``): (estimate, units, variance)."""
    if n_population is not None:
        raise ValueError(
            "n_population (the finite-population correction) applies to Gwet's variances, not "
            f"to the delta method of Light's kappa, got n_population={short(n_population)}"
        )
    codes, domain, _ = rater_codes(data, layout, categories)
    codes = codes[:, (codes >= 0).sum(axis=0) >= 2]
    n = codes.shape[1]
    at_least_two_units(n, "light")
    value, se, _ = light_parts(codes, domain.size)
    return value, n, None if se is None else se * se
