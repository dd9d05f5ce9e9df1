"""The words and numbers of the reports: how a number, a count, a p-value, a label and a list
are printed (one place, so that the paragraph and its JavaScript twin on the page agree), and
the thresholds of the caveats."""

from __future__ import annotations

import html
from typing import Any, NamedTuple, TypeAlias

import numpy as np

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


def stored_weighting(weighting: Any) -> str | np.ndarray | None:
    """A report's weighting as it keeps it: None, a scheme's name, or the matrix as floats."""
    if weighting is None or isinstance(weighting, str):
        return weighting
    return np.asarray(weighting, dtype=np.float64)


def weight_name(weighting: Any) -> str:
    """How a report names a weighting: "linear weights", "custom weights"."""
    return f"{weighting} weights" if isinstance(weighting, str) else "custom weights"


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
    return "\n".join(["\n\n".join(parts), *_lists_markdown(caveats, notes)])


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
    out.append(_lists_html(caveats, notes))
    return "".join(out)


def _lists_markdown(caveats, notes) -> list[str]:
    """The caveats and notes of a report as Markdown bullet lists (empty lists left out)."""
    lines: list[str] = []
    for title, items in (("Caveats", caveats), ("Notes", notes)):
        if items:
            lines += ["", f"{title}:", ""] + [f"- {c}" for c in items]
    return lines


def _lists_html(caveats, notes) -> str:
    """The same lists as HTML (escaped), for ``_repr_html_``."""
    out = []
    for title, items in (("Caveats", caveats), ("Notes", notes)):
        if items:
            out.append(f"<p>{title}:</p><ul>")
            out += [f"<li>{html.escape(str(c))}</li>" for c in items]
            out.append("</ul>")
    return "".join(out)
