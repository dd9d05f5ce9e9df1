"""The JavaScript twin of kappalib (book/_static/kappa/kappa.mjs), tested from pytest.

kappalib writes the cases (tools/js_cases.py) into a temporary directory, and node's own
test runner (``node --test tests/js/``) compares every function of the twin with them to
1e-12.  The JSON is written from the kappalib under test on every run, so a formula changed
in kappalib without its twin fails here: the mutant test below plants one (Scott's pooled
chance agreement in place of Cohen's p_e) and checks that node catches it.

node is not a Python package: without it these tests are skipped on a laptop, and fail
under CI=true, where a skipped twin would let the page drift from the library.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import kappalib as kl

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import js_cases  # noqa: E402

pytestmark = pytest.mark.toolchain

NODE = shutil.which("node")


def _node_or_skip():
    if NODE is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(
                "node is not installed, so the JavaScript twin of kappalib cannot be tested; "
                "install Node.js >= 18 (apt-get install nodejs) on the CI machine"
            )
        pytest.skip("node is not installed (the JavaScript twin's tests need Node.js >= 18)")
    version = subprocess.run([NODE, "--version"], capture_output=True, text=True).stdout
    major = int(version.strip().lstrip("v").split(".")[0])
    if major < 18:
        pytest.fail(f"node --test needs Node.js >= 18, found {version.strip()}")


def _run_node(cases_path, only=None):
    env = dict(os.environ, KAPPA_JS_CASES=str(cases_path))
    pattern = [f"--test-name-pattern={only}"] if only else []
    return subprocess.run(
        [NODE, "--test", "--test-reporter=spec", *pattern, str(ROOT / "tests" / "js")],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=300,
    )


def _write(tmp_path, name):
    path = tmp_path / name
    path.write_text(json.dumps(js_cases.build(), allow_nan=False), encoding="utf-8")
    return path


def test_js_twin_equals_kappalib(tmp_path):
    _node_or_skip()
    path = _write(tmp_path, "cases.json")
    cases = json.loads(path.read_text(encoding="utf-8"))
    assert len(cases["matrices"]) >= 1000
    result = _run_node(path)
    assert result.returncode == 0, (
        "the JavaScript twin (book/_static/kappa/kappa.mjs) differs from kappalib:\n"
        + result.stdout[-6000:]
        + result.stderr[-2000:]
    )
    assert "# fail 0" in result.stdout or "fail 0" in result.stdout


def test_a_kappalib_formula_changed_without_its_twin_fails(tmp_path, monkeypatch):
    """The mutation check: kl.kappa with Scott's p_e (pooled margins) instead of Cohen's.

    Only the matrices are written (with the mutant) and only node's two-rater test runs: it
    must fail on kappa, and name it.
    """
    _node_or_skip()
    original = kl.kappa

    def mutant(C, **kwargs):
        value = original(C, **kwargs)  # the checks and their sentences stay kappalib's
        if kwargs.get("weighting") is not None:
            return value
        C = np.asarray(C, dtype=float)
        N = C.sum()
        pooled = (C.sum(axis=0) + C.sum(axis=1)) / (2 * N)
        p_o, p_e = np.trace(C) / N, float(pooled @ pooled)
        return None if p_e == 1 else float((p_o - p_e) / (1 - p_e))

    monkeypatch.setattr(kl, "kappa", mutant)
    rng = np.random.default_rng(js_cases.SEED)
    cases = {"matrices": js_cases.matrix_cases(rng, 1000), "ratings": [], "labels": [],
             "reports": [], "formats": [], "errors": [], "quantiles": [],
             "conformance": []}  # fmt: skip
    path = tmp_path / "mutant.json"
    path.write_text(json.dumps(cases, allow_nan=False), encoding="utf-8")
    result = _run_node(path, "two raters, unweighted")
    assert result.returncode != 0, "node passed on a mutant kappalib: the twin is not tested"
    assert re.search(r"matrix-\d+ \(\w+\) kappa: kappalib", result.stdout), result.stdout[-3000:]


def test_js_twin_passes_the_conformance_table(tmp_path):
    """The twin on the conformance table's cases (conformance/cases/*.json), the cases that
    kappalib's tests/test_conformance.py reads: the value the table stands by (exact
    arithmetic, a published value), within the table's tolerance.  Planted: PABAK as
    2 p_o - 1 for any K (a reference's mistake the table names) fails it."""
    _node_or_skip()
    folder = Path(os.environ.get("KAPPA_CONFORMANCE", js_cases.CONFORMANCE))
    if not folder.is_dir():
        pytest.skip(f"this checkout has no conformance table ({folder})")
    cases = {name: [] for name in ("matrices", "ratings", "labels", "reports", "formats",
                                   "errors", "quantiles")}  # fmt: skip
    cases["conformance"] = js_cases.conformance_cases(folder)
    assert len(cases["conformance"]) >= 300
    path = tmp_path / "conformance.json"
    path.write_text(json.dumps(cases, allow_nan=False), encoding="utf-8")
    result = _run_node(path, "conformance table")
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]
    assert re.search(r"\bpass 1\n", result.stdout), result.stdout[-3000:]  # it ran, it passed


