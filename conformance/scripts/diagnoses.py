"""Each *wrong* verdict's diagnosis, as a computation: the reference's own mistake, redone.

``DIAGNOSES[verdict](case)`` returns ``{quantity: value}``: what the reference gives when
the formula has exactly the defect that verdicts.py describes.  tests/test_conformance.py
checks that it reproduces every value the table marks wrong (so the explanation is not a
guess), and build.py refuses a wrong verdict whose diagnosis does not reproduce the value.
Standard library and numpy only: the tests run it without R.
"""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np


def _matrix(case):
    return np.array(case["input"]["matrix"], dtype=float)


def _agreement(spec, K):
    if spec in (None, "identity"):
        return np.eye(K)
    d = np.abs(np.subtract.outer(np.arange(K), np.arange(K))) / (K - 1)
    if spec == "linear":
        return 1 - d
    if spec == "quadratic":
        return 1 - d**2
    return np.array(spec, dtype=float)


def psych_weighted_se(case):
    """psych 2.2.9's cohen.kappa: colw <- colSums(w * cs), roww <- rowSums(w * rs) (R
    recycles cs and rs down the columns: element [i, j] is multiplied by cs[i], rs[i]), and
    the outer sum colw %+% t(roww)."""
    M = _matrix(case)
    K = M.shape[0]
    x = M / M.sum()
    rs, cs = x.sum(axis=1), x.sum(axis=0)
    w = _agreement(case["options"]["weights"], K)
    wpo, wpc = (w * x).sum(), (w * np.outer(rs, cs)).sum()
    colw = (w * cs[:, None]).sum(axis=0)
    roww = (w * rs[:, None]).sum(axis=1)
    outer = colw[:, None] + roww[None, :]
    var = (
        (x * (w * (1 - wpc) - outer * (1 - wpo)) ** 2).sum() - (wpo * wpc - 2 * wpc + wpo) ** 2
    ) / (M.sum() * (1 - wpc) ** 4)
    se = math.sqrt(var) if var > 0 else 0.0  # psych sets a negative variance to 0 ("bad")
    level = case["options"].get("confidence_level", 0.95)
    z = NormalDist().inv_cdf((1 + level) / 2)
    kw = (wpo - wpc) / (1 - wpc)
    return {"se": se, "ci_low": max(-1.0, kw - z * se), "ci_high": min(1.0, kw + z * se)}


def psych_zero_variance(case):
    return {"se": 0.0}


def epir_interval_from_null_se(case):
    """kappa +/- z se_0, se_0 = sqrt(p_e + p_e^2 - sum p_i. p_.i (p_i. + p_.i)) / ((1 - p_e)
    sqrt(N))."""
    M = _matrix(case)
    N = M.sum()
    x = M / N
    r, c = x.sum(axis=1), x.sum(axis=0)
    pe = (r * c).sum()
    k = (np.trace(x) - pe) / (1 - pe)
    inside = pe + pe**2 - (r * c * (r + c)).sum()
    if inside < 0:  # R: sqrt of a negative rounding residue is NaN
        return {"ci_low": None, "ci_high": None}
    se0 = math.sqrt(inside) / ((1 - pe) * math.sqrt(N))
    z = NormalDist().inv_cdf((1 + case["options"].get("confidence_level", 0.95)) / 2)
    return {"ci_low": k - z * se0, "ci_high": k + z * se0}


def epir_pabak(case):
    M = _matrix(case)
    return {"value": 2 * np.trace(M) / M.sum() - 1}


def statsmodels_mcnemar(case):
    M = _matrix(case)
    b, c = M[0, 1], M[1, 0]
    if b + c == 0:
        return {"statistic": "inf", "pvalue": 0.0}
    stat = (abs(b - c) - 1) ** 2 / (b + c)
    return {"statistic": stat, "pvalue": math.erfc(math.sqrt(stat / 2))}


def _sm(A):
    """d' S^-1 d over the first K - 1 classes of A (None when S is singular)."""
    r, c = A.sum(axis=1), A.sum(axis=0)
    d = (r - c)[:-1]
    S = -(A + A.T)
    np.fill_diagonal(S, r + c - 2 * np.diag(A))
    S = S[:-1, :-1]
    if abs(np.linalg.det(S)) < 1e-9:
        return None
    return float(d @ np.linalg.solve(S, d))


def _chi2_sf(x, df):
    from math import exp, lgamma, log

    # the regularized upper gamma Q(df/2, x/2) by its series (small df here)
    a, t = df / 2.0, x / 2.0
    if t == 0:
        return 1.0
    term = total = 1.0 / a
    n = 0
    while abs(term) > 1e-17 * abs(total):
        n += 1
        term *= t / (a + n)
        total += term
    return 1.0 - exp(-t + a * log(t) - lgamma(a)) * total


