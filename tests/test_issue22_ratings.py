"""Regressions of issue 22: the silent wrong answers and crashes of the multi-rater half.

One test (or a few) per numbered bug of the issue, each against an outside oracle: the
``krippendorff`` package, irrCAC (Gwet's own package), statsmodels, scikit-learn, or exact
arithmetic.  Each failed on kappalib before the fix (see the closing note of issue 22);
bug 1 fails only under numpy 1.26, which ``make test-min`` installs.
"""

import sys
import warnings
from fractions import Fraction

import krippendorff
import numpy as np
import pandas as pd
import pytest
from ratings_data import ROOT
from sklearn.metrics import cohen_kappa_score as sk_kappa
from statsmodels.stats.inter_rater import aggregate_raters, cohens_kappa

import kappalib as kl
from kappalib import datasets

sys.path.insert(0, str(ROOT / ".venv" / "oracles"))
try:
    from irrCAC.raw import CAC
except ImportError:  # the minimum-versions job does not install irrCAC
    CAC = None

needs_irrcac = pytest.mark.skipif(CAC is None, reason="irrCAC is not installed here")


def _irr(frame, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return CAC(frame, digits=15, **kw)


def _value(result):
    return float(result["est"]["coefficient_value"])


def _fleiss_ratings():
    """Fleiss (1971) as units x raters ratings: 30 patients, 6 ratings each, codes 1..5."""
    table = datasets.load("fleiss1971_diagnoses").data
    return np.array([np.repeat(np.arange(1, 6), row) for row in table])


def _three_raters(seed=0, n=60):
    rng = np.random.default_rng(seed)
    truth = rng.integers(1, 5, n)
    return np.array(
        [np.where(rng.random(n) < 0.7, truth, rng.integers(1, 5, n)) for _ in range(3)]
    ).T  # units x raters


# --- 1. the declared numpy floor ------------------------------------------------------------


def test_bug01_small_integer_alpha_runs_on_every_numpy():
    """np.take refused uint64 indices on numpy 1.26: every small-integer or NaN input raised."""
    data = [[1, 2, 3], [1, 2, 2]]
    theirs = krippendorff.alpha(reliability_data=data, level_of_measurement="nominal")
    assert kl.krippendorff_alpha(data, layout="raters x units") == pytest.approx(theirs, abs=1e-12)
    with_nan = [[1, 2, np.nan, 3], [1, 2, 2, 3]]
    theirs = krippendorff.alpha(reliability_data=with_nan, level_of_measurement="nominal")
    assert kl.krippendorff_alpha(with_nan, layout="raters x units") == pytest.approx(
        theirs, abs=1e-12
    )


# --- 2. a DataFrame is one row per unit -----------------------------------------------------


def test_bug02_dataframe_fleiss_psychiatrists_alpha():
    ratings = _fleiss_ratings()  # units x raters
    frame = pd.DataFrame(ratings, columns=[f"r{i}" for i in range(6)])
    theirs = krippendorff.alpha(reliability_data=ratings.T, level_of_measurement="nominal")
    assert round(theirs, 3) == 0.433
    assert kl.krippendorff_alpha(frame) == pytest.approx(theirs, abs=1e-12)
    table = kl.rating_table(frame)
    counts, _ = aggregate_raters(ratings)  # statsmodels reads units x raters
    assert table.tolist() == counts.tolist()


def test_bug02_dataframe_random_three_raters():
    ratings = _three_raters()
    frame = pd.DataFrame(ratings, columns=["ann", "bob", "cy"])
    for level in ("nominal", "ordinal", "interval"):
        theirs = krippendorff.alpha(reliability_data=ratings.T, level_of_measurement=level)
        assert kl.krippendorff_alpha(frame, level_of_measurement=level) == pytest.approx(
            theirs, abs=1e-12
        )
    # the frame of raters x units, said so
    sideways = pd.DataFrame(ratings.T)
    theirs = krippendorff.alpha(reliability_data=ratings.T, level_of_measurement="nominal")
    assert kl.krippendorff_alpha(sideways, layout="raters x units") == pytest.approx(theirs)


@needs_irrcac
def test_bug02_dataframe_matches_irrcac_which_reads_units_x_raters():
    frame = pd.DataFrame(_three_raters(seed=4))
    cac = _irr(frame, categories=[1, 2, 3, 4])
    assert kl.krippendorff_alpha(frame) == pytest.approx(_value(cac.krippendorff()), abs=1e-9)
    table = kl.rating_table(frame, labels=[1, 2, 3, 4])
    assert kl.gwet_ac1_multi(table) == pytest.approx(_value(cac.gwet()), abs=1e-9)


# --- 3. ratings are not counts --------------------------------------------------------------


def test_bug03_ratings_passed_as_a_count_table_are_refused():
    ratings = _three_raters()  # codes 1..4: no zero, rows of different sums
    for f in (kl.gwet_ac1_multi, kl.brennan_prediger_multi, kl.fleiss_kappa):
        with pytest.raises(ValueError, match=r"looks like raw ratings|same number of ratings"):
            f(ratings)
    with pytest.raises(ValueError, match=r"kl\.rating_table"):
        kl.gwet_ac1_multi(ratings)
    with pytest.raises(ValueError, match="whole numbers"):
        kl.gwet_ac1_multi(np.array([[1.5, 2.0], [1.0, 3.0]]))
    # the count table of the same ratings gives statsmodels' Fleiss kappa
    from statsmodels.stats.inter_rater import fleiss_kappa as sm_fleiss

    counts, _ = aggregate_raters(ratings)
    table = kl.rating_table(ratings, layout="units x raters")
    assert kl.fleiss_kappa(table) == pytest.approx(sm_fleiss(counts), abs=1e-12)
    assert kl.fleiss_kappa(counts) == pytest.approx(sm_fleiss(counts), abs=1e-12)


def test_bug03_a_count_table_passed_as_ratings_is_refused():
    table = kl.rating_table(_three_raters(), layout="units x raters")
    for f in (kl.krippendorff_alpha, kl.rating_table):
        with pytest.raises(TypeError, match="count table"):
            f(table)


# --- 4. ordinal strings are never sorted by spelling ---------------------------------------

GRADES = ["mild", "moderate", "severe"]
# chosen so that spelling order (Mild < moderate < severe by code point: 'M' < 'm') is wrong
SPELLED = ["moderate", "Mild", "severe"]


def _grade_ratings(seed=2, n=40):
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, 3, n)
    codes = np.array(
        [np.clip(truth + rng.integers(-1, 2, n) * (rng.random(n) < 0.4), 0, 2) for _ in range(3)]
    ).T
    return np.array(SPELLED, dtype=object)[codes]  # units x raters, strings


