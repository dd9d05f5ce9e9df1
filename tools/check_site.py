"""The real-browser check of the built site: ``make check-site`` (run by ``.ci/run``).

It opens every page of ``_build/html`` in headless Chromium with the network unplugged, and
fails unless, on every page:

* every formula is typeset: each ``.math`` element holds MathJax output (``mjx-container``),
  MathJax reports no TeX error, and no raw TeX delimiters are left in the prose;
* every image in the article has loaded and has real alt text (not its file name), and every
  cell-output PNG is opaque, so a figure stays legible on the dark theme;
* every stored widget view is rendered by the widgets HTML manager;
* the calculator page (tools/site_calculator.py) takes 50 random matrices and 2 CSV files and
  shows kappalib's numbers, paragraph and code; at the edges (a header line unsaid, one class,
  bad scores and names) it shows kappalib's numbers or one sentence beside the right field;
* every live explorer (tools/check_explorers.py) mounts, hides its static figure on screen,
  and, moved through states and then by the keyboard alone, shows kappalib's numbers;
* every self-check (tools/check_self_checks.py) is played by the keyboard alone: a wrong
  answer gets its own explanation, kappalib's answer is confirmed, both announced by the
  self-check's polite live region; the hint, the answer (its numbers kappalib's) and a new
  table open from the keyboard;
* chapter pages (``book/NN_*.html``) have numbered headings, the launch buttons that the
  configuration has a target for (Binder and Colab once ``make publish-config`` has named the
  repository, JupyterHub once it has named a hub; none in an unpublished copy) and an .ipynb
  download; other source pages a download of their source;
* no link on any page points at a placeholder (the repository's or the hub's, see
  tools/publish_config.py): an unpublished build leaves those buttons out;
* no request fails or leaves the machine, and the console shows no error, apart from the
  ALLOWED_CONSOLE_ERRORS below, each with its reason.

Each page is loaded three times: from a local HTTP server on 127.0.0.1 (what ``make serve``
and a web host do), from disk through ``file://`` (an unzipped copy), and served again at a
phone's size (from disk, the calculator takes 5 random matrices, not 50: enough to show that
it works from ``file://``). Served at 1280 px, each page also gets the accessibility audit:

* axe-core (pinned in ``tools/vendor/package.json``, installed into ``.site-vendor`` by the
  Makefile, injected into the page; never shipped with the site) runs the WCAG 2.1 A and AA
  rules (tags wcag2a, wcag2aa, wcag21a, wcag21aa), and any serious or critical violation
  fails the page, except those of ALLOWED_AXE below (none today; the build mends the markup
  axe flagged): one rule on one selector each, for markup the book cannot change, each with
  its reason.

The phone pass (390 x 844, a mobile viewport) opens every collapsed solution and fails when

* a rendered formula, image, table, widget control or code block reaches past the right edge
  of an ancestor that hides overflow (it is cut off);
* one reaches past the screen with no scrolling box of its own (inside the article; for a
  widget control, outside the widget);
* the page, or the article's column, scrolls sideways as a whole;
* a figure's smallest text is drawn under 11 CSS px (the size its PNG records,
  book/figure_text.py, times its drawn over its natural width), or part of a figure is out of
  sight in a sideways-scrolling box with no visible cue.

The pages are found in the built site (every .html outside _static and friends), so new
chapters are checked without a change here. Screenshots of the served pages go to
``_build/screenshots/``, light theme, a dark-theme one of each page with figures or widgets,
and ``phone-*.png`` at phone size.

Each screenshot shows the top of its page, at most SHOT_HEIGHT CSS pixels (some pages are over
100,000 px tall, and a full-page shot of those cost more than every check of the page);
``CHECK_SITE_FULL_SHOTS=1`` takes whole pages.

Chromium is Debian's (``/usr/bin/chromium``, or ``$CHROMIUM``), driven by Playwright's Python
package without downloading a browser. "Network unplugged": Chromium resolves no host name
except 127.0.0.1 (``--host-resolver-rules``), runs no background networking, and every
request that is not to the local server or the site folder is aborted and reported. When
Chromium is missing, the check installs it with apt-get when it runs as root; otherwise it
prints a SKIPPED banner and exits 0, except under CI (``CI`` set), where it exits 1.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import queue
import re
import sys
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urljoin, urlparse

# Console errors that do not fail the check: (regular expression, reason). Keep each reason
# honest and specific; remove an entry when its cause is fixed. The two known errors of
# Jupyter Book 1.x pages are fixed rather than allowed:
# - sphinx-thebe's inline script, written twice, threw "Identifier 'THEBE_JS_URL' has already
#   been declared": sphinx_thebe is left out of the extension list (_config.yml).
# - pydata-sphinx-theme logged "Got invalid theme mode: . Resetting to auto." on every first
#   visit, because Jupyter Book leaves its default_mode empty: _config.yml sets html_context
#   default_mode to auto.
# And one that the offline set-up itself brought in, also fixed:
# - ipywidgets 8 typesets widget labels with the MathJax 2 API ("Cannot read properties of
#   undefined (reading 'Queue')" under MathJax 3): tools/offline_assets.py adds a shim.
ALLOWED_CONSOLE_ERRORS: list[tuple[str, str]] = []

# Warnings are reported, not failed; these are expected and not even reported.
QUIET_CONSOLE_WARNINGS = [
    # ajv (the JSON-schema validator bundled in the widgets HTML manager) compiling the
    # widget-state schema in strict mode; harmless, and printed by every such page.
    r"strict mode: use allowUnionTypes",
]

SKIP_DIRS = {"_static", "_sources", "_images", "_downloads"}
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
CHAPTER = re.compile(r"^book/\d\d_[^/]+\.html$")
FILE_NAME_ALT = re.compile(r"^\S+\.(png|jpe?g|svg|gif|webp)$", re.IGNORECASE)
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import check_explorers  # noqa: E402  (tools/: the live explorers against kappalib)
import check_self_checks  # noqa: E402  (tools/: the self-checks, played by the keyboard)
import publish_config  # noqa: E402  (tools/, standard library only)
from browser import (  # noqa: E402  (tools/: Chromium, the local server, tools/js/)
    CHROMIUM,
    banner,
    block_offsite,
    ensure_chromium,
    is_local_to,
    js,
    launch,
    serve,
)

# The launch buttons a chapter should have: those the configuration has a target for.
LAUNCHERS = publish_config.launchers(ROOT / "_config.yml")

WAIT_MS = 20_000

# The phone pass: every page again at a phone's size (CSS pixels of a 390 x 844 screen).
PHONE = {"width": 390, "height": 844}

# The accessibility audit: axe-core (pinned in tools/vendor/package.json, installed into
# .site-vendor by the Makefile, injected into each page; it is not shipped with the site).
AXE_JS = Path(__file__).resolve().parent.parent / ".site-vendor/node_modules/axe-core/axe.min.js"
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
AXE_FAIL_IMPACTS = ("serious", "critical")

# Serious or critical axe violations that do not fail the check: (rule id, CSS selector of the
# elements it is allowed on, reason). One rule on one kind of element each, never a category,
# and only for markup that the project cannot change at its source (the theme's HTML). Keep
# each reason honest and remove the entry when its cause is fixed.
# The two entries it once held are mended in the build instead (tools/offline_assets.py,
# MARKUP_FIXES): the reference lists' role="list" without list items (docutils), and the
# hide-input toggle named "Toggle hidden content" while it shows "Show code cell source"
# (myst-nb).
ALLOWED_AXE: list[tuple[str, str, str]] = []


@dataclass
class PageResult:
    name: str
    mode: str
    failures: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    seconds: float = 0.0
    axe: list[dict] = field(default_factory=list)  # serious/critical nodes, allowed or not
    phone_checked: int = 0
    phases: dict[str, float] = field(default_factory=dict)  # seconds per phase (PHASES)

    def fail(self, msg: str) -> None:
        self.failures.append(msg)


# The phases of a page's check, timed for the summary (seconds summed over the pages).
PHASES = (
    "load", "ready", "content", "axe", "screenshots", "explorers", "self-checks", "calculator",
    "phone", "settle",
)  # fmt: skip


@contextmanager
def phase(result: PageResult, name: str):
    start = time.perf_counter()
    try:
        yield
    finally:
        result.phases[name] = result.phases.get(name, 0.0) + time.perf_counter() - start


# --- setting up -----------------------------------------------------------------------------


def find_pages(site: Path) -> list[str]:
    pages = []
    for path in sorted(site.rglob("*.html")):
        rel = path.relative_to(site)
        if rel.parts[0] in SKIP_DIRS:
            continue
        pages.append(rel.as_posix())
    return pages


# --- what a page's source promises ------------------------------------------------------------


@dataclass
class Expect:
    redirect: str | None
    math: int
    widget_views: int
    explorers: int  # live explorers (tools/explorers_build.py's mount points)
    self_checks: int  # self-checks (tools/self_checks.py)
    source_suffix: str | None  # the suffix of the page's source, from its download link


def expectations(site: Path, name: str) -> Expect:
    html = (site / name).read_text(encoding="utf-8")
    m = re.search(r'http-equiv="Refresh" content="0; url=([^"]+)"', html, re.IGNORECASE)
    redirect = m.group(1) if m else None
    math = len(re.findall(r'class="math notranslate nohighlight"', html))
    views = len(re.findall(rf'<script type="{re.escape(WIDGET_VIEW)}"', html))
    explorers = len(re.findall(r'<div class="kh-explorer" data-explorer=', html))
    self_checks = len(re.findall(r'<div class="self-check[" ]', html))
    suffix = None
    src = Path("_sources") / Path(name).with_suffix("")
    for candidate in (".ipynb", ".md", ".rst"):
        if (site / src.with_suffix(candidate)).is_file() or (
            site / src.parent / (src.name + candidate + ".txt")
        ).is_file():
            suffix = candidate
            break
    return Expect(redirect, math, views, explorers, self_checks, suffix)


# --- in the browser ---------------------------------------------------------------------------

PROBE = js("probe")

WAIT_MATH = js("wait_math")
WAIT_WIDGETS = js("wait_widgets")


# Open every collapsed part of the article (solutions in dropdowns, <details>), so that the
# phone pass measures what a reader sees after opening them.
OPEN_TOGGLES = js("open_toggles")

# Resolves once the page's running CSS transitions and animations (those with an end) have
# finished, two frames after the call so that a class just toggled has started its own; at
# most 3 s. What the fixed waits after opening the toggles and switching the theme waited for.
ANIMATIONS_DONE = """async () => {
  await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  const running = document.getAnimations().filter(a => {
    const t = a.effect && a.effect.getComputedTiming();
    return t && Number.isFinite(t.endTime) && a.playState !== 'finished';
  });
  await Promise.race([Promise.all(running.map(a => a.finished.catch(() => null))),
                      new Promise(r => setTimeout(r, 3000))]);
  return running.length;
}"""

# The phone pass. For each rendered formula, image, table, widget and code block of the
# article: its right edge, or the right edge of its content when it lets that overflow, must not
# pass the inside right edge of an ancestor that hides overflow (the content is cut off), and
# must stay inside the viewport unless an ancestor inside the article scrolls sideways (the
# element's own scroll box). A scroll box of the page's frame (the article container and
# above) does not count: that moves the whole text column; nor, for a widget's controls, a
# box of the widget itself (a control must fit, not hide behind a scroll). Finally neither the
# page nor the article's column may scroll sideways as a whole.
PHONE_PROBE = js("phone_probe")

# The phone pass's figures: each figure image's drawn and natural widths, and whether part of
# it is out of sight in a scrolling box, with or without a visible cue (figure_problems).
FIGURE_PROBE = js("figure_probe")

# At a phone's size, the smallest text of a figure must be at least this many CSS px: the
# size the figure's PNG records (book/figure_text.py, "kh:min-text-px") times its drawn width
# over its natural width.
MIN_FIGURE_TEXT_PX = 11.0


def figure_problems(figures: list[dict], site: Path, name: str) -> list[str]:
    """At phone size: a figure whose text is drawn under MIN_FIGURE_TEXT_PX, or which hides
    part of itself in a scrolling box with no visible cue, or whose PNG does not record its
    text size (a chapter not re-executed since book/matplotlibrc)."""
    from explorers_build import png_info  # tools/

    out = []
    for fig in figures:
        src = fig["src"] or ""
        path = ((site / name).parent / unquote(urlparse(src).path)).resolve()
        label = f"figure {Path(urlparse(src).path).name} ({fig['alt']!r})"
        info = png_info(path) if "_images/" in src else None
        if info is None:
            continue  # not a figure's PNG (an SVG, the theme's icons)
        text = info["text"].get("kh:min-text-px")
        if text is None:
            out.append(
                f"{label} records no text size (kh:min-text-px): re-execute its chapter, "
                "whose figures book/matplotlibrc makes record it"
            )
        else:
            drawn = float(text) * fig["drawn"] / fig["natural"]
            if drawn < MIN_FIGURE_TEXT_PX:
                out.append(
                    f"{label}: its smallest text is {drawn:.1f} CSS px on the phone "
                    f"({float(text):.1f} px in the {fig['natural']} px image drawn "
                    f"{fig['drawn']:.0f} px wide), under {MIN_FIGURE_TEXT_PX:g}"
                )
        if fig["hidden"] > 0 and not fig["cue"]:
            out.append(
                f"{label}: {fig['hidden']} px of it are out of sight in a sideways-scrolling "
                "box with no visible cue"
            )
    return out


# axe-core, run on the page with the WCAG 2.1 A and AA rules; returns the serious and critical
# violations, each node marked with the ALLOWED_AXE entry (index) that covers it, if any.
AXE_RUN = js("axe_run")


def allowed(text: str) -> str | None:
    for pattern, reason in ALLOWED_CONSOLE_ERRORS:
        if re.search(pattern, text):
            return reason
    return None


def check_page(page, url: str, name: str, mode: str, site: Path, is_local, shot_dir):
    """Load one page and check it; ``mode`` is "http" (served, with the accessibility audit
    and screenshots), "file" (from disk) or "phone" (served, at PHONE size: the phone pass)."""
    result = PageResult(name, mode)
    expect = expectations(site, name)
    console_errors: list[str] = []
    bad_requests: list[str] = []

    def on_console(msg) -> None:
        text = msg.text
        if msg.type == "error":
            where = msg.location.get("url", "") if msg.location else ""
            console_errors.append(f"{text} [{where}]" if where else text)
        elif msg.type == "warning" and not any(re.search(p, text) for p in QUIET_CONSOLE_WARNINGS):
            result.warnings.append(text[:200])

    def on_pageerror(err) -> None:
        console_errors.append(f"uncaught {err.name}: {err.message}")

    blocked: set[str] = set()

    def on_blocked(req_url: str) -> None:
        blocked.add(req_url)
        bad_requests.append(f"blocked (would leave the machine): {req_url}")

    def on_failed(request) -> None:
        if request.url not in blocked:
            where = "" if is_local(request.url) else " (would leave the machine)"
            bad_requests.append(f"failed{where}: {request.url} ({request.failure})")

    def on_response(response) -> None:
        if response.status >= 400:
            bad_requests.append(f"HTTP {response.status}: {response.url}")

    page.on("console", on_console)
    page.on("pageerror", on_pageerror)
    page.on("requestfailed", on_failed)
    page.on("response", on_response)
    on_route = block_offsite(page, is_local, on_blocked)
    start = time.perf_counter()
    try:
        with phase(result, "load"):
            page.goto(url, wait_until="load", timeout=WAIT_MS)
            if expect.redirect:
                page.wait_for_url(lambda u: u != url, timeout=WAIT_MS)
                page.wait_for_load_state("load")
                result.notes.append(f"redirects to {expect.redirect}")
        if expect.redirect:
            pass  # nothing of its own to check
        elif mode == "phone":
            with phase(result, "ready"):
                _wait_ready(page, expect, result)
            _check_phone(page, name, result, shot_dir, site)
        else:
            with phase(result, "ready"):
                _wait_ready(page, expect, result)
            _check_content(page, name, expect, result, site, shot_dir, audit=mode == "http")
            if name == CARD and mode == "http":
                with phase(result, "content"):
                    _check_card_prints_on_one_page(page, result)
            if name == "search.html":
                with phase(result, "content"):
                    _check_search(page, url, result)
            if name == "book/calculator.html":
                # js25's calculator check: random matrices (50 served, 5 from disk) and 2 CSV
                # files against kappalib (it navigates the page itself; its phone probe at
                # 390 px too).
                from site_calculator import check_calculator  # tools/

                with phase(result, "calculator"):
                    check_calculator(
                        page,
                        url,
                        result,
                        # from disk, a few matrices show that the page works from file://;
                        # served, 50 random ones are compared with kappalib
                        n_matrices=50 if mode == "http" else 5,
                        axe_js=AXE_JS if mode == "http" else None,
                        axe_run=AXE_RUN,
                    )
        with phase(result, "settle"):
            page.wait_for_timeout(300)  # let late requests and console messages arrive
    except Exception as exc:  # a timeout or a crash is a failure of this page
        result.fail(f"{type(exc).__name__}: {str(exc).splitlines()[0]}")
    finally:
        page.unroute("**/*", on_route)
        for event, handler in (
            ("console", on_console),
            ("pageerror", on_pageerror),
            ("requestfailed", on_failed),
            ("response", on_response),
        ):
            page.remove_listener(event, handler)
    result.seconds = time.perf_counter() - start
    for text in console_errors:
        reason = allowed(text)
        if reason:
            result.notes.append(f"allowed console error ({reason}): {text[:160]}")
        else:
            result.fail(f"console error: {text[:300]}")
    for text in dict.fromkeys(bad_requests):
        result.fail(text)
    return result


# The search page, asked for a word: every result is listed, and from disk too each result
# with an excerpt (tools/offline_search.py, book/_static/page.js), where the browser refuses
# the fetches that cut them ("Failed to fetch").
SEARCH_QUERY = "expected agreement"
# Sphinx lists the results one at a time (5 ms apart), each fetching its page for the excerpt,
# and says "Search finished, found N page(s)" after the last: done when it has said so and
# every listed page has its excerpt (every excerpt's fetch has answered).
SEARCH_DONE = """() => {
  const summary = document.querySelector('#search-results .search-summary');
  const found = summary && /found (\\d+) page/.exec(summary.textContent);
  const items = document.querySelectorAll('#search-results li');
  return !!found && items.length > 0 && items.length === Number(found[1]) &&
    [...items].filter(li => !li.querySelector('span')).every(li => li.querySelector('p.context'));
}"""


def _check_search(page, url: str, result: PageResult) -> None:
    page.goto(f"{url}?q={SEARCH_QUERY.replace(' ', '+')}", wait_until="load", timeout=WAIT_MS)
    try:
        page.wait_for_function(SEARCH_DONE, timeout=WAIT_MS)
    except Exception:
        counts = page.evaluate(
            "() => [document.querySelectorAll('#search-results li').length,"
            " document.querySelectorAll('#search-results li p.context').length]"
        )
        result.fail(
            f"search for {SEARCH_QUERY!r}: {counts[0]} results, {counts[1]} with an excerpt"
        )
        return
    n = page.evaluate("() => document.querySelectorAll('#search-results li').length")
    result.notes.append(f"search for {SEARCH_QUERY!r}: {n} results, each with an excerpt")


# The summary card (book/summary_card.md) is for printing: on one A4 sheet.
CARD = "book/summary_card.html"


def _check_card_prints_on_one_page(page, result: PageResult) -> None:
    import io

    from pypdf import PdfReader

    pages = len(PdfReader(io.BytesIO(page.pdf(format="A4", print_background=True))).pages)
    if pages != 1:
        result.fail(f"the summary card prints on {pages} A4 pages, not one")
    else:
        result.notes.append("the summary card prints on one A4 page")


def _wait_ready(page, expect: Expect, result: PageResult) -> None:
    """Wait until MathJax has typeset the page and the stored widget views are rendered."""
    if expect.math:
        try:
            page.wait_for_function(WAIT_MATH, timeout=WAIT_MS)
            page.evaluate("() => window.MathJax.startup.promise.then(() => true)")
        except Exception:
            result.fail(f"MathJax did not start, {expect.math} formulas stay raw TeX")
    if expect.widget_views:
        try:
            page.wait_for_function(WAIT_WIDGETS, arg=expect.widget_views, timeout=WAIT_MS)
        except Exception:
            pass  # counted by the content check


def _check_phone(page, name: str, result: PageResult, shot_dir, site: Path) -> None:
    with phase(result, "phone"):
        page.evaluate(OPEN_TOGGLES)
        page.evaluate(ANIMATIONS_DONE)  # the toggles' opening transition (0.3 s), when any
        probe = page.evaluate(PHONE_PROBE)
        figures = page.evaluate(FIGURE_PROBE)
        # The live explorers' charts: no text running into another (a y-label into its ticks).
        for i in range(page.locator(".kh-explorer").count()):
            for msg in page.evaluate(check_explorers.CHART_OVERLAPS, i):
                result.fail(f"phone: explorer {i + 1}: {msg}")
    for msg in figure_problems(figures, site, name):
        result.fail(f"phone: {msg}")
    result.phone_checked = probe["checked"]
    for msg in probe["problems"]:
        result.fail(f"phone: {msg}")
    for msg in probe["sideways"]:
        result.fail(f"phone: {msg}")
    result.notes.append(
        f"phone {probe['vw']} px: {probe['checked']} formulas, images, tables, widgets and "
        f"code blocks measured, {len(probe['problems'])} past an edge; {len(figures)} figures' "
        f"text sizes measured"
    )
    if shot_dir is not None:
        with phase(result, "screenshots"):
            stem = name.removesuffix(".html").replace("/", "__")
            _shoot(page, shot_dir / f"phone-{stem}.png")


# Screenshots are for a person to look at; they check nothing. The top 3,600 CSS px of a page
# (4 screens at 1280 x 900) is what one looks at; the whole of book/api.html (1280 x
# 103,080 px, a 15 MB PNG) took 9 s to encode, and screenshots were a third of the time.
SHOT_HEIGHT = 3600


def _shoot(page, path: Path) -> None:
    if os.environ.get("CHECK_SITE_FULL_SHOTS") == "1":
        page.screenshot(path=str(path), full_page=True)
        return
    width, height = page.evaluate(
        "() => [document.documentElement.scrollWidth, document.documentElement.scrollHeight]"
    )
    clip = {"x": 0, "y": 0, "width": width, "height": min(height, SHOT_HEIGHT)}
    page.screenshot(path=str(path), full_page=True, clip=clip)


def _audit(page, result: PageResult) -> None:
    """The axe-core audit: serious and critical WCAG 2.1 A/AA violations fail the page."""
    # require.js is on widget pages; axe registers itself with it under a name of its own
    # ("axe-core") and also as window.axe, so the injection does not disturb the page.
    page.add_script_tag(path=str(AXE_JS))
    allowed_rules = [[rule, selector] for rule, selector, _ in ALLOWED_AXE]
    audit = page.evaluate(AXE_RUN, [AXE_TAGS, list(AXE_FAIL_IMPACTS), allowed_rules])
    result.axe = audit["violations"]
    shown = 0
    for v in audit["violations"]:
        if v["allow"] >= 0:
            continue
        shown += 1
        if shown <= 12:
            result.fail(
                f"axe {v['impact']} {v['rule']} ({v['help']}): {v['target']}: {v['summary']}"
            )
    if shown > 12:
        result.fail(f"axe: {shown - 12} more serious or critical nodes (not listed)")
    allowed_here = [v for v in audit["violations"] if v["allow"] >= 0]
    for index in sorted({v["allow"] for v in allowed_here}):
        rule, selector, reason = ALLOWED_AXE[index]
        count = sum(v["allow"] == index for v in allowed_here)
        result.notes.append(f"axe: allowed {rule} on {selector} ({count} nodes): {reason}")
    result.notes.append(
        f"axe {audit['version']}: {len(audit['violations']) - len(allowed_here)} serious or "
        f"critical WCAG 2.1 A/AA nodes"
    )


def _check_content(
    page, name, expect: Expect, result: PageResult, site: Path, shot_dir, *, audit: bool
):
    with phase(result, "content"):
        probe = _check_probe(page, name, expect, result, site)

    if audit:
        with phase(result, "axe"):
            _audit(page, result)

    if shot_dir is not None:
        with phase(result, "screenshots"):
            stem = name.removesuffix(".html").replace("/", "__")
            _shoot(page, shot_dir / f"{stem}.png")
            if probe["images"] or expect.widget_views:
                page.evaluate("() => { document.documentElement.dataset.theme = 'dark'; }")
                page.evaluate(ANIMATIONS_DONE)  # the theme's colour transitions, if any
                _shoot(page, shot_dir / f"{stem}-dark.png")
                page.evaluate("() => { document.documentElement.dataset.theme = 'light'; }")

    # The live explorers (after the screenshots, which show them at their start): moved
    # through states and by the keyboard alone, every number against kappalib's.
    if expect.explorers:
        with phase(result, "explorers"):
            failures, notes = check_explorers.check_page(page, name)
        for msg in failures:
            result.fail(msg)
        result.notes += notes
        if len(notes) < expect.explorers:
            result.fail(
                f"{expect.explorers - len(notes)} of {expect.explorers} explorers not checked"
            )

    # The self-checks, played by the keyboard: wrong and right answers, hint, answer, a new
    # table; every announcement read from the live region; numbers against kappalib's.
    if expect.self_checks:
        with phase(result, "self-checks"):
            failures, notes = check_self_checks.check_page(page, name)
        for msg in failures:
            result.fail(msg)
        result.notes.append(f"self-checks: {len(notes)} of {expect.self_checks} played")
        if len(notes) < expect.self_checks:
            result.fail(
                f"{expect.self_checks - len(notes)} of {expect.self_checks} self-checks not played"
            )


def _check_probe(page, name, expect: Expect, result: PageResult, site: Path) -> dict:
    """The page's formulas, figures, widgets, buttons and links (the PROBE); the probe."""
    probe = page.evaluate(PROBE)

    # Math
    if expect.math:
        if probe["mathUntypeset"]:
            result.fail(f"{probe['mathUntypeset']} of {probe['math']} formulas not typeset")
        result.notes.append(f"math: {probe['math']} formulas, {probe['mjx']} typeset")
    for err in probe["mathErrors"]:
        result.fail(f"TeX error in a formula: {err}")
    for text in probe["rawTex"]:
        result.fail(f"raw TeX in the prose: {text!r}")

    # Figures
    for img in probe["images"]:
        alt = (img["alt"] or "").strip()
        label = img["src"]
        if not img["loaded"]:
            result.fail(f"image not loaded: {label}")
        if not alt or alt == img["src"] or FILE_NAME_ALT.match(alt):
            result.fail(f"image without alt text: {label} (alt={img['alt']!r})")
        if img["output"] and label and label.lower().endswith(".png"):
            path = (site / name).parent / unquote(urlparse(label).path)
            opaque = png_is_opaque(path)
            if opaque is False:
                result.fail(
                    f"figure PNG has a transparent background (unreadable on the dark "
                    f"theme): {label}"
                )
    if probe["images"]:
        result.notes.append(f"figures: {len(probe['images'])}, all with alt text checked")

    # Widgets
    if expect.widget_views:
        missing = expect.widget_views - probe["viewsRendered"]
        if missing > 0:
            result.fail(f"{missing} of {expect.widget_views} widget views not rendered")
        result.notes.append(
            f"widgets: {probe['viewsRendered']}/{expect.widget_views} views "
            f"rendered ({probe['widgetControls']} widget elements)"
        )

    # Chapters: numbered headings, launch and download buttons
    if CHAPTER.match(name):
        if not probe["h1Numbered"]:
            result.fail(f"chapter title not numbered through _toc.yml: {probe['h1']!r}")
        names = sorted(text for text, _ in probe["launch"])
        if names != sorted(LAUNCHERS):
            result.fail(f"launch buttons {names}, want {sorted(LAUNCHERS)} (from _config.yml)")
    dead = sorted({h for h in probe["hrefs"] if publish_config.LEFTOVER.search(h)})
    if dead:
        result.fail(f"links to a placeholder (run make publish-config): {dead[:3]}")
    if expect.source_suffix:
        wanted = ".ipynb" if expect.source_suffix == ".ipynb" else expect.source_suffix
        hrefs = [h for h in probe["downloads"] if h and h.split("?")[0].endswith(wanted)]
        if not hrefs:
            result.fail(f"no {wanted} download button")
        for href in hrefs:
            target = ((site / name).parent / unquote(href.split("?")[0])).resolve()
            if not target.is_file():
                result.fail(f"download link points at a missing file: {href}")
    return probe


