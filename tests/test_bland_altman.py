"""Bland-Altman limits of agreement (issue 34) against published values and outside oracles.

* Published: Bland & Altman (1986), the peak flow data (bias -2.1 l/min, SD 38.8, limits
  -79.7 to 75.5 with 2 SD, -78.1 to 73.9 with 1.96 SD); Bland & Altman (1999, section 5.2)
  and (2007), the cardiac output data with replicates.
* pingouin 0.7.0's ``plot_blandaltman`` (its bias, limits and their 1986 intervals, read from
  the lines and bands it draws), on random data.
* scipy: the noncentral t behind the exact intervals (``scipy.stats.nct``), Student's t,
  chi-square, and ``scipy.stats.linregress`` for the proportional-bias regression.
* The coverage of the intervals: tools/ba_coverage.py (its committed result is checked by
  tests/test_ba_coverage.py).
"""

import math
import sys

import numpy as np
import pytest
from ratings_data import ROOT
from scipy import stats

import kappalib as kl
from kappalib._shared.noncentral import chi2_ppf, nct_cdf, nct_ppf

sys.path.insert(0, str(ROOT / ".venv" / "oracles"))

PEFR = kl.datasets.load("bland_altman1986_pefr").data
CO = kl.datasets.load("bland_altman1999_cardiac_output")
TWO_SD = math.erf(math.sqrt(2))  # the share of a normal within +-2 SD


# --- the distributions behind the intervals --------------------------------------------------
# The oracle's own warning: scipy 1.12 (the declared floor) divides by zero inside boost's
# noncentral t at df 1 and still returns the right number; kappalib's functions warn nothing.
@pytest.mark.filterwarnings("ignore:divide by zero encountered in _nct:RuntimeWarning")
@pytest.mark.parametrize("df", [1, 2, 4, 16, 99, 2000, 1e5])
@pytest.mark.parametrize("nc", [-40.0, -2.5, 0.0, 1.0, 8.08, 40.0])
def test_noncentral_t_against_scipy(df, nc):
    for p in (0.0005, 0.025, 0.5, 0.975, 0.9995):
        assert nct_ppf(p, df, nc) == pytest.approx(stats.nct.ppf(p, df, nc), rel=2e-9, abs=1e-9)
    for t in (-5.0, 0.0, 0.7 * nc + 1.0, 2.0 * nc):
        want = stats.nct.cdf(t, df, nc)
        if np.isnan(want):  # scipy gives up far in a tail (df 16, nc 8.08, t -5): ~1e-27
            assert nct_cdf(t, df, nc) < 1e-20
            continue
        assert nct_cdf(t, df, nc) == pytest.approx(want, abs=1e-12)


@pytest.mark.parametrize("df", [0.5, 1, 3, 10, 100, 5000])
def test_chi_square_quantile_against_scipy(df):
    for p in (1e-10, 0.0005, 0.025, 0.3, 0.5, 0.975, 0.9995):
        assert chi2_ppf(p, df) == pytest.approx(stats.chi2.ppf(p, df), rel=1e-10)


# --- published values ----------------------------------------------------------------------
def test_bland_altman_1986_peak_flow():
    wright, mini = PEFR[:, 0], PEFR[:, 2]  # the first reading by each meter
    res = kl.bland_altman(wright, mini, agreement_level=TWO_SD)
    # "mean difference -2.1 l/min, SD 38.8"
    assert round(res.bias.estimate, 1) == -2.1 and round(res.standard_deviation, 1) == 38.8
    # "-79.7 to 75.5": the paper adds 2 x 38.8 to the rounded -2.1; unrounded they are
    # -79.64 and 75.41
    assert -2.1 - 2 * 38.8 == pytest.approx(-79.7) and -2.1 + 2 * 38.8 == pytest.approx(75.5)
    assert abs(res.lower_limit.estimate - -79.7) < 0.1
    assert abs(res.upper_limit.estimate - 75.5) < 0.1
    res196 = kl.bland_altman(wright, mini)  # z = 1.95996: "-78.1 to 73.9"
    assert round(res196.lower_limit.estimate, 1) == -78.1
    assert round(res196.upper_limit.estimate, 1) == 73.9
    assert res.n_units == res.n_pairs == 17 and res.true_value is None


