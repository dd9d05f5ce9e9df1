"""The book's page on the conformance table (book/conformance.md) holds to the table.

* Its tables (tools/conformance_table.md, which the page includes, written by
  tools/conformance_table.py) match the case files: the counts and oracles exactly, kappalib's
  largest differences up to the last bits of a double.  A planted drift is caught.
* Its Python snippet is run here, as printed, on the committed case files: it prints what the
  page says it prints, and it reports a library that answers 0 for an undefined kappa or is
  off by 1e-6 (planted bugs).
* What it includes from conformance/README.md (the format of a case, the verdicts) is there,
  between its markers, and what its prose says of the differences holds.
"""

import functools
import importlib.util
import re
import sys
import warnings
from pathlib import Path

import pytest

# It checks the book's page and a stored result of tools/, not kappalib: the toolchain.
pytestmark = pytest.mark.toolchain

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "book" / "conformance.md"
README = ROOT / "conformance" / "README.md"
spec = importlib.util.spec_from_file_location(
    "conformance_table", ROOT / "tools" / "conformance_table.py"
)
ct = importlib.util.module_from_spec(spec)
sys.modules["conformance_table"] = ct
spec.loader.exec_module(ct)


@functools.cache
def _state():
    """The conformance test module, the case files, the sources, and kappalib's differences."""
    test = ct._conformance_test()
    files, sources = ct.load()
    return test, files, sources, ct.differences(test)


def _fresh(rows=None):
    _, files, sources, diffs = _state()
    return ct.render(rows or ct.rows(files, diffs), sources)


# --------------------------------------------------------------------------- the tables
def test_the_committed_tables_match_the_case_files():
    problems = ct.drift(ct.RESULT.read_text(encoding="utf-8"), _fresh())
    assert not problems, (
        "tools/conformance_table.md no longer matches conformance/ (rewrite it: "
        ".venv/bin/python tools/conformance_table.py --write):\n" + "\n".join(problems)
    )


def test_a_drift_is_caught():
    _, files, _, diffs = _state()
    committed = _fresh()
    base = ct.rows(files, diffs)

    def planted(i, **change):
        rows = [dict(r) for r in base]
        rows[i].update(change)
        return ct.drift(committed, _fresh(rows))

    cohen = next(i for i, r in enumerate(base) if r["coefficient"] == "cohen_kappa")
    icc = next(i for i, r in enumerate(base) if r["coefficient"] == "icc")
    assert planted(cohen, cases=base[cohen]["cases"] + 1)  # a case added
    assert planted(icc, oracles=base[icc]["oracles"][:-1])  # an oracle dropped
    assert planted(cohen, full=base[cohen]["full"] * 10)  # a difference that grew
    assert planted(icc, rounded=None)  # rounded references gone
    assert planted(cohen, full=3 * ct.NOISE)  # out of the noise, from 2e-8
    # what the check lets through: the last bits of a double, and a factor under 2
    tiny = next(i for i, r in enumerate(base) if 0 < r["full"] < ct.NOISE)
    assert not planted(tiny, full=base[tiny]["full"] * 7)
    assert not planted(cohen, full=base[cohen]["full"] * 1.5)
    assert ct.drift(committed, committed.replace("| 0 |", "| 1e-16 |")) == []
    assert ct.drift(committed.rsplit("\n", 2)[0], committed)  # a line lost


def test_each_large_full_precision_difference_has_its_cases_tolerance():
    """The page: a full-precision difference far above 1e-12 is a case with a tolerance of
    its own, which gives the reason (cohen_kappa's variance of exactly 0)."""
    test = _state()[0]
    large = []
    for case in test.CASES:
        for ref, q, ours, theirs, status in test.comparisons(case):
            if status is None and ref["tolerance"]["abs"] < ct.ROUNDED:
                if test.difference(ours, theirs) > ct.NOISE:
                    large.append((case["id"], q))
                    assert "why" in case.get("tolerance", {}), (case["id"], ref["source"], q)
    assert {case for case, _ in large} == {"cohen_kappa/identity/rater-constant"}


