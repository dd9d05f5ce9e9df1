"""Issue 30, item 13: one rule for a ``labels`` list that misses a class.

The functions that follow scikit-learn (``confusion_matrix``, ``cohen_kappa_score``) leave
out a case with a label outside ``labels``, as scikit-learn does, so that the number is
scikit-learn's; before this fix they did it without a word (0.60 where all the cases give
0.51).  Now they warn with the count of cases left out and the labels not listed.  The
reports refuse the same input (a report's number is cited; a missing label is most often a
typo) and do not warn on the way.  Oracle: scikit-learn on the same call.
"""

import warnings

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score, confusion_matrix

import kappalib as kl

Y1 = [0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 1]
Y2 = [0, 1, 2, 0, 2, 2, 1, 1, 2, 0, 1, 0]
# cases with a 2 in either vector: 2, 4, 5, 8 -> 4 of 12 left out by labels=[0, 1]


@pytest.mark.parametrize(
    "convert",
    [list, np.array, lambda y: [str(v) for v in y], lambda y: np.array([f"c{v}" for v in y])],
    ids=["int list", "int array", "str list", "str array"],
)
def test_cases_outside_labels_are_left_out_as_sklearn_does_and_said(convert):
    y1, y2 = convert(Y1), convert(Y2)
    listed = [convert([0])[0], convert([1])[0]]
    with pytest.warns(UserWarning, match=r"leaves out 4 of 12 cases.*not listed") as record:
        k = kl.cohen_kappa_score(y1, y2, labels=listed)
    assert k == pytest.approx(cohen_kappa_score(y1, y2, labels=listed), abs=1e-12)
    assert record[0].filename == __file__  # the warning names the user's line
    with pytest.warns(UserWarning, match="leaves out 4 of 12"):
        C = kl.confusion_matrix(y1, y2, labels=listed)
    np.testing.assert_array_equal(C, confusion_matrix(y1, y2, labels=listed))


def test_sample_weights_count_cases_not_weights():
    w = np.arange(1.0, 13.0)
    with pytest.warns(UserWarning, match="leaves out 4 of 12 cases"):
        k = kl.cohen_kappa_score(Y1, Y2, labels=[0, 1], sample_weight=w)
    assert k == pytest.approx(cohen_kappa_score(Y1, Y2, labels=[0, 1], sample_weight=w))


def test_no_warning_when_every_case_is_listed():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        kl.cohen_kappa_score(Y1, Y2, labels=[2, 1, 0, 5])  # 5 unused: nothing left out
        kl.confusion_matrix(Y1, Y2)


def test_the_report_refuses_and_does_not_warn():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError, match="must list every category"):
            kl.agreement_report(Y1, Y2, labels=[0, 1])
