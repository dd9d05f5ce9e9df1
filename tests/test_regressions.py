"""Regression tests for the silent wrong answers and crashes of issue 12 (and issue 11, part 5).

Each test failed on the code before its fix.  Expected values come from scikit-learn, exact
arithmetic with ``fractions`` or a plain-Python count of pairs, never from kappalib itself.
"""

import contextlib
import inspect
import math
import tracemalloc
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from matrices import labels_of
from sklearn.metrics import cohen_kappa_score as sk_kappa
from sklearn.metrics import matthews_corrcoef as sk_mcc
from test_multirater_oracles import KRIPPENDORFF, _fleiss_exact, _multi_exact, _two_rater_exact

import kappalib as kl


def count_pairs(y1, y2, labels):
    """The confusion matrix by counting pairs of Python values: the oracle."""
    pairs = Counter(zip(y1, y2, strict=True))
    return np.array([[pairs[(a, b)] for b in labels] for a in labels])


def exact_kappa(C):
    C = [[Fraction(int(x)) for x in row] for row in C]
    N = sum(map(sum, C))
    r = [sum(row) for row in C]
    c = [sum(col) for col in zip(*C, strict=True)]
    p_o = sum(C[k][k] for k in range(len(C))) / N
    p_e = sum(a * b for a, b in zip(r, c, strict=True)) / N**2
    return (p_o - p_e) / (1 - p_e)


def exact_mcc(C):
    C = [[Fraction(int(x)) for x in row] for row in C]
    N = sum(map(sum, C))
    r = [sum(row) for row in C]
    c = [sum(col) for col in zip(*C, strict=True)]
    t = sum(C[k][k] for k in range(len(C)))
    num = N * t - sum(a * b for a, b in zip(r, c, strict=True))
    den2 = (N * N - sum(a * a for a in r)) * (N * N - sum(b * b for b in c))
    return float(num) / math.sqrt(den2)


def exact_scotts_pi(C):
    C = [[Fraction(int(x)) for x in row] for row in C]
    N = sum(map(sum, C))
    K = len(C)
    m = [sum(C[k]) + sum(C[i][k] for i in range(K)) for k in range(K)]
    p_o = sum(C[k][k] for k in range(K)) / N
    p_e = sum((x / (2 * N)) ** 2 for x in m)
    return (p_o - p_e) / (1 - p_e)


# --- fix 1: narrow integer labels overflowed in the small-span fast path ------------------------


@pytest.mark.parametrize(
    "dtype, values",
    [(np.int16, [-20000, 20000]), (np.int8, [-128, 127]), (np.int8, [-100, 0, 100])],
    ids=["int16 +-20000", "int8 extremes", "int8 three"],
)
@pytest.mark.parametrize("weighted", [False, True], ids=["counts", "sample_weight"])
def test_narrow_integer_labels_do_not_overflow(dtype, values, weighted):
    rng = np.random.default_rng(12)
    y1 = rng.choice(values, size=40).astype(dtype)
    y2 = np.where(rng.random(40) < 0.5, y1, rng.choice(values, size=40)).astype(dtype)
    w = rng.uniform(0.5, 2.0, size=40) if weighted else None
    a, b = y1.astype(np.int64), y2.astype(np.int64)  # what scikit-learn sees, no overflow
    for labels in (None, values):
        ours = kl.cohen_kappa_score(y1, y2, labels=labels, sample_weight=w)
        assert ours == pytest.approx(sk_kappa(a, b, labels=labels, sample_weight=w), abs=1e-12)
        ours = kl.matthews_corrcoef(y1, y2, labels=labels, sample_weight=w)
        assert ours == pytest.approx(sk_mcc(a, b, sample_weight=w), abs=1e-12)


def test_int8_extremes_give_the_right_matrix():
    y1 = np.array([-128, 127, -128, 127], dtype=np.int8)
    y2 = np.array([-128, -128, 127, 127], dtype=np.int8)
    C = kl.confusion_matrix(y1, y2, labels=[-128, 127])
    expected = count_pairs(y1.tolist(), y2.tolist(), [-128, 127])
    np.testing.assert_array_equal(C, expected)
    assert kl.cohen_kappa_score(y1, y2) == 0.0


# --- fix 2: memory follows the number of distinct labels, not their span ------------------------


