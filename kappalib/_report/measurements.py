"""The report on measurements: raters (or methods) who measure on an interval or ratio scale
(:func:`measurements_report`, reached from :func:`kappalib.ratings_report` with
``level_of_measurement="interval"`` or ``"ratio"`` and from the command line).

What such data need, each from its kappalib function: the intraclass correlations
(:func:`kappalib.icc`), Lin's concordance correlation for two raters (:func:`kappalib.lins_ccc`)
or the overall one for more (:func:`kappalib.overall_ccc`), Bland and Altman's limits of
agreement for two (:func:`kappalib.bland_altman`), Krippendorff's alpha at the level with
Gwet's analytic standard error, and alpha benchmarked with its uncertainty
(:func:`kappalib.benchmark`).  Never a nominal coefficient (Fleiss' kappa, AC1, Conger's
kappa): a decimal is a measurement, and 136 distinct ones are not 136 categories.  The
words are the "measurements" section of ``_shared/report_words.json``.
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
from numpy.typing import ArrayLike

from .._coefficients.continuous import icc, lins_ccc, overall_ccc
from .._coefficients.krippendorff import krippendorff_alpha
from .._coefficients.limits_of_agreement import bland_altman
from .._input.options import check_confidence
from .._input.ratings import Layout, as_ratings, orient
from .._shared.messages import short
from .._shared.words import number_text, p_text, say, template
from .._uncertainty.benchmark import benchmark
from .._uncertainty.ratings_intervals import ratings_confint, ratings_standard_error
from ..results import (
    BlandAltmanResult,
    CCCResult,
    ConfidenceInterval,
    Estimate,
    ICCResult,
    MeasurementsReport,
    OverallCCCResult,
)

__all__ = ["measurements_report"]

LEVELS = ("interval", "ratio")


def _numbers(data: Any, layout: Any, level: str, names: list[str] | None) -> np.ndarray:
    """The ratings as a raters x units float array (NaN missing), or one sentence naming the
    first cell that is not a number."""
    oriented, _, _ = orient(data, layout, "ratings")
    arr, missing, _ = as_ratings(oriented, "ratings")
    if arr.dtype.kind in "biuf" or arr.dtype == bool:
        out = np.asarray(arr, dtype=np.float64)
        if missing is not None:
            out = np.where(missing, np.nan, out)
        return out
    hole = np.zeros(arr.shape, dtype=bool) if missing is None else missing
    for (j, u), v in np.ndenumerate(arr):
        if hole[j, u] or v is None:
            continue
        try:
            float(v)
        except (TypeError, ValueError):
            who = names[j] if names else f"rater {j + 1}"
            raise TypeError(
                f"ratings must be numbers at level_of_measurement={level!r}, got {v!r} "
                f"({who}, unit {u + 1}); correct the cell, mark it missing, or give "
                "level_of_measurement='nominal' or 'ordinal' if the ratings are categories"
            ) from None
    cells = [
        [np.nan if hole[j, u] or v is None else float(v) for u, v in enumerate(row)]
        for j, row in enumerate(arr.tolist())
    ]
    return np.asarray(cells, dtype=np.float64)


def _rater_names(data: Any, layout: Any, k: int, raters: Any) -> tuple[str, ...]:
    if raters is not None:
        names = tuple(str(r) for r in raters)
        if len(names) != k:
            raise ValueError(
                f"raters must name each of the {k} raters, got {len(names)}: {short(raters)}"
            )
        return names
    if hasattr(data, "columns") and layout != "raters x units":
        return tuple(str(c) for c in data.columns)
    if hasattr(data, "index") and layout == "raters x units":
        return tuple(str(r) for r in data.index)
    return tuple(f"rater {j + 1}" for j in range(k))


def _estimate(name: str, value: Any, se: Any, ci: Any, method: str) -> Estimate:
    return Estimate(name, value, se, ci, method)


def measurements_report(
    ratings: ArrayLike,
    *,
    layout: Layout | None = None,
    level_of_measurement: Literal["interval", "ratio"] = "interval",
    confidence_level: float = 0.95,
    raters: Any = None,
    caveats: tuple[str, ...] = (),
) -> MeasurementsReport:
    """The report on ratings measured on an interval or ratio scale (see the module's
    docstring); ``caveats`` are sentences the caller adds (how strings were read)."""
    conf = check_confidence(confidence_level)
    level = level_of_measurement
    if level not in LEVELS:
        raise ValueError(
            f"level_of_measurement must be 'interval' or 'ratio' for a report on "
            f"measurements, got {level!r}"
        )
    _, _, named = orient(ratings, layout, "ratings")
    Y = _numbers(ratings, layout, level, named)  # raters x units
    k, n = Y.shape
    if k < 2:
        raise ValueError(f"ratings must have at least 2 raters for agreement, got {k}")
    names = _rater_names(ratings, layout, k, raters)
    hole = np.isnan(Y)
    complete = ~hole.any(axis=0)
    Yc = Y[:, complete].T  # complete units x raters
    n_complete = int(complete.sum())
    coefs: list[Estimate] = []
    icc_result: ICCResult | None = None
    concordance: CCCResult | OverallCCCResult | None = None
    limits: BlandAltmanResult | None = None
    notes: list[str] = []
    said: list[str] = []
    if n_complete >= 2:
        icc_result = icc(Yc, layout="units x raters", confidence_level=conf)
        for f in icc_result.forms:
            coefs.append(
                _estimate(
                    say(
                        "measurements.coefficient.icc",
                        mcgraw_wong=f.mcgraw_wong,
                        shrout_fleiss=f.shrout_fleiss,
                        description=f.description,
                    ),
                    f.estimate,
                    None,
                    f.confidence_interval,
                    say("measurements.interval_method.icc"),
                )
            )
        if k == 2:
            lin = lins_ccc(Yc[:, 0], Yc[:, 1], confidence_level=conf)
            concordance = lin
            coefs.append(
                _estimate(
                    say("measurements.coefficient.ccc"),
                    lin.estimate,
                    None,
                    lin.confidence_interval,
                    say("measurements.interval_method.ccc"),
                )
            )
            limits = bland_altman(Yc[:, 0], Yc[:, 1], confidence_level=conf)
            pb = limits.proportional_bias
            if pb.pvalue is not None and pb.pvalue < 1 - conf:
                said.append(
                    say(
                        "measurements.caveat_proportional",
                        slope=number_text(pb.slope.estimate),
                        p=p_text(pb.pvalue),
                    )
                )
        else:
            overall = overall_ccc(Yc, layout="units x raters", confidence_level=conf)
            concordance = overall
            coefs.append(
                _estimate(
                    say("measurements.coefficient.overall_ccc"),
                    overall.estimate,
                    overall.standard_error,
                    overall.confidence_interval,
                    say("measurements.interval_method.overall_ccc"),
                )
            )
        limit = template("measurements.few_complete")
        if n_complete < limit:
            said.append(say("measurements.caveat_few_complete", n_complete=n_complete, limit=limit))
    else:
        notes.append(say("measurements.note_no_complete"))
    alpha_opts: dict[str, Any] = {
        "coefficient": "alpha",
        "level_of_measurement": level,
        "layout": "raters x units",
    }
    alpha = krippendorff_alpha(Y, level_of_measurement=level, layout="raters x units")
    se = ratings_standard_error(Y, method="analytic", **alpha_opts)
    ci: ConfidenceInterval[float | None] = ratings_confint(
        Y, method="analytic", confidence_level=conf, **alpha_opts
    )
    alpha_name = say("measurements.coefficient.alpha", level_of_measurement=level)
    coefs.append(_estimate(alpha_name, alpha, se, ci, say("measurements.interval_method.alpha")))
    bench = (
        benchmark(alpha, se, scale="landis_koch", confidence_level=conf, coefficient=alpha_name)
        if alpha is not None and se is not None and alpha <= 1
        else None
    )
    return MeasurementsReport(
        coefficients=tuple(coefs),
        icc=icc_result,
        concordance=concordance,
        limits_of_agreement=limits,
        benchmark=bench,
        raters=names,
        n_units=n,
        n_complete=n_complete,
        n_raters=k,
        n_missing=int(hole.sum()),
        level_of_measurement=level,
        confidence_level=conf,
        caveats=(*said, *caveats),
        notes=tuple(notes),
    )
