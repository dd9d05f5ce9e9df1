"""More than two raters: parity with the krippendorff package and statsmodels on random
rating data, second formulas, undefined values and bad input.  The published values:
test_multirater_oracles.py; irrCAC: test_parity_irrcac.py.
"""

import warnings

import krippendorff
import numpy as np
import pytest
from matrices import labels_of
from ratings_data import BATCH, cases, read_csv, subjects_by_categories
from ratings_data import case as _case
from statsmodels.stats.inter_rater import aggregate_raters
from statsmodels.stats.inter_rater import fleiss_kappa as sm_fleiss
from sweeps import sweep

import kappalib as kl

N_CASES = 500
LEVELS = ("nominal", "ordinal", "interval", "ratio")


# --- parity with the krippendorff package and statsmodels -------------------------------


@pytest.mark.parametrize("batch", sweep(N_CASES // BATCH, 5))
def test_alpha_all_levels_against_krippendorff_package(batch):
    for seed, data, domain in cases(batch):
        for level in LEVELS:
            theirs = krippendorff.alpha(reliability_data=data, level_of_measurement=level)
            ours = kl.krippendorff_alpha(data, layout="raters x units", level_of_measurement=level)
            assert ours == pytest.approx(theirs, abs=1e-9), (seed, level)
        # a value domain with unused values, and nominal strings
        theirs = krippendorff.alpha(
            reliability_data=data, level_of_measurement="ordinal", value_domain=domain
        )
        assert kl.krippendorff_alpha(
            data, layout="raters x units", level_of_measurement="ordinal", labels=domain
        ) == pytest.approx(theirs, abs=1e-9)
        # the package marks a missing string rating "nan"; kappalib takes None (one rule)
        words = np.where(
            np.isnan(data), "nan", np.char.add("v", np.nan_to_num(data).astype(int).astype(str))
        )
        theirs = krippendorff.alpha(reliability_data=words, level_of_measurement="nominal")
        ours = np.where(np.isnan(data), None, words.astype(object))
        assert kl.krippendorff_alpha(ours, layout="raters x units") == pytest.approx(
            theirs, abs=1e-9
        )


def _count_table(rng):
    N = int(rng.integers(1, 60))
    K = int(rng.integers(2, 7))
    n = int(rng.integers(2, 12))
    share = rng.dirichlet(np.full(K, rng.uniform(0.2, 3.0)), size=N)
    return np.array([rng.multinomial(n, p) for p in share])


# also 9: a count table with no zero (the raw-ratings check); 18: one category used
@pytest.mark.parametrize("batch", sweep(N_CASES // BATCH, 5, also=[9, 18]))
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
        table = kl.rating_table(data, layout="raters x units")
        ours_cats = np.asarray(table.labels)
        assert ours_cats.tolist() == cats.tolist()
        np.testing.assert_array_equal(table, counts)
        assert kl.fleiss_kappa(table) == pytest.approx(sm_fleiss(counts), abs=1e-9)


# (the published values of the shipped data sets: test_multirater_oracles.py)


# --- second formulas ----------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(60))
def test_two_raters_reduce_to_the_two_rater_coefficients(seed):
    rng = np.random.default_rng(seed)
    K = int(rng.integers(2, 5))
    C = rng.integers(0, 6, size=(K, K)) + np.diag(rng.integers(0, 10, size=K))
    if C.sum() == 0 or np.count_nonzero(C.sum(0) + C.sum(1)) < 2:
        return
    table = subjects_by_categories(C)
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
    ratings = np.array(labels_of(C))
    pi = kl.scotts_pi(C)
    assert kl.krippendorff_alpha(ratings, layout="raters x units") == pytest.approx(
        1 - (1 - pi) * (2 * N - 1) / (2 * N)
    )


def test_alpha_invariances():
    data, _ = _case(7)
    base = {
        level: kl.krippendorff_alpha(data, layout="raters x units", level_of_measurement=level)
        for level in LEVELS
    }
    shuffled = data[::-1][:, np.random.default_rng(0).permutation(data.shape[1])]
    for level in LEVELS:
        assert kl.krippendorff_alpha(
            shuffled, layout="raters x units", level_of_measurement=level
        ) == pytest.approx(base[level])
    # interval: any affine map of the values; ratio: any rescaling; ordinal: any monotone map
    assert kl.krippendorff_alpha(
        3 * data - 7, layout="raters x units", level_of_measurement="interval"
    ) == pytest.approx(base["interval"])
    assert kl.krippendorff_alpha(
        2.5 * data, layout="raters x units", level_of_measurement="ratio"
    ) == pytest.approx(base["ratio"])
    assert kl.krippendorff_alpha(
        data**3, layout="raters x units", level_of_measurement="ordinal"
    ) == pytest.approx(base["ordinal"])
    # a rater who rated nothing changes nothing
    extra = np.vstack([data, np.full(data.shape[1], np.nan)])
    assert kl.krippendorff_alpha(extra, layout="raters x units") == pytest.approx(base["nominal"])


def test_gwet_pe_by_hand():
    # Gwet (2014) abstractors: pi = (13, 24, 63)/100 pooled over (rows + columns)/2
    C = np.array([[13, 0, 0], [0, 20, 7], [0, 4, 56]])
    pi = (C.sum(0) + C.sum(1)) / 200
    p_e = (pi * (1 - pi)).sum() / 2
    assert kl.gwet_ac1(C) == pytest.approx((0.89 - p_e) / (1 - p_e), abs=1e-12)


# --- the counting paths: by comparison (span <= 16, < 256 raters), np.bincount, np.unique ---


def _alpha_all_levels(data):
    """kappalib against the krippendorff package at every level (which sorts with np.unique)."""
    for level in LEVELS:
        theirs = krippendorff.alpha(reliability_data=data, level_of_measurement=level)
        assert kl.krippendorff_alpha(
            data, layout="raters x units", level_of_measurement=level
        ) == pytest.approx(theirs, abs=1e-9), level


@pytest.mark.parametrize("values", [5, 20], ids=["compare", "bincount"])
def test_alpha_over_many_blocks_of_units(values):
    """3 raters x 60,000 units: two blocks of the fast path, several slices of the
    coincidence product.  A block or slice counted twice or dropped changes alpha."""
    rng = np.random.default_rng(values)
    truth = rng.integers(1, values + 1, size=60_000)
    data = np.where(
        rng.random((3, 60_000)) < 0.4, rng.integers(1, values + 1, size=(3, 60_000)), truth
    ).astype(float)
    data[rng.random(data.shape) < 0.2] = np.nan
    _alpha_all_levels(data)
    # a value that is not an integer, in the last unit only: found after the first block
    data[0, -1] = 2.5
    _alpha_all_levels(data)


def test_alpha_with_256_or_more_raters():
    """A unit's count no longer fits the byte that the comparison path sums into."""
    rng = np.random.default_rng(256)
    data = rng.integers(1, 4, size=(300, 6)).astype(float)
    data[:, 0] = 2.0  # 300 equal ratings: 300 mod 256 = 44 if a byte overflowed
    data[:5, 1] = np.nan
    _alpha_all_levels(data)
    table = kl.rating_table(data, layout="raters x units")
    assert table[0].tolist() == [0, 300, 0]
    assert table.sum(axis=1).tolist() == [300, 295, 300, 300, 300, 300]


def test_alpha_of_floats_next_to_2_to_the_53():
    """Beyond 2^53 the comparison value 2^53 + 1 rounds to 2^53: counted twice if the count
    check only looked for ratings left over.  Shifted down by 2^53 (exact, and alpha does not
    change at the interval level) the same ratings are small integers."""
    shift = 2.0**53
    small = np.array([[-2, 0, 2, 4, 0, np.nan], [-2, 2, 2, 4, 0, -2], [0, 0, 2, np.nan, 4, -2]])
    big = small + shift
    assert ((big - shift) == small)[~np.isnan(small)].all()  # the shift is exact
    for level in ("nominal", "ordinal", "interval"):
        assert kl.krippendorff_alpha(
            big, layout="raters x units", level_of_measurement=level
        ) == pytest.approx(
            krippendorff.alpha(reliability_data=small, level_of_measurement=level), abs=1e-9
        ), level
    table = kl.rating_table(big, layout="raters x units")
    values = np.asarray(table.labels)
    assert (values - shift).tolist() == [-2, 0, 2, 4]
    assert table.sum() == 16


# --- integer ratings of every dtype, and Python integers beyond 2^53 ---------------------

INT_DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]


def _value_sets(dtype, K):
    """K distinct Python ints of the dtype: at the bottom, at the top, around the middle
    (consecutive: spans of K, so both counting paths) and spread over the whole range."""
    info = np.iinfo(dtype)
    middle = 0 if info.min < 0 else info.max // 2
    spread = [info.min + (info.max - info.min) * i // (K - 1) for i in range(K)]
    return {
        "bottom": [info.min + i for i in range(K)],
        "top": [info.max - K + 1 + i for i in range(K)],
        "middle": [middle - K // 2 + i for i in range(K)],
        "spread": spread,
    }


def _python_counts(rows):
    """The oracle: sorted distinct Python values, and per unit how many raters gave each."""
    values = sorted({v for row in rows for v in row if v is not None})
    return values, [[list(unit).count(c) for c in values] for unit in zip(*rows, strict=True)]


@pytest.mark.parametrize("K", [3, 12, 40], ids=lambda k: f"K{k}")
@pytest.mark.parametrize("dtype", INT_DTYPES, ids=lambda d: np.dtype(d).name)
def test_integer_ratings_of_every_dtype_are_exact(dtype, K):
    """int8's 100 - (-100) overflowed, uint64 values of 2^63 and more became float64 and
    merged (2^63, 2^63 + 1, 2^63 + 2 counted as one value, alpha None), and interval alpha
    on 2^62 + small values saw no differences."""
    rng = np.random.default_rng(K)
    truth = rng.integers(0, K, size=30)
    codes = np.where(rng.random((4, 30)) < 0.5, rng.integers(0, K, size=(4, 30)), truth)
    for where, values in _value_sets(dtype, K).items():
        data = np.array(values, dtype=dtype)[codes]
        rows = data.tolist()  # Python ints, exact
        present, counts = _python_counts(rows)
        table = kl.rating_table(data, layout="raters x units")
        assert list(table.labels) == present and table.tolist() == counts, where
        ranks = np.searchsorted(np.array(present, dtype=dtype), data).astype(float)
        for level in ("nominal", "ordinal"):
            theirs = krippendorff.alpha(reliability_data=ranks, level_of_measurement=level)
            assert kl.krippendorff_alpha(
                data, layout="raters x units", level_of_measurement=level
            ) == pytest.approx(theirs, abs=1e-9)
        # interval: consecutive values are a shift of 0..K-1; spread ones are far apart, so
        # that floats of the values themselves are a fine oracle
        oracle = codes.astype(float) if where != "spread" else data.astype(float)
        theirs = krippendorff.alpha(reliability_data=oracle, level_of_measurement="interval")
        assert kl.krippendorff_alpha(
            data, layout="raters x units", level_of_measurement="interval"
        ) == pytest.approx(theirs, abs=1e-9)
        exact = all(int(float(v)) == v for v in values)
        if np.dtype(dtype).kind == "u" and (exact or where == "spread"):  # ratio: values >= 0
            floats = data.astype(float)  # exact, or far apart
            theirs = krippendorff.alpha(reliability_data=floats, level_of_measurement="ratio")
            assert kl.krippendorff_alpha(
                data, layout="raters x units", level_of_measurement="ratio"
            ) == pytest.approx(theirs, abs=1e-9)


@pytest.mark.parametrize("base", [2**62, 2**63, 2**64 - 10, -(2**63)], ids=str)
def test_python_integers_beyond_2_53_with_missing_ratings(base):
    """A list with None and integers beyond 2^53 went through float64, NaN's type: 2^62 and
    2^62 + 1 became one value."""
    small = [[0, 1, None, 2, 3], [0, 1, 1, None, 3], [1, 1, 2, 0, None]]
    rows = [[None if v is None else base + v for v in row] for row in small]
    nan_small = np.array([[np.nan if v is None else v for v in row] for row in small])
    present, counts = _python_counts(rows)
    table = kl.rating_table(rows, layout="raters x units")
    assert list(table.labels) == present and table.tolist() == counts
    for level in ("nominal", "ordinal", "interval"):
        theirs = krippendorff.alpha(reliability_data=nan_small, level_of_measurement=level)
        assert kl.krippendorff_alpha(
            rows, level_of_measurement=level, layout="raters x units"
        ) == pytest.approx(theirs, abs=1e-9)


def test_pandas_and_other_containers_give_the_arrays_value():
    """A DataFrame iterates over its column labels, not its rows: scanning it for big Python
    integers once raised TypeError ('int' object is not iterable).  A DataFrame is one row
    per unit (pandas' layout), so the frame of the raters x units array is its transpose."""
    pd = pytest.importorskip("pandas")
    data, _ = _case(3)
    expected = kl.krippendorff_alpha(data, level_of_measurement="interval", layout="raters x units")
    table = kl.rating_table(data, layout="raters x units")
    cats = np.asarray(table.labels)
    for container, layout in (
        (pd.DataFrame(data.T), None),
        (pd.DataFrame(data), "raters x units"),
        (list(data), "raters x units"),
        (tuple(map(list, data)), "raters x units"),
        (data.T.tolist(), "units x raters"),
        (data.T, "units x raters"),
    ):
        got = kl.krippendorff_alpha(container, level_of_measurement="interval", layout=layout)
        assert got == pytest.approx(expected)
        got_table = kl.rating_table(container, layout=layout)
        got_cats = np.asarray(got_table.labels)
        assert got_table.tolist() == table.tolist() and got_cats.tolist() == cats.tolist()


def test_integers_no_64_bit_type_holds_raise_one_sentence():
    for rows, words in (
        ([[-1, 2**64 - 1], [1, 2]], "no 64-bit integer type"),
        ([[2**62 + 1, 0.5], [1, 2]], "non-integers such as 0.5"),
        ([[10**400, 0.5], [1, 2]], "non-integers such as 0.5"),
        ([[2**62 + 1, float("inf")], [1, 2]], "non-integers such as inf"),
        ([[2**64, None], [1, 2]], "no 64-bit integer type"),
    ):
        with pytest.raises(ValueError, match=words) as info:
            kl.krippendorff_alpha(rows, layout="raters x units")
        assert "\n" not in str(info.value)


# --- undefined values ---------------------------------------------------------------------


def test_undefined_values():
    same = [[2, 2, 2], [2, 2, np.nan]]
    assert kl.krippendorff_alpha(same, layout="raters x units") is None
    assert np.isnan(
        kl.krippendorff_alpha(same, zero_division=float("nan"), layout="raters x units")
    )
    with pytest.raises(kl.UndefinedMetricError, match="same value"):
        kl.krippendorff_alpha(same, zero_division="raise", layout="raters x units")
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
        kl.krippendorff_alpha([[1, 2, 1], [1, 2, 2]], layout="raters x units"),
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
        ["ratings", "rectangular", "[3, 2]"],
    ),
    ("1-D ratings", lambda: kl.rating_table([1, 2, 3]), ValueError, ["ratings", "(3,)"]),
    (
        "all missing",
        lambda: kl.krippendorff_alpha(
            [[np.nan, np.nan], [np.nan, np.nan]], layout="raters x units"
        ),
        ValueError,
        ["ratings", "no rating", "4"],
    ),
    (
        "no pairable unit",
        lambda: kl.krippendorff_alpha([[1, np.nan], [np.nan, 2]], layout="raters x units"),
        ValueError,
        ["two or more raters", "1"],
    ),
    (
        "interval on strings",
        lambda: kl.krippendorff_alpha(
            [["a", "b"], ["a", "a"]], level_of_measurement="interval", layout="raters x units"
        ),
        TypeError,
        ["level_of_measurement='interval'", "strings", "'a'"],
    ),
    (
        "ordinal strings, no order",
        lambda: kl.krippendorff_alpha(
            [["a", "b"], ["a", "a"]], level_of_measurement="ordinal", layout="raters x units"
        ),
        ValueError,
        ["labels", "order", "'a'"],
    ),
    (
        "unknown level",
        lambda: kl.krippendorff_alpha([[1, 2], [1, 2]], level_of_measurement="metric"),
        ValueError,
        ["level", "'metric'"],
    ),
    (
        "negative ratio",
        lambda: kl.krippendorff_alpha(
            [[-1, 2], [1, 2]], level_of_measurement="ratio", layout="raters x units"
        ),
        ValueError,
        ["ratio", "non-negative", "-1"],
    ),
    (
        "mixed types",
        lambda: kl.rating_table(
            np.array([[1, "a"], [2, "b"]], dtype=object), layout="raters x units"
        ),
        TypeError,
        ["ratings", "mix"],
    ),
    (
        "infinite rating",
        lambda: kl.rating_table([[1, np.inf], [1, 2]], layout="raters x units"),
        ValueError,
        ["ratings", "inf", "(0, 1)"],
    ),
    (
        "rating outside categories",
        lambda: kl.rating_table([[1, 7], [1, 2]], labels=[1, 2], layout="raters x units"),
        ValueError,
        ["7", "labels", "[1, 2]"],
    ),
    (
        "repeated category",
        lambda: kl.rating_table([[1, 2]], labels=[1, 2, 2], layout="raters x units"),
        ValueError,
        ["labels", "repeat"],
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


def test_categories_fix_the_column_order_and_the_ordinal_order():
    data, domain = _case(11)
    table = kl.rating_table(data, layout="raters x units", labels=domain)
    perm = np.random.default_rng(1).permutation(domain.size)
    permuted = kl.rating_table(data, layout="raters x units", labels=domain[perm])
    cats = np.asarray(permuted.labels)
    assert cats.tolist() == domain[perm].tolist()
    np.testing.assert_array_equal(permuted, table[:, perm])
    # the krippendorff package's string example: ordinal words in a given order, 0.815
    _, rows = read_csv("krippendorff2011_example.csv")
    words = ["very low", "low", "mid", "high", "very high"]
    data = [[words[int(v) - 1] if v else None for v in row[1:]] for row in rows]
    assert (
        round(
            kl.krippendorff_alpha(
                data, layout="raters x units", level_of_measurement="ordinal", labels=words
            ),
            3,
        )
        == 0.815
    )
    assert round(kl.krippendorff_alpha(data, layout="raters x units"), 3) == 0.743
