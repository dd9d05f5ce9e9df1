"""Issue 34's rows of the conformance table: Bland-Altman limits of agreement, the overall
concordance correlation of several methods, Bangdiwala's B and Gwet's benchmarking.

Everything about these four coefficients lives here, hooked into the pipeline with one line
each (inputs.all_cases, oracles_python.references, published.references, build.COEFFICIENTS,
and oracles.R's handlers for epiR's occc/ccc and vcd's agreementplot):

* ``cases()``: the inputs, from a Stream of their own (seed 3401), so that the shared stream
  of inputs.py, and every case it draws, is untouched;
* ``references(case)``: the Python references: exact fractions (square roots at 40 digits,
  the normal quantile of the agreement level from the standard library), scipy (Student's t,
  the noncentral t of the exact intervals, chi-square, ``linregress``, ``truncnorm``),
  pingouin 0.7.0's ``plot_blandaltman`` (its lines and bands, read from the artists it
  draws), irrCAC 0.4.4's ``Benchmark``, and the delta method of the overall CCC by finite
  differences (a second formula, ``finite-differences``);
* ``PUBLISHED``: Bland & Altman (1986, 1999, 2007) and irrCAC's documented benchmark.

kappalib is never imported here.
"""

from __future__ import annotations

import math
import warnings
from fractions import Fraction as Frac
from statistics import NormalDist

import exact
import numpy as np
from inputs import Stream, case, random_scores

FULL = {"abs": 1e-12, "rel": 1e-9}
EXACT = {"abs": 1e-13, "rel": 1e-12}
NCT = {"abs": 1e-9, "rel": 1e-8}  # scipy's noncentral t quantile (Newton on its cdf)
ROUNDED5 = {"abs": 5e-6 + 1e-12, "rel": 0.0}  # irrCAC rounds to 5 decimals
FINITE_DIFFERENCES = {"abs": 1e-7, "rel": 1e-6}

SEED = 3401
# the agreement levels of the published examples: +-2 SD (1986) and +-1.96 SD (1999, 2007)
TWO_SD = math.erf(math.sqrt(2.0))
Z196 = 2.0 * NormalDist().cdf(1.96) - 1.0

# Bland & Altman (1986), table 1: PEFR (l/min), Wright meter twice, mini Wright meter twice
PEFR = [
    [494, 490, 512, 525],
    [395, 397, 430, 415],
    [516, 512, 520, 508],
    [434, 401, 428, 444],
    [476, 470, 500, 500],
    [557, 611, 600, 625],
    [413, 415, 364, 460],
    [442, 431, 380, 390],
    [650, 638, 658, 642],
    [433, 429, 445, 432],
    [417, 420, 432, 420],
    [656, 633, 626, 605],
    [267, 275, 260, 227],
    [478, 492, 477, 467],
    [178, 165, 259, 268],
    [423, 372, 350, 370],
    [427, 421, 451, 443],
]

# Bland & Altman (1999), table 4: cardiac output by RV and IC, subjects 1-12, paired replicates
CARDIAC_OUTPUT = """1,7.83,6.57 1,7.42,5.62 1,7.89,6.9 1,7.12,6.57 1,7.88,6.35 2,6.16,4.06
2,7.26,4.29 2,6.71,4.26 2,6.54,4.09 3,4.75,4.71 3,5.24,5.5 3,4.86,5.08
3,4.78,5.02 3,6.05,6.01 3,5.42,5.67 4,4.21,4.14 4,3.61,4.2 4,3.72,4.61
4,3.87,4.68 4,3.92,5.04 5,3.13,3.03 5,2.98,2.86 5,2.85,2.77 5,3.17,2.46
5,3.09,2.32 5,3.12,2.43 6,5.92,5.9 6,6.42,5.81 6,5.92,5.7 6,6.27,5.76
7,7.13,5.09 7,6.62,4.63 7,6.58,4.61 7,6.93,5.09 8,4.54,4.72 8,4.81,4.61
8,5.11,4.36 8,5.29,4.2 8,5.39,4.36 8,5.57,4.2 9,4.48,3.17 9,4.92,3.12
9,3.97,2.96 10,4.22,4.35 10,4.65,4.62 10,4.74,3.16 10,4.44,3.53 10,4.5,3.53
11,6.78,7.2 11,6.07,6.09 11,6.52,7.0 11,6.42,7.1 11,6.41,7.4 11,5.76,6.8
12,5.06,4.5 12,4.72,4.2 12,4.9,3.8 12,4.8,3.8 12,4.9,4.2 12,5.1,4.5"""


def _co():
    rows = [r.split(",") for r in CARDIAC_OUTPUT.split()]
    return [int(r[0]) for r in rows], [float(r[1]) for r in rows], [float(r[2]) for r in rows]


