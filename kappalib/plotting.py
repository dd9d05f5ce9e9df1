"""Figures used across the course: annotated heatmaps of confusion and weight matrices.

Readers meet this module by name (``from kappalib import plotting``).  The colour map is a
single-hue sequential one ("Blues"), so that the order of the shades survives grayscale
printing, and annotations switch between dark and light text by the cell's lightness.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike

from ._input.matrix import as_matrix

try:
    import matplotlib.pyplot as plt
except ModuleNotFoundError as exc:  # kappalib's core needs numpy alone
    raise ImportError(
        f'kappalib.plotting needs {exc.name}, which comes with: pip install "kappalib[plot]"'
    ) from exc

__all__ = ["annotation_colour", "confusion_heatmap", "matrix_heatmap"]

CMAP = "Blues"


def annotation_colour(value, vmin, vmax):
    """The colour ("black" or "white") of a cell's annotation on the default colour map.

    Explorers that update a heatmap in place use it to recolour the numbers they rewrite.

    >>> from kappalib.plotting import annotation_colour
    >>> annotation_colour(0.9, 0.0, 1.0), annotation_colour(0.1, 0.0, 1.0)
    ('white', 'black')
    """
    frac = 0.0 if vmax <= vmin else (value - vmin) / (vmax - vmin)
    return "white" if frac > 0.55 else "black"


def _format(value, fmt):
    if fmt is None:
        return f"{value:g}"
    return format(value, fmt)


def matrix_heatmap(
    M: ArrayLike,
    *,
    labels: Sequence | None = None,
    ax=None,
    title: str | None = None,
    fmt: str | None = None,
    xlabel: str = "column",
    ylabel: str = "row",
    cmap: str = CMAP,
    colorbar: bool = False,
):
    """Draw a square matrix as a heatmap with every cell's value written in it.

    Parameters
    ----------
    M : array-like of shape (K, K)
        Any non-negative square matrix: weights, counts, contributions.
    labels : sequence of length K, optional
        Tick labels for rows and columns (default 0..K-1).
    ax : matplotlib Axes, optional
        Where to draw; a new figure is made otherwise.
    title, xlabel, ylabel : str
        Text for the axes.
    fmt : str, optional
        Format spec for the annotations, e.g. ``".2f"`` (default ``"g"``).
    cmap : str
        A sequential colour map; the default reads in grayscale.
    colorbar : bool
        Add a colour bar.

    Returns
    -------
    ax : matplotlib Axes

    Examples
    --------
    >>> import kappalib as kl
    >>> from kappalib import plotting
    >>> ax = plotting.matrix_heatmap(kl.disagreement_weights(3, "quadratic"), title="W")
    >>> ax.get_title()
    'W'
    """
    M = np.asarray(M, dtype=np.float64)
    if M.ndim != 2 or M.shape[0] != M.shape[1]:
        raise ValueError(f"M must be a square matrix of shape (K, K), got shape {M.shape}")
    K = M.shape[0]
    labels = list(range(K)) if labels is None else list(labels)
    if len(labels) != K:
        raise ValueError(f"labels must have one entry per class (K = {K}), got {labels!r}")
    if ax is None:
        _, ax = plt.subplots(figsize=(1.0 + 0.9 * K, 0.8 + 0.8 * K), layout="constrained")
    finite = M[np.isfinite(M)]
    vmin = float(finite.min()) if finite.size else 0.0
    vmax = float(finite.max()) if finite.size else 1.0
    im = ax.imshow(M, cmap=cmap, vmin=vmin, vmax=vmax)
    for i in range(K):
        for j in range(K):
            ax.text(
                j,
                i,
                _format(M[i, j], fmt),
                ha="center",
                va="center",
                color=annotation_colour(M[i, j], vmin, vmax),
                fontsize=10,
            )
    ax.set_xticks(range(K), [str(x) for x in labels])
    ax.set_yticks(range(K), [str(x) for x in labels])
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title)
    if colorbar:
        ax.figure.colorbar(im, ax=ax, shrink=0.8)
    return ax


def confusion_heatmap(
    C: ArrayLike,
    *,
    labels: Sequence | None = None,
    ax=None,
    title: str | None = None,
    row_percent: bool = True,
    cmap: str = CMAP,
):
    """Draw a confusion matrix: counts and the share of each reference row, per cell.

    Rows are the reference and columns the prediction, as in :func:`kappalib.confusion_matrix`.
    Each cell shows its count and, below it, its percentage of the row (the reference
    class), so a row reads as "where the cases of this true class went".  The shading
    follows the row percentages, so a rare class is as visible as a common one.

    Parameters
    ----------
    C : array-like of shape (K, K)
        Confusion matrix of counts.
    labels : sequence of length K, optional
        Class names in matrix order.
    ax : matplotlib Axes, optional
    title : str, optional
    row_percent : bool, default True
        Write the row percentage under each count and shade by it; otherwise shade by count.
    cmap : str
        A sequential colour map; the default reads in grayscale.

    Returns
    -------
    ax : matplotlib Axes

    Examples
    --------
    The kappa explainer's table:

    >>> from kappalib import plotting
    >>> ax = plotting.confusion_heatmap([[8, 2], [1, 9]], labels=["A", "B"])
    >>> [t.get_text() for t in ax.texts][:2]
    ['8\\n80%', '2\\n20%']
    """
    C = as_matrix(C)
    if C.ndim != 2:
        raise ValueError(f"C must be one (K, K) matrix to draw, got shape {C.shape}")
    K = C.shape[0]
    labels = list(range(K)) if labels is None else list(labels)
    if len(labels) != K:
        raise ValueError(f"labels must have one entry per class (K = {K}), got {labels!r}")
    rows = C.sum(axis=1, keepdims=True)
    share = np.divide(C, rows, out=np.zeros_like(C), where=rows > 0)
    shade = share if row_percent else C
    if ax is None:
        _, ax = plt.subplots(figsize=(1.2 + 0.95 * K, 0.9 + 0.85 * K), layout="constrained")
    vmax = float(shade.max()) if shade.max() > 0 else 1.0
    ax.imshow(shade, cmap=cmap, vmin=0.0, vmax=vmax)
    for i in range(K):
        for j in range(K):
            count = f"{C[i, j]:g}"
            text = f"{count}\n{100 * share[i, j]:.0f}%" if row_percent else count
            ax.text(
                j,
                i,
                text,
                ha="center",
                va="center",
                color=annotation_colour(shade[i, j], 0.0, vmax),
                fontsize=10,
            )
    ax.set_xticks(range(K), [str(x) for x in labels])
    ax.set_yticks(range(K), [str(x) for x in labels])
    ax.set_xlabel("prediction (rater 2)")
    ax.set_ylabel("reference (rater 1)")
    if title:
        ax.set_title(title)
    return ax
