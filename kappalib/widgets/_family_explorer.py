r"""The family explorer of chapter 08: Z_A and the examples M1-M5 of Delgado & Tibau (2019).

Pick a family, move its parameter ``A``, and watch the confusion matrix, kappa, MCC, the
asymmetry and the off-diagonal entropy change together.

* :func:`family_range` gives the parameter range the explorer offers for each family (the
  paper's range where it states one).
* :func:`family_state` is the pure computation: the matrix at ``A``, its four statistics, and
  the curves of the statistics over the whole range (one batched kappalib call each).
* :class:`FamilyView` draws a state (heatmap, K and MCC against A, entropy against A) and
  updates it in place; :func:`draw_family_state` is its static form.
* :func:`family_explorer` builds the ipywidgets explorer around them.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .. import families
from .._coefficients.diagnostics import asymmetry, off_diagonal_entropy
from .._coefficients.kappa import kappa
from .._coefficients.mcc import mcc
from ._controls import blit_png, control, explorer_definition, fmt

__all__ = [
    "FAMILY_NAMES",
    "FamilyRange",
    "FamilyView",
    "draw_family_state",
    "family_explorer",
    "family_range",
    "family_state",
]

FAMILY_NAMES = tuple(explorer_definition("families")["ranges"])  # ZA, M1-M5

_MAKERS = {
    "M1": families.M1,
    "M2": families.M2,
    "M3": families.M3,
    "M4": families.M4,
    "M5": families.M5,
}

# (lowest A, highest A, default A), from explorers.json ("families"), which the static page
# reads too.  Z_A's upper end is 100 N, the scale of the paper's Figure 5 (c) and (d); M3
# stops at 999 (B = 1000 - A >= 1), M4 at 100 (B = 100 - A >= 0).
_DEFINITION = explorer_definition("families")
_RANGES = {
    name: (r["low"], r["high"], r["default"])
    for name, r in _DEFINITION["ranges"].items()
    if name != "ZA"
}
_ZA = _DEFINITION["ranges"]["ZA"]


def _check_name(name):
    if name not in FAMILY_NAMES:
        raise ValueError(f"name must be one of {', '.join(FAMILY_NAMES)}, got {name!r}")


def _check_classes(n_classes):
    if (
        isinstance(n_classes, bool)
        or not isinstance(n_classes, (int, np.integer))
        or not 2 <= n_classes <= 10
    ):
        raise ValueError(f"n_classes must be an integer from 2 to 10, got {n_classes!r}")
    return int(n_classes)


class FamilyRange(NamedTuple):
    """The values of ``A`` an explorer offers for a family, and where its slider starts."""

    low: float
    high: float
    default: float


def family_range(name: str, n_classes: int = 3) -> FamilyRange:
    """The range of ``A`` the explorer offers for a family, and its default value.

    Parameters
    ----------
    name : {"ZA", "M1", "M2", "M3", "M4", "M5"}
    n_classes : int, default 3
        Number of classes N of Z_A (2 to 10); the examples M1-M5 are 3 x 3 and ignore it.

    Returns
    -------
    FamilyRange
        ``low``, ``high`` and ``default`` (``low, high, default = family_range(name)``).

    Examples
    --------
    >>> from kappalib.widgets import family_range
    >>> family_range("M4")
    FamilyRange(low=0.0, high=100.0, default=60.0)
    >>> tuple(family_range("ZA", 5))
    (0.0, 500.0, 10.0)
    """
    _check_name(name)
    if name == "ZA":
        high = _ZA["high_per_class"] * _check_classes(n_classes)
        return FamilyRange(_ZA["low"], high, _ZA["default"])
    return FamilyRange(*_RANGES[name])


def _slider_step(low, high):
    """A round step (a power of ten) of at most 1/1000 of the range: the range's ends and the
    defaults of :func:`family_range` are whole multiples of it, so the browser's slider, which
    snaps its value to ``low + k * step``, shows the same A as the figure's title."""
    return float(10.0 ** np.floor(np.log10((high - low) / 1000)))


def _readout_format(step):
    """Fixed decimals, as many as the step has: d3-format (the browser's readout) and Python
    (the figure's title) write "f" formats alike, where "g" differs ("10.00" against "10")."""
    return f".{max(0, -round(np.log10(step)))}f"