def statsmodels_stuart_maxwell(case):
    """statsmodels 0.15: proportions, the last class dropped, np.linalg.solve (NaN when it
    raises), df = K - 1 always.  A singular S that solve does not detect (rounding) still
    gives d' S^- d, since d lies in S's range."""
    M = _matrix(case)
    K = M.shape[0]
    n = M.sum()
    pr = M / n
    row, col = pr.sum(axis=1)[:-1], pr.sum(axis=0)[:-1]
    pr = pr[:-1, :-1]
    d = col - row
    vmat = -(pr + pr.T)
    np.fill_diagonal(vmat, row + col - 2 * np.diag(pr))
    try:
        stat = float(n * d @ np.linalg.solve(vmat, d))
    except np.linalg.LinAlgError:
        return {"statistic": None, "df": K - 1, "pvalue": None}
    return {"statistic": stat, "df": K - 1, "pvalue": _chi2_sf(stat, K - 1)}


def irr_stuart_maxwell(case):
    """irr drops every class whose margins are equal, then tests the rest on K' - 1 df."""
    M = _matrix(case)
    keep = M.sum(axis=1) != M.sum(axis=0)
    A = M[np.ix_(keep, keep)]
    stat = _sm(A)
    return {
        "statistic": stat,
        "df": int(keep.sum()) - 1,
        "pvalue": None if stat is None else _chi2_sf(stat, int(keep.sum()) - 1),
    }


def desctools_stuart_maxwell(case):
    """DescTools drops the classes with perfect agreement but keeps df = K - 1."""
    M = _matrix(case)
    K = M.shape[0]
    perfect = (np.diag(M) == M.sum(axis=1)) & (np.diag(M) == M.sum(axis=0))
    A = M[np.ix_(~perfect, ~perfect)]
    stat = _sm(A)
    return {"df": K - 1, "pvalue": None if stat is None else _chi2_sf(stat, K - 1)}


def irr_kripp_alpha_complete(case):
    """Krippendorff's alpha with each pair's coincidence divided by 1, not m_u - 1."""
    from fractions import Fraction as Frac

    level = case["options"]["level"]
    R = case["input"]["ratings"]
    values = sorted({v for row in R for v in row})
    idx = {v: i for i, v in enumerate(values)}
    V = len(values)
    o = [[Frac(0)] * V for _ in range(V)]
    for row in R:
        for a in range(len(row)):
            for b in range(len(row)):
                if a != b:
                    o[idx[row[a]]][idx[row[b]]] += 1
    nc = [sum(r) for r in o]
    n = sum(nc)

    def delta(c, k):
        if c == k:
            return Frac(0)
        if level == "nominal":
            return Frac(1)
        if level == "ordinal":
            lo, hi = min(c, k), max(c, k)
            return (sum(nc[lo : hi + 1]) - (nc[c] + nc[k]) / 2) ** 2
        vc, vk = Frac(values[c]), Frac(values[k])
        return (vc - vk) ** 2 if level == "interval" else ((vc - vk) / (vc + vk)) ** 2

    Do = sum(o[c][k] * delta(c, k) for c in range(V) for k in range(V))
    De = sum(nc[c] * nc[k] * delta(c, k) for c in range(V) for k in range(V))
    return {"value": float(1 - (n - 1) * Do / De)}


def _anova(case):
    Y = np.array(case["input"]["ratings"], dtype=float)
    n, k = Y.shape
    g = Y.mean()
    SSR = k * ((Y.mean(axis=1) - g) ** 2).sum()
    SSC = n * ((Y.mean(axis=0) - g) ** 2).sum()
    SSE = ((Y - Y.mean(axis=1)[:, None] - Y.mean(axis=0)[None, :] + g) ** 2).sum()
    return SSR / (n - 1), SSC / (k - 1), SSE / ((n - 1) * (k - 1)), n, k


def _v(rho, MSC, MSE, n, k, a_factor):
    a = a_factor * k * rho / (n * (1 - rho))
    b = 1 + a_factor * k * rho * (n - 1) / (n * (1 - rho))
    return (a * MSC + b * MSE) ** 2 / (
        (a * MSC) ** 2 / (k - 1) + (b * MSE) ** 2 / ((n - 1) * (k - 1))
    )


def irr_icc_test_df(case):
    """irr: F = MSR/MSE on (n - 1, v), v the interval's Satterthwaite df at rho-hat."""
    from scipy.stats import f

    MSR, MSC, MSE, n, k = _anova(case)
    if MSR == 0:  # every ICC is 0/0, and so is irr's v
        return {q: None for q in ("ICC2.df2", "ICC2.pvalue", "ICC2k.df2", "ICC2k.pvalue")}
    out = {}
    r1 = (MSR - MSE) / (MSR + (k - 1) * MSE + k * (MSC - MSE) / n)
    rk = (MSR - MSE) / (MSR + (MSC - MSE) / n)
    for form, rho, factor in (("ICC2", r1, 1.0), ("ICC2k", rk, 1.0)):
        v = _v(rho, MSC, MSE, n, k, factor)
        out[f"{form}.df2"] = v
        out[f"{form}.pvalue"] = float(f.sf(MSR / MSE, n - 1, v)) if MSE > 0 else 0.0
    return out


