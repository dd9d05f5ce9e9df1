r"""Kappas of the same units: the difference of two, and Light's mean of all the pairs.

Two Cohen kappas computed on the same units (two pairs of raters; a rater before and after
training, each against the same reference) are correlated, so the standard error of their
difference is not :math:`\sqrt{\mathrm{se}_1^2 + \mathrm{se}_2^2}`.  Two ways to get it:

* **the delta method** (``method="analytic"``): each unit's influence on each kappa,
  :math:`\psi^{(1)}_i` and :math:`\psi^{(2)}_i` (``kappa_linearization``), gives
  :math:`\widehat{\mathrm{var}}(\hat\kappa_2 - \hat\kappa_1) = \frac{1}{n^2}
  \sum_i (\psi^{(2)}_i - \psi^{(1)}_i)^2` (Vanbelle & Albert 2008; Vanbelle 2017);
* **the bootstrap over units** (``"percentile"``, ``"bca"``; Vanbelle & Albert 2008;
  McKenzie et al. 1996): a resample draws units, each with all of its ratings, so both
  kappas move together.  The ``n`` units take ``U`` distinct rating patterns, so a resample
  is one multinomial draw over the patterns, and each pair's confusion matrix is a sum of
  the drawn patterns' cells: no loop over resamples or units.

Light's (1971) kappa is the mean of the pairwise kappas of every pair of raters, which are
dependent in the same way: its standard error is the delta method's on the mean of their
influences.  Under the hypothesis that the raters rate independently, each pairwise
influence has mean 0 given either rater's rating, so the pairwise kappas are uncorrelated to
first order and the null variance is the mean of Fleiss, Cohen & Everitt's null variances
over :math:`P` pairs, divided by :math:`P`: the test of :func:`light_kappa_test`.

Symbols: ``codes[g, i]`` the category position rater ``g`` gave unit ``i`` (-1: missing),
``K`` the categories, ``W`` disagreement weights, ``psi`` the influences, ``m`` the
multiplicities of the distinct patterns, ``Wt`` a ``(B, U)`` stack of resampled ones.
"""

from __future__ import annotations

import math
import numbers
from statistics import NormalDist
from typing import Any, Literal

import numpy as np
from numpy.typing import ArrayLike

from .._coefficients.fixed_raters import rater_indicators
from .._coefficients.kappa import kappa
from .._input.options import check_choice, check_confidence, check_n_resamples, make_rng
from .._input.ratings import Layout, is_dataframe
from .._input.tables import check_weighted_order
from .._input.weights import resolve_weights
from .._shared.distributions import t_ppf
from .._shared.messages import short
from .._shared.policy import check_zero_division, finish
from ..results import ConfidenceInterval, Estimate, KappaDifference
from .bootstrap import bootstrap_interval, jackknife
from .intervals import finish_interval
from .kappa_inference import kappa_standard_error
from .kappa_linearization import codes_influence

__all__ = ["kappa_difference", "light_kappa_test"]

_NORMAL = NormalDist()
METHODS = ("analytic", "percentile", "bca")
_CHUNK = 1 << 21  # floats in one (resamples x patterns) block


# ------------------------------------------------------------------------------ checks
def _rater_names(ratings, layout, R):
    """The name of each rater: a DataFrame's column (or index) labels, else 0 .. R-1."""
    if is_dataframe(ratings):
        names = list(ratings.index if layout == "raters x units" else ratings.columns)
        if len(names) == R:
            return [n.item() if isinstance(n, np.generic) else n for n in names]
    return list(range(R))


