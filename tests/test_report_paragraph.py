"""Issue 30, item 6: what the methods paragraphs of ``agreement_report`` and ``ratings_report``
say, through the functions and through ``python -m kappalib report`` (a subprocess, which
prints the paragraph).

Oracles: exact arithmetic (fractions) for the weighted agreement, the range of Fleiss' kappa
and the number of distinct bootstrap samples; scikit-learn's weighted kappa; statsmodels'
interval of Cohen's kappa and its Fleiss' kappa; irrCAC's intervals and coefficients with and
without a single-rated unit; the ``krippendorff`` package.
"""

from __future__ import annotations

import csv
import itertools
import re
import subprocess
import sys
import warnings
from fractions import Fraction
from pathlib import Path

import krippendorff
import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats.inter_rater import cohens_kappa
from statsmodels.stats.inter_rater import fleiss_kappa as sm_fleiss

import kappalib as kl

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / ".venv" / "oracles"))
from irrCAC.raw import CAC  # noqa: E402

nan = float("nan")


def _write(path, header, rows):
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)
    return str(path)


def _cli(*argv):
    """The methods paragraph ``python -m kappalib report`` prints (exit 0)."""
    done = subprocess.run(
        [sys.executable, "-m", "kappalib", "report", *argv],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.split("## Methods paragraph", 1)[1].strip()


def _irr(data_units_x_raters, method):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cac = CAC(pd.DataFrame(data_units_x_raters), digits=15)
        return getattr(cac, method)()["est"]


# --- 1. a weighted kappa: the weighted p_o and p_e, PABAK and kappa_max said unweighted ---


def _ordinal_pairs(n=40, seed=3):
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 4, size=n)
    b = np.clip(a + rng.integers(-1, 2, size=n), 0, 3)
    return a.tolist(), b.tolist()


def _exact_weighted(a, b, K=4):
    """p_o,w and p_e,w with quadratic agreement weights 1 - (i - j)^2 / (K - 1)^2, exactly."""
    n = len(a)
    w = [[1 - Fraction((i - j) ** 2, (K - 1) ** 2) for j in range(K)] for i in range(K)]
    po = sum(w[x][y] for x, y in zip(a, b, strict=True)) / n
    r = [a.count(k) for k in range(K)]
    c = [b.count(k) for k in range(K)]
    pe = sum(w[i][j] * r[i] * c[j] for i in range(K) for j in range(K)) / Fraction(n * n)
    return po, pe


def test_weighted_kappa_prints_the_weighted_agreement_it_is_computed_from(tmp_path):
    a, b = _ordinal_pairs()
    po, pe = _exact_weighted(a, b)
    kw = cohen_kappa_score(a, b, weights="quadratic")
    # the reviewer's check: the printed p_o,w and p_e,w give scikit-learn's kappa_w
    assert float((po - pe) / (1 - pe)) == pytest.approx(kw, abs=1e-12)
    r = kl.agreement_report(a, b, labels=[0, 1, 2, 3], weighting="quadratic")
    assert r.weighted_observed_agreement == pytest.approx(float(po), abs=1e-12)
    assert r.weighted_expected_agreement == pytest.approx(float(pe), abs=1e-12)
    names = ["low", "mid", "high", "top"]
    path = _write(
        tmp_path / "w.csv",
        ["a", "b"],
        [[names[x], names[y]] for x, y in zip(a, b, strict=True)],
    )
    cli = _cli(path, "--columns", "a", "b", "--weighting", "quadratic", "--labels", *names)
    for text in (r.methods_paragraph(), cli):
        assert f"p_o,w = {float(po):.3f}" in text and f"p_e,w = {float(pe):.3f}" in text
        assert f"quadratically weighted kappa was {kw:.3f}" in text
        # the unweighted ones, said so
        exact_po = np.mean(np.array(a) == np.array(b))
        assert f"for exact agreement, p_o = {exact_po:.3f}" in text
        assert "PABAK (unweighted, for exact agreement) was" in text
        assert "largest unweighted kappa" in text


def test_unweighted_kappa_keeps_its_plain_sentence():
    r = kl.agreement_report(C=[[8, 2], [1, 9]], labels=["yes", "no"])
    text = r.methods_paragraph()
    assert "Observed agreement was p_o = 0.850 and chance agreement p_e = 0.500;" in text
    assert "p_o,w" not in text and "PABAK was 0.700" in text
    assert r.weighted_observed_agreement is None


# --- 2. the software and its version --------------------------------------------------------


