"""Bad input gets one clear sentence that names the argument and echoes the value.

The table below is the bad-input contract of ARCHITECTURE.md ("Check"); each row is one case.
"""

import warnings
from pathlib import Path

import numpy as np
import pytest

import kappalib as kl

GOOD = [[8, 2], [1, 9]]

# issue 30, item 10: 12 units x 3 raters coded 0, 1, 2 (raw ratings, not counts); before,
# gwet_ac1_multi and brennan_prediger_multi returned a number where fleiss_kappa refused
RAW0 = [[0, 0, 1], [1, 1, 1], [2, 2, 1], [0, 1, 0], [2, 2, 2], [1, 0, 1],
        [0, 0, 0], [1, 2, 2], [2, 1, 2], [0, 0, 1], [1, 1, 2], [2, 0, 2]]  # fmt: skip
# issue 30, item 11: a subject id 1..10 left in front of three raters' measurements
WITH_ID = [[i + 1, 50.5 + 3 * m, 51.25 + 3 * m, 49.75 + 3 * m] for i, m in
           enumerate([2.1, -1.3, 0.4, 3.3, -2.2, 1.7, -0.6, 0.9, -3.1, 2.6])]  # fmt: skip
# issue 30, item 12: a table of proportions (it sums to 1), which has lost its N
SHARES = [[0.4, 0.1], [0.05, 0.45]]

