"""Check the printed book, ``_build/kappa-honestly.pdf`` (run by ``make pdf``).

It reads the PDF's text with pypdf and fails unless:

* the page count is sane for the number of pages in ``_toc.yml`` (between MIN_PAGES_PER_PAGE
  and MAX_PAGES_PER_PAGE printed pages per book page: an empty or truncated print, or one that
  prints each line on its own page, falls outside);
* the title of every page listed in ``_toc.yml`` (the first ``# `` heading of its notebook or
  Markdown file) is in the text, so no chapter is missing, new chapters included;
* no raw TeX is left in the text (``$$``, ``\\frac``, ``\\begin{`` and the other macros
  below): every formula was typeset by MathJax before printing. The code cells print as they
  are, and a few hold TeX for matplotlib labels (``"$\\kappa$"``): a macro counts as raw only
  beyond the number of times the code blocks of the single-page HTML hold it;
* every page carries its footer, "Kappa, honestly · <page> / <pages>" (tools/pdf.py);
* the PDF holds at least as many images as the single-page HTML has distinct static figures
  (widget snapshots excluded; ``--site``), so the figures were printed.
"""

from __future__ import annotations

import argparse
import html as html_lib
import json
import multiprocessing
import os
import re
import sys
import unicodedata
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
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
    """Compare as text: ligatures undone (NFKC: "ﬁ" -> "fi"), quotes and dashes plain,
    whitespace collapsed, lower case."""
    text = unicodedata.normalize("NFKC", text).translate(QUOTES)
    return " ".join(text.split()).lower()


def code_text(html: Path | None) -> str:
    """The text of every code block (<pre>) of the single-page HTML."""
    if html is None or not html.is_file():
        return ""
    blocks = re.findall(r"<pre[^>]*>(.*?)</pre>", html.read_text(encoding="utf-8"), re.S)
    return "\n".join(html_lib.unescape(re.sub(r"<[^>]+>", "", b)) for b in blocks)


def single_page(site: Path) -> Path:
    """The single-page book in a ``singlehtml`` build: index.html only redirects to it."""
    index = site / "index.html"
    if not index.is_file():
        return index
    match = re.search(
        r'http-equiv="Refresh" content="0; url=([^"]+)"', index.read_text(encoding="utf-8"), re.I
    )
    return site / match.group(1) if match else index


def html_figures(html: Path) -> int:
    """Distinct static images of the single-page HTML (not inside a widget's output)."""
    text = html.read_text(encoding="utf-8")
    return len(set(re.findall(r'<img[^>]*\ssrc="((?:\.\./)*_images/[^"]+)"', text)))


def _texts(job: tuple[str, int, int]) -> list[str]:
    from pypdf import PdfReader

    path, start, stop = job
    reader = PdfReader(path)
    return [reader.pages[i].extract_text() or "" for i in range(start, stop)]


def page_texts(pdf: Path, n_pages: int, workers: int | None = None) -> list[str]:
    """Each page's text (pypdf's extract_text), page by page; the pages are shared out in
    runs to ``workers`` processes (default one per core, at most 2): pure Python, about 65 ms
    a page."""
    if workers is None:
        workers = max(1, min(2, os.cpu_count() or 1))
    if workers <= 1 or n_pages < 40:
        return _texts((str(pdf), 0, n_pages))
    step = -(-n_pages // (3 * workers))
    jobs = [(str(pdf), i, min(i + step, n_pages)) for i in range(0, n_pages, step)]
    ctx = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=ctx) as pool:
        return [text for chunk in pool.map(_texts, jobs) for text in chunk]


def image_count(resources, forms: tuple = ()) -> int:
    """The image XObjects a page's resources name, those of its form XObjects included.

    What ``len(page.images)`` of pypdf counts, less inline images (``BI`` ... ``EI``, which
    Chromium's printer does not write; leaving them out can only lower the count), and
    without parsing each page's content stream a second time (the text extraction parses it
    once): 0.3 s instead of 31 s for the whole book."""
    if resources is None:
        return 0
    xobjects = resources.get_object().get("/XObject")
    if xobjects is None:
        return 0
    xobjects = xobjects.get_object()
    count = 0
    for key in xobjects:
        obj = xobjects[key].get_object()
        subtype = obj.get("/Subtype")
        if subtype == "/Image":
            count += 1
        elif subtype == "/Form" and id(obj) not in forms:  # a form drawn inside itself: once
            count += image_count(obj.get("/Resources"), (*forms, id(obj)))
    return count


