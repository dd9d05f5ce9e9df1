"""The self-checks (tools/self_checks.py, book/_static/selfcheck/) against kappalib.

kappalib is the oracle. For every self-check of the book, and for a question on every
quantity a self-check may ask for, the page's own generator (self_check_math.mjs, run by node
through tests/js/self_check_cases.mjs) draws tables; on each table

* the page's value of the asked quantity (and of each listed mistake) must equal kappalib's;
* the page must accept kappalib's value rounded to the decimals the question asks for, and
  refuse one that is three tolerances off;
* a typed mistake (p_o where kappa is asked, say) must get its own explanation.

It also checks the build's side: each self-check's YAML is valid, its printed table gives
every quantity it needs, the values printed in the answers are kappalib's, and the page's
parsing of a typed answer refuses what is not a number ("e", "1e3", "") with a sentence.
"""

from __future__ import annotations

import json
import math
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import self_checks  # noqa: E402  (tools/: the Sphinx extension, its kappalib registry)

RUNNER = ROOT / "tests/js/self_check_cases.mjs"
BLOCK = re.compile(r"```\{self-check\}[^\n]*\n(?P<body>.*?)\n```", re.S)


def book_self_checks() -> list[tuple[str, dict]]:
    """(chapter and number, validated spec) of every self-check in book/*.ipynb."""
    out = []
    for path in sorted((ROOT / "book").glob("[0-9][0-9]_*.ipynb")):
        nb = json.loads(path.read_text(encoding="utf-8"))
        n = 0
        for cell in nb["cells"]:
            if cell["cell_type"] != "markdown":
                continue
            for m in BLOCK.finditer("".join(cell["source"])):
                n += 1
                spec = self_checks.check_spec(yaml.safe_load(m["body"]))
                out.append((f"{path.stem}:{n}", spec))
    return out


# A numeric question on every quantity, on tables that the page draws (the generator too is
# under test: two kinds of matrix, K = 2, 3 and 5, and a count table).
def _q(compute, table, digits=3, kind_mistakes=()):
    return {"type": "numeric", "compute": compute, "digits": digits, "table": table,
            "mistakes": [{"compute": m} for m in kind_mistakes]}  # fmt: skip


TWO = self_checks.table_spec({"K": 2, "diagonal": [0, 40], "off_diagonal": [0, 15]})
THREE = self_checks.table_spec({"K": 3, "diagonal": [3, 30], "off_diagonal": [0, 8]})
FIVE = self_checks.table_spec({"K": 5, "diagonal": [0, 20], "off_diagonal": [0, 6]})
CELLS = self_checks.table_spec({"cells": [[[50, 90], [0, 5]], [[0, 30], [0, 4]]]})
COUNTS = self_checks.table_spec(
    {"kind": "counts", "K": 3, "units": 10, "raters": 4, "weights": [3, 2, 1]}
)


def coverage_questions() -> list[tuple[str, dict]]:
    out = []
    for name in self_checks.MATRIX_QUANTITIES:
        for label, table in (("2", TWO), ("3", THREE), ("5", FIVE), ("cells", CELLS)):
            K = table["K"]
            if name in ("pabak", "prevalence_index", "bias_index") and K != 2:
                continue
            q = name.replace("[]", "[2]").replace("[,]", f"[{K},1]")
            out.append((f"{q} on K={label}", _q(q, table)))
    for name in self_checks.COUNTS_QUANTITIES:
        q = name.replace("[]", "[3]")
        out.append((f"{q} on counts", _q(q, COUNTS)))
    return out


@pytest.fixture(scope="module")
def node():
    exe = shutil.which("node")
    if exe is None:
        if os.environ.get("CI"):
            pytest.fail("node is needed for the self-checks' tests (it comes with npm)")
        pytest.skip("node is not installed")
    return exe


@pytest.fixture(scope="module")
def page(node, tmp_path_factory):
    """page(request) -> the page module's answer (tests/js/self_check_cases.mjs)."""
    folder = tmp_path_factory.mktemp("self-checks")

    def run(request: dict) -> dict:
        req, out = folder / "request.json", folder / "answer.json"
        req.write_text(json.dumps(request), encoding="utf-8")
        done = subprocess.run([node, str(RUNNER), str(req), str(out)], capture_output=True,
                              text=True, cwd=ROOT)  # fmt: skip
        assert done.returncode == 0, done.stderr[-3000:]
        return json.loads(out.read_text(encoding="utf-8"))

    return run


