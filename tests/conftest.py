"""pytest configuration of tests/: every hypothesis test draws the same examples on every run.

No test may depend on what a random search happens to find first, nor on what an earlier run
found and stored.  So every ``@given`` test runs derandomized (its examples follow from the
test itself, not from a random seed) and without an example database (``.hypothesis/`` is
neither read nor written, so a failure found once is not replayed on a later run or on
another machine only).  An example that matters is recorded in its test with ``@example``, so
that it always runs.  A module may load its own profile (test_properties.py's "course"); it
keeps these two settings.

It also orders the slow files first, for make unit's two workers (SLOW_FIRST, below).
"""

from hypothesis import settings

settings.register_profile("derandomized", derandomize=True, database=None)
settings.load_profile("derandomized")


# The slow files (fresh environments, a retraining, nbgrader), longest first, ahead of the
# rest. make unit runs the suite on two xdist workers that take whole files in collection
# order (--no-loadscope-reorder; xdist would otherwise put the files with most tests first,
# and the wheel check, one test, would start last and run alone at the end).
SLOW_FIRST = (
    "test_install.py",
    "test_lab.py",
    "test_publish.py",
    "test_coursework.py",
    "test_ch12_cache.py",
    "test_dist.py",
)


def pytest_collection_modifyitems(config, items):
    rank = {name: i for i, name in enumerate(SLOW_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))  # stable: the rest keep order
