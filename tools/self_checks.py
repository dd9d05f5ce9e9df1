r"""Sphinx extension: self-checks with instant feedback, in the page and on paper.

A chapter adds a self-check with a ``self-check`` directive in a markdown cell; its body is
YAML. Two kinds:

* ``type: numeric``: a question on a table that the page draws afresh (``table:`` says how);
  the reader types a number, which the page judges with the JavaScript twin of kappalib
  (``book/_static/selfcheck/self_check_math.mjs``; ``compute:`` names the quantity, one of
  QUANTITIES below), and a typed value that is a known mistake (``mistakes:``) gets the
  explanation written for it::

      ```{self-check}
      type: numeric
      title: Kappa of a table you have not seen
      question: |
        Two raters label the cases below "yes" or "no". Compute Cohen's kappa of the table.
      compute: kappa          # the quantity (MATRIX_QUANTITIES, COUNTS_QUANTITIES)
      name: Kappa             # how the feedback names it ("Kappa is 0.52 to 2 decimals")
      ask: "κ to 2 decimals:" # the input's label
      digits: 2               # accepted within one unit of the last decimal (or tolerance:)
      table:
        labels: ["yes", "no"] # quote yes/no/on/off (YAML reads them as booleans)
        diagonal: [10, 40]    # each diagonal cell drawn from 10..40
        off_diagonal: [0, 12] # each other cell from 0..12 (or cells: K x K ranges;
        margins: true         # or fixed: a table; print: the table printed on paper)
      hint: |
        $p_o$ is the diagonal over $N$; $p_e = \sum_k r_k c_k / N^2$; then ...
      mistakes:
        - compute: p_o
          explain: |
            That is $p_o$, the raw agreement. Kappa subtracts ...
      answer: |
        On this table $p_o$ = {sc}`p_o:.4f` and $p_e$ = {sc}`p_e:.4f`, so $\kappa$ =
        {sc}`kappa:.4f`.
      ```

* ``type: choice``: one right option among several, each with its own explanation::

      ```{self-check}
      type: choice
      title: What $p_e$ is
      question: |
        Which sentence says what $p_e$ is?
      hint: |
        Look at what $p_e$ is computed from.
      options:
        - text: The share of cases on which the model guessed.
          explain: |
            Not so: nothing in $p_e$ comes from the cases themselves ...
        - text: The agreement of two raters with these marginals who ignore the cases.
          correct: true
          explain: |
            Yes: ...
      ```

Both have a ``hint`` (before the answer) and an ``answer`` (shown after a try, or on request).
In the ``answer`` and the explanations, ``{sc}`kappa:.3f``` writes a quantity of the current
table (the page's table on screen; the printed table on paper).

Each self-check is a ``<div class="self-check" data-self-check="...">``: the question, the
hint, the answer and the explanations rendered by Sphinx (MathJax typesets them with the
page), a static part (the printed table, or the lettered options) for paper and for a browser
without JavaScript, and the question's data for the page's module, which builds the live part
(``book/_static/selfcheck/self_checks.mjs``, bundled into ``_static/selfcheck/self_checks.js``
by explorers_build's bundler: a classic script, as Chromium loads no ES module from disk).

At the end of every chapter with self-checks, a section "Answers to the self-checks" gives,
for each, its hint and its answer on the printed table, computed here with kappalib (the
oracle of the page's twin: ``tests/test_self_checks.py``). It is hidden on a screen where the
live self-checks run, and printed (``make pdf``) after the chapter.
"""

from __future__ import annotations

import hashlib
import html
import json
import random
import re
from pathlib import Path

import yaml
from docutils import nodes
from docutils.statemachine import StringList
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

logger = logging.getLogger(__name__)

ROOT = Path(__file__).resolve().parent.parent
ENTRY = ROOT / "book/_static/selfcheck/self_checks.mjs"
BUNDLE = "selfcheck/self_checks.js"  # under _static/
KAPPA_JS = "kappa/kappa.js"  # under _static/: the twin, a classic script loaded first


# --- the quantities, with kappalib's value of each (the twin's names) -------------------------


def _kl():
    import kappalib as kl

    return kl


def _weighted(C, weighting, part):
    from kappalib import widgets

    return getattr(widgets.weighted_contributions(C, weighting), part)


