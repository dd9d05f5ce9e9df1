"""Issue 34's rows of the conformance table: kappas compared and inferred across units.

* ``kappa_difference``: two Cohen kappas of the same units (two pairs of raters, or one rater
  against a reference before and after training) and their difference, the delta method's
  standard error (Vanbelle & Albert 2008; Vanbelle 2017), its Wald interval and z test;
* ``clustered_kappa``: kappa of cases in clusters, the cluster-robust standard error (the
  ratio-estimator variance of Obuchowski 1998 through the delta method; Yang & Zhou 2014);
* ``subgroup_kappas``: kappa per subgroup and Fleiss' (1981) homogeneity chi-square;
* Light's kappa gains its delta-method standard error, its null standard error and z (the
  existing ``light_kappa`` cases, and irr's own example data);
* Gwet's (2014) named weights (ordinal, radical, ratio, circular, bipolar) for Cohen's kappa,
  AC2 and Brennan-Prediger of two raters and the many-rater coefficients (irrCAC).

The exact references use rational arithmetic throughout: the delta method's gradients are
taken with dual numbers over ``fractions.Fraction`` (forward differentiation of a rational
function is exact), so every variance is an exact fraction before its square root (40
digits).  R's survey package (oracles_survey.R) is the outside package for the same delta
method and the cluster-robust variance.

``cases()`` gives the inputs (their own random stream, so the other files' inputs do not
move), ``references(case)`` the Python references; kappalib is never imported.
"""

from __future__ import annotations

import statistics
from fractions import Fraction as Frac

import exact
import inputs
import numpy as np

NAMED = ("ordinal", "radical", "ratio", "circular", "bipolar")
RATIONAL = ("identity", "linear", "quadratic", "ordinal", "ratio", "bipolar")
NEW = ("kappa_difference", "clustered_kappa", "subgroup_kappas")
SEED = 3402  # issue 34, part b: its own stream


# ----------------------------------------------------------------------- exact weights
def agreement_weights(spec, K, scores=None):
    """Agreement weights 1 - d / max d of the table's weights, exact where they are rational
    (the named schemes of Gwet 2014, ch. 3, on the positions 1..K or on ``scores``)."""
    if spec in (None, "identity", "linear", "quadratic") or not isinstance(spec, str):
        return exact.agreement_weights(spec, K)
    s = [Frac(v) for v in scores] if scores is not None else [Frac(i + 1) for i in range(K)]
    lo, hi = min(s), max(s)

    def d(i, j):
        if i == j:
            return Frac(0)
        if spec == "ordinal":
            n = abs(i - j)
            return Frac(n * (n + 1), 2)
        if spec == "ratio":
            return ((s[i] - s[j]) / (s[i] + s[j])) ** 2
        if spec == "bipolar":
            return (s[i] - s[j]) ** 2 / ((s[i] + s[j] - 2 * lo) * (2 * hi - s[i] - s[j]))
        raise ValueError(f"{spec} weights are not rational")

    D = [[d(i, j) for j in range(K)] for i in range(K)]
    top = max(max(row) for row in D)
    return [[1 - v / top for v in row] for row in D]


# ----------------------------------------------------------------------- dual numbers
class Dual:
    """a + b eps with eps^2 = 0, over Fractions: f(x + eps) = f(x) + f'(x) eps exactly."""

    __slots__ = ("a", "b")

    def __init__(self, a, b=0):
        self.a, self.b = Frac(a), Frac(b)

    @staticmethod
    def of(x):
        return x if isinstance(x, Dual) else Dual(x)

    def __add__(self, o):
        o = Dual.of(o)
        return Dual(self.a + o.a, self.b + o.b)

    __radd__ = __add__

    def __sub__(self, o):
        o = Dual.of(o)
        return Dual(self.a - o.a, self.b - o.b)

    def __rsub__(self, o):
        return Dual.of(o) - self

    def __mul__(self, o):
        o = Dual.of(o)
        return Dual(self.a * o.a, self.a * o.b + self.b * o.a)

    __rmul__ = __mul__

    def __truediv__(self, o):
        o = Dual.of(o)
        return Dual(self.a / o.a, (self.b * o.a - self.a * o.b) / (o.a * o.a))

    def __rtruediv__(self, o):
        return Dual.of(o) / self


