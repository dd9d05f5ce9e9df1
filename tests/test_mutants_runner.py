"""The runner of ``make mutants`` (tests/mutants.py) fails where it should.

Three planted mutants and one real one, in one run of the runner (forked sessions, as in
``make mutants``): a no-op wrapper no test can kill must be reported SURVIVED and fail the
run; a mutant whose focus misses must still be killed by the fallback, and say so; a mutant
that hangs must be stopped at the timeout and count as not killed.  UNIT is cut to one file
so that the survivor's fallback stays short.
"""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

PLANTS = textwrap.dedent(
    """
    import sys
    import time

    sys.path.insert(0, "tests")
    import mutants

    mutants.MUTANTS.update(
        {
            "planted_survivor": ("pabak", "no-op", lambda f: lambda C: f(C)),
            "planted_wrong_focus": ("bias_index", "sign", lambda f: lambda C: -f(C)),
            "planted_hang": ("pabak", "hangs", lambda f: lambda C: time.sleep(3600)),
        }
    )
    undefined = "tests/test_undefined.py::test_undefined_error_is_a_value_error"
    mutants.FOCUS["planted_survivor"] = [undefined]
    mutants.FOCUS["planted_wrong_focus"] = [undefined]
    oracles = "tests/test_oracles.py::"
    mutants.FOCUS["planted_hang"] = [oracles + "test_pabak_for_more_than_two_classes"]
    mutants.FOCUS["bias_index_sign"] = [oracles + "test_bias_and_prevalence_index_signs"]
    mutants.UNIT = ["tests/test_oracles.py"]
    mutants.TIMEOUT = 5
    sys.exit(mutants.main(sys.argv[1:]))
    """
)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="the planted mutants reach forked sessions")
def test_survivor_fallback_and_timeout(tmp_path):
    script = tmp_path / "plants.py"
    script.write_text(PLANTS)
    names = ["planted_survivor", "planted_wrong_focus", "planted_hang", "bias_index_sign"]
    env = {k: v for k, v in os.environ.items() if k != "KAPPALIB_MUTANT"}
    # kappalib from this checkout also where it is not installed (the floor environment)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    out = subprocess.run(
        [sys.executable, str(script), *names],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
    )
    rows = {line.split()[0]: line for line in out.stdout.splitlines() if line.split()}
    assert out.returncode == 1, out.stdout + out.stderr
    assert "SURVIVED (by neither its focus nor UNIT)" in rows["planted_survivor"]
    wrong = rows["planted_wrong_focus"]
    assert "test_oracles.py::test_bias_and_prevalence_index_signs (focus missed)" in wrong
    assert "SURVIVED (timed out: its pytest session killed after 5 s)" in rows["planted_hang"]
    assert "test_oracles.py::test_bias_and_prevalence_index_signs" in rows["bias_index_sign"]
    assert "(focus missed)" not in rows["bias_index_sign"]
    assert "2 of 4 mutants killed" in out.stdout
    assert "SURVIVORS (each marks a missing oracle): planted_survivor, planted_hang" in out.stdout
