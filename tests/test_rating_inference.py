"""Standard errors and intervals of the many-rater coefficients (kl.ratings_standard_error,
kl.ratings_confint).

Oracles:
* irrCAC 0.4.4 (Gwet's own package): the analytic standard errors and t-intervals of AC1,
  AC2, Brennan-Prediger (random data with missing ratings) and Fleiss' kappa (complete
  data), 500 cases each, with the finite-population correction on some;
* exact fractions for Fleiss, Nee and Landis' (1979) null standard error, which irrCAC
  does not compute, and for Gwet's variance on a small table;
* scipy.stats.bootstrap (resampling unit indices, and the coefficient recomputed by the
  point-estimate functions on each resample) for the bootstrap over units, within Monte
  Carlo error.
"""

from __future__ import annotations

import math
import sys
import warnings
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
import scipy
from ratings_data import BATCH, ROOT, cases
from scipy import stats
from sweeps import sweep

import kappalib as kl
from kappalib import datasets

sys.path.insert(0, str(ROOT / ".venv" / "oracles"))
from irrCAC.raw import CAC

N_CASES = 500
# irrCAC's conger() calls DataFrame.all(1), which pandas 3 warns about
pytestmark = pytest.mark.filterwarnings("ignore:Starting with pandas version 4.0")
LEVELS = (0.90, 0.95, 0.99)  # irrCAC accepts 0.90 to 0.99 only

# Krippendorff (2011): four observers x twelve units (raters x units), values 1-5, gaps
KRIPPENDORFF = datasets.load("krippendorff2011_example").data


def _irr(data, domain, weights, level, N=np.inf):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return CAC(
            pd.DataFrame(data.T),
            weights=weights,
            categories=domain.tolist(),
            digits=15,
            confidence_level=level,
            N=N,
        )


def _scheme(seed, domain):
    """(irrCAC's weights, our weighting keywords), cycled over the cases."""
    k = seed % 4
    if k == 0:
        return "identity", {}
    if k == 1:
        return "quadratic", {"weighting": "quadratic", "scores": domain}
    if k == 2:
        return "linear", {"weighting": "linear", "scores": domain}
    rng = np.random.default_rng(seed)
    W = rng.uniform(0.1, 3.0, size=(domain.size, domain.size))
    W = (W + W.T) / 2
    np.fill_diagonal(W, 0.0)
    return 1.0 - W / W.max(), {"weighting": W}


def _check(ours_se, ours_ci, est):
    se = float(est["se"])
    assert ours_se == pytest.approx(0.0 if se == 1e-15 else se, abs=1e-9)
    lo, hi = est["confidence_interval"]
    assert ours_ci[0] == pytest.approx(float(lo), abs=1e-8)
    assert ours_ci[1] == pytest.approx(float(hi), abs=1e-8)


