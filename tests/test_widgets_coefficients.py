"""The coefficient explorer's compute function, against the 2x2 formulas written out by hand
and, for Krippendorff's alpha, against the krippendorff package on the raw ratings.

For sensitivity s, specificity t and prevalence p the table of proportions is a = p s,
b = p (1 - s), c = (1 - p)(1 - t), d = (1 - p) t.  With q the pooled share of positive
ratings, q = (2a + b + c) / 2, the oracles are:

    kappa = 2 (ad - bc) / ((a + b)(b + d) + (a + c)(c + d))
    pi    = (p_o - (q^2 + (1 - q)^2)) / (1 - (q^2 + (1 - q)^2))
    AC1   = (p_o - 2 q (1 - q)) / (1 - 2 q (1 - q))           (Gwet 2008, K = 2)
    BP    = 2 p_o - 1
    MCC   = (ad - bc) / sqrt((a + b)(c + d)(a + c)(b + d))
"""

import math

import krippendorff
import matplotlib.pyplot as plt
import numpy as np
import pytest

from kappalib.widgets import (
    COEFFICIENT_GRID,
    COEFFICIENTS,
    CoefficientsFigure,
    coefficient_curves,
    coefficients_explorer,
    draw_coefficients,
)

RATES = [(0.9, 0.9), (0.9, 0.7), (0.6, 0.95), (0.3, 0.4), (1.0, 0.5), (0.99, 0.99)]


def by_hand(s, t, p):
    a, b, c, d = p * s, p * (1 - s), (1 - p) * (1 - t), (1 - p) * t
    p_o = a + d
    q = (2 * a + b + c) / 2
    pe_pi = q**2 + (1 - q) ** 2
    pe_ac1 = 2 * q * (1 - q)
    den = (a + b) * (c + d) * (a + c) * (b + d)
    return {
        "accuracy": p_o,
        "kappa": 2 * (a * d - b * c) / ((a + b) * (b + d) + (a + c) * (c + d)),
        "scotts_pi": (p_o - pe_pi) / (1 - pe_pi),
        "ac1": (p_o - pe_ac1) / (1 - pe_ac1),
        "bp": 2 * p_o - 1,
        "mcc": math.nan if den == 0 else (a * d - b * c) / math.sqrt(den),
    }


@pytest.mark.parametrize(("s", "t"), RATES)
def test_curves_match_the_cell_formulas(s, t):
    curves = coefficient_curves(s, t)
    assert curves.prevalence.shape == COEFFICIENT_GRID.shape
    for i, p in enumerate(curves.prevalence):
        for field, value in by_hand(s, t, p).items():
            ours = getattr(curves, field)[i]
            assert ours == pytest.approx(value, abs=1e-12, nan_ok=True), (field, p)


@pytest.mark.parametrize(
    ("s", "t", "p", "n"), [(0.9, 0.8, 0.5, 100), (0.9, 0.9, 0.1, 100), (0.75, 0.5, 0.2, 40)]
)
def test_alpha_matches_the_krippendorff_package_on_raw_ratings(s, t, p, n):
    cells = np.array([p * s, p * (1 - s), (1 - p) * (1 - t), (1 - p) * t]) * n
    counts = np.rint(cells).astype(int)
    assert np.allclose(cells, counts)  # the cases are chosen to give whole counts
    first = np.repeat([1, 1, 0, 0], counts)
    second = np.repeat([1, 0, 1, 0], counts)
    theirs = krippendorff.alpha(reliability_data=[first, second], level_of_measurement="nominal")
    ours = coefficient_curves(s, t, [p], n_cases=n).alpha[0]
    assert ours == pytest.approx(theirs, abs=1e-12)


def test_paradox_resistant_coefficients_stay_up():
    # p_o = 0.9 at every prevalence; kappa falls towards 0 at the extremes, BP stays at 0.8
    curves = coefficient_curves(0.9, 0.9, [0.02, 0.5, 0.98])
    assert curves.bp == pytest.approx([0.8, 0.8, 0.8])
    assert curves.kappa[0] < 0.3 and curves.ac1[0] > 0.85
    assert curves.kappa[1] == pytest.approx(0.8)


def test_undefined_values_are_nan():
    # a rater who says "negative" to everything: kappa and pi 0, MCC 0/0, BP = 2 p_o - 1
    curves = coefficient_curves(0.0, 1.0, [0.2])
    assert np.isnan(curves.mcc[0])
    assert curves.kappa[0] == pytest.approx(0.0, abs=1e-15)
    assert curves.bp[0] == pytest.approx(0.6)
    # prevalence 1 and a perfect rater: a single class, so p_e = 1 everywhere it is used
    one_class = coefficient_curves(1.0, 1.0, [1.0])
    assert np.isnan(one_class.kappa[0]) and np.isnan(one_class.alpha[0])


@pytest.mark.parametrize(
    ("args", "kwargs", "error", "words"),
    [
        ((1.2, 0.7), {}, ValueError, "sensitivity must be between 0 and 1, got 1.2"),
        ((0.9, -0.1), {}, ValueError, "specificity must be between 0 and 1, got -0.1"),
        (("0.9", 0.7), {}, TypeError, "sensitivity must be a number"),
        ((0.9, 0.7, [0.2, 1.5]), {}, ValueError, "prevalences must all be between 0 and 1"),
        ((0.9, 0.7, []), {}, ValueError, "non-empty 1-d array"),
        ((0.9, 0.7, ["a"]), {}, TypeError, "prevalences must be numbers"),
        ((0.9, 0.7), {"n_cases": 1}, ValueError, "n_cases must be an integer of at least 2"),
        ((0.9, 0.7), {"n_cases": 2.5}, ValueError, "n_cases must be an integer"),
    ],
)
def test_bad_input_is_named(args, kwargs, error, words):
    with pytest.raises(error, match=words.replace("(", r"\(")):
        coefficient_curves(*args, **kwargs)


def test_figure_updates_in_place_and_renders():
    fig = plt.figure()
    view = CoefficientsFigure(fig.add_subplot())
    here = view.update(0.9, 0.9, 0.1)
    curves = coefficient_curves(0.9, 0.9)
    for field, *_ in COEFFICIENTS:
        assert np.allclose(view.lines[field].get_ydata(), getattr(curves, field), equal_nan=True)
    assert f"kappa   {here.kappa[0]:.3f}" in view.text.get_text()
    first = view.render_png()
    view.update(0.3, 0.4, 0.6)  # worse than chance: the y axis opens to -1
    assert view.ax.get_ylim()[0] < -1
    second = view.render_png()
    assert first[:8] == second[:8] == b"\x89PNG\r\n\x1a\n"
    assert first != second
    plt.close(fig)


def test_static_figure_has_every_curve_in_the_legend():
    ax = draw_coefficients()
    labels = {t.get_text() for t in ax.get_legend().get_texts()}
    assert labels == {label for _, label, *_ in COEFFICIENTS} | {"raw agreement p_o"}
    plt.close(ax.figure)


def test_explorer_builds_and_every_control_has_a_description():
    ui = coefficients_explorer(0.85, 0.95, 0.3)
    controls, image = ui.children
    names = [w.description for w in controls.kwargs_widgets]
    assert names == ["prevalence", "sensitivity", "specificity"]
    before = image.value
    assert before[:4] == b"\x89PNG"
    controls.kwargs_widgets[0].value = 0.7
    assert image.value != before
    with pytest.raises(ValueError, match="prevalence must be between 0 and 1"):
        coefficients_explorer(prevalence=2.0)
