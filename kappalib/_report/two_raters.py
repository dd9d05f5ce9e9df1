r"""A report in one call: every number a reviewer asks for, and a paragraph for the methods.

:func:`agreement_report` takes two raters' labels or their confusion matrix ``C`` (rows =
rater 1, columns = rater 2); :func:`ratings_report` a ratings table (any number of raters,
missing ratings allowed).  Each returns a report object whose attributes are plain numbers,
which shows as a table in a notebook (``_repr_html_``), as Markdown text (``str``,
``to_markdown``), and which writes a paragraph for a methods section
(``methods_paragraph``) following the GRRAS guideline (Kottner et al. 2011): the numbers,
the interval and how it was computed, the table or where to find it, and the caveats that
apply to these data.

Every statistic comes from the kappalib function that computes it (``kappa``,
``kappa_standard_error``, ``kappa_confint``, ``pabak``, ``kappa_max``, ...); this module
only calls them, and derives nothing but the test statistic ``z = kappa / se_0`` with its
two-sided normal p-value, and the category shares that decide which caveats apply.

The caveats and their rules (the same in the browser calculator, which writes the same
paragraph):

* prevalence: a category that was used has a pooled share ``(r_k + c_k) / 2N`` below half
  its share under a uniform spread, ``1 / (2K)`` (for two categories: below 0.25);
* bias: the two raters' shares of some category differ by ``|r_k - c_k| / N >= 0.10``;
* unused categories: a category of ``labels`` that neither rater used;
* few units: ``N < 50`` (the large-sample interval is then too optimistic);
* left out: units that lacked one of the two ratings (``missing="drop"``).

No verbal band ("substantial", "moderate") is ever printed: the number and its interval
are the result.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Literal

import numpy as np
from numpy.typing import ArrayLike

from .._coefficients.arithmetic import agreement_weights
from .._coefficients.chance_models import pabak
from .._coefficients.kappa import (
    bias_index,
    expected_agreement,
    expected_counts_of,
    kappa,
    kappa_max,
    observed_agreement,
    prevalence_index,
)
from .._coefficients.per_category import specific_agreement
from .._count.confusion import labelled_matrix
from .._input.labels import is_missing_label
from .._input.matrix import as_matrix
from .._input.options import check_confidence
from .._input.weights import resolve_weights
from .._shared.messages import short
from .._shared.words import (
    BIAS_SHARE,
    DIGITS,
    DISTINCT_RESAMPLES,
    FEW_UNITS,
    coefficient_name,
    count_text,
    distinct_samples,
    join_words,
    label_text,
    number_text,
    plural,
    say,
    stored_weighting,
)
from .._uncertainty.bias_tests import mcnemar_test, stuart_maxwell_test
from .._uncertainty.bootstrap_intervals import bootstrap_confint
from .._uncertainty.kappa_inference import kappa_confint, kappa_standard_error, z_test
from ..results import AgreementReport, ConfidenceInterval, ConfusionMatrix
from .reading import Reading, read_strings

__all__ = ["agreement_report"]


def _outside_message(y1, y2, order, labels, shown=5):
    """Every label outside ``labels``, named at once (up to ``shown``) with where it first is."""
    inside = set(order)
    found = {}
    for i, pair in enumerate(zip(list(y1), list(y2), strict=True)):  # in the cases' order
        for name, v in zip(("y1", "y2"), pair, strict=True):
            v = v.item() if isinstance(v, np.generic) else v
            if v not in inside and v not in found:
                found[v] = f"{name}[{i}]"
    named = [f"{v!r} (first at {where})" for v, where in list(found.items())[:shown]]
    more = f" and {len(found) - shown} more" if len(found) > shown else ""
    return (
        f"labels={short(list(labels))} must list every category, got "
        f"{'the label' if len(found) == 1 else 'the labels'} {', '.join(named)}{more} outside it"
    )


def _drop_missing(y1, y2):
    a, b = list(y1), list(y2)
    if len(a) != len(b):
        return a, b, 0
    keep = [i for i in range(len(a)) if not (is_missing_label(a[i]) or is_missing_label(b[i]))]
    return [a[i] for i in keep], [b[i] for i in keep], len(a) - len(keep)


def weighted_agreement(M, weighting, scores):
    """The weighted observed and chance agreement (p_o,w, p_e,w) of a weighted kappa, with
    the agreement weights w = 1 - W / max(W) of Fleiss, Cohen & Everitt (1969):
    p_o,w = sum(w C) / N and p_e,w = sum(w E) / N, E = r c^T / N, so that
    kappa_w = (p_o,w - p_e,w) / (1 - p_e,w) = 1 - sum(W C) / sum(W E), kappa's own formula.
    (None, None) for unweighted kappa."""
    if weighting is None:
        return None, None
    K = M.shape[0]
    w = agreement_weights(resolve_weights(weighting, K, scores), K)
    N = float(M.sum())
    return float((w * M).sum() / N), float((w * expected_counts_of(M)).sum() / N)


def few_resamples(n_units, n_patterns, what):
    """The caveat for a bootstrap over ``n_units`` units in ``n_patterns`` distinct rating
    patterns, when they allow fewer than DISTINCT_RESAMPLES distinct samples; else None."""
    if n_patterns >= 2 and n_units + 1 >= DISTINCT_RESAMPLES:
        return None  # C(n + U - 1, U - 1) >= n + 1 for U >= 2: no need to compute it
    n_distinct = distinct_samples(int(n_units), int(n_patterns))
    if n_distinct >= DISTINCT_RESAMPLES:
        return None
    return say(
        "few_resamples",
        n_units=count_text(n_units),
        n_patterns=n_patterns,
        n_distinct=n_distinct,
        limit=DISTINCT_RESAMPLES,
        what=what,
    )


def _two_rater_caveats(C, labels, n, n_left_out, raters, normal=True):
    """The caveats that apply to this table, each one sentence (rules: module docstring)."""
    N = float(C.sum())
    r, c = C.sum(axis=1), C.sum(axis=0)
    K = C.shape[0]
    used = (r + c) > 0
    share = (r + c) / (2.0 * N)
    digits = DIGITS["share"]
    out = []
    rare = [k for k in range(K) if used[k] and share[k] < 1.0 / (2 * K)]
    if rare:
        which = [
            say("two_raters.rare_share", label=label_text(labels[k]), share=number_text(s, digits))
            for k, s in zip(rare, share[rare].tolist(), strict=True)
        ]
        out.append(
            say(
                "two_raters.caveat_prevalence",
                which=join_words(which),
                limit=number_text(1.0 / (2 * K), digits),
                **{"is": plural("is", len(rare))},
            )
        )
    diff = np.abs(r - c) / N
    k = int(np.argmax(diff))
    if diff[k] >= BIAS_SHARE:
        a, b = raters
        out.append(
            say(
                "two_raters.caveat_bias",
                label=label_text(labels[k]),
                a=a,
                b=b,
                share_a=number_text(r[k] / N, digits),
                share_b=number_text(c[k] / N, digits),
            )
        )
    unused = [label_text(labels[k]) for k in range(K) if not used[k]]
    if unused:
        out.append(
            say(
                "two_raters.caveat_unused",
                labels=join_words(unused),
                rows_and_columns=plural("rows_and_columns", len(unused)),
            )
        )
    if n < FEW_UNITS:
        key = "analytic" if normal else "bootstrap"
        out.append(
            say(f"two_raters.caveat_few_units_{key}", n_units=count_text(n), limit=FEW_UNITS)
        )
    if not normal:
        coarse = few_resamples(n, int(np.count_nonzero(C)), "bootstrap interval")
        if coarse is not None:
            out.append(coarse)
    if n_left_out:
        out.append(
            say(
                "two_raters.caveat_missing",
                n=n_left_out,
                unit=plural("unit", n_left_out),
                was=plural("was", n_left_out),
            )
        )
    return tuple(out)


def agreement_report(
    y1: ArrayLike | None = None,
    y2: ArrayLike | None = None,
    *,
    C: ArrayLike | None = None,
    labels: ArrayLike | None = None,
    weighting: str | ArrayLike | None = None,
    scores: ArrayLike | None = None,
    confidence_level: float = 0.95,
    raters: tuple[str, str] = ("rater 1", "rater 2"),
    missing: Literal["raise", "drop"] = "raise",
    na_values: Sequence[str] | None = None,
    method: Literal["analytic", "percentile", "bca"] = "analytic",
    n_resamples: int = 9999,
    rng: int | np.random.Generator | None = None,
) -> AgreementReport:
    r"""Everything about two raters' agreement in one call, with a methods paragraph.

    .. math::

        \hat\kappa = \frac{p_o - p_e}{1 - p_e}, \qquad
        \hat\kappa \pm z_{(1+\gamma)/2}\,\widehat{\mathrm{se}}, \qquad
        z = \hat\kappa / \widehat{\mathrm{se}}_0

    with the standard errors of :func:`kappa_standard_error` (the non-null one for the
    interval, the null one for the test).

    Parameters
    ----------
    y1, y2 : array-like of shape (n,), optional
        The labels of rater 1 (rows) and rater 2 (columns).  Give these, or ``C``.
    C : array-like of shape (K, K), optional
        The confusion matrix of counts, rows = rater 1.  A matrix from
        :func:`confusion_matrix` or :func:`matrix_from_counts` brings its labels along.
    labels : array-like of shape (K,), optional
        The categories **and their order**.  With labels, every label must be one of them
        (a report declares its scale: a label outside is an error, never dropped).  With
        ``C``, one name per row.  Required for a weighted report on string labels.
    weighting : {None, "linear", "quadratic"} or array-like of shape (K, K)
        As in :func:`kappa`.
    scores : array-like of shape (K,), optional
        As in :func:`kappa`.
    confidence_level : float, default 0.95
    raters : (str, str), default ("rater 1", "rater 2")
        How the paragraph names the two raters.
    missing : {"raise", "drop"}, default "raise"
        What a missing label (None, NaN, or a string of ``na_values``) does: an error, or the
        unit is left out and the paragraph says how many were.
    na_values : sequence of str, optional
        The strings that mean a missing label, compared stripped and without regard to case;
        by default ``NA``, ``N/A``, ``NaN``, ``null``, ``#N/A``, ``<NA>``, ``.`` and ``-``
        (not ``none``, a category of many scales), and a blank always.  A string that
        ``labels`` lists is a category.  The paragraph names the spellings read as missing.
        Strings that differ only by case or surrounding space are refused, unless ``labels``
        is given: a variant of one listed category is then read as it, and the paragraph
        says so.  (``pandas.read_csv`` reads ``None``, ``NA``, ``null`` and more as NaN
        itself: read with ``keep_default_na=False`` to leave the choice to these rules.)
    method : {"analytic", "percentile", "bca"}, default "analytic"
        The interval: the normal approximation of :func:`kappa_confint`, or the bootstrap
        over units of :func:`bootstrap_confint` (percentile or BCa), which chapter 11 shows
        to cover better with few units or a rare class.  The standard error, and the test,
        stay those of Fleiss, Cohen & Everitt.
    n_resamples, rng :
        The bootstrap's resamples and seed (as :func:`bootstrap_confint`); seed it for a
        reproducible report.

    Returns
    -------
    AgreementReport

    Raises
    ------
    ValueError, TypeError
        On bad input (as :func:`confusion_matrix` and :func:`kappa`), labels outside
        ``labels``, and when kappa is undefined (every unit in one category: there is no
        agreement beyond chance to report).

    References
    ----------
    Kottner, J. et al. (2011). Guidelines for Reporting Reliability and Agreement Studies
    (GRRAS) were proposed. *Journal of Clinical Epidemiology* 64(1), 96-106.
    Fleiss, J. L., Cohen, J. & Everitt, B. S. (1969). Large sample standard errors of kappa
    and weighted kappa.

    Examples
    --------
    The kappa explainer's table (kappa 0.7 from 20 cases):

    >>> import kappalib as kl
    >>> report = kl.agreement_report(C=[[8, 2], [1, 9]], labels=["yes", "no"])
    >>> round(report.estimate, 3), [round(x, 3) for x in report.confidence_interval]
    (0.7, [0.389, 1.0])
    >>> print(report.methods_paragraph()[:92])
    Agreement between rater 1 and rater 2 was assessed on N = 20 units in 2 categories (yes, no)
    """
    level = check_confidence(confidence_level)
    if missing not in ("raise", "drop"):
        raise ValueError(f"missing must be 'raise' or 'drop', got {missing!r}")
    if (
        not isinstance(raters, (tuple, list))
        or len(raters) != 2
        or not all(isinstance(x, str) for x in raters)
    ):
        raise TypeError(f"raters must be two names such as ('rater A', 'rater B'), got {raters!r}")
    if method not in ("analytic", "percentile", "bca"):
        raise ValueError(f"method must be 'analytic', 'percentile' or 'bca', got {method!r}")
    boot = (method, n_resamples, rng)
    return _two_rater_report(
        y1, y2, C, labels, weighting, scores, level, raters, missing, boot, na_values
    )


def _two_rater_report(
    y1: Any,
    y2: Any,
    C: Any,
    labels: Any,
    weighting: Any,
    scores: Any,
    level: float,
    raters: Any,
    missing: str,
    boot: Any,
    na_values: Any = None,
) -> AgreementReport:
    n_left_out = 0
    reading = Reading()
    if C is not None:
        if y1 is not None or y2 is not None:
            raise TypeError(
                "agreement_report takes two label sequences y1, y2 or a matrix C=, not both; "
                f"got C={short(C, 30)} and y1={short(y1, 30)}"
            )
        labelled = isinstance(C, ConfusionMatrix) and C.labels is not None
        M: Any = as_matrix(C)
        if M.ndim != 2:
            raise ValueError(
                f"C must be one (K, K) confusion matrix for a report, got shape {M.shape}"
            )
        K = M.shape[0]
        if labels is None:
            names = list(C.labels) if labelled else list(range(K))
        else:
            names = [v.item() if isinstance(v, np.generic) else v for v in labels]
            if len(names) != K or len(set(names)) != K:
                raise ValueError(
                    f"labels must name each of the {K} rows of C once, got {short(labels)}"
                )
        if weighting is not None and labels is None and labelled and not C.ordered:
            kappa(C, weighting=weighting)  # raises the sentence about the order
        matrix = C if labelled else M
        ordered_names = labels is not None or not labelled or bool(C.ordered)
    else:
        if y1 is None or y2 is None:
            raise TypeError(
                "agreement_report needs two label sequences (y1, y2) or a matrix C=, got "
                f"y1={short(y1, 30)}, y2={short(y2, 30)}"
            )
        (y1, y2), reading = read_strings(
            [y1, y2], labels, na_values, "y1 and y2", missing=missing, stacklevel=4
        )
        if missing == "drop":
            y1, y2, n_left_out = _drop_missing(y1, y2)
        matrix, order, _, source = labelled_matrix(y1, y2, labels, None, names=("y1", "y2"))
        if labels is not None:
            n_seen = len(y1) if hasattr(y1, "__len__") else None
            if n_seen is not None and matrix.sum() != n_seen:
                raise ValueError(_outside_message(y1, y2, order, labels))
        if weighting is not None and source == "spelling":
            raise ValueError(
                f"a weighted report (weighting={short(weighting, 30)}) measures distances "
                f"between categories, and these string labels would be ordered by their "
                f"spelling ({short(order, 60)}); pass labels=[...] in their ordinal order"
            )
        names = list(order)
        ordered_names = source != "spelling"
        M = as_matrix(matrix)
    est = kappa(M, weighting=weighting, scores=scores)
    if est is None:
        used = [label_text(names[k]) for k in range(M.shape[0]) if M[k].sum() + M[:, k].sum() > 0]
        raise ValueError(say("two_raters.undefined", labels=join_words(used)))
    se = kappa_standard_error(M, weighting=weighting, scores=scores)
    se0 = kappa_standard_error(M, weighting=weighting, scores=scores, null=True)
    interval, n_resamples, rng = boot
    if interval == "analytic":
        ci: Any = kappa_confint(M, weighting=weighting, scores=scores, confidence_level=level)
        method = say("interval_methods.analytic")
    else:
        ci = bootstrap_confint(
            M,
            confidence_level=level,
            method=interval,
            n_resamples=n_resamples,
            weighting=weighting,
            scores=scores,
            rng=rng,
        )
        method = say(f"interval_methods.{interval}", n_resamples=n_resamples)
    z, p = z_test(est, se0)
    K = M.shape[0]
    two = K == 2
    n = float(M.sum())
    notes: tuple[str, ...] = ()
    spec = specific_agreement(M)
    specific = tuple(None if math.isnan(v) else float(v) for v in spec.values.tolist())
    if np.all(M == np.floor(M)):
        bias = mcnemar_test(M) if two else stuart_maxwell_test(M)
    else:
        bias = None
        notes = (say("two_raters.note_no_bias_test"),)
    coefficient = coefficient_name(weighting)
    p_o_w, p_e_w = weighted_agreement(M, weighting, scores)
    return AgreementReport(
        coefficient=coefficient,
        estimate=est,
        standard_error=se,
        null_standard_error=se0,
        confidence_interval=ConfidenceInterval(float(ci[0]), float(ci[1])),
        confidence_level=level,
        interval_method=method,
        z=z,
        pvalue=p,
        test="z = kappa / se_0, se_0 the standard error under kappa = 0 (FCE 1969); two-sided",
        observed_agreement=observed_agreement(M),
        expected_agreement=expected_agreement(M),
        C=ConfusionMatrix(np.asarray(matrix), names, ordered=ordered_names),
        labels=tuple(names),
        raters=(raters[0], raters[1]),
        n_units=n,
        weighting=stored_weighting(weighting),
        pabak=pabak(M),
        kappa_max=kappa_max(M),
        prevalence_index=prevalence_index(M) if two else None,
        bias_index=bias_index(M) if two else None,
        specific_agreement=specific,
        bias_test=bias,
        caveats=_two_rater_caveats(M, names, n, n_left_out, raters, interval == "analytic")
        + reading.caveats(),
        notes=notes,
        n_left_out=n_left_out,
        weighted_observed_agreement=p_o_w,
        weighted_expected_agreement=p_e_w,
    )