def _peak_bytes(fn):
    tracemalloc.start()
    try:
        result = fn()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return result, peak


@pytest.mark.parametrize("hi", [65535, 8000, 10**6, 2**40, 2**62], ids=str)
def test_wide_span_costs_no_span_squared_memory(hi):
    value, peak = _peak_bytes(lambda: kl.cohen_kappa_score([0, hi, hi], [hi, 0, hi]))
    assert value == pytest.approx(sk_kappa([0, hi, hi], [hi, 0, hi]), abs=1e-12)
    assert peak < 16 * 2**20  # the old code allocated span^2 cells: 488 MiB at a span of 8000


def test_span_of_a_million_over_few_labels():
    rng = np.random.default_rng(3)
    pool = np.array([0, 250_000, 500_000, 999_999])
    y1 = rng.choice(pool, size=5000)
    y2 = np.where(rng.random(5000) < 0.6, y1, rng.choice(pool, size=5000))
    C, peak = _peak_bytes(lambda: kl.confusion_matrix(y1, y2))
    np.testing.assert_array_equal(C, count_pairs(y1.tolist(), y2.tolist(), pool.tolist()))
    assert peak < 16 * 2**20


# --- fix 4: uint64 labels of 2^63 and above -----------------------------------------------------


def test_uint64_labels_above_2_63():
    big = [2**63, 2**64 - 1, 2**63 + 5]
    y1 = np.array([big[0], big[1], big[2], big[0]], dtype=np.uint64)
    y2 = np.array([big[0], big[0], big[2], big[1]], dtype=np.uint64)
    labels = sorted(big)
    np.testing.assert_array_equal(
        kl.confusion_matrix(y1, y2), count_pairs(y1.tolist(), y2.tolist(), labels)
    )
    np.testing.assert_array_equal(
        kl.confusion_matrix(y1, y2, labels=labels[::-1]),
        count_pairs(y1.tolist(), y2.tolist(), labels[::-1]),
    )


def test_uint64_against_negative_int64():
    """The two dtypes have no common integer type: no float rounding may merge labels."""
    y1 = np.array([2**63 + 1, 2**63, 0], dtype=np.uint64)
    y2 = np.array([-1, 0, -1], dtype=np.int64)
    labels = [-1, 0, 2**63, 2**63 + 1]
    np.testing.assert_array_equal(
        kl.confusion_matrix(y1, y2), count_pairs(y1.tolist(), y2.tolist(), labels)
    )


# --- fix 5: extreme scales keep the float-or-None contract --------------------------------------

BASE = np.array([[8, 2, 1], [1, 9, 3], [2, 0, 6]])


@pytest.mark.parametrize("scale", [1e-300, 1e-200, 1e-77, 1e77, 1e154, 1e200, 1e300], ids=str)
def test_statistics_are_scale_free_at_extreme_scales(scale):
    C = BASE * scale
    assert kl.kappa(C) == pytest.approx(float(exact_kappa(BASE)), rel=1e-12)
    assert kl.mcc(C) == pytest.approx(exact_mcc(BASE), rel=1e-12)
    assert kl.scotts_pi(C) == pytest.approx(float(exact_scotts_pi(BASE)), rel=1e-12)
    assert kl.observed_agreement(C) == pytest.approx(23 / 32, rel=1e-12)
    N, r, c = 32, BASE.sum(axis=1), BASE.sum(axis=0)
    assert kl.expected_agreement(C) == pytest.approx(float(r @ c) / N**2, rel=1e-12)
    assert kl.pabak(C) == pytest.approx((3 * 23 / 32 - 1) / 2, rel=1e-12)
    for name in ("kappa_max", "off_diagonal_entropy"):
        value = getattr(kl, name)(C)
        assert value == pytest.approx(getattr(kl, name)(BASE.astype(float)), rel=1e-12), name
    assert kl.kappa(C, weighting="quadratic") == pytest.approx(
        sk_kappa(*labels_of(BASE), weights="quadratic"), rel=1e-12
    )
    asy = math.sqrt(
        sum((float(a) - float(b)) ** 2 for a, b in zip(BASE.ravel(), BASE.T.ravel(), strict=True))
    )
    assert kl.asymmetry(C) == pytest.approx(asy * scale, rel=1e-12)
    np.testing.assert_allclose(
        kl.expected_counts(C), np.outer(r, c) / N * scale, rtol=1e-12, atol=0
    )


