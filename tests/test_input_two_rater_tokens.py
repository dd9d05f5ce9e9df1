"""Issue 30 (the rule's last gap): the two-rater functions that follow scikit-learn take the
one rule of ``kappalib/_input/missing.py`` for missing-value tokens.

Before, ``cohen_kappa_score`` and ``confusion_matrix`` counted ``"NA"``, ``"."``, ``""`` as
classes (scikit-learn's behaviour), while the many-rater functions refused them and the
reports read them as missing: three rules, and a silent class "NA".  Now a string label that
reads as missing is refused in one sentence unless ``labels=`` lists it; listed, it is a class
and the number is scikit-learn's (the oracle).  A blank is missing even when listed.
"""

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score

import kappalib as kl

pd = pytest.importorskip("pandas")

Y1 = ["yes", "no", "NA", "yes", "no", "yes", "no", "no"]
Y2 = ["yes", "no", "yes", "yes", "NA", "yes", "no", "no"]


@pytest.mark.parametrize(
    "convert",
    [list, np.array, lambda y: pd.Series(y, dtype=object), pd.Categorical],
    ids=["list", "array", "object Series", "Categorical"],
)
@pytest.mark.parametrize("token", ["NA", "n/a", ".", "-", "nan", "NULL", " #N/A "])
def test_an_unlisted_token_is_refused(convert, token):
    y1 = [token if v == "NA" else v for v in Y1]
    y2 = [token if v == "NA" else v for v in Y2]
    with pytest.raises(ValueError, match=r"y1 holds the label .* reads as a missing label"):
        kl.cohen_kappa_score(convert(y1), convert(y2))
    with pytest.raises(ValueError, match="reads as a missing label"):
        kl.confusion_matrix(convert(y1), convert(y2))


def test_a_listed_token_is_a_class_and_the_number_is_sklearns():
    labels = ["no", "yes", "NA"]
    assert kl.cohen_kappa_score(Y1, Y2, labels=labels) == pytest.approx(
        cohen_kappa_score(Y1, Y2, labels=labels), abs=1e-12
    )
    np.testing.assert_array_equal(
        kl.confusion_matrix(Y1, Y2, labels=labels), [[3, 0, 1], [0, 3, 0], [0, 1, 0]]
    )


def test_a_blank_is_missing_even_when_listed():
    y1 = ["" if v == "NA" else v for v in Y1]
    with pytest.raises(ValueError, match=r"y1 holds the label '' .*drop those cases"):
        kl.cohen_kappa_score(y1, Y2, labels=["no", "yes", "", "NA"])


def test_none_and_other_words_stay_classes():
    y1 = ["none" if v == "NA" else v for v in Y1]
    y2 = ["none" if v == "NA" else v for v in Y2]
    assert kl.cohen_kappa_score(y1, y2) == pytest.approx(cohen_kappa_score(y1, y2), abs=1e-12)
