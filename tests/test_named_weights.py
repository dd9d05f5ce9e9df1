"""Gwet's named weights (ordinal, radical, ratio, circular, bipolar; Gwet 2014, ch. 3) against
irrCAC 0.4.4, the package that offers them: the weight matrices themselves, and every
coefficient that takes ``weighting=`` (Cohen's kappa, two-rater AC2 and Brennan-Prediger
from a table; AC2, generalized Fleiss, Conger, Brennan-Prediger and Krippendorff's alpha
from raw ratings), values and Gwet's standard errors, on random rating data.

irrCAC is imported from .venv/oracles (requirements-oracles.txt); it is always given
``categories=`` (see tests/test_parity_irrcac.py) and ``digits=15``.
"""

import sys
import warnings

import numpy as np
import pandas as pd
import pytest
from ratings_data import ROOT, cases

import kappalib as kl

sys.path.insert(0, str(ROOT / ".venv" / "oracles"))
from irrCAC import raw, table
from irrCAC.weights import Weights

NAMED = ["ordinal", "radical", "ratio", "circular", "bipolar", "linear", "quadratic"]
NEW = ["ordinal", "radical", "ratio", "circular", "bipolar"]


def _quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # irrCAC's t-interval on tiny samples
        return fn(*args, **kwargs)


def _agreement(W):
    return 1.0 - W / W.max()


@pytest.mark.parametrize("name", NAMED)
@pytest.mark.parametrize("K", [2, 3, 5, 8])
def test_the_weights_are_irrcacs_on_positions(name, K):
    """On categories that are not numbers irrCAC numbers them 1..K: kappalib's positions."""
    theirs = Weights([f"c{i}" for i in range(K)])[name]
    ours = _agreement(kl.disagreement_weights(K, name))
    np.testing.assert_allclose(ours, theirs, atol=1e-15)


@pytest.mark.parametrize("name", [n for n in NAMED if n != "ordinal"])
def test_the_weights_are_irrcacs_on_scores(name):
    """Numeric categories: irrCAC uses their values, kappalib the same values as scores."""
    values = [1.0, 2.0, 4.0, 7.0, 11.0]
    theirs = Weights(values)[name]
    ours = _agreement(kl.disagreement_weights(5, name, scores=values))
    np.testing.assert_allclose(ours, theirs, atol=1e-15)


def test_ordinal_counts_categories_whatever_the_values():
    """irrCAC's ordinal weights use positions even for numeric categories."""
    theirs = Weights([1.0, 2.0, 4.0, 7.0, 11.0])["ordinal"]
    np.testing.assert_allclose(_agreement(kl.disagreement_weights(5, "ordinal")), theirs)


def test_the_ordinal_and_circular_closed_forms():
    """Exact values, written out: ordinal = C(|i-j|+1, 2); circular on 4 = sin^2(pi d / 4)."""
    assert kl.disagreement_weights(4, "ordinal").tolist() == [
        [0, 1, 3, 6],
        [1, 0, 1, 3],
        [3, 1, 0, 1],
        [6, 3, 1, 0],
    ]
    circ = kl.disagreement_weights(4, "circular")
    np.testing.assert_allclose(circ[0], [0, 0.5, 1, 0.5], atol=1e-15)


def _table(seed):
    rng = np.random.default_rng(seed)
    K = int(rng.integers(2, 7))
    truth = rng.integers(0, K, size=int(rng.integers(15, 120)))
    other = np.where(
        rng.random(truth.size) < rng.uniform(0.2, 0.9), truth, rng.integers(0, K, truth.size)
    )
    return kl.confusion_matrix(truth, other, labels=list(range(K)))


@pytest.mark.parametrize("name", NEW)
@pytest.mark.parametrize("seed", range(12))
def test_two_rater_coefficients_against_irrcac_tables(name, seed):
    C = np.asarray(_table(seed))
    cac = _quiet(table.CAC, pd.DataFrame(C), weights=name, digits=15)
    cohen = _quiet(cac.cohen)["est"]
    assert kl.kappa(C, weighting=name) == pytest.approx(cohen["coefficient_value"], abs=1e-12)
    assert kl.kappa_standard_error(C, weighting=name) == pytest.approx(cohen["se"], abs=1e-12)
    ac2 = _quiet(cac.gwet)["est"]["coefficient_value"]
    assert kl.gwet_ac1(C, weighting=name) == pytest.approx(ac2, abs=1e-12)
    bp = _quiet(cac.bp)["est"]["coefficient_value"]
    assert kl.brennan_prediger(C, weighting=name) == pytest.approx(bp, abs=1e-12)


