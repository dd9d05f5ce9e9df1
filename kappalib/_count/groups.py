"""Cases in clusters or subgroups: each case's row and column in the confusion matrix of
:func:`confusion_matrix`, and one confusion matrix per cluster (or subgroup) by one bincount."""

from __future__ import annotations

import numpy as np

from .._input.groups import group_codes
from .confusion import labelled_matrix

__all__ = ["group_tables", "pair_codes"]


def pair_codes(y1, y2, labels, name):
    """``(a, b, order, source)``: each case's row and column position in the confusion
    matrix that :func:`confusion_matrix` builds from ``y1``, ``y2`` and ``labels`` (-1 for a
    case with a label outside ``labels``), the labels in order, and where the order came from
    ("given", "numbers" or "spelling")."""
    # the checks, order and kinds of confusion_matrix (one joint count, its messages)
    _, order, _, source = labelled_matrix(y1, y2, labels, None)
    position = {x: i for i, x in enumerate(order)}
    out = []
    for y in (y1, y2):
        arr = np.asarray(y)
        if arr.dtype.kind in "biufUS":
            uniq, inv = np.unique(arr, return_inverse=True)
            values = [v.item() if isinstance(v, np.generic) else v for v in uniq]
        else:  # Python objects (big integers, mixed number types): by hashing
            items = arr.tolist()
            values = list(dict.fromkeys(items))
            where = {v: i for i, v in enumerate(values)}
            inv = np.fromiter(map(where.__getitem__, items), dtype=np.intp, count=len(items))
        remap = np.array([position.get(v, -1) for v in values], dtype=np.intp)
        out.append(remap[inv.reshape(-1)])
    return out[0], out[1], order, source


def group_tables(y1, y2, groups, labels, name, what="clusters"):
    """``(S of shape (G, K, K), order, source)``: one confusion matrix per cluster, cases
    with a label outside ``labels`` left out, by one bincount."""
    a, b, order, source = pair_codes(y1, y2, labels, name)
    g, names = group_codes(groups, a.shape[0], what)
    keep = (a >= 0) & (b >= 0)
    K, G = len(order), len(names)
    flat = (g[keep] * K + a[keep]) * K + b[keep]
    S = np.bincount(flat, minlength=G * K * K).reshape(G, K, K).astype(np.float64)
    return S, order, source, names
