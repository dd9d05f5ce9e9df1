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

__all__ = [
    "agreement_chart",
    "annotation_colour",
    "bland_altman_plot",
    "confusion_heatmap",
    "matrix_heatmap",
    "subgroup_plot",
]

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


# --- issue 34: the Bland-Altman plot, the agreement chart, kappa by subgroup -------------------

_INK = "#1f3b73"  # a dark blue that stays dark in grayscale
_BAND = "#9ecae1"  # a light blue for the intervals


def _annotate_right(ax, y, text):
    ax.annotate(
        text,
        xy=(1.0, y),
        xycoords=("axes fraction", "data"),
        xytext=(4, 0),
        textcoords="offset points",
        va="center",
        ha="left",
        fontsize=10,
        annotation_clip=False,
    )


def bland_altman_plot(
    result,
    *,
    ax=None,
    title: str | None = None,
    xlabel: str = "mean of the two methods",
    ylabel: str = "difference (method 1 - method 2)",
    fmt: str = ".3g",
):
    """Draw a Bland-Altman plot: the differences against the means, the bias and the limits
    of agreement, each with its confidence interval as a band.

    Parameters
    ----------
    result : BlandAltmanResult
        What :func:`kappalib.bland_altman` returned: its ``means`` and ``differences`` are
        the points (one per unit when the true value is constant), its ``bias``,
        ``lower_limit`` and ``upper_limit`` the lines and their intervals the bands.
    ax : matplotlib Axes, optional
    title, xlabel, ylabel : str
    fmt : str
        Format of the values written beside the lines, default ``".3g"``.

    Returns
    -------
    ax : matplotlib Axes
        Its lines are, in order, zero (thin, grey), the bias (solid), the lower and the
        upper limit (dashed); its patches the bias's, the lower and the upper limit's
        intervals; its first collection the points.

    Examples
    --------
    >>> import kappalib as kl
    >>> from kappalib import plotting
    >>> pefr = kl.datasets.load("bland_altman1986_pefr").data
    >>> ax = plotting.bland_altman_plot(kl.bland_altman(pefr[:, 0], pefr[:, 2]))
    >>> [round(float(line.get_ydata()[0]), 1) for line in ax.get_lines()]
    [0.0, -2.1, -78.1, 73.9]
    """
    for name in ("means", "differences", "bias", "lower_limit", "upper_limit"):
        if not hasattr(result, name):
            raise TypeError(
                "result must be what kl.bland_altman(...) returned (a BlandAltmanResult), "
                f"got {type(result).__name__}"
            )
    if ax is None:
        _, ax = plt.subplots(figsize=(4.2, 3.3), layout="constrained")
    ax.axhline(0.0, color="0.75", lw=0.8, zorder=0)
    parts = (
        ("bias", result.bias, "-"),
        ("lower", result.lower_limit, "--"),
        ("upper", result.upper_limit, "--"),
    )
    for _, part, style in parts:
        ax.axhline(part.estimate, color=_INK, ls=style, lw=1.4)
    for _, part, _ in parts:
        low, high = part.confidence_interval
        if low is not None and high is not None:
            ax.axhspan(low, high, color=_BAND, alpha=0.45, lw=0, zorder=0.5)
    ax.scatter(result.means, result.differences, s=14, color=_INK, alpha=0.8, zorder=3)
    for name, part, _ in parts:
        _annotate_right(ax, part.estimate, f"{name} {format(part.estimate, fmt)}")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title)
    return ax