def test_bland_altman_1999_replicates_true_value_constant():
    """Section 5.2 (unequal replicates): within-subject variances 0.1072 (RV) and 0.1379
    (IC), mean difference 0.7092, limits -1.3521 to 2.7705 (from its SD 1.0517)."""
    rv, ic = CO.data[:, 0], CO.data[:, 1]
    res = kl.bland_altman(rv, ic, units=CO.rows, true_value="constant")
    vx, vy = res.within_unit_variance
    assert (round(vx, 4), round(vy, 4)) == (0.1072, 0.1379)
    assert round(res.bias.estimate, 4) == 0.7092
    # the paper's SD is 1.0517; the formula on its data gives 1.05185 (its limits follow
    # from 1.0517: 0.7092 -/+ 1.96 x 1.0517)
    assert res.standard_deviation == pytest.approx(1.0517, abs=2e-4)
    assert res.lower_limit.estimate == pytest.approx(-1.3521, abs=4e-4)
    assert res.upper_limit.estimate == pytest.approx(2.7705, abs=4e-4)
    assert res.n_units == 12 and res.n_pairs == 60


def test_bland_altman_2007_replicates_true_value_varying():
    """Bland & Altman (2007), the same data in pairs: bias 0.6021667, SD 0.99062408, limits
    -1.3394565 to 2.5437899 (printed to 7 and 8 decimals)."""
    rv, ic = CO.data[:, 0], CO.data[:, 1]
    res = kl.bland_altman(rv, ic, units=CO.rows, true_value="varying", agreement_level=0.95)
    assert res.bias.estimate == pytest.approx(0.6021667, abs=5e-8)
    # the paper's SD, 0.99062408, is 3e-8 from the formula's 0.990624108 (its limits follow
    # from its SD, below): an intermediate value rounded
    assert res.standard_deviation == pytest.approx(0.99062408, abs=5e-8)
    # the paper multiplies by 1.96, kappalib by z = 1.959964: 0.99 x 3.6e-5 apart
    z = stats.norm.ppf(0.975)
    assert res.lower_limit.estimate == pytest.approx(0.6021667 - z * 0.99062408, abs=1e-7)
    assert 0.6021667 - 1.96 * 0.99062408 == pytest.approx(-1.3394565, abs=5e-8)
    assert res.upper_limit.estimate == pytest.approx(2.5437899, abs=1e-4)


# --- pingouin's plot: the approximate method (Bland & Altman 1986) -----------------------------
def _span(patch):
    """The (low, high) data y of a band: an axhspan is a Rectangle (matplotlib >= 3.9) or a
    Polygon (3.8), so read its path in data coordinates."""
    ys = patch.get_patch_transform().transform(patch.get_path().vertices)[:, 1]
    return float(ys.min()), float(ys.max())


def _pingouin_numbers(x, y, z):
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    pg = pytest.importorskip("pingouin")

    fig, ax = plt.subplots()
    pg.plot_blandaltman(x, y, agreement=z, confidence=0.95, annotate=False, ax=ax)
    # its lines: 0, the bias, upper, lower; its bands: bias, upper, lower intervals
    lines = [float(line.get_ydata()[0]) for line in ax.get_lines()]
    bands = [_span(p) for p in ax.patches]
    plt.close(fig)
    return lines[1:4], bands


