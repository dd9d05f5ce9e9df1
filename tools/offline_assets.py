"""Sphinx extension: the built book serves its browser libraries itself, with no CDN.

A Jupyter Book 1.x page loads MathJax, require.js and the Jupyter widgets HTML manager from
public CDNs by default, so without a network the mathematics shows as raw TeX and the widgets
disappear. Here:

* the Makefile installs pinned copies from npm (``tools/vendor/package.json`` and its
  ``package-lock.json``) into ``.site-vendor/node_modules``, which is not committed;
* this extension copies the files the pages need into ``_build/html/_static/npm/``;
* ``_config.yml`` points the pages at them (``mathjax_path``, ``nb_ipywidgets_js``) with
  paths such as ``npm/mathjax/tex-chtml.js``. Sphinx joins a script path that has no
  scheme onto ``_static/`` and writes it relative to each page (``../_static/npm/...``
  from ``book/*.html``), so the site works from a server, from disk (``file://``) and
  unzipped.

Why not a ``_static/`` folder in the source: Jupyter Book 1.x adds every ``.js`` file found
there as a script to *every* page, and MathJax alone has hundreds of them.

It also drops the buttons whose target is still a placeholder of an unpublished checkout
(:func:`drop_unpublished_buttons`), and the theme's Font Awesome script (1.49 MB on every
page; the theme's CSS draws the same icons with the web font: :func:`drop_fontawesome_js`).

The build fails (``-W``) when a page would load one of these scripts from the network, and
stops with an error when the npm packages are missing or a configured local script was not
shipped.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.errors import ExtensionError
from sphinx.util import logging

logger = logging.getLogger(__name__)

# (source under node_modules, destination under _static/npm). A directory is copied whole.
ASSETS: list[tuple[str, str]] = [
    # MathJax 3: the TeX-input, CommonHTML-output component, the pieces it loads on demand
    # (TeX extensions, the CHTML fonts, the context menu and its accessibility tools).
    ("mathjax/es5/tex-chtml.js", "mathjax/tex-chtml.js"),
    ("mathjax/es5/input", "mathjax/input"),
    ("mathjax/es5/output/chtml", "mathjax/output/chtml"),
    ("mathjax/es5/ui", "mathjax/ui"),
    ("mathjax/es5/a11y", "mathjax/a11y"),
    ("mathjax/es5/sre", "mathjax/sre"),
    ("mathjax/LICENSE", "mathjax/LICENSE"),
    # require.js, which the widget manager's AMD bundle needs.
    ("requirejs/require.js", "requirejs/require.js"),
    # The widgets HTML manager: the AMD bundle (it includes the models and views of
    # @jupyter-widgets/base, controls and output, so nothing is fetched at run time) and the
    # Font Awesome files it loads relative to itself.
    ("@jupyter-widgets/html-manager/dist/embed-amd.js", "html-manager/embed-amd.js"),
    ("@jupyter-widgets/html-manager/dist/embed.js.LICENSE.txt", "html-manager/LICENSES.txt"),
]
FONT_SUFFIXES = (".woff2", ".woff", ".ttf", ".eot", ".svg")

# ipywidgets 8 typesets widget labels with the MathJax 2 API, MathJax.Hub.Queue, which MathJax 3
# does not have: on a page with both, the browser reports "Cannot read properties of undefined
# (reading 'Queue')". This shim routes Hub.Queue to MathJax 3's typesetPromise, and lets MathJax
# read $...$ as in Jupyter, so that a label such as description=r"$p_e$" is typeset (the page's
# own formulas are already marked up by Sphinx, and the prose is outside MathJax's reach). It is
# added only to pages that carry widget state, and does nothing on pages without MathJax.
MATHJAX2_HUB_SHIM = """
(function () {
  var config = window.MathJax;
  if (config === undefined) return;
  var pending = [];
  var hub = {
    Queue: function (job) {
      var el = job && job[2];
      var mj = window.MathJax;
      if (!el) return;
      el.classList.add("mathjax_process");
      if (mj.typesetPromise && mj.startup && mj.startup.promise) {
        mj.startup.promise = mj.startup.promise.then(function () {
          return mj.typesetPromise([el]);
        });
      } else {
        pending.push(el);
      }
    }
  };
  config.Hub = hub;
  config.tex = config.tex || {};
  config.tex.inlineMath = [["$", "$"], ["\\\\(", "\\\\)"]];
  config.startup = config.startup || {};
  var ready = config.startup.ready;
  config.startup.ready = function () {
    if (ready) { ready(); } else { window.MathJax.startup.defaultReady(); }
    window.MathJax.Hub = hub;
    window.MathJax.startup.promise = window.MathJax.startup.promise.then(function () {
      return pending.length ? window.MathJax.typesetPromise(pending.splice(0)) : null;
    });
  };
})();
"""


# The widget manager draws a widget's saved view, and its images (an ipywidgets.Image, or a
# figure inside an Output widget) come without alt text. Each chapter puts a static figure,
# with its own alt text, right before every widget, so the snapshot is labelled as what it is.
# And ipywidgets 8's slider view gives the slider's handle role="slider" but no name: its
# visible description label is not tied to it (axe-core: aria-input-field-name). The handle is
# given aria-labelledby that label, so a screen reader announces "A, slider, 10".
WIDGET_IMAGE_ALT = """
(function () {
  var ALT = "Snapshot of the interactive explorer at its default settings; the static figure "
    + "just above shows the same view with a full description. Run the notebook to move the "
    + "sliders.";
  var count = 0;
  function label() {
    document.querySelectorAll(".jupyter-widgets img, .widget-image").forEach(function (img) {
      if (!img.getAttribute("alt")) { img.setAttribute("alt", ALT); }
    });
    document.querySelectorAll(".widget-slider").forEach(function (box) {
      var text = box.querySelector(".widget-label");
      var handle = box.querySelector('[role="slider"]');
      if (!text || !handle || handle.hasAttribute("aria-labelledby")) { return; }
      if (!text.id) { text.id = "widget-slider-label-" + (++count); }
      handle.setAttribute("aria-labelledby", text.id);
    });
  }
  document.addEventListener("DOMContentLoaded", function () {
    label();
    new MutationObserver(label).observe(document.body, {childList: true, subtree: true});
  });
})();
"""


def _vendor_dir(app: Sphinx) -> Path:
    return (Path(app.srcdir) / app.config.offline_assets_node_modules).resolve()


def copy_assets(app: Sphinx) -> None:
    """Copy the pinned npm files into the output's ``_static/npm/`` (HTML builders only)."""
    if app.builder.format != "html":
        return
    node_modules = _vendor_dir(app)
    if not node_modules.is_dir():
        raise ExtensionError(
            f"offline_assets: {node_modules} does not exist. The book serves MathJax and the "
            "widget manager from npm packages that `make book` installs (npm ci in "
            ".site-vendor/); run `make book` instead of jupyter-book directly."
        )
    dest_root = Path(app.outdir) / "_static" / "npm"
    for src_rel, dest_rel in ASSETS:
        src, dest = node_modules / src_rel, dest_root / dest_rel
        if not src.exists():
            raise ExtensionError(
                f"offline_assets: {src} is missing; re-run `make book` to reinstall the "
                "npm packages pinned in tools/vendor/package-lock.json."
            )
        dest.parent.mkdir(parents=True, exist_ok=True)
        if src.is_dir():
            shutil.copytree(src, dest, dirs_exist_ok=True)
        else:
            shutil.copy2(src, dest)
    fonts = node_modules / "@jupyter-widgets/html-manager/dist"
    for font in fonts.iterdir():
        if font.suffix in FONT_SUFFIXES:
            shutil.copy2(font, dest_root / "html-manager" / font.name)
    _check_config(app, Path(app.outdir) / "_static")