def test_scale_free_in_a_stack_of_mixed_scales():
    stack = np.stack([BASE * 1e-250, BASE * 1.0, BASE * 1e250])
    np.testing.assert_allclose(kl.mcc(stack), [exact_mcc(BASE)] * 3, rtol=1e-12)
    np.testing.assert_allclose(kl.kappa(stack), [float(exact_kappa(BASE))] * 3, rtol=1e-12)


def test_mcc_of_one_tiny_row_is_defined():
    """Each variance is ~1e-200; their product underflows, their square roots do not."""
    C = np.array([[1.0, 1e-200], [1e-200, 1e-200]])
    num = 1.0 * 1e-200 - 1e-200 * 1e-200
    den = math.sqrt(1 + 1e-200) * math.sqrt(2e-200) * math.sqrt(1 + 1e-200) * math.sqrt(2e-200)
    assert kl.mcc(C) == pytest.approx(num / den, rel=1e-9)


# --- fix 6: Scott's pi without cancellation ------------------------------------------------------


def test_scotts_pi_with_one_dominant_cell():
    C = [[10**15, 1], [3, 2]]
    assert kl.scotts_pi(C) == pytest.approx(float(exact_scotts_pi(C)), rel=1e-12, abs=0)
    C = [[10**17, 5], [7, 11]]
    assert kl.scotts_pi(C) == pytest.approx(float(exact_scotts_pi(C)), rel=1e-12, abs=0)


# --- fix 8: scikit-learn's keyword ---------------------------------------------------------------


@pytest.mark.parametrize("weights", ["linear", "quadratic"])
def test_sklearn_weights_keyword(weights):
    y1, y2 = [1, 2, 3, 1, 3, 2], [1, 3, 3, 2, 3, 1]
    assert kl.cohen_kappa_score(y1, y2, weighting=weights) == pytest.approx(
        sk_kappa(y1, y2, weights=weights), abs=1e-12
    )


# --- the hash-collision fallback of the string fast path ----------------------------------------


def test_string_hash_collision_falls_back_to_the_sort():
    """'\\x00' + chr(1000003) and '\\x01' hash alike (1000003 * 1 + 0 = 0 * 1000003 + 1000003)."""
    s1, s2 = "\x00" + chr(1_000_003), "\x01"
    y1 = np.array([s1, s2, s1, s2, "z"])
    y2 = np.array([s1, s1, s2, s2, "z"])
    labels = sorted({s1, s2, "z"})
    np.testing.assert_array_equal(
        kl.confusion_matrix(y1, y2), count_pairs(y1.tolist(), y2.tolist(), labels)
    )


# --- issue 11, part 5: label sequences passed to a matrix function ------------------------------

MATRIX_FUNCTIONS = [
    "asymmetry",
    "bias_index",
    "expected_agreement",
    "expected_counts",
    "kappa",
    "kappa_confint",
    "kappa_max",
    "kappa_standard_error",
    "mcc",
    "observed_agreement",
    "off_diagonal_entropy",
    "pabak",
    "prevalence_index",
    "scotts_pi",
]
TARGET = {"kappa": "cohen_kappa_score", "mcc": "matthews_corrcoef"}


@pytest.mark.parametrize("name", MATRIX_FUNCTIONS)
def test_two_label_sequences_point_to_the_label_level_function(name):
    with pytest.raises(TypeError) as info:
        getattr(kl, name)(["a", "b"], ["a", "a"])
    message = str(info.value)
    assert f"kl.{TARGET.get(name, 'confusion_matrix')}(y1, y2)" in message
    assert name in message and "\n" not in message


@pytest.mark.parametrize("name", ["kappa", "mcc", "scotts_pi"])
def test_one_label_sequence_points_there_too(name):
    with pytest.raises(ValueError, match=r"kl\.confusion_matrix\(y1, y2\)"):
        getattr(kl, name)([0, 1, 1])
    with pytest.raises(TypeError, match=r"kl\.cohen_kappa_score\(y1, y2\)"):
        getattr(kl, name)([["a", "b"], ["b", "a"]])


