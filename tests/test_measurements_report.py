"""Measurements through the reports and the command line (issue 30 item 4, issue 34).

Ratings on an interval or ratio scale get the intraclass correlations, the concordance
correlation, Bland-Altman's limits of agreement (two raters) and Krippendorff's alpha, never a
nominal coefficient over their distinct values; numbers that look like measurements with no
level given are refused; --clusters, --groups and --pairs add their sections.  Every expected
number comes from outside kappalib: the published Bland-Altman (1986) values, scipy and numpy
arithmetic from the definitions, the krippendorff package, and the conformance table's
references (psych, epiR, R's survey, statsmodels, exact fractions), read, never recomputed by
kappalib.  Before this, ``--level-of-measurement interval`` on 136 distinct decimals printed
Cohen's kappa 0.000 (0.000 to 0.000) for two columns, and Fleiss' kappa, AC1 and Conger near 0
with intervals of width 0 and a table of 136 (or 203) "categories" for three.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import krippendorff
import numpy as np
import pandas as pd
import pytest
from scipy import stats

import kappalib as kl

ROOT = Path(__file__).resolve().parents[1]
CASES = ROOT / "conformance" / "cases"


def _cli(*args):
    done = subprocess.run(
        [sys.executable, "-m", "kappalib", *map(str, args)], capture_output=True, text=True
    )
    assert "Traceback" not in done.stderr, done.stderr
    return done


def _csv(path, header, rows):
    lines = [",".join(header)] + [",".join("" if v is None else str(v) for v in r) for r in rows]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _row(out, first):
    """The cells of the Markdown table row whose first cell starts with ``first``."""
    for line in out.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and cells[0].startswith(first):
            return cells
    raise AssertionError(f"no row {first!r} in\n{out}")


def _interval(text):
    low, high = text.split(" to ")
    return float(low), float(high)


def _case(name, case_id):
    data = json.loads((CASES / f"{name}.json").read_text(encoding="utf-8"))
    case = next(c for c in data["cases"] if c["id"] == case_id)
    refs = {}
    for r in case["references"]:
        refs.setdefault(r["source"], {}).update(r["values"])
    return case, refs


def _measurements(n=68, seed=4):
    """Two (or three) methods measuring n subjects, to two decimals: many distinct values."""
    rng = np.random.default_rng(seed)
    truth = rng.normal(300, 80, n)
    return [np.round(truth + rng.normal(0, 15, n), 2) for _ in range(3)]


NOMINAL = ("Fleiss' kappa", "AC1", "Conger", "Cohen's kappa", "Brennan-Prediger", "categories")


# --- the example: 136 distinct decimals -----------------------------------------------


def test_unstated_measurements_are_refused_in_one_sentence(tmp_path):
    a, b, _ = _measurements()
    distinct = len(set(a.tolist()) | set(b.tolist()))  # exact: 136
    path = _csv(tmp_path / "m.csv", ["id", "a", "b"], zip(range(1, 69), a, b, strict=True))
    done = _cli("report", path, "--columns", "a", "b")
    assert done.returncode == 2 and not done.stdout
    err = done.stderr.strip()
    assert err.count("\n") == 0 and err.startswith("error: ")
    assert f"hold {distinct} distinct numbers" in err and "--level-of-measurement" in err
    assert "interval or ratio" in err
    # saying the level (nominal: they really are categories) is obeyed
    said = _cli("report", path, "--columns", "a", "b", "--level-of-measurement", "nominal")
    assert said.returncode == 0, said.stderr


def test_more_than_20_whole_numbers_are_refused_but_a_1_to_20_scale_is_not(tmp_path):
    rows = [(i, i % 20 + 1, (i + 1) % 20 + 1) for i in range(40)]  # 20 distinct values: 1-20
    ok = _cli("report", _csv(tmp_path / "s.csv", ["id", "a", "b"], rows), "--columns", "a", "b")
    assert ok.returncode == 0, ok.stderr
    rows = [(i, i % 21, (i + 1) % 21) for i in range(42)]  # 21 distinct values: 0-20
    done = _cli("report", _csv(tmp_path / "t.csv", ["id", "a", "b"], rows), "--columns", "a", "b")
    assert done.returncode == 2 and "hold 21 distinct numbers, more than 20" in done.stderr
    said = _cli(
        "report", tmp_path / "t.csv", "--columns", "a", "b", "--level-of-measurement", "ordinal"
    )
    assert said.returncode == 0, said.stderr


def test_two_methods_at_the_interval_level_get_icc_ccc_bland_altman_and_alpha(tmp_path):
    """Before: Cohen's kappa 0.000 (0.000 to 0.000) over 136 'categories'."""
    a, b, _ = _measurements()
    path = _csv(tmp_path / "m.csv", ["id", "a", "b"], zip(range(1, 69), a, b, strict=True))
    done = _cli("report", path, "--columns", "a", "b", "--level-of-measurement", "interval")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    for word in NOMINAL:
        assert word not in out.split("## Methods paragraph")[0], word
    # Lin's CCC from its definition (moments over n; Lin 1989)
    sxy = np.mean((a - a.mean()) * (b - b.mean()))
    ccc = 2 * sxy / (a.var() + b.var() + (a.mean() - b.mean()) ** 2)
    assert float(_row(out, "Lin's concordance")[1]) == pytest.approx(ccc, abs=5e-4)
    # Bland-Altman: mean difference with its t interval, limits at the normal quantile (scipy)
    d = a - b
    n, sd = d.size, d.std(ddof=1)
    z = stats.norm.ppf(0.975)
    bias = _row(out, "mean difference (a - b)")
    assert float(bias[1]) == pytest.approx(d.mean(), abs=5e-4)
    half = stats.t.ppf(0.975, n - 1) * sd / np.sqrt(n)
    assert _interval(bias[3]) == pytest.approx((d.mean() - half, d.mean() + half), abs=5e-4)
    assert float(_row(out, "lower limit")[1]) == pytest.approx(d.mean() - z * sd, abs=5e-4)
    assert float(_row(out, "upper limit")[1]) == pytest.approx(d.mean() + z * sd, abs=5e-4)
    # alpha at the interval level (the krippendorff package)
    alpha = krippendorff.alpha(np.vstack([a, b]), level_of_measurement="interval")
    assert float(_row(out, "Krippendorff's alpha (interval)")[1]) == pytest.approx(alpha, abs=5e-4)
    text = out.split("## Methods paragraph")[1]
    assert "ICC(A,1)" in text and "limits of agreement were" in text
    assert "No nominal coefficient" in text and "Landis and Koch" in text