# --------------------------------------------------------------------------- the inputs
def _pairs(s: Stream, n: int) -> tuple[list[float], list[float]]:
    """Two methods' measurements of n units: a level, a bias, a proportional part, noise."""
    rows = random_scores(s, n, 2)
    slope = s.uniform(-0.15, 0.15) if s.uniform() < 0.4 else 0.0
    x = [r[0] for r in rows]
    y = [round(r[1] + slope * (r[0] - 10.0), 2) for r in rows]
    return x, y


def _replicates(s: Stream, n: int, paired: bool):
    """Units with 1-5 replicates each; unpaired: each method its own number (None pads)."""
    units, x, y = [], [], []
    spread, bias = s.uniform(0.5, 3.0), s.uniform(-1.0, 1.0)
    for u in range(1, n + 1):
        level = 10.0 + spread * s.normal()
        m1, m2 = s.integer(1, 5), s.integer(1, 5)
        if paired:
            m2 = m1 = max(m1, 2) if u == 1 else m1
        drift = s.uniform(-0.5, 0.5) if paired else 0.0
        for r in range(max(m1, m2)):
            t = level + drift * r
            units.append(u)
            x.append(round(t + bias + 0.5 * s.normal(), 2) if r < m1 else None)
            y.append(round(t + 0.5 * s.normal(), 2) if r < m2 else None)
    return units, x, y


def _scale_matrix(K, by_distance):
    return [[by_distance[abs(i - j)] for j in range(K)] for i in range(K)]