def _on_grid(value, low, step):
    return round(low + round((value - low) / step) * step, 10)


def _matrices(name, A, n_classes):
    if name == "ZA":
        return families.ZA(A, n_classes)
    return _MAKERS[name](A)


def family_state(name: str, A: float, n_classes: int = 3, *, n_grid: int = 201) -> dict:
    """Everything the family explorer shows for one family at one value of ``A``.

    Parameters
    ----------
    name : {"ZA", "M1", "M2", "M3", "M4", "M5"}
    A : float
        The parameter, inside :func:`family_range` ``(name, n_classes)``.
    n_classes : int, default 3
        N for Z_A (2 to 10); ignored by M1-M5, which are 3 x 3.
    n_grid : int, default 201
        Number of points of the curves over the range.

    Returns
    -------
    dict
        ``name``, ``label`` (e.g. ``"Z_A, N = 3"``), ``A``, ``matrix`` (K x K array),
        ``kappa``, ``mcc``, ``asymmetry``, ``entropy`` (floats, entropy in bits; ``None``
        where undefined), ``grid`` (the A values of the curves) and ``kappa_curve``,
        ``mcc_curve``, ``asymmetry_curve``, ``entropy_curve`` (arrays over ``grid``, NaN where
        undefined).

    Raises
    ------
    ValueError
        For an unknown family, an ``n_classes`` outside 2..10, or an ``A`` outside the range.

    Examples
    --------
    Table 1 of the paper, M2 at A = 10:

    >>> from kappalib.widgets import family_state
    >>> s = family_state("M2", 10)
    >>> round(s["mcc"], 4), round(s["kappa"], 4), round(s["entropy"], 4)
    (-0.3879, -0.1002, 0.7135)
    """
    _check_name(name)
    n_classes = _check_classes(n_classes) if name == "ZA" else 3
    low, high, _ = family_range(name, n_classes)
    if isinstance(A, bool) or not isinstance(A, (int, float, np.integer, np.floating)):
        raise ValueError(f"A must be a number from {low:g} to {high:g}, got {A!r}")
    if not (np.isfinite(A) and low <= A <= high):
        raise ValueError(f"A must be a number from {low:g} to {high:g} for {name}, got {A!r}")
    if isinstance(n_grid, bool) or not isinstance(n_grid, (int, np.integer)) or n_grid < 2:
        raise ValueError(f"n_grid must be an integer of at least 2, got {n_grid!r}")
    A = float(A)
    C = _matrices(name, A, n_classes)
    grid = np.linspace(low, high, int(n_grid))
    stack = _matrices(name, grid, n_classes)
    label = f"Z_A, N = {n_classes}" if name == "ZA" else name
    return {
        "name": name,
        "label": label,
        "A": A,
        "matrix": C,
        "kappa": kappa(C),
        "mcc": mcc(C),
        "asymmetry": asymmetry(C),
        "entropy": off_diagonal_entropy(C),
        "grid": grid,
        "kappa_curve": kappa(stack),
        "mcc_curve": mcc(stack),
        "asymmetry_curve": asymmetry(stack),
        "entropy_curve": off_diagonal_entropy(stack),
    }


def _y(value):
    return np.nan if value is None else value


