r"""Continuous ratings: the intraclass correlations, Lin's concordance correlation and the
overall concordance of several methods.

* :func:`icc`: the six forms of Shrout & Fleiss (1979) and McGraw & Wong (1996), single and
  average measures, from the two-way ANOVA of a complete units x raters table, with their
  F tests and F-based intervals (the Satterthwaite approximation for absolute agreement).
* :func:`lins_ccc`: Lin's (1989) concordance correlation coefficient of two raters, with
  the interval of its Fisher z (Lin 1989, 2000);
* :func:`overall_ccc`: the overall concordance of ``J`` methods (Barnhart, Haber & Song
  2002), with Lin's delta-method interval generalised (for ``J = 2`` it is Lin's).

Symbols of the ANOVA (Shrout & Fleiss 1979): ``n`` units (targets), ``k`` raters (judges),
``BMS`` between-units mean square, ``WMS`` within-units, ``JMS`` between-raters (judges),
``EMS`` residual.
"""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np
from numpy.typing import ArrayLike

from .._input.options import check_confidence
from .._input.ratings import Layout, as_ratings, check_not_unit_numbers, orient
from .._shared.distributions import f_ppf, f_sf
from .._shared.messages import short
from ..results import CCCResult, ConfidenceInterval, ICCForm, ICCResult, OverallCCCResult

__all__ = ["icc", "lins_ccc", "overall_ccc"]


def number_text(v):
    return None if v is None or not math.isfinite(v) else float(v)


_FORMS = (
    ("ICC1", "ICC(1,1)", "ICC(1)", "one-way random, single rater, absolute agreement"),
    ("ICC2", "ICC(2,1)", "ICC(A,1)", "two-way random, single rater, absolute agreement"),
    ("ICC3", "ICC(3,1)", "ICC(C,1)", "two-way mixed, single rater, consistency"),
    ("ICC1k", "ICC(1,k)", "ICC(k)", "one-way random, mean of k raters, absolute agreement"),
    ("ICC2k", "ICC(2,k)", "ICC(A,k)", "two-way random, mean of k raters, absolute agreement"),
    ("ICC3k", "ICC(3,k)", "ICC(C,k)", "two-way mixed, mean of k raters, consistency"),
)


def _as_table(data, layout, name="ratings"):
    """A complete (units, raters) float64 table of numeric ratings, or one sentence.

    The layout and missing-value rules of ``_input.ratings``, but not its subject-id check: a
    measurement differs from unit to unit, so "a different value for every unit" is no sign
    of an id column here (one rater with decimals among raters who round would be refused);
    a column that numbers the units 1, 2, ..., n is (:func:`check_not_unit_numbers`).
    """
    oriented, _, raters = orient(data, layout, name)
    arr, missing, _ = as_ratings(oriented, name)
    if arr.dtype.kind not in "biuf":
        raise TypeError(
            f"{name} must hold numeric ratings for an intraclass correlation, got "
            f"{short(arr.ravel()[:3].tolist())} ({arr.dtype})"
        )
    Y = np.asarray(arr, dtype=np.float64).T  # units x raters
    absent = np.isnan(Y) if missing is None else missing.T
    if absent.any():
        u, g = (int(i) for i in np.argwhere(absent)[0])
        raise ValueError(
            f"{name} has a missing rating (unit {u}, rater {g}): the ICC's ANOVA needs every "
            "unit rated by every rater; drop the incomplete units first (df.dropna(), as "
            "pingouin's nan_policy='omit'), or use kl.krippendorff_alpha(..., "
            "level_of_measurement='interval'), which allows missing ratings"
        )
    n, k = Y.shape
    if n < 2 or k < 2:
        raise ValueError(
            f"{name} must have at least 2 units and 2 raters for an intraclass correlation, "
            f"got {n} unit(s) x {k} rater(s) (read as units x raters)"
        )
    check_not_unit_numbers(Y, raters, name)
    return Y


