"""More than two raters: parity with irrCAC, the krippendorff package and statsmodels on
random rating data, the published values, second formulas, and bad input.

irrCAC 0.4.4 is installed outside site-packages (requirements-oracles.txt explains why), so
its folder goes on sys.path here.  It is always given ``categories=``: under pandas 3 its
default category list picks up NaN as a category (``DataFrame.stack`` keeps NaN now).
"""

import csv
import io
import sys
import warnings
from pathlib import Path

import krippendorff
import numpy as np
import pandas as pd
import pytest
from statsmodels.stats.inter_rater import aggregate_raters
from statsmodels.stats.inter_rater import fleiss_kappa as sm_fleiss

import kappalib as kl

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / ".venv" / "oracles"))
from irrCAC.raw import CAC  # noqa: E402  (after the sys.path line above)

DATA = ROOT / "book" / "data"
N_CASES = 500
BATCH = 10  # cases per test call: 50 calls of 10 keep the report short and the run quick
LEVELS = ("nominal", "ordinal", "interval", "ratio")


def read_csv(name):
    """A book/data CSV: the first line is the provenance comment, the second the header."""
    text = (DATA / name).read_text()
    assert text.startswith("# "), f"{name} must start with a provenance line"
    rows = list(csv.reader(io.StringIO(text.split("\n", 1)[1])))
    return rows[0], rows[1:]


def _case(seed, *, missing=True):
    """Random ratings, raters x units, with agreement that ranges from none to near full."""
    rng = np.random.default_rng(seed)
    R = int(rng.integers(2, 7))
    n = int(rng.integers(4, 40))
    K = int(rng.integers(2, 6))
    domain = np.sort(rng.choice(np.arange(1, 20), size=K, replace=False)).astype(float)
    truth = rng.integers(0, K, size=n)
    copy = rng.random((R, n)) < rng.uniform(0.0, 0.95)
    codes = np.where(copy, truth, rng.integers(0, K, size=(R, n)))
    data = domain[codes]
    if missing:
        data[rng.random((R, n)) < rng.uniform(0.0, 0.4)] = np.nan
    return data, domain


def _valid(data):
    """At least one unit with two ratings and two distinct values, as every oracle needs."""
    pairable = (~np.isnan(data)).sum(axis=0) >= 2
    return pairable.any() and np.unique(data[:, pairable][~np.isnan(data[:, pairable])]).size > 1


def _cases(batch, *, missing=True):
    out, seed = [], batch * 1000
    while len(out) < BATCH:
        data, domain = _case(seed, missing=missing)
        if _valid(data):
            out.append((seed, data, domain))
        seed += 1
    return out


def _irr(data, domain, weights):
    df = pd.DataFrame(data.T)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its t-interval on tiny samples; values are unaffected
        return CAC(df, weights=weights, categories=domain.tolist(), digits=15)


def _value(result):
    return float(result["est"]["coefficient_value"])


# weighting schemes, cycled over the cases: (irrCAC's name or agreement matrix, our
# weighting and scores, the alpha level with the same distance or None)
def _scheme(seed, domain):
    k = seed % 5
    if k == 0:
        return "identity", {}, "nominal"
    if k == 1:
        return "quadratic", {"weighting": "quadratic", "scores": domain}, "interval"
    if k == 2:
        return "linear", {"weighting": "linear", "scores": domain}, None
    if k == 3:
        ratio = ((domain[:, None] - domain[None, :]) / (domain[:, None] + domain[None, :])) ** 2
        return "ratio", {"weighting": ratio}, "ratio"
    rng = np.random.default_rng(seed)
    W = rng.uniform(0.1, 3.0, size=(domain.size, domain.size))
    W = (W + W.T) / 2
    np.fill_diagonal(W, 0.0)
    return 1.0 - W / W.max(), {"weighting": W}, None


# --- parity with irrCAC ------------------------------------------------------------------


