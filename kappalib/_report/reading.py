"""How the reports and the command line read strings as the user meant them, and say so.

* A missing-value token (``kappalib._input.missing``: blank, ``NA``, ``N/A``, ``NaN``,
  ``null``, ``#N/A``, ``<NA>``, ``.``, ``-``, any case; ``na_values=`` replaces the list) is a
  missing rating, unless ``labels=`` lists it.
* Spellings that differ only by case or surrounding space ('Moderate', 'moderate') are
  refused with both named, unless ``labels=`` gives the categories: a variant of exactly one
  listed category is then read as it (``kappalib._input.labels.case_variants``).
* Each reading is said in the report: "Read as missing: 'NA' (2 cells)." and "Read as the
  categories listed: 'Moderate' as 'moderate' (3 cells)."

Only the cells change; the report's numbers are then those of the library's functions on
the cells as read.
"""

from __future__ import annotations

import warnings
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._input.labels import case_variants, is_missing_label
from .._input.missing import check_na_values, classify, spelling_text
from .._input.ratings import is_dataframe
from .._shared.messages import short
from .._shared.words import join_words, label_text, plural, say


@dataclass
class Reading:
    """What reading the strings did: the count of each spelling read as missing, and each
    case variant read as a listed category with its count."""

    missing: dict[str, int] = field(default_factory=dict)
    read_as: dict[str, str] = field(default_factory=dict)
    variants: dict[str, int] = field(default_factory=dict)

    def caveats(self) -> tuple[str, ...]:
        said = [missing_caveat(self.missing), variants_caveat(self.read_as, self.variants)]
        return tuple(s for s in said if s)


def missing_caveat(read_as_missing: dict[str, int]) -> str | None:
    """The sentence that says which spellings were read as missing ratings and how often
    (a blank is not named: it is missing by any rule), or None."""
    named = [(s, n) for s, n in read_as_missing.items() if s.strip() and n]
    if not named:
        return None
    spellings = [
        say("missing.spelling", spelling=spelling_text(s), n=n, cell=plural("cell", n))
        for s, n in named
    ]
    return say("missing.read_as", spellings=join_words(spellings))


def variants_caveat(read_as: dict[str, str], counts: dict[str, int]) -> str | None:
    """The sentence that says which spellings were read as a listed category ('Moderate' as
    'moderate', labels given) and how often, or None."""
    named = [(s, label) for s, label in read_as.items() if counts.get(s)]
    if not named:
        return None
    spellings = [
        say(
            "spelling.variant",
            spelling=repr(s),
            label=repr(label),
            n=counts[s],
            cell=plural("cell", counts[s]),
        )
        for s, label in named
    ]
    return say("spelling.read_as", spellings=join_words(spellings))


def decimal_caveat(example: str | None, value: float | None) -> str | None:
    """The sentence that says the numbers were read with a decimal comma (the command line),
    with one cell as an example, or None."""
    if example is None or value is None:
        return None
    return say("decimal.comma", example=repr(example), value=label_text(value))


def _listed(labels: Any) -> list[Any] | None:
    if labels is None or isinstance(labels, str) or not hasattr(labels, "__iter__"):
        return None  # a bad labels= is the functions' to refuse, in their words
    return [v.item() if isinstance(v, np.generic) else v for v in labels]


def _categorical(y: Any) -> bool:
    return hasattr(getattr(y, "dtype", None), "categories")


def _cells(y: Any) -> np.ndarray | None:
    """The values as an object array, or None when they hold no string (numbers, or a
    pandas Categorical, whose categories the user declared)."""
    if _categorical(y):
        return None
    if is_dataframe(y):
        if all(getattr(dt, "kind", "O") in "biufcmM" for dt in y.dtypes):
            return None  # numbers only: nothing to read
        arr = y.astype(object).to_numpy(dtype=object)
        for j, name in enumerate(y.columns):
            if _categorical(y[name]):
                arr[:, j] = None  # declared categories: not read here, not rewritten
        return arr if any(isinstance(v, str) for v in arr.flat) else None
    dtype = getattr(y, "dtype", None)
    if dtype is not None and getattr(dtype, "kind", "O") in "biufcmM":
        return None
    if isinstance(y, np.ndarray) and y.dtype.kind in "US":
        return y if y.size else None  # counted and rewritten by numpy, not cell by cell
    try:
        arr = np.asarray(y, dtype=object)
    except (ValueError, TypeError):
        return None  # ragged or odd: the functions explain
    if arr.size == 0 or not any(isinstance(v, str) for v in arr.flat):
        return None
    return arr


