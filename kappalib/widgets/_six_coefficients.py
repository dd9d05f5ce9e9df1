r"""The coefficient explorer (chapter 10): six chance-corrected coefficients, one table.

A rater (or a classifier) with sensitivity ``s`` and specificity ``t`` rates ``N`` cases of
which a share ``pi`` is positive.  The expected two-rater table of proportions (rows = the
reference, positive class first) is

.. math::

    C(\pi) = \begin{pmatrix} \pi s & \pi (1 - s) \\ (1 - \pi)(1 - t) & (1 - \pi) t \end{pmatrix}.

:func:`coefficient_curves` stacks ``C`` over a grid of prevalences and hands the stack to
:func:`kappalib.kappa`, :func:`kappalib.scotts_pi`, :func:`kappalib.gwet_ac1`,
:func:`kappalib.brennan_prediger` and :func:`kappalib.mcc` in one batched call each, and
computes Krippendorff's alpha from the coincidences ``N (C + C^T)`` of ``N`` cases with
kappalib's own alpha code.  No formula is re-typed here.  :class:`CoefficientsFigure` and
:func:`draw_coefficients` draw the six curves; :func:`coefficients_explorer` adds sliders.
"""

from __future__ import annotations

from typing import NamedTuple

import matplotlib.pyplot as plt
import numpy as np
from numpy.typing import ArrayLike

from .._coefficients.chance_models import brennan_prediger, gwet_ac1, scotts_pi
from .._coefficients.kappa import kappa, observed_agreement
from .._coefficients.krippendorff import alpha_from_coincidences
from .._coefficients.mcc import mcc
from ._controls import blit_png, defaults, defined_slider, explorer_definition
from ._controls import check_rate as _rate
from ._prevalence import rater_tables

__all__ = [
    "COEFFICIENTS",
    "COEFFICIENT_GRID",
    "CoefficientCurves",
    "CoefficientsFigure",
    "coefficient_curves",
    "coefficients_explorer",
    "draw_coefficients",
]

#: The prevalences on which the curves are drawn.
COEFFICIENT_GRID = np.linspace(0.005, 0.995, 199)

#: The explorer's starting point: a good rater on a test set with 10% positives.
COEFFICIENT_DEFAULTS = defaults("coefficients") | {
    "n_cases": explorer_definition("coefficients")["n_cases"]
}  # explorers.json: 0.9, 0.9, 0.1 and 100 cases

#: (field, legend label, line style, grey level) of the six curves, darkest first.
COEFFICIENTS = (
    ("kappa", "Cohen's kappa", "-", "#08306b"),
    ("scotts_pi", "Scott's pi", (0, (6, 2)), "#2171b5"),
    ("alpha", "Krippendorff's alpha", (0, (1, 1.5)), "#08519c"),
    ("mcc", "MCC", "-.", "#4292c6"),
    ("ac1", "Gwet's AC1", (0, (3, 1, 1, 1, 1, 1)), "#6baed6"),
    ("bp", "Brennan-Prediger", (0, (8, 2, 2, 2)), "#9ecae1"),
)


class CoefficientCurves(NamedTuple):
    """The six coefficients and the raw agreement, each an array of shape (n,)."""

    prevalence: np.ndarray
    accuracy: np.ndarray
    kappa: np.ndarray
    scotts_pi: np.ndarray
    alpha: np.ndarray
    mcc: np.ndarray
    ac1: np.ndarray
    bp: np.ndarray


def _n_cases(value):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 2:
        raise ValueError(f"n_cases must be an integer of at least 2, got {value!r}")
    return int(value)


