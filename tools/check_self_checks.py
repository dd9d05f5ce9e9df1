"""make check-site: every self-check of a page, played in Chromium by the keyboard alone.

For each ``.self-check`` (tools/self_checks.py) the check focuses its first control and then
only presses keys, as a reader without a mouse would:

* a numeric question: it types a wrong answer (the value of the question's first listed
  mistake on the page's table, else kappalib's answer plus a few tolerances) and presses
  Enter: the feedback must say "Not yet" with that mistake's own explanation; it types
  kappalib's answer on the same table (read from the page's table: kappalib is the oracle)
  rounded to the question's decimals: "Right"; it opens the hint and the answer with the
  keyboard and checks every number the answer writes against kappalib's; "New table" draws a
  different table;
* a multiple-choice question: it moves through the options with the arrow keys and checks
  each: every wrong option must bring its own explanation and "Not yet", the right one
  "Right".

The feedback line must be a polite live region (role="status", aria-live="polite") present
before the answer, and every announcement is read from it as a screen reader hears it: a
MutationObserver records the region's text after each change.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import self_checks  # tools/: the quantities, with kappalib's value of each
from browser import js  # tools/: tools/js/*.js

LISTEN = js("self_check_listen")
# The last thing the live region said since the previous call.
HEARD = """(root) => {
  const heard = (root.__heard || []).filter(Boolean);
  root.__heard = [];
  return heard.pop() || '';
}"""
# What has the focus: a self-check button's action, or the element's class or tag.
FOCUSED = """() => {
  const a = document.activeElement;
  return a ? (a.dataset.action || a.className || a.tagName) : '';
}"""


def _text(el) -> str:
    return re.sub(r"\s+", " ", el.text_content()).strip()


def _press_until(page, root, action: str, limit: int = 8) -> bool:
    """Tab forward until the button with data-action=action has the focus."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate(FOCUSED) == action:
            return True
    return False


def check_numeric(page, root, spec: dict, where: str) -> list[str]:
    failures = []
    kind = spec["table"]["kind"]
    table = json.loads(root.get_attribute("data-table"))
    truth = self_checks.quantity_value(spec["compute"], table, kind)
    digits = spec.get("digits", 2)
    tol = spec.get("tolerance", 10**-digits)
    if truth is None:
        return [f"{where}: the page drew a table where {spec['compute']} is undefined: {table}"]
    mistakes = spec.get("mistakes") or []
    wrong, expect_text = None, None
    for k, m in enumerate(mistakes):
        v = self_checks.quantity_value(m["compute"], table, kind)
        if v is not None and abs(v - truth) > 2.5 * tol:
            wrong = v
            expect_text = _text(root.query_selector_all(":scope > .sc-mistake")[k])
            break
    if wrong is None:
        wrong = truth + 4 * tol
    root.query_selector("input.sc-input").focus()
    page.keyboard.type(f"{wrong:.{digits + 2}f}")
    page.keyboard.press("Enter")
    heard = page.evaluate(HEARD, root)
    if not heard.startswith("Not yet"):
        failures.append(f"{where}: a wrong answer ({wrong:.4f}) was announced as {heard!r}")
    elif expect_text and expect_text[:60] not in heard:
        failures.append(
            f"{where}: the mistake's explanation {expect_text[:60]!r} was not announced "
            f"(heard {heard[:120]!r})"
        )
    page.keyboard.press("ControlOrMeta+a")
    page.keyboard.type(f"{truth:.{digits}f}")
    page.keyboard.press("Enter")
    heard = page.evaluate(HEARD, root)
    if not heard.startswith("Right"):
        failures.append(
            f"{where}: kappalib's answer {truth:.{digits}f} on {table} was announced as {heard!r}"
        )
    # The hint and the answer, opened by the keyboard (Tab to the button, Enter).
    for action, box in (("hint", ".sc-hint"), ("answer", ".sc-answer")):
        if not _press_until(page, root, action):
            failures.append(f"{where}: Tab never reached the {action} button")
            continue
        page.keyboard.press("Enter")
        el = root.query_selector(f".sc-live > {box}")
        if el is None or not el.is_visible():
            failures.append(f"{where}: the {action} did not open from the keyboard")
    for span in root.query_selector_all(".sc-live > .sc-answer .sc-value"):
        q, fmt = span.get_attribute("data-q"), span.get_attribute("data-fmt")
        want = self_checks.format_value(self_checks.quantity_value(q, table, kind), fmt)
        if _text(span) != want:
            failures.append(f"{where}: the answer writes {q} = {_text(span)}, kappalib {want}")
    if "fixed" not in spec["table"]:
        if not _press_until(page, root, "new"):
            failures.append(f"{where}: Tab never reached the New table button")
        else:
            page.keyboard.press("Enter")
            if json.loads(root.get_attribute("data-table")) == table:
                failures.append(f"{where}: New table kept the same table")
            if not page.evaluate(HEARD, root):
                failures.append(f"{where}: the new table was not announced")
    return failures


def check_choice(page, root, spec: dict, where: str) -> list[str]:
    failures = []
    options = spec["options"]
    explains = [_text(o) for o in root.query_selector_all(":scope > .sc-option .sc-option-explain")]
    root.query_selector("input[type=radio]").focus()
    page.keyboard.press("Space")  # selects the first option
    for k, option in enumerate(options):
        if k:
            page.keyboard.press("ArrowDown")
        page.keyboard.press("Enter")  # submits the form
        heard = page.evaluate(HEARD, root)
        want = "Right" if option.get("correct") else "Not yet"
        if not heard.startswith(want):
            failures.append(f"{where}: option ({chr(97 + k)}) was announced as {heard[:80]!r}")
        elif explains[k][:60] not in heard:
            failures.append(
                f"{where}: option ({chr(97 + k)})'s own explanation was not announced "
                f"(heard {heard[:100]!r})"
            )
    return failures


def check_page(page, name: str) -> tuple[list[str], list[str]]:
    """(failures, notes): every self-check of the page played by the keyboard."""
    failures, notes = [], []
    roots = page.query_selector_all(".self-check[data-self-check]")
    for n, root in enumerate(roots, start=1):
        where = f"self-check {n} ({root.get_attribute('id')})"
        if "sc-mounted" not in (root.get_attribute("class") or ""):
            failures.append(f"{where}: the page module did not build it")
            continue
        problem = page.evaluate(LISTEN, root)
        if problem:
            failures.append(f"{where}: {problem}")
            continue
        spec = json.loads(root.get_attribute("data-self-check"))
        if spec["type"] == "numeric":
            failures += check_numeric(page, root, spec, where)
        else:
            spec["options"] = [
                {"correct": "sc-correct" in (o.get_attribute("class") or "")}
                for o in root.query_selector_all(":scope > .sc-option")
            ]
            failures += check_choice(page, root, spec, where)
        notes.append(f"{where}: played by the keyboard ({spec['type']})")
    return failures, notes
