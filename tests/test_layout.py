"""kappalib is laid out by the stages a reader follows (issue 31): read and check the input ->
count -> coefficients -> uncertainty -> report, one private package each, with the shared
pieces below them and the public front above.

Read from the source (every import, also inside functions), this test holds the layout to
three rules: no module imports a module of a later stage; the imports have no cycle; and no
module takes a name that starts with an underscore from another module (what modules share
is a named internal API).  ARCHITECTURE.md's map names every module, and only those.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "kappalib"

# the stage of each top-level package or module of kappalib; a module may import its own
# stage and the ones below it (the result classes sit on the shared pieces: they render with
# the report's words, and nothing shared builds a result)
STAGES = {
    "_shared": 0,
    "results": 0.5,
    "_input": 1,
    "datasets": 1,
    "families": 1,
    "_count": 2,
    "_coefficients": 3,
    "closed_forms": 3,
    "_uncertainty": 4,
    "_report": 5,
    "plotting": 5,
    "__main__": 5,
    "widgets": 6,
    "__init__": 7,
}


def _modules():
    """{dotted name: path} of every module of kappalib."""
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


MODULES = _modules()


def _stage(module):
    parts = module.split(".")
    return STAGES["__init__" if len(parts) == 1 else parts[1]]


def _package_of(module, path):
    return module if path.name == "__init__.py" else module.rpartition(".")[0]


def _imports(module, path):
    """(imported module, names) for every import of kappalib's own modules in ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name.split(".")[0] == "kappalib":
                    found.append((a.name, []))
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                if not (node.module or "").startswith("kappalib"):
                    continue
                base = node.module
            else:
                package = _package_of(module, path).split(".")
                base = ".".join(package[: len(package) - node.level + 1])
                if node.module:
                    base = f"{base}.{node.module}"
            for a in node.names:
                sub = f"{base}.{a.name}"
                if sub in MODULES:  # from . import families: the module itself
                    found.append((sub, []))
                else:
                    found.append((base, [a.name]))
    return found


EDGES = {
    (module, target, name)
    for module, path in MODULES.items()
    for target, names in _imports(module, path)
    for name in names or [None]
}


def test_every_module_has_a_stage():
    for module in MODULES:
        assert _stage(module) >= 0, module


def test_no_module_imports_a_later_stage():
    upward = sorted(
        f"{m} (stage {_stage(m)}) imports {t} (stage {_stage(t)})"
        for m, t, _ in EDGES
        if t in MODULES and _stage(t) > _stage(m)
    )
    assert not upward, "\n".join(upward)


def test_the_imports_have_no_cycle():
    graph = {m: sorted({t for mm, t, _ in EDGES if mm == m and t in MODULES}) for m in MODULES}
    # a package's __init__ importing its own modules is not a cycle of ideas
    state = {}

    def visit(node, trail):
        state[node] = "open"
        for nxt in graph[node]:
            if nxt == node or nxt.startswith(node + "."):
                continue
            if state.get(nxt) == "open":
                raise AssertionError(" -> ".join([*trail, node, nxt]))
            if nxt not in state:
                visit(nxt, [*trail, node])
        state[node] = "done"

    for module in graph:
        if module not in state:
            visit(module, [])


def test_no_underscore_name_crosses_a_module():
    crossing = sorted(
        f"{m} takes {name} from {t}"
        for m, t, name in EDGES
        if name and name.startswith("_") and not name.startswith("__")
    )
    assert not crossing, "\n".join(crossing)


def test_the_map_in_architecture_names_every_module_once():
    text = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")
    section = text.split("\n## The map\n", 1)[1].split("\n## ", 1)[0]
    named = re.findall(r"`(kappalib/[\w/]+\.py)`", section)
    files = {str(p.relative_to(ROOT)) for p in PACKAGE.rglob("*.py")}
    assert sorted(set(named)) == sorted(files), (
        f"not in the map: {sorted(files - set(named))}; gone: {sorted(set(named) - files)}"
    )


@pytest.mark.parametrize("other", ["README.md", "kappalib/__init__.py"])
def test_the_map_is_written_once(other):
    """README.md and the front's docstring point to ARCHITECTURE.md instead of a copy."""
    text = (ROOT / other).read_text(encoding="utf-8")
    private = set(re.findall(r"kappalib/_\w+(?:/\w+)*\.py|``_\w+``", text))
    assert len(private) <= 2, (other, sorted(private))
