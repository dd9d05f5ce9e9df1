"""kappalib against the public conformance table (conformance/cases/*.json).

Every case of the table is a test: kappalib's values for the case's quantities are compared
with every reference that the table does not dispute, within the looser of that
reference's tolerance and the case's own (conformance/README.md).  Where the table marks a
reference's value *wrong* (with the computation that shows it), kappalib must not reproduce
it.  Values of a convention or numerical verdict, and quantities kappalib does not compute
yet (``se`` of Krippendorff's alpha, ``z_null`` of Light's kappa, ...), are not compared;
they are counted in the report.

The mapping from a case to a kappalib call is one small function per coefficient (the
``KAPPALIB`` table below): when a keyword is renamed, only that function changes.  The
committed values are all this file reads; it needs neither R nor the oracle packages.

``python tests/test_conformance.py`` prints the largest difference per coefficient and
source (``make conformance`` runs it after the drift check).
"""

from __future__ import annotations

import functools
import json
import math
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np
import pytest

import kappalib as kl

ROOT = Path(__file__).resolve().parents[1]
TABLE = ROOT / "conformance" / "cases"


def _load():
    files = {}
    for f in sorted(TABLE.glob("*.json")):
        body = json.loads(f.read_text())
        files[body["coefficient"]] = body
    return files


FILES = _load()
CASES = [c for body in FILES.values() for c in body["cases"]]
VERDICTS = {k: v for body in FILES.values() for k, v in body["verdicts"].items()}


# --------------------------------------------------------------------------- the inputs
def weighting(case):
    """The table's weights (agreement weights) as kappalib's ``weighting``."""
    w = case["options"].get("weights", "identity")
    if w == "identity":
        return None
    if isinstance(w, str):
        return w
    return 1.0 - np.array(w, dtype=float)  # kappalib takes disagreement weights


def ratings(case):
    """units x raters, None -> NaN."""
    return np.array(
        [[np.nan if v is None else v for v in row] for row in case["input"]["ratings"]], dtype=float
    )


def count_table(case):
    """The units x categories count table of a multi-rater case."""
    inp = case["input"]
    if "table" in inp:
        return np.array(inp["table"])
    table = kl.rating_table(ratings(case), layout="units x raters", labels=inp["categories"])
    return table


def unit_table(C):
    """Two raters' K x K table as the units x categories table of Gwet's variance (each case a
    unit with one rating from each rater)."""
    C = np.asarray(C)
    K = C.shape[0]
    rows = []
    for i in range(K):
        for j in range(K):
            row = np.zeros(K, dtype=int)
            row[i] += 1
            row[j] += 1
            rows += [row] * int(C[i, j])
    return np.array(rows)


def ratio(a, b):
    return None if a is None or b is None or b == 0 else a / b


# --------------------------------------------------------------------------- the mapping
# One function per coefficient: case -> {quantity: value}.  Only these call kappalib.
def cohen_kappa(case):
    C, w = case["input"]["matrix"], weighting(case)
    level = case["options"].get("confidence_level", 0.95)
    value = kl.kappa(C, weighting=w)
    se0 = kl.kappa_standard_error(C, weighting=w, null=True)
    ci = kl.kappa_confint(C, weighting=w, confidence_level=level)
    return {
        "value": value,
        "se": kl.kappa_standard_error(C, weighting=w),
        "se_null": se0,
        "ci_low": ci.low,
        "ci_high": ci.high,
        "z_null": ratio(value, se0),
    }


def scotts_pi(case):
    C = case["input"]["matrix"]
    return {
        "value": kl.scotts_pi(C),
        "se": kl.ratings_standard_error(unit_table(C), coefficient="fleiss"),
    }


def pabak(case):
    return {"value": kl.pabak(case["input"]["matrix"])}


def kappa_max(case):
    return {"value": kl.kappa_max(case["input"]["matrix"])}


def prevalence_bias_index(case):
    C = case["input"]["matrix"]
    return {"prevalence_index": kl.prevalence_index(C), "bias_index": kl.bias_index(C)}


