"""Continuous ratings (issue 23, section 2): the ICCs and Lin's CCC against outside oracles.

* ICC: Shrout and Fleiss' (1979) worked example (their Table 2 data; the mean squares of
  their Table 3 and the six ICCs of their Table 4), and pingouin 0.7.0's ``intraclass_corr``
  (installed into .venv/oracles, see requirements-oracles.txt) on 500 random tables: every
  value, F, df, p and 95% interval.  Other confidence levels: McGraw and Wong's (1996)
  formulas for the F-based intervals, with scipy's F quantiles.
* CCC: exact rational arithmetic for the coefficient, Lin's (1989) variance re-derived in
  scipy for the interval, and a seeded simulation of its coverage.
"""

import sys
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from ratings_data import ROOT
from scipy import stats
from sweeps import sweep

import kappalib as kl

sys.path.insert(0, str(ROOT / ".venv" / "oracles"))

# Shrout & Fleiss (1979), Table 2: six targets (rows) rated by four judges (columns)
SHROUT_FLEISS = [
    [9, 2, 5, 8],
    [6, 1, 3, 2],
    [8, 4, 6, 8],
    [7, 1, 2, 6],
    [10, 5, 6, 9],
    [6, 2, 4, 7],
]


def test_shrout_fleiss_worked_example():
    res = kl.icc(SHROUT_FLEISS, layout="units x raters")
    # Table 3: BMS 11.24, WMS 6.26, JMS 32.49, EMS 1.02
    assert (round(res.BMS, 2), round(res.WMS, 2), round(res.JMS, 2), round(res.EMS, 2)) == (
        11.24,
        6.26,
        32.49,
        1.02,
    )
    # Table 4: ICC(1,1) .17, ICC(2,1) .29, ICC(3,1) .71, ICC(1,4) .44, ICC(2,4) .62, ICC(3,4) .91
    assert [round(f.estimate, 2) for f in res.forms] == [0.17, 0.29, 0.71, 0.44, 0.62, 0.91]
    assert res.n_units == 6 and res.n_raters == 4
    # the names: psych's, Shrout-Fleiss', McGraw-Wong's
    assert res["ICC(A,1)"] is res.ICC2 is res["ICC(2,1)"]
    assert res["ICC(C,k)"] is res.ICC3k
    with pytest.raises(KeyError, match="no ICC form named 'ICC4'"):
        res["ICC4"]
    text = repr(res)
    assert "ICC(A,1)" in text and "0.2898" in text and "95% interval" in text


def _pingouin(Y):
    pg = pytest.importorskip("pingouin")
    n, k = Y.shape
    long = pd.DataFrame(
        {"t": np.repeat(np.arange(n), k), "r": np.tile(np.arange(k), n), "y": Y.ravel()}
    )
    with pg.config._no_rounding():  # pingouin rounds its CI95 column to 2 decimals by default
        out = pg.intraclass_corr(data=long, targets="t", raters="r", ratings="y")
    return out.set_index("Type")


PG_NAMES = ["ICC(1,1)", "ICC(A,1)", "ICC(C,1)", "ICC(1,k)", "ICC(A,k)", "ICC(C,k)"]


def _random_table(seed):
    rng = np.random.default_rng(seed)
    n, k = int(rng.integers(3, 40)), int(rng.integers(2, 7))
    truth = rng.normal(0, rng.uniform(0.1, 3.0), size=n)
    bias = rng.normal(0, rng.uniform(0.0, 2.0), size=k)
    Y = truth[:, None] + bias[None, :] + rng.normal(0, 1.0, size=(n, k))
    if seed % 4 == 0:
        Y = np.round(Y * 2)  # ratings on a scale: ties
    return Y


@pytest.mark.filterwarnings("ignore::DeprecationWarning", "ignore::FutureWarning")
@pytest.mark.parametrize("batch", sweep(50, 5))
def test_icc_against_pingouin(batch):
    for seed in range(batch * 10, batch * 10 + 10):
        Y = _random_table(seed)
        pg = _pingouin(Y)
        res = kl.icc(Y, layout="units x raters")
        for form, name in zip(res.forms, PG_NAMES, strict=True):
            row = pg.loc[name]
            assert form.estimate == pytest.approx(row["ICC"], abs=1e-10), (seed, name)
            assert form.F == pytest.approx(row["F"], rel=1e-10)
            assert (form.df1, form.df2) == (row["df1"], row["df2"])
            assert form.pvalue == pytest.approx(row["pval"], rel=1e-8, abs=1e-300)
            lo, hi = row["CI95"]
            assert form.confidence_interval.low == pytest.approx(lo, abs=1e-9), (seed, name)
            assert form.confidence_interval.high == pytest.approx(hi, abs=1e-9), (seed, name)


