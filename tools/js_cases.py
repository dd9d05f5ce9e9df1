"""Write the cases on which the JavaScript twin (book/_static/kappa/kappa.mjs) is tested.

kappalib is the oracle: every expected number in the JSON is kappalib's (the normal
quantiles are scipy's).  tests/js/kappa.test.mjs (node's test runner) compares each
function of kappa.mjs with these numbers to 1e-12; tests/test_js_twin.py writes the JSON
into a temporary directory and runs node on it inside ``make test``.  The JSON is written
at test time, never committed, so a formula changed in kappalib without its twin in
kappa.mjs fails the next test run.

    python tools/js_cases.py --out cases.json [--seed 20261201]

The cases (one seed, so the same JSON on every run):

* matrices: K = 2..8, counts from small integers to 1e9, non-integer (weighted) counts
  (their standard error and interval: kappalib's refusal, ``{"error": sentence}``),
  many zeros, empty rows and columns, one-class margins (kappa, MCC and Scott's pi
  undefined), and each weighting: none, linear, quadratic, both with scores, and custom
  disagreement matrices (with some weighted kappa 0/0), at several confidence levels;
* ratings: units x raters tables with missing values (None), numbers and strings, for
  Krippendorff's alpha at all four levels, Fleiss' kappa (complete tables; the others are
  expected to be refused), Gwet's AC1/AC2 and Brennan-Prediger, and the count table;
* labels: two label columns -> the confusion matrix (given order, numbers, spelling);
* reports: kl.agreement_report(C=...).methods_paragraph(), the calculator's paragraph, with
  and without table=, for every weighting (and the sentence when kappa is undefined);
* formats: Python's f"{x:.3f}" and f"{x:g}", which the paragraph's numbers follow;
* errors: bad input with kappalib's sentence;
* quantiles: scipy's standard normal quantiles at the confidence levels used;
* conformance: the cases of the conformance table (``conformance/cases/*.json``, the cases
  kappalib's own tests/test_conformance.py reads) for the coefficients the twin computes,
  with the value the table stands by (exact arithmetic or a published value, not
  kappalib's) and the table's tolerance.
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path

import numpy as np

import kappalib as kl

SEED = 20261201
CONFIDENCE_LEVELS = [0.5, 0.8, 0.9, 0.95, 0.975, 0.99, 0.995, 0.999, 0.9999]


def _num(x):
    """A kappalib result as JSON: a float, None, or a list of them.  An undefined
    ConfidenceInterval (both ends None) is null, the twin's undefined interval."""
    if x is None:
        return None
    if isinstance(x, tuple):
        if all(v is None for v in x):
            return None
        return [_num(v) for v in x]
    x = float(x)
    if not math.isfinite(x):
        raise ValueError(f"kappalib returned {x!r}; the cases hold only finite numbers or null")
    return x


def _random_matrix(rng, K):
    """One K x K count matrix of a randomly chosen kind."""
    kind = rng.choice(
        [
            "small",
            "sparse",
            "diagonal",
            "large",
            "float",
            "empty_row",
            "one_class",
            "one_row",
            "tiny",
        ],
        p=[0.25, 0.15, 0.12, 0.1, 0.12, 0.1, 0.06, 0.05, 0.05],
    )
    if kind == "small":
        C = rng.integers(0, 11, size=(K, K)).astype(float)
    elif kind == "sparse":
        C = rng.integers(0, 20, size=(K, K)) * (rng.random((K, K)) < 0.3)
        C = C.astype(float)
    elif kind == "diagonal":
        C = rng.integers(0, 4, size=(K, K)).astype(float)
        C[np.diag_indices(K)] += rng.integers(5, 60, size=K)
    elif kind == "large":
        C = rng.integers(0, 10**9, size=(K, K)).astype(float)
    elif kind == "float":
        C = np.round(rng.random((K, K)) * rng.choice([1.0, 10.0, 1000.0]), 3)
    elif kind == "empty_row":
        C = rng.integers(0, 15, size=(K, K)).astype(float)
        C[rng.integers(K), :] = 0
        C[:, rng.integers(K)] = 0
    elif kind == "one_class":
        C = np.zeros((K, K))
        k = rng.integers(K)
        C[k, k] = rng.integers(1, 50)
    elif kind == "one_row":
        C = np.zeros((K, K))
        C[rng.integers(K), :] = rng.integers(0, 12, size=K)
    else:  # tiny: a handful of cases
        C = np.zeros((K, K))
        for _ in range(int(rng.integers(1, 4))):
            C[rng.integers(K), rng.integers(K)] += 1
    if C.sum() == 0:
        C[0, 0] = 1.0
    return C, str(kind)