def kappa_of(M, w):
    """Cohen's kappa (agreement weights w) of a K x K table of Duals or Fractions."""
    K = len(M)
    N = sum((M[i][j] for i in range(K) for j in range(K)), Dual(0))
    r = [sum(M[i], Dual(0)) / N for i in range(K)]
    c = [sum((M[i][j] for i in range(K)), Dual(0)) / N for j in range(K)]
    po = sum((w[i][j] * M[i][j] for i in range(K) for j in range(K)), Dual(0)) / N
    pe = sum((w[i][j] * r[i] * c[j] for i in range(K) for j in range(K)), Dual(0))
    return (po - pe) / (1 - pe)


def _pair_table(patterns, shares, g, h, K, seed=None):
    M = [[Dual(0) for _ in range(K)] for _ in range(K)]
    for u, row in enumerate(patterns):
        a, b = row[g], row[h]
        if a is None or b is None:
            continue
        M[a][b] = M[a][b] + Dual(shares[u], 1 if u == seed else 0)
    return M


def pattern_delta(rows, pairs, K, w):
    """(kappas, their covariance matrix) by the delta method on the multinomial of the rating
    patterns (units x raters, positions 0..K-1, None missing), exactly."""
    distinct = sorted({tuple(r) for r in rows}, key=lambda t: [(-1 if v is None else v) for v in t])
    n = len(rows)
    p = [Frac(sum(1 for r in rows if tuple(r) == t), n) for t in distinct]
    kappas, grads = [], []
    for g, h in pairs:
        kappas.append(kappa_of(_pair_table(distinct, p, g, h, K), w).a)
        grads.append([kappa_of(_pair_table(distinct, p, g, h, K, u), w).b for u in range(len(p))])
    cov = []
    for ga in grads:
        row = []
        for gb in grads:
            m_a = sum(pu * x for pu, x in zip(p, ga, strict=True))
            m_b = sum(pu * x for pu, x in zip(p, gb, strict=True))
            e_ab = sum(pu * x * y for pu, x, y in zip(p, ga, gb, strict=True))
            row.append((e_ab - m_a * m_b) / n)
        cov.append(row)
    return kappas, cov


def cluster_delta(a, b, clusters, K, w):
    """kappa and its cluster-robust variance G/(G-1) sum_g (grad . (t_g - t_bar))^2 / G^2,
    kappa as a function of the clusters' mean cell counts t_bar, exactly."""
    ids = sorted(set(clusters))
    G = len(ids)
    T = {g: [[Frac(0)] * K for _ in range(K)] for g in ids}
    for ai, bi, g in zip(a, b, clusters, strict=True):
        T[g][ai][bi] += 1
    t_bar = [[sum(T[g][i][j] for g in ids) / G for j in range(K)] for i in range(K)]
    grad = [[Frac(0)] * K for _ in range(K)]
    for i in range(K):
        for j in range(K):
            M = [
                [Dual(t_bar[x][y], 1 if (x, y) == (i, j) else 0) for y in range(K)]
                for x in range(K)
            ]
            grad[i][j] = kappa_of(M, w).b
    k = kappa_of([[Dual(v) for v in row] for row in t_bar], w).a
    dev = [
        sum(grad[i][j] * (T[g][i][j] - t_bar[i][j]) for i in range(K) for j in range(K))
        for g in ids
    ]
    return k, Frac(G, G - 1) * sum(x * x for x in dev) / (G * G)


# ---------------------------------------------------------------------------- helpers
def _positions(inp):
    cats = inp["categories"]
    where = {c: i for i, c in enumerate(cats)}
    return [[None if v is None else where[v] for v in row] for row in inp["ratings"]], len(cats)


def _normal(level):
    return statistics.NormalDist().inv_cdf((1 + level) / 2)


def _pvalue(z):
    return 2 * (1 - statistics.NormalDist().cdf(abs(z)))


def _wald(value, se, level, bound):
    half = _normal(level) * se
    return max(-bound, value - half), min(bound, value + half)