@pytest.mark.parametrize("seed", range(12))
def test_approximate_intervals_match_pingouin(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(3, 60))
    x = rng.normal(100, 15, n)
    y = x + rng.normal(rng.normal(0, 3), rng.uniform(1, 10), n)
    res = kl.bland_altman(x, y, method="approximate")
    z = stats.norm.ppf(0.975)
    (bias, upper, lower), (b_ci, u_ci, l_ci) = _pingouin_numbers(x, y, z)
    assert res.bias.estimate == pytest.approx(bias, rel=1e-12, abs=1e-12)
    assert res.upper_limit.estimate == pytest.approx(upper, rel=1e-12)
    assert res.lower_limit.estimate == pytest.approx(lower, rel=1e-12)
    for got, want in (
        (res.bias.confidence_interval, b_ci),
        (res.upper_limit.confidence_interval, u_ci),
        (res.lower_limit.confidence_interval, l_ci),
    ):
        # scipy's t quantile: 1e-9 apart from kappalib's under scipy 1.12 (the floor), 1e-14 now
        assert got == pytest.approx(want, rel=1e-8, abs=1e-8)


# --- the exact interval, from its definition ----------------------------------------------
@pytest.mark.parametrize("seed", range(8))
def test_exact_intervals_are_noncentral_t_tolerance_limits(seed):
    """sqrt(n) (theta - mean d) / s ~ noncentral t(n - 1, sqrt(n) z): the interval's ends are
    its quantiles (Carkeet 2015, limits considered individually), with scipy's nct."""
    rng = np.random.default_rng(100 + seed)
    n = int(rng.integers(2, 80))
    d = rng.normal(1.0, 3.0, n)
    level, agreement = (0.9, 0.95, 0.99)[seed % 3], (0.9, 0.95)[seed % 2]
    res = kl.bland_altman(d, np.zeros(n), confidence_level=level, agreement_level=agreement)
    z, mean, s = stats.norm.ppf((1 + agreement) / 2), d.mean(), d.std(ddof=1)
    q = stats.nct.ppf([(1 - level) / 2, (1 + level) / 2], n - 1, math.sqrt(n) * z)
    upper = mean + q * s / math.sqrt(n)
    lower = mean - q[::-1] * s / math.sqrt(n)
    assert res.upper_limit.confidence_interval == pytest.approx(tuple(upper), rel=1e-8)
    assert res.lower_limit.confidence_interval == pytest.approx(tuple(lower), rel=1e-8)
    t = stats.t.ppf((1 + level) / 2, n - 1)
    se = s / math.sqrt(n)
    assert res.bias.confidence_interval == pytest.approx((mean - t * se, mean + t * se))
    assert res.standard_deviation == pytest.approx(s, rel=1e-12)


# --- the proportional-bias check -----------------------------------------------------------
@pytest.mark.parametrize("seed", range(6))
def test_proportional_bias_is_the_regression_of_difference_on_mean(seed):
    rng = np.random.default_rng(200 + seed)
    n = int(rng.integers(4, 50))
    x = rng.uniform(50, 150, n)
    y = x * rng.uniform(0.9, 1.1) + rng.normal(0, 5, n)
    pb = kl.bland_altman(x, y).proportional_bias
    lr = stats.linregress((x + y) / 2, x - y)
    assert pb.slope.estimate == pytest.approx(lr.slope, rel=1e-10)
    assert pb.intercept.estimate == pytest.approx(lr.intercept, rel=1e-9, abs=1e-9)
    assert pb.slope.standard_error == pytest.approx(lr.stderr, rel=1e-10)
    assert pb.intercept.standard_error == pytest.approx(lr.intercept_stderr, rel=1e-9)
    assert pb.pvalue == pytest.approx(lr.pvalue, rel=1e-8, abs=1e-14)
    assert pb.df == n - 2
    t = stats.t.ppf(0.975, n - 2)
    low, high = pb.slope.confidence_interval
    assert (low, high) == pytest.approx((lr.slope - t * lr.stderr, lr.slope + t * lr.stderr))


