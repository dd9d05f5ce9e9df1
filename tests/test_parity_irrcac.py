"""Parity with irrCAC 0.4.4 (Gwet's coefficients) on random rating data, 500 cases each.

irrCAC is installed outside site-packages (requirements-oracles.txt explains why), so its
folder goes on sys.path here.  It is always given ``categories=``: under pandas 3 its
default category list picks up NaN as a category (``DataFrame.stack`` keeps NaN now).
"""

import sys
import warnings

import numpy as np
import pandas as pd
import pytest
from ratings_data import BATCH, ROOT, cases
from sweeps import sweep

import kappalib as kl

sys.path.insert(0, str(ROOT / ".venv" / "oracles"))
from irrCAC.raw import CAC

N_CASES = 500


def _irr(data, domain, weights):
    df = pd.DataFrame(data.T)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its t-interval on tiny samples; values are unaffected
        return CAC(df, weights=weights, categories=domain.tolist(), digits=15)


def _value(result):
    return float(result["est"]["coefficient_value"])


# weighting schemes, cycled over the cases: (irrCAC's name or agreement matrix, our
# weighting and scores, the alpha level with the same distance or None)
def _scheme(seed, domain):
    k = seed % 5
    if k == 0:
        return "identity", {}, "nominal"
    if k == 1:
        return "quadratic", {"weighting": "quadratic", "scores": domain}, "interval"
    if k == 2:
        return "linear", {"weighting": "linear", "scores": domain}, None
    if k == 3:
        ratio = ((domain[:, None] - domain[None, :]) / (domain[:, None] + domain[None, :])) ** 2
        return "ratio", {"weighting": ratio}, "ratio"
    rng = np.random.default_rng(seed)
    W = rng.uniform(0.1, 3.0, size=(domain.size, domain.size))
    W = (W + W.T) / 2
    np.fill_diagonal(W, 0.0)
    return 1.0 - W / W.max(), {"weighting": W}, None


# --- parity with irrCAC ------------------------------------------------------------------


@pytest.mark.parametrize("batch", sweep(N_CASES // BATCH, 5))
def test_ac1_ac2_bp_alpha_against_irrcac(batch):
    for seed, data, domain in cases(batch):
        irr_w, ours_w, level = _scheme(seed, domain)
        table = kl.rating_table(data, layout="raters x units", labels=domain)
        cats = np.asarray(table.labels)
        assert cats.tolist() == domain.tolist()
        cac = _irr(data, domain, irr_w)
        assert kl.gwet_ac1_multi(table, **ours_w) == pytest.approx(_value(cac.gwet()), abs=1e-9)
        assert kl.brennan_prediger_multi(table, **ours_w) == pytest.approx(
            _value(cac.bp()), abs=1e-9
        )
        if level is None:  # no Krippendorff level has this distance: check nominal instead
            level, cac = "nominal", _irr(data, domain, "identity")
        ours = kl.krippendorff_alpha(data, layout="raters x units", level_of_measurement=level)
        assert ours == pytest.approx(_value(cac.krippendorff()), abs=1e-9), (seed, level)


@pytest.mark.parametrize("batch", sweep(N_CASES // BATCH, 5))
def test_fleiss_and_two_rater_ac1_against_irrcac(batch):
    for seed, data, domain in cases(batch, missing=False):
        table = kl.rating_table(data, layout="raters x units", labels=domain)
        cac = _irr(data, domain, "identity")
        assert kl.fleiss_kappa(table) == pytest.approx(_value(cac.fleiss()), abs=1e-9)
        # two raters: the confusion matrix of the first two rows, against irrCAC's raw data
        irr_w, ours_w, _ = _scheme(seed, domain)
        pair = data[:2]
        C = kl.confusion_matrix(pair[0], pair[1], labels=domain)
        cac2 = _irr(pair, domain, irr_w)
        assert kl.gwet_ac1(C, **ours_w) == pytest.approx(_value(cac2.gwet()), abs=1e-9)
        assert kl.brennan_prediger(C, **ours_w) == pytest.approx(_value(cac2.bp()), abs=1e-9)
