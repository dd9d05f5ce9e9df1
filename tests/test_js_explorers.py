"""The page's explorer arithmetic (book/_static/explorers/explorer_math.mjs) against kappalib.

kappalib is the oracle: this test writes, from kappalib.widgets' own state functions, the
values every explorer shows at random states (seeded) into a JSON file, and node's test runner
(tests/js/explorers_math.test.mjs) recomputes each case with the page's module and compares
to 1e-9. A formula changed in kappalib (or in its twin) without the other fails here. It also
checks that explorers.json, which the page reads, says what the widgets use.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from kappalib import widgets
from kappalib.widgets import explorer_definition

pytestmark = pytest.mark.toolchain

ROOT = Path(__file__).resolve().parent.parent
TEST = ROOT / "tests/js/explorers_math.test.mjs"


def clean(x):
    """JSON-able: arrays to lists, NaN and None to null, numpy scalars to float."""
    if isinstance(x, dict):
        return {k: clean(v) for k, v in x.items()}
    if isinstance(x, (list, tuple, np.ndarray)):
        return [clean(v) for v in x]
    if x is None:
        return None
    if isinstance(x, (bool, str)):
        return x
    x = float(x)
    return None if math.isnan(x) else x


def cases() -> dict:
    rng = np.random.default_rng(2025)
    out: dict[str, list] = {k: [] for k in ("two_by_two", "prevalence", "coefficients")}
    out |= {k: [] for k in ("weighted", "mcc_family", "families", "steps")}
    tables = [p["values"] for p in explorer_definition("two_by_two")["presets"]]
    tables = [[t[k] for k in "abcd"] for t in tables] + [[0, 0, 0, 0], [5, 0, 0, 0], [0, 0, 0, 7]]
    tables += rng.integers(0, 51, size=(200, 4)).tolist()
    for t in tables:
        out["two_by_two"].append({"args": t, "want": clean(widgets.two_by_two_values(*t))})

    grid = np.linspace(0.005, 0.995, 199)
    rates = [(0.9, 0.7), (0.9, 0.9), (1.0, 1.0), (0.0, 1.0), (0.5, 0.5), (0.0, 0.0)]
    rates += np.round(rng.uniform(0, 1, size=(30, 2)), 2).tolist()
    for s, t in rates:
        c = widgets.prevalence_curves(s, t, grid)
        out["prevalence"].append({"args": [s, t], "want": clean(c._asdict())})
        n = int(rng.integers(2, 500))
        for n_cases in (100, n):
            c = widgets.coefficient_curves(s, t, grid, n_cases=n_cases)
            out["coefficients"].append({"args": [s, t, n_cases], "want": clean(c._asdict())})

    matrices = [m.tolist() for m, _ in widgets.WEIGHTED_EXAMPLES.values()]
    matrices += rng.integers(0, 30, size=(30, 3, 3)).tolist()
    matrices += rng.integers(0, 30, size=(10, 5, 5)).tolist()
    matrices += [[[5, 0, 0], [0, 0, 0], [0, 0, 0]]]  # one class only: kappa undefined
    for M in matrices:
        for weighting in (None, "linear", "quadratic"):
            s = widgets.weighted_contributions(M, weighting)
            want = {
                k: getattr(s, k)
                for k in ("W", "observed", "expected", "observed_total", "expected_total", "kappa")
            }
            out["weighted"].append({"args": [M, weighting], "want": clean(want)})

    for family in widgets.MCC_FAMILIES:
        points = [(0.2, 5.0), (0.0, 0.0), (0.0, 3.0), (5.0, 30.0)]
        points += (np.round(rng.uniform([0, 0], [5, 30], size=(8, 2)) / 0.05) * 0.05).tolist()
        for a, b in [tuple(map(float, p)) for p in points]:
            n_points = 601 if (a, b) == (0.2, 5.0) else 61
            v = widgets.mcc_family_values(family, a, b, n_points=n_points)
            out["mcc_family"].append({"args": [family, a, b, n_points], "want": clean(v)})

    for name in widgets.FAMILY_NAMES:
        for n in (2, 3, 5, 10) if name == "ZA" else (3,):
            low, high, default = widgets.family_range(name, n)
            # The step of the explorer's own A slider (a power of ten, at most range / 1000).
            step = widgets.family_explorer(name, n_classes=n).children[0].children[2].step
            out["steps"].append({"args": [name, n], "want": [low, high, default, step]})
            for A in [default, low, high, *rng.uniform(low, high, size=3).round(1)]:
                state = widgets.family_state(name, float(A), n, n_grid=201 if A == default else 21)
                state.pop("name"), state.pop("label")
                out["families"].append(
                    {"args": [name, float(A), n, len(state["grid"])], "want": clean(state)}
                )
    return out


@pytest.fixture(scope="module")
def node():
    exe = shutil.which("node")
    if exe is None:
        if os.environ.get("CI"):
            pytest.fail("node is needed for the page's explorer tests (it comes with npm)")
        pytest.skip("node is not installed")
    return exe


def test_explorer_math_matches_kappalib(node, tmp_path):
    path = tmp_path / "explorer_cases.json"
    data = cases()
    path.write_text(json.dumps(data), encoding="utf-8")
    env = dict(os.environ, EXPLORER_CASES=str(path))
    run = subprocess.run(
        [node, "--test", str(TEST)], env=env, capture_output=True, text=True, cwd=ROOT
    )
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert sum(len(v) for v in data.values()) > 500


def test_the_definition_is_what_the_widgets_use():
    """explorers.json names each widget's function and the figure before it in its chapter."""
    definitions = json.loads((ROOT / "kappalib/widgets/explorers.json").read_text())["explorers"]
    for key, entry in definitions.items():
        assert callable(getattr(widgets, entry["python"])), key
        notebooks = list((ROOT / "book").glob(f"{entry['chapter']}_*.ipynb"))
        assert len(notebooks) == 1, key
        text = notebooks[0].read_text(encoding="utf-8")
        assert f'"name": "{entry["figure"]}"' in text, (key, entry["figure"])
        assert entry["python"] + "(" in text, key


def test_the_explorers_defaults_are_the_definitions():
    """The defaults written in the explorer functions' signatures (readable in the API page)
    are the definition's, which the web page starts from: a change to one without the other
    fails here."""
    import inspect

    for key in ("two_by_two", "prevalence", "mcc_family", "families", "coefficients"):
        entry = explorer_definition(key)
        signature = inspect.signature(getattr(widgets, entry["python"])).parameters
        for control in entry["controls"]:
            if control["name"] in signature and control["default"] is not None:
                assert signature[control["name"]].default == control["default"], (key, control)
    values = inspect.signature(widgets.mcc_family_values).parameters
    for name in ("family", "a", "b"):
        assert values[name].default == signature_default("mcc_family", name)


def signature_default(key, name):
    return next(c["default"] for c in explorer_definition(key)["controls"] if c["name"] == name)
