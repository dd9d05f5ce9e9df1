"""pytest configuration of tests/: every hypothesis test draws the same examples on every run.

No test may depend on what a random search happens to find first, nor on what an earlier run
found and stored.  So every ``@given`` test runs derandomized (its examples follow from the
test itself, not from a random seed) and without an example database (``.hypothesis/`` is
neither read nor written, so a failure found once is not replayed on a later run or on
another machine only).  An example that matters is recorded in its test with ``@example``, so
that it always runs.  A module may load its own profile (test_properties.py's "course"); it
keeps these two settings.
"""

from hypothesis import settings

settings.register_profile("derandomized", derandomize=True, database=None)
settings.load_profile("derandomized")
