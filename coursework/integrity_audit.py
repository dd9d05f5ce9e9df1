"""Integrity audit: flag submissions whose code could fool the autograder (used by the demo).

The hidden tests check that numpy, math, builtins and kappalib are the originals and accept
plain numbers and arrays only (grading_setup.py). This audit is the second line: it reads the
code a student wrote (every cell that is not locked) as a syntax tree, without running it, and
reports, by student and question:

* an assignment, deletion or ``setattr`` on a module (``np.isclose = ...``, ``kl.kappa = ...``),
  or on ``builtins`` / ``__builtins__``;
* any use of ``sys.modules``, ``globals()``, ``get_ipython``, ``In``, ``gc``, ``ctypes``,
  ``importlib.reload``, or a function's ``__code__``, ``__defaults__``, ``__closure__``,
  ``__globals__``, or the grader's own names (``_grading``, ``_make_grading``);
* a class that defines a comparison or conversion method (``__eq__``, ``__float__``,
  ``__array__``, ...), the way to build an answer that "equals" anything;
* (for the instructor's information, not an integrity flag) a call into kappalib inside an
  answer that the question asks to write by hand.

    python coursework/integrity_audit.py SUBMITTED_DIR   # <student>/<psN>/<psN>.ipynb

Exit status 0 always; the demo checks the report. A clean audit is no proof: the code runs
when graded, and a determined student can hide what it does (see book/for_instructors.md).
"""

from __future__ import annotations

import ast
import json
import sys
from dataclasses import dataclass
from pathlib import Path

RIGGED = {
    "__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "__hash__", "__bool__",
    "__float__", "__int__", "__index__", "__complex__", "__round__", "__abs__", "__neg__",
    "__sub__", "__rsub__", "__array__", "__array_ufunc__", "__array_function__",
    "__instancecheck__", "__subclasscheck__", "__getattr__", "__getattribute__",
}  # fmt: skip
DUNDER_ACCESS = {"__code__", "__defaults__", "__kwdefaults__", "__closure__", "__globals__",
                 "__builtins__", "__dict__", "__class__", "__bases__", "__mro__"}  # fmt: skip
NAMES = {"globals", "get_ipython", "In", "Out", "_ih", "_grading", "_make_grading", "gc",
         "ctypes", "builtins", "__builtins__", "reload", "setattr", "delattr", "exec", "eval",
         "compile", "__import__", "vars"}  # fmt: skip
BY_HAND = {"ps1-q1-answer", "ps2-q1-answer", "ps2-q2-answer"}


@dataclass(frozen=True)
class Flag:
    student: str
    ps: str
    question: str
    line: int
    what: str
    integrity: bool = True

    def __str__(self) -> str:
        kind = "INTEGRITY" if self.integrity else "note"
        return f"{kind}: {self.student} {self.ps} {self.question} line {self.line}: {self.what}"


def _modules(cells: list[str]) -> set[str]:
    """Names bound to modules by an import anywhere in the notebook."""
    names = {"np", "numpy", "kl", "kappalib", "math", "builtins", "sys", "itertools"}
    for source in cells:
        try:
            tree = ast.parse(source)
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names |= {a.asname or a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module:
                names |= {a.asname or a.name for a in node.names if a.name[:1].islower()}
    return names


def _root(node: ast.AST) -> str | None:
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def scan(source: str, modules: set[str], by_hand: bool = False) -> list[tuple[int, str, bool]]:
    """(line, what, integrity) for every suspicious construct in one cell's code."""
    try:
        tree = ast.parse(source)
    except SyntaxError as err:
        return [(err.lineno or 0, "does not parse (not audited)", False)]
    found = []
    for node in ast.walk(tree):
        targets = []
        if isinstance(node, (ast.Assign, ast.Delete)):
            targets = node.targets
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        for t in targets:
            for sub in ast.walk(t):
                if isinstance(sub, (ast.Attribute, ast.Subscript)) and _root(sub) in modules:
                    found.append((node.lineno, f"assigns to {ast.unparse(sub)}", True))
                    break
        if isinstance(node, ast.Attribute):
            if node.attr in DUNDER_ACCESS:
                found.append((node.lineno, f"uses {ast.unparse(node)}", True))
            elif node.attr == "modules" and _root(node) == "sys":
                found.append((node.lineno, "uses sys.modules", True))
        elif isinstance(node, ast.Name) and node.id in NAMES:
            found.append((node.lineno, f"uses {node.id}", True))
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if (
                    isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))
                    and item.name in RIGGED
                ):
                    found.append((item.lineno, f"class {node.name} defines {item.name}", True))
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            mods = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module]
            for m in mods:
                if m and m.split(".")[0] in {"gc", "ctypes", "builtins", "importlib", "inspect"}:
                    found.append((node.lineno, f"imports {m}", True))
        if by_hand and isinstance(node, ast.Call) and _root(node.func) in {"kl", "kappalib"}:
            found.append(
                (node.lineno, f"calls {ast.unparse(node.func)} in a by-hand answer", False)
            )
    return sorted(set(found))


def audit_notebook(path: Path, student: str, ps: str) -> list[Flag]:
    cells = json.loads(path.read_text())["cells"]
    code = [c for c in cells if c["cell_type"] == "code"]
    modules = _modules(["".join(c["source"]) for c in code])
    flags, question = [], f"{ps}-start"
    for cell in code:
        meta = cell["metadata"].get("nbgrader", {})
        if meta.get("grade_id"):
            question = meta["grade_id"]
        if meta.get("locked"):
            continue  # the grader restores locked cells from its own copy
        where = question if meta.get("grade_id") else f"after {question}"
        for line, what, integrity in scan(
            "".join(cell["source"]), modules, question in BY_HAND and bool(meta)
        ):
            flags.append(Flag(student, ps, where, line, what, integrity))
    return flags


def audit(submitted: Path) -> list[Flag]:
    flags = []
    for nb in sorted(submitted.glob("*/*/*.ipynb")):
        if ".ipynb_checkpoints" not in nb.parts:
            flags += audit_notebook(nb, nb.parent.parent.name, nb.parent.name)
    return flags


if __name__ == "__main__":
    for flag in audit(Path(sys.argv[1])):
        print(flag)
