r"""Standard errors and confidence intervals for the many-rater coefficients.

Two routes, one front (:func:`ratings_standard_error`, :func:`ratings_confint`):

* **analytic** (``method="analytic"``): Gwet's (2008; 2014, ch. 5) linearization variance
  for Fleiss' (generalized) kappa, Gwet's AC1/AC2 and Brennan-Prediger, with the
  finite-population correction ``1 - n / n_population``; the interval is Gwet's
  :math:`\hat\theta \pm t_{n-1} \widehat{\mathrm{se}}`, its upper end cut at 1, as irrCAC
  computes it.  For Fleiss' kappa, ``null=True`` gives the standard error under
  :math:`\kappa = 0` of Fleiss, Nee and Landis (1979), for a test, not for an interval.
* **bootstrap over units** (``method="percentile"`` or ``"bca"`` for an interval,
  ``"bootstrap"`` for a standard error): every coefficient,
  Krippendorff's alpha included.  A rating table with ``n`` units *is* its data set up to
  the order of the units, so drawing ``n`` units with replacement is one multinomial draw
  of ``n`` over the ``U`` distinct units (rows of the table), with probabilities
  ``multiplicity / n``: chapter 11's engine (``bootstrap.resample``,
  ``bootstrap.bootstrap_interval``, ``bootstrap.jackknife``) applied to the vector of
  multiplicities.  Every coefficient here is a
  function of sums over units, so the ``B`` resamples are one ``(B, U)`` weight matrix and
  one matrix product, never a loop over resamples.

Symbols as in :mod:`kappalib._coefficients.count_tables` and Gwet (2014): ``n_ik`` the
table, ``r_i`` the ratings of unit ``i``, ``w`` the agreement weights, ``p_a``, ``p_e``,
``pi_k``; for alpha, ``o`` the coincidences and ``delta`` the squared distances.  ``m``
(multiplicities) and ``Wt`` (a ``(B, U)`` stack of resampled multiplicities) are the
bootstrap's.
"""

from __future__ import annotations

import math
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

from .._input.options import check_confidence, check_n_resamples
from .._input.ratings import Layout
from .._shared.distributions import t_ppf
from .._shared.messages import short
from .._shared.policy import check_zero_division, finish
from ..results import ConfidenceInterval
from .bootstrap import bootstrap_interval, jackknife
from .intervals import finish_interval
from .ratings_bootstrap import bootstrap_values, prepare_bootstrap
from .ratings_variance import COEFFICIENT_NAMES, analytic_variance, at_least_two_units

__all__ = ["ratings_confint", "ratings_standard_error"]


CoefficientName = Literal[
    "fleiss", "fleiss_generalized", "alpha", "ac1", "ac2", "bp", "conger", "light"
]


_COEFFICIENTS = ("fleiss", "fleiss_generalized", "alpha", "ac1", "ac2", "bp", "conger", "light")


# take a units x categories count table; the others take raw ratings
_TABLE = ("fleiss", "fleiss_generalized", "ac1", "ac2", "bp")
_WEIGHTED = ("fleiss_generalized", "ac1", "ac2", "bp", "conger", "alpha")
_SE_METHODS = ("analytic", "bootstrap")


_CI_METHODS = ("analytic", "percentile", "bca")


_UNDEFINED = "{name} is undefined (0/0) on these data, and so is its standard error"


_DATA_DOC = """What the point estimate takes: for ``"fleiss"``, ``"fleiss_generalized"``,
        ``"ac1"``, ``"ac2"`` and ``"bp"`` the units x categories count table of
        :func:`rating_table` (as :func:`fleiss_kappa`, :func:`fleiss_kappa_generalized`,
        :func:`gwet_ac1_multi`, :func:`brennan_prediger_multi`); for ``"alpha"``,
        ``"conger"`` and ``"light"`` the raw ratings (as :func:`krippendorff_alpha`,
        :func:`conger_kappa`, :func:`light_kappa`, with ``layout=``)."""


