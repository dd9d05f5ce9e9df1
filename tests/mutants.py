"""The mutation check (``make mutants``): every semantic mutant must be killed by the unit suite.

A mutant is a plausible bug in one public function.  It is applied **at run time**: this
module is also a pytest plugin (``-p mutants``) that, when ``KAPPALIB_MUTANT`` names a mutant,
replaces the public function by a wrapper in ``kappalib`` and in every ``kappalib.*`` module
that holds it (so ``cohen_kappa_score`` calls a mutated ``kappa`` too), before any test runs.
Nothing is edited on disk, so the check survives refactoring of the private modules.

``python tests/mutants.py`` runs a baseline (no mutant: the selection must pass), then the
unit tests once per mutant with ``-x`` (stop at the first failure), and prints which test
killed each one.  It exits with 1 if any mutant survives: a survivor marks a missing oracle.
Run from the repository root; ``python tests/mutants.py NAME ...`` runs only those mutants.

Each mutant lists the test files to run, the likeliest killers first; ``-x`` stops at the
first failure, so a killed mutant costs a few seconds.
"""

from __future__ import annotations

import functools
import math
import os
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

ENV = "KAPPALIB_MUTANT"
WORKERS = 2  # mutants checked side by side (one pytest process each)

# the fast unit files, for mutants without a narrower list
UNIT = [
    "tests/test_oracles.py",
    "tests/test_seeds.py",
    "tests/test_regressions.py",
    "tests/test_parity.py",
    "tests/test_weighted.py",
    "tests/test_undefined.py",
    "tests/test_paper_tables.py",
    "tests/test_properties.py",
    "tests/test_bad_input.py",
    "tests/test_numerics.py",
]


def _float(x):
    x = np.asarray(x, dtype=np.float64)
    return float(x) if x.ndim == 0 else x


def _margins(C):
    C = np.asarray(C, dtype=np.float64)
    return C, C.sum(axis=(-2, -1)), C.sum(axis=-1), C.sum(axis=-2)


def _scale(value, factor):
    return None if value is None else _float(np.asarray(value) * factor)