# ---------------------------------------------------------------------- the references
def kappa_difference(case):
    import oracles_python as op

    inp, o = case["input"], case["options"]
    rows, K = _positions(inp)
    w = agreement_weights(o.get("weights", "identity"), K)
    level = o.get("confidence_level", 0.95)
    pairs = [tuple(p) for p in o["pairs"]]
    (k1, k2), cov = pattern_delta(rows, pairs, K, w)
    var = cov[0][0] + cov[1][1] - 2 * cov[0][1]
    value = k2 - k1
    se = exact.sqrt(var)
    vals = {"value": value, "se": se, "kappa_1": k1, "kappa_2": k2}
    vals["se_1"], vals["se_2"] = exact.sqrt(cov[0][0]), exact.sqrt(cov[1][1])
    vals["ci_low"], vals["ci_high"] = _wald(float(value), se, level, 2.0)
    if se > 0:
        vals["z"] = float(value) / se
        vals["pvalue"] = _pvalue(vals["z"])
    return [
        op.exact_ref(
            "comparisons.pattern_delta: the delta method on the multinomial of rating patterns, "
            "gradients by dual numbers over fractions (Vanbelle & Albert 2008; Vanbelle 2017); "
            "the Wald interval cut to [-2, 2]",
            vals,
        )
    ]


def clustered_kappa(case):
    import oracles_python as op

    inp, o = case["input"], case["options"]
    rows, K = _positions(inp)
    a, b = [r[0] for r in rows], [r[1] for r in rows]
    w = agreement_weights(o.get("weights", "identity"), K)
    level = o.get("confidence_level", 0.95)
    k, var = cluster_delta(a, b, inp["clusters"], K, w)
    M = [
        [sum(1 for x, y in zip(a, b, strict=True) if (x, y) == (i, j)) for j in range(K)]
        for i in range(K)
    ]
    fce, _ = exact.cohen_kappa_variances(M, _spec_for_exact(o.get("weights", "identity"), K))
    se = exact.sqrt(var)
    lo, hi = _wald(float(k), se, level, 1.0)
    vals = {"value": k, "se": se, "ci_low": lo, "ci_high": hi}
    vals["design_effect"] = None if fce == 0 else var / fce
    return [
        op.exact_ref(
            "comparisons.cluster_delta: kappa of the clusters' mean cell counts, its gradient by "
            "dual numbers over fractions, var = G/(G-1) sum_g (grad.(t_g - t_bar))^2 / G^2 "
            "(Obuchowski 1998; Yang & Zhou 2014); design_effect against exact FCE",
            vals,
        )
    ]


def _spec_for_exact(spec, K):
    """exact.cohen_kappa_variances takes identity/linear/quadratic or an agreement matrix."""
    if spec in ("identity", "linear", "quadratic"):
        return spec
    return agreement_weights(spec, K)


def subgroup_kappas(case):
    import oracles_python as op
    from scipy.stats import chi2
    from statsmodels.stats.inter_rater import cohens_kappa

    inp, o = case["input"], case["options"]
    rows, K = _positions(inp)
    spec = o.get("weights", "identity")
    level = o.get("confidence_level", 0.95)
    names = sorted(set(inp["groups"]))
    tables = []
    for g in names:
        M = [[0] * K for _ in range(K)]
        for r, gg in zip(rows, inp["groups"], strict=True):
            if gg == g:
                M[r[0]][r[1]] += 1
        tables.append(M)
    ks, vs = [], []
    for M in tables:
        ks.append(exact.cohen_kappa(M, _spec_for_exact(spec, K)))
        vs.append(exact.cohen_kappa_variances(M, _spec_for_exact(spec, K))[0])
    vals = {
        "kappa_by_group": [exact.fl(k) for k in ks],
        "se_by_group": [None if v is None else exact.sqrt(v) for v in vs],
    }
    use = [(k, v) for k, v in zip(ks, vs, strict=True) if k is not None and v]
    if len(use) >= 2:
        W = sum(1 / v for _, v in use)
        pooled = sum(k / v for k, v in use) / W
        stat = sum((k - pooled) ** 2 / v for k, v in use)
        vals["value"] = pooled
        vals["se"] = exact.sqrt(1 / W)
        vals["ci_low"], vals["ci_high"] = _wald(float(pooled), vals["se"], level, 1.0)
        vals["statistic"] = stat
        vals["df"] = len(use) - 1
        vals["pvalue"] = float(chi2.sf(float(stat), len(use) - 1))
    out = [
        op.exact_ref(
            "exact.cohen_kappa, exact.cohen_kappa_variances per subgroup (FCE 1969); "
            "Fleiss' (1981) "
            "chi-square sum (k_g - k_bar)^2 / v_g in fractions, its tail by scipy.stats.chi2",
            vals,
        )
    ]
    if spec in ("identity", "linear", "quadratic"):
        wt = None if spec == "identity" else spec
        sm = [op._quiet(cohens_kappa, np.array(M, float), wt=wt) for M in tables]
        out.append(
            op.ref(
                "statsmodels",
                f"cohens_kappa(table of each subgroup, wt={wt!r})",
                {
                    "kappa_by_group": [r["kappa"] for r in sm],
                    "se_by_group": [r["std_kappa"] for r in sm],
                },
            )
        )
    return out