def png_is_opaque(path: Path) -> bool | None:
    try:
        from PIL import Image
    except ImportError:  # pillow comes with matplotlib; without it, skip this check
        return None
    if not path.is_file():
        return None
    with Image.open(path) as im:
        if im.mode in ("RGBA", "LA") or "transparency" in im.info:
            alpha = im.convert("RGBA").getchannel("A")
            return alpha.getextrema()[0] == 255
    return True


# --- main -----------------------------------------------------------------------------------

# --- the passes, shared between worker processes ---------------------------------------------

MODES = ("http", "file", "phone")
# The 1280 px window of the served and the from-disk passes.
DESKTOP = {"width": 1280, "height": 900}


def job_cost(site: Path, mode: str, name: str) -> float:
    """A rough guess of a page's seconds in one pass (fitted to a run of this check), so that
    the longest jobs start first and the workers finish together: the served pass's full-page
    screenshots (up to SHOT_HEIGHT) and axe audit grow with the page, MathJax with its
    formulas; an explorer is walked state by state, and the calculator takes 50 matrices
    served, 5 from disk."""
    expect = expectations(site, name)
    size = (site / name).stat().st_size / 1e5
    calculator = name == "book/calculator.html"
    if mode == "http":
        return 1.0 + 4.5 * size + 0.01 * expect.math + 2.0 * expect.explorers + 18.0 * calculator
    if mode == "file":
        return 0.5 + 0.6 * size + 0.003 * expect.math + 2.0 * expect.explorers + 4.0 * calculator
    return 0.8 + 1.3 * size + 0.005 * expect.math


