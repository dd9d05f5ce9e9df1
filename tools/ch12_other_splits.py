"""Recompute chapter 12's stored result: the ranking search with four other fold shuffles.

Chapter 12 (``book/12_real_classifiers.ipynb``, section "Rankings") asks whether kappa and MCC
order pairs of real classifiers differently, on one shuffle of the cross-validation folds, and
then on four other shuffles (``random_state`` 1 to 4).  Those four retrain the 25 real models
of the three datasets four times (300 fits): most of the chapter's execution time, and on a
busy machine more than a minute.  The chapter therefore stores their results in one cell
(``OTHER_SPLITS``), and this script computes them.

It runs the chapter's own code, not a copy: it executes, in order, the chapter's code cells
that define what the search needs (the imports, ``DATASETS``, ``MODELS`` and
``cross_validate``, ``REAL``, ``split_search``), then runs ``split_search`` on each stored
shuffle and compares the result with the stored one.

    .venv/bin/python tools/ch12_other_splits.py          # recompute, compare, print the dict
    .venv/bin/python tools/ch12_other_splits.py --check  # exit 1 when a stored result differs

After a change that moves a result (a new scikit-learn pin, a new model), paste the printed
``OTHER_SPLITS`` into the chapter, fix the prose, and re-execute the chapter.
``tests/test_ch12_cache.py`` runs the comparison in ``make test``.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import io
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHAPTER = ROOT / "book" / "12_real_classifiers.ipynb"
# The names whose defining cells the search needs, and the cell that stores the results.
NEEDED = {"DATASETS", "MODELS", "CV", "cross_validate", "REAL", "split_search", "same_search"}
STORED = "OTHER_SPLITS"


def top_level_names(tree: ast.Module) -> set[str]:
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
    """Run the chapter's cells the search needs; its namespace and the stored results."""
    import nbformat

    os.environ.setdefault("MPLBACKEND", "agg")
    nb = nbformat.read(chapter, as_version=4)
    namespace: dict = {"__name__": "ch12"}
    stored = None
    for cell in nb.cells:
        if cell.cell_type != "code" or cell.source.lstrip().startswith(("%", "#!")):
            continue
        if "%pip" in cell.source:  # the install cell (Colab only)
            continue
        tree = ast.parse(cell.source)
        names = top_level_names(tree)
        only_imports = all(isinstance(n, ast.Import | ast.ImportFrom) for n in tree.body)
        if STORED in names:
            # A literal: read it without running the cell (which would assert on it).
            for node in tree.body:
                if isinstance(node, ast.Assign) and any(
                    isinstance(t, ast.Name) and t.id == STORED for t in node.targets
                ):
                    stored = ast.literal_eval(node.value)
            break
        if only_imports or names & NEEDED:
            with contextlib.redirect_stdout(io.StringIO()):
                exec(compile(tree, f"{chapter.name} cell", "exec"), namespace)
    missing = NEEDED - namespace.keys()
    if missing or stored is None:
        raise SystemExit(
            f"ch12_other_splits.py: {chapter.name} no longer defines {sorted(missing)}"
            f"{'' if stored is not None else ' and ' + STORED}; update NEEDED in this script"
        )
    return namespace, stored


def recompute(namespace: dict, seeds) -> dict:
    """split_search() of each shuffle, real models only, as the chapter's cell does it."""
    from sklearn.model_selection import StratifiedKFold

    ns = namespace
    results = {}
    for seed in seeds:
        cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=seed)
        mats = {
            dname: ns["cross_validate"](X, y, models=ns["REAL_MODELS"], cv=cv)[1]
            for dname, (X, y) in ns["DATASETS"].items()
        }
        results[seed] = ns["split_search"](mats)
    return results


def as_literal(results: dict) -> str:
    lines = [f"{STORED} = {{  # random_state: split_search() of that shuffle"]
    for seed, (n_opp, n_pooled, biggest, worst, where) in results.items():
        lines.append(f"    {seed}: ({n_opp}, {n_pooled}, {biggest:.4f}, {worst:.2f}, {where!r}),")
    lines.append("}")
    return "\n".join(lines).replace("'", '"')


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 on a difference")
    args = parser.parse_args(argv)
    namespace, stored = chapter_namespace()
    results = recompute(namespace, stored)
    same = namespace["same_search"]
    differ = [seed for seed in stored if not same(results[seed], stored[seed])]
    print(as_literal(results))
    for seed in differ:
        print(f"random_state={seed}: stored {stored[seed]}, recomputed {results[seed]}")
    if differ:
        print(f"{len(differ)} of {len(stored)} stored results differ from the recomputation")
        return 1 if args.check else 0
    print(f"all {len(stored)} stored results of {CHAPTER.name} agree with the recomputation")
    return 0


if __name__ == "__main__":
    sys.exit(main())
