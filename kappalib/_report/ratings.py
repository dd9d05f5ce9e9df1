"""The report for a ratings table (any number of raters, missing ratings): every coefficient
that applies, each with its standard error and interval (:func:`ratings_report`). The
two-rater report and the caveats' rules are in ``two_raters``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, cast, overload

import numpy as np
from numpy.typing import ArrayLike

from .._coefficients.arithmetic import checked_agreement_weights
from .._coefficients.count_tables import (
    brennan_prediger_multi,
    fleiss_kappa,
    fleiss_kappa_generalized,
    gwet_ac1_multi,
)
from .._coefficients.fixed_raters import conger_kappa, light_kappa
from .._coefficients.krippendorff import krippendorff_alpha
from .._count.ratings import rating_table
from .._input.options import check_confidence
from .._input.ratings import Layout, prepare
from .._input.tables import table_and_categories
from .._shared.messages import short
from .._shared.words import (
    DIGITS,
    FEW_UNITS,
    join_words,
    label_text,
    number_text,
    plural,
    say,
    stored_weighting,
    weight_name,
)
from .._uncertainty.kappa_inference import z_test
from .._uncertainty.ratings_intervals import ratings_confint, ratings_standard_error
from ..results import ConfidenceInterval, Estimate, MeasurementsReport, RatingsReport, RatingTable
from .reading import read_strings
from .two_raters import few_resamples

__all__ = ["ratings_report"]


_CHANCE_FROM_SINGLE = ("fleiss_generalized", "ac1", "ac2", "conger")
"""The coefficients whose chance agreement takes a unit with a single rating (through the
category shares, or Conger's raters' margins); their observed agreement, Brennan-Prediger
(whose chance term is fixed), Krippendorff's alpha and Light's kappa do not."""


def lower_bound(coefficient, table, weighting, n_missing):
    """The smallest value the coefficient can take on this design, or None (see
    ``Estimate.lower_bound``).  Each is a bound of (p_o - p_e) / (1 - p_e) with p_o >= 0:
    AC1/AC2 and BP have p_e <= sum(w) / K^2 (AC's sum of pi_k (1 - pi_k) is at most
    (K - 1) / K), Fleiss' kappa with m ratings per unit -1/(m - 1) (Fleiss 1971), and
    Conger's kappa, a ratio of sums over the pairs of raters of Cohen's numerator and
    denominator, Cohen's -1 when every rater rated every unit."""
    if coefficient == "fleiss":
        m = float(table.sum(axis=1)[0])
        return -1.0 / (m - 1.0)
    if coefficient in ("ac1", "ac2", "bp"):
        K = table.shape[1]
        p = float(checked_agreement_weights(weighting, K, None, "ratings_report").sum()) / K**2
        return -p / (1.0 - p)
    if coefficient == "conger" and n_missing == 0:
        if weighting is None or isinstance(weighting, str):
            return -1.0
    return None


def _ratings_caveats(table, categories, n_units, n_missing, n_cells):
    out = []
    totals = table.sum(axis=0)
    K = len(categories)
    share = totals / totals.sum()
    digits = DIGITS["share"]
    rare = [k for k in range(K) if totals[k] > 0 and share[k] < 1.0 / (2 * K)]
    if rare:
        which = [
            say("ratings.rare_share", label=label_text(categories[k]), share=number_text(s, digits))
            for k, s in zip(rare, share[rare].tolist(), strict=True)
        ]
        out.append(
            say(
                "ratings.caveat_prevalence",
                which=join_words(which),
                limit=number_text(1.0 / (2 * K), digits),
                **{"is": plural("is", len(rare))},
            )
        )
    unused = [label_text(categories[k]) for k in range(K) if totals[k] == 0]
    if unused:
        out.append(say("ratings.caveat_unused", labels=join_words(unused)))
    if n_units < FEW_UNITS:
        out.append(say("ratings.caveat_few_units", n_units=n_units, limit=FEW_UNITS))
    if n_missing:
        out.append(
            say(
                "ratings.caveat_missing",
                n_missing=n_missing,
                n_cells=n_cells,
                are=plural("is", n_missing),
            )
        )
    return tuple(out)