# name -> (public function, what the bug is, mutant factory taking the original function)
MUTANTS = {
    # --- the four survivors of the outside review ---
    "pabak_two_classes": (
        "pabak",
        "PABAK hard-coded to K = 2: 2 p_o - 1",
        lambda f: lambda C: _float(2 * _float(__import__("kappalib").observed_agreement(C)) - 1),
    ),
    "scotts_pi_cohen_pe": (
        "scotts_pi",
        "Scott's pi with Cohen's p_e (the margins not pooled)",
        lambda f: lambda C, **kw: __import__("kappalib").kappa(C, **kw),
    ),
    "expected_agreement_rows_twice": (
        "expected_agreement",
        "p_e from the row margins twice: sum r_k^2 / N^2",
        lambda f: (
            lambda C: (lambda C, N, r, c: _float((r * r).sum(axis=-1) / (N * N)))(*_margins(C))
        ),
    ),
    "bias_index_sign": (
        "bias_index",
        "bias index with its sign flipped: (c - b) / N",
        lambda f: lambda C: _float(-np.asarray(f(C))),
    ),
    # --- one more per public function ---
    "asymmetry_half": (
        "asymmetry",
        "the norm of the antisymmetric part (C - C^T) / 2 instead of C - C^T",
        lambda f: lambda C: _float(np.asarray(f(C)) / 2),
    ),
    "cohen_kappa_score_no_sample_weight": (
        "cohen_kappa_score",
        "sample_weight ignored",
        lambda f: lambda y1, y2, *, sample_weight=None, **kw: f(y1, y2, **kw),
    ),
    "cohen_kappa_score_labels_ignored": (
        "cohen_kappa_score",
        "the labels= order ignored (sorted labels used)",
        lambda f: (
            lambda y1, y2, *, labels=None, **kw: f(
                y1, y2, **kw, labels=None if labels is None else sorted(labels, key=str)
            )
        ),
    ),
    "confusion_matrix_transposed": (
        "confusion_matrix",
        "rows are the prediction, columns the reference",
        lambda f: lambda y_true, y_pred, **kw: f(y_true, y_pred, **kw).T,
    ),
    "disagreement_weights_quadratic_is_linear": (
        "disagreement_weights",
        "'quadratic' gives linear distances",
        lambda f: lambda K, kind=None, **kw: f(K, "linear" if kind == "quadratic" else kind, **kw),
    ),
    "expected_counts_rows_twice": (
        "expected_counts",
        "E = r r^T / N (the row margins twice)",
        lambda f: (
            lambda C: (lambda C, N, r, c: r[..., :, None] * r[..., None, :] / N)(*_margins(C))
        ),
    ),
    "kappa_weighting_ignored": (
        "kappa",
        "weighting and scores ignored: always unweighted",
        lambda f: lambda C, *, weighting=None, scores=None, **kw: f(C, **kw),
    ),
    "kappa_confint_confidence_ignored": (
        "kappa_confint",
        "confidence ignored (always 0.95)",
        lambda f: lambda C, *, confidence=0.95, **kw: f(C, **kw),
    ),
    "kappa_max_uses_max": (
        "kappa_max",
        "p_o,max from max(r_k, c_k) instead of min",
        lambda f: (
            lambda C, **kw: (
                lambda C, N, r, c: _float(
                    (np.maximum(r, c).sum(axis=-1) / N - _pe(r, c, N)) / (1 - _pe(r, c, N))
                )
            )(*_margins(C))
        ),
    ),
    "kappa_standard_error_n_minus_1": (
        "kappa_standard_error",
        "variance divided by N - 1 instead of N",
        lambda f: (
            lambda C, **kw: _scale(
                f(C, **kw),
                np.sqrt(_margins(C)[1] / (_margins(C)[1] - 1)),
            )
        ),
    ),
    "matthews_corrcoef_no_sample_weight": (
        "matthews_corrcoef",
        "sample_weight ignored",
        lambda f: lambda y_true, y_pred, *, sample_weight=None, **kw: f(y_true, y_pred, **kw),
    ),
    "mcc_is_kappa": (
        "mcc",
        "MCC computed as Cohen's kappa",
        lambda f: lambda C, **kw: __import__("kappalib").kappa(C, **kw),
    ),
    "observed_agreement_off_by_one": (
        "observed_agreement",
        "the diagonal summed over range(K - 1)",
        lambda f: (
            lambda C: (
                lambda C, N, r, c: _float(np.einsum("...ii->...i", C)[..., :-1].sum(axis=-1) / N)
            )(*_margins(C))
        ),
    ),
    "off_diagonal_entropy_natural_log": (
        "off_diagonal_entropy",
        "the natural logarithm where base 2 is asked",
        lambda f: lambda C, *, base=2, **kw: f(C, base=math.e if base == 2 else base, **kw),
    ),
    "pabak_over_k": (
        "pabak",
        "(K p_o - 1) / K instead of / (K - 1)",
        lambda f: lambda C: _float(np.asarray(f(C)) * (np.shape(C)[-1] - 1) / np.shape(C)[-1]),
    ),
    "prevalence_index_absolute": (
        "prevalence_index",
        "|a - d| / N: the sign lost",
        lambda f: lambda C: _float(np.abs(np.asarray(f(C)))),
    ),
    "scotts_pi_unpooled_square": (
        "scotts_pi",
        "p_e from sum (r_k / N)^2 + (c_k / N)^2 over 2, not the pooled shares squared",
        lambda f: (
            lambda C, **kw: (
                lambda C, N, r, c: _float(
                    (
                        np.trace(C, axis1=-2, axis2=-1) / N
                        - ((r / N[..., None]) ** 2 + (c / N[..., None]) ** 2).sum(axis=-1) / 2
                    )
                    / (1 - ((r / N[..., None]) ** 2 + (c / N[..., None]) ** 2).sum(axis=-1) / 2)
                )
            )(*_margins(C))
        ),
    ),
    "UndefinedMetricError_not_ValueError": (
        "UndefinedMetricError",
        "the exception no longer a ValueError",
        lambda f: type("UndefinedMetricError", (ArithmeticError,), {}),
    ),
}