class Browser:
    """One process's Chromium, as a single run had it: a 1280 px context for the served and
    the from-disk passes and a phone one (PHONE, mobile, touch), each on a fresh empty profile,
    launched on first use, with a fresh tab for each page."""

    def __init__(self, site: Path, base: str, site_url: str, shot_dir: Path):
        from playwright.sync_api import sync_playwright

        self.site, self.base, self.site_url, self.shot_dir = site, base, site_url, shot_dir
        self.local_http, self.local_file = is_local_to(base), is_local_to(site_url)
        self.profiles = tempfile.TemporaryDirectory(prefix="check-site-profile-")
        self.playwright = sync_playwright().start()
        self.contexts: dict[str, object] = {}
        self.pages: dict[str, object] = {}

    def _page(self, kind: str):
        page = self.pages.get(kind)
        if page is not None and not page.is_closed():
            return page
        if kind not in self.contexts:
            profile = tempfile.mkdtemp(prefix=f"{kind}-", dir=self.profiles.name)
            if kind == "phone":
                options = dict(viewport=PHONE, screen=PHONE, is_mobile=True, has_touch=True,
                               device_scale_factor=1)  # fmt: skip
            else:
                options = dict(viewport=DESKTOP)
            self.contexts[kind] = launch(self.playwright, profile, **options)
        self.pages[kind] = self.contexts[kind].new_page()
        return self.pages[kind]

    def check(self, mode: str, name: str) -> PageResult:
        if mode == "file":
            url, local, shots = urljoin(self.site_url, name), self.local_file, None
        else:
            url, local, shots = urljoin(self.base, name), self.local_http, self.shot_dir
        page = self._page("phone" if mode == "phone" else "desktop")
        try:
            return check_page(page, url, name, mode, self.site, local, shots)
        finally:
            # a fresh tab for the next page: a request this one left running (the search
            # page's excerpts) was counted against the next page in the same tab, from disk,
            # as "would leave the machine" (CI, stop 36)
            page.close()

    def close(self) -> None:
        for context in self.contexts.values():
            try:
                context.close()
            except Exception:  # a crashed browser: nothing left to close
                pass
        self.playwright.stop()
        self.profiles.cleanup()


