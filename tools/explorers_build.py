"""Sphinx extension: the explorers come alive on the static page, and figures open on a tap.

At the end of an HTML build (``build-finished``) it rewrites the written pages:

* **Explorers.** A chapter's explorer cell (the code cell whose call is one of the explorer
  functions named in ``kappalib/widgets/explorers.json``, e.g. ``widgets.two_by_two_explorer()``)
  stores a widget view, which on the page is a dead snapshot. Its view is replaced by a mount
  point ``<div class="kh-explorer" data-explorer=... data-state=... data-figure=...>``: the
  state is the call's own arguments (read with ``ast.literal_eval`` and bound to the function's
  signature, so ``coefficients_explorer(0.9, 0.9, 0.1)`` starts the page where the notebook
  does), the figure is the chapter's static figure of the same explorer. No notebook is edited:
  the cell's source is the stable marker. A page with an explorer loads
  ``_static/explorers/explorers.js``, one classic script bundled here from the ES modules
  ``book/_static/kappa/kappa.mjs``, ``book/_static/explorers/*.mjs`` and the definitions JSON.
  (``kappa.mjs`` itself is not bundled: the page loads its classic script ``kappa.js`` first.)
  A classic script, because Chromium refuses ES modules loaded from ``file://`` (an unzipped
  copy of the site), and the site must work from disk. The bundler is a few lines for the
  subset of module syntax these files use (named imports and exports); anything else fails the
  build with a sentence.
* **No widget manager left idle.** A page whose every widget view became a live explorer no
  longer loads the stored widget state, require.js and the widget manager (3.6 MB).
* **Figures open full size on a tap.** Every figure image of a cell output is wrapped in a link
  to the image file itself, and carries its natural width (``--kh-natural-width``), with which
  ``custom.css`` keeps wide figures legible on a phone (the figure scrolls sideways inside its
  own box instead of shrinking its text to 4 px).

The static PNG stays the print and no-JavaScript fallback: the live explorer takes its place
on screen only (custom.css), so it is shown once.
"""

from __future__ import annotations

import ast
import html
import inspect
import json
import math
import re
import struct
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.errors import ExtensionError
from sphinx.util import logging

logger = logging.getLogger(__name__)

ROOT = Path(__file__).resolve().parent.parent
DEFINITIONS = ROOT / "kappalib/widgets/explorers.json"
STATIC = ROOT / "book/_static"
ENTRY = STATIC / "explorers/explorers.mjs"
BUNDLE = "explorers/explorers.js"  # under _static/
# Modules that are not bundled: their classic script (under _static/) is loaded before the
# bundle, and an import of them reads the global it defines. js25's kappa.mjs re-exports
# kappa.js, which defines window.Kappa (the calculator page loads the same file).
EXTERNAL = {(STATIC / "kappa/kappa.mjs").resolve(): ("kappa/kappa.js", "globalThis.Kappa")}

VIEW = re.compile(
    r'<script type="application/vnd\.jupyter\.widget-view\+json">(?P<json>[^<]*)</script>'
)
CELL_START = '<div class="cell '
PRE = re.compile(r"<pre>(?P<code>.*?)</pre>", re.S)
TAG = re.compile(r"<[^>]+>")
WIDGET_STATE = re.compile(
    r'<script type="application/vnd\.jupyter\.widget-state\+json">.*?</script>\s*', re.S
)
WIDGET_LIBRARIES = re.compile(
    r'<script src="(?:\.\./)*_static/npm/(?:requirejs/require|html-manager/embed-amd)\.js'
    r'(?:\?[^"]*)?"></script>\s*'
)
IMG = re.compile(r'<img\b(?P<attrs>[^>]*?)\ssrc="(?P<src>(?:\.\./)*_images/[^"]+)"(?P<rest>[^>]*)>')


# --- the bundle ----------------------------------------------------------------------------

IMPORT_NAMED = re.compile(
    r'^import\s*\{(?P<names>[^}]*)\}\s*from\s*"(?P<path>[^"]+)";?[ \t]*$', re.M
)
IMPORT_STAR = re.compile(
    r'^import\s+\*\s+as\s+(?P<ns>\w+)\s+from\s*"(?P<path>[^"]+)";?[ \t]*$', re.M
)
EXPORT_DECL = re.compile(
    r"^export\s+(?P<kw>(?:async\s+)?function\*?|const|let|var|class)\s+(?P<name>\w+)", re.M
)
EXPORT_LIST = re.compile(r"^export\s*\{(?P<names>[^}]*)\};?[ \t]*$", re.M)
LEFTOVER = re.compile(r"^\s*(import|export)\b", re.M)


def _names(text: str) -> list[tuple[str, str]]:
    """``a, b as c`` -> [("a", "a"), ("b", "c")]."""
    out = []
    for part in text.split(","):
        part = part.strip()
        if part:
            name, _, alias = part.partition(" as ")
            out.append((name.strip(), (alias or name).strip()))
    return out


