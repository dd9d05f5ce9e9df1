r"""The confusion-matrix families of Delgado & Tibau (2019), as functions of their parameters.

Each function takes scalar or array parameters (broadcast together) and returns one matrix
of shape ``(K, K)`` or a stack of shape ``(..., K, K)``, so a figure's whole sweep is one
call, e.g. ``kl.kappa(families.C1(0.2, np.linspace(0, 30, 601), 0.2))``.

Rows are the reference class and columns the predicted class, as everywhere in kappalib; the
paper uses the same orientation ("C_ij = class i assigned to class j"), with the positive
class first.

* ``C0(a, b, d)  = [[a, b], [0, d]]``: no false positives (the paper's Proposition 2);
* ``C1(a, b, d)  = [[a, b], [1, d]]``: one false positive (Proposition 3); its three
  scenarios are ``C1(a, b, a)`` (Corollary 4), ``C1(a, b, 0)`` (Corollary 5) and
  ``C1(a, b, 1)`` (Corollary 6);
* ``ZA(A, n_classes)``: all ones except ``A`` in the top-right cell (Corollary 7,
  Proposition 8);
* ``M1(A)`` ... ``M5(A)``: the 3 x 3 examples (a)-(e) of Section 5 (Figures 6-9, Tables 1-2).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

__all__ = ["C0", "C1", "M1", "M2", "M3", "M4", "M5", "ZA"]


def _stack(rows):
    """Build (..., K, K) from a nested list of broadcastable arrays."""
    cells = np.broadcast_arrays(*[np.asarray(x, dtype=np.float64) for row in rows for x in row])
    K = len(rows)
    out = np.stack(cells, axis=-1)
    return out.reshape((*out.shape[:-1], K, K))


def C0(a: ArrayLike, b: ArrayLike, d: ArrayLike) -> np.ndarray:
    """``[[a, b], [0, d]]``: a binary matrix with no false positives (Proposition 2).

    Examples
    --------
    >>> from kappalib import families
    >>> families.C0(2, 3, 4).tolist()
    [[2.0, 3.0], [0.0, 4.0]]
    >>> families.C0(1, [1, 2, 3], 1).shape
    (3, 2, 2)
    """
    return _stack([[a, b], [0.0, d]])


def C1(a: ArrayLike, b: ArrayLike, d: ArrayLike) -> np.ndarray:
    """``[[a, b], [1, d]]``: a binary matrix with one false positive (Proposition 3).

    The paper's three scenarios are ``C1(a, b, a)``, ``C1(a, b, 0)`` and ``C1(a, b, 1)``.

    Examples
    --------
    >>> from kappalib import families
    >>> families.C1(0.2, 5, 1).tolist()
    [[0.2, 5.0], [1.0, 1.0]]
    """
    return _stack([[a, b], [1.0, d]])


def ZA(A: ArrayLike, n_classes: int) -> np.ndarray:
    """The ``n_classes`` x ``n_classes`` matrix of ones with ``A`` in the top-right cell.

    Class 1 is mostly predicted as class N when A is large (Corollary 7, Proposition 8).

    Examples
    --------
    >>> from kappalib import families
    >>> families.ZA(7, 3).tolist()
    [[1.0, 1.0, 7.0], [1.0, 1.0, 1.0], [1.0, 1.0, 1.0]]
    """
    if isinstance(n_classes, bool) or not isinstance(n_classes, (int, np.integer)) or n_classes < 2:
        raise ValueError(f"n_classes must be an integer of at least 2, got {n_classes!r}")
    A = np.asarray(A, dtype=np.float64)
    out = np.ones((*A.shape, int(n_classes), int(n_classes)))
    out[..., 0, -1] = A
    return out


def M1(A: ArrayLike) -> np.ndarray:
    """Example (a): ``[[1, 2A, A], [A, 1, 2A], [A, A, 1]]``; Asy = 2A, Ent = 2.5 (Fig 6).

    Examples
    --------
    >>> from kappalib import families
    >>> families.M1(2).tolist()
    [[1.0, 4.0, 2.0], [2.0, 1.0, 4.0], [2.0, 2.0, 1.0]]
    """
    A = np.asarray(A, dtype=np.float64)
    return _stack([[1.0, 2 * A, A], [A, 1.0, 2 * A], [A, A, 1.0]])


def M2(A: ArrayLike) -> np.ndarray:
    """Example (b): ``[[1, A, 1], [1, 1, A^2], [1, 1, 1]]`` (Fig 7, Table 1).

    Examples
    --------
    >>> from kappalib import families
    >>> families.M2(3).tolist()
    [[1.0, 3.0, 1.0], [1.0, 1.0, 9.0], [1.0, 1.0, 1.0]]
    """
    A = np.asarray(A, dtype=np.float64)
    return _stack([[1.0, A, 1.0], [1.0, 1.0, A * A], [1.0, 1.0, 1.0]])


def M3(A: ArrayLike) -> np.ndarray:
    """Example (c), with B = 1000 - A: ``[[1, B, B], [B+100, 1, B], [B+100, B+100, 1]]`` (Fig 8).

    Examples
    --------
    >>> from kappalib import families
    >>> families.M3(990).tolist()
    [[1.0, 10.0, 10.0], [110.0, 1.0, 10.0], [110.0, 110.0, 1.0]]
    """
    B = 1000.0 - np.asarray(A, dtype=np.float64)
    return _stack([[1.0, B, B], [B + 100, 1.0, B], [B + 100, B + 100, 1.0]])


def M4(A: ArrayLike) -> np.ndarray:
    """Example (d), with B = 100 - A: ``[[1, A, 1], [A^2, 1, B], [1, B^2, 1]]`` (Fig 9, Table 2).

    Examples
    --------
    >>> from kappalib import families
    >>> families.M4(60).tolist()
    [[1.0, 60.0, 1.0], [3600.0, 1.0, 40.0], [1.0, 1600.0, 1.0]]
    """
    A = np.asarray(A, dtype=np.float64)
    B = 100.0 - A
    return _stack([[1.0, A, 1.0], [A * A, 1.0, B], [1.0, B * B, 1.0]])


def M5(A: ArrayLike) -> np.ndarray:
    """Example (e): ``[[1, 2A, A], [A, 1, A+100], [A, A, 1]]``.

    Examples
    --------
    >>> from kappalib import families
    >>> families.M5(1).tolist()
    [[1.0, 2.0, 1.0], [1.0, 1.0, 101.0], [1.0, 1.0, 1.0]]
    """
    A = np.asarray(A, dtype=np.float64)
    return _stack([[1.0, 2 * A, A], [A, 1.0, A + 100], [A, A, 1.0]])
