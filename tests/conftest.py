"""pytest configuration of tests/: the same examples on every run, and selection by marker.

No test may depend on what a random search happens to find first, nor on what an earlier run
found and stored.  So every ``@given`` test runs derandomized (its examples follow from the
test itself, not from a random seed) and without an example database (``.hypothesis/`` is
neither read nor written, so a failure found once is not replayed on a later run or on
another machine only).  An example that matters is recorded in its test with ``@example``, so
that it always runs.  A module may load its own profile (test_properties.py's "course"); it
keeps these two settings.

Which tests run where is said by markers (declared, with their meaning, in pyproject.toml)
and selected with ``-m`` by the Makefile.  Two hooks here serve that:

* a test file marked as a whole (a module-level ``pytestmark``) is not imported at all when no
  test in it could match the ``-m`` expression, whatever marks its tests add: so kappalib's
  own tests (``-m "not toolchain and not sandbox"``) run in an environment without the
  course's toolchain, whose test files import it;
* the files with a ``slow`` test go first, for make unit's two workers (they take whole files
  in collection order, ``--no-loadscope-reorder``; xdist would otherwise put the files with
  most tests first, and the wheel check, one test, would start last and run alone at the end).
"""

import ast
import itertools
from functools import cache

from _pytest.mark.expression import Expression
from hypothesis import settings

settings.register_profile("derandomized", derandomize=True, database=None)
settings.load_profile("derandomized")


@cache
def _file_marks(path):
    """The marker names of a test file's module-level ``pytestmark`` (an empty set if none)."""
    names = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "pytestmark" for t in node.targets
        ):
            for sub in ast.walk(node.value):
                chain = ast.unparse(sub) if isinstance(sub, ast.Attribute) else ""
                if chain.startswith("pytest.mark.") and chain.count(".") == 2:
                    names.add(chain.removeprefix("pytest.mark."))
    return frozenset(names)


def _declared(config):
    return {line.split(":")[0].strip() for line in config.getini("markers")}


def pytest_ignore_collect(collection_path, config):
    expression = config.getoption("markexpr")
    if not expression or collection_path.suffix != ".py":
        return None
    if not collection_path.name.startswith("test_"):
        return None
    marks = _file_marks(collection_path)
    if not marks:
        return None
    compiled = Expression.compile(expression)
    others = sorted(_declared(config) - marks)
    # left out only if no test of the file can match: the file's marks plus any of the others
    for k in range(len(others) + 1):
        for extra in itertools.combinations(others, k):
            if compiled.evaluate(_has(marks | set(extra))):
                return None
    return True


def _has(present):
    return lambda name, /, **kwargs: name in present


def pytest_collection_modifyitems(config, items):
    slow_files = {item.path for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: item.path not in slow_files)  # stable: the rest keep order
