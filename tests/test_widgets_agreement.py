"""The 2x2 explorer of chapter 02: its compute function against hand formulas, no display.

The table is [[a, b], [c, d]] with rows = reference (a = TP, b = FN, c = FP, d = TN).  The
expected values below are written out from the textbook formulas, not from kappalib.
"""

import io
import math

import matplotlib.pyplot as plt
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from matplotlib.figure import Figure
from PIL import Image as PILImage

from kappalib.widgets import two_by_two_chart, two_by_two_explorer, two_by_two_values

KEYS = ["p_o", "p_e", "kappa", "mcc", "pabak"]


def by_hand(a, b, c, d):
    """p_o, p_e, kappa, MCC and PABAK of [[a, b], [c, d]] from the textbook formulas."""
    N = a + b + c + d
    p_o = (a + d) / N
    p_e = ((a + b) * (a + c) + (c + d) * (b + d)) / N**2
    kappa = (p_o - p_e) / (1 - p_e) if p_e != 1 else None
    var = (a + b) * (c + d) * (a + c) * (b + d)
    mcc = (a * d - b * c) / math.sqrt(var) if var else None
    return {"p_o": p_o, "p_e": p_e, "kappa": kappa, "mcc": mcc, "pabak": 2 * p_o - 1}


def assert_same(got, want):
    assert list(got) == KEYS
    for key in KEYS:
        if want[key] is None:
            assert got[key] is None, key
        else:
            assert type(got[key]) is float, key
            assert got[key] == pytest.approx(want[key], abs=1e-12), key


@pytest.mark.parametrize(
    "table",
    [
        (8, 2, 1, 9),  # seed 001: p_o 0.85, p_e 0.5, kappa 0.7
        (4, 1, 2, 2),  # seed 004: kappa 12/39
        (45, 5, 95, 855),  # sensitivity = specificity = 0.9 at 5% prevalence
        (2, 8, 7, 3),  # below chance: negative kappa and MCC
        (0, 5, 5, 0),  # no agreement, balanced: kappa = MCC = -1
        (10, 0, 0, 10),  # perfect agreement
    ],
)
def test_values_match_hand_formulas(table):
    assert_same(two_by_two_values(*table), by_hand(*table))


def test_seed_001_numbers():
    v = two_by_two_values(8, 2, 1, 9)
    assert v["p_o"] == pytest.approx(0.85)
    assert v["p_e"] == pytest.approx(0.5)
    assert v["kappa"] == pytest.approx(0.7)
    assert v["mcc"] == pytest.approx(70 / math.sqrt(9900))
    assert v["pabak"] == pytest.approx(0.7)


@given(st.tuples(*[st.integers(0, 60)] * 4).filter(lambda t: sum(t) > 0))
def test_values_property(table):
    assert_same(two_by_two_values(*table), by_hand(*table))


def test_one_shared_class_is_undefined_not_zero():
    v = two_by_two_values(5, 0, 0, 0)
    assert v["kappa"] is None and v["mcc"] is None
    assert v["p_o"] == 1.0 and v["p_e"] == 1.0 and v["pabak"] == 1.0


def test_one_sided_table_mcc_undefined_kappa_zero():
    # the reference uses the positive class only; the prediction uses both
    v = two_by_two_values(3, 2, 0, 0)
    assert v["mcc"] is None
    assert v["kappa"] == 0.0


def test_empty_table_is_all_undefined():
    assert two_by_two_values(0, 0, 0, 0) == dict.fromkeys(KEYS)


def test_negative_count_is_rejected():
    with pytest.raises(ValueError, match="non-negative"):
        two_by_two_values(3, -1, 2, 2)


def test_chart_labels_and_undefined_bars():
    ax = two_by_two_chart(5, 0, 0, 0, ax=Figure().subplots())
    assert [t.get_text() for t in ax.texts] == ["1.000", "1.000", "undefined", "undefined", "1.000"]
    assert [bar.get_visible() for bar in ax.patches[:5]] == [True, True, False, False, True]
    assert ax.get_title() == "C = [[5, 0], [0, 0]],  N = 5"
    assert ax.get_ylim() == (-1.3, 1.3)


def test_chart_heights_are_the_values():
    ax = two_by_two_chart(2, 8, 7, 3, ax=Figure().subplots())
    values = two_by_two_values(2, 8, 7, 3)
    heights = [bar.get_height() for bar in ax.patches[:5]]
    assert heights == pytest.approx(list(values.values()))
    assert values["kappa"] < 0


def test_explorer_builds_and_redraws_headless(capsys):
    w = two_by_two_explorer(max_count=20)
    sliders = w.children[:4]
    assert [s.description for s in sliders] == ["a (TP)", "b (FN)", "c (FP)", "d (TN)"]
    assert [s.value for s in sliders] == [8, 2, 1, 9]
    assert all(s.max == 20 for s in sliders)
    assert w.result == two_by_two_values(8, 2, 1, 9)
    for s, value in zip(sliders, [5, 0, 0, 0], strict=True):
        s.value = value
    assert w.result["kappa"] is None
    assert w.result == two_by_two_values(5, 0, 0, 0)


def test_explorer_image_matches_the_static_chart(monkeypatch):
    # The explorer redraws only the moving artists over a cached background; its picture
    # must be the picture that two_by_two_chart draws from scratch for the same table.
    shown = []
    monkeypatch.setattr("IPython.display.display", shown.append)
    w = two_by_two_explorer()
    for s, value in zip(w.children[:4], [0, 8, 7, 0], strict=True):
        s.value = value
    live = np.asarray(PILImage.open(io.BytesIO(shown[-1].data)).convert("RGB"), dtype=float)

    ax = two_by_two_chart(0, 8, 7, 0)
    png = io.BytesIO()
    ax.figure.savefig(png, format="png")
    plt.close(ax.figure)
    static = np.asarray(PILImage.open(png).convert("RGB"), dtype=float)

    assert live.shape == static.shape
    assert np.abs(live - static).mean() < 0.5  # 0-255 scale: the same picture
