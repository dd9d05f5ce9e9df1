"""What a missing value is: one rule for every entry point.

``None``, a float NaN and pandas' ``NA``/``NaT`` are missing everywhere.  A **string** is a
missing-value token when, stripped of surrounding space and compared without regard to case,
it is blank or one of :data:`NA_VALUES`: ``NA`` (R), ``N/A``, ``NaN``, ``null``, ``#N/A`` and
``<NA>`` (spreadsheets, pandas), ``.`` (SAS, Stata) and ``-``.  ``None`` and ``none`` are not
tokens: "none" is a category of many clinical scales (none, mild, moderate, severe).

* The reports (``agreement_report``, ``ratings_report``, ``na_values=``) and the command line
  (``--na-values``) read a token as a missing rating, and say which spellings they read so
  and how often.  ``na_values`` replaces the list of tokens; a blank stays missing.
* A string that ``labels=`` (``--labels``) lists is a category, never missing: list ``NA``
  when it means "not applicable".
* The Python functions that take labels or ratings (``cohen_kappa_score``,
  ``krippendorff_alpha``, ``rating_table``, ...) take no ``na_values``: there a token is
  refused unless ``labels=`` lists it, and a missing rating is ``None`` or NaN.  So numpy's
  ``"nan"`` (what NaN becomes inside a string array) is never a category by accident.
* A token that the user's own ``na_values`` leaves out, and ``labels`` does not list, is
  refused: it is neither missing nor a declared category, and either guess changes a number.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Any

from .._shared.messages import short

NA_VALUES: tuple[str, ...] = ("NA", "N/A", "NaN", "null", "#N/A", "<NA>", ".", "-")
"""The missing-value tokens (compared stripped and without regard to case); a blank is
always missing."""


def token_key(text: str) -> str:
    """How a string is compared with the tokens: stripped, case-folded."""
    return text.strip().casefold()


DEFAULT_TOKENS: frozenset[str] = frozenset({""} | {token_key(t) for t in NA_VALUES})


def check_na_values(na_values: Any, name: str = "na_values") -> frozenset[str]:
    """The tokens to read as missing (their keys): the default set for None, else the
    strings given, and always the blank."""
    if na_values is None:
        return DEFAULT_TOKENS
    values = [na_values] if isinstance(na_values, str) else na_values
    try:
        values = list(values)
    except TypeError:
        raise TypeError(
            f"{name} must be a list of strings to read as missing, got {short(na_values)}"
        ) from None
    bad = [v for v in values if not isinstance(v, str)]
    if bad:
        raise TypeError(
            f"{name} must be a list of strings to read as missing, got {short(bad[0])} of type "
            f"{type(bad[0]).__name__} (a number that means missing is written as a string, "
            "'-99'; a missing number is None or NaN)"
        )
    return frozenset({""} | {token_key(v) for v in values})


def classify(
    spellings: Iterable[str], tokens: frozenset[str], listed: Collection[Any] | None
) -> tuple[list[str], list[str]]:
    """Split distinct strings into ``(missing, undecided)``.

    ``missing``: a blank, or a token that ``listed`` (the ``labels``) does not name (a label is
    matched stripped and case-folded, so that ``na`` next to a listed ``NA`` is left to the
    label check, which names both spellings).  ``undecided``: a default token that the
    user's own ``tokens`` leave out and ``listed`` does not name.
    """
    keys = {token_key(v) for v in listed or () if isinstance(v, str)} - {""}  # blank: missing
    missing, undecided = [], []
    for s in spellings:
        k = token_key(s)
        if k in keys:
            continue
        if k in tokens:
            missing.append(s)
        elif k in DEFAULT_TOKENS:
            undecided.append(s)
    return missing, undecided


def spelling_text(spelling: str) -> str:
    """A token as a sentence shows it: ``'NA'``, or ``blank``."""
    return "blank" if spelling.strip() == "" else repr(str(spelling))
