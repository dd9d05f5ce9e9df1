"""Issue 30, item 15: polars and pyarrow frames and vectors, with neither a dependency.

A frame that is not pandas' but speaks the dataframe interchange protocol or the Arrow
PyCapsule stream (``__dataframe__``, ``__arrow_c_stream__``: a polars DataFrame, a pyarrow
Table) is read as a pandas DataFrame is, one row per unit, its columns the raters, column by
column through ``to_numpy``.  Before, it went through numpy as a plain array: refused as "8
raters for 3 units", or, wider than tall, read raters x units without a word.  A stand-in
frame (numpy columns behind the two protocol names) runs everywhere; the real polars and
pyarrow run where they are installed (they are not in the requirements: each is tens of MB).
Oracle: the ``krippendorff`` package on the units x raters table, and scikit-learn.
"""

import krippendorff
import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score

import kappalib as kl

# 3 units x 5 raters (wider than tall: the shape a plain array would have been misread by)
TABLE = {
    "r1": [1.0, 2.0, 3.0],
    "r2": [1.0, 2.0, 3.0],
    "r3": [1.0, 2.0, 2.0],
    "r4": [1.0, np.nan, 3.0],
    "r5": [2.0, 2.0, 3.0],
}


def _oracle():
    units_x_raters = np.column_stack(list(TABLE.values()))
    return krippendorff.alpha(reliability_data=units_x_raters.T, level_of_measurement="nominal")


class _Column:
    def __init__(self, values):
        self._values = np.asarray(values)

    def to_numpy(self):  # polars' signature: no dtype= (the error of issue 30)
        return self._values


class StandInFrame:
    """The least a polars-like frame offers: the protocol name, columns, one column."""

    def __init__(self, columns):
        self._columns = columns
        self.columns = list(columns)

    def __dataframe__(self, *args, **kwargs):  # pragma: no cover - never called
        raise AssertionError("kappalib reads the columns, not the interchange object")

    def __getitem__(self, name):
        return _Column(self._columns[name])

    def __array__(self, dtype=None, copy=None):  # what numpy would have read before
        return np.column_stack(list(self._columns.values()))


def test_a_protocol_frame_is_read_one_row_per_unit():
    frame = StandInFrame(TABLE)
    assert kl.krippendorff_alpha(frame) == pytest.approx(_oracle(), abs=1e-12)
    report = kl.ratings_report(frame, rng=0)
    assert "3 units" in report.methods_paragraph()


def test_a_protocol_frame_of_strings_with_a_null():
    frame = StandInFrame({"a": ["x", "y", None, "x"], "b": ["x", "y", "y", "x"]})
    assert kl.krippendorff_alpha(frame) == pytest.approx(1.0)


def test_polars():
    pl = pytest.importorskip("polars")
    df = pl.DataFrame({k: [None if np.isnan(v) else v for v in vs] for k, vs in TABLE.items()})
    assert kl.krippendorff_alpha(df) == pytest.approx(_oracle(), abs=1e-12)
    y1, y2 = ["a", "b", "a", "b", "a"], ["a", "b", "b", "b", "a"]
    assert kl.cohen_kappa_score(pl.Series(y1), pl.Series(y2)) == pytest.approx(
        cohen_kappa_score(y1, y2)
    )


def test_pyarrow():
    pa = pytest.importorskip("pyarrow")
    table = pa.table({k: [None if np.isnan(v) else v for v in vs] for k, vs in TABLE.items()})
    assert kl.krippendorff_alpha(table) == pytest.approx(_oracle(), abs=1e-12)
    big = pa.array([str(i) for i in range(100_000)])
    with pytest.raises(TypeError) as err:
        kl.cohen_kappa_score(pa.array(list(range(100_000))), big)
    assert len(str(err.value)) < 400  # the column is not dumped