# pandas.read_csv's default na_values (pandas' STR_NA_VALUES): strings it turns into NaN
PANDAS_NA = frozenset(
    {"", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND"}
    | {"1.#QNAN", "<NA>", "N/A", "NA", "NULL", "NaN", "None", "n/a", "nan", "null"}
)


def _warn_pandas_na(
    columns: list[Any], listed: list[Any] | None, strings: Counter[str], stacklevel: int
) -> None:
    """Warn when ``labels`` lists a string that pandas.read_csv reads as NaN by default, no
    cell holds it, and pandas data hold missing values: the category was probably read as
    missing before kappalib saw it, and the units that held it would be dropped."""
    if not listed:
        return
    lost = [v for v in listed if isinstance(v, str) and v in PANDAS_NA and v not in strings]
    frames = [c for c in columns if type(c).__module__.split(".")[0] == "pandas"]
    if not lost or not frames:
        return
    holes = sum(
        sum(map(is_missing_label, np.asarray(c, dtype=object).ravel().tolist())) for c in frames
    )
    if holes:
        warnings.warn(
            f"labels lists {lost[0]!r}, which pandas.read_csv reads as a missing value by "
            f"default, and no rating is {lost[0]!r} while {holes} are missing: if the file "
            f"has {lost[0]!r} ratings, read it with pd.read_csv(..., keep_default_na=False) "
            "(a blank cell then stays '', which kappalib reads as missing)",
            UserWarning,
            stacklevel=stacklevel + 1,
        )


def _shown(spelling: str) -> str:
    return "a blank string" if not spelling.strip() else repr(spelling)


SHOWN = 5  # outside values named in one sentence; the rest are counted


def _check_listed(
    kept: list[str], read_as: dict[str, str], listed: list[Any], strings: Counter[str]
) -> None:
    """Every rating outside ``labels``, named at once (up to a few) with its count."""
    allowed = set(listed)
    outside = [s for s in kept if s not in allowed and s not in read_as]
    if not outside:
        return
    named = [f"{s!r} ({strings[s]} {plural('cell', strings[s])})" for s in outside[:SHOWN]]
    more = f" and {len(outside) - SHOWN} more" if len(outside) > SHOWN else ""
    raise ValueError(
        f"ratings hold {', '.join(named)}{more}, which labels={short(listed)} does not list; "
        f"correct {'it' if len(outside) == 1 else 'them'}, or add "
        f"{'it' if len(outside) == 1 else 'them'} to labels"
    )


def read_strings(
    columns: list[Any],
    labels: Any,
    na_values: Any,
    names: str,
    *,
    missing: str = "drop",
    stacklevel: int = 3,
) -> tuple[list[Any], Reading]:
    """``columns`` (label vectors, or one ratings table) with tokens made None and case
    variants read as listed, and what was read.  Raises one sentence on a case clash without
    ``labels``, on a default token that ``na_values`` leaves out and ``labels`` does not list,
    and on a token with ``missing="raise"``.  ``stacklevel``: the caller's depth below the
    user's code, for the warning about pandas' missing values (3: a public function calls
    this directly)."""
    tokens = check_na_values(na_values)
    listed = _listed(labels)
    reading = Reading()
    cells = [_cells(c) for c in columns]
    strings: Counter[str] = Counter()
    for arr in cells:
        if arr is not None and arr.dtype.kind in "US":
            values, counts = np.unique(arr, return_counts=True)
            strings.update(dict(zip(map(str, values.tolist()), counts.tolist(), strict=True)))
        elif arr is not None:
            strings.update(str(v) for v in arr.flat if isinstance(v, str))  # np.str_ too
    _warn_pandas_na(columns, listed, strings, stacklevel + 1)
    if not strings:
        return columns, reading
    gone, undecided = classify(strings, tokens, listed)
    if undecided:
        raise ValueError(
            f"{names} hold {undecided[0]!r}, which reads as a missing rating, but na_values= "
            "does not list it: add it to na_values, or list it in labels= if it is a category"
        )
    if gone and missing == "raise":
        first = gone[0]
        listable = ", or list it in labels= if it is a category" if first.strip() else ""
        raise ValueError(
            f"{names} hold {_shown(first)} ({strings[first]} of them), which reads as a "
            "missing label; pass missing='drop' to leave those units out (the report says how "
            f"many){listable}"
        )
    reading.missing = {s: strings[s] for s in gone}
    kept = [s for s in strings if s not in reading.missing]
    read_as, clashes = case_variants(kept, listed)
    if clashes:
        group = " and ".join(repr(w) for w in clashes[0][:4])
        raise ValueError(
            f"{names} spell one category two ways: {group} differ only by case or surrounding "
            "space; correct the spelling, or pass labels=[...] (a case variant of one listed "
            "category is then read as it; list both spellings if they are two categories)"
        )
    reading.read_as = read_as
    reading.variants = {s: strings[s] for s in read_as}
    if listed is not None and names == "ratings":
        _check_listed(kept, read_as, listed, strings)
    if not gone and not read_as:
        return columns, reading
    drop = set(gone)
    out = []
    for col, arr in zip(columns, cells, strict=True):
        if arr is None:
            out.append(col)
            continue
        if arr.dtype.kind in "US":
            new = arr.astype(object)
            for s, label in read_as.items():
                new[arr == s] = label
            if drop:
                new[np.isin(arr, list(drop))] = None
        else:
            flat = np.empty(arr.size, dtype=object)
            flat[:] = [(None if v in drop else read_as.get(v, v)) if isinstance(v, str) else v
                       for v in arr.flat]  # fmt: skip
            new = flat.reshape(arr.shape)
        if is_dataframe(col):
            frame = col.copy()
            for j, name in enumerate(col.columns):
                if not _categorical(col[name]):
                    frame[name] = new[:, j]
            out.append(frame)
        else:
            out.append(new)
    return out, reading
