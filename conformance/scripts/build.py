"""Build the conformance table, or show how a fresh run drifts from the committed one.

    python conformance/scripts/build.py            # re-run every oracle, show the drift
    python conformance/scripts/build.py --write    # ... and write conformance/cases/*.json

Steps: the inputs (inputs.py) -> the Python references (oracles_python.py: scikit-learn,
statsmodels, irrCAC, pingouin, krippendorff, exact fractions) -> the R references
(oracles.R: irr, psych, epiR, vcd, R's stats, DescTools' StuartMaxwellTest), where Rscript
and the packages are installed -> the published values (published.py) -> the verdicts where
references disagree (verdicts.py) -> one JSON file per coefficient.

Where R (or DescTools' source, ``--desctools``) is missing, the R references of the
committed table are carried over unchanged and the run says so; the drift check then
covers the Python side only.  Exit status: 0 when nothing drifted and every disagreement is
explained, 1 otherwise.
"""

from __future__ import annotations

import argparse
import importlib.metadata as md
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import traceback
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
TABLE = HERE.parent / "cases"
SOURCES_FILE = HERE.parent / "sources.json"
sys.path.insert(0, str(HERE))

import exact  # noqa: E402
import inputs  # noqa: E402
import measurement  # noqa: E402
import oracles_path  # noqa: E402, F401
import oracles_python  # noqa: E402
import published  # noqa: E402
import verdicts  # noqa: E402

R_SOURCES = ("irr", "psych", "epiR", "vcd", "R", "DescTools", "survey")
R_PACKAGES = ("irr", "psych", "epiR", "vcd", "jsonlite", "survey")

# What each file says about its coefficient, and the quantities a reference may give.
COEFFICIENTS = {
    "cohen_kappa": (
        "Cohen's kappa (1960), weighted (1968) with agreement weights; standard "
        "errors of Fleiss, Cohen & Everitt (1969), general (se) and under "
        "kappa = 0 (se_null); the Wald interval kappa +/- z se (ci_low, ci_high); "
        "z_null = kappa / se_null"
    ),
    "scotts_pi": "Scott's pi (1955); se: Gwet's linearization (two raters as a units table)",
    "pabak": "Prevalence- and bias-adjusted kappa: (K p_o - 1)/(K - 1) (2 p_o - 1 for 2 x 2)",
    "kappa_max": "The largest kappa the two margins allow (Cohen 1960)",
    "prevalence_bias_index": "Byrt, Bishop & Carlin (1993): PI = (a - d)/N, BI = (b - c)/N",
    "gwet_ac1": "Gwet's AC1 (unweighted) and AC2 (weighted), two raters; se and the "
    "t-interval of Gwet (2014) on the two raters as a units table",
    "brennan_prediger": "Brennan & Prediger (1981), weighted as Gwet (2014); se and t-interval "
    "as gwet_ac1",
    "mcc": "Matthews' correlation coefficient, multiclass (Gorodkin 2004)",
    "specific_agreement": "Specific agreement per class: 2 n_kk / (n_k. + n_.k)",
    "mcnemar": "McNemar's test (1947): chi-square with or without Edwards' correction, or "
    "the exact binomial test",
    "stuart_maxwell": "The Stuart-Maxwell test of marginal homogeneity (Stuart 1955, Maxwell 1970)",
    "kappa_sample_size": "Cases needed for a Wald interval of half-width h: ceil(z^2 v / h^2) "
    "with v the FCE variance of the planning table",
    "fleiss_kappa": "Fleiss' kappa (1971), equal raters per unit; se and t-interval of Gwet "
    "(2014); se_null of Fleiss, Nee & Landis (1979); z_null = kappa / se_null",
    "category_fleiss_kappas": "Fleiss' (1971) per-category kappas and their z under kappa = 0; "
    "se_by_category: Gwet's linearization of Fleiss' kappa on the table collapsed to k / not k "
    "(irrCAC's fleiss() on the dichotomized ratings)",
    "fleiss_generalized": "Gwet's generalized Fleiss kappa (missing ratings, weights), se and "
    "t-interval (Gwet 2014)",
    "gwet_ac1_multi": "Gwet's AC1/AC2 for many raters, se and t-interval (Gwet 2014)",
    "brennan_prediger_multi": "Brennan-Prediger for many raters, se and t-interval (Gwet 2014)",
    "conger_kappa": "Conger's kappa (1980), weighted as Gwet (2014), se and t-interval",
    "krippendorff_alpha": "Krippendorff's alpha (2011) at four levels, or with one of Gwet's "
    "named weights (options.weights); se: Gwet's (2014) linearization, irrCAC's",
    "light_kappa": "Light's kappa (1971): the mean of the pairwise Cohen's kappas; se: the "
    "delta method (the pairs' covariances included); se_null: the pairs' FCE null variances "
    "summed over P^2 (pairwise kappas are uncorrelated under independent raters); "
    "z_null = value / se_null and its pvalue",
    "icc": "The six intraclass correlations (Shrout & Fleiss 1979; McGraw & Wong 1996): "
    "<form>.value, .F, .df1, .df2, .pvalue (the test of rho = 0), .ci_low, .ci_high",
    "lins_ccc": "Lin's concordance correlation (1989), its z-transform interval (Lin 1989, "
    "2000), Pearson's r, the bias correction C_b (accuracy), u and v",
    # issue 34 (f34b)
    "kappa_difference": "Two Cohen kappas of the same units (options.pairs: rater positions, "
    "0-based) and their difference kappa_2 - kappa_1 (value): the delta method's se (Vanbelle & "
    "Albert 2008; Vanbelle 2017), the Wald interval cut to [-2, 2], z = value / se and its "
    "two-sided pvalue; kappa_1, kappa_2, se_1, se_2 of each pair",
    "clustered_kappa": "Cohen's kappa of cases in clusters (input.clusters): the cluster-robust "
    "se (Obuchowski 1998's ratio-estimator variance through the delta method; Yang & Zhou "
    "2014), its Wald interval, and the design effect (variance ratio to Fleiss, Cohen & "
    "Everitt's)",
    "subgroup_kappas": "Cohen's kappa per subgroup (input.groups, sorted): kappa_by_group, "
    "se_by_group (FCE 1969); Fleiss' (1981) homogeneity chi-square (statistic, df, pvalue) and "
    "the inverse-variance common kappa (value, se, ci_low, ci_high)",
}

