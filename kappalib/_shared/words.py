"""The words and numbers of the reports: their sentence templates, how a number, a count, a
p-value, a label and a list are printed, and the thresholds of the caveats.

The templates and formats are data, ``report_words.json`` beside this module: the
calculator page reads the same file (``book/calculator.md`` embeds it and
``book/_static/kappa/kappa.js`` fills it the same way), so the page's paragraph is
kappalib's word for word.  A template's ``{name}`` is replaced by a value that is already a
string; nothing else in a template is special.
"""

from __future__ import annotations

import html
import json
import math
import re
import sys
from importlib import resources
from typing import Any, NamedTuple, TypeAlias

import numpy as np

WORDS: dict[str, Any] = json.loads(
    resources.files(__package__).joinpath("report_words.json").read_text(encoding="utf-8")
)
"""The contents of ``report_words.json``."""

_FIELD = re.compile(r"\{(\w+)\}")

FEW_UNITS: int = WORDS["thresholds"]["few_units"]
"""Below this many units the report warns that the large-sample interval is optimistic."""

BIAS_SHARE: float = WORDS["thresholds"]["bias_share"]
"""The bias caveat applies when the raters' shares of one category differ by this much."""

DIGITS: dict[str, int] = WORDS["numbers"]["digits"]
"""Decimals of an estimate, a standard error, a z, a share and a p-value."""

DISTINCT_RESAMPLES: int = WORDS["thresholds"]["distinct_resamples"]
"""Below this many distinct bootstrap samples the report flags the bootstrap interval as
coarse.  ``B`` = 9999 resamples drawn from fewer than 1000 distinct samples (which have very
unequal probabilities) leave the 2.5% and 97.5% percentiles to a handful of values: the
interval's ends are then a few of the coefficient's values, not quantiles of a distribution.
(1000 is the number of resamples Efron & Tibshirani 1993, ch. 19, ask for a percentile
interval.)"""


def template(key: str) -> Any:
    """The entry of ``report_words.json`` at a dotted key, "two_raters.design"."""
    node: Any = WORDS
    for part in key.split("."):
        node = node[part]
    return node


def say(key: str, /, **values: Any) -> str:
    """The template at ``key`` with each ``{name}`` replaced by ``str(values[name])``."""
    return fill(template(key), values)


def fill(text: str, values: dict[str, Any]) -> str:
    """``text`` with each ``{name}`` replaced by ``str(values[name])`` (a missing value is a
    KeyError: a template and its caller disagree)."""
    return _FIELD.sub(lambda m: str(values[m.group(1)]), text)


def software_sentence() -> str:
    """The sentence naming the software and its version: "computed with kappalib 0.1.0"."""
    # kappalib.__version__, the one place the version lives, read when a paragraph is written
    # (the package is imported by then); not an import, which would climb the stages of
    # tests/test_layout.py from the shared words to the package's top
    package = sys.modules[__name__.partition(".")[0]]
    return say("software", version=package.__version__)


def interval_ends(
    low: float, high: float, clipped_low: bool, clipped_high: bool, bound: float | None
) -> str:
    """What a report says after an interval "low to high": that it has zero width as
    printed, or which of its ends were clipped at the coefficient's range (``bound`` its
    smallest value, 1 its largest); "" when neither."""
    if number_text(low) == number_text(high):
        return say("interval_ends.zero_width")
    if clipped_low and clipped_high:
        return say("interval_ends.both", bound=number_text(bound))
    if clipped_high:
        return say("interval_ends.high")
    if clipped_low:
        return say("interval_ends.low", bound=number_text(bound))
    return ""


def distinct_samples(n_units: int, n_patterns: int) -> int:
    """How many distinct bootstrap samples ``n_units`` units with ``n_patterns`` distinct
    rating patterns allow: the multisets of size n over U patterns, C(n + U - 1, U - 1)."""
    return math.comb(n_units + n_patterns - 1, n_patterns - 1)


def plural(word: str, n: float) -> str:
    """The singular or plural form of ``word`` (an entry of "plural") for a count ``n``."""
    one, many = WORDS["plural"][word]
    return one if n == 1 else many


def coefficient_name(weighting: Any) -> str:
    """How the two-rater report names its kappa: "Cohen's kappa", "weighted kappa", ..."""
    names = WORDS["two_raters"]["coefficient"]
    if weighting is None:
        return names["none"]
    return names[weighting] if isinstance(weighting, str) else names["custom"]


def stored_weighting(weighting: Any) -> str | np.ndarray | None:
    """A report's weighting as it keeps it: None, a scheme's name, or the matrix as floats."""
    if weighting is None or isinstance(weighting, str):
        return weighting
    return np.asarray(weighting, dtype=np.float64)


