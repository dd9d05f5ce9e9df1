"""kappalib.datasets against the published tables and a plain csv reading of each file.

The oracles: the shapes, totals and missing patterns printed by the sources (Fleiss 1971,
table 1; Krippendorff 2011, the m_u row of the worked example; Gwet 2014), and the stdlib
csv module read independently in ratings_data.read_csv.  The published coefficients of these
data are checked in test_multirater.py.
"""

import numpy as np
import pytest
from ratings_data import read_csv

from kappalib import datasets

NAMES = [
    "bland_altman1986_pefr",
    "bland_altman1999_cardiac_output",
    "fleiss1971_diagnoses",
    "gwet2014_5observers",
    "gwet2014_abstractors",
    "krippendorff2011_example",
]


def test_names_are_the_shipped_files():
    assert list(datasets.names()) == NAMES


@pytest.mark.parametrize("name", NAMES)
def test_load_matches_a_plain_csv_reading(name):
    header, rows = read_csv(f"{name}.csv")
    got = datasets.load(name)
    assert got.columns == tuple(header[1:])
    assert got.rows == tuple(row[0] for row in rows)
    expected = [[float(v) if v else np.nan for v in row[1:]] for row in rows]
    np.testing.assert_array_equal(got.data, np.array(expected))
    assert got.source[:1].isupper() and not got.source.startswith("#")
    assert "\n" not in got.source


def test_fleiss_1971_table_1():
    d = datasets.load("fleiss1971_diagnoses")
    assert d.data.dtype == np.int64 and d.data.shape == (30, 5)
    assert (d.data.sum(axis=1) == 6).all()  # six psychiatrists per patient
    assert d.rows == tuple(str(i) for i in range(1, 31))
    assert d.source.startswith("Fleiss, J. L. (1971)")


def test_krippendorff_2011_missing_pattern():
    d = datasets.load("krippendorff2011_example")
    assert d.data.dtype == np.float64 and d.data.shape == (4, 12)
    # the m_u row printed under the reliability data matrix: ratings per unit
    m_u = (~np.isnan(d.data)).sum(axis=0)
    assert m_u.tolist() == [3, 4, 4, 4, 4, 4, 4, 4, 4, 3, 2, 1]
    assert int(np.isnan(d.data).sum()) == 7
    assert set(np.unique(d.data[~np.isnan(d.data)])) == {1.0, 2.0, 3.0, 4.0, 5.0}


def test_gwet_2014_data():
    C = datasets.load("gwet2014_abstractors")
    assert C.data.shape == (3, 3) and int(C.data.sum()) == 100
    assert np.diag(C.data).tolist() == [13, 20, 56]
    assert C.rows == C.columns == ("ectopic", "aiu", "niu")
    five = datasets.load("gwet2014_5observers").data
    assert five.shape == (5, 15)
    complete = ~np.isnan(five).any(axis=1)
    assert complete.tolist() == [False, False, True, False, False]  # only observer 3


def test_unknown_name_lists_the_known_ones():
    with pytest.raises(ValueError, match="name must be one of bland_altman1986_pefr, ") as e:
        datasets.load("fleiss1971")
    assert "krippendorff2011_example" in str(e.value) and "'fleiss1971'" in str(e.value)
    with pytest.raises(TypeError, match="name must be a string"):
        datasets.load(3)