def _two_rater_gwet(case, point, coefficient):
    C, w = case["input"]["matrix"], weighting(case)
    level = case["options"].get("confidence_level", 0.95)
    if coefficient == "ac1" and w is not None:
        coefficient = "ac2"
    units = unit_table(C)
    ci = kl.ratings_confint(units, coefficient=coefficient, weighting=w, confidence_level=level)
    return {
        "value": point(C, weighting=w),
        "se": kl.ratings_standard_error(units, coefficient=coefficient, weighting=w),
        "ci_low": ci.low,
        "ci_high": ci.high,
    }


def gwet_ac1(case):
    return _two_rater_gwet(case, kl.gwet_ac1, "ac1")


def brennan_prediger(case):
    return _two_rater_gwet(case, kl.brennan_prediger, "bp")


def mcc(case):
    return {"value": kl.mcc(case["input"]["matrix"])}


def specific_agreement(case):
    values = kl.specific_agreement(case["input"]["matrix"]).values
    return {"value_by_category": [None if math.isnan(v) else float(v) for v in values]}


def mcnemar(case):
    o = case["options"]
    t = kl.mcnemar_test(case["input"]["matrix"], correction=o["correction"], exact=o["exact"])
    return {"statistic": t.statistic, "df": t.df, "pvalue": t.pvalue}


def stuart_maxwell(case):
    t = kl.stuart_maxwell_test(case["input"]["matrix"])
    return {"statistic": t.statistic, "df": t.df, "pvalue": t.pvalue}


def kappa_sample_size(case):
    inp, o = case["input"], case["options"]
    n = kl.kappa_sample_size(
        inp["kappa"],
        inp["marginals"],
        half_width=inp["half_width"],
        confidence_level=o.get("confidence_level", 0.95),
        weighting=weighting(case),
    )
    return {"n": n}


def _many_raters(case, value, coefficient, *, weighted=True):
    o = case["options"]
    table = count_table(case)
    kw = {"weighting": weighting(case)} if weighted else {}
    if coefficient == "ac1" and kw.get("weighting") is not None:
        coefficient = "ac2"
    N = o.get("n_population")
    ci = kl.ratings_confint(
        table,
        coefficient=coefficient,
        n_population=N,
        confidence_level=o.get("confidence_level", 0.95),
        **kw,
    )
    return {
        "value": value(table, **kw),
        "se": kl.ratings_standard_error(table, coefficient=coefficient, n_population=N, **kw),
        "ci_low": ci.low,
        "ci_high": ci.high,
    }


def fleiss_kappa(case):
    out = _many_raters(case, kl.fleiss_kappa, "fleiss", weighted=False)
    if case["options"].get("n_population") is None:
        se0 = kl.ratings_standard_error(count_table(case), coefficient="fleiss", null=True)
        out["se_null"] = se0
        out["z_null"] = ratio(out["value"], se0)
    return out


def category_fleiss_kappas(case):
    res = kl.category_fleiss_kappas(count_table(case))

    def values(xs):
        return [None if math.isnan(v) else float(v) for v in xs]

    return {
        "kappa_by_category": values(res.kappa),
        "z_by_category": values(res.z),
        "se_by_category": values(res.standard_error),
    }


def fleiss_generalized(case):
    return _many_raters(case, kl.fleiss_kappa_generalized, "fleiss_generalized")


def gwet_ac1_multi(case):
    return _many_raters(case, kl.gwet_ac1_multi, "ac1")


def brennan_prediger_multi(case):
    return _many_raters(case, kl.brennan_prediger_multi, "bp")


def conger_kappa(case):
    o, R, w = case["options"], ratings(case), weighting(case)
    kw = {"layout": "units x raters", "labels": case["input"]["categories"], "weighting": w}
    ci = kl.ratings_confint(
        R, coefficient="conger", confidence_level=o.get("confidence_level", 0.95), **kw
    )
    return {
        "value": kl.conger_kappa(R, **kw),
        "se": kl.ratings_standard_error(R, coefficient="conger", **kw),
        "ci_low": ci.low,
        "ci_high": ci.high,
    }


def krippendorff_alpha(case):
    o = case["options"]
    named = o.get("weights") not in (None, "identity")
    kw = {"weighting": o["weights"]} if named else {"level_of_measurement": o["level"]}
    kw |= {"layout": "units x raters", "labels": case["input"]["categories"]}
    out = {"value": kl.krippendorff_alpha(ratings(case), **kw)}
    if kw.get("level_of_measurement") != "ordinal" and out["value"] is not None:
        out["se"] = kl.ratings_standard_error(ratings(case), coefficient="alpha", **kw)
    return out


