"""Each chapter figure records the size of its smallest text in the PNG it is saved as.

``book/matplotlibrc`` (read by matplotlib from the folder a chapter runs in) names
:func:`record` as a figure hook: every figure made with pyplot writes, into its PNG, a text
chunk ``kh:min-text-px`` with the height in the PNG's pixels of its smallest visible text
(the font size in points times the saving dpi over 72). The site build
(tools/explorers_build.py) reads it to keep each figure's text at least 11 CSS px on a phone,
and ``make check-site`` fails on a figure whose text would be smaller. Nothing else changes:
a chapter run elsewhere (Colab, the wheel check) draws the same figures without the chunk.
"""

from __future__ import annotations

import os

KEY = "kh:min-text-px"


def smallest_text_pt(fig) -> float | None:
    """The smallest font size (points) of the figure's visible, non-empty texts."""
    from matplotlib.text import Text

    sizes = [t.get_fontsize() for t in fig.findobj(Text) if _shown(t)]
    return min(sizes) if sizes else None


def _shown(t) -> bool:
    """A text counts when it is visible and written (empty offset texts and titles do not)."""
    return bool(t.get_visible() and t.get_text().strip())


def record(fig) -> None:
    """The figure hook: its canvas's print_figure adds the text chunk to a PNG."""
    import matplotlib as mpl

    canvas = fig.canvas
    original = canvas.print_figure

    def print_figure(filename, *args, **kwargs):
        fmt = kwargs.get("format") or (
            os.fspath(filename)
            if isinstance(filename, (str, os.PathLike))
            else mpl.rcParams["savefig.format"]
        )
        pt = smallest_text_pt(fig)
        if pt is not None and str(fmt).lower().endswith("png"):
            dpi = kwargs.get("dpi")
            dpi = fig.dpi if dpi in (None, "figure") else float(dpi)
            metadata = dict(kwargs.get("metadata") or {})
            metadata[KEY] = f"{pt * dpi / 72:.2f}"
            kwargs["metadata"] = metadata
        return original(filename, *args, **kwargs)

    canvas.print_figure = print_figure