def _random_weighting(rng, K):
    """(weighting, scores) of a random kind; a custom matrix is a nested list."""
    kind = rng.choice(
        [
            "none",
            "linear",
            "quadratic",
            "linear_scores",
            "quadratic_scores",
            "custom",
            "custom_sparse",
            "named",
        ],
        p=[0.27, 0.14, 0.14, 0.09, 0.09, 0.11, 0.07, 0.09],
    )
    if kind == "none":
        return None, None
    if kind == "named":  # Gwet's (2014) named schemes, half of them with scores
        name = str(rng.choice(["ordinal", "radical", "ratio", "circular", "bipolar"]))
        if name == "ordinal" or rng.random() < 0.5:
            return name, None
        scores = np.sort(rng.choice(np.arange(0, 40), size=K, replace=False)).astype(float)
        return name, scores.tolist()
    if kind in ("linear", "quadratic"):
        return str(kind), None
    if kind.endswith("_scores"):
        scores = np.sort(rng.choice(np.arange(-20, 40), size=K, replace=False)).astype(float)
        if rng.random() < 0.3:
            scores = scores[::-1].copy()  # scores need not increase
        return str(kind.split("_")[0]), scores.tolist()
    W = np.round(rng.random((K, K)) * 5, 3)
    if kind == "custom_sparse":
        W *= rng.random((K, K)) < 0.25
    W[np.diag_indices(K)] = 0.0
    if not (W > 0).any():
        W[0, K - 1] = 1.0
    return W.tolist(), None


def _or_refusal(func, *args, **kwargs):
    """kappalib's result as JSON, or its refusal as {"error": sentence}: a standard error or
    interval of a table that is not whole counts (issue 30, item 12), which the twin must
    refuse in the same words."""
    try:
        return _num(func(*args, **kwargs))
    except ValueError as exc:
        return {"error": str(exc)}


def _matrix_expected(C, K, weighting, scores, W, level):
    expected = {
        "observed_agreement": _num(kl.observed_agreement(C)),
        "expected_agreement": _num(kl.expected_agreement(C)),
        "kappa": _num(kl.kappa(C)),
        "kappa_max": _num(kl.kappa_max(C)),
        "mcc": _num(kl.mcc(C)),
        "pabak": _num(kl.pabak(C)),
        "scotts_pi": _num(kl.scotts_pi(C)),
        "gwet_ac1": _num(kl.gwet_ac1(C)),
        "brennan_prediger": _num(kl.brennan_prediger(C)),
        "kappa_standard_error": _or_refusal(kl.kappa_standard_error, C),
        "kappa_standard_error_null": _or_refusal(kl.kappa_standard_error, C, null=True),
        "kappa_confint": _or_refusal(kl.kappa_confint, C, confidence_level=level),
    }
    if K == 2:
        expected["prevalence_index"] = _num(kl.prevalence_index(C))
        expected["bias_index"] = _num(kl.bias_index(C))
    weighted = None
    if weighting is not None:
        opts = {"weighting": W, "scores": scores}
        weighted = {
            "kappa": _num(kl.kappa(C, **opts)),
            "gwet_ac1": _num(kl.gwet_ac1(C, **opts)),
            "brennan_prediger": _num(kl.brennan_prediger(C, **opts)),
            "kappa_standard_error": _or_refusal(kl.kappa_standard_error, C, **opts),
            "kappa_standard_error_null": _or_refusal(kl.kappa_standard_error, C, null=True, **opts),
            "kappa_confint": _or_refusal(kl.kappa_confint, C, confidence_level=level, **opts),
        }
        if isinstance(weighting, str):
            weighted["weights"] = kl.disagreement_weights(K, weighting, scores=scores).tolist()
    return expected, weighted


def matrix_cases(rng, n):
    cases = []
    for i in range(n):
        K = int(rng.integers(2, 9)) if i >= 70 else 2 + i % 7
        C, kind = _random_matrix(rng, K)
        weighting, scores = _random_weighting(rng, K)
        level = float(rng.choice(CONFIDENCE_LEVELS)) if i % 5 else float(rng.uniform(0.5, 0.9999))
        W = np.asarray(weighting) if isinstance(weighting, list) else weighting
        expected, weighted = _matrix_expected(C, K, weighting, scores, W, level)
        cases.append(
            {
                "id": f"matrix-{i}",
                "kind": kind,
                "C": C.tolist(),
                "weighting": weighting,
                "scores": scores,
                "confidence_level": level,
                "expected": expected,
                "weighted": weighted,
            }
        )
    return cases