# name -> (C, i, j) -> float or None, 0-based i and j; names with [] take one index, [,] two.
MATRIX_QUANTITIES = {
    "N": lambda C, i, j: float(C.sum()),
    "r[]": lambda C, i, j: float(C.sum(axis=1)[i]),
    "c[]": lambda C, i, j: float(C.sum(axis=0)[i]),
    "expected[,]": lambda C, i, j: float(_kl().expected_counts(C)[i, j]),
    "recall[]": lambda C, i, j: _kl().class_validity(C).sensitivity[i],
    "precision[]": lambda C, i, j: _kl().class_validity(C).ppv[i],
    "specific[]": lambda C, i, j: _specific(C, i),
    "p_o": lambda C, i, j: _kl().observed_agreement(C),
    "p_e": lambda C, i, j: _kl().expected_agreement(C),
    "kappa": lambda C, i, j: _kl().kappa(C),
    "kappa_linear": lambda C, i, j: _kl().kappa(C, weighting="linear"),
    "kappa_quadratic": lambda C, i, j: _kl().kappa(C, weighting="quadratic"),
    "d_o_linear": lambda C, i, j: _weighted(C, "linear", "observed_total"),
    "d_e_linear": lambda C, i, j: _weighted(C, "linear", "expected_total"),
    "d_o_quadratic": lambda C, i, j: _weighted(C, "quadratic", "observed_total"),
    "d_e_quadratic": lambda C, i, j: _weighted(C, "quadratic", "expected_total"),
    "kappa_max": lambda C, i, j: _kl().kappa_max(C),
    "pabak": lambda C, i, j: _kl().pabak(C),
    "prevalence_index": lambda C, i, j: _kl().prevalence_index(C),
    "bias_index": lambda C, i, j: _kl().bias_index(C),
    "mcc": lambda C, i, j: _kl().mcc(C),
    "scotts_pi": lambda C, i, j: _kl().scotts_pi(C),
    "ac1": lambda C, i, j: _kl().gwet_ac1(C),
    "bp": lambda C, i, j: _kl().brennan_prediger(C),
    "se": lambda C, i, j: _kl().kappa_standard_error(C),
    "se_null": lambda C, i, j: _kl().kappa_standard_error(C, null=True),
    "ci_low": lambda C, i, j: _ci(C, 0),
    "ci_high": lambda C, i, j: _ci(C, 1),
    "entropy": lambda C, i, j: _kl().off_diagonal_entropy(C),
    "asymmetry": lambda C, i, j: _kl().asymmetry(C),
}

COUNTS_QUANTITIES = {
    "units": lambda T, i, j: float(T.shape[0]),
    "raters": lambda T, i, j: float(T[0].sum()),
    "n[]": lambda T, i, j: float(T.sum(axis=0)[i]),
    "fleiss_kappa": lambda T, i, j: _kl().fleiss_kappa(T),
    "ac1_multi": lambda T, i, j: _kl().gwet_ac1_multi(T),
    "bp_multi": lambda T, i, j: _kl().brennan_prediger_multi(T),
}

QUANTITIES = {"matrix": MATRIX_QUANTITIES, "counts": COUNTS_QUANTITIES}


def _specific(C, i):
    """Specific agreement of class i, 2 C_ii / (r_i + c_i): kappalib's for a 2x2 table (its
    positive and negative agreement), and for any K through the one-against-the-rest 2x2."""
    import numpy as np

    K = C.shape[0]
    if K == 2:
        s = _kl().specific_agreement(C)
        return s.positive if i == 1 else s.negative
    rest = [k for k in range(K) if k != i]
    two = np.array([[C[np.ix_(rest, rest)].sum(), C[rest, i].sum()], [C[i, rest].sum(), C[i, i]]])
    return _kl().specific_agreement(two).positive


def _ci(C, end):
    ci = _kl().kappa_confint(C)
    return None if ci is None else ci[end]


NAME = re.compile(r"^([A-Za-z_][A-Za-z_0-9]*)(?:\[(\d+)(?:,\s*(\d+))?\])?$")


