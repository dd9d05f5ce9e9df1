"""The family explorer of chapter 08 (kappalib.widgets._family_explorer), without a display."""

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.figure import Figure

import kappalib as kl
from kappalib import families
from kappalib.widgets import (
    FAMILY_NAMES,
    FamilyView,
    draw_family_state,
    family_explorer,
    family_range,
    family_state,
)

MAKERS = {
    "M1": families.M1,
    "M2": families.M2,
    "M3": families.M3,
    "M4": families.M4,
    "M5": families.M5,
}


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.mark.parametrize("name", ["M1", "M2", "M3", "M4", "M5"])
def test_state_matches_kappalib(name):
    low, high, default = family_range(name)
    assert low <= default <= high
    s = family_state(name, default)
    C = MAKERS[name](default)
    np.testing.assert_array_equal(s["matrix"], C)
    assert s["kappa"] == kl.kappa(C)
    assert s["mcc"] == kl.mcc(C)
    assert s["asymmetry"] == kl.asymmetry(C)
    assert s["entropy"] == kl.off_diagonal_entropy(C)
    np.testing.assert_array_equal(s["grid"], np.linspace(low, high, 201))
    stack = MAKERS[name](s["grid"])
    np.testing.assert_array_equal(s["kappa_curve"], kl.kappa(stack))
    np.testing.assert_array_equal(s["mcc_curve"], kl.mcc(stack))
    np.testing.assert_array_equal(s["asymmetry_curve"], kl.asymmetry(stack))
    np.testing.assert_array_equal(s["entropy_curve"], kl.off_diagonal_entropy(stack))


@pytest.mark.parametrize("n_classes", [2, 5, 10])
def test_za_state(n_classes):
    low, high, _ = family_range("ZA", n_classes)
    assert (low, high) == (0.0, 100.0 * n_classes)
    s = family_state("ZA", 7.5, n_classes, n_grid=11)
    np.testing.assert_array_equal(s["matrix"], families.ZA(7.5, n_classes))
    assert s["label"] == f"Z_A, N = {n_classes}"
    assert s["kappa"] == kl.kappa(families.ZA(7.5, n_classes))
    assert s["grid"].shape == s["kappa_curve"].shape == (11,)


def test_paper_values_through_the_widget():
    """Table 2 of the paper at A = 60, read through the explorer's state."""
    s = family_state("M4", 60)
    assert (round(s["mcc"], 4), round(s["kappa"], 4)) == (-0.5114, -0.2900)
    assert round(s["entropy"], 4) == 1.0319
    assert f"{s['asymmetry']:.7g}" == "5470.868"


def test_m1_ignores_n_classes():
    assert family_state("M1", 5, 7)["matrix"].shape == (3, 3)


@pytest.mark.parametrize(
    ("args", "match"),
    [
        (("M6", 1.0), "name must be one of"),
        (("ZA", 1.0, 1), "n_classes must be an integer from 2 to 10"),
        (("ZA", 1.0, 11), "n_classes must be an integer from 2 to 10"),
        (("ZA", 1.0, 2.0), "n_classes must be an integer"),
        (("M3", 1000.0), "A must be a number from 0 to 999 for M3"),
        (("M2", 0.5), "A must be a number from 1 to 100"),
        (("M2", float("nan")), "A must be a number"),
        (("M2", "5"), "A must be a number"),
    ],
)
def test_bad_input(args, match):
    with pytest.raises(ValueError, match=match):
        family_state(*args)


def test_bad_grid():
    with pytest.raises(ValueError, match="n_grid must be an integer of at least 2"):
        family_state("M2", 5, n_grid=1)


def test_draw_static_figure():
    fig = draw_family_state(family_state("M2", 10))
    ax_m, ax_k, ax_h = fig.axes
    assert ax_m.get_title() == "M2 at A = 10"
    assert ax_k.get_title() == "kappa = -0.1002,  MCC = -0.3879"
    assert ax_h.get_title() == "Ent = 0.7135 bits,  Asy = 140.584"
    assert [t.get_text() for t in ax_m.texts][:3] == ["1", "10", "1"]
    assert ax_k.get_xlabel() == ax_h.get_xlabel() == "A"
    assert ax_k.get_legend() is not None