def coefficient_curves(
    sensitivity: float,
    specificity: float,
    prevalences: ArrayLike | None = None,
    *,
    n_cases: int = int(COEFFICIENT_DEFAULTS["n_cases"]),
) -> CoefficientCurves:
    """Kappa, pi, alpha, MCC, AC1 and BP of one rater over test sets of every prevalence.

    Parameters
    ----------
    sensitivity, specificity : float in [0, 1]
        The rater's agreement with the reference on positive and on negative cases.
    prevalences : array-like of shape (n,) or a float, values in [0, 1], optional
        Shares of positive cases; None (default) is ``COEFFICIENT_GRID``, 199 points from
        0.005 to 0.995.
    n_cases : int, at least 2
        The number of cases, which only Krippendorff's alpha depends on (through its
        small-sample factor ``(2N - 1) / 2N``).

    Returns
    -------
    CoefficientCurves
        ``prevalence``, ``accuracy`` and the six coefficients, arrays of shape (n,).  NaN
        where a coefficient is undefined (kappa, pi, alpha and MCC when a margin is empty).

    Raises
    ------
    ValueError, TypeError
        If a rate or a prevalence is not a number in [0, 1], or ``n_cases`` is not an
        integer of at least 2.

    Examples
    --------
    A balanced test set and equal rates: kappa = pi = MCC = BP = s + t - 1.

    >>> from kappalib.widgets import coefficient_curves
    >>> c = coefficient_curves(0.8, 0.8, [0.5])
    >>> [round(float(v[0]), 6) for v in (c.kappa, c.scotts_pi, c.mcc, c.bp)]
    [0.6, 0.6, 0.6, 0.6]
    """
    if prevalences is None:
        prevalences = COEFFICIENT_GRID
    pi, C = rater_tables(sensitivity, specificity, prevalences)
    N = _n_cases(n_cases)
    alpha, undefined = alpha_from_coincidences(N * (C + np.swapaxes(C, -1, -2)), 1.0 - np.eye(2))
    return CoefficientCurves(
        prevalence=pi,
        accuracy=np.asarray(observed_agreement(C)),
        kappa=np.asarray(kappa(C)),
        scotts_pi=np.asarray(scotts_pi(C)),
        alpha=np.where(undefined, np.nan, alpha),
        mcc=np.asarray(mcc(C)),
        ac1=np.asarray(gwet_ac1(C)),
        bp=np.asarray(brennan_prediger(C)),
    )


class CoefficientsFigure:
    """The six curves against prevalence on one Axes, with artists updated in place.

    Axes, labels and legend are drawn once; :meth:`update` moves the lines, the prevalence
    marker and the read-out, and :meth:`render_png` redraws only those over a cached
    background, which keeps a redraw well under 50 ms.

    Parameters
    ----------
    ax : matplotlib Axes
    """

    def __init__(self, ax):
        self.ax = ax
        grid = COEFFICIENT_GRID
        (self.accuracy_line,) = ax.plot(
            grid, grid, color="0.55", lw=1.2, ls=(0, (1, 3)), label="raw agreement p_o"
        )
        self.lines = {}
        for field, label, style, colour in COEFFICIENTS:
            (self.lines[field],) = ax.plot(grid, grid, color=colour, ls=style, lw=1.8, label=label)
        self.marker_line = ax.axvline(0.5, color="0.3", linestyle=":", linewidth=1)
        self.text = ax.text(
            1.02,
            0.0,
            "",
            transform=ax.transAxes,
            va="bottom",
            ha="left",
            fontsize=8.5,
            family="monospace",
        )
        ax.set_xlim(0.0, 1.0)
        ax.set_ylim(-0.05, 1.02)
        ax.set_xlabel("prevalence (share of positive cases)")
        ax.set_ylabel("coefficient")
        ax.set_title("Six coefficients for one rater, every case mix")
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8.5, frameon=False)
        ax.grid(alpha=0.3)
        self._moving = [self.accuracy_line, *self.lines.values(), self.marker_line, self.text]
        self._canvas = None
        self._background = None

    def update(self, sensitivity, specificity, prevalence, n_cases=100):
        """Recompute the curves and mark ``prevalence``; returns the values there."""
        curves = coefficient_curves(sensitivity, specificity, n_cases=n_cases)
        here = coefficient_curves(sensitivity, specificity, [prevalence], n_cases=n_cases)
        self.accuracy_line.set_ydata(curves.accuracy)
        for field, *_ in COEFFICIENTS:
            self.lines[field].set_ydata(getattr(curves, field))
        self.marker_line.set_xdata([prevalence, prevalence])
        rows = [f"prevalence {prevalence:.2f}", f"p_o    {float(here.accuracy[0]):6.3f}"]
        short = {"kappa": "kappa", "scotts_pi": "pi", "alpha": "alpha", "mcc": "MCC"}
        short |= {"ac1": "AC1", "bp": "BP"}
        rows += [f"{short[f]:<6} {float(getattr(here, f)[0]):6.3f}" for f, *_ in COEFFICIENTS]
        self.text.set_text("\n".join(rows))
        values = np.concatenate([getattr(curves, f) for f, *_ in COEFFICIENTS])
        negative = bool(np.isfinite(values).any() and np.nanmin(values) < 0)
        ylim = (-1.02, 1.02) if negative else (-0.05, 1.02)
        if self.ax.get_ylim() != ylim:
            self.ax.set_ylim(ylim)
            self._background = None
        return here

    def render_png(self) -> bytes:
        """The figure as PNG bytes, redrawing only the moving artists over a cached background."""

        from matplotlib.backends.backend_agg import FigureCanvasAgg

        fig = self.ax.figure
        if self._canvas is None:
            self._canvas = FigureCanvasAgg(fig)
            for artist in self._moving:
                artist.set_animated(True)
        canvas = self._canvas
        if self._background is None:
            canvas.draw()
            self._background = canvas.copy_from_bbox(fig.bbox)
        return blit_png(canvas, self._background, self._moving)