def test_the_paragraphs_name_kappalib_and_its_version(tmp_path):
    said = f"The numbers were computed with kappalib {kl.__version__}."
    two = kl.agreement_report(C=[[8, 2], [1, 9]]).methods_paragraph()
    many = kl.ratings_report(
        kl.datasets.load("krippendorff2011_example").data, layout="raters x units"
    )
    path = _write(tmp_path / "v.csv", ["a", "b"], [["x", "x"], ["y", "y"], ["x", "y"]])
    measured = kl.ratings_report(
        [[1.5, 2.0, 2.5], [3.1, 2.9, 3.3], [4.0, 4.4, 3.8], [5.2, 5.0, 5.1]],
        layout="units x raters",
        level_of_measurement="interval",
    )
    texts = (two, many.methods_paragraph(), measured.methods_paragraph())
    for text in (*texts, _cli(path, "--columns", "a", "b")):
        assert said in text
    # the calculator's twin names the same version
    js = (ROOT / "book" / "_static" / "kappa" / "kappa.js").read_text(encoding="utf-8")
    assert re.search(r'const KAPPALIB_VERSION = "([^"]+)";', js).group(1) == kl.__version__


# --- 3. intervals within the coefficient's range, the clipping said --------------------------


def test_fleiss_kappa_cannot_go_below_minus_one_over_m_minus_one():
    """The bound itself, exactly: three raters who never agree on three categories."""
    table = [[1, 1, 1]] * 6  # units x categories, m = 3 ratings each
    assert sm_fleiss(np.array(table)) == pytest.approx(-0.5, abs=1e-12)
    # by hand: p_o = 0, p_e = 1/3, kappa = -1/2 = -1/(m - 1)
    po, pe = Fraction(0), 3 * Fraction(1, 3) ** 2
    assert (po - pe) / (1 - pe) == Fraction(-1, 2)


def test_ratings_intervals_are_clipped_at_the_range_and_say_so(tmp_path):
    R = np.array([[2, 2, 2], [1, 1, 2], [2, 1, 1], [2, 1, 1]])  # units x raters
    fleiss = _irr(R, "fleiss")  # irrCAC's (Gwet's) Fleiss = Fleiss' kappa for equal m
    ac1 = _irr(R, "gwet")
    lo_f, lo_a = fleiss["confidence_interval"][0], ac1["confidence_interval"][0]
    assert lo_f < -0.5 and lo_a < -1.0  # irrCAC's interval leaves the range below
    # and above: the symmetric upper ends (irrCAC cuts them at 1) pass 1
    assert 2 * fleiss["coefficient_value"] - lo_f > 1 and 2 * ac1["coefficient_value"] - lo_a > 1
    path = _write(tmp_path / "r.csv", ["a", "b", "c"], R.tolist())
    report = kl.ratings_report(R, layout="units x raters")
    for text in (report.methods_paragraph(), _cli(path, "--columns", "a", "b", "c")):
        assert (
            "Fleiss' kappa was 0.000 (95% CI -0.500 to 1.000, both ends clipped at the "
            "coefficient's range, -0.500 to 1)" in text
        )
        assert (
            "Gwet's AC1 was 0.000 (95% CI -1.000 to 1.000, both ends clipped at the "
            "coefficient's range, -1.000 to 1)" in text
        )
    assert report["Fleiss' kappa"].confidence_interval.low == -0.5
    assert report["Fleiss' kappa"].clipped == (True, True)


def test_two_rater_interval_clipped_below_at_minus_one():
    C = [[1, 5], [6, 1]]
    sm = cohens_kappa(C)
    assert sm.kappa_low < -1.0  # statsmodels' interval (the same FCE standard error)
    text = kl.agreement_report(C=C).methods_paragraph()
    assert (
        f"Cohen's kappa was {sm.kappa:.3f} (95% CI -1.000 to {sm.kappa_upp:.3f}, the lower end "
        "clipped at -1.000, the smallest value the coefficient can take" in text
    )


def test_zero_width_interval_is_said(tmp_path):
    text = kl.agreement_report(C=[[2, 0], [0, 2]]).methods_paragraph()
    assert "(95% CI 1.000 to 1.000, of zero width as printed" in text
    assert "clipped" not in text
    R = [[1, 1, 1], [2, 2, 2], [1, 1, 1], [2, 2, 2]]
    path = _write(tmp_path / "p.csv", ["a", "b", "c"], R)
    cli = _cli(path, "--columns", "a", "b", "c")
    assert cli.count("1.000 to 1.000, of zero width as printed") == 6


# --- 4. a bootstrap with few distinct samples ------------------------------------------------


def _distinct_resamples(units):
    """Every bootstrap sample of ``units`` (their patterns), by enumeration."""
    n = len(units)
    return len(
        {tuple(sorted(units[i] for i in pick)) for pick in itertools.product(range(n), repeat=n)}
    )


