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

import html
import math
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple

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
from ._bootstrap import bootstrap_confint
from ._designs import (
    conger_kappa,
    fleiss_kappa_generalized,
    light_kappa,
    mcnemar_test,
    specific_agreement,
    stuart_maxwell_test,
)
from ._encoding import _is_missing_label, _labelled
from ._inference import kappa_confint, kappa_standard_error
from ._multirater import (
    brennan_prediger_multi,
    fleiss_kappa,
    gwet_ac1_multi,
    krippendorff_alpha,
    rating_table,
)
from ._rating_inference import ratings_confint, ratings_standard_error
from ._ratings import _MISSING_WORDS, Layout, prepare, table_and_categories
from ._two_rater import pabak
from ._validation import _short, as_matrix, check_confidence, origin, remember

__all__ = [
    "AgreementReport",
    "Coefficient",
    "RatingsReport",
    "agreement_report",
    "matrix_from_counts",
    "ratings_report",
]

FEW_UNITS = 50
"""Below this many units the report warns that the large-sample interval is optimistic."""
BIAS_SHARE = 0.10
"""The bias caveat applies when the raters' shares of one category differ by this much."""

_WEIGHTING_NAMES = {
    None: "Cohen's kappa",
    "linear": "linearly weighted kappa",
    "quadratic": "quadratically weighted kappa",
}
_FCE = "Fleiss, Cohen and Everitt 1969"


def _num(x: float | None, digits: int = 3) -> str:
    """A number as printed everywhere in the report (fixed decimals; '-0.000' never)."""
    if x is None:
        return "undefined"
    s = f"{x:.{digits}f}"
    return s[1:] if s.startswith("-") and float(s) == 0 else s


def _count(v: float) -> str:
    """A count as printed: whole numbers in full (1000000, never 1e+06), others to 12 digits.

    12 significant digits, not repr: a total of fractional counts then reads the same whatever
    the order of the additions (178.456, not 178.45600000000002), here and in the page's twin.
    """
    v = float(v)
    return str(int(v)) if v.is_integer() else f"{v:.12g}"


def _p(p: float | None) -> str:
    if p is None:
        return "undefined"
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"


def _label(v: Any) -> str:
    """A category as printed: a whole float (a numeric rating read with gaps) as an int."""
    if isinstance(v, (float, np.floating)) and float(v).is_integer():
        return str(int(v))
    return str(v)


