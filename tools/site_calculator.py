"""The browser check of the agreement calculator (book/calculator.md), for tools/check_site.py.

``check_calculator(page, url, result)`` drives the calculator page in Playwright's Chromium
and compares every number it shows with kappalib's:

* 50 random matrices (K = 2..8, zeros, every weighting: none, linear, quadratic, linear with
  scores, a custom matrix; confidence levels 80-99%; named and unnamed categories) are
  typed into the page, and two CSV files are opened through its file field (two columns of
  labels with a header; a ratings table with subject ids and blanks);
* each value the page shows (its full value in ``data-value`` and the three decimals on
  screen), each interval and standard error, the heatmap's counts and the methods paragraph
  are compared with kappalib, computed here from the same data (to 1e-12; the paragraph word
  for word);
* the kappalib code the page shows is run in Python (one subprocess for all of them), and
  what it prints must equal what the page shows: the code reproduces the page;
* bad input (a ragged matrix, a negative count, one class of a 1 x 1 table, an unknown
  category, a score that is not a number, a name given twice) gets one sentence beside its
  field, saying what is wrong, and no result;
* every case in one class of a K x K table (K >= 2) shows the values kappalib defines and
  "undefined" for the others, and kappalib's reason for writing no paragraph (issue 30, 17);
* a first line of column names with the header box unticked (pasted or opened) is refused
  with a sentence naming the box; ticked, or said to be a case through the order field, the
  numbers are kappalib's (issue 30, 16);
* the keyboard alone reaches the controls and computes;
* with results on the page (an 8 x 8 table with long names), the phone probe at 390 px and,
  when ``axe_js`` is given, the axe-core audit: the filled page, not only the empty form.

``result`` needs ``fail(message)`` and a ``notes`` list (check_site's PageResult).
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np

import kappalib as kl
from kappalib._input.labels import case_variants
from kappalib._input.missing import DEFAULT_TOKENS, NA_VALUES, classify

TOOLS = Path(__file__).resolve().parent
sys.path.insert(0, str(TOOLS))
from browser import js  # noqa: E402  (tools/: the page probes)

SEED = 20261225
TOL = 1e-12
LEVELS = [0.8, 0.9, 0.95, 0.99]
NAMES = ["absent", "mild", "moderate", "severe", "critical", "yes", "no", "A", "B", "C",
         "D", "E", "F", "G", "H", "very long category name"]  # fmt: skip

# What the page shows, read in one go: every [data-key] with its text, the heatmap's
# counts, the paragraph, the code, the error sentences and the status line.
READ_PAGE = """() => {
  const values = {};
  for (const el of document.querySelectorAll('#kc-results [data-key]')) {
    const own = el.cloneNode(true);
    for (const inner of own.querySelectorAll('[data-key]')) inner.remove();
    values[el.dataset.key] = {value: el.dataset.value, text: own.textContent.trim()};
  }
  const cells = [...document.querySelectorAll('#kc-heatmap-out tbody tr')].map(
    tr => [...tr.querySelectorAll('td.kc-cell')].map(td => td.textContent.trim()));
  const errors = {};
  for (const f of ['data', 'order', 'weights']) {
    const box = document.getElementById('kc-' + f + '-error');
    errors[f] = box.hidden ? '' : box.textContent.trim();
  }
  return {
    values, cells, errors,
    shown: !document.getElementById('kc-results').hidden,
    paragraph: document.getElementById('kc-paragraph').textContent,
    paragraph_note: document.getElementById('kc-paragraph-note').textContent,
    code: document.getElementById('kc-code').textContent,
    status: document.getElementById('kc-status').textContent,
    order: (document.getElementById('kc-order-list') || {}).textContent || '',
    read_note: document.getElementById('kc-read-note').hidden ? ''
      : document.getElementById('kc-read-note').textContent,
  };
}"""

RUNNER = textwrap.dedent(
    """
    import contextlib, io, json, sys, traceback
    out = []
    for code in json.load(sys.stdin):
        buf = io.StringIO()
        try:
            with contextlib.redirect_stdout(buf):
                exec(compile(code, "<calculator>", "exec"), {"__name__": "__calculator__"})
            out.append({"stdout": buf.getvalue()})
        except Exception:
            out.append({"error": traceback.format_exc(limit=3), "stdout": buf.getvalue()})
    json.dump(out, sys.stdout)
    """
)


def _fmt(x, digits=3):
    """The page's (and kappalib's report's) number: fixed decimals, never '-0.000'."""
    if x is None:
        return "undefined"
    s = f"{x:.{digits}f}"
    return s[1:] if s.startswith("-") and float(s) == 0 else s


def _close(a, b):
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= TOL * max(1.0, abs(b))


# --- the cases -------------------------------------------------------------------------------