def light_delta(case):
    """Light's kappa: its delta-method standard error and its null standard error (each pair's
    exact FCE null variance, summed, over P): exact values to add to a light_kappa case."""
    rows, K = _positions(case["input"])
    R = len(rows[0])
    pairs = [(g, h) for g in range(R) for h in range(g + 1, R)]
    w = agreement_weights("identity", K)
    try:
        kappas, cov = pattern_delta(rows, pairs, K, w)
    except (ValueError, ZeroDivisionError):
        return {}
    P = len(pairs)
    var = sum(sum(row) for row in cov) / (P * P)
    var0 = Frac(0)
    for g, h in pairs:
        M = [[0] * K for _ in range(K)]
        for r in rows:
            if r[g] is not None and r[h] is not None:
                M[r[g]][r[h]] += 1
        v0 = exact.cohen_kappa_variances(M)[1]
        if v0 is None:
            return {}
        var0 += v0
    value = sum(kappas) / P
    out = {"se": exact.sqrt(var), "se_null": exact.sqrt(var0 / (P * P))}
    out["z_null"] = None if var0 == 0 else float(value) / out["se_null"]
    if out["z_null"] is not None:
        out["pvalue"] = _pvalue(out["z_null"])
    return out


def category_standard_errors(case):
    """irrCAC's fleiss() on the ratings dichotomized to k / not k, one category at a time:
    the per-category kappa is that table's Fleiss kappa (Fleiss 1971), and its standard error
    Gwet's linearization; NaN (None) where the category is 0/0."""
    import oracles_python as op

    T = op.table_of(case["input"])
    n = sum(T[0])
    call = (
        "raw.CAC(ratings dichotomized to k / not k, categories=[0, 1], digits=15).fleiss() "
        "for each category k"
    )

    def compute():
        se, kap = [], []
        for k in range(len(T[0])):
            rows = [[1.0] * r[k] + [0.0] * (n - r[k]) for r in T]
            if len({v for row in rows for v in row}) < 2:
                se.append(None)
                kap.append(None)
                continue
            inp = {"ratings": rows, "categories": [0, 1]}
            e = op._quiet(op._irrcac_raw(inp, "identity").fleiss)["est"]
            kap.append(e["coefficient_value"])
            se.append(e["se"])
        return op.ref("irrCAC", call, {"kappa_by_category": kap, "se_by_category": se})

    return op.attempt("irrCAC", call, compute)