def cases() -> list[dict]:
    s = Stream(SEED)
    out = []
    levels = (0.9, 0.95, 0.99)
    wright1 = [r[0] for r in PEFR]
    mini1 = [r[2] for r in PEFR]
    for cid, opts, note in (
        (
            "pefr-1986-2sd",
            {"agreement_level": TWO_SD, "confidence_level": 0.95, "method": "approximate"},
            "Bland & Altman (1986): the first Wright and mini Wright readings; limits at "
            "+-2 SD, Bland & Altman's approximate intervals.",
        ),
        (
            "pefr-1986-1.96sd",
            {"agreement_level": Z196, "confidence_level": 0.95, "method": "exact"},
            "The same data; limits at +-1.96 SD (the agreement level 2 Phi(1.96) - 1), exact "
            "intervals.",
        ),
    ):
        out.append(case("bland_altman", cid, {"x": wright1, "y": mini1}, opts, ["published"], note))
    out.append(
        case(
            "bland_altman",
            "pefr-1986-second-readings",
            {"x": [r[1] for r in PEFR], "y": [r[3] for r in PEFR]},
            {"agreement_level": 0.95, "confidence_level": 0.95, "method": "approximate"},
            ["published"],
            "Bland & Altman's (1986) data, the second reading of each meter.",
        )
    )
    for i in range(16):
        n = s.integer(3, 60)
        x, y = _pairs(s, n)
        opts = {
            "agreement_level": (0.9, 0.95, 0.99)[s.integer(0, 2)],
            "confidence_level": levels[i % 3],
            "method": ("exact", "approximate")[i % 2],
        }
        out.append(case("bland_altman", f"r{i:02d}", {"x": x, "y": y}, opts, ["random"]))
    units, rv, ic = _co()
    for cid, tv, level, note in (
        (
            "cardiac-output-1999",
            "constant",
            Z196,
            "Bland & Altman (1999), section 5.2: replicates, the true value constant.",
        ),
        (
            "cardiac-output-2007",
            "varying",
            Z196,
            "Bland & Altman (2007): the same data as pairs, the true value varying.",
        ),
    ):
        out.append(
            case(
                "bland_altman",
                cid,
                {"x": rv, "y": ic, "units": units},
                {"agreement_level": level, "confidence_level": 0.95, "true_value": tv},
                ["published"],
                note,
            )
        )
    for i in range(6):
        paired = i % 2 == 1
        units, x, y = _replicates(s, s.integer(3, 15), paired)
        out.append(
            case(
                "bland_altman",
                f"replicates-r{i:02d}",
                {"x": x, "y": y, "units": units},
                {
                    "agreement_level": 0.95,
                    "confidence_level": levels[i % 3],
                    "true_value": "varying" if paired else "constant",
                },
                ["random"],
            )
        )
    out.append(
        case(
            "bland_altman",
            "constant-difference",
            {"x": [3, 4, 5, 6, 8], "y": [1, 2, 3, 4, 6]},
            {"agreement_level": 0.95, "confidence_level": 0.95, "method": "exact"},
            ["degenerate"],
            "Every difference is 2: SD 0, the limits and their intervals collapse to 2; the "
            "regression's residuals are 0 with a flat slope, so its t is 0/0.",
        )
    )
    out.append(
        case(
            "bland_altman",
            "equal-means",
            {"x": [1, 2, 3], "y": [3, 2, 1]},
            {"agreement_level": 0.95, "confidence_level": 0.95, "method": "approximate"},
            ["degenerate"],
            "Every pair's mean is 2: the slope of the difference on the mean is 0/0.",
        )
    )
    # overall CCC
    for i in range(14):
        n, J = s.integer(4, 40), (2, 3, 3, 4, 5, 6)[i % 6]
        out.append(
            case(
                "overall_ccc",
                f"r{i:02d}",
                {"ratings": random_scores(s, n, J)},
                {"confidence_level": levels[i % 3]},
                ["random"],
            )
        )
    out.append(
        case(
            "overall_ccc",
            "shrout-fleiss-1979",
            {
                "ratings": [
                    [9, 2, 5, 8],
                    [6, 1, 3, 2],
                    [8, 4, 6, 8],
                    [7, 1, 2, 6],
                    [10, 5, 6, 9],
                    [6, 2, 4, 7],
                ]
            },
            {"confidence_level": 0.95},
            ["published"],
            "Shrout & Fleiss' (1979) Table 2: six targets, four judges (the data are published; "
            "the coefficient is computed here).",
        )
    )
    out.append(
        case(
            "overall_ccc",
            "all-equal",
            {"ratings": [[4, 4, 4], [4, 4, 4], [4, 4, 4]]},
            {"confidence_level": 0.95},
            ["degenerate"],
            "Every measurement is 4: the overall CCC is 0/0.",
        )
    )
    out.append(
        case(
            "overall_ccc",
            "identical-methods",
            {"ratings": [[1, 1, 1], [2, 2, 2], [5, 5, 5], [3, 3, 3]]},
            {"confidence_level": 0.95},
            ["degenerate"],
            "Three identical methods: rho_o = 1, and Fisher's z interval is undefined.",
        )
    )
    # Bangdiwala's B
    specs = ("identity", "linear", "quadratic", "vcd-default")
    for i in range(20):
        K = s.integer(2, 6)
        M = exact_matrix(s, K)
        spec = specs[i % 4]
        if spec == "vcd-default":
            w = [1.0, 1.0 - 1.0 / (K - 1) ** 2] + [0.0] * (K - 2) if K > 2 else [1.0, 0.0]
            spec = _scale_matrix(K, w[:K])
        out.append(
            case(
                "bangdiwala_b",
                f"r{i:02d}",
                {"matrix": M},
                {"weights": spec, "confidence_level": levels[i % 3]},
                ["random"],
            )
        )
    out.append(
        case(
            "bangdiwala_b",
            "seed-001",
            {"matrix": [[8, 2], [1, 9]]},
            {"weights": "identity", "confidence_level": 0.95},
            ["published"],
            "The course's seed 001 table: B = (64 + 81) / (10 x 9 + 10 x 11) = 0.725.",
        )
    )
    out.append(
        case(
            "bangdiwala_b",
            "no-shared-category",
            {"matrix": [[0, 5], [0, 0]]},
            {"weights": "identity", "confidence_level": 0.95},
            ["degenerate"],
            "No category has cases in both its row and its column: B is 0/0.",
        )
    )
    out.append(
        case(
            "bangdiwala_b",
            "perfect",
            {"matrix": [[7, 0, 0], [0, 3, 0], [0, 0, 5]]},
            {"weights": "linear", "confidence_level": 0.95},
            ["degenerate"],
            "Perfect agreement: B = 1, standard error 0.",
        )
    )
    # benchmarking
    scales = ("landis_koch", "fleiss", "altman")
    for scale in scales:
        out.append(
            case(
                "benchmark",
                f"irrcac-example/{scale}",
                {"estimate": 0.67, "standard_error": 0.15},
                {"scale": scale, "confidence_level": 0.95},
                ["published"],
                "irrCAC's documented example: a coefficient of 0.67 with standard error 0.15.",
            )
        )
        out.append(
            case(
                "benchmark",
                f"gwet-2014-4raters/{scale}",
                {"estimate": 0.77544, "standard_error": 0.14295},
                {"scale": scale, "confidence_level": 0.95},
                ["published"],
                "Gwet's AC1 of cac.raw4raters and its standard error, as irrCAC's R vignette "
                "prints them (0.77544, 0.14295).",
            )
        )
    for i in range(21):
        est = round(s.uniform(-0.3, 0.99), 4)
        se = round(s.uniform(0.005, 0.3), 4)
        out.append(
            case(
                "benchmark",
                f"r{i:02d}",
                {"estimate": est, "standard_error": se},
                {"scale": scales[i % 3], "confidence_level": (0.9, 0.95, 0.8)[i % 3]},
                ["random"],
            )
        )
    return out


def exact_matrix(s: Stream, K: int) -> list[list[int]]:
    """A K x K table with most cases near the diagonal (agreement charts are read there)."""
    N = s.integer(20, 300)
    agree = s.uniform(0.3, 0.9)
    shares = [s.uniform(0.2, 1.0) for _ in range(K)]
    M = [[0] * K for _ in range(K)]
    for _ in range(N):
        a = s.choice(shares)
        if s.uniform() < agree:
            b = a
        else:
            b = min(K - 1, max(0, a + (1 if s.uniform() < 0.5 else -1) * s.integer(1, 2)))
        M[a][b] += 1
    return M


