"""Sphinx extension: the search page shows its excerpts from disk too.

Sphinx's search page finds the matching pages in its index, then fetches each page to cut an
excerpt around the words. Opened from a folder (``file://``, an unzipped copy of the site),
the browser refuses those fetches ("Failed to fetch" in the console) and the results have no
excerpts. This extension writes, at the end of the build, ``_static/search_text.js``: the text
of every page's main content, kept with its sections (so an excerpt of a section is that
section's text), as ``window.KH_SEARCH_TEXT = {docname: html}``. ``book/_static/page.js``, on
the search page opened from disk only, loads it and answers the search's fetches from it.
Served over HTTP nothing changes, and the file is never loaded.
"""

from __future__ import annotations

import html
import json
import re
from html.parser import HTMLParser
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.util import logging

logger = logging.getLogger(__name__)

TARGET = "search_text.js"  # under _static/
SKIP_TAGS = {"script", "style", "noscript", "template", "svg", "button", "nav"}
SKIP_CLASSES = {"headerlink", "toggle-button", "copybtn", "kh-explorer-live", "sc-live",
                "bd-header-article", "bd-sidebar-secondary", "prev-next-area",
                "bd-footer-article"}  # fmt: skip


VOID = {"br", "img", "hr", "input", "meta", "link", "wbr", "source", "col", "area", "base"}
BLOCKS = {"p", "li", "h1", "h2", "h3", "h4", "td", "th", "dt", "dd", "pre", "div", "figcaption"}


class _MainText(HTMLParser):
    """The text of the element with role="main", with its <section id> nesting kept."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        # Each open element: (tag, wrote a <section>, started skipping, is the main element).
        self.stack: list[tuple[str, bool, bool, bool]] = []
        self.inside = False  # within the main element
        self.done = False
        self.skipping = 0

    def handle_starttag(self, tag, attrs):
        if tag in VOID:
            return
        a = dict(attrs)
        main = not self.inside and not self.done and a.get("role") == "main"
        wrote = skip = False
        if main:
            self.inside = True
            self.out.append('<div role="main">')
        elif self.inside:
            classes = set((a.get("class") or "").split())
            if not self.skipping and (tag in SKIP_TAGS or classes & SKIP_CLASSES):
                skip = True
                self.skipping += 1
            elif not self.skipping and tag == "section" and a.get("id"):
                self.out.append(f'<section id="{html.escape(a["id"])}">')
                wrote = True
            elif tag in BLOCKS:
                self.out.append(" ")
        self.stack.append((tag, wrote, skip, main))

    def handle_endtag(self, tag):
        if tag in VOID or not any(t == tag for t, *_ in self.stack):
            return
        while self.stack:
            open_tag, wrote, skip, main = self.stack.pop()
            if wrote:
                self.out.append("</section>")
            if skip:
                self.skipping -= 1
            if main:
                self.out.append("</div>")
                self.inside, self.done = False, True
            if open_tag == tag:
                return

    def handle_data(self, data):
        if self.inside and not self.skipping:
            self.out.append(html.escape(data, quote=False))


def main_text(page_html: str) -> str:
    parser = _MainText()
    parser.feed(page_html)
    return re.sub(r"\s+", " ", "".join(parser.out)).strip()


def write_search_text(app: Sphinx, exception) -> None:
    if exception is not None or app.builder.name != "html":
        return
    outdir = Path(app.outdir)
    texts = {}
    for docname in sorted(app.env.found_docs):
        page = outdir / f"{docname}.html"
        if page.is_file():
            texts[docname] = main_text(page.read_text(encoding="utf-8"))
    target = outdir / "_static" / TARGET
    target.write_text(
        "// Built by tools/offline_search.py: each page's main text, for the search page's\n"
        "// excerpts when the site is opened from disk (book/_static/page.js loads it).\n"
        f"window.KH_SEARCH_TEXT = {json.dumps(texts, ensure_ascii=False)};\n",
        encoding="utf-8",
    )
    logger.info("offline_search: %d pages, %.0f kB", len(texts), target.stat().st_size / 1e3)


def setup(app: Sphinx) -> dict:
    app.connect("build-finished", write_search_text)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