def test_the_page_embeds_the_words_kappalib_reads():
    """book/calculator.md embeds kappalib/_shared/report_words.json where kappa.js looks for
    it (the script element "kappa-words", before kappa.js), so the page's paragraph is filled
    from the file kappalib reads; the twin's own copy of a sentence would drift."""
    page = (ROOT / "book" / "calculator.md").read_text(encoding="utf-8")
    words = page.index(":file: ../kappalib/_shared/report_words.json")
    assert page.rindex('<script type="application/json" id="kappa-words">', 0, words) < words
    assert words < page.index('<script src="../_static/kappa/kappa.js">')
    assert (ROOT / "kappalib" / "_shared" / "report_words.json").is_file()
    twin = (ROOT / "book" / "_static" / "kappa" / "kappa.js").read_text(encoding="utf-8")
    for sentence in ("Agreement between", "Against chance agreement", "Few units:", "rare in"):
        assert sentence not in twin, f"kappa.js writes {sentence!r} itself"


# spellings around kappalib's tokens: case, surrounding space (Python's and JavaScript's
# whitespace differ), near misses, and the words that are categories ("none", "nat")
SPELLINGS = ["NA", "na", " nA ", "N/A", "n/a", "NaN", "nan", "NAN", "null", "NULL", "Null",
             "#N/A", "#n/a", "<NA>", "<na>", ".", " . ", "-", "--", "..", "", "   ", "\t",
             "none", "None", "nat", "NaT", "missing", "n.a.", "N A", "NA.", "-1", "0", "?",
             "\x85NA\x85", "\u3000null\u3000", "\ufeffNA", "\x1cnan", "mild", "K",
             "\u212a"]  # fmt: skip
LISTS = [None, [], ["NA"], ["none", "mild", "NA"], ["n/a", "-"], ["", "."], [" Null ", "nat"],
         ["NAN", 1, 2.5]]  # fmt: skip


