"""Recompute chapter 13's stored coverage simulation of the many-rater intervals.

Chapter 13 (``book/13_many_rater_intervals.ipynb``, section "Coverage") measures how often
each 95% interval of ``kl.ratings_confint`` covers the population value, over 1,000 seeded
rating sets for each scenario and number of units: 66,000 intervals, 42,000 of them
bootstraps of 999 resamples, a few minutes.  The chapter therefore stores the counts in one
cell (``COVERAGE`` and ``COVERAGE_FIRST_100``, the same counts over the first 100 rating sets
of each cell), and this script computes them.

It runs the chapter's own code, not a copy: it executes, in order, the chapter's code cells
that define what the simulation needs (the imports, ``SCENARIOS``, ``SIZES``, ``INTERVALS``,
``draw_ratings``, ``population_values``, ``simulate_cell``), then runs ``simulate_cell`` on
every cell and compares the result with the stored one.  Replication ``r`` of a cell has its
own seed, so any part of a cell can be recomputed alone (``--first 100``).

    .venv/bin/python tools/ch13_coverage.py            # recompute all, compare, print the cell
    .venv/bin/python tools/ch13_coverage.py --check    # exit 1 when a stored count differs
    .venv/bin/python tools/ch13_coverage.py --write    # store the recomputation in the chapter

After a change that moves a count (a new kappalib formula, a new scenario), run ``--write``,
fix the prose, and re-execute the chapter.  ``tests/test_ch13_cache.py`` recomputes the
first 100 rating sets of two cells in ``make test``.  The chapter is read as JSON (the
standard library), so the script and its test need no Jupyter package.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import io
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHAPTER = ROOT / "book" / "13_many_rater_intervals.ipynb"
NEEDED = {"SCENARIOS", "SIZES", "INTERVALS", "draw_ratings", "population_values", "simulate_cell"}
STORED = ("COVERAGE", "COVERAGE_FIRST_100")
HEADER = "# The stored simulation (tools/ch13_coverage.py computes it; do not edit by hand)."


def _source(cell: dict) -> str:
    src = cell["source"]
    return src if isinstance(src, str) else "".join(src)


def _top_level_names(tree: ast.Module) -> set[str]:
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                names |= {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}
    return names


def chapter_namespace(chapter: Path = CHAPTER) -> tuple[dict, dict]:
    """Run the chapter's cells that the simulation needs; its namespace and the store."""
    os.environ.setdefault("MPLBACKEND", "agg")
    nb = json.loads(chapter.read_text())
    namespace: dict = {"__name__": "ch13"}
    stored: dict = {}
    for cell in nb["cells"]:
        source = _source(cell)
        if cell["cell_type"] != "code" or "%pip" in source:
            continue
        tree = ast.parse(source)
        names = _top_level_names(tree)
        if names & set(STORED):
            for node in tree.body:  # literals: read them without running the cell
                if isinstance(node, ast.Assign):
                    for t in node.targets:
                        if isinstance(t, ast.Name) and t.id in STORED:
                            stored[t.id] = ast.literal_eval(node.value)
            continue
        only_imports = all(isinstance(n, ast.Import | ast.ImportFrom) for n in tree.body)
        if only_imports or names & NEEDED:
            with contextlib.redirect_stdout(io.StringIO()):
                exec(compile(tree, f"{chapter.name} cell", "exec"), namespace)
    missing = NEEDED - namespace.keys()
    if missing:
        raise SystemExit(
            f"ch13_coverage.py: {chapter.name} no longer defines {sorted(missing)}; update "
            "NEEDED in this script"
        )
    return namespace, stored


def recompute(namespace: dict, cells=None, first: int | None = None) -> dict:
    """{"scenario n": {interval: [hits, defined, zero width]}} over all replications of each
    cell, or over the first ``first`` of them."""
    ns = namespace
    cells = cells or [f"{name} {n}" for name in ns["SCENARIOS"] for n in ns["SIZES"]]
    out = {}
    for cell in cells:
        name, n = cell.rsplit(" ", 1)
        kw = {} if first is None else {"reps": first}
        out[cell] = ns["simulate_cell"](name, int(n), **kw)
    return out


def as_cell(full: dict, first: dict) -> str:
    lines = [HEADER, "# cell -> interval -> [covers, defined, zero width] over the rating sets"]
    for label, table in (("COVERAGE", full), ("COVERAGE_FIRST_100", first)):
        lines.append(f"{label} = {{")
        for cell, counts in table.items():
            lines.append(f"    {cell!r}: {{")
            lines += [f"        {k!r}: {v!r}," for k, v in counts.items()]
            lines.append("    },")
        lines.append("}")
    return "\n".join(lines).replace("'", '"') + "\n"


def write(full: dict, first: dict, chapter: Path = CHAPTER) -> None:
    nb = json.loads(chapter.read_text())
    for cell in nb["cells"]:
        if cell["cell_type"] == "code" and _source(cell).startswith(HEADER):
            cell["source"] = as_cell(full, first).splitlines(keepends=True)
            break
    else:
        raise SystemExit(f"ch13_coverage.py: no cell of {chapter.name} starts with {HEADER!r}")
    chapter.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 on a difference")
    parser.add_argument("--write", action="store_true", help="store the result in the chapter")
    args = parser.parse_args(argv)
    namespace, stored = chapter_namespace()
    full = recompute(namespace)
    first = recompute(namespace, first=100)
    if args.write:
        write(full, first)
        print(f"stored {len(full)} cells in {CHAPTER.name}; re-execute the chapter")
        return 0
    print(as_cell(full, first))
    differ = [
        (label, cell)
        for label, table in (("COVERAGE", full), ("COVERAGE_FIRST_100", first))
        for cell in table
        if stored.get(label, {}).get(cell) != table[cell]
    ]
    for label, cell in differ:
        print(f"{label}[{cell!r}] differs from the stored counts")
    if differ:
        return 1 if args.check else 0
    print(f"all {len(full)} stored cells of {CHAPTER.name} agree with the recomputation")
    return 0


if __name__ == "__main__":
    sys.exit(main())
