"""Chapter 13's stored coverage simulation is recomputed in part and checked.

The chapter stores the counts of its coverage simulation (``COVERAGE``: 1,000 rating sets per
scenario and number of units; ``COVERAGE_FIRST_100``: the same counts over the first 100)
instead of computing 66,000 intervals on every execution.  ``tools/ch13_coverage.py`` runs
the chapter's own cells (``simulate_cell`` and what it needs); here it recomputes the first
100 rating sets of two cells, which must give the stored counts exactly (each rating set has
its own seed), and the stored counts must be consistent.  The chapter itself recomputes the
first 100 of a third cell when it executes.  A few seconds.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

pytestmark = pytest.mark.toolchain

ROOT = Path(__file__).resolve().parents[1]


def _script():
    spec = importlib.util.spec_from_file_location(
        "ch13_coverage", ROOT / "tools" / "ch13_coverage.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def chapter():
    script = _script()
    return (script, *script.chapter_namespace())


def test_the_store_covers_every_cell_and_is_consistent(chapter):
    _, ns, stored = chapter
    cells = {f"{name} {n}" for name in ns["SCENARIOS"] for n in ns["SIZES"]}
    intervals = {f"{c} {m}" for c, m in ns["INTERVALS"]}
    for label, reps in (("COVERAGE", ns["REPS"]), ("COVERAGE_FIRST_100", 100)):
        assert set(stored[label]) == cells, label
        for cell, counts in stored[label].items():
            assert set(counts) == intervals, (label, cell)
            for interval, (covers, defined, zero) in counts.items():
                assert 0 <= covers <= defined <= reps, (label, cell, interval)
                assert 0 <= zero <= defined, (label, cell, interval)
                first = stored["COVERAGE_FIRST_100"][cell][interval]
                assert all(a <= b for a, b in zip(first, counts[interval], strict=True))
    # AC1 and BP are defined on every rating set (their chance agreement is below 1)
    for cell, counts in stored["COVERAGE"].items():
        assert counts["ac1 analytic"][1] == counts["bp percentile"][1] == ns["REPS"], cell


@pytest.mark.parametrize("cell", ["rare 30", "common 10"])
def test_the_first_100_rating_sets_agree_with_a_recomputation(chapter, cell):
    script, ns, stored = chapter
    recomputed = script.recompute(ns, [cell], first=100)[cell]
    assert recomputed == stored["COVERAGE_FIRST_100"][cell]
