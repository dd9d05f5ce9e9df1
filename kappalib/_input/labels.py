"""Check label vectors (the two-rater front ends' input): what a label is (all numbers or
all strings, one rule), missing labels, a ``labels=`` list, ``sample_weight``, the order of
ordered pandas Categoricals."""

from __future__ import annotations

import math
import numbers
import sys
import warnings
from pathlib import Path

import numpy as np

from .._shared.errors import LabelKindError
from .._shared.messages import short
from .missing import DEFAULT_TOKENS, token_key


def has_big_int(y):
    """Does the sequence hold an integer (Python's or numpy's) that float64 cannot represent
    exactly?  np.asarray turns [2**64 - 4, 0], or [np.uint64(2**63), np.int64(3)], into
    float64, which rounds them."""
    return any(
        isinstance(x, (int, np.integer)) and not isinstance(x, bool) and not -(2**53) <= x <= 2**53
        for x in y
    )


LABEL_RULE = "labels must be all numbers or all strings, in {names} together"


def value_kind(value):
    """'number', 'string', or None for a value that is neither."""
    if isinstance(value, str):
        return "string"
    if isinstance(value, (numbers.Real, np.bool_)) and not isinstance(value, np.timedelta64):
        return "number"
    return None


def missing_message(name, first, count, size):
    return (
        f"{name} must not contain missing (NaN or None) labels, got one at index {first} "
        f"({count} of {size} cases); drop those cases from both vectors first, for example "
        "with df.dropna(subset=[...]) on a DataFrame, or keep = ~np.isnan(y1) & ~np.isnan(y2)"
    )


def is_missing_label(v):
    return (
        v is None
        or (isinstance(v, (float, np.floating)) and v != v)
        or (type(v).__name__ in ("NAType", "NaTType"))
    )


def check_values(values, name, names):
    """The kind shared by ``values`` (Python objects); raise on NaN, None or a mix."""
    kinds = set()
    for v in values:
        kind = value_kind(v)
        if kind is None:
            raise LabelKindError(
                f"{name} must hold numbers or strings ({LABEL_RULE.format(names=names)}), "
                f"got {v!r} of type {type(v).__name__}"
            )
        if kind == "number" and isinstance(v, (float, np.floating)) and math.isnan(v):
            raise ValueError(f"{name} must not contain NaN labels, got {v!r}")
        kinds.add(kind)
    if len(kinds) > 1:
        raise LabelKindError(
            f"{LABEL_RULE.format(names=names)}, got both numbers and strings in {name}: "
            f"{short(list(values))}"
        )
    return kinds.pop() if kinds else None


class CategoricalCodes:
    """A pandas Categorical read through its integer codes and its categories (issue 30,
    item 15): 1e7 strings are never turned into 1e7 Python objects.  ``codes`` is the
    Categorical's own array (-1 for a missing value), ``categories`` a list of Python values."""

    __slots__ = ("categories", "codes")
    dtype = np.dtype(object)  # never an integer fast path

    def __init__(self, codes, categories):
        self.codes, self.categories = codes, categories

    @property
    def shape(self):
        return self.codes.shape

    def __len__(self):
        return self.codes.shape[0]

    def __array__(self, dtype=None, copy=None):  # the error paths only: decoded, slowly
        out = np.array([*self.categories, None], dtype=object)[self.codes]
        return out if dtype is None else out.astype(dtype)


def categorical_codes(y):
    """A pandas Categorical, or a Series or Index of one, as :class:`CategoricalCodes`; else
    None.  Duck-typed on pandas' own names (``.cat`` / ``.codes`` and ``.categories``), so
    pandas is never imported here."""
    dtype = getattr(y, "dtype", None)
    if getattr(dtype, "name", None) != "category" or not hasattr(dtype, "categories"):
        return None
    if not type(y).__module__.startswith("pandas"):
        return None
    cat = y.array if hasattr(y, "array") else y  # Series / Index -> Categorical
    codes = np.asarray(getattr(cat, "codes", None))
    if codes.ndim != 1 or codes.dtype.kind not in "iu":
        return None
    categories = [v.item() if isinstance(v, np.generic) else v for v in dtype.categories.tolist()]
    return CategoricalCodes(codes, categories)


