"""Issue 30, item 15: a pandas Categorical is read through its codes and its categories.

Before, kappalib turned a Categorical of 10^7 strings into 10^7 Python objects (13.9 s,
1.95 GiB; ``make bench`` has the row).  Here, without any timing: the Categorical is never
decoded element by element (its ``__array__`` is made to fail), and every result equals
scikit-learn's on the decoded strings (the oracle), with different or unused categories, a
``labels`` list, weights, an ordered Categorical, a missing value and a missing-value token.
"""

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score, confusion_matrix

import kappalib as kl

pd = pytest.importorskip("pandas")

RNG = np.random.default_rng(30)
NAMES = ["mild", "moderate", "none", "severe"]
A = RNG.choice(NAMES, size=200)
B = np.where(RNG.random(200) < 0.6, A, RNG.choice(NAMES, size=200))


@pytest.fixture
def no_decoding(monkeypatch):
    """A Categorical that is turned into an array of its values fails the test."""

    def refuse(self, *args, **kwargs):
        raise AssertionError("the Categorical was decoded element by element")

    monkeypatch.setattr(pd.Categorical, "__array__", refuse)


@pytest.mark.parametrize(
    "cats2",
    [NAMES, NAMES[::-1], [*NAMES, "unused"], ["severe", "none", "moderate", "mild", "x"]],
    ids=["same", "reversed", "one unused", "other order + unused"],
)
def test_a_categorical_pair_is_counted_through_its_codes(no_decoding, cats2):
    c1 = pd.Categorical(A, categories=NAMES)
    c2 = pd.Categorical(B, categories=cats2)
    C = kl.confusion_matrix(c1, c2)
    np.testing.assert_array_equal(C, confusion_matrix(A, B, labels=sorted(set(A) | set(B))))
    assert kl.cohen_kappa_score(c1, c2) == pytest.approx(cohen_kappa_score(A, B), abs=1e-12)
    assert kl.cohen_kappa_score(pd.Series(c1), pd.Series(c2)) == pytest.approx(
        cohen_kappa_score(A, B), abs=1e-12
    )
    w = RNG.random(200)
    assert kl.cohen_kappa_score(c1, c2, sample_weight=w) == pytest.approx(
        cohen_kappa_score(A, B, sample_weight=w), abs=1e-12
    )


def test_labels_and_left_out_cases_follow_sklearn(no_decoding):
    c1, c2 = pd.Categorical(A), pd.Categorical(B)
    listed = ["none", "mild", "moderate"]
    with pytest.warns(UserWarning, match="leaves out"):
        k = kl.cohen_kappa_score(c1, c2, labels=listed, weighting="linear")
    assert k == pytest.approx(cohen_kappa_score(A, B, labels=listed, weights="linear"), abs=1e-12)


def test_an_ordered_categorical_gives_its_order(no_decoding):
    order = ["none", "mild", "moderate", "severe"]
    c1 = pd.Categorical(A, categories=order, ordered=True)
    c2 = pd.Categorical(B, categories=order, ordered=True)
    assert kl.cohen_kappa_score(c1, c2, weighting="quadratic") == pytest.approx(
        cohen_kappa_score(A, B, labels=order, weights="quadratic"), abs=1e-12
    )


def test_missing_values_and_tokens_are_refused():
    c1 = pd.Categorical(["a", None, "b", "a"])
    with pytest.raises(ValueError, match=r"y1 must not contain missing .* index 1 \(1 of 4"):
        kl.cohen_kappa_score(c1, pd.Categorical(["a", "b", "b", "a"]))
    with pytest.raises(ValueError, match=r"y2 holds the label .NA.*reads as a missing label"):
        kl.cohen_kappa_score(pd.Categorical(["a", "b"]), pd.Categorical(["a", "NA"]))


def test_a_categorical_beside_a_plain_vector(no_decoding):
    c1 = pd.Categorical(A)
    assert kl.cohen_kappa_score(c1, list(B)) == pytest.approx(cohen_kappa_score(A, B), abs=1e-12)


def test_numeric_categories():
    a, b = RNG.integers(0, 3, size=200), RNG.integers(0, 3, size=200)  # ints as categories
    c1, c2 = pd.Categorical(a), pd.Categorical(b)
    assert kl.cohen_kappa_score(c1, c2) == pytest.approx(cohen_kappa_score(a, b), abs=1e-12)
