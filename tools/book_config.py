"""The book's configuration with another execution mode, for a build that reuses outputs.

``make book`` executes every chapter (``_config.yml``: ``execute_notebooks: force``).
``make book EXECUTE=off`` (and ``make pdf EXECUTE=off``) build from the committed, executed
notebooks instead; ``.ci/run`` does so after ``make test``, whose nbval step has executed each
chapter from a fresh kernel and compared its outputs with the committed ones.  This script
writes that configuration: ``_config.yml`` with ``execute: execute_notebooks`` replaced (and
the local extensions' folders made absolute, because Jupyter Book resolves them against the
folder of the configuration file).

With ``off`` it first checks what a build without execution relies on, and fails if a chapter
(``book/[0-9][0-9]_*.ipynb``) is not committed executed: a code cell without an execution
count, counts that are not 1, 2, ..., n from the top (a notebook run out of order, or partly),
or an error in an output that is not tagged ``raises-exception``.  nbval cannot see this
itself: it does not compare a cell that was never executed.

    python tools/book_config.py --execute off --out _build/config-off/_config.yml
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MODES = ("force", "off", "cache", "auto")


def unexecuted(root: Path | None = None) -> list[str]:
    """Every way in which a chapter is not committed executed, in order, from the top."""
    root = ROOT if root is None else root
    problems = []
    for path in sorted((root / "book").glob("[0-9][0-9]_*.ipynb")):
        cells = json.loads(path.read_text())["cells"]
        code = [c for c in cells if c["cell_type"] == "code"]
        counts = [c.get("execution_count") for c in code]
        if counts != list(range(1, len(code) + 1)):
            where = next(i for i, n in enumerate(counts, 1) if n != i)
            problems.append(
                f"{path.name}: code cell {where} of {len(code)} has execution count "
                f"{counts[where - 1]} (want 1..{len(code)} in order: re-run it with "
                f"`.venv/bin/jupyter execute --inplace book/{path.name}`)"
            )
        for i, cell in enumerate(code, 1):
            tags = cell.get("metadata", {}).get("tags", [])
            if "raises-exception" in tags:
                continue
            if any(o.get("output_type") == "error" for o in cell.get("outputs", [])):
                problems.append(f"{path.name}: code cell {i} stores an error output")
    return problems


def config(mode: str, root: Path | None = None) -> dict:
    import yaml

    root = ROOT if root is None else root
    data = yaml.safe_load((root / "_config.yml").read_text())
    data["execute"]["execute_notebooks"] = mode
    sphinx = data.get("sphinx", {})
    if "local_extensions" in sphinx:
        sphinx["local_extensions"] = {
            name: str((root / folder).resolve())
            for name, folder in sphinx["local_extensions"].items()
        }
    return data


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--execute", choices=MODES, required=True)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    if args.execute == "off":
        problems = unexecuted()
        if problems:
            print("book_config.py: a build without execution shows the committed outputs, but:")
            for problem in problems:
                print(f"- {problem}")
            return 1
    import yaml

    args.out.parent.mkdir(parents=True, exist_ok=True)
    header = (
        f"# Written by tools/book_config.py from _config.yml (execute_notebooks: "
        f"{args.execute}); do not edit.\n"
    )
    args.out.write_text(header + yaml.safe_dump(config(args.execute), sort_keys=False))
    print(f"{args.out}: _config.yml with execute_notebooks: {args.execute}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