def random_matrices(n, seed=SEED):
    """n matrix cases: counts, names (or None), weighting, scores, custom weights, level."""
    rng = np.random.default_rng(seed)
    cases = []
    while len(cases) < n:
        i = len(cases)
        K = 2 + i % 7
        C = rng.integers(0, 41, size=(K, K)) * (rng.random((K, K)) < 0.75)
        if i % 5 == 0:
            C[np.diag_indices(K)] += rng.integers(5, 80, size=K)
        used = (C.sum(axis=0) + C.sum(axis=1)) > 0
        if used.sum() < 2:
            continue
        kind = ["none", "linear", "quadratic", "scores", "custom"][i % 5]
        weights = scores = None
        weighting = None
        if kind in ("linear", "quadratic"):
            weighting = kind
        elif kind == "scores":
            weighting = "linear" if i % 2 else "quadratic"
            scores = sorted(rng.choice(np.arange(0, 30), size=K, replace=False).tolist())
        elif kind == "custom":
            W = np.round(rng.random((K, K)) * 4, 2)
            W[np.diag_indices(K)] = 0
            weights = W.tolist()
            weighting = "custom"
        names = None
        if i % 3:
            names = [str(v) for v in rng.choice(NAMES[:-1], size=K, replace=False)]
        cases.append(
            {
                "C": C.tolist(),
                "names": names,
                "weighting": weighting,
                "scores": scores,
                "weights": weights,
                "level": LEVELS[i % 4],
                "raters": ("rater 1", "rater 2") if i % 4 else ("the nurse", "the doctor"),
            }
        )
    return cases


def labels_csv():
    """Two columns of labels with a header: 3 ordered grades, one never used by rater 2."""
    rng = np.random.default_rng(SEED + 1)
    grades = ["low", "medium", "high", "very high"]
    rows = ["reader_a,reader_b"]
    pairs = []
    for _ in range(87):
        a = int(rng.integers(0, 4))
        b = min(3, max(0, a + int(rng.choice([-1, 0, 0, 0, 1]))))
        if b == 3 and a != 3:
            b = 2
        pairs.append((grades[a], grades[b]))
        rows.append(f"{grades[a]},{grades[b]}")
    return "\n".join(rows) + "\n", pairs, grades


def ratings_csv():
    """A ratings table: subject id, 4 raters, values 1-5, blanks for missing ratings."""
    rng = np.random.default_rng(SEED + 2)
    rows = ["subject,r1,r2,r3,r4"]
    data = []
    for u in range(40):
        truth = int(rng.integers(1, 6))
        unit = []
        for _ in range(4):
            v = min(5, max(1, truth + int(rng.choice([-1, 0, 0, 0, 1]))))
            unit.append(None if rng.random() < 0.15 else v)
        if sum(v is not None for v in unit) < 2:
            unit[0], unit[1] = truth, truth
        data.append(unit)
        rows.append(",".join([f"s{u + 1:03d}"] + ["" if v is None else str(v) for v in unit]))
    return "\n".join(rows) + "\n", data


def _spelled(rng, token):
    """A missing-value token as a file may spell it: any case, sometimes padded."""
    text = "".join(c.upper() if rng.random() < 0.5 else c.lower() for c in token)
    return f" {text} " if rng.random() < 0.15 else text


