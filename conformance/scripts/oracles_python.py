"""The Python references of the conformance table: scikit-learn, statsmodels, irrCAC,
pingouin, krippendorff, and the exact fractions of exact.py.

``references(case)`` returns a list of references, each::

    {"source": "<key of sources.json>", "call": "<what was called>",
     "values": {"<quantity>": number | None | [..]}, "tolerance": {"abs": a, "rel": r}}

kappalib is never imported here.  irrCAC and pingouin live in ``.venv/oracles`` (their pins
clash with the book's; see requirements-oracles.txt); build.py puts that folder on sys.path.
"""

from __future__ import annotations

import math
import statistics
import warnings

import exact
import numpy as np
import pandas as pd

FULL = {"abs": 1e-12, "rel": 1e-9}  # a package's float64 result
EXACT = {"abs": 1e-13, "rel": 1e-12}  # a fraction (or a 40-digit square root) as float64


def _num(x):
    """A package's number as a JSON value: NaN is None (undefined), an infinity the string
    "inf" or "-inf" (JSON has no infinity)."""
    if x is None:
        return None
    if isinstance(x, (list, tuple, np.ndarray)):
        return [_num(v) for v in np.asarray(x, dtype=float).ravel()]
    x = float(np.asarray(x, dtype=float).ravel()[0])
    if math.isnan(x):
        return None
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


def attempt(source, call, compute):
    """One reference; an oracle that raises is recorded with its message (one bad call
    never stops the others)."""
    try:
        return compute()
    except Exception as err:
        return {
            "source": source,
            "call": call,
            "values": {},
            "error": f"{type(err).__name__}: {err}",
        }


def ref(source, call, values, tolerance=FULL, **extra):
    r = {
        "source": source,
        "call": call,
        "values": {k: _num(v) if k != "n" else v for k, v in values.items()},
    }
    r["tolerance"] = tolerance
    r.update(extra)
    return r


def exact_ref(call, values):
    out = {}
    for k, v in values.items():
        out[k] = exact.fl(v) if not isinstance(v, float) else v
    return {"source": "exact", "call": call, "values": out, "tolerance": EXACT}


# --------------------------------------------------------------------------- conversions
def pairs(M):
    """Two label vectors (classes 1..K) with the counts of M."""
    y1, y2 = [], []
    for i, row in enumerate(M):
        for j, n in enumerate(row):
            y1 += [i + 1] * n
            y2 += [j + 1] * n
    return y1, y2


def agreement_matrix(spec, K):
    return np.array([[float(v) for v in row] for row in exact.agreement_weights(spec, K)])


def irrcac_weights(spec):
    if spec is None or isinstance(spec, str):  # identity, linear, quadratic, ratio: its names
        return spec or "identity"
    return np.array(spec, dtype=float)


def ratings_frame(inp):
    """The case's ratings as irrCAC wants them: a units x raters DataFrame, NaN = missing.
    A count table becomes ratings unit by unit (Fleiss-type coefficients depend on the
    counts only), padded with NaN."""
    if "ratings" in inp:
        R = [[np.nan if v is None else v for v in row] for row in inp["ratings"]]
        return pd.DataFrame(R, dtype=float)
    cats = inp["categories"]
    rows = [[c for c, k in zip(cats, r, strict=True) for _ in range(k)] for r in inp["table"]]
    width = max(map(len, rows))
    return pd.DataFrame([r + [np.nan] * (width - len(r)) for r in rows], dtype=float)


def table_of(inp):
    if "table" in inp:
        return inp["table"]
    return exact.count_table(inp["ratings"], inp["categories"])


def _irrcac_raw(inp, weights, level=0.95, N=None):
    import oracles_path  # noqa: F401  (puts .venv/oracles on sys.path)
    from irrCAC.raw import CAC

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return CAC(
            ratings_frame(inp),
            weights=irrcac_weights(weights),
            categories=[float(c) for c in inp["categories"]],
            digits=15,
            confidence_level=level,
            N=np.inf if N is None else N,
        )


def _irrcac_table(M, weights, level=0.95):
    import oracles_path  # noqa: F401
    from irrCAC.table import CAC

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return CAC(
            pd.DataFrame(M), weights=irrcac_weights(weights), digits=15, confidence_level=level
        )


def _est(result):
    e = result["est"]
    lo, hi = e["confidence_interval"]
    return {"value": e["coefficient_value"], "se": e["se"], "ci_low": lo, "ci_high": hi}


