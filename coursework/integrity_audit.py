"""Integrity audit: copies of the reference, students who share code, code that games a grader.

Grading no longer depends on it: the students' code runs in a sandbox and the scorer only
reads the answers it leaves (grade.py), so a patched module, a hook or a rigged object can
only change the student's own answers. The audit tells the instructor what to read:

* **copies** (integrity flags): a submission whose answer cells reproduce the reference
  solutions of the source notebook, verbatim or with the names changed (the code is compared
  as a syntax tree with every name replaced by its order of first use, comments and
  docstrings dropped), or whose written answers share runs of 8 words with the reference
  answers. The repository is public: a copy is the first thing to look for.
* **students who share code** (integrity flags): every pair of submissions of a set is
  compared with copydetect, which implements MOSS's winnowing (Schleimer, Wilkerson and Aiken
  2003): the answer code is tokenised with every name replaced, so renaming, comments and
  layout change nothing, and the reference solutions are boilerplate (a copy of the reference
  is reported as such, not as a pair). Pairs in which each shares ``PAIR_SHARE`` of its answer
  code with the other are grouped into clusters, with the cells where the shared code is;
* **tricks** (integrity flags): an assignment, deletion or ``setattr`` on a module; any use of
  ``sys.modules``, ``globals()``, ``get_ipython``, ``In``, ``gc``, ``ctypes``, frames,
  ``settrace`` or a function's ``__code__``, ``__closure__``, ``__defaults__``; a class that
  defines a comparison or conversion method; file or process access (``open``,
  ``subprocess``, ``os.system``, ``os.open``, ``os.fork``,
  ``os.kill``, ``os._exit``, ``os.symlink`` and the other calls of ``SUSPECT_OS``);
* (a *note*, not a flag) a call into kappalib inside an answer that asks for code by hand.

IPython magics (``%%time``, ``%matplotlib inline``, ``!ls``) are dropped before the code is
read, so a magic on top of a copied cell hides nothing. Each student's notebook is read with
bounds (bounded.py) in a guarded step (guard.py): a notebook the audit cannot read is a note,
and the audit goes on. ``make grade`` runs the audit of its set and writes the report an
instructor reads in a minute to ``DIR/integrity/<ps>.md``.

    python coursework/integrity_audit.py --course DIR --ps ps1

Exit status 0 always. A clean audit is no proof of honesty, and a flag is no proof of cheating.
"""

from __future__ import annotations

import argparse
import ast
import difflib
import io
import json
import re
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))
import bounded  # noqa: E402
import guard  # noqa: E402
import leak_check  # noqa: E402

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
SUSPECT_OS = {"open", "fork", "forkpty", "_exit", "kill", "killpg", "symlink", "link", "setsid",
              "execv", "execve", "execvp", "execl", "execlp", "spawnv", "spawnl", "posix_spawn",
              "popen", "system", "dup2", "chmod", "chown", "unlink", "remove", "rmdir",
              "rename", "replace", "mkfifo", "truncate", "utime", "setuid", "nice",
              "sched_setaffinity", "memfd_create"}  # fmt: skip
COPY_SHARE = 0.6  # of the reference's code (by size) found in a submission: a copy
PAIR_SHARE = 0.5  # of each one's answer code found in the other's: a pair that shares code
MAX_SHAPE, MAX_TOKENS = 50_000, 20_000  # characters and tokens compared by difflib (quadratic)
NOISE, GUARANTEE = 25, 30  # copydetect's defaults: k-gram length and the guaranteed match
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


def strip_magics(code: str) -> str:
    """The cell without its IPython magics and shell escapes (``%%time``, ``%matplotlib``,
    ``!ls``): each such line becomes an empty one, so line numbers stay."""
    return "\n".join("" if line.lstrip().startswith(("%", "!")) else line
                     for line in code.split("\n"))  # fmt: skip