def _shown(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def _module_order(entry: Path) -> list[Path]:
    """The modules ``entry`` imports, depth first, each once, dependencies first."""
    order: list[Path] = []

    def visit(path: Path, stack: tuple[Path, ...]) -> None:
        if path in order or path in EXTERNAL:
            return
        if path in stack:
            raise ExtensionError(f"explorers_build: import cycle through {path}")
        if not path.is_file():
            by = stack[-1] if stack else "the entry"
            raise ExtensionError(f"explorers_build: {path} is missing (imported by {by})")
        text = path.read_text(encoding="utf-8")
        for m in [*IMPORT_NAMED.finditer(text), *IMPORT_STAR.finditer(text)]:
            visit((path.parent / m["path"]).resolve(), (*stack, path))
        order.append(path)

    visit(entry.resolve(), ())
    return order


def bundle(entry: Path = ENTRY, definitions: Path | None = DEFINITIONS) -> str:
    """One classic script: every module of ``entry`` in a function scope, its imports bound
    to the modules before it, then ``mountAll`` with the definitions (null without a file)
    once the page is read. tools/self_checks.py bundles the self-checks with it too."""
    data = (
        "null"
        if definitions is None
        else json.dumps(json.loads(definitions.read_text(encoding="utf-8")))
    )
    order = _module_order(entry)
    var = {path: f"__kh_module_{i}" for i, path in enumerate(order)}
    var |= {path: name for path, (_, name) in EXTERNAL.items()}
    chunks = [
        "// Built by tools/explorers_build.py from book/_static/explorers/*.mjs and\n"
        "// kappalib/widgets/explorers.json; edit those. Needs _static/kappa/kappa.js first.",
        '(function () {\n"use strict";',
        f"const DEFINITIONS = {data};",
    ]
    for path in order:
        text = path.read_text(encoding="utf-8")
        head = []

        def named(m, path=path, head=head):
            target = var[(path.parent / m["path"]).resolve()]
            pairs = ", ".join(n if n == a else f"{n}: {a}" for n, a in _names(m["names"]))
            head.append(f"const {{ {pairs} }} = {target};")
            return ""

        def star(m, path=path, head=head):
            head.append(f"const {m['ns']} = {var[(path.parent / m['path']).resolve()]};")
            return ""

        text = IMPORT_NAMED.sub(named, text)
        text = IMPORT_STAR.sub(star, text)
        exports = [(m["name"], m["name"]) for m in EXPORT_DECL.finditer(text)]
        text = EXPORT_DECL.sub(lambda m: f"{m['kw']} {m['name']}", text)
        for m in EXPORT_LIST.finditer(text):
            exports += _names(m["names"])
        text = EXPORT_LIST.sub("", text)
        left = LEFTOVER.search(text)
        if left:
            line = text[left.start() :].splitlines()[0].strip()
            raise ExtensionError(
                f"explorers_build: {_shown(path)} uses module syntax the bundler does "
                f'not handle: {line!r} (use `import {{ a }} from "./x.mjs";` and named exports)'
            )
        body = ", ".join(a if n == a else f"{a}: {n}" for n, a in exports)
        chunks.append(
            f"// --- {_shown(path)}\nconst {var[path]} = (() => {{\n"
            + "\n".join(head)
            + f"\n{text}\nreturn {{ {body} }};\n}})();"
        )
    last = var[order[-1]]
    chunks.append(
        "function start() {\n"
        f"  {last}.mountAll(DEFINITIONS);\n"
        "}\n"
        'if (document.readyState === "loading") {\n'
        '  document.addEventListener("DOMContentLoaded", start);\n'
        "} else start();\n})();\n"
    )
    return "\n".join(chunks)


# --- the pages -----------------------------------------------------------------------------


def _definitions() -> dict:
    return json.loads(DEFINITIONS.read_text(encoding="utf-8"))["explorers"]


def explorer_call(code: str, definitions: dict) -> tuple[str, dict] | None:
    """(explorer key, the arguments the call gives) for a cell whose source calls an
    explorer function; None for any other cell."""
    by_function = {d["python"]: key for key, d in definitions.items()}
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
        if name not in by_function:
            continue
        from kappalib import widgets

        try:
            args = [ast.literal_eval(a) for a in node.args]
            kwargs = {k.arg: ast.literal_eval(k.value) for k in node.keywords}
        except ValueError:
            raise ExtensionError(
                f"explorers_build: the explorer call {ast.unparse(node)!r} has an argument "
                "that is not a literal; the page can only start from literal values"
            ) from None
        bound = inspect.signature(getattr(widgets, name)).bind(*args, **kwargs)
        return by_function[name], dict(bound.arguments)
    return None


def png_info(path: Path) -> dict | None:
    """A PNG's width and height and its text chunks (``kh:min-text-px``, written by
    book/figure_text.py: the height in the PNG's pixels of the figure's smallest text); None
    for a file that is not a PNG."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        return None
    info: dict = {"width": struct.unpack(">I", data[16:20])[0],
                  "height": struct.unpack(">I", data[20:24])[0], "text": {}}  # fmt: skip
    i = 8
    while i + 8 <= len(data):
        (n,) = struct.unpack(">I", data[i : i + 4])
        kind = data[i + 4 : i + 8]
        if kind == b"tEXt":
            key, _, value = data[i + 8 : i + 8 + n].partition(b"\0")
            info["text"][key.decode("latin-1")] = value.decode("latin-1")
        elif kind in (b"IDAT", b"IEND"):
            break  # matplotlib writes its text chunks before the image data
        i += 12 + n
    return info


# On a phone a figure's smallest text must stay at least this many CSS px (make check-site
# fails under 11): the figure keeps at least the width that gives it, and scrolls sideways in
# its own box, with a cue, when that is wider than the column.
LEGIBLE_PX = 11.5
CUE = (
    '<span class="kh-figure-cue">Wider than the screen: scroll it sideways, or tap it to '
    "open it full size.</span>"
)


def rewrite_page(text: str, page: Path, outdir: Path, definitions: dict) -> tuple[str, int]:
    """The page with its explorer views replaced by mount points and its figure images
    wrapped in links; returns (text, number of explorers)."""
    found = 0
    pieces = []
    pos = 0
    for m in VIEW.finditer(text):
        cell = text.rfind(CELL_START, 0, m.start())
        pres = list(PRE.finditer(text, cell if cell >= 0 else 0, m.start()))
        if not pres:
            continue
        code = html.unescape(TAG.sub("", pres[0]["code"]))
        call = explorer_call(code, definitions)
        if call is None:
            continue
        key, state = call
        entry = definitions[key]
        found += 1
        attrs = {
            "class": "kh-explorer",
            "data-explorer": key,
            "data-figure": entry["figure"],
            "data-state": json.dumps(state),
        }
        attr_text = " ".join(f'{k}="{html.escape(v, quote=True)}"' for k, v in attrs.items())
        pieces += [
            text[pos : m.start()],
            f"<div {attr_text}>"
            '<p class="kh-explorer-nojs">This explorer recomputes in the browser; with '
            "JavaScript off, the figure above shows it at its starting values. Run the notebook "
            "to move its controls.</p></div>",
        ]
        pos = m.end()
    pieces.append(text[pos:])
    text = "".join(pieces)
    if found and not VIEW.search(text):
        # No widget view is left to draw: the stored widget state, require.js and the widget
        # manager (3.6 MB) would load for nothing, on a phone too.
        text = WIDGET_STATE.sub("", text)
        text = WIDGET_LIBRARIES.sub("", text)
    if found:
        depth = len(page.relative_to(outdir).parts) - 1
        up = "../" * depth + "_static/"
        tags = "".join(
            f'<script defer src="{up}{script}"></script>\n'
            for script in [*(js for js, _ in EXTERNAL.values()), BUNDLE]
            if f'src="{up}{script}' not in text
        )
        text = text.replace("</head>", tags + "</head>", 1)

    def link(m):
        before = text_before(m.start())
        if re.search(r"<a\b[^>]*>\s*$", before):
            return m.group(0)  # already inside a link
        src = m["src"]
        info = png_info((page.parent / src).resolve())
        style, cue, wide = "", "", ""
        if info:
            width = info["width"]
            style = f"--kh-natural-width: {width}px"
            text_px = info["text"].get("kh:min-text-px")
            if text_px and float(text_px) > 0:
                legible = min(width, math.ceil(width * LEGIBLE_PX / float(text_px)))
                style += f"; --kh-legible-width: {legible}px"
                if legible > 340:  # wider than the column of a 390 px phone
                    cue, wide = CUE, " kh-wide"
            style = f' style="{style}"'
        return (
            f'<a class="kh-figure-link{wide}" href="{src}" title="Open the figure full size"'
            f"{style}>{m.group(0)}</a>{cue}"
        )

    def text_before(i):
        return current[max(0, i - 200) : i]

    current = text
    text = IMG.sub(link, current)
    return text, found


def rewrite_site(app: Sphinx, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    outdir = Path(app.outdir)
    static = outdir / "_static" / BUNDLE
    static.parent.mkdir(parents=True, exist_ok=True)
    static.write_text(bundle(), encoding="utf-8")
    definitions = _definitions()
    total = 0
    pages_with = []
    for page in sorted(outdir.rglob("*.html")):
        if page.relative_to(outdir).parts[0] in {"_static", "_sources", "_images"}:
            continue
        text = page.read_text(encoding="utf-8")
        new, found = rewrite_page(text, page, outdir, definitions)
        if new != text:
            page.write_text(new, encoding="utf-8")
        if found:
            total += found
            pages_with.append(page.relative_to(outdir).as_posix())
    logger.info("explorers_build: %d live explorers on %s", total, ", ".join(pages_with) or "none")


def setup(app: Sphinx) -> dict:
    app.connect("build-finished", rewrite_site)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
