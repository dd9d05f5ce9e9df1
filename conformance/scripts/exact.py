"""Exact references: each coefficient's closed form in rational arithmetic (``fractions``).

Written from the publications' formulas, independently of kappalib (which is never imported
here).  Square roots are taken at the very end with ``decimal`` at 40 digits; everything
before them is exact.  A value that is 0/0 is ``None``.
"""

from __future__ import annotations

import math
from decimal import Decimal, getcontext
from fractions import Fraction as Frac

getcontext().prec = 40


def sqrt(x: Frac) -> float:
    return float((Decimal(x.numerator) / Decimal(x.denominator)).sqrt())


def ratio(a: Frac, b: Frac) -> Frac | None:
    return None if b == 0 else a / b


def f_ratio(a: Frac, b: Frac):
    """An F statistic: infinite (the string "inf", as the table writes it) when only the
    denominator is 0."""
    if b == 0:
        return None if a == 0 else "inf"
    return a / b


def fl(x):
    if x is None or isinstance(x, (str, int)):
        return x
    if isinstance(x, list):
        return [fl(v) for v in x]
    return float(x)


def agreement_weights(spec, K: int) -> list[list[Frac]]:
    """The table's weights: 'identity', 'linear', 'quadratic' on the category positions, or an
    agreement matrix (1 on the diagonal)."""
    if spec in (None, "identity"):
        return [[Frac(int(i == j)) for j in range(K)] for i in range(K)]
    if spec == "linear":
        return [[1 - Frac(abs(i - j), K - 1) for j in range(K)] for i in range(K)]
    if spec == "quadratic":
        return [[1 - Frac((i - j) ** 2, (K - 1) ** 2) for j in range(K)] for i in range(K)]
    return [[Frac(v) for v in row] for row in spec]  # floats on a 1/8 grid: exact


# --------------------------------------------------------------------------- two raters
def _probs(M):
    N = sum(map(sum, M))
    K = len(M)
    p = [[Frac(M[i][j], N) for j in range(K)] for i in range(K)]
    r = [sum(p[i]) for i in range(K)]
    c = [sum(p[i][j] for i in range(K)) for j in range(K)]
    return p, r, c, K


def cohen_kappa(M, weights="identity"):
    """Cohen (1960, 1968): (p_o - p_e) / (1 - p_e) with agreement weights."""
    p, r, c, K = _probs(M)
    W = agreement_weights(weights, K)
    po = sum(W[i][j] * p[i][j] for i in range(K) for j in range(K))
    pe = sum(W[i][j] * r[i] * c[j] for i in range(K) for j in range(K))
    return ratio(po - pe, 1 - pe)


def cohen_kappa_variances(M, weights="identity"):
    """Fleiss, Cohen & Everitt (1969), for weighted kappa (unweighted =
    identity weights): the large-sample variance and the variance under kappa = 0, as
    fractions (times N)."""
    p, r, c, K = _probs(M)
    N = sum(map(sum, M))
    W = agreement_weights(weights, K)
    po = sum(W[i][j] * p[i][j] for i in range(K) for j in range(K))
    pe = sum(W[i][j] * r[i] * c[j] for i in range(K) for j in range(K))
    if pe == 1:
        return None, None
    k = (po - pe) / (1 - pe)
    wr = [sum(W[i][j] * c[j] for j in range(K)) for i in range(K)]  # w-bar_i.
    wc = [sum(W[i][j] * r[i] for i in range(K)) for j in range(K)]  # w-bar_.j
    s = sum(
        p[i][j] * (W[i][j] - (wr[i] + wc[j]) * (1 - k)) ** 2 for i in range(K) for j in range(K)
    )
    var = (s - (k - pe * (1 - k)) ** 2) / (N * (1 - pe) ** 2)
    s0 = sum(r[i] * c[j] * (W[i][j] - (wr[i] + wc[j])) ** 2 for i in range(K) for j in range(K))
    var0 = (s0 - pe**2) / (N * (1 - pe) ** 2)
    return var, var0


