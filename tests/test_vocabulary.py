"""One name per idea (issue 31): every public signature and result field of kappalib against
the vocabulary of ARCHITECTURE.md, which is written once, there.

The two tables of its "Vocabulary" section are read here: a parameter of a public function
(of ``kappalib``, ``kappalib.results``, ``families``, ``closed_forms``, ``datasets``,
``plotting``, ``widgets``, or a public method of a result), an option of the command line, or
a field of a result class must be one of the names listed, and the values of a ``Literal``
must be among those its row lists.  Old names (``categories``, ``level``, ``statistic=``,
``confidence``, ``kind``, ``weights``, ``y_true``, ``reliability_data``, ...) are in neither
table, so they fail here, and the deprecation shims of 0.1 are gone.
"""

from __future__ import annotations

import dataclasses
import inspect
import re
import types
import typing
from pathlib import Path

import pytest

import kappalib as kl
from kappalib import closed_forms, datasets, families, plotting, results

ROOT = Path(__file__).resolve().parents[1]


def _tables():
    """{"Parameters": {name: set of values}, "Results": {name: set()}} from ARCHITECTURE.md."""
    text = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")
    section = text.split("\n## Vocabulary\n", 1)[1].split("\n## ", 1)[0]
    tables: dict[str, dict[str, set[str]]] = {}
    current = None
    for line in section.splitlines():
        if line.startswith("### "):
            current = tables.setdefault(line[4:].strip(), {})
        elif line.startswith("| ") and current is not None and not line.startswith("| idea"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            if set(cells[0]) <= {"-", " "}:
                continue
            names = re.findall(r"`([A-Za-z_][A-Za-z_0-9]*)`", cells[1])
            values = set(re.findall(r'`"([^"`]*)"`', cells[2])) if len(cells) > 2 else set()
            if len(cells) > 2 and "`None`" in cells[2]:
                values.add(None)
            for name in names:
                current.setdefault(name, set()).update(values)
    return tables


TABLES = _tables()
PARAMETERS = TABLES["Parameters"]
RESULTS = TABLES["Results"]


def _widgets():
    pytest.importorskip("ipywidgets")
    pytest.importorskip("matplotlib")
    from kappalib import widgets

    return widgets


def _public_callables():
    """(where, callable) of every public function and result method."""
    out = []
    for module, names in (
        (kl, kl.__all__),
        (families, families.__all__),
        (closed_forms, closed_forms.__all__),
        (datasets, datasets.__all__),
        (plotting, plotting.__all__),
    ):
        for name in names:
            obj = getattr(module, name)
            if isinstance(obj, types.FunctionType) or hasattr(obj, "__wrapped__"):
                out.append((f"{module.__name__}.{name}", obj))
    for name in results.__all__:
        cls = getattr(results, name)
        for attr, member in vars(cls).items():
            if not attr.startswith("_") and isinstance(member, types.FunctionType):
                out.append((f"results.{name}.{attr}", member))
        if "__new__" in vars(cls) and not issubclass(cls, tuple):
            out.append((f"results.{name}", cls.__new__))
    return out


def _result_classes():
    return [getattr(results, name) for name in results.__all__] + [datasets.Dataset]


def _parameters(func):
    return [
        p
        for p in inspect.signature(func).parameters.values()
        if p.name not in ("self", "cls") and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
    ]


def _literals(annotation):
    """The values of every Literal inside an annotation."""
    if typing.get_origin(annotation) is typing.Literal:
        return set(typing.get_args(annotation))
    out = set()
    for arg in typing.get_args(annotation):
        out |= _literals(arg)
    return out


CALLABLES = [pytest.param(where, func, id=where) for where, func in _public_callables()]


@pytest.mark.parametrize(("where", "func"), CALLABLES)
def test_every_parameter_name_is_in_the_vocabulary(where, func):
    unknown = [p.name for p in _parameters(func) if p.name not in PARAMETERS]
    assert not unknown, f"{where}: {unknown} are not in ARCHITECTURE.md's vocabulary"


@pytest.mark.parametrize(("where", "func"), CALLABLES)
def test_every_literal_value_is_in_its_row(where, func):
    hints = typing.get_type_hints(func)
    for p in _parameters(func):
        values = _literals(hints.get(p.name))
        if values:
            allowed = PARAMETERS.get(p.name, set())
            assert values <= allowed, f"{where}({p.name}=): {values - allowed} not in its row"


def test_the_widgets_use_the_vocabulary():
    widgets = _widgets()
    for name in dir(widgets):
        obj = getattr(widgets, name)
        if name.startswith("_") or not isinstance(obj, types.FunctionType):
            continue
        unknown = [p.name for p in _parameters(obj) if p.name not in PARAMETERS]
        assert not unknown, f"widgets.{name}: {unknown} are not in the vocabulary"


@pytest.mark.parametrize("cls", _result_classes(), ids=lambda c: c.__name__)
def test_every_result_field_is_in_the_vocabulary(cls):
    if dataclasses.is_dataclass(cls):
        fields = [f.name for f in dataclasses.fields(cls)]
    elif hasattr(cls, "_fields"):
        fields = list(cls._fields)
    else:
        fields = ["labels", "ordered"]  # the labelled arrays' attributes
    fields += [n for n, v in vars(cls).items() if isinstance(v, property) and n != "T"]
    unknown = [f for f in fields if f not in RESULTS]
    assert not unknown, f"{cls.__name__}: {unknown} are not in the results' vocabulary"


def test_the_command_line_speaks_the_same_words(capsys):
    """Every option of ``python -m kappalib report`` (read from its --help) is a name of the
    vocabulary with dashes, and every choice it offers is among its row's values."""
    from kappalib.__main__ import main

    with pytest.raises(SystemExit):
        main(["report", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    options = re.findall(r"(--[a-z][a-z-]*)(?: \{([^}]*)\})?", text)
    assert len({o for o, _ in options}) >= 12, text
    cli_only = {"help", "csv", "html", "ratings"}  # the file, the page, "a ratings table"
    for option, choices in options:
        dest = option[2:].replace("-", "_")
        assert dest in PARAMETERS or dest in cli_only, option
        if choices:
            offered = {c.strip().strip("'") for c in choices.split(",")}
            assert offered <= PARAMETERS[dest], (option, offered)
    assert "(default: units x raters)" in text or "'units x raters' (default)" in text


def test_the_old_names_are_gone():
    """0.1.0 was never published: its deprecated names are deleted, not kept as shims."""
    for old in ("kappa_bootstrap_ci", "paired_difference_ci"):
        assert not hasattr(kl, old), old
    retired = {
        "categories",
        "level",
        "statistic",
        "confidence",
        "kind",
        "weights",
        "y_true",
        "y_pred",
        "reliability_data",
        "interval",
        "x",
        "y",
        "K",
    }
    assert not retired & set(PARAMETERS) - {"statistic"}
    for where, func in _public_callables():
        names = {p.name for p in _parameters(func)}
        assert not names & retired, (where, names & retired)


def test_a_plain_sentence_for_an_old_keyword():
    """What a user of the old names sees: Python's own TypeError, naming the keyword."""
    with pytest.raises(TypeError, match="categories"):
        kl.gwet_ac1([[8, 2], [1, 9]], categories=[0, 1])  # migrate_names: keep
    with pytest.raises(TypeError, match="weights"):
        kl.cohen_kappa_score([0, 1], [0, 1], weights="linear")  # migrate_names: keep