def test_the_published_peak_flow_limits_through_the_command_line(tmp_path):
    """Bland & Altman (1986): mean difference -2.1 l/min, SD 38.8, limits -78.1 to 73.9 with
    +-1.96 SD (the first Wright and mini Wright readings of 17 people)."""
    case, _ = _case("bland_altman", "bland_altman/pefr-1986-2sd")
    x, y = case["input"]["x"], case["input"]["y"]
    path = _csv(tmp_path / "pefr.csv", ["wright", "mini"], zip(x, y, strict=True))
    done = _cli("report", path, "--columns", "wright", "mini", "--level-of-measurement", "ratio")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert round(float(_row(out, "mean difference")[1]), 1) == -2.1
    assert round(float(_row(out, "lower limit")[1]), 1) == -78.1
    assert round(float(_row(out, "upper limit")[1]), 1) == 73.9
    assert "standard deviation of the differences 38.765" in out


def test_the_six_iccs_match_psych_through_the_command_line(tmp_path):
    case, refs = _case("icc", "icc/r01")
    ratings = case["input"]["ratings"]  # 25 units x 6 raters
    names = [f"r{j}" for j in range(len(ratings[0]))]
    path = _csv(tmp_path / "icc.csv", names, ratings)
    level = case["options"]["confidence_level"]
    done = _cli(
        "report", path, "--columns", *names, "--level-of-measurement", "interval",
        "--confidence-level", level,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    psych = refs["psych"]
    forms = [("ICC1", "ICC(1,1)"), ("ICC2", "ICC(2,1)"), ("ICC3", "ICC(3,1)")]
    forms += [("ICC1k", "ICC(1,k)"), ("ICC2k", "ICC(2,k)"), ("ICC3k", "ICC(3,k)")]
    for form, sf in forms:
        row = next(
            [c.strip() for c in line.strip("|").split("|")]
            for line in done.stdout.splitlines()
            if f"= {sf}," in line
        )
        assert float(row[1]) == pytest.approx(psych[f"{form}.value"], abs=5e-4), form
        low, high = _interval(row[3])
        assert low == pytest.approx(psych[f"{form}.ci_low"], abs=5e-4), form
        assert high == pytest.approx(psych[f"{form}.ci_high"], abs=5e-4), form
    assert "Fleiss' kappa |" not in done.stdout and "| category |" not in done.stdout


def test_three_methods_get_the_overall_ccc_of_epir(tmp_path):
    case, refs = _case("overall_ccc", "overall_ccc/r01")
    ratings = case["input"]["ratings"]
    path = _csv(tmp_path / "o.csv", ["m1", "m2", "m3"], ratings)
    done = _cli("report", path, "--columns", "m1", "m2", "m3", "--level-of-measurement", "interval")
    assert done.returncode == 0, done.stderr
    row = _row(done.stdout, "overall concordance correlation")
    assert float(row[1]) == pytest.approx(refs["exact"]["value"], abs=5e-4)
    assert float(row[1]) == pytest.approx(
        refs["epiR"]["precision"] * refs["epiR"]["accuracy"], abs=5e-3
    )
    assert "mean difference" not in done.stdout  # Bland-Altman is for two methods


def test_a_word_among_measurements_is_refused_naming_its_cell(tmp_path):
    rows = [(1, 2.5, 3.1), (2, 4.0, 3.9), (3, "high", 1.2), (4, 2.2, 2.0)]
    path = _csv(tmp_path / "w.csv", ["id", "a", "b"], rows)
    done = _cli("report", path, "--columns", "a", "b", "--level-of-measurement", "interval")
    assert done.returncode == 2
    assert "column 'a' has 'high' in line 4, which is not a number" in done.stderr


def test_missing_measurements_leave_the_unit_out_of_icc_and_say_so(tmp_path):
    a, b, c = (v[:30] for v in _measurements(30, seed=7))
    rows = [[i + 1, a[i], b[i], c[i]] for i in range(30)]
    rows[5][2] = "NA"
    path = _csv(tmp_path / "na.csv", ["id", "a", "b", "c"], rows)
    done = _cli("report", path, "--columns", "a", "b", "c", "--level-of-measurement", "interval")
    assert done.returncode == 0, done.stderr
    assert "use the 29 units measured by every rater" in done.stdout
    data = np.vstack([a, b, c])
    data[1, 5] = np.nan
    alpha = krippendorff.alpha(data, level_of_measurement="interval")
    assert float(_row(done.stdout, "Krippendorff's alpha")[1]) == pytest.approx(alpha, abs=5e-4)


def test_ratings_report_at_the_interval_level_reports_measurements():
    a, b, c = _measurements(40, seed=3)
    frame = pd.DataFrame({"a": a, "b": b, "c": c})
    report = kl.ratings_report(frame, level_of_measurement="interval")
    names = [e.coefficient for e in report.coefficients]
    assert not any(n.startswith(("Fleiss", "Gwet", "Conger", "Light")) for n in names)
    alpha = krippendorff.alpha(frame.to_numpy().T, level_of_measurement="interval")
    assert report["Krippendorff's alpha"].estimate == pytest.approx(alpha, abs=1e-12)
    # ICC(3,1) from the two-way ANOVA's mean squares, written out (Shrout & Fleiss 1979)
    Y = frame.to_numpy()
    n, k = Y.shape
    grand = Y.mean()
    bms = k * ((Y.mean(axis=1) - grand) ** 2).sum() / (n - 1)
    jms = n * ((Y.mean(axis=0) - grand) ** 2).sum() / (k - 1)
    ems = (((Y - grand) ** 2).sum() - (n - 1) * bms - (k - 1) * jms) / ((n - 1) * (k - 1))
    icc3 = (bms - ems) / (bms + (k - 1) * ems)
    assert report["ICC(C,1)"].estimate == pytest.approx(icc3, abs=1e-12)
    assert report.raters == ("a", "b", "c")


# --- the comparisons of kappas ----------------------------------------------------------------


def _pairs_file(tmp_path, ratings, extra=None, name="k.csv"):
    header = [f"r{j}" for j in range(len(ratings[0]))]
    rows = [list(r) for r in ratings]
    if extra is not None:
        header.append(extra[0])
        for row, v in zip(rows, extra[1], strict=True):
            row.append(v)
    return _csv(tmp_path / name, header, rows)


def test_clusters_give_the_cluster_robust_standard_error_of_r_survey(tmp_path):
    case, refs = _case("clustered_kappa", "clustered_kappa/r00")
    path = _pairs_file(tmp_path, case["input"]["ratings"], ("patient", case["input"]["clusters"]))
    done = _cli("report", path, "--columns", "r0", "r1", "--clusters", "patient")
    assert done.returncode == 0, done.stderr
    section = done.stdout.split("## Clustered cases")[1].split("## Methods paragraph")[0]
    m = re.search(
        r"Cohen's kappa was (\S+) with a cluster-robust standard error of (\S+) ", section
    )
    assert float(m.group(1)) == pytest.approx(refs["survey"]["value"], abs=5e-4)
    assert float(m.group(2)) == pytest.approx(refs["survey"]["se"], abs=5e-5)
    low, high = re.search(r"95% CI (\S+) to (\S+);", section).groups()
    assert float(low) == pytest.approx(refs["exact"]["ci_low"], abs=5e-4)
    assert float(high) == pytest.approx(refs["exact"]["ci_high"], abs=5e-4)
    deff = re.search(r"design effect was (\S+),", section).group(1)
    assert float(deff) == pytest.approx(refs["exact"]["design_effect"], abs=5e-3)
    assert "cluster-robust standard error" in done.stdout.split("## Methods paragraph")[1]


def test_groups_give_kappa_per_site_and_the_homogeneity_test(tmp_path):
    case, refs = _case("subgroup_kappas", "subgroup_kappas/r00")
    path = _pairs_file(tmp_path, case["input"]["ratings"], ("site", case["input"]["groups"]))
    done = _cli("report", path, "--columns", "r0", "r1", "--groups", "site")
    assert done.returncode == 0, done.stderr
    section = done.stdout.split("## Kappa by subgroup")[1].split("## Methods paragraph")[0]
    for g, kappa in zip(
        sorted(set(case["input"]["groups"])), refs["statsmodels"]["kappa_by_group"], strict=True
    ):
        assert float(_row(section, g)[2]) == pytest.approx(kappa, abs=5e-4), g
    stat, df, p = re.search(
        r"chi-square = (\S+) on (\d+) degrees of freedom, p = ([\d.]*\d)", section
    ).groups()
    assert float(stat) == pytest.approx(refs["exact"]["statistic"], abs=5e-3)
    assert int(df) == refs["exact"]["df"]
    assert float(p) == pytest.approx(refs["exact"]["pvalue"], abs=5e-4)
    assert "common kappa is" in section  # p = 0.637: the subgroups agree


def test_pairs_compare_two_dependent_kappas(tmp_path):
    case, refs = _case("kappa_difference", "kappa_difference/r00")  # pairs (0, 1) and (2, 3)
    path = _pairs_file(tmp_path, case["input"]["ratings"])
    done = _cli("report", path, "--columns", "r0", "r1", "r2", "r3", "--pairs", "r0,r1", "r2,r3")
    assert done.returncode == 0, done.stderr
    section = done.stdout.split("## Two kappas compared")[1].split("## Methods paragraph")[0]
    exact = refs["exact"]
    m = re.search(r"'r2' and 'r3' was (\S+) and that of 'r0' and 'r1' was (\S+);", section)
    assert float(m.group(1)) == pytest.approx(exact["kappa_2"], abs=5e-4)
    assert float(m.group(2)) == pytest.approx(exact["kappa_1"], abs=5e-4)
    est, low, high = re.search(r"the difference, (\S+) \(95% CI (\S+) to (\S+);", section).groups()
    assert float(est) == pytest.approx(exact["kappa_2"] - exact["kappa_1"], abs=5e-4)
    assert (float(low), float(high)) == pytest.approx((exact["ci_low"], exact["ci_high"]), abs=5e-4)
    p = re.search(r"has z = \S+ \(p = ([\d.]*\d)\)", section).group(1)
    assert float(p) == pytest.approx(exact["pvalue"], abs=5e-4)


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--columns", "r0", "r1", "r2", "--clusters", "g"], "exactly two rater columns"),
        (["--columns", "r0", "r1", "--pairs", "r0,r1", "r1,r0"], "three or more rater columns"),
        (["--columns", "r0", "r1", "r2", "--pairs", "r0,r1", "r0,r9"], "'r9', which is not among"),
        (["--columns", "r0", "r1", "r2", "--pairs", "r0-r1", "r0,r2"], "written A,B C,D"),
        (["--columns", "r0", "r1", "--groups", "nowhere"], "no such column"),
        (["--columns", "r0", "r1", "--groups", "g", "--level-of-measurement", "interval"],
         "--groups is an option of kappa"),
    ],
)  # fmt: skip
def test_the_comparison_options_refuse_in_one_sentence(tmp_path, args, words):
    ratings = [[1, 1, 2], [2, 2, 2], [1, 2, 1], [2, 2, 1], [1, 1, 1], [2, 1, 2]]
    path = _pairs_file(tmp_path, ratings, ("g", ["x", "x", "y", "y", "z", "z"]))
    done = _cli("report", path, *args)
    assert done.returncode == 2, done.stdout
    assert words in done.stderr and done.stderr.strip().count("\n") == 0, done.stderr