def quantity_value(name: str, table, kind: str = "matrix"):
    """kappalib's value of a quantity on a table (None where it is undefined)."""
    import math

    import numpy as np

    T = np.asarray(table, dtype=float)
    m = NAME.match(str(name).strip())
    if not m:
        raise ValueError(f"compute must be a quantity name such as kappa or r[2], got {name!r}")
    base, i, j = m.groups()
    key = base if i is None else f"{base}[]" if j is None else f"{base}[,]"
    table_q = QUANTITIES[kind]
    if key not in table_q:
        names = ", ".join(k.replace("[]", "[k]").replace("[,]", "[i,j]") for k in table_q)
        raise ValueError(f"compute must be one of {names} (for a {kind} table), got {name!r}")
    i0 = 0 if i is None else int(i) - 1
    j0 = 0 if j is None else int(j) - 1
    K = T.shape[1]
    if not (0 <= i0 < K and 0 <= j0 < K):
        return None
    try:
        v = table_q[key](T, i0, j0)
    except ValueError:
        return None
    if v is None:
        return None
    v = float(v)
    return v if math.isfinite(v) else None


def format_value(x, spec: str = ".3f") -> str:
    """The twin's format(): Python's, with "undefined" for None and no "-0.000"."""
    if x is None:
        return "undefined"
    if spec == "d":
        return str(round(x))
    if spec in ("g", ""):
        return f"{x:.6g}"
    s = format(x, spec)
    return s[1:] if re.fullmatch(r"-0\.?0*%?", s) else s


# --- the specification ---------------------------------------------------------------------

KEYS = {
    "numeric": {"type", "title", "question", "hint", "answer", "compute", "name", "ask",
                "digits", "tolerance", "table", "mistakes"},
    "choice": {"type", "title", "question", "hint", "answer", "options"},
}  # fmt: skip
TABLE_KEYS = {"kind", "K", "labels", "diagonal", "off_diagonal", "cells", "fixed", "print",
              "margins", "rows", "columns", "units", "raters", "weights"}  # fmt: skip


class SpecError(ValueError):
    pass


def _range(value, what: str) -> list[int]:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(x, int) and x >= 0 for x in value)
        or value[0] > value[1]
    ):
        raise SpecError(f"{what} must be a range [low, high] of whole counts, got {value!r}")
    return value


def _matrix(value, what: str) -> list[list[float]]:
    if (
        not isinstance(value, list)
        or len(value) < 2
        or not all(isinstance(r, list) and len(r) == len(value) for r in value)
        or not all(isinstance(x, (int, float)) and x >= 0 for r in value for x in r)
    ):
        raise SpecError(f"{what} must be a square table of counts, got {value!r}")
    return value


