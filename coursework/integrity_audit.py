"""Integrity audit: copies of the reference solutions, and code that tries to game a grader.

Grading no longer depends on it: the students' code runs in a sandbox and the scorer only
reads the answers it leaves (grade.py), so a patched module, a hook or a rigged object can
only change the student's own answers. The audit tells the instructor what to read:

* **copies** (integrity flags): a submission whose answer cells reproduce the reference
  solutions of the source notebook, verbatim or with the names changed (the code is compared
  as a syntax tree with every name replaced by its order of first use, comments and
  docstrings dropped), or whose written answers share runs of 8 words with the reference
  answers. The repository is public: a copy is the first thing to look for.
* **tricks** (integrity flags): an assignment, deletion or ``setattr`` on a module; any use of
  ``sys.modules``, ``globals()``, ``get_ipython``, ``In``, ``gc``, ``ctypes``, frames,
  ``settrace`` or a function's ``__code__``, ``__closure__``, ``__defaults__``; a class that
  defines a comparison or conversion method; file or process access (``open`` outside the
  notebook's own data, ``subprocess``, ``os.system``);
* (a *note*, not a flag) a call into kappalib inside an answer that asks for code by hand.

    python coursework/integrity_audit.py SUBMITTED_DIR [SOURCE_DIR]

Exit status 0 always. A clean audit is no proof of honesty, and a flag is no proof of cheating.
"""

from __future__ import annotations

import ast
import difflib
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import leak_check

RIGGED = {
    "__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "__hash__", "__bool__",
    "__float__", "__int__", "__index__", "__complex__", "__round__", "__abs__", "__neg__",
    "__sub__", "__rsub__", "__array__", "__array_ufunc__", "__array_function__",
    "__instancecheck__", "__subclasscheck__", "__getattr__", "__getattribute__",
}  # fmt: skip
DUNDER_ACCESS = {"__code__", "__defaults__", "__kwdefaults__", "__closure__", "__globals__",
                 "__builtins__", "__dict__", "__class__", "__bases__", "__mro__"}  # fmt: skip
NAMES = {"globals", "get_ipython", "In", "Out", "_ih", "gc", "ctypes", "builtins",
         "__builtins__", "reload", "setattr", "delattr", "exec", "eval", "compile", "__import__",
         "vars", "open", "_getframe", "settrace", "setprofile", "subprocess", "system"}  # fmt: skip
SUSPECT_MODULES = {"gc", "ctypes", "builtins", "importlib", "inspect", "subprocess", "socket",
                   "shutil", "signal", "threading", "multiprocessing"}  # fmt: skip
COPY_SHARE = 0.6  # of the reference's code (by size) found in a submission: a copy
CELL_MATCH = 0.9  # similarity of one answer cell to its reference solution
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
            if node.attr in DUNDER_ACCESS | {"_getframe", "settrace", "setprofile", "system"}:
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
                if m and m.split(".")[0] in SUSPECT_MODULES:
                    found.append((node.lineno, f"imports {m}", True))
        if by_hand and isinstance(node, ast.Call) and _root(node.func) in {"kl", "kappalib"}:
            found.append(
                (node.lineno, f"calls {ast.unparse(node.func)} in a by-hand answer", False)
            )
    return sorted(set(found))


def audit_notebook(
    path: Path, student: str, ps: str, locked: dict[str, str] | None = None
) -> list[Flag]:
    """Flags for one notebook. `locked`: the source's locked cells (grade id -> text); a cell
    is skipped only when it is one of them, unchanged (the student's own "locked" marks
    count for nothing: the grader runs the release's locked cells, not the student's)."""
    cells = json.loads(path.read_text())["cells"]
    code = [c for c in cells if c["cell_type"] == "code"]
    modules = _modules(["".join(c["source"]) for c in code])
    flags, question = [], f"{ps}-start"
    for cell in code:
        meta = cell["metadata"].get("nbgrader", {})
        if meta.get("grade_id"):
            question = meta["grade_id"]
        text = "".join(cell["source"])
        if locked is None and meta.get("locked"):
            continue
        if locked is not None and locked.get(meta.get("grade_id")) == text:
            continue
        where = question if meta.get("grade_id") else f"after {question}"
        for line, what, integrity in scan(
            "".join(cell["source"]), modules, question in BY_HAND and bool(meta)
        ):
            flags.append(Flag(student, ps, where, line, what, integrity))
    return flags


