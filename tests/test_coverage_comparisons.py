"""The committed coverage of kl.kappa_difference's and kl.clustered_kappa's intervals
(tools/coverage_comparisons.json, from tools/coverage_comparisons.py: 1,000 seeded data sets
per cell from populations whose kappas are known exactly).

The stored counts are recomputed here for the first replications of every analytic cell and
of one bootstrap cell per study (each replication has its own seed), and the coverages
themselves are held to what the chapters and the docstrings claim: within 5 Monte Carlo
standard errors (0.035) of 95% for every interval that respects the design, and below 90%
for the Wald interval that treats clustered cases as independent.
"""

import importlib.util
import math
import sys
from pathlib import Path

import pytest

# It checks the stored results of tools/ and of a chapter, not kappalib: the toolchain (make test).
pytestmark = pytest.mark.toolchain

ROOT = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location(
    "coverage_comparisons", ROOT / "tools" / "coverage_comparisons.py"
)
cc = importlib.util.module_from_spec(spec)
sys.modules["coverage_comparisons"] = cc
spec.loader.exec_module(cc)

STORED = cc.stored()
CELLS = cc.cells()


def _key(c):
    return (c["study"], c["scenario"], c["n"], c["method"])


def test_every_cell_is_stored_with_its_settings():
    assert [_key(c) for c in STORED["cells"]] == [_key(c) for c in CELLS]
    assert STORED["reps"] == cc.REPS and STORED["seed"] == cc.SEED
    assert STORED["n_resamples"] == cc.N_RESAMPLES and STORED["confidence_level"] == cc.LEVEL
    for c in STORED["cells"]:
        assert c["defined"] == c["reps"] == cc.REPS  # no undefined interval in these designs


RECOMPUTED = [
    i
    for i, c in enumerate(CELLS)
    if c["method"] in ("analytic", "independent")
    or (c["method"] == "bca" and c["n"] == min(x["n"] for x in CELLS if x["study"] == c["study"]))
]


@pytest.mark.parametrize("i", RECOMPUTED, ids=lambda i: "-".join(map(str, _key(CELLS[i]))))
def test_the_first_replications_are_recomputed(i):
    row = cc.run_cell(i, CELLS[i], cc.FIRST)
    assert row["covered"] == STORED["cells"][i]["covered_first"]


def test_the_coverage_claims():
    se = math.sqrt(0.95 * 0.05 / cc.REPS)
    for c in STORED["cells"]:
        coverage = c["covered"] / c["defined"]
        if c["method"] == "independent":
            assert coverage < 0.90, c
        else:
            assert abs(coverage - 0.95) <= 5 * se, c


def test_chapter_11_shows_the_stored_counts():
    """Chapter 11's going-deeper part prints the stored coverage from a literal (a chapter
    runs alone, without tools/): it must be the file's."""
    import ast
    import json

    nb = json.loads((ROOT / "book" / "11_uncertainty.ipynb").read_text(encoding="utf-8"))
    src = next(
        "".join(c["source"])
        for c in nb["cells"]
        if c["cell_type"] == "code" and "COMPARISON_COVERAGE = {" in "".join(c["source"])
    )
    tree = ast.parse(src)
    literal = next(
        n.value
        for n in tree.body
        if isinstance(n, ast.Assign) and n.targets[0].id == "COMPARISON_COVERAGE"
    )
    shown = ast.literal_eval(literal)
    assert shown == {_key(c): c["covered"] for c in STORED["cells"]}