def as_vector(y, name, names):
    """y as a 1-D array and its kind ('number', 'string' or 'object' to be checked later),
    or a pandas Categorical as :class:`CategoricalCodes` of kind 'categorical'."""
    coded = categorical_codes(y)
    if coded is not None:
        if coded.shape[0] == 0:
            raise ValueError(f"{name} must contain at least one label, got an empty sequence")
        return coded, "categorical"
    try:
        arr = np.asarray(y)
    except Exception as exc:
        raise TypeError(
            f"{name} must be a 1-D array-like of labels, got {short(y)} ({exc})"
        ) from None
    if arr.ndim != 1:
        raise ValueError(
            f"{name} must be a 1-D array-like of labels, got shape {arr.shape}: {short(y)}"
        )
    if arr.shape[0] == 0:
        raise ValueError(f"{name} must contain at least one label, got an empty sequence")
    kind = arr.dtype.kind
    if kind == "f" and not isinstance(y, np.ndarray) and has_big_int(y):
        # np.asarray([0, 2**64 - 4]) rounds to float64: keep the Python integers exact
        arr, kind = np.asarray(y, dtype=object), "O"
    if kind in "biuf":
        if kind == "f":
            nan = np.isnan(arr)
            if nan.any():
                raise ValueError(
                    missing_message(name, int(np.argmax(nan)), int(nan.sum()), nan.size)
                )
        return arr, "number"
    if kind in "US":
        if not isinstance(y, np.ndarray):
            # np.asarray(["a", 1]) silently gives strings: check the original elements' types
            types = set(map(type, y))
            if not all(issubclass(t, (str, bytes)) for t in types):
                check_values(dict.fromkeys(y), name, names)
        return arr, "string"
    if kind == "O":
        return arr, "object"
    raise LabelKindError(
        f"{name} must hold numbers or strings ({LABEL_RULE.format(names=names)}), got an array "
        f"of dtype {arr.dtype}: {short(y)}"
    )


def check_pair(y1, y2, names, together):
    a, ka = as_vector(y1, names[0], together)
    b, kb = as_vector(y2, names[1], together)
    if a.shape[0] != b.shape[0]:
        raise ValueError(
            f"{names[0]} and {names[1]} must have the same length, got {a.shape[0]} and "
            f"{b.shape[0]}"
        )
    return (a, ka), (b, kb)


def check_sample_weight(sample_weight, n):
    if sample_weight is None:
        return None
    w = np.asarray(sample_weight)
    if w.dtype == object or not (np.issubdtype(w.dtype, np.number) or w.dtype == np.bool_):
        raise TypeError(f"sample_weight must be numbers, got {short(sample_weight)}")
    w = w.astype(np.float64)
    if w.ndim != 1 or w.shape[0] != n:
        raise ValueError(
            f"sample_weight must have one weight per case ({n}), got shape {w.shape}: "
            f"{short(sample_weight)}"
        )
    if not np.isfinite(w).all():
        raise ValueError(f"sample_weight must be finite, got {short(w.tolist())}")
    if (w < 0).any():
        bad = float(w[np.argmax(w < 0)])
        raise ValueError(
            f"sample_weight must be non-negative, got {bad!r} among {short(w.tolist())}"
        )
    return w


def check_labels(labels, names):
    """The ``labels`` argument as a list of Python values, and their kind."""
    arr = np.asarray(labels)
    if arr.ndim != 1 or arr.shape[0] == 0:
        raise ValueError(f"labels must be a non-empty 1-D sequence, got {short(labels)}")
    values = list(labels) if not isinstance(labels, np.ndarray) else arr.tolist()
    values = [v.item() if isinstance(v, np.generic) else v for v in values]
    kind = check_values(values, "labels", names)
    if len(set(values)) != len(values):
        seen, dup = set(), None
        for v in values:
            if v in seen:
                dup = v
                break
            seen.add(v)
        raise ValueError(f"labels must not repeat a label, got {dup!r} twice in {short(values)}")
    return values, kind


_PACKAGE = str(Path(__file__).resolve().parents[1])


_REPORTS = str(Path(_PACKAGE) / "_report")


def user_stacklevel():
    """The ``stacklevel`` of the first frame outside kappalib, seen from the function that
    calls ``warnings.warn`` (so that a warning names the user's line), and whether a report
    (``kappalib/_report``) is on the way (it refuses what the functions warn about)."""
    level, frame, report = 1, sys._getframe(1), False
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        report = report or frame.f_code.co_filename.startswith(_REPORTS)
        frame, level = frame.f_back, level + 1
    return level, report


