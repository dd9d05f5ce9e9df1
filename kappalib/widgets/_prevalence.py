r"""The prevalence explorer (chapter 04): one binary classifier, many case mixes.

A binary classifier is described by its per-reference-class rates, the sensitivity ``s``
(recall on the positive class) and the specificity ``t`` (recall on the negative class).
Tested on a set whose share of positive cases (the prevalence) is ``pi``, it produces on
average the confusion matrix of proportions (rows = reference, positive class first)

.. math::

    C(\pi) = \begin{pmatrix} \pi s & \pi (1 - s) \\ (1 - \pi)(1 - t) & (1 - \pi) t \end{pmatrix},

so the behaviour ``(s, t)`` stays fixed while the row margins ``(pi, 1 - pi)`` move.
:func:`prevalence_curves` builds that stack for a whole grid of prevalences and hands it to
:func:`kappalib.kappa` and :func:`kappalib.mcc` in one batched call each (no formula is
re-typed here).  :class:`PrevalenceFigure` and :func:`draw_prevalence` draw the curves, and
:func:`prevalence_explorer` puts three sliders on them.
"""

from __future__ import annotations

from typing import NamedTuple

import matplotlib.pyplot as plt
import numpy as np
from numpy.typing import ArrayLike

from .._coefficients.kappa import expected_agreement, kappa, observed_agreement
from .._coefficients.mcc import mcc
from ._controls import blit_png, check_rate, defaults, defined_slider

__all__ = [
    "PREVALENCE_GRID",
    "PrevalenceCurves",
    "PrevalenceFigure",
    "draw_prevalence",
    "prevalence_curves",
    "prevalence_explorer",
]

#: The prevalences on which the curves are drawn (the endpoints 0 and 1 leave out one class).
PREVALENCE_GRID = np.linspace(0.005, 0.995, 199)

#: The explorer's starting point: a classifier better on positives than on negatives.
DEFAULTS = defaults("prevalence")  # explorers.json: 0.9, 0.7 and 0.2


class PrevalenceCurves(NamedTuple):
    """What the prevalence explorer shows, one entry per prevalence (arrays of shape (n,))."""

    prevalence: np.ndarray
    kappa: np.ndarray
    mcc: np.ndarray
    accuracy: np.ndarray
    expected_agreement: np.ndarray


def rater_tables(sensitivity, specificity, prevalences):
    """The prevalences as a 1-d array, and one 2x2 table of proportions for each: a rater of
    this sensitivity and specificity against the truth (rows: truth; columns: the rater).
    Shared by the prevalence and the coefficient explorers."""
    s = check_rate(sensitivity, "sensitivity")
    t = check_rate(specificity, "specificity")
    try:
        pi = np.atleast_1d(np.asarray(prevalences, dtype=np.float64))
    except (TypeError, ValueError):
        raise TypeError(
            f"prevalences must be numbers between 0 and 1, got {prevalences!r}"
        ) from None
    if pi.ndim != 1 or pi.size == 0:
        raise ValueError(f"prevalences must be a non-empty 1-d array, got shape {pi.shape}")
    if not np.all((pi >= 0.0) & (pi <= 1.0)):
        raise ValueError(f"prevalences must all be between 0 and 1, got {prevalences!r}")
    C = np.empty((pi.size, 2, 2))
    C[:, 0, 0] = pi * s
    C[:, 0, 1] = pi * (1.0 - s)
    C[:, 1, 0] = (1.0 - pi) * (1.0 - t)
    C[:, 1, 1] = (1.0 - pi) * t
    return pi, C


