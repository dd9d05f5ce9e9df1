"""The figures of issue 34, tested by what they draw (the artists' data, not pixels).

* bland_altman_plot: the lines sit at the bias and limits that pingouin's own plot draws
  for the same data (pingouin 0.7.0, the approximate method), the bands span the intervals,
  the points are (mean, difference);
* agreement_chart: every rectangle's corners are exact fractions of the margins (vcd's
  geometry), so the black area over the rectangles' area is B, in fractions;
* subgroup_plot: one interval per subgroup, top to bottom, and the common kappa.
"""

import sys
from fractions import Fraction
from types import SimpleNamespace

import numpy as np
import pytest
from ratings_data import ROOT
from scipy import stats

import kappalib as kl

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from kappalib import plotting  # noqa: E402

sys.path.insert(0, str(ROOT / ".venv" / "oracles"))


def _span(patch):
    """The (low, high) data y of a band: an axhspan is a Rectangle (matplotlib >= 3.9) or a
    Polygon (3.8), so read its path in data coordinates."""
    ys = patch.get_patch_transform().transform(patch.get_path().vertices)[:, 1]
    return float(ys.min()), float(ys.max())


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


def test_bland_altman_plot_draws_pingouins_lines_and_the_intervals():
    pg = pytest.importorskip("pingouin")

    pefr = kl.datasets.load("bland_altman1986_pefr").data
    x, y = pefr[:, 0].astype(float), pefr[:, 2].astype(float)
    res = kl.bland_altman(x, y, method="approximate")
    ax = plotting.bland_altman_plot(res, title="Wright vs mini Wright")
    _, theirs = plt.subplots()
    pg.plot_blandaltman(x, y, agreement=stats.norm.ppf(0.975), annotate=False, ax=theirs)
    mine = [float(line.get_ydata()[0]) for line in ax.get_lines()]
    want = [float(line.get_ydata()[0]) for line in theirs.get_lines()]
    # pingouin: zero, bias, upper, lower; kappalib: zero, bias, lower, upper
    assert mine == pytest.approx([want[0], want[1], want[3], want[2]], rel=1e-12)
    spans = [_span(p) for p in ax.patches]
    their_spans = [_span(p) for p in theirs.patches]
    order = [their_spans[0], their_spans[2], their_spans[1]]
    assert np.ravel(spans) == pytest.approx(np.ravel(order), rel=1e-10)
    points = ax.collections[0].get_offsets()
    np.testing.assert_allclose(points[:, 0], (x + y) / 2)
    np.testing.assert_allclose(points[:, 1], x - y)
    assert ax.get_title() == "Wright vs mini Wright"
    assert [t.get_text() for t in ax.texts] == ["bias -2.12", "lower -78.1", "upper 73.9"]


def test_bland_altman_plot_of_replicates_draws_the_unit_means():
    co = kl.datasets.load("bland_altman1999_cardiac_output")
    res = kl.bland_altman(co.data[:, 0], co.data[:, 1], units=co.rows, true_value="constant")
    ax = plotting.bland_altman_plot(res)
    points = ax.collections[0].get_offsets()
    assert points.shape == (12, 2)
    low, high = res.upper_limit.confidence_interval
    assert _span(ax.patches[2]) == pytest.approx((low, high))


def test_bland_altman_plot_refuses_something_else():
    with pytest.raises(TypeError, match=r"result must be what kl\.bland_altman"):
        plotting.bland_altman_plot([[1, 2], [3, 4]])