def _check_config(app: Sphinx, static: Path) -> None:
    """Every script the configuration names must be local and shipped."""
    scripts = {"mathjax_path": app.config.mathjax_path}
    for i, path in enumerate(app.config.nb_ipywidgets_js or {}):
        scripts[f"nb_ipywidgets_js[{i}]"] = path
    for name, path in scripts.items():
        if "://" in path or path.startswith("//"):
            logger.warning(
                "offline_assets: %s loads %s from the network; point it at a file under "
                "npm/ (see _config.yml) so that the book works offline.",
                name,
                path,
                type="offline_assets",
            )
        elif not (static / path).is_file():
            raise ExtensionError(
                f"offline_assets: {name} = {path!r}, but _static/{path} was not shipped; "
                "fix the path in _config.yml or ASSETS in tools/offline_assets.py."
            )


def add_widget_scripts(app: Sphinx, pagename: str, templatename, context, doctree) -> None:
    """On pages with widget state: point require.js at the shipped widget manager, and make
    ipywidgets' MathJax 2 calls work with MathJax 3."""
    if app.builder.format != "html" or doctree is None:
        return
    from myst_nb.sphinx_ import NbMetadataCollector

    if "ipywidgets_state" not in NbMetadataCollector.get_js_files(app.env, pagename):
        return
    # The manager's AMD modules find their fonts relative to their require.js module URL,
    # which by default is the page's own folder (404s for .../book/@jupyter-widgets/...).
    # A global `require` defined before require.js loads is its configuration; the path is
    # relative to the page, as require.js's baseUrl is.
    manager_dir = context["pathto"]("_static/npm/html-manager", 1)
    require_config = {"paths": {"@jupyter-widgets/html-manager/dist": manager_dir}}
    app.builder.add_js_file("", body=f"var require = {json.dumps(require_config)};", priority=490)
    # After Sphinx's `window.MathJax = {...}` configuration (priority 500); MathJax itself is
    # deferred, so it runs after this.
    app.builder.add_js_file("", body=MATHJAX2_HUB_SHIM, priority=510)
    app.builder.add_js_file("", body=WIDGET_IMAGE_ALT, priority=520)