# Where each mutant is looked for first (files or test ids, the likeliest killer first); a
# mutant that survives its focus is run against every file of UNIT before it is declared a
# survivor.  The default focus is the two files of hand-computed and published values.
DEFAULT_FOCUS = ["tests/test_oracles.py", "tests/test_seeds.py"]
FOCUS = {
    "cohen_kappa_score_no_sample_weight": [
        "tests/test_parity.py::test_random_pairs_against_sklearn"
    ],
    "cohen_kappa_score_labels_ignored": ["tests/test_parity.py::test_random_pairs_against_sklearn"],
    "matthews_corrcoef_no_sample_weight": [
        "tests/test_parity.py::test_random_pairs_against_sklearn"
    ],
    "disagreement_weights_quadratic_is_linear": ["tests/test_weighted.py"],
    "kappa_confint_confidence_ignored": ["tests/test_oracles.py", "tests/test_weighted.py"],
    "kappa_standard_error_n_minus_1": [
        "tests/test_parity.py::test_standard_error_against_statsmodels"
    ],
    "UndefinedMetricError_not_ValueError": ["tests/test_undefined.py"],
}


def _pe(r, c, N):
    return (r * c).sum(axis=-1) / (N * N)


def _apply(name):
    """Replace the mutated public function everywhere kappalib holds it."""
    import kappalib

    target, _, factory = MUTANTS[name]
    original = getattr(kappalib, target)
    bare = factory(original)
    if callable(bare) and not isinstance(bare, type):

        @functools.wraps(original)  # the same name and signature as the public function
        def mutant(*args, **kwargs):
            if len(args) > 1 and hasattr(original, "__wrapped__"):
                return original(*args, **kwargs)  # a matrix function's own pointer message
            return bare(*args, **kwargs)

    else:
        mutant = bare
    for modname, module in list(sys.modules.items()):
        if modname == "kappalib" or modname.startswith("kappalib."):
            for attr, value in list(vars(module).items()):
                if value is original:
                    setattr(module, attr, mutant)


def pytest_configure(config):
    name = os.environ.get(ENV)
    if name:
        import kappalib.widgets  # noqa: F401  (load the submodules so that they get patched)

        _apply(name)


def _run(selection, mutant=None):
    env = dict(os.environ)
    env.pop(ENV, None)
    if mutant:
        env[ENV] = mutant
    env["PYTHONPATH"] = os.pathsep.join(filter(None, ["tests", env.get("PYTHONPATH")]))
    cmd = [sys.executable, "-m", "pytest", "-p", "mutants", "-p", "no:xdist", "-x", "-q"]
    cmd += ["-rf", "--no-header", "-o", "addopts=-p no:cacheprovider", *selection]
    t0 = time.perf_counter()
    out = subprocess.run(cmd, env=env, capture_output=True, text=True)
    failed = re.findall(r"^(?:FAILED|ERROR) (\S+)", out.stdout, flags=re.MULTILINE)
    return out.returncode, failed, out.stdout, time.perf_counter() - t0


def _check(name):
    """(name, killer test or None, seconds)."""
    focus = FOCUS.get(name, DEFAULT_FOCUS)
    code, failed, _, seconds = _run(focus, name)
    if code != 0 and failed:
        return name, failed[0], seconds
    code, failed, _, more = _run(UNIT, name)  # not in its focus: the whole unit suite
    return name, (failed[0] if code != 0 and failed else None), seconds + more


def main(argv):
    names = argv or list(MUTANTS)
    unknown = [n for n in names if n not in MUTANTS]
    if unknown:
        print(f"unknown mutants: {unknown}; known: {sorted(MUTANTS)}")
        return 2
    t0 = time.perf_counter()
    baseline = sorted({f.split("::")[0] for n in names for f in FOCUS.get(n, DEFAULT_FOCUS)})
    code, _, out, seconds = _run(baseline)
    if code != 0:
        print(out[-3000:])
        print("the unit tests fail without any mutant: fix them first")
        return 1
    print(f"baseline, no mutant: {len(baseline)} test files pass ({seconds:.0f} s)\n")
    with ThreadPoolExecutor(max_workers=WORKERS) as pool:
        results = list(pool.map(_check, names))
    width = max(map(len, names))
    print(f"{'mutant':<{width}}  {'function':<22} killed by")
    survivors = []
    for name, killer, seconds in results:
        target = MUTANTS[name][0]
        if killer is None:
            survivors.append(name)
        print(f"{name:<{width}}  {target:<22} {killer or 'SURVIVED'}  ({seconds:.0f} s)")
    functions = {MUTANTS[n][0] for n in names}
    print(
        f"\n{len(names) - len(survivors)} of {len(names)} mutants killed, covering "
        f"{len(functions)} public names, in {time.perf_counter() - t0:.0f} s"
    )
    if survivors:
        print("SURVIVORS (each marks a missing oracle): " + ", ".join(survivors))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