def _ratings(rng, n_units, n_raters, values, p_missing):
    data = [
        [values[int(rng.integers(len(values)))] for _ in range(n_raters)] for _ in range(n_units)
    ]
    for u in range(n_units):
        for r in range(n_raters):
            if rng.random() < p_missing:
                data[u][r] = None
    # agreement: copy rater 0 into some others, so that the coefficients are not all ~0
    for u in range(n_units):
        if rng.random() < 0.6:
            first = data[u][0]
            for r in range(1, n_raters):
                if data[u][r] is not None and rng.random() < 0.7:
                    data[u][r] = first if first is not None else data[u][r]
    return data


def _outcome(func, *args, **kwargs):
    """{"value": ...} or {"error": sentence} for one kappalib call."""
    try:
        return {"value": _num(func(*args, **kwargs))}
    except (ValueError, TypeError) as exc:
        return {"error": str(exc)}


def ratings_cases(rng, n):
    cases = []
    words = ["absent", "mild", "moderate", "severe", "extreme"]
    for i in range(n):
        strings = i % 4 == 3
        n_units = int(rng.integers(3, 31))
        n_raters = int(rng.integers(2, 7))
        n_values = int(rng.integers(2, 6))
        if strings:
            values = words[:n_values]
        elif i % 4 == 2:
            values = sorted(rng.choice(np.arange(0, 100), size=n_values, replace=False).tolist())
            values = [float(v) / 4 for v in values]  # non-integer ratio-scale values
        else:
            values = list(range(1, n_values + 1))
        p_missing = 0.0 if i % 3 == 0 else float(rng.uniform(0.05, 0.4))
        data = _ratings(rng, n_units, n_raters, values, p_missing)
        if i % 25 == 7:  # every rating the same: alpha and Fleiss undefined
            data = [[values[0] if v is not None else None for v in row] for row in data]
            data[0][0] = data[0][1] = values[0]
        if not any(sum(v is not None for v in row) >= 2 for row in data):
            data[0][0] = data[0][1] = values[0]
        order = values if strings else None
        layout = "units x raters"
        levels = ["nominal"] if strings else ["nominal", "ordinal", "interval", "ratio"]
        alpha = {
            lv: _outcome(kl.krippendorff_alpha, data, level_of_measurement=lv, layout=layout)
            for lv in levels
        }
        if strings:
            alpha["ordinal_given"] = _outcome(
                kl.krippendorff_alpha,
                data,
                level_of_measurement="ordinal",
                layout=layout,
                labels=order,
            )
            alpha["ordinal"] = _outcome(
                kl.krippendorff_alpha, data, level_of_measurement="ordinal", layout=layout
            )
        table = kl.rating_table(data, layout=layout)
        cats = np.asarray(table.labels)
        table_given = None
        if strings:
            t_given = kl.rating_table(data, layout=layout, labels=order)
            table_given = t_given.tolist()
            weights_table = t_given
        else:
            weights_table = table
        multi = {
            "fleiss_kappa": _outcome(kl.fleiss_kappa, table),
            "gwet_ac1_multi": _outcome(kl.gwet_ac1_multi, table),
            "brennan_prediger_multi": _outcome(kl.brennan_prediger_multi, table),
        }
        if len(cats) >= 2 or strings:
            for wt in ("linear", "quadratic"):
                multi[f"gwet_ac1_multi_{wt}"] = _outcome(
                    kl.gwet_ac1_multi, weights_table, weighting=wt
                )
                multi[f"brennan_prediger_multi_{wt}"] = _outcome(
                    kl.brennan_prediger_multi, weights_table, weighting=wt
                )
        cases.append(
            {
                "id": f"ratings-{i}",
                "data": data,
                "strings": strings,
                "order": order,
                "table": table.tolist(),
                "categories": cats.tolist(),
                "table_given": table_given,
                "alpha": alpha,
                "multi": multi,
            }
        )
    return cases


