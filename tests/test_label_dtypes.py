"""The label-level front ends over every label dtype, against a plain-Python count of pairs.

Random label pools of each dtype (int8 ... uint64 up to their extremes, bool, float, ``<U``
strings, object arrays of Python strings, pandas Series and Categorical), passed as numpy
arrays, lists, object arrays or pandas objects.  The oracle counts pairs of Python values
with ``collections.Counter``; it shares no code with kappalib.
"""

import warnings
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import kappalib as kl

pd = pytest.importorskip("pandas")

INT_DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]
TEXT = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"),
    max_size=6,
)


# kappalib's documented missing-value tokens (ARCHITECTURE.md, issue 30): compared stripped and
# case-folded; a string label that is one is refused unless labels= lists it (a blank always)
TOKENS = {"", "na", "n/a", "nan", "null", "#n/a", "<na>", ".", "-"}


def is_token(v, listed=()):
    key = v.strip().casefold() if isinstance(v, str) else None
    keys = {x.strip().casefold() for x in listed if isinstance(x, str)} - {""}
    return key in TOKENS and key not in keys


def count_pairs(y1, y2, labels):
    pairs = Counter(zip(y1, y2, strict=True))
    return np.array([[pairs[(a, b)] for b in labels] for a in labels])


@st.composite
def pools(draw):
    """(kind, dtype, a list of distinct Python label values)."""
    kind = draw(st.sampled_from(["int", "bool", "float", "str"]))
    if kind == "int":
        dtype = draw(st.sampled_from(INT_DTYPES))
        info = np.iinfo(dtype)
        # near the extremes, near zero, or anywhere: spans from 1 to the whole dtype
        values = st.one_of(
            st.integers(int(info.min), int(info.min) + 3),
            st.integers(int(info.max) - 3, int(info.max)),
            st.integers(max(int(info.min), -5), min(int(info.max), 5)),
            st.integers(int(info.min), int(info.max)),
        )
        pool = draw(st.lists(values, min_size=1, max_size=6, unique=True))
    elif kind == "bool":
        dtype = np.bool_
        pool = draw(st.lists(st.booleans(), min_size=1, max_size=2, unique=True))
    elif kind == "float":
        dtype = np.float64
        floats = st.floats(allow_nan=False, allow_infinity=False).map(lambda x: x + 0.0)
        pool = draw(st.lists(floats, min_size=1, max_size=6, unique=True))
    else:
        dtype = str
        pool = draw(st.lists(TEXT, min_size=1, max_size=6, unique=True))
    return kind, dtype, pool


def containers(kind, dtype, values):
    """The same labels in every container a user may pass."""
    arr = np.array(values, dtype=dtype)
    out = {"ndarray": arr, "list": list(values), "object ndarray": np.array(values, dtype=object)}
    if kind == "str":
        out["pandas string"] = pd.Series(values, dtype="string")
        out["pandas object"] = pd.Series(values, dtype=object)
    else:
        out["pandas"] = pd.Series(arr)
    out["categorical"] = pd.Categorical(values)
    return out


@settings(max_examples=200, deadline=None)
@given(pools(), st.data())
def test_confusion_matrix_equals_a_count_of_pairs(pool_spec, data):
    kind, dtype, pool = pool_spec
    n = data.draw(st.integers(1, 30))
    i1 = data.draw(st.lists(st.integers(0, len(pool) - 1), min_size=n, max_size=n))
    i2 = data.draw(st.lists(st.integers(0, len(pool) - 1), min_size=n, max_size=n))
    y1, y2 = [pool[i] for i in i1], [pool[i] for i in i2]
    observed = sorted(set(y1) | set(y2))
    expected = count_pairs(y1, y2, observed)
    c1 = containers(kind, dtype, y1)
    c2 = containers(kind, dtype, y2)
    name1 = data.draw(st.sampled_from(sorted(c1)))
    name2 = data.draw(st.sampled_from(sorted(c2)))
    if any(is_token(v) for v in observed):
        with pytest.raises(ValueError, match="reads as a missing label"):
            kl.confusion_matrix(c1[name1], c2[name2])
    else:
        C = kl.confusion_matrix(c1[name1], c2[name2])
        np.testing.assert_array_equal(C, expected, err_msg=f"{name1} x {name2}")
    # an explicit order: a permutation of a subset of the pool, and maybe a missing label
    labels = data.draw(st.permutations(pool))[: data.draw(st.integers(1, len(pool)))]
    expected = count_pairs(y1, y2, labels)
    if any(is_token(v, labels) for v in observed):
        with pytest.raises(ValueError, match="reads as a missing label"):
            kl.confusion_matrix(c1[name1], c2[name2], labels=labels)
    elif expected.sum() == 0:
        with pytest.raises(ValueError, match="labels"):
            kl.confusion_matrix(c1[name1], c2[name2], labels=labels)
    else:
        left_out = n - int(expected.sum())  # issue 30, item 13: said, with the count
        with (
            pytest.warns(UserWarning, match=f"leaves out {left_out} of {n} cases")
            if left_out
            else warnings.catch_warnings()
        ):
            if not left_out:
                warnings.simplefilter("error")
            C = kl.confusion_matrix(c1[name1], c2[name2], labels=labels)
        np.testing.assert_array_equal(C, expected, err_msg=f"{name1} x {name2}, {labels}")


@settings(max_examples=50, deadline=None)
@given(pools(), pools())
def test_numbers_and_strings_never_merge(a, b):
    """One rule: all numbers or all strings, in y1 and y2 together."""
    (kind_a, dtype_a, pool_a), (kind_b, dtype_b, pool_b) = a, b
    numbers_a, numbers_b = kind_a != "str", kind_b != "str"
    y1 = np.array(pool_a[:1] * 3, dtype=dtype_a)
    y2 = np.array(pool_b[:1] * 3, dtype=dtype_b)
    if numbers_a == numbers_b:
        if not numbers_a and (is_token(pool_a[0]) or is_token(pool_b[0])):
            with pytest.raises(ValueError, match="reads as a missing label"):
                kl.confusion_matrix(y1, y2)
        else:
            assert kl.confusion_matrix(y1, y2).sum() == 3
    else:
        with pytest.raises(TypeError, match="all numbers or all strings"):
            kl.confusion_matrix(y1, y2)