def _check_pairs(pairs, names, R):
    """((g1, h1), (g2, h2)) as row indices, from positions or a DataFrame's rater names."""
    where = {n: i for i, n in enumerate(names)}
    text = (
        "pairs must be two pairs of raters, such as ((0, 1), (0, 2)) or (('A', 'B'), "
        "('C', 'D')): each a rater's position or a DataFrame's column name"
    )
    try:
        parts = [tuple(p) for p in pairs]
    except TypeError:
        raise TypeError(f"{text}, got {short(pairs)}") from None
    if len(parts) != 2 or any(len(p) != 2 for p in parts) or isinstance(pairs, str):
        raise ValueError(f"{text}, got {short(pairs)}")
    out = []
    for p in parts:
        idx = []
        for r in p:
            if r in where and not isinstance(r, bool):
                idx.append(where[r])
            elif (
                isinstance(r, numbers.Integral)
                and not isinstance(r, bool)
                and names == list(range(R))
                and 0 <= r < R
            ):
                idx.append(int(r))
            else:
                known = short(names, 60)
                raise ValueError(f"pairs names rater {r!r}, which is not among the raters {known}")
        if idx[0] == idx[1]:
            raise ValueError(
                f"pairs must pair two different raters, got {short(p)} (a rater's kappa "
                "with itself is 1)"
            )
        out.append(tuple(idx))
    if out[0] == out[1] or out[0] == out[1][::-1]:
        raise ValueError(f"pairs must be two different pairs of raters, got {short(pairs)}")
    return out


def rater_codes(ratings, layout, labels, name="ratings"):
    """``(codes (R, n) with -1 for missing, domain, source)`` of raw ratings."""
    X, _, domain, source = rater_indicators(ratings, layout, labels, name)
    rated = X.sum(axis=2) > 0
    return np.where(rated, X.argmax(axis=2), -1).astype(np.intp), domain, source


# ------------------------------------------------------------------- bootstrap engine
def _patterns(columns):
    """Distinct rows of the (n, m) codes and their multiplicities."""
    rows, m = np.unique(columns, axis=0, return_counts=True)
    return rows, m.astype(np.float64)


class PairCells:
    """How a (B, U) stack of pattern weights becomes a (B, K, K) stack of one pair's
    confusion matrices: the patterns' cells, grouped once."""

    def __init__(self, a, b, K):
        cell = np.where((a >= 0) & (b >= 0), a * K + b, -1)
        keep = np.flatnonzero(cell >= 0)
        self.order = keep[np.argsort(cell[keep], kind="stable")]
        cells = cell[self.order]
        self.starts = np.flatnonzero(np.r_[True, cells[1:] != cells[:-1]]) if cells.size else cells
        self.cells = cells[self.starts] if cells.size else cells
        self.K = K

    def matrices(self, Wt):
        K = self.K
        out = np.zeros((Wt.shape[0], K * K))
        if self.order.size:
            out[:, self.cells] = np.add.reduceat(Wt[:, self.order], self.starts, axis=1)
        return out.reshape(-1, K, K)


def batched_kappa(C, W):
    """Kappa of a (B, K, K) stack, NaN where undefined or where a matrix is empty."""
    empty = ~(C.sum(axis=(1, 2)) > 0)
    if empty.any():
        C = C.copy()
        C[empty] = np.eye(C.shape[-1])
    k = np.asarray(kappa(C, weighting=W, zero_division=np.nan), dtype=np.float64).reshape(-1)
    k[empty] = np.nan
    return k


