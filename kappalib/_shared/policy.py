"""The undefined-value policy, in one place: a 0/0 is ``None`` for one matrix and NaN
inside a stack, unless ``zero_division`` says otherwise (a float, or ``"raise"`` for an
:class:`~kappalib.UndefinedMetricError`); a scalar result is a Python ``float``."""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .errors import UndefinedMetricError
from .messages import index_of


def to_float(x: ArrayLike) -> Any:
    """A 0-d result as a Python float, anything else as a float64 array."""
    x = np.asarray(x, dtype=np.float64)
    return float(x) if x.ndim == 0 else x


def check_zero_division(zero_division: Any) -> Any:
    """Validate the ``zero_division`` policy: None, "raise" or a real number."""
    if zero_division is None or (isinstance(zero_division, str) and zero_division == "raise"):
        return zero_division
    if isinstance(zero_division, str):
        raise ValueError(
            "zero_division must be None, 'raise' or a float such as float('nan') or 0.0, "
            f"got {zero_division!r}"
        )
    if isinstance(zero_division, bool) or not isinstance(zero_division, numbers.Real):
        raise TypeError(
            "zero_division must be None, 'raise' or a float such as float('nan') or 0.0, "
            f"got {zero_division!r}"
        )
    return float(zero_division)


def finish(value: ArrayLike, undefined: ArrayLike, zero_division: Any, message: str) -> Any:
    """Apply the undefined-value policy and return a Python float/None or an array.

    ``value`` and ``undefined`` are arrays of the stack shape (``()`` for one matrix).
    ``message`` explains why the statistic is undefined, for ``"raise"``.
    """
    zero_division = check_zero_division(zero_division)
    value = np.asarray(value, dtype=np.float64)
    undefined = np.asarray(undefined, dtype=bool)
    if undefined.any() and zero_division == "raise":
        if undefined.ndim:
            pos = index_of(int(np.argmax(undefined)), undefined.shape)
            message = f"{message} (first at stack index {pos})"
        raise UndefinedMetricError(message)
    if value.ndim == 0:
        if bool(undefined):
            return None if zero_division is None else zero_division
        return to_float(value)
    fill = np.nan if zero_division is None else zero_division
    return np.where(undefined, fill, value)
