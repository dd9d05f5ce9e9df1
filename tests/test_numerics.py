"""Large counts, dtypes, label kinds and the fast paths of confusion_matrix."""

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score as sk_kappa
from sklearn.metrics import confusion_matrix as sk_confusion

import kappalib as kl


def test_counts_of_a_billion_do_not_overflow():
    C = np.array([[8, 2], [1, 9]], dtype=np.int64) * 10**9
    assert kl.kappa(C) == pytest.approx(0.7, abs=1e-12)
    assert kl.mcc(C) == pytest.approx(kl.mcc([[8, 2], [1, 9]]), abs=1e-12)
    C = np.array([[3 * 10**12, 10**11], [10**10, 2 * 10**12]], dtype=np.int64)
    small = C / 10**10
    assert kl.kappa(C) == pytest.approx(kl.kappa(small), abs=1e-12)
    assert kl.kappa_standard_error(C) == pytest.approx(
        kl.kappa_standard_error(small) / 10**5, rel=1e-9
    )  # the standard error shrinks as 1/sqrt(N): N is 10^10 times larger


def test_int32_and_uint8_and_bool_matrices():
    for dtype in (np.int32, np.uint8, np.float32):
        assert kl.kappa(np.array([[8, 2], [1, 9]], dtype=dtype)) == pytest.approx(0.7)
    assert kl.kappa(np.array([[True, False], [False, True]])) == 1.0


@pytest.mark.parametrize(
    "y1, y2",
    [
        ([5, 7, 7, 9], [7, 7, 5, 5]),  # integers not starting at 0, with a gap (8)
        ([-2, 0, 3], [3, 3, -2]),  # negatives
        ([0, 10**9], [10**9, 0]),  # a huge span: falls back to np.unique
        (np.array([1, 2, 2], dtype=np.uint8), np.array([2, 2, 1], dtype=np.int16)),
        ([True, False, True], [True, True, False]),  # bool labels
    ],
)
def test_confusion_matrix_matches_sklearn_on_label_kinds(y1, y2):
    np.testing.assert_array_equal(kl.confusion_matrix(y1, y2), sk_confusion(y1, y2))
    assert kl.cohen_kappa_score(y1, y2) == pytest.approx(sk_kappa(y1, y2), abs=1e-12)


def test_float_labels():
    # scikit-learn refuses float labels as "continuous"; kappalib counts them like any label
    C = kl.confusion_matrix([1.5, 2.5, 2.5], [2.5, 1.5, 2.5])
    np.testing.assert_array_equal(C, [[0, 1], [1, 1]])


def test_labels_subset_and_order():
    y1, y2 = [1, 2, 3, 3], [1, 3, 3, 2]
    with pytest.warns(UserWarning, match="leaves out 2 of 4 cases"):  # as sklearn, but said
        C = kl.confusion_matrix(y1, y2, labels=[3, 1])
    np.testing.assert_array_equal(C, sk_confusion(y1, y2, labels=[3, 1]))
    assert kl.confusion_matrix(y1, y2).dtype == np.int64
    assert kl.confusion_matrix(y1, y2, sample_weight=[1, 1, 1, 0.5]).dtype == np.float64


def test_zero_sample_weight_keeps_the_label():
    # a label seen only with weight 0 still gets its row and column, as in scikit-learn
    y1, y2, w = [0, 1, 2], [0, 1, 2], [1.0, 1.0, 0.0]
    np.testing.assert_array_equal(
        kl.confusion_matrix(y1, y2, sample_weight=w), sk_confusion(y1, y2, sample_weight=w)
    )


def test_large_integer_vectors_match_sklearn():
    rng = np.random.default_rng(7)
    y1 = rng.integers(0, 5, size=200_000)
    y2 = np.where(rng.random(200_000) < 0.6, y1, rng.integers(0, 5, size=200_000))
    assert kl.cohen_kappa_score(y1, y2) == pytest.approx(sk_kappa(y1, y2), abs=1e-12)
    assert kl.cohen_kappa_score(y1, y2, weighting="quadratic") == pytest.approx(
        sk_kappa(y1, y2, weights="quadratic"), abs=1e-12
    )


@pytest.mark.parametrize("dtype", ["U", "S", "O"])
def test_many_distinct_string_labels_match_sklearn(dtype):
    rng = np.random.default_rng(3)
    pool = np.array([f"label-{i:04d}{'x' * (i % 7)}" for i in range(300)])
    y1 = pool[rng.integers(0, 300, size=5000)]
    y2 = np.where(rng.random(5000) < 0.5, y1, pool[rng.integers(0, 300, size=5000)])
    # scikit-learn refuses bytes labels, so its oracle sees the same labels as str
    oracle = (y1, y2)
    y1, y2 = y1.astype(dtype), y2.astype(dtype)
    np.testing.assert_array_equal(kl.confusion_matrix(y1, y2), sk_confusion(*oracle))
    assert kl.cohen_kappa_score(y1, y2) == pytest.approx(sk_kappa(*oracle), abs=1e-12)


def _exact(C):
    """kappa and MCC in exact rational arithmetic: an oracle free of rounding."""
    from fractions import Fraction

    C = [[Fraction(int(x)) for x in row] for row in C]
    K = len(C)
    N = sum(sum(row) for row in C)
    r = [sum(C[k]) for k in range(K)]
    c = [sum(C[i][k] for i in range(K)) for k in range(K)]
    tr = sum(C[k][k] for k in range(K))
    num = N * tr - sum(r[k] * c[k] for k in range(K))
    den = N * N - sum(r[k] * c[k] for k in range(K))
    var_r = N * N - sum(x * x for x in r)
    var_c = N * N - sum(x * x for x in c)
    return num / den, float(num) / (float(var_r) * float(var_c)) ** 0.5


@pytest.mark.parametrize("seed", range(30))
def test_one_dominant_cell_keeps_full_precision(seed):
    # counts of 10^15 next to counts of 1: the naive N^2 - sum r_k^2 loses every digit
    rng = np.random.default_rng(seed)
    K = int(rng.integers(2, 6))
    C = rng.integers(0, 5, size=(K, K))
    i, j = rng.integers(0, K, size=2)
    C[i, j] = 10**15
    C[0, 0] += 1
    k_exact, m_exact = _exact(C.tolist())
    k, m = kl.kappa(C), kl.mcc(C)
    assert k == pytest.approx(float(k_exact), rel=1e-9, abs=1e-15)
    if m is not None:
        assert m == pytest.approx(m_exact, rel=1e-9, abs=1e-15)


def test_m2_mcc_stays_above_its_limit_at_huge_a():
    # Delgado & Tibau's M2(A) has MCC -> -1/2 from above; A = 10^9 puts 10^18 in one cell
    from kappalib import families

    values = kl.mcc(families.M2(np.array([1e5, 1e7, 1e9])))
    assert np.all(values > -0.5)
    assert np.all(np.diff(values) < 0)