def light_kappa(case):
    t = kl.light_kappa_test(ratings(case), layout="units x raters")
    return {
        "value": t.estimate,
        "se": t.standard_error,
        "se_null": t.null_standard_error,
        "z_null": t.z,
        "pvalue": t.pvalue,
    }


def icc(case):
    res = kl.icc(
        np.array(case["input"]["ratings"], dtype=float),
        layout="units x raters",
        confidence_level=case["options"].get("confidence_level", 0.95),
    )
    out = {}
    for form in ("ICC1", "ICC2", "ICC3", "ICC1k", "ICC2k", "ICC3k"):
        f = getattr(res, form)
        out[f"{form}.value"] = f.estimate
        for q in ("F", "df1", "df2", "pvalue"):
            out[f"{form}.{q}"] = getattr(f, q)
        out[f"{form}.ci_low"], out[f"{form}.ci_high"] = f.confidence_interval
    return out


def lins_ccc(case):
    inp = case["input"]
    r = kl.lins_ccc(inp["x"], inp["y"], confidence_level=case["options"]["confidence_level"])
    out = {"value": r.estimate, "ci_low": r.confidence_interval.low}
    out["ci_high"] = r.confidence_interval.high
    for q in ("pearson", "accuracy", "location_shift", "scale_shift"):
        out[q] = getattr(r, q)
    return out


# issue 34 (f34a): limits of agreement, overall CCC, Bangdiwala's B, benchmarking
def _nan(values):
    return [np.nan if v is None else v for v in values]


def bland_altman(case):
    inp, o = case["input"], case["options"]
    r = kl.bland_altman(
        _nan(inp["x"]),
        _nan(inp["y"]),
        units=inp.get("units"),
        true_value=o.get("true_value"),
        agreement_level=o["agreement_level"],
        confidence_level=o["confidence_level"],
        method=o.get("method"),
    )
    out = {"sd": r.standard_deviation}
    for name, part in (("bias", r.bias), ("lower", r.lower_limit), ("upper", r.upper_limit)):
        out[name] = part.estimate
        out[f"{name}_ci_low"], out[f"{name}_ci_high"] = part.confidence_interval
    pb = r.proportional_bias
    out["slope"], out["intercept"] = pb.slope.estimate, pb.intercept.estimate
    out["slope_ci_low"], out["slope_ci_high"] = pb.slope.confidence_interval
    out["slope_pvalue"] = pb.pvalue
    for k, v in enumerate(r.within_unit_variance, start=1):
        out[f"within_var_{k}"] = v
    return out


def overall_ccc(case):
    r = kl.overall_ccc(
        case["input"]["ratings"],
        layout="units x raters",
        confidence_level=case["options"]["confidence_level"],
    )
    low, high = r.confidence_interval
    return {
        "value": r.estimate,
        "se": r.standard_error,
        "ci_low": low,
        "ci_high": high,
        "precision": r.precision,
        "accuracy": r.accuracy,
    }


def bangdiwala_b(case):
    C, w = case["input"]["matrix"], weighting(case)
    ci = kl.bangdiwala_confint(C, weighting=w, confidence_level=case["options"]["confidence_level"])
    return {"value": kl.bangdiwala_b(C, weighting=w), "ci_low": ci.low, "ci_high": ci.high}


def benchmark(case):
    inp, o = case["input"], case["options"]
    r = kl.benchmark(
        inp["estimate"],
        inp["standard_error"],
        scale=o["scale"],
        confidence_level=o["confidence_level"],
    )
    return {
        "probabilities": list(r.probabilities),
        "cumulative": list(r.cumulative_probabilities),
        "band": r.labels.index(r.band),
    }


# --- issue 34 (f34b): kappas compared across units ------------------------------------------
def _pairs(case):
    R = ratings(case)
    return R[:, 0], R[:, 1]