COEFFICIENTS.update(measurement.DESCRIPTIONS)

PUBLICATIONS = {
    "seed-001": "The course's source document 001 (a short explainer of Cohen's kappa), "
    "the kappa explainer of the book's Sources page: its 2 x 2 worked example",
    "seed-003": "The course's source document 003 (the API reference of a metrics "
    "library's CohenKappa.Score): the worked values of its example",
    "fce1969": "Fleiss, J. L., Cohen, J. & Everitt, B. S. (1969). Large sample standard "
    "errors of kappa and weighted kappa. Psychological Bulletin 72(5), 323-327: "
    "the worked example (its Table 1 of proportions x 200 cases)",
    "fleiss1971": "Fleiss, J. L. (1971). Measuring nominal scale agreement among many raters. "
    "Psychological Bulletin 76(5), 378-382, Table 1 and the kappa computed "
    "from it",
    "krippendorff2011": "Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability. "
    "Annenberg School for Communication, University of Pennsylvania: the "
    "example with missing data (4 observers, 12 units)",
    "krippendorff-docs": "The krippendorff package 0.9.0 (Castro), its documented example "
    "on Krippendorff's (2011) data",
    "shroutfleiss1979": "Shrout, P. E. & Fleiss, J. L. (1979). Intraclass correlations: uses "
    "in assessing rater reliability. Psychological Bulletin 86(2), "
    "420-428, Table 2 (data) and Table 4 (the six ICCs)",
    "gwet2014-irrcac": "Gwet, K. L. (2014). Handbook of Inter-Rater Reliability, 4th ed., "
    "Advanced Analytics, as irrCAC 0.4.4 documents it "
    "(datasets.table_cont3x3abstractors)",
}

PUBLICATIONS.update(measurement.PUBLICATIONS)

# What the table knows about one library's results on a case (kept beside the references;
# the table stays the same for every library): kappalib's open disagreements.
LIBRARY_NOTES = {
    "icc/perfect-consistency": {
        "kappalib 0.1.0": "kappalib 0.1.0's icc returned F = 6.0e31 where the residual mean "
        "square is exactly 0 and F is infinite: its centred sums left a rounding residue of "
        "about 1e-32 in EMS. Fixed since: a residual within the rounding of the centred "
        "table is 0 (F infinite, p = 0)."
    },
    "lins_ccc/constant-rater": {
        "kappalib 0.1.0": "kappalib 0.1.0's lins_ccc gave scale_shift None for a constant "
        "first rater, where v = s_x / s_y = 0. Fixed since."
    },
}