def chunked(stat, m, n_resamples, rng):
    """stat over ``n_resamples`` multinomial draws of ``m.sum()`` units over the patterns,
    drawn a block at a time so that no (resamples x patterns) array exceeds _CHUNK floats."""
    n = int(m.sum())
    p = m / m.sum()
    step = max(1, _CHUNK // max(1, m.size))
    parts = []
    for s in range(0, n_resamples, step):
        Wt = rng.multinomial(n, p, size=min(step, n_resamples - s)).astype(np.float64)
        parts.append(stat(Wt))
    return np.concatenate(parts, axis=0)


def wald(estimate, se, confidence, bound):
    half = _NORMAL.inv_cdf((1.0 + confidence) / 2.0) * se
    return max(estimate - half, -bound), min(estimate + half, bound)


def z_test(estimate, se):
    if se is None or not se > 0:
        return None, None
    z = estimate / se
    return z, 2.0 * (1.0 - _NORMAL.cdf(abs(z)))


# ------------------------------------------------------------------------------ public
def kappa_difference(
    ratings: ArrayLike,
    pairs: Any,
    *,
    method: Literal["analytic", "percentile", "bca"] = "analytic",
    confidence_level: float = 0.95,
    weighting: str | ArrayLike | None = None,
    scores: ArrayLike | None = None,
    labels: ArrayLike | None = None,
    layout: Layout | None = None,
    n_resamples: int = 9999,
    rng: int | np.random.Generator | None = None,
    zero_division: str | float | None = None,
) -> KappaDifference:
    r"""The difference of two Cohen kappas on the same units, with its interval and test.

    ``pairs = ((a, b), (c, d))`` names two pairs of raters among the columns of
    ``ratings``; the difference is :math:`\hat\kappa_{cd} - \hat\kappa_{ab}`, each kappa the
    one :func:`cohen_kappa_score` gives for the pair (``a``/``c`` the rows).  Two pairs
    sharing a rater (``((0, 1), (0, 2))``: one reference, a rater before and after
    training, or two classifiers) are dependent too.

    **Delta method** (``method="analytic"``, Vanbelle & Albert 2008; Vanbelle 2017): with
    :math:`\psi^{(1)}_i`, :math:`\psi^{(2)}_i` each unit's influence on each kappa
    (Fleiss, Cohen & Everitt's variance is :math:`\sum_i \psi_i^2 / n^2`),

    .. math::

        \widehat{\mathrm{var}}(\hat\kappa_{cd} - \hat\kappa_{ab}) = \frac{1}{n^2}
            \sum_{i=1}^{n} \big(\psi^{(2)}_i - \psi^{(1)}_i\big)^2, \qquad
        z = \frac{\hat\kappa_{cd} - \hat\kappa_{ab}}{\widehat{\mathrm{se}}},

    and the Wald interval :math:`\hat\Delta \pm z_{(1+\gamma)/2}\,\widehat{\mathrm{se}}`.

    **Bootstrap over units** (``"percentile"``, ``"bca"``): units are drawn with
    replacement, each with all of its ratings, and both kappas recomputed; the standard
    error is the resamples' standard deviation, the test :math:`z = \hat\Delta /
    \widehat{\mathrm{se}}` (Vanbelle & Albert 2008), the interval the percentile or BCa
    interval of :func:`bootstrap_confint` (BCa's jackknife leaves out one unit).

    Parameters
    ----------
    ratings : array-like of shape (raters, units) or (units, raters), or a DataFrame
        Raw ratings of the same units by at least two raters, missing ratings as
        None/NaN; read as in :func:`light_kappa` (``layout``; a DataFrame has one row
        per unit).  Each kappa uses the units its pair both rated.
    pairs : pair of pairs
        ``((a, b), (c, d))``: raters by position (row of the raters x units array), or by
        a DataFrame's column names.
    method : {"analytic", "percentile", "bca"}, default "analytic"
    confidence_level : float, default 0.95
        Coverage, strictly between 0 and 1.
    weighting, scores :
        As in :func:`kappa`, on the positions of the categories (``labels`` order).
    labels : array-like of shape (K,), optional
        The categories, in order (the weights' order for strings).
    layout : {None, "raters x units", "units x raters"}
    n_resamples : int, default 9999
        Bootstrap only.
    rng : None, int or numpy.random.Generator
        Bootstrap only: seed it for a reproducible interval.
    zero_division : {None, "raise"} or float
        Policy when either kappa is undefined (0/0).

    Returns
    -------
    KappaDifference
        ``estimate`` (the difference), ``standard_error``, ``confidence_interval``, ``z``,
        ``pvalue`` (of equal kappas), and ``coefficients``: the two kappas, each with its
        standard error and interval by the same method.

    Raises
    ------
    ValueError, TypeError
        On invalid ratings (as :func:`light_kappa`), pairs that do not name two different
        pairs of raters, a pair with no unit rated by both, an unknown method, or
        ``confidence_level`` outside (0, 1).
    UndefinedMetricError
        If either kappa is undefined and ``zero_division="raise"``.

    Notes
    -----
    Where either kappa is 0/0 every number of the result follows ``zero_division`` (None
    by default).  A standard error of 0 (the two pairs agree on every unit, say) leaves
    ``z`` and ``pvalue`` None.  The delta method is large-sample: with few units or a rare
    category prefer the BCa interval; chapter 11 measures the coverage of both.

    References
    ----------
    Vanbelle, S. & Albert, A. (2008). A bootstrap method for comparing correlated kappa
    coefficients. *Journal of Statistical Computation and Simulation* 78(11), 1009-1015.
    Vanbelle, S. (2017). Comparing dependent kappa coefficients obtained on multilevel data.
    *Biometrical Journal* 59(5), 1016-1034.
    Donner, A., Shoukri, M. M., Klar, N. & Bartfay, E. (2000). Testing the equality of two
    dependent kappa statistics. *Statistics in Medicine* 19, 373-387.
    McKenzie, D. P. et al. (1996). Comparing correlated kappas by resampling: is one level
    of agreement significantly different from another? *Journal of Psychiatric Research*
    30(6), 483-492.

    Examples
    --------
    A reference (row 0) and a rater before (row 1) and after (row 2) training, ten units:

    >>> import kappalib as kl
    >>> ratings = [[0, 0, 0, 0, 0, 1, 1, 1, 1, 1],
    ...            [0, 1, 0, 1, 0, 1, 0, 1, 1, 1],
    ...            [0, 0, 0, 0, 1, 1, 1, 1, 1, 1]]
    >>> d = kl.kappa_difference(ratings, ((0, 1), (0, 2)), layout="raters x units")
    >>> round(d.coefficients[0].estimate, 2), round(d.coefficients[1].estimate, 2)
    (0.4, 0.8)
    >>> round(d.estimate, 2), round(d.standard_error, 3), round(d.pvalue, 3)
    (0.4, 0.38, 0.293)
    """
    confidence = check_confidence(confidence_level)
    zero_division = check_zero_division(zero_division)
    check_choice(method, "method", METHODS)
    if method != "analytic":
        n_resamples = check_n_resamples(n_resamples)
    codes, domain, source = rater_codes(ratings, layout, labels)
    R, _ = codes.shape
    names = _rater_names(ratings, layout, R)
    (g1, h1), (g2, h2) = _check_pairs(pairs, names, R)
    check_weighted_order(weighting, domain, source, "kappa_difference")
    K = domain.size
    W = resolve_weights(weighting, K, scores)
    both = [(codes[g] >= 0) & (codes[h] >= 0) for g, h in ((g1, h1), (g2, h2))]
    for (g, h), ok in zip(((g1, h1), (g2, h2)), both, strict=True):
        if not ok.any():
            raise ValueError(
                f"ratings: raters {names[g]!r} and {names[h]!r} rated no unit in common, so "
                "their Cohen kappa does not exist"
            )
    use = both[0] | both[1]
    codes = codes[:, use]
    n = codes.shape[1]
    k1, psi1, _ = codes_influence(codes[g1], codes[h1], K, W)
    k2, psi2, _ = codes_influence(codes[g2], codes[h2], K, W)
    raters = ((str(names[g1]), str(names[h1])), (str(names[g2]), str(names[h2])))
    titles = [f"kappa of {a} and {b}" for a, b in raters]
    if math.isnan(k1) or math.isnan(k2):
        policy = _undefined_policy(zero_division, raters, k1)
        nothing = finish_interval(np.nan, np.nan, True, zero_division, "")
        return KappaDifference(
            policy,
            policy,
            nothing,
            confidence,
            method_text(method),
            policy,
            policy,
            tuple(
                Estimate(t, policy if math.isnan(k) else k, None, nothing, method_text(method))
                for t, k in zip(titles, (k1, k2), strict=True)
            ),
            raters,
            n,
            weighting,
        )
    delta = k2 - k1
    if method == "analytic":
        d = psi2 - psi1
        se = math.sqrt(float(d @ d)) / n
        ses = [math.sqrt(float(p @ p)) / n for p in (psi1, psi2)]
        ci = wald(delta, se, confidence, 2.0)
        cis = [wald(k, s, confidence, 1.0) for k, s in zip((k1, k2), ses, strict=True)]
    else:
        pats, m = _patterns(codes.T)
        cells = [PairCells(pats[:, g], pats[:, h], K) for g, h in ((g1, h1), (g2, h2))]

        def both_kappas(Wt):
            Wt = np.atleast_2d(Wt)
            return np.stack([batched_kappa(c.matrices(Wt), W) for c in cells], axis=1)

        boot = chunked(both_kappas, m, n_resamples, make_rng(rng))
        diffs = boot[:, 1] - boot[:, 0]

        def jack(column):
            def f(Wt):
                v = both_kappas(Wt)
                return v[:, 1] - v[:, 0] if column is None else v[:, column]

            return lambda: jackknife(m, f)

        se = sd_of(diffs)
        ses = [sd_of(boot[:, j]) for j in (0, 1)]
        ci = bootstrap_interval(delta, diffs, confidence, method, jack(None))
        cis = [
            bootstrap_interval(k, boot[:, j], confidence, method, jack(j))
            for j, k in enumerate((k1, k2))
        ]
    z, p = z_test(delta, se)
    text = method_text(method)
    return KappaDifference(
        delta,
        se,
        to_interval(ci),
        confidence,
        text,
        z,
        p,
        tuple(
            Estimate(t, k, s, to_interval(c), text)
            for t, k, s, c in zip(titles, (k1, k2), ses, cis, strict=True)
        ),
        raters,
        n,
        weighting,
    )


def sd_of(values):
    values = values[np.isfinite(values)]
    return float(np.std(values, ddof=1)) if values.size > 1 else None


def to_interval(pair):
    if pair is None:
        return ConfidenceInterval(None, None)
    return ConfidenceInterval(float(pair[0]), float(pair[1]))


def method_text(method):
    return {
        "analytic": "delta method (Wald)",
        "percentile": "bootstrap over units, percentile",
        "bca": "bootstrap over units, BCa",
    }[method]


def _undefined_policy(zero_division, raters, k1):
    (a, b), (c, d) = raters
    which = f"{a} and {b}" if math.isnan(k1) else f"{c} and {d}"
    return finish(
        np.nan,
        True,
        zero_division,
        f"the Cohen kappa of raters {which} is undefined (0/0): both put every unit they "
        "share in one single category",
    )


def light_kappa_test(
    ratings: ArrayLike,
    *,
    confidence_level: float = 0.95,
    labels: ArrayLike | None = None,
    layout: Layout | None = None,
    zero_division: str | float | None = None,
) -> Estimate:
    r"""Light's kappa with its standard error, Wald interval and test of no agreement.

    Light's kappa is the mean of the :math:`P = R(R-1)/2` pairwise Cohen kappas
    (:func:`light_kappa`).  The pairs share units and raters, so their kappas are dependent;
    the delta method on the mean of their influences (each unit's :math:`\psi^{(p)}_i`, as
    in :func:`kappa_difference`) gives the standard error for the interval,

    .. math::

        \widehat{\mathrm{var}}(\hat\kappa_L) = \frac{1}{n^2} \sum_{i=1}^{n}
            \Big(\frac{1}{P}\sum_p \psi^{(p)}_i\Big)^2 .

    Under the hypothesis that the raters rate independently of each other, each pairwise
    influence has mean 0 given either rater's rating, so the pairwise kappas are
    uncorrelated to first order, and the null variance is

    .. math::

        \mathrm{se}_0^2 = \frac{1}{P^2} \sum_p \mathrm{se}_{0,p}^2,
        \qquad z = \hat\kappa_L / \mathrm{se}_0,

    with :math:`\mathrm{se}_{0,p}` Fleiss, Cohen & Everitt's (1969) standard error under
    :math:`\kappa = 0` of pair ``p`` (:func:`kappa_standard_error` with ``null=True``).

    Parameters
    ----------
    ratings : array-like of shape (raters, units) or (units, raters), or a DataFrame
        As in :func:`light_kappa` (each pair uses the units both raters rated).
    confidence_level : float, default 0.95
    labels : array-like of shape (K,), optional
    layout : {None, "raters x units", "units x raters"}
    zero_division : {None, "raise"} or float
        Policy when a pairwise kappa is undefined (0/0).

    Returns
    -------
    Estimate
        ``coefficient`` ("Light's kappa"), ``estimate``, ``standard_error`` (delta
        method), ``confidence_interval`` (:math:`\hat\kappa_L \pm t_{n-1}\,\mathrm{se}`, its
        upper end cut at 1, as :func:`ratings_confint` gives every many-rater coefficient),
        ``interval_method``, ``null_standard_error``, ``z`` and the two-sided ``pvalue``.

    Raises
    ------
    ValueError, TypeError
        As :func:`light_kappa`, and ``confidence_level`` outside (0, 1).
    UndefinedMetricError
        If a pairwise kappa is undefined and ``zero_division="raise"``.

    Notes
    -----
    irr's ``kappam.light`` reports a z for the same hypothesis from Cohen's (1960)
    approximation :math:`p_e/(n(1 - p_e))` with a pooled chance agreement
    :math:`1 - P\prod_p (1 - p_{e,p})`, which is not a probability: it is negative (and irr's
    z NaN) when :math:`P\prod_p(1 - p_{e,p}) > 1`.  The conformance table records both.
    ``z`` and ``pvalue`` are None where the null standard error is 0 (a rater who used one
    category).

    References
    ----------
    Light, R. J. (1971). Measures of response agreement for qualitative data: some
    generalizations and alternatives. *Psychological Bulletin* 76(5), 365-377.
    Fleiss, J. L., Cohen, J. & Everitt, B. S. (1969). Large sample standard errors of kappa
    and weighted kappa. *Psychological Bulletin* 72(5), 323-327.
    Vanbelle, S. (2017). Comparing dependent kappa coefficients obtained on multilevel data.
    *Biometrical Journal* 59(5), 1016-1034.

    Examples
    --------
    Three raters, four units: the pairwise kappas are 1/2, 1 and 1/2.

    >>> import kappalib as kl
    >>> t = kl.light_kappa_test([[1, 1, 2, 2], [1, 2, 2, 2], [1, 1, 2, 2]], layout="raters x units")
    >>> round(t.estimate, 6), round(t.null_standard_error, 4), round(t.z, 3)
    (0.666667, 0.2635, 2.53)
    """
    confidence = check_confidence(confidence_level)
    zero_division = check_zero_division(zero_division)
    codes, domain, _ = rater_codes(ratings, layout, labels)
    codes = codes[:, (codes >= 0).sum(axis=0) >= 2]  # units no pair of raters shares
    n_units = codes.shape[1]
    if n_units < 2:
        raise ValueError(
            f"ratings must hold at least 2 units rated by two raters or more, got {n_units}"
        )
    value, se, se0 = light_parts(codes, domain.size)
    if math.isnan(value):
        nothing = finish_interval(np.nan, np.nan, True, zero_division, _LIGHT_UNDEFINED)
        none = finish(np.nan, True, zero_division, _LIGHT_UNDEFINED)
        return Estimate("Light's kappa", none, none, nothing, "delta method", "", none)
    z, p = z_test(value, se0)
    half = t_ppf((1.0 + confidence) / 2.0, n_units - 1.0) * se
    return Estimate(
        "Light's kappa",
        value,
        se,
        ConfidenceInterval(value - half, min(value + half, 1.0)),
        "delta method, Student's t on n - 1 degrees of freedom",
        "",
        se0,
        z,
        p,
    )


_LIGHT_UNDEFINED = (
    "Light's kappa is undefined: the Cohen kappa of a pair of raters is 0/0 (both put every "
    "unit they share in one single category)"
)


def light_parts(codes, K):
    """(Light's kappa, its delta-method SE, its null SE), NaN where a pair is 0/0."""
    R, n = codes.shape
    g, h = np.triu_indices(R, 1)
    total = np.zeros(n)
    values, null_var = [], 0.0
    for a, b in zip(g.tolist(), h.tolist(), strict=True):
        k, psi, used = codes_influence(codes[a], codes[b], K, None)
        if used == 0:
            raise ValueError(
                f"ratings: raters {a} and {b} rated no unit in common, so their Cohen kappa "
                "does not exist; Light's kappa needs a crossed design (use "
                "kl.krippendorff_alpha or kl.fleiss_kappa_generalized for sparse designs)"
            )
        if psi is None:
            return float("nan"), None, None
        values.append(k)
        total += psi
        ok = (codes[a] >= 0) & (codes[b] >= 0)
        C = np.bincount(codes[a][ok] * K + codes[b][ok], minlength=K * K).reshape(K, K)
        null_var += kappa_standard_error(C, null=True) ** 2
    P = len(values)
    mean_psi = total / P
    return (
        float(np.mean(values)),
        math.sqrt(float(mean_psi @ mean_psi)) / n,
        math.sqrt(null_var) / P,
    )