@needs_irrcac
def test_bug04_weighted_ac2_refuses_string_categories_in_spelling_order():
    words = _grade_ratings()
    table = kl.rating_table(words, layout="units x raters")
    cats = np.asarray(table.labels)
    assert cats.tolist() == sorted(SPELLED)  # spelling: 'Mild' < 'moderate' < 'severe'
    for f in (kl.gwet_ac1_multi, kl.brennan_prediger_multi):
        with pytest.raises(ValueError, match="spelling"):
            f(table, weighting="quadratic")
    order = ["Mild", "moderate", "severe"]
    ordered = kl.rating_table(words, layout="units x raters", labels=order)
    cac = _irr(pd.DataFrame(words), weights="quadratic", categories=order)
    assert kl.gwet_ac1_multi(ordered, weighting="quadratic") == pytest.approx(
        _value(cac.gwet()), abs=1e-9
    )
    # the same order from categories= on the coefficient, or an ordered Categorical
    assert kl.gwet_ac1_multi(
        kl.RatingTable(table, labels=order), weighting="quadratic"
    ) == pytest.approx(_value(cac.gwet()), abs=1e-9)
    frame = pd.DataFrame(words).astype(pd.CategoricalDtype(order, ordered=True))
    by_dtype = kl.rating_table(frame)
    assert kl.gwet_ac1_multi(by_dtype, weighting="quadratic") == pytest.approx(
        _value(cac.gwet()), abs=1e-9
    )
    # unweighted AC1 does not depend on the order: no refusal
    assert kl.gwet_ac1_multi(table) == pytest.approx(_value(_irr(pd.DataFrame(words)).gwet()))


def test_bug04_ordinal_alpha_on_strings_needs_an_order():
    words = _grade_ratings()
    with pytest.raises(ValueError, match="labels="):
        kl.krippendorff_alpha(words, level_of_measurement="ordinal", layout="units x raters")
    order = ["Mild", "moderate", "severe"]
    codes = np.vectorize(order.index)(words).T.astype(float)
    theirs = krippendorff.alpha(reliability_data=codes, level_of_measurement="ordinal")
    frame = pd.DataFrame(words).astype(pd.CategoricalDtype(order, ordered=True))
    assert kl.krippendorff_alpha(frame, level_of_measurement="ordinal") == pytest.approx(
        theirs, abs=1e-12
    )


