"""The browser checks' shared pieces (tools/browser.py, tools/js/) and the build's markup fixes
(tools/offline_assets.py), without a browser or a build: what ``make check-site`` and
``make pdf`` rely on, checked in ``make test``.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

import browser  # noqa: E402
import offline_assets  # noqa: E402


def test_every_script_the_checks_run_is_a_javascript_function():
    for path in sorted((ROOT / "tools" / "js").glob("*.js")):
        source = browser.js(path.stem)
        body = "\n".join(ln for ln in source.splitlines() if not ln.startswith("//"))
        assert "=>" in body.split("{", 1)[0] or body.lstrip().startswith("async"), path.name
    # and node, where there is one, parses each as an expression
    node = subprocess.run(["node", "--version"], capture_output=True, check=False)
    if node.returncode == 0:
        for path in sorted((ROOT / "tools" / "js").glob("*.js")):
            code = f"new Function('return (' + {browser.js(path.stem)!r} + ')')"
            proc = subprocess.run(["node", "-e", code], capture_output=True, text=True)
            assert proc.returncode == 0, (path.name, proc.stderr[-500:])


def test_both_checks_load_their_scripts():
    for tool in ("check_site", "pdf"):
        proc = subprocess.run(
            [sys.executable, "-c", f"import sys; sys.path.insert(0, 'tools'); import {tool}"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
        )
        assert proc.returncode == 0, proc.stderr[-2000:]


def test_is_local_to_lets_only_the_site_through():
    local = browser.is_local_to("http://127.0.0.1:8000/")
    assert local("http://127.0.0.1:8000/book/intro.html")
    assert local("data:image/png;base64,AAAA") and local("about:blank")
    assert not local("https://cdn.jsdelivr.net/npm/mathjax@3/es5/tex-chtml.js")
    assert not local("http://127.0.0.1:8001/")


def test_markup_fixes_mend_the_reference_list_and_the_toggle():
    body = (
        '<div role="list" class="citation-list">\n'
        '<div class="citation" id="id3" role="doc-biblioentry">\n<span class="label">'
        '<span class="fn-bracket">[</span>A<span class="fn-bracket">]</span></span>\n'
        "<p>Cohen, J. (1960).</p>\n</div>\n</div>\n"
        '<details class="admonition hide above-input">\n'
        '<summary aria-label="Toggle hidden content">\n'
        '<p class="collapsed admonition-title">Show code cell source</p>\n'
    )
    context = {"body": body}
    offline_assets.mend_markup(None, "book/x", "page.html", context, None)
    mended = context["body"]
    assert 'role="doc-biblioentry"' not in mended
    assert '<div class="citation" id="id3" role="listitem">' in mended
    assert "aria-label" not in mended and "<summary>\n" in mended
    assert mended.count("Show code cell source") == 1  # nothing else touched


def _pdf_with_images(path: Path) -> None:
    """One page: an image drawn directly, and a form XObject that draws another, twice."""
    from pypdf import PdfWriter
    from pypdf.generic import ArrayObject, DecodedStreamObject, DictionaryObject, NameObject
    from pypdf.generic import NumberObject as Num

    def image() -> DecodedStreamObject:
        im = DecodedStreamObject()
        im.set_data(b"\x00")
        im.update({NameObject(k): v for k, v in {
            "/Type": NameObject("/XObject"), "/Subtype": NameObject("/Image"),
            "/Width": Num(1), "/Height": Num(1), "/BitsPerComponent": Num(8),
            "/ColorSpace": NameObject("/DeviceGray")}.items()})  # fmt: skip
        return im

    writer = PdfWriter()
    page = writer.add_blank_page(100, 100)
    form = DecodedStreamObject()
    form.set_data(b"q 10 0 0 10 0 0 cm /Im2 Do Q")
    form.update({
        NameObject("/Type"): NameObject("/XObject"), NameObject("/Subtype"): NameObject("/Form"),
        NameObject("/BBox"): ArrayObject([Num(0), Num(0), Num(100), Num(100)]),
        NameObject("/Resources"): DictionaryObject({NameObject("/XObject"): DictionaryObject(
            {NameObject("/Im2"): writer._add_object(image())})}),
    })  # fmt: skip
    xobjects = {"/Im1": writer._add_object(image()), "/Fm1": writer._add_object(form)}
    page[NameObject("/Resources")] = DictionaryObject({NameObject("/XObject"): DictionaryObject(
        {NameObject(k): v for k, v in xobjects.items()})})  # fmt: skip
    content = DecodedStreamObject()
    content.set_data(b"q 10 0 0 10 0 0 cm /Im1 Do Q /Fm1 Do /Fm1 Do")
    page[NameObject("/Contents")] = writer._add_object(content)
    with path.open("wb") as f:
        writer.write(f)


def test_check_pdf_counts_the_images_pypdf_counts(tmp_path):
    pytest.importorskip("pypdf", reason="requirements-site.txt (make unit installs it)")
    import check_pdf
    from pypdf import PdfReader

    path = tmp_path / "images.pdf"
    _pdf_with_images(path)
    page = PdfReader(str(path)).pages[0]
    # the oracle: pypdf's own page.images (which also parses the content stream)
    assert check_pdf.image_count(page.get("/Resources")) == len(page.images) == 2


def test_a_figure_records_its_smallest_text_and_the_phone_check_reads_it(tmp_path):
    """book/figure_text.py writes kh:min-text-px into a figure's PNG (10 pt at 100 dpi is
    13.89 px; the 8 pt annotation is the smallest), explorers_build reads it, and
    check_site's phone pass fails on text drawn under 11 CSS px and on a figure cut off
    without a cue (and passes the same figure drawn legibly)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    sys.path.insert(0, str(ROOT / "book"))
    import check_site
    import explorers_build
    import figure_text

    fig, ax = plt.subplots(figsize=(6, 3), dpi=100)
    figure_text.record(fig)
    ax.plot([0, 1], [0, 1])
    ax.annotate("small", (0.5, 0.5), fontsize=8)
    ax.set_xlabel("x")
    out = tmp_path / "_images" / "fig.png"
    out.parent.mkdir()
    fig.savefig(out, dpi=100)
    plt.close(fig)
    info = explorers_build.png_info(out)
    assert info["width"] == 600
    assert info["text"]["kh:min-text-px"] == f"{8 * 100 / 72:.2f}"
    page = tmp_path / "book" / "ch.html"
    page.parent.mkdir()
    probe = {"src": "../_images/fig.png", "alt": "a figure", "natural": 600}
    small = check_site.figure_problems([probe | {"drawn": 358, "hidden": 0, "cue": None}],
                                       tmp_path, "book/ch.html")  # fmt: skip
    assert len(small) == 1 and "under 11" in small[0], small
    hidden = check_site.figure_problems([probe | {"drawn": 600, "hidden": 242, "cue": None}],
                                        tmp_path, "book/ch.html")  # fmt: skip
    assert len(hidden) == 1 and "no visible cue" in hidden[0], hidden
    fine = check_site.figure_problems([probe | {"drawn": 600, "hidden": 242, "cue": "scroll"}],
                                      tmp_path, "book/ch.html")  # fmt: skip
    assert fine == []
    # and the build gives that figure, on a phone, the width at which its text stays legible
    html = '<div class="cell_output"><img alt="a" src="../_images/fig.png" /></div>'
    text, _ = explorers_build.rewrite_page(html, page, tmp_path, {})
    assert "--kh-legible-width: 600px" in text  # its natural width: 11.1 px text, no more
    assert 'class="kh-figure-link kh-wide"' in text and "kh-figure-cue" in text


def test_the_search_text_keeps_the_main_contents_sections_only():
    """tools/offline_search.py: what the search page's excerpts are cut from, from disk."""
    import offline_search

    page = (
        '<html><body><nav>menu</nav><main role="main"><div class="bd-header-article">x.ipynb'
        '</div><section id="a"><h1>Title<a class="headerlink">#</a></h1><p>One &amp; two.</p>'
        '<script>var x = 1;</script><section id="b"><p>Inner <img src="i.png"> text.</p>'
        "</section></section></main><footer>foot</footer></body></html>"
    )
    assert offline_search.main_text(page) == (
        '<div role="main"><section id="a"> Title One &amp; two.<section id="b"> Inner text.'
        "</section></section></div>"
    )