def check(pdf: Path, toc: Path, html: Path | None) -> list[str]:
    from pypdf import PdfReader
    from pypdf.errors import PyPdfError

    problems = []
    try:
        reader = PdfReader(str(pdf))
        pages = page_texts(pdf, len(reader.pages))
    except (PyPdfError, ValueError, KeyError) as exc:  # truncated or damaged
        print(f"check-pdf: {pdf} cannot be read as a PDF (truncated or damaged?): {exc}")
        return [f"{pdf} is not a readable PDF: {exc}"]
    n_pages = len(pages)
    files = toc_files(toc)
    low, high = MIN_PAGES_PER_PAGE * len(files), MAX_PAGES_PER_PAGE * len(files)
    if not low <= n_pages <= high:
        problems.append(f"{n_pages} pages, outside {low}..{high} for {len(files)} book pages")
    unnumbered = [
        number
        for number, page_text in enumerate(pages, start=1)
        if f"kappa, honestly · {number} / {n_pages}" not in normalise(page_text)
    ]
    if unnumbered:
        problems.append(
            f"{len(unnumbered)} of {n_pages} pages without the footer 'Kappa, honestly · "
            f"<page> / {n_pages}' (tools/pdf.py), e.g. page {unnumbered[0]}"
        )
    text = normalise("\n".join(pages))
    squeezed = text.replace(" ", "")
    titles = []
    found_titles = 0
    for name in files:
        title = page_title(toc.parent, name)
        if title is None:
            problems.append(f"{name}: no title found in its source")
            continue
        titles.append(title)
        wanted = normalise(title)
        if wanted in text or wanted.replace(" ", "") in squeezed:
            found_titles += 1
        else:
            problems.append(f"title missing from the PDF: {title!r} ({name})")
    in_code = Counter(m.group(0) for m in RAW_TEX.finditer(code_text(html)))
    found: Counter = Counter()
    where: dict[str, list[str]] = {}
    for number, page_text in enumerate(pages, start=1):
        for match in RAW_TEX.finditer(page_text):
            found[match.group(0)] += 1
            context = page_text[max(0, match.start() - 30) : match.end() + 30]
            where.setdefault(match.group(0), []).append(
                f"page {number}: {' '.join(context.split())!r}"
            )
    for token, count in sorted(found.items()):
        if count > in_code[token]:
            problems.append(
                f"raw TeX {token!r} {count} times, only {in_code[token]} in code blocks; "
                f"e.g. {'; '.join(where[token][:3])}"
            )
    n_images = sum(image_count(page.get("/Resources")) for page in reader.pages)
    if html is not None and html.is_file():
        wanted_images = html_figures(html)
        if n_images < wanted_images:
            problems.append(
                f"{n_images} images in the PDF, fewer than the {wanted_images} static figures "
                "of the single-page book"
            )
    print(
        f"check-pdf: {pdf}: {n_pages} pages ({low}..{high} allowed), {found_titles} of "
        f"{len(files)} page titles found, {n_images} images, "
        f"{len(problems)} problems"
    )
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pdf", type=Path, nargs="?", default=Path("_build/kappa-honestly.pdf"))
    parser.add_argument("--toc", type=Path, default=Path("_toc.yml"))
    parser.add_argument(
        "--site",
        type=Path,
        default=Path("_build/pdf/_build/singlehtml"),
        help="the single-page HTML build the PDF was printed from (default: %(default)s)",
    )
    args = parser.parse_args()
    if not args.pdf.is_file():
        print(f"check-pdf: {args.pdf} does not exist; run make pdf.")
        return 1
    problems = check(args.pdf, args.toc, single_page(args.site))
    for problem in problems[:40]:
        print(f"  FAIL: {problem}")
    if len(problems) > 40:
        print(f"  ... and {len(problems) - 40} more")
    print(f"check-pdf: {0 if problems else 1} passed, {1 if problems else 0} failed")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