def _quiet(fn, *a, **k):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return fn(*a, **k)


def _w_call(w):
    return w if isinstance(w, str) else "<agreement matrix>"


# --------------------------------------------------------------------------- two raters
def cohen_kappa(case):
    from sklearn.metrics import cohen_kappa_score
    from statsmodels.stats.inter_rater import cohens_kappa

    M = case["input"]["matrix"]
    K = len(M)
    w = case["options"].get("weights", "identity")
    level = case["options"].get("confidence_level", 0.95)
    out = []
    if w in ("identity", "linear", "quadratic"):
        y1, y2 = pairs(M)
        sk = {"identity": None, "linear": "linear", "quadratic": "quadratic"}[w]
        v = _quiet(cohen_kappa_score, y1, y2, labels=list(range(1, K + 1)), weights=sk)
        out.append(
            ref(
                "scikit-learn",
                f"cohen_kappa_score(y1, y2, labels=[1..K], weights={sk!r})",
                {"value": v},
            )
        )
    A = agreement_matrix(w, K)
    if w == "identity":
        res = _quiet(cohens_kappa, np.array(M, float))
        call = "cohens_kappa(table)"
    else:
        res = _quiet(cohens_kappa, np.array(M, float), weights=1.0 - A)
        call = "cohens_kappa(table, weights=1 - agreement weights)"
    lo, hi = _quiet(res["distribution_kappa"].interval, level)
    out.append(
        ref(
            "statsmodels",
            call + f"; .distribution_kappa.interval({level})",
            {
                "value": res["kappa"],
                "se": res["std_kappa"],
                "se_null": res["std_kappa0"],
                "ci_low": lo,
                "ci_high": hi,
            },
        )
    )
    call = f"table.CAC(table, weights={_w_call(w)!r}, digits=15).cohen()"

    def irrcac():
        e = _quiet(_irrcac_table(M, w, level).cohen)["est"]
        return ref("irrCAC", call, {"value": e["coefficient_value"], "se": e["se"]})

    out.append(attempt("irrCAC", call, irrcac))
    var, var0 = exact.cohen_kappa_variances(M, w)
    vals = {"value": exact.cohen_kappa(M, w)}
    if var is not None:
        vals["se"] = exact.sqrt(var)
        vals["se_null"] = exact.sqrt(var0)
        vals["z_null"] = None if var0 == 0 else float(vals["value"]) / vals["se_null"]
        z = statistics.NormalDist().inv_cdf((1 + level) / 2)
        k = float(vals["value"])
        vals["ci_low"] = max(-1.0, k - z * vals["se"])
        vals["ci_high"] = min(1.0, k + z * vals["se"])
    out.append(
        exact_ref(
            "exact.cohen_kappa, exact.cohen_kappa_variances (Fleiss, Cohen & "
            "Everitt 1969); the interval kappa +/- z se cut to [-1, 1], z from "
            "statistics.NormalDist",
            vals,
        )
    )
    return out


def scotts_pi(case):
    M = case["input"]["matrix"]
    out = []

    def table():
        e = _quiet(_irrcac_table(M, "identity").scott)["est"]
        return ref(
            "irrCAC",
            "table.CAC(table, digits=15).scott()",
            {"value": e["coefficient_value"], "se": e["se"]},
        )

    out.append(attempt("irrCAC", "table.CAC(table, digits=15).scott()", table))
    y1, y2 = pairs(M)

    def raw():
        r = _irrcac_raw(
            {
                "ratings": [[a, b] for a, b in zip(y1, y2, strict=True)],
                "categories": list(range(1, len(M) + 1)),
            },
            "identity",
        )
        e = _quiet(r.fleiss)["est"]
        return ref(
            "irrCAC",
            "raw.CAC(pairs as 2 raters, digits=15).fleiss()",
            {"value": e["coefficient_value"], "se": e["se"]},
        )

    out.append(attempt("irrCAC", "raw.CAC(pairs as 2 raters, digits=15).fleiss()", raw))
    out.append(exact_ref("exact.scotts_pi (Scott 1955)", {"value": exact.scotts_pi(M)}))
    return out


def pabak(case):
    M = case["input"]["matrix"]
    return [exact_ref("exact.pabak (Byrt, Bishop & Carlin 1993)", {"value": exact.pabak(M)})]


