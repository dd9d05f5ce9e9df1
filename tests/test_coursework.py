"""The coursework's problem sets (coursework/, issue 7).

* The released notebooks carry no solution and no hidden test: ``nbgrader
  generate_assignment`` runs into a temporary course directory and the release is searched
  for the nbgrader markers and for the unique ``# sentinel: psN-solution-...`` comment that
  each solution carries.
* Each source notebook has graded cells with points, visible and hidden tests.

The reference solutions themselves run under nbval (``make nbval`` covers coursework/source).
nbgrader comes from requirements-coursework.txt, which ``make test`` installs; without it the
release test is skipped.
"""

import importlib.util
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

COURSE = Path(__file__).resolve().parent.parent / "coursework"
spec = importlib.util.spec_from_file_location("autograde_demo", COURSE / "autograde_demo.py")
demo = importlib.util.module_from_spec(spec)
spec.loader.exec_module(demo)
SETS = demo.problem_sets(COURSE / "source")


def test_three_problem_sets_with_sentinels():
    assert SETS == ["ps1", "ps2", "ps3"]
    for ps in SETS:
        assert demo.sentinels(COURSE / "source", ps), f"{ps} has no solution sentinel"


@pytest.mark.parametrize("ps", SETS)
def test_graded_cells_have_points_and_hidden_tests(ps):
    nb = json.loads((COURSE / "source" / ps / f"{ps}.ipynb").read_text())
    graded = [c for c in nb["cells"] if c["metadata"].get("nbgrader", {}).get("grade")]
    assert graded
    for cell in graded:
        meta, text = cell["metadata"]["nbgrader"], "".join(cell["source"])
        assert meta["points"] > 0 and meta["locked"], meta["grade_id"]
        assert "### BEGIN HIDDEN TESTS" in text and "### END HIDDEN TESTS" in text
        visible = text.split("### BEGIN HIDDEN TESTS")[0]
        assert "assert" in visible and "Hint" in visible, f"{meta['grade_id']}: visible checks"
        assert "kl." in text, f"{meta['grade_id']} must compare against kappalib"


def test_release_has_no_solution_and_no_hidden_test(tmp_path):
    nbgrader = Path(sys.executable).parent / "nbgrader"
    if not nbgrader.exists():
        pytest.skip("nbgrader is not installed (pip install -r requirements-coursework.txt)")
    shutil.copy(COURSE / "nbgrader_config.py", tmp_path)
    shutil.copytree(COURSE / "source", tmp_path / "source")
    env = {"PATH": f"{nbgrader.parent}:/usr/bin:/bin", "HOME": str(tmp_path)}
    for ps in SETS:
        subprocess.run(
            [str(nbgrader), "generate_assignment", ps, "--log-level=ERROR"],
            cwd=tmp_path,
            env=env,
            check=True,
        )
    release = tmp_path / "release"
    assert sorted(p.name for p in release.iterdir()) == SETS
    assert demo.release_leaks(tmp_path / "source", release) == []
    for ps in SETS:
        text = (release / ps / f"{ps}.ipynb").read_text()
        assert "raise NotImplementedError()" in text
