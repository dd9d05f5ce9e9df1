"""Check the options shared by many functions: a coverage, one of a few choices, the
bootstrap's number of resamples and its generator."""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from .._shared.messages import short


def check_confidence(confidence_level: Any, name: str = "confidence_level") -> float:
    """A coverage strictly between 0 and 1, as a float; one sentence otherwise."""
    if isinstance(confidence_level, bool) or not isinstance(confidence_level, numbers.Real):
        raise TypeError(
            f"{name} must be a number strictly between 0 and 1, got {short(confidence_level)}"
        )
    if not (0.0 < float(confidence_level) < 1.0):
        raise ValueError(f"{name} must be strictly between 0 and 1, got {confidence_level!r}")
    return float(confidence_level)


# ---------------------------------------------------------------------------------- checks
def check_n_resamples(n_resamples):
    if isinstance(n_resamples, bool) or not isinstance(n_resamples, numbers.Integral):
        raise TypeError(f"n_resamples must be a whole number >= 1, got {short(n_resamples)}")
    if n_resamples < 1:
        raise ValueError(f"n_resamples must be at least 1, got {n_resamples!r}")
    return int(n_resamples)


def check_choice(value, name, choices):
    if not isinstance(value, str) or value not in choices:
        options = " or ".join(repr(c) for c in choices)
        raise ValueError(f"{name} must be {options}, got {short(value)}")
    return value


def make_rng(rng):
    try:
        return np.random.default_rng(rng)
    except (TypeError, ValueError):
        raise TypeError(
            f"rng must be None, an int seed or a numpy.random.Generator, got {short(rng)}"
        ) from None