def html_handlers_for_singlehtml(app: Sphinx) -> None:
    """``make pdf`` builds the single-page book. Sphinx gives a builder the node handlers
    registered under its own name, and falls back to those of its format ("html") only when
    there are none: sphinx-exercise registers some for "singlehtml", so every other
    extension's HTML handlers (sphinx-proof's, for one) went missing there ("departing unknown
    node type: proposition_node"). The single-page builder gets the HTML ones it lacks."""
    if app.builder.name != "singlehtml":
        return
    handlers = app.registry.translation_handlers
    single = handlers.setdefault("singlehtml", {})
    for node, pair in handlers.get("html", {}).items():
        single.setdefault(node, pair)


# Two pieces of markup that every chapter's reader meets, mended in each page's body (they are
# written by Python code upstream, not by the book):
# - docutils writes a reference list as <div role="list" class="citation-list"> whose entries
#   carry role="doc-biblioentry" (deprecated in DPUB-ARIA 1.1, and not a list item to axe or
#   to some screen readers): a list without items. The entries become role="listitem".
# - myst-nb writes the toggle of a hide-input cell as <summary aria-label="Toggle hidden
#   content"> around the visible "Show code cell source": a speech-input user says what they
#   see and nothing matches. Without the aria-label, the name is the visible text.
MARKUP_FIXES = [
    (
        re.compile(r'(<div\b[^>]*\bclass="citation"[^>]*\brole=")doc-biblioentry(")'),
        r"\1listitem\2",
    ),
    (re.compile(r'<summary aria-label="Toggle hidden content">'), "<summary>"),
]


def mend_markup(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    """Apply MARKUP_FIXES to the page's body (before the theme's template writes it)."""
    body = context.get("body")
    if not body:
        return
    for pattern, replacement in MARKUP_FIXES:
        body = pattern.sub(replacement, body)
    context["body"] = body


def drop_unpublished_buttons(app: Sphinx, config) -> None:
    """No button that leads nowhere: in a checkout that ``make publish-config`` has not
    pointed at a repository, leave out the repository, issues and launch buttons (and a
    placeholder JupyterHub), which would all link to a repository or hub that does not exist.
    tools/publish_config.py decides what is a placeholder."""
    from publish_config import unpublished_theme_options

    config.html_theme_options = unpublished_theme_options(config.html_theme_options or {})


# The theme loads Font Awesome's JavaScript on every page (scripts/fontawesome.js, 1.49 MB),
# which only redraws the theme's dozen icons (<i class="fa-solid fa-bars">, the search glass,
# the theme switch, the download menu) as inline SVG. The theme's CSS already draws those same
# <i> elements with Font Awesome's web font (vendor/fontawesome/webfonts, fetched only for the
# glyphs a page shows), so the script is dropped from every page and the file from the site.
FONTAWESOME_JS = re.compile(
    r'\s*<script\b[^>]*\bsrc="(?:\.\./)*_static/scripts/fontawesome\.js(?:\?[^"]*)?"[^>]*>'
    r"</script>"
)


def drop_fontawesome_js(app: Sphinx, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    outdir = Path(app.outdir)
    for page in outdir.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        new = FONTAWESOME_JS.sub("", text)
        if new != text:
            page.write_text(new, encoding="utf-8")
    for name in ("fontawesome.js", "fontawesome.js.map", "fontawesome.js.LICENSE.txt"):
        (outdir / "_static" / "scripts" / name).unlink(missing_ok=True)


def setup(app: Sphinx) -> dict:
    # Before the theme's own config-inited handler (priority 500) reads the options.
    app.connect("config-inited", drop_unpublished_buttons, priority=100)
    app.add_config_value("offline_assets_node_modules", ".site-vendor/node_modules", "env")
    app.connect("builder-inited", html_handlers_for_singlehtml)
    app.connect("builder-inited", copy_assets)
    app.connect("html-page-context", add_widget_scripts)
    app.connect("html-page-context", mend_markup)
    app.connect("build-finished", drop_fontawesome_js)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