def weight_name(weighting: Any) -> str:
    """How a report names a weighting: "linear weights", "custom weights"."""
    if isinstance(weighting, str):
        return say("weights.named", weighting=weighting)
    return say("weights.custom")


def number_text(x: float | None, digits: int = DIGITS["estimate"]) -> str:
    """A number as printed everywhere in the report (fixed decimals; '-0.000' never)."""
    if x is None:
        return WORDS["numbers"]["undefined"]
    s = f"{x:.{digits}f}"
    return s[1:] if s.startswith("-") and float(s) == 0 else s


def count_text(v: float) -> str:
    """A count as printed: whole numbers in full (1000000, never 1e+06), others to 12 digits.

    12 significant digits, not repr: a total of fractional counts then reads the same whatever
    the order of the additions (178.456, not 178.45600000000002), here and in the page's twin.
    """
    v = float(v)
    if v.is_integer():
        return str(int(v))
    return f"{v:.{WORDS['numbers']['count_significant_digits']}g}"


def p_text(p: float | None) -> str:
    """A p-value as printed: "p = 0.012", or "p < 0.001" below the limit."""
    if p is None:
        return WORDS["numbers"]["undefined"]
    limit = WORDS["numbers"]["p_below"]
    if p < limit:
        return say("p.below", limit=limit)
    return say("p.value", p=f"{p:.{DIGITS['p']}f}")


def label_text(v: Any) -> str:
    """A category as printed: a whole float (a numeric rating read with gaps) as an int."""
    if isinstance(v, (float, np.floating)) and float(v).is_integer():
        return str(int(v))
    return str(v)


def join_words(words: list[str]) -> str:
    """A list in a sentence: a; a and b; a, b and c."""
    sep = WORDS["lists"]
    if len(words) <= 1:
        return "".join(words)
    return sep["separator"].join(words[:-1]) + sep["last_separator"] + words[-1]


def join_list(words: list[str], separator: str = "separator") -> str:
    """Words joined by one of the separators of "lists" (", ", " < ", "; ")."""
    return WORDS["lists"][separator].join(words)


class Table(NamedTuple):
    """A table of a report: its header and rows (strings), the first cell of each row a
    header cell when ``row_headers``."""

    header: list[str]
    rows: list[list[str]]
    row_headers: bool = False


class Text(NamedTuple):
    """A sentence between a report's tables."""

    text: str


Block: TypeAlias = Table | Text


def render_markdown(blocks: list[Block], caveats: Any, notes: Any) -> str:
    """A report's blocks as Markdown, blank lines between them, then its caveats and notes."""
    parts = []
    for b in blocks:
        if isinstance(b, Text):
            parts.append(b.text)
            continue
        lines = ["| " + " | ".join(b.header) + " |", "|" + " --- |" * len(b.header)]
        lines += ["| " + " | ".join(row) + " |" for row in b.rows]
        parts.append("\n".join(lines))
    return "\n".join(["\n\n".join(parts), *lists_markdown(caveats, notes)])


def render_html(blocks: list[Block], caveats: Any, notes: Any) -> str:
    """The same blocks as HTML (escaped), for a notebook's ``_repr_html_``."""
    e = html.escape
    out = []
    for b in blocks:
        if isinstance(b, Text):
            out.append(f"<p>{e(b.text)}</p>")
            continue
        out.append("<table><thead><tr>" + "".join(f"<th>{e(h)}</th>" for h in b.header))
        out.append("</tr></thead><tbody>")
        for row in b.rows:
            first, rest = (row[0], row[1:]) if b.row_headers else (None, row)
            head = f"<th>{e(first)}</th>" if first is not None else ""
            out.append("<tr>" + head + "".join(f"<td>{e(v)}</td>" for v in rest) + "</tr>")
        out.append("</tbody></table>")
    out.append(lists_html(caveats, notes))
    return "".join(out)


def lists_markdown(caveats, notes) -> list[str]:
    """The caveats and notes of a report as Markdown bullet lists (empty lists left out)."""
    lines: list[str] = []
    for title, items in (("Caveats", caveats), ("Notes", notes)):
        if items:
            lines += ["", f"{title}:", ""] + [f"- {c}" for c in items]
    return lines


def lists_html(caveats, notes) -> str:
    """The same lists as HTML (escaped), for ``_repr_html_``."""
    out = []
    for title, items in (("Caveats", caveats), ("Notes", notes)):
        if items:
            out.append(f"<p>{title}:</p><ul>")
            out += [f"<li>{html.escape(str(c))}</li>" for c in items]
            out.append("</ul>")
    return "".join(out)
