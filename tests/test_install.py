"""The install path that readers take: kappalib as a built wheel, not the editable checkout.

The slow test runs ``tools/wheel_check.py`` (build the sdist and wheel from a copy of the
tracked tree, install the wheel into fresh environments, import every module, execute every
chapter with its install cell pointed at the wheel).  The fast ones check, in the course's own
environment, the promises the packaging makes: ``import kappalib`` loads neither matplotlib nor
ipywidgets, and the plotting and widgets modules name their extra when a dependency is missing.
"""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _python(code: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )


def test_import_kappalib_loads_neither_matplotlib_nor_ipywidgets():
    proc = _python(
        """
        import sys
        import kappalib
        print(sorted(m for m in ("matplotlib", "ipywidgets") if m in sys.modules))
        """
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"


def _import_without(module: str, blocked: str) -> str:
    """The error raised by importing ``module`` while ``blocked`` cannot be imported."""
    proc = _python(
        f"""
        import sys

        sys.modules[{blocked!r}] = None  # as if it were not installed
        try:
            import {module}
        except ImportError as exc:
            print(type(exc).__name__ + ": " + str(exc))
        else:
            print("imported")
        """
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.strip()


def test_plotting_without_matplotlib_names_the_extra():
    message = _import_without("kappalib.plotting", "matplotlib")
    assert message.startswith("ImportError: kappalib.plotting needs matplotlib")
    assert 'pip install "kappalib[plot]"' in message


def test_widgets_without_ipywidgets_or_matplotlib_name_the_extra():
    for blocked in ("ipywidgets", "matplotlib"):
        message = _import_without("kappalib.widgets", blocked)
        assert message.startswith(f"ImportError: kappalib.widgets needs {blocked}"), message
        assert 'pip install "kappalib[widgets]"' in message


@pytest.mark.toolchain
def test_the_extras_are_satisfied_by_the_books_pins():
    """requirements.txt (the book's environment) must satisfy what the extras ask for."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    pinned = dict(
        re.findall(r"^([A-Za-z0-9_.-]+)==(\S+)", (ROOT / "requirements.txt").read_text(), re.M)
    )
    wanted = project["dependencies"] + [
        req for reqs in project["optional-dependencies"].values() for req in reqs
    ]
    for req in wanted:
        name, low = re.fullmatch(r"([A-Za-z0-9_.-]+)>=([\d.]+)", req).groups()
        have = tuple(int(x) for x in pinned[name].split(".")[:2])
        assert have >= tuple(int(x) for x in low.split(".")[:2]), (req, pinned[name])


@pytest.mark.toolchain
@pytest.mark.slow
def test_the_built_wheel_runs_every_chapter():
    """tools/wheel_check.py: fails on a wheel without kappalib/widgets (see its docstring)."""
    proc = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "wheel_check.py")],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=1800,
        check=False,
    )
    print(proc.stdout)
    assert proc.returncode == 0, proc.stdout[-6000:] + proc.stderr[-3000:]