def test_view_update_and_blit():
    view = FamilyView(family_state("M4", 60), Figure(dpi=50), animated=True)
    first = view.render_png()
    assert first.startswith(b"\x89PNG")
    view.update(family_state("M4", 90))
    assert view.titles[1].get_text() == "kappa = -0.0341,  MCC = -0.7032"
    assert view.kappa_dot.get_xdata()[0] == 90
    second = view.render_png()
    assert second.startswith(b"\x89PNG") and second != first
    with pytest.raises(ValueError, match="state must be of M4 with 3 classes"):
        view.update(family_state("ZA", 5, 3))


def test_view_large_za_labels_only_the_a_cell():
    view = FamilyView(family_state("ZA", 95.0, 10), Figure(dpi=50))
    shown = [t.get_text() for t in view.texts if t.get_visible()]
    assert shown == ["95"]


def test_explorer_builds_and_follows_the_family():
    pytest.importorskip("ipywidgets")
    box = family_explorer()
    controls, image = box.children
    menu, classes, slider = controls.children[:3]
    assert list(menu.options) == list(FAMILY_NAMES)
    assert (slider.min, slider.max, slider.value) == (1.0, 100.0, 10.0)
    assert bytes(image.value).startswith(b"\x89PNG")
    menu.value = "M3"
    assert (slider.min, slider.max, slider.value) == (0.0, 999.0, 500.0)
    menu.value = "ZA"
    classes.value = 10
    assert (slider.min, slider.max) == (0.0, 1000.0)
    before = bytes(image.value)
    slider.value = 95.0
    assert bytes(image.value) != before


def _browser_readout(slider):
    """What the page shows: the widget's JavaScript slider snaps its value to
    min + k * step and writes it with d3-format's readout_format; for an "f" format, d3 and
    Python agree."""
    assert slider.readout_format.endswith("f")
    k = round((slider.value - slider.min) / slider.step)
    return format(slider.min + k * slider.step, slider.readout_format)


@pytest.mark.parametrize("name", FAMILY_NAMES)
def test_slider_readout_matches_the_title(name):
    """The A readout and the figure's title agree at every family's default (a step of
    (high - low) / 1000 put M2's A = 10 at 10.009, read out as 10.01 under "A = 10")."""
    pytest.importorskip("ipywidgets")
    box = family_explorer(name)
    slider = box.children[0].children[2]
    low, high, default = family_range(name)
    assert (slider.min, slider.max, slider.value) == (low, high, default)
    assert float(_browser_readout(slider)) == default
    assert (high - low) / slider.step <= 10_000
    view = FamilyView(family_state(name, slider.value, n_grid=3), a_format=slider.readout_format)
    assert view.titles[0].get_text().endswith(f"A = {_browser_readout(slider)}")


def test_explorer_keeps_readout_and_step_together():
    pytest.importorskip("ipywidgets")
    box = family_explorer("M2")
    menu, classes, slider = box.children[0].children[:3]
    assert (slider.step, slider.readout_format, _browser_readout(slider)) == (0.01, ".2f", "10.00")
    menu.value = "ZA"
    classes.value = 10
    assert (slider.step, slider.readout_format, _browser_readout(slider)) == (1.0, ".0f", "10")


def test_explorer_puts_a_start_value_on_the_slider_grid():
    pytest.importorskip("ipywidgets")
    slider = family_explorer("M2", A=10.004).children[0].children[2]
    assert slider.value == 10.0
    assert _browser_readout(slider) == "10.00"


def test_explorer_rejects_bad_start():
    with pytest.raises(ValueError, match="A must be a number from 1 to 100"):
        family_explorer("M2", A=500)