def _worker(setup: tuple, jobs, results) -> None:
    """A worker process: its own Playwright and Chromium (the sync API is not thread-safe and
    a browser is not shared between processes); checks the jobs it takes until a None."""
    browser = Browser(*setup)
    try:
        while (job := jobs.get()) is not None:
            try:
                result = browser.check(*job)
            except Exception as exc:  # outside check_page's own net: still a result
                result = PageResult(job[1], job[0])
                result.fail(f"{type(exc).__name__}: {str(exc).splitlines()[0]}")
            results.put((job, result))
    finally:
        browser.close()


def run_jobs(setup: tuple, jobs: list[tuple[str, str]], workers: int) -> dict:
    """Every (mode, page) job checked by ``workers`` processes (in this one when 1), the
    longest first; {job: PageResult}."""
    order = sorted(jobs, key=lambda job: -job_cost(setup[0], *job))
    done: dict[tuple[str, str], PageResult] = {}
    if workers <= 1:
        browser = Browser(*setup)
        try:
            for job in order:
                done[job] = browser.check(*job)
        finally:
            browser.close()
        return done
    ctx = multiprocessing.get_context("spawn")
    todo, results = ctx.Queue(), ctx.Queue()
    for job in order:
        todo.put(job)
    procs = [ctx.Process(target=_worker, args=(setup, todo, results)) for _ in range(workers)]
    for proc in procs:
        todo.put(None)
        proc.start()
    while len(done) < len(jobs):
        try:
            job, result = results.get(timeout=5)
        except queue.Empty:
            if any(proc.is_alive() for proc in procs):
                continue
            break  # every worker ended with jobs unanswered: they fail below
        done[tuple(job)] = result
    for proc in procs:
        proc.join(timeout=60)
        if proc.is_alive():
            proc.terminate()
    for job in jobs:
        if job not in done:
            done[job] = PageResult(job[1], job[0], failures=["its worker process died"])
    return done