def _single_caveat(table, coefs):
    """The sentence for units with a single rating, naming the coefficients they enter."""
    n_single = int(np.count_nonzero(table.sum(axis=1) == 1))
    names = [name for name, key in coefs if key in _CHANCE_FROM_SINGLE]
    if not n_single or not names:
        return ()
    return (
        say(
            "ratings.caveat_single",
            n_single=n_single,
            unit=plural("unit", n_single),
            has=plural("has", n_single),
            coefficients=join_words(names),
        ),
    )


# The return type follows the level: measurements (interval, ratio) get their own report.
@overload
def ratings_report(
    ratings: ArrayLike | None = None,
    *,
    table: ArrayLike | None = None,
    layout: Layout | None = None,
    level_of_measurement: Literal["nominal", "ordinal"] = ...,
    labels: ArrayLike | None = None,
    weighting: str | ArrayLike | None = None,
    confidence_level: float = 0.95,
    na_values: Sequence[str] | None = None,
    n_resamples: int = 9999,
    rng: int | np.random.Generator | None = None,
) -> RatingsReport: ...


@overload
def ratings_report(
    ratings: ArrayLike | None = None,
    *,
    table: ArrayLike | None = None,
    layout: Layout | None = None,
    level_of_measurement: Literal["interval", "ratio"],
    labels: ArrayLike | None = None,
    weighting: str | ArrayLike | None = None,
    confidence_level: float = 0.95,
    na_values: Sequence[str] | None = None,
    n_resamples: int = 9999,
    rng: int | np.random.Generator | None = None,
) -> MeasurementsReport: ...


@overload
def ratings_report(
    ratings: ArrayLike | None = None,
    *,
    table: ArrayLike | None = None,
    layout: Layout | None = None,
    level_of_measurement: str,
    labels: ArrayLike | None = None,
    weighting: str | ArrayLike | None = None,
    confidence_level: float = 0.95,
    na_values: Sequence[str] | None = None,
    n_resamples: int = 9999,
    rng: int | np.random.Generator | None = None,
) -> RatingsReport | MeasurementsReport: ...


