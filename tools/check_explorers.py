"""The live explorers in the browser, part of ``make check-site`` (served and from disk).

For every explorer of a page (``.kh-explorer``, put there by tools/explorers_build.py):

* it must have mounted, with every control labelled, and its static figure hidden on screen
  (shown once: the figure is the print and no-JavaScript fallback);
* **moves**: its controls are set to other states (the MOVES below: a slider dragged to a value,
  a menu choice, a radio button, a typed count) and, after each, every number on the page
  (``data-value``, the full value, and the text shown) must equal kappalib's at that state,
  computed here by kappalib.widgets' own functions from the controls' values read back from
  the page; the screen reader's live region must have been told;
* **keyboard alone**: Tab from the explorer's code cell must land on its first control, then
  reach every enabled control in order,
  and a key on each (an arrow on a slider or a radio button, Arrow Down on a menu, Arrow Up on
  a number box) must change the state, with the numbers again equal to kappalib's.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

from browser import js  # tools/

ROOT = Path(__file__).resolve().parent.parent
STATE = js("explorer_state")
# True once the i-th explorer's live region (aria-live) holds a sentence.
ANNOUNCED = """(i) => {
  const root = document.querySelectorAll('.kh-explorer')[i];
  const region = root && root.querySelector('[aria-live]');
  return !!(region && region.textContent.trim());
}"""
ANNOUNCE_MS = 5_000
# True once the i-th explorer's live region holds every one of the given texts.
SAYS = """([i, texts]) => {
  const region = document.querySelectorAll('.kh-explorer')[i].querySelector('[aria-live]');
  return !!region && texts.every((t) => region.textContent.includes(t));
}"""
# Texts of an explorer's charts that overlap (a y-label running into its tick labels).
CHART_OVERLAPS = js("chart_overlaps")
DEFINITIONS = json.loads((ROOT / "kappalib/widgets/explorers.json").read_text())["explorers"]

# (kind, control, value): "fill" a slider or a box, "select" a menu's option value, "radio"
# a weighting, "key" a key pressed (value "End", "Home", "ArrowLeft*3") on a focused control.
MOVES = {
    "two_by_two": [
        ("fill", "a", "37"),  # the "slider a from 8 to 37 changes nothing"
        ("key", "b", "End"),
        ("key", "c", "Home"),
        ("key", "d", "ArrowLeft*3"),
        ("select", "preset", "2"),  # d = 0 too: kappa and MCC undefined
        ("select", "preset", "5"),  # off-diagonal, b != c
    ],
    "prevalence": [
        ("fill", "prevalence", "0.05"),
        ("key", "sensitivity", "ArrowLeft*5"),
        ("key", "specificity", "End"),
        ("fill", "sensitivity", "0"),
    ],
    "weighted": [
        ("radio", "weighting", "linear"),
        ("select", "example", "severity, far misses (5 grades)"),
        ("radio", "weighting", "none"),
        ("select", "example", "edit a 3 x 3 matrix"),
        ("fill", "cell-0-0", "7"),
        ("fill", "cell-2-1", "12"),
        ("radio", "weighting", "quadratic"),
    ],
    "mcc_family": [
        ("select", "family", "C0"),
        ("fill", "a", "1.5"),
        ("key", "b", "End"),
        ("select", "family", "C1, d=0"),
        ("fill", "a", "0"),
    ],
    "families": [
        ("select", "name", "M4"),
        ("key", "A", "ArrowRight*10"),
        ("select", "name", "ZA"),
        ("key", "n_classes", "ArrowRight*2"),
        ("fill", "A", "123.4"),
        ("select", "name", "M5"),
        ("key", "A", "End"),
    ],
    "coefficients": [
        ("fill", "prevalence", "0.5"),
        ("key", "sensitivity", "Home"),
        ("fill", "specificity", "0.33"),
        ("key", "prevalence", "End"),
    ],
}


# Bad input typed into a box: (control, text, what the sentence must quote). The explorer must
# refuse it in one sentence, show no number of the last good matrix, and take the next good
# value again (the "e" read as an empty box, "1e3" taken as 1,000, and the old kappa
# left on screen under the error).
BAD_INPUTS = {
    "weighted": [
        ("cell-1-1", "e", '"e"'),
        ("cell-1-1", "1e3", '"1e3"'),
        ("cell-1-1", "2.5", '"2.5"'),
        ("cell-1-1", "", "an empty box"),
    ],
}


def _f(controls, name):
    return float(controls[name])


def expected(key: str, c: dict) -> dict:
    """kappalib's numbers at the controls' state: {data-key: (value, text)}."""
    from kappalib import widgets

    three = lambda x: "undefined" if x is None else format(x, ".3f")  # noqa: E731
    if key == "two_by_two":
        v = widgets.two_by_two_values(*(int(c[n]) for n in "abcd"))
        return {k: (x, three(x)) for k, x in v.items()}
    if key == "prevalence":
        cur = widgets.prevalence_curves(
            _f(c, "sensitivity"), _f(c, "specificity"), [_f(c, "prevalence")]
        )
        return {
            k: (_num(getattr(cur, k)[0]), three(_num(getattr(cur, k)[0])))
            for k in ("kappa", "mcc", "accuracy")
        }
    if key == "weighted":
        d = DEFINITIONS["weighted"]
        if c["example"] == d["custom"]:
            M = [[int(c[f"cell-{i}-{j}"]) for j in range(3)] for i in range(3)]
        else:
            M = d["examples"][c["example"]]["matrix"]
        s = widgets.weighted_contributions(M, None if c["weighting"] == "none" else c["weighting"])
        return {
            "observed_total": (s.observed_total, format(100 * s.observed_total, ".2f")),
            "expected_total": (s.expected_total, format(100 * s.expected_total, ".2f")),
            "kappa": (s.kappa, three(s.kappa)),
        }
    if key == "mcc_family":
        v = widgets.mcc_family_values(c["family"], _f(c, "a"), _f(c, "b"))
        star = v["b_star"]
        return {
            "kappa": (v["kappa"], three(v["kappa"])),
            "mcc": (v["mcc"], three(v["mcc"])),
            "b_star": (star, "none (C0)" if star is None else three(star)),
        }
    if key == "families":
        s = widgets.family_state(c["name"], _f(c, "A"), int(c["n_classes"]))
        four = lambda x: "undefined" if x is None else format(x, ".4f")  # noqa: E731
        out = {k: (s[k], four(s[k])) for k in ("kappa", "mcc", "entropy")}
        a = s["asymmetry"]
        out["asymmetry"] = (a, "undefined" if a is None else format(a, ".6g"))
        return out
    if key == "coefficients":
        n = DEFINITIONS["coefficients"]["n_cases"]
        cur = widgets.coefficient_curves(
            _f(c, "sensitivity"), _f(c, "specificity"), [_f(c, "prevalence")], n_cases=n
        )
        fields = ("accuracy", "kappa", "scotts_pi", "alpha", "mcc", "ac1", "bp")
        return {k: (_num(getattr(cur, k)[0]), three(_num(getattr(cur, k)[0]))) for k in fields}
    raise ValueError(f"no kappalib oracle for explorer {key!r}")


def _num(x):
    x = float(x)
    return None if math.isnan(x) else x


def _ties(value: float, text: str, want: str) -> bool:
    """The text differs from Python's only by the rounding of an exact tie."""
    digits = len(want.split(".")[1]) if "." in want and "e" not in want else None
    if digits is None:
        return False
    scale = 10.0**digits
    for v in (value + 1e-12 * max(1, abs(value)), value - 1e-12 * max(1, abs(value))):
        if format(v, f".{digits}f") == text:
            return abs(value * scale * 2 - round(value * scale * 2)) < 1e-6
    return False


