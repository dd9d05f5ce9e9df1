"""Every public function has a semantic mutant in tests/mutants.py (``make mutants``).

A function added to ``kappalib.__all__`` without one fails here, in ``make unit``, before
the slower mutation check runs.
"""

import mutants

import kappalib as kl


def test_every_public_callable_has_a_mutant():
    assert mutants.uncovered() == []


def test_every_mutant_names_a_public_function_and_has_a_focus():
    for name, (target, what, factory) in mutants.MUTANTS.items():
        module, _, attr = target.rpartition(".")
        assert attr in getattr(kl, module).__all__ if module else target in kl.__all__, name
        assert callable(mutants.resolve(target)), name
        assert what and callable(factory), name
    for name, selection in mutants.FOCUS.items():
        assert name in mutants.MUTANTS, name
        assert all(s.startswith("tests/test_") for s in selection), name


def test_null_standard_error_has_its_own_mutant():
    """kappa_standard_error(null=True) is a separate statistic, with its own mutant."""
    assert "kappa_standard_error_null_ignored" in mutants.MUTANTS


def test_the_topic_modules_have_mutants():
    """closed_forms and families are outside kappalib.__all__: each has mutants of its own."""
    targets = {target for target, _, _ in mutants.MUTANTS.values()}
    for module in ("closed_forms", "families"):
        assert any(t.startswith(module + ".") for t in targets), module
