"""The category order travels with the counts, in plain sight (issue 31: no hidden state).

``kl.confusion_matrix`` and ``kl.matrix_from_counts`` return a ``ConfusionMatrix``,
``kl.rating_table`` a ``RatingTable``: numpy arrays that carry ``.labels`` and ``.ordered``.
An answer depends on the arguments alone: the original, a copy and a whole view give the same
answer or the same refusal; ``np.asarray`` gives a plain matrix, read as it stands.  Before,
a registry keyed by ``id()`` made ``kl.kappa(C, weighting=...)`` refuse where
``kl.kappa(C.copy(), weighting=...)`` returned a number.  Expected values: scikit-learn.
"""

import pickle

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score as sk_kappa

import kappalib as kl

ORDER = ["low", "medium", "high"]  # sorted by spelling: high < low < medium


def _pair(seed=3, n=120):
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 3, n)
    b = np.clip(a + rng.integers(-1, 2, n) * (rng.random(n) < 0.4), 0, 2)
    return np.array(ORDER)[a], np.array(ORDER)[b]


def _views(M):
    """The original, a copy, two whole views and elementwise arithmetic."""
    return {"original": M, "copy": M.copy(), "[:]": M[:], "[...]": M[...], "* 1.0": M * 1.0}


def _outcome(f, *args, **kwargs):
    try:
        return ("value", f(*args, **kwargs))
    except (ValueError, TypeError) as exc:
        return ("refused", str(exc))


@pytest.mark.parametrize(
    "call",
    [
        lambda M: kl.kappa(M, weighting="linear"),
        lambda M: kl.kappa_confint(M, weighting="quadratic"),
        lambda M: kl.kappa_standard_error(M, weighting="linear"),
        lambda M: kl.gwet_ac1(M, weighting="quadratic"),
        lambda M: kl.bootstrap_confint(M, weighting="linear", n_resamples=20, rng=0),
        lambda M: kl.agreement_report(C=M, weighting="linear"),
    ],
)
def test_spelling_order_refused_alike_by_original_copy_and_views(call):
    y1, y2 = _pair()
    C = kl.confusion_matrix(y1, y2)
    assert C.labels == ("high", "low", "medium") and C.ordered is False
    outcomes = {name: _outcome(call, M) for name, M in _views(C).items()}
    assert {kind for kind, _ in outcomes.values()} == {"refused"}, outcomes
    assert len({text for _, text in outcomes.values()}) == 1, outcomes


def test_a_given_order_gives_one_answer_from_original_copy_and_views():
    y1, y2 = _pair()
    C = kl.confusion_matrix(y1, y2, labels=ORDER)
    want = sk_kappa(y1, y2, labels=ORDER, weights="linear")
    for name, M in _views(C).items():
        assert M.labels == tuple(ORDER) and M.ordered, name
        assert kl.kappa(M, weighting="linear") == pytest.approx(want, abs=1e-12), name


def test_a_plain_array_is_read_as_it_stands():
    """np.asarray drops the labels on purpose: the rows' order is then the caller's."""
    y1, y2 = _pair()
    C = kl.confusion_matrix(y1, y2)
    plain = np.asarray(C)
    assert type(plain) is np.ndarray
    spelled = sorted(ORDER)
    assert kl.kappa(plain, weighting="linear") == pytest.approx(
        sk_kappa(y1, y2, labels=spelled, weights="linear"), abs=1e-12
    )


def test_categories_offered_widen_the_original_and_its_copy_alike():
    y1, y2 = _pair()
    keep = (y1 != "high") & (y2 != "high")  # no case left out by labels (nor warned about)
    C = kl.confusion_matrix(y1[keep], y2[keep], labels=["low", "medium"])
    offered = ["low", "medium", "high", "extreme"]
    values = {
        name: kl.gwet_ac1(kl.ConfusionMatrix(M, labels=offered)) for name, M in _views(C).items()
    }
    assert len(set(values.values())) == 1, values
    wide = kl.ConfusionMatrix(C, labels=offered)
    assert wide.shape == (4, 4) and wide.labels == tuple(offered)
    assert kl.gwet_ac1(wide) == values["original"]
    with pytest.raises(ValueError, match="confusion_matrix"):
        kl.gwet_ac1(
            kl.ConfusionMatrix(np.asarray(C), labels=offered)
        )  # a plain matrix: where would they go?


def test_rating_table_original_copy_and_rows_agree():
    ratings = [["mild", "severe", "mild", "moderate"], ["mild", "moderate", "mild", "severe"]]
    table = kl.rating_table(ratings, layout="raters x units")
    cats = np.asarray(table.labels)
    assert isinstance(table, kl.RatingTable) and table.labels == tuple(cats.tolist())
    assert table.ordered is False  # strings sorted by spelling
    for name, T in {**_views(table), "rows [:]": table[:, :]}.items():
        assert isinstance(T, kl.RatingTable) and T.labels == table.labels, name
        with pytest.raises(ValueError, match="spelling"):
            kl.gwet_ac1_multi(T, weighting="linear")
        assert kl.gwet_ac1_multi(T) == kl.gwet_ac1_multi(table), name
    given = kl.rating_table(ratings, labels=["mild", "moderate", "severe"], layout="raters x units")
    assert given.ordered and kl.gwet_ac1_multi(given, weighting="linear") is not None


def test_which_operations_keep_the_labels():
    C = kl.ConfusionMatrix([[8, 2], [1, 9]], labels=["yes", "no"])
    kept = {"copy": C.copy(), "T": C.T, "/": C / C.sum(), "astype": C.astype(float)}
    for name, M in kept.items():
        assert isinstance(M, kl.ConfusionMatrix) and M.labels == ("yes", "no"), name
    plain = {
        "sub-matrix": C[:1, :1],
        "row": C[0],
        "reversed": C[::-1, ::-1],
        "reordered": C[[1, 0]][:, [1, 0]],
        "row sums": C.sum(axis=1),
        "mask": C > 1,
        "product": C @ C,
        "reshape": C.reshape(4),
        "stack": np.stack([C, C]),
    }
    for name, M in plain.items():
        assert type(M) is np.ndarray, name
    assert type(C.sum()) is not kl.ConfusionMatrix
    again = pickle.loads(pickle.dumps(C))
    assert again.labels == C.labels and again.tolist() == C.tolist()
    T = kl.RatingTable([[3, 0], [1, 2], [0, 3]], labels=[1, 2])
    assert T[np.array([True, False, True])].labels == (1, 2)  # a selection of units
    assert type(T[:, [1, 0]]) is np.ndarray and type(T.T) is np.ndarray


def test_a_rating_table_is_not_unpacked():
    table = kl.rating_table([[1, 2], [2, 2]], layout="raters x units")
    with pytest.raises(TypeError, match=r"table\.labels"):
        _first, _second = table


def test_labelling_a_typed_in_table():
    C = kl.ConfusionMatrix([[8, 2], [1, 9]], labels=["yes", "no"])
    assert repr(C) == ("ConfusionMatrix([[8, 2],\n                 [1, 9]], labels=['yes', 'no'])")
    with pytest.raises(ValueError, match="each of the 2 rows and columns"):
        kl.ConfusionMatrix([[8, 2], [1, 9]], labels=["yes"])
    with pytest.raises(ValueError, match="leaves out 'no'"):
        kl.ConfusionMatrix(C, labels=["yes", "maybe"])
    with pytest.raises(ValueError, match="square"):
        kl.ConfusionMatrix([[1, 2, 3]])
    with pytest.raises(ValueError, match="repeat"):
        kl.RatingTable([[1, 2]], labels=["a", "a"])