def _exact_zero(ss, residuals, Y):
    """A sum of squares of ``residuals`` as 0 when every residual is within the rounding
    error of the centred table ``Y`` (a few units in the last place of its largest value)."""
    scale = float(np.abs(Y).max()) if Y.size else 0.0
    if ss > 0 and float(np.abs(residuals).max()) <= 64 * np.finfo(np.float64).eps * scale:
        return 0.0
    return ss


def icc(
    ratings: ArrayLike,
    *,
    layout: Layout | None = None,
    confidence_level: float = 0.95,
) -> ICCResult:
    r"""The six intraclass correlations (Shrout & Fleiss 1979; McGraw & Wong 1996).

    From the two-way ANOVA of ``n`` units by ``k`` raters (mean squares ``BMS`` between
    units, ``JMS`` between raters, ``EMS`` residual, ``WMS`` within units):

    .. math::

        \mathrm{ICC1} = \frac{BMS - WMS}{BMS + (k-1) WMS}, \quad
        \mathrm{ICC2} = \frac{BMS - EMS}{BMS + (k-1) EMS + k (JMS - EMS)/n}, \quad
        \mathrm{ICC3} = \frac{BMS - EMS}{BMS + (k-1) EMS},

    and the average-measure forms ICC1k = (BMS - WMS)/BMS, ICC2k = (BMS - EMS)/(BMS +
    (JMS - EMS)/n), ICC3k = (BMS - EMS)/BMS: the reliability of the mean of the ``k``
    raters.  Which one:

    * ICC1 / ICC1k: each unit rated by a different set of raters (one-way random);
    * ICC2 / ICC2k: the raters are a sample of raters, and a rater's bias counts against
      agreement (two-way random, absolute agreement: McGraw-Wong's ICC(A,1));
    * ICC3 / ICC3k: these raters only, and a constant offset between them is ignored
      (two-way mixed, consistency: ICC(C,1)).

    The F tests are ``BMS / WMS`` on (n - 1, n(k - 1)) df for ICC1 and ``BMS / EMS`` on
    (n - 1, (n - 1)(k - 1)) df for the others.  The intervals are F-based (Shrout & Fleiss
    1979; McGraw & Wong 1996), with Satterthwaite's degrees of freedom for ICC2 and ICC2k,
    as psych and pingouin compute them.

    Parameters
    ----------
    ratings : array-like of shape (units, raters) or (raters, units)
        Numeric ratings, complete (no missing rating).  A DataFrame is read one row per unit
        (pandas, pingouin's wide format, psych, irr); a plain array is refused without
        ``layout``, which its shape never settles.  Every column is a rater: make a
        subject-id column the DataFrame's index (``df.set_index("id")``) first.
    layout : {None, "raters x units", "units x raters"}
    confidence_level : float, default 0.95

    Returns
    -------
    ICCResult
        ``.ICC1`` ... ``.ICC3k`` (or ``result["ICC(A,1)"]``), each an :class:`ICCForm` with
        ``estimate``, ``F``, ``df1``, ``df2``, ``pvalue``, ``confidence_interval``.

    Raises
    ------
    ValueError, TypeError
        On a missing rating, non-numeric ratings, fewer than 2 units or 2 raters, or an
        ambiguous layout.

    References
    ----------
    Shrout, P. E. & Fleiss, J. L. (1979). Intraclass correlations: uses in assessing rater
    reliability. *Psychological Bulletin* 86(2), 420-428.
    McGraw, K. O. & Wong, S. P. (1996). Forming inferences about some intraclass
    correlation coefficients. *Psychological Methods* 1(1), 30-46.

    Examples
    --------
    Shrout and Fleiss' (1979) Table 2: six targets, four judges.  The paper's Table 4
    gives .17, .29, .71, .44, .62 and .91.

    >>> import kappalib as kl
    >>> ratings = [[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8],
    ...            [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7]]
    >>> res = kl.icc(ratings, layout="units x raters")
    >>> [round(f.estimate, 2) for f in res.forms]
    [0.17, 0.29, 0.71, 0.44, 0.62, 0.91]
    >>> round(res.ICC3.F, 2), res.ICC3.df1, res.ICC3.df2
    (11.03, 5, 15)
    """
    level = check_confidence(confidence_level)
    Y = _as_table(ratings, layout)
    n, k = Y.shape
    # centred first: the sums of squares of deviations, never differences of raw sums
    Y = Y - Y.mean()
    row = Y.mean(axis=1)
    col = Y.mean(axis=0)
    SSR = k * float(row @ row)
    SSC = n * float(col @ col)
    within = Y - row[:, None]
    SSW = float(np.einsum("ij,ij->", within, within))
    resid = within - col[None, :]
    SSE = float(np.einsum("ij,ij->", resid, resid))
    # A residual no larger than the rounding of the centred sums is 0: the ratings fit the
    # additive model exactly (y = x + 2), F = BMS/EMS is infinite and p = 0, not 6e31.
    SSW = _exact_zero(SSW, within, Y)
    SSE = _exact_zero(SSE, resid, Y)
    df_r, df_c, df_e, df_w = n - 1, k - 1, (n - 1) * (k - 1), n * (k - 1)
    BMS, JMS, EMS, WMS = SSR / df_r, SSC / df_c, SSE / df_e, SSW / df_w

    def ratio(a, b):
        return a / b if b != 0 else (math.inf if a > 0 else math.nan)

    with np.errstate(all="ignore"):
        icc1 = ratio(BMS - WMS, BMS + (k - 1) * WMS)
        icc2 = ratio(BMS - EMS, BMS + (k - 1) * EMS + k * (JMS - EMS) / n)
        icc3 = ratio(BMS - EMS, BMS + (k - 1) * EMS)
        icc1k = ratio(BMS - WMS, BMS)
        icc2k = ratio(BMS - EMS, BMS + (JMS - EMS) / n)
        icc3k = ratio(BMS - EMS, BMS)
        F1 = ratio(BMS, WMS)
        F3 = ratio(BMS, EMS)

    q = 1.0 - (1.0 - level) / 2.0

    def single(Fb):  # an F bound to the single-rater scale: (F - 1) / (F + k - 1)
        return 1.0 if math.isinf(Fb) else (Fb - 1.0) / (Fb + k - 1.0)

    def average(Fb):  # to the average-measure scale: 1 - 1 / F
        return 1.0 - 1.0 / Fb if Fb != 0 else -math.inf

    def bounds(F, d1, d2):
        if not math.isfinite(F) and not math.isinf(F):
            return math.nan, math.nan
        return F / f_ppf(q, d1, d2), F * f_ppf(q, d2, d1)

    F1L, F1U = bounds(F1, df_r, df_w)
    F3L, F3U = bounds(F3, df_r, df_e)
    ci1 = (single(F1L), single(F1U))
    ci1k = (average(F1L), average(F1U))
    ci3 = (single(F3L), single(F3U))
    ci3k = (average(F3L), average(F3U))
    ci2, ci2k = (math.nan, math.nan), (math.nan, math.nan)
    if math.isfinite(icc2):
        # McGraw & Wong (1996), Table 7, case 2A: Satterthwaite's df for the denominator
        # (its limit df_e / df_r = k - 1 as F_j = JMS / EMS grows without bound)
        a = n * (1.0 + (k - 1.0) * icc2) - k * icc2
        if EMS > 0:
            Fj = JMS / EMS
            v = df_e * (k * icc2 * Fj + a) ** 2 / (df_r * (k * icc2 * Fj) ** 2 + a * a)
        else:
            v = df_e / df_r
        FU, FL = f_ppf(q, df_r, v), f_ppf(q, v, df_r)
        den = k * JMS + (k * n - k - n) * EMS
        low = n * (BMS - FU * EMS) / (FU * den + n * BMS)
        high = n * (FL * BMS - EMS) / (den + n * FL * BMS)
        ci2 = (low, high)
        ci2k = (low * k / (1.0 + low * (k - 1.0)), high * k / (1.0 + high * (k - 1.0)))
    p1 = f_sf(F1, df_r, df_w) if math.isfinite(F1) or math.isinf(F1) else math.nan
    p3 = f_sf(F3, df_r, df_e) if math.isfinite(F3) or math.isinf(F3) else math.nan
    rows = [
        (icc1, F1, df_r, df_w, p1, ci1),
        (icc2, F3, df_r, df_e, p3, ci2),
        (icc3, F3, df_r, df_e, p3, ci3),
        (icc1k, F1, df_r, df_w, p1, ci1k),
        (icc2k, F3, df_r, df_e, p3, ci2k),
        (icc3k, F3, df_r, df_e, p3, ci3k),
    ]
    forms = []
    for (name, sf, mw, text), (value, F, d1, d2, p, (lo, hi)) in zip(_FORMS, rows, strict=True):
        value = number_text(value)
        forms.append(
            ICCForm(
                name,
                sf,
                mw,
                text,
                value,
                None if math.isnan(F) else float(F),
                d1,
                d2,
                number_text(p),
                ConfidenceInterval(
                    number_text(lo) if value is not None else None,
                    number_text(hi) if value is not None else None,
                ),
            )
        )
    return ICCResult(tuple(forms), n, k, level, BMS, WMS, JMS, EMS)