def compare(key: str, state: dict, where: str) -> list[str]:
    """The page's numbers against kappalib's at the page's own controls; the problems."""
    problems = []
    try:
        want = expected(key, state["controls"])
    except (ValueError, TypeError) as exc:  # the page let through a state kappalib refuses
        return [f"{where}: kappalib refuses the page's state {state['controls']}: {exc}"]
    for k, (value, text) in want.items():
        got = state["values"].get(k)
        if got is None:
            problems.append(f"{where}: no number {k!r} on the page")
            continue
        raw = got["value"]
        if value is None:
            if raw not in ("null", "none (C0)", None) and not (text == "none (C0)" and raw == text):
                problems.append(f"{where}: {k} is {raw} on the page, kappalib says undefined")
        else:
            try:
                page_value = float(raw)
            except (TypeError, ValueError):
                problems.append(f"{where}: {k} is {raw!r} on the page, kappalib {value!r}")
                continue
            if not abs(page_value - value) <= 1e-9 * max(1.0, abs(value)):
                problems.append(f"{where}: {k} = {page_value!r} on the page, kappalib {value!r}")
        if got["text"] != text and not (value is not None and _ties(value, got["text"], text)):
            problems.append(f"{where}: {k} shows {got['text']!r}, kappalib formats {text!r}")
    return problems


def _press(page, keys: str) -> None:
    key, _, times = keys.partition("*")
    for _ in range(int(times or 1)):
        page.keyboard.press(key)


def _control(page, index: int, name: str):
    return page.locator(".kh-explorer").nth(index).locator(f'[data-control="{name}"]')