def kappa_max(case):
    from statsmodels.stats.inter_rater import cohens_kappa

    M = case["input"]["matrix"]
    res = _quiet(cohens_kappa, np.array(M, float))
    return [
        ref("statsmodels", "cohens_kappa(table).kappa_max", {"value": res["kappa_max"]}),
        exact_ref("exact.kappa_max (Cohen 1960)", {"value": exact.kappa_max(M)}),
    ]


def prevalence_bias_index(case):
    M = case["input"]["matrix"]
    return [
        exact_ref(
            "exact.prevalence_bias_index (Byrt, Bishop & Carlin 1993)",
            exact.prevalence_bias_index(M),
        )
    ]


def _two_rater_gwet(case, method, exact_fn):
    M = case["input"]["matrix"]
    w = case["options"].get("weights", "identity")
    level = case["options"].get("confidence_level", 0.95)
    out = []
    call = f"table.CAC(table, weights={_w_call(w)!r}, digits=15).{method}()"

    def table():
        e = _quiet(getattr(_irrcac_table(M, w, level), method))["est"]
        return ref("irrCAC", call, {"value": e["coefficient_value"], "se": e["se"]})

    out.append(attempt("irrCAC", call, table))
    y1, y2 = pairs(M)
    inp = {
        "ratings": [[a, b] for a, b in zip(y1, y2, strict=True)],
        "categories": list(range(1, len(M) + 1)),
    }
    call = (
        f"raw.CAC(pairs as 2 raters, weights={_w_call(w)!r}, confidence_level={level}, "
        f"digits=15).{method}()"
    )
    out.append(
        attempt(
            "irrCAC",
            call,
            lambda: ref("irrCAC", call, _est(_quiet(getattr(_irrcac_raw(inp, w, level), method)))),
        )
    )
    out.append(exact_ref(f"exact.{exact_fn.__name__}", {"value": exact_fn(M, w)}))
    return out


def gwet_ac1(case):
    return _two_rater_gwet(case, "gwet", exact.gwet_ac1)


def brennan_prediger(case):
    return _two_rater_gwet(case, "bp", exact.brennan_prediger)


def mcc(case):
    from sklearn.metrics import matthews_corrcoef

    M = case["input"]["matrix"]
    y1, y2 = pairs(M)
    v = _quiet(matthews_corrcoef, y1, y2)
    return [
        ref("scikit-learn", "matthews_corrcoef(y1, y2)", {"value": v}),
        exact_ref(
            "exact.mcc (Gorodkin 2004; numerator and denominator exact, one square "
            "root at 40 digits)",
            {"value": exact.mcc(M)},
        ),
    ]


def specific_agreement(case):
    M = case["input"]["matrix"]
    return [
        exact_ref("exact.specific_agreement", {"value_by_category": exact.specific_agreement(M)})
    ]


def mcnemar(case):
    from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar

    M = case["input"]["matrix"]
    o = case["options"]
    out = []
    res = _quiet(sm_mcnemar, np.array(M), exact=o["exact"], correction=o["correction"])
    vals = {"statistic": res.statistic, "pvalue": res.pvalue}
    if not o["exact"]:
        vals["df"] = 1
    out.append(
        ref(
            "statsmodels", f"mcnemar(table, exact={o['exact']}, correction={o['correction']})", vals
        )
    )
    e = exact.mcnemar(M, o["correction"], o["exact"])
    if not o["exact"] and e["statistic"] is not None:
        from scipy.stats import chi2

        e["pvalue"] = float(chi2.sf(float(e["statistic"]), 1))
    out.append(
        exact_ref(
            "exact.mcnemar (the statistic in fractions; the chi-square tail by "
            "scipy.stats.chi2.sf)",
            e,
        )
    )
    return out


def stuart_maxwell(case):
    from scipy.stats import chi2
    from statsmodels.stats.contingency_tables import SquareTable

    M = case["input"]["matrix"]
    out = []
    try:
        res = _quiet(SquareTable(np.array(M, float), shift_zeros=False).homogeneity)
        out.append(
            ref(
                "statsmodels",
                "SquareTable(table, shift_zeros=False).homogeneity()",
                {"statistic": res.statistic, "df": res.df, "pvalue": res.pvalue},
            )
        )
    except Exception as err:  # a singular covariance: statsmodels raises
        out.append(
            {
                "source": "statsmodels",
                "call": "SquareTable(table).homogeneity()",
                "values": {},
                "error": f"{type(err).__name__}: {err}",
            }
        )
    e = exact.stuart_maxwell(M)
    if e["statistic"] is not None:
        e["pvalue"] = float(chi2.sf(float(e["statistic"]), e["df"]))
    out.append(
        exact_ref(
            "exact.stuart_maxwell (d' S^-1 d in fractions over the classes in "
            "discordant cases; the tail by scipy.stats.chi2.sf)",
            e,
        )
    )
    return out


