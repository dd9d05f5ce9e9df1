"""An interval as the user holds it: a :class:`~kappalib.ConfidenceInterval` whose two ends
follow the undefined-value policy of :mod:`kappalib._shared.policy`."""

from __future__ import annotations

from typing import Any

from numpy.typing import ArrayLike

from .._shared.policy import finish
from ..results import ConfidenceInterval


def finish_interval(
    low: ArrayLike, high: ArrayLike, undefined: ArrayLike, zero_division: Any, message: str
) -> ConfidenceInterval[Any]:
    """:func:`finish` for both ends of an interval: a :class:`ConfidenceInterval` whose ends
    are None (or ``zero_division``'s float, or NaN in a stack) where it is undefined."""
    return ConfidenceInterval(
        finish(low, undefined, zero_division, message),
        finish(high, undefined, zero_division, message),
    )