def _version(dist):
    try:
        return md.version(dist)
    except md.PackageNotFoundError:
        import oracles_path as op

        for p in Path(op.ORACLES).glob(f"{dist}-*.dist-info"):
            return p.name[len(dist) + 1 : -len(".dist-info")]
        return None


def python_sources():
    s = {}
    script = "conformance/scripts/oracles_python.py"
    for key, dist, lang in (
        ("scikit-learn", "scikit-learn", "Python"),
        ("statsmodels", "statsmodels", "Python"),
        ("irrCAC", "irrCAC", "Python"),
        ("pingouin", "pingouin", "Python"),
        ("krippendorff", "krippendorff", "Python"),
    ):
        s[key] = {
            "kind": "package",
            "package": dist,
            "version": _version(dist),
            "language": lang,
            "script": script,
        }
    s["irrCAC"]["note"] = "called with digits=15 (its default rounds every result to 5 decimals)"
    s["pingouin"]["note"] = "its intervals are 95% only, printed to 2 decimals"
    s["exact"] = {
        "kind": "exact arithmetic",
        "script": "conformance/scripts/exact.py",
        "note": "each closed form in fractions.Fraction; square roots at 40 digits "
        "(decimal); chi-square tails by scipy.stats.chi2.sf",
    }
    s["formula"] = {
        "kind": "published formula",
        "script": "conformance/scripts/oracles_python.py (formula_icc)",
        "note": "McGraw & Wong (1996), Tables "
        "7-8, with the F quantiles of scipy.stats.f " + _version("scipy"),
    }
    s["scipy"] = {
        "kind": "package",
        "package": "scipy",
        "version": _version("scipy"),
        "language": "Python",
        "script": "conformance/scripts/measurement.py",
        "note": "scipy.stats' t, noncentral t, chi-square, linregress and truncnorm, with the "
        "formulas each reference's call names",
    }
    s["finite-differences"] = {
        "kind": "published formula",
        "script": "conformance/scripts/measurement.py (overall_ccc)",
        "note": "the delta method of the overall CCC (normal-theory covariances of the sample "
        "moments, Fisher's z, n - 2 as Lin 1989) with its gradient by central finite "
        "differences of an independent evaluation of the coefficient",
    }
    for key, text in PUBLICATIONS.items():
        s[key] = {
            "kind": "publication",
            "citation": text,
            "script": "conformance/scripts/published.py",
        }
    return s


def desctools_version(path):
    """The Version: line of the DESCRIPTION beside the source tree's R/Tests.r."""
    desc = Path(path).resolve().parent.parent / "DESCRIPTION"
    if desc.exists():
        for line in desc.read_text().splitlines():
            if line.startswith("Version:"):
                return line.split(":", 1)[1].strip()
    return "unknown (no DESCRIPTION beside R/)"


def r_available():
    if shutil.which("Rscript") is None:
        return False, "Rscript is not installed"
    probe = (
        "for (p in c(" + ", ".join(f'"{p}"' for p in R_PACKAGES) + ")) "
        "if (!requireNamespace(p, quietly = TRUE)) cat(p, '')"
    )
    res = subprocess.run(
        ["Rscript", "-e", probe], capture_output=True, text=True, env={**os.environ, "TZ": "UTC"}
    )
    missing = res.stdout.split()
    if missing:
        return False, "R packages missing: " + ", ".join(missing)
    return True, ""


def run_r(cases, desctools):
    with tempfile.TemporaryDirectory() as tmp:
        src, dst = Path(tmp) / "cases.json", Path(tmp) / "r.json"
        src.write_text(json.dumps(cases))
        cmd = ["Rscript", str(HERE / "oracles.R"), str(src), str(dst)]
        if desctools:
            cmd.append(str(desctools))
        subprocess.run(cmd, check=True, env={**os.environ, "TZ": "UTC"}, stderr=subprocess.DEVNULL)
        out = json.loads(dst.read_text())
    refs = out["references"]
    if isinstance(refs, list):  # jsonlite writes an empty named list as []
        refs = {}
    return out["meta"], refs