def scan(source: str, modules: set[str], by_hand: bool = False) -> list[tuple[int, str, bool]]:
    """(line, what, integrity) for every suspicious construct in one cell's code."""
    try:
        tree = ast.parse(strip_magics(source))
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
            elif node.attr in SUSPECT_OS and _root(node) == "os":
                found.append((node.lineno, f"uses {ast.unparse(node)}", True))
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
            if isinstance(node, ast.ImportFrom) and node.module == "os":
                for a in node.names:
                    if a.name in SUSPECT_OS or a.name == "*":
                        found.append((node.lineno, f"imports os.{a.name}", True))
        if by_hand and isinstance(node, ast.Call) and _root(node.func) in {"kl", "kappalib"}:
            found.append(
                (node.lineno, f"calls {ast.unparse(node.func)} in a by-hand answer", False)
            )
    return sorted(set(found))


def audit_notebook(
    nb: dict, student: str, ps: str, locked: dict[str, str] | None = None
) -> list[Flag]:
    """Flags for one notebook. `locked`: the source's locked cells (grade id -> text); a cell
    is skipped only when it is one of them, unchanged (the student's own "locked" marks
    count for nothing: the grader runs the release's locked cells, not the student's)."""
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    modules = _modules([strip_magics(bounded.source(c)) for c in code])
    flags, question = [], f"{ps}-start"
    for cell in code:
        meta = bounded.meta(cell)
        if meta.get("grade_id"):
            question = str(meta["grade_id"])
        text = bounded.source(cell)
        if locked is None and meta.get("locked"):
            continue
        if locked is not None and locked.get(meta.get("grade_id")) == text:
            continue
        where = question if meta.get("grade_id") else f"after {question}"
        for line, what, integrity in scan(text, modules, question in BY_HAND and bool(meta)):
            flags.append(Flag(student, ps, where, line, what, integrity))
    return flags


def shape_of(code: str) -> list[str] | None:
    """The code's syntax tree as tokens, every name replaced by its order of first use."""
    if len(code) > MAX_SHAPE:
        code = code[:MAX_SHAPE].rsplit("\n", 1)[0]  # a long cell: its beginning
    try:
        tree = ast.parse(strip_magics(code))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
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


def copied(nb: dict, reference: dict[str, tuple[str, str]]) -> tuple[float, list[str]]:
    """The share of the reference (by size) that the notebook `nb` reproduces."""
    cells = {bounded.meta(c).get("grade_id"): bounded.source(c) for c in nb["cells"]}
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
                whole = (shape_of(body) or [])[:MAX_TOKENS]  # difflib is quadratic
                m = difflib.SequenceMatcher(None, ref_shape, whole, autojunk=False)
                share = max(share, sum(b.size for b in m.get_matching_blocks()) / len(ref_shape))
        total += size
        if share >= (0.5 if kind == "text" else CELL_MATCH):
            found += size
            which.append(gid)
    return (found / total if total else 0.0), which


def answer_code(nb: dict, release_code: set[str]) -> list[tuple[str, str]]:
    """(where, code) of the student's own code cells: every code cell that is not a release
    cell left as it was, magics dropped."""
    out, question = [], "start"
    for cell in nb["cells"]:
        meta = bounded.meta(cell)
        if meta.get("grade_id"):
            question = str(meta["grade_id"])
        text = bounded.source(cell)
        if cell["cell_type"] != "code" or text in release_code:
            continue
        # the typed id is no code of theirs (and differs from student to student)
        text = "\n".join(
            "" if line.lstrip().startswith("STUDENT_ID") else line for line in text.split("\n")
        )
        if strip_magics(text).strip():
            where = question if meta.get("grade_id") else f"after {question}"
            out.append((where, strip_magics(text)))
    return out


def _fingerprint(cells: list[tuple[str, str]], boilerplate: list[int]):
    import copydetect

    code = "\n".join(text for _, text in cells)
    fp = copydetect.CodeFingerprint("answers.py", NOISE, GUARANTEE - NOISE + 1,
                                    boilerplate=boilerplate, fp=io.StringIO(code),
                                    language="python")  # fmt: skip
    return fp