CASES = [
    # (id, call, exception, words the message must contain)
    ("1-D matrix", lambda: kl.kappa([1, 2, 3]), ValueError, ["C", "(3,)"]),
    ("scalar matrix", lambda: kl.mcc(5), ValueError, ["C", "()"]),
    ("non-square", lambda: kl.kappa([[1, 2, 3], [4, 5, 6]]), ValueError, ["C", "(2, 3)"]),
    ("negative cell", lambda: kl.kappa([[1, -2], [3, 4]]), ValueError, ["C", "-2.0", "(0, 1)"]),
    ("NaN cell", lambda: kl.mcc([[1, np.nan], [3, 4]]), ValueError, ["C", "nan"]),
    ("infinite cell", lambda: kl.kappa([[1, 2], [np.inf, 4]]), ValueError, ["C", "inf"]),
    ("all-zero matrix", lambda: kl.kappa([[0, 0], [0, 0]]), ValueError, ["C", "all-zero"]),
    ("all-zero in a stack", lambda: kl.mcc([GOOD, [[0, 0], [0, 0]]]), ValueError, ["C", "(1,)"]),
    ("string matrix", lambda: kl.kappa([["a", "b"], ["c", "d"]]), TypeError, ["C", "dtype"]),
    (
        "unequal lengths",
        lambda: kl.cohen_kappa_score([1, 2, 3], [1, 2]),
        ValueError,
        ["y1", "y2", "3", "2"],
    ),
    ("empty labels", lambda: kl.matthews_corrcoef([], []), ValueError, ["y1", "empty"]),
    (
        "2-D labels",
        lambda: kl.confusion_matrix([[1, 2]], [[1, 2]]),
        ValueError,
        ["y1", "(1, 2)"],
    ),
    (
        "duplicate labels",
        lambda: kl.confusion_matrix([1, 2], [1, 2], labels=[1, 2, 1]),
        ValueError,
        ["labels", "1"],
    ),
    (
        "labels miss data",
        lambda: kl.cohen_kappa_score([1, 2], [1, 2], labels=[5, 6]),
        ValueError,
        ["labels", "[5, 6]", "[1, 2]"],
    ),
    (
        "string labels miss data",
        lambda: kl.confusion_matrix(["a"], ["b"], labels=["x"]),
        ValueError,
        ["labels", "'x'"],
    ),
    (
        "mixed label kinds",
        lambda: kl.confusion_matrix(
            np.array([1, "a"], dtype=object), np.array([1, 2], dtype=object)
        ),
        TypeError,
        ["y1", "y2"],
    ),
    (
        "unknown weighting",
        lambda: kl.kappa(GOOD, weighting="cubic"),
        ValueError,
        ["weighting", "'cubic'"],
    ),
    (
        "weighting wrong type",
        lambda: kl.kappa(GOOD, weighting=3),
        ValueError,
        ["weighting", "(2, 2)"],
    ),
    (
        "weight matrix wrong shape",
        lambda: kl.kappa(GOOD, weighting=np.ones((3, 3)) - np.eye(3)),
        ValueError,
        ["weighting", "(3, 3)"],
    ),
    (
        "weight matrix non-zero diagonal",
        lambda: kl.kappa(GOOD, weighting=[[0.5, 1], [1, 0]]),
        ValueError,
        ["weighting", "diagonal", "0.5"],
    ),
    (
        "agreement weights",
        lambda: kl.kappa(GOOD, weighting=[[1, 0], [0, 1]]),
        ValueError,
        ["weighting", "1 - W"],
    ),
    (
        "negative weight",
        lambda: kl.kappa(GOOD, weighting=[[0, -1], [1, 0]]),
        ValueError,
        ["weighting", "non-negative", "-1.0"],
    ),
    (
        "all-zero weights",
        lambda: kl.kappa(GOOD, weighting=[[0, 0], [0, 0]]),
        ValueError,
        ["weighting", "all-zero"],
    ),
    (
        "sample_weight length",
        lambda: kl.cohen_kappa_score([1, 2], [1, 2], sample_weight=[1.0]),
        ValueError,
        ["sample_weight", "(1,)"],
    ),
    (
        "negative sample_weight",
        lambda: kl.matthews_corrcoef([1, 2], [1, 2], sample_weight=[1.0, -2.0]),
        ValueError,
        ["sample_weight", "-2.0"],
    ),
    (
        "confidence above 1",
        lambda: kl.kappa_confint(GOOD, confidence_level=1.5),
        ValueError,
        ["confidence", "1.5"],
    ),
    (
        "confidence of 0",
        lambda: kl.kappa_confint(GOOD, confidence_level=0),
        ValueError,
        ["confidence", "0"],
    ),
    (
        "confidence not a number",
        lambda: kl.kappa_confint(GOOD, confidence_level="95%"),
        TypeError,
        ["confidence", "'95%'"],
    ),
    (
        "zero_division unknown",
        lambda: kl.kappa(GOOD, zero_division="warn"),
        ValueError,
        ["zero_division", "'warn'"],
    ),
    (
        "zero_division not a number",
        lambda: kl.mcc(GOOD, zero_division=[0.0]),
        TypeError,
        ["zero_division", "[0.0]"],
    ),
    ("NaN label", lambda: kl.confusion_matrix([1.0, np.nan], [1.0, 2.0]), ValueError, ["NaN"]),
    (
        "NaN label among objects",
        lambda: kl.confusion_matrix(np.array([1, np.nan], dtype=object), [1, 1]),
        ValueError,
        ["y1", "NaN"],
    ),
    (
        "None label names y1, its position and dropna",
        lambda: kl.cohen_kappa_score(["a", None], ["a", "a"]),
        ValueError,
        ["y1", "None", "index 1", "dropna"],
    ),
    (
        "numbers and strings in one vector",
        lambda: kl.confusion_matrix(["a", 1, "b"], ["a", "a", "b"]),
        TypeError,
        ["all numbers or all strings", "y1", "'a', 1"],
    ),
    (
        "numbers against strings",
        lambda: kl.confusion_matrix([1, 2, 10], ["1", "2", "10"]),
        TypeError,
        ["all numbers or all strings", "numbers in y1", "strings in y2"],
    ),
    (
        "labels of the other kind",
        lambda: kl.matthews_corrcoef([1, 2], [2, 1], labels=["1", "2"]),
        TypeError,
        ["all numbers or all strings", "labels", "'1'"],
    ),
    (
        "complex labels",
        lambda: kl.confusion_matrix(np.array([1j, 2j]), np.array([1j, 1j])),
        TypeError,
        ["y1", "complex"],
    ),
    (
        "negative float count",
        lambda: kl.kappa([[1.5, -0.5], [1.0, 2.0]]),
        ValueError,
        ["C", "-0.5", "(0, 1)"],
    ),
    (
        "scores not numbers",
        lambda: kl.kappa(GOOD, weighting="linear", scores=["a", "b"]),
        TypeError,
        ["scores", "'a'"],
    ),
    (
        "scores not finite",
        lambda: kl.kappa(GOOD, weighting="linear", scores=[0, np.inf]),
        ValueError,
        ["scores", "inf"],
    ),
    (
        "scores repeat a value",
        lambda: kl.cohen_kappa_score([1, 2], [2, 2], weighting="quadratic", scores=[3, 3]),
        ValueError,
        ["scores", "[3, 3]"],
    ),
    (
        "weighted string labels without order",
        lambda: kl.cohen_kappa_score(["low", "high"], ["low", "low"], weighting="quadratic"),
        ValueError,
        ["labels", "weighting"],
    ),
    ("scores without weighting", lambda: kl.kappa(GOOD, scores=[1, 2]), ValueError, ["scores"]),
    (
        "scores wrong length",
        lambda: kl.kappa(GOOD, weighting="linear", scores=[1, 2, 5]),
        ValueError,
        ["scores", "(3,)"],
    ),
    (
        "K below 2 for weights",
        lambda: kl.disagreement_weights(1, "linear"),
        ValueError,
        ["n_classes", "1"],
    ),
    ("pabak on 1 class", lambda: kl.pabak([[3]]), ValueError, ["pabak", "(1, 1)"]),
    (
        "prevalence index on 3x3",
        lambda: kl.prevalence_index(np.eye(3)),
        ValueError,
        ["prevalence_index", "(3, 3)"],
    ),
    ("entropy base 1", lambda: kl.off_diagonal_entropy(GOOD, base=1), ValueError, ["base", "1"]),
    # issue 34: limits of agreement, overall CCC, Bangdiwala's B, benchmarking
    (
        "limits of agreement, unequal lengths",
        lambda: kl.bland_altman([1.0, 2.0, 3.0], [1.0, 2.0]),
        ValueError,
        ["y1", "y2", "3", "2"],
    ),
    (
        "limits of agreement, replicates without a design",
        lambda: kl.bland_altman([1.0, 2.0, 3.0], [1.0, 2.0, 4.0], units=[1, 1, 2]),
        ValueError,
        ["true_value", "None"],
    ),
    (
        "agreement level outside (0, 1)",
        lambda: kl.bland_altman([1.0, 2.0, 3.0], [1.0, 2.0, 4.0], agreement_level=2),
        ValueError,
        ["agreement_level", "2"],
    ),
    (
        "overall CCC, a missing measurement",
        lambda: kl.overall_ccc([[1, 2], [np.nan, 3], [2, 2]], layout="units x raters"),
        ValueError,
        ["ratings", "missing"],
    ),
    (
        "Bangdiwala, weights not by distance",
        lambda: kl.bangdiwala_b(np.eye(3) + 1, weighting=[[0, 1, 2], [1, 0, 1], [1, 1, 0]]),
        ValueError,
        ["weighting", "distance"],
    ),
    ("benchmark above 1", lambda: kl.benchmark(1.2, 0.1), ValueError, ["estimate", "1.2"]),
    (
        "benchmark, unknown scale",
        lambda: kl.benchmark(0.5, 0.1, scale="cicchetti"),
        ValueError,
        ["scale", "'cicchetti'"],
    ),
    # issue 34 (f34b): dependent, clustered and subgroup kappas, named weights, Light's test
    (
        "kappa difference, a rater not in the data",
        lambda: kl.kappa_difference(
            [[0, 1, 1], [0, 1, 0], [1, 1, 0]], ((0, 1), (0, 5)), layout="raters x units"
        ),
        ValueError,
        ["pairs", "5"],
    ),
    (
        "kappa difference, one pair twice",
        lambda: kl.kappa_difference(
            [[0, 1, 1], [0, 1, 0], [1, 1, 0]], ((0, 1), (1, 0)), layout="raters x units"
        ),
        ValueError,
        ["pairs", "different"],
    ),
    (
        "clustered kappa, ids of another length",
        lambda: kl.clustered_kappa([0, 1, 1], [0, 1, 0], [1, 2]),
        ValueError,
        ["clusters", "3", "(2,)"],
    ),
    (
        "clustered kappa, a missing id",
        lambda: kl.clustered_kappa([0, 1, 1], [0, 1, 0], ["a", None, "b"]),
        ValueError,
        ["clusters", "None"],
    ),
    (
        "subgroups, one subgroup",
        lambda: kl.subgroup_kappas([0, 1, 1], [0, 1, 0], ["a", "a", "a"]),
        ValueError,
        ["groups", "'a'"],
    ),
    (
        "named weights, an unknown name",
        lambda: kl.kappa(GOOD, weighting="circle"),
        ValueError,
        ["weighting", "'circle'", "'circular'"],
    ),
    (
        "ordinal weights with scores",
        lambda: kl.kappa(GOOD, weighting="ordinal", scores=[1, 2, 3]),
        ValueError,
        ["ordinal", "scores"],
    ),
    (
        "ratio weights, a negative score",
        lambda: kl.disagreement_weights(3, "ratio", scores=[-1, 0, 1]),
        ValueError,
        ["ratio", "-1.0"],
    ),
    (
        "alpha, a level and a weighting",
        lambda: kl.krippendorff_alpha(
            [[1, 2, 3], [1, 2, 2]], level_of_measurement="interval", weighting="linear"
        ),
        ValueError,
        ["level_of_measurement", "weighting", "'interval'"],
    ),
    (
        "Light's test, a confidence level of 1",
        lambda: kl.light_kappa_test([[1, 0, 1], [1, 1, 0]], confidence_level=1),
        ValueError,
        ["confidence_level", "1"],
    ),
    (
        "0-coded ratings as counts, fleiss_kappa",
        lambda: kl.fleiss_kappa(RAW0),
        ValueError,
        ["table", "raw ratings coded from 0", "rating_table"],
    ),
    (
        "0-coded ratings as counts, gwet_ac1_multi",
        lambda: kl.gwet_ac1_multi(RAW0),
        ValueError,
        ["table", "raw ratings coded from 0", "rating_table"],
    ),
    (
        "0-coded ratings as counts, brennan_prediger_multi",
        lambda: kl.brennan_prediger_multi(RAW0),
        ValueError,
        ["table", "raw ratings coded from 0", "rating_table"],
    ),
    (
        "0-coded ratings as counts, fleiss_kappa_generalized",
        lambda: kl.fleiss_kappa_generalized(RAW0),
        ValueError,
        ["table", "raw ratings coded from 0", "rating_table"],
    ),
    (
        "0-coded ratings as counts, category_fleiss_kappas",
        lambda: kl.category_fleiss_kappas(RAW0),
        ValueError,
        ["table", "raw ratings coded from 0", "rating_table"],
    ),
    (
        "0-coded ratings as counts, ratings_confint",
        lambda: kl.ratings_confint(RAW0, coefficient="ac1"),
        ValueError,
        ["raw ratings coded from 0", "rating_table"],
    ),
    (
        "subject id left in, icc",
        lambda: kl.icc(WITH_ID, layout="units x raters"),
        ValueError,
        ["ratings column 0", "1, 2, ..., 10", "subject id", "drop it", "set_index"],
    ),
    (
        "subject id left in, overall_ccc",
        lambda: kl.overall_ccc(WITH_ID, layout="units x raters"),
        ValueError,
        ["ratings column 0", "1, 2, ..., 10", "subject id", "drop it", "set_index"],
    ),
    (
        "proportions, kappa_confint",
        lambda: kl.kappa_confint(SHARES),
        ValueError,
        ["kappa_confint", "C", "0.4", "(0, 0)", "proportions"],
    ),
    (
        "proportions, kappa_standard_error",
        lambda: kl.kappa_standard_error(SHARES),
        ValueError,
        ["kappa_standard_error", "C", "0.4", "(0, 0)", "proportions"],
    ),
    (
        "proportions, bangdiwala_confint",
        lambda: kl.bangdiwala_confint(SHARES),
        ValueError,
        ["bangdiwala_confint", "C", "0.4", "(0, 0)", "proportions"],
    ),
    (
        "fractional sample_weight, cohen_kappa_confint",
        lambda: kl.cohen_kappa_confint([0, 1, 1], [0, 1, 0], sample_weight=[0.5, 1, 1]),
        ValueError,
        ["cohen_kappa_confint", "sample_weight", "0.5"],
    ),
    # issue 30, item 9: a plain array says its layout; its shape never does
    (
        "array without a layout, krippendorff_alpha",
        lambda: kl.krippendorff_alpha([[1, 2, 3, 3, 2], [1, 2, 3, 3, 1], [1, 1, 3, 3, 1]]),
        ValueError,
        ["ratings", "3 x 5", "layout='raters x units'", "layout='units x raters'"],
    ),
    (
        "array without a layout, icc",
        lambda: kl.icc(np.ones((3, 3)) + np.eye(3)),
        ValueError,
        ["ratings", "3 x 3", "layout="],
    ),
    # the two-rater functions and the missing-value tokens (issue 30)
    (
        "missing-value token as a label",
        lambda: kl.cohen_kappa_score(["a", "NA", "b"], ["a", "b", "b"]),
        ValueError,
        ["y1", "'NA'", "index 1", "missing label", "labels"],
    ),
    (
        "blank label",
        lambda: kl.confusion_matrix(["a", "b", "b"], ["a", " ", "b"], labels=["a", "b", " "]),
        ValueError,
        ["y2", "' '", "index 1", "missing label"],
    ),
]