def kappa_difference(case):
    o = case["options"]
    d = kl.kappa_difference(
        ratings(case),
        [tuple(p) for p in o["pairs"]],
        layout="units x raters",
        labels=case["input"]["categories"],
        weighting=weighting(case),
        confidence_level=o.get("confidence_level", 0.95),
    )
    (k1, k2) = d.coefficients
    return {
        "value": d.estimate,
        "se": d.standard_error,
        "ci_low": d.confidence_interval.low,
        "ci_high": d.confidence_interval.high,
        "z": d.z,
        "pvalue": d.pvalue,
        "kappa_1": k1.estimate,
        "kappa_2": k2.estimate,
        "se_1": k1.standard_error,
        "se_2": k2.standard_error,
    }


def clustered_kappa(case):
    o = case["options"]
    y1, y2 = _pairs(case)
    r = kl.clustered_kappa(
        y1,
        y2,
        case["input"]["clusters"],
        labels=case["input"]["categories"],
        weighting=weighting(case),
        confidence_level=o.get("confidence_level", 0.95),
    )
    return {
        "value": r.estimate,
        "se": r.standard_error,
        "ci_low": r.confidence_interval.low,
        "ci_high": r.confidence_interval.high,
        "design_effect": r.design_effect,
    }


def subgroup_kappas(case):
    o = case["options"]
    y1, y2 = _pairs(case)
    s = kl.subgroup_kappas(
        y1,
        y2,
        case["input"]["groups"],
        labels=case["input"]["categories"],
        weighting=weighting(case),
        confidence_level=o.get("confidence_level", 0.95),
    )
    return {
        "kappa_by_group": [e.estimate for e in s.coefficients],
        "se_by_group": [e.standard_error for e in s.coefficients],
        "value": s.estimate,
        "se": s.standard_error,
        "ci_low": s.confidence_interval.low,
        "ci_high": s.confidence_interval.high,
        "statistic": s.statistic,
        "df": s.df,
        "pvalue": s.pvalue,
    }


KAPPALIB = {
    f.__name__: f
    for f in (
        cohen_kappa,
        scotts_pi,
        pabak,
        kappa_max,
        prevalence_bias_index,
        gwet_ac1,
        brennan_prediger,
        mcc,
        specific_agreement,
        mcnemar,
        stuart_maxwell,
        kappa_sample_size,
        fleiss_kappa,
        category_fleiss_kappas,
        fleiss_generalized,
        gwet_ac1_multi,
        brennan_prediger_multi,
        conger_kappa,
        krippendorff_alpha,
        light_kappa,
        icc,
        lins_ccc,
        kappa_difference,
        clustered_kappa,
        subgroup_kappas,
        bland_altman,
        overall_ccc,
        bangdiwala_b,
        benchmark,
    )
}


# --------------------------------------------------------------------------- comparing
def plain(v):
    """kappalib's value in the table's terms: None for undefined (None or NaN), "inf"."""
    if v is None:
        return None
    if isinstance(v, (list, tuple, np.ndarray)):
        return [plain(x) for x in v]
    v = float(v)
    if math.isnan(v):
        return None
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return v


def tolerance(case, ref):
    tol = dict(ref["tolerance"])
    if "tolerance" in case:
        tol = {k: max(tol[k], case["tolerance"][k]) for k in ("abs", "rel")}
    return tol


def close(a, b, tol):
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, list) or isinstance(b, list):
        return (
            isinstance(a, list)
            and isinstance(b, list)
            and len(a) == len(b)
            and all(close(x, y, tol) for x, y in zip(a, b, strict=True))
        )
    if isinstance(a, str) or isinstance(b, str):
        return a == b
    return abs(a - b) <= tol["abs"] + tol["rel"] * abs(b)


def difference(a, b):
    if a is None or b is None:
        return 0.0 if a is None and b is None else math.inf
    if isinstance(a, list):
        return max((difference(x, y) for x, y in zip(a, b, strict=True)), default=0.0)
    if isinstance(a, str) or isinstance(b, str):
        return 0.0 if a == b else math.inf
    return abs(a - b)


REFUSED = "refused"  # kappalib raised ValueError/TypeError (its message is kept)


@functools.cache
def computed(case_id):
    case = BY_ID[case_id]
    try:
        return {k: plain(v) for k, v in KAPPALIB[case["coefficient"]](case).items()}
    except (ValueError, TypeError) as err:
        return {REFUSED: f"{type(err).__name__}: {err}"}


BY_ID = {c["id"]: c for c in CASES}