def examine(path: str, student: str, ps: str, locked: dict[str, str] | None,
            reference: dict[str, tuple[str, str]] | None, release_code: list[str],
            boilerplate: list[int]) -> dict:  # fmt: skip
    """One student's part of the audit (a guarded step): flags, the share of the reference
    reproduced, and the answer code's fingerprint for the pairwise comparison."""
    nb = bounded.read_notebook(Path(path))
    flags = audit_notebook(nb, student, ps, locked)
    share, which = copied(nb, reference) if reference else (0.0, [])
    cells = answer_code(nb, set(release_code))
    return {"flags": flags, "share": share, "which": which, "cells": cells,
            "fingerprint": _fingerprint(cells, boilerplate) if cells else None}  # fmt: skip


def _cells_of(slices, cells: list[tuple[str, str]]) -> list[str]:
    """The cells (where) that hold the copied character ranges `slices` of the joined code."""
    bounds, start = [], 0
    for where, text in cells:
        bounds.append((start, start + len(text), where))
        start += len(text) + 1
    out = []
    for a, b in zip(slices[0], slices[1], strict=True):
        for lo, hi, where in bounds:
            if a < hi and b > lo and where not in out:
                out.append(where)
    return out


def pairs(found: dict[str, dict], ps: str) -> list[Flag]:
    """Pairs of students whose answer code shares at least PAIR_SHARE (MOSS's winnowing)."""
    import copydetect

    names = sorted(s for s, r in found.items() if r.get("fingerprint") is not None)
    flags = []
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            fa, fb = found[a]["fingerprint"], found[b]["fingerprint"]
            overlap, (sa, sb), (slices_a, _) = copydetect.compare_files(fa, fb)
            if min(sa, sb) >= PAIR_SHARE and overlap >= 100:  # about five lines of code
                cells = _cells_of(slices_a, found[a]["cells"])
                what = (f"shares code with {b}: {sa:.0%} of {a}'s answer code, {sb:.0%} of "
                        f"{b}'s (cells {', '.join(cells[:6])})")  # fmt: skip
                flags.append(Flag(a, ps, "pair", 0, what))
    return flags


def audit(submitted: Path, source: Path | None = None, ps: str | None = None,
          release: Path | None = None, jobs: int = 2) -> list[Flag]:  # fmt: skip
    """Every flag for the submissions under `submitted` (one set `ps`, or all)."""
    flags: list[Flag] = []
    sets = [ps] if ps else sorted({p.parent.name for p in submitted.glob("*/*/*.ipynb")})
    for one in sets:
        ref_nb = source / one / f"{one}.ipynb" if source else None
        locked, reference, release_code, boilerplate = None, None, [], []
        if ref_nb is not None and ref_nb.exists():
            cells = json.loads(ref_nb.read_text())["cells"]
            locked = {c["metadata"]["nbgrader"]["grade_id"]: "".join(c["source"])
                      for c in cells
                      if c["metadata"].get("nbgrader", {}).get("locked")}  # fmt: skip
            reference = reference_answers(ref_nb)
            release_code = ["".join(c["source"]) for c in cells if c["cell_type"] == "code"
                            and not c["metadata"].get("nbgrader", {}).get("solution")]  # fmt: skip
            code = [strip_magics(t) for k, t in reference.values() if k == "code"]
            code += [strip_magics(t) for t in release_code]
            if code:
                boilerplate = list(_fingerprint([("ref", "\n".join(code))], []).hashes)
        rel_nb = release / one / f"{one}.ipynb" if release else None
        if rel_nb is not None and rel_nb.exists():
            release_code += ["".join(c["source"]) for c in json.loads(rel_nb.read_text())["cells"]
                             if c["cell_type"] == "code"]  # fmt: skip
        found: dict[str, dict] = {}
        notebooks = sorted(submitted.glob(f"*/{one}/{one}.ipynb"))

        def step(nb, one=one, locked=locked, reference=reference, release_code=release_code,
                 boilerplate=boilerplate):  # fmt: skip
            try:
                return guard.call("audit", examine, str(nb), nb.parent.parent.name, one, locked,
                                  reference, release_code, boilerplate, seconds=60)  # fmt: skip
            except guard.StepFailed as err:
                return err

        with ThreadPoolExecutor(max_workers=jobs) as pool:
            results = list(pool.map(step, notebooks))
        for nb, r in zip(notebooks, results, strict=True):
            student = nb.parent.parent.name
            if isinstance(r, guard.StepFailed):
                flags.append(Flag(student, one, f"{one}-all", 0, f"not audited ({r.reason})",
                                  False))  # fmt: skip
                continue
            found[student] = r
            flags += r["flags"]
            if r["share"] >= COPY_SHARE:
                what = (
                    f"reproduces {r['share']:.0%} of the reference solutions "
                    f"({len(r['which'])} answers), as written or with names changed"
                )
                flags.append(Flag(student, one, f"{one}-all", 0, what))
        flags += pairs(found, one)
    return flags