class FamilyView:
    """A three-panel figure of a :func:`family_state` that can be updated in place.

    The left panel is :func:`kappalib.plotting.matrix_heatmap` of the matrix, the middle one
    kappa and MCC against A, the right one the off-diagonal entropy against A; markers and
    the dotted line show the current A, and the titles carry the values (and the asymmetry).

    :meth:`update` changes only what depends on A (the matrix, the markers, the titles), so
    with ``animated=True`` it redraws by blitting onto a cached background instead of
    drawing the axes again: that keeps a slider move well under 50 ms.

    Parameters
    ----------
    state : dict
        As returned by :func:`family_state`.
    fig : matplotlib Figure, optional
        Drawn into; a new ``pyplot`` figure otherwise.
    animated : bool, default False
        Mark the A-dependent artists as animated (for :meth:`render_png`).
    a_format : str, default ".4g"
        Format of A in the left panel's title; the explorer passes its slider's readout
        format, so that the title and the slider show the same number.
    """

    def __init__(self, state: dict, fig=None, *, animated: bool = False, a_format: str = ".4g"):
        import matplotlib.pyplot as plt
        from matplotlib.ticker import MaxNLocator

        from ..plotting import matrix_heatmap

        if fig is None:
            fig = plt.figure(figsize=(11, 3.6))
        self.fig = fig
        self.name, self.n_classes = state["name"], state["matrix"].shape[-1]
        self.a_format = a_format
        ax_m, ax_k, ax_h = fig.subplots(1, 3, width_ratios=[1.0, 1.35, 1.35])
        fig.subplots_adjust(left=0.05, right=0.99, bottom=0.15, top=0.87, wspace=0.32)
        K = self.n_classes
        matrix_heatmap(
            state["matrix"],
            ax=ax_m,
            fmt=".4g",
            labels=range(1, K + 1),
            xlabel="prediction",
            ylabel="reference",
            title=" ",
        )
        if K > 4:
            # Z_A with many classes: every cell but the top-right one is 1, so label that
            # cell only (fewer texts to draw keeps a slider move fast).
            for index, text in enumerate(ax_m.texts):
                text.set_fontsize(7)
                text.set_visible(index == K - 1)
        grid = state["grid"]
        ax_k.plot(grid, state["kappa_curve"], "-", color="tab:blue", label="kappa")
        ax_k.plot(grid, state["mcc_curve"], "--", color="tab:orange", label="MCC")
        ax_k.legend(loc="best")
        ax_k.set_xlabel("A")
        ax_k.set_ylabel("kappa, MCC")
        ax_h.plot(grid, state["entropy_curve"], "-", color="tab:green", label="entropy")
        ax_h.set_xlabel("A")
        ax_h.set_ylabel("off-diagonal entropy (bits)")
        ax_h.set_ylim(0, 1.08 * np.nanmax(state["entropy_curve"]) + 1e-9)
        for ax in (ax_k, ax_h):
            ax.xaxis.set_major_locator(MaxNLocator(5))
            ax.yaxis.set_major_locator(MaxNLocator(5))
        self.image = ax_m.images[0]
        self.texts = list(ax_m.texts)
        self._shown = [text for text in self.texts if text.get_visible()]
        self.titles = [ax_m.title, ax_k.title, ax_h.title]
        (self.kappa_dot,) = ax_k.plot([], [], "o", color="tab:blue")
        (self.mcc_dot,) = ax_k.plot([], [], "s", color="tab:orange")
        (self.entropy_dot,) = ax_h.plot([], [], "D", color="tab:green")
        self.lines = [
            ax_k.axvline(grid[0], color="0.4", lw=0.8, ls=":"),
            ax_h.axvline(grid[0], color="0.4", lw=0.8, ls=":"),
        ]
        self.axes = (ax_m, ax_k, ax_h)
        self._dynamic = [
            self.image,
            *self._shown,
            *self.titles,
            self.kappa_dot,
            self.mcc_dot,
            self.entropy_dot,
            *self.lines,
        ]
        for artist in self._dynamic:
            artist.set_animated(animated)
        self._background = None
        self.update(state)

    def update(self, state: dict) -> None:
        """Show ``state`` (same family and size as the one the view was built with)."""
        from ..plotting import annotation_colour

        C = state["matrix"]
        if (state["name"], C.shape[-1]) != (self.name, self.n_classes):
            raise ValueError(
                f"state must be of {self.name} with {self.n_classes} classes, "
                f"got {state['name']} with {C.shape[-1]}"
            )
        vmin, vmax = float(C.min()), float(C.max())
        self.image.set_data(C)
        self.image.set_clim(vmin, vmax if vmax > vmin else vmin + 1.0)
        for text, value in zip(self.texts, C.ravel(), strict=True):
            text.set_text(format(value, ".4g"))
            text.set_color(annotation_colour(value, vmin, vmax))
        A = state["A"]
        self.kappa_dot.set_data([A], [_y(state["kappa"])])
        self.mcc_dot.set_data([A], [_y(state["mcc"])])
        self.entropy_dot.set_data([A], [_y(state["entropy"])])
        for line in self.lines:
            line.set_xdata([A, A])
        self.titles[0].set_text(f"{state['label']} at A = {A:{self.a_format}}")
        self.titles[1].set_text(
            f"kappa = {fmt(state['kappa'], '.4f')},  MCC = {fmt(state['mcc'], '.4f')}"
        )
        self.titles[2].set_text(
            f"Ent = {fmt(state['entropy'], '.4f')} bits,  Asy = {fmt(state['asymmetry'], '.6g')}"
        )

    def render_png(self) -> bytes:
        """PNG bytes of the figure; blits the A-dependent artists onto a cached background."""

        from matplotlib.backends.backend_agg import FigureCanvasAgg

        canvas = self.fig.canvas
        if not isinstance(canvas, FigureCanvasAgg):
            canvas = FigureCanvasAgg(self.fig)
        if self._background is None:
            canvas.draw()
            self._background = canvas.copy_from_bbox(self.fig.bbox)
        return blit_png(canvas, self._background, self._dynamic)


