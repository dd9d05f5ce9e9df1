"""The conformance table in figures, for the book's page: ``tools/conformance_table.md``.

The page book/conformance.md presents the public conformance table (conformance/) and includes
the markdown this script writes, so that no count on it is typed by hand:

* a sentence with the totals (cases, coefficients, sources);
* one row per coefficient: its case file (a download link), its number of cases, its oracles
  (every source with a value in the file, in the files' order: the anchor first), and
  kappalib's largest difference from them: from the full-precision references, and from the
  rounded ones (``ROUNDED``: values printed to a few digits, or approximations);
* one row per source: what it is (package and version, publication, formula), from
  conformance/sources.json.

The counts and the oracles come from the case files alone.  The differences are kappalib's, on
the values that ``tests/test_conformance.py`` compares (undisputed ones, by its
``comparisons`` and ``difference``: one definition of a comparison), shown to one
significant digit.  tests/test_conformance_table.py fails when the
committed file no longer matches: a case or an oracle added or removed, a difference that
moved.  A difference under ``NOISE`` is the last bits of a double, which move with numpy's
build and the CPU's vector instructions; the check lets those move (and any other by less
than a factor of 2), and nothing else.

    .venv/bin/python tools/conformance_table.py            # compare with the committed file
    .venv/bin/python tools/conformance_table.py --write    # write it
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CASES = ROOT / "conformance" / "cases"
SOURCES = ROOT / "conformance" / "sources.json"
RESULT = ROOT / "tools" / "conformance_table.md"
NOISE = 1e-12  # differences below this are rounding in the last bits of a double
# A reference is *rounded* when its tolerance is at least this (absolute): half a unit of the
# last digit it was printed with (a publication, pingouin's ICC intervals, irrCAC's
# benchmark), or the error of an approximation (finite differences).
ROUNDED = 1e-9

HEADER = (
    "% Written by tools/conformance_table.py from conformance/cases/*.json and\n"
    "% conformance/sources.json: do not edit. Rewrite it with\n"
    "% .venv/bin/python tools/conformance_table.py --write\n"
)
COLUMNS = (
    "| case file | cases | oracles | kappalib's largest difference: full precision | "
    "rounded |\n|---|--:|---|--:|--:|\n"
)


def _conformance_test():
    """tests/test_conformance.py as a module: kappalib's mapping and its comparisons."""
    spec = importlib.util.spec_from_file_location(
        "test_conformance", ROOT / "tests" / "test_conformance.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load():
    """{coefficient: the case file's body} and {source: its entry in sources.json}."""
    files = {}
    for path in sorted(CASES.glob("*.json")):
        body = json.loads(path.read_text(encoding="utf-8"))
        files[body["coefficient"]] = body
    return files, json.loads(SOURCES.read_text(encoding="utf-8"))


def differences(test=None):
    """{coefficient: {rounded: kappalib's largest difference}}, rounded False for the
    full-precision references, True for the rounded ones (see ``ROUNDED``); the values that
    tests/test_conformance.py compares (undisputed), with its ``difference``."""
    test = test or _conformance_test()
    out = {}
    for case in test.CASES:
        for ref, _, ours, theirs, status in test.comparisons(case):
            if status is not None:
                continue
            rounded = ref["tolerance"]["abs"] >= ROUNDED
            largest = out.setdefault(case["coefficient"], {False: None, True: None})
            largest[rounded] = max(test.difference(ours, theirs), largest[rounded] or 0.0)
    return out


def rows(files=None, diffs=None):
    """One dict per coefficient: file, cases, oracles, kappalib's largest difference from the
    full-precision and from the rounded references (None where it has none)."""
    if files is None:
        files, _ = load()
    if diffs is None:
        diffs = differences()
    out = []
    for coefficient, body in sorted(files.items()):
        oracles = list(dict.fromkeys(r["source"] for c in body["cases"] for r in c["references"]))
        largest = diffs.get(coefficient, {False: None, True: None})
        out.append(
            {
                "coefficient": coefficient,
                "file": f"{coefficient}.json",
                "cases": len(body["cases"]),
                "oracles": oracles,
                "full": largest[False],
                "rounded": largest[True],
            }
        )
    return out


def figure(d):
    """A difference to one significant digit: 0, 7e-16, 2e-8; "–" for no such oracle."""
    if d is None:
        return "–"
    if d == 0:
        return "0"
    mantissa, exponent = f"{d:.0e}".split("e")
    return f"{mantissa}e{int(exponent)}"


def value(text):
    return None if text == "–" else float(text)


def row_line(row):
    link = f"[{row['coefficient']}](/conformance/cases/{row['file']})"
    oracles = ", ".join(row["oracles"])
    return (
        f"| {link} | {row['cases']} | {oracles} | {figure(row['full'])} | "
        f"{figure(row['rounded'])} |\n"
    )


def what(entry):
    """One source of sources.json in a few words: package and version, or the citation."""
    if entry["kind"] == "package":
        language = entry.get("language", "")
        language = "R" if language.startswith("R ") else language
        return f"{entry['package']} {entry['version']} ({language})"
    return entry.get("citation") or f"{entry['kind']}: {entry['note']}"


def render(table, sources):
    n_cases = sum(r["cases"] for r in table)
    used = {s for r in table for s in r["oracles"]}
    text = HEADER + (
        f"\nThe table holds **{n_cases} cases** over **{len(table)} coefficients**, checked "
        f"against **{len(used)} sources**.\n\n"
    )
    text += COLUMNS + "".join(row_line(r) for r in table)
    text += (
        "\n### The sources\n\n"
        "{download}`sources.json </conformance/sources.json>` has each one in full, with the "
        "script that produced its values.\n\n| source | what |\n|---|---|\n"
    )
    for key in sorted(sources, key=str.lower):
        if key in used:
            text += f"| {key} | {what(sources[key])} |\n"
    return text


def _cells(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]


def drift(committed, fresh):
    """What differs between the committed text and a fresh rendering (an empty list when
    they agree): every line must be equal, except that a difference may move within NOISE,
    or by less than a factor of 2."""
    old, new = committed.splitlines(), fresh.splitlines()
    problems = []
    if len(old) != len(new):
        problems.append(f"{len(old)} lines committed, {len(new)} now")
    for a, b in zip(old, new, strict=False):
        if a == b:
            continue
        ca, cb = _cells(a), _cells(b)
        if a.startswith("| [") and len(ca) == len(cb) == 5 and ca[:3] == cb[:3]:
            moved = [
                (x, y) for x, y in zip(ca[3:], cb[3:], strict=True) if not _near(value(x), value(y))
            ]
            if not moved:
                continue
        problems.append(f"committed: {a}\n    now:       {b}")
    return problems


def _near(a, b):
    if a is None or b is None:
        return a is None and b is None
    if a < NOISE and b < NOISE:
        return True
    return a > 0 and b > 0 and max(a, b) / min(a, b) < 2


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--write", action="store_true", help="write tools/conformance_table.md")
    args = ap.parse_args(argv)
    files, sources = load()
    fresh = render(rows(files), sources)
    if args.write:
        RESULT.write_text(fresh, encoding="utf-8")
        print(f"wrote {RESULT.relative_to(ROOT)}")
        return 0
    problems = drift(RESULT.read_text(encoding="utf-8"), fresh)
    for p in problems:
        print(p)
    print(f"{RESULT.relative_to(ROOT)}: " + ("drifted, run --write" if problems else "up to date"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