def scotts_pi(M):
    p, r, c, K = _probs(M)
    po = sum(p[i][i] for i in range(K))
    pe = sum(((r[k] + c[k]) / 2) ** 2 for k in range(K))
    return ratio(po - pe, 1 - pe)


def pabak(M):
    """Byrt, Bishop & Carlin (1993) for 2 x 2: 2 p_o - 1; for K classes (K p_o - 1)/(K - 1),
    the kappa of uniform margins (Brennan & Prediger 1981)."""
    p, _, _, K = _probs(M)
    po = sum(p[i][i] for i in range(K))
    return (K * po - 1) / (K - 1)


def kappa_max(M):
    """Cohen (1960): the largest kappa the margins allow, sum min(r_i, c_i)."""
    _, r, c, K = _probs(M)
    pe = sum(r[k] * c[k] for k in range(K))
    return ratio(sum(min(r[k], c[k]) for k in range(K)) - pe, 1 - pe)


def prevalence_bias_index(M):
    """Byrt, Bishop & Carlin (1993): PI = (a - d)/N, BI = (b - c)/N."""
    N = sum(map(sum, M))
    return {
        "prevalence_index": Frac(M[0][0] - M[1][1], N),
        "bias_index": Frac(M[0][1] - M[1][0], N),
    }


def gwet_ac1(M, weights="identity"):
    """Gwet (2008; 2014, ch. 4): p_e = T_w / (q (q - 1)) sum pi_k (1 - pi_k)."""
    p, r, c, K = _probs(M)
    W = agreement_weights(weights, K)
    po = sum(W[i][j] * p[i][j] for i in range(K) for j in range(K))
    pi = [(r[k] + c[k]) / 2 for k in range(K)]
    Tw = sum(map(sum, W))
    pe = Tw / (K * (K - 1)) * sum(x * (1 - x) for x in pi)
    return ratio(po - pe, 1 - pe)


def brennan_prediger(M, weights="identity"):
    """Brennan & Prediger (1981), weighted (Gwet 2014): p_e = T_w / q^2."""
    p, _, _, K = _probs(M)
    W = agreement_weights(weights, K)
    po = sum(W[i][j] * p[i][j] for i in range(K) for j in range(K))
    pe = sum(map(sum, W)) / Frac(K * K)
    return ratio(po - pe, 1 - pe)


def mcc(M):
    """Gorodkin (2004): (N sum C_kk - sum r_k c_k) / sqrt((N^2 - sum r^2)(N^2 - sum c^2))."""
    K = len(M)
    N = sum(map(sum, M))
    r = [sum(M[i]) for i in range(K)]
    c = [sum(M[i][j] for i in range(K)) for j in range(K)]
    num = N * sum(M[k][k] for k in range(K)) - sum(r[k] * c[k] for k in range(K))
    den = (N * N - sum(x * x for x in r)) * (N * N - sum(x * x for x in c))
    if den == 0:
        return None
    sign = 1 if num >= 0 else -1
    return sign * sqrt(Frac(num * num, den))


def specific_agreement(M):
    """Specific agreement per class: 2 n_kk / (n_k. + n_.k) (Fleiss 1975; Cicchetti &
    Feinstein 1990)."""
    K = len(M)
    out = []
    for k in range(K):
        den = sum(M[k]) + sum(M[i][k] for i in range(K))
        out.append(None if den == 0 else Frac(2 * M[k][k], den))
    return out


def mcnemar(M, correction, exact):
    """McNemar (1947); Edwards' correction |b - c| - 1 (none when b = c, as R); the exact
    test: twice the smaller binomial tail at 1/2, capped at 1."""
    b, c = M[0][1], M[1][0]
    if exact:
        m = b + c
        tail = Frac(sum(math.comb(m, i) for i in range(min(b, c) + 1)), 2**m) if m else Frac(1)
        return {"statistic": Frac(min(b, c)), "pvalue": min(Frac(1), 2 * tail)}
    if b + c == 0:
        return {"statistic": None, "df": 1}
    gap = abs(b - c) - (1 if correction and b != c else 0)
    return {"statistic": Frac(gap * gap, b + c), "df": 1}