def table_spec(t) -> dict:
    """The table specification the page's module reads (self_check_math.mjs, drawOnce)."""
    if not isinstance(t, dict):
        raise SpecError(f"table must be a mapping (K, diagonal, off, ...), got {t!r}")
    unknown = set(t) - TABLE_KEYS
    if unknown:
        raise SpecError(f"table has unknown keys {sorted(unknown)}; it takes {sorted(TABLE_KEYS)}")
    kind = t.get("kind", "matrix")
    out: dict = {"kind": kind}
    for key in ("labels", "margins", "rows", "columns"):
        if key in t:
            out[key] = t[key]
    if kind == "counts":
        K = t.get("K", len(t.get("labels") or []))
        units, raters = t.get("units"), t.get("raters")
        if not (isinstance(K, int) and K >= 2):
            raise SpecError(f"a counts table needs K >= 2 categories (K or labels), got {K!r}")
        if not (isinstance(units, int) and 2 <= units <= 30):
            raise SpecError(f"a counts table needs units, 2 to 30, got {units!r}")
        if not (isinstance(raters, int) and 2 <= raters <= 20):
            raise SpecError(f"a counts table needs raters, 2 to 20, got {raters!r}")
        weights = t.get("weights", [1] * K)
        if not (
            isinstance(weights, list)
            and len(weights) == K
            and all(isinstance(w, (int, float)) and w > 0 for w in weights)
        ):
            raise SpecError(f"weights must be {K} positive numbers, got {weights!r}")
        out |= {"K": K, "units": units, "raters": raters, "weights": weights}
        if "fixed" in t:
            out["fixed"] = t["fixed"]
        if "print" in t:
            out["print"] = t["print"]
        return out
    if kind != "matrix":
        raise SpecError(f"table kind must be 'matrix' or 'counts', got {kind!r}")
    if "fixed" in t:
        out["fixed"] = _matrix(t["fixed"], "table fixed")
        K = len(out["fixed"])
    elif "cells" in t:
        cells = t["cells"]
        if not (isinstance(cells, list) and all(isinstance(r, list) for r in cells)):
            raise SpecError(f"table cells must be K rows of K ranges, got {cells!r}")
        K = len(cells)
        out["cells"] = [[_range(x, f"table cells[{i + 1}][{j + 1}]") for j, x in enumerate(r)]
                        for i, r in enumerate(cells)]  # fmt: skip
        if any(len(r) != K for r in cells) or K < 2:
            raise SpecError(f"table cells must be K rows of K ranges (K >= 2), got {cells!r}")
    else:
        K = t.get("K", len(t.get("labels") or []))
        if not (isinstance(K, int) and 2 <= K <= 8):
            raise SpecError(f"table needs K (2 to 8), labels, cells or fixed, got K = {K!r}")
        diagonal = _range(t.get("diagonal", [5, 30]), "table diagonal")
        off = _range(t.get("off_diagonal", [0, 10]), "table off_diagonal")
        out["cells"] = [[diagonal if i == j else off for j in range(K)] for i in range(K)]
    out["K"] = K
    if "labels" in out and (
        not isinstance(out["labels"], list)
        or len(out["labels"]) != K
        or not all(isinstance(x, (str, int)) and not isinstance(x, bool) for x in out["labels"])
    ):
        raise SpecError(
            f"table labels must be {K} names (quote yes, no, on and off: YAML reads them as "
            f"true or false), got {out['labels']!r}"
        )
    if "print" in t:
        out["print"] = _matrix(t["print"], "table print")
    return out


def check_spec(spec) -> dict:
    """The validated specification; SpecError names the first problem."""
    if not isinstance(spec, dict):
        raise SpecError("the body must be YAML: type, question, hint, answer, ...")
    kind = spec.get("type")
    if kind not in KEYS:
        raise SpecError(f"type must be 'numeric' or 'choice', got {kind!r}")
    unknown = set(spec) - KEYS[kind]
    if unknown:
        raise SpecError(f"unknown keys {sorted(unknown)}; a {kind} self-check takes "
                        f"{sorted(KEYS[kind])}")  # fmt: skip
    for key in ("question", "hint"):
        if not isinstance(spec.get(key), str) or not spec[key].strip():
            raise SpecError(f"{key} is required (markdown text)")
    if kind == "numeric":
        if not isinstance(spec.get("answer"), str) or not spec["answer"].strip():
            raise SpecError("answer is required (markdown text, with {sc}`name` for numbers)")
        spec["table"] = table_spec(spec.get("table"))
        tkind = spec["table"]["kind"]
        probe = [[1, 2], [3, 4]] if tkind == "matrix" else [[1, 1], [2, 0]]
        for name in [spec.get("compute"), *[m.get("compute") for m in spec.get("mistakes") or []]]:
            try:
                quantity_value(name, probe, tkind)
            except ValueError as exc:
                raise SpecError(str(exc)) from None
        digits = spec.setdefault("digits", 2)
        if not (isinstance(digits, int) and 0 <= digits <= 6):
            raise SpecError(f"digits must be a whole number 0 to 6, got {digits!r}")
        for m in spec.get("mistakes") or []:
            if set(m) != {"compute", "explain"}:
                raise SpecError(f"each mistake takes compute and explain, got {sorted(m)}")
    else:
        options = spec.get("options")
        if not isinstance(options, list) or len(options) < 2:
            raise SpecError("options must list at least 2 options (text, explain, correct)")
        for k, o in enumerate(options):
            if not isinstance(o, dict) or set(o) - {"text", "explain", "correct"}:
                raise SpecError(f"option {k + 1} takes text, explain and correct, got {o!r}")
            if not (isinstance(o.get("text"), str) and isinstance(o.get("explain"), str)):
                raise SpecError(f"option {k + 1} needs text and its own explain")
        if sum(bool(o.get("correct")) for o in options) != 1:
            raise SpecError("exactly one option must have correct: true")
    return spec