# --- 5. AC2 weights from the numeric categories -------------------------------------------


@needs_irrcac
def test_bug05_quadratic_ac2_uses_the_numeric_category_values():
    ratings = _three_raters()
    ratings = np.where(ratings == 4, 9, ratings)  # categories 1, 2, 3, 9: unevenly spaced
    frame = pd.DataFrame(ratings)
    table = kl.rating_table(frame)
    cats = np.asarray(table.labels)
    assert cats.tolist() == [1, 2, 3, 9]
    for weights, ours in (("quadratic", "quadratic"), ("linear", "linear")):
        cac = _irr(frame, weights=weights, categories=[1, 2, 3, 9])
        assert kl.gwet_ac1_multi(table, weighting=ours) == pytest.approx(
            _value(cac.gwet()), abs=1e-9
        )
        assert kl.brennan_prediger_multi(table, weighting=ours) == pytest.approx(
            _value(cac.bp()), abs=1e-9
        )


# --- 6. the categories offered ------------------------------------------------------------


@needs_irrcac
def test_bug06_bp_and_ac1_take_the_categories_offered():
    ratings = _three_raters(seed=7)  # uses 1..4, five were offered
    frame = pd.DataFrame(ratings)
    offered = [1, 2, 3, 4, 5]
    cac = _irr(frame, categories=offered)
    table = kl.rating_table(frame)
    wide = kl.rating_table(frame, labels=offered)
    for ours in (
        kl.brennan_prediger_multi(wide),
        kl.brennan_prediger_multi(kl.RatingTable(table, labels=offered)),
    ):
        assert ours == pytest.approx(_value(cac.bp()), abs=1e-9)
    for ours in (kl.gwet_ac1_multi(wide), kl.gwet_ac1_multi(kl.RatingTable(table, labels=offered))):
        assert ours == pytest.approx(_value(cac.gwet()), abs=1e-9)
    # two raters: the matrix from labels is widened to the categories offered
    pair = ratings[:, :2]
    C = kl.confusion_matrix(pair[:, 0], pair[:, 1])
    cac2 = _irr(pd.DataFrame(pair), categories=offered)
    assert kl.gwet_ac1(kl.ConfusionMatrix(C, labels=offered)) == pytest.approx(
        _value(cac2.gwet()), abs=1e-9
    )
    assert kl.brennan_prediger(kl.ConfusionMatrix(C, labels=offered)) == pytest.approx(
        _value(cac2.bp()), abs=1e-9
    )
    # a copy carries the labels too; a plain array has none: where would 5 go?
    assert kl.gwet_ac1(kl.ConfusionMatrix(C.copy(), labels=offered)) == kl.gwet_ac1(
        kl.ConfusionMatrix(C, labels=offered)
    )
    with pytest.raises(ValueError, match="confusion_matrix"):
        kl.gwet_ac1(kl.ConfusionMatrix(np.asarray(C), labels=offered))
    with pytest.raises(ValueError, match="leaves out"):
        kl.gwet_ac1_multi(kl.RatingTable(table, labels=[1, 2, 3]))


# --- 7. one rule for missing ---------------------------------------------------------------


def test_bug07_missing_is_none_nan_or_na_and_no_string_is_missing():
    ratings = _three_raters(seed=3).astype(float)
    ratings[[1, 5, 9], [0, 2, 1]] = np.nan
    theirs = krippendorff.alpha(reliability_data=ratings.T, level_of_measurement="nominal")
    nullable = pd.DataFrame(ratings).astype("Int64")  # pd.NA, not NaN
    assert nullable.isna().sum().sum() == 3
    assert kl.krippendorff_alpha(nullable) == pytest.approx(theirs, abs=1e-12)
    assert kl.krippendorff_alpha(pd.DataFrame(ratings).astype("Float64")) == pytest.approx(theirs)
    objects = pd.DataFrame(ratings).astype(object).where(~np.isnan(ratings), pd.NA)
    assert kl.krippendorff_alpha(objects) == pytest.approx(theirs, abs=1e-12)
    # "nan" and "NaN" are treated alike: both refused, with the way out
    for word in ("nan", "NaN", "", "NA"):
        words = np.array([["a", "b", word], ["a", "b", "b"]])
        with pytest.raises(ValueError, match="None or float\\('nan'\\)"):
            kl.krippendorff_alpha(words, layout="raters x units")
    with_none = np.array([["a", "b", None], ["a", "b", "b"]], dtype=object)
    codes = np.array([[0, 1, np.nan], [0, 1, 1]])
    assert kl.krippendorff_alpha(with_none, layout="raters x units") == pytest.approx(
        krippendorff.alpha(reliability_data=codes, level_of_measurement="nominal")
    )