def test_few_distinct_bootstrap_samples_are_flagged(tmp_path):
    units = [("y", "y"), ("y", "n"), ("n", "n")]  # C = [[1, 1], [0, 1]]
    assert _distinct_resamples(units) == 10
    y1, y2 = zip(*units, strict=True)
    r = kl.agreement_report(y1, y2, labels=["y", "n"], method="percentile", rng=0)
    path = _write(tmp_path / "b.csv", ["a", "b"], units)
    cli = _cli(path, "--columns", "a", "b", "--method", "percentile", "--rng", "0")
    for text in (r.methods_paragraph(), cli):
        assert (
            "Few distinct resamples: the 3 units show 3 distinct rating patterns, so a "
            "bootstrap sample of them can take only 10 distinct forms (below 1000)" in text
        )
    # five units in three patterns: C(7, 2) = 21 samples, also by enumeration
    five = [("y", "y"), ("y", "y"), ("y", "n"), ("n", "n"), ("n", "n")]
    assert _distinct_resamples(five) == 21
    y1, y2 = zip(*five, strict=True)
    text = kl.agreement_report(y1, y2, method="percentile", rng=0).methods_paragraph()
    assert "can take only 21 distinct forms" in text
    # the analytic interval is not a bootstrap: no such sentence
    assert "distinct" not in kl.agreement_report(y1, y2).methods_paragraph()


def test_many_units_are_not_flagged():
    rng = np.random.default_rng(0)
    a = rng.integers(0, 2, size=60)
    b = np.where(rng.random(60) < 0.8, a, 1 - a)
    text = kl.agreement_report(a, b, method="percentile", rng=0, n_resamples=200)
    assert "distinct" not in text.methods_paragraph()


# --- 5. the primary coefficient --------------------------------------------------------------


def test_a_primary_coefficient_is_named_with_its_reason():
    complete = np.array([[1, 1, 2], [2, 2, 2], [1, 2, 1], [1, 1, 1], [2, 1, 2], [1, 2, 2]])
    text = kl.ratings_report(complete, layout="units x raters").methods_paragraph()
    assert "Fleiss' kappa is the primary coefficient: the ratings are nominal and complete" in text
    gaps = complete.astype(float)
    gaps[4, 2] = nan
    text = kl.ratings_report(gaps, layout="units x raters").methods_paragraph()
    assert (
        "Krippendorff's alpha (nominal) is the primary coefficient: the ratings are incomplete"
        in text
    )
    text = kl.ratings_report(
        complete, layout="units x raters", level_of_measurement="ordinal"
    ).methods_paragraph()
    assert "Krippendorff's alpha (ordinal) is the primary coefficient: it alone uses" in text
    # a count table whose units have 2 or 3 ratings: alpha, and why
    table = [[3, 0], [2, 1], [1, 2], [0, 3], [3, 0], [1, 1]]
    text = kl.ratings_report(table=table).methods_paragraph()
    assert "alpha (nominal) is the primary coefficient: the units have different numbers" in text
    weighted = kl.ratings_report(complete, layout="units x raters", weighting="linear")
    assert weighted.primary == "Fleiss' kappa (Gwet's generalized, linear weights)"
    assert "is the primary coefficient: it uses the linear weights given" in (
        weighted.methods_paragraph()
    )


# --- 6. single-rated units: which coefficients they enter ------------------------------------


def _exact_bp(rows, K=2):
    agree = []
    for row in rows:
        seen = [v for v in row if v == v]
        r = len(seen)
        if r >= 2:
            same = sum(seen.count(k) * (seen.count(k) - 1) for k in set(seen))
            agree.append(Fraction(same, r * (r - 1)))
    p_a = sum(agree) / len(agree)
    return (p_a - Fraction(1, K)) / (1 - Fraction(1, K))