def _solve(A, y):
    """Gaussian elimination in fractions."""
    n = len(A)
    M = [[*A[i], y[i]] for i in range(n)]
    for col in range(n):
        piv = next(i for i in range(col, n) if M[i][col] != 0)
        M[col], M[piv] = M[piv], M[col]
        for i in range(n):
            if i != col and M[i][col] != 0:
                f = M[i][col] / M[col][col]
                M[i] = [a - f * b for a, b in zip(M[i], M[col], strict=True)]
    return [M[i][n] / M[i][i] for i in range(n)]


def stuart_maxwell(M):
    """Stuart (1955), Maxwell (1970): d' S^-1 d over the classes that some discordant case
    involves, K' - 1 df (a class with none adds a zero row and column to S)."""
    K = len(M)
    used = [k for k in range(K) if any(M[k][j] + M[j][k] for j in range(K) if j != k)]
    if len(used) < 2:
        return {"statistic": None, "df": None}
    A = [[M[i][j] for j in used] for i in used]
    Ku = len(used)
    r = [sum(A[i]) for i in range(Ku)]
    c = [sum(A[i][j] for i in range(Ku)) for j in range(Ku)]
    d = [Frac(r[k] - c[k]) for k in range(Ku - 1)]
    S = [
        [
            Frac(r[i] + c[i] - 2 * A[i][i]) if i == j else Frac(-(A[i][j] + A[j][i]))
            for j in range(Ku - 1)
        ]
        for i in range(Ku - 1)
    ]
    x = _solve(S, d)
    return {"statistic": sum(a * b for a, b in zip(d, x, strict=True)), "df": Ku - 1}


def sample_size_binary(kappa, marginals, half_width, z):
    """Fleiss, Cohen & Everitt's variance for two raters who share the margin pi and agree
    beyond chance by kappa (the closed form of Donner & Eliasziw 1992):
    N var = (1 - k)[(1 - k)(1 - 2k) + k(2 - k) / (2 pi (1 - pi))];  N = ceil(z^2 v / h^2)."""
    k = Frac(str(kappa))
    pi = Frac(str(marginals[0])) / (Frac(str(marginals[0])) + Frac(str(marginals[1])))
    v = (1 - k) * ((1 - k) * (1 - 2 * k) + k * (2 - k) / (2 * pi * (1 - pi)))
    return math.ceil(z * z * float(v) / float(Frac(str(half_width))) ** 2)


# --------------------------------------------------------------------------- many raters
def count_table(ratings, categories):
    return [[sum(1 for v in row if v == cat) for cat in categories] for row in ratings]


def fleiss_kappa(table):
    """Fleiss (1971): P-bar and P-bar_e from a units x categories table, equal raters."""
    n = len(table)
    m = sum(table[0])
    assert all(sum(r) == m for r in table), "Fleiss (1971) needs the same raters per unit"
    K = len(table[0])
    pa = sum(Frac(sum(x * x for x in r) - m, m * (m - 1)) for r in table) / n
    pj = [Frac(sum(r[k] for r in table), n * m) for k in range(K)]
    pe = sum(x * x for x in pj)
    return ratio(pa - pe, 1 - pe)


def fleiss_null_se(table):
    """Fleiss, Nee & Landis (1979): the standard error of Fleiss' kappa under kappa = 0."""
    n = len(table)
    m = sum(table[0])
    K = len(table[0])
    pj = [Frac(sum(r[k] for r in table), n * m) for k in range(K)]
    pq = sum(p * (1 - p) for p in pj)
    if pq == 0:
        return None
    var = Frac(2, n * m * (m - 1)) * (pq**2 - sum(p * (1 - p) * (1 - 2 * p) for p in pj)) / pq**2
    return sqrt(var)


