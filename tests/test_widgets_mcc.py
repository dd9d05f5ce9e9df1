"""The C0/C1 family explorer of chapter 07 (kappalib.widgets._mcc_families), without a display."""

import numpy as np
import pytest
from matplotlib.figure import Figure

import kappalib as kl
from kappalib import closed_forms, families
from kappalib.widgets import (
    MCC_FAMILIES,
    mcc_family_chart,
    mcc_family_explorer,
    mcc_family_values,
)

FAMILY_MATRIX = {
    "C0": lambda a, b: families.C0(a, b, 1.0),
    "C1, d=a": lambda a, b: families.C1(a, b, a),
    "C1, d=0": lambda a, b: families.C1(a, b, 0.0),
    "C1, d=1": lambda a, b: families.C1(a, b, 1.0),
}


@pytest.mark.parametrize("family", list(MCC_FAMILIES))
@pytest.mark.parametrize(("a", "b"), [(0.2, 5.0), (1.0, 0.0), (3.0, 1.0), (0.5, 29.0)])
def test_values_match_kappalib(family, a, b):
    v = mcc_family_values(family, a, b)
    C = FAMILY_MATRIX[family](a, b)
    np.testing.assert_array_equal(v["C"], C)
    assert v["kappa"] == kl.kappa(C)
    assert v["mcc"] == kl.mcc(C)
    grid = v["b_grid"]
    assert grid[0] == 0 and grid[-1] == 30 and grid.shape == v["kappa_curve"].shape
    stack = FAMILY_MATRIX[family](a, grid)
    np.testing.assert_allclose(v["kappa_curve"], kl.kappa(stack), rtol=1e-12, equal_nan=True)
    np.testing.assert_allclose(v["mcc_curve"], kl.mcc(stack), rtol=1e-12, equal_nan=True)


@pytest.mark.parametrize("family", ["C1, d=a", "C1, d=0", "C1, d=1"])
@pytest.mark.parametrize("a", [0.2, 1.0, 2.5])
def test_minimum_of_kappa(family, a):
    v = mcc_family_values(family, a, 3.0)
    scenario = family.split(", ")[1]
    assert v["b_star"] == closed_forms.argmin_kappa_C1(a, scenario)
    # it is the minimum of the sweep, to the sweep's resolution
    assert v["kappa_star"] <= np.nanmin(v["kappa_curve"]) + 1e-12
    step = v["b_grid"][1] - v["b_grid"][0]
    assert abs(v["b_grid"][np.nanargmin(v["kappa_curve"])] - v["b_star"]) <= step


def test_C0_has_no_minimum_inside_and_kappa_falls():
    v = mcc_family_values("C0", 1.0, 2.0)
    assert v["b_star"] is None and v["kappa_star"] is None
    assert (np.diff(v["kappa_curve"]) < 0).all() and (np.diff(v["mcc_curve"]) < 0).all()


def test_undefined_mcc_is_none_for_the_point_and_nan_in_the_curve():
    v = mcc_family_values("C0", 0.0, 2.0)  # nothing predicted positive: MCC is 0/0
    assert v["mcc"] is None
    assert np.isnan(v["mcc_curve"]).all()
    assert v["kappa"] == 0.0


def test_sweep_extends_to_a_large_b():
    v = mcc_family_values("C1, d=1", 0.2, 45.0)
    assert v["b_grid"][-1] == 45.0


@pytest.mark.parametrize(
    ("kwargs", "text"),
    [
        ({"family": "C2"}, "family must be one of"),
        ({"a": -1.0}, "a must be finite and non-negative, got -1.0"),
        ({"b": float("nan")}, "b must be finite and non-negative, got nan"),
    ],
)
def test_bad_input(kwargs, text):
    with pytest.raises(ValueError, match=text):
        mcc_family_values(**kwargs)


def test_chart_shows_the_values_and_the_matrix():
    fig = mcc_family_chart("C1, d=a", 0.2, 5.0, fig=Figure())
    ax_curve, ax_matrix = fig.axes
    v = mcc_family_values("C1, d=a", 0.2, 5.0)
    title = ax_curve.get_title()
    assert f"κ = {v['kappa']:.3f}" in title and f"MCC = {v['mcc']:.3f}" in title
    assert "Corollary 4" in title
    assert [t.get_text() for t in ax_matrix.texts] == ["0.2", "5", "1", "0.2"]
    assert ax_curve.get_xlabel() and ax_curve.get_ylabel()
    assert ax_matrix.get_xlabel() == "prediction" and ax_matrix.get_ylabel() == "reference"
    star = ax_curve.lines[4]
    assert star.get_xdata()[0] == pytest.approx(v["b_star"])
    labels = [t.get_text() for t in ax_curve.get_legend().get_texts()]
    assert labels == ["MCC", "κ (kappa)", "current MCC", "current κ", "minimum of κ"]


def test_chart_with_undefined_mcc_says_so():
    fig = mcc_family_chart("C0", 0.0, 2.0, fig=Figure())
    assert "MCC = undefined" in fig.axes[0].get_title()
    assert len(fig.axes[0].lines[0].get_xdata()) > 0  # the curve is there (all NaN)


def test_explorer_builds_and_updates():
    w = mcc_family_explorer()
    assert w.result["b_star"] == pytest.approx(closed_forms.argmin_kappa_C1(0.2, "d=a"))
    w.children[0].value = "C1, d=0"
    w.children[1].value = 1.0
    w.children[2].value = 3.0
    w.update()
    assert w.result["kappa"] == kl.kappa(families.C1(1.0, 3.0, 0.0))


def test_renderer_png():
    """The redraw time (target < 50 ms) is a benchmark, not a test: see bench/."""
    from kappalib.widgets._mcc_families import _Renderer

    r = _Renderer()
    for i, family in enumerate(list(MCC_FAMILIES) * 3):
        values, png = r.render(family, 0.1 * i, 2.5 * i)
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
        assert values["kappa"] == kl.kappa(FAMILY_MATRIX[family](0.1 * i, 2.5 * i))