@pytest.mark.parametrize("batch", range(N_CASES // BATCH))
def test_ac1_ac2_bp_alpha_against_irrcac(batch):
    for seed, data, domain in _cases(batch):
        irr_w, ours_w, level = _scheme(seed, domain)
        table, cats = kl.rating_table(data, categories=domain)
        assert cats.tolist() == domain.tolist()
        cac = _irr(data, domain, irr_w)
        assert kl.gwet_ac1_multi(table, **ours_w) == pytest.approx(_value(cac.gwet()), abs=1e-9)
        assert kl.brennan_prediger_multi(table, **ours_w) == pytest.approx(
            _value(cac.bp()), abs=1e-9
        )
        if level is None:  # no Krippendorff level has this distance: check nominal instead
            level, cac = "nominal", _irr(data, domain, "identity")
        ours = kl.krippendorff_alpha(data, level=level)
        assert ours == pytest.approx(_value(cac.krippendorff()), abs=1e-9), (seed, level)


@pytest.mark.parametrize("batch", range(N_CASES // BATCH))
def test_fleiss_and_two_rater_ac1_against_irrcac(batch):
    for seed, data, domain in _cases(batch, missing=False):
        table, _ = kl.rating_table(data, categories=domain)
        cac = _irr(data, domain, "identity")
        assert kl.fleiss_kappa(table) == pytest.approx(_value(cac.fleiss()), abs=1e-9)
        # two raters: the confusion matrix of the first two rows, against irrCAC's raw data
        irr_w, ours_w, _ = _scheme(seed, domain)
        pair = data[:2]
        C = kl.confusion_matrix(pair[0], pair[1], labels=domain)
        cac2 = _irr(pair, domain, irr_w)
        assert kl.gwet_ac1(C, **ours_w) == pytest.approx(_value(cac2.gwet()), abs=1e-9)
        assert kl.brennan_prediger(C, **ours_w) == pytest.approx(_value(cac2.bp()), abs=1e-9)


# --- parity with the krippendorff package and statsmodels -------------------------------


@pytest.mark.parametrize("batch", range(N_CASES // BATCH))
def test_alpha_all_levels_against_krippendorff_package(batch):
    for seed, data, domain in _cases(batch):
        for level in LEVELS:
            theirs = krippendorff.alpha(reliability_data=data, level_of_measurement=level)
            ours = kl.krippendorff_alpha(data, level=level)
            assert ours == pytest.approx(theirs, abs=1e-9), (seed, level)
        # a value domain with unused values, and nominal strings
        theirs = krippendorff.alpha(
            reliability_data=data, level_of_measurement="ordinal", value_domain=domain
        )
        assert kl.krippendorff_alpha(data, level="ordinal", categories=domain) == pytest.approx(
            theirs, abs=1e-9
        )
        words = np.where(
            np.isnan(data), "nan", np.char.add("v", np.nan_to_num(data).astype(int).astype(str))
        )
        theirs = krippendorff.alpha(reliability_data=words, level_of_measurement="nominal")
        assert kl.krippendorff_alpha(words) == pytest.approx(theirs, abs=1e-9)


def _count_table(rng):
    N = int(rng.integers(1, 60))
    K = int(rng.integers(2, 7))
    n = int(rng.integers(2, 12))
    share = rng.dirichlet(np.full(K, rng.uniform(0.2, 3.0)), size=N)
    return np.array([rng.multinomial(n, p) for p in share])


@pytest.mark.parametrize("batch", range(N_CASES // BATCH))
def test_fleiss_against_statsmodels(batch):
    for seed in range(batch * BATCH, (batch + 1) * BATCH):
        rng = np.random.default_rng(seed)
        table = _count_table(rng)
        p = table.sum(axis=0) / table.sum()
        if np.isclose(p.max(), 1.0):
            assert kl.fleiss_kappa(table) is None
            continue
        assert kl.fleiss_kappa(table) == pytest.approx(sm_fleiss(table), abs=1e-9)
        # raw ratings through rating_table, against statsmodels' own aggregate_raters
        data, _ = _case(seed, missing=False)
        counts, cats = aggregate_raters(data.T)
        table, ours_cats = kl.rating_table(data)
        assert ours_cats.tolist() == cats.tolist()
        np.testing.assert_array_equal(table, counts)
        assert kl.fleiss_kappa(table) == pytest.approx(sm_fleiss(counts), abs=1e-9)


# --- published values (the CSVs in book/data, so the transcriptions are checked too) -----


def test_krippendorff_2011_example():
    _, rows = read_csv("krippendorff2011_example.csv")
    data = np.array([[float(v) if v else np.nan for v in row[1:]] for row in rows])
    assert data.shape == (4, 12)
    published = {"nominal": 0.743, "ordinal": 0.815, "interval": 0.849, "ratio": 0.797}
    for level, value in published.items():
        assert round(kl.krippendorff_alpha(data, level=level), 3) == value


def test_fleiss_1971_psychiatrists():
    _, rows = read_csv("fleiss1971_diagnoses.csv")
    table = np.array([[int(v) for v in row[1:]] for row in rows])
    assert table.shape == (30, 5) and (table.sum(axis=1) == 6).all()
    assert round(kl.fleiss_kappa(table), 3) == 0.430


def test_gwet_2014_abstractors():
    # irrCAC documents AC1 = 0.84933 and quadratic AC2 = 0.94024 for this table
    _, rows = read_csv("gwet2014_abstractors.csv")
    C = np.array([[int(v) for v in row[1:]] for row in rows])
    assert round(kl.gwet_ac1(C), 5) == 0.84933
    assert round(kl.gwet_ac1(C, weighting="quadratic"), 5) == 0.94024


# --- second formulas ----------------------------------------------------------------------


def _two_rater_table(C):
    """The N x K table of a two-rater confusion matrix: row (i, j) counts one i and one j."""
    C = np.asarray(C)
    K = C.shape[0]
    rows = []
    for i in range(K):
        for j in range(K):
            row = np.zeros(K, dtype=int)
            row[i] += 1
            row[j] += 1
            rows += [row] * int(C[i, j])
    return np.array(rows)


@pytest.mark.parametrize("seed", range(60))
def test_two_raters_reduce_to_the_two_rater_coefficients(seed):
    rng = np.random.default_rng(seed)
    K = int(rng.integers(2, 5))
    C = rng.integers(0, 6, size=(K, K)) + np.diag(rng.integers(0, 10, size=K))
    if C.sum() == 0 or np.count_nonzero(C.sum(0) + C.sum(1)) < 2:
        return
    table = _two_rater_table(C)
    N = C.sum()
    # Fleiss' kappa of two raters is Scott's pi (Fleiss 1971)
    assert kl.fleiss_kappa(table) == pytest.approx(kl.scotts_pi(C), abs=1e-12)
    # unweighted Brennan-Prediger is the K-class PABAK
    assert kl.brennan_prediger(C) == pytest.approx(kl.pabak(C), abs=1e-12)
    assert kl.brennan_prediger(C) == pytest.approx((K * np.trace(C) / N - 1) / (K - 1))
    for weighting in (None, "linear", "quadratic"):
        assert kl.gwet_ac1_multi(table, weighting=weighting) == pytest.approx(
            kl.gwet_ac1(C, weighting=weighting), abs=1e-12
        )
        assert kl.brennan_prediger_multi(table, weighting=weighting) == pytest.approx(
            kl.brennan_prediger(C, weighting=weighting), abs=1e-12
        )
    # nominal alpha = 1 - (1 - pi)(2N - 1)/(2N), and Krippendorff's interval alpha on
    # complete two-rater data equals the same correction of the quadratic-weighted pi
    ratings = np.array(
        [
            np.repeat(np.arange(K), C.sum(1)),
            np.concatenate([np.repeat(np.arange(K), C[i]) for i in range(K)]),
        ]
    )
    pi = kl.scotts_pi(C)
    assert kl.krippendorff_alpha(ratings) == pytest.approx(1 - (1 - pi) * (2 * N - 1) / (2 * N))


def test_alpha_invariances():
    data, _ = _case(7)
    base = {level: kl.krippendorff_alpha(data, level=level) for level in LEVELS}
    shuffled = data[::-1][:, np.random.default_rng(0).permutation(data.shape[1])]
    for level in LEVELS:
        assert kl.krippendorff_alpha(shuffled, level=level) == pytest.approx(base[level])
    # interval: any affine map of the values; ratio: any rescaling; ordinal: any monotone map
    assert kl.krippendorff_alpha(3 * data - 7, level="interval") == pytest.approx(base["interval"])
    assert kl.krippendorff_alpha(2.5 * data, level="ratio") == pytest.approx(base["ratio"])
    assert kl.krippendorff_alpha(data**3, level="ordinal") == pytest.approx(base["ordinal"])
    # a rater who rated nothing changes nothing
    extra = np.vstack([data, np.full(data.shape[1], np.nan)])
    assert kl.krippendorff_alpha(extra) == pytest.approx(base["nominal"])


def test_gwet_pe_by_hand():
    # Gwet (2014) abstractors: pi = (13, 24, 63)/100 pooled over (rows + columns)/2
    C = np.array([[13, 0, 0], [0, 20, 7], [0, 4, 56]])
    pi = (C.sum(0) + C.sum(1)) / 200
    p_e = (pi * (1 - pi)).sum() / 2
    assert kl.gwet_ac1(C) == pytest.approx((0.89 - p_e) / (1 - p_e), abs=1e-12)


# --- undefined values ---------------------------------------------------------------------


def test_undefined_values():
    same = [[2, 2, 2], [2, 2, np.nan]]
    assert kl.krippendorff_alpha(same) is None
    assert np.isnan(kl.krippendorff_alpha(same, zero_division=float("nan")))
    with pytest.raises(kl.UndefinedMetricError, match="same value"):
        kl.krippendorff_alpha(same, zero_division="raise")
    one_class = [[0, 3], [0, 3]]
    assert kl.fleiss_kappa(one_class) is None
    assert kl.fleiss_kappa(one_class, zero_division=0.0) == 0.0
    with pytest.raises(kl.UndefinedMetricError, match="one single category"):
        kl.fleiss_kappa(one_class, zero_division="raise")
    # AC1 and BP stay defined where kappa is not
    assert kl.kappa([[5, 0], [0, 0]]) is None
    assert kl.gwet_ac1([[5, 0], [0, 0]]) == 1.0
    assert kl.brennan_prediger([[5, 0], [0, 0]]) == 1.0


def test_results_are_python_floats_and_stacks_work():
    C = [[13, 0, 0], [0, 20, 7], [0, 4, 56]]
    for value in (
        kl.gwet_ac1(C),
        kl.brennan_prediger(C),
        kl.fleiss_kappa([[1, 2], [3, 0]]),
        kl.krippendorff_alpha([[1, 2, 1], [1, 2, 2]]),
        kl.gwet_ac1_multi([[1, 2], [3, 0]]),
        kl.brennan_prediger_multi([[1, 2], [3, 0]]),
    ):
        assert type(value) is float
    stack = np.array([C, np.array(C).T, np.eye(3) * 5])
    out = kl.gwet_ac1(stack)
    assert out.shape == (3,)
    assert out[1] == pytest.approx(kl.gwet_ac1(np.array(C).T))
    assert kl.brennan_prediger(stack)[2] == 1.0


# --- bad input: one clear sentence --------------------------------------------------------

BAD = [
    (
        "ragged ratings",
        lambda: kl.krippendorff_alpha([[1, 2, 3], [1, 2]]),
        ValueError,
        ["reliability_data", "rectangular", "[3, 2]"],
    ),
    ("1-D ratings", lambda: kl.rating_table([1, 2, 3]), ValueError, ["reliability_data", "(3,)"]),
    (
        "all missing",
        lambda: kl.krippendorff_alpha([[np.nan, np.nan], [np.nan, np.nan]]),
        ValueError,
        ["reliability_data", "no rating", "4"],
    ),
    (
        "no pairable unit",
        lambda: kl.krippendorff_alpha([[1, np.nan], [np.nan, 2]]),
        ValueError,
        ["two or more raters", "1"],
    ),
    (
        "interval on strings",
        lambda: kl.krippendorff_alpha([["a", "b"], ["a", "a"]], level="interval"),
        TypeError,
        ["level='interval'", "strings", "'a'"],
    ),
    (
        "ordinal strings, no order",
        lambda: kl.krippendorff_alpha([["a", "b"], ["a", "a"]], level="ordinal"),
        ValueError,
        ["categories", "order", "'a'"],
    ),
    (
        "unknown level",
        lambda: kl.krippendorff_alpha([[1, 2], [1, 2]], level="metric"),
        ValueError,
        ["level", "'metric'"],
    ),
    (
        "negative ratio",
        lambda: kl.krippendorff_alpha([[-1, 2], [1, 2]], level="ratio"),
        ValueError,
        ["ratio", "non-negative", "-1"],
    ),
    (
        "mixed types",
        lambda: kl.rating_table(np.array([[1, "a"], [2, "b"]], dtype=object)),
        TypeError,
        ["reliability_data", "mix"],
    ),
    (
        "infinite rating",
        lambda: kl.rating_table([[1, np.inf], [1, 2]]),
        ValueError,
        ["reliability_data", "inf", "(0, 1)"],
    ),
    (
        "rating outside categories",
        lambda: kl.rating_table([[1, 7], [1, 2]], categories=[1, 2]),
        ValueError,
        ["7", "categories", "[1, 2]"],
    ),
    (
        "repeated category",
        lambda: kl.rating_table([[1, 2]], categories=[1, 2, 2]),
        ValueError,
        ["categories", "repeat"],
    ),
    (
        "unequal row totals",
        lambda: kl.fleiss_kappa([[3, 0], [1, 1]]),
        ValueError,
        ["table", "same number of ratings", "3", "2", "row 1"],
    ),
    (
        "one rating each",
        lambda: kl.fleiss_kappa([[1, 0], [0, 1]]),
        ValueError,
        ["table", "at least 2 ratings", "1"],
    ),
    (
        "negative count",
        lambda: kl.fleiss_kappa([[3, -1], [1, 1]]),
        ValueError,
        ["table", "non-negative", "-1", "(0, 1)"],
    ),
    (
        "NaN count",
        lambda: kl.gwet_ac1_multi([[3, np.nan], [1, 1]]),
        ValueError,
        ["table", "finite", "nan"],
    ),
    (
        "all-zero table",
        lambda: kl.fleiss_kappa([[0, 0], [0, 0]]),
        ValueError,
        ["table", "all-zero"],
    ),
    ("1-D table", lambda: kl.fleiss_kappa([1, 2, 3]), ValueError, ["table", "(3,)"]),
    ("string table", lambda: kl.fleiss_kappa([["a", "b"]]), TypeError, ["table", "dtype"]),
    ("one category", lambda: kl.gwet_ac1([[5]]), ValueError, ["gwet_ac1", "2 categories", "1"]),
    (
        "bad weighting",
        lambda: kl.brennan_prediger([[1, 2], [3, 4]], weighting="cubic"),
        ValueError,
        ["weighting", "'cubic'"],
    ),
    (
        "multi: no pair",
        lambda: kl.gwet_ac1_multi([[1, 0], [0, 1]]),
        ValueError,
        ["table", "two or more ratings", "1"],
    ),
]


@pytest.mark.parametrize(("call", "exc", "words"), [c[1:] for c in BAD], ids=[c[0] for c in BAD])
def test_bad_input_raises_one_clear_sentence(call, exc, words):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no numpy warning instead of the sentence
        with pytest.raises(exc) as info:
            call()
    message = str(info.value)
    for word in words:
        assert word in message, (word, message)
    assert message.count(". ") == 0 and "\n" not in message
