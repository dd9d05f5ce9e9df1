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
from typing import Any, Literal

import numpy as np
from numpy.typing import ArrayLike

from ._agreement import (
    bias_index,
    expected_agreement,
    kappa,
    kappa_max,
    observed_agreement,
    prevalence_index,
)
from ._bias import mcnemar_test, stuart_maxwell_test
from ._bootstrap import bootstrap_confint
from ._categories import specific_agreement
from ._encoding import _is_missing_label, _labelled
from ._inference import kappa_confint, kappa_standard_error, z_test
from ._report_text import (
    _FCE,
    _WEIGHTING_NAMES,
    BIAS_SHARE,
    FEW_UNITS,
    _count,
    _join,
    _label,
    stored_weighting,
)
from ._two_rater import pabak
from ._validation import _short, as_matrix, check_confidence
from .results import AgreementReport, ConfidenceInterval, ConfusionMatrix

__all__ = ["agreement_report"]


def _drop_missing(y1, y2):
    a, b = list(y1), list(y2)
    if len(a) != len(b):
        return a, b, 0
    keep = [i for i in range(len(a)) if not (_is_missing_label(a[i]) or _is_missing_label(b[i]))]
    return [a[i] for i in keep], [b[i] for i in keep], len(a) - len(keep)


def _two_rater_caveats(C, labels, n, n_left_out, raters, normal=True):
    """The caveats that apply to this table, each one sentence (rules: module docstring)."""
    N = float(C.sum())
    r, c = C.sum(axis=1), C.sum(axis=0)
    K = C.shape[0]
    used = (r + c) > 0
    share = (r + c) / (2.0 * N)
    out = []
    rare = [k for k in range(K) if used[k] and share[k] < 1.0 / (2 * K)]
    if rare:
        which = _join([f"{_label(labels[k])} ({share[k]:.3f})" for k in rare])
        out.append(
            f"Prevalence: {which} {'is' if len(rare) == 1 else 'are'} rare in the pooled "
            f"ratings (below 1/(2K) = {1.0 / (2 * K):.3f}); kappa then depends strongly on the "
            "prevalence, so PABAK and kappa_max are given beside it."
        )
    diff = np.abs(r - c) / N
    k = int(np.argmax(diff))
    if diff[k] >= BIAS_SHARE:
        a, b = raters
        out.append(
            f"Bias: the raters' shares of {_label(labels[k])} differ ({a} {r[k] / N:.3f}, "
            f"{b} {c[k] / N:.3f}), so part of the disagreement is a systematic difference "
            "between the raters."
        )
    unused = [_label(labels[k]) for k in range(K) if not used[k]]
    if unused:
        out.append(
            f"Unused categories: neither rater used {_join(unused)}; the table keeps "
            f"{'its row and column' if len(unused) == 1 else 'their rows and columns'} of zeros."
        )
    if n < FEW_UNITS:
        which = "large-sample interval is" if normal else "bootstrap interval is also"
        out.append(
            f"Few units: with N = {_count(n)} (below {FEW_UNITS}) the {which} "
            "approximate and can be too narrow."
        )
    if n_left_out:
        out.append(
            f"Missing ratings: {n_left_out} unit{'s' if n_left_out != 1 else ''} lacking a "
            f"rating from one of the raters {'were' if n_left_out != 1 else 'was'} left out."
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
        What a missing label (None, NaN) does: an error, or the unit is left out and the
        paragraph says how many were.
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
    return _two_rater_report(y1, y2, C, labels, weighting, scores, level, raters, missing, boot)


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
) -> AgreementReport:
    n_left_out = 0
    if C is not None:
        if y1 is not None or y2 is not None:
            raise TypeError(
                "agreement_report takes two label sequences y1, y2 or a matrix C=, not both; "
                f"got C={_short(C, 30)} and y1={_short(y1, 30)}"
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
                    f"labels must name each of the {K} rows of C once, got {_short(labels)}"
                )
        if weighting is not None and labels is None and labelled and not C.ordered:
            kappa(C, weighting=weighting)  # raises the sentence about the order
        matrix = C if labelled else M
        ordered_names = labels is not None or not labelled or bool(C.ordered)
    else:
        if y1 is None or y2 is None:
            raise TypeError(
                "agreement_report needs two label sequences (y1, y2) or a matrix C=, got "
                f"y1={_short(y1, 30)}, y2={_short(y2, 30)}"
            )
        if missing == "drop":
            y1, y2, n_left_out = _drop_missing(y1, y2)
        matrix, order, _, source = _labelled(y1, y2, labels, None, names=("y1", "y2"))
        if labels is not None:
            n_seen = len(y1) if hasattr(y1, "__len__") else None
            if n_seen is not None and matrix.sum() != n_seen:
                inside = set(order)
                outside = next(v for v in list(y1) + list(y2) if v not in inside)
                raise ValueError(
                    f"labels={_short(list(labels))} must list every category, got the label "
                    f"{outside!r} outside it"
                )
        if weighting is not None and source == "spelling":
            raise ValueError(
                f"a weighted report (weighting={_short(weighting, 30)}) measures distances "
                f"between categories, and these string labels would be ordered by their "
                f"spelling ({_short(order, 60)}); pass labels=[...] in their ordinal order"
            )
        names = list(order)
        ordered_names = source != "spelling"
        M = as_matrix(matrix)
    est = kappa(M, weighting=weighting, scores=scores)
    if est is None:
        used = [_label(names[k]) for k in range(M.shape[0]) if M[k].sum() + M[:, k].sum() > 0]
        raise ValueError(
            "kappa is undefined (0/0) for these data: both raters put every unit in the one "
            f"category {_join(used)}, so there is no agreement beyond chance to report"
        )
    se = kappa_standard_error(M, weighting=weighting, scores=scores)
    se0 = kappa_standard_error(M, weighting=weighting, scores=scores, null=True)
    interval, n_resamples, rng = boot
    if interval == "analytic":
        ci: Any = kappa_confint(M, weighting=weighting, scores=scores, confidence_level=level)
        method = f"normal approximation with the standard error of {_FCE}"
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
        kind = "percentile" if interval == "percentile" else "BCa"
        method = f"{kind} bootstrap over the units, {n_resamples} resamples"
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
        notes = ("bias test: not computed, the counts are not whole numbers",)
    coefficient = (
        _WEIGHTING_NAMES[weighting]
        if weighting is None or isinstance(weighting, str)
        else "weighted kappa"
    )
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
        caveats=_two_rater_caveats(M, names, n, n_left_out, raters, interval == "analytic"),
        notes=notes,
        n_left_out=n_left_out,
    )