def ratings_report(
    ratings: ArrayLike | None = None,
    *,
    table: ArrayLike | None = None,
    layout: Layout | None = None,
    level_of_measurement: str = "nominal",
    labels: ArrayLike | None = None,
    weighting: str | ArrayLike | None = None,
    confidence_level: float = 0.95,
    na_values: Sequence[str] | None = None,
    n_resamples: int = 9999,
    rng: int | np.random.Generator | None = None,
) -> RatingsReport | MeasurementsReport:
    r"""Every coefficient that applies to a ratings table, in one call, with a paragraph.

    Fleiss' kappa (Gwet's generalized form when the units have different numbers of
    ratings, or with ``weighting``), Krippendorff's alpha at ``level``, Gwet's AC1 (AC2 with
    ``weighting``), Brennan-Prediger and, for raw ratings whose columns are fixed raters,
    Conger's and Light's kappa; each computed by its kappalib function from the same data,
    with its standard error and interval from :func:`ratings_standard_error` and
    :func:`ratings_confint`: Gwet's linearization and Student's t where it exists, else
    (alpha, Light) the percentile bootstrap over the units.  Fleiss' kappa also gets the
    test against 0 with the standard error under the null (Fleiss, Nee & Landis 1979).

    Parameters
    ----------
    ratings : array-like of shape (raters, units) or (units, raters)
        Raw ratings, as for :func:`krippendorff_alpha`; NaN, None or pandas' NA is a missing
        rating.  A DataFrame is read units x raters.  Give this or ``table``.
    table : array-like of shape (units, K), optional
        Instead of ``ratings``: the units x categories counts (as :func:`fleiss_kappa` takes
        them), for designs where different raters rate different units (Fleiss 1971).
        Coefficients that need to know which rater gave which rating are then left out.
    layout : {None, "raters x units", "units x raters"}
        As in :func:`rating_table`.
    level_of_measurement : {"nominal", "ordinal", "interval", "ratio"}, default "nominal"
        For Krippendorff's alpha.
    labels : array-like of shape (K,), optional
        The categories offered and their order (required for ordinal strings); a category
        nobody used is kept, which AC1 and Brennan-Prediger need.  With ``table``, the
        names of its columns.
    weighting : {None, "linear", "quadratic"} or array-like of shape (K, K)
        For AC2 and weighted Brennan-Prediger (Fleiss' kappa is nominal).
    confidence_level : float, default 0.95
    na_values : sequence of str, optional
        The strings that mean a missing rating (raw ratings), as in
        :func:`agreement_report`: by default ``NA``, ``N/A``, ``NaN``, ``null``, ``#N/A``,
        ``<NA>``, ``.`` and ``-`` in any case, and a blank always; a string that ``labels``
        lists is a category.  The paragraph names the spellings read as missing; case
        variants are refused, or read as the listed category when ``labels`` is given.
    n_resamples : int, default 9999
        Resamples of the bootstrap intervals (alpha, Light).
    rng : None, int or numpy.random.Generator
        The bootstrap's seed: give one for a report that is the same on every run.

    Returns
    -------
    RatingsReport, or MeasurementsReport at the interval and ratio levels
        The latter (ICC, the concordance correlation, Bland-Altman's limits for two raters,
        Krippendorff's alpha) when ``level_of_measurement`` is "interval" or "ratio" and the
        ratings are raw measurements; a count ``table`` keeps the coefficients above.

    Raises
    ------
    ValueError, TypeError
        On bad ratings (as :func:`rating_table` and :func:`krippendorff_alpha`), and when
        every rating is the same category (no coefficient is defined).

    References
    ----------
    Kottner, J. et al. (2011). Guidelines for Reporting Reliability and Agreement Studies
    (GRRAS) were proposed. *Journal of Clinical Epidemiology* 64(1), 96-106.

    Examples
    --------
    Krippendorff's (2011) four observers on twelve units, some ratings missing:

    >>> import kappalib as kl
    >>> from kappalib import datasets
    >>> data = datasets.load("krippendorff2011_example").data
    >>> report = kl.ratings_report(data, layout="raters x units")
    >>> round(report["Krippendorff's alpha"].estimate, 3), report.n_missing
    (0.743, 7)
    """
    conf = check_confidence(confidence_level)
    level = level_of_measurement
    if not isinstance(level, str) or level not in ("nominal", "ordinal", "interval", "ratio"):
        raise ValueError(
            "level_of_measurement must be 'nominal', 'ordinal', 'interval' or 'ratio', got "
            f"{level!r}"
        )
    if (ratings is None) == (table is None):
        raise TypeError(
            "ratings_report takes raw ratings or a units x categories count table "
            f"(table=), exactly one of them; got ratings={short(ratings, 30)}, "
            f"table={short(table, 30)}"
        )
    boot = (n_resamples, rng)
    if table is not None:
        return _table_report(table, level, labels, weighting, conf, boot)
    (ratings,), reading = read_strings([ratings], labels, na_values, "ratings")
    if level in ("interval", "ratio"):  # measurements: ICC, CCC, Bland-Altman, alpha (m34)
        from .measurements import measurements_report

        return measurements_report(
            ratings,
            layout=layout,
            level_of_measurement=cast(Literal["interval", "ratio"], level),
            confidence_level=conf,
            caveats=reading.caveats(),
        )
    return _ratings_report(ratings, layout, level, labels, weighting, conf, boot, reading.caveats())


def _table_report(
    table: Any, level: Any, categories: Any, weighting: Any, conf: float, boot: Any
) -> RatingsReport:
    T, domain, source = table_and_categories(table, categories, "ratings_report")
    K = T.shape[1]
    if domain is None:
        domain = np.arange(K)
    numeric = domain.dtype.kind in "biuf"
    if level in ("interval", "ratio") and not numeric:
        raise TypeError(
            f"level_of_measurement={level!r} needs numeric categories, got "
            f"{short(domain.tolist(), 60)}"
        )
    m = T.sum(axis=1).astype(np.int64)
    # the ratings of each unit, in any order (these coefficients do not ask who rated what):
    # one row per unit, NaN where a unit has fewer ratings than the most-rated one
    values = domain.astype(np.float64) if numeric else np.arange(K, dtype=np.float64)
    ratings = np.full((T.shape[0], int(m.max()) if m.size else 0), np.nan)
    for u in range(T.shape[0]):
        row = np.repeat(values, T[u].astype(np.int64))
        ratings[u, : row.size] = row
    cats = tuple(v.item() if isinstance(v, np.generic) else v for v in domain.tolist())
    labelled = RatingTable(T, cats, ordered=source != "spelling")
    return _assemble(
        labelled, cats, ratings.T, values, None, level, weighting, conf, "table", boot=boot
    )