# ------------------------------------------------------------------------------ checks
def _check_options(coefficient, method, weighting, level, layout, null, n_population, methods):
    if not isinstance(coefficient, str) or coefficient not in _COEFFICIENTS:
        raise ValueError(
            "coefficient must be 'fleiss', 'fleiss_generalized', 'alpha', 'ac1', 'ac2', 'bp', "
            f"'conger' or 'light', got {short(coefficient)}"
        )
    if not isinstance(method, str) or method not in methods:
        options = ", ".join(repr(m) for m in methods[:-1]) + f" or {methods[-1]!r}"
        raise ValueError(f"method must be {options}, got {short(method)}")
    name = COEFFICIENT_NAMES[coefficient]
    if coefficient == "ac2" and weighting is None:
        raise ValueError(
            "coefficient='ac2' is AC1 with weights and needs weighting= ('linear', "
            "'quadratic' or a matrix); use coefficient='ac1' for unweighted ratings"
        )
    if coefficient == "alpha" and weighting is not None and level != "nominal":
        raise ValueError(
            "give either level_of_measurement or weighting for Krippendorff's alpha, got "
            f"level_of_measurement={short(level)} and weighting={short(weighting, 40)}"
        )
    if coefficient not in _WEIGHTED and weighting is not None:
        hint = "; 'fleiss_generalized' takes weights" if coefficient == "fleiss" else ""
        raise ValueError(
            f"weighting does not apply to {name}, got weighting={short(weighting)}{hint}"
        )
    if coefficient != "alpha" and level != "nominal":
        raise ValueError(
            "level_of_measurement applies to Krippendorff's alpha only, got "
            f"level_of_measurement={short(level)} with "
            f"coefficient={coefficient!r}"
        )
    if coefficient in _TABLE and layout is not None:
        raise ValueError(
            f"layout applies to raw ratings, and {name} takes a units x categories count "
            f"table (kl.rating_table), got layout={layout!r}"
        )
    if not isinstance(null, (bool, np.bool_)):
        raise TypeError(f"null must be True or False, got {short(null)}")
    if null and (coefficient != "fleiss" or method != "analytic"):
        raise ValueError(
            "null=True (the standard error under kappa = 0 of Fleiss, Nee and Landis 1979) "
            f"exists for coefficient='fleiss' with method='analytic' only, got "
            f"coefficient={coefficient!r}, method={method!r}"
        )
    if n_population is not None and method != "analytic":
        raise ValueError(
            "n_population (the finite-population correction) applies to the analytic "
            f"variance; the bootstrap treats the units as drawn from an infinite population, "
            f"got n_population={short(n_population)} with method={method!r}"
        )
    if null and n_population is not None:
        raise ValueError(
            "n_population applies to the non-null standard error (Gwet's); Fleiss, Nee and "
            f"Landis' null standard error has no finite-population form, got "
            f"n_population={short(n_population)} with null=True"
        )


