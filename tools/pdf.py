"""Print the book to one PDF with Chromium: ``make pdf`` (run by ``.ci/run``).

``make pdf`` first builds the single-page HTML version of the book
(``jupyter-book build . --builder singlehtml --path-output _build/pdf``, strict, like
``make book``); this script then opens that page in the same headless Chromium that
``make check-site`` uses (Debian's, driven by Playwright, network unplugged: the page loads
MathJax and everything else from the build itself), waits until MathJax has typeset every
formula, opens every collapsed solution, and prints the page with Chromium's own PDF printer
(``page.pdf``) into ``_build/kappa-honestly.pdf``. No TeX, and nothing downloaded.

What the printed page looks like is set by the print rules of ``book/_static/custom.css``:
long code lines wrap instead of being cut off, and an interactive cell prints its code and a
note, its static figure being the one printed just before it (the live controls are left out).
``tools/check_pdf.py`` then checks the PDF.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urljoin

sys.path.insert(0, str(Path(__file__).resolve().parent))

from browser import (  # tools/ is on sys.path (not a package)
    CHROMIUM,
    banner,
    block_offsite,
    ensure_chromium,
    is_local_to,
    js,
    launch,
    serve,
)
from check_pdf import single_page

WAIT_MS = 120_000  # the single page holds every formula of the book
PRINT_NAME = "kappa-honestly-print.html"

# Every formula typeset: MathJax's start-up promise has settled, and no .math element of the
# page is still without its MathJax output.
MATH_DONE = js("math_done")
OPEN_TOGGLES = js("open_toggles")

# The footer of every printed page, "Kappa, honestly · 6 / 436": a CSS margin box of the page
# (@page, counter(page), counter(pages)), added to the page just before printing. It prints the
# same words as Chromium's footer template did (display_header_footer), which Chromium lays
# out as a document of its own for each page: 13 s of the 45 s print of 436 pages.
FOOTER_CSS = """@page {
  @bottom-center {
    content: "Kappa, honestly \\00B7  " counter(page) " / " counter(pages);
    font-family: system-ui, -apple-system, "Segoe UI", sans-serif;
    font-size: 8px;
    color: #555;
  }
}"""


def print_pdf(site: Path, out: Path) -> int:
    from playwright.sync_api import sync_playwright

    index = single_page(site)
    if not index.is_file():
        print(f"pdf: {index} does not exist; build the single-page book first (make pdf).")
        return 1
    if not ensure_chromium():
        banner([f"pdf: no Chromium at {CHROMIUM}, and it could not be installed.", "No PDF."])
        return 1
    server, base = serve(site)
    blocked: list[str] = []
    errors: list[str] = []
    t0 = time.perf_counter()
    laps: list[tuple[str, float]] = []

    def lap(name: str) -> None:
        laps.append((name, time.perf_counter()))

    try:
        with tempfile.TemporaryDirectory(prefix="pdf-profile-") as profile, sync_playwright() as p:
            context = launch(p, profile, viewport={"width": 1000, "height": 1400})
            page = context.new_page()

            # Sphinx writes the single page at the root document's path (book/intro.html)
            # but computes its links (_static/..., _images/...) from the site's root, so the
            # page is opened from there: the server answers PRINT_URL with its text.
            # (Playwright tries the routes last registered first.)
            block_offsite(page, is_local_to(base), blocked.append)
            print_url = urljoin(base, PRINT_NAME)
            page.route(
                print_url,
                lambda route: route.fulfill(
                    body=index.read_bytes(), content_type="text/html; charset=utf-8"
                ),
            )
            page.on("pageerror", lambda err: errors.append(f"{err.name}: {err.message}"))
            lap("start")
            page.goto(print_url, wait_until="load", timeout=WAIT_MS)
            lap("load")
            left = page.evaluate(MATH_DONE)
            if left is None:
                page.wait_for_function(
                    "() => window.MathJax && window.MathJax.startup && "
                    "window.MathJax.startup.promise",
                    timeout=WAIT_MS,
                )
                left = page.evaluate(MATH_DONE)
            if left:
                print(f"pdf: {left} formulas were not typeset by MathJax; no PDF written.")
                return 1
            n_math = page.evaluate("() => document.querySelectorAll('mjx-container').length")
            lap("typeset")
            page.evaluate(OPEN_TOGGLES)
            lap("toggles")
            page.wait_for_timeout(500)  # the toggles' opening transition
            lap("wait")
            page.evaluate("() => document.fonts.ready.then(() => true)")
            lap("fonts")
            page.emulate_media(media="print")
            page.add_style_tag(content=FOOTER_CSS)
            lap("emulate")
            out.parent.mkdir(parents=True, exist_ok=True)
            page.pdf(
                path=str(out),
                format="A4",
                margin={"top": "16mm", "bottom": "16mm", "left": "14mm", "right": "14mm"},
                print_background=True,
                scale=0.85,
            )
            lap("print")
            context.close()
    finally:
        server.shutdown()
    if blocked:
        print("pdf: the page asked for files off the machine:", *blocked[:5], sep="\n  ")
        return 1
    if errors:
        print("pdf: the page threw errors:", *errors[:5], sep="\n  ")
        return 1
    size = out.stat().st_size / 1e6
    print(
        f"pdf: {out} ({size:.1f} MB, {n_math} formulas typeset) printed from {site} in "
        f"{time.perf_counter() - t0:.1f} s ("
        + ", ".join(f"{name} {t - prev:.1f}" for (_, prev), (name, t) in itertools.pairwise(laps))
        + ")"
    )
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--site",
        type=Path,
        default=Path("_build/pdf/_build/singlehtml"),
        help="the single-page HTML build (default: %(default)s)",
    )
    parser.add_argument("--out", type=Path, default=Path("_build/kappa-honestly.pdf"))
    args = parser.parse_args()
    return print_pdf(args.site, args.out)


if __name__ == "__main__":
    sys.exit(main())