def named_weights(case):
    """irrCAC (and statsmodels, and exact fractions where the weights are rational) for a
    coefficient with one of Gwet's named weights."""
    import oracles_python as op

    coef, inp, o = case["coefficient"], case["input"], case["options"]
    spec, level = o["weights"], o.get("confidence_level", 0.95)
    out = []
    if "matrix" in inp:
        M = inp["matrix"]
        K = len(M)
        method = {"cohen_kappa": "cohen", "gwet_ac1": "gwet", "brennan_prediger": "bp"}[coef]
        call = f"table.CAC(table, weights={spec!r}, digits=15).{method}()"

        def irrcac():
            e = op._quiet(getattr(op._irrcac_table(M, spec, level), method))["est"]
            return op.ref("irrCAC", call, {"value": e["coefficient_value"], "se": e["se"]})

        out.append(op.attempt("irrCAC", call, irrcac))
        if coef != "cohen_kappa":  # the raw-data form, whose variance divides by n - 1
            y1, y2 = op.pairs(M)
            raw_inp = {
                "ratings": [[a, b] for a, b in zip(y1, y2, strict=True)],
                "categories": list(range(1, K + 1)),
            }
            raw_call = (
                f"raw.CAC(pairs as 2 raters, weights={spec!r}, confidence_level={level}, "
                f"digits=15).{method}()"
            )
            out.append(
                op.attempt(
                    "irrCAC",
                    raw_call,
                    lambda: op.ref(
                        "irrCAC",
                        raw_call,
                        op._est(op._quiet(getattr(op._irrcac_raw(raw_inp, spec, level), method))),
                    ),
                )
            )
        if coef == "cohen_kappa":
            import oracles_path  # noqa: F401
            from irrCAC.weights import Weights
            from statsmodels.stats.inter_rater import cohens_kappa

            A = np.asarray(Weights(list(range(1, K + 1)))[spec], dtype=float)
            res = op._quiet(cohens_kappa, np.array(M, float), weights=1.0 - A)
            lo, hi = op._quiet(res["distribution_kappa"].interval, level)
            out.append(
                op.ref(
                    "statsmodels",
                    f"cohens_kappa(table, weights=1 - irrCAC.weights.Weights(1..K)[{spec!r}]); "
                    f".distribution_kappa.interval({level})",
                    {
                        "value": res["kappa"],
                        "se": res["std_kappa"],
                        "se_null": res["std_kappa0"],
                        "ci_low": lo,
                        "ci_high": hi,
                    },
                )
            )
            if spec in RATIONAL:
                W = agreement_weights(spec, K)
                var, var0 = exact.cohen_kappa_variances(M, W)
                vals = {"value": exact.cohen_kappa(M, W), "se": exact.sqrt(var)}
                vals["se_null"] = exact.sqrt(var0)
                vals["ci_low"], vals["ci_high"] = _wald(
                    float(vals["value"]), vals["se"], level, 1.0
                )
                out.append(
                    op.exact_ref(
                        f"exact.cohen_kappa(_variances) with {spec} weights in fractions "
                        "(comparisons.agreement_weights; Gwet 2014, ch. 3)",
                        vals,
                    )
                )
        return out
    method = {
        "gwet_ac1_multi": "gwet",
        "fleiss_generalized": "fleiss",
        "brennan_prediger_multi": "bp",
        "conger_kappa": "conger",
        "krippendorff_alpha": "krippendorff",
    }[coef]
    call = f"raw.CAC(ratings, weights={spec!r}, confidence_level={level}, digits=15).{method}()"
    out.append(
        op.attempt(
            "irrCAC",
            call,
            lambda: op.ref(
                "irrCAC",
                call,
                op._est(op._quiet(getattr(op._irrcac_raw(inp, spec, level), method))),
            ),
        )
    )
    return out


def handles(case):
    return case["coefficient"] in NEW or (
        isinstance(case["options"].get("weights"), str) and case["options"]["weights"] in NAMED
    )


def references(case):
    if case["coefficient"] in NEW:
        return globals()[case["coefficient"]](case)
    return named_weights(case)