# --------------------------------------------------------------------------- helpers
def _ref(source, call, values, tolerance=FULL):
    out = {}
    for k, v in values.items():
        if isinstance(v, (list, tuple)):
            out[k] = [None if x is None else _f(x) for x in v]
        else:
            out[k] = None if v is None else _f(v)
    return {"source": source, "call": call, "values": out, "tolerance": tolerance}


def _f(x):
    x = float(x)
    if math.isnan(x):
        return None
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


def _z(level):
    return NormalDist().inv_cdf((1.0 + level) / 2.0)


# --------------------------------------------------------------------------- Bland-Altman
def _ba_exact(case):
    """Bias, SD and limits in fractions (one pair per unit, or the replicate designs)."""
    inp, opts = case["input"], case["options"]
    z = _z(opts["agreement_level"])
    x = [None if v is None else Frac(v) for v in inp["x"]]
    y = [None if v is None else Frac(v) for v in inp["y"]]
    vals = {}
    if "units" not in inp:
        d = [a - b for a, b in zip(x, y, strict=True)]
        n = len(d)
        bias = sum(d) / n
        var = sum((v - bias) ** 2 for v in d) / (n - 1)
    elif opts["true_value"] == "constant":
        ids = list(dict.fromkeys(inp["units"]))
        xs = {
            u: [a for a, w in zip(x, inp["units"], strict=True) if w == u and a is not None]
            for u in ids
        }
        ys = {
            u: [b for b, w in zip(y, inp["units"], strict=True) if w == u and b is not None]
            for u in ids
        }
        n = len(ids)
        D = [sum(xs[u]) / len(xs[u]) - sum(ys[u]) / len(ys[u]) for u in ids]
        bias = sum(D) / n
        sD2 = sum((v - bias) ** 2 for v in D) / (n - 1)

        def within(g):
            ss = sum(sum((v - sum(g[u]) / len(g[u])) ** 2 for v in g[u]) for u in ids)
            df = sum(len(g[u]) for u in ids) - n
            return (ss / df if df > 0 else Frac(0)), sum(Frac(1, len(g[u])) for u in ids) / n

        vx, hx = within(xs)
        vy, hy = within(ys)
        var = sD2 + (1 - hx) * vx + (1 - hy) * vy
        vals["within_var_1"], vals["within_var_2"] = vx, vy
    else:
        ids = list(dict.fromkeys(inp["units"]))
        d = {u: [a - b for a, b, w in zip(x, y, inp["units"], strict=True) if w == u] for u in ids}
        n, N = len(ids), len(x)
        allv = [v for u in ids for v in d[u]]
        bias = sum(allv) / N
        means = {u: sum(d[u]) / len(d[u]) for u in ids}
        MSB = sum(len(d[u]) * (means[u] - bias) ** 2 for u in ids) / (n - 1)
        MSW = sum(sum((v - means[u]) ** 2 for v in d[u]) for u in ids) / (N - n)
        m0 = (N - Frac(sum(len(d[u]) ** 2 for u in ids), N)) / (n - 1)
        var = MSB / m0 + (1 - 1 / m0) * MSW
        vals["within_var_1"] = MSW
    sd = exact.sqrt(var)
    vals.update(bias=bias, sd=sd)
    vals["lower"] = float(bias) - z * sd
    vals["upper"] = float(bias) + z * sd
    call = (
        "exact.fractions (Bland & Altman 1986; 1999 section 5.2; 2007); z from "
        "statistics.NormalDist"
    )
    return _ref("exact", call, {k: float(v) for k, v in vals.items()}, EXACT)


def _unit_means(inp):
    """(means, differences) per unit: the points the proportional-bias regression uses."""
    ids = list(dict.fromkeys(inp["units"]))
    mx, my = [], []
    for u in ids:
        xs = [a for a, w in zip(inp["x"], inp["units"], strict=True) if w == u and a is not None]
        ys = [b for b, w in zip(inp["y"], inp["units"], strict=True) if w == u and b is not None]
        mx.append(np.mean(xs))
        my.append(np.mean(ys))
    mx, my = np.array(mx), np.array(my)
    return (mx + my) / 2, mx - my


