"""Execute each chapter from a fresh kernel and print a table of seconds per chapter.

``make chapter-times`` runs this: every ``book/[0-9][0-9]_*.ipynb`` (or the notebooks named on
the command line), one after another, each in a fresh kernel of the course's environment, from
a temporary copy (the committed notebooks are never rewritten).  The table gives each chapter's
wall time (kernel start to last cell), its slowest cell, and whether it is within the design's
budget: 15 s per chapter, 30 s for the chapters that train models (``SLOW``), and 60 s for any
chapter on a loaded machine (a load average of 4 on 2 cores).  It also prints the load average
before and after, because on a shared machine the times move with the neighbours' work.

    .venv/bin/python tools/chapter_times.py                  # every chapter, once
    .venv/bin/python tools/chapter_times.py --repeat 3       # the median of 3 runs
    .venv/bin/python tools/chapter_times.py book/12_*.ipynb --cells 5

The cell timeout of ``_config.yml`` (``execute: timeout``) is derived from this table: see
CONTRIBUTING.md.  Exit status 1 if a chapter fails or, with ``--check``, misses its budget.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
QUIET_BUDGET = 15.0  # seconds per chapter on a quiet 2-core machine (DESIGN.md, Performance)
SLOW = {"12_real_classifiers": 30.0}  # chapters that train models
LOADED_BUDGET = 60.0  # any chapter at a load average of 4 (issue 24)


def budget(path: Path) -> float:
    return SLOW.get(path.stem, QUIET_BUDGET)


def execute(path: Path, timeout: int) -> tuple[float, list[tuple[float, int, str]]]:
    """Run one notebook from a fresh kernel; its wall time and per-cell times."""
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    cells: list[tuple[float, int, str]] = []

    class Timed(NotebookClient):
        async def async_execute_cell(self, cell, cell_index, *args, **kwargs):
            t = time.perf_counter()
            try:
                return await super().async_execute_cell(cell, cell_index, *args, **kwargs)
            finally:
                if cell.cell_type == "code":
                    first = next((ln for ln in cell.source.splitlines() if ln.strip()), "")
                    cells.append((time.perf_counter() - t, cell_index, first[:50]))

    # Run where the chapter lives (as the book build does); the notebook is read, never written.
    client = Timed(
        nb,
        kernel_name="python3",
        timeout=timeout,
        startup_timeout=240,
        # ipykernel's warning about TCP without encryption, once per chapter, into the table
        extra_arguments=["--IPKernelApp.log_level=ERROR"],
        resources={"metadata": {"path": str(path.parent)}},
    )
    t0 = time.perf_counter()
    client.execute()
    return time.perf_counter() - t0, cells


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="*", type=Path, help="default: every chapter")
    parser.add_argument("--repeat", type=int, default=1, help="runs per chapter (median)")
    parser.add_argument("--cells", type=int, default=1, help="slowest cells to list")
    parser.add_argument("--timeout", type=int, default=600, help="seconds per cell")
    parser.add_argument(
        "--check", action="store_true", help="exit 1 when a chapter misses its quiet budget"
    )
    parser.add_argument(
        "--loaded", action="store_true", help="with --check: the loaded budget (60 s) instead"
    )
    args = parser.parse_args(argv)
    notebooks = args.notebooks or sorted((ROOT / "book").glob("[0-9][0-9]_*.ipynb"))
    load0 = os.getloadavg()
    print(f"load average before: {load0[0]:.2f} (1 min), {load0[1]:.2f} (5 min)", flush=True)
    rows, failed, over = [], [], []
    for path in notebooks:
        path = path.resolve()
        runs, cells = [], []
        for _ in range(args.repeat):
            try:
                took, cells = execute(path, args.timeout)
            except Exception as exc:  # the table still prints the others
                failed.append(f"{path.name}: {type(exc).__name__}: {str(exc)[-300:]}")
                print(f"  {path.name}: FAILED ({type(exc).__name__})", flush=True)
                break
            runs.append(took)
        if not runs:
            continue
        median = statistics.median(runs)
        limit = LOADED_BUDGET if args.loaded else budget(path)
        if median > limit:
            over.append(path.name)
        slowest = sorted(cells, reverse=True)[: args.cells]
        rows.append((path.name, median, runs, limit, slowest))
        print(f"  {path.name}: {median:.1f} s", flush=True)
    load1 = os.getloadavg()

    print()
    width = max((len(r[0]) for r in rows), default=10)
    head = f"{'chapter':{width}s}  {'seconds':>7s}  {'budget':>6s}"
    print(f"{head}  slowest cell (s, index, first line)")
    for name, median, runs, limit, slowest in rows:
        mark = "" if median <= limit else "  OVER"
        spread = f" ({min(runs):.1f}-{max(runs):.1f})" if len(runs) > 1 else ""
        first = slowest[0] if slowest else (0.0, -1, "")
        print(
            f"{name:{width}s}  {median:7.1f}  {limit:6.0f}  "
            f"{first[0]:5.1f} [{first[1]}] {first[2]}{spread}{mark}"
        )
        for t, i, line in slowest[1:]:
            print(f"{'':{width}s}  {'':7s}  {'':6s}  {t:5.1f} [{i}] {line}")
    total = sum(r[1] for r in rows)
    print(f"{'total':{width}s}  {total:7.1f}")
    print(
        f"load average after: {load1[0]:.2f} (1 min); {os.cpu_count()} cores; "
        f"{'median of ' + str(args.repeat) + ' runs' if args.repeat > 1 else 'one run each'}"
    )
    for message in failed:
        print(f"FAILED {message}")
    if failed or (args.check and over):
        if over and args.check:
            print(f"over budget: {', '.join(over)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
