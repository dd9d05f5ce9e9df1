"""Every multi-rater function on random ratings, in both layouts and as a DataFrame, against
the ``krippendorff`` package, irrCAC (Gwet's package) and statsmodels (issue 22).

The ratings are drawn by hypothesis: 2 to 6 raters, 3 to 25 units, 2 to 5 categories with
uneven numeric values, agreement from none to full, and (for the functions that allow it)
missing ratings.  Each case is given to kappalib three ways: a raters x units array with
``layout="raters x units"``, its transpose with ``layout="units x raters"``, and a DataFrame
with one row per unit and no ``layout`` at all; the three must give the oracle's value.
"""

import sys
import warnings

import krippendorff
import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from ratings_data import ROOT
from statsmodels.stats.inter_rater import aggregate_raters
from statsmodels.stats.inter_rater import fleiss_kappa as sm_fleiss

import kappalib as kl

sys.path.insert(0, str(ROOT / ".venv" / "oracles"))
try:
    from irrCAC.raw import CAC
except ImportError:  # the minimum-versions job may lack it
    CAC = None

LEVELS = ("nominal", "ordinal", "interval", "ratio")
SETTINGS = settings(max_examples=60, deadline=None, derandomize=True)


@st.composite
def ratings(draw, *, missing=True):
    """(raters x units float array with NaN for missing, the sorted category values)."""
    R = draw(st.integers(2, 6))
    n = draw(st.integers(3, 25))
    K = draw(st.integers(2, 5))
    domain = np.sort(
        np.array(draw(st.lists(st.integers(1, 30), min_size=K, max_size=K, unique=True)))
    ).astype(float)
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, K, n)
    agree = rng.uniform(0.0, 1.0)
    codes = np.where(rng.random((R, n)) < agree, truth, rng.integers(0, K, (R, n)))
    data = domain[codes]
    if missing:
        data[rng.random((R, n)) < draw(st.sampled_from([0.0, 0.1, 0.3]))] = np.nan
    return data, domain


def _forms(data):
    """The same ratings three ways: (container, layout)."""
    return [
        (data, "raters x units"),
        (data.T.copy(), "units x raters"),
        (pd.DataFrame(data.T, columns=[f"rater {i}" for i in range(data.shape[0])]), None),
    ]


def _pairable(data):
    m = (~np.isnan(data)).sum(axis=0)
    return m >= 2


@SETTINGS
@given(ratings())
def test_alpha_every_form_against_krippendorff(case):
    data, _ = case
    ok = _pairable(data)
    assume(ok.any())
    values = data[:, ok]
    assume(len(np.unique(values[~np.isnan(values)])) >= 2)
    for level in LEVELS:
        theirs = krippendorff.alpha(reliability_data=data, level_of_measurement=level)
        for container, layout in _forms(data):
            ours = kl.krippendorff_alpha(container, level_of_measurement=level, layout=layout)
            assert ours == pytest.approx(theirs, abs=1e-9), (level, layout)


@SETTINGS
@given(ratings(missing=False))
def test_rating_table_and_fleiss_every_form_against_statsmodels(case):
    data, _ = case
    counts, cats = aggregate_raters(data.T)  # statsmodels: units x raters
    for container, layout in _forms(data):
        table = kl.rating_table(container, layout=layout)
        ours_cats = np.asarray(table.labels)
        assert ours_cats.tolist() == cats.tolist()
        assert table.tolist() == counts.tolist()
        p = counts.sum(axis=0) / counts.sum()
        if np.isclose(p @ p, 1.0):
            assert kl.fleiss_kappa(table) is None
        else:
            assert kl.fleiss_kappa(table) == pytest.approx(sm_fleiss(counts), abs=1e-9)


def _irr(frame, domain, weights):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return CAC(frame, weights=weights, categories=domain.tolist(), digits=15)


def _value(result):
    return float(result["est"]["coefficient_value"])


@pytest.mark.skipif(CAC is None, reason="irrCAC is not installed here")
@SETTINGS
@given(ratings(), st.sampled_from([None, "linear", "quadratic"]))
def test_ac1_bp_every_form_against_irrcac(case, weighting):
    data, domain = case
    assume(_pairable(data).any())
    cac = _irr(pd.DataFrame(data.T), domain, weighting or "identity")
    ac1, bp = _value(cac.gwet()), _value(cac.bp())
    for container, layout in _forms(data):
        # every category offered, whether or not it was used: here and in the table
        table = kl.rating_table(container, layout=layout, labels=domain)
        assert kl.gwet_ac1_multi(table, weighting=weighting) == pytest.approx(ac1, abs=1e-9)
        assert kl.brennan_prediger_multi(table, weighting=weighting) == pytest.approx(bp, abs=1e-9)
        observed = kl.rating_table(container, layout=layout)
        assert kl.gwet_ac1_multi(
            kl.RatingTable(observed, labels=domain), weighting=weighting
        ) == pytest.approx(ac1, abs=1e-9)


@SETTINGS
@given(ratings(), st.sampled_from([1, 2, 300]))
def test_every_fast_path_agrees_with_the_general_path(case, raters_factor):
    """The integer fast paths (one comparison per value below 17 values and 256 raters, one
    bincount per block otherwise) against the general path that categories= forces (codes
    by search, one bincount of the whole table), on the same ratings: the counts, alpha at
    every level and Gwet's AC1 must be the same.  raters_factor repeats the raters, past
    the 255 that the comparison path counts in a byte."""
    data, domain = case
    data = np.tile(data, (raters_factor, 1))
    complete = data[:, ~np.isnan(data).any(axis=0)]
    assume(complete.shape[1] >= 1)
    fast = kl.rating_table(complete, layout="raters x units")
    fast_cats = np.asarray(fast.labels)
    general = kl.rating_table(complete, layout="raters x units", labels=domain)
    used = np.isin(domain, fast_cats)
    assert np.array_equal(np.asarray(general)[:, used], np.asarray(fast))
    assume(len(np.unique(complete)) >= 2 and complete.shape[0] >= 2)
    for level in LEVELS:
        a = kl.krippendorff_alpha(complete, level_of_measurement=level, layout="raters x units")
        b = kl.krippendorff_alpha(
            complete, level_of_measurement=level, layout="raters x units", labels=domain
        )
        assert a == pytest.approx(b, abs=1e-9), level
    assert kl.gwet_ac1_multi(general) == pytest.approx(
        kl.gwet_ac1_multi(kl.RatingTable(fast, labels=domain)), abs=1e-12
    )