def _gwet_parts(table, weights):
    """Gwet (2014, ch. 5) for units with any number of ratings: p_a over the units with two
    ratings or more, the category shares pi_k averaged over all units."""
    K = len(table[0])
    W = agreement_weights(weights, K)
    rated = [r for r in table if sum(r) >= 1]
    n = len(rated)
    pairs = [r for r in rated if sum(r) >= 2]
    pa = sum(
        sum(r[k] * (sum(W[k][j] * r[j] for j in range(K)) - 1) for k in range(K))
        / Frac(sum(r) * (sum(r) - 1))
        for r in pairs
    ) / len(pairs)
    pi = [sum(Frac(r[k], sum(r)) for r in rated) / n for k in range(K)]
    return pa, pi, W, K


def fleiss_generalized(table, weights="identity"):
    """Gwet's generalized Fleiss kappa: p_e = sum_kl w_kl pi_k pi_l."""
    pa, pi, W, K = _gwet_parts(table, weights)
    pe = sum(W[k][j] * pi[k] * pi[j] for k in range(K) for j in range(K))
    return ratio(pa - pe, 1 - pe)


def gwet_ac1_multi(table, weights="identity"):
    """Gwet's AC1/AC2: p_e = T_w / (q (q - 1)) sum pi_k (1 - pi_k); 0/0 when q = 1."""
    pa, pi, W, K = _gwet_parts(table, weights)
    if K < 2:
        return None
    pe = sum(map(sum, W)) / Frac(K * (K - 1)) * sum(p * (1 - p) for p in pi)
    return ratio(pa - pe, 1 - pe)


def brennan_prediger_multi(table, weights="identity"):
    """Brennan-Prediger for many raters: p_e = T_w / q^2."""
    pa, _, W, K = _gwet_parts(table, weights)
    pe = sum(map(sum, W)) / Frac(K * K)
    return ratio(pa - pe, 1 - pe)


def category_z(table):
    """Each category kappa over its standard error under kappa = 0, sqrt(2 / (n m (m - 1)))
    (Fleiss 1971; Fleiss, Nee & Landis 1979)."""
    n, m = len(table), sum(table[0])
    se = sqrt(Frac(2, n * m * (m - 1)))
    return [None if k is None else float(k) / se for k in category_kappas(table)]


def category_kappas(table):
    """Fleiss (1971): kappa_j = 1 - sum x_ij (m - x_ij) / (n m (m - 1) p_j q_j)."""
    n = len(table)
    m = sum(table[0])
    K = len(table[0])
    out = []
    for k in range(K):
        pj = Frac(sum(r[k] for r in table), n * m)
        den = n * m * (m - 1) * pj * (1 - pj)
        out.append(None if den == 0 else 1 - sum(r[k] * (m - r[k]) for r in table) / den)
    return out


def krippendorff_alpha(ratings, level):
    """Krippendorff (2011): coincidences of the pairable values, alpha = 1 - (n - 1) sum o
    delta / sum n_c n_k delta, with the four metrics of his section E."""
    values = sorted({v for row in ratings for v in row if v is not None})
    idx = {v: i for i, v in enumerate(values)}
    V = len(values)
    o = [[Frac(0)] * V for _ in range(V)]
    for row in ratings:
        vals = [v for v in row if v is not None]
        mu = len(vals)
        if mu < 2:
            continue
        for a in range(mu):
            for b in range(mu):
                if a != b:
                    o[idx[vals[a]]][idx[vals[b]]] += Frac(1, mu - 1)
    nc = [sum(o[c]) for c in range(V)]
    n = sum(nc)

    def delta(c, k):
        if c == k:
            return Frac(0)
        if level == "nominal":
            return Frac(1)
        if level == "ordinal":
            lo, hi = min(c, k), max(c, k)
            return (sum(nc[g] for g in range(lo, hi + 1)) - (nc[c] + nc[k]) / 2) ** 2
        vc, vk = Frac(values[c]), Frac(values[k])
        if level == "interval":
            return (vc - vk) ** 2
        return ((vc - vk) / (vc + vk)) ** 2  # ratio

    Do = sum(o[c][k] * delta(c, k) for c in range(V) for k in range(V))
    De = sum(nc[c] * nc[k] * delta(c, k) for c in range(V) for k in range(V))
    if n == 0 or De == 0:
        return None
    return 1 - (n - 1) * Do / De