def load_committed():
    cases, sources = {}, {}
    for f in sorted(TABLE.glob("*.json")):
        for c in json.loads(f.read_text())["cases"]:
            cases[c["id"]] = c
    if SOURCES_FILE.exists():
        sources = json.loads(SOURCES_FILE.read_text())
    return cases, sources


def python_refs(case):
    try:
        refs = oracles_python.references(case)
    except Exception as err:  # one failing oracle call never stops the table
        traceback.print_exc()
        refs = [
            {
                "source": "python",
                "call": case["coefficient"],
                "values": {},
                "error": f"{type(err).__name__}: {err}",
            }
        ]
    return refs


def build(desctools=None, use_r=True):
    cases = inputs.all_cases()
    committed, committed_sources = load_committed()
    sources = python_sources()
    log = []
    r_refs, r_meta = {}, None
    ok, why = r_available() if use_r else (False, "--no-r")
    if ok:
        r_meta, r_refs = run_r(cases, desctools)
        rv = r_meta["R"]
        for p, v in r_meta["packages"].items():
            sources[p] = {
                "kind": "package",
                "package": p,
                "version": v,
                "language": rv,
                "script": "conformance/scripts/oracles.R",
            }
        sources["irr"]["note"] = (
            "not in Debian: installed from its CRAN source (conformance/README.md)"
        )
        sources["R"] = {
            "kind": "package",
            "package": "stats",
            "version": rv,
            "language": rv,
            "script": "conformance/scripts/oracles.R",
        }
        if r_meta.get("DescTools"):
            sources["DescTools"] = {
                "kind": "package",
                "package": "DescTools",
                "version": desctools_version(desctools),
                "language": rv,
                "script": "conformance/scripts/oracles.R",
                "note": "not in Debian (compiled, many dependencies): StuartMaxwellTest is "
                "parsed out of its source file R/Tests.r and evaluated alone",
            }
        log.append(
            f"R: re-run ({rv}; "
            + ", ".join(f"{p} {v}" for p, v in r_meta["packages"].items())
            + ")"
        )
    else:
        log.append(f"R: NOT re-run ({why}); its committed references are carried over")
    carried = set() if ok else set(R_SOURCES)
    if ok and not (r_meta or {}).get("DescTools"):
        carried.add("DescTools")
        log.append("DescTools: NOT re-run (no --desctools source); carried over")
    for key in carried:
        if key in committed_sources:
            sources[key] = committed_sources[key]

    unexplained = []
    status = {r.key: r.status for r in verdicts.RULES}
    for case in cases:
        refs = python_refs(case)
        refs += r_refs.get(case["id"], [])
        old = committed.get(case["id"])
        if old is not None and old["input"] == case["input"] and old["options"] == case["options"]:
            for r in old["references"]:
                if r["source"] in carried:
                    r = {k: v for k, v in r.items() if k != "disputed"}
                    refs.append(r)
        refs += published.references(case)
        if case["id"] in LIBRARY_NOTES:
            case["library_notes"] = LIBRARY_NOTES[case["id"]]
        refs.sort(key=lambda r: verdicts._rank(r["source"]))
        case["references"] = refs
        unexplained += verdicts.apply(case)
        unexplained += verdicts.check_diagnoses(case, status)
    return cases, sources, log, unexplained


def _as_files(cases):
    by = defaultdict(list)
    for c in cases:
        by[c["coefficient"]].append(c)
    return {
        k: {
            "coefficient": k,
            "description": COEFFICIENTS[k],
            "verdicts": verdicts.used(v),
            "cases": v,
        }
        for k, v in by.items()
    }