# ------------------------------------------------------------------------------ inputs
# irr's diagnoses (Fleiss 1971's 30 patients, 6 psychiatrists) as raw ratings, rater by
# rater: R's data("diagnoses", package = "irr"), categories 1-5 by the first character of
# the factor labels ("1. Depression" ... "5. Other"; rater6's factor lacks level 1, so
# as.integer() would shift its codes).  irr's kappam.light documents Kappa = 0.459, z = 2.31,
# p = 0.0211 on it.
DIAGNOSES = [
    [4, 4, 4, 4, 4, 4],
    [2, 2, 2, 5, 5, 5],
    [2, 3, 3, 3, 3, 5],
    [5, 5, 5, 5, 5, 5],
    [2, 2, 2, 4, 4, 4],
    [1, 1, 3, 3, 3, 3],
    [3, 3, 3, 3, 5, 5],
    [1, 1, 3, 3, 3, 4],
    [1, 1, 4, 4, 4, 4],
    [5, 5, 5, 5, 5, 5],
    [1, 4, 4, 4, 4, 4],
    [1, 2, 4, 4, 4, 4],
    [2, 2, 2, 3, 3, 3],
    [1, 4, 4, 4, 4, 4],
    [2, 2, 4, 4, 4, 5],
    [3, 3, 3, 3, 3, 5],
    [1, 1, 1, 4, 5, 5],
    [1, 1, 1, 1, 1, 2],
    [2, 2, 4, 4, 4, 4],
    [1, 3, 3, 5, 5, 5],
    [5, 5, 5, 5, 5, 5],
    [2, 4, 4, 4, 4, 4],
    [2, 2, 4, 5, 5, 5],
    [1, 1, 4, 4, 4, 4],
    [1, 4, 4, 4, 4, 5],
    [2, 2, 2, 2, 2, 4],
    [1, 1, 1, 1, 5, 5],
    [2, 2, 4, 4, 4, 4],
    [1, 3, 3, 3, 3, 3],
    [5, 5, 5, 5, 5, 5],
]


def _cats(K):
    return list(range(1, K + 1))


def _correlated(s, n, R, K, copy, missing=0.0):
    """n units x R raters: each rater copies a unit's truth with its own probability."""
    shares = [s.uniform(0.2, 1.0) for _ in range(K)]
    rows = []
    for _ in range(n):
        truth = s.choice(shares)
        row = [(truth if s.uniform() < copy[r] else s.choice(shares)) + 1 for r in range(R)]
        for r in range(R):
            if s.uniform() < missing:
                row[r] = None
        rows.append(row)
    return rows


def _clustered(s, G, K):
    rows, ids = [], []
    shares = [s.uniform(0.2, 1.0) for _ in range(K)]
    for g in range(G):
        good = s.uniform() < 0.6
        for _ in range(s.integer(1, 5)):
            truth = s.choice(shares)
            other = truth if s.uniform() < (0.9 if good else 0.35) else s.choice(shares)
            rows.append([truth + 1, other + 1])
            ids.append(f"c{g:02d}")
    return rows, ids


def _usable_pairs(rows, pairs, K):
    """Every pair's kappa defined (both raters used two categories on their common units)."""
    for g, h in pairs:
        both = [(r[g], r[h]) for r in rows if r[g] is not None and r[h] is not None]
        if len({a for a, _ in both}) < 2 or len({b for _, b in both}) < 2:
            return False
    return True