@pytest.mark.parametrize("level", [0.8, 0.9, 0.99])
def test_icc_interval_at_other_levels(level):
    # McGraw & Wong (1996), Table 7: cases 1 and 3 from F quantiles (scipy)
    for seed in range(20):
        Y = _random_table(seed)
        n, k = Y.shape
        res = kl.icc(Y, layout="units x raters", confidence_level=level)
        q = 1 - (1 - level) / 2
        F1, F3 = res.BMS / res.WMS, res.BMS / res.EMS
        FL = F1 / stats.f.ppf(q, n - 1, n * (k - 1))
        FU = F1 * stats.f.ppf(q, n * (k - 1), n - 1)
        assert res.ICC1.confidence_interval.low == pytest.approx((FL - 1) / (FL + k - 1), abs=1e-9)
        assert res.ICC1.confidence_interval.high == pytest.approx((FU - 1) / (FU + k - 1), abs=1e-9)
        FL = F3 / stats.f.ppf(q, n - 1, (n - 1) * (k - 1))
        FU = F3 * stats.f.ppf(q, (n - 1) * (k - 1), n - 1)
        assert res.ICC3k.confidence_interval.low == pytest.approx(1 - 1 / FL, abs=1e-9)
        assert res.ICC3k.confidence_interval.high == pytest.approx(1 - 1 / FU, abs=1e-9)
        assert res.confidence_level == level


def test_icc_layouts_and_bad_input():
    Y = np.array(SHROUT_FLEISS, dtype=float)
    a = kl.icc(Y, layout="units x raters")
    # a plain array says its layout (issue 30, item 9); a DataFrame is one row per unit
    for other in (kl.icc(Y.T, layout="raters x units"), kl.icc(pd.DataFrame(Y))):
        assert [f.estimate for f in other.forms] == pytest.approx([f.estimate for f in a.forms])
    with pytest.raises(ValueError, match="layout="):
        kl.icc(Y)  # 6 rows, 4 columns: never guessed
    Y[2, 1] = np.nan
    with pytest.raises(ValueError, match=r"missing rating \(unit 2, rater 1\).*dropna"):
        kl.icc(Y, layout="units x raters")
    with pytest.raises(TypeError, match="numeric ratings"):
        kl.icc([["a", "b"], ["b", "b"]], layout="units x raters")
    with pytest.raises(ValueError, match="at least 2 units and 2 raters"):
        kl.icc([[1.0, 2.0]], layout="units x raters")
    with pytest.raises(ValueError, match="confidence_level"):
        kl.icc(SHROUT_FLEISS, layout="units x raters", confidence_level=95)


def test_icc_one_rater_with_decimals_is_not_taken_for_an_id():
    rng = np.random.default_rng(3)
    truth = rng.uniform(0, 10, 20)
    Y = np.column_stack([np.round(truth), np.round(truth + 1), truth + rng.normal(0, 0.3, 20)])
    res = kl.icc(Y, layout="units x raters")
    pg = _pingouin(Y)
    assert res.ICC2.estimate == pytest.approx(pg.loc["ICC(A,1)", "ICC"], abs=1e-10)


def test_icc_degenerate_tables():
    same = kl.icc(np.full((5, 3), 4.0), layout="units x raters")
    assert all(f.estimate is None and f.confidence_interval.low is None for f in same.forms)
    # no residual: raters differ only by a constant; consistency is perfect
    Y = np.arange(5.0)[:, None] + np.array([0.0, 1.0, 3.0])[None, :]
    res = kl.icc(Y, layout="units x raters")
    assert res.ICC3.estimate == 1.0 and res.ICC3k.estimate == 1.0
    # the residual sum of squares is 0 up to rounding (1e-32): F is huge or infinite
    assert res.ICC3.F > 1e15 and res.ICC3.pvalue < 1e-50
    assert res.ICC2.estimate < 1.0


# --- Lin's CCC ----------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(100))
def test_ccc_value_in_exact_fractions(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(3, 30))
    x = rng.integers(0, 20, n)
    y = x + rng.integers(-3, 6, n)
    fx, fy = [Fraction(int(v)) for v in x], [Fraction(int(v)) for v in y]
    mx, my = sum(fx) / n, sum(fy) / n
    sxx = sum((a - mx) ** 2 for a in fx) / n
    syy = sum((b - my) ** 2 for b in fy) / n
    sxy = sum((a - mx) * (b - my) for a, b in zip(fx, fy, strict=True)) / n
    den = sxx + syy + (mx - my) ** 2
    res = kl.lins_ccc(x, y)
    if den == 0:
        assert res.estimate is None
        return
    assert res.estimate == pytest.approx(float(2 * sxy / den), rel=1e-13, abs=1e-15)
    if sxx and syy:
        r = stats.pearsonr(x, y).statistic
        assert res.pearson == pytest.approx(r, rel=1e-12, abs=1e-15)