# --- 8. numerics of the standard error -----------------------------------------------------


def _exact_se_squared(C):
    """Fleiss, Cohen & Everitt (1969) variance of unweighted kappa, in fractions."""
    C = [[Fraction(int(x)) for x in row] for row in C]
    K, N = len(C), sum(map(sum, C))
    p = [[x / N for x in row] for row in C]
    r = [sum(row) for row in p]
    c = [sum(p[i][j] for i in range(K)) for j in range(K)]
    pe = sum(r[k] * c[k] for k in range(K))
    po = sum(p[k][k] for k in range(K))
    k = (po - pe) / (1 - pe)
    term = sum(
        p[i][j] * ((i == j) - (c[i] + r[j]) * (1 - k)) ** 2 for i in range(K) for j in range(K)
    )
    return (term - (k - pe * (1 - k)) ** 2) / (N * (1 - pe) ** 2)


@pytest.mark.parametrize(
    "C",
    [
        [[1000, 2], [0, 0]],
        [[10**6, 3], [1, 0]],
        [[5, 1], [0, 0]],
        [[0, 3], [0, 17]],
        [[2, 1], [0, 17]],
    ],
)
def test_bug08_standard_error_without_cancellation(C):
    """The variance was a difference of two nearly equal squares: 2.4e-7 (linear) or 2.2e-8
    where the exact value is 0, so a Wald interval of zero width looked like a real one."""
    exact = float(_exact_se_squared(C)) ** 0.5
    for weighting in (None, "linear", "quadratic"):  # identical for K = 2
        got = kl.kappa_standard_error(C, weighting=weighting)
        if exact == 0:
            assert got == 0.0, weighting
        else:
            assert got == pytest.approx(exact, rel=1e-9), weighting


# --- 9. a weighted interval from labels, in the order they were given ----------------------


def _severity(seed=9, n=200):
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, 3, n)
    other = np.clip(truth + rng.integers(-1, 2, n) * (rng.random(n) < 0.3), 0, 2)
    order = ["low", "medium", "high"]  # spelling sorts it high < low < medium
    return np.array(order)[truth], np.array(order)[other], order


def test_bug09_matrix_from_spelling_refuses_weighting():
    y1, y2, order = _severity()
    C = kl.confusion_matrix(y1, y2)
    for f in (kl.kappa, kl.kappa_confint, kl.kappa_standard_error, kl.gwet_ac1):
        with pytest.raises(ValueError, match="labels=") as info:
            f(C, weighting="quadratic")
        assert "['high', 'low', 'medium']" in str(info.value)
    assert kl.kappa(C) == pytest.approx(sk_kappa(y1, y2), abs=1e-12)  # unweighted: no order
    ordered = kl.confusion_matrix(y1, y2, labels=order)
    assert kl.kappa(ordered, weighting="quadratic") == pytest.approx(
        sk_kappa(y1, y2, labels=order, weights="quadratic"), abs=1e-12
    )
    # the labels travel with the matrix (C.labels, C.ordered), not in a registry: a copy and
    # a whole view refuse as the original does; np.asarray(C) is a plain matrix, whose
    # order is its rows' (the caller's to get right)
    assert isinstance(C, np.ndarray) and C.labels == ("high", "low", "medium")
    assert not C.ordered and ordered.ordered
    for same in (C.copy(), C[:], C[...], C.T, C * 1.0):
        with pytest.raises(ValueError, match="labels="):
            kl.kappa(same, weighting="quadratic")
    plain = np.asarray(C)
    assert type(plain) is np.ndarray
    assert kl.kappa(plain, weighting="quadratic") == pytest.approx(
        sk_kappa(y1, y2, labels=sorted(order), weights="quadratic"), abs=1e-12
    )


def test_bug09_interval_from_labels_agrees_with_its_estimate():
    y1, y2, order = _severity()
    low, high = kl.cohen_kappa_confint(y1, y2, labels=order, weighting="quadratic")
    table = kl.confusion_matrix(y1, y2, labels=order)
    res = cohens_kappa(np.asarray(table), wt="quadratic")
    estimate = sk_kappa(y1, y2, labels=order, weights="quadratic")
    assert res.kappa == pytest.approx(estimate, abs=1e-12)
    z = 1.959963984540054
    assert low == pytest.approx(estimate - z * res.std_kappa, abs=1e-9)
    assert high == pytest.approx(min(1.0, estimate + z * res.std_kappa), abs=1e-9)
    with pytest.raises(ValueError, match="labels="):
        kl.cohen_kappa_confint(y1, y2, weighting="quadratic")


