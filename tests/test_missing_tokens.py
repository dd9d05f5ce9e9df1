"""Issue 30 at the Python API: one rule for missing-value tokens and for spellings that
differ only by case, the same for the two-rater and the many-rater paths.

Oracles: scikit-learn's ``cohen_kappa_score`` and the ``krippendorff`` package on the data
as the user meant them (tokens removed, spellings corrected), and counts made by hand.
"""

from __future__ import annotations

import krippendorff
import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import cohen_kappa_score

import kappalib as kl

SCALE = ["none", "mild", "moderate", "severe"]


def _scale(n=40, seed=30):
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 4, size=n)
    b = np.where(rng.random(n) < 0.75, a, rng.integers(0, 4, size=n))
    c = np.where(rng.random(n) < 0.75, a, rng.integers(0, 4, size=n))
    return [[SCALE[i] for i in x] for x in (a, b, c)]


def _with_case_noise(y, word="moderate", spelling="Moderate", times=3):
    hits = [i for i, v in enumerate(y) if v == word][:times]
    return [spelling if i in hits else v for i, v in enumerate(y)], len(hits)


# --- item 2 at the reports: case variants -------------------------------------------------


def test_agreement_report_refuses_case_variants_naming_both():
    y1, y2, _ = _scale()
    noisy, _ = _with_case_noise(y2)
    with pytest.raises(ValueError, match="'moderate' and 'Moderate' differ only by case"):
        kl.agreement_report(y1, noisy)


def test_agreement_report_reads_a_variant_as_the_listed_category():
    y1, y2, _ = _scale()
    noisy, n = _with_case_noise(y2)
    report = kl.agreement_report(y1, noisy, labels=SCALE)
    assert report.estimate == pytest.approx(cohen_kappa_score(y1, y2, labels=SCALE), abs=1e-12)
    assert report.labels == tuple(SCALE)
    assert f"Read as the categories listed: 'Moderate' as 'moderate' ({n} cells)." in (
        report.methods_paragraph()
    )


def test_ratings_report_refuses_case_variants_and_reads_them_with_labels():
    a, b, c = ([v.replace("none", "absent") for v in y] for y in _scale())
    noisy, n = _with_case_noise(c, "mild", " mild")
    data = pd.DataFrame({"a": a, "b": b, "c": noisy})
    with pytest.raises(ValueError, match="'mild' and ' mild' differ only by case or surround"):
        kl.ratings_report(data)
    scale = ["absent", *SCALE[1:]]
    report = kl.ratings_report(data, labels=scale, rng=0)
    codes = np.array([[scale.index(v) for v in col] for col in (a, b, c)], dtype=float)
    alpha = krippendorff.alpha(codes, level_of_measurement="nominal", value_domain=[0, 1, 2, 3])
    assert report["Krippendorff's alpha"].estimate == pytest.approx(alpha, abs=1e-12)
    assert f"' mild' as 'mild' ({n} cells)" in report.methods_paragraph()
