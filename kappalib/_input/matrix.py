"""Check a confusion matrix (or a stack of them) and the public matrix functions' calls:
numeric, square, finite, non-negative, at least one case; two label sequences passed where a
matrix belongs; a weighting on an order that came from sorting strings."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import ParamSpec, TypeAlias, TypeVar

import numpy as np
from numpy.typing import ArrayLike

from .._shared.messages import index_of, short
from ..results import ConfusionMatrix

# The label-level function to call instead, for each matrix function that can be called
# by mistake with two label sequences.
# the label-level function that a call with two label sequences was most likely meant for
_LABEL_LEVEL = {
    "kappa": "cohen_kappa_score",
    "mcc": "matthews_corrcoef",
    "labels_from_matrix": "confusion_matrix",  # its inverse: labels in, the matrix out
}


_HINT = (
    "label sequences go to kl.confusion_matrix(y1, y2), kl.cohen_kappa_score(y1, y2) or "
    "kl.matthews_corrcoef(y1, y2)"
)


P = ParamSpec("P")


R = TypeVar("R")


# One (K, K) matrix written as nested lists: what the overloads of the matrix functions type
# as "one matrix in, a float (or None) out".  An ndarray may be one matrix or a stack.
OneMatrix: TypeAlias = Sequence[Sequence[float]]


def matrix_function(func: Callable[P, R]) -> Callable[P, R]:
    """Decorate a public matrix function ``f(C, *, ...)``: two positional label sequences
    raise a TypeError that names the label-level function to call instead, and a weighting on
    a :class:`ConfusionMatrix` whose string labels were sorted by spelling (``C.ordered``
    False) is refused.  The signature is kept (ParamSpec), so a type checker sees the wrapped
    function's own."""
    name = func.__name__
    target = _LABEL_LEVEL.get(name)
    if target is not None:
        advice = f"to compare two label sequences, call kl.{target}(y1, y2)"
    else:
        advice = (
            f"to compare two label sequences, build C = kl.confusion_matrix(y1, y2) "
            f"and call kl.{name}(C)"
        )

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        C, rest = (args[0], args[1:]) if args else (kwargs.get("C"), ())
        if rest:
            raise TypeError(
                f"{name}() takes one confusion matrix C and keyword options, got "
                f"{1 + len(rest)} positional arguments ({short(C, 30)}, "
                f"{short(rest[0], 30)}{', ...' if len(rest) > 1 else ''}); {advice}"
            )
        if isinstance(C, ConfusionMatrix) and C.labels is not None and not C.ordered:
            check_label_order(
                kwargs.get("weighting"),
                C.labels,
                "spelling",
                name,
                "build C with kl.confusion_matrix(y1, y2, labels=[...])",
            )
        return func(*args, **kwargs)

    return wrapper


def check_label_order(weighting, labels, source, name, fix="pass labels=[...]"):
    """Refuse a weighted statistic on classes whose order came from their spelling."""
    if weighting is None or source != "spelling":
        return
    labels = list(labels) if labels is not None else []
    return_order = short(labels, 60)
    raise ValueError(
        f"{name}(weighting={short(weighting, 30)}) measures distances between positions in "
        f"the class order, and these string labels have no order but their spelling: "
        f"sorted, they would be {return_order}; {fix} listing them in their ordinal order "
        "(or use ordered pandas Categoricals)"
    )


def check_class_count(C, what, *, exactly=None, at_least=None, reason=""):
    """Raise a ValueError unless the (..., K, K) array ``C`` has the number of classes asked."""
    K = C.shape[-1]
    if exactly is not None and K != exactly:
        raise ValueError(
            f"{what} is defined for {exactly} x {exactly} tables{reason}, got C of shape {C.shape}"
        )
    if at_least is not None and K < at_least:
        raise ValueError(
            f"{what} needs C with at least {at_least} classes{reason}, got shape {C.shape}"
        )


