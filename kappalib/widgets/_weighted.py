r"""The weighted-kappa contribution explorer (chapter 05).

Weighted kappa compares the disagreement that the two raters show with the disagreement
that two independent raters with the same marginals would show:

.. math::

    \kappa_W = 1 - \frac{\sum_{ij} W_{ij} O_{ij}}{\sum_{ij} W_{ij} E_{ij}}, \qquad
    O = C / N, \quad E = \mathbf r \mathbf c^\top / N^2 .

The explorer draws every cell's share of both sums, ``W * O`` and ``W * E``, as two
heatmaps on one colour scale, with the kappa they give.  ``W`` is scaled so that its
largest entry is 1 (kappa does not change), so a cell's value, printed in percent, reads as
"the percentage of cases in this cell, times how much of a worst miss it is".  With no
weighting the two sums are ``1 - p_o`` and ``1 - p_e``.

* :func:`weighted_contributions`: the pure computation (unit-tested without a display);
* :func:`draw_weighted_contributions`: the figure, used for the static figure too;
* :func:`weighted_kappa_explorer`: the ipywidgets front end (choose the weighting, pick an
  example matrix or edit a 3 x 3 one).
"""

from __future__ import annotations

import html
from dataclasses import dataclass

import matplotlib.pyplot as plt
import numpy as np
from numpy.typing import ArrayLike

from .._coefficients.kappa import expected_counts, kappa
from .._input.weights import disagreement_weights
from ..plotting import annotation_colour, matrix_heatmap
from ._controls import blit_png, control, explorer_definition

__all__ = [
    "WEIGHTED_EXAMPLES",
    "WeightedContributions",
    "draw_weighted_contributions",
    "weighted_contributions",
    "weighted_kappa_explorer",
]

# The examples are written once, in explorers.json ("weighted"), which the static page reads
# too. The CohenKappa.Score example: its rater (rows) against its model (columns), grades 1-3.
# The interview answer's 5-grade severity classifier, 1,000 cases, 70% of them grade 2: both
# models have the same diagonal (820 hits) and the same marginals, hence the same accuracy,
# p_e and unweighted kappa; one misses by one grade, the other by two to four grades
# (chapter 05 builds them from their misses and checks them against these).
_DEFINITION = explorer_definition("weighted")

#: The example matrices of the explorer: name -> (confusion matrix, grade labels).
WEIGHTED_EXAMPLES: dict[str, tuple[np.ndarray, list[int]]] = {
    name: (np.array(example["matrix"]), list(example["labels"]))
    for name, example in _DEFINITION["examples"].items()
}
_SCORE_API_EXAMPLE = np.array(control("weighted", "cells")["default"])

_WEIGHTINGS = {"none": None, "linear": "linear", "quadratic": "quadratic"}


@dataclass(frozen=True)
class WeightedContributions:
    """What the explorer shows for one matrix and one weighting.

    Attributes
    ----------
    C : ndarray of shape (K, K)
        The confusion matrix (float).
    weighting : {None, "linear", "quadratic"}
    W : ndarray of shape (K, K)
        Disagreement weights scaled to a largest entry of 1.
    observed, expected : ndarray of shape (K, K)
        ``W * O`` and ``W * E``, with ``O = C / N`` and ``E = r c^T / N^2``.
    observed_total, expected_total : float
        Their sums.
    kappa : float or None
        ``kappalib.kappa(C, weighting=weighting)``; None when it is undefined (0/0).
    """

    C: np.ndarray
    weighting: str | None
    W: np.ndarray
    observed: np.ndarray
    expected: np.ndarray
    observed_total: float
    expected_total: float
    kappa: float | None


def weighted_contributions(C: ArrayLike, weighting: str | None = None) -> WeightedContributions:
    """Each cell's share of the observed and the expected weighted disagreement.

    Parameters
    ----------
    C : array-like of shape (K, K)
        Confusion matrix of counts; rows are the reference (rater 1).
    weighting : {None, "linear", "quadratic"}
        As in :func:`kappalib.kappa`; distances are positions in the matrix order.

    Returns
    -------
    WeightedContributions

    Raises
    ------
    ValueError, TypeError
        On an invalid matrix or weighting (the messages of :func:`kappalib.kappa`).

    Examples
    --------
    The CohenKappa.Score example with quadratic weights: kappa = 1 - 0.1875 / 0.375 = 0.5.

    >>> from kappalib.widgets import weighted_contributions
    >>> s = weighted_contributions([[2, 0, 1], [1, 1, 0], [0, 1, 2]], "quadratic")
    >>> s.observed_total, s.expected_total, s.kappa
    (0.1875, 0.375, 0.5)
    """
    k = kappa(C, weighting=weighting)  # validates C and weighting, one source of truth
    C = np.asarray(C, dtype=np.float64)
    K = C.shape[-1]
    if C.ndim != 2:
        raise ValueError(f"C must be one (K, K) matrix to draw, got shape {C.shape}")
    W = disagreement_weights(K, weighting)  # type: ignore[arg-type]
    W = W / W.max()
    N = C.sum()
    O = C / N  # noqa: E741  (the symbol of the formula)
    E = expected_counts(C) / N
    observed = W * O
    expected = W * E
    return WeightedContributions(
        C=C,
        weighting=weighting,
        W=W,
        observed=observed,
        expected=expected,
        observed_total=float(observed.sum()),
        expected_total=float(expected.sum()),
        kappa=k,  # type: ignore[arg-type]
    )