def _kappa_js_with_words(script: str, query: dict) -> dict:
    """Run ``script`` in Node with ``K`` (kappa.js, given the report's words) and ``q`` (the
    query) defined; it prints one JSON object, returned parsed."""
    prelude = (
        "const K = require(process.argv[1]); const q = JSON.parse(process.argv[2]);"
        "K.setWords(JSON.parse(require('fs').readFileSync(process.argv[3], 'utf8')));"
    )
    run = subprocess.run(
        [NODE, "-e", prelude + script, str(ROOT / "book" / "_static" / "kappa" / "kappa.js"),
         json.dumps(query), str(ROOT / "kappalib" / "_shared" / "report_words.json")],
        capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    return json.loads(run.stdout)


def test_the_page_reads_missing_values_as_kappalib_does():
    """The calculator's missing-value tokens (Kappa.NA_VALUES, kappa.js) are kappalib's
    (kappalib/_input/missing.py, the oracle), and its reading of each spelling, with and
    without categories listed, is kappalib's classify; the sentence that says so is
    kappalib's missing_caveat.  Planted: '-' dropped from the JavaScript list fails here."""
    _node_or_skip()
    from kappalib._input.missing import DEFAULT_TOKENS, NA_VALUES, classify
    from kappalib._report.reading import missing_caveat

    counts = [[["NA", 2], ["", 3], ["-", 1]], [["n/a", 1]], [["", 4]], [], [[".", 10], ["NaN", 1]]]
    script = (
        "console.log(JSON.stringify({tokens: K.NA_VALUES,"
        " missing: q.lists.map((l) => K.missingSpellings(q.spellings, l)),"
        " caveats: q.counts.map((c) => K.missingCaveat(c))}));"
    )
    query = {"spellings": SPELLINGS, "lists": LISTS, "counts": counts}
    page = _kappa_js_with_words(script, query)
    assert page["tokens"] == list(NA_VALUES), "kappa.js's NA_VALUES differ from kappalib's"
    for listed, got in zip(LISTS, page["missing"], strict=True):
        want, _ = classify(SPELLINGS, DEFAULT_TOKENS, listed)
        assert got == want, f"labels {listed!r}: the page reads {got}, kappalib {want}"
    for pairs, got in zip(counts, page["caveats"], strict=True):
        assert got == missing_caveat(dict(pairs)), pairs
    calculator = (ROOT / "book" / "_static" / "kappa" / "calculator.js").read_text(encoding="utf-8")
    assert "K.missingSpellings(" in calculator, "the calculator reads missing values another way"
    for token in ('"N/A"', '"n/a"', '"#N/A"', '"<NA>"', '"<na>"', '"nan"'):
        assert token not in calculator, f"calculator.js spells the token {token} itself"


def test_the_page_reads_case_variants_as_kappalib_does():
    """Spellings that differ only by case or surrounding space: kappa.js's caseVariants is
    kappalib's case_variants (clashes without an order, each variant of one listed category
    read as it with one), and variantsCaveat its sentence.  Planted: caseVariants without
    the stripping (toLowerCase only) fails here."""
    _node_or_skip()
    from kappalib._input.labels import case_variants
    from kappalib._report.reading import variants_caveat

    values = ["mild", "Mild", " MILD ", "none", "None", "NA", "na", "severe", "Severe", "x",
              "it's", "It's", "a\\b", "A\\B", "moderate"]  # fmt: skip
    lists = [None, ["mild", "severe", "NA"], ["mild", "Mild"], ["none", "mild", "moderate"],
             ["it's", "a\\b", "X"], []]  # fmt: skip
    triples = [[["Mild", "mild", 1], ["na", "NA", 2]], [["It's", "it's", 3]], [["A\\B", "a\\b", 1]],
               [["Mild", "mild", 0]], []]  # fmt: skip
    script = (
        "console.log(JSON.stringify({variants: q.lists.map((l) => K.caseVariants(q.values, l)),"
        " caveats: q.triples.map((t) => K.variantsCaveat(t))}));"
    )
    query = {"values": values, "lists": lists, "triples": triples}
    page = _kappa_js_with_words(script, query)
    for listed, got in zip(lists, page["variants"], strict=True):
        read_as, clashes = case_variants(values, listed)
        assert got["readAs"] == [list(p) for p in read_as.items()], listed
        assert got["clashes"] == clashes, listed
    for t, got in zip(triples, page["caveats"], strict=True):
        want = variants_caveat({s: label for s, label, _ in t}, {s: n for s, _, n in t})
        assert got == want, t
