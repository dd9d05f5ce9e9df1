"""The types that reach a user (issues 22 and 31).

mypy (pinned in requirements.txt) runs with ``--strict`` on a user's script of about twenty
calls, in a temporary folder, against the checkout's kappalib; its ``reveal_type`` notes are
the oracle.  What a user holds is always a public type: a float, None, a numpy array or a
class of ``kappalib.results``; never ``Any`` (so ``s.no_such_attribute`` is an error) and
never a private module's class.  A runtime check holds every public function's return
annotation to the same rule: no ``Any``, and no bare tuple (a named result instead).
"""

import re
import subprocess
import sys
import textwrap
import types
import typing
from pathlib import Path

import pytest

import kappalib as kl
from kappalib import closed_forms, datasets, families

pytestmark = pytest.mark.toolchain

ROOT = Path(__file__).resolve().parents[1]

SCRIPT = textwrap.dedent(
    """
    import numpy as np
    import kappalib as kl
    from kappalib import closed_forms as cf
    from kappalib import datasets

    C = [[8, 2], [1, 9]]
    T = [[2, 0], [1, 1], [0, 2]]
    y1 = ["a", "b", "a", "b"]
    y2 = ["a", "a", "b", "b"]
    reveal_type(kl.kappa(C))
    reveal_type(kl.mcc(C))
    reveal_type(kl.kappa(np.ones((10, 2, 2))))
    reveal_type(kl.kappa_confint(C))
    reveal_type(kl.bootstrap_confint(C, rng=0))
    reveal_type(kl.cohen_kappa_score(y1, y2))
    reveal_type(kl.cohen_kappa_confint(y1, y2))
    reveal_type(kl.confusion_matrix(y1, y2))
    reveal_type(kl.labels_from_matrix(C))
    reveal_type(kl.rating_table([[1, 2], [1, 1]]))
    reveal_type(kl.krippendorff_alpha([[1, 2], [1, 1]]))
    reveal_type(kl.fleiss_kappa(T))
    reveal_type(kl.ratings_confint(T, coefficient="ac1"))
    reveal_type(kl.specific_agreement(C))
    reveal_type(kl.class_validity(C))
    reveal_type(kl.category_fleiss_kappas(T))
    reveal_type(kl.mcnemar_test(C))
    reveal_type(kl.icc([[1, 2], [2, 3], [3, 3]], layout="units x raters"))
    reveal_type(kl.lins_ccc([1, 2, 3], [1, 2, 4]))
    reveal_type(kl.agreement_report(C=C))
    reveal_type(kl.ratings_report(table=T))
    reveal_type(kl.ratings_report(T, level_of_measurement="interval"))
    reveal_type(cf.binary_alpha_beta(C))
    reveal_type(datasets.load("fleiss1971_diagnoses"))
    low, high = kl.kappa_confint(C)
    reveal_type(low)
    report = kl.agreement_report(C=C)
    reveal_type(report.confidence_interval.low)
    reveal_type(report.bias_test)
    reveal_type(report.C.labels)
    kl.kappa(C, weight="linear")
    kl.specific_agreement(C).no_such_attribute
    """
)