def _ba_scipy(case):
    """The intervals with scipy's quantiles, and the regression with scipy's linregress."""
    from scipy import stats

    inp, opts = case["input"], case["options"]
    level, z = opts["confidence_level"], _z(opts["agreement_level"])
    q = (1 + level) / 2
    out = []
    vals = {}
    if "units" not in inp:
        x, y = np.array(inp["x"], float), np.array(inp["y"], float)
        d = x - y
        n, mean, s = d.size, d.mean(), d.std(ddof=1)
        t = stats.t.ppf(q, n - 1)
        vals["bias_ci_low"], vals["bias_ci_high"] = mean - t * s / n**0.5, mean + t * s / n**0.5
        lower, upper = mean - z * s, mean + z * s
        if opts["method"] == "approximate":
            se = (3 * s * s / n) ** 0.5
            vals.update(
                lower_ci_low=lower - t * se,
                lower_ci_high=lower + t * se,
                upper_ci_low=upper - t * se,
                upper_ci_high=upper + t * se,
            )
            out.append(_ref("scipy", "scipy.stats.t.ppf: limit -/+ t sqrt(3 s^2 / n)", vals))
        else:
            out.append(_ref("scipy", "scipy.stats.t.ppf: mean d -/+ t s / sqrt(n)", vals))
            if s > 0:
                k = stats.nct.ppf([1 - q, q], n - 1, n**0.5 * z) / n**0.5
            else:
                k = np.zeros(2)
            nct = {
                "upper_ci_low": mean + k[0] * s,
                "upper_ci_high": mean + k[1] * s,
                "lower_ci_low": mean - k[1] * s,
                "lower_ci_high": mean - k[0] * s,
            }
            call = "scipy.stats.nct.ppf: mean d + q s / sqrt(n), q of t'(n - 1, sqrt(n) z)"
            out.append(_ref("scipy", call, nct, NCT))
        means, diffs = (x + y) / 2, d
    else:
        out.append(_ref("scipy", "scipy.stats t and chi2 (MOVER, Zou 2013)", _mover(case)))
        means, diffs = _unit_means(inp)
    if np.ptp(means) > 0 and means.size >= 3:
        lr = stats.linregress(means, diffs)
        df = means.size - 2
        t = stats.t.ppf(q, df)
        reg = {"slope": lr.slope, "intercept": lr.intercept}
        if np.isfinite(lr.stderr):  # NaN where linregress's r is 0/0 (constant differences)
            reg["slope_ci_low"] = lr.slope - t * lr.stderr
            reg["slope_ci_high"] = lr.slope + t * lr.stderr
        if lr.stderr > 0:
            reg["slope_pvalue"] = lr.pvalue
        out.append(_ref("scipy", "scipy.stats.linregress(means, differences)", reg, FULL))
    return out


def _mover(case):
    """MOVER intervals (Zou 2013) of the replicate designs, written with pandas group sums
    and scipy's quantiles."""
    import pandas as pd
    from scipy import stats

    inp, opts = case["input"], case["options"]
    level, z = opts["confidence_level"], _z(opts["agreement_level"])
    a = 1 - level
    df = pd.DataFrame({"u": inp["units"], "x": inp["x"], "y": inp["y"]}, dtype=float)
    n = df.u.nunique()
    if opts["true_value"] == "constant":
        gx = df.dropna(subset=["x"]).groupby("u").x
        gy = df.dropna(subset=["y"]).groupby("u").y
        D = gx.mean() - gy.mean()
        bias, sD2 = D.mean(), D.var(ddof=1)
        terms = [(1.0, sD2, n - 1)]
        for g in (gx, gy):
            m = g.size()
            dfw = int(m.sum()) - n
            if dfw > 0:
                ss = ((g.obj - g.transform("mean")) ** 2).sum()
                terms.append((1 - (1 / m).mean(), ss / dfw, dfw))
        se_b, df_b = (sD2 / n) ** 0.5, n - 1
    else:
        df["d"] = df.x - df.y
        g = df.groupby("u").d
        m = g.size().to_numpy(float)
        N = m.sum()
        bias = df.d.mean()
        MSB = (m * (g.mean().to_numpy() - bias) ** 2).sum() / (n - 1)
        MSW = ((df.d - g.transform("mean")) ** 2).sum() / (N - n)
        m0 = (N - (m * m).sum() / N) / (n - 1)
        terms = [(1 / m0, MSB, n - 1), (1 - 1 / m0, MSW, N - n)]
        cb, cw = (m * m).sum() / (m0 * N * N), (N - (m * m).sum() / m0) / (N * N)
        var_b = cb * MSB + cw * MSW
        if var_b > MSW / N:
            df_b = var_b**2 / ((cb * MSB) ** 2 / (n - 1) + (cw * MSW) ** 2 / (N - n))
        else:
            var_b, df_b = MSW / N, N - n
        se_b = var_b**0.5
    terms = [t for t in terms if t[0] > 0]
    s2 = sum(c * ms for c, ms, _ in terms)
    lo2 = (
        s2
        - sum((c * ms * (1 - nu / stats.chi2.ppf(1 - a / 2, nu))) ** 2 for c, ms, nu in terms)
        ** 0.5
    )
    hi2 = (
        s2 + sum((c * ms * (nu / stats.chi2.ppf(a / 2, nu) - 1)) ** 2 for c, ms, nu in terms) ** 0.5
    )
    s, ls, us = s2**0.5, max(lo2, 0.0) ** 0.5, hi2**0.5
    t = stats.t.ppf(1 - a / 2, df_b)
    lb, ub = bias - t * se_b, bias + t * se_b
    lower, upper = bias - z * s, bias + z * s
    return {
        "bias_ci_low": lb,
        "bias_ci_high": ub,
        "lower_ci_low": lower - math.hypot(bias - lb, z * (us - s)),
        "lower_ci_high": lower + math.hypot(ub - bias, z * (s - ls)),
        "upper_ci_low": upper - math.hypot(bias - lb, z * (s - ls)),
        "upper_ci_high": upper + math.hypot(ub - bias, z * (us - s)),
    }