def irr_icc_ak_interval(case):
    """irr: ICC(A,k)'s bounds with v computed at rho = ICC(A,k)."""
    from scipy.stats import f

    MSR, MSC, MSE, n, k = _anova(case)
    level = case["options"].get("confidence_level", 0.95)
    q = 1 - (1 - level) / 2
    rk = (MSR - MSE) / (MSR + (MSC - MSE) / n)
    v = _v(rk, MSC, MSE, n, k, 1.0)
    FL, FU = f.ppf(q, n - 1, v), f.ppf(q, v, n - 1)
    return {
        "ICC2k.ci_low": n * (MSR - FL * MSE) / (FL * (MSC - MSE) + n * MSR),
        "ICC2k.ci_high": n * (FU * MSR - MSE) / (MSC - MSE + n * FU * MSR),
    }


def epir_ccc_constant(case):
    """epi.ccc: s_xy = r s_x s_y with r = cor(x, y), NaN for a constant rater."""
    x, y = np.array(case["input"]["x"], float), np.array(case["input"]["y"], float)
    if x.std() == 0 or y.std() == 0:
        return {"value": None}
    sxy = np.corrcoef(x, y)[0, 1] * x.std() * y.std()
    return {"value": 2 * sxy / (x.var() + y.var() + (x.mean() - y.mean()) ** 2)}


def irrcac_one_category(case):
    return {"value": 1.0, "ci_high": 1.0}


def irr_light_test(case):
    """irr's kappam.light: disrater_p = sum_{i != j} r1_i r2_j (counts) for each pair, then
    chanceP = 1 - P prod(disrater) / n^(2P), var = chanceP / (n (1 - chanceP)), z = kappa /
    sqrt(var) (NaN when var < 0), p = 2 (1 - Phi(|z|)); listwise complete units."""
    rows = [r for r in case["input"]["ratings"] if None not in r]
    n, m = len(rows), len(rows[0])
    levels = sorted({v for r in rows for v in r})
    kappas, dis = [], []
    for a in range(m):
        for b in range(a + 1, m):
            M = np.array([[sum(1 for r in rows if r[a] == x and r[b] == y) for y in levels]
                          for x in levels], dtype=float)
            N = M.sum()
            r1, r2 = M.sum(axis=1), M.sum(axis=0)
            pe = (r1 @ r2) / N**2
            kappas.append((np.trace(M) / N - pe) / (1 - pe))
            dis.append(r1.sum() * r2.sum() - r1 @ r2)
    P = len(dis)
    chance = 1 - P * np.prod(np.array(dis, dtype=float) / float(n) ** 2)
    var = chance / (n * (1 - chance))
    kappa = float(np.mean(kappas))
    if not var > 0:
        return {"z_null": float("nan"), "pvalue": float("nan")}
    z = kappa / math.sqrt(var)
    return {"z_null": z, "pvalue": 2 * (1 - NormalDist().cdf(abs(z)))}


def epir_occc(case):
    """epi.occc: sd and cov with n - 1, the squared mean differences unscaled."""
    X = np.array(case["input"]["ratings"], dtype=float)
    J = X.shape[1]
    m, S = X.mean(axis=0), np.cov(X.T, ddof=1)
    pairs = [(j, k) for j in range(J) for k in range(j + 1, J)]
    ksi = np.array([S[j, j] + S[k, k] + (m[j] - m[k]) ** 2 for j, k in pairs])
    cov = np.array([S[j, k] for j, k in pairs])
    sds = np.array([math.sqrt(S[j, j] * S[k, k]) for j, k in pairs])
    return {"value": 2 * cov.sum() / ksi.sum(), "accuracy": 2 * sds.sum() / ksi.sum()}


DIAGNOSES = {
    "epiR-occc-divisor": epir_occc,
    "irr-light-test": irr_light_test,
    "psych-weighted-se": psych_weighted_se,
    "psych-zero-variance": psych_zero_variance,
    "epiR-interval-from-null-se": epir_interval_from_null_se,
    "epiR-pabak-K-classes": epir_pabak,
    "statsmodels-mcnemar-correction": statsmodels_mcnemar,
    "statsmodels-stuart-maxwell-df": statsmodels_stuart_maxwell,
    "irr-stuart-maxwell-equal-margins": irr_stuart_maxwell,
    "DescTools-stuart-maxwell-df": desctools_stuart_maxwell,
    "irr-kripp-alpha-complete-data": irr_kripp_alpha_complete,
    "irr-icc-agreement-test-df": irr_icc_test_df,
    "irr-icc-ak-interval": irr_icc_ak_interval,
    "irrCAC-one-category": irrcac_one_category,
    "epiR-ccc-constant-rater": epir_ccc_constant,
}
