"""The weighted-kappa contribution explorer (chapter 05): its pure part, figure and widget."""

import matplotlib.pyplot as plt
import numpy as np
import pytest

import kappalib as kl
from kappalib.widgets import (
    WEIGHTED_EXAMPLES,
    draw_weighted_contributions,
    weighted_contributions,
    weighted_kappa_explorer,
)

SEED_003 = [[2, 0, 1], [1, 1, 0], [0, 1, 2]]


@pytest.mark.parametrize("weighting", [None, "linear", "quadratic"])
@pytest.mark.parametrize("name", list(WEIGHTED_EXAMPLES))
def test_contributions_add_up_to_kappa(name, weighting):
    C, labels = WEIGHTED_EXAMPLES[name]
    s = weighted_contributions(C, weighting)
    K = len(labels)
    assert s.C.shape == s.W.shape == s.observed.shape == s.expected.shape == (K, K)
    assert s.W.max() == 1.0
    np.testing.assert_array_equal(np.diag(s.W), 0.0)
    assert s.observed_total == pytest.approx(s.observed.sum(), abs=1e-15)
    assert s.kappa == kl.kappa(C, weighting=weighting)
    assert 1 - s.observed_total / s.expected_total == pytest.approx(s.kappa, abs=1e-12)


def test_unweighted_sums_are_one_minus_p():
    s = weighted_contributions(SEED_003)
    assert s.observed_total == pytest.approx(1 - kl.observed_agreement(SEED_003), abs=1e-15)
    assert s.expected_total == pytest.approx(1 - kl.expected_agreement(SEED_003), abs=1e-15)


def test_seed_003_quadratic_cells():
    s = weighted_contributions(SEED_003, "quadratic")
    # W = (i - j)^2 / 4; the 1->3 miss is one case of eight at full weight
    assert s.observed[0, 2] == pytest.approx(1 / 8)
    assert s.observed[1, 0] == pytest.approx(1 / 32)
    assert s.expected[0, 2] == pytest.approx(9 / 64)
    assert (s.observed_total, s.expected_total, s.kappa) == (0.1875, 0.375, 0.5)


def test_severity_examples_share_diagonal_and_marginals():
    near, _ = WEIGHTED_EXAMPLES["severity, near misses (5 grades)"]
    far, _ = WEIGHTED_EXAMPLES["severity, far misses (5 grades)"]
    assert near.sum() == far.sum() == 1000
    np.testing.assert_array_equal(np.diag(near), np.diag(far))
    np.testing.assert_array_equal(near.sum(axis=0), far.sum(axis=0))
    np.testing.assert_array_equal(near.sum(axis=1), far.sum(axis=1))
    assert near.sum(axis=1)[1] == 700  # seed 002: 70% of the cases are grade 2
    i, j = np.nonzero(near - np.diag(np.diag(near)))
    assert set(np.abs(i - j)) == {1}
    i, j = np.nonzero(far - np.diag(np.diag(far)))
    assert min(np.abs(i - j)) >= 2
    assert kl.kappa(near) == pytest.approx(kl.kappa(far), abs=1e-15)
    assert kl.kappa(near, weighting="quadratic") > kl.kappa(far, weighting="quadratic")


def test_undefined_kappa_is_drawn_not_raised():
    s = weighted_contributions([[5, 0], [0, 0]], "linear")
    assert s.kappa is None
    assert s.expected_total == 0.0
    fig = draw_weighted_contributions(s)
    assert "undefined" in fig.texts[0].get_text()
    plt.close(fig)


@pytest.mark.parametrize(
    "C, weighting",
    [
        ([[1, 2], [3]], None),
        ([[0, 0], [0, 0]], None),
        (SEED_003, "cubic"),
        ([[-1, 2], [3, 4]], None),
    ],
)
def test_bad_input_raises_kappalibs_errors(C, weighting):
    with pytest.raises((ValueError, TypeError)):
        weighted_contributions(C, weighting)


def test_stack_is_refused():
    with pytest.raises(ValueError, match="one"):
        weighted_contributions(np.ones((2, 3, 3)))


def test_static_figure_titles_and_cells():
    s = weighted_contributions(SEED_003, "quadratic")
    fig = draw_weighted_contributions(s, labels=[1, 2, 3])
    ax_o, ax_e = fig.axes[:2]
    assert fig.texts[0].get_text() == "quadratic weights: weighted κ = 1 − 18.75 / 37.50 = 0.500"
    assert ax_o.get_title() == "observed W∘O: sum 18.75"
    assert ax_e.get_title() == "expected W∘E: sum 37.50"
    assert [t.get_text() for t in ax_o.texts] == [
        "0", "0", "12.5", "3.1", "0", "0", "0", "3.1", "0"
    ]  # fmt: skip
    assert ax_o.get_xlabel() == "prediction (rater 2)"
    assert ax_o.get_ylabel() == "reference (rater 1)"
    # one colour scale for both panels
    assert ax_o.images[0].get_clim() == ax_e.images[0].get_clim() == (0.0, 9 / 64)
    plt.close(fig)


def test_explorer_redraws_on_every_control():
    pytest.importorskip("ipywidgets")
    box = weighted_kappa_explorer()
    controls = box.controls
    image = box.children[-1]
    first = image.value
    assert first[:8] == b"\x89PNG\r\n\x1a\n"
    controls["weighting"].value = "none"
    assert image.value != first
    controls["example"].value = "severity, far misses (5 grades)"
    five = image.value
    assert all(cell.disabled for cell in controls["cells"])
    controls["example"].value = "edit a 3 x 3 matrix"
    assert not any(cell.disabled for cell in controls["cells"])
    controls["cells"][0].value = 7
    assert image.value != five


def test_explorer_reports_bad_matrices_in_words():
    pytest.importorskip("ipywidgets")
    box = weighted_kappa_explorer()
    controls = box.controls
    controls["example"].value = "edit a 3 x 3 matrix"
    for cell in controls["cells"]:
        cell.value = 0
    message = box.children[-2]
    assert "C must" in message.value
    controls["cells"][4].value = 3
    assert message.value == ""


def test_matrix_cells_have_accessible_names():
    """The nine inputs show no label (the caption names the grid) but each has one, its
    accessible name, that says which cell it is, row by row."""
    pytest.importorskip("ipywidgets")
    cells = weighted_kappa_explorer().controls["cells"]
    for index, cell in enumerate(cells):
        row, column = divmod(index, 3)
        assert cell.description == f"row {row + 1}, column {column + 1}"
        assert cell.style.description_width == "0px"