def dumps(obj, indent=0):
    """JSON with one line per number list (a matrix row, a rating row), so that the files
    read as tables and diff line by line."""
    pad, inner = " " * indent, " " * (indent + 1)
    if isinstance(obj, dict):
        flat = json.dumps(obj, allow_nan=False)
        if len(flat) <= 90 and all(not isinstance(v, dict) for v in obj.values()):
            return flat
        items = [f"{inner}{json.dumps(k)}: {dumps(v, indent + 1)}" for k, v in obj.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(obj, list):
        if all(not isinstance(v, (dict, list)) for v in obj):
            return json.dumps(obj, allow_nan=False)
        if all(
            isinstance(v, list) and all(not isinstance(x, (dict, list)) for x in v) for v in obj
        ):
            return (
                "[\n"
                + ",\n".join(inner + json.dumps(v, allow_nan=False) for v in obj)
                + "\n"
                + pad
                + "]"
            )
        return "[\n" + ",\n".join(inner + dumps(v, indent + 1) for v in obj) + "\n" + pad + "]"
    return json.dumps(obj, allow_nan=False)


def drift(new_cases, committed):
    """Every quantity whose fresh value moved beyond its tolerance, and every case added,
    removed or changed in its input."""
    out = []
    new_ids = {c["id"] for c in new_cases}
    for cid in sorted(set(committed) - new_ids):
        out.append(f"{cid}: removed")
    for c in new_cases:
        old = committed.get(c["id"])
        if old is None:
            out.append(f"{c['id']}: new case")
            continue
        if old["input"] != c["input"] or old["options"] != c["options"]:
            out.append(f"{c['id']}: input or options changed")
            continue
        olds = {(r["source"], r["call"]): r for r in old["references"]}
        for r in c["references"]:
            o = olds.pop((r["source"], r["call"]), None)
            if o is None:
                out.append(f"{c['id']}: new reference {r['source']}: {r['call']}")
                continue
            if ("error" in r) != ("error" in o):
                out.append(
                    f"{c['id']} {r['source']}: error {o.get('error')!r} -> {r.get('error')!r}"
                )
            for q in sorted(set(r["values"]) | set(o["values"])):
                a, b = r["values"].get(q, "absent"), o["values"].get(q, "absent")
                if a == "absent" or b == "absent" or not verdicts.close(a, b, r["tolerance"], q):
                    out.append(f"{c['id']} {r['source']} {q}: {b!r} -> {a!r}")
        for src, call in olds:
            out.append(f"{c['id']}: reference gone {src}: {call}")
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--write", action="store_true", help="write conformance/cases/*.json")
    ap.add_argument("--no-r", action="store_true", help="do not run R (carry its references)")
    ap.add_argument(
        "--desctools",
        default=os.environ.get("DESCTOOLS_SRC"),
        help="DescTools' R/Tests.r, for StuartMaxwellTest (or $DESCTOOLS_SRC)",
    )
    args = ap.parse_args(argv)
    cases, sources, log, unexplained = build(args.desctools, not args.no_r)
    committed, _ = load_committed()
    moved = drift(cases, committed)
    for line in log:
        print(line)
    counts = Counter(c["coefficient"] for c in cases)
    nrefs = sum(len(c["references"]) for c in cases)
    print(f"{len(cases)} cases, {nrefs} references, {len(counts)} coefficients")
    status = {r.key: r.status for r in verdicts.RULES}
    disputed = [
        (c["id"], r["source"], q, status[d["verdict"]])
        for c in cases
        for r in c["references"]
        for q, d in r.get("disputed", {}).items()
    ]
    by = Counter((cid.split("/")[0], src, status) for cid, src, q, status in disputed)
    for (coef, src, status), n in sorted(by.items()):
        print(f"  disputed: {coef:24s} {src:12s} {status:10s} {n} quantities")
    errors = [
        (c["id"], r["source"], r["error"]) for c in cases for r in c["references"] if "error" in r
    ]
    for cid, src, err in errors:
        print(f"  refused: {cid} {src}: {err}")
    for u in unexplained:
        print(f"UNEXPLAINED: {u}")
    if moved:
        print(f"DRIFT against the committed table ({len(moved)}):")
        for m in moved[:200]:
            print("  " + m)
    else:
        print("no drift against the committed table")
    if args.write:
        if unexplained:
            print("not written: explain every disagreement first (verdicts.py)")
            return 1
        TABLE.mkdir(exist_ok=True)
        for old in TABLE.glob("*.json"):
            old.unlink()
        for name, body in _as_files(cases).items():
            (TABLE / f"{name}.json").write_text(dumps(body) + "\n")
        SOURCES_FILE.write_text(json.dumps(sources, indent=1, sort_keys=True) + "\n")
        print(f"written: {TABLE} ({len(counts)} files), {SOURCES_FILE}")
        return 0
    return 1 if (moved or unexplained) else 0


if __name__ == "__main__":
    assert exact and math  # imported for the oracles' modules
    sys.exit(main())
