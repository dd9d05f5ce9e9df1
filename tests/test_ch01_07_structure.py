"""Chapters 01 to 07 keep the page skeleton of issue 33, and their stated times are computed.

Each chapter has: learning objectives, prerequisites and a time; a main path of ``##``
sections, each with at least one self-check; going-deeper parts (every cell tagged
``going-deeper``, the part opening with a heading "Going deeper: ..."); a summary; exercises,
each followed by a hint; references. Nothing but exercises, hints and solutions sits under the
"Exercises" heading. The same rules as tests/test_ch08_14_structure.py (chapters 08 to 14).

The time a chapter states is checked against a study pace computed from the notebook itself:
50 words of prose a minute, half a minute for each code cell a reader runs and reads, two
minutes a self-check, ten minutes an exercise. ``reading_stats`` is also what the closing note
quotes ("words on the main path before and after").
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CHAPTERS = sorted(p for p in (ROOT / "book").glob("*.ipynb") if 1 <= int(p.name[:2]) <= 7)
WORDS_PER_MINUTE = 50
MINUTES_PER_CODE_CELL = 0.5
MINUTES_PER_SELF_CHECK = 2
MINUTES_PER_EXERCISE = 10
WORD = re.compile(r"\S+")
TIME = re.compile(
    r"\*\*Time\.\*\* About (\d+) minutes for the main path and its self-checks, (\d+) more "
    r"for the going-deeper parts, (\d+) for the exercises\.".replace(" ", r"\s+")
)


def _source(cell: dict) -> str:
    src = cell["source"]
    return src if isinstance(src, str) else "".join(src)


def _tags(cell: dict) -> set[str]:
    return set(cell.get("metadata", {}).get("tags", []))


def is_self_check(cell: dict) -> bool:
    return cell["cell_type"] == "markdown" and "```{self-check}" in _source(cell)


def self_check_count(cell: dict) -> int:
    return _source(cell).count("```{self-check}") if cell["cell_type"] == "markdown" else 0


def reading_stats(path: Path) -> dict:
    """Words and cells of a chapter's main path, going-deeper parts and exercises."""
    nb = json.loads(path.read_text())
    stats = {"main_words": 0, "main_code": 0, "gd_words": 0, "gd_code": 0,
             "self_checks": 0, "exercises": 0, "sections": []}  # fmt: skip
    part = "head"
    for cell in nb["cells"]:
        src, tags = _source(cell), _tags(cell)
        if cell["cell_type"] == "markdown":
            if re.search(r"^## Exercises\s*$", src, re.M):
                part = "exercises"
            elif re.search(r"^## References\s*$", src, re.M):
                part = "references"
        if part in ("exercises", "references"):
            stats["exercises"] += len(re.findall(r"^```+\{exercise\}", src, re.M))
            continue
        stats["self_checks"] += self_check_count(cell)
        gd = "going-deeper" in tags
        if cell["cell_type"] == "markdown":
            text = re.sub(r"```\{self-check\}.*?\n```", "", src, flags=re.S)
            stats["gd_words" if gd else "main_words"] += len(WORD.findall(text))
            if not gd:
                stats["sections"] += re.findall(r"^## (.+)$", src, re.M)
        elif not tags & {"remove-cell", "hide-input", "hide-cell", "remove-input"}:
            stats["gd_code" if gd else "main_code"] += 1
    return stats


def computed_minutes(stats: dict) -> tuple[float, float, float]:
    main = (stats["main_words"] / WORDS_PER_MINUTE + stats["main_code"] * MINUTES_PER_CODE_CELL
            + stats["self_checks"] * MINUTES_PER_SELF_CHECK)  # fmt: skip
    deeper = stats["gd_words"] / WORDS_PER_MINUTE + stats["gd_code"] * MINUTES_PER_CODE_CELL
    return main, deeper, stats["exercises"] * MINUTES_PER_EXERCISE


def _cells(path: Path) -> list[dict]:
    return json.loads(path.read_text())["cells"]


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name[:2])
def test_the_stated_time_is_the_study_pace_of_the_chapter(path):
    head = _source(_cells(path)[0])
    found = TIME.search(head)
    assert found, f"{path.name}: no '**Time.** About ... minutes for the main path ...' line"
    stated = [int(x) for x in found.groups()]
    for what, say, computed in zip(
        ("main path", "going deeper", "exercises"),
        stated,
        computed_minutes(reading_stats(path)),
        strict=True,
    ):
        assert abs(say - computed) <= max(5, 0.15 * computed), (
            f"{path.name}: states {say} min for the {what}, the study pace gives {computed:.0f}"
        )


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name[:2])
def test_the_page_skeleton(path):
    cells = _cells(path)
    head = _source(cells[0])
    for needed in ("**Learning objectives.**", "**Prerequisites.**", "**Time.**"):
        assert needed in head, f"{path.name}: the first cell has no {needed}"
    text = "\n".join(_source(c) for c in cells if c["cell_type"] == "markdown")
    headings = re.findall(r"^## (.+)$", text, re.M)
    assert headings[-3:] == ["Summary", "Exercises", "References"], headings[-3:]
    assert "```{bibliography}" in text


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name[:2])
def test_only_exercises_hints_and_solutions_under_the_exercises_heading(path):
    text = "\n".join(_source(c) for c in _cells(path) if c["cell_type"] == "markdown")
    part = text.split("\n## Exercises", 1)[1].split("\n## References", 1)[0]
    # a solution written as solution-start ... solution-end (with code cells between)
    part = re.sub(r"```\{solution-start\}.*?```\{solution-end\}\n```", "", part, flags=re.S)
    directive = r"(`{3,})\{(exercise|solution|solution-start|solution-end|admonition)\}.*?\n\1"
    outside = re.sub(directive, "", part, flags=re.S)
    assert not outside.strip(), f"{path.name}: text under Exercises: {outside.strip()[:80]!r}"
    n_ex = len(re.findall(r"^`{3,}\{exercise\}", part, re.M))
    n_hints = len(re.findall(r"^`{3,}\{admonition\} Hint\n:class: dropdown", part, re.M))
    assert n_ex >= 3 and n_hints == n_ex, f"{path.name}: {n_ex} exercises, {n_hints} hints"


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name[:2])
def test_going_deeper_parts_are_marked(path):
    cells = _cells(path)
    runs, previous = [], False
    for cell in cells:
        gd = "going-deeper" in _tags(cell)
        if gd and not previous:
            runs.append(cell)
        previous = gd
    assert runs, f"{path.name}: no going-deeper part"
    for first in runs:
        assert first["cell_type"] == "markdown", f"{path.name}: a part opens with code"
        title = _source(first).lstrip().splitlines()
        title = [t for t in title if not t.startswith("(")]  # a label line, (ch08-x)=
        assert re.match(r"^#{2,3} Going deeper: ", title[0]), f"{path.name}: {title[0]!r}"


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name[:2])
def test_every_main_section_has_a_self_check(path):
    cells = _cells(path)
    section, counts = None, {}
    for cell in cells:
        src = _source(cell)
        if cell["cell_type"] == "markdown" and "going-deeper" not in _tags(cell):
            for h in re.findall(r"^## (.+)$", src, re.M):
                section = h
                counts.setdefault(section, 0)
        if section is not None:
            counts[section] += self_check_count(cell)
    main = {s: n for s, n in counts.items() if s not in ("Summary", "Exercises", "References")}
    missing = [s for s, n in main.items() if n == 0]
    assert not missing, f"{path.name}: main sections without a self-check: {missing}"
    assert sum(counts.values()) >= 3