def _ratings_report(
    data: Any,
    layout: Any,
    level: Any,
    categories: Any,
    weighting: Any,
    conf: float,
    boot: Any,
    said: tuple[str, ...] = (),
) -> RatingsReport:
    arr, missing, _, _, _ = prepare(data, layout, categories, "ratings")
    hole = np.isnan(arr) if missing is None else missing
    # the units' distinct rating patterns (a missing rating is part of a pattern)
    keys = np.where(hole, "\x00", arr.astype(str))
    n_patterns = int(np.unique(keys.T, axis=0).shape[0]) if keys.size else 0
    table = rating_table(data, labels=categories, layout=layout)
    cats = table.labels or ()
    return _assemble(
        table,
        cats,
        data,
        categories,
        layout,
        level,
        weighting,
        conf,
        "ratings",
        boot=boot,
        n_raters=arr.shape[0],
        n_missing=int(hole.sum()),
        n_cells=int(arr.size),
        said=said,
        n_patterns=n_patterns,
    )


def _assemble(
    table: Any,
    cats: tuple[Any, ...],
    data: Any,
    categories: Any,
    layout: Any,
    level: Any,
    weighting: Any,
    conf: float,
    kind: str,
    *,
    boot: Any = (9999, None),
    n_raters: int | None = None,
    n_missing: int = 0,
    n_cells: int | None = None,
    said: tuple[str, ...] = (),
    n_patterns: int | None = None,
) -> RatingsReport:
    n_units = int(table.shape[0])
    totals = table.sum(axis=0)
    used = int(np.count_nonzero(totals))
    if used < 2:
        only = [label_text(c) for c, t in zip(cats, totals, strict=True) if t]
        raise ValueError(
            f"{'ratings' if kind == 'ratings' else 'table'} must use at least two categories "
            f"for any agreement coefficient, got every rating in {join_words(only)}"
        )
    n_resamples, seed = boot
    alayout: Any = "raters x units" if kind == "table" else layout
    coefs = []
    keys: list[tuple[str, str]] = []

    def add(name, coefficient, value, source, **kw):
        """One coefficient with its standard error and interval from kl.ratings_*."""
        analytic = coefficient not in ("alpha", "light")
        opts = dict(kw, coefficient=coefficient)
        se_opts, ci_opts = dict(opts), dict(opts)
        if analytic:
            method = say("interval_methods.ratings_analytic")
        else:
            boot_opts = {"n_resamples": n_resamples, "rng": seed}
            se_opts.update(boot_opts, method="bootstrap")
            ci_opts.update(boot_opts, method="percentile")
            method = say("interval_methods.percentile", n_resamples=n_resamples)
        se = ratings_standard_error(source, **se_opts)
        ci = ratings_confint(source, confidence_level=conf, **ci_opts)
        se0 = None
        if coefficient == "fleiss":
            se0 = ratings_standard_error(source, coefficient="fleiss", null=True)
        low, high = ci
        bound = (
            lower_bound(coefficient, table, kw.get("weighting"), n_missing) if analytic else None
        )
        clipped = (False, False)
        if analytic and low is not None and high is not None and se:
            # ratings_confint cuts the upper end at 1; the lower end is cut here, at the range
            clipped = (bound is not None and low < bound, high >= 1.0)
            low = max(low, bound) if bound is not None else low
        interval = ConfidenceInterval(low, high)
        z, p = z_test(value, se0)
        coefs.append(Estimate(name, value, se, interval, method, "", se0, z, p, bound, clipped))
        keys.append((name, coefficient))

    wname = weight_name(weighting)
    per_unit = table.sum(axis=1)
    rated = per_unit[per_unit > 0]
    equal = bool(rated.size) and bool(np.all(rated == rated[0])) and rated.size == n_units
    if weighting is None and equal and rated[0] >= 2:
        add(say("ratings.coefficient.fleiss"), "fleiss", fleiss_kappa(table), table)
    else:
        value = fleiss_kappa_generalized(table, weighting=weighting)
        name = (
            say("ratings.coefficient.fleiss_generalized")
            if weighting is None
            else say("ratings.coefficient.fleiss_generalized_weighted", weights=wname)
        )
        add(
            name,
            "fleiss_generalized",
            value,
            table,
            weighting=weighting,
        )
    alpha = krippendorff_alpha(data, level_of_measurement=level, labels=categories, layout=alayout)
    add(
        say("ratings.coefficient.alpha", level_of_measurement=level),
        "alpha",
        alpha,
        data,
        level_of_measurement=level,
        labels=categories,
        layout=alayout,
    )
    ac = (
        say("ratings.coefficient.ac1")
        if weighting is None
        else say("ratings.coefficient.ac2", weights=wname)
    )
    value = gwet_ac1_multi(table, weighting=weighting)
    add(ac, "ac1" if weighting is None else "ac2", value, table, weighting=weighting)
    bp = (
        say("ratings.coefficient.bp")
        if weighting is None
        else say("ratings.coefficient.bp_weighted", weights=wname)
    )
    value = brennan_prediger_multi(table, weighting=weighting)
    add(bp, "bp", value, table, weighting=weighting)
    notes = []
    if kind == "ratings":
        # the raters are fixed (the columns of the data): Conger's and Light's kappa
        value = conger_kappa(data, layout=layout, labels=categories, weighting=weighting)
        name = (
            say("ratings.coefficient.conger")
            if weighting is None
            else say("ratings.coefficient.conger_weighted", weights=wname)
        )
        add(
            name,
            "conger",
            value,
            data,
            layout=layout,
            labels=categories,
            weighting=weighting,
        )
        if weighting is None:
            value = light_kappa(data, layout=layout, labels=categories)
            light = say("ratings.coefficient.light")
            add(light, "light", value, data, layout=layout, labels=categories)
    else:
        notes.append(say("ratings.note_no_raters"))
    if not equal:
        notes.append(say("ratings.note_unequal"))
    n_ratings = round(float(totals.sum()))
    caveats = _ratings_caveats(table, cats, n_units, n_missing, n_cells)
    caveats += _single_caveat(np.asarray(table), keys)
    if n_patterns is None:  # a count table: a unit's pattern is its row of counts
        n_patterns = int(np.unique(np.asarray(table), axis=0).shape[0])
    booted = [name for name, key in keys if key in ("alpha", "light")]
    coarse = few_resamples(n_units, n_patterns, f"bootstrap interval of {join_words(booted)}")
    if coarse is not None:
        caveats += (coarse,)
    primary, reason = _primary(coefs, level, weighting, wname, n_missing, equal)
    return RatingsReport(
        coefficients=tuple(coefs),
        table=table,
        labels=cats,
        n_units=n_units,
        n_raters=n_raters,
        n_ratings=n_ratings,
        n_missing=n_missing,
        level_of_measurement=level,
        weighting=stored_weighting(weighting),
        confidence_level=conf,
        caveats=caveats + said,
        notes=tuple(notes),
        ratings_per_unit=(int(per_unit.min()), int(per_unit.max())),
        primary=primary,
        primary_reason=reason,
    )


def _primary(coefs, level, weighting, wname, n_missing, equal):
    """The primary coefficient and why: Krippendorff's alpha for a level other than
    nominal (it alone uses the level), for incomplete ratings (Zapf et al. 2016) or units
    with different numbers of ratings; else the first coefficient, Fleiss' kappa (Gwet's
    weighted form when weights are given)."""
    alpha = next(c.coefficient for c in coefs if c.coefficient.startswith("Krippendorff"))
    if level != "nominal":
        return alpha, say("ratings.primary_alpha_level", level_of_measurement=level)
    if weighting is not None:
        return coefs[0].coefficient, say("ratings.primary_weighted", weights=wname)
    if n_missing:
        return alpha, say("ratings.primary_alpha_missing")
    if not equal:
        return alpha, say("ratings.primary_alpha_unequal")
    return coefs[0].coefficient, say("ratings.primary_fleiss")