def kappa_sample_size(case):
    from statsmodels.stats.inter_rater import cohens_kappa

    inp, o = case["input"], case["options"]
    k, pi, h = inp["kappa"], np.array(inp["marginals"], float), inp["half_width"]
    pi = pi / pi.sum()
    level = o.get("confidence_level", 0.95)
    z = statistics.NormalDist().inv_cdf((1 + level) / 2)
    P = (1 - k) * np.outer(pi, pi) + k * np.diag(pi)  # the planning table (N = 1)
    w = o.get("weights", "identity")
    A = agreement_matrix(w, len(pi))
    if w == "identity":
        res = _quiet(cohens_kappa, P)
    else:
        res = _quiet(cohens_kappa, P, weights=1.0 - A)
    v = float(res["var_kappa"])
    out = [
        ref(
            "statsmodels",
            "ceil(z^2 * cohens_kappa(planning table of total 1).var_kappa / h^2)",
            {"n": math.ceil(z * z * v / (h * h))},
            {"abs": 0, "rel": 0},
        )
    ]
    if len(pi) == 2 and w == "identity":
        out.append(
            {
                "source": "exact",
                "call": "exact.sample_size_binary (Donner & Eliasziw 1992 closed form)",
                "values": {"n": exact.sample_size_binary(k, inp["marginals"], h, z)},
                "tolerance": {"abs": 0, "rel": 0},
            }
        )
    return out


# --------------------------------------------------------------------------- many raters
def fleiss_kappa(case):
    from statsmodels.stats.inter_rater import fleiss_kappa as sm_fleiss

    inp, o = case["input"], case["options"]
    T = table_of(inp)
    level = o.get("confidence_level", 0.95)
    N = o.get("n_population")
    out = [
        ref(
            "statsmodels",
            "fleiss_kappa(table, method='fleiss')",
            {"value": _quiet(sm_fleiss, np.array(T), method="fleiss")},
        )
    ]
    call = (
        f"raw.CAC(ratings, confidence_level={level}"
        + (f", N={N}" if N else "")
        + ", digits=15).fleiss()"
    )
    out.append(
        attempt(
            "irrCAC",
            call,
            lambda: ref(
                "irrCAC", call, _est(_quiet(_irrcac_raw(inp, "identity", level, N).fleiss))
            ),
        )
    )
    vals = {"value": exact.fleiss_kappa(T)}
    if N is None:
        vals["se_null"] = exact.fleiss_null_se(T)
    out.append(
        exact_ref(
            "exact.fleiss_kappa (Fleiss 1971), exact.fleiss_null_se (Fleiss, Nee & Landis 1979)",
            vals,
        )
    )
    return out


def category_fleiss_kappas(case):
    T = table_of(case["input"])
    out = [
        exact_ref(
            "exact.category_kappas (Fleiss 1971), exact.category_z",
            {"kappa_by_category": exact.category_kappas(T), "z_by_category": exact.category_z(T)},
        )
    ]
    import comparisons  # issue 34 (f34b): the non-null standard errors

    out.append(comparisons.category_standard_errors(case))
    return out


def _gwet_multi(case, method):
    inp, o = case["input"], case["options"]
    w = o.get("weights", "identity")
    level = o.get("confidence_level", 0.95)
    N = o.get("n_population")
    call = (
        f"raw.CAC(ratings, weights={_w_call(w)!r}, confidence_level={level}"
        + (f", N={N}" if N else "")
        + f", digits=15).{method}()"
    )
    return [
        attempt(
            "irrCAC",
            call,
            lambda: ref(
                "irrCAC", call, _est(_quiet(getattr(_irrcac_raw(inp, w, level, N), method)))
            ),
        )
    ]


def _exact_multi(case, fn):
    w = case["options"].get("weights", "identity")
    value = fn(table_of(case["input"]), w)
    vals = {"value": value}
    if value is None:  # an undefined coefficient has no standard error and no interval
        vals.update(se=None, ci_low=None, ci_high=None)
    return exact_ref(
        f"exact.{fn.__name__} (Gwet 2014, ch. 5: p_a over units with 2+ "
        "ratings, pi_k over all units)",
        vals,
    )