def ratings_standard_error(
    data: ArrayLike,
    *,
    coefficient: CoefficientName,
    method: Literal["analytic", "bootstrap"] = "analytic",
    weighting: str | ArrayLike | None = None,
    scores: ArrayLike | None = None,
    labels: ArrayLike | None = None,
    level_of_measurement: Literal["nominal", "ordinal", "interval", "ratio"] = "nominal",
    layout: Layout | None = None,
    null: bool = False,
    n_population: float | None = None,
    n_resamples: int = 9999,
    rng: int | np.random.Generator | None = None,
    zero_division: str | float | None = None,
) -> float | None:
    r"""Standard error of a many-rater coefficient: Gwet's linearization, or the bootstrap.

    **Analytic** (Gwet 2008; 2014, ch. 5).  Each of the ``n`` rated units gets its share of
    the coefficient :math:`\theta = (p_a - p_e)/(1 - p_e)`,

    .. math::

        \theta^\star_i = \frac{n}{n'}\,\frac{p_{a|i} - p_e\,[r_i \ge 2]}{1 - p_e}
            - 2\,(1 - \hat\theta)\,\frac{p_{e|i} - p_e}{1 - p_e}, \qquad
        \widehat{\mathrm{var}}(\hat\theta) = \frac{1 - f}{n(n-1)}
            \sum_{i=1}^{n} (\theta^\star_i - \hat\theta)^2,

    :math:`p_{a|i}` the agreement among unit ``i``'s ratings, :math:`n'` the units with two
    ratings or more, :math:`f = n / n_\text{population}` and :math:`p_{e|i}` the unit's
    share of chance agreement: :math:`\sum_k (n_{ik}/r_i)\,\bar\pi_k` with
    :math:`\bar\pi = (w + w^\top)\pi/2` for Fleiss' kappa,
    :math:`\frac{T_w}{K(K-1)} \sum_k (n_{ik}/r_i)(1 - \pi_k)` for AC1/AC2,
    :math:`p_e` itself for Brennan-Prediger (its chance agreement is fixed), and for
    Conger's kappa Gwet's term for each rater's margins (as irrCAC's ``conger``).
    Krippendorff's alpha has Gwet's linearization as irrCAC's ``krippen_alpha_raw`` computes
    it (``kappalib._uncertainty.alpha_variance``; not at the ordinal level, whose distances
    depend on the data), and Light's kappa the delta method on its pairwise kappas
    (:func:`light_kappa_test`).

    For Fleiss' kappa, ``null=True`` gives instead the standard error under
    :math:`\kappa = 0` (Fleiss, Nee & Landis 1979), for the test
    :math:`z = \hat\kappa / \mathrm{se}_0`, never for an interval:

    .. math::

        \mathrm{se}_0^2 = \frac{2}{N n (n-1)}\,
            \frac{(\sum_k p_k q_k)^2 - \sum_k p_k q_k (q_k - p_k)}{(\sum_k p_k q_k)^2},
        \qquad q_k = 1 - p_k.

    **Bootstrap** (``method="bootstrap"``): the standard
    deviation of the coefficient over ``n_resamples`` resamples of the units, for every
    coefficient, Krippendorff's alpha too (see :func:`ratings_confint`).

    Parameters
    ----------
    data : array-like
        DATA_DOC
    coefficient : {"fleiss", "fleiss_generalized", "alpha", "ac1", "ac2", "bp", "conger", "light"}
        ``"ac2"`` is AC1 with ``weighting``; ``"fleiss"`` needs the same number of ratings
        per unit, ``"fleiss_generalized"`` (Gwet's) does not.
    method : {"analytic", "bootstrap"}, default "analytic"
        Krippendorff's alpha at the ordinal level has no analytic standard error here: use
        the bootstrap.
    weighting, scores :
        As in the coefficient's own function (``weighting`` for the generalized Fleiss,
        AC1/AC2, BP, Conger and alpha).
    labels : array-like of shape (K,), optional
        The categories offered, in order: for raw ratings as in :func:`rating_table`; for a
        count table, its columns' names (or a reindexing of a :class:`RatingTable`).
    level_of_measurement : {"nominal", "ordinal", "interval", "ratio"}
        Krippendorff's alpha only.
    layout : {None, "raters x units", "units x raters"}
        Raw ratings (alpha, Conger, Light) only.
    null : bool, default False
        Fleiss' kappa, analytic only: the standard error under :math:`\kappa = 0`.
    n_population : float, optional
        The number of units in the population the ``n`` rated units were drawn from
        (analytic only; default infinite: no correction).
    n_resamples : int, default 9999
        Bootstrap only.
    rng : None, int or numpy.random.Generator
        Bootstrap only: seed it for a reproducible number.
    zero_division : {None, "raise"} or float
        Policy when the coefficient is undefined (0/0).

    Returns
    -------
    se : float or None

    Raises
    ------
    ValueError, TypeError
        On an unknown coefficient or method, ``method="analytic"`` for ordinal alpha, an option that
        does not apply to the coefficient or the method, fewer than 2 rated units, an
        ``n_population`` below the number of units, or invalid data (as the coefficient's
        own function).
    UndefinedMetricError
        If the coefficient is undefined and ``zero_division="raise"``.

    Notes
    -----
    The standard error is undefined, ``None``, where the coefficient is (0/0).  It is 0
    where every unit contributes the same (perfect agreement, say); that says the formula
    cannot see any uncertainty in these units, not that there is none.

    References
    ----------
    Gwet, K. L. (2008). Computing inter-rater reliability and its variance in the presence
    of high agreement. *British Journal of Mathematical and Statistical Psychology* 61,
    29-48.  Gwet, K. L. (2014). *Handbook of Inter-Rater Reliability*, 4th ed., ch. 5.
    Fleiss, J. L., Nee, J. C. M. & Landis, J. R. (1979). Large sample variance of kappa in
    the case of different sets of raters. *Psychological Bulletin* 86(5), 974-977.

    Examples
    --------
    Krippendorff's (2011) example, four raters with missing ratings; Gwet's irrCAC
    documents AC1 = 0.77544 with standard error 0.14295:

    >>> import kappalib as kl
    >>> data = kl.datasets.load("krippendorff2011_example").data  # 4 raters x 12 units
    >>> table = kl.rating_table(data, layout="raters x units")
    >>> round(kl.ratings_standard_error(table, coefficient="ac1"), 5)
    0.14295
    """
    level, categories = level_of_measurement, labels
    _check_options(coefficient, method, weighting, level, layout, null, n_population, _SE_METHODS)
    zero_division = check_zero_division(zero_division)
    name = COEFFICIENT_NAMES[coefficient]
    if method == "analytic":
        _, _, var = analytic_variance(
            data, coefficient, weighting, scores, categories, layout, n_population, null, level
        )
        se = None if var is None else math.sqrt(max(var, 0.0))
    else:
        n_resamples = check_n_resamples(n_resamples)
        value, m, stat = prepare_bootstrap(
            data, coefficient, weighting, scores, categories, level, layout
        )
        at_least_two_units(int(m.sum()), coefficient)
        se = None
        if not math.isnan(value):
            boot = bootstrap_values(m, stat, n_resamples, rng)
            boot = boot[np.isfinite(boot)]
            se = float(np.std(boot, ddof=1)) if boot.size > 1 else None
    return finish(
        np.nan if se is None else se, se is None, zero_division, _UNDEFINED.format(name=name)
    )