def as_matrix(C: ArrayLike, name: str = "C") -> np.ndarray:
    """Return ``C`` as a float64 array of shape ``(..., K, K)``, or raise a clear error.

    Checks: numeric, at least 2 dimensions, square in the last two, K >= 1, finite,
    non-negative, and no matrix in the stack sums to zero.
    """
    try:
        arr = np.asarray(C)
    except Exception as exc:  # ragged nested lists, for example
        raise TypeError(
            f"{name} must be an array-like of counts of shape (K, K) or (..., K, K), "
            f"got {short(C)} ({exc})"
        ) from None
    if (
        arr.dtype == object
        or not (np.issubdtype(arr.dtype, np.number) or arr.dtype == np.bool_)
        or np.issubdtype(arr.dtype, np.complexfloating)
    ):
        hint = f" ({_HINT})" if arr.dtype.kind in "USO" else ""
        raise TypeError(
            f"{name} must hold real numeric counts, got an array of dtype {arr.dtype}: "
            f"{short(C)}{hint}"
        )
    if arr.ndim < 2:
        hint = f" ({_HINT})" if arr.ndim == 1 else ""
        raise ValueError(
            f"{name} must be a square matrix of shape (K, K) or a stack (..., K, K), "
            f"got shape {arr.shape}: {short(C)}{hint}"
        )
    if arr.shape[-1] != arr.shape[-2]:
        raise ValueError(f"{name} must be square in its last two dimensions, got shape {arr.shape}")
    if arr.shape[-1] == 0:
        raise ValueError(f"{name} must have at least one class, got shape {arr.shape}")
    if arr.dtype.kind in "iub":
        # integers are finite: one min() finds a negative count
        if arr.dtype.kind == "i" and arr.size and arr.min() < 0:
            arr = arr.astype(np.float64)
            pos = index_of(int(np.argmax(arr < 0)), arr.shape)
            raise ValueError(
                f"{name} must contain non-negative counts, got {float(arr[pos])!r} at index {pos}"
            )
        arr = arr.astype(np.float64)
        return _check_totals(arr, name)
    arr = arr.astype(np.float64, copy=False)
    lo, hi = (arr.min(), arr.max()) if arr.size else (0.0, 0.0)
    if np.isfinite(lo) and np.isfinite(hi) and lo >= 0:
        return _check_totals(arr, name)  # fast path: two reductions instead of three masks
    finite = np.isfinite(arr)
    if not finite.all():
        pos = index_of(int(np.argmin(finite)), arr.shape)
        raise ValueError(
            f"{name} must contain only finite counts, got {float(arr[pos])!r} at index {pos}"
        )
    negative = arr < 0
    if negative.any():
        pos = index_of(int(np.argmax(negative)), arr.shape)
        raise ValueError(
            f"{name} must contain non-negative counts, got {float(arr[pos])!r} at index {pos}"
        )
    return _check_totals(arr, name)


def _check_totals(arr: np.ndarray, name: str) -> np.ndarray:
    """Raise if any matrix of the stack holds no case; return arr."""
    totals = np.einsum("...ij->...", arr)
    empty = totals <= 0
    if np.any(empty):
        if arr.ndim == 2:
            raise ValueError(
                f"{name} must contain at least one case, got an all-zero matrix of shape "
                f"{arr.shape}"
            )
        pos = index_of(int(np.argmax(empty)), empty.shape)
        raise ValueError(
            f"{name} must contain at least one case in every matrix of the stack, "
            f"got an all-zero matrix at stack index {pos}"
        )
    return arr


def one_matrix(C, name):
    M = as_matrix(C)
    if M.ndim != 2:
        raise ValueError(f"{name} takes one confusion matrix of shape (K, K), got shape {M.shape}")
    return M


def first_fraction(M: np.ndarray) -> tuple[int, ...] | None:
    """The index of the first entry of ``M`` that is not a whole number, or None: the one
    test behind every refusal of a table of proportions (tests, standard errors, resampling)."""
    whole = np.floor(M) == M
    if whole.all():
        return None
    return tuple(int(i) for i in np.argwhere(~whole)[0])


def counts_of_cases(M: np.ndarray, name: str) -> np.ndarray:
    """``M`` (one matrix or a stack) when it holds whole counts of cases, or one sentence:
    a standard error shrinks with N, which a table of proportions (or of fractional
    weights) has lost.  The refusal of :func:`bootstrap_confint`, for every function whose
    standard error or interval needs N."""
    pos = first_fraction(M)
    if pos is not None:
        raise ValueError(
            f"{name} needs counts of cases (its standard error shrinks with N): C must hold "
            f"whole numbers, got {float(M[pos])!r} at index {pos}; a table of proportions "
            f"has lost its N: pass the counts (the proportions times the number of cases)"
        )
    return M


def whole_counts(C, name):
    M = one_matrix(C, name)
    pos = first_fraction(M)
    if pos is not None:
        raise ValueError(
            f"{name} is a test on counts of cases: C must hold whole numbers, got "
            f"{float(M[pos])!r} at index {pos} (a table of proportions has lost its N)"
        )
    return M