def _name(weighting):
    return "no weighting (W = 1 - I)" if weighting is None else f"{weighting} weights"


def _titles(state):
    if state.kappa is None:
        verdict = "kappa is undefined (0/0): no expected disagreement"
    else:
        verdict = (
            # Plain text, not mathtext: matplotlib 3.8's mathtext parser warns under today's
            # pyparsing (the declared floor), and "weighted κ" reads as well as κ_w.
            "weighted κ"
            f" = 1 − {100 * state.observed_total:.2f} / {100 * state.expected_total:.2f}"
            f" = {state.kappa:.3f}"
        )
    return (
        f"{_name(state.weighting)}: {verdict}",
        f"observed W∘O: sum {100 * state.observed_total:.2f}",
        f"expected W∘E: sum {100 * state.expected_total:.2f}",
    )


def _vmax(state):
    vmax = max(float(state.observed.max()), float(state.expected.max()))
    return vmax if vmax > 0 else 1.0


def _cell_text(value):
    """A contribution in percent of the cases; an exact zero (no weight or no case) as "0"."""
    return "0" if value == 0 else f"{100 * value:.1f}"


def _annotate(ax, M, vmax):
    """Write each cell in percent, on one colour scale shared by both panels."""
    ax.images[0].set_clim(0.0, vmax)
    for text, value in zip(ax.texts, M.ravel(), strict=True):
        text.set_text(_cell_text(value))
        text.set_color(annotation_colour(value, 0.0, vmax))


def draw_weighted_contributions(
    state: WeightedContributions,
    *,
    labels=None,
    fig=None,
):
    """Draw ``W * O`` and ``W * E`` side by side, on one colour scale, with the kappa.

    Cells and sums are printed in percent of the cases; a cell that contributes nothing
    (zero weight, as on the diagonal, or no cases) shows ``0``.

    Parameters
    ----------
    state : WeightedContributions
        From :func:`weighted_contributions`.
    labels : sequence of length K, optional
        Grade names in matrix order (default 1..K).
    fig : matplotlib Figure, optional
        Drawn into (cleared first); a new pyplot figure otherwise.

    Returns
    -------
    fig : matplotlib Figure

    Examples
    --------
    >>> from kappalib.widgets import draw_weighted_contributions, weighted_contributions
    >>> fig = draw_weighted_contributions(weighted_contributions([[8, 2], [1, 9]]))
    >>> [ax.get_title().split(":")[0] for ax in fig.axes]
    ['observed W∘O', 'expected W∘E']
    """
    K = state.C.shape[0]
    labels = list(range(1, K + 1)) if labels is None else list(labels)
    if fig is None:
        fig = plt.figure(figsize=(9.0, 4.3), layout="constrained")
    else:
        fig.clear()
    axes = fig.subplots(1, 2)
    vmax = _vmax(state)
    suptitle, *titles = _titles(state)
    for ax, M, title in zip(axes, (state.observed, state.expected), titles, strict=True):
        matrix_heatmap(
            M,
            labels=labels,
            ax=ax,
            title=title,
            fmt="g",
            xlabel="prediction (rater 2)",
            ylabel="reference (rater 1)",
        )
        _annotate(ax, M, vmax)
    fig.suptitle(suptitle)
    return fig