@pytest.mark.parametrize("call, exc, words", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_bad_input_raises_one_clear_sentence(call, exc, words):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no numpy warning may stand in for the message
        with pytest.raises(exc) as info:
            call()
    message = str(info.value)
    for word in words:
        assert word in message, f"{word!r} missing from {message!r}"
    assert "\n" not in message
    # raised by kappalib's own checks (a private module), not by numpy on the way
    raised_in = Path(info.traceback[-1].frame.code.path).resolve()
    inside = raised_in.relative_to(Path(kl.__file__).resolve().parent).parts
    assert any(part.startswith("_") for part in inside), raised_in


def test_issue30_checks_leave_real_tables_alone():
    """The checks of issue 30's items 10-12 refuse what they must and nothing else: plain count
    tables with missing ratings (Gwet 2014's 5 observers, 15 units of 3 to 5 ratings; Krippendorff
    2011's 12 units of 1 to 4) keep their values, which irrCAC and krippendorff give as a table
    (tests/test_multirater_oracles.py); whole counts keep their interval."""
    from kappalib import datasets

    for name, layout in (
        ("gwet2014_5observers", "raters x units"),
        ("krippendorff2011_example", "raters x units"),
    ):
        table = kl.rating_table(datasets.load(name).data, layout=layout)
        plain = np.asarray(table)
        assert kl.gwet_ac1_multi(plain) == pytest.approx(kl.gwet_ac1_multi(table), abs=1e-15)
    # the shares times N = 20 are FCE's table [[8, 2], [1, 9]]: kappa 0.7, interval (0.389, 1)
    ci = kl.kappa_confint(np.round(np.array([[0.4, 0.1], [0.05, 0.45]]) * 20))
    assert (round(ci.low, 3), round(ci.high, 3)) == (0.389, 1.0)