def agreement_chart(
    C: ArrayLike,
    *,
    weighting=None,
    labels: Sequence | None = None,
    ax=None,
    title: str | None = None,
    xlabel: str = "rater 2 (columns)",
    ylabel: str = "rater 1 (rows)",
):
    """Draw Bangdiwala's agreement chart (vcd's ``agreementplot``).

    In a unit square, category ``i`` gets a rectangle ``c_i / N`` wide and ``r_i / N`` high
    (its column and row shares, stacked along the diagonal); inside it, the black square is
    the exact agreement (``C_ii / N`` by ``C_ii / N``) and, with a ``weighting``, lighter
    bands add the cases within 1, 2, ... categories of ``i``.  Bangdiwala's B
    (:func:`kappalib.bangdiwala_b`) is the shaded area, weighted, over the rectangles' area;
    the closer the squares come to the dashed diagonal's corners, the less the raters'
    margins differ.

    Parameters
    ----------
    C : array-like of shape (K, K)
        Counts; rows = rater 1, columns = rater 2.
    weighting : as in :func:`kappalib.bangdiwala_b`
    labels : sequence of length K, optional
        The categories' names (default those of a :class:`kappalib.ConfusionMatrix`, else
        0..K-1).
    ax : matplotlib Axes, optional
    title, xlabel, ylabel : str

    Returns
    -------
    ax : matplotlib Axes
        Its patches: for each category, the outer rectangle, then its bands from the widest
        to the diagonal square (black).

    Examples
    --------
    >>> from kappalib import plotting
    >>> ax = plotting.agreement_chart([[8, 2], [1, 9]], labels=["no", "yes"])
    >>> [round(float(p.get_width() * p.get_height()), 4) for p in ax.patches]
    [0.225, 0.16, 0.275, 0.2025]
    """
    from ._coefficients.bangdiwala import band_weights

    M = as_matrix(C)
    if M.ndim != 2:
        raise ValueError(f"C must be one (K, K) matrix to draw, got shape {M.shape}")
    K = M.shape[0]
    if labels is None:
        labels = getattr(C, "labels", None) or list(range(K))
    labels = list(labels)
    if len(labels) != K:
        raise ValueError(f"labels must have one entry per class (K = {K}), got {labels!r}")
    w = band_weights(weighting, K)
    N = M.sum()
    r, c = M.sum(axis=1), M.sum(axis=0)
    xc = np.concatenate([[0.0], np.cumsum(c) / N])
    yc = np.concatenate([[0.0], np.cumsum(r) / N])
    if ax is None:
        _, ax = plt.subplots(figsize=(4.0, 4.0), layout="constrained")
    from matplotlib.patches import Rectangle

    bands = [d for d in range(K) if w[d] > 0]
    for i in range(K):
        ax.add_patch(
            Rectangle(
                (xc[i], yc[i]), xc[i + 1] - xc[i], yc[i + 1] - yc[i], fill=False, lw=1.0, zorder=3
            )
        )
        col = np.concatenate([[0.0], np.cumsum(M[:, i])]) / c[i] if c[i] > 0 else None
        row = np.concatenate([[0.0], np.cumsum(M[i, :])]) / r[i] if r[i] > 0 else None
        if col is None or row is None:
            continue
        for d in sorted(bands, reverse=True):
            lb, tr = max(0, i - d), min(K, i + d + 1)
            x0 = xc[i] + (xc[i + 1] - xc[i]) * col[lb]
            x1 = xc[i] + (xc[i + 1] - xc[i]) * col[tr]
            y0 = yc[i] + (yc[i + 1] - yc[i]) * row[lb]
            y1 = yc[i] + (yc[i + 1] - yc[i]) * row[tr]
            shade = "black" if d == 0 else str(round(0.35 + 0.55 * (1.0 - w[d]), 3))
            ax.add_patch(Rectangle((x0, y0), x1 - x0, y1 - y0, color=shade, lw=0))
    ax.plot([0, 1], [0, 1], ls="--", lw=1.0, color="0.45")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_aspect("equal")
    ax.set_xticks((xc[:-1] + xc[1:]) / 2, [str(x) for x in labels])
    ax.set_yticks((yc[:-1] + yc[1:]) / 2, [str(x) for x in labels])
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title)
    return ax


def subgroup_plot(
    result,
    *,
    ax=None,
    title: str | None = None,
    xlabel: str = "kappa",
):
    """Draw kappa by subgroup with its intervals, and the common kappa (a forest plot).

    Parameters
    ----------
    result :
        What ``kl.subgroup_kappas(...)`` returns: its ``groups`` and ``coefficients`` (each
        with ``estimate`` and ``confidence_interval``) are the rows, its ``estimate`` and
        ``confidence_interval`` the common kappa (a diamond), its ``pvalue`` the test of
        homogeneity, written in the title when none is given.
    ax : matplotlib Axes, optional
    title, xlabel : str

    Returns
    -------
    ax : matplotlib Axes
        One horizontal line per subgroup (its interval) and one for the common kappa, in
        ``ax.get_lines()``, top to bottom; the estimates as the first collection.

    Examples
    --------
    >>> from types import SimpleNamespace as NS
    >>> import kappalib as kl
    >>> from kappalib import plotting
    >>> rows = [NS(estimate=0.7, confidence_interval=kl.ConfidenceInterval(0.39, 1.0)),
    ...         NS(estimate=0.3, confidence_interval=kl.ConfidenceInterval(-0.12, 0.72))]
    >>> res = NS(groups=("A", "B"), coefficients=rows, estimate=0.52,
    ...          confidence_interval=kl.ConfidenceInterval(0.22, 0.81), pvalue=0.13)
    >>> ax = plotting.subgroup_plot(res)
    >>> [t.get_text() for t in ax.get_yticklabels()]
    ['A', 'B', 'common']
    """
    for name in ("groups", "coefficients"):
        if not hasattr(result, name):
            raise TypeError(
                "result must be what kl.subgroup_kappas(...) returned, with .groups and "
                f".coefficients, got {type(result).__name__}"
            )
    names = [str(g) for g in result.groups]
    rows = list(result.coefficients)
    common = getattr(result, "estimate", None)
    G = len(rows)
    if ax is None:
        _, ax = plt.subplots(figsize=(4.2, 1.2 + 0.4 * (G + 1)), layout="constrained")
    ys = np.arange(G, 0, -1, dtype=float)  # top to bottom
    xs = []
    for y, e in zip(ys, rows, strict=True):
        low, high = e.confidence_interval
        if e.estimate is None or low is None or high is None:
            ax.plot([], [])
            xs.append(np.nan)
            continue
        ax.plot([low, high], [y, y], color=_INK, lw=1.6)
        xs.append(e.estimate)
    ax.scatter(xs, ys, marker="s", s=30, color=_INK, zorder=3)
    ticks, tick_labels = list(ys), names
    if common is not None:
        low, high = result.confidence_interval
        ax.plot([low, high], [0.0, 0.0], color="black", lw=1.6)
        ax.scatter([common], [0.0], marker="D", s=45, color="black", zorder=3)
        ax.axvline(common, color="0.6", ls=":", lw=1.0, zorder=0)
        ticks, tick_labels = [*ticks, 0.0], [*names, "common"]
    ax.set_yticks(ticks, tick_labels)
    ax.set_ylim(-0.7, G + 0.7)
    ax.set_xlabel(xlabel)
    pvalue = getattr(result, "pvalue", None)
    if title:
        ax.set_title(title)
    elif pvalue is not None:
        ax.set_title(f"do the subgroups agree? p = {pvalue:.3g}")
    return ax
