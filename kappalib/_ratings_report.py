"""The report for a ratings table (any number of raters, missing ratings): every coefficient
that applies, each with its standard error and interval (:func:`ratings_report`). The
two-rater report and the caveats' rules are in ``_report``."""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
from numpy.typing import ArrayLike

from ._designs import (
    conger_kappa,
    fleiss_kappa_generalized,
    light_kappa,
)
from ._inference import z_test
from ._multirater import (
    brennan_prediger_multi,
    fleiss_kappa,
    gwet_ac1_multi,
    krippendorff_alpha,
    rating_table,
)
from ._rating_inference import ratings_confint, ratings_standard_error
from ._ratings import Layout, prepare, table_and_categories
from ._report_text import FEW_UNITS, _join, _label, stored_weighting, weight_name
from ._validation import _short, check_confidence
from .results import Estimate, RatingsReport, RatingTable

__all__ = ["ratings_report"]

# --- many raters -----------------------------------------------------------------------------


def _ratings_caveats(table, categories, n_units, n_missing, n_cells):
    out = []
    totals = table.sum(axis=0)
    K = len(categories)
    share = totals / totals.sum()
    rare = [k for k in range(K) if totals[k] > 0 and share[k] < 1.0 / (2 * K)]
    if rare:
        which = _join([f"{_label(categories[k])} ({share[k]:.3f})" for k in rare])
        out.append(
            f"Prevalence: {which} {'is' if len(rare) == 1 else 'are'} rare among the ratings "
            f"(below 1/(2K) = {1.0 / (2 * K):.3f}); kappa-type coefficients then depend "
            "strongly on the prevalence, and Gwet's AC1 and Brennan-Prediger less so."
        )
    unused = [_label(categories[k]) for k in range(K) if totals[k] == 0]
    if unused:
        out.append(
            f"Unused categories: no rater used {_join(unused)}; Gwet's AC1 and "
            "Brennan-Prediger count every category offered, the kappas and alpha do not."
        )
    if n_units < FEW_UNITS:
        out.append(
            f"Few units: with {n_units} units (below {FEW_UNITS}) the intervals are "
            "approximate and can be too narrow."
        )
    if n_missing:
        out.append(
            f"Missing ratings: {n_missing} of {n_cells} ratings are missing; the coefficients "
            "use every unit with two ratings or more (Light's kappa: the units each pair of "
            "raters shares)."
        )
    return tuple(out)


