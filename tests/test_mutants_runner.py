"""The runner of ``make mutants`` (tests/mutants.py) fails where it should.

Three planted mutants and one real one, in one run of the runner (forked sessions, as in
``make mutants``): a no-op wrapper no test can kill must be reported SURVIVED and fail the
run; a mutant whose focus misses must still be killed by the fallback, and say so; a mutant
that blocks until it is killed must be killed at its timeout, with its whole session, and
count as not killed.  FALLBACK is cut to one file so that the survivor's fallback stays short.

Nothing here depends on the wall clock.  The runner reads its timeouts on ``mutants.CLOCK``;
the planted run gives it a clock that stands still until the blocking mutant holds its lock
and then jumps past the blocking mutant's timeout (1 s), while every other session has none.
So the blocking mutant is always killed while it blocks, whatever the machine's load, and the
assertions are about what is reported and what is left running, never about how long it took.
"""

import fcntl
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytestmark = pytest.mark.toolchain

ROOT = Path(__file__).resolve().parents[1]

PLANTS = textwrap.dedent(
    """
    import fcntl
    import math
    import os
    import sys
    import threading

    sys.path.insert(0, "tests")
    import mutants

    LOCK = sys.argv[1]  # held by the blocking mutant for as long as it lives
    BLOCKING = LOCK + ".blocking"  # written once it holds the lock and blocks


    def block_until_killed(C):
        fd = os.open(LOCK, os.O_RDWR | os.O_CREAT, 0o644)
        fcntl.flock(fd, fcntl.LOCK_EX)
        os.close(os.open(BLOCKING, os.O_WRONLY | os.O_CREAT, 0o644))
        threading.Event().wait()  # forever: only a kill ends this session


    def clock():
        # stands still until the mutant blocks, then moves past the blocking one's timeout
        return 1e6 if os.path.exists(BLOCKING) else 0.0


    mutants.MUTANTS.update(
        {
            "planted_survivor": ("pabak", "no-op", lambda f: lambda C: f(C)),
            "planted_wrong_focus": ("bias_index", "sign", lambda f: lambda C: -f(C)),
            "planted_hang": ("pabak", "blocks", lambda f: block_until_killed),
        }
    )
    undefined = "tests/test_undefined.py::test_undefined_error_is_a_value_error"
    mutants.FOCUS["planted_survivor"] = [undefined]
    mutants.FOCUS["planted_wrong_focus"] = [undefined]
    oracles = "tests/test_oracles.py::"
    mutants.FOCUS["planted_hang"] = [oracles + "test_pabak_for_more_than_two_classes"]
    mutants.FOCUS["bias_index_sign"] = [oracles + "test_bias_and_prevalence_index_signs"]
    mutants.FALLBACK = ["tests/test_oracles.py"]
    mutants.CLOCK = clock
    mutants.TIMEOUT = math.inf  # no other session is ever killed
    mutants.TIMEOUTS = {"planted_hang": 1.0}
    sys.exit(mutants.main(sys.argv[2:]))
    """
)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="the planted mutants reach forked sessions")
def test_survivor_fallback_and_timeout(tmp_path):
    script = tmp_path / "plants.py"
    script.write_text(PLANTS)
    lock = tmp_path / "hang.lock"
    names = ["planted_survivor", "planted_wrong_focus", "planted_hang", "bias_index_sign"]
    env = {k: v for k, v in os.environ.items() if k != "KAPPALIB_MUTANT"}
    # kappalib from this checkout also where it is not installed (the floor environment)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    out = subprocess.run(
        [sys.executable, str(script), str(lock), *names],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=3600,  # only so that a runner that never kills the blocking mutant fails
    )
    rows = {line.split()[0]: line for line in out.stdout.splitlines() if line.split()}
    assert out.returncode == 1, out.stdout + out.stderr
    assert "SURVIVED (by neither its focus nor FALLBACK)" in rows["planted_survivor"]
    wrong = rows["planted_wrong_focus"]
    assert "test_oracles.py::test_bias_and_prevalence_index_signs (focus missed)" in wrong
    assert "SURVIVED (timed out: its pytest session killed after 1 s)" in rows["planted_hang"]
    # the mutant did block (the clock moved only then), and nothing of its session is left:
    # the lock it held for as long as it lived is free
    assert Path(str(lock) + ".blocking").exists()
    fd = os.open(lock, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # BlockingIOError if it still runs
    finally:
        os.close(fd)
    assert "test_oracles.py::test_bias_and_prevalence_index_signs" in rows["bias_index_sign"]
    assert "(focus missed)" not in rows["bias_index_sign"]
    assert "2 of 4 mutants killed" in out.stdout
    assert "SURVIVORS (each marks a missing oracle): planted_survivor, planted_hang" in out.stdout