def _raw(data, domain, name):
    return _quiet(
        raw.CAC, pd.DataFrame(data.T), weights=name, categories=domain.tolist(), digits=15
    )


@pytest.mark.parametrize("name", NEW)
@pytest.mark.parametrize("batch", range(3))
def test_many_rater_coefficients_against_irrcac(name, batch):
    for seed, data, domain in cases(batch):
        tab = kl.rating_table(data, layout="raters x units", labels=domain)
        cac = _raw(data, domain, name)
        pairs = [
            (kl.gwet_ac1_multi(tab, weighting=name), _quiet(cac.gwet), "ac2", tab),
            (
                kl.fleiss_kappa_generalized(tab, weighting=name),
                _quiet(cac.fleiss),
                "fleiss_generalized",
                tab,
            ),
            (kl.brennan_prediger_multi(tab, weighting=name), _quiet(cac.bp), "bp", tab),
        ]
        if (~np.isnan(data)).sum(axis=0).min() >= 0:
            conger = kl.conger_kappa(data, layout="raters x units", labels=domain, weighting=name)
            pairs.append((conger, _quiet(cac.conger), "conger", data))
        alpha = kl.krippendorff_alpha(data, layout="raters x units", labels=domain, weighting=name)
        pairs.append((alpha, _quiet(cac.krippendorff), "alpha", data))
        for ours, theirs, coefficient, arg in pairs:
            est = theirs["est"]
            if ours is None or not np.isfinite(est["coefficient_value"]):
                continue
            assert ours == pytest.approx(est["coefficient_value"], abs=1e-10), (seed, coefficient)
            kw = {"layout": "raters x units", "labels": domain} if arg is data else {}
            se = kl.ratings_standard_error(arg, coefficient=coefficient, weighting=name, **kw)
            if est["se"] > 1e-14:  # irrCAC puts 1e-15 where the SE is 0
                assert se == pytest.approx(est["se"], abs=1e-10), (seed, coefficient)


def test_ratio_weights_refuse_negative_scores_and_ordinal_refuses_scores():
    with pytest.raises(ValueError, match="non-negative scores"):
        kl.disagreement_weights(3, "ratio", scores=[-1, 0, 1])
    with pytest.raises(ValueError, match="takes no scores"):
        kl.kappa([[3, 1], [1, 3]], weighting="ordinal", scores=[1, 2])
    with pytest.raises(ValueError, match="'circular'"):
        kl.kappa([[3, 1], [1, 3]], weighting="round")


def test_alpha_takes_a_level_or_a_weighting_not_both():
    data = kl.datasets.load("krippendorff2011_example").data
    with pytest.raises(ValueError, match="either level_of_measurement or weighting"):
        kl.krippendorff_alpha(data, level_of_measurement="interval", weighting="quadratic")
    # the interval level is quadratic weights on the values (Krippendorff 2011: 0.849)
    assert kl.krippendorff_alpha(
        data, weighting="quadratic", layout="raters x units"
    ) == pytest.approx(0.849, abs=5e-4)


def test_irrcac_documents_ac2_with_bipolar_weights():
    """irrCAC 0.4.4's module docstring (irrCAC/raw.py): on Krippendorff's (2011) 4 raters x 12
    units, AC2 with bipolar weights is 0.90037, standard error 0.10582, 95% interval
    (0.66747, 1), rounded to 5 decimals."""
    table = kl.rating_table(
        kl.datasets.load("krippendorff2011_example").data, layout="raters x units"
    )
    assert kl.gwet_ac1_multi(table, weighting="bipolar") == pytest.approx(0.90037, abs=5e-6)
    se = kl.ratings_standard_error(table, coefficient="ac2", weighting="bipolar")
    assert se == pytest.approx(0.10582, abs=5e-6)
    ci = kl.ratings_confint(table, coefficient="ac2", weighting="bipolar")
    assert (ci.low, ci.high) == (pytest.approx(0.66747, abs=5e-6), 1.0)
