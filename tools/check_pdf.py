"""Check the printed book, ``_build/kappa-honestly.pdf`` (run by ``make pdf``).

It reads the PDF's text with pypdf and fails unless:

* the page count is sane for the number of pages in ``_toc.yml`` (between MIN_PAGES_PER_PAGE
  and MAX_PAGES_PER_PAGE printed pages per book page: an empty or truncated print, or one that
  prints each line on its own page, falls outside);
* the title of every page listed in ``_toc.yml`` (the first ``# `` heading of its notebook or
  Markdown file) is in the text, so no chapter is missing, new chapters included;
* no raw TeX is left in the text (``$$``, ``\\frac``, ``\\begin{`` and the other macros
  below): every formula was typeset by MathJax before printing;
* the PDF holds at least as many images as the single-page HTML has distinct static figures
  (widget snapshots excluded; ``--html``), so the figures were printed.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

MIN_PAGES_PER_PAGE = 1
MAX_PAGES_PER_PAGE = 60
RAW_TEX = re.compile(
    r"\$\$|\\(?:frac|dfrac|tfrac|begin|end|left|right|sum|prod|operatorname|mathbb|mathrm"
    r"|kappa|cdot|sqrt|log|le|ge|mid|quad|text)(?![A-Za-z])"
)
QUOTES = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "‐": "-", "–": "-"})


def toc_files(toc: Path) -> list[str]:
    import yaml

    data = yaml.safe_load(toc.read_text(encoding="utf-8"))
    files = [data["root"]]

    def walk(entries):
        for entry in entries or []:
            if "file" in entry:
                files.append(entry["file"])
            walk(entry.get("sections"))

    for part in data.get("parts", []):
        walk(part.get("chapters"))
    walk(data.get("chapters"))
    return files


def page_title(root: Path, name: str) -> str | None:
    """The first level-1 heading of a book page (notebook or Markdown), as plain text."""
    for suffix in (".ipynb", ".md"):
        path = root / (name + suffix)
        if path.is_file():
            break
    else:
        return None
    if path.suffix == ".ipynb":
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        text = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    else:
        text = path.read_text(encoding="utf-8")
    match = re.search(r"^# (.+)$", text, re.MULTILINE)
    if not match:
        return None
    title = re.sub(r"[`*_]", "", match.group(1))  # Markdown emphasis and code marks
    return title.strip()


def normalise(text: str) -> str:
    return " ".join(text.translate(QUOTES).split()).lower()


def html_figures(html: Path) -> int:
    """Distinct static images of the single-page HTML (not inside a widget's output)."""
    text = html.read_text(encoding="utf-8")
    return len(set(re.findall(r'<img[^>]*\ssrc="(_images/[^"]+)"', text)))


def check(pdf: Path, toc: Path, html: Path | None) -> list[str]:
    from pypdf import PdfReader

    problems = []
    reader = PdfReader(str(pdf))
    pages = [page.extract_text() or "" for page in reader.pages]
    n_pages = len(pages)
    files = toc_files(toc)
    low, high = MIN_PAGES_PER_PAGE * len(files), MAX_PAGES_PER_PAGE * len(files)
    if not low <= n_pages <= high:
        problems.append(f"{n_pages} pages, outside {low}..{high} for {len(files)} book pages")
    text = normalise("\n".join(pages))
    squeezed = text.replace(" ", "")
    titles = []
    for name in files:
        title = page_title(toc.parent, name)
        if title is None:
            problems.append(f"{name}: no title found in its source")
            continue
        titles.append(title)
        wanted = normalise(title)
        if wanted not in text and wanted.replace(" ", "") not in squeezed:
            problems.append(f"title missing from the PDF: {title!r} ({name})")
    for number, page_text in enumerate(pages, start=1):
        for match in RAW_TEX.finditer(page_text):
            context = page_text[max(0, match.start() - 30) : match.end() + 30]
            problems.append(f"raw TeX on page {number}: {' '.join(context.split())!r}")
    n_images = sum(len(page.images) for page in reader.pages)
    if html is not None and html.is_file():
        wanted_images = html_figures(html)
        if n_images < wanted_images:
            problems.append(
                f"{n_images} images in the PDF, fewer than the {wanted_images} static figures "
                "of the single-page book"
            )
    print(
        f"check-pdf: {pdf}: {n_pages} pages ({low}..{high} allowed), {len(titles)} of "
        f"{len(files)} page titles found, {n_images} images, "
        f"{len(problems)} problems"
    )
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pdf", type=Path, nargs="?", default=Path("_build/kappa-honestly.pdf"))
    parser.add_argument("--toc", type=Path, default=Path("_toc.yml"))
    parser.add_argument(
        "--html", type=Path, default=Path("_build/pdf/_build/singlehtml/index.html")
    )
    args = parser.parse_args()
    if not args.pdf.is_file():
        print(f"check-pdf: {args.pdf} does not exist; run make pdf.")
        return 1
    problems = check(args.pdf, args.toc, args.html)
    for problem in problems[:40]:
        print(f"  FAIL: {problem}")
    if len(problems) > 40:
        print(f"  ... and {len(problems) - 40} more")
    print(f"check-pdf: {0 if problems else 1} passed, {1 if problems else 0} failed")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
