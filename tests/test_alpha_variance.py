"""The analytic standard error and interval of Krippendorff's alpha (Gwet 2014) against
irrCAC 0.4.4's ``krippendorff()``, on random rating data with missing ratings, at the levels
whose distance is a fixed weight matrix and with named weights.  irrCAC's documented example
(Krippendorff's 2011 data, its README) is a published value.
"""

import sys
import warnings

import numpy as np
import pandas as pd
import pytest
from ratings_data import BATCH, ROOT, cases

import kappalib as kl

sys.path.insert(0, str(ROOT / ".venv" / "oracles"))
from irrCAC.raw import CAC

# (irrCAC's weights, kappalib's keywords)
SCHEMES = [
    ("identity", {}),
    ("quadratic", {"level_of_measurement": "interval"}),
    ("ratio", {"level_of_measurement": "ratio"}),
    ("circular", {"weighting": "circular"}),
    ("ordinal", {"weighting": "ordinal"}),
]


def _irr(data, domain, weights, level=0.95):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cac = CAC(
            pd.DataFrame(data.T),
            weights=weights,
            categories=domain.tolist(),
            digits=15,
            confidence_level=level,
        )
        return cac.krippendorff()["est"]


@pytest.mark.parametrize(("irr_w", "ours"), SCHEMES, ids=[s[0] for s in SCHEMES])
@pytest.mark.parametrize("batch", range(4))
def test_alpha_se_and_interval_against_irrcac(batch, irr_w, ours):
    checked = 0
    for seed, data, domain in cases(batch):
        est = _irr(data, domain, irr_w, 0.9)
        kw = dict(layout="raters x units", labels=domain, coefficient="alpha", **ours)
        se = kl.ratings_standard_error(data, **kw)
        value = kl.krippendorff_alpha(
            data, layout="raters x units", labels=domain, **{k: v for k, v in ours.items()}
        )
        if value is None or not np.isfinite(est["coefficient_value"]):
            continue
        assert value == pytest.approx(est["coefficient_value"], abs=1e-10), seed
        if est["se"] < 1e-14:  # irrCAC's 1e-15 for a zero standard error
            assert se == pytest.approx(0.0, abs=1e-12)
            continue
        assert se == pytest.approx(est["se"], abs=1e-10), seed
        ci = kl.ratings_confint(data, confidence_level=0.9, **kw)
        lo, hi = est["confidence_interval"]
        # 1e-8: on the declared floor (scipy 1.12) irrCAC's t quantile is about 1e-9 from
        # today's scipy (1.08e-9 seen at batch 2), as in the other issue-34 tests on the floor.
        assert ci.low == pytest.approx(lo, abs=1e-8) and ci.high == pytest.approx(hi, abs=1e-8)
        checked += 1
    assert checked >= BATCH // 2


def test_the_finite_population_correction():
    data = kl.datasets.load("krippendorff2011_example").data
    se = kl.ratings_standard_error(data, coefficient="alpha", layout="raters x units")
    fpc = kl.ratings_standard_error(
        data, coefficient="alpha", n_population=44, layout="raters x units"
    )
    assert fpc == pytest.approx(se * np.sqrt(1 - 11 / 44))  # 11 pairable units


def test_ordinal_alpha_has_no_analytic_se():
    data = kl.datasets.load("krippendorff2011_example").data
    with pytest.raises(ValueError, match="ordinal level has no analytic standard error"):
        kl.ratings_standard_error(data, coefficient="alpha", level_of_measurement="ordinal")
    se = kl.ratings_standard_error(
        data,
        coefficient="alpha",
        level_of_measurement="ordinal",
        method="bootstrap",
        rng=0,
        n_resamples=500,
        layout="raters x units",
    )
    assert 0.05 < se < 0.3
