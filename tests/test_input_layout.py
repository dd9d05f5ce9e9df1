"""Issue 30, item 9: a layout is never guessed from a shape.

A 3 x 5 array is 3 raters of 5 units or 5 raters of 3 units, and the two readings give
different numbers; before this fix it was read raters x units without a word (and a 40 x 3
array was refused only because it had more rows than columns).  Every entry point that takes
raw ratings now refuses a plain array or list without ``layout=``, naming both readings; a
DataFrame is read one row per unit (its columns are the raters).  Oracles: the
``krippendorff`` package and statsmodels' Fleiss kappa, each on the reading it is given.
"""

import krippendorff
import numpy as np
import pytest
from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa

import kappalib as kl

pd = pytest.importorskip("pandas")

# 3 rows, 5 columns: as 3 raters x 5 units and as 3 units x 5 raters, alpha differs
WIDE = np.array([[1, 2, 3, 3, 2], [1, 2, 3, 3, 1], [1, 1, 3, 3, 1]])
TALL = np.random.default_rng(1).integers(1, 4, size=(40, 3))  # 40 raters x 3 units?

ENTRY_POINTS = {
    "krippendorff_alpha": lambda d, **k: kl.krippendorff_alpha(d, **k),
    "rating_table": lambda d, **k: kl.rating_table(d, **k),
    "conger_kappa": lambda d, **k: kl.conger_kappa(d, **k),
    "light_kappa": lambda d, **k: kl.light_kappa(d, **k),
    "ratings_standard_error": lambda d, **k: kl.ratings_standard_error(d, coefficient="alpha", **k),
    "ratings_confint": lambda d, **k: kl.ratings_confint(d, coefficient="alpha", **k),
    "kappa_difference": lambda d, **k: kl.kappa_difference(d, ((0, 1), (0, 2)), **k),
    "light_kappa_test": lambda d, **k: kl.light_kappa_test(d, **k),
    "icc": lambda d, **k: kl.icc(np.asarray(d, dtype=float), **k),
    "overall_ccc": lambda d, **k: kl.overall_ccc(np.asarray(d, dtype=float), **k),
    "ratings_report": lambda d, **k: kl.ratings_report(d, rng=0, **k),
}


def _alpha(reliability_data):
    return krippendorff.alpha(
        reliability_data=np.asarray(reliability_data, dtype=float),
        level_of_measurement="nominal",
    )


def test_the_two_readings_of_a_3_x_5_array_differ():
    """The premise: the shape does not settle the number."""
    assert abs(_alpha(WIDE) - _alpha(WIDE.T)) > 0.1


@pytest.mark.parametrize("data", [WIDE, WIDE.tolist(), TALL], ids=["3x5", "3x5 list", "40x3"])
@pytest.mark.parametrize("name", sorted(ENTRY_POINTS))
def test_a_plain_array_without_layout_is_refused(name, data):
    r, c = np.shape(data)
    with pytest.raises(ValueError) as err:
        ENTRY_POINTS[name](data)
    text = str(err.value)
    assert f"ratings is a {r} x {c} array with no layout" in text
    assert f"layout='raters x units' if each row is a rater ({r} raters, {c} units" in text
    assert f"layout='units x raters' if each row is a unit ({r} units, {c} raters" in text


@pytest.mark.parametrize("data", [WIDE, TALL], ids=["3x5", "40x3"])
def test_each_layout_is_read_as_said(data):
    rows = kl.krippendorff_alpha(data, layout="raters x units")
    cols = kl.krippendorff_alpha(data, layout="units x raters")
    assert rows == pytest.approx(_alpha(data), abs=1e-12)
    assert cols == pytest.approx(_alpha(data.T), abs=1e-12)
    # Fleiss' kappa from rating_table, against statsmodels on the units x raters reading
    for layout, units_x_raters in (("raters x units", data.T), ("units x raters", data)):
        table = kl.rating_table(data, layout=layout, labels=[1, 2, 3])
        theirs = fleiss_kappa(aggregate_raters(units_x_raters, n_cat=None)[0])
        assert kl.fleiss_kappa(table) == pytest.approx(theirs, abs=1e-12)


def test_a_dataframe_is_read_one_row_per_unit():
    df = pd.DataFrame(WIDE, columns=[f"rater{j}" for j in range(5)])  # 3 units, 5 raters
    assert kl.krippendorff_alpha(df) == pytest.approx(_alpha(WIDE.T), abs=1e-12)
    assert kl.krippendorff_alpha(df, layout="raters x units") == pytest.approx(
        _alpha(WIDE), abs=1e-12
    )