def test_a_blank_cluster_id_is_refused_with_its_line(tmp_path):
    ratings = [[1, 1], [2, 2], [1, 2], [2, 2]]
    path = _pairs_file(tmp_path, ratings, ("patient", ["p1", "p1", "", "p2"]))
    done = _cli("report", path, "--columns", "r0", "r1", "--clusters", "patient")
    assert done.returncode == 2
    assert "column 'patient' of --clusters is blank in line 4" in done.stderr


def test_the_html_page_holds_the_sections_and_the_limits(tmp_path):
    case, refs = _case("subgroup_kappas", "subgroup_kappas/r00")
    path = _pairs_file(tmp_path, case["input"]["ratings"], ("site", case["input"]["groups"]))
    page = tmp_path / "groups.html"
    done = _cli("report", path, "--columns", "r0", "r1", "--groups", "site", "--html", page)
    assert done.returncode == 0, done.stderr
    text = page.read_text(encoding="utf-8")
    assert "<h2>Kappa by subgroup</h2>" in text
    kappa = refs["statsmodels"]["kappa_by_group"][0]
    assert f"<th>site 0</th><td>20</td><td>{kappa:.3f}</td>" in text
    case, _ = _case("bland_altman", "bland_altman/pefr-1986-2sd")
    pairs = zip(case["input"]["x"], case["input"]["y"], strict=True)
    pefr = _csv(tmp_path / "pefr.csv", ["x", "y"], pairs)
    page = tmp_path / "pefr.html"
    done = _cli("report", pefr, "--columns", "x", "y", "--level-of-measurement", "ratio",
                "--html", page)  # fmt: skip
    assert done.returncode == 0, done.stderr
    text = page.read_text(encoding="utf-8")
    assert "<th>upper limit of agreement</th>" in text and "<td>Fleiss" not in text