@pytest.fixture(scope="module")
def revealed(tmp_path_factory):
    pytest.importorskip("mypy")
    folder = tmp_path_factory.mktemp("typing")
    (folder / "user.py").write_text(SCRIPT)
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--follow-imports=silent",  # the user's script is held to --strict, not kappalib
            "--no-incremental",
            "--cache-dir",
            str(folder / "c"),
            "--python-version",
            "3.11",
            str(folder / "user.py"),
        ],
        capture_output=True,
        text=True,
        cwd=folder,
        env={"MYPYPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )
    notes = re.findall(r"user\.py:(\d+): note: Revealed type is \"(.*)\"", run.stdout)
    errors = re.findall(r"user\.py:(\d+): error: (.*)", run.stdout)
    notes = {line: kind.replace("builtins.", "") for line, kind in notes}
    return notes, errors, run.stdout


def _line(text):
    return str(SCRIPT.splitlines().index(text) + 1)


def _note(revealed, call):
    notes, _, out = revealed
    return notes[_line(f"reveal_type({call})")], out


def test_one_matrix_gives_a_float_or_none(revealed):
    for call in (
        "kl.kappa(C)",
        "kl.mcc(C)",
        "kl.cohen_kappa_score(y1, y2)",
        "kl.krippendorff_alpha([[1, 2], [1, 1]])",
        "kl.fleiss_kappa(T)",
        "low",
    ):
        note, out = _note(revealed, call)
        assert note == "float | None", (call, out)
    note, out = _note(revealed, "kl.kappa(np.ones((10, 2, 2)))")
    assert "ndarray" in note and "float" in note, out  # a stack may give an array


def test_results_are_the_public_classes(revealed):
    want = {
        "kl.kappa_confint(C)": "ConfidenceInterval[float | None]",
        "kl.bootstrap_confint(C, rng=0)": "ConfidenceInterval[float | None]",
        "kl.cohen_kappa_confint(y1, y2)": "ConfidenceInterval[float | None]",
        'kl.ratings_confint(T, coefficient="ac1")': "ConfidenceInterval[float | None]",
        "kl.confusion_matrix(y1, y2)": "kappalib.results.ConfusionMatrix",
        "kl.labels_from_matrix(C)": "LabelPair",
        "kl.rating_table([[1, 2], [1, 1]])": "kappalib.results.RatingTable",
        "kl.specific_agreement(C)": "kappalib.results.SpecificAgreement",
        "kl.class_validity(C)": "kappalib.results.ClassValidity",
        "kl.category_fleiss_kappas(T)": "kappalib.results.CategoryKappas",
        "kl.mcnemar_test(C)": "kappalib.results.BiasTest",
        'kl.icc([[1, 2], [2, 3], [3, 3]], layout="units x raters")': "kappalib.results.ICCResult",
        "kl.lins_ccc([1, 2, 3], [1, 2, 4])": "kappalib.results.CCCResult",
        "kl.agreement_report(C=C)": "kappalib.results.AgreementReport",
        "kl.ratings_report(table=T)": "kappalib.results.RatingsReport",
        # the return type follows the level (overloads): measurements get their own report
        'kl.ratings_report(T, level_of_measurement="interval")': (
            "kappalib.results.MeasurementsReport"
        ),
        "cf.binary_alpha_beta(C)": "AlphaBeta",
        'datasets.load("fleiss1971_diagnoses")': "kappalib.datasets.Dataset",
        "report.bias_test": "kappalib.results.BiasTest | None",
        "report.confidence_interval.low": "float",
    }
    for call, expected in want.items():
        note, _ = _note(revealed, call)
        assert expected in note, (call, note)


def test_nothing_revealed_is_any_or_private(revealed):
    notes, _, out = revealed
    assert len(notes) == SCRIPT.count("reveal_type("), out
    for line, note in notes.items():
        # numpy's own parameters (an ndarray of any shape and dtype) are not kappalib's
        plain = re.sub(
            r"numpy\.ndarray\[tuple\[Any, \.\.\.\], numpy\.dtype\[Any\]\]", "ndarray", note
        )
        assert "Any" not in plain, (line, note)
        assert not re.search(r"kappalib\._|kappalib\.\w+\._", note), (line, note)


def test_strict_mypy_finds_only_the_planted_errors(revealed):
    """Before ParamSpec, kl.kappa was Any: a misspelt keyword went unnoticed; before the
    result classes, specific_agreement was Any: a misspelt attribute went unnoticed."""
    _, errors, out = revealed
    lines = {line for line, _ in errors}
    assert lines == {
        _line('kl.kappa(C, weight="linear")'),
        _line("kl.specific_agreement(C).no_such_attribute"),
    }, out


def _public_functions():
    modules = [(kl, kl.__all__), (families, families.__all__)]
    modules += [(closed_forms, closed_forms.__all__), (datasets, datasets.__all__)]
    for module, names in modules:
        for name in names:
            obj = getattr(module, name)
            if isinstance(obj, types.FunctionType):
                yield pytest.param(obj, id=f"{module.__name__}.{name}")


@pytest.mark.parametrize("func", list(_public_functions()))
def test_no_public_function_returns_any_or_a_bare_tuple(func):
    returned = typing.get_type_hints(func)["return"]

    def parts(t):
        yield t
        for arg in typing.get_args(t):
            yield from parts(arg)

    for part in parts(returned):
        assert part is not typing.Any, returned
        origin = typing.get_origin(part) or part
        sequence = origin is tuple and Ellipsis in typing.get_args(part)  # tuple[str, ...]
        assert origin is not tuple or sequence, f"{func.__name__} returns a bare tuple: {returned}"