def draw_family_state(state: dict, fig=None):
    """Draw a :func:`family_state` as a static figure (see :class:`FamilyView`).

    Parameters
    ----------
    state : dict
        As returned by :func:`family_state`.
    fig : matplotlib Figure, optional
        Drawn into; a new ``pyplot`` figure otherwise.

    Returns
    -------
    fig : matplotlib Figure, with three axes.

    Examples
    --------
    >>> from kappalib.widgets import draw_family_state, family_state
    >>> fig = draw_family_state(family_state("M4", 60))
    >>> len(fig.axes), fig.axes[1].get_title()
    (3, 'kappa = -0.2900,  MCC = -0.5114')
    """
    return FamilyView(state, fig).fig


def family_explorer(name: str = "M2", A: float | None = None, n_classes: int = 3):
    """Build the family explorer: a family menu, N for Z_A, a slider for A, and the figure.

    Changing the family (or N) moves the A slider to that family's range and default and
    redraws the whole figure; moving A updates only the parts that depend on it.

    Parameters
    ----------
    name : {"ZA", "M1", "M2", "M3", "M4", "M5"}, default "M2"
    A : float, optional
        Starting value (default: the family's default).
    n_classes : int, default 3
        Starting N for Z_A.

    Returns
    -------
    ipywidgets.VBox
        The ``ipywidgets.interactive`` controls above an image of the figure; display it
        as the last expression of a cell.
    """
    import ipywidgets as widgets
    from matplotlib.figure import Figure

    low, high, default = family_range(name, n_classes)
    start = default if A is None else float(A)
    family_state(name, start, n_classes, n_grid=2)  # validate before building anything
    step = _slider_step(low, high)
    start = min(max(_on_grid(start, low, step), low), high)
    menu_entry, classes_entry = control("families", "name"), control("families", "n_classes")
    menu = widgets.Dropdown(
        options=menu_entry["options"], value=name, description=menu_entry["label"]
    )
    classes = widgets.IntSlider(
        value=n_classes,
        min=classes_entry["min"],
        max=classes_entry["max"],
        description=classes_entry["label"],
    )
    slider = widgets.FloatSlider(
        value=start,
        min=low,
        max=high,
        step=step,
        description=control("families", "A")["label"],
        readout_format=_readout_format(step),
    )
    image = widgets.Image(format="png")
    view: dict[str, object] = {}

    def _sync(_change):
        lo, hi, value = family_range(menu.value, classes.value)
        slider.min = min(slider.min, lo)
        slider.max = max(slider.max, hi)
        slider.value = value
        slider.min, slider.max, slider.step = lo, hi, _slider_step(lo, hi)
        slider.readout_format = _readout_format(slider.step)

    menu.observe(_sync, "value")
    classes.observe(_sync, "value")

    def _show(family, N, A):
        lo, hi, _ = family_range(family, N)
        state = family_state(family, min(max(A, lo), hi), N)
        key = (state["name"], state["matrix"].shape[-1])
        if view.get("key") != key:
            view["key"] = key
            view["view"] = FamilyView(
                state,
                Figure(figsize=(11, 3.6), dpi=80),
                animated=True,
                a_format=slider.readout_format,
            )
        else:
            view["view"].update(state)
        image.value = view["view"].render_png()

    controls = widgets.interactive(_show, family=menu, N=classes, A=slider)
    return widgets.VBox([controls, image])
