r"""The 2x2 explorer of chapter 02: four counts in, five agreement numbers out.

The table is the paper's binary layout, rows = reference, columns = prediction, with the
positive class first:

.. math:: C = \begin{pmatrix} a & b \\ c & d \end{pmatrix}
          \qquad (a = \mathrm{TP},\ b = \mathrm{FN},\ c = \mathrm{FP},\ d = \mathrm{TN}).

* :func:`two_by_two_values` computes p_o, p_e, kappa, MCC and PABAK with kappalib (pure,
  no display; unit-tested in ``tests/test_widgets_agreement.py``);
* :func:`two_by_two_chart` draws them as a bar chart, writing "undefined" where a value is
  0/0 instead of failing;
* :func:`two_by_two_explorer` wires four sliders to the chart with ``ipywidgets.interactive``.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.figure import Figure

from .._coefficients.chance_models import pabak
from .._coefficients.kappa import expected_agreement, kappa, observed_agreement
from .._coefficients.mcc import mcc
from ._controls import blit_png, control, fmt

__all__ = ["two_by_two_chart", "two_by_two_explorer", "two_by_two_values"]

#: Display names of the five numbers, in the order of the dict and of the bars.  Unicode
#: (subscript o and e, Greek kappa) rather than mathtext: parsing "$p_o$" on every redraw
#: costs about a third of the redraw time.
TWO_BY_TWO_NAMES = {
    "p_o": "p\u2092",
    "p_e": "p\u2091",
    "kappa": "\u03ba",
    "mcc": "MCC",
    "pabak": "PABAK",
}

FIGSIZE = (6.4, 3.6)

# Grays and hatches, so that the bars stay distinct in grayscale print.
_FACES = ["0.85", "0.65", "0.35", "0.5", "0.75"]
_HATCHES = ["", "..", "", "//", "xx"]


def two_by_two_values(a: float, b: float, c: float, d: float) -> dict[str, float | None]:
    r"""p_o, p_e, kappa, MCC and PABAK of the 2 x 2 table ``[[a, b], [c, d]]``.

    Every number comes from kappalib (:func:`kappalib.observed_agreement`,
    :func:`kappalib.expected_agreement`, :func:`kappalib.kappa`, :func:`kappalib.mcc`,
    :func:`kappalib.pabak`); this function only collects them for the explorer.

    Parameters
    ----------
    a, b, c, d : float
        Non-negative counts: ``a`` = TP, ``b`` = FN, ``c`` = FP, ``d`` = TN (rows are the
        reference, the positive class first).

    Returns
    -------
    values : dict
        Keys ``"p_o"``, ``"p_e"``, ``"kappa"``, ``"mcc"``, ``"pabak"``, in that order.  A
        value that is undefined (0/0) is ``None``: kappa when both raters use one single
        class, MCC when either rater does, and all five when the table is empty
        (``a = b = c = d = 0``, which sliders can reach).

    Raises
    ------
    ValueError
        If a count is negative, NaN or infinite (kappalib's own check).

    Examples
    --------
    The kappa explainer's table:

    >>> from kappalib.widgets import two_by_two_values
    >>> v = two_by_two_values(8, 2, 1, 9)
    >>> {k: round(x, 4) for k, x in v.items()}
    {'p_o': 0.85, 'p_e': 0.5, 'kappa': 0.7, 'mcc': 0.7035, 'pabak': 0.7}

    Both raters say "positive" every time: perfect raw agreement, kappa and MCC undefined.

    >>> two_by_two_values(5, 0, 0, 0)
    {'p_o': 1.0, 'p_e': 1.0, 'kappa': None, 'mcc': None, 'pabak': 1.0}
    """
    C = np.array([[a, b], [c, d]], dtype=np.float64)
    if np.all(C == 0):
        return dict.fromkeys(TWO_BY_TWO_NAMES)
    return {  # one matrix: each value is a float or None
        "p_o": observed_agreement(C),  # type: ignore[dict-item]
        "p_e": expected_agreement(C),  # type: ignore[dict-item]
        "kappa": kappa(C),  # type: ignore[dict-item]
        "mcc": mcc(C),  # type: ignore[dict-item]
        "pabak": pabak(C),  # type: ignore[dict-item]
    }


def _new_axes(fig=None):
    """Axes on a new pyplot figure, or on ``fig`` (a bare Figure, unknown to pyplot)."""
    fig = plt.figure(figsize=FIGSIZE) if fig is None else fig
    fig.subplots_adjust(left=0.11, right=0.98, bottom=0.16, top=0.9)
    return fig.subplots()


def _draw_frame(ax):
    """Bars of zero height, empty labels, axes and ticks: everything that does not move."""
    x = np.arange(len(TWO_BY_TWO_NAMES))
    ax.bar(x, np.zeros_like(x, dtype=float), width=0.6, color=_FACES, edgecolor="black")
    for bar, hatch in zip(ax.patches, _HATCHES, strict=True):
        bar.set_hatch(hatch)
    for xi in x:
        ax.text(xi, 0.0, "", ha="center", va="bottom")
    ax.axhline(0.0, color="black", linewidth=0.8)
    ax.set_xticks(x, list(TWO_BY_TWO_NAMES.values()))
    ax.set_xlim(-0.6, len(x) - 0.4)
    ax.set_ylim(-1.3, 1.3)
    ax.set_xlabel("statistic")
    ax.set_ylabel("value")


def _update(ax, a, b, c, d):
    """Set the bars, value labels and title of a frame drawn by :func:`_draw_frame`."""
    values = two_by_two_values(a, b, c, d)
    bars = ax.patches[: len(values)]
    labels = ax.texts[: len(values)]
    for bar, label, value in zip(bars, labels, values.values(), strict=True):
        bar.set_visible(value is not None)
        bar.set_height(0.0 if value is None else value)
        if value is None or value >= 0:
            y, va = (0.03 if value is None else value + 0.03), "bottom"
        else:
            y, va = value - 0.03, "top"
        label.set_position((bar.get_x() + bar.get_width() / 2, y))
        label.set_verticalalignment(va)
        label.set_text(fmt(value))
    N = a + b + c + d
    ax.set_title(f"C = [[{a:g}, {b:g}], [{c:g}, {d:g}]],  N = {N:g}")
    return values


def two_by_two_chart(a: float, b: float, c: float, d: float, *, ax=None):
    """Bar chart of :func:`two_by_two_values` for the table ``[[a, b], [c, d]]``.

    The y axis runs from -1 to 1 (kappa, MCC and PABAK can be negative).  Each bar carries
    its value; an undefined value gets no bar and the word "undefined" at zero.  The bars
    are gray shades with distinct hatches, so they stay apart in grayscale print.

    Parameters
    ----------
    a, b, c, d : float
        The counts, as in :func:`two_by_two_values`.
    ax : matplotlib Axes, optional
        Where to draw; a new figure is made otherwise.

    Returns
    -------
    ax : matplotlib Axes

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> from kappalib.widgets import two_by_two_chart
    >>> ax = two_by_two_chart(5, 0, 0, 0, ax=Figure().subplots())
    >>> [t.get_text() for t in ax.texts]
    ['1.000', '1.000', 'undefined', 'undefined', '1.000']
    """
    if ax is None:
        ax = _new_axes()
    _draw_frame(ax)
    _update(ax, a, b, c, d)
    return ax


def two_by_two_explorer(
    a: int = 8, b: int = 2, c: int = 1, d: int = 9, *, max_count: int | None = None
):
    """Sliders for the four counts of a 2 x 2 table, with the five numbers redrawn live.

    The sliders' labels, range and defaults are those of ``explorers.json`` ("two_by_two"),
    which the static page's explorer reads too (a test keeps the defaults written here equal
    to the definition's).

    Parameters
    ----------
    a, b, c, d : int
        Starting counts (default: the kappa explainer's table ``[[8, 2], [1, 9]]``).
    max_count : int, optional
        The largest count a slider reaches (default: the definition's, 50).

    Returns
    -------
    widget : ipywidgets.interactive
        Display it as the last expression of a cell.  Each slider step prints the five
        values and shows :func:`two_by_two_chart` of the new table; ``widget.result`` holds
        the latest :func:`two_by_two_values`.
    """
    import ipywidgets as widgets
    from IPython.display import Image, display
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    def slider(name, value):
        entry = control("two_by_two", name)
        high = entry["max"] if max_count is None else max_count
        return widgets.IntSlider(
            value=value, min=entry["min"], max=high, step=entry["step"], description=entry["label"]
        )

    # One figure, drawn once.  Its fixed parts (axes, ticks, labels) are rendered once into
    # a background; each slider step restores that background, draws only the artists that
    # move (bars, zero line, value labels, title) and encodes the pixels as a PNG.  That is
    # several times faster than drawing a whole figure per step.  A bare Figure is not
    # registered with pyplot, so the notebook does not show it a second time.
    ax = _new_axes(Figure(figsize=FIGSIZE))
    _draw_frame(ax)
    canvas = FigureCanvasAgg(ax.figure)
    moving = [*ax.patches[:5], *ax.lines, *ax.texts[:5], ax.title]
    for artist in moving:
        artist.set_animated(True)
    canvas.draw()
    background = canvas.copy_from_bbox(ax.figure.bbox)

    def redraw(a, b, c, d):
        values = _update(ax, a, b, c, d)
        print("   ".join(f"{k} = {fmt(v)}" for k, v in values.items()))
        display(Image(data=blit_png(canvas, background, moving), format="png"))
        return values

    return widgets.interactive(
        redraw,
        a=slider("a", a),
        b=slider("b", b),
        c=slider("c", c),
        d=slider("d", d),
    )