def draw_print_table(t: dict, seed: str, needs: list[str]):
    """The table printed on paper (and the first answer's): ``print`` or ``fixed`` if given,
    otherwise drawn from the specification with a seed from the self-check's place."""
    if "print" in t:
        return t["print"]
    if "fixed" in t:
        return t["fixed"]
    rand = random.Random(int(hashlib.sha256(seed.encode()).hexdigest()[:12], 16))
    for _ in range(500):
        if t["kind"] == "counts":
            T = []
            for _ in range(t["units"]):
                row = [0] * t["K"]
                for _ in range(t["raters"]):
                    row[rand.choices(range(t["K"]), weights=t["weights"])[0]] += 1
                T.append(row)
        else:
            T = [[rand.randint(lo, hi) for lo, hi in r] for r in t["cells"]]
        if all(quantity_value(n, T, t["kind"]) is not None for n in needs):
            return T
    raise SpecError(f"no table of this specification gives {needs} in 500 draws")


# --- nodes ---------------------------------------------------------------------------------


class SelfCheckNode(nodes.General, nodes.Element):
    """The self-check's <div>, with the page module's data."""


class ScValue(nodes.Inline, nodes.TextElement):
    """A number of the current table, written by the page (and filled here for paper)."""


def visit_self_check(self, node):
    attrs = {"data-self-check": json.dumps(node["spec"], separators=(",", ":"))}
    self.body.append(self.starttag(node, "div", CLASS="self-check", **attrs))


def depart_self_check(self, node):
    self.body.append("</div>\n")


def visit_sc_value(self, node):
    self.body.append(
        self.starttag(
            node, "span", "", CLASS="sc-value", **{"data-q": node["q"], "data-fmt": node["fmt"]}
        )
    )


def depart_sc_value(self, node):
    self.body.append("</span>")


def sc_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    """{sc}`kappa:.3f`: the quantity's value on the current table, formatted."""
    q, _, fmt = text.partition(":")
    node = ScValue(rawtext, "…", q=q.strip(), fmt=fmt.strip() or ".3f")
    return [node], []


def _div(*classes: str) -> nodes.container:
    return nodes.container(classes=list(classes))


def table_html(T, t: dict) -> str:
    """The printed table (the same markup as the page module's tableElement)."""
    counts = t["kind"] == "counts"
    labels = t.get("labels") or [str(k + 1) for k in range(len(T[0]))]
    esc = html.escape
    if counts:
        caption = "Rows: the units; columns: how many raters chose each category"
    else:
        caption = (f"Rows: {t.get('rows', 'reference (rater 1)')}; columns: "
                   f"{t.get('columns', 'prediction (rater 2)')}")  # fmt: skip
    margins = t.get("margins") and not counts
    head = "<td></td>" + "".join(f'<th scope="col">{esc(str(x))}</th>' for x in labels)
    if margins:
        head += '<th scope="col" class="sc-total">total</th>'
    body = []
    for i, row in enumerate(T):
        name = f"unit {i + 1}" if counts else str(labels[i])
        cells = "".join(f"<td>{_count(x)}</td>" for x in row)
        if margins:
            cells += f'<td class="sc-total">{_count(sum(row))}</td>'
        body.append(f'<tr><th scope="row">{esc(name)}</th>{cells}</tr>')
    foot = ""
    if margins:
        c = [sum(row[j] for row in T) for j in range(len(T[0]))]
        foot = (
            '<tfoot><tr><th scope="row" class="sc-total">total</th>'
            + "".join(f'<td class="sc-total">{_count(x)}</td>' for x in c)
            + f'<td class="sc-total">{_count(sum(c))}</td></tr></tfoot>'
        )
    return (
        f'<table class="sc-table"><caption>{esc(caption)}</caption><thead><tr>{head}</tr>'
        f"</thead><tbody>{''.join(body)}</tbody>{foot}</table>"
    )


def _count(x) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