def test_ccc_interval_by_lins_formula():
    rng = np.random.default_rng(7)
    for _ in range(50):
        n = int(rng.integers(5, 80))
        x = rng.normal(size=n)
        y = 0.8 * x + rng.normal(0.3, 0.5, size=n)
        res = kl.lins_ccc(x, y, confidence_level=0.9)
        # Lin (1989) eq. (7) with Lin (2000): moments over n, Pearson's r from scipy
        r = stats.pearsonr(x, y).statistic
        sx, sy = np.std(x), np.std(y)
        rc = 2 * r * sx * sy / (sx**2 + sy**2 + (x.mean() - y.mean()) ** 2)
        u = (x.mean() - y.mean()) / np.sqrt(sx * sy)
        var = (
            (1 - r**2) * rc**2 / ((1 - rc**2) * r**2)
            + 2 * rc**3 * (1 - rc) * u**2 / (r * (1 - rc**2) ** 2)
            - rc**4 * u**4 / (2 * r**2 * (1 - rc**2) ** 2)
        ) / (n - 2)
        z = stats.norm.ppf(0.95)
        assert res.estimate == pytest.approx(rc, rel=1e-12)
        assert res.confidence_interval.low == pytest.approx(
            np.tanh(np.arctanh(rc) - z * np.sqrt(var)), rel=1e-10
        )
        assert res.confidence_interval.high == pytest.approx(
            np.tanh(np.arctanh(rc) + z * np.sqrt(var)), rel=1e-10
        )
        assert res.accuracy == pytest.approx(rc / r, rel=1e-12)


def test_ccc_interval_covers_about_95_percent():
    # bivariate normal, sd 1 and 1.2, correlation 0.8, means 0 and 0.3: rho_c in closed form
    # (measured with this set-up, on 4000 replicates each: 0.944 at n = 20, 0.942 at 40,
    # 0.950 at 100, 0.946 at 300: slightly below 95% at small n)
    rng = np.random.default_rng(1)
    s1, s2, rho, shift, n = 1.0, 1.2, 0.8, 0.3, 100
    true = 2 * rho * s1 * s2 / (s1**2 + s2**2 + shift**2)
    cov = [[s1**2, rho * s1 * s2], [rho * s1 * s2, s2**2]]
    hits = 0
    reps = 3000
    for _ in range(reps):
        xy = rng.multivariate_normal([0.0, shift], cov, size=n)
        res = kl.lins_ccc(xy[:, 0], xy[:, 1])
        hits += res.confidence_interval.low <= true <= res.confidence_interval.high
    # binomial sd at 3000 replicates is 0.004: within about 3.5 of them
    assert 0.935 <= hits / reps <= 0.965


def test_ccc_bad_input_and_undefined():
    res = kl.lins_ccc([1, 2, 3, 4, 5], [2, 3, 4, 5, 6])
    assert res.pearson == 1.0 and res.estimate == pytest.approx(0.8)
    assert res.confidence_interval.low is not None
    assert kl.lins_ccc([2, 2, 2], [2, 2, 2]).estimate is None
    assert kl.lins_ccc([1, 2, 3], [1, 2, 3]).estimate == 1.0
    assert kl.lins_ccc([1, 2, 3], [1, 2, 3]).confidence_interval.low is None
    with pytest.raises(ValueError, match="same length, got 3 and 2"):
        kl.lins_ccc([1, 2, 3], [1, 2])
    with pytest.raises(ValueError, match="finite numbers, got nan at index 1"):
        kl.lins_ccc([1, np.nan, 3], [1, 2, 3])
    with pytest.raises(TypeError, match="1-D sequence of numbers"):
        kl.lins_ccc(["a", "b"], [1, 2])


@pytest.mark.parametrize("seed", range(30))
def test_icc_and_ccc_invariances(seed):
    # ICCs do not change when every rating is rescaled and shifted, nor when the units or the
    # raters are listed in another order; the CCC is symmetric in its two raters
    Y = _random_table(seed)
    rng = np.random.default_rng(seed)
    base = kl.icc(Y, layout="units x raters")
    a, b = float(rng.uniform(0.1, 50)), float(rng.normal(0, 100))
    moved = kl.icc(a * Y + b, layout="units x raters")
    shuffled = kl.icc(
        Y[rng.permutation(Y.shape[0])][:, rng.permutation(Y.shape[1])], layout="units x raters"
    )
    for other in (moved, shuffled):
        for f, g in zip(base.forms, other.forms, strict=True):
            assert g.estimate == pytest.approx(f.estimate, abs=1e-9)
            assert g.confidence_interval.low == pytest.approx(f.confidence_interval.low, abs=1e-9)
            assert g.confidence_interval.high == pytest.approx(f.confidence_interval.high, abs=1e-9)
    x, y = Y[:, 0], Y[:, 1]
    assert kl.lins_ccc(x, y).estimate == pytest.approx(kl.lins_ccc(y, x).estimate, abs=1e-12)
    assert kl.lins_ccc(a * x + b, a * y + b).estimate == pytest.approx(
        kl.lins_ccc(x, y).estimate, abs=1e-9
    )