class _LiveFigure:
    """One Agg figure per matrix size, updated in place and rendered to PNG bytes.

    Rebuilding the axes, solving the layout and drawing the ticks on every change costs
    more than the 50 ms a redraw may take.  So each size is drawn once (layout frozen), the
    static part (axes, ticks, labels) is cached as a background, and a redraw only blits the
    artists that change (the two images, the cell annotations and the titles) onto it.
    """

    def __init__(self, dpi=72):
        self.dpi = dpi
        self._cache = {}  # K -> (fig, labels, background, dynamic artists)

    def _build(self, state, labels):
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure

        fig = Figure(figsize=(9.0, 4.3), dpi=self.dpi, layout="constrained")
        FigureCanvasAgg(fig)
        draw_weighted_contributions(state, labels=labels, fig=fig)
        fig.canvas.draw()  # solve the layout once
        fig.set_layout_engine("none")  # and keep those positions
        dynamic = [fig.suptitle(fig.get_suptitle())]  # the suptitle's Text artist
        for ax in fig.axes[:2]:
            dynamic += [ax.images[0], *ax.texts, ax.title]
        for artist in dynamic:
            artist.set_animated(True)  # left out of the cached background
        fig.canvas.draw()
        background = fig.canvas.copy_from_bbox(fig.bbox)
        self._cache[state.C.shape[0]] = (fig, labels, background, dynamic)

    def render(self, state, labels):
        K = state.C.shape[0]
        labels = [str(x) for x in labels]
        cached = self._cache.get(K)
        if cached is None or cached[1] != labels:
            self._build(state, labels)
        fig, _, background, dynamic = self._cache[K]
        vmax = _vmax(state)
        suptitle, *titles = _titles(state)
        panels = zip(fig.axes[:2], (state.observed, state.expected), titles, strict=True)
        for ax, M, title in panels:
            ax.images[0].set_data(M)
            _annotate(ax, M, vmax)
            ax.title.set_text(title)
        dynamic[0].set_text(suptitle)
        return blit_png(fig.canvas, background, dynamic, rgb=True)


def weighted_kappa_explorer():
    """An ipywidgets explorer: choose the weighting and a matrix, see the contributions.

    Pick one of :data:`WEIGHTED_EXAMPLES` or "edit a 3 x 3 matrix", whose nine cells are
    integer boxes (rows = reference, columns = prediction).  Every change redraws the two
    heatmaps of :func:`draw_weighted_contributions`.

    Returns
    -------
    ipywidgets.VBox
        Its ``controls`` attribute holds the widgets by name (``"example"``,
        ``"weighting"``, ``"cells"``), and ``redraw()`` draws the current choice.
    """
    import ipywidgets as widgets

    custom = _DEFINITION["custom"]
    menu, weights, grid_entry = (control("weighted", n) for n in ("example", "weighting", "cells"))
    example = widgets.Dropdown(
        options=menu["options"],
        value=menu["default"],
        description=menu["label"],
        # As wide as the column allows (a phone's 390 px cut a fixed 360 px box's text).
        layout=widgets.Layout(width="auto", max_width="100%"),
    )
    weighting = widgets.ToggleButtons(
        options=weights["options"], value=weights["default"], description=weights["label"]
    )
    cells = [
        widgets.BoundedIntText(
            value=int(_SCORE_API_EXAMPLE[i, j]),
            min=grid_entry["min"],
            max=grid_entry["max"],
            layout=widgets.Layout(width="72px"),
            disabled=True,
            # Each input's accessible name. The caption above names the grid, so the label
            # takes no width on the page (a screen reader still reads it).
            description=f"row {i + 1}, column {j + 1}",
            style={"description_width": "0px"},
        )
        for i in range(3)
        for j in range(3)
    ]
    grid = widgets.GridBox(cells, layout=widgets.Layout(grid_template_columns="repeat(3, 80px)"))
    caption = widgets.HTML(
        f"3 x 3 matrix (rows = reference, columns = prediction); pick <i>{custom}</i> to edit it"
    )
    live = _LiveFigure()
    image = widgets.Image(
        format="png", layout=widgets.Layout(width="100%", max_width="648px", height="auto")
    )
    message = widgets.HTML()

    def redraw(*_):
        editing = example.value == custom
        for box in cells:
            box.disabled = not editing
        if editing:
            C = np.array([box.value for box in cells]).reshape(3, 3)
            labels = [1, 2, 3]
        else:
            C, labels = WEIGHTED_EXAMPLES[example.value]
        try:
            state = weighted_contributions(C, _WEIGHTINGS[weighting.value])
        except (ValueError, TypeError) as exc:
            message.value = f"<b>{html.escape(str(exc))}</b>"
            return
        message.value = ""
        image.value = live.render(state, labels)

    for w in (example, weighting, *cells):
        w.observe(redraw, names="value")
    box = widgets.VBox([widgets.HBox([example, weighting]), caption, grid, message, image])
    box.controls = {"example": example, "weighting": weighting, "cells": cells}
    box.redraw = redraw
    redraw()
    return box