class SelfCheckDirective(SphinxDirective):
    """```{self-check}``` with a YAML body (see the module docstring)."""

    has_content = True
    optional_arguments = 0

    def _markdown(self, text: str, into: nodes.Element) -> nodes.Element:
        self.state.nested_parse(StringList(text.splitlines(), self.get_source_info()[0]),
                                self.content_offset, into)  # fmt: skip
        return into

    def run(self):
        try:
            spec = check_spec(yaml.safe_load("\n".join(self.content)))
        except yaml.YAMLError as exc:
            raise self.error(f"self-check: the body is not valid YAML: {exc}") from None
        except SpecError as exc:
            raise self.error(f"self-check: {exc}") from None
        serial = self.env.temp_data.setdefault("self_check_serial", 0) + 1
        self.env.temp_data["self_check_serial"] = serial
        ident = f"self-check-{Path(self.env.docname).name}-{serial}"
        data = {"type": spec["type"]}
        if spec["type"] == "numeric":
            data |= {k: spec[k] for k in ("compute", "digits", "table", "name", "ask", "tolerance")
                     if k in spec}  # fmt: skip
            data["table"] = {k: v for k, v in spec["table"].items() if k != "print"}
            data["mistakes"] = [{"compute": m["compute"]} for m in spec.get("mistakes") or []]
        root = SelfCheckNode(spec=data, ids=[ident])
        root["print_table"] = None
        title = nodes.paragraph(classes=["sc-title"])
        title += nodes.strong("", "Self-check", classes=["sc-number"])
        if spec.get("title"):
            title += nodes.Text(" ")
            inline, messages = self.state.inline_text(spec["title"], self.lineno)
            title += nodes.inline("", "", *inline, classes=["sc-name"])
            title += messages
        root += title
        root += self._markdown(spec["question"], _div("sc-question"))
        static = _div("sc-static")
        if spec["type"] == "numeric":
            needs = [spec["compute"], *[m["compute"] for m in spec.get("mistakes") or []]]
            T = draw_print_table(spec["table"], f"{self.env.docname}:{serial}", needs)
            root["print_table"] = T
            static += nodes.raw("", table_html(T, spec["table"]), format="html")
        else:
            options = nodes.enumerated_list(enumtype="loweralpha", prefix="(", suffix=")",
                                            classes=["sc-options-static"])  # fmt: skip
            for o in spec["options"]:
                item = nodes.list_item()
                self._markdown(o["text"], item)
                options += item
            static += options
        static += nodes.paragraph("", "The answer is at the end of the chapter.",
                                  classes=["sc-see-answer"])  # fmt: skip
        root += static
        root += self._markdown(spec["hint"], _div("sc-hint"))
        if spec["type"] == "numeric":
            root += self._markdown(spec["answer"], _div("sc-answer"))
            for m in spec.get("mistakes") or []:
                root += self._markdown(m["explain"], _div("sc-mistake"))
        else:
            correct = next(k for k, o in enumerate(spec["options"]) if o.get("correct"))
            answer = _div("sc-answer")
            answer += nodes.paragraph(
                "", f"The answer is ({chr(97 + correct)}).", classes=["sc-answer-letter"]
            )
            self._markdown(spec["options"][correct]["explain"], answer)
            if spec.get("answer"):
                self._markdown(spec["answer"], answer)
            root += answer
            for o in spec["options"]:
                opt = _div("sc-option", *(["sc-correct"] if o.get("correct") else []))
                opt += self._markdown(o["text"], _div("sc-option-text"))
                opt += self._markdown(o["explain"], _div("sc-option-explain"))
                root += opt
        return [root]


# --- after the references are resolved: numbers, printed values, the answers section -------


def _chapter_number(env, docname: str) -> str:
    numbers = env.toc_secnumbers.get(docname, {})
    first = numbers.get("") or (min(numbers.values(), key=len) if numbers else ())
    return ".".join(str(n) for n in first[:1])


def _fill_values(node: nodes.Element, T, kind: str) -> None:
    for v in node.findall(ScValue):
        value = quantity_value(v["q"], T, kind)
        v.children = [nodes.Text(format_value(value, v["fmt"]))]


def _classed(name: str):
    return lambda n: isinstance(n, nodes.Element) and name in n.get("classes", [])