def fleiss_generalized(case):
    return [*_gwet_multi(case, "fleiss"), _exact_multi(case, exact.fleiss_generalized)]


def gwet_ac1_multi(case):
    return [*_gwet_multi(case, "gwet"), _exact_multi(case, exact.gwet_ac1_multi)]


def brennan_prediger_multi(case):
    return [*_gwet_multi(case, "bp"), _exact_multi(case, exact.brennan_prediger_multi)]


def conger_kappa(case):
    return _gwet_multi(case, "conger")


def krippendorff_alpha(case):
    import krippendorff

    inp, o = case["input"], case["options"]
    level = o["level"]
    R = np.array([[np.nan if v is None else v for v in row] for row in inp["ratings"]], float)
    out = []
    try:
        v = _quiet(
            krippendorff.alpha,
            reliability_data=R.T,
            level_of_measurement=level,
            value_domain=[float(c) for c in inp["categories"]],
        )
        out.append(
            ref(
                "krippendorff",
                f"alpha(reliability_data=ratings.T, "
                f"level_of_measurement={level!r}, value_domain=categories)",
                {"value": v},
            )
        )
    except Exception as err:
        out.append(
            {
                "source": "krippendorff",
                "call": "alpha(...)",
                "values": {},
                "error": f"{type(err).__name__}: {err}",
            }
        )
    w = {"nominal": "identity", "interval": "quadratic", "ratio": "ratio"}.get(level)
    if w is not None:
        call = f"raw.CAC(ratings, weights={w!r}, digits=15).krippendorff()"

        def irrcac():
            e = _quiet(_irrcac_raw(inp, w, 0.95).krippendorff)["est"]
            return ref("irrCAC", call, {"value": e["coefficient_value"], "se": e["se"]})

        out.append(attempt("irrCAC", call, irrcac))
    out.append(
        exact_ref(
            "exact.krippendorff_alpha (Krippendorff 2011)",
            {"value": exact.krippendorff_alpha(inp["ratings"], level)},
        )
    )
    return out


def light_kappa(case):
    import comparisons

    return [
        exact_ref(
            "exact.light_kappa (Light 1971: mean pairwise Cohen's kappa); se: the delta method "
            "on the pattern multinomial, se_null: the pairs' FCE null variances summed over P^2 "
            "(comparisons.light_delta)",
            {"value": exact.light_kappa(case["input"]["ratings"]), **comparisons.light_delta(case)},
        )
    ]


# --------------------------------------------------------------------------- continuous
FORMS = ("ICC1", "ICC2", "ICC3", "ICC1k", "ICC2k", "ICC3k")


def icc(case):
    import oracles_path  # noqa: F401
    import pingouin as pg

    rows = case["input"]["ratings"]
    level = case["options"].get("confidence_level", 0.95)
    long = pd.DataFrame(
        [(i, j, v) for i, r in enumerate(rows) for j, v in enumerate(r)],
        columns=["unit", "rater", "score"],
    )
    res = _quiet(pg.intraclass_corr, long, targets="unit", raters="rater", ratings="score")
    vals, cis = {}, {}
    for form, (_, row) in zip(FORMS, res.iterrows(), strict=True):
        vals[f"{form}.value"] = row["ICC"]
        vals[f"{form}.F"] = row["F"]
        vals[f"{form}.df1"] = row["df1"]
        vals[f"{form}.df2"] = row["df2"]
        vals[f"{form}.pvalue"] = row["pval"]
        cis[f"{form}.ci_low"], cis[f"{form}.ci_high"] = row["CI95"]
    call = "intraclass_corr(long, targets='unit', raters='rater', ratings='score')"
    out = [ref("pingouin", call, vals)]
    if level == 0.95:  # its interval is 95% only, printed to 2 decimals
        out.append(
            ref(
                "pingouin",
                call + "['CI95'] (rounded to 2 decimals)",
                cis,
                {"abs": 0.005 + 1e-12, "rel": 0},
            )
        )
    e = exact.icc_exact(rows)
    ms = e.pop("_ms")
    F1, F3 = e.pop("ICC1.F"), e.pop("ICC3.F")
    for f in FORMS:
        e[f"{f}.F"] = F1 if f.startswith("ICC1") else F3
    out.append(exact_ref("exact.icc_exact (Shrout & Fleiss 1979: mean squares in fractions)", e))
    out.append(formula_icc(ms, level))
    return out


