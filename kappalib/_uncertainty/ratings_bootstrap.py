"""The statistics the bootstrap over units recomputes: each coefficient as a function of a
(B, U) matrix of resampled multiplicities of the U distinct units, one matrix product per
block of resamples (count tables, raters' ratings, Krippendorff's alpha from per-unit
coincidences)."""

from __future__ import annotations

import numpy as np

from .._coefficients.kappa import kappa
from .._coefficients.krippendorff import alpha_distance, delta, krippendorff_alpha
from .._count.ratings import tabulate
from .._input.options import make_rng
from .bootstrap import resample
from .ratings_variance import chance_agreement, conger_chance, rater_parts, table_parts, unit_terms


def table_bootstrap(T, w, coefficient):
    """Distinct units, their multiplicities, and the batched statistic of (B, U) weights."""
    rows, m = np.unique(T, axis=0, return_counts=True)
    pa_i, two, S = unit_terms(rows, w)
    pa_two = pa_i * two

    def stat(Wt):
        Wt = np.atleast_2d(Wt)
        n2 = Wt @ two
        with np.errstate(invalid="ignore", divide="ignore"):
            p_a = (Wt @ pa_two) / n2
            pi = (Wt @ S) / Wt.sum(axis=1)[:, None]
            p_e = chance_agreement(coefficient, w, pi)
            value = (p_a - p_e) / (1.0 - p_e)
        return np.where((n2 > 0) & (1.0 - p_e > 0), value, np.nan)

    return m.astype(np.float64), stat


def rater_bootstrap(X, w, coefficient):
    """Distinct units (all their raters' ratings), multiplicities, and Conger's or Light's
    kappa of (B, U) weights."""
    R, n, K = X.shape
    flat = X.transpose(1, 0, 2).reshape(n, R * K)
    rows, m = np.unique(flat, axis=0, return_counts=True)
    per = rows.reshape(-1, R, K)
    if coefficient == "conger":
        pa_i, two, _ = unit_terms(per.sum(axis=1), w)
        pa_two = pa_i * two

        def stat(Wt):
            Wt = np.atleast_2d(Wt)
            n2 = Wt @ two
            counts = (Wt @ rows).reshape(-1, R, K)
            ng = counts.sum(axis=-1)
            with np.errstate(invalid="ignore", divide="ignore"):
                p_a = (Wt @ pa_two) / n2
                p_e = conger_chance(counts / ng[..., None], w)
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
def alpha_bootstrap(data, level, categories, layout, weighting=None, scores=None):
    """Pairable distinct units, multiplicities, and alpha of (B, U) weights."""
    table, domain, source = tabulate(data, categories, layout, keep_unused=True)
    table = np.asarray(table, dtype=np.float64)
    table = table[table.sum(axis=1) >= 2]  # units with one rating have no pair
    rows, m = np.unique(table, axis=0, return_counts=True)
    V = rows.shape[1]
    mu = rows.sum(axis=1)
    # o_u = (n_u n_u^T - diag(n_u)) / (m_u - 1), flattened: o* = Wt @ o_units
    o_units = rows[:, :, None] * rows[:, None, :] - rows[:, :, None] * np.eye(V)
    o_units = (o_units / (mu - 1.0)[:, None, None]).reshape(rows.shape[0], V * V)
    if weighting is not None:
        fixed = alpha_distance(weighting, scores, domain, source)
    else:
        fixed = None if level == "ordinal" else delta(level, domain, None)
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
def prepare_bootstrap(data, coefficient, weighting, scores, categories, level, layout):
    """(estimate, multiplicities of the distinct units, batched statistic)."""
    if coefficient == "alpha":
        value = krippendorff_alpha(
            data,
            level_of_measurement=level,
            weighting=weighting,
            scores=scores,
            labels=categories,
            layout=layout,
            zero_division=float("nan"),
        )
        m, stat = alpha_bootstrap(data, level, categories, layout, weighting, scores)
        return float(value), m, stat
    if coefficient in ("conger", "light"):
        X, _, w, value = rater_parts(data, coefficient, weighting, scores, categories, layout)
        m, stat = rater_bootstrap(X, w, coefficient)
        return value, m, stat
    T, w, value, kind = table_parts(data, coefficient, weighting, scores, categories)
    m, stat = table_bootstrap(T, w, kind)
    return value, m, stat


def bootstrap_values(m, stat, n_resamples, rng):
    return stat(resample(m, n_resamples, make_rng(rng)))