def _vector(v, name):
    try:
        arr = np.asarray(v, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a 1-D sequence of numbers, got {short(v)}") from None
    if arr.ndim != 1:
        raise ValueError(f"{name} must be 1-D, got shape {arr.shape}: {short(v)}")
    bad = ~np.isfinite(arr)
    if bad.any():
        i = int(np.argmax(bad))
        raise ValueError(
            f"{name} must hold finite numbers, got {float(arr[i])!r} at index {i} (drop the pairs "
            "with a missing value first)"
        )
    return arr


def lins_ccc(y1: ArrayLike, y2: ArrayLike, *, confidence_level: float = 0.95) -> CCCResult:
    r"""Lin's concordance correlation coefficient of two raters' continuous ratings.

    .. math::

        \rho_c = \frac{2 s_{xy}}{s_x^2 + s_y^2 + (\bar x - \bar y)^2}
               = r \cdot C_b, \qquad
        C_b = \frac{2}{v + 1/v + u^2},

    with the moments divided by ``n`` (Lin 1989), ``r`` Pearson's correlation,
    :math:`v = s_x / s_y` and :math:`u = (\bar x - \bar y)/\sqrt{s_x s_y}`.  It measures
    agreement with the 45-degree line: a correlation that also charges a shift or a change of
    scale.  The
    interval is Lin's, on Fisher's z = atanh(rho_c), with the variance

    .. math::

        \frac{1}{n - 2}\left[\frac{(1 - r^2)\rho_c^2}{(1 - \rho_c^2) r^2}
        + \frac{2\rho_c^3 (1 - \rho_c) u^2}{r (1 - \rho_c^2)^2}
        - \frac{\rho_c^4 u^4}{2 r^2 (1 - \rho_c^2)^2}\right]

    (Lin 1989, with the correction of Lin 2000).

    Parameters
    ----------
    y1, y2 : array-like of shape (n,)
        The two raters' ratings of the same units, finite numbers, n >= 3 for an interval.
    confidence_level : float, default 0.95

    Returns
    -------
    CCCResult
        ``estimate``, ``confidence_interval``, ``pearson``, ``accuracy`` (C_b),
        ``location_shift`` (u), ``scale_shift`` (v), ``n_units``.  ``estimate`` is None
        when both raters give one same constant (0/0); ``scale_shift`` is 0 for a constant
        first rater; the interval is None when it is undefined (a constant rater,
        :math:`|\rho_c| = 1`, or n < 3).

    References
    ----------
    Lin, L. I.-K. (1989). A concordance correlation coefficient to evaluate
    reproducibility. *Biometrics* 45(1), 255-268.  Lin, L. I.-K. (2000). A note on the
    concordance correlation coefficient. *Biometrics* 56(1), 324-325.

    Examples
    --------
    Rater y reads 1 unit higher than rater x: Pearson's r is 1, the concordance is not.

    >>> import kappalib as kl
    >>> res = kl.lins_ccc([1, 2, 3, 4, 5], [2, 3, 4, 5, 6])
    >>> res.pearson, round(res.estimate, 4)
    (1.0, 0.8)
    """
    level = check_confidence(confidence_level)
    X, Y = _vector(y1, "y1"), _vector(y2, "y2")
    if X.shape != Y.shape:
        raise ValueError(
            f"y1 and y2 must be paired ratings of the same length, got {X.size} and {Y.size}"
        )
    n = X.size
    if n < 2:
        raise ValueError(f"y1 and y2 must hold at least 2 pairs, got {n}")
    mx, my = float(X.mean()), float(Y.mean())
    dx, dy = X - mx, Y - my
    sxx, syy, sxy = float(dx @ dx) / n, float(dy @ dy) / n, float(dx @ dy) / n
    shift = mx - my
    den = sxx + syy + shift * shift
    value = 2.0 * sxy / den if den > 0 else None
    r = sxy / math.sqrt(sxx * syy) if sxx > 0 and syy > 0 else None
    if r is not None:
        r = max(-1.0, min(1.0, r))
    u = shift / math.sqrt(math.sqrt(sxx) * math.sqrt(syy)) if r is not None else None
    # v = s_x / s_y is defined whenever s_y > 0: 0 for a constant first rater (Lin 1989)
    v = math.sqrt(sxx) / math.sqrt(syy) if syy > 0 else None
    accuracy = value / r if value is not None and r not in (None, 0.0) else None
    low = high = None
    if value is not None and r not in (None, 0.0) and abs(value) < 1.0 and n > 2:
        assert u is not None
        p, p2, r2, u2 = value, value * value, r * r, u * u
        one = 1.0 - p2
        var = (
            (1.0 - r2) * p2 / (one * r2)
            + 2.0 * p**3 * (1.0 - p) * u2 / (r * one * one)
            - p2 * p2 * u2 * u2 / (2.0 * r2 * one * one)
        ) / (n - 2.0)
        if var >= 0:
            z = NormalDist().inv_cdf((1.0 + level) / 2.0)
            half = z * math.sqrt(var)
            low, high = math.tanh(math.atanh(p) - half), math.tanh(math.atanh(p) + half)
    return CCCResult(value, ConfidenceInterval(low, high), level, r, accuracy, u, v, n)


# --- the overall concordance of several methods -------------------------------------------
def overall_ccc(
    ratings: ArrayLike,
    *,
    layout: Layout | None = None,
    confidence_level: float = 0.95,
) -> OverallCCCResult:
    r"""The overall concordance correlation of ``J`` methods, with its interval.

    .. math::

        \rho_o = \frac{2\sum_{j<k}\sigma_{jk}}
                      {(J-1)\sum_j \sigma_j^2 + \sum_{j<k}(\mu_j - \mu_k)^2}
               = \frac{\sum_{j<k} \xi_{jk}\,\rho_{c,jk}}{\sum_{j<k}\xi_{jk}},

    the average of the pairwise concordance correlations :math:`\rho_{c,jk}` weighted by
    their denominators :math:`\xi_{jk} = \sigma_j^2 + \sigma_k^2 + (\mu_j - \mu_k)^2` (Lin
    1989; Barnhart, Haber & Song 2002).  It is 1 only when every method gives every unit the
    same value.  ``precision`` :math:`= \sum_{j<k}\sigma_{jk} / \sum_{j<k}\sigma_j\sigma_k`
    and ``accuracy`` :math:`= 2\sum_{j<k}\sigma_j\sigma_k / \sum_{j<k}\xi_{jk}` are its two
    factors, as epiR's ``epi.occc`` gives them (for two methods: Pearson's r and Lin's
    :math:`C_b`).

    The interval is Lin's, generalised: the delta method on the sample moments under
    normality (the means have covariance :math:`\Sigma/n`, the covariances
    :math:`(\sigma_{ac}\sigma_{bd} + \sigma_{ad}\sigma_{bc})/n`, independent of the means),
    on Fisher's :math:`z = \operatorname{atanh}\rho_o`, with ``n - 2`` in place of ``n`` as
    Lin (1989, 2000) has it:

    .. math::

        \operatorname{Var}(\hat z) = \frac{g_\mu^\top \Sigma\, g_\mu
            + 2\operatorname{tr}(G\Sigma G\Sigma)}{(n-2)(1-\rho_o^2)^2},

    with :math:`g_\mu` and :math:`G` the gradients of :math:`\rho_o` in the means and the
    covariances.  For two methods it is Lin's interval exactly.

    Parameters
    ----------
    ratings : array-like of shape (units, raters) or (raters, units)
        Numeric measurements, complete; one column per method.  A DataFrame is one row per
        unit; a plain array is refused without ``layout``, which its shape never settles.
    layout : {None, "raters x units", "units x raters"}
    confidence_level : float, default 0.95

    Returns
    -------
    OverallCCCResult
        ``estimate`` (None when every measurement is the same), ``standard_error`` (of
        the estimate, by the delta method), ``confidence_interval`` (None when undefined:
        :math:`|\rho_o| = 1`, a constant method, or fewer than 3 units), ``precision``,
        ``accuracy``, ``n_units``, ``n_raters``.

    Raises
    ------
    ValueError, TypeError
        As :func:`kappalib.icc`: a missing or non-numeric measurement, fewer than 2 units or
        2 methods, an ambiguous layout; ``confidence_level`` outside (0, 1).

    References
    ----------
    Lin, L. I.-K. (1989). A concordance correlation coefficient to evaluate
    reproducibility. *Biometrics* 45(1), 255-268.
    Barnhart, H. X., Haber, M. & Song, J. (2002). Overall concordance correlation
    coefficient for evaluating agreement among multiple observers. *Biometrics* 58(4),
    1020-1027.

    Examples
    --------
    Shrout and Fleiss' (1979) four judges of six targets: the judges differ in level, so
    their concordance is far below their consistency (ICC(3,1) = 0.71).

    >>> import kappalib as kl
    >>> ratings = [[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8],
    ...            [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7]]
    >>> res = kl.overall_ccc(ratings, layout="units x raters")
    >>> round(res.estimate, 4), res.n_raters
    (0.2537, 4)
    """
    level = check_confidence(confidence_level)
    Y = _as_table(ratings, layout)
    n, J = Y.shape
    mu = Y.mean(axis=0)
    dev = Y - mu
    S = dev.T @ dev / n
    sd = np.sqrt(np.diag(S))
    upper = np.triu_indices(J, 1)
    num = float(S[upper].sum())  # sum over j < k of sigma_jk
    gaps = float(((mu[:, None] - mu[None, :])[upper] ** 2).sum())
    den = (J - 1) * float(np.trace(S)) + gaps  # sum over j < k of xi_jk
    rho = 2.0 * num / den if den > 0 else None
    cross = float(np.outer(sd, sd)[upper].sum())  # sum over j < k of sigma_j sigma_k
    precision = num / cross if cross > 0 else None
    accuracy = 2.0 * cross / den if den > 0 else None
    se = low = high = None
    if rho is not None and n > 2:
        N = 2.0 * num
        g_mu = -(N / den**2) * 2.0 * (J * mu - mu.sum())
        G = ((np.ones((J, J)) - np.eye(J)) * den - N * (J - 1) * np.eye(J)) / den**2
        GS = G @ S
        var_rho = (float(g_mu @ S @ g_mu) + 2.0 * float(np.trace(GS @ GS))) / (n - 2)
        se = math.sqrt(max(var_rho, 0.0))
        if abs(rho) < 1.0 and cross > 0 and var_rho > 0:
            z = NormalDist().inv_cdf((1.0 + level) / 2.0)
            half = z * se / (1.0 - rho * rho)
            low, high = math.tanh(math.atanh(rho) - half), math.tanh(math.atanh(rho) + half)
    return OverallCCCResult(
        estimate=rho,
        standard_error=se,
        confidence_interval=ConfidenceInterval(low, high),
        confidence_level=level,
        precision=precision,
        accuracy=accuracy,
        n_units=n,
        n_raters=J,
    )
