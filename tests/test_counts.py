"""kl.matrix_from_counts: a long table of label pairs and counts, as pandas, a dict, the rows
of an SQL cursor (sqlite3 from the standard library) or DuckDB return it.

Oracle: scikit-learn's confusion_matrix of the same pairs, each repeated as many times as
its count (np.repeat), and a plain-Python sum of the counts per pair.
"""

from __future__ import annotations

import sqlite3
from collections import Counter

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import confusion_matrix

import kappalib as kl


def _random_counts(seed, strings=True):
    rng = np.random.default_rng(seed)
    cats = ["low", "mid", "high", "top"] if strings else [3, 1, 2, 7]
    m = int(rng.integers(5, 30))
    a = [cats[i] for i in rng.integers(0, 4, size=m)]
    b = [cats[i] for i in rng.integers(0, 4, size=m)]
    n = rng.integers(0, 50, size=m).tolist()  # duplicates pairs and zeros on purpose
    return a, b, n, cats


def _oracle(a, b, n, labels):
    return confusion_matrix(np.repeat(a, n), np.repeat(b, n), labels=labels)


@pytest.mark.parametrize("seed", range(20))
def test_every_input_form_gives_sklearns_matrix(seed):
    a, b, n, cats = _random_counts(seed, strings=seed % 2 == 0)
    if sum(n) == 0:
        n[0] = 1
    expected = _oracle(a, b, n, cats)
    rows = list(zip(a, b, n, strict=True))
    forms = [
        (pd.DataFrame({"x": a, "y": b, "n": n}), {"columns": ("x", "y")}),
        ({"x": a, "y": b, "n": n}, {"columns": ("x", "y")}),
        (rows, {"columns": (0, 1), "count": 2}),
    ]
    con = sqlite3.connect(":memory:")
    con.execute("create table t (x, y, n)")
    con.executemany("insert into t values (?, ?, ?)", rows)
    forms.append((con.execute("select x, y, n from t"), {"columns": ("x", "y")}))
    for frame, kw in forms:
        C = kl.matrix_from_counts(frame, labels=cats, **kw)
        assert C.dtype == np.int64
        np.testing.assert_array_equal(C, expected)


def test_duplicates_are_summed_by_plain_python():
    a, b, n, cats = _random_counts(3)
    total = Counter()
    for x, y, k in zip(a, b, n, strict=True):
        total[(x, y)] += k
    C = kl.matrix_from_counts({"a": a, "b": b, "n": n}, columns=("a", "b"), labels=cats)
    for i, x in enumerate(cats):
        for j, y in enumerate(cats):
            assert C[i, j] == total[(x, y)]


def test_duckdb_cursor_and_relation():
    duckdb = pytest.importorskip("duckdb")
    con = duckdb.connect()
    con.execute(
        "create table r as select (i % 3) as a, ((i * 7) % 5 % 3) as b from range(3000) t(i)"
    )
    i = np.arange(3000)
    expected = confusion_matrix(i % 3, (i * 7) % 5 % 3)
    sql = "select a, b, count(*) as n from r group by a, b"
    np.testing.assert_array_equal(
        kl.matrix_from_counts(con.execute(sql), columns=("a", "b")), expected
    )
    np.testing.assert_array_equal(kl.matrix_from_counts(con.sql(sql), columns=("a", "b")), expected)
    np.testing.assert_array_equal(
        kl.matrix_from_counts(con.sql(sql).df(), columns=("a", "b")), expected
    )


def test_fractional_counts_stay_float():
    C = kl.matrix_from_counts({"a": [0, 1], "b": [0, 1], "n": [1.5, 2.0]}, columns=("a", "b"))
    assert C.dtype == np.float64 and C.tolist() == [[1.5, 0.0], [0.0, 2.0]]


def test_the_report_names_the_categories_of_the_matrix():
    rows = [("yes", "yes", 8), ("yes", "no", 2), ("no", "yes", 1), ("no", "no", 9)]
    C = kl.matrix_from_counts(rows, columns=(0, 1), count=2, labels=["yes", "no"])
    r = kl.agreement_report(C=C)
    assert r.labels == ("yes", "no") and r.estimate == pytest.approx(0.7)


def test_spelling_order_is_never_used_for_weights():
    frame = {"a": ["lo", "hi", "mid"], "b": ["lo", "mid", "mid"], "n": [5, 2, 4]}
    C = kl.matrix_from_counts(frame, columns=("a", "b"))
    with pytest.raises(ValueError, match=r"spell|order"):
        kl.kappa(C, weighting="linear")
    with pytest.raises(ValueError, match=r"spell|order"):
        kl.agreement_report(C=C, weighting="linear")
    C = kl.matrix_from_counts(frame, columns=("a", "b"), labels=["lo", "mid", "hi"])
    assert kl.kappa(C, weighting="linear") is not None


@pytest.mark.parametrize(
    ("frame", "kw", "error", "words"),
    [
        ({"a": [1], "b": [1], "n": [1]}, {"columns": ("a", "c")}, ValueError, "no column 'c'"),
        ({"a": [1], "b": [1]}, {"columns": ("a", "b")}, ValueError, "no column 'n'"),
        (
            pd.DataFrame({"a": [1], "b": [1], "k": [1]}),
            {"columns": ("a", "b")},
            ValueError,
            "its columns are a, b, k",
        ),
        ({"a": [], "b": [], "n": []}, {"columns": ("a", "b")}, ValueError, "empty"),
        ({"a": [1, 2], "b": [1, 2], "n": [1, -1]}, {"columns": ("a", "b")}, ValueError, "-1"),
        ({"a": [1, 2], "b": [1, 2], "n": [1, "x"]}, {"columns": ("a", "b")}, ValueError, "'x'"),
        (
            {"a": [1, 2], "b": [1, 2], "n": [1, float("inf")]},
            {"columns": ("a", "b")},
            ValueError,
            "inf",
        ),
        (
            {"a": [1, None], "b": [1, 2], "n": [1, 1]},
            {"columns": ("a", "b")},
            ValueError,
            "IS NOT NULL",
        ),
        (
            {"a": [1, 3], "b": [1, 2], "n": [1, 1]},
            {"columns": ("a", "b"), "labels": [1, 2]},
            ValueError,
            "label 3 outside",
        ),
        (
            {"a": ["x", ""], "b": ["x", "x"], "n": [1, 1]},
            {"columns": ("a", "b")},
            ValueError,
            "reads as a missing rating",
        ),
        (
            {"a": ["x", "x"], "b": ["x", "NA"], "n": [1, 1]},
            {"columns": ("a", "b")},
            ValueError,
            "'NA' in row 1",
        ),
        ([(1, 1, 2)], {"columns": ("a", "b")}, TypeError, "positions"),
        ([(1, 1, 2), (1, 2)], {"columns": (0, 1), "count": 2}, ValueError, "lengths"),
        ({"a": [1], "b": [1], "n": [1]}, {"columns": "ab"}, TypeError, "two label columns"),
        (42, {"columns": ("a", "b")}, TypeError, "int"),
    ],
)
def test_bad_count_tables(frame, kw, error, words):
    with pytest.raises(error) as info:
        kl.matrix_from_counts(frame, **kw)
    assert words in str(info.value)
