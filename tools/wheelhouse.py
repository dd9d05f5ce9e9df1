"""pip's installs in the tests' throwaway environments, from a local folder of wheels.

The tests that check a reader's route (the README's pip line in ``tests/test_lab.py``, Binder's
build in ``tests/test_publish.py``) run pip as the reader does, in a fresh environment. Online,
pip spends most of such an install fetching and reading the index's page of every package,
one after another: ``binder/requirements.txt`` took 99 s, against 46 s for all of
``requirements-lab.txt`` from local wheels, on the same machine at the same load.

So the wheels of each pinned list are downloaded once into the wheelhouse (a folder beside
pip's own cache, kept between runs; ``KAPPA_WHEELHOUSE`` moves it), and the route's own
command then runs with ``PIP_NO_INDEX`` and ``PIP_FIND_LINKS`` in its environment: the same
command line, and, every version being pinned, the same packages. The download happens again
whenever a list changes (a stamp per list's content), so a pin that PyPI does not have still
fails, there.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WHEELHOUSE = Path(
    os.environ.get("KAPPA_WHEELHOUSE", Path.home() / ".cache" / "kappa-honestly" / "wheelhouse")
)


def build_requires(root: Path = ROOT) -> list[str]:
    """What pip needs to build kappalib from the checkout (pyproject.toml's build-system)."""
    with open(root / "pyproject.toml", "rb") as f:
        return list(tomllib.load(f)["build-system"]["requires"])


def _contents(path: Path, seen: set[Path]) -> str:
    """A requirements file's text with the text of every file it includes with -r."""
    path = path.resolve()
    if path in seen:
        return ""
    seen.add(path)
    text = path.read_text()
    parts = [text]
    for line in text.splitlines():
        line = line.strip()
        if line.startswith(("-r ", "--requirement ")):
            parts.append(_contents(path.parent / line.split(None, 1)[1], seen))
    return "\n".join(parts)


def fill(requirement_files: list[Path], specs: tuple[str, ...] | list[str] = ()) -> None:
    """Download the wheels of ``requirement_files`` and ``specs`` into the wheelhouse, once per
    content (the stamp's name is its hash)."""
    seen: set[Path] = set()
    key = "\n".join([*(_contents(Path(f), seen) for f in requirement_files), *specs])
    stamp = WHEELHOUSE / f".filled-{hashlib.sha256(key.encode()).hexdigest()[:16]}"
    if stamp.is_file():
        return
    WHEELHOUSE.mkdir(parents=True, exist_ok=True)
    cmd = [sys.executable, "-m", "pip", "download", "--quiet", "-d", str(WHEELHOUSE)]
    for f in requirement_files:
        cmd += ["-r", str(f)]
    proc = subprocess.run([*cmd, *specs], capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"pip download into {WHEELHOUSE} failed:\n{proc.stderr[-3000:]}")
    stamp.touch()


def offline(env: dict[str, str]) -> dict[str, str]:
    """``env`` for a pip that installs from the wheelhouse only."""
    return {**env, "PIP_NO_INDEX": "1", "PIP_FIND_LINKS": str(WHEELHOUSE)}