def undisputed(case):
    """Every (reference, quantity, value) that the table does not dispute."""
    for ref in case["references"]:
        for q, v in ref["values"].items():
            if q not in ref.get("disputed", {}):
                yield ref, q, v


def comparisons(case):
    """(reference, quantity, kappalib's value, the reference's, status) for every quantity
    that kappalib computes; status is None (compared), or the verdict's status."""
    got = computed(case["id"])
    if REFUSED in got:
        return
    for ref in case["references"]:
        for q, v in ref["values"].items():
            if q not in got:
                continue
            d = ref.get("disputed", {}).get(q)
            yield ref, q, got[q], v, (VERDICTS[d["verdict"]]["status"] if d else None)


# --------------------------------------------------------------------------- the tests
def test_the_table_is_complete():
    assert len(CASES) >= 300
    assert set(FILES) == set(KAPPALIB), "a coefficient of the table has no kappalib mapping"
    for c in CASES:
        assert c["references"], c["id"]
        json.dumps(c, allow_nan=False)  # plain JSON (no NaN), for the page's JavaScript twin


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_kappalib_conforms(case):
    got = computed(case["id"])
    if REFUSED in got:
        # refusing an input is right only where the table's value is undefined (README)
        defined = [(r["source"], q, v) for r, q, v in undisputed(case) if v is not None]
        assert not defined, f"{case['id']}: kappalib refused ({got[REFUSED]}), but {defined}"
        return
    bad = []
    for ref, q, ours, theirs, status in comparisons(case):
        tol = tolerance(case, ref)
        if status is None and not close(ours, theirs, tol):
            bad.append(f"{q}: kappalib {ours!r}, {ref['source']} {theirs!r} (tolerance {tol})")
        elif status == "wrong" and close(ours, theirs, tol):
            bad.append(
                f"{q}: kappalib reproduces {ref['source']}'s value {theirs!r}, which the "
                f"table marks wrong ({ref['disputed'][q]['verdict']})"
            )
    assert not bad, f"{case['id']}:\n  " + "\n  ".join(bad)


def test_each_wrong_value_is_reproduced_by_its_diagnosis():
    """A value the table marks wrong is explained by a computation: the reference's mistake,
    redone (conformance/scripts/diagnoses.py), gives that value."""
    pytest.importorskip("scipy")  # the F quantiles of irr's ICC intervals
    sys.path.append(str(ROOT / "conformance" / "scripts"))
    import verdicts

    status = {k: v["status"] for k, v in VERDICTS.items()}
    problems = [p for case in CASES for p in verdicts.check_diagnoses(case, status)]
    assert not problems, "\n".join(problems)
    assert (
        sum(
            1
            for c in CASES
            for r in c["references"]
            for q, d in r.get("disputed", {}).items()
            if status[d["verdict"]] == "wrong"
        )
        > 100
    )


def report():
    """{coefficient: {source: (cases, compared quantities, largest difference)}}, and the
    quantities kappalib does not compute."""
    rows = defaultdict(lambda: defaultdict(lambda: [set(), 0, 0.0]))
    missing = defaultdict(set)
    for case in CASES:
        got = computed(case["id"])
        for ref in case["references"]:
            for q in ref["values"]:
                if q not in got and REFUSED not in got:
                    missing[case["coefficient"]].add(f"{q} ({ref['source']})")
        for ref, _, ours, theirs, status in comparisons(case):
            if status is not None:
                continue
            row = rows[case["coefficient"]][ref["source"]]
            row[0].add(case["id"])
            row[1] += 1
            row[2] = max(row[2], difference(ours, theirs))
    return rows, missing


def test_every_coefficient_is_compared_with_an_oracle():
    rows, _ = report()
    assert set(rows) == set(FILES)


def main():
    rows, missing = report()
    print(f"{'coefficient':24s} {'oracle':14s} {'cases':>5s} {'values':>6s}  largest difference")
    for coef in sorted(rows):
        for source, (ids, n, largest) in sorted(rows[coef].items()):
            print(f"{coef:24s} {source:14s} {len(ids):5d} {n:6d}  {largest:.2e}")
    for coef in sorted(missing):
        print(f"not in kappalib yet: {coef}: " + ", ".join(sorted(missing[coef])))


if __name__ == "__main__":
    sys.exit(main())