def test_replicates_regress_the_unit_means():
    rv, ic = CO.data[:, 0], CO.data[:, 1]
    res = kl.bland_altman(rv, ic, units=CO.rows, true_value="constant")
    units = np.array(CO.rows)
    means = [np.mean((rv + ic)[units == u]) / 2 for u in dict.fromkeys(CO.rows)]
    diffs = [np.mean(rv[units == u]) - np.mean(ic[units == u]) for u in dict.fromkeys(CO.rows)]
    np.testing.assert_allclose(res.means, means, rtol=1e-13)
    np.testing.assert_allclose(res.differences, diffs, rtol=1e-12)
    lr = stats.linregress(means, diffs)
    assert res.proportional_bias.slope.estimate == pytest.approx(lr.slope, rel=1e-10)


# --- replicates: the MOVER interval from its parts -------------------------------------------
def test_mover_interval_from_the_mean_squares():
    """The constant-true-value interval, rebuilt from its parts with scipy's t and chi-square
    quantiles and pandas' group means (Zou 2013's recovery of each limit)."""
    import pandas as pd

    df = pd.DataFrame({"u": CO.rows, "x": CO.data[:, 0], "y": CO.data[:, 1]})
    g = df.groupby("u", sort=False)
    D = g.x.mean() - g.y.mean()
    n, m = len(D), g.size().to_numpy()
    vx = ((df.x - g.x.transform("mean")) ** 2).sum() / (len(df) - n)
    vy = ((df.y - g.y.transform("mean")) ** 2).sum() / (len(df) - n)
    c = 1 - np.mean(1 / m)
    terms = [(1.0, D.var(ddof=1), n - 1), (c, vx, len(df) - n), (c, vy, len(df) - n)]
    s2 = sum(a * b for a, b, _ in terms)
    lo2 = s2 - math.sqrt(
        sum((a * b * (1 - nu / stats.chi2.ppf(0.975, nu))) ** 2 for a, b, nu in terms)
    )
    hi2 = s2 + math.sqrt(
        sum((a * b * (nu / stats.chi2.ppf(0.025, nu) - 1)) ** 2 for a, b, nu in terms)
    )
    s, ls, us = math.sqrt(s2), math.sqrt(lo2), math.sqrt(hi2)
    bias = D.mean()
    half = stats.t.ppf(0.975, n - 1) * D.std(ddof=1) / math.sqrt(n)
    lb, ub = bias - half, bias + half
    z = stats.norm.ppf(0.975)
    up = bias + z * s
    want = (up - math.hypot(bias - lb, z * (s - ls)), up + math.hypot(ub - bias, z * (us - s)))
    res = kl.bland_altman(df.x, df.y, units=df.u, true_value="constant")
    # scipy's chi-square and t quantiles (and kappalib's) to about 1e-11 (1e-9 on the floor)
    assert res.upper_limit.confidence_interval == pytest.approx(want, rel=1e-8)
    assert res.bias.confidence_interval == pytest.approx((lb, ub), rel=1e-9)


def test_unpaired_replicates_may_differ_in_number():
    x = [10.0, 11.0, 12.0, 20.0, 21.0, 30.0, 31.0]
    y = [9.0, np.nan, np.nan, 19.5, 20.0, 29.0, np.nan]
    units = ["a", "a", "a", "b", "b", "c", "c"]
    res = kl.bland_altman(x, y, units=units, true_value="constant")
    # unit means: x 11, 20.5, 30.5; y 9, 19.75, 29: differences 2, 0.75, 1.5
    assert res.differences.tolist() == [2.0, 0.75, 1.5]
    assert res.bias.estimate == pytest.approx(4.25 / 3)


# --- degenerate data and bad input ---------------------------------------------------------
def test_constant_differences_give_zero_width_limits():
    x = np.array([1.0, 2.0, 3.0, 4.0])
    res = kl.bland_altman(x + 2, x)
    assert res.standard_deviation == 0.0
    assert res.lower_limit.estimate == res.upper_limit.estimate == 2.0
    assert res.upper_limit.confidence_interval == (2.0, 2.0)
    pb = res.proportional_bias
    assert pb.slope.estimate == 0.0 and pb.statistic is None and pb.pvalue is None