def needs(spec: dict) -> list[str]:
    return [spec["compute"], *[m["compute"] for m in spec.get("mistakes") or []]]


def kappalib_value(name, T, kind):
    return self_checks.quantity_value(name, T, kind)


def close(a, b) -> bool:
    if a is None or b is None:
        return a is b
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


def test_the_book_has_self_checks_and_each_is_valid():
    found = book_self_checks()
    assert found, "no self-check in book/*.ipynb"
    kinds = {spec["type"] for _, spec in found}
    assert kinds == {"numeric", "choice"}, kinds


def test_page_and_kappalib_have_the_same_quantities(page):
    names = page({"quantities": True})["quantities"]
    assert names["matrix"] == list(self_checks.MATRIX_QUANTITIES)
    assert names["counts"] == list(self_checks.COUNTS_QUANTITIES)


def test_accepted_numbers_are_kappalibs(page):
    """Every numeric self-check of the book and a question on every quantity: the page draws
    tables, and on each the number it accepts is kappalib's, to the question's decimals."""
    questions = [(k, s) for k, s in book_self_checks() if s["type"] == "numeric"]
    questions += coverage_questions()
    drawn = page(
        {
            "draw": [
                {"table": spec["table"], "needs": needs(spec), "seed": 1000 + k, "n": 25}
                for k, (_, spec) in enumerate(questions)
            ]
        }
    )["draw"]
    values_req, judge_req, expect = [], [], []
    for (label, spec), tables in zip(questions, drawn, strict=True):
        kind = spec["table"]["kind"]
        assert len({json.dumps(T) for T in tables}) > 1, f"{label}: the page draws one table"
        for T in tables:
            check_table(T, spec["table"], label)
        values_req.append({"kind": kind, "names": needs(spec), "tables": tables})
        tol = spec.get("tolerance", 10 ** -spec["digits"])
        q = {k: spec[k] for k in ("compute", "digits") if k in spec}
        q |= {"kind": kind, "mistakes": [{"compute": m} for m in needs(spec)[1:]]}
        for T in tables:
            truth = kappalib_value(spec["compute"], T, kind)
            assert truth is not None, f"{label}: the page drew a table where it is undefined"
            typed = f"{truth:.{spec['digits']}f}"
            judge_req.append({"q": q, "table": T, "text": typed})
            expect.append((label, T, "right", typed))
            off = truth + 3 * tol
            judge_req.append({"q": q, "table": T, "text": repr(off)})
            expect.append((label, T, "not right", repr(off)))
            for k, m in enumerate(needs(spec)[1:]):
                v = kappalib_value(m, T, kind)
                if v is not None and abs(v - truth) > 2.5 * tol:
                    typed = repr(v)
                    judge_req.append({"q": q, "table": T, "text": typed})
                    expect.append((label, T, ("mistake", k), typed))
    answer = page({"values": values_req, "judge": judge_req})
    compared = 0
    for (label, spec), tables, page_values in zip(questions, drawn, answer["values"],
                                                  strict=True):  # fmt: skip
        for T, row in zip(tables, page_values, strict=True):
            for name, got in zip(needs(spec), row, strict=True):
                want = kappalib_value(name, T, spec["table"]["kind"])
                assert close(got, want), f"{label}: {name} of {T}: page {got}, kappalib {want}"
                compared += 1
    for (label, T, want, typed), verdict in zip(expect, answer["judge"], strict=True):
        if want == "right":
            assert verdict["status"] == "right", (label, T, typed, verdict)
        elif want == "not right":
            assert verdict["status"] != "right", (label, T, typed, verdict)
        else:
            assert (verdict["status"], verdict.get("mistake")) == want, (label, T, typed, verdict)
    assert compared > 1000 and len(expect) > 1000


def check_table(T, t: dict, label: str) -> None:
    """The drawn table follows its specification."""
    A = np.asarray(T)
    if t["kind"] == "counts":
        assert A.shape == (t["units"], t["K"]), label
        assert (A.sum(axis=1) == t["raters"]).all(), label
        return
    assert A.shape == (t["K"], t["K"]), label
    if "fixed" in t:
        assert T == t["fixed"], label
        return
    for i, row in enumerate(t["cells"]):
        for j, (lo, hi) in enumerate(row):
            assert lo <= A[i, j] <= hi and A[i, j] == int(A[i, j]), (label, i, j, T)