def shape_of(code: str) -> list[str] | None:
    """The code's syntax tree as tokens, every name replaced by its order of first use."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    names: dict[str, str] = {}

    def rename(n: str) -> str:
        return names.setdefault(n, f"v{len(names)}")

    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            if isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
                body.pop(0)  # a docstring
        if isinstance(node, ast.Name):
            node.id = rename(node.id)
        elif isinstance(node, ast.arg):
            node.arg = rename(node.arg)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            node.name = rename(node.name)
        elif isinstance(node, ast.alias) and node.asname:
            node.asname = rename(node.asname)
    return re.findall(r"\w+|[^\w\s]", ast.dump(tree, annotate_fields=False))


def reference_answers(notebook: Path) -> dict[str, tuple[str, str]]:
    """grade id -> (kind, text) of each answer cell's reference solution in a source notebook."""
    out = {}
    for cell in json.loads(notebook.read_text())["cells"]:
        meta = cell["metadata"].get("nbgrader", {})
        if not meta.get("solution"):
            continue
        text = "".join(cell["source"])
        if cell["cell_type"] == "markdown":
            out[meta["grade_id"]] = ("text", text.split("**Rubric")[0])
        else:
            code = re.sub(r"^\s*### (BEGIN|END) SOLUTION\s*$", "", text, flags=re.M)
            out[meta["grade_id"]] = ("code", code)
    return out


def copied(path: Path, reference: dict[str, tuple[str, str]]) -> tuple[float, list[str]]:
    """The share of the reference (by size) that the notebook at `path` reproduces."""
    cells = {
        c["metadata"].get("nbgrader", {}).get("grade_id"): "".join(c["source"])
        for c in json.loads(path.read_text())["cells"]
    }
    body = "\n".join(cells_text for cells_text in cells.values())
    total = found = 0.0
    which = []
    for gid, (kind, ref) in reference.items():
        if kind == "text":
            ref_runs = leak_check.runs(ref)
            size = len(leak_check.words(ref))
            share = len(ref_runs & leak_check.runs(cells.get(gid, ""))) / max(len(ref_runs), 1)
        else:
            ref_shape = shape_of(ref) or []
            size = len(ref_shape)
            mine = shape_of(cells.get(gid, "")) or []
            share = difflib.SequenceMatcher(None, ref_shape, mine, autojunk=False).ratio()
            if share < CELL_MATCH and ref_shape and len(ref_shape) > 30:
                # the same code moved to another cell
                whole = shape_of(body) or []
                m = difflib.SequenceMatcher(None, ref_shape, whole, autojunk=False)
                share = max(share, sum(b.size for b in m.get_matching_blocks()) / len(ref_shape))
        total += size
        if share >= (0.5 if kind == "text" else CELL_MATCH):
            found += size
            which.append(gid)
    return (found / total if total else 0.0), which


def audit(submitted: Path, source: Path | None = None) -> list[Flag]:
    flags = []
    refs = {}
    for nb in sorted(submitted.glob("*/*/*.ipynb")):
        if ".ipynb_checkpoints" in nb.parts:
            continue
        student, ps = nb.parent.parent.name, nb.parent.name
        ref_nb = source / ps / f"{ps}.ipynb" if source else None
        locked = None
        if ref_nb is not None and ref_nb.exists():
            locked = {
                c["metadata"]["nbgrader"]["grade_id"]: "".join(c["source"])
                for c in json.loads(ref_nb.read_text())["cells"]
                if c["metadata"].get("nbgrader", {}).get("locked")
            }
        try:
            flags += audit_notebook(nb, student, ps, locked)
        except (ValueError, KeyError, TypeError, AttributeError):
            flags.append(Flag(student, ps, f"{ps}-all", 0, "not a readable notebook", False))
            continue
        if ref_nb is None or not ref_nb.exists():
            continue
        if ps not in refs:
            refs[ps] = reference_answers(ref_nb)
        share, which = copied(nb, refs[ps])
        if share >= COPY_SHARE:
            what = (
                f"reproduces {share:.0%} of the reference solutions ({len(which)} answers), "
                "as written or with names changed"
            )
            flags.append(Flag(student, ps, f"{ps}-all", 0, what))
    return flags


if __name__ == "__main__":
    src = Path(sys.argv[2]) if len(sys.argv) > 2 else None
    for flag in audit(Path(sys.argv[1]), src):
        print(flag)
