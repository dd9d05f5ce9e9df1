"""No solution reaches a student: check the student edition and the released problem sets.

It collects every solution there is:

* each ``{solution}`` block of every chapter (``book/*.ipynb``), fenced (```` ``` ```` or
  ``:::``) or gated (``{solution-start}`` ... ``{solution-end}``, with the cells between);
* each reference answer of ``coursework/source`` (the ``### BEGIN SOLUTION`` regions and the
  written answers with their rubrics);

and looks for them in the student edition's HTML and in the released notebooks. A solution
leaks when a run of 8 consecutive words of it appears there, or one of its decimal numbers of
three or more significant digits (``0.1124``, ``8.35``) does. Runs and numbers that the book
also states outside its solutions (its prose, its shown code and their outputs) are not
counted: only what a student could learn from a solution alone. Nor is what kappalib's own
source says (its docstrings make the book's API page): a student has the installed package and
its ``help()`` anyway. Cells tagged ``hide-input``
count as hidden, not as shown: the chapters use them to check the numbers of their solutions,
and the student edition drops their input. Nor may a page of the student edition name the
repository (a link, a citation): the repository holds the solutions.

    python coursework/leak_check.py --html _build/student/_build/html --release DIR

Exit status 1 with one line per leak.
"""

from __future__ import annotations

import argparse
import html
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUN = 8
OPEN = re.compile(r"^(`{3,}|:{3,})\{solution\}")


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+(?:\.[0-9]+)?", text.lower())


def runs(text: str, n: int = RUN) -> set[tuple[str, ...]]:
    w = words(text)
    return {tuple(w[i : i + n]) for i in range(len(w) - n + 1)}


def numbers(text: str) -> set[str]:
    """Decimal numbers with at least three significant digits, as written (sign dropped)."""
    found = set()
    for x in re.findall(r"\d+\.\d+", text):
        if len(x.replace(".", "").lstrip("0")) >= 3:
            found.add(x)
    return found


def split_markdown(source: str) -> tuple[list[str], str]:
    """(fenced solution bodies, the rest) of one markdown cell."""
    solutions, rest, fence, body = [], [], None, []
    for line in source.splitlines():
        if fence is None:
            m = OPEN.match(line.strip())
            if m:
                fence, body = m.group(1), []
            else:
                rest.append(line)
        elif line.strip() == fence:
            solutions.append("\n".join(body))
            fence = None
        else:
            body.append(line)
    return solutions, "\n".join(rest)


def book_solutions(book: Path) -> tuple[dict[str, list[str]], str]:
    """({chapter: [solution text, ...]}, the book's text outside its solutions)."""
    found, outside = {}, []
    for nb_path in sorted(book.glob("*.ipynb")):
        cells = json.loads(nb_path.read_text())["cells"]
        texts, gated = [], None
        for cell in cells:
            source = "".join(cell["source"])
            if gated is not None:
                if "{solution-end}" in source:
                    texts.append("\n".join(gated))
                    gated = None
                else:
                    gated.append(source)
                continue
            if "{solution-start}" in source:
                head = source.split("{solution-start}", 1)[1]
                gated = [head.split("\n", 1)[1] if "\n" in head else ""]
                continue
            if cell["cell_type"] == "markdown":
                blocks, rest = split_markdown(source)
                texts += blocks
                outside.append(rest)
            elif not {"hide-input", "remove-cell", "remove-input"} & set(
                cell["metadata"].get("tags", [])
            ):
                # shown code and its outputs (a hidden check cell does not count)
                outside.append(source)
                for out in cell.get("outputs", []):
                    data = out.get("data", {})
                    for part in (out.get("text"), data.get("text/plain"), data.get("text/html")):
                        outside.append("".join(part) if isinstance(part, list) else part or "")
        found[nb_path.stem] = texts
    for md in sorted(book.glob("*.md")):
        outside.append(md.read_text())
    return found, "\n".join(outside)