def label_cases(rng, n):
    cases = []
    for i in range(n):
        size = int(rng.integers(1, 40))
        if i % 3 == 0:
            pool = ["no", "yes", "maybe", "Yes"][: int(rng.integers(2, 5))]
        else:
            pool = list(range(int(rng.integers(1, 6)))) if i % 3 == 1 else [3, 10, 7, -2]
        y1 = [pool[int(rng.integers(len(pool)))] for _ in range(size)]
        y2 = [pool[int(rng.integers(len(pool)))] for _ in range(size)]
        labels = None
        if i % 4 == 0:
            labels = list(pool)
            rng.shuffle(labels)
        C = kl.confusion_matrix(y1, y2, labels=labels)
        used = labels if labels is not None else sorted(set(y1) | set(y2))
        cases.append({"y1": y1, "y2": y2, "labels": labels, "C": C.tolist(), "order": used})
    return cases


def _error(call, func, *args, **kwargs):
    try:
        func(*args, **kwargs)
    except (ValueError, TypeError) as exc:
        return {"call": call, "message": str(exc)}
    raise AssertionError(f"{call} did not raise")


def error_cases():
    """Bad input and kappalib's sentence; the JS twin must throw the same sentence."""
    C = [[5, 1], [2, 7]]
    return [
        _error({"fn": "kappa", "C": [[1, 2, 3], [4, 5, 6]]}, kl.kappa, [[1, 2, 3], [4, 5, 6]]),
        _error({"fn": "kappa", "C": [[1, -2], [3, 4]]}, kl.kappa, [[1, -2], [3, 4]]),
        _error({"fn": "kappa", "C": [[0, 0], [0, 0]]}, kl.kappa, [[0, 0], [0, 0]]),
        _error({"fn": "mcc", "C": [[0.0, 0.0, 0.0]] * 3}, kl.mcc, [[0.0, 0.0, 0.0]] * 3),
        _error({"fn": "kappa", "C": C, "weighting": "cubic"}, kl.kappa, C, weighting="cubic"),
        _error(
            {"fn": "kappa", "C": C, "weighting": [[0, 1, 1], [1, 0, 1], [1, 1, 0]]},
            kl.kappa,
            C,
            weighting=np.array([[0, 1, 1], [1, 0, 1], [1, 1, 0]]),
        ),
        _error(
            {"fn": "kappa", "C": C, "weighting": [[1, 0.5], [0.5, 1]]},
            kl.kappa,
            C,
            weighting=np.array([[1, 0.5], [0.5, 1]]),
        ),
        _error(
            {"fn": "kappa", "C": C, "weighting": [[0, -1], [1, 0]]},
            kl.kappa,
            C,
            weighting=np.array([[0, -1], [1, 0]]),
        ),
        _error(
            {"fn": "kappa", "C": C, "weighting": [[0, 0], [0, 0]]},
            kl.kappa,
            C,
            weighting=np.array([[0, 0], [0, 0]]),
        ),
        _error(
            {"fn": "kappa", "C": C, "weighting": None, "scores": [1, 2]},
            kl.kappa,
            C,
            scores=[1, 2],
        ),
        _error(
            {"fn": "kappa", "C": C, "weighting": "linear", "scores": [1, 1]},
            kl.kappa,
            C,
            weighting="linear",
            scores=[1, 1],
        ),
        _error(
            {"fn": "kappa", "C": C, "weighting": "linear", "scores": [1, 2, 3]},
            kl.kappa,
            C,
            weighting="linear",
            scores=[1, 2, 3],
        ),
        _error(
            {"fn": "kappaConfint", "C": C, "confidence_level": 1.5},
            kl.kappa_confint,
            C,
            confidence_level=1.5,
        ),
        _error(
            {"fn": "kappaConfint", "C": C, "confidence_level": -0.5},
            kl.kappa_confint,
            C,
            confidence_level=-0.5,
        ),
        _error(
            {"fn": "prevalenceIndex", "C": [[1, 0, 0], [0, 1, 0], [0, 0, 1]]},
            kl.prevalence_index,
            [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
        ),
        _error(
            {"fn": "biasIndex", "C": [[1, 0, 0], [0, 1, 0], [0, 0, 1]]},
            kl.bias_index,
            [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
        ),
        _error({"fn": "fleissKappa", "table": [[2, 1], [1, 0]]}, kl.fleiss_kappa, [[2, 1], [1, 0]]),
        _error({"fn": "fleissKappa", "table": [[1, 0], [0, 1]]}, kl.fleiss_kappa, [[1, 0], [0, 1]]),
        _error(
            {"fn": "fleissKappa", "table": [[1, -1], [0, 1]]}, kl.fleiss_kappa, [[1, -1], [0, 1]]
        ),
        _error(
            {"fn": "fleissKappa", "table": [[1.5, 0], [0, 1]]}, kl.fleiss_kappa, [[1.5, 0], [0, 1]]
        ),
        _error(
            {"fn": "krippendorffAlpha", "data": [[1, 2], [2, 1]], "level": "cardinal"},
            kl.krippendorff_alpha,
            [[1, 2], [2, 1]],
            level_of_measurement="cardinal",
        ),
        _error(
            {"fn": "krippendorffAlpha", "data": [[1, None], [2, None], [1, None]]},
            kl.krippendorff_alpha,
            [[1, None], [2, None], [1, None]],
            layout="units x raters",
        ),
        _error(
            {"fn": "krippendorffAlpha", "data": [["a", "b"], ["b", "b"]], "level": "interval"},
            kl.krippendorff_alpha,
            [["a", "b"], ["b", "b"]],
            level_of_measurement="interval",
            layout="units x raters",
        ),
        _error(
            {"fn": "krippendorffAlpha", "data": [["a", "b"], ["b", "b"]], "level": "ordinal"},
            kl.krippendorff_alpha,
            [["a", "b"], ["b", "b"]],
            level_of_measurement="ordinal",
            layout="units x raters",
        ),
        _error(
            {"fn": "krippendorffAlpha", "data": [[-1, 2], [2, 2]], "level": "ratio"},
            kl.krippendorff_alpha,
            [[-1, 2], [2, 2]],
            level_of_measurement="ratio",
            layout="units x raters",
        ),
    ]


def report_cases(rng, n):
    """kl.agreement_report(C=...).methods_paragraph(): the calculator's paragraph."""
    names = ["absent", "mild", "moderate", "severe", "yes", "no", "A", "B", "C", "D", "E", "F"]
    cases = []
    for i in range(n):
        K = int(rng.integers(2, 7))
        C, kind = _random_matrix(rng, K)
        if i % 3 == 0:
            C = np.round(C / max(C.max(), 1) * rng.choice([10, 60, 400]))
            if C.sum() == 0:
                C[0, 0] = 1
        weighting, scores = _random_weighting(rng, K)
        labels = [str(v) for v in rng.choice(names, size=K, replace=False)]
        level = float(rng.choice([0.8, 0.9, 0.95, 0.975, 0.99]))
        raters = ["rater 1", "rater 2"] if i % 2 else ["the nurse", "the physician"]
        W = np.asarray(weighting) if isinstance(weighting, list) else weighting
        try:
            report = kl.agreement_report(
                C=C,
                labels=labels,
                weighting=W,
                scores=scores,
                confidence_level=level,
                raters=tuple(raters),
            )
            outcome = {
                "paragraph": report.methods_paragraph(),
                "paragraph_table": report.methods_paragraph(table_location="Table 2"),
            }
        except (ValueError, TypeError) as exc:
            outcome = {"error": str(exc)}
        cases.append(
            {
                "id": f"report-{i}",
                "kind": kind,
                "C": C.tolist(),
                "labels": labels,
                "weighting": weighting,
                "scores": scores,
                "confidence_level": level,
                "raters": raters,
                **outcome,
            }
        )
    return cases


def format_cases(rng, n):
    """Python's f"{x:.3f}", f"{x:.4f}", f"{x:.2f}" and f"{x:g}", which the paragraph uses."""
    xs = [0.0625, 0.0635, -0.0004, 2.5, 97.5, 0.125, 1234565.0, 1e-5, 1e6, 0.0]
    xs += (rng.integers(0, 10**4, size=n) / 2 ** rng.integers(0, 12, size=n)).tolist()
    xs += (rng.standard_normal(n) * 10.0 ** rng.integers(-6, 8, size=n)).tolist()
    return [
        {
            "x": x,
            "f0": f"{x:.0f}",
            "f2": f"{x:.2f}",
            "f3": f"{x:.3f}",
            "f4": f"{x:.4f}",
            "g": f"{x:g}",
        }
        for x in xs
    ]


def quantile_cases():
    from scipy.stats import norm  # the oracle of the normal quantile (scipy, not kappalib)

    ps = sorted(
        {(1 + c) / 2 for c in CONFIDENCE_LEVELS}
        | {1e-10, 1e-4, 0.01, 0.025, 0.3, 0.5, 0.6, 0.9, 0.99999, 1 - 1e-10}
    )
    return [{"p": p, "z": float(norm.ppf(p))} for p in ps]


# --- the conformance table (conformance/cases/*.json), the cases kappalib is tested on too ---

CONFORMANCE = Path(__file__).resolve().parents[1] / "conformance" / "cases"

# the table's coefficients that the twin computes, and the quantities it gives of each
TWIN_QUANTITIES = {
    "cohen_kappa": ["value", "se", "se_null", "ci_low", "ci_high"],
    "scotts_pi": ["value"],
    "pabak": ["value"],
    "kappa_max": ["value"],
    "mcc": ["value"],
    "prevalence_bias_index": ["prevalence_index", "bias_index"],
    "specific_agreement": ["value_by_category"],
    "gwet_ac1": ["value"],
    "brennan_prediger": ["value"],
    "krippendorff_alpha": ["value"],
    "fleiss_kappa": ["value"],
    "gwet_ac1_multi": ["value"],
    "brennan_prediger_multi": ["value"],
}

TWIN_OPTIONS = ("weights", "level", "confidence_level")


def _right_value(case, quantity):
    """The value of ``quantity`` the table stands by, with its tolerance: that of the first
    reference that gives it undisputed (the table's anchor: exact arithmetic first), or the
    right value a verdict names; a case's own tolerance, where it has one, is looser."""
    for ref in case["references"]:
        if quantity not in ref["values"]:
            continue
        disputed = ref.get("disputed", {}).get(quantity)
        value = disputed["right"] if disputed else ref["values"][quantity]
        tolerance = dict(ref["tolerance"])
        own = case.get("tolerance")
        if own:
            tolerance = {k: max(tolerance[k], own[k]) for k in ("abs", "rel")}
        return value, tolerance
    return None


def conformance_cases(folder=CONFORMANCE):
    """The conformance table's cases of the coefficients the twin computes, as calls of the
    twin with the value the table stands by.  An empty list where the checkout has no table."""
    folder = Path(folder)
    out = []
    for coefficient, quantities in TWIN_QUANTITIES.items():
        path = folder / f"{coefficient}.json"
        if not path.exists():
            continue
        for case in json.loads(path.read_text(encoding="utf-8"))["cases"]:
            options = case["options"]  # n_population (a finite-population correction) changes
            # only a standard error, which the twin does not give for these coefficients
            if coefficient == "krippendorff_alpha" and "weights" in options:
                continue  # the twin's alpha takes a level of measurement, not Gwet's weights
            expected = {}
            for q in quantities:
                found = _right_value(case, q)
                if found is not None:
                    expected[q] = {"value": found[0], "tolerance": found[1]}
            if expected:
                out.append(
                    {
                        "id": case["id"],
                        "coefficient": coefficient,
                        "input": case["input"],
                        "options": {k: v for k, v in options.items() if k in TWIN_OPTIONS},
                        "expected": expected,
                    }
                )
    return out


def build(seed=SEED, n_matrices=1200, n_ratings=240, n_labels=60, n_reports=300,
          conformance=CONFORMANCE):  # fmt: skip
    rng = np.random.default_rng(seed)
    return {
        "conformance": conformance_cases(conformance),
        "seed": seed,
        "kappalib_version": kl.__version__,
        "matrices": matrix_cases(rng, n_matrices),
        "ratings": ratings_cases(rng, n_ratings),
        "labels": label_cases(rng, n_labels),
        "reports": report_cases(rng, n_reports),
        "formats": format_cases(rng, 200),
        "errors": error_cases(),
        "quantiles": quantile_cases(),
    }


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True, type=Path)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--conformance", type=Path, default=CONFORMANCE,
                        help="the conformance table's cases/ folder")  # fmt: skip
    args = parser.parse_args(argv)
    cases = build(args.seed, conformance=args.conformance)
    args.out.write_text(json.dumps(cases, allow_nan=False), encoding="utf-8")
    print(
        f"wrote {len(cases['matrices'])} matrices, {len(cases['ratings'])} ratings tables, "
        f"{len(cases['labels'])} label pairs, {len(cases['reports'])} reports, "
        f"{len(cases['errors'])} bad inputs, {len(cases['conformance'])} cases of the "
        "conformance table and "
        f"{len(cases['quantiles'])} quantiles to {args.out}"
    )


if __name__ == "__main__":
    main()