def _answers_section(checks: list[SelfCheckNode], docname: str) -> nodes.container:
    # A container with an h2 rubric, not a section: a section added after the table of contents
    # was collected would borrow the chapter's number.
    section = nodes.container(
        ids=[f"self-check-answers-{Path(docname).name}"], classes=["sc-answers"]
    )
    section += nodes.raw(
        "", '<h2 class="sc-answers-title">Answers to the self-checks</h2>', format="html"
    )
    for node in checks:
        box = nodes.container(classes=["sc-answer-entry"])
        head = nodes.paragraph()
        ref = nodes.reference("", "", internal=True, refid=node["ids"][0])
        ref += nodes.strong("", node["number_text"])
        head += ref
        box += head
        hint = next(iter(node.findall(_classed("sc-hint"))), None)
        if hint is not None:
            h = hint.deepcopy()
            h["classes"] = ["sc-printed-hint"]
            first = next(iter(h.findall(nodes.paragraph)), None)
            if first is not None:
                first.insert(0, nodes.emphasis("", "Hint. "))
            box += h
        answer = next(iter(node.findall(_classed("sc-answer"))), None)
        if answer is not None:
            a = answer.deepcopy()
            a["classes"] = ["sc-printed-answer"]
            first = next(iter(a.findall(nodes.paragraph)), None)
            if first is not None:
                first.insert(0, nodes.emphasis("", "Answer. "))
            box += a
        section += box
    return section


def resolve(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Number the self-checks, write the printed table's values, add the answers sections
    (one per chapter: in the single-page build, one per inlined document)."""
    checks = list(doctree.findall(SelfCheckNode))
    if not checks:
        return
    groups: dict[int, tuple[nodes.Element, str, list]] = {}
    for node in checks:
        holder, holder_doc = doctree, docname
        parent = node.parent
        while parent is not None:
            if isinstance(parent, addnodes.start_of_file):
                holder, holder_doc = parent, parent["docname"]
                break
            parent = parent.parent
        groups.setdefault(id(holder), (holder, holder_doc, []))[2].append(node)
    for holder, doc, group in groups.values():
        chapter = _chapter_number(app.env, doc)
        for n, node in enumerate(group, start=1):
            number = f"{chapter}.{n}" if chapter else str(n)
            node["number_text"] = f"Self-check {number}"
            for strong in node.findall(nodes.strong):
                if "sc-number" in strong.get("classes", []):
                    strong.children = [nodes.Text(f"Self-check {number}")]
                    break
            if node["print_table"] is not None:
                _fill_values(node, node["print_table"], node["spec"]["table"]["kind"])
        target = next(iter(holder.findall(nodes.section)), holder)
        target += _answers_section(group, doc)


# --- the page: the bundle and its scripts ----------------------------------------------------


def write_bundle(app: Sphinx, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    import explorers_build  # tools/, beside this module (local_extensions puts it on sys.path)

    outdir = Path(app.outdir)
    target = outdir / "_static" / BUNDLE
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(
        explorers_build.bundle(ENTRY, None).replace(
            "// Built by tools/explorers_build.py",
            "// Built by tools/self_checks.py with tools/explorers_build.py",
        ),
        encoding="utf-8",
    )
    pages = 0
    for page in sorted(outdir.rglob("*.html")):
        if page.relative_to(outdir).parts[0] in {"_static", "_sources", "_images"}:
            continue
        text = page.read_text(encoding="utf-8")
        if 'class="self-check"' not in text:
            continue
        up = "../" * (len(page.relative_to(outdir).parts) - 1) + "_static/"
        tags = "".join(
            f'<script defer src="{up}{script}"></script>\n'
            for script in (KAPPA_JS, BUNDLE)
            if f'src="{up}{script}' not in text
        )
        page.write_text(text.replace("</head>", tags + "</head>", 1), encoding="utf-8")
        pages += 1
    logger.info("self_checks: the live self-checks on %d pages", pages)


def setup(app: Sphinx) -> dict:
    app.add_node(SelfCheckNode, html=(visit_self_check, depart_self_check))
    app.add_node(ScValue, html=(visit_sc_value, depart_sc_value))
    app.add_directive("self-check", SelfCheckDirective)
    app.add_role("sc", sc_role)
    app.connect("doctree-resolved", resolve)
    app.connect("build-finished", write_bundle)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