def formula_icc(ms, level):
    """McGraw & Wong (1996), Table 7 (F-based intervals; case 2A with Satterthwaite's v)
    and Table 8 (tests at rho_0 = 0), evaluated with scipy.stats.f from the exact mean
    squares.  ICC(A,k)'s interval uses the v of ICC(A,1) (the same pivot; see verdicts)."""
    from scipy.stats import f

    BMS, WMS, JMS, EMS, n, k = (float(x) for x in ms)
    n, k = int(n), int(k)
    q = 1 - (1 - level) / 2
    vals = {}
    dfr, dfw, dfe = n - 1, n * (k - 1), (n - 1) * (k - 1)

    def fstat(a, b):  # an F statistic: infinite when only the denominator is 0
        return a / b if b > 0 else (math.inf if a > 0 else math.nan)

    F1, F3 = fstat(BMS, WMS), fstat(BMS, EMS)
    for form, Fv, d2 in (
        ("ICC1", F1, dfw),
        ("ICC1k", F1, dfw),
        ("ICC2", F3, dfe),
        ("ICC2k", F3, dfe),
        ("ICC3", F3, dfe),
        ("ICC3k", F3, dfe),
    ):
        vals[f"{form}.df1"], vals[f"{form}.df2"] = dfr, d2
        vals[f"{form}.pvalue"] = (
            None if math.isnan(Fv) else float(f.sf(Fv, dfr, d2)) if math.isfinite(Fv) else 0.0
        )
    for form, Fv, d2 in (("ICC1", F1, dfw), ("ICC3", F3, dfe)):
        if math.isnan(Fv):  # 0/0: no interval
            continue
        if math.isinf(Fv):  # a zero residual: both bounds are 1
            vals[f"{form}.ci_low"] = vals[f"{form}.ci_high"] = 1.0
            vals[f"{form}k.ci_low"] = vals[f"{form}k.ci_high"] = 1.0
            continue
        FL, FU = Fv / f.ppf(q, dfr, d2), Fv * f.ppf(q, d2, dfr)
        vals[f"{form}.ci_low"], vals[f"{form}.ci_high"] = (
            (FL - 1) / (FL + k - 1),
            (FU - 1) / (FU + k - 1),
        )
        vals[f"{form}k.ci_low"], vals[f"{form}k.ci_high"] = 1 - 1 / FL, 1 - 1 / FU
    if BMS > 0 and (JMS > 0 or EMS > 0):  # with EMS = 0 the bounds stay defined (v = k - 1)
        rho = (BMS - EMS) / (BMS + (k - 1) * EMS + k * (JMS - EMS) / n)
        a = k * rho / (n * (1 - rho))
        b = 1 + k * rho * (n - 1) / (n * (1 - rho))
        v = (a * JMS + b * EMS) ** 2 / ((a * JMS) ** 2 / (k - 1) + (b * EMS) ** 2 / dfe)
        FL, FU = f.ppf(q, dfr, v), f.ppf(q, v, dfr)
        lo = n * (BMS - FL * EMS) / (FL * (k * JMS + (k * n - k - n) * EMS) + n * BMS)
        hi = n * (FU * BMS - EMS) / (k * JMS + (k * n - k - n) * EMS + n * FU * BMS)
        vals["ICC2.ci_low"], vals["ICC2.ci_high"] = lo, hi
        lo_k = n * (BMS - FL * EMS) / (FL * (JMS - EMS) + n * BMS)
        hi_k = n * (FU * BMS - EMS) / (JMS - EMS + n * FU * BMS)
        vals["ICC2k.ci_low"], vals["ICC2k.ci_high"] = lo_k, hi_k
    return ref(
        "formula",
        "McGraw & Wong (1996) Tables 7-8 with scipy.stats.f (formula_icc in oracles_python.py)",
        vals,
    )


def lins_ccc(case):
    x, y = case["input"]["x"], case["input"]["y"]
    return [exact_ref("exact.lins_ccc (Lin 1989; moments in fractions)", exact.lins_ccc(x, y))]


def references(case):
    import comparisons  # issue 34 (f34b): comparisons of kappas, named weights
    import measurement  # issue 34's coefficients (f34a)

    if case["coefficient"] in measurement.ORACLES:
        return measurement.references(case)
    if comparisons.handles(case):
        return comparisons.references(case)
    return globals()[case["coefficient"]](case)
