"""The coverage of the Bland-Altman intervals (issue 34): tools/ba_coverage.py's committed
result, its tolerances, and chapter 10's copy of it.

The simulation (4,000 seeded draws per cell; the binomial standard error of a 95% coverage is
0.0034) takes a few minutes, so its result is committed (tools/ba_coverage.json).  Here:

* every exact interval (one pair per unit) covers 95% within 4 standard errors;
* every MOVER interval (replicates) covers at least 95% - 4 standard errors (it may be
  conservative: about 0.97 with 10 units);
* the approximate interval of Bland & Altman (1986) falls short at 10 units (0.93), as
  Carkeet (2015) found, and not at 100;
* one cell is recomputed with the script's own code, so the file is its output;
* chapter 10 quotes the same numbers.
"""

import ast
import json
import math
import sys

import pytest
from ratings_data import ROOT

sys.path.insert(0, str(ROOT / "tools"))
import ba_coverage

# It checks the stored results of tools/ and of a chapter, not kappalib: the toolchain (make test).
pytestmark = pytest.mark.toolchain

RESULT = json.loads((ROOT / "tools" / "ba_coverage.json").read_text())
SE = math.sqrt(0.95 * 0.05 / RESULT["reps"])


def cells(prefix):
    return {k: v for k, v in RESULT["coverage"].items() if k.startswith(prefix)}


def test_the_table_is_complete():
    assert RESULT["reps"] == ba_coverage.REPS and RESULT["seed"] == ba_coverage.SEED
    want = {f"{d}, n = {n}" for d in ba_coverage.DESIGNS for n in ba_coverage.SIZES}
    assert set(RESULT["coverage"]) == want


def test_exact_intervals_cover_95_percent():
    for key, values in cells("two methods, exact").items():
        for v in values:
            assert abs(v - 0.95) <= 4 * SE, (key, values)


def test_mover_intervals_cover_at_least_95_percent():
    for prefix in ("constant", "varying"):
        for key, values in cells(prefix).items():
            for v in values:
                assert 0.95 - 4 * SE <= v <= 0.99, (key, values)


def test_the_approximate_interval_falls_short_in_small_samples():
    small = RESULT["coverage"]["two methods, approximate, n = 10"]
    assert max(small[1:]) < 0.95 - 4 * SE  # both limits
    large = RESULT["coverage"]["two methods, approximate, n = 100"]
    assert all(abs(v - 0.95) <= 4 * SE for v in large)


def test_one_cell_is_the_scripts_output():
    design, n = "two methods, exact", 10
    got = ba_coverage.coverage(design, n, RESULT["reps"], RESULT["seed"])
    assert got == RESULT["coverage"][f"{design}, n = {n}"]


def test_chapter_10_quotes_the_committed_result():
    nb = json.loads((ROOT / "book" / "10_which_coefficient.ipynb").read_text())
    for cell in nb["cells"]:
        src = "".join(cell["source"])
        if cell["cell_type"] == "code" and "BA_COVERAGE = " in src:
            tree = ast.parse(src)
            for node in tree.body:
                if isinstance(node, ast.Assign) and node.targets[0].id == "BA_COVERAGE":
                    assert ast.literal_eval(node.value) == RESULT["coverage"]
                    return
    pytest.fail("chapter 10 has no BA_COVERAGE cell")