def ratings_confint(
    data: ArrayLike,
    *,
    coefficient: CoefficientName,
    method: Literal["analytic", "percentile", "bca"] = "analytic",
    confidence_level: float = 0.95,
    n_resamples: int = 9999,
    rng: int | np.random.Generator | None = None,
    level_of_measurement: Literal["nominal", "ordinal", "interval", "ratio"] = "nominal",
    weighting: str | ArrayLike | None = None,
    scores: ArrayLike | None = None,
    labels: ArrayLike | None = None,
    layout: Layout | None = None,
    n_population: float | None = None,
    zero_division: str | float | None = None,
) -> ConfidenceInterval[float | None]:
    r"""Confidence interval of a many-rater coefficient: analytic, or the bootstrap over units.

    **Analytic** (Gwet 2014, as irrCAC): with the standard error of
    :func:`ratings_standard_error` and Student's t with ``n - 1`` degrees of freedom,

    .. math:: \hat\theta \pm t_{n-1,\,(1+\gamma)/2}\;\widehat{\mathrm{se}}(\hat\theta),

    its upper end cut at 1, the largest value any of these coefficients takes.

    **Bootstrap over units** (``"percentile"``; ``"bca"``: bias-corrected and
    accelerated).  The units are the sampled objects, so a resample draws ``n`` units with
    replacement, each with all of its ratings, and recomputes the coefficient.  The ``n``
    units take ``U`` distinct rating patterns, so the ``B`` resamples are ``B``
    multinomial draws of ``n`` over those patterns,

    .. math:: m^{*b} \sim \mathrm{Multinomial}(n, \; m / n), \qquad b = 1, \dots, B,

    and the coefficient of every resample comes from one batched computation (its sums
    over units are ``m^{*b}`` times per-pattern terms).  The interval is the percentile or
    BCa interval of :func:`bootstrap_confint`, with BCa's jackknife leaving out one unit of
    each pattern.  For alpha only units with two ratings or more are resampled (the others
    do not enter alpha); for AC1 and BP a unit with a single rating stays (it enters
    :math:`\pi_k`).

    Parameters
    ----------
    data : array-like
        DATA_DOC
    coefficient : {"fleiss", "fleiss_generalized", "alpha", "ac1", "ac2", "bp", "conger", "light"}
        As in :func:`ratings_standard_error`.
    method : {"analytic", "percentile", "bca"}, default "analytic"
        ``"analytic"`` is refused for Krippendorff's alpha at the ordinal level.
    confidence_level : float, default 0.95
        Coverage, strictly between 0 and 1.
    n_resamples : int, default 9999
        Bootstrap only, at least 1.
    rng : None, int or numpy.random.Generator
        Bootstrap only: seed it for a reproducible interval.
    level_of_measurement, weighting, scores, labels, layout, n_population, zero_division :
        As in :func:`ratings_standard_error`.

    Returns
    -------
    ci : ConfidenceInterval
        ``ci.low``, ``ci.high``; both None when the coefficient is undefined (0/0) and
        ``zero_division`` is None.

    Raises
    ------
    ValueError, TypeError
        As :func:`ratings_standard_error`, and ``confidence_level`` outside (0, 1).
    UndefinedMetricError
        If the coefficient is undefined and ``zero_division="raise"``.

    Notes
    -----
    The analytic interval is large-sample: with few units, or a rare category, it is too
    narrow (chapter 13 measures its coverage).  A zero-width interval (every resample, or
    every unit's share, the same: perfect agreement, say) says that these units show no
    variation, not that there is no uncertainty.  Resamples on which the coefficient is
    undefined are left out, as in :func:`bootstrap_confint`.

    *Against irrCAC* (Gwet's package), the analytic numbers are the same (tested on 500
    random rating sets per coefficient), with four differences by design: a standard error
    of 0 stays 0 here (irrCAC puts 1e-15 in its place); irrCAC's ``fleiss`` is
    ``"fleiss_generalized"`` here, ``"fleiss"`` being Fleiss' own coefficient for units with
    equal numbers of ratings; irrCAC has no analytic interval for Light's kappa (irr's
    ``kappam.light`` has a test, see :func:`light_kappa_test`); and any
    ``confidence_level`` in (0, 1) is accepted (irrCAC: 0.90 to 0.99).

    Hayes and Krippendorff's (2007) KALPHA bootstraps alpha differently: it draws pairs of
    values from the coincidence matrix and keeps the data's expected disagreement fixed.
    The bootstrap here resamples units, keeping the ratings of a unit together, and
    recomputes both disagreements; Zapf et al. (2016) compare such intervals by simulation.

    References
    ----------
    Gwet, K. L. (2014). *Handbook of Inter-Rater Reliability*, 4th ed., ch. 5.
    Efron, B. & Tibshirani, R. J. (1993). *An Introduction to the Bootstrap*.
    Hayes, A. F. & Krippendorff, K. (2007). Answering the call for a standard reliability
    measure for coding data. *Communication Methods and Measures* 1(1), 77-89.
    Zapf, A., Castell, S., Morawietz, L. & Karch, A. (2016). Measuring inter-rater
    reliability for nominal data: which coefficients and confidence intervals are
    appropriate? *BMC Medical Research Methodology* 16, 93.

    Examples
    --------
    Krippendorff's (2011) example: irrCAC documents AC1's interval (0.46081, 1):

    >>> import kappalib as kl
    >>> data = kl.datasets.load("krippendorff2011_example").data  # 4 raters x 12 units
    >>> table = kl.rating_table(data, layout="raters x units")
    >>> ci = kl.ratings_confint(table, coefficient="ac1")
    >>> round(ci.low, 5), round(ci.high, 5)
    (0.46081, 1.0)

    Alpha has no analytic interval; the bootstrap over its 11 pairable units (seeded):

    >>> ci = kl.ratings_confint(
    ...     data, coefficient="alpha", method="percentile", rng=0, layout="raters x units"
    ... )
    >>> round(ci.low, 2), round(ci.high, 2)
    (0.41, 1.0)
    """
    level, categories = level_of_measurement, labels
    _check_options(coefficient, method, weighting, level, layout, False, n_population, _CI_METHODS)
    confidence = check_confidence(confidence_level)
    zero_division = check_zero_division(zero_division)
    name = COEFFICIENT_NAMES[coefficient]
    message = f"{name} is undefined (0/0) on these data, and so is its interval"
    if method == "analytic":
        value, n, var = analytic_variance(
            data, coefficient, weighting, scores, categories, layout, n_population, False, level
        )
        if var is None:
            interval = None
        else:
            half = t_ppf((1.0 + confidence) / 2.0, n - 1.0) * math.sqrt(max(var, 0.0))
            interval = (value - half, min(value + half, 1.0))
    else:
        n_resamples = check_n_resamples(n_resamples)
        value, m, stat = prepare_bootstrap(
            data, coefficient, weighting, scores, categories, level, layout
        )
        at_least_two_units(int(m.sum()), coefficient)
        interval = None
        if not math.isnan(value):
            boot = bootstrap_values(m, stat, n_resamples, rng)
            interval = bootstrap_interval(
                value, boot, confidence, method, lambda: jackknife(m, stat)
            )
    if interval is None:
        return finish_interval(np.nan, np.nan, True, zero_division, message)
    return ConfidenceInterval(float(interval[0]), float(interval[1]))


for _f in (ratings_standard_error, ratings_confint):
    _f.__doc__ = (_f.__doc__ or "").replace("DATA_DOC", _DATA_DOC)