def test_printed_tables_and_their_answers_are_kappalibs():
    """The table printed with each numeric self-check gives all its quantities, and is the
    same on every build (a seed from the self-check's place)."""
    for label, spec in book_self_checks():
        if spec["type"] != "numeric":
            continue
        T = self_checks.draw_print_table(spec["table"], label, needs(spec))
        assert T == self_checks.draw_print_table(spec["table"], label, needs(spec))
        for name in needs(spec):
            assert kappalib_value(name, T, spec["table"]["kind"]) is not None, (label, name)


def test_a_typed_answer_is_a_number_or_one_sentence(page):
    texts = ["0.42", ".42", "-0.2", "\u22120.2", "0,42", " 42% ", "8/12", "1", "", "e",
             "1e3", "0.4.2", "abc", "8/0", "--1", "0x10", "Infinity", "NaN"]  # fmt: skip
    got = page({"parse": texts})["parse"]
    want = {"0.42": 0.42, ".42": 0.42, "-0.2": -0.2, "\u22120.2": -0.2, "0,42": 0.42,
            " 42% ": 0.42, "8/12": 8 / 12, "1": 1.0}  # fmt: skip
    for text, verdict in zip(texts, got, strict=True):
        if text in want:
            assert math.isclose(verdict["value"], want[text]), (text, verdict)
        else:
            assert "error" in verdict and "value" not in verdict, (text, verdict)
            assert verdict["error"].endswith("."), verdict
            if text.strip():
                assert (
                    repr(text.strip())[1:-1] in verdict["error"] or text.strip() in verdict["error"]
                ), verdict


def test_a_bad_specification_is_one_sentence():
    bad = [
        ({"type": "numeric"}, "question is required"),
        ({"type": "quiz", "question": "q", "hint": "h"}, "type must be"),
        (
            {"type": "numeric", "question": "q", "hint": "h", "answer": "a", "compute": "kapa",
             "table": {"K": 2}},
            "compute must be one of",
        ),
        (
            {"type": "numeric", "question": "q", "hint": "h", "answer": "a", "compute": "kappa",
             "table": {"K": 2, "off": [0, 3]}},
            "unknown keys",
        ),
        (
            {"type": "numeric", "question": "q", "hint": "h", "answer": "a", "compute": "kappa",
             "table": {"labels": [True, False]}},
            "quote yes",
        ),
        (
            {"type": "choice", "question": "q", "hint": "h",
             "options": [{"text": "a", "explain": "x"}, {"text": "b", "explain": "y"}]},
            "exactly one option",
        ),
        (
            {"type": "choice", "question": "q", "hint": "h",
             "options": [{"text": "a", "correct": True}, {"text": "b", "explain": "y"}]},
            "its own explain",
        ),
    ]  # fmt: skip
    for spec, words in bad:
        with pytest.raises(self_checks.SpecError, match=words):
            self_checks.check_spec(spec)


def test_a_planted_bug_in_the_page_is_caught(page, tmp_path):
    """The oracle comparison fails when the page's kappa drifts (the bug is planted in a copy
    of the module that the runner imports)."""
    src = ROOT / "book/_static/selfcheck/self_check_math.mjs"
    text = src.read_text(encoding="utf-8")
    planted = text.replace("kappa: (C) => kappa(C),", "kappa: (C) => kappa(C) + 0.02,")
    assert planted != text
    folder = tmp_path / "book/_static/selfcheck"
    folder.mkdir(parents=True)
    (folder / "self_check_math.mjs").write_text(planted, encoding="utf-8")
    for sub in ("kappa", "explorers"):
        shutil.copytree(ROOT / "book/_static" / sub, tmp_path / "book/_static" / sub)
    runner = tmp_path / "tests/js/self_check_cases.mjs"
    runner.parent.mkdir(parents=True)
    shutil.copy(RUNNER, runner)
    T = [[20, 5], [3, 12]]
    req = tmp_path / "r.json"
    req.write_text(json.dumps({"values": [{"kind": "matrix", "names": ["kappa"],
                                           "tables": [T]}]}))  # fmt: skip
    out = tmp_path / "a.json"
    subprocess.run([shutil.which("node"), str(runner), str(req), str(out)], check=True)
    got = json.loads(out.read_text())["values"][0][0][0]
    assert not close(got, kappalib_value("kappa", T, "matrix"))
