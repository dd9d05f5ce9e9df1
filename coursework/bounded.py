"""Reading what a student controls, with bounds: size, nesting depth, number and size of cells.

Python's ``json`` parser recurses, so ``[`` nested 100,000 deep raises ``RecursionError``, and a
400-digit integer becomes a Python int that ``float()`` cannot convert. Here the depth is measured
first, in linear time (strings removed, brackets counted with numpy), integers are limited in
length, and a notebook is cut down to what the grader reads (cell type, source, nbgrader
metadata) with limits on the number of cells and on the text they hold. Every refusal is a
``ValueError`` with one sentence.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np

MAX_NOTEBOOK = 16 * 2**20  # bytes of a submitted notebook
MAX_CELLS = 2000
MAX_CODE = 2 * 2**20  # characters of code in all cells together
MAX_DEPTH = 64  # nesting of the notebook's JSON (a notebook needs about 6)

_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)


def json_depth(text: str) -> int:
    """How deep the JSON in `text` nests arrays and objects (strings ignored), in linear time."""
    skeleton = _STRINGS.sub("", text).encode("utf-8", "replace")
    if not skeleton:
        return 0
    b = np.frombuffer(skeleton, dtype=np.uint8)
    step = np.isin(b, (91, 123)).astype(np.int64) - np.isin(b, (93, 125)).astype(np.int64)
    return int(np.cumsum(step).max(initial=0))


def bounded_json(text: str, what: str, *, max_depth: int, max_digits: int = 4300):
    """json.loads with the nesting depth and the length of integers bounded; NaN and
    Infinity become ``{"unsupported": ...}`` (not finite, so not an answer)."""
    depth = json_depth(text)
    if depth > max_depth:
        raise ValueError(f"{what} is nested {depth} deep (at most {max_depth})")

    def integer(s: str) -> int:
        if len(s.lstrip("-")) > max_digits:
            raise ValueError(f"{what} holds an integer of {len(s.lstrip('-'))} digits")
        return int(s)

    def constant(name):
        return {"unsupported": f"non-finite number {name}"}

    return json.loads(text, parse_int=integer, parse_constant=constant)


def read_notebook(path: Path) -> dict:
    """A submitted notebook, bounded: ValueError (one sentence) when it is not one."""
    if path.is_symlink() or not path.is_file():
        raise ValueError("it is not a file")
    size = path.stat().st_size
    if size > MAX_NOTEBOOK:
        raise ValueError(f"it is {size / 2**20:.0f} MiB (at most {MAX_NOTEBOOK // 2**20} MiB)")
    text = path.read_bytes()[:MAX_NOTEBOOK].decode("utf-8", "replace")
    nb = bounded_json(text, "the notebook", max_depth=MAX_DEPTH)
    if not isinstance(nb, dict) or not isinstance(nb.get("cells"), list):
        raise ValueError("it has no list of cells")
    if len(nb["cells"]) > MAX_CELLS:
        raise ValueError(f"it has {len(nb['cells'])} cells (at most {MAX_CELLS})")
    cells, total = [], 0
    for cell in nb["cells"]:
        if not isinstance(cell, dict):
            continue
        text = source(cell)
        total += len(text)
        if total > MAX_CODE:
            raise ValueError(f"its cells hold more than {MAX_CODE // 2**20} MiB of text")
        m = cell.get("metadata") if isinstance(cell.get("metadata"), dict) else {}
        nbg = m.get("nbgrader") if isinstance(m.get("nbgrader"), dict) else {}
        cells.append({"cell_type": str(cell.get("cell_type", "")), "source": text,
                      "metadata": {"nbgrader": nbg}})  # fmt: skip
    return {"cells": cells}


def meta(cell: dict) -> dict:
    m = cell.get("metadata", {})
    m = m.get("nbgrader", {}) if isinstance(m, dict) else {}
    return m if isinstance(m, dict) else {}


def source(cell: dict) -> str:
    s = cell.get("source", "")
    if isinstance(s, list):
        return "".join(x for x in s if isinstance(x, str))
    return s if isinstance(s, str) else ""