def test_the_rounded_references_are_those_the_page_names():
    """The page: rounded are the publications, pingouin's ICC intervals, irrCAC's benchmark,
    irr's per-category kappas, the finite differences and scipy's noncentral t quantiles."""
    _, files, sources, _ = _state()
    rounded = {
        (body["coefficient"], r["source"])
        for body in files.values()
        for case in body["cases"]
        for r in case["references"]
        if "tolerance" in r and r["tolerance"]["abs"] >= ct.ROUNDED
    }
    assert {pair for pair in rounded if sources[pair[1]]["kind"] != "publication"} == {
        ("icc", "pingouin"),
        ("benchmark", "irrCAC"),
        ("category_fleiss_kappas", "irr"),
        ("overall_ccc", "finite-differences"),
        ("bland_altman", "scipy"),
    }
    # and every publication is rounded
    assert all(
        (body["coefficient"], r["source"]) in rounded
        for body in files.values()
        for case in body["cases"]
        for r in case["references"]
        if sources[r["source"]]["kind"] == "publication"
    )


# --------------------------------------------------------------------------- the page
def test_the_page_is_in_the_book_and_includes_its_parts():
    toc = (ROOT / "_toc.yml").read_text(encoding="utf-8")
    assert "- file: book/conformance\n" in toc
    page = PAGE.read_text(encoding="utf-8")
    assert "```{include} ../tools/conformance_table.md\n```" in page
    readme = README.read_text(encoding="utf-8")
    starts = re.findall(r"^:start-after: (.+)$", page, re.M)
    ends = re.findall(r"^:end-before: (.+)$", page, re.M)
    assert len(starts) == len(ends) == 2
    for start, end in zip(starts, ends, strict=True):
        assert readme.count(start) == readme.count(end) == 1, (start, end)
        assert readme.index(start) < readme.index(end)
    # the parts included: the format of a case and the verdicts' table
    assert "**Verdicts.**" in readme.split(starts[0])[1].split(ends[0])[0]
    assert "| verdict | status |" in readme.split(starts[1])[1].split(ends[1])[0]


def _blocks(language):
    page = PAGE.read_text(encoding="utf-8")
    return re.findall(rf"^```{language}\n(.*?)^```$", page, re.M | re.S)


def _run_snippet(monkeypatch, capsys):
    """The page's snippet, run in conformance/cases: (its namespace, stdout, warnings)."""
    pytest.importorskip("sklearn")
    (code,) = _blocks("python")
    monkeypatch.chdir(ROOT / "conformance" / "cases")
    namespace = {"__name__": "conformance_snippet"}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        exec(compile(code, str(PAGE), "exec"), namespace)
    return namespace, capsys.readouterr().out, caught


def test_the_snippet_prints_what_the_page_shows(monkeypatch, capsys):
    _, out, caught = _run_snippet(monkeypatch, capsys)
    (shown,) = _blocks("text")
    assert out == shown
    assert out.endswith(", 0 outside the tolerance\n")
    assert int(out.split()[0]) > 500
    # "scikit-learn warns once, on the case where kappa is 0/0"
    from sklearn.exceptions import UndefinedMetricWarning

    assert [type(w.message) for w in caught] == [UndefinedMetricWarning]


def test_the_snippet_reports_a_wrong_library(monkeypatch, capsys):
    namespace, out, _ = _run_snippet(monkeypatch, capsys)
    check, kappa = namespace["check"], namespace["sklearn_kappa"]
    compared = int(out.split()[0])

    # planted: 0 for an undefined kappa (scikit-learn's replace_undefined_by=0.0)
    sklearn = namespace["cohen_kappa_score"]
    namespace["cohen_kappa_score"] = functools.partial(sklearn, replace_undefined_by=0.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        n, failures = check("cohen_kappa.json", kappa)
    namespace["cohen_kappa_score"] = sklearn
    assert n == compared
    assert failures and all(yours == 0.0 and ref is None for *_, yours, ref in failures)

    # planted: off by 1e-6, everywhere kappa is defined
    def off(case):
        values = kappa(case)
        if values is None or values["value"] is None:
            return values
        return {"value": values["value"] + 1e-6}

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        n, failures = check("cohen_kappa.json", off)
    assert n == compared and len(failures) > 0.9 * compared
