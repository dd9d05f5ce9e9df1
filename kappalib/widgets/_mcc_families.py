r"""The C0/C1 family explorer of chapter 07: pick a family, move a and b, watch K and MCC.

The families are the paper's binary matrices (rows = reference, columns = prediction, the
positive class first), built by :mod:`kappalib.families`:

* ``"C0"``: ``[[a, b], [0, 1]]``, Proposition 2 with d = 1 (no false positive);
* ``"C1, d=a"``: ``[[a, b], [1, a]]``, Corollary 4 (Figure 2);
* ``"C1, d=0"``: ``[[a, b], [1, 0]]``, Corollary 5 (Figure 3);
* ``"C1, d=1"``: ``[[a, b], [1, 1]]``, Corollary 6 (Figure 4).

In every family a larger ``b`` (more false negatives, all else fixed) is a worse
classifier.  The explorer draws kappa and MCC as functions of ``b`` for the chosen family
and ``a``, marks the current ``b`` and, for the C1 scenarios, the ``b`` where kappa is
smallest, and shows the current matrix.

* :func:`mcc_family_values` computes everything shown (pure, no display; unit-tested in
  ``tests/test_widgets_mcc.py``), with batched ``kl.kappa`` / ``kl.mcc`` calls;
* :func:`mcc_family_chart` draws it (the static figure of the chapter);
* :func:`mcc_family_explorer` wires a dropdown and two sliders to the chart.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.figure import Figure

from .. import closed_forms, families, plotting
from .._coefficients.kappa import kappa
from .._coefficients.mcc import mcc
from ._controls import blit_png, control, explorer_definition, fmt

__all__ = ["MCC_FAMILIES", "mcc_family_chart", "mcc_family_explorer", "mcc_family_values"]

#: The families the explorer offers: key -> (label, the paper's result).
_FAMILY = control("mcc_family", "family")
MCC_FAMILIES = {
    key: (label, source)
    for key, label, source in zip(
        _FAMILY["options"], _FAMILY["option_labels"], _FAMILY["option_sources"], strict=True
    )
}  # from explorers.json: "C0" -> ("C0 = [[a, b], [0, 1]]", "Proposition 2"), ...
_SWEEP = explorer_definition("mcc_family")["sweep"]

FIGSIZE = (8.0, 3.6)
_NAN = float("nan")


def _matrices(family, a, b):
    if family == "C0":
        return families.C0(a, b, 1.0)
    d = {"C1, d=a": a, "C1, d=0": 0.0, "C1, d=1": 1.0}[family]
    return families.C1(a, b, d)


def mcc_family_values(
    family: str = "C1, d=a",
    a: float = 0.2,
    b: float = 5.0,
    *,
    b_max: float = _SWEEP["b_max"],
    n_points: int = _SWEEP["n_points"],
) -> dict:
    r"""Kappa and MCC of one family member, and of the whole sweep over ``b``.

    Parameters
    ----------
    family : {"C0", "C1, d=a", "C1, d=0", "C1, d=1"}
        Which family (see the module docstring).
    a : float
        True positives (and true negatives in ``"C1, d=a"``), non-negative.
    b : float
        False negatives, non-negative: the current point.
    b_max : float
        The sweep runs over ``[0, max(b_max, b)]``.
    n_points : int
        Number of points of the sweep.

    Returns
    -------
    values : dict
        ``"C"``: the current (2, 2) matrix; ``"kappa"``, ``"mcc"``: its kappa and MCC
        (``None`` where undefined, e.g. MCC of C0 with a = 0); ``"b_grid"``,
        ``"kappa_curve"``, ``"mcc_curve"``: the sweep (NaN where undefined);
        ``"b_star"``, ``"kappa_star"``: where kappa is smallest over b and its value, from
        :func:`kappalib.closed_forms.argmin_kappa_C1` (``None`` for C0, whose kappa falls
        all the way).

    Raises
    ------
    ValueError
        If ``family`` is unknown, or ``a`` or ``b`` is negative or not finite.

    Examples
    --------
    Figure 2's setting (a = 0.2) at b = 5: kappa has already passed its minimum.

    >>> from kappalib.widgets import mcc_family_values
    >>> v = mcc_family_values("C1, d=a", 0.2, 5.0)
    >>> round(v["kappa"], 4), round(v["mcc"], 4), round(v["b_star"], 4)
    (-0.3483, -0.7949, 1.2638)
    """
    if family not in MCC_FAMILIES:
        raise ValueError(f"family must be one of {list(MCC_FAMILIES)!r}, got {family!r}")
    for name, value in (("a", a), ("b", b)):
        if not np.isfinite(value) or value < 0:
            raise ValueError(f"{name} must be finite and non-negative, got {value!r}")
    C = _matrices(family, float(a), float(b))
    b_grid = np.linspace(0.0, max(float(b_max), float(b)), int(n_points))
    stack = _matrices(family, float(a), b_grid)
    kappa_curve = kappa(stack, zero_division=_NAN)
    mcc_curve = mcc(stack, zero_division=_NAN)
    b_star = kappa_star = None
    if family != "C0":
        scenario = family.split(", ")[1]
        b_star = closed_forms.argmin_kappa_C1(float(a), scenario)  # type: ignore[arg-type]
        kappa_star = kappa(_matrices(family, float(a), b_star))
    return {
        "C": C,
        "kappa": kappa(C),
        "mcc": mcc(C),
        "b_grid": b_grid,
        "kappa_curve": kappa_curve,
        "mcc_curve": mcc_curve,
        "b_star": b_star,
        "kappa_star": kappa_star,
    }


def _new_figure(fig=None):
    """A figure with the two axes: the sweep (left) and the current matrix (right)."""
    fig = plt.figure(figsize=FIGSIZE) if fig is None else fig
    ax_curve, ax_matrix = fig.subplots(1, 2, gridspec_kw={"width_ratios": [2.3, 1]})
    fig.subplots_adjust(left=0.08, right=0.97, bottom=0.3, top=0.86, wspace=0.3)
    return fig, ax_curve, ax_matrix


def _draw_frame(ax_curve, ax_matrix):
    """Every artist, empty; :func:`_update` only sets their data."""
    (mcc_line,) = ax_curve.plot([], [], "-", color="0.1", lw=2, label="MCC")
    (kappa_line,) = ax_curve.plot([], [], "--", color="0.45", lw=2, label="κ (kappa)")
    (mcc_dot,) = ax_curve.plot([], [], "o", color="0.1", ms=8, label="current MCC")
    (kappa_dot,) = ax_curve.plot(
        [], [], "s", mfc="white", mec="0.45", mew=2, ms=8, label="current κ"
    )
    (star,) = ax_curve.plot([], [], "v", color="0.3", ms=10, label="minimum of κ")
    ax_curve.axvline(0.0, color="0.6", lw=1, ls=":")
    ax_curve.axhline(0.0, color="0.75", lw=0.8)
    ax_curve.set_ylim(-1.05, 1.05)
    ax_curve.set_xlabel("b (false negatives)")
    ax_curve.set_ylabel("value")
    ax_curve.legend(
        handles=[mcc_line, kappa_line, mcc_dot, kappa_dot, star],
        loc="upper center",
        bbox_to_anchor=(0.5, -0.2),
        ncol=5,
        fontsize=8,
        frameon=False,
        handlelength=1.6,
        columnspacing=1.0,
    )
    plotting.matrix_heatmap(
        np.zeros((2, 2)),
        labels=["pos", "neg"],
        ax=ax_matrix,
        fmt=".3g",
        xlabel="prediction",
        ylabel="reference",
        title="current matrix",
    )


def _update(ax_curve, ax_matrix, family, a, b):
    values = mcc_family_values(family, a, b)
    mcc_line, kappa_line, mcc_dot, kappa_dot, star = ax_curve.lines[:5]
    grid = values["b_grid"]
    mcc_line.set_data(grid, values["mcc_curve"])
    kappa_line.set_data(grid, values["kappa_curve"])
    m, k = values["mcc"], values["kappa"]
    mcc_dot.set_data([b] if m is not None else [], [m] if m is not None else [])
    kappa_dot.set_data([b] if k is not None else [], [k] if k is not None else [])
    if values["b_star"] is None:
        star.set_data([], [])
    else:
        star.set_data([values["b_star"]], [values["kappa_star"]])
    ax_curve.lines[5].set_xdata([b, b])
    ax_curve.set_xlim(0, grid[-1])
    label, source = MCC_FAMILIES[family]
    ax_curve.set_title(f"{label} ({source}), a = {a:g}:  κ = {fmt(k)}, MCC = {fmt(m)}", fontsize=10)

    C = values["C"]
    image = ax_matrix.images[0]
    vmax = float(C.max()) if C.max() > 0 else 1.0
    image.set_data(C)
    image.set_clim(0.0, vmax)
    for text, value in zip(ax_matrix.texts, C.ravel(), strict=True):
        text.set_text(f"{value:.3g}")
        text.set_color("white" if value / vmax > 0.55 else "black")
    return values


def mcc_family_chart(family: str = "C1, d=a", a: float = 0.2, b: float = 5.0, *, fig=None):
    """Draw :func:`mcc_family_values`: the sweep over b (left) and the current matrix (right).

    MCC is a solid dark line, kappa a dashed gray one; the current point is a filled circle
    (MCC) and an open square (kappa) on a dotted vertical line; a triangle marks kappa's
    minimum.  Shapes and line styles, not only shades, tell the curves apart in grayscale.

    Parameters
    ----------
    family, a, b
        As in :func:`mcc_family_values`.
    fig : matplotlib Figure, optional
        An empty figure to draw on; a new pyplot figure is made otherwise.

    Returns
    -------
    fig : matplotlib Figure

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> from kappalib.widgets import mcc_family_chart
    >>> fig = mcc_family_chart("C1, d=0", 1.0, 3.0, fig=Figure())
    >>> [t.get_text() for t in fig.axes[1].texts]
    ['1', '3', '1', '0']
    """
    fig, ax_curve, ax_matrix = _new_figure(fig)
    _draw_frame(ax_curve, ax_matrix)
    _update(ax_curve, ax_matrix, family, a, b)
    return fig


class _Renderer:
    """The explorer's figure, redrawn by blitting: only the artists that move are redrawn.

    Axes, ticks, labels and legend do not change between slider steps (the b axis is fixed
    at [0, 30], the slider's range), so they are drawn once into a cached background; each
    step restores it, draws the curves, markers, title and matrix cells, and encodes a PNG.
    Redrawing all the text of the figure at every step would take most of the 50 ms budget.
    """

    def __init__(self, dpi: int = 80):
        from matplotlib.backends.backend_agg import FigureCanvasAgg

        self.fig, self.ax_curve, self.ax_matrix = _new_figure(Figure(figsize=FIGSIZE, dpi=dpi))
        self.canvas = FigureCanvasAgg(self.fig)
        _draw_frame(self.ax_curve, self.ax_matrix)
        _update(self.ax_curve, self.ax_matrix, "C1, d=a", 0.2, 5.0)  # lays out the title
        self.moving = [
            *self.ax_curve.lines,
            self.ax_curve.title,
            *self.ax_matrix.images,
            *self.ax_matrix.texts,
        ]
        for artist in self.moving:
            artist.set_animated(True)
        self.canvas.draw()
        self.background = self.canvas.copy_from_bbox(self.fig.bbox)

    def render(self, family: str, a: float, b: float) -> tuple[dict, bytes]:
        values = _update(self.ax_curve, self.ax_matrix, family, a, b)
        return values, blit_png(self.canvas, self.background, self.moving)


def mcc_family_explorer(family: str = "C1, d=a", a: float = 0.2, b: float = 5.0):
    """A family dropdown and sliders for a and b, with :func:`mcc_family_chart` redrawn live.

    Parameters
    ----------
    family, a, b
        Starting values (default: Figure 2's setting, a = 0.2, at b = 5).

    Returns
    -------
    widget : ipywidgets.interactive
        Display it as the last expression of a cell.  Each change prints K and MCC and
        shows a fresh PNG of the chart; ``widget.result`` holds the latest
        :func:`mcc_family_values`.
    """
    import ipywidgets as widgets
    from IPython.display import Image, display

    renderer = _Renderer()

    def redraw(family, a, b):
        values, png = renderer.render(family, a, b)
        print(f"κ = {fmt(values['kappa'])}   MCC = {fmt(values['mcc'])}")
        display(Image(data=png, format="png"))
        return values

    options = [(f"{label}  ({source})", key) for key, (label, source) in MCC_FAMILIES.items()]

    def _slider(name, value):
        entry = control("mcc_family", name)
        return widgets.FloatSlider(
            value=value,
            min=entry["min"],
            max=entry["max"],
            step=entry["step"],
            description=entry["label"],
        )

    return widgets.interactive(
        redraw,
        family=widgets.Dropdown(options=options, value=family, description=_FAMILY["label"]),
        a=_slider("a", a),
        b=_slider("b", b),
    )