def prevalence_curves(
    sensitivity: float,
    specificity: float,
    prevalences: ArrayLike = PREVALENCE_GRID,
) -> PrevalenceCurves:
    """Kappa, MCC, accuracy and p_e of one classifier on test sets of different prevalence.

    Parameters
    ----------
    sensitivity, specificity : float in [0, 1]
        The classifier's recall on the positive and on the negative reference class; they
        stay fixed while the prevalence moves.
    prevalences : array-like of shape (n,) or a float, values in [0, 1]
        Shares of positive cases in the test set (default: :data:`PREVALENCE_GRID`).

    Returns
    -------
    PrevalenceCurves
        ``prevalence``, ``kappa``, ``mcc``, ``accuracy`` and ``expected_agreement``, each an
        array of shape (n,).  Undefined values are NaN: MCC when the classifier predicts one
        class only, both at a prevalence of 0 or 1 when the prediction uses one class too.

    Raises
    ------
    ValueError, TypeError
        If a rate or a prevalence is not a number in [0, 1].

    Examples
    --------
    Equal sensitivity and specificity on a balanced set: kappa = MCC = s + t - 1.

    >>> from kappalib.widgets import prevalence_curves
    >>> curves = prevalence_curves(0.8, 0.8, [0.5])
    >>> round(float(curves.kappa[0]), 6), round(float(curves.mcc[0]), 6)
    (0.6, 0.6)
    """
    pi, C = rater_tables(sensitivity, specificity, prevalences)
    return PrevalenceCurves(
        prevalence=pi,
        kappa=np.asarray(kappa(C)),
        mcc=np.asarray(mcc(C)),
        accuracy=np.asarray(observed_agreement(C)),
        expected_agreement=np.asarray(expected_agreement(C)),
    )


class PrevalenceFigure:
    """Kappa and MCC against prevalence on one Axes, with artists updated in place.

    The axes, ticks, labels and legend are drawn once; a slider move only recomputes the
    curves, moves the lines, markers and text, and (in :meth:`render_png`) redraws those
    few artists over a cached background.  That keeps a redraw well under 50 ms, where
    building a new figure each time does not.

    Parameters
    ----------
    ax : matplotlib Axes
        Where to draw.
    """

    def __init__(self, ax):
        self.ax = ax
        grid = PREVALENCE_GRID
        (self.mcc_line,) = ax.plot(grid, grid, color="tab:orange", linestyle="--", label="MCC")
        (self.kappa_line,) = ax.plot(grid, grid, color="tab:blue", linestyle="-", label="kappa")
        self.marker_line = ax.axvline(0.5, color="0.4", linestyle=":", linewidth=1)
        (self.mcc_dot,) = ax.plot([0.5], [0.5], marker="s", color="tab:orange", linestyle="none")
        (self.kappa_dot,) = ax.plot([0.5], [0.5], marker="o", color="tab:blue", linestyle="none")
        self.text = ax.text(
            0.02,
            0.97,
            "",
            transform=ax.transAxes,
            va="top",
            ha="left",
            fontsize=9,
            bbox={"facecolor": "white", "edgecolor": "0.7"},
        )
        ax.set_xlim(0.0, 1.0)
        ax.set_xlabel("prevalence (share of positive reference cases)")
        ax.set_ylabel("kappa, MCC")
        ax.set_title("Kappa and MCC of one classifier on test sets of every case mix")
        ax.legend(loc="lower center")
        ax.grid(alpha=0.3)
        self._moving = [
            self.mcc_line,
            self.kappa_line,
            self.marker_line,
            self.mcc_dot,
            self.kappa_dot,
            self.text,
        ]
        self._canvas = None
        self._background = None

    def update(self, sensitivity, specificity, prevalence):
        """Recompute the curves for ``(sensitivity, specificity)`` and mark ``prevalence``.

        Returns the :class:`PrevalenceCurves` drawn.
        """
        curves = prevalence_curves(sensitivity, specificity)
        here = prevalence_curves(sensitivity, specificity, [prevalence])
        k, m = float(here.kappa[0]), float(here.mcc[0])
        self.kappa_line.set_ydata(curves.kappa)
        self.mcc_line.set_ydata(curves.mcc)
        self.marker_line.set_xdata([prevalence, prevalence])
        self.kappa_dot.set_data([prevalence], [k])
        self.mcc_dot.set_data([prevalence], [m])
        self.text.set_text(
            f"sensitivity {sensitivity:.2f}, specificity {specificity:.2f}\n"
            f"prevalence {prevalence:.2f}: kappa {k:.3f}, MCC {m:.3f}, "
            f"accuracy {float(here.accuracy[0]):.3f}"
        )
        # Both statistics lie in [-1, 1]; show the lower half only when a curve goes there.
        values = np.concatenate([curves.kappa, curves.mcc])
        negative = bool(np.isfinite(values).any() and np.nanmin(values) < 0)
        ylim = (-1.02, 1.02) if negative else (-0.05, 1.02)
        if self.ax.get_ylim() != ylim:
            self.ax.set_ylim(ylim)
            self._background = None  # the ticks moved: redraw the background once
        return curves

    def render_png(self) -> bytes:
        """The figure as PNG bytes, redrawing only the moving artists over a cached background."""

        from matplotlib.backends.backend_agg import FigureCanvasAgg

        fig = self.ax.figure
        if self._canvas is None:
            self._canvas = FigureCanvasAgg(fig)
            for artist in self._moving:
                artist.set_animated(True)  # after the legend copied the lines' style
        canvas = self._canvas
        if self._background is None:
            canvas.draw()  # everything except the animated artists
            self._background = canvas.copy_from_bbox(fig.bbox)
        return blit_png(canvas, self._background, self._moving)