def ratings_report(
    ratings: ArrayLike | None = None,
    *,
    table: ArrayLike | None = None,
    layout: Layout | None = None,
    level_of_measurement: Literal["nominal", "ordinal", "interval", "ratio"] = "nominal",
    labels: ArrayLike | None = None,
    weighting: str | ArrayLike | None = None,
    confidence_level: float = 0.95,
    n_resamples: int = 9999,
    rng: int | np.random.Generator | None = None,
) -> RatingsReport:
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
    n_resamples : int, default 9999
        Resamples of the bootstrap intervals (alpha, Light).
    rng : None, int or numpy.random.Generator
        The bootstrap's seed: give one for a report that is the same on every run.

    Returns
    -------
    RatingsReport

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
    >>> report = kl.ratings_report(datasets.load("krippendorff2011_example").data)
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
            f"(table=), exactly one of them; got ratings={_short(ratings, 30)}, "
            f"table={_short(table, 30)}"
        )
    boot = (n_resamples, rng)
    if table is not None:
        return _table_report(table, level, labels, weighting, conf, boot)
    return _ratings_report(ratings, layout, level, labels, weighting, conf, boot)


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
            f"{_short(domain.tolist(), 60)}"
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
    data: Any, layout: Any, level: Any, categories: Any, weighting: Any, conf: float, boot: Any
) -> RatingsReport:
    arr, missing, _, _, _ = prepare(data, layout, categories, "ratings")
    hole = np.isnan(arr) if missing is None else missing
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
) -> RatingsReport:
    n_units = int(table.shape[0])
    totals = table.sum(axis=0)
    used = int(np.count_nonzero(totals))
    if used < 2:
        only = [_label(c) for c, t in zip(cats, totals, strict=True) if t]
        raise ValueError(
            f"{'ratings' if kind == 'ratings' else 'table'} must use at least two categories "
            f"for any agreement coefficient, got every rating in {_join(only)}"
        )
    n_resamples, seed = boot
    alayout: Any = "raters x units" if kind == "table" else layout
    coefs = []

    def add(name, coefficient, value, source, **kw):
        """One coefficient with its standard error and interval from kl.ratings_*."""
        analytic = coefficient not in ("alpha", "light")
        opts = dict(kw, coefficient=coefficient)
        se_opts, ci_opts = dict(opts), dict(opts)
        if analytic:
            method = (
                "Gwet's linearization standard error, Student's t with n - 1 degrees of freedom"
            )
        else:
            boot_opts = {"n_resamples": n_resamples, "rng": seed}
            se_opts.update(boot_opts, method="bootstrap")
            ci_opts.update(boot_opts, method="percentile")
            method = f"percentile bootstrap over the units, {n_resamples} resamples"
        se = ratings_standard_error(source, **se_opts)
        ci = ratings_confint(source, confidence_level=conf, **ci_opts)
        se0 = None
        if coefficient == "fleiss":
            se0 = ratings_standard_error(source, coefficient="fleiss", null=True)
        interval = ci
        z, p = z_test(value, se0)
        coefs.append(Estimate(name, value, se, interval, method, "", se0, z, p))

    per_unit = table.sum(axis=1)
    rated = per_unit[per_unit > 0]
    equal = bool(rated.size) and bool(np.all(rated == rated[0])) and rated.size == n_units
    if weighting is None and equal and rated[0] >= 2:
        add("Fleiss' kappa", "fleiss", fleiss_kappa(table), table)
    else:
        value = fleiss_kappa_generalized(table, weighting=weighting)
        wtext = "" if weighting is None else f", {weight_name(weighting)}"
        add(
            f"Fleiss' kappa (Gwet's generalized{wtext})",
            "fleiss_generalized",
            value,
            table,
            weighting=weighting,
        )
    alpha = krippendorff_alpha(data, level_of_measurement=level, labels=categories, layout=alayout)
    add(
        f"Krippendorff's alpha ({level})",
        "alpha",
        alpha,
        data,
        level_of_measurement=level,
        labels=categories,
        layout=alayout,
    )
    wname = weight_name(weighting)
    ac = "Gwet's AC1" if weighting is None else f"Gwet's AC2 ({wname})"
    value = gwet_ac1_multi(table, weighting=weighting)
    add(ac, "ac1" if weighting is None else "ac2", value, table, weighting=weighting)
    bp = "Brennan-Prediger coefficient" + (f" ({wname})" if weighting is not None else "")
    value = brennan_prediger_multi(table, weighting=weighting)
    add(bp, "bp", value, table, weighting=weighting)
    notes = []
    if kind == "ratings":
        # the raters are fixed (the columns of the data): Conger's and Light's kappa
        value = conger_kappa(data, layout=layout, labels=categories, weighting=weighting)
        name = "Conger's kappa" + (f" ({wname})" if weighting is not None else "")
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
            add("Light's kappa", "light", value, data, layout=layout, labels=categories)
    else:
        notes.append(
            "Conger's and Light's kappa: not given, a count table does not say which rater "
            "gave which rating"
        )
    if not equal:
        notes.append(
            "Fleiss' kappa: Gwet's generalized form, the units have different numbers of ratings"
        )
    n_ratings = round(float(totals.sum()))
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
        caveats=_ratings_caveats(table, cats, n_units, n_missing, n_cells),
        notes=tuple(notes),
        ratings_per_unit=(int(per_unit.min()), int(per_unit.max())),
    )