def check_page(page, name: str) -> tuple[list[str], list[str]]:
    """(failures, notes) for every explorer of the loaded page."""
    failures: list[str] = []
    notes: list[str] = []
    count = page.locator(".kh-explorer").count()
    for i in range(count):
        key = page.locator(".kh-explorer").nth(i).get_attribute("data-explorer")
        state = page.evaluate(STATE, i)
        if not state or not state["mounted"]:
            failures.append(f"explorer {key}: did not mount (the static figure stays alone)")
            continue
        if state["unlabelled"]:
            failures.append(f"explorer {key}: {state['unlabelled']} controls without a label")
        if not state["fallbackHidden"]:
            failures.append(f"explorer {key}: its static figure is still shown on screen (twice)")
        failures += compare(key, state, f"explorer {key} at its start")
        moved = 0
        for kind, control, value in MOVES.get(key, []):
            target = _control(page, i, control)
            if kind == "fill":
                target.fill(value)
            elif kind == "select":
                target.select_option(value)
            elif kind == "radio":
                target.locator(f'input[value="{value}"]').check()
            else:
                target.focus()
                _press(page, value)
            state = page.evaluate(STATE, i)
            if state["message"]:
                failures.append(
                    f"explorer {key} after {kind} {control} {value}: {state['message']}"
                )
            failures += compare(key, state, f"explorer {key} after {kind} {control} = {value}")
            moved += 1
        for control, text, quoted in BAD_INPUTS.get(key, []):
            target = _control(page, i, control)
            good = target.input_value()
            target.fill(text)
            state = page.evaluate(STATE, i)
            where = f"explorer {key} after typing {text!r} into {control}"
            if quoted not in state["message"]:
                failures.append(f"{where}: the message {state['message']!r} does not name {quoted}")
            stale = {k: v["text"] for k, v in state["values"].items() if v["text"] != "—"}
            if stale:
                failures.append(f"{where}: numbers of the last good matrix stay shown: {stale}")
            target.fill(good)
            state = page.evaluate(STATE, i)
            if state["message"]:
                failures.append(f"{where}, then {good!r} again: {state['message']}")
            failures += compare(key, state, f"{where}, then {good!r} again")
        # The live region speaks once the controls rest (350 ms, ui.mjs's announcer): wait
        # until it has (rather than a fixed 500 ms), at most ANNOUNCE_MS.
        try:
            page.wait_for_function(ANNOUNCED, arg=i, timeout=ANNOUNCE_MS)
        except Exception:  # a timeout: it told nothing, reported below
            pass
        state = page.evaluate(STATE, i)
        if not state["announced"]:
            failures.append(f"explorer {key}: the live region (aria-live) told nothing")
        elif key == "weighted":
            # What a screen reader hears uses the numbers as shown (one rounding, not two).
            shown = [state["values"][k]["text"] for k in ("observed_total", "expected_total")]
            try:
                page.wait_for_function(SAYS, arg=[i, shown], timeout=ANNOUNCE_MS)
            except Exception:  # a timeout: it says other numbers, reported here
                said = page.evaluate(STATE, i)["announced"]
                failures.append(
                    f"explorer {key}: the live region says {said!r}, while the page shows "
                    f"observed {shown[0]} and expected {shown[1]}"
                )
        overlaps = page.evaluate(CHART_OVERLAPS, i)
        for msg in overlaps:
            failures.append(f"explorer {key}: {msg}")
        # The keyboard alone: Tab through the enabled controls, a key on each.
        order = state["focusables"]
        if not order:
            failures.append(f"explorer {key}: no control can take the focus")
            continue
        reached = []
        current = order[0]
        # Tab in from the explorer's own code cell (its copy button, the last focusable
        # thing before it); where the cell has none, focus the first control.
        copy = (
            page.locator(".kh-explorer")
            .nth(i)
            .locator(
                "xpath=ancestor::div[contains(@class, 'cell ')][1]"
                "//button[contains(@class, 'copybtn')]"
            )
        )
        tabbed_in = False
        if copy.count():
            copy.first.focus()
            page.keyboard.press("Tab")
            tabbed_in = page.evaluate(STATE, i)["active"] == current
            if not tabbed_in:
                failures.append(f"explorer {key}: Tab from its code cell does not reach {current}")
        if not tabbed_in:
            first = _control(page, i, current)
            if first.evaluate("el => el.tagName") == "FIELDSET":
                first.locator("input:checked").focus()
            else:
                first.focus()
        for _ in range(len(order) + 2):
            state = page.evaluate(STATE, i)
            if state["active"] is None:
                break
            current = state["active"]
            if current in reached:
                break
            reached.append(current)
            tag = _control(page, i, current).evaluate(
                "el => el.tagName === 'FIELDSET' ? 'radio' : el.type || el.tagName"
            )
            before = json.dumps(state["controls"], sort_keys=True)
            keyname = {"range": "ArrowRight", "select-one": "ArrowDown", "radio": "ArrowRight"}.get(
                tag, "ArrowUp"
            )
            page.keyboard.press(keyname)
            state = page.evaluate(STATE, i)
            back = {"range": "ArrowLeft", "select-one": "ArrowUp"}.get(tag)
            if json.dumps(state["controls"], sort_keys=True) == before and back:
                keyname = back  # at the end of its range or its list
                page.keyboard.press(keyname)
                state = page.evaluate(STATE, i)
            if json.dumps(state["controls"], sort_keys=True) == before:
                failures.append(f"explorer {key}: {keyname} on {current} changed nothing")
            failures += compare(key, state, f"explorer {key}, keyboard {keyname} on {current}")
            page.keyboard.press("Tab")
        missing = [c for c in state["focusables"] if c not in reached]
        if missing:
            failures.append(f"explorer {key}: Tab did not reach {missing} (reached {reached})")
        notes.append(
            f"explorer {key}: {moved} moves and {len(reached)} keyboard steps"
            f"{' (tabbed in from its cell)' if tabbed_in else ''}, numbers equal kappalib's"
        )
    return failures, notes