def warn_left_out(left_out, n, order, outside, names):
    """Say that ``labels=`` left ``left_out`` of ``n`` cases out.

    The rule of the functions that follow scikit-learn (``confusion_matrix``,
    ``cohen_kappa_score``, ...): a case with a label outside ``labels`` is left out, as
    scikit-learn leaves it out, so that the number is scikit-learn's; but never silently.
    (The reports refuse instead: a report's number is cited, and a label missing from the
    list is most often a typo.)
    """
    if not left_out:
        return
    level, report = user_stacklevel()
    if not report:
        names = list(names)
        where = " or ".join([", ".join(names[:-1]), names[-1]]) if len(names) > 1 else names[0]
        warnings.warn(
            f"labels={short(order, 60)} leaves out {left_out} of {n} cases, whose label in "
            f"{where} is not listed ({short(outside, 60)}), as scikit-learn leaves them out; "
            "list those labels to count the cases, or drop the cases first to silence this",
            UserWarning,
            stacklevel=level,
        )


def refuse_missing_tokens(arrays, distinct, names, labels):
    """Refuse a string label that reads as missing (``_input/missing.py``: blank, ``NA``,
    ``N/A``, ``NaN``, ``null``, ``#N/A``, ``<NA>``, ``.``, ``-``, any case) unless ``labels``
    lists it; a blank is refused even then.  ``distinct`` holds each vector's distinct
    labels, so the check costs one look-up per distinct label."""
    listed = () if labels is None else list(labels)
    keys = {token_key(v) for v in listed if isinstance(v, str)} - {""}
    for arr, values, name in zip(arrays, distinct, names, strict=True):
        bad = [
            v
            for v in values
            if isinstance(v, str) and token_key(v) in DEFAULT_TOKENS and token_key(v) not in keys
        ]
        if bad:
            word = bad[0]
            hits = np.flatnonzero(np.asarray(arr, dtype=object) == word)
            advice = "" if word.strip() == "" else f", or list {word!r} in labels if it is a class"
            raise ValueError(
                f"{name} holds the label {word!r} ({hits.size} of {len(arr)} cases, first at "
                f"index {int(hits[0])}), which reads as a missing label: drop those cases from "
                f"both vectors first{advice} (scikit-learn would count it as a class; kappalib "
                "does not guess which it is)"
            )


def categorical_order(y, name):
    """The categories of an ordered pandas Categorical (or Series of one), else None."""
    dtype = getattr(y, "dtype", None)
    if getattr(dtype, "ordered", False) and hasattr(dtype, "categories"):
        return [v.item() if isinstance(v, np.generic) else v for v in dtype.categories]
    return None


def labels_of_kind(labels, kind, names, together):
    order, kind_l = check_labels(labels, together)
    if kind_l != kind:
        raise LabelKindError(
            f"{LABEL_RULE.format(names=together)}, got {kind_l}s in labels ({short(order)}) and "
            f"{kind}s in {names[0]} and {names[1]}"
        )
    return order


def join_names(names):
    """'a and b', or 'a, b and c'."""
    return " and ".join([", ".join(names[:-1]), names[-1]]) if len(names) > 1 else names[0]


def case_variants(values, listed=None):
    """Spellings that differ only by case or surrounding space: ``(read_as, clashes)``.

    Without ``listed`` (no order given), ``clashes`` holds each group of two or more distinct
    strings of ``values`` that are equal stripped and case-folded ('Moderate', 'moderate'):
    a caller refuses them, naming both.  With ``listed`` (the categories and their order,
    given by the user), ``read_as`` maps a string that is not listed but matches exactly one
    listed category that way to it ('Moderate' -> 'moderate'), and ``clashes`` is empty.
    """
    strings = [v for v in dict.fromkeys(values) if isinstance(v, str)]
    if listed is None:
        groups = {}
        for v in strings:
            groups.setdefault(token_key(v), []).append(v)
        return {}, [g for g in groups.values() if len(g) > 1]
    by_key = {}
    for v in listed:
        if isinstance(v, str):
            by_key.setdefault(token_key(v), []).append(v)
    exact = set(listed)
    read_as = {}
    for v in strings:
        if v not in exact and len(by_key.get(token_key(v), ())) == 1:
            read_as[v] = by_key[token_key(v)][0]
    return read_as, []