def missing_cases(n=10, seed=SEED + 4):
    """Issue 30: random CSVs with kappalib's missing-value tokens (NA_VALUES, any case, some
    padded), blanks and trailing blank lines, for two columns of labels and for ratings
    tables, words ("none" among them: a category) or numbers; in some, the order field
    lists a token (then a category) and the categories are spelled in any case (each read
    as the one it spells). Each: (what, enter's options,
    expected), expected ("two", y1, y2, labels) or ("ratings", data, labels), the cells as
    written (a blank line at the end is no case: kappalib's command line skips it)."""
    rng = np.random.default_rng(seed)
    cases = []
    for i in range(n):
        ratings = i % 2 == 1
        numeric = i % 4 in (0, 3)
        cats = [1, 2, 3, 4] if numeric else ["none", "mild", "moderate", "severe"]
        listed_token = None
        if i % 3 == 2 and not numeric:
            listed_token = NA_VALUES[(i // 3) % len(NA_VALUES)]  # "NA": "not applicable"
            cats = [*cats, listed_token]
        tokens = [t for t in NA_VALUES if t.casefold() != (listed_token or "").casefold()]
        p_missing = float(rng.uniform(0.05, 0.3))
        width = int(rng.integers(3, 6)) if ratings else 2
        rows = []
        for _ in range(int(rng.integers(15, 45))):
            truth = int(rng.integers(len(cats)))
            row = []
            for _ in range(width):
                k = min(len(cats) - 1, max(0, truth + int(rng.choice([-1, 0, 0, 0, 1]))))
                cell = cats[k]
                if rng.random() < p_missing:
                    cell = "" if rng.random() < 0.3 else _spelled(rng, str(rng.choice(tokens)))
                elif listed_token is not None and rng.random() < 0.2:
                    cell = _spelled(rng, cell).strip()  # 'Mild' for the listed 'mild'
                row.append(cell)
            if ratings and sum(not (isinstance(c, str) and c.strip().casefold() in
                                    DEFAULT_TOKENS) for c in row) < 2:  # fmt: skip
                row[0], row[1] = cats[truth], cats[truth]
            rows.append(row)
        text = "\n".join(",".join(str(c) for c in row) for row in rows)
        text += "\n" + ",".join([""] * width) * 1 + "\n"  # a blank row from a spreadsheet
        order = None
        if listed_token is not None or i % 4 == 3:
            order = [str(c) for c in cats]
        opts = {"kind": "ratings" if ratings else "labels", "text": text,
                "order": ", ".join(order or [])}  # fmt: skip
        what = (f"{'ratings' if ratings else 'labels'}, {'numbers' if numeric else 'words'}"
                f"{', ' + repr(listed_token) + ' listed' if listed_token else ''}")  # fmt: skip
        labels = cats if order else None
        rows = [[c.strip() if isinstance(c, str) else c for c in row] for row in rows]  # as read
        if ratings:
            cases.append((what, opts, ("ratings", rows, labels)))
        else:
            y1, y2 = [r[0] for r in rows], [r[1] for r in rows]
            cases.append((what, opts, ("two", y1, y2, labels)))
    return cases


# --- what kappalib says ---------------------------------------------------------------------


def expected_two_rater(C, labels, weighting, scores, level, raters):
    """kappalib's values under the page's keys, and its paragraph (or the ValueError with
    which kappalib refuses to report the table, e.g. every case in one class)."""
    C = np.asarray(C, dtype=float)
    W = np.asarray(weighting) if isinstance(weighting, list) else weighting
    wk = {"weighting": W, "scores": scores}
    out = {
        "observed_agreement": kl.observed_agreement(C),
        "expected_agreement": kl.expected_agreement(C),
        "kappa": kl.kappa(C),
        "kappa_interval": kl.kappa_confint(C, confidence_level=level),
        "kappa_se": kl.kappa_standard_error(C),
        "kappa_max": kl.kappa_max(C),
        "pabak": kl.pabak(C),
        "scotts_pi": kl.scotts_pi(C),
        "gwet_ac1": kl.gwet_ac1(C),
        "brennan_prediger": kl.brennan_prediger(C),
        "mcc": kl.mcc(C),
    }
    if (C == np.round(C)).all() and C.sum() <= 100_000:
        # the cases behind the table, as two raters' codes (raters x units)
        pairs = np.repeat(np.argwhere(np.ones_like(C, dtype=bool)), C.astype(int).ravel(), axis=0)
        out["alpha_nominal"] = kl.krippendorff_alpha(
            pairs.T.tolist(), level_of_measurement="nominal", layout="raters x units"
        )
    if weighting is not None:
        out["weighted_kappa"] = kl.kappa(C, **wk)
        out["weighted_kappa_interval"] = kl.kappa_confint(C, confidence_level=level, **wk)
        out["weighted_kappa_se"] = kl.kappa_standard_error(C, **wk)
        out["gwet_ac2"] = kl.gwet_ac1(C, **wk)
        out["brennan_prediger_weighted"] = kl.brennan_prediger(C, **wk)
    if C.shape[0] == 2:
        out["prevalence_index"] = kl.prevalence_index(C)
        out["bias_index"] = kl.bias_index(C)
    try:
        report = kl.agreement_report(
            C=C, labels=labels, confidence_level=level, raters=tuple(raters), **wk
        )
    except ValueError as refusal:
        return out, refusal
    return out, report.methods_paragraph()


def expected_ratings(data, categories, levels=("nominal", "ordinal", "interval", "ratio")):
    layout = "units x raters"
    out = {
        f"alpha_{lv}": kl.krippendorff_alpha(
            data, level_of_measurement=lv, layout=layout, labels=categories
        )
        for lv in levels
    }
    table = kl.rating_table(data, layout=layout, labels=categories)
    out["gwet_ac1_multi"] = kl.gwet_ac1_multi(table)
    out["brennan_prediger_multi"] = kl.brennan_prediger_multi(table)
    return out


# --- comparing ------------------------------------------------------------------------------


def _same(page, value):
    """A page value against kappalib's: numbers to 1e-12, None as undefined; an interval
    kappalib leaves undefined (low and high None) is one "undefined" on the page."""
    if isinstance(value, tuple) and all(v is None for v in value):
        return page is None
    if isinstance(value, tuple):
        return isinstance(page, tuple) and all(map(_close, page, value))
    return not isinstance(page, tuple) and _close(page, value)


def _page_number(raw):
    if raw in (None, "null"):
        return None
    if "," in raw:
        return tuple(None if v == "null" else float(v) for v in raw.split(","))
    return float(raw)


def compare_values(where, shown, expected, fail):
    """Each expected value against the page's data-value and its text; returns the count."""
    n = 0
    for key, want in expected.items():
        got = shown["values"].get(key)
        if got is None:
            fail(f"{where}: the page shows no {key} (kappalib gives {want!r})")
            continue
        value = _page_number(got["value"])
        ok = _same(value, want)
        if isinstance(want, tuple):
            text = f"{_fmt(want[0])} to {_fmt(want[1])}"
            if want[0] is None and want[1] is None:
                text = "undefined"
        else:
            text = _fmt(want, 4) if key.endswith("_se") else _fmt(want)
            if key.endswith("_se"):
                text = f"SE {text}"
        if not ok:
            fail(f"{where}: {key} is {got['value']} on the page, {want!r} in kappalib")
        elif got["text"] != text:
            fail(f"{where}: {key} reads {got['text']!r} on the page, kappalib's is {text!r}")
        n += 1
    return n


def _printed_value(text):
    """A number, None, or an interval as Python prints it: kappalib's ConfidenceInterval
    (``ConfidenceInterval(low=..., high=...)``, a named tuple) or a plain tuple."""
    node = ast.parse(text, mode="eval").body
    if isinstance(node, ast.Call) and [k.arg for k in node.keywords] == ["low", "high"]:
        return tuple(ast.literal_eval(k.value) for k in node.keywords)
    return ast.literal_eval(node)


def compare_code_output(where, stdout, shown, fail):
    """What the page's kappalib code printed against what the page shows."""
    n = 0
    for line in stdout.splitlines():
        key, _, rest = line.partition(" ")
        if key == "paragraph":
            if rest != shown["paragraph"]:
                fail(f"{where}: the code's paragraph differs from the page's:\n  code: {rest}"
                     f"\n  page: {shown['paragraph']}")  # fmt: skip
            n += 1
            continue
        value = _printed_value(rest)
        got = shown["values"].get(key)
        if got is None:
            fail(f"{where}: the code prints {key}, which the page does not show")
            continue
        if not _same(_page_number(got["value"]), value):
            fail(f"{where}: the code prints {key} = {value!r}, the page shows {got['value']}")
        n += 1
    return n


# --- driving the page ------------------------------------------------------------------------


def _csv(rows):
    return "\n".join(", ".join(f"{v:g}" for v in row) for row in rows)


def enter(
    page,
    *,
    kind,
    text=None,
    order="",
    weighting="none",
    scores="",
    weights="",
    level=0.95,
    raters=("rater 1", "rater 2"),
    header=False,
    id_column=False,
    file=None,
):
    """Set every control of the form, then press Compute."""
    page.check(f'input[name="kc-kind"][value="{kind}"]')
    if file is not None:
        page.set_input_files("#kc-file", files=[file])
        page.wait_for_function(
            "name => document.getElementById('kc-example-note').textContent.includes(name)",
            arg=file["name"],
        )
    else:
        page.fill("#kc-data", text)
    if kind != "matrix":
        page.set_checked("#kc-header", header)
        page.set_checked("#kc-id", id_column)
    page.fill("#kc-order", order)
    page.select_option("#kc-weighting", weighting)
    if weighting in ("linear", "quadratic"):
        page.fill("#kc-scores", scores)
    if weighting == "custom":
        page.fill("#kc-weights", weights)
    page.select_option("#kc-level", str(level))
    if kind != "ratings":
        page.fill("#kc-rater1", raters[0])
        page.fill("#kc-rater2", raters[1])
    page.click("button.kc-compute")
    return page.evaluate(READ_PAGE)


def _bad_inputs(page, fail):
    cases = [
        ("a ragged matrix", "data", {"kind": "matrix", "text": "3, 1, 0\n2, 5\n0, 1, 4"}),
        ("negative counts", "data", {"kind": "matrix", "text": "3, -1\n2, 5"}),
        ("one class only (labels)", "data", {"kind": "labels", "text": "yes,yes\nyes,yes"}),
        (
            "an unknown category",
            "order",
            {"kind": "labels", "text": "low,high\nhigh,high\nmid,low", "order": "low, high"},
        ),
        ("not square", "data", {"kind": "matrix", "text": "1, 2, 3\n4, 5, 6"}),
    ]
    # issue 30, item 17: each sentence says what is wrong, beside the field that holds it
    said = [
        (
            "a score that is not a number",
            "weights",
            {"kind": "matrix", "text": "5, 1\n2, 7", "weighting": "linear", "scores": "1, two"},
            ('"two"', "not a number"),
        ),
        (
            "a category named twice in the order field of a table",
            "order",
            {"kind": "matrix", "text": "5, 1\n2, 7", "order": "a, a"},
            ('"a"', "twice"),
        ),
        # issue 30, item 12: a table of proportions (or of fractional counts) has lost its
        # N; kappalib refuses its standard error and interval, in these words
        # issue 30, item 2: 'Moderate' and 'moderate' without an order are refused, both named
        (
            "one category spelled two ways, no order",
            "data",
            {"kind": "labels", "text": "mild,moderate\nModerate,moderate\nmild,mild\n"},
            (
                '"moderate" (line 1, column 2)',
                '"Moderate" (line 2, column 1)',
                "differ only by case",
            ),
        ),
        (
            "a table of proportions",
            "data",
            {"kind": "matrix", "text": "0.4, 0.1\n0.05, 0.45"},
            ("0.4", "whole number", *_fraction_words([[0.4, 0.1], [0.05, 0.45]])),
        ),
        (
            "a table of fractional counts",
            "data",
            {"kind": "matrix", "text": "10, 2, 0\n3, 12.5, 1\n0, 2, 9"},
            (
                "Line 2, column 2 holds 12.5",
                *_fraction_words([[10, 2, 0], [3, 12.5, 1], [0, 2, 9]]),
            ),
        ),
    ]
    for what, field, opts in cases:
        refused(f"bad input ({what})", field, enter(page, **opts), fail)
    for what, field, opts, says in said:
        shown = enter(page, **opts)
        refused(f"bad input ({what})", field, shown, fail, says=says)
        if "ratings are numbers" in shown["errors"][field]:
            fail(f"bad input ({what}): the sentence speaks of ratings: {shown['errors'][field]!r}")
    return len(cases) + len(said)


def _fraction_words(C):
    """The words of kappalib's refusal of a table that is not whole counts, which the page's
    sentence repeats: "a table of proportions has lost its N" and "(the proportions times
    the number of cases)"."""
    try:
        kl.kappa_confint(C)
    except ValueError as refusal:
        said = str(refusal)
    else:
        raise AssertionError(f"kappalib gives an interval for {C}: the check expected a refusal")
    words = ["a table of proportions has lost its N", "(the proportions times the number of cases)"]
    missing = [w for w in words if w not in said]
    assert not missing, f"kappalib's refusal no longer says {missing}: {said!r}"
    return words


def refused(where, field, shown, fail, *, says=()):
    """One sentence beside ``field`` (holding each of ``says``), no other field flagged and
    no result on the page."""
    message = shown["errors"][field]
    others = [f for f, m in shown["errors"].items() if m and f != field]
    sentences = [s for s in message.replace("e.g.", "eg").split(". ") if s]
    if not message:
        fail(f"{where}: no sentence beside the {field} field; the page says {shown['status']!r}")
    elif len(sentences) > 2 or not message.endswith("."):
        fail(f"{where}: not one clear sentence: {message!r}")
    for words in says:
        if message and words not in message:
            fail(f"{where}: the sentence does not say {words!r}: {message!r}")
    if others or shown["shown"]:
        fail(f"{where}: results shown or another field flagged ({others})")


HEADER_BOX = "The first line holds column names"


def header_cases():
    """Issue 30, item 16: files whose first line names the columns, and one whose first
    line is a rare case. Each: (what, kind, text, options, expected), where expected is
    ("refused", words the sentence holds) or ("two", y1, y2, labels) or ("ratings", data)."""
    rng = np.random.default_rng(SEED + 3)
    y1 = [str(v) for v in rng.choice(["yes", "no"], size=24, p=[0.6, 0.4])]
    y2 = [a if rng.random() < 0.8 else ("no" if a == "yes" else "yes") for a in y1]
    body = "".join(f"{a},{b}\n" for a, b in zip(y1, y2, strict=True))
    labels = "coder1,coder2\n" + body
    grades = ["mild", "moderate", "severe"]
    units = [[str(rng.choice(grades[:2])) for _ in range(3)] for _ in range(15)]
    words = "rater_a,rater_b,rater_c\n" + "".join(",".join(u) + "\n" for u in units)
    numbers = [[int(v) for v in rng.integers(1, 4, size=3)] for _ in range(15)]
    numeric = "r1,r2,r3\n" + "".join(",".join(map(str, u)) + "\n" for u in numbers)
    with_ids = "".join(
        f"s{i + 1:02d}," + ",".join(map(str, u)) + "\n" for i, u in enumerate(numbers)
    )
    refuse = ("refused", (HEADER_BOX, "order field"))
    return [
        ("labels with a header, pasted, box unticked", "labels", labels, {}, refuse),
        (
            "labels with a header, opened, box unticked",
            "labels",
            None,
            {"file": {"name": "coders.csv", "mimeType": "text/csv", "buffer": labels.encode()}},
            refuse,
        ),
        (
            "labels with a header, box ticked",
            "labels",
            labels,
            {"header": True},
            ("two", y1, y2, ["no", "yes"]),
        ),
        (
            "labels, line 1 said to be a case (its labels in the order field)",
            "labels",
            labels,
            {"order": "coder1, coder2, no, yes"},
            ("two", ["coder1", *y1], ["coder2", *y2], ["coder1", "coder2", "no", "yes"]),
        ),
        (
            "labels whose line 1 is a rare case both raters gave",
            "labels",
            "severe,severe\n" + body,
            {},
            ("two", ["severe", *y1], ["severe", *y2], ["no", "severe", "yes"]),
        ),
        ("a ratings table of words with a header, box unticked", "ratings", words, {}, refuse),
        (
            "a ratings table of words with a header, box ticked",
            "ratings",
            words,
            {"header": True},
            ("ratings", units),
        ),
        (
            "a ratings table of numbers with a header, box unticked",
            "ratings",
            numeric,
            {},
            ("refused", (HEADER_BOX,)),
        ),
        (
            "labels without a header, box ticked",
            "labels",
            body,
            {"header": True},
            ("refused", ("untick", HEADER_BOX)),
        ),
        (
            "a ratings table of words without a header, box ticked",
            "ratings",
            words.split("\n", 1)[1],
            {"header": True},
            ("refused", ("untick", HEADER_BOX)),
        ),
        (
            "labels with case ids, id box unticked",
            "labels",
            "".join(f"c{i + 1},{a},{b}\n" for i, (a, b) in enumerate(zip(y1, y2, strict=True))),
            {},
            ("refused", ("The first column holds subject ids",)),
        ),
        (
            "a ratings table of numbers with subject ids, id box unticked",
            "ratings",
            "id,r1,r2,r3\n" + with_ids,
            {"header": True},
            ("refused", ("The first column holds subject ids", '"s01"')),
        ),
        (
            "a ratings table of numbers with subject ids and a header, both boxes unticked",
            "ratings",
            "id,r1,r2,r3\n" + with_ids,
            {},
            ("refused", ("The first column holds subject ids", HEADER_BOX)),
        ),
    ]


def _headers(page, fail):
    """Issue 30, item 16: a first line of column names is never read as a case unsaid."""
    n = 0
    for what, kind, text, opts, expected in header_cases():
        where = f"calculator header ({what})"
        shown = enter(page, kind=kind, text=text, **opts)
        if expected[0] == "refused":
            refused(where, "data", shown, fail, says=expected[1])
            n += 1
            continue
        if not shown["shown"]:
            fail(f"{where}: no result; the page says {shown['errors']} {shown['status']!r}")
            continue
        if expected[0] == "two":
            _, y1, y2, labels = expected
            C = kl.confusion_matrix(y1, y2, labels=labels)
            want, _ = expected_two_rater(C, labels, None, None, 0.95, ("rater 1", "rater 2"))
            n += compare_values(where, shown, want, fail)
            if shown["cells"] != [[f"{v:g}" for v in row] for row in C.tolist()]:
                fail(f"{where}: the heatmap's counts are not kappalib's confusion matrix")
        else:
            want = expected_ratings(expected[1], None, levels=("nominal",))
            n += compare_values(where, shown, want, fail)
    return n


def one_class_cases():
    """Issue 30, item 17: every case in one category of a table with two or more: the
    defined values are shown, the others read "undefined". (what, enter's options, and
    ("two", C, labels, weighting, level, scores) or ("ratings", data, categories))."""
    labels_text = "yes,yes\n" * 6
    data = [[2, 2, 2]] * 6
    return [
        ("a 2 x 2 table", {"kind": "matrix", "text": "0, 0\n0, 12"},
         ("two", [[0, 0], [0, 12]], ["1", "2"], None, 0.95, None)),
        (
            "a 3 x 3 table, quadratic weights",
            {"kind": "matrix", "text": "0, 0, 0\n0, 30, 0\n0, 0, 0",
             "order": "absent, mild, severe", "weighting": "quadratic", "level": 0.9},
            ("two", [[0, 0, 0], [0, 30, 0], [0, 0, 0]], ["absent", "mild", "severe"],
             "quadratic", 0.9, None),
        ),
        (
            "a 3 x 3 table, linear weights on scores",
            {"kind": "matrix", "text": "0, 0, 0\n0, 0, 0\n0, 0, 7", "weighting": "linear",
             "scores": "0, 1, 4", "level": 0.8},
            ("two", [[0, 0, 0], [0, 0, 0], [0, 0, 7]], ["1", "2", "3"], "linear", 0.8, [0, 1, 4]),
        ),
        (
            "a 2 x 2 table, custom weights",
            {"kind": "matrix", "text": "9, 0\n0, 0", "weighting": "custom",
             "weights": "0, 2\n2, 0", "level": 0.99},
            ("two", [[9, 0], [0, 0]], ["1", "2"], [[0, 2], [2, 0]], 0.99, None),
        ),
        (
            "labels, the other category in the order field",
            {"kind": "labels", "text": labels_text, "order": "no, yes"},
            ("two", kl.confusion_matrix(["yes"] * 6, ["yes"] * 6, labels=["no", "yes"]).tolist(),
             ["no", "yes"], None, 0.95, None),
        ),
        (
            "a ratings table, the other categories in the order field",
            {"kind": "ratings", "text": "\n".join(
                ",".join("" if v is None else str(v) for v in u) for u in data),
             "order": "1, 2, 3"},
            ("ratings", data, [1, 2, 3]),
        ),
    ]  # fmt: skip


def _one_class(page, fail):
    """The one-class cases against kappalib; returns (numbers checked, code blocks to run)."""
    n, codes = 0, []
    for what, opts, expected in one_class_cases():
        where = f"calculator one class ({what})"
        shown = enter(page, **opts)
        if not shown["shown"]:
            fail(f"{where}: no result; the page says {shown['errors']} {shown['status']!r}")
            continue
        if expected[0] == "ratings":
            _, data, cats = expected
            want = expected_ratings(data, cats)
            table = kl.rating_table(data, labels=cats, layout="units x raters")
            want["fleiss_kappa"] = kl.fleiss_kappa(table)
            n += compare_values(where, shown, want, fail)
            codes.append((where, shown["code"], shown))
            continue
        _, C, labels, weighting, level, scores = expected
        want, paragraph = expected_two_rater(
            C, labels, weighting, scores, level, ("rater 1", "rater 2")
        )
        n += compare_values(where, shown, want, fail)
        if not isinstance(paragraph, ValueError):
            fail(f"{where}: kappalib reports this table; the check expected a refusal")
        else:
            note = str(paragraph)
            note = note[0].upper() + note[1:] + ("" if note.endswith(".") else ".")
            if shown["paragraph"] or shown["paragraph_note"] != note:
                fail(f"{where}: the paragraph's place should hold kappalib's refusal {note!r}; "
                     f"it holds {shown['paragraph']!r} / {shown['paragraph_note']!r}")  # fmt: skip
        if "undefined" not in shown["status"]:
            fail(f"{where}: the status line does not say kappa is undefined: {shown['status']!r}")
        codes.append((where, shown["code"], shown))
    return n, codes


READ_AS_MISSING = kl._shared.words.template("missing.read_as").split("{")[0]  # "Read as missing:"
READ_AS_LISTED = kl._shared.words.template("spelling.read_as").split("{")[0]  # "Read as the ..."


def _missing(page, fail):
    """Issue 30: the page reads missing values as kappalib does. Labels: the numbers, the
    heatmap and the paragraph are those of kl.agreement_report(y1, y2, missing="drop") on the
    cells as written, and the page says the report's sentences on what it read as missing;
    ratings: the count table is kl.ratings_report's, every coefficient kappalib's on the cells
    kappalib reads as missing made None, and the page says the report's "Read as missing"
    sentence. Returns (numbers checked, code blocks to run)."""
    n, codes, variants = 0, [], 0
    raters = ("rater 1", "rater 2")
    for what, opts, expected in missing_cases():
        where = f"calculator missing values ({what})"
        shown = enter(page, **opts)
        if not shown["shown"]:
            fail(f"{where}: no result; the page says {shown['errors']} {shown['status']!r}")
            continue
        if expected[0] == "two":
            _, y1, y2, labels = expected
            report = kl.agreement_report(y1, y2, labels=labels, missing="drop", raters=raters)
            C = np.asarray(report.C)
            want, _ = expected_two_rater(C, list(report.labels), None, None, 0.95, raters)
            n += compare_values(where, shown, want, fail)
            if shown["cells"] != [[f"{v:g}" for v in row] for row in C.tolist()]:
                fail(f"{where}: the heatmap {shown['cells']} is not kappalib's table {C.tolist()}")
            if shown["paragraph"] != report.methods_paragraph():
                fail(f"{where}: paragraph differs from kappalib's:\n  page:     "
                     f"{shown['paragraph']}\n  kappalib: {report.methods_paragraph()}")  # fmt: skip
            base = kl.agreement_report(C=C, labels=list(report.labels), raters=raters).caveats
            said = " ".join(c for c in report.caveats if c not in base)
            n += 2
        else:
            _, data, labels = expected
            report = kl.ratings_report(data, layout="units x raters", labels=labels)
            table = np.asarray(report.table)
            if shown["cells"] != [[f"{v:g}" for v in row] for row in table.tolist()]:
                fail(f"{where}: the page's count table is not kl.ratings_report's")
            strings = sorted({c for row in data for c in row if isinstance(c, str)})
            gone, _ = classify(strings, DEFAULT_TOKENS, labels)
            read_as, _ = case_variants([c for c in strings if c not in gone], labels)
            clean = [[None if c in gone else read_as.get(c, c) for c in row] for row in data]
            numeric = all(not isinstance(c, str) for row in clean for c in row if c is not None)
            levels = ("nominal", "ordinal", "interval", "ratio") if numeric else (
                ("nominal", "ordinal") if labels else ("nominal",))  # fmt: skip
            want = expected_ratings(clean, labels, levels=levels)
            if len({int(r.sum()) for r in table}) == 1:
                want["fleiss_kappa"] = kl.fleiss_kappa(table)
            n += compare_values(where, shown, want, fail) + 1
            said = " ".join(
                c for c in report.caveats if c.startswith((READ_AS_MISSING, READ_AS_LISTED))
            )
        if shown["read_note"] != said:
            fail(f"{where}: the page says {shown['read_note']!r} of the missing values, "
                 f"kappalib's report {said!r}")  # fmt: skip
        if READ_AS_MISSING not in said:
            fail(f"{where}: the case reads no token as missing (the check is not testing it)")
        variants += READ_AS_LISTED in said
        codes.append((where, shown["code"], shown))
        n += 1
    if variants < 2:
        fail(f"calculator missing values: {variants} cases read a case variant as listed (< 2)")
    return n, codes


def _examples(page, fail):
    """Each kind's example computes (the header and id checks must not refuse them)."""
    for kind in ("matrix", "labels", "ratings"):
        page.check(f'input[name="kc-kind"][value="{kind}"]')
        page.click("#kc-example")
        shown = page.evaluate(READ_PAGE)
        if not shown["shown"]:
            fail(f"calculator example ({kind}): no result; the page says {shown['errors']}")
    page.set_checked("#kc-header", False)
    return 3


def _keyboard(page, fail):
    """Tab from the kind radios to the data field, type, Tab to Compute, press Enter."""
    page.goto(page.url)
    page.focus('input[name="kc-kind"][value="matrix"]')
    page.keyboard.press("ArrowDown")  # radios move with the arrows: "labels"
    page.keyboard.press("ArrowUp")  # back to "matrix"
    for _ in range(5):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.id") == "kc-data":
            break
    else:
        fail("keyboard: Tab from the kind radios does not reach the data field")
        return
    page.keyboard.type("20, 5\n3, 12")
    for _ in range(30):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.classList.contains('kc-compute')"):
            break
    else:
        fail("keyboard: Tab does not reach the Compute button")
        return
    page.keyboard.press("Enter")
    status = page.evaluate("() => document.getElementById('kc-status').textContent")
    want = _fmt(kl.kappa([[20, 5], [3, 12]]))
    if f"kappa {want}" not in status:
        fail(f"keyboard: the status line does not announce kappa {want}: {status!r}")


def check_calculator(page, url, result, *, n_matrices=50, axe_js=None, axe_run=None):
    """Drive the calculator at ``url`` and record failures in ``result`` (see the module)."""
    fail = result.fail
    page.goto(url, wait_until="load")
    page.wait_for_function("() => !document.getElementById('kc-app').hidden", timeout=10_000)
    checked = 0
    codes = []  # (where, code, what the page showed)

    for i, case in enumerate(random_matrices(n_matrices)):
        where = f"calculator matrix {i} ({len(case['C'])}x{len(case['C'])}, {case['weighting']})"
        shown = enter(
            page,
            kind="matrix",
            text=_csv(case["C"]),
            order=", ".join(case["names"] or []),
            weighting=case["weighting"] or "none",
            scores=", ".join(map(str, case["scores"] or [])),
            weights=_csv(case["weights"]) if case["weights"] else "",
            level=case["level"],
            raters=case["raters"],
        )
        if not shown["shown"]:
            fail(f"{where}: no result; the page says {shown['errors']} {shown['status']!r}")
            continue
        names = case["names"] or [str(k + 1) for k in range(len(case["C"]))]
        weighting = case["weights"] if case["weighting"] == "custom" else case["weighting"]
        want, paragraph = expected_two_rater(
            case["C"], names, weighting, case["scores"], case["level"], case["raters"]
        )
        checked += compare_values(where, shown, want, fail)
        if shown["paragraph"] != paragraph:
            fail(f"{where}: paragraph differs from kappalib's:\n  page:     "
                 f"{shown['paragraph']}\n  kappalib: {paragraph}")  # fmt: skip
        if shown["cells"] != [[f"{v:g}" for v in row] for row in case["C"]]:
            fail(f"{where}: the heatmap's counts {shown['cells']} are not the matrix")
        checked += 2
        codes.append((where, shown["code"], shown))

    # CSV 1: two columns of labels, header, ordered grades, linear weights
    text, pairs, grades = labels_csv()
    where = "calculator CSV of labels"
    shown = enter(
        page,
        kind="labels",
        file={"name": "two-readers.csv", "mimeType": "text/csv", "buffer": text.encode()},
        header=True,
        order=", ".join(grades),
        weighting="linear",
        level=0.9,
        raters=("reader A", "reader B"),
    )
    C = kl.confusion_matrix([a for a, _ in pairs], [b for _, b in pairs], labels=grades)
    if not shown["shown"]:
        fail(f"{where}: no result; the page says {shown['errors']}")
    else:
        raters = ("reader A", "reader B")
        want, paragraph = expected_two_rater(C, grades, "linear", None, 0.9, raters)
        checked += compare_values(where, shown, want, fail)
        if shown["paragraph"] != paragraph:
            fail(f"{where}: paragraph differs from kappalib's:\n  page:     "
                 f"{shown['paragraph']}\n  kappalib: {paragraph}")  # fmt: skip
        if shown["cells"] != [[f"{v:g}" for v in row] for row in C.tolist()]:
            fail(f"{where}: the heatmap's counts are not kappalib's confusion matrix")
        codes.append((where, shown["code"], shown))

    # CSV 2: a ratings table with subject ids and blanks
    text, data = ratings_csv()
    where = "calculator CSV of ratings"
    shown = enter(
        page,
        kind="ratings",
        file={"name": "four-raters.csv", "mimeType": "text/csv", "buffer": text.encode()},
        header=True,
        id_column=True,
    )
    if not shown["shown"]:
        fail(f"{where}: no result; the page says {shown['errors']}")
    else:
        checked += compare_values(where, shown, expected_ratings(data, None), fail)
        if shown["values"].get("fleiss_kappa", {}).get("value") != "na":
            fail(f"{where}: Fleiss' kappa shown for subjects with different numbers of ratings")
        codes.append((where, shown["code"], shown))

    # every case in one class (issue 30, item 17): defined values and "undefined"
    n_one, one_codes = _one_class(page, fail)
    checked += n_one
    codes += one_codes

    # missing-value tokens read as kappalib reads them (issue 30)
    n_missing, missing_codes = _missing(page, fail)
    checked += n_missing
    codes += missing_codes

    # the code on the page, run by Python
    run = subprocess.run(
        [sys.executable, "-c", RUNNER],
        input=json.dumps([code for _, code, _ in codes]),
        capture_output=True,
        text=True,
        timeout=600,
    )
    if run.returncode != 0:
        fail(f"calculator: running the page's kappalib code failed: {run.stderr[-800:]}")
    else:
        for (where, _, shown), out in zip(codes, json.loads(run.stdout), strict=True):
            if "error" in out:
                fail(f"{where}: the page's kappalib code raises: {out['error'][-600:]}")
                continue
            checked += compare_code_output(where, out["stdout"], shown, fail)

    n_bad = _bad_inputs(page, fail)
    n_header = _headers(page, fail) + _examples(page, fail)
    _keyboard(page, fail)

    # the filled page at a phone's size, and its audit
    big = random_matrices(7)[6]
    long_names = ", ".join(NAMES[-8:])
    enter(page, kind="matrix", text=_csv(big["C"]), order=long_names, weighting="quadratic")
    if axe_js is not None and axe_run is not None:
        page.add_script_tag(path=str(axe_js))
        audit = page.evaluate(axe_run, [["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"],
                                        ["serious", "critical"], []])  # fmt: skip
        for v in audit["violations"][:12]:
            fail(
                f"calculator (filled) axe {v['impact']} {v['rule']}: {v['target']}: "
                f"{v['summary']} {v['html']}"
            )
        result.notes.append(f"calculator filled: axe {len(audit['violations'])} serious/critical")
    size = page.viewport_size
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_timeout(300)
    probe = page.evaluate(js("phone_probe"))
    for msg in probe["problems"] + probe["sideways"]:
        fail(f"calculator (filled, 390 px): {msg}")
    if size:
        page.set_viewport_size(size)
    result.notes.append(
        f"calculator: {n_matrices} matrices and 2 CSV files entered, {checked} numbers and "
        f"paragraphs equal kappalib's, {len(codes)} code blocks run; {n_bad} bad inputs each "
        f"with one sentence; {n_one} numbers in one class; {n_missing} numbers and sentences "
        f"on {len(missing_cases())} CSVs with missing-value tokens; {n_header} numbers and "
        f"refusals on "
        f"header lines, 3 examples; keyboard; "
        f"filled page at 390 px: {probe['checked']} elements"
    )
    return checked


if __name__ == "__main__":  # a quick run on a built site: python tools/site_calculator.py
    import argparse

    from browser import CHROMIUM, CHROMIUM_ARGS
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", default=str(TOOLS.parent / "_build" / "html"))
    parser.add_argument("--matrices", type=int, default=50)
    args = parser.parse_args()

    class Result:
        def __init__(self):
            self.failures, self.notes = [], []

        def fail(self, msg):
            self.failures.append(msg)

    res = Result()
    axe = TOOLS.parent / ".site-vendor/node_modules/axe-core/axe.min.js"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        pg = browser.new_page(viewport={"width": 1280, "height": 900})
        url = (Path(args.site) / "book" / "calculator.html").resolve().as_uri()
        check_calculator(
            pg, url, res, n_matrices=args.matrices,
            axe_js=axe if axe.is_file() else None, axe_run=js("axe_run"),
        )  # fmt: skip
        browser.close()
    print("\n".join(res.notes))
    print("\n".join(res.failures) or "calculator: no failure")
    sys.exit(1 if res.failures else 0)