def coursework_solutions(source: Path) -> tuple[dict[str, list[str]], str]:
    """({problem set: [reference answer, ...]}, the problem sets' text outside them)."""
    found, outside = {}, []
    for nb_path in sorted(source.glob("*/*.ipynb")):
        texts = []
        for cell in json.loads(nb_path.read_text())["cells"]:
            meta, text = cell["metadata"].get("nbgrader", {}), "".join(cell["source"])
            if meta.get("solution") and cell["cell_type"] == "markdown":
                texts.append(text)
                continue
            if meta.get("solution"):
                regions = re.findall(r"### BEGIN SOLUTION\n(.*?)### END SOLUTION", text, re.S)
                texts += regions
                for region in regions:
                    text = text.replace(region, "")
            outside.append(text)
        found[nb_path.stem] = texts
    return found, "\n".join(outside)


def html_text(site: Path) -> dict[str, str]:
    pages = {}
    for page in sorted(site.rglob("*.html")):
        text = re.sub(r"<(script|style)\b.*?</\1>", " ", page.read_text(), flags=re.S)
        pages[str(page.relative_to(site))] = html.unescape(re.sub(r"<[^>]+>", " ", text))
    return pages


def release_text(release: Path) -> dict[str, str]:
    pages = {}
    for nb in sorted(release.glob("*/*.ipynb")):
        cells = json.loads(nb.read_text())["cells"]
        pages[str(nb.relative_to(release))] = "\n".join("".join(c["source"]) for c in cells)
    return pages


def leaks(solutions: dict[str, list[str]], allowed: str, targets: dict[str, str]) -> list[str]:
    """One line per (solution, target) where a run or a number of the solution shows."""
    ok_runs, ok_numbers = runs(allowed), numbers(allowed)
    target_runs = {name: runs(text) for name, text in targets.items()}
    target_numbers = {name: numbers(text) for name, text in targets.items()}
    found = []
    for where, texts in solutions.items():
        for i, text in enumerate(texts, 1):
            mine, nums = runs(text) - ok_runs, numbers(text) - ok_numbers
            for name in targets:
                shown = mine & target_runs[name]
                shown_numbers = nums & target_numbers[name]
                if shown:
                    found.append(f"{where} solution {i}: {' '.join(min(shown))!r} in {name}")
                if shown_numbers:
                    found.append(f"{where} solution {i}: {sorted(shown_numbers)} in {name}")
    return found


def ways_back(site: Path, repo_url: str) -> list[str]:
    """One line per student-edition page that names the repository (it holds the solutions):
    a link, a citation, an issues button.  Raw HTML, so that an href counts."""
    return [
        f"{page.relative_to(site)} names the repository {repo_url}"
        for page in sorted(site.rglob("*.html"))
        if repo_url in page.read_text()
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--html", type=Path, help="the student edition's HTML folder")
    parser.add_argument("--release", type=Path, help="the released problem sets")
    parser.add_argument("--book", type=Path, default=ROOT / "book")
    parser.add_argument("--source", type=Path, default=ROOT / "coursework" / "source")
    args = parser.parse_args()
    chapters, outside = book_solutions(args.book)
    sets, outside_sets = coursework_solutions(args.source)
    targets = {}
    if args.html:
        targets |= html_text(args.html)
    if args.release:
        targets |= {f"release/{k}": v for k, v in release_text(args.release).items()}
    library = "\n".join(p.read_text() for p in sorted((ROOT / "kappalib").rglob("*.py")))
    found = leaks(chapters | sets, "\n".join([outside, outside_sets, library]), targets)
    if args.html:
        import yaml

        config = yaml.safe_load((ROOT / "_config.yml").read_text())
        found += ways_back(args.html, config["repository"]["url"])
    for line in found:
        print("LEAK:", line)
    n = sum(map(len, chapters.values())) + sum(map(len, sets.values()))
    print(f"leak check: {n} solutions ({len(chapters)} chapters, {len(sets)} problem sets) "
          f"against {len(targets)} pages: {len(found)} leaks")  # fmt: skip
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