def test_bug09_an_ordered_categorical_gives_its_order():
    y1, y2, order = _severity()
    dtype = pd.CategoricalDtype(order, ordered=True)
    s1, s2 = pd.Series(y1, dtype=dtype), pd.Series(y2, dtype=dtype)
    expected = sk_kappa(y1, y2, labels=order, weights="quadratic")
    assert kl.cohen_kappa_score(s1, s2, weighting="quadratic") == pytest.approx(expected)
    C = kl.confusion_matrix(s1, s2)
    assert C.tolist() == kl.confusion_matrix(y1, y2, labels=order).tolist()
    assert kl.kappa(C, weighting="quadratic") == pytest.approx(expected, abs=1e-12)


# --- 10. layouts that cannot be right -------------------------------------------------------


def test_bug10_a_subject_id_column_is_refused():
    ratings = _three_raters(seed=5, n=30)
    frame = pd.DataFrame(ratings, columns=["a", "b", "c"])
    frame.insert(0, "subject", np.arange(1, 31))
    with pytest.raises(ValueError, match=r"column 'subject'.*subject id"):
        kl.krippendorff_alpha(frame)
    theirs = krippendorff.alpha(reliability_data=ratings.T, level_of_measurement="nominal")
    assert kl.krippendorff_alpha(frame.set_index("subject")) == pytest.approx(theirs)
    # string ids too
    frame["subject"] = [f"s{i:02d}" for i in range(30)]
    with pytest.raises(ValueError, match="subject id"):
        kl.rating_table(frame.astype(str))


def test_bug10_more_raters_than_units_asks_for_the_layout():
    rng = np.random.default_rng(1)
    tall = rng.integers(1, 4, size=(40, 3))
    with pytest.raises(
        ValueError, match=r"40 x 3 array with no layout.*40 raters, 3 units.*40 units, 3 raters"
    ):
        kl.krippendorff_alpha(tall)
    theirs = krippendorff.alpha(reliability_data=tall.T, level_of_measurement="nominal")
    assert kl.krippendorff_alpha(tall, layout="units x raters") == pytest.approx(theirs)
    theirs = krippendorff.alpha(reliability_data=tall, level_of_measurement="nominal")
    assert kl.krippendorff_alpha(tall, layout="raters x units") == pytest.approx(theirs)
    with pytest.raises(ValueError, match="layout must be"):
        kl.krippendorff_alpha(tall, layout="rows are raters")


# --- 11. messages ------------------------------------------------------------------------------


def test_bug11_nan_label_message_names_the_position_and_the_way_out():
    with pytest.raises(ValueError, match=r"index 2 \(2 of 4 cases\).*dropna"):
        kl.cohen_kappa_score([1.0, 2.0, np.nan, np.nan], [1.0, 2.0, 2.0, 1.0])
    with pytest.raises(ValueError, match=r"index 1 .*dropna"):
        kl.confusion_matrix(pd.Series(["a", None, "b"]), pd.Series(["a", "b", "b"]))


def test_bug11_order_message_quotes_the_users_labels():
    with pytest.raises(ValueError) as info:
        kl.cohen_kappa_score(["b", "a", "c"], ["a", "a", "c"], weighting="linear")
    message = str(info.value)
    assert "['a', 'b', 'c']" in message
    assert "'high'" not in message and "'low'" not in message


# --- 12. a wrong label set is a ValueError --------------------------------------------------


def test_bug12_labels_of_the_wrong_kind_raise_valueerror_like_scikit_learn():
    y1, y2 = ["a", "b", "a"], ["a", "b", "b"]
    with pytest.raises(ValueError):
        sk_kappa(y1, y2, labels=[1, 2])
    for call in (
        lambda: kl.cohen_kappa_score(y1, y2, labels=[1, 2]),
        lambda: kl.confusion_matrix(y1, y2, labels=[1, 2]),
        lambda: kl.matthews_corrcoef(y1, y2, labels=[1, 2]),
        lambda: kl.confusion_matrix([1, 2, 3], ["1", "2", "3"]),
    ):
        with pytest.raises(ValueError, match="all numbers or all strings"):
            call()
        with pytest.raises(TypeError):  # still caught by kappalib 0.1's except TypeError
            call()