def _ba_pingouin(case):
    """pingouin 0.7.0's plot_blandaltman (approximate intervals, 1986): its lines (0, bias,
    upper, lower) and bands (bias, upper, lower), read from the artists."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import oracles_path  # noqa: F401
    import pingouin as pg

    inp, opts = case["input"], case["options"]
    z = _z(opts["agreement_level"])
    fig, ax = plt.subplots()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pg.plot_blandaltman(
            inp["x"],
            inp["y"],
            agreement=z,
            confidence=opts["confidence_level"],
            annotate=False,
            ax=ax,
        )
    _, bias, upper, lower = (float(line.get_ydata()[0]) for line in ax.get_lines())
    # each band's data y (a Rectangle since matplotlib 3.9, a Polygon before)
    spans = (p.get_patch_transform().transform(p.get_path().vertices)[:, 1] for p in ax.patches)
    (b0, b1), (u0, u1), (l0, l1) = ((float(v.min()), float(v.max())) for v in spans)
    plt.close(fig)
    vals = {
        "bias": bias,
        "lower": lower,
        "upper": upper,
        "bias_ci_low": b0,
        "bias_ci_high": b1,
        "lower_ci_low": l0,
        "lower_ci_high": l1,
        "upper_ci_low": u0,
        "upper_ci_high": u1,
    }
    call = "plot_blandaltman(x, y, agreement=z, confidence=level): its axhline and axhspan"
    return _ref("pingouin", call, vals)


def bland_altman(case):
    out = [_ba_exact(case)]
    out += _ba_scipy(case)
    if case["options"].get("method") == "approximate" and "units" not in case["input"]:
        if np.std(np.subtract(case["input"]["x"], case["input"]["y"])) > 0:
            out.append(_ba_pingouin(case))
    return out


# --------------------------------------------------------------------------- overall CCC
def _occc(mu, S):
    J = len(mu)
    pairs = [(j, k) for j in range(J) for k in range(j + 1, J)]
    num = sum(2 * S[j][k] for j, k in pairs)
    den = sum(S[j][j] + S[k][k] + (mu[j] - mu[k]) ** 2 for j, k in pairs)
    return num / den if den else None


def overall_ccc(case):
    rows = case["input"]["ratings"]
    level = case["options"]["confidence_level"]
    X = [[Frac(v) for v in r] for r in rows]
    n, J = len(X), len(X[0])
    mu = [sum(r[j] for r in X) / n for j in range(J)]
    S = [[sum((r[a] - mu[a]) * (r[b] - mu[b]) for r in X) / n for b in range(J)] for a in range(J)]
    rho = _occc(mu, S)
    pairs = [(j, k) for j in range(J) for k in range(j + 1, J)]
    cross = sum(exact.sqrt(S[j][j] * S[k][k]) for j, k in pairs)
    den = sum(S[j][j] + S[k][k] + (mu[j] - mu[k]) ** 2 for j, k in pairs)
    vals = {"value": rho}
    vals["precision"] = float(sum(S[j][k] for j, k in pairs)) / cross if cross else None
    vals["accuracy"] = 2 * cross / float(den) if den else None
    call = "exact.fractions: Barnhart, Haber & Song (2002), moments divided by n"
    out = [_ref("exact", call, {k: v for k, v in vals.items()}, EXACT)]
    if rho is not None and n > 2:
        # the delta method on Fisher's z: finite differences of _occc in floats
        m = np.array([float(v) for v in mu])
        Sf = np.array([[float(v) for v in r] for r in S])
        h = 1e-6
        g_mu = np.array(
            [(_occc(m + h * e, Sf) - _occc(m - h * e, Sf)) / (2 * h) for e in np.eye(J)]
        )
        params = [(a, b) for a in range(J) for b in range(a, J)]
        g_s = []
        for a, b in params:
            E = np.zeros((J, J))
            E[a, b] = E[b, a] = h
            g_s.append((_occc(m, Sf + E) - _occc(m, Sf - E)) / (2 * h))
        cov = np.array(
            [[Sf[a, c] * Sf[b, d] + Sf[a, d] * Sf[b, c] for c, d in params] for a, b in params]
        )
        var = (g_mu @ Sf @ g_mu + np.array(g_s) @ cov @ np.array(g_s)) / (n - 2)
        r = float(rho)
        fd = {"se": var**0.5}
        if abs(r) < 1 and var > 0 and cross > 0:
            half = _z(level) * var**0.5 / (1 - r * r)
            fd["ci_low"], fd["ci_high"] = (
                math.tanh(math.atanh(r) - half),
                math.tanh(math.atanh(r) + half),
            )
        call = (
            "the delta method by finite differences: Var(mean) = S/n, Cov(s_ab, s_cd) = "
            "(s_ac s_bd + s_ad s_bc)/n, n - 2 for n (Lin 1989), Fisher's z"
        )
        out.append(_ref("finite-differences", call, fd, FINITE_DIFFERENCES))
    return out


# --------------------------------------------------------------------------- Bangdiwala
def _by_distance(spec, K):
    if spec in (None, "identity"):
        return [Frac(1)] + [Frac(0)] * (K - 1)
    if spec == "linear":
        return [1 - Frac(d, K - 1) for d in range(K)]
    if spec == "quadratic":
        return [1 - Frac(d * d, (K - 1) ** 2) for d in range(K)]
    return [Frac(v) for v in spec[0]]


def _b_parts(P, w):
    """(numerator, denominator) of vcd's agreementplot: the nested rectangles."""
    K = len(P)
    num = Frac(0)
    for i in range(K):
        prev = Frac(0)
        for j, wj in enumerate(w, start=1):
            lb, tr = max(0, i - j + 1), min(K - 1, i + j - 1)
            A = sum(P[r][i] for r in range(lb, tr + 1)) * sum(P[i][c] for c in range(lb, tr + 1))
            num += wj * (A - prev)
            prev = A
    den = sum(sum(P[i]) * sum(row[i] for row in P) for i in range(K))
    return num, den