def draw_coefficients(
    sensitivity: float = COEFFICIENT_DEFAULTS["sensitivity"],
    specificity: float = COEFFICIENT_DEFAULTS["specificity"],
    prevalence: float = COEFFICIENT_DEFAULTS["prevalence"],
    *,
    n_cases: int = int(COEFFICIENT_DEFAULTS["n_cases"]),
    ax=None,
):
    """Draw the six coefficients against prevalence: the explorer at fixed values.

    Returns
    -------
    ax : matplotlib Axes
    """
    if ax is None:
        _, ax = plt.subplots(figsize=(7.6, 4.0), layout="constrained")
        ax.figure.patch.set_facecolor("white")
    CoefficientsFigure(ax).update(
        sensitivity, specificity, _rate(prevalence, "prevalence"), _n_cases(n_cases)
    )
    return ax


def coefficients_explorer(
    sensitivity: float = COEFFICIENT_DEFAULTS["sensitivity"],
    specificity: float = COEFFICIENT_DEFAULTS["specificity"],
    prevalence: float = COEFFICIENT_DEFAULTS["prevalence"],
):
    """Sliders for prevalence, sensitivity and specificity over the six-coefficient figure.

    Returns
    -------
    ipywidgets.VBox
        The sliders (an ``ipywidgets.interactive``, each slider with a description) above the
        image.
    """
    import ipywidgets as widgets
    from matplotlib.figure import Figure

    fig = Figure(figsize=(7.6, 4.0), dpi=90, facecolor="white")
    fig.subplots_adjust(left=0.09, right=0.68, bottom=0.13, top=0.91)
    view = CoefficientsFigure(fig.add_subplot())
    image = widgets.Image(format="png")

    def redraw(prevalence, sensitivity, specificity):
        view.update(sensitivity, specificity, prevalence)
        image.value = view.render_png()

    controls = widgets.interactive(
        redraw,
        prevalence=defined_slider("coefficients", "prevalence", _rate(prevalence, "prevalence")),
        sensitivity=defined_slider(
            "coefficients", "sensitivity", _rate(sensitivity, "sensitivity")
        ),
        specificity=defined_slider(
            "coefficients", "specificity", _rate(specificity, "specificity")
        ),
    )
    return widgets.VBox([controls, image])