def audit_set(course: Path, ps: str) -> list[Flag]:
    return audit(course / "submitted", course / "source", ps, course / "release")


def clusters(flags: list[Flag]) -> list[list[str]]:
    """Groups of students linked by shared code (connected pairs)."""
    group: dict[str, set[str]] = {}
    for f in flags:
        if f.question == "pair":
            other = f.what.split("shares code with ", 1)[1].split(":", 1)[0]
            merged = group.get(f.student, {f.student}) | group.get(other, {other})
            for s in merged:
                group[s] = merged
    seen, out = set(), []
    for members in group.values():
        if id(members) not in seen:
            seen.add(id(members))
            out.append(sorted(members))
    return sorted(out)


def report(flags: list[Flag], ps: str) -> str:
    """What an instructor reads in a minute: who, how similar, which cells."""
    lines = [f"# Integrity audit of {ps}", "",
             "A flag is a reason to read the notebook and talk to the student, not a verdict.",
             ""]  # fmt: skip
    copies = [f for f in flags if "reference solutions" in f.what]
    lines += ["## Copies of the reference solutions", ""]
    lines += [f"- **{f.student}** {f.what}" for f in copies] or ["- none"]
    lines += ["", "## Students who share code (MOSS-style winnowing, copydetect)", ""]
    pair_flags = [f for f in flags if f.question == "pair"]
    for members in clusters(pair_flags):
        mine = [f for f in pair_flags if f.student in members]
        if len(members) == 2:
            lines.append(f"- **{', '.join(members)}**: {mine[0].student} {mine[0].what}")
            continue
        shares = [int(x) for f in mine for x in re.findall(r"(\d+)% of", f.what)]
        cells = sorted({c for f in mine for c in f.what.split("(cells ", 1)[1].rstrip(")")
                        .split(", ")})  # fmt: skip
        lines.append(
            f"- **{', '.join(members)}**: {len(mine)} pairs, each sharing {min(shares)}% to "
            f"{max(shares)}% of its answer code with the other (cells {', '.join(cells[:8])})"
        )
    if not pair_flags:
        lines.append("- none")
    tricks = [f for f in flags if f.integrity and f not in copies and f.question != "pair"]
    lines += ["", "## Code that tries to game a grader", ""]
    by_student: dict[str, list[Flag]] = {}
    for f in tricks:
        by_student.setdefault(f.student, []).append(f)
    for s, fs in sorted(by_student.items()):
        shown = "; ".join(f"{f.question} line {f.line}: {f.what}" for f in fs[:6])
        lines.append(f"- **{s}** ({len(fs)}): {shown}" + (" ..." if len(fs) > 6 else ""))
    if not tricks:
        lines.append("- none")
    notes = [f for f in flags if not f.integrity]
    lines += ["", "## Notes (not integrity flags)", ""]
    lines += [f"- {f.student} {f.question}: {f.what}" for f in notes[:50]] or ["- none"]
    return "\n".join(lines) + "\n"


def write_report(course: Path, ps: str, flags: list[Flag]) -> Path:
    path = course / "integrity" / f"{ps}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(report(flags, ps))
    return path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--course", type=Path, required=True)
    parser.add_argument("--ps", required=True)
    args = parser.parse_args()
    course = args.course.resolve()
    guard.preload(["integrity_audit", "copydetect"])
    print(write_report(course, args.ps, audit_set(course, args.ps)).read_text())
    return 0


if __name__ == "__main__":
    import integrity_audit as _audit  # the guarded step must be importable by its name

    sys.exit(_audit.main())