def bangdiwala_b(case):
    M, opts = case["input"]["matrix"], case["options"]
    K, N = len(M), sum(map(sum, M))
    w = _by_distance(opts["weights"], K)
    P = [[Frac(v, N) for v in row] for row in M]
    num, den = _b_parts(P, w)
    if den == 0:
        return [
            _ref(
                "exact",
                "exact.fractions (vcd's rectangles)",
                {"value": None, "se": None, "ci_low": None, "ci_high": None},
                EXACT,
            )
        ]
    B = num / den
    h = Frac(1, 10**6)
    terms = []
    for i in range(K):
        for j in range(K):
            up = [r[:] for r in P]
            dn = [r[:] for r in P]
            up[i][j] += h
            dn[i][j] -= h
            (nu, du), (nd, dd) = _b_parts(up, w), _b_parts(dn, w)
            g = ((nu - nd) - B * (du - dd)) / (
                2 * h * den
            )  # exact: numerator, denominator quadratic
            terms.append((P[i][j], g))
    mean = sum(p * g for p, g in terms)
    var = (sum(p * g * g for p, g in terms) - mean * mean) / N
    se = exact.sqrt(var)
    z = _z(opts["confidence_level"])
    vals = {
        "value": float(B),
        "se": se,
        "ci_low": max(0.0, float(B) - z * se),
        "ci_high": min(1.0, float(B) + z * se),
    }
    call = "exact.fractions: vcd's rectangles; the delta method with exact central differences"
    return [_ref("exact", call, vals, EXACT)]


# --------------------------------------------------------------------------- benchmarking
SCALE_BOUNDS = {
    "landis_koch": [(0.8, 1.0), (0.6, 0.8), (0.4, 0.6), (0.2, 0.4), (0.0, 0.2), (-1.0, 0.0)],
    "fleiss": [(0.75, 1.0), (0.4, 0.75), (-1.0, 0.4)],
    "altman": [(0.8, 1.0), (0.6, 0.8), (0.4, 0.6), (0.2, 0.4), (-1.0, 0.2)],
}


def benchmark(case):
    import oracles_path  # noqa: F401
    from irrCAC.benchmark import Benchmark
    from scipy import stats

    inp, opts = case["input"], case["options"]
    est, se, scale = inp["estimate"], inp["standard_error"], opts["scale"]
    level = opts["confidence_level"]
    theirs = getattr(Benchmark(est, se), scale)()
    cum = [float(c) for c in theirs["CumProb"]]
    band = next((i for i, c in enumerate(cum) if c >= level), len(cum) - 1)
    out = [
        _ref(
            "irrCAC",
            f"Benchmark(coeff, se).{scale}()['CumProb'] (5 decimals)",
            {"cumulative": cum},
            ROUNDED5,
        )
    ]
    if not any(abs(c - level) <= 1e-5 for c in cum):  # the band is decided beyond the rounding
        out.append(_ref("irrCAC", "the first band whose CumProb reaches the level", {"band": band}))
    tn = stats.truncnorm((-1 - est) / se, (1 - est) / se, loc=est, scale=se)
    p = [tn.cdf(hi) - tn.cdf(lo) for lo, hi in SCALE_BOUNDS[scale]]
    c = np.cumsum(p).tolist()
    vals = {
        "probabilities": p,
        "cumulative": c,
        "band": next((i for i, v in enumerate(c) if v >= level - 1e-12), len(c) - 1),
    }
    out.append(
        _ref(
            "scipy", "scipy.stats.truncnorm(a=(-1 - k)/se, b=(1 - k)/se, loc=k, scale=se).cdf", vals
        )
    )
    return out


ORACLES = {
    "bland_altman": bland_altman,
    "overall_ccc": overall_ccc,
    "bangdiwala_b": bangdiwala_b,
    "benchmark": benchmark,
}