def draw_prevalence(
    sensitivity: float = DEFAULTS["sensitivity"],
    specificity: float = DEFAULTS["specificity"],
    prevalence: float = DEFAULTS["prevalence"],
    *,
    ax=None,
):
    """Draw kappa and MCC against prevalence, with the current prevalence marked.

    This is the explorer's picture at fixed slider values: the static figure that comes
    before the widget in chapter 04.

    Parameters
    ----------
    sensitivity, specificity, prevalence : float in [0, 1]
    ax : matplotlib Axes, optional
        Where to draw; a new figure is made otherwise.

    Returns
    -------
    ax : matplotlib Axes
    """
    if ax is None:
        _, ax = plt.subplots(figsize=(6.4, 3.8), layout="constrained")
    PrevalenceFigure(ax).update(sensitivity, specificity, check_rate(prevalence, "prevalence"))
    return ax


def prevalence_explorer(
    sensitivity: float = DEFAULTS["sensitivity"],
    specificity: float = DEFAULTS["specificity"],
    prevalence: float = DEFAULTS["prevalence"],
):
    """Sliders for sensitivity, specificity and prevalence over the prevalence figure.

    The figure is built once; each slider move recomputes the curves, moves the artists and
    sends a new PNG to an image widget.

    Returns
    -------
    ipywidgets.VBox
        The sliders (an ``ipywidgets.interactive``) above the image.  Display it in a
        notebook (the last expression of a cell); run the notebook to move the sliders.
    """
    import ipywidgets as widgets
    from matplotlib.figure import Figure

    fig = Figure(figsize=(6.4, 3.8), dpi=90)
    fig.subplots_adjust(left=0.13, right=0.97, bottom=0.13, top=0.91)
    view = PrevalenceFigure(fig.add_subplot())
    image = widgets.Image(format="png")

    def redraw(sensitivity, specificity, prevalence):
        view.update(sensitivity, specificity, prevalence)
        image.value = view.render_png()

    controls = widgets.interactive(
        redraw,
        sensitivity=defined_slider(
            "prevalence", "sensitivity", check_rate(sensitivity, "sensitivity")
        ),
        specificity=defined_slider(
            "prevalence", "specificity", check_rate(specificity, "specificity")
        ),
        prevalence=defined_slider("prevalence", "prevalence", check_rate(prevalence, "prevalence")),
    )
    return widgets.VBox([controls, image])
