"""kl.labels_from_matrix, the cases behind a matrix, against scikit-learn's confusion_matrix
(which builds the matrix back from the labels) and a plain-Python expansion."""

from collections import Counter

import numpy as np
import pytest
from sklearn.metrics import confusion_matrix as sk_confusion_matrix

import kappalib as kl


@pytest.mark.parametrize("seed", range(40))
def test_scikit_learn_rebuilds_the_matrix(seed):
    rng = np.random.default_rng(seed)
    K = int(rng.integers(2, 7))
    C = rng.integers(0, 12, size=(K, K))
    C[rng.random((K, K)) < 0.3] = 0  # empty cells, and some empty rows or columns
    C[0, 0] += 1  # never all zero
    y1, y2 = kl.labels_from_matrix(C)
    assert len(y1) == len(y2) == C.sum()
    np.testing.assert_array_equal(sk_confusion_matrix(y1, y2, labels=list(range(K))), C)


def test_asymmetric_table_keeps_rows_as_the_first_vector():
    # one case in row 0, column 1: rater 1 said class 0, rater 2 class 1
    y1, y2 = kl.labels_from_matrix([[0, 1], [0, 0]], labels=["a", "b"])
    assert list(y1) == ["a"] and list(y2) == ["b"]


def test_given_labels_count_like_a_plain_python_expansion():
    C = [[5, 5, 0], [5, 78, 6], [0, 7, 3]]
    names = ["mild", "moderate", "severe"]
    y1, y2 = kl.labels_from_matrix(C, labels=names)
    expected = Counter(
        {(names[i], names[j]): C[i][j] for i in range(3) for j in range(3) if C[i][j]}
    )
    assert Counter(zip(y1.tolist(), y2.tolist(), strict=True)) == expected
    # the weighted interval from labels, in the order given, equals the matrix's
    lab = kl.cohen_kappa_confint(y1, y2, labels=names, weighting="quadratic")
    mat = kl.kappa_confint(np.array(C), weighting="quadratic")
    np.testing.assert_allclose(lab, mat, rtol=1e-12)


@pytest.mark.parametrize(
    ("C", "labels", "words"),
    [
        ([[1.5, 0], [0, 2]], None, "whole counts"),
        ([[1, 2, 3], [4, 5, 6]], None, "square"),
        ([[1, -1], [0, 2]], None, "non-negative"),
        (np.ones((3, 2, 2)), None, "one matrix"),
        ([[1, 0], [0, 1]], ["a"], "2 distinct classes"),
        ([[1, 0], [0, 1]], ["a", "a"], "2 distinct classes"),
    ],
)
def test_bad_input_gets_a_sentence(C, labels, words):
    with pytest.raises(ValueError, match=words):
        kl.labels_from_matrix(C, labels=labels)