def cases():
    s = inputs.Stream(SEED)
    case = inputs.case
    out = []
    weights_cycle = ["identity", "linear", "quadratic", "ordinal", "ratio", "bipolar"]
    pair_cycle = [[[0, 1], [2, 3]], [[0, 1], [0, 2]], [[1, 0], [3, 2]], [[0, 2], [1, 3]]]
    i = 0
    while i < 24:
        K = s.integer(2, 4)
        n = s.integer(12, 60)
        rows = _correlated(
            s, n, 4, K, [s.uniform(0.2, 0.95) for _ in range(4)], 0.08 if i % 4 == 3 else 0.0
        )
        pairs = pair_cycle[i % 4]
        if not _usable_pairs(rows, pairs, K):
            continue
        opts = {"pairs": pairs, "weights": weights_cycle[i % 6] if K > 2 else "identity"}
        opts["confidence_level"] = [0.95, 0.9, 0.99][i % 3]
        tags = ["random"] + (["missing"] if i % 4 == 3 else [])
        out.append(
            case(
                "kappa_difference",
                f"r{i:02d}",
                {"ratings": rows, "categories": _cats(K)},
                opts,
                tags,
            )
        )
        i += 1
    identical = [[1, 1, 1, 1], [2, 2, 2, 2], [1, 2, 1, 2], [2, 1, 2, 1], [1, 1, 1, 1], [2, 2, 2, 2]]
    out.append(
        case(
            "kappa_difference",
            "identical-pairs",
            {"ratings": identical, "categories": [1, 2]},
            {"pairs": [[0, 1], [2, 3]]},
            ["degenerate"],
            note="The two pairs rate every unit alike: the difference and its standard error are "
            "exactly 0, so there is no z (0/0).",
        )
    )
    i = 0
    while i < 20:
        K = s.integer(2, 4)
        rows, ids = _clustered(s, s.integer(6, 30), K)
        if not _usable_pairs(rows, [(0, 1)], K):
            continue
        opts = {
            "weights": ["identity", "linear", "quadratic", "ordinal", "bipolar"][i % 5]
            if K > 2
            else "identity"
        }
        opts["confidence_level"] = [0.95, 0.9][i % 2]
        out.append(
            case(
                "clustered_kappa",
                f"r{i:02d}",
                {"ratings": rows, "categories": _cats(K), "clusters": ids},
                opts,
                ["random"],
            )
        )
        i += 1
    single = [[1, 1], [1, 2], [2, 2], [2, 1], [1, 1], [2, 2], [1, 1], [2, 2]]
    out.append(
        case(
            "clustered_kappa",
            "one-case-per-cluster",
            {"ratings": single, "categories": [1, 2], "clusters": list(range(8))},
            {},
            ["degenerate"],
            note="Clusters of one case: the variance is Fleiss, Cohen & Everitt's times N/(N-1), "
            "the design effect N/(N-1).",
        )
    )
    i = 0
    while i < 16:
        K = s.integer(2, 4)
        G = s.integer(2, 5)
        rows, groups = [], []
        for g in range(G):
            part = _correlated(s, s.integer(10, 40), 2, K, [1.0, s.uniform(0.2, 0.95)])
            rows += part
            groups += [f"site {g}"] * len(part)
        if not all(
            _usable_pairs(
                [r for r, gg in zip(rows, groups, strict=True) if gg == f"site {g}"], [(0, 1)], K
            )
            for g in range(G)
        ):
            continue
        opts = {
            "weights": ["identity", "linear", "quadratic", "ordinal"][i % 4]
            if K > 2
            else "identity"
        }
        out.append(
            case(
                "subgroup_kappas",
                f"r{i:02d}",
                {"ratings": rows, "categories": _cats(K), "groups": groups},
                opts,
                ["random"],
            )
        )
        i += 1
    out.append(
        case(
            "light_kappa",
            "irr-diagnoses",
            {"ratings": DIAGNOSES, "categories": _cats(5)},
            {},
            ["published"],
            note="irr's data('diagnoses') (Fleiss 1971) rater by rater; irr's kappam.light "
            "documents Kappa = 0.459, z = 2.31, p = 0.0211 on it.",
        )
    )
    for i in range(6):
        K = s.integer(2, 4)
        rows = _correlated(s, s.integer(15, 40), s.integer(3, 5), K, [0.9] * 5)
        out.append(
            case(
                "light_kappa",
                f"close-raters-{i}",
                {"ratings": rows, "categories": _cats(K)},
                {},
                ["random"],
                note="Raters who agree well: irr's pooled chance agreement 1 - P prod(1 - p_e) "
                "can fall below 0 here.",
            )
        )
    # Gwet's named weights
    for coef in ("cohen_kappa", "gwet_ac1", "brennan_prediger"):
        for j, name in enumerate(NAMED):
            K = 3 + (j % 3)
            M = inputs.random_matrix(s, K, s.integer(20, 120))
            out.append(
                case(
                    coef,
                    f"named-{name}",
                    {"matrix": M},
                    {"weights": name, "confidence_level": 0.95},
                    ["random", "named-weights"],
                )
            )
    for coef in (
        "gwet_ac1_multi",
        "fleiss_generalized",
        "brennan_prediger_multi",
        "conger_kappa",
        "krippendorff_alpha",
    ):
        for j, name in enumerate(NAMED):
            K = 3 + (j % 3)
            R = inputs.random_ratings(s, s.integer(8, 30), s.integer(2, 5), K, missing=0.15)
            out.append(
                case(
                    coef,
                    f"named-{name}",
                    {"ratings": R, "categories": _cats(K)},
                    {"weights": name, "confidence_level": 0.95},
                    ["random", "named-weights"],
                )
            )
    return out
