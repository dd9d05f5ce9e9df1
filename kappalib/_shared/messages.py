"""How an error message shows a value: cut to a length, numpy scalars as Python values."""

from __future__ import annotations

from typing import Any

import numpy as np


def short(value: Any, limit: int = 80) -> str:
    """A repr of ``value`` cut to ``limit`` characters, for error messages.

    A numpy scalar shows as the Python value it holds ('a', -1), not as numpy 2's
    ``np.str_('a')`` or ``np.int64(-1)``.
    """
    if isinstance(value, np.generic):
        value = value.item()
    text = repr(value)
    if len(text) > limit:
        text = text[: limit - 3] + "..."
    return text


def index_of(flat_position, shape):
    idx = np.unravel_index(flat_position, shape)
    return tuple(int(i) for i in idx)
