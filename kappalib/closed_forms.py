r"""Closed forms of Delgado & Tibau (2019): kappa and MCC of the paper's families.

The paper's binary confusion matrix is ``[[a, b], [c, d]]`` with rows = the reference and
columns = the prediction (a = TP, b = FN, c = FP, d = TN), the orientation of the whole
library.  Its families (built by :mod:`kappalib.families`) are

* ``C0 = [[a, b], [0, d]]`` (no false positive; Proposition 2),
* ``C1 = [[a, b], [1, d]]`` (one false positive; Proposition 3), with the three scenarios
  ``d = a`` (Corollary 4), ``d = 0`` (Corollary 5) and ``d = 1`` (Corollary 6),
* ``Z_A``: the N x N matrix of ones with ``A`` in the top-right cell (Corollary 7,
  Proposition 8).  The paper writes N for the number of classes; here it is ``n_classes``.

The paper's PDF text loses minus signs, fraction bars and roots: each expression below was
rebuilt from the argument and is tested against :func:`kappalib.kappa` and
:func:`kappalib.mcc` on parameter grids to 1e-9 (``tests/test_closed_forms.py``).  They are
formulas of *parameters*; ``kl.kappa`` / ``kl.mcc`` remain the definitions.

Conventions shared by every function here:

* parameters are scalars or arrays, broadcast together; a scalar call returns a Python
  ``float``, an array call an ``ndarray`` of the broadcast shape;
* where the statistic of the matrix is 0/0 (an empty row or column) the closed form gives
  NaN, as a batched ``kl.mcc`` call does; it never returns ``None``;
* parameters must be finite and non-negative (they are counts, up to a common factor), or
  a ``ValueError`` names the argument and echoes the bad value.
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
from numpy.typing import ArrayLike

from ._shared.policy import to_float as _out
from .results import AlphaBeta, Gap

__all__ = [
    "argmin_kappa_C1",
    "argmin_kappa_ZA",
    "binary_alpha_beta",
    "kappa_C0",
    "kappa_C1",
    "kappa_ZA",
    "kappa_from_mcc_C0",
    "max_gap_C0",
    "mcc_C0",
    "mcc_C1",
    "mcc_ZA",
]

Scenario = Literal["d=a", "d=0", "d=1"]
_SCENARIOS = ("d=a", "d=0", "d=1")


def _params(**named: ArrayLike) -> list[np.ndarray]:
    """Check that each parameter is finite and non-negative; broadcast them together."""
    arrays = []
    for name, value in named.items():
        arr = np.asarray(value, dtype=np.float64)
        bad = ~np.isfinite(arr) | (arr < 0)
        if bad.any():
            shown = value if arr.ndim == 0 else float(arr[bad].flat[0])
            raise ValueError(f"{name} must be finite and non-negative, got {shown!r}")
        arrays.append(arr)
    return list(np.broadcast_arrays(*arrays))


def _n_classes(n_classes: Any) -> int:
    if isinstance(n_classes, bool) or not isinstance(n_classes, (int, np.integer)) or n_classes < 2:
        raise ValueError(f"n_classes must be an integer of at least 2, got {n_classes!r}")
    return int(n_classes)


# --------------------------------------------------------------------------- C0, c = 0


def mcc_C0(a: ArrayLike, b: ArrayLike, d: ArrayLike) -> float | np.ndarray:
    r"""MCC of ``C0 = [[a, b], [0, d]]`` (no false positive), Section "The c = 0 case".

    .. math::

        \mathrm{MCC}(C_0) = \sqrt{\frac{ad}{(a + b)(b + d)}}

    This is eq. (2) with :math:`c = 0`: the denominator's :math:`(a + c)(c + d)` becomes
    :math:`ad`, which cancels one factor :math:`ad` of the squared numerator.

    Parameters
    ----------
    a, b, d : array-like
        True positives, false negatives and true negatives; broadcast together.

    Returns
    -------
    mcc : float or ndarray
        In [0, 1].  NaN where ``a = 0`` or ``d = 0``: one rater then uses a single class
        and MCC is 0/0 (the paper assumes a, d > 0).

    Raises
    ------
    ValueError
        If a parameter is negative or not finite.

    References
    ----------
    Delgado, R., & Tibau, X.-A. (2019). Why Cohen's Kappa should be avoided as performance
    measure in classification. PLoS ONE 14(9): e0222916, Proposition 2.

    Examples
    --------
    The paper's limits: ``b = 0`` is the symmetric case with MCC = 1, and for fixed
    ``b = d = 1`` MCC tends to :math:`\sqrt{d/(b + d)} = 0.707107` as ``a`` grows.

    >>> from kappalib import closed_forms as cf
    >>> cf.mcc_C0(1, 0, 1)
    1.0
    >>> round(cf.mcc_C0(1e12, 1, 1), 6)
    0.707107
    """
    a, b, d = _params(a=a, b=b, d=d)
    ad = a * d
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where(ad > 0, np.sqrt(ad / ((a + b) * (b + d))), np.nan)
    return _out(out)


def kappa_C0(a: ArrayLike, b: ArrayLike, d: ArrayLike) -> float | np.ndarray:
    r"""Cohen's kappa of ``C0 = [[a, b], [0, d]]``, Section "The c = 0 case".

    .. math::

        K(C_0) = \frac{2ad}{ad + (a + b)(b + d)}

    This is the binary kappa :math:`2(ad - bc) / ((a+b)(b+d) + (a+c)(c+d))` with
    :math:`c = 0`.

    Parameters
    ----------
    a, b, d : array-like
        True positives, false negatives and true negatives; broadcast together.

    Returns
    -------
    kappa : float or ndarray
        In [0, 1].  NaN where the denominator is 0 (``a + b = 0`` and ``a d = 0``).

    Raises
    ------
    ValueError
        If a parameter is negative or not finite.

    References
    ----------
    Delgado & Tibau (2019), Proposition 2.

    Examples
    --------
    The paper's limit for fixed ``b = d = 1`` as ``a`` grows: :math:`2d/(2d + b) = 2/3`.

    >>> from kappalib import closed_forms as cf
    >>> round(cf.kappa_C0(1e12, 1, 1), 6)
    0.666667
    """
    a, b, d = _params(a=a, b=b, d=d)
    ad = a * d
    with np.errstate(divide="ignore", invalid="ignore"):
        out = 2 * ad / (ad + (a + b) * (b + d))
    return _out(out)


def kappa_from_mcc_C0(mcc: ArrayLike) -> float | np.ndarray:
    r"""Proposition 2: on the family ``C0``, kappa is a function of MCC alone.

    .. math::

        K(C_0) = \frac{2\,\mathrm{MCC}(C_0)^2}{1 + \mathrm{MCC}(C_0)^2}

    With :math:`q = ad / ((a+b)(b+d)) = \mathrm{MCC}(C_0)^2`, dividing the numerator and
    denominator of :func:`kappa_C0` by :math:`(a+b)(b+d)` gives :math:`2q / (q + 1)`.  The
    function is increasing on [0, 1], so on ``C0`` kappa and MCC rank classifiers alike.

    Parameters
    ----------
    mcc : array-like
        Values of MCC(C0), in [0, 1].

    Returns
    -------
    kappa : float or ndarray
        In [0, 1], and at most ``mcc``.

    Raises
    ------
    ValueError
        If a value is outside [0, 1] or not finite.

    References
    ----------
    Delgado & Tibau (2019), Proposition 2.

    Examples
    --------
    Perfect classification (the paper's ``b -> 0`` limit) keeps K = MCC = 1; at the MCC of
    largest gap (see :func:`max_gap_C0`) kappa is about 0.16:

    >>> from kappalib import closed_forms as cf
    >>> cf.kappa_from_mcc_C0(1.0)
    1.0
    >>> round(cf.kappa_from_mcc_C0(0.2956), 4)
    0.1607
    """
    (m,) = _params(mcc=mcc)
    if (m > 1).any():
        shown = mcc if m.ndim == 0 else float(m[m > 1].flat[0])
        raise ValueError(f"mcc must lie in [0, 1] (MCC of C0), got {shown!r}")
    return _out(2 * m * m / (1 + m * m))


def max_gap_C0() -> Gap:
    r"""The largest distance between MCC and kappa on ``C0`` (Proposition 2, item 3).

    By Proposition 2 the gap is :math:`g(m) = m - 2m^2/(1 + m^2)` with
    :math:`m = \mathrm{MCC}(C_0) \in [0, 1]`.  Setting :math:`g'(m) = 0` gives
    :math:`(1 + m^2)^2 = 4m`, i.e. :math:`(m - 1)(m^3 + m^2 + 3m - 1) = 0`, whose root in
    (0, 1) is, by Cardano's formula,

    .. math::

        m^\ast = \frac{\sqrt[3]{26 + 6\sqrt{33}} + \sqrt[3]{26 - 6\sqrt{33}} - 1}{3}.

    Returns
    -------
    Gap
        ``mcc`` :math:`= m^\ast \approx 0.2956` and ``gap`` :math:`= g(m^\ast) \approx
        0.1349`.  The paper rounds them to "≈ 0.3" and "≈ 0.13".

    References
    ----------
    Delgado & Tibau (2019), Proposition 2.

    Examples
    --------
    >>> from kappalib import closed_forms as cf
    >>> m, gap = cf.max_gap_C0()
    >>> round(m, 1), round(gap, 2)
    (0.3, 0.13)
    >>> round(m, 4), round(gap, 4)
    (0.2956, 0.1349)
    """
    r33 = np.sqrt(33.0)
    m = (np.cbrt(26 + 6 * r33) + np.cbrt(26 - 6 * r33) - 1) / 3
    return Gap(float(m), float(m - 2 * m * m / (1 + m * m)))


# --------------------------------------------------------------------------- C1, c = 1


def mcc_C1(a: ArrayLike, b: ArrayLike, d: ArrayLike) -> float | np.ndarray:
    r"""MCC of ``C1 = [[a, b], [1, d]]`` (one false positive), Section "The c = 1 case".

    .. math::

        \mathrm{MCC}(C_1) = \frac{ad - b}{\sqrt{(a + 1)(a + b)(d + 1)(d + b)}}

    The scenarios of Corollaries 4-6 are ``d = a``, ``d = 0`` and ``d = 1``; there the
    paper simplifies it to :math:`(a^2 - b)/((a + 1)(a + b))`,
    :math:`-\sqrt{b/((a + 1)(a + b))}` and :math:`(a - b)/\sqrt{2(a + 1)(b + 1)(a + b)}`.

    Parameters
    ----------
    a, b, d : array-like
        True positives, false negatives and true negatives; broadcast together.

    Returns
    -------
    mcc : float or ndarray
        In [-1, 1]; NaN where ``a + b = 0`` or ``b + d = 0`` (an empty row or column).

    Raises
    ------
    ValueError
        If a parameter is negative or not finite.

    References
    ----------
    Delgado & Tibau (2019), Proposition 3.

    Examples
    --------
    Proposition 3: with ``a = d = 0`` every case is misclassified and MCC = -1.

    >>> from kappalib import closed_forms as cf
    >>> cf.mcc_C1(0, 2, 0)
    -1.0
    """
    a, b, d = _params(a=a, b=b, d=d)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = (a * d - b) / np.sqrt((a + 1) * (a + b) * (d + 1) * (d + b))
    return _out(out)


def kappa_C1(a: ArrayLike, b: ArrayLike, d: ArrayLike) -> float | np.ndarray:
    r"""Cohen's kappa of ``C1 = [[a, b], [1, d]]``, Section "The c = 1 case".

    .. math::

        K(C_1) = \frac{2(ad - b)}{(a + 1)(d + 1) + (a + b)(d + b)}

    The denominator is at least 1, so kappa is always defined on this family.

    Parameters
    ----------
    a, b, d : array-like
        True positives, false negatives and true negatives; broadcast together.

    Returns
    -------
    kappa : float or ndarray

    Raises
    ------
    ValueError
        If a parameter is negative or not finite.

    References
    ----------
    Delgado & Tibau (2019), Proposition 3.

    Examples
    --------
    Proposition 3: with ``a = d = 0``, :math:`K = -2b/(1 + b^2)`, which is -0.8 for b = 2
    while MCC is -1.

    >>> from kappalib import closed_forms as cf
    >>> cf.kappa_C1(0, 2, 0)
    -0.8
    """
    a, b, d = _params(a=a, b=b, d=d)
    return _out(2 * (a * d - b) / ((a + 1) * (d + 1) + (a + b) * (d + b)))


def argmin_kappa_C1(a: ArrayLike, scenario: Scenario) -> float | np.ndarray:
    r"""Where kappa of ``C1(a, b, d)`` is smallest as a function of ``b`` (Corollaries 4-6).

    For fixed ``a > 0``, MCC of each scenario decreases in ``b`` (more false negatives, a
    worse classifier) but kappa decreases only up to the value returned here, and then
    rises back towards 0:

    * ``"d=a"``, ``[[a, b], [1, a]]`` (Corollary 4, Figure 2):
      :math:`b_0 = a^2 + (a + 1)\sqrt{a^2 + 1}`;
    * ``"d=0"``, ``[[a, b], [1, 0]]`` (Corollary 5, Figure 3): :math:`b = \sqrt{a + 1}`;
    * ``"d=1"``, ``[[a, b], [1, 1]]`` (Corollary 6, Figure 4): :math:`b = a + \sqrt{2}(a + 1)`.

    Each is the positive root of :math:`\partial K / \partial b = 0`, a quadratic in b:
    :math:`b^2 - 2a^2 b - (2a^3 + 2a^2 + 2a + 1) = 0`, :math:`b^2 - (a + 1) = 0` and
    :math:`b^2 - 2ab - (a^2 + 4a + 2) = 0`.

    Parameters
    ----------
    a : array-like
        True positives (and, for ``"d=a"``, true negatives); non-negative.
    scenario : {"d=a", "d=0", "d=1"}
        Which column of the table.

    Returns
    -------
    b : float or ndarray

    Raises
    ------
    ValueError
        If ``a`` is negative or not finite, or ``scenario`` is unknown.

    References
    ----------
    Delgado & Tibau (2019), Corollaries 4, 5 and 6 (Figures 2, 3 and 4).

    Examples
    --------
    The parameters of the paper's Figures 2 (a = 0.2), 3 (a = 1) and 4 (a = 0.2):

    >>> from kappalib import closed_forms as cf
    >>> round(cf.argmin_kappa_C1(0.2, "d=a"), 6)
    1.263765
    >>> round(cf.argmin_kappa_C1(1, "d=0"), 6)
    1.414214
    >>> round(cf.argmin_kappa_C1(0.2, "d=1"), 6)
    1.897056
    """
    if scenario not in _SCENARIOS:
        raise ValueError(f"scenario must be one of {_SCENARIOS!r}, got {scenario!r}")
    (a,) = _params(a=a)
    if scenario == "d=a":
        out = a * a + (a + 1) * np.sqrt(a * a + 1)
    elif scenario == "d=0":
        out = np.sqrt(a + 1)
    else:
        out = a + np.sqrt(2.0) * (a + 1)
    return _out(out)


# --------------------------------------------------------------------------- binary case


def binary_alpha_beta(C: ArrayLike) -> AlphaBeta[float | np.ndarray]:
    r"""The paper's :math:`\alpha` and :math:`\beta` of a 2 x 2 matrix (Section "The binary case").

    For ``C = [[a, b], [c, d]]`` (rows = reference),

    .. math::

        \alpha = \frac{ad - bc}{(a + b)(b + d)}, \qquad
        \beta  = \frac{ad - bc}{(a + c)(c + d)} .

    :math:`\alpha` divides by the first *row* total times the second *column* total,
    :math:`\beta` by the first column total times the second row total, so transposing
    ``C`` swaps them.  Kappa is their harmonic mean, :math:`2/(1/\alpha + 1/\beta)`, and
    MCC their geometric mean *with the sign of* :math:`ad - bc` (the paper writes
    :math:`\sqrt{\alpha\beta}`, which is right only when :math:`ad > bc`).

    Parameters
    ----------
    C : array-like of shape (2, 2) or (..., 2, 2)
        Binary confusion matrices, non-negative.

    Returns
    -------
    AlphaBeta
        ``alpha`` and ``beta``, floats or ndarrays of shape (...) (``alpha, beta =
        cf.binary_alpha_beta(C)``); NaN where a denominator is 0.

    Raises
    ------
    ValueError
        If ``C`` is not of shape (..., 2, 2), or has negative or non-finite entries.

    References
    ----------
    Delgado & Tibau (2019), eq. (7) and the text before it.

    Examples
    --------
    The kappa explainer's table [[8, 2], [1, 9]], whose kappa is 0.7: alpha = 70/110, beta = 70/90.

    >>> from kappalib import closed_forms as cf
    >>> alpha, beta = cf.binary_alpha_beta([[8, 2], [1, 9]])
    >>> round(alpha, 6), round(beta, 6)
    (0.636364, 0.777778)
    >>> round(2 / (1 / alpha + 1 / beta), 6)
    0.7

    Proposition 3 with b = 1 (a symmetric matrix): alpha = beta = K = MCC =
    (ad - 1)/((a + 1)(d + 1)), here 3/9.

    >>> alpha, beta = cf.binary_alpha_beta([[2, 1], [1, 2]])
    >>> round(alpha, 6), round(beta, 6)
    (0.333333, 0.333333)
    """
    arr = np.asarray(C, dtype=np.float64)
    if arr.ndim < 2 or arr.shape[-2:] != (2, 2):
        raise ValueError(f"C must have shape (2, 2) or (..., 2, 2), got shape {arr.shape}")
    bad = ~np.isfinite(arr) | (arr < 0)
    if bad.any():
        shown = float(arr[bad].flat[0])
        raise ValueError(f"C must have finite, non-negative entries, got {shown!r}")
    a, b, c, d = arr[..., 0, 0], arr[..., 0, 1], arr[..., 1, 0], arr[..., 1, 1]
    det = a * d - b * c
    with np.errstate(divide="ignore", invalid="ignore"):
        alpha = det / ((a + b) * (b + d))
        beta = det / ((a + c) * (c + d))
    return AlphaBeta(_out(alpha), _out(beta))


# --------------------------------------------------------------------------- Z_A


def mcc_ZA(A: ArrayLike, n_classes: int) -> float | np.ndarray:
    r"""MCC of ``Z_A``, the N x N matrix of ones with ``A`` top right (Proposition 8).

    .. math::

        \mathrm{MCC}(A) = \frac{1 - A}{(N - 1)\,\bigl(N^2 - 2(1 - A)\bigr)}

    For N = 2 this is Corollary 7's :math:`(1 - A) / (2(1 + A))`.  It decreases in A, from
    :math:`1/((N-1)(N^2-2))` at A = 0 to the limit :math:`-1/(2(N - 1))`.

    Parameters
    ----------
    A : array-like
        The top-right count, non-negative.
    n_classes : int
        N, at least 2.

    Returns
    -------
    mcc : float or ndarray

    Raises
    ------
    ValueError
        If ``A`` is negative or not finite, or ``n_classes`` is not an integer >= 2.

    References
    ----------
    Delgado & Tibau (2019), Corollary 7 and Proposition 8.

    Examples
    --------
    Corollary 7 (N = 2): MCC tends to 1/2 as A -> 0, is 0 at A = 1 (all ones).

    >>> from kappalib import closed_forms as cf
    >>> cf.mcc_ZA(0, 2), cf.mcc_ZA(1, 2)
    (0.5, 0.0)
    """
    N = _n_classes(n_classes)
    (A,) = _params(A=A)
    return _out((1 - A) / ((N - 1) * (N * N - 2 * (1 - A))))


def kappa_ZA(A: ArrayLike, n_classes: int) -> float | np.ndarray:
    r"""Cohen's kappa of ``Z_A`` (Proposition 8).

    .. math::

        K(A) = \frac{N (1 - A)}{(1 - A)^2 - 2N(N - 1)(1 - A) + N^3 (N - 1)}

    For N = 2 this is Corollary 7's :math:`2(1 - A) / (4 + (1 + A)^2)`.  The two closed
    forms satisfy :math:`1/\mathrm{MCC}(A) - 1/K(A) = (A - 1)/N` for :math:`A \ne 1`.

    Parameters
    ----------
    A : array-like
        The top-right count, non-negative.
    n_classes : int
        N, at least 2.

    Returns
    -------
    kappa : float or ndarray

    Raises
    ------
    ValueError
        If ``A`` is negative or not finite, or ``n_classes`` is not an integer >= 2.

    References
    ----------
    Delgado & Tibau (2019), Corollary 7 and Proposition 8.

    Examples
    --------
    Corollary 7 (N = 2): kappa tends to 2/5 as A -> 0.

    >>> from kappalib import closed_forms as cf
    >>> cf.kappa_ZA(0, 2)
    0.4
    """
    N = _n_classes(n_classes)
    (A,) = _params(A=A)
    u = 1 - A
    return _out(N * u / (u * u - 2 * N * (N - 1) * u + N**3 * (N - 1)))


def argmin_kappa_ZA(n_classes: int) -> float:
    r"""Where kappa of ``Z_A`` is smallest as a function of A (Proposition 8, item 5).

    .. math::

        A^\ast = 1 + N \sqrt{N (N - 1)}

    With :math:`t = A - 1 > 0`, :math:`K = -N t / (t^2 + 2N(N-1)t + N^3(N-1))`, which is
    smallest at :math:`t = \sqrt{N^3 (N - 1)}`.  Past :math:`A^\ast` kappa rises towards 0
    although the classifier keeps getting worse.

    Parameters
    ----------
    n_classes : int
        N, at least 2.

    Returns
    -------
    A : float

    Raises
    ------
    ValueError
        If ``n_classes`` is not an integer >= 2.

    References
    ----------
    Delgado & Tibau (2019), Corollary 7 and Proposition 8.

    Examples
    --------
    Corollary 7: for N = 2 the minimum is at :math:`A = 1 + 2\sqrt{2}`.

    >>> from kappalib import closed_forms as cf
    >>> round(cf.argmin_kappa_ZA(2), 6)
    3.828427
    """
    N = _n_classes(n_classes)
    return float(1 + N * np.sqrt(N * (N - 1)))