def test_equal_means_leave_the_slope_undefined():
    res = kl.bland_altman([1.0, 2.0, 3.0], [3.0, 2.0, 1.0])  # every mean is 2
    pb = res.proportional_bias
    assert pb.slope.estimate is None and pb.pvalue is None
    assert pb.slope.confidence_interval == (None, None)


def test_two_pairs_have_limits_but_no_slope_test():
    res = kl.bland_altman([1.0, 5.0], [2.0, 3.0])
    assert res.bias.estimate == 0.5 and res.proportional_bias.df == 0
    assert res.proportional_bias.pvalue is None
    assert res.upper_limit.confidence_interval.low is not None


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"y1": [1, 2, 3], "y2": [1, 2]}, ValueError, "same length, got 3 and 2"),
        ({"y1": [1], "y2": [2]}, ValueError, "at least 2 pairs for limits of agreement, got 1"),
        ({"y1": [1, np.nan, 3], "y2": [1, 2, 3]}, ValueError, "y1 must hold finite numbers"),
        ({"y1": ["a", "b"], "y2": [1, 2]}, TypeError, "y1 must be a 1-D sequence of numbers"),
        ({"y1": [[1, 2]], "y2": [1, 2]}, ValueError, "y1 must be 1-D"),
        ({"units": [1, 1, 2]}, ValueError, "true_value must be 'constant'"),
        ({"true_value": "constant"}, ValueError, "pass units= naming the unit"),
        ({"units": [1, 1, 2], "true_value": "sometimes"}, ValueError, "got 'sometimes'"),
        ({"method": "bootstrap"}, ValueError, "method must be None, 'exact'"),
        ({"method": "mover"}, ValueError, "method='mover' is for replicates"),
        (
            {"units": [1, 1, 2], "true_value": "varying", "method": "exact"},
            ValueError,
            "with replicates the limits' intervals are method='mover'",
        ),
        ({"units": [1, 2, 3], "true_value": "varying"}, ValueError, "units must repeat"),
        (
            {"units": [1, 1, 1], "true_value": "constant"},
            ValueError,
            "at least 2 units for limits of agreement, got 1",
        ),
        ({"units": [1, None, 2], "true_value": "varying"}, ValueError, "got None at index 1"),
        ({"units": [1, 2], "true_value": "varying"}, ValueError, "each of the 3 pairs, got 2"),
        ({"agreement_level": 1.5}, ValueError, "agreement_level must be strictly between"),
        ({"confidence_level": 0}, ValueError, "confidence_level must be strictly between"),
    ],
)
def test_bad_input_is_one_sentence(kwargs, error, match):
    call = {"y1": [1.0, 2.0, 4.0], "y2": [1.5, 2.0, 3.0], **kwargs}
    with pytest.raises(error, match=match.replace("(", r"\(").replace(")", r"\)")):
        kl.bland_altman(**call)


def test_constant_design_needs_each_method_on_each_unit():
    with pytest.raises(ValueError, match="y2 has no measurement of unit 'b'"):
        kl.bland_altman(
            [1.0, 2.0, 3.0, 4.0],
            [1.0, 2.0, np.nan, np.nan],
            units=["a", "a", "b", "b"],
            true_value="constant",
        )


def test_result_prints_a_table():
    text = repr(kl.bland_altman(PEFR[:, 0], PEFR[:, 2]))
    assert "bias" in text and "upper limit" in text and "(exact)" in text


def test_the_shipped_data_have_their_published_shapes():
    assert PEFR.shape == (17, 4) and PEFR.dtype == np.int64
    assert kl.datasets.load("bland_altman1986_pefr").columns[0] == "wright_1"
    assert CO.data.shape == (60, 2) and CO.data.dtype == np.float64
    per_subject = [CO.rows.count(str(u)) for u in range(1, 13)]
    assert min(per_subject) == 3 and max(per_subject) == 6 and sum(per_subject) == 60
