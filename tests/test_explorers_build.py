"""tools/explorers_build.py: the page's explorer bundle and the rewriting of the pages."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
pytest.importorskip("sphinx", reason="the book's build environment (make test-min has none)")

import explorers_build  # noqa: E402  (tools/)

pytestmark = pytest.mark.toolchain

CELL = """<div class="cell tag_nbval-ignore-output docutils container">
<div class="cell_input docutils container">
<div class="highlight-ipython3 notranslate"><div class="highlight"><pre><span></span>\
<span class="n">widgets</span><span class="o">.</span><span class="n">coefficients_explorer\
</span><span class="p">(</span><span class="mf">0.9</span><span class="p">,</span> \
<span class="mf">0.8</span><span class="p">,</span> <span class="n">prevalence</span>\
<span class="o">=</span><span class="mf">0.3</span><span class="p">)</span>
</pre></div></div></div>
<div class="cell_output docutils container">
<script type="application/vnd.jupyter.widget-view+json">{"model_id": "x"}</script></div>
</div>"""


def test_a_page_gets_a_mount_point_with_the_calls_arguments(tmp_path):
    page = tmp_path / "book" / "10_x.html"
    page.parent.mkdir()
    head = (
        '<script type="application/vnd.jupyter.widget-state+json">{"state": {}}</script>\n'
        '<script src="../_static/npm/requirejs/require.js?v=1"></script>\n'
        '<script src="../_static/npm/html-manager/embed-amd.js?v=2"></script>\n'
    )
    html = (
        f"<html><head>{head}</head><body>{CELL}<img alt='a' src=\"../_images/f.png\"></body></html>"
    )
    text, found = explorers_build.rewrite_page(html, page, tmp_path, explorers_build._definitions())
    assert found == 1
    assert "widget-view+json" not in text
    assert "widget-state" not in text and "require.js" not in text and "embed-amd" not in text
    assert 'data-explorer="coefficients"' in text
    state = json.loads(text.split('data-state="')[1].split('"')[0].replace("&quot;", '"'))
    assert state == {"sensitivity": 0.9, "specificity": 0.8, "prevalence": 0.3}
    assert '<script defer src="../_static/kappa/kappa.js"></script>' in text
    assert '<script defer src="../_static/explorers/explorers.js"></script>' in text
    assert text.index("kappa/kappa.js") < text.index("explorers/explorers.js")
    assert '<a class="kh-figure-link" href="../_images/f.png"' in text


def test_a_call_with_a_non_literal_argument_fails_the_build():
    with pytest.raises(Exception, match="not a literal"):
        explorers_build.explorer_call(
            "widgets.coefficients_explorer(s, 0.9, 0.1)", explorers_build._definitions()
        )
    assert explorers_build.explorer_call("print(1)", explorers_build._definitions()) is None


def test_unsupported_module_syntax_fails_the_bundle(tmp_path):
    entry = tmp_path / "entry.mjs"
    entry.write_text('import x from "./other.mjs";\nexport default 1;\n')
    (tmp_path / "other.mjs").write_text("export const y = 2;\n")
    with pytest.raises(Exception, match="module syntax"):
        explorers_build.bundle(entry)


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_bundle_runs_the_modules_code(tmp_path):
    """The classic-script bundle gives the same numbers as the ES modules it is built from."""
    (tmp_path / "bundle.js").write_text(explorers_build.bundle())
    script = f"""
import vm from "node:vm";
import {{ readFileSync }} from "node:fs";
import * as X from "{(ROOT / "book/_static/explorers/explorer_math.mjs").as_uri()}";
const calls = [];
const context = {{ document: {{ readyState: "complete", querySelectorAll: () => [] }} }};
vm.createContext(context);
vm.runInContext(readFileSync("{ROOT / "book/_static/kappa/kappa.js"}", "utf8"), context);
vm.runInContext(readFileSync("{tmp_path / "bundle.js"}", "utf8")
  .replace("function start() {{", "globalThis.__X = __kh_module_1; function start() {{"), context);
const a = JSON.stringify(context.__X.twoByTwoValues(8, 2, 1, 9));
const b = JSON.stringify(X.twoByTwoValues(8, 2, 1, 9));
if (a !== b) {{ console.error(a, b); process.exit(1); }}
console.log(a);
"""
    (tmp_path / "run.mjs").write_text(script)
    run = subprocess.run(["node", str(tmp_path / "run.mjs")], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["kappa"] == pytest.approx(0.7)


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_explorer_probe_parses():
    source = (ROOT / "tools/js/explorer_state.js").read_text()
    run = subprocess.run(
        ["node", "--check", "--input-type=module"],
        input=f"const f = {source};\n",
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stderr


def test_the_site_check_compares_with_kappalib():
    """tools/check_explorers.compare: the page's numbers at the page's own controls."""
    import check_explorers  # tools/

    from kappalib.widgets import two_by_two_values

    controls = {"a": "37", "b": "2", "c": "1", "d": "9", "preset": ""}
    want = two_by_two_values(37, 2, 1, 9)
    values = {k: {"text": format(v, ".3f"), "value": repr(v)} for k, v in want.items()}
    state = {"controls": controls, "values": values}
    assert check_explorers.compare("two_by_two", state, "here") == []
    # The page still showing the numbers of a = 8 (the dead slider) is caught.
    stale = two_by_two_values(8, 2, 1, 9)
    values = {k: {"text": format(v, ".3f"), "value": repr(v)} for k, v in stale.items()}
    problems = check_explorers.compare("two_by_two", {"controls": controls, "values": values}, "x")
    assert any("kappa" in p and "kappalib" in p for p in problems)
    # Undefined values must be null on the page and written "undefined".
    controls = {"a": "10", "b": "0", "c": "0", "d": "0", "preset": ""}
    values = {k: {"text": "undefined", "value": "null"} for k in ("kappa", "mcc")}
    values |= {k: {"text": "1.000", "value": "1"} for k in ("p_o", "p_e", "pabak")}
    assert (
        check_explorers.compare("two_by_two", {"controls": controls, "values": values}, "x") == []
    )