def light_kappa(ratings):
    """Light (1971): the mean of the pairwise Cohen's kappas (complete ratings)."""
    m = len(ratings[0])
    cats = sorted({v for row in ratings for v in row})
    ks = []
    for a in range(m):
        for b in range(a + 1, m):
            M = [
                [sum(1 for row in ratings if row[a] == ci and row[b] == cj) for cj in cats]
                for ci in cats
            ]
            k = cohen_kappa(M)
            if k is None:
                return None
            ks.append(k)
    return sum(ks) / len(ks)


# --------------------------------------------------------------------------- continuous
def icc_exact(rows):
    """Shrout & Fleiss (1979): the six ICCs and their two F statistics from the mean squares
    of the two-way ANOVA, in fractions (the ratings are decimals)."""
    Y = [[Frac(str(v)) for v in row] for row in rows]
    n, k = len(Y), len(Y[0])
    g = sum(map(sum, Y)) / (n * k)
    rm = [sum(r) / k for r in Y]
    cm = [sum(Y[i][j] for i in range(n)) / n for j in range(k)]
    SSR = k * sum((x - g) ** 2 for x in rm)
    SSC = n * sum((x - g) ** 2 for x in cm)
    SST = sum((Y[i][j] - g) ** 2 for i in range(n) for j in range(k))
    SSW = SST - SSR
    SSE = SST - SSR - SSC
    BMS, WMS = SSR / (n - 1), SSW / (n * (k - 1))
    JMS, EMS = SSC / (k - 1), SSE / ((n - 1) * (k - 1))
    return {
        "ICC1.value": ratio(BMS - WMS, BMS + (k - 1) * WMS),
        "ICC2.value": ratio(BMS - EMS, BMS + (k - 1) * EMS + k * (JMS - EMS) / n),
        "ICC3.value": ratio(BMS - EMS, BMS + (k - 1) * EMS),
        "ICC1k.value": ratio(BMS - WMS, BMS),
        "ICC2k.value": ratio(BMS - EMS, BMS + (JMS - EMS) / n),
        "ICC3k.value": ratio(BMS - EMS, BMS),
        "ICC1.F": f_ratio(BMS, WMS),
        "ICC3.F": f_ratio(BMS, EMS),
        "_ms": (BMS, WMS, JMS, EMS, n, k),
    }


def lins_ccc(x, y):
    """Lin (1989): 2 s_xy / (s_x^2 + s_y^2 + (mean_x - mean_y)^2), moments over n."""
    X = [Frac(str(v)) for v in x]
    Y = [Frac(str(v)) for v in y]
    n = len(X)
    mx, my = sum(X) / n, sum(Y) / n
    sxx = sum((a - mx) ** 2 for a in X) / n
    syy = sum((b - my) ** 2 for b in Y) / n
    sxy = sum((a - mx) * (b - my) for a, b in zip(X, Y, strict=True)) / n
    out = {"value": ratio(2 * sxy, sxx + syy + (mx - my) ** 2)}
    if syy > 0:  # v = s_x / s_y (0 for a constant x)
        out["scale_shift"] = sqrt(sxx / syy)
    if sxx > 0 and syy > 0:
        sign = 1 if sxy >= 0 else -1
        out["pearson"] = sign * sqrt(sxy * sxy / (sxx * syy))
        out["location_shift"] = float(mx - my) / math.sqrt(sqrt(sxx * syy))
    return out