def _join(words: list[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


# --- two raters ------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False, repr=False)
class AgreementReport:
    """Everything about the agreement of two raters, from one confusion matrix.

    Attributes are plain Python numbers (or ``None`` where a value does not apply): the
    estimate with its standard errors, interval and test; the agreement proportions; the
    table; the prevalence and bias indices (2 x 2 only), PABAK and the largest kappa the
    margins allow; and the caveats that apply to these data, as sentences.
    """

    coefficient: str
    """What was estimated: "Cohen's kappa", "linearly weighted kappa", ..."""
    estimate: float
    standard_error: float
    """Large-sample standard error (Fleiss, Cohen & Everitt 1969), for the interval."""
    null_standard_error: float
    """Standard error under kappa = 0, for the test (never for an interval)."""
    confidence_interval: tuple[float, float]
    confidence_level: float
    interval_method: str
    z: float | None
    """kappa / null_standard_error; None when that standard error is 0 (a one-class margin)."""
    p_value: float | None
    """Two-sided normal p-value of ``z``."""
    test: str
    observed_agreement: float
    """p_o, the share of exact agreements (unweighted, also for weighted kappa)."""
    expected_agreement: float
    """p_e, the chance agreement of Cohen's kappa (unweighted)."""
    matrix: np.ndarray
    labels: tuple[Any, ...]
    raters: tuple[str, str]
    n: float
    weighting: Any
    pabak: float
    kappa_max: float | None
    prevalence_index: float | None
    bias_index: float | None
    specific_agreement: tuple[float | None, ...]
    """Per category, ``2 n_kk / (n_k. + n_.k)`` (:func:`specific_agreement`), in the order of
    ``labels``; None for a category neither rater used.  For 2 x 2: negative, positive."""
    bias_test: Any
    """McNemar's test (2 x 2) or the Stuart-Maxwell test (K x K) of equal margins, as
    :func:`mcnemar_test` / :func:`stuart_maxwell_test` return it; None for fractional counts."""
    caveats: tuple[str, ...]
    notes: tuple[str, ...] = ()
    n_left_out: int = 0

    # -- rendering

    def _rows(self) -> list[tuple[str, str]]:
        lo, hi = self.confidence_interval
        level = f"{self.confidence_level:.0%}"
        rows = [
            (self.coefficient, _num(self.estimate)),
            (f"{level} confidence interval", f"{_num(lo)} to {_num(hi)}"),
            ("interval method", self.interval_method),
            ("standard error", _num(self.standard_error, 4)),
            ("standard error under kappa = 0", _num(self.null_standard_error, 4)),
            ("z (with the null standard error)", _num(self.z, 2)),
            ("p (two-sided)", _p(self.p_value).removeprefix("p = ").removeprefix("p ")),
            ("N (units)", _count(self.n)),
            ("categories", ", ".join(map(_label, self.labels))),
            ("observed agreement p_o", _num(self.observed_agreement)),
            ("chance agreement p_e", _num(self.expected_agreement)),
            ("PABAK", _num(self.pabak)),
            ("kappa_max (unweighted)", _num(self.kappa_max)),
        ]
        if self.prevalence_index is not None:
            rows.append(("prevalence index", _num(self.prevalence_index)))
            rows.append(("bias index", _num(self.bias_index)))
        for v, lab in zip(self.specific_agreement, self.labels, strict=True):
            rows.append((f"specific agreement, {_label(lab)}", _num(v)))
        t = self.bias_test
        if t is not None:
            if t.statistic is None:
                rows.append((f"{t.method} (equal margins)", "undefined: no unit in dispute"))
            else:
                df = f", df = {t.df}" if t.df is not None else ""
                rows.append(
                    (
                        f"{t.method} (equal margins)",
                        f"{t.statistic:.2f}{df}, {_p(t.pvalue)}",
                    )
                )
        if self.n_left_out:
            rows.append(("units left out (a rating missing)", f"{self.n_left_out}"))
        return rows

    def _matrix_rows(self) -> list[list[str]]:
        return [[_count(v) for v in row] for row in np.asarray(self.matrix).tolist()]

    def to_markdown(self) -> str:
        """The report as Markdown: the numbers, the table of counts, the caveats."""
        lines = ["| quantity | value |", "| --- | --- |"]
        lines += [f"| {k} | {v} |" for k, v in self._rows()]
        a, b = self.raters
        head = [f"{a} \\ {b}", *map(_label, self.labels)]
        lines += ["", f"Counts (rows: {a}, columns: {b}):", ""]
        lines += ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
        for lab, row in zip(self.labels, self._matrix_rows(), strict=True):
            lines.append("| " + " | ".join([_label(lab), *row]) + " |")
        if self.caveats:
            lines += ["", "Caveats:", ""] + [f"- {c}" for c in self.caveats]
        if self.notes:
            lines += ["", "Notes:", ""] + [f"- {c}" for c in self.notes]
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.to_markdown()

    def __repr__(self) -> str:
        lo, hi = self.confidence_interval
        return (
            f"AgreementReport({self.coefficient} = {_num(self.estimate)}, "
            f"{self.confidence_level:.0%} CI {_num(lo)} to {_num(hi)}, N = {_count(self.n)})"
        )

    def _repr_html_(self) -> str:
        e = html.escape
        out = ["<table>", "<thead><tr><th>quantity</th><th>value</th></tr></thead><tbody>"]
        out += [f"<tr><td>{e(k)}</td><td>{e(v)}</td></tr>" for k, v in self._rows()]
        out.append("</tbody></table>")
        a, b = self.raters
        out.append(f"<p>Counts (rows: {e(a)}, columns: {e(b)}):</p><table><thead><tr>")
        out.append(f"<th>{e(a)} \\ {e(b)}</th>")
        out += [f"<th>{e(_label(v))}</th>" for v in self.labels]
        out.append("</tr></thead><tbody>")
        for lab, row in zip(self.labels, self._matrix_rows(), strict=True):
            cells = "".join(f"<td>{v}</td>" for v in row)
            out.append(f"<tr><th>{e(_label(lab))}</th>{cells}</tr>")
        out.append("</tbody></table>")
        if self.caveats:
            out.append("<p>Caveats:</p><ul>")
            out += [f"<li>{e(c)}</li>" for c in self.caveats]
            out.append("</ul>")
        if self.notes:
            out.append("<p>Notes:</p><ul>")
            out += [f"<li>{e(c)}</li>" for c in self.notes]
            out.append("</ul>")
        return "".join(out)

    def methods_paragraph(self, *, table: str | None = None) -> str:
        """A paragraph for a methods or results section that meets GRRAS.

        Parameters
        ----------
        table : str, optional
            Where the reader finds the table of counts ("Table 2", "the supplement").
            By default the counts are written into the paragraph.

        Returns
        -------
        str
            The numbers rounded as in the report, the interval with its method, the test,
            the table (or where it is) and the caveats that apply; never a verbal band.
        """
        a, b = self.raters
        K = len(self.labels)
        lo, hi = self.confidence_interval
        level = f"{self.confidence_level:.0%}"
        normal = self.interval_method.startswith("normal")
        clipped = ", the upper end clipped at 1" if hi >= 1.0 and normal else ""
        if self.weighting is None:
            cats = ", ".join(map(_label, self.labels))
        else:
            cats = "ordered " + " < ".join(map(_label, self.labels))
            if not isinstance(self.weighting, str):
                cats += ", with the disagreement weights given in the analysis"
        s = [
            f"Agreement between {a} and {b} was assessed on N = {_count(self.n)} units in {K} "
            f"categories ({cats}) with {self.coefficient}."
        ]
        s.append(
            f"Observed agreement was p_o = {_num(self.observed_agreement)} and chance "
            f"agreement p_e = {_num(self.expected_agreement)}"
            + (" (both for exact agreement)" if self.weighting is not None else "")
            + f"; {self.coefficient} was {_num(self.estimate)} ({level} CI "
            f"{_num(lo)} to {_num(hi)}{clipped}, "
            f"{self.interval_method}; SE = "
            f"{_num(self.standard_error, 4)})."
        )
        if self.z is None:
            M = np.asarray(self.matrix, dtype=np.float64)
            single = a if np.count_nonzero(M.sum(axis=1)) == 1 else b
            s.append(
                f"No test against chance agreement is possible: {single} used a single "
                "category, so kappa is 0 whatever the other rater did."
            )
        else:
            s.append(
                f"Against chance agreement, z = {_num(self.z, 2)} ({_p(self.p_value)}, "
                "two-sided, with the standard error under kappa = 0)."
            )
        extra = f"PABAK was {_num(self.pabak)}"
        kmax = "unweighted kappa" if self.weighting is not None else "kappa"
        extra += f" and the largest {kmax} the raters' margins allow was {_num(self.kappa_max)}"
        if self.prevalence_index is not None:
            extra += (
                f"; the prevalence index was {_num(self.prevalence_index)} and the bias index "
                f"{_num(self.bias_index)}"
            )
        s.append(extra + ".")
        shown = [
            f"{_num(v)} for {_label(lab)}"
            for v, lab in zip(self.specific_agreement, self.labels, strict=True)
        ]
        s.append(f"Specific agreement was {_join(shown)}.")
        if table is None:
            rows = "; ".join(
                f"{_label(lab)}: {', '.join(row)}"
                for lab, row in zip(self.labels, self._matrix_rows(), strict=True)
            )
            s.append(f"The counts (rows: {a}; columns: {b}, in the same order) were {rows}.")
        else:
            s.append(f"The table of counts (rows: {a}; columns: {b}) is given in {table}.")
        s += list(self.caveats)
        return " ".join(s)


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
    interval: Literal["normal", "percentile", "bca"] = "normal",
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
    interval : {"normal", "percentile", "bca"}, default "normal"
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
    if interval not in ("normal", "percentile", "bca"):
        raise ValueError(f"interval must be 'normal', 'percentile' or 'bca', got {interval!r}")
    boot = (interval, n_resamples, rng)
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
        kind, known, source = origin(C)
        M: Any = as_matrix(C)
        if M.ndim != 2:
            raise ValueError(
                f"C must be one (K, K) confusion matrix for a report, got shape {M.shape}"
            )
        K = M.shape[0]
        if labels is None:
            names = list(known) if kind == "confusion" else list(range(K))
        else:
            names = [v.item() if isinstance(v, np.generic) else v for v in labels]
            if len(names) != K or len(set(names)) != K:
                raise ValueError(
                    f"labels must name each of the {K} rows of C once, got {_short(labels)}"
                )
        if (
            weighting is not None
            and labels is None
            and kind == "confusion"
            and source == "spelling"
        ):
            kappa(C, weighting=weighting)  # raises the sentence about the order
        matrix = C if kind == "confusion" else M
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
    if interval == "normal":
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
    z = est / se0 if se0 > 0 else None
    # two-sided normal p-value, 2 (1 - Phi(|z|)) = erfc(|z| / sqrt 2), without the
    # cancellation of 1 - Phi in the far tail
    p = math.erfc(abs(z) / math.sqrt(2.0)) if z is not None else None
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
        confidence_interval=(float(ci[0]), float(ci[1])),
        confidence_level=level,
        interval_method=method,
        z=z,
        p_value=p,
        test="z = kappa / se_0, se_0 the standard error under kappa = 0 (FCE 1969); two-sided",
        observed_agreement=observed_agreement(M),
        expected_agreement=expected_agreement(M),
        matrix=np.asarray(matrix),
        labels=tuple(names),
        raters=(raters[0], raters[1]),
        n=n,
        weighting=weighting,
        pabak=pabak(M),
        kappa_max=kappa_max(M),
        prevalence_index=prevalence_index(M) if two else None,
        bias_index=bias_index(M) if two else None,
        specific_agreement=specific,
        bias_test=bias,
        caveats=_two_rater_caveats(M, names, n, n_left_out, raters, interval == "normal"),
        notes=notes,
        n_left_out=n_left_out,
    )


# --- long count tables -----------------------------------------------------------------------


def _count_columns(frame: Any, columns: Any, count: Any) -> tuple[list[Any], list[str], str]:
    """The three columns of a long count table as sequences, and how to name them."""
    if not isinstance(columns, (tuple, list)) or len(columns) != 2:
        raise TypeError(
            "columns must name the two label columns, such as columns=('rater_a', 'rater_b'), "
            f"got {_short(columns, 60)}"
        )
    wanted = [columns[0], columns[1], count]
    names: list[str] | None = None
    rows: Any = None
    if hasattr(frame, "description") and hasattr(frame, "fetchall"):  # a DB-API cursor
        if frame.description is None:
            raise ValueError("frame is a cursor with no result: execute a SELECT first")
        names = [d[0] for d in frame.description]
        rows = frame.fetchall()
    elif hasattr(frame, "fetchall") and hasattr(frame, "columns"):  # a DuckDB relation
        names = [str(c) for c in frame.columns]
        rows = frame.fetchall()
    if names is not None:
        missing = [w for w in wanted if w not in names]
        if missing:
            raise ValueError(
                f"the query's result has no column {missing[0]!r}; its columns are "
                f"{', '.join(map(str, names))}"
            )
        at = [names.index(w) for w in wanted]
        cols = [[row[j] for row in rows] for j in at]
        return cols, [str(w) for w in wanted], "query"
    if hasattr(frame, "columns") and hasattr(frame, "__getitem__"):  # a pandas DataFrame
        known = list(frame.columns)
        missing = [w for w in wanted if w not in known]
        if missing:
            raise ValueError(
                f"frame has no column {missing[0]!r}; its columns are {', '.join(map(str, known))}"
            )
        return [frame[w] for w in wanted], [str(w) for w in wanted], "frame"
    if isinstance(frame, dict):
        missing = [w for w in wanted if w not in frame]
        if missing:
            raise ValueError(
                f"frame has no column {missing[0]!r}; its keys are {', '.join(map(str, frame))}"
            )
        return [list(frame[w]) for w in wanted], [str(w) for w in wanted], "dict"
    if isinstance(frame, (list, tuple)):
        if not all(isinstance(w, int) and not isinstance(w, bool) for w in wanted):
            raise TypeError(
                "frame is a list of rows, which has no column names: give positions, such as "
                "columns=(0, 1), count=2, or pass the cursor itself (its description names "
                f"the columns); got columns={_short(columns, 40)}, count={count!r}"
            )
        width = {len(row) for row in frame} if frame else {0}
        if len(width) != 1 or max(wanted) >= min(width) or min(wanted) < 0:
            raise ValueError(
                f"frame's rows must all have the positions {wanted}, got rows of lengths "
                f"{sorted(width)}"
            )
        return [[row[j] for row in frame] for j in wanted], [f"column {w}" for w in wanted], "rows"
    raise TypeError(
        "frame must be a pandas DataFrame, a dict of columns, a list of row tuples or a "
        f"DB-API cursor, got {type(frame).__name__}"
    )


def matrix_from_counts(
    frame: Any,
    *,
    columns: tuple[Any, Any],
    count: Any = "n",
    labels: ArrayLike | None = None,
) -> np.ndarray:
    r"""The confusion matrix of a long table of counts: one row per label pair and its count.

    .. math:: C_{ij} = \sum_{\text{rows } t:\ a_t = \ell_i,\ b_t = \ell_j} n_t

    This is what ``SELECT a, b, COUNT(*) AS n FROM ratings GROUP BY a, b`` returns, in a
    database, in DuckDB or in pandas (``df.value_counts([a, b]).reset_index(name="n")``).
    Rows with the same pair are summed; a pair with no row counts 0.

    Parameters
    ----------
    frame : DataFrame, dict of columns, list of row tuples, or DB-API cursor
        The long table.  A cursor (or a DuckDB relation) is read with ``fetchall`` and its
        column names; a list of row tuples (what ``fetchall`` returns) has no names, so
        ``columns`` and ``count`` are positions there.
    columns : (a, b)
        The columns of rater 1 (the rows of ``C``) and rater 2 (its columns).
    count : str or int, default "n"
        The column of counts: non-negative, finite numbers.
    labels : array-like of shape (K,), optional
        The categories **and their order**.  Every label in the table must be one of them
        (an error otherwise, never dropped).  Without it the order is the sorted union of
        the labels; kappalib remembers where it came from, and a weighted kappa of a matrix
        whose string labels were sorted by their spelling is refused.

    Returns
    -------
    C : ndarray of shape (K, K)
        int64 when every count is a whole number, else float64.  kappalib remembers its
        labels: :func:`agreement_report` given this array names the categories.

    Raises
    ------
    ValueError, TypeError
        On a missing column, an empty table, a missing (NULL) label, counts that are not
        non-negative finite numbers, or a label outside ``labels``.

    Examples
    --------
    A count table as an SQL query returns it (the kappa explainer's table):

    >>> import kappalib as kl
    >>> rows = [("yes", "yes", 8), ("yes", "no", 2), ("no", "yes", 1), ("no", "no", 9)]
    >>> kl.matrix_from_counts(rows, columns=(0, 1), count=2, labels=["yes", "no"]).tolist()
    [[8, 2], [1, 9]]
    >>> kl.matrix_from_counts({"a": [1, 1, 2], "b": [1, 1, 2], "n": [3, 4, 5]},
    ...                       columns=("a", "b")).tolist()
    [[7, 0], [0, 5]]
    """
    (a, b, n), names, _ = _count_columns(frame, columns, count)
    if len(a) == 0:
        raise ValueError("frame must hold at least one row of counts, got an empty table")
    values = np.asarray(n, dtype=object).ravel() if not hasattr(n, "to_numpy") else None
    if values is None:
        values = np.asarray(n.to_numpy(dtype=object, na_value=None)).ravel()
    bad = next(
        (
            v
            for v in values
            if isinstance(v, (bool, np.bool_))
            or not isinstance(v, (int, float, np.integer, np.floating))
            or not math.isfinite(float(v))
            or v < 0
        ),
        "ok",
    )
    if not (isinstance(bad, str) and bad == "ok"):
        raise ValueError(
            f"the count column {names[2]!r} must hold non-negative finite numbers, got {bad!r}"
        )
    for col, name in ((a, names[0]), (b, names[1])):
        seq = list(col)
        hole = next((i for i, v in enumerate(seq) if _is_missing_label(v)), None)
        if hole is not None:
            raise ValueError(
                f"column {name!r} has a missing label (NULL/NaN) in row {hole}: a count of "
                "units lacking a rating belongs to no cell; filter them out (WHERE "
                f"{name} IS NOT NULL) and report how many there were"
            )
        word = next(
            (
                (i, v)
                for i, v in enumerate(seq)
                if isinstance(v, str) and v.strip().lower() in _MISSING_WORDS
            ),
            None,
        )
        if word is not None:
            raise ValueError(
                f"column {name!r} has the label {word[1]!r} in row {word[0]}, which reads as a "
                "missing rating (a blank cell of a CSV file or a spreadsheet); filter those "
                f"rows out (WHERE {name} <> '') and report how many there were, or give the "
                "category a name"
            )
    weights = values.astype(np.float64)
    C, order, _, source = _labelled(a, b, labels, weights, names=(names[0], names[1]))
    if labels is not None and C.sum() != weights.sum():
        inside = set(order)
        outside = next(v for v in list(a) + list(b) if v not in inside)
        raise ValueError(
            f"labels={_short(np.asarray(labels).tolist())} must list every category, got the label "
            f"{outside!r} outside it"
        )
    whole = np.all(weights == np.floor(weights)) and weights.sum() < 2.0**53
    out = np.asarray(C, dtype=np.int64 if whole else np.float64)
    return remember(out, "confusion", order, source)


# --- many raters -----------------------------------------------------------------------------


class Coefficient(NamedTuple):
    """One coefficient of a :class:`RatingsReport`, with its standard error and interval."""

    name: str
    estimate: float | None
    standard_error: float | None
    confidence_interval: tuple[float, float] | None
    interval_method: str | None
    note: str = ""
    null_standard_error: float | None = None
    """Under no agreement beyond chance (Fleiss' kappa only: Fleiss, Nee & Landis 1979)."""
    z: float | None = None
    """``estimate / null_standard_error``, where that exists."""
    p_value: float | None = None
    """Two-sided normal p-value of ``z``."""


def _weight_name(weighting: Any) -> str:
    return f"{weighting} weights" if isinstance(weighting, str) else "custom weights"


@dataclass(frozen=True, eq=False, repr=False)
class RatingsReport:
    """Everything about the agreement in a ratings table (any number of raters, gaps allowed).

    ``coefficients`` holds every coefficient that applies to these data, each with its
    standard error, interval and the interval's method; ``table`` is the units x categories
    count table of :func:`rating_table`.
    """

    coefficients: tuple[Coefficient, ...]
    table: np.ndarray
    categories: tuple[Any, ...]
    n_units: int
    n_raters: int | None
    """The number of raters (columns of the data); None for a count table, whose units may
    each have been rated by different people."""
    n_ratings: int
    n_missing: int
    level: str
    weighting: Any
    confidence_level: float
    caveats: tuple[str, ...]
    notes: tuple[str, ...] = ()
    ratings_per_unit: tuple[int, int] = (0, 0)
    """The fewest and the most ratings a unit has."""

    def __getitem__(self, name: str) -> Coefficient:
        """The coefficient called ``name`` ("Fleiss' kappa", "Krippendorff's alpha", ...)."""
        for c in self.coefficients:
            if c.name == name or c.name.split(" (")[0] == name:
                return c
        known = ", ".join(c.name for c in self.coefficients)
        raise KeyError(f"no coefficient {name!r} in this report; it has {known}")

    def _design(self) -> str:
        lo, hi = self.ratings_per_unit
        who = (
            f"{self.n_raters} raters"
            if self.n_raters is not None
            else f"{lo if lo == hi else f'{lo} to {hi}'} ratings per unit"
        )
        return (
            f"{self.n_units} units, {who}, {self.n_ratings} ratings ({self.n_missing} "
            f"missing), level of measurement: {self.level}."
        )

    def _totals(self) -> list[str]:
        """The number of ratings in each category, as printed."""
        return [_count(v) for v in np.asarray(self.table).sum(axis=0).tolist()]

    def _interval(self, c: Coefficient) -> str:
        if c.confidence_interval is None:
            return "-"
        lo, hi = c.confidence_interval
        return f"{_num(lo)} to {_num(hi)}"

    def to_markdown(self) -> str:
        """The report as Markdown: the coefficients, the design, the category totals."""
        level = f"{self.confidence_level:.0%}"
        lines = [
            f"| coefficient | estimate | SE | {level} interval | method |",
            "| --- | --- | --- | --- | --- |",
        ]
        for c in self.coefficients:
            se = _num(c.standard_error, 4) if c.standard_error is not None else "-"
            lines.append(
                f"| {c.name} | {_num(c.estimate)} | {se} | {self._interval(c)} | "
                f"{c.interval_method or c.note or '-'} |"
            )
        lines += [
            "",
            self._design(),
            "",
            "| category | " + " | ".join(map(_label, self.categories)) + " |",
            "|" + " --- |" * (len(self.categories) + 1),
            "| ratings | " + " | ".join(self._totals()) + " |",
        ]
        if self.caveats:
            lines += ["", "Caveats:", ""] + [f"- {c}" for c in self.caveats]
        if self.notes:
            lines += ["", "Notes:", ""] + [f"- {c}" for c in self.notes]
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.to_markdown()

    def __repr__(self) -> str:
        shown = ", ".join(f"{c.name} = {_num(c.estimate)}" for c in self.coefficients)
        return f"RatingsReport({shown}; {self.n_units} units)"

    def _repr_html_(self) -> str:
        e = html.escape
        level = f"{self.confidence_level:.0%}"
        out = [
            "<table><thead><tr><th>coefficient</th><th>estimate</th><th>SE</th>",
            f"<th>{level} interval</th><th>method</th></tr></thead><tbody>",
        ]
        for c in self.coefficients:
            se = _num(c.standard_error, 4) if c.standard_error is not None else "-"
            cells = [c.name, _num(c.estimate), se, self._interval(c)]
            cells.append(c.interval_method or c.note or "-")
            out.append("<tr>" + "".join(f"<td>{e(v)}</td>" for v in cells) + "</tr>")
        out.append("</tbody></table>")
        out.append(f"<p>{e(self._design())}</p>")
        out.append("<table><thead><tr><th>category</th>")
        out += [f"<th>{e(_label(v))}</th>" for v in self.categories]
        out.append("</tr></thead><tbody><tr><th>ratings</th>")
        out += [f"<td>{v}</td>" for v in self._totals()]
        out.append("</tr></tbody></table>")
        for title, items in (("Caveats", self.caveats), ("Notes", self.notes)):
            if items:
                out.append(f"<p>{title}:</p><ul>")
                out += [f"<li>{e(c)}</li>" for c in items]
                out.append("</ul>")
        return "".join(out)

    def methods_paragraph(self, *, table: str | None = None) -> str:
        """A paragraph for a methods or results section that meets GRRAS.

        Parameters
        ----------
        table : str, optional
            Where the reader finds the units x categories table ("Table S1"); by default
            the paragraph says it belongs in the supplementary material.

        Returns
        -------
        str
            The design, every coefficient rounded as in the report with its interval and
            method where kappalib has one, the category totals and the caveats that apply;
            never a verbal band.
        """
        K = len(self.categories)
        cats = ", ".join(map(_label, self.categories))
        if self.level in ("ordinal", "interval", "ratio") and self.weighting is not None:
            cats = "ordered " + " < ".join(map(_label, self.categories))
        if self.n_raters is not None:
            s = [
                f"Agreement among {self.n_raters} raters was assessed on {self.n_units} units "
                f"in {K} categories ({cats}); {self.n_ratings} ratings were given"
                + (f" and {self.n_missing} were missing." if self.n_missing else ", none missing.")
            ]
        else:
            fewest, most = self.ratings_per_unit
            each = f"{most}" if fewest == most else f"{fewest} to {most}"
            s = [
                f"Agreement was assessed on {self.n_units} units in {K} categories ({cats}), "
                f"each rated by {each} raters (not necessarily the same raters for every "
                f"unit); {self.n_ratings} ratings in all."
            ]
        level = f"{self.confidence_level:.0%}"
        parts = []
        lacking = []
        methods: dict[str, list[str]] = {}
        for c in self.coefficients:
            article = "the " if c.name.startswith("Brennan") else ""
            text = f"{article}{c.name} was {_num(c.estimate)}"
            if c.confidence_interval is not None:
                lo, hi = c.confidence_interval
                text += f" ({level} CI {_num(lo)} to {_num(hi)})"
                methods.setdefault(c.interval_method or "", []).append(article + c.name)
            else:
                lacking.append(article + c.name)
            parts.append(text)
        s.append(_join(parts)[0].upper() + _join(parts)[1:] + ".")
        if methods:
            said = [
                f"{_join(names)}: {method}" if len(methods) > 1 else method
                for method, names in methods.items()
            ]
            s.append("Intervals: " + "; ".join(said) + ".")
        if lacking:
            s.append(f"No interval could be computed for {_join(lacking)} on these data.")
        for c in self.coefficients:
            if c.z is not None:
                s.append(
                    f"Against chance agreement, {c.name} has z = {_num(c.z, 2)} "
                    f"({_p(c.p_value)}, two-sided, with the standard error under kappa = 0 "
                    "of Fleiss, Nee and Landis 1979)."
                )
        totals = ", ".join(
            f"{_label(k)}: {v}" for k, v in zip(self.categories, self._totals(), strict=True)
        )
        where = table or "the supplementary material"
        s.append(
            f"The ratings per category were {totals}; the units x categories table is given "
            f"in {where}."
        )
        s += list(self.caveats)
        return " ".join(s)


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
    data: ArrayLike | None = None,
    *,
    table: ArrayLike | None = None,
    layout: Layout | None = None,
    level: Literal["nominal", "ordinal", "interval", "ratio"] = "nominal",
    categories: ArrayLike | None = None,
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
    data : array-like of shape (raters, units) or (units, raters)
        Raw ratings, as for :func:`krippendorff_alpha`; NaN, None or pandas' NA is a missing
        rating.  A DataFrame is read units x raters.  Give this or ``table``.
    table : array-like of shape (units, K), optional
        Instead of ``data``: the units x categories counts (as :func:`fleiss_kappa` takes
        them), for designs where different raters rate different units (Fleiss 1971).
        Coefficients that need to know which rater gave which rating are then left out.
    layout : {None, "raters x units", "units x raters"}
        As in :func:`rating_table`.
    level : {"nominal", "ordinal", "interval", "ratio"}, default "nominal"
        Krippendorff's level of measurement.
    categories : array-like of shape (K,), optional
        The categories offered and their order (required for ordinal strings); a category
        nobody used is kept, which AC1 and Brennan-Prediger need.
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
    if not isinstance(level, str) or level not in ("nominal", "ordinal", "interval", "ratio"):
        raise ValueError(
            f"level must be 'nominal', 'ordinal', 'interval' or 'ratio', got {level!r}"
        )
    if (data is None) == (table is None):
        raise TypeError(
            "ratings_report takes raw ratings (data) or a units x categories count table "
            f"(table=), exactly one of them; got data={_short(data, 30)}, "
            f"table={_short(table, 30)}"
        )
    if table is not None:
        return _table_report(table, level, categories, weighting, conf, (n_resamples, rng))
    return _ratings_report(data, layout, level, categories, weighting, conf, (n_resamples, rng))


def _table_report(
    table: Any, level: Any, categories: Any, weighting: Any, conf: float, boot: Any
) -> RatingsReport:
    T, domain, _ = table_and_categories(table, categories, "ratings_report")
    K = T.shape[1]
    if domain is None:
        domain = np.arange(K)
    numeric = domain.dtype.kind in "biuf"
    if level in ("interval", "ratio") and not numeric:
        raise TypeError(
            f"level={level!r} needs numeric categories, got {_short(domain.tolist(), 60)}"
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
    alpha_cats = values
    return _assemble(
        T, cats, ratings.T, alpha_cats, None, level, weighting, conf, "table", boot=boot
    )


def _ratings_report(
    data: Any, layout: Any, level: Any, categories: Any, weighting: Any, conf: float, boot: Any
) -> RatingsReport:
    arr, missing, _, _, _ = prepare(data, layout, categories, "data")
    hole = np.isnan(arr) if missing is None else missing
    table, domain = rating_table(data, categories=categories, layout=layout)
    cats = tuple(v.item() if isinstance(v, np.generic) else v for v in domain.tolist())
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
            f"{'data' if kind == 'ratings' else 'table'} must use at least two categories "
            f"for any agreement coefficient, got every rating in {_join(only)}"
        )
    n_resamples, seed = boot
    # the categories of a plain count table go with it; a rating_table result carries them
    tcats = np.asarray(cats) if kind == "table" else None
    alayout: Any = "raters x units" if kind == "table" else layout
    coefs = []

    def add(name, coefficient, value, source, **kw):
        """One coefficient with its standard error and interval from kl.ratings_*."""
        analytic = coefficient not in ("alpha", "light")
        opts = dict(kw, coefficient=coefficient)
        if analytic:
            method = (
                "Gwet's linearization standard error, Student's t with n - 1 degrees of freedom"
            )
        else:
            opts.update(method="bootstrap", n_resamples=n_resamples, rng=seed)
            method = f"percentile bootstrap over the units, {n_resamples} resamples"
        se = ratings_standard_error(source, **opts)
        ci = ratings_confint(source, confidence_level=conf, **opts)
        se0 = None
        if coefficient == "fleiss":
            se0 = ratings_standard_error(source, coefficient="fleiss", null=True)
        interval = None if ci is None else (float(ci[0]), float(ci[1]))
        z = value / se0 if se0 and value is not None else None
        p = math.erfc(abs(z) / math.sqrt(2.0)) if z is not None else None
        coefs.append(Coefficient(name, value, se, interval, method, "", se0, z, p))

    per_unit = table.sum(axis=1)
    rated = per_unit[per_unit > 0]
    equal = bool(rated.size) and bool(np.all(rated == rated[0])) and rated.size == n_units
    if weighting is None and equal and rated[0] >= 2:
        add("Fleiss' kappa", "fleiss", fleiss_kappa(table), table)
    else:
        value = fleiss_kappa_generalized(table, weighting=weighting, categories=tcats)
        wtext = "" if weighting is None else f", {_weight_name(weighting)}"
        add(
            f"Fleiss' kappa (Gwet's generalized{wtext})",
            "fleiss_generalized",
            value,
            table,
            weighting=weighting,
            categories=tcats,
        )
    alpha = krippendorff_alpha(data, level=level, categories=categories, layout=alayout)
    add(
        f"Krippendorff's alpha ({level})",
        "alpha",
        alpha,
        data,
        level=level,
        categories=categories,
        layout=alayout,
    )
    wname = _weight_name(weighting)
    ac = "Gwet's AC1" if weighting is None else f"Gwet's AC2 ({wname})"
    value = gwet_ac1_multi(table, weighting=weighting, categories=tcats)
    add(
        ac,
        "ac1" if weighting is None else "ac2",
        value,
        table,
        weighting=weighting,
        categories=tcats,
    )
    bp = "Brennan-Prediger coefficient" + (f" ({wname})" if weighting is not None else "")
    value = brennan_prediger_multi(table, weighting=weighting, categories=tcats)
    add(bp, "bp", value, table, weighting=weighting, categories=tcats)
    notes = []
    if kind == "ratings":
        # the raters are fixed (the columns of the data): Conger's and Light's kappa
        value = conger_kappa(data, layout=layout, categories=categories, weighting=weighting)
        name = "Conger's kappa" + (f" ({wname})" if weighting is not None else "")
        add(
            name,
            "conger",
            value,
            data,
            layout=layout,
            categories=categories,
            weighting=weighting,
        )
        if weighting is None:
            value = light_kappa(data, layout=layout, categories=categories)
            add("Light's kappa", "light", value, data, layout=layout, categories=categories)
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
        table=np.asarray(table),
        categories=cats,
        n_units=n_units,
        n_raters=n_raters,
        n_ratings=n_ratings,
        n_missing=n_missing,
        level=level,
        weighting=weighting,
        confidence_level=conf,
        caveats=_ratings_caveats(table, cats, n_units, n_missing, n_cells),
        notes=tuple(notes),
        ratings_per_unit=(int(per_unit.min()), int(per_unit.max())),
    )