@pytest.mark.parametrize("batch", sweep(N_CASES // BATCH, 5))
def test_ac1_ac2_bp_standard_errors_and_intervals_against_irrcac(batch):
    """Random ratings with missing values, every weighting scheme, three levels, and the
    finite-population correction on every third case."""
    for seed, data, domain in cases(batch):
        irr_w, ours_w = _scheme(seed, domain)
        level = LEVELS[seed % 3]
        table = kl.rating_table(data, layout="raters x units", labels=domain)
        n = int((table.sum(axis=1) > 0).sum())
        N = {0: None, 1: n + 7, 2: 3 * n}[seed % 3]
        cac = _irr(data, domain, irr_w, level, np.inf if N is None else N)
        pairs = (("ac1", cac.gwet()), ("bp", cac.bp()), ("fleiss_generalized", cac.fleiss()))
        for coefficient, result in pairs:
            if n < 2:
                continue
            kw = dict(coefficient=coefficient, n_population=N, **ours_w)
            se = kl.ratings_standard_error(table, **kw)
            ci = kl.ratings_confint(table, confidence_level=level, **kw)
            _check(se, ci, result["est"])


@pytest.mark.parametrize("batch", sweep(N_CASES // BATCH, 5))
def test_fleiss_standard_error_and_interval_against_irrcac(batch):
    """Complete data (Fleiss' kappa needs the same number of ratings per unit)."""
    for seed, data, domain in cases(batch, missing=False):
        level = LEVELS[seed % 3]
        table = kl.rating_table(data, layout="raters x units", labels=domain)
        N = None if seed % 2 else 2 * table.shape[0]
        cac = _irr(data, domain, "identity", level, np.inf if N is None else N)
        kw = dict(coefficient="fleiss", n_population=N)
        se = kl.ratings_standard_error(table, **kw)
        ci = kl.ratings_confint(table, confidence_level=level, **kw)
        _check(se, ci, cac.fleiss()["est"])


@pytest.mark.parametrize("batch", sweep(N_CASES // BATCH, 5, also=[31]))  # 31: a rater rates none
def test_conger_standard_error_and_interval_against_irrcac(batch):
    """Conger's kappa (raw ratings: each rater's own margins), missing ratings, weights."""
    checked = 0
    for seed, data, domain in cases(batch):
        if np.isnan(data).all(axis=1).any() or data.shape[1] < 2:
            continue  # a rater without any rating: conger_kappa refuses it
        if int((~np.isnan(data)).any(axis=0).sum()) < 2:
            continue
        irr_w, ours_w = _scheme(seed, domain)
        level = LEVELS[seed % 3]
        n = int((~np.isnan(data)).any(axis=0).sum())
        N = None if seed % 2 else n + 5
        cac = _irr(data, domain, irr_w, level, np.inf if N is None else N)
        kw = dict(
            coefficient="conger",
            layout="raters x units",
            labels=domain,
            n_population=N,
            **ours_w,
        )
        se = kl.ratings_standard_error(data, **kw)
        ci = kl.ratings_confint(data, confidence_level=level, **kw)
        _check(se, ci, cac.conger()["est"])
        checked += 1
    assert checked >= BATCH - 3


def test_published_values_of_irrcac_documentation():
    """irrCAC's documented AC1 (se 0.14295, interval (0.46081, 1)) and Fleiss (se 0.15302,
    interval (0.42438, 1)) for Krippendorff's example; its Fleiss is the generalized one,
    which kappalib's Fleiss (complete units only) refuses."""
    table = kl.rating_table(KRIPPENDORFF, layout="raters x units")
    assert round(kl.ratings_standard_error(table, coefficient="ac1"), 5) == 0.14295
    low, high = kl.ratings_confint(table, coefficient="ac1")
    assert (round(low, 5), high) == (0.46081, 1.0)
    se = kl.ratings_standard_error(table, coefficient="fleiss_generalized")
    low, high = kl.ratings_confint(table, coefficient="fleiss_generalized")
    assert (round(se, 5), round(low, 5), high) == (0.15302, 0.42438, 1.0)
    with pytest.raises(ValueError, match="same number of ratings in every row"):
        kl.ratings_standard_error(table, coefficient="fleiss")


# --- exact arithmetic -------------------------------------------------------------------


def _fnl_null_se_exact(table):
    """Fleiss, Nee & Landis (1979), eq. for var_0, in fractions."""
    N, n = len(table), sum(table[0])
    p = [Fraction(sum(row[k] for row in table), N * n) for k in range(len(table[0]))]
    pq = [pk * (1 - pk) for pk in p]
    s = sum(pq)
    var = Fraction(2, N * n * (n - 1)) * (
        s * s - sum(x * (1 - 2 * pk) for x, pk in zip(pq, p, strict=True))
    )
    return var / (s * s)


def test_fleiss_null_standard_error_is_fleiss_nee_landis_in_fractions():
    diagnoses = kl.datasets.load("fleiss1971_diagnoses").data
    for table in (diagnoses, [[3, 0], [0, 3], [2, 1], [1, 2], [3, 0]], [[1, 1, 0], [0, 2, 0]]):
        exact = _fnl_null_se_exact([[int(v) for v in row] for row in np.asarray(table)])
        ours = kl.ratings_standard_error(table, coefficient="fleiss", null=True)
        assert ours == pytest.approx(math.sqrt(exact), rel=1e-12)
    # Fleiss (1971): kappa 0.430, and z = kappa / se_0 far beyond any critical value
    k = kl.fleiss_kappa(diagnoses)
    z = k / kl.ratings_standard_error(diagnoses, coefficient="fleiss", null=True)
    assert round(k, 3) == 0.430 and round(z, 1) == 17.7


def _gwet_variance_exact(table, coefficient):
    """Gwet (2014, ch. 5) linearization for unweighted AC1 / BP / Fleiss, in fractions."""
    rows = [[Fraction(v) for v in row] for row in table if sum(row) > 0]
    n, K = len(rows), len(rows[0])
    r = [sum(row) for row in rows]
    two = [ri >= 2 for ri in r]
    n2 = sum(two)
    pa_i = [
        sum(x * (x - 1) for x in row) / (ri * (ri - 1)) if t else Fraction(0)
        for row, ri, t in zip(rows, r, two, strict=True)
    ]
    pa = sum(pa_i) / n2
    pi = [sum(row[k] / ri for row, ri in zip(rows, r, strict=True)) / n for k in range(K)]
    if coefficient == "ac1":
        pe = sum(p * (1 - p) for p in pi) / (K - 1)
        pe_i = [
            sum(row[k] / ri * (1 - pi[k]) for k in range(K)) / (K - 1)
            for row, ri in zip(rows, r, strict=True)
        ]
    elif coefficient == "bp":
        pe = Fraction(1, K)
        pe_i = [pe] * n
    else:
        pe = sum(p * p for p in pi)
        pe_i = [sum(row[k] / ri * pi[k] for k in range(K)) for row, ri in zip(rows, r, strict=True)]
    theta = (pa - pe) / (1 - pe)
    x = [
        Fraction(n, n2) * (a - pe * t) / (1 - pe) - 2 * (1 - theta) * (e - pe) / (1 - pe)
        for a, t, e in zip(pa_i, two, pe_i, strict=True)
    ]
    return sum((xi - theta) ** 2 for xi in x) / (n * (n - 1))


@pytest.mark.parametrize("coefficient", ["ac1", "bp", "fleiss"])
def test_gwet_variance_in_fractions(coefficient):
    complete = [[3, 0, 0], [0, 2, 1], [1, 1, 1], [0, 0, 3], [2, 1, 0], [3, 0, 0]]
    missing = [[2, 0, 0], [0, 2, 1], [1, 0, 0], [0, 0, 4], [2, 1, 0], [0, 0, 0], [1, 1, 1]]
    for table in (complete, missing) if coefficient != "fleiss" else (complete,):
        exact = _gwet_variance_exact(table, coefficient)
        ours = kl.ratings_standard_error(table, coefficient=coefficient)
        assert ours == pytest.approx(math.sqrt(exact), rel=1e-12)
        fpc = kl.ratings_standard_error(table, coefficient=coefficient, n_population=40)
        n = sum(1 for row in table if sum(row) > 0)
        assert fpc == pytest.approx(math.sqrt(exact * (1 - Fraction(n, 40))), rel=1e-12)


T_REL = 1e-10 if tuple(int(x) for x in scipy.__version__.split(".")[:2]) >= (1, 15) else 1e-8


def test_t_quantile_against_scipy():
    """The analytic interval's half-width over se is Student's t quantile (n - 1 df)."""
    cases_ = [(2, 0.95), (3, 0.9), (5, 0.99), (12, 0.95), (40, 0.8), (400, 0.999), (2500, 0.99)]
    for n, level in [*cases_, (1999, 0.9995), (6000, 0.95)]:
        table = np.array([[2, 0], [1, 1], [0, 2]] * n)[:n]
        se = kl.ratings_standard_error(table, coefficient="bp")
        est = kl.brennan_prediger_multi(table)
        low, _ = kl.ratings_confint(table, coefficient="bp", confidence_level=level)
        expected = stats.t.ppf((1 + level) / 2, n - 1)
        # scipy < 1.15 (the floor environment's 1.12) computes t quantiles to ~1e-9 only
        assert (est - low) / se == pytest.approx(expected, rel=T_REL), (n, level)


# --- the bootstrap over units, against scipy.stats.bootstrap ---------------------------


def _ratings(seed, n_units=40, raters=4, K=4, missing=0.15):
    rng = np.random.default_rng(seed)
    truth = rng.integers(1, K + 1, size=n_units)
    copy = rng.random((raters, n_units)) < 0.6
    data = np.where(copy, truth, rng.integers(1, K + 1, size=(raters, n_units))).astype(float)
    data[rng.random((raters, n_units)) < missing] = np.nan
    return data


def _scipy_bootstrap(data, point, method, n_resamples=2000, seed=0):
    """scipy resamples unit indices; the coefficient of the resampled units from kappalib's
    point-estimate function (a different code path: the whole coefficient recomputed)."""
    units = np.arange(data.shape[1])

    def statistic(idx):
        return point(data[:, idx.astype(int)])

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return stats.bootstrap(
            (units,),
            statistic,
            vectorized=False,
            n_resamples=n_resamples,
            method=method,
            random_state=np.random.default_rng(seed),
        )


CATS = [1.0, 2.0, 3.0, 4.0]
POINTS = {
    "conger": (
        {"coefficient": "conger"},
        lambda d: kl.conger_kappa(d, layout="raters x units"),
        False,
    ),
    "conger linear": (
        {"coefficient": "conger", "weighting": "linear"},
        lambda d: kl.conger_kappa(d, weighting="linear", layout="raters x units"),
        False,
    ),
    "light": (
        {"coefficient": "light"},
        lambda d: kl.light_kappa(d, layout="raters x units"),
        False,
    ),
    "fleiss generalized": (
        {"coefficient": "fleiss_generalized"},
        lambda d: kl.fleiss_kappa_generalized(
            kl.rating_table(d, labels=CATS, layout="raters x units")
        ),
        True,
    ),
    "alpha nominal": (
        {"coefficient": "alpha"},
        lambda d: kl.krippendorff_alpha(d, layout="raters x units"),
        False,
    ),
    "alpha ordinal": (
        {"coefficient": "alpha", "level_of_measurement": "ordinal"},
        lambda d: kl.krippendorff_alpha(d, level_of_measurement="ordinal", layout="raters x units"),
        False,
    ),
    "alpha interval": (
        {"coefficient": "alpha", "level_of_measurement": "interval"},
        lambda d: kl.krippendorff_alpha(
            d, level_of_measurement="interval", layout="raters x units"
        ),
        False,
    ),
    "ac1": (
        {"coefficient": "ac1"},
        lambda d: kl.gwet_ac1_multi(kl.rating_table(d, labels=CATS, layout="raters x units")),
        True,
    ),
    "ac2 quadratic": (
        {"coefficient": "ac2", "weighting": "quadratic"},
        lambda d: kl.gwet_ac1_multi(
            kl.rating_table(d, labels=CATS, layout="raters x units"), weighting="quadratic"
        ),
        True,
    ),
    "bp": (
        {"coefficient": "bp"},
        lambda d: kl.brennan_prediger_multi(
            kl.rating_table(d, labels=CATS, layout="raters x units")
        ),
        True,
    ),
}


@pytest.mark.parametrize("name", list(POINTS))
def test_bootstrap_over_units_agrees_with_scipy(name):
    kw, point, wants_table = POINTS[name]
    # alpha drops unpairable units and AC1 keeps them: both see units with a single rating
    data = _ratings(7)
    data[1:, :3] = np.nan
    arg = kl.rating_table(data, labels=CATS, layout="raters x units") if wants_table else data
    ref = _scipy_bootstrap(data, point, "percentile")
    if not wants_table:  # raw ratings say their layout (issue 30, item 9)
        kw = {**kw, "layout": "raters x units"}
    se = kl.ratings_standard_error(arg, method="bootstrap", n_resamples=20000, rng=1, **kw)
    low, high = kl.ratings_confint(arg, method="percentile", n_resamples=20000, rng=1, **kw)
    ref_se = float(ref.standard_error)
    assert se == pytest.approx(ref_se, rel=0.08), (se, ref_se)
    assert low == pytest.approx(float(ref.confidence_interval.low), abs=0.25 * ref_se)
    assert high == pytest.approx(float(ref.confidence_interval.high), abs=0.25 * ref_se)


def _binomial_sd(value_of_k, n, a):
    """Exact SD of the coefficient when k ~ Binomial(n, a / n) units are of pattern A."""
    probs = [math.comb(n, k) * (a / n) ** k * (1 - a / n) ** (n - k) for k in range(n + 1)]
    values = [value_of_k(k) for k in range(n + 1)]
    keep = [(p, v) for p, v in zip(probs, values, strict=True) if v is not None]
    total = sum(p for p, _ in keep)
    mean = sum(p * v for p, v in keep) / total
    return math.sqrt(sum(p * (v - mean) ** 2 for p, v in keep) / total)


@pytest.mark.parametrize(
    ("coefficient", "A", "B", "point"),
    [
        ("ac1", [1, 0, 0], [0, 2, 1], kl.gwet_ac1_multi),
        ("bp", [1, 0, 0], [0, 2, 1], kl.brennan_prediger_multi),
        ("fleiss", [3, 0, 0], [0, 2, 1], kl.fleiss_kappa),
    ],
)
def test_bootstrap_of_two_unit_patterns_is_binomial(coefficient, A, B, point):
    """Units of two patterns only: a resample is fixed by the number k of A-units, which is
    Binomial(n, a / n), so the bootstrap SE converges to the SD of the coefficient of those
    n + 1 tables (each computed by the point-estimate function)."""
    n, a = 12, 4
    table = [A] * a + [B] * (n - a)

    def value(k):
        try:
            return point([A] * k + [B] * (n - k))
        except ValueError:  # no unit with two ratings: undefined, left out as by the bootstrap
            return None

    exact = _binomial_sd(value, n, a)
    se = kl.ratings_standard_error(
        table, coefficient=coefficient, method="bootstrap", n_resamples=40000, rng=4
    )
    assert se == pytest.approx(exact, rel=0.02)


def test_alpha_bootstrap_of_two_unit_patterns_is_binomial():
    # raters x units: pattern A = (1, 1, 2), pattern B = (2, 3, nan); one lone rating unit
    A, B = [1.0, 1.0, 2.0], [2.0, 3.0, np.nan]
    n, a = 10, 3

    def data(k):
        return np.array([A] * k + [B] * (n - k) + [[4.0, np.nan, np.nan]]).T

    for level in ("nominal", "ordinal", "interval"):
        exact = _binomial_sd(
            lambda k, lv=level: kl.krippendorff_alpha(
                data(k), level_of_measurement=lv, layout="raters x units"
            ),
            n,
            a,
        )
        se = kl.ratings_standard_error(
            data(a),
            coefficient="alpha",
            level_of_measurement=level,
            method="bootstrap",
            n_resamples=40000,
            rng=5,
            layout="raters x units",
        )
        # alpha's tails are long here (-0.9 at k = 0): the SD of B = 40000 resamples varies
        # by about 1.5% from seed to seed
        assert se == pytest.approx(exact, rel=0.05), level


def test_fleiss_bootstrap_and_bca_agree_with_scipy():
    data = _ratings(11, n_units=30, missing=0.0)

    def point(d):
        return kl.fleiss_kappa(kl.rating_table(d, labels=CATS, layout="raters x units"))

    table = kl.rating_table(data, labels=CATS, layout="raters x units")
    for method, ours_method in (("percentile", "percentile"), ("BCa", "bca")):
        ref = _scipy_bootstrap(data, point, method, n_resamples=3000)
        low, high = kl.ratings_confint(
            table, coefficient="fleiss", method=ours_method, n_resamples=20000, rng=2
        )
        ref_se = float(ref.standard_error)
        assert low == pytest.approx(float(ref.confidence_interval.low), abs=0.25 * ref_se)
        assert high == pytest.approx(float(ref.confidence_interval.high), abs=0.25 * ref_se)


def test_bootstrap_standard_error_near_the_analytic_one_with_many_units():
    """With 400 units the bootstrap and Gwet's linearization estimate the same spread."""
    table = kl.rating_table(
        _ratings(3, n_units=400, missing=0.0), labels=CATS, layout="raters x units"
    )
    for coefficient in ("fleiss", "ac1", "bp"):
        analytic = kl.ratings_standard_error(table, coefficient=coefficient)
        boot = kl.ratings_standard_error(
            table, coefficient=coefficient, method="bootstrap", n_resamples=4000, rng=0
        )
        assert boot == pytest.approx(analytic, rel=0.08), coefficient


def test_bootstrap_is_reproducible_and_accepts_a_generator():
    table = kl.rating_table(_ratings(5), labels=CATS, layout="raters x units")
    a = kl.ratings_confint(table, coefficient="ac1", method="percentile", rng=3, n_resamples=500)
    b = kl.ratings_confint(
        table,
        coefficient="ac1",
        method="percentile",
        rng=np.random.default_rng(3),
        n_resamples=500,
    )
    assert a == b
    assert isinstance(a[0], float) and a[0] < kl.gwet_ac1_multi(table) < a[1]


# --- undefined values and degenerate data ------------------------------------------------


def test_perfect_agreement_gives_zero_width():
    table = [[3, 0], [0, 3], [3, 0], [0, 3]]
    for coefficient in ("fleiss", "ac1", "bp"):
        assert kl.ratings_standard_error(table, coefficient=coefficient) == 0.0
        assert kl.ratings_confint(table, coefficient=coefficient) == (1.0, 1.0)
        assert kl.ratings_confint(
            table, coefficient=coefficient, method="percentile", rng=0, n_resamples=200
        ) == (1.0, 1.0)


def test_undefined_fleiss_follows_the_policy():
    table = [[3, 0], [3, 0], [3, 0]]  # every rating in one category: kappa is 0/0
    assert kl.fleiss_kappa(table) is None
    assert kl.ratings_standard_error(table, coefficient="fleiss") is None
    assert kl.ratings_standard_error(table, coefficient="fleiss", null=True) is None
    assert kl.ratings_confint(table, coefficient="fleiss").low is None
    assert kl.ratings_confint(table, coefficient="fleiss", method="percentile", rng=0).low is None
    nan = kl.ratings_standard_error(table, coefficient="fleiss", zero_division=float("nan"))
    assert math.isnan(nan)
    with pytest.raises(kl.UndefinedMetricError, match="Fleiss' kappa is undefined"):
        kl.ratings_confint(table, coefficient="fleiss", zero_division="raise")
    data = [[1, 1, 1], [1, 1, 1]]
    assert (
        kl.ratings_confint(
            data, coefficient="alpha", method="percentile", rng=0, layout="raters x units"
        ).low
        is None
    )


# --- bad input -----------------------------------------------------------------------------

TABLE = [[2, 1], [0, 3], [3, 0], [1, 2]]


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"coefficient": "cohen"}, ValueError, "coefficient must be 'fleiss'.*got 'cohen'"),
        ({"coefficient": "ac1", "method": "jackknife"}, ValueError, "method must be.*'jackknife'"),
        # issue 34: alpha and Light have analytic standard errors; ordinal alpha has none
        (
            {"coefficient": "alpha", "level_of_measurement": "ordinal"},
            ValueError,
            "ordinal level has no analytic standard error.*method='bootstrap'",
        ),
        (
            {"coefficient": "light", "weighting": "linear", "method": "bootstrap"},
            ValueError,
            "Light",
        ),
        ({"coefficient": "ac2"}, ValueError, "needs weighting="),
        (
            {"coefficient": "fleiss", "weighting": "linear"},
            ValueError,
            "does not apply to Fleiss.*'fleiss_generalized' takes",
        ),
        (
            {"coefficient": "bp", "level_of_measurement": "ordinal"},
            ValueError,
            "level_of_measurement applies to",
        ),
        ({"coefficient": "ac1", "layout": "units x raters"}, ValueError, "count table"),
        ({"coefficient": "ac1", "null": True}, ValueError, "null=True"),
        ({"coefficient": "fleiss", "null": 1}, TypeError, "null must be True or False"),
        ({"coefficient": "ac1", "n_population": 3}, ValueError, "at least the number.*4, got 3"),
        ({"coefficient": "ac1", "n_population": "big"}, TypeError, "n_population must be"),
        (
            {"coefficient": "ac1", "method": "bootstrap", "n_population": 100},
            ValueError,
            "infinite population",
        ),
        ({"coefficient": "ac1", "method": "bootstrap", "n_resamples": 0}, ValueError, "at least 1"),
        ({"coefficient": "ac1", "zero_division": "zero"}, ValueError, "zero_division must be"),
        (
            {
                "coefficient": "alpha",
                "weighting": "linear",
                "level_of_measurement": "interval",
                "method": "bootstrap",
            },
            ValueError,
            "either level_of_measurement or weighting",
        ),
        (
            {"coefficient": "conger", "weighting": "linear", "level_of_measurement": "interval"},
            ValueError,
            "level",
        ),
        ({"coefficient": 3}, ValueError, "coefficient must be"),
    ],
)
def test_bad_input_gets_one_sentence(kwargs, error, match):
    with pytest.raises(error, match=match):
        kl.ratings_standard_error(TABLE, **kwargs)
    if "null" not in kwargs:
        # the interval of the bootstrap's standard error is its percentile interval
        if kwargs.get("method") == "bootstrap":
            kwargs = {**kwargs, "method": "percentile"}
        with pytest.raises(error, match=match.replace("method='bootstrap'", "method='percentile'")):
            kl.ratings_confint(TABLE, **kwargs)


def test_more_bad_input():
    with pytest.raises(ValueError, match="confidence_level must be strictly between 0 and 1"):
        kl.ratings_confint(TABLE, coefficient="ac1", confidence_level=95)
    with pytest.raises(ValueError, match=r"at least 2 rated units.*got 1"):
        kl.ratings_standard_error([[2, 1], [0, 0]], coefficient="ac1")
    with pytest.raises(ValueError, match=r"at least 2 rated units.*got 1"):
        kl.ratings_confint(
            [[1, np.nan, np.nan], [2, 2, 3]],
            coefficient="alpha",
            method="percentile",
            layout="raters x units",
        )
    with pytest.raises(TypeError, match=r"raw ratings go through kl\.rating_table"):
        kl.ratings_confint([["a", "b"], ["a", "a"]], coefficient="fleiss")
    with pytest.raises(TypeError, match="must be raw ratings"):
        kl.ratings_confint(
            kl.rating_table(KRIPPENDORFF, layout="raters x units"),
            coefficient="alpha",
            method="bca",
            layout="raters x units",
        )
    with pytest.raises(TypeError, match="rng must be"):
        kl.ratings_confint(TABLE, coefficient="bp", method="percentile", rng="seed")
