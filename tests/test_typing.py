"""The types that reach a user (issue 22): a type checker sees kappalib's own signatures
through the ``matrix_function`` decorator (ParamSpec), and one matrix gives a float or None.

mypy (pinned in requirements.txt) runs on a user's script in a temporary folder, against the
checkout's kappalib, and its ``reveal_type`` notes are the oracle.
"""

import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
pytest.importorskip("mypy")

SCRIPT = textwrap.dedent(
    """
    import numpy as np
    import kappalib as kl

    C = [[8, 2], [1, 9]]
    reveal_type(kl.kappa(C))
    reveal_type(kl.mcc(C))
    reveal_type(kl.kappa_confint(C))
    reveal_type(kl.kappa(np.ones((10, 2, 2))))
    reveal_type(kl.cohen_kappa_score([1, 2], [1, 1]))
    reveal_type(kl.krippendorff_alpha([[1, 2], [1, 1]]))
    reveal_type(kl.confusion_matrix([1, 2], [1, 1]))
    kl.kappa(C, weight="linear")
    """
)


@pytest.fixture(scope="module")
def revealed(tmp_path_factory):
    folder = tmp_path_factory.mktemp("typing")
    (folder / "user.py").write_text(SCRIPT)
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--no-incremental",
            "--cache-dir",
            str(folder / "c"),
            "--python-version",
            "3.11",
            str(folder / "user.py"),
        ],
        capture_output=True,
        text=True,
        cwd=folder,
        env={"MYPYPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )
    notes = re.findall(r"user\.py:(\d+): note: Revealed type is \"(.*)\"", run.stdout)
    errors = re.findall(r"user\.py:(\d+): error: (.*)", run.stdout)
    notes = {line: kind.replace("builtins.", "") for line, kind in notes}
    return notes, errors, run.stdout


def _line(text):
    return str(SCRIPT.splitlines().index(text) + 1)


def test_kappa_of_one_matrix_is_float_or_none(revealed):
    notes, _, out = revealed
    assert notes[_line("reveal_type(kl.kappa(C))")] == "float | None", out
    assert notes[_line("reveal_type(kl.mcc(C))")] == "float | None", out
    assert notes[_line("reveal_type(kl.cohen_kappa_score([1, 2], [1, 1]))")] == ("float | None"), (
        out
    )
    assert notes[_line("reveal_type(kl.krippendorff_alpha([[1, 2], [1, 1]]))")] == (
        "float | None"
    ), out
    assert notes[_line("reveal_type(kl.kappa_confint(C))")] == (
        "tuple[float | None, float | None, "
        "fallback=kappalib.results.ConfidenceInterval[float | None]]"
    ), out


def test_a_stack_may_give_an_array_and_the_matrix_keeps_its_type(revealed):
    notes, _, out = revealed
    stack = notes[_line("reveal_type(kl.kappa(np.ones((10, 2, 2))))")]
    assert "ndarray" in stack and "float" in stack, out
    revealed = notes[_line("reveal_type(kl.confusion_matrix([1, 2], [1, 1]))")]
    assert revealed == "kappalib.results.ConfusionMatrix", out


def test_the_decorated_signature_reaches_the_checker(revealed):
    """Before ParamSpec, kl.kappa was Any: a misspelt keyword went unnoticed."""
    _, errors, out = revealed
    lines = {line for line, _ in errors}
    assert lines == {_line('kl.kappa(C, weight="linear")')}, out