def _takes_c(name):
    f = getattr(kl, name)
    if inspect.isclass(f) or not callable(f) or getattr(f, "__deprecated__", None):
        return False  # a deprecated alias calls the new name, which is tested
    return next(iter(inspect.signature(f).parameters), None) == "C"


@pytest.mark.parametrize("name", sorted(n for n in kl.__all__ if _takes_c(n)))
def test_every_public_matrix_function_points_the_way(name):
    """A matrix function added later gets the same message (decorate it with matrix_function)."""
    with pytest.raises(TypeError, match=r"kl\.\w+\(y1, y2\)"):
        getattr(kl, name)([0, 1], [1, 1])
    assert set(MATRIX_FUNCTIONS) <= {n for n in kl.__all__ if _takes_c(n)}


# --- inputs longer than one chunk (the label codes are computed a million cases at a time) -----


@pytest.mark.parametrize("path", ["joint ints", "wide ints", "floats", "<U", "object", "uint64"])
def test_inputs_longer_than_one_chunk(path):
    n = 2_200_000
    rng = np.random.default_rng(7)
    i1 = rng.integers(0, 4, size=n)
    i2 = np.where(rng.random(n) < 0.6, i1, rng.integers(0, 4, size=n))
    pool = {
        "joint ints": np.array([3, 5, 7, 9]),
        "wide ints": np.array([-(10**5), 0, 10**5, 10**9]),
        "floats": np.array([-1.5, 0.25, 2.0, 1e300]),
        "<U": np.array(["a", "bb", "ccc", "dddd"]),
        "object": np.array(["a", "bb", "ccc", "dddd"], dtype=object),
        "uint64": np.array([2**63, 2**63 + 1, 2**64 - 2, 2**64 - 1], dtype=np.uint64),
    }[path]
    y1, y2 = pool[i1], pool[i2]
    w = rng.uniform(0, 2, size=n)
    labels = pool[[2, 0, 1]].tolist()  # drops one label, reorders the rest
    codes = {v: k for k, v in enumerate(labels)}
    expected = np.zeros((3, 3))
    expected_w = np.zeros((3, 3))
    keep = (i1 != 3) & (i2 != 3)
    to_code = np.array([codes.get(v, -1) for v in pool.tolist()])
    a = to_code[i1[keep]]
    b = to_code[i2[keep]]
    np.add.at(expected, (a, b), 1)
    np.add.at(expected_w, (a, b), w[keep])
    # the cases left out are said, with their count (issue 30, item 13)
    said = f"leaves out {int((~keep).sum())} of {n} cases"
    with pytest.warns(UserWarning, match=said) if not keep.all() else contextlib.nullcontext():
        C = kl.confusion_matrix(y1, y2, labels=labels)
        C_w = kl.confusion_matrix(y1, y2, labels=labels, sample_weight=w)
    np.testing.assert_array_equal(C, expected)
    np.testing.assert_allclose(C_w, expected_w, rtol=1e-12)
    full = np.zeros((4, 4))
    np.add.at(full, (i1, i2), 1)
    np.testing.assert_array_equal(kl.confusion_matrix(y1, y2), full)


def test_python_int_lists_beyond_float_precision():
    """np.asarray([0, 2**64 - 4]) is float64, which would round the label to 2**64."""
    y1, y2 = [0, 2**64 - 4, 2**53 + 1], [2**64 - 4, 2**64 - 4, 2**53]
    labels = sorted(set(y1) | set(y2))
    np.testing.assert_array_equal(kl.confusion_matrix(y1, y2), count_pairs(y1, y2, labels))


def test_numpy_integer_scalars_in_a_list_beyond_float_precision():
    """np.asarray([np.uint64(2**63), np.uint64(2**63 + 1), np.int64(3)]) is float64 too:
    the two large labels were counted as one (a 2 x 2 matrix for three labels)."""
    y1 = [np.uint64(2**63), np.uint64(2**63 + 1), np.int64(3), np.uint64(2**63)]
    y2 = [np.uint64(2**63 + 1), np.uint64(2**63 + 1), np.int64(3), np.uint64(2**63)]
    py1, py2 = [int(v) for v in y1], [int(v) for v in y2]
    labels = sorted(set(py1) | set(py2))
    np.testing.assert_array_equal(kl.confusion_matrix(y1, y2), count_pairs(py1, py2, labels))
    table = kl.rating_table([y1, y2], layout="raters x units")
    assert list(table.labels) == labels
    assert table.tolist() == [[0, 1, 1], [0, 0, 2], [2, 0, 0], [0, 2, 0]]  # by hand, per unit


