"""The random parity sweeps' cases, split between make test and make test-full.

A sweep compares kappalib with an outside oracle on n random cases, one parameter each
(a seed, or a batch of seeds).  ``sweep(n, quick)`` gives all n, in order: the first
``quick`` as they are, and the rest marked ``full`` (pyproject.toml), which make test leaves
out and make test-full runs.  So make test runs every sweep's oracle on its first cases, every
edge case (they are tests of their own, or among the first cases: tests/test_sweeps.py
checks that the first cases reach every line the whole sweep reaches), and CI, which runs
both targets, still runs all n cases, each once, with the same ids as before.
"""

import pytest

FULL = pytest.mark.full


def sweep(n, quick, *, also=()):
    """range(n) as pytest parameters: ``range(quick)`` and ``also`` plain, the others ``full``."""
    keep = set(range(min(quick, n))) | set(also)
    return [case if case in keep else pytest.param(case, marks=FULL) for case in range(n)]