DESCRIPTIONS = {
    "bland_altman": (
        "Bland & Altman's limits of agreement (1986): bias = mean of y1 - y2, sd, lower/upper "
        "= bias -/+ z sd (z for options.agreement_level); their intervals (options.method: "
        "'approximate' = +-t sqrt(3 sd^2 / n), Bland & Altman 1986; 'exact' = noncentral t, "
        "Carkeet 2015; replicates (input.units, options.true_value 'constant' = Bland & "
        "Altman 1999 section 5.2, 'varying' = Bland & Altman 2007): MOVER, Zou 2013), "
        "within_var_1/2 (the within-unit variances); the regression of the difference on "
        "the mean (slope, intercept, slope_pvalue; unit means with replicates)"
    ),
    "overall_ccc": (
        "The overall concordance correlation of several methods (Lin 1989; Barnhart, Haber & "
        "Song 2002), moments divided by n; precision and accuracy as epiR's epi.occc; se and "
        "the Fisher-z interval of the delta method (Lin's for two methods)"
    ),
    "bangdiwala_b": (
        "Bangdiwala's B (1985) and its weighted form, as vcd's agreementplot computes them "
        "(options.weights: agreement weights by distance); se: the delta method under "
        "multinomial sampling, and the Wald interval cut to [0, 1]"
    ),
    "benchmark": (
        "Gwet's (2014, ch. 6) benchmarking: the probability that the true coefficient lies in "
        "each band of a scale (landis_koch, fleiss, altman), a normal truncated to [-1, 1]; "
        "cumulative from the top band; band = the first (0-based) whose cumulative "
        "probability reaches options.confidence_level"
    ),
}


def _pub(source, where, values, decimals):
    unit = 10.0**-decimals
    return {
        "source": source,
        "call": where,
        "values": values,
        "tolerance": {"abs": unit / 2 + 1e-12, "rel": 0.0},
    }


PUBLISHED = {
    "bland_altman/pefr-1986-2sd": [
        _pub(
            "blandaltman1986",
            "mean difference -2.1 l/min, SD 38.8, limits of agreement -79.7 to 75.5",
            {"bias": -2.1, "sd": 38.8, "lower": -79.7, "upper": 75.5},
            1,
        )
    ],
    "bland_altman/pefr-1986-1.96sd": [
        _pub(
            "blandaltman1986",
            "with 1.96 SD: -78.1 to 73.9 (issue 34)",
            {"lower": -78.1, "upper": 73.9},
            1,
        )
    ],
    "bland_altman/cardiac-output-1999": [
        _pub(
            "blandaltman1999",
            "section 5.2: within-subject variances 0.1072 (RV) and 0.1379 (IC), mean "
            "difference 0.7092, SD 1.0517, limits -1.3521 to 2.7705",
            {
                "within_var_1": 0.1072,
                "within_var_2": 0.1379,
                "bias": 0.7092,
                "sd": 1.0517,
                "lower": -1.3521,
                "upper": 2.7705,
            },
            4,
        )
    ],
    "bland_altman/cardiac-output-2007": [
        _pub(
            "blandaltman2007",
            "the true value varying: mean difference 0.6021667, limits -1.3394565 to 2.5437899",
            {"bias": 0.6021667, "lower": -1.3394565, "upper": 2.5437899},
            7,
        ),
        _pub("blandaltman2007", "SD of the differences 0.99062408", {"sd": 0.99062408}, 8),
    ],
    "benchmark/irrcac-example/altman": [
        _pub(
            "irrcac-docs",
            "Benchmark(coeff=0.67, se=0.15).altman(): CumProb [0.18168, 0.67511, 0.96356, "
            "0.99912, 1.0]",
            {"cumulative": [0.18168, 0.67511, 0.96356, 0.99912, 1.0]},
            5,
        )
    ],
}

PUBLICATIONS = {
    "blandaltman1986": "Bland, J. M. & Altman, D. G. (1986). Statistical methods for assessing "
    "agreement between two methods of clinical measurement. Lancet 327(8476), 307-310: the "
    "peak expiratory flow data of table 1 and the limits computed from them",
    "blandaltman1999": "Bland, J. M. & Altman, D. G. (1999). Measuring agreement in method "
    "comparison studies. Statistical Methods in Medical Research 8(2), 135-160: section 5.2, "
    "the cardiac output data of table 4 (as transcribed in Huizinga's MATLAB ba1999demo and "
    "the R package BAtrending)",
    "blandaltman2007": "Bland, J. M. & Altman, D. G. (2007). Agreement between methods of "
    "measurement with multiple observations per individual. Journal of Biopharmaceutical "
    "Statistics 17(4), 571-582: the same data, the true value varying",
    "irrcac-docs": "irrCAC 0.4.4 (Python), the documented example of irrCAC.benchmark.Benchmark",
}


def references(case: dict) -> list[dict]:
    return ORACLES[case["coefficient"]](case)


def published(case: dict) -> list[dict]:
    return [dict(r) for r in PUBLISHED.get(case["id"], [])]