# --- the contract for the Part V and chapter 11 functions (issues 15, 16) ----------------------
# Oracles: Gwet's formulas in exact arithmetic (test_multirater_oracles.py), the invariances
# that define each statistic, and se(sC) = se(C) / sqrt(s), which holds because the FCE
# variance is a function of the proportions divided by N.

SCALES = [1e-300, 1e-200, 1e-77, 1e77, 1e154, 1e200, 1e300]


@pytest.mark.parametrize("scale", SCALES, ids=str)
@pytest.mark.parametrize("kind", [None, "linear", "quadratic"])
def test_two_rater_ac1_and_bp_are_scale_free(scale, kind):
    ac, bp = _two_rater_exact(BASE.tolist(), kind)
    C = BASE * scale
    assert kl.gwet_ac1(C, weighting=kind) == pytest.approx(float(ac), rel=1e-12)
    assert kl.brennan_prediger(C, weighting=kind) == pytest.approx(float(bp), rel=1e-12)
    stack = np.stack([BASE * 1e-250, BASE * 1.0, C])
    np.testing.assert_allclose(kl.gwet_ac1(stack, weighting=kind), [float(ac)] * 3, rtol=1e-12)


@pytest.mark.parametrize("scale", [1e77, 1e154, 1e200, 1e300], ids=str)
def test_multi_rater_tables_with_huge_counts(scale):
    """A count table is not scale-free (n raters per unit enter as n (n - 1)), but huge
    counts must still give the exact value, with no overflow warning or NaN."""
    T = np.array([[3, 1, 0], [0, 4, 0], [2, 1, 1], [0, 0, 4], [1, 3, 0]]) * scale
    exact = [[Fraction(float(x)) for x in row] for row in T]
    with np.errstate(all="raise"):
        assert kl.fleiss_kappa(T) == pytest.approx(float(_fleiss_exact(exact)), rel=1e-12)
        ac, bp = _multi_exact(exact, None)
        assert kl.gwet_ac1_multi(T) == pytest.approx(float(ac), rel=1e-12)
        assert kl.brennan_prediger_multi(T) == pytest.approx(float(bp), rel=1e-12)


@pytest.mark.parametrize("scale", [1e-300, 1e-77], ids=str)
def test_multi_rater_tables_with_tiny_counts_raise_one_sentence(scale):
    T = np.array([[3, 1, 0], [0, 4, 0], [2, 1, 1]]) * scale
    for f in (kl.fleiss_kappa, kl.gwet_ac1_multi, kl.brennan_prediger_multi):
        with pytest.raises(
            ValueError, match=r"two or more ratings|at least 2 ratings|whole numbers"
        ) as info:
            f(T)
        assert "\n" not in str(info.value)


@pytest.mark.parametrize("scale", [1e-300, 1e-100, 1e100, 1e300], ids=str)
def test_krippendorff_alpha_at_extreme_values(scale):
    """Interval and ratio alpha do not change when the values are multiplied by a constant;
    nominal and ordinal depend only on which values are equal and on their order.  Values of
    1e-300 used to pass the integer fast path as integers (1e-300 + 2.0 == 2.0) and give None."""
    data = np.array(KRIPPENDORFF)
    for level in ("nominal", "ordinal", "interval", "ratio"):
        expected = kl.krippendorff_alpha(data, level_of_measurement=level, layout="raters x units")
        assert kl.krippendorff_alpha(
            data * scale, level_of_measurement=level, layout="raters x units"
        ) == pytest.approx(expected, rel=1e-12), level


def test_krippendorff_alpha_of_non_integers_next_to_integers():
    """Half-integers keep their own values (the fast path's integer check)."""
    data = np.array([[0.5, 1.0, 2.0, 0.5], [0.5, 1.0, 2.5, 1.0]])
    words = np.array([["a", "b", "c", "a"], ["a", "b", "d", "b"]])
    assert kl.krippendorff_alpha(data, layout="raters x units") == pytest.approx(
        kl.krippendorff_alpha(words, layout="raters x units"), rel=1e-12
    )


