"""Gwet's benchmarking (issue 34) against irrCAC 0.4.4's ``Benchmark`` (the Python port of
Gwet's R ``landis.koch.bf``, ``fleiss.bf``, ``altman.bf``; it rounds to 5 decimals) and
scipy's truncated normal, and the published example of irrCAC's documentation."""

import sys

import numpy as np
import pytest
from ratings_data import ROOT
from scipy import stats

import kappalib as kl

sys.path.insert(0, str(ROOT / ".venv" / "oracles"))


def test_irrcac_documented_example():
    # irrCAC's docstring: coeff 0.67, se 0.15, Altman: [0.18168, 0.67511, 0.96356, 0.99912, 1.0]
    res = kl.benchmark(0.67, 0.15, scale="altman")
    assert res.cumulative_probabilities.round(5).tolist() == [
        0.18168,
        0.67511,
        0.96356,
        0.99912,
        1.0,
    ]
    assert res.band == "Moderate" and res.labels[1] == "Good"
    assert '"Moderate"' in res.sentence and 'alone falls in "Good"' in res.sentence


@pytest.mark.parametrize("seed", range(20))
@pytest.mark.parametrize("scale", ["landis_koch", "fleiss", "altman"])
def test_against_irrcac_and_the_truncated_normal(seed, scale):
    from irrCAC.benchmark import Benchmark

    rng = np.random.default_rng(seed)
    est, se = float(rng.uniform(-0.3, 0.99)), float(rng.uniform(0.005, 0.3))
    res = kl.benchmark(est, se, scale=scale)
    theirs = getattr(Benchmark(est, se), scale)()
    assert res.cumulative_probabilities == pytest.approx(theirs["CumProb"], abs=5e-6 + 1e-12)
    assert [lo for lo, _ in res.bounds] == [lo for lo, _ in theirs["scale"]]
    # the first band whose (rounded) cumulative probability reaches 0.95
    k = next(i for i, c in enumerate(theirs["CumProb"]) if c >= 0.95)
    if abs(res.cumulative_probabilities[k] - 0.95) > 1e-5:  # not on the rounding edge
        assert res.band == list(theirs.values())[1][k]
    tn = stats.truncnorm((-1 - est) / se, (1 - est) / se, loc=est, scale=se)
    want = [tn.cdf(hi) - tn.cdf(lo) for lo, hi in res.bounds]
    assert res.probabilities == pytest.approx(want, abs=1e-12)


def test_custom_scale_and_level():
    scale = [(0.7, 1.0, "acceptable"), (-1.0, 0.7, "not acceptable")]
    res = kl.benchmark(0.8, 0.05, scale=scale, confidence_level=0.9, coefficient="AC1")
    tn = stats.truncnorm(-1.8 / 0.05, 0.2 / 0.05, loc=0.8, scale=0.05)
    assert res.probabilities[0] == pytest.approx(1 - tn.cdf(0.7), rel=1e-12)
    assert res.band == "acceptable" and res.sentence.startswith("AC1 = 0.80")


def test_undefined_and_degenerate():
    assert kl.benchmark(None, 0.1) is None and kl.benchmark(0.5, None) is None
    res = kl.benchmark(1.0, 0.0)  # a point mass at 1
    assert res.band == "Almost Perfect" and res.cumulative_probabilities[0] == 1.0


@pytest.mark.parametrize(
    ("args", "kwargs", "error", "match"),
    [
        ((1.2, 0.1), {}, ValueError, "estimate must be at most 1"),
        ((0.5, -0.1), {}, ValueError, "standard_error must be non-negative"),
        (("0.5", 0.1), {}, TypeError, "estimate must be a number"),
        ((0.5, float("nan")), {}, ValueError, "standard_error must be finite"),
        ((0.5, 0.1), {"scale": "cicchetti"}, ValueError, "scale must be 'landis_koch'"),
        (
            (0.5, 0.1),
            {"scale": [(0.0, 0.5, "a"), (0.4, 1.0, "b")]},
            ValueError,
            "from the top down",
        ),
        ((0.5, 0.1), {"scale": [(0.5, 0.5, "a")]}, ValueError, "low < high"),
        ((0.5, 0.1), {"confidence_level": 1.0}, ValueError, "confidence_level"),
    ],
)
def test_bad_input(args, kwargs, error, match):
    with pytest.raises(error, match=match):
        kl.benchmark(*args, **kwargs)
