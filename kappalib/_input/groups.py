"""A cluster or subgroup id per case (a patient of several lesions, a site): one id per case,
none missing, coded 0 .. G-1 in sorted order."""

from __future__ import annotations

import math

import numpy as np

from .._shared.messages import short

__all__ = ["group_codes"]


def group_codes(groups, n, name):
    """``(codes, names)``: each case's group as 0 .. G-1 and the groups' names, in sorted
    order (first-seen order for values that do not sort)."""
    try:
        arr = np.asarray(groups)
    except Exception as exc:
        raise TypeError(
            f"{name} must be a 1-D sequence of ids, got {short(groups)} ({exc})"
        ) from None
    if arr.ndim != 1 or arr.shape[0] != n:
        raise ValueError(
            f"{name} must give one id per case ({n}), got shape {arr.shape}: {short(groups)}"
        )
    if arr.dtype.kind == "f" and np.isnan(arr).any():
        i = int(np.argmax(np.isnan(arr)))
        raise ValueError(f"{name} must not be missing, got NaN at position {i}")
    if arr.dtype.kind in "biufUS":
        uniq, codes = np.unique(arr, return_inverse=True)
        names = [v.item() if isinstance(v, np.generic) else v for v in uniq]
        return codes.reshape(-1).astype(np.intp), names
    items = arr.tolist()
    for i, v in enumerate(items):
        if v is None or (isinstance(v, float) and math.isnan(v)):
            raise ValueError(f"{name} must not be missing, got {v!r} at position {i}")
    try:
        names = sorted(set(items))
    except TypeError:
        names = list(dict.fromkeys(items))
    where = {v: i for i, v in enumerate(names)}
    return np.fromiter(map(where.__getitem__, items), dtype=np.intp, count=n), names