@pytest.mark.parametrize("scale", SCALES, ids=str)
@pytest.mark.parametrize("null", [False, True])
def test_standard_error_scales_as_one_over_root_n(scale, null):
    if scale < 1:  # a fractional table has lost its N: refused (issue 30, item 12)
        with pytest.raises(ValueError, match="needs counts of cases"):
            kl.kappa_standard_error(BASE * scale, null=null)
        return
    se = kl.kappa_standard_error(BASE, null=null)
    assert kl.kappa_standard_error(BASE * scale, null=null) == pytest.approx(
        se / math.sqrt(scale), rel=1e-12
    )
    weighted = kl.kappa_standard_error(BASE, weighting="quadratic", null=null)
    assert kl.kappa_standard_error(BASE * scale, weighting="quadratic", null=null) == pytest.approx(
        weighted / math.sqrt(scale), rel=1e-12
    )


def test_bootstrap_of_more_cases_than_numpy_can_draw():
    for C in ([[8e20, 2e20], [1e20, 9e20]], [[1e300, 0], [0, 1e300]]):
        with pytest.raises(ValueError, match=r"fewer than 2\*\*63 cases") as info:
            kl.bootstrap_confint(C, n_resamples=10, rng=0)
        assert "\n" not in str(info.value)


def test_sample_size_at_extreme_inputs():
    base = kl.kappa_sample_size(0.5, [1, 3], half_width=0.1)
    with np.errstate(all="raise"):
        assert kl.kappa_sample_size(0.5, [1e308, 1e308], half_width=0.1) == (
            kl.kappa_sample_size(0.5, [1, 1], half_width=0.1)
        )
        assert kl.kappa_sample_size(0.5, [1e-300, 3e-300], half_width=0.1) == base
    # N = z^2 v / h^2 grows as 1/h^2: h = 1e-200 needs about base * 1e398 cases, an int
    tiny = kl.kappa_sample_size(0.5, [1, 3], half_width=1e-200)
    assert isinstance(tiny, int)
    assert float(Fraction(tiny, 10**400)) == pytest.approx(base / 100, rel=1e-2)


def test_new_functions_return_python_floats():
    C = BASE.tolist()
    T = [[3, 1, 0], [0, 4, 0], [2, 1, 1]]
    for value in (
        kl.gwet_ac1(C),
        kl.brennan_prediger(C),
        kl.fleiss_kappa(T),
        kl.gwet_ac1_multi(T),
        kl.brennan_prediger_multi(T),
        kl.krippendorff_alpha(KRIPPENDORFF, layout="raters x units"),
        kl.kappa_standard_error(C, null=True),
        *kl.bootstrap_confint(C, n_resamples=50, rng=0),
        *kl.paired_difference_confint(
            [0, 1, 1, 0], [0, 1, 0, 0], [0, 1, 1, 1], n_resamples=50, rng=0
        ),
    ):
        assert type(value) is float
    assert type(kl.kappa_sample_size(0.5, [1, 1], half_width=0.1)) is int


BAD_NEW = [
    (lambda: kl.fleiss_kappa([[1, float("nan")], [1, 1]]), ValueError, "finite counts, got nan"),
    (lambda: kl.fleiss_kappa([[1, -1], [1, 1]]), ValueError, "non-negative counts, got -1.0"),
    (
        lambda: kl.rating_table([[1, float("inf")]], layout="raters x units"),
        ValueError,
        "got inf at index (0, 1)",
    ),
    (lambda: kl.gwet_ac1([[3]]), ValueError, "at least 2 categories, got 1"),
    (lambda: kl.fleiss_kappa([[2, 0]], zero_division="warn"), ValueError, "got 'warn'"),
    (
        lambda: kl.krippendorff_alpha([[1, 2]], level_of_measurement="cardinal"),
        ValueError,
        "'cardinal'",
    ),
    (lambda: kl.kappa_standard_error(BASE, null="yes"), TypeError, "got 'yes'"),
    (lambda: kl.kappa_sample_size(0.5, [1, 1], half_width=0), ValueError, "got 0"),
]


@pytest.mark.parametrize(("call", "exc", "words"), BAD_NEW)
def test_new_functions_bad_input_one_sentence(call, exc, words):
    with pytest.raises(exc) as info:
        call()
    message = str(info.value)
    assert words in message and "\n" not in message and "np.float64" not in message