@pytest.mark.parametrize("weighting", [None, "linear"])
def test_agreement_chart_geometry_is_exact(weighting):
    C = [[20, 5, 1, 0], [4, 30, 6, 2], [1, 3, 25, 4], [0, 1, 5, 18]]
    K, N = 4, sum(map(sum, C))
    ax = plotting.agreement_chart(C, weighting=weighting, labels=list("abcd"))
    patches = list(ax.patches)
    bands = 1 if weighting is None else K - 1  # linear: distances 0..K-2 (K - 1 weighs 0)
    assert len(patches) == K * (1 + bands)
    r = [Fraction(sum(row), N) for row in C]
    c = [Fraction(sum(C[i][j] for i in range(K)), N) for j in range(K)]
    outer = patches[:: 1 + bands]
    xc = [sum(c[:i], Fraction(0)) for i in range(K)]
    yc = [sum(r[:i], Fraction(0)) for i in range(K)]
    for i, p in enumerate(outer):
        assert (p.get_x(), p.get_y()) == pytest.approx((float(xc[i]), float(yc[i])), abs=1e-15)
        assert (p.get_width(), p.get_height()) == pytest.approx((float(c[i]), float(r[i])))
    squares = patches[bands :: 1 + bands]  # the last band of each category: the diagonal
    for i, p in enumerate(squares):
        assert p.get_width() == pytest.approx(C[i][i] / N) and p.get_height() == pytest.approx(
            C[i][i] / N
        )
        assert p.get_facecolor()[:3] == (0.0, 0.0, 0.0)
    B = sum(Fraction(C[i][i], N) ** 2 for i in range(K)) / sum(r[i] * c[i] for i in range(K))
    black = sum(p.get_width() * p.get_height() for p in squares)
    assert black / sum(p.get_width() * p.get_height() for p in outer) == pytest.approx(float(B))
    assert [t.get_text() for t in ax.get_xticklabels()] == list("abcd")


def test_agreement_chart_labels_from_a_confusion_matrix():
    C = kl.confusion_matrix(["no", "yes", "yes", "no", "yes"], ["no", "yes", "no", "no", "yes"])
    ax = plotting.agreement_chart(C)
    assert [t.get_text() for t in ax.get_yticklabels()] == ["no", "yes"]
    with pytest.raises(ValueError, match="one entry per class"):
        plotting.agreement_chart(C, labels=["x"])


def _subgroups():
    if hasattr(kl, "subgroup_kappas"):  # f34b's function, once merged
        y1 = [0] * 10 + [1] * 10 + [0] * 10 + [1] * 10
        y2 = [0] * 8 + [1] * 2 + [0] + [1] * 9 + [0] * 6 + [1] * 4 + [0] * 3 + [1] * 7
        return kl.subgroup_kappas(y1, y2, ["A"] * 20 + ["B"] * 20)
    rows = [
        SimpleNamespace(estimate=0.7, confidence_interval=kl.ConfidenceInterval(0.39, 1.0)),
        SimpleNamespace(estimate=0.3, confidence_interval=kl.ConfidenceInterval(-0.12, 0.72)),
    ]
    return SimpleNamespace(
        groups=("A", "B"),
        coefficients=rows,
        estimate=0.52,
        confidence_interval=kl.ConfidenceInterval(0.22, 0.81),
        pvalue=0.13,
    )


def test_subgroup_plot_draws_each_interval_and_the_common_kappa():
    res = _subgroups()
    ax = plotting.subgroup_plot(res)
    lines = ax.get_lines()
    for line, e in zip(lines, res.coefficients, strict=False):
        assert tuple(line.get_xdata()) == pytest.approx(tuple(e.confidence_interval))
    assert tuple(lines[len(res.groups)].get_xdata()) == pytest.approx(
        tuple(res.confidence_interval)
    )
    ys = [line.get_ydata()[0] for line in lines[: len(res.groups) + 1]]
    assert ys == sorted(ys, reverse=True)  # the first subgroup on top, the common one last
    points = ax.collections[0].get_offsets()
    assert points[:, 0].tolist() == pytest.approx([e.estimate for e in res.coefficients])
    assert "p = " in ax.get_title()
    with pytest.raises(TypeError, match=r"result must be what kl\.subgroup_kappas"):
        plotting.subgroup_plot(kl.bland_altman([1.0, 2.0, 3.0], [1.0, 2.5, 2.0]))
