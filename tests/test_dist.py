"""``make dist``: kappalib's sdist and wheel, with a description of their own, pass twine check.

The wheel's long description is PACKAGE_README.md (what a PyPI visitor reads), not the
course's README with its make targets; its examples run as doctests here.
"""

from __future__ import annotations

import doctest
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

import kappalib

ROOT = Path(__file__).resolve().parents[1]
PACKAGE_README = ROOT / "PACKAGE_README.md"


def test_package_readme_examples_run():
    result = doctest.testfile(str(PACKAGE_README), module_relative=False, verbose=False)
    assert result.attempted >= 3 and result.failed == 0


@pytest.mark.toolchain
@pytest.mark.slow
def test_make_dist_builds_and_checks_sdist_and_wheel(tmp_path):
    out = tmp_path / "dist"
    proc = subprocess.run(
        ["make", "-s", "dist", f"DIST={out}", f"PYTHON={sys.executable}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert proc.stdout.count("PASSED") == 2, proc.stdout  # twine check, one line per file
    version = kappalib.__version__
    wheel = out / f"kappalib-{version}-py3-none-any.whl"
    sdist = out / f"kappalib-{version}.tar.gz"
    assert sorted(p.name for p in out.iterdir()) == sorted([wheel.name, sdist.name])
    with zipfile.ZipFile(wheel) as zf:
        metadata = zf.read(f"kappalib-{version}.dist-info/METADATA").decode()
        in_wheel = set(zf.namelist())
    # every module of every stage and every data file (the report's words, the data sets, the
    # explorers' controls) is in the wheel
    shipped = {
        str(p.relative_to(ROOT))
        for p in (ROOT / "kappalib").rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    }
    assert "kappalib/_shared/report_words.json" in shipped
    assert shipped <= in_wheel, sorted(shipped - in_wheel)
    description = metadata.split("\n\n", 1)[1]
    assert "Description-Content-Type: text/markdown" in metadata
    assert description.strip() == PACKAGE_README.read_text().strip()
    assert "make book" not in description  # not the course's README
    with tarfile.open(sdist) as tf:
        names = tf.getnames()
    assert f"kappalib-{version}/PACKAGE_README.md" in names
    assert f"kappalib-{version}/kappalib/__init__.py" in names