def test_single_rated_units_enter_the_chance_term_of_the_coefficients_named(tmp_path):
    rated = [[1, 1, 2], [2, 2, 2], [1, 2, 1], [1, 1, 1], [2, 1, 2], [1, 2, 2], [2, 2, 1]]
    single = [*rated, [1, nan, nan]]
    R0, R1 = np.array(rated, dtype=float), np.array(single, dtype=float)
    moved = {}
    for method, name in [
        ("fleiss", "Fleiss' kappa (Gwet's generalized)"),
        ("gwet", "Gwet's AC1"),
        ("conger", "Conger's kappa"),
    ]:
        without, with_ = _irr(R0, method), _irr(R1, method)
        moved[name] = abs(with_["coefficient_value"] - without["coefficient_value"]) > 1e-9
    a0 = krippendorff.alpha(R0.T, level_of_measurement="nominal")
    a1 = krippendorff.alpha(R1.T, level_of_measurement="nominal")
    assert a0 == pytest.approx(a1, abs=1e-12)
    assert moved == {
        "Fleiss' kappa (Gwet's generalized)": True,
        "Gwet's AC1": True,
        "Conger's kappa": True,
    }
    # Brennan-Prediger by Gwet's definition, exactly: p_a over the units with two ratings or
    # more, p_e = 1/K; a single-rated unit is in neither (irrCAC 0.4.4's bp() moves with it,
    # 0.048 to 0.286 here: kappalib follows the definition, as for AC1's p_a)
    assert _exact_bp(rated) == _exact_bp(single)
    assert kl.brennan_prediger_multi(kl.rating_table(R1, layout="units x raters")) == (
        pytest.approx(float(_exact_bp(single)), abs=1e-12)
    )
    said = (
        "1 unit has a single rating: such a unit enters the chance agreement of Fleiss' kappa "
        "(Gwet's generalized), Gwet's AC1 and Conger's kappa"
    )
    path = _write(
        tmp_path / "s.csv",
        ["a", "b", "c"],
        [["" if v != v else int(v) for v in row] for row in single],
    )
    report = kl.ratings_report(R1, layout="units x raters")
    for text in (report.methods_paragraph(), _cli(path, "--columns", "a", "b", "c")):
        assert said in text
        assert "the coefficients use every unit with two ratings or more" not in text
    assert said not in kl.ratings_report(R0, layout="units x raters").methods_paragraph()


# --- 7. conditional on the raters ------------------------------------------------------------


def test_the_intervals_are_said_to_be_conditional_on_the_raters(tmp_path):
    two = kl.agreement_report(C=[[8, 2], [1, 9]]).methods_paragraph()
    assert "The interval treats the units as sampled and the two raters as fixed" in two
    data = kl.datasets.load("krippendorff2011_example").data
    many = kl.ratings_report(data, layout="raters x units").methods_paragraph()
    assert "The intervals treat the units as sampled and these 4 raters as fixed" in many
    path = _write(tmp_path / "c.csv", ["a", "b"], [["x", "x"], ["y", "y"], ["x", "y"]])
    assert "the two raters as fixed" in _cli(path, "--columns", "a", "b")
    # a count table (different raters for different units): no raters to hold fixed
    table = kl.ratings_report(table=[[3, 0], [2, 1], [1, 2], [0, 3], [3, 0], [1, 2]])
    assert "The intervals treat the units as sampled, with their ratings;" in (
        table.methods_paragraph()
    )


# --- 8. two interval methods for one kappa ---------------------------------------------------


def test_two_raters_in_the_ratings_report_explain_the_two_intervals(tmp_path):
    rng = np.random.default_rng(30)
    a = rng.integers(0, 3, size=40)
    b = np.where(rng.random(40) < 0.7, a, rng.integers(0, 3, size=40))
    R = np.column_stack([a, b])
    C = np.zeros((3, 3))
    np.add.at(C, (a, b), 1)
    fce = cohens_kappa(C)  # z with the FCE standard error (statsmodels)
    gwet = _irr(R, "conger")  # t with Gwet's linearization (irrCAC)
    assert gwet["coefficient_value"] == pytest.approx(fce.kappa, abs=1e-12)
    assert abs(gwet["confidence_interval"][0] - fce.kappa_low) > 1e-4  # they do differ
    said = "With two raters Conger's kappa is Cohen's kappa; its interval here (Gwet's"
    report = kl.ratings_report(R, layout="units x raters")
    path = _write(tmp_path / "t.csv", ["a", "b"], R.tolist())
    for text in (report.methods_paragraph(), _cli(path, "--columns", "a", "b", "--ratings")):
        assert said in text
    R3 = np.column_stack([a, b, a])
    assert said not in kl.ratings_report(R3, layout="units x raters").methods_paragraph()


# --- 9. "1 was missing" -----------------------------------------------------------------------


@pytest.mark.parametrize(("holes", "verb", "be"), [(1, "was", "is"), (2, "were", "are")])
def test_the_missing_count_agrees_with_its_verb(tmp_path, holes, verb, be):
    R = np.array([[1, 1, 2], [2, 2, 2], [1, 2, 1], [1, 1, 1], [2, 1, 2], [1, 2, 2]], dtype=float)
    R[4, 2] = nan
    if holes == 2:
        R[5, 0] = nan
    n_given = int(np.isfinite(R).sum())  # the ratings given, counted here
    path = _write(
        tmp_path / "m.csv",
        ["a", "b", "c"],
        [["" if v != v else int(v) for v in row] for row in R],
    )
    report = kl.ratings_report(R, layout="units x raters")
    for text in (report.methods_paragraph(), _cli(path, "--columns", "a", "b", "c")):
        assert f"{n_given} ratings were given and {holes} {verb} missing." in text
        assert f"Missing ratings: {holes} of 18 ratings {be} missing;" in text
