"""The prevalence explorer's compute function, checked against the 2x2 formulas by hand.

For a classifier with sensitivity s and specificity t on a test set of prevalence pi, the
expected confusion matrix of proportions is a = pi s, b = pi (1 - s), c = (1 - pi)(1 - t),
d = (1 - pi) t (rows = reference, positive class first).  The oracles below are the
textbook cell formulas, written out independently of kappalib:

    kappa = 2 (ad - bc) / ((a + b)(b + d) + (a + c)(c + d))
    MCC   = (ad - bc) / sqrt((a + b)(c + d)(a + c)(b + d))
"""

import math

import matplotlib.pyplot as plt
import numpy as np
import pytest

from kappalib.widgets import (
    PREVALENCE_GRID,
    PrevalenceFigure,
    draw_prevalence,
    prevalence_curves,
    prevalence_explorer,
)


def cells(s, t, pi):
    return pi * s, pi * (1 - s), (1 - pi) * (1 - t), (1 - pi) * t


def kappa_by_hand(s, t, pi):
    a, b, c, d = cells(s, t, pi)
    return 2 * (a * d - b * c) / ((a + b) * (b + d) + (a + c) * (c + d))


def mcc_by_hand(s, t, pi):
    a, b, c, d = cells(s, t, pi)
    den = (a + b) * (c + d) * (a + c) * (b + d)
    return math.nan if den == 0 else (a * d - b * c) / math.sqrt(den)


RATES = [(0.9, 0.7), (0.8, 0.8), (0.95, 0.6), (0.6, 0.99), (0.3, 0.4), (1.0, 0.5)]


@pytest.mark.parametrize(("s", "t"), RATES)
def test_curves_match_the_cell_formulas(s, t):
    curves = prevalence_curves(s, t)
    assert curves.prevalence.shape == PREVALENCE_GRID.shape
    for i, pi in enumerate(curves.prevalence):
        assert curves.kappa[i] == pytest.approx(kappa_by_hand(s, t, pi), abs=1e-12)
        assert curves.mcc[i] == pytest.approx(mcc_by_hand(s, t, pi), abs=1e-12)
        a, b, c, d = cells(s, t, pi)
        assert curves.accuracy[i] == pytest.approx(a + d, abs=1e-12)
        assert curves.expected_agreement[i] == pytest.approx(
            (a + b) * (a + c) + (c + d) * (b + d), abs=1e-12
        )


def test_balanced_set_gives_youden_index():
    # at pi = 0.5 the kappa denominator is 1/2 whatever s and t: kappa = s + t - 1
    for s, t in RATES:
        curves = prevalence_curves(s, t, [0.5])
        assert curves.kappa[0] == pytest.approx(s + t - 1, abs=1e-12)


@pytest.mark.parametrize(("s", "t"), [(0.9, 0.7), (0.8, 0.8), (0.95, 0.6), (0.6, 0.99)])
def test_kappa_peaks_where_chapter_04_says(s, t):
    # Chapter 04 derives the argmax sqrt(1 - t) / (sqrt(1 - t) + sqrt(1 - s)).
    grid = np.linspace(0.0005, 0.9995, 19991)
    curves = prevalence_curves(s, t, grid)
    peak = math.sqrt(1 - t) / (math.sqrt(1 - t) + math.sqrt(1 - s))
    assert grid[np.argmax(curves.kappa)] == pytest.approx(peak, abs=1e-3)


def test_scalar_prevalence_and_undefined_mcc():
    curves = prevalence_curves(0.9, 0.7, 0.3)
    assert curves.kappa.shape == (1,)
    # s = 0, t = 1: the classifier never says "positive", so MCC is 0/0 (NaN) and kappa is 0
    never = prevalence_curves(0.0, 1.0, [0.2, 0.5])
    assert np.isnan(never.mcc).all()
    assert never.kappa == pytest.approx([0.0, 0.0], abs=1e-15)


@pytest.mark.parametrize(
    ("args", "error", "words"),
    [
        ((1.2, 0.7), ValueError, "sensitivity must be between 0 and 1, got 1.2"),
        ((0.9, -0.1), ValueError, "specificity must be between 0 and 1, got -0.1"),
        (("0.9", 0.7), TypeError, "sensitivity must be a number"),
        ((True, 0.7), TypeError, "sensitivity must be a number"),
        ((0.9, 0.7, [0.2, 1.5]), ValueError, "prevalences must all be between 0 and 1"),
        ((0.9, 0.7, []), ValueError, "non-empty 1-d array"),
        ((0.9, 0.7, [[0.2]]), ValueError, "non-empty 1-d array"),
        ((0.9, 0.7, ["a"]), TypeError, "prevalences must be numbers"),
    ],
)
def test_bad_input_is_named(args, error, words):
    with pytest.raises(error, match=words.replace("(", r"\(")):
        prevalence_curves(*args)


def test_figure_updates_in_place_and_renders():
    fig = plt.figure()
    view = PrevalenceFigure(fig.add_subplot())
    curves = view.update(0.9, 0.7, 0.2)
    assert np.allclose(view.kappa_line.get_ydata(), curves.kappa)
    assert "kappa 0.425" in view.text.get_text()
    first = view.render_png()
    view.update(0.4, 0.3, 0.6)  # negative curves: the y axis opens to -1
    assert view.ax.get_ylim()[0] < -1
    second = view.render_png()
    assert first[:8] == second[:8] == b"\x89PNG\r\n\x1a\n"
    assert first != second
    plt.close(fig)


def test_draw_prevalence_static_figure():
    ax = draw_prevalence()
    assert ax.get_xlabel().startswith("prevalence")
    assert {t.get_text() for t in ax.get_legend().get_texts()} == {"kappa", "MCC"}
    plt.close(ax.figure)


def test_explorer_builds_without_a_display():
    ui = prevalence_explorer(0.8, 0.9, 0.3)
    controls, image = ui.children
    names = [w.description for w in controls.kwargs_widgets]
    assert names == ["sensitivity", "specificity", "prevalence"]
    before = image.value
    assert before[:4] == b"\x89PNG"
    controls.kwargs_widgets[2].value = 0.6
    assert image.value != before
    with pytest.raises(ValueError, match="prevalence must be between 0 and 1"):
        prevalence_explorer(prevalence=2.0)