def phase_lines(results: list[PageResult]) -> list[str]:
    """Seconds per phase, summed over each pass's pages, and the slowest pages."""
    lines = []
    for mode in MODES:
        rs = [r for r in results if r.mode == mode]
        if not rs:
            continue
        total = {k: sum(r.phases.get(k, 0.0) for r in rs) for k in PHASES}
        parts = ", ".join(f"{k} {v:.1f}" for k, v in total.items() if v >= 0.05)
        lines.append(f"  {mode:5} {sum(r.seconds for r in rs):6.1f} s: {parts}")
    slow = sorted(results, key=lambda r: -r.seconds)[:5]
    lines.append("  slowest: " + ", ".join(f"{r.mode} {r.name} {r.seconds:.1f}" for r in slow))
    return lines


def run(
    site: Path,
    shot_dir: Path,
    only: str | None = None,
    modes=MODES,
    workers: int | None = None,
) -> int:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        print(
            "check-site: Playwright is not installed; run `make check-site`, which installs "
            "requirements-site.txt into .venv.",
            file=sys.stderr,
        )
        return 1
    if not (site / "index.html").is_file():
        print(
            f"check-site: {site}/index.html does not exist; run make book first.", file=sys.stderr
        )
        return 1
    if not ensure_chromium():
        lines = [
            f"check-site SKIPPED: no Chromium at {CHROMIUM}, and it could not be installed",
            "(only /usr/bin/chromium, with apt-get as root). Install Debian's chromium,",
            "or set CHROMIUM=/path/to/chromium.",
            "Nothing was checked in a browser.",
        ]
        if os.environ.get("CI"):
            banner([*lines, "CI is set, so this counts as a failure."])
            return 1
        banner(lines)
        return 0
    if not AXE_JS.is_file():
        print(
            f"check-site: {AXE_JS} is missing; run `make check-site`, which installs the npm "
            "packages of tools/vendor/ (axe-core among them) into .site-vendor.",
            file=sys.stderr,
        )
        return 1
    unknown = [m for m in modes if m not in MODES]
    if unknown:
        print(f"check-site: unknown pass {unknown[0]!r} in --modes; the passes are "
              f"{', '.join(MODES)}.", file=sys.stderr)  # fmt: skip
        return 1

    pages = find_pages(site)
    if only:
        pages = [name for name in pages if re.search(only, name)]
    jobs = [(mode, name) for mode in MODES if mode in modes for name in pages]
    if workers is None:
        workers = default_workers()
    workers = max(1, min(workers, len(jobs)))
    shot_dir.mkdir(parents=True, exist_ok=True)
    for old in shot_dir.glob("*.png"):
        old.unlink()
    server, base = serve(site)
    site_url = site.resolve().as_uri() + "/"
    t0 = time.perf_counter()
    print(
        f"check-site: {len(pages)} pages, Chromium {chromium_version()}, served at {base} and "
        f"opened from {site_url}; {len(jobs)} page loads in {workers} "
        f"worker{'s' if workers > 1 else ''}",
        flush=True,
    )
    try:
        done = run_jobs((site, base, site_url, shot_dir), jobs, workers)
    finally:
        server.shutdown()
    results = [done[job] for job in jobs]  # the order of a single run: pass by pass

    failed = [r for r in results if r.failures]
    for r in results:
        status = "FAIL" if r.failures else "ok"
        print(f"{status:4}  {r.mode:4}  {r.name}  ({r.seconds:.1f} s)")
        for msg in r.failures:
            print(f"        FAIL: {msg}")
        if r.mode in ("http", "phone"):
            for msg in r.notes:
                print(f"        {msg}")
            for msg in dict.fromkeys(r.warnings):
                print(f"        console warning: {msg}")
    print("\nseconds per phase, summed over each pass's pages (the workers run side by side):")
    print("\n".join(phase_lines(results)))
    print(
        f"\nscreenshots: {shot_dir}/ ({len(list(shot_dir.glob('*.png')))} files); "
        f"{len(pages)} pages, each served, from disk and at phone size, in "
        f"{time.perf_counter() - t0:.1f} s"
    )
    audited = [r for r in results if r.mode == "http"]
    nodes = [v for r in audited for v in r.axe if v["allow"] < 0]
    allowed_nodes = [v for r in audited for v in r.axe if v["allow"] >= 0]
    by_rule: dict[str, int] = {}
    for v in nodes:
        by_rule[v["rule"]] = by_rule.get(v["rule"], 0) + 1
    print(
        f"axe-core (WCAG 2.1 A/AA, serious or critical): {len(nodes)} nodes on "
        f"{sum(any(v['allow'] < 0 for v in r.axe) for r in audited)} of {len(audited)} pages"
        + (f" ({', '.join(f'{k}: {n}' for k, n in sorted(by_rule.items()))})" if nodes else "")
        + f"; {len(allowed_nodes)} allowed nodes (ALLOWED_AXE)"
    )
    phoned = [r for r in results if r.mode == "phone"]
    print(
        f"phone pass ({PHONE['width']} x {PHONE['height']}): "
        f"{sum(r.phone_checked for r in phoned)} elements measured, "
        f"{sum(1 for r in phoned if r.failures)} of {len(phoned)} pages with problems"
    )
    print(f"check-site: {len(results) - len(failed)} passed, {len(failed)} failed")
    return 1 if failed else 0


def default_workers() -> int:
    """$CHECK_SITE_WORKERS, else one per core, at most 2 (each runs its own Chromium)."""
    env = os.environ.get("CHECK_SITE_WORKERS")
    if env:
        return int(env)
    return max(1, min(2, os.cpu_count() or 1))


def chromium_version() -> str:
    """Chromium's version number (from ``chromium --version``), without starting a browser."""
    import subprocess

    try:
        out = subprocess.run([CHROMIUM, "--version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return Path(CHROMIUM).name
    m = re.search(r"\d+(?:\.\d+){2,3}", out.stdout)
    return m.group(0) if m else Path(CHROMIUM).name


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, default=Path("_build/html"))
    parser.add_argument("--screenshots", type=Path, default=Path("_build/screenshots"))
    parser.add_argument(
        "--only", metavar="REGEX", help="check only the pages whose path matches (while working)"
    )
    parser.add_argument(
        "--modes",
        default="http,file,phone",
        help="which passes to run, comma-separated (default: all three)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=None,
        help="processes, each with its own Chromium (default: $CHECK_SITE_WORKERS, else one "
        "per core, at most 2; 1 runs everything in this process)",
    )
    args = parser.parse_args()
    return run(args.site, args.screenshots, args.only, tuple(args.modes.split(",")), args.workers)


if __name__ == "__main__":
    sys.exit(main())
