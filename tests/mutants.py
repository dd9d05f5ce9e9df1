"""The mutation check (``make mutants``): every semantic mutant must be killed by the unit suite.

A mutant is a plausible bug in one public function.  It is applied **at run time**: this
module is also a pytest plugin (``-p mutants``) that, when ``KAPPALIB_MUTANT`` names a mutant,
replaces the public function by a wrapper in ``kappalib`` and in every ``kappalib.*`` module
that holds it (so ``cohen_kappa_score`` calls a mutated ``kappa`` too), before any test runs.
Nothing is edited on disk, so the check survives refactoring of the private modules.

``python tests/mutants.py`` runs a baseline (no mutant: each focus selection must pass), then
the unit tests once per mutant with ``-x`` (stop at the first failure), and prints which test
killed each one.  It exits with 1 if any mutant survives: a survivor marks a missing oracle.
Run from the repository root; ``python tests/mutants.py NAME ...`` runs only those mutants.

Each mutant has a focus: the tests likeliest to kill it (FOCUS, else DEFAULT_FOCUS).  One
that survives its focus is run against the whole files of its focus, then kappalib's own
quick tests (FALLBACK: a marker expression, see pyproject.toml), before it is declared a
survivor (the table says "focus missed" when the fallback killed it).  Every run is a real
pytest session of its own; on a platform with ``os.fork`` it is a forked child of the
runner, which imported numpy, scipy, scikit-learn, statsmodels, hypothesis, pytest and
kappalib once, so that a killed mutant costs about a second, not the five of a fresh
interpreter.  Two sessions run at a time; one still running TIMEOUT seconds after it started
(TIMEOUTS[name] for a mutant that has its own) is killed, with its whole process group, and
its mutant counts as not killed.
"""

from __future__ import annotations

import functools
import math
import os
import signal
import subprocess
import sys
import time

import numpy as np

ENV = "KAPPALIB_MUTANT"
MARK = "__kappalib_mutant__"  # set on an applied mutant (the name of the mutant)
WORKERS = 2  # mutants checked side by side (one pytest process each)

# Where a mutant that survived its focus is looked for next, after its focus's whole files:
# kappalib's own tests (not the course's toolchain, not the sandbox) without the long tails
# of the random sweeps that only make test-full runs.  The markers are declared in
# pyproject.toml, where each says what it means.
FALLBACK = ["-m", "not toolchain and not sandbox and not full", "tests"]


def _float(x):
    x = np.asarray(x, dtype=np.float64)
    return float(x) if x.ndim == 0 else x


def _margins(C):
    C = np.asarray(C, dtype=np.float64)
    return C, C.sum(axis=(-2, -1)), C.sum(axis=-1), C.sum(axis=-2)


def _scale(value, factor):
    return None if value is None else _float(np.asarray(value) * factor)


# name -> (public function, what the bug is, mutant factory taking the original function)
MUTANTS = {
    # --- the four survivors of the outside review ---
    "pabak_two_classes": (
        "pabak",
        "PABAK hard-coded to K = 2: 2 p_o - 1",
        lambda f: lambda C: _float(2 * _float(__import__("kappalib").observed_agreement(C)) - 1),
    ),
    "scotts_pi_cohen_pe": (
        "scotts_pi",
        "Scott's pi with Cohen's p_e (the margins not pooled)",
        lambda f: lambda C, **kw: __import__("kappalib").kappa(C, **kw),
    ),
    "expected_agreement_rows_twice": (
        "expected_agreement",
        "p_e from the row margins twice: sum r_k^2 / N^2",
        lambda f: (
            lambda C: (lambda C, N, r, c: _float((r * r).sum(axis=-1) / (N * N)))(*_margins(C))
        ),
    ),
    "bias_index_sign": (
        "bias_index",
        "bias index with its sign flipped: (c - b) / N",
        lambda f: lambda C: _float(-np.asarray(f(C))),
    ),
    # --- one more per public function ---
    "asymmetry_half": (
        "asymmetry",
        "the norm of the antisymmetric part (C - C^T) / 2 instead of C - C^T",
        lambda f: lambda C: _float(np.asarray(f(C)) / 2),
    ),
    "cohen_kappa_score_no_sample_weight": (
        "cohen_kappa_score",
        "sample_weight ignored",
        lambda f: lambda y1, y2, *, sample_weight=None, **kw: f(y1, y2, **kw),
    ),
    "cohen_kappa_score_labels_ignored": (
        "cohen_kappa_score",
        "the labels= order ignored (sorted labels used)",
        lambda f: (
            lambda y1, y2, *, labels=None, **kw: f(
                y1, y2, **kw, labels=None if labels is None else sorted(labels, key=str)
            )
        ),
    ),
    "labels_from_matrix_columns_as_rows": (
        "labels_from_matrix",
        "the row and the column label swapped (the transpose's cases)",
        lambda f: lambda C, **kw: f(C, **kw)[::-1],
    ),
    "confusion_matrix_transposed": (
        "confusion_matrix",
        "rows are the prediction, columns the reference",
        lambda f: lambda y_true, y_pred, **kw: f(y_true, y_pred, **kw).T,
    ),
    "disagreement_weights_quadratic_is_linear": (
        "disagreement_weights",
        "'quadratic' gives linear distances",
        lambda f: (
            lambda K, weighting=None, **kw: f(
                K, "linear" if weighting == "quadratic" else weighting, **kw
            )
        ),
    ),
    "expected_counts_rows_twice": (
        "expected_counts",
        "E = r r^T / N (the row margins twice)",
        lambda f: (
            lambda C: (lambda C, N, r, c: r[..., :, None] * r[..., None, :] / N)(*_margins(C))
        ),
    ),
    "kappa_weighting_ignored": (
        "kappa",
        "weighting and scores ignored: always unweighted",
        lambda f: lambda C, *, weighting=None, scores=None, **kw: f(C, **kw),
    ),
    "kappa_confint_confidence_ignored": (
        "kappa_confint",
        "confidence ignored (always 0.95)",
        lambda f: lambda C, *, confidence_level=0.95, **kw: f(C, **kw),
    ),
    "kappa_max_uses_max": (
        "kappa_max",
        "p_o,max from max(r_k, c_k) instead of min",
        lambda f: (
            lambda C, **kw: (
                lambda C, N, r, c: _float(
                    (np.maximum(r, c).sum(axis=-1) / N - _pe(r, c, N)) / (1 - _pe(r, c, N))
                )
            )(*_margins(C))
        ),
    ),
    "kappa_standard_error_n_minus_1": (
        "kappa_standard_error",
        "variance divided by N - 1 instead of N",
        lambda f: (
            lambda C, **kw: _scale(
                f(C, **kw),
                np.sqrt(_margins(C)[1] / (_margins(C)[1] - 1)),
            )
        ),
    ),
    "matthews_corrcoef_no_sample_weight": (
        "matthews_corrcoef",
        "sample_weight ignored",
        lambda f: lambda y_true, y_pred, *, sample_weight=None, **kw: f(y_true, y_pred, **kw),
    ),
    "mcc_is_kappa": (
        "mcc",
        "MCC computed as Cohen's kappa",
        lambda f: lambda C, **kw: __import__("kappalib").kappa(C, **kw),
    ),
    "observed_agreement_off_by_one": (
        "observed_agreement",
        "the diagonal summed over range(K - 1)",
        lambda f: (
            lambda C: (
                lambda C, N, r, c: _float(np.einsum("...ii->...i", C)[..., :-1].sum(axis=-1) / N)
            )(*_margins(C))
        ),
    ),
    "off_diagonal_entropy_natural_log": (
        "off_diagonal_entropy",
        "the natural logarithm where base 2 is asked",
        lambda f: lambda C, *, base=2, **kw: f(C, base=math.e if base == 2 else base, **kw),
    ),
    "pabak_over_k": (
        "pabak",
        "(K p_o - 1) / K instead of / (K - 1)",
        lambda f: lambda C: _float(np.asarray(f(C)) * (np.shape(C)[-1] - 1) / np.shape(C)[-1]),
    ),
    "prevalence_index_absolute": (
        "prevalence_index",
        "|a - d| / N: the sign lost",
        lambda f: lambda C: _float(np.abs(np.asarray(f(C)))),
    ),
    "scotts_pi_unpooled_square": (
        "scotts_pi",
        "p_e from sum (r_k / N)^2 + (c_k / N)^2 over 2, not the pooled shares squared",
        lambda f: (
            lambda C, **kw: (
                lambda C, N, r, c: _float(
                    (
                        np.trace(C, axis1=-2, axis2=-1) / N
                        - ((r / N[..., None]) ** 2 + (c / N[..., None]) ** 2).sum(axis=-1) / 2
                    )
                    / (1 - ((r / N[..., None]) ** 2 + (c / N[..., None]) ** 2).sum(axis=-1) / 2)
                )
            )(*_margins(C))
        ),
    ),
    # --- issue 22: the topic modules (dotted targets: module.function) ---
    "closed_forms_kappa_C0_is_mcc": (
        "closed_forms.kappa_C0",
        "the closed-form kappa of C0 returns its MCC",
        lambda f: lambda a, b, d: __import__("kappalib").closed_forms.mcc_C0(a, b, d),
    ),
    "closed_forms_mcc_C1_no_false_positive": (
        "closed_forms.mcc_C1",
        "MCC of C1 computed as if its false positive were 0 (the C0 formula)",
        lambda f: lambda a, b, d: __import__("kappalib").closed_forms.mcc_C0(a, b, d),
    ),
    "families_C1_is_C0": (
        "families.C1",
        "C1 built without its false positive",
        lambda f: lambda a, b, d: __import__("kappalib").families.C0(a, b, d),
    ),
    "families_ZA_A_on_the_diagonal": (
        "families.ZA",
        "Z_A with A in the top-left cell instead of the top-right",
        lambda f: lambda A, n_classes: _za_top_left(f(A, n_classes)),
    ),
    # --- issue 22 ---
    "cohen_kappa_confint_weighting_ignored": (
        "cohen_kappa_confint",
        "the interval of unweighted kappa whatever weighting= says",
        lambda f: lambda y1, y2, *, weighting=None, scores=None, **kw: f(y1, y2, **kw),
    ),
    "UndefinedMetricError_not_ValueError": (
        "UndefinedMetricError",
        "the exception no longer a ValueError",
        lambda f: type("UndefinedMetricError", (ArithmeticError,), {}),
    ),
    # --- inference (issue 16) ---
    "kappa_standard_error_null_ignored": (
        "kappa_standard_error",
        "null=True gives the non-null standard error",
        lambda f: lambda C, *, null=False, **kw: f(C, **kw),
    ),
    "bootstrap_confint_always_percentile": (
        "bootstrap_confint",
        "method='bca' ignored: always the percentile interval",
        lambda f: lambda C, *, method="percentile", **kw: f(C, **kw),
    ),
    "bootstrap_confint_statistic_ignored": (
        "bootstrap_confint",
        "coefficient='mcc' ignored: always kappa",
        lambda f: lambda C, *, coefficient="kappa", **kw: f(C, **kw),
    ),
    "paired_difference_ci_a_minus_b": (
        "paired_difference_confint",
        "the difference A - B where B - A is documented",
        lambda f: lambda y_true, pred_a, pred_b, **kw: f(y_true, pred_b, pred_a, **kw),
    ),
    "kappa_sample_size_width_for_half_width": (
        "kappa_sample_size",
        "half_width taken as the full width of the interval (N four times too small)",
        lambda f: (
            lambda kappa, marginals, *, half_width, **kw: f(
                kappa, marginals, half_width=2 * half_width, **kw
            )
        ),
    ),
    # --- more raters, other coefficients (issue 15) ---
    "rating_table_raters_as_units": (
        "rating_table",
        "the layout read as units x raters (statsmodels' orientation)",
        lambda f: lambda data, **kw: f(np.asarray(data).T, **kw),
    ),
    "fleiss_kappa_n_squared": (
        "fleiss_kappa",
        "P_i = (sum_k n_ik^2 - n) / n^2 instead of / (n (n - 1))",
        lambda f: lambda table, **kw: _fleiss_n_squared(f(table, **kw), table),
    ),
    "krippendorff_alpha_ordinal_is_interval": (
        "krippendorff_alpha",
        "level_of_measurement='ordinal' computed with the interval distance",
        lambda f: (
            lambda data, *, level_of_measurement="nominal", **kw: f(
                data,
                level_of_measurement="interval"
                if level_of_measurement == "ordinal"
                else level_of_measurement,
                **kw,
            )
        ),
    ),
    "krippendorff_alpha_no_small_sample_factor": (
        "krippendorff_alpha",
        "1 - n D_o / D_e, without Krippendorff's (n - 1) small-sample factor",
        lambda f: (
            lambda data, **kw: _alpha_without_n_minus_1(f(data, **kw), data, kw.get("layout"))
        ),
    ),
    "gwet_ac1_unpooled_shares": (
        "gwet_ac1",
        "chance from rater 1's shares r_k / N, not the pooled (r_k + c_k) / 2N",
        lambda f: lambda C, **kw: _gwet_two(C, pooled=False, **kw),
    ),
    "gwet_ac1_multi_pooled_counts": (
        "gwet_ac1_multi",
        "pi_k from the pooled counts sum_i n_ik / sum_i r_i, not the mean of per-unit shares",
        lambda f: lambda table, **kw: _gwet_multi_pooled(table, **kw),
    ),
    "brennan_prediger_weighting_ignored": (
        "brennan_prediger",
        "weighting and scores ignored: always unweighted (PABAK)",
        lambda f: lambda C, *, weighting=None, scores=None, **kw: f(C, **kw),
    ),
    "brennan_prediger_multi_pe_one_over_k": (
        "brennan_prediger_multi",
        "p_e = 1 / K even with weights, instead of T_w / K^2",
        lambda f: lambda table, **kw: _bp_multi_one_over_k(f(table, **kw), table, **kw),
    ),
    # --- r23: the report in one call (issue 23, section 3) ---
    "agreement_report_z_from_interval_se": (
        "agreement_report",
        "z and p from the interval's standard error instead of the one under kappa = 0",
        lambda f: lambda *a, **kw: _report_z_from_se(f(*a, **kw)),
    ),
    "agreement_report_forgets_few_units": (
        "agreement_report",
        "the few-units caveat is never given",
        lambda f: lambda *a, **kw: _report_without(f(*a, **kw), "Few units"),
    ),
    "matrix_from_counts_transposed": (
        "matrix_from_counts",
        "the first label column read as the columns of C",
        lambda f: lambda frame, **kw: np.ascontiguousarray(f(frame, **kw).T),
    ),
    "matrix_from_counts_pairs_not_counts": (
        "matrix_from_counts",
        "the count column ignored: a cell says only whether the pair occurs",
        lambda f: lambda frame, **kw: np.minimum(f(frame, **kw), 1),
    ),
    "ratings_report_level_ignored": (
        "ratings_report",
        "Krippendorff's alpha always at the nominal level",
        lambda f: lambda data=None, *, level_of_measurement="nominal", **kw: f(data, **kw),
    ),
    "agreement_report_specific_agreement_reversed": (
        "agreement_report",
        "specific agreement listed against the wrong categories (reversed)",
        lambda f: lambda *a, **kw: _report_specific_reversed(f(*a, **kw)),
    ),
    # --- many-rater standard errors and intervals (issue 23, section 1) ---
    "ratings_standard_error_n_squared": (
        "ratings_standard_error",
        "Gwet's variance over n^2 instead of n (n - 1)",
        lambda f: lambda data, **kw: _ratings_se_n_squared(f(data, **kw), data, kw),
    ),
    "ratings_confint_confidence_ignored": (
        "ratings_confint",
        "confidence_level ignored: always a 95% interval",
        lambda f: lambda data, *, confidence_level=0.95, **kw: f(data, **kw),
    ),
}


def _report_z_from_se(report):
    import dataclasses
    from statistics import NormalDist

    z = report.estimate / report.standard_error if report.standard_error else None
    p = None if z is None else 2 * NormalDist().cdf(-abs(z))
    return dataclasses.replace(report, z=z, pvalue=p)


def _report_specific_reversed(report):
    import dataclasses

    return dataclasses.replace(report, specific_agreement=report.specific_agreement[::-1])


def _report_without(report, word):
    import dataclasses

    kept = tuple(c for c in report.caveats if not c.startswith(word))
    return dataclasses.replace(report, caveats=kept)


# Where each mutant is looked for first (files or test ids, the likeliest killer first); a
# mutant that survives its focus is run against FALLBACK before it is declared a
# survivor.  The default focus is the two files of hand-computed and published values.
DEFAULT_FOCUS = ["tests/test_oracles.py", "tests/test_seeds.py"]
RANDOM_PAIRS = [f"tests/test_parity.py::test_random_pairs_against_sklearn[{i}]" for i in (0, 1)]
# test_closed_forms.py's dense minimisations take 8 s: its closed-form tests, not the file
CLOSED_FORMS = [
    "tests/test_closed_forms.py::test_C0_closed_forms_match_kappalib",
    "tests/test_closed_forms.py::test_C1_closed_forms_match_kappalib",
]
FOCUS = {
    "labels_from_matrix_columns_as_rows": ["tests/test_labels_from_matrix.py"],
    # the first two of the random cases (all of them take 8 s; the file is the fallback)
    "cohen_kappa_score_no_sample_weight": RANDOM_PAIRS,
    "cohen_kappa_score_labels_ignored": RANDOM_PAIRS,
    "matthews_corrcoef_no_sample_weight": RANDOM_PAIRS,
    "disagreement_weights_quadratic_is_linear": ["tests/test_weighted.py"],
    "kappa_confint_confidence_ignored": ["tests/test_oracles.py", "tests/test_weighted.py"],
    "kappa_standard_error_n_minus_1": [
        "tests/test_parity.py::test_standard_error_against_statsmodels"
    ],
    "UndefinedMetricError_not_ValueError": ["tests/test_undefined.py"],
    "cohen_kappa_confint_weighting_ignored": ["tests/test_issue22_ratings.py"],
    "closed_forms_kappa_C0_is_mcc": CLOSED_FORMS,
    "closed_forms_mcc_C1_no_false_positive": CLOSED_FORMS[::-1],
    "families_C1_is_C0": ["tests/test_families.py", *CLOSED_FORMS],
    "families_ZA_A_on_the_diagonal": ["tests/test_families.py", *CLOSED_FORMS],
    "kappa_standard_error_null_ignored": ["tests/test_inference_null.py"],
    "bootstrap_confint_always_percentile": [
        "tests/test_bootstrap.py::test_bca_differs_from_percentile_where_it_should"
    ],
    "bootstrap_confint_statistic_ignored": [
        "tests/test_bootstrap.py::test_percentile_interval_is_the_quantiles_over_the_same_resamples"
    ],
    "paired_difference_ci_a_minus_b": [
        "tests/test_bootstrap.py::test_paired_difference_agrees_with_scipy"
    ],
    "kappa_sample_size_width_for_half_width": [
        "tests/test_bootstrap.py::test_sample_size_binary_closed_form"
    ],
    "rating_table_raters_as_units": ["tests/test_multirater_oracles.py"],
    "fleiss_kappa_n_squared": ["tests/test_multirater_oracles.py"],
    "krippendorff_alpha_ordinal_is_interval": ["tests/test_multirater_oracles.py"],
    "krippendorff_alpha_no_small_sample_factor": ["tests/test_multirater_oracles.py"],
    "gwet_ac1_unpooled_shares": ["tests/test_multirater_oracles.py"],
    "gwet_ac1_multi_pooled_counts": ["tests/test_multirater_oracles.py"],
    "brennan_prediger_weighting_ignored": ["tests/test_multirater_oracles.py"],
    "brennan_prediger_multi_pe_one_over_k": ["tests/test_multirater_oracles.py"],
    # r23
    # test functions, not the file: its irrCAC parity tests come before the killers
    "agreement_report_z_from_interval_se": [
        "tests/test_report.py::test_numbers_equal_statsmodels_on_random_tables"
    ],
    "agreement_report_forgets_few_units": [
        "tests/test_report.py::test_few_units_caveat_at_49_not_at_50"
    ],
    "matrix_from_counts_transposed": ["tests/test_counts.py"],
    "matrix_from_counts_pairs_not_counts": ["tests/test_counts.py"],
    "ratings_report_level_ignored": [
        "tests/test_report.py::test_ratings_report_on_fleiss_1971_and_krippendorff_2011"
    ],
    "agreement_report_specific_agreement_reversed": [
        "tests/test_report.py::test_specific_agreement_by_exact_arithmetic"
    ],
    # the first of 50 batches (the whole file takes 40 s; its test ids are the fallback)
    "ratings_standard_error_n_squared": [
        "tests/test_rating_inference.py::"
        "test_ac1_ac2_bp_standard_errors_and_intervals_against_irrcac[0]"
    ],
    "ratings_confint_confidence_ignored": [
        "tests/test_rating_inference.py::"
        "test_ac1_ac2_bp_standard_errors_and_intervals_against_irrcac[0]"
    ],
}


# --- issue 23, section 2 (d23): fixed raters, categories, bias, validity, continuous ---------


def _d23_replace(result, **changes):
    return __import__("dataclasses").replace(result, **changes)


def _d23_conger_pooled(data, *, layout=None, labels=None, **kw):
    """Conger's kappa with Fleiss' pooled chance agreement (the raters' own margins lost)."""
    import kappalib

    table = kappalib.rating_table(data, layout=layout, labels=labels)
    return kappalib.fleiss_kappa_generalized(table, **kw)


def _d23_complete_units(data, layout):
    """Raters x units ratings with every unit that has a missing rating dropped."""
    X = np.asarray(data, dtype=np.float64)
    X = X.T if layout == "units x raters" else X
    return X[:, ~np.isnan(X).any(axis=0)]


def _d23_specific_rows_twice(f, C, **kw):
    res = f(C, **kw)
    M = np.asarray(C, dtype=np.float64)
    return _d23_replace(res, values=np.diag(M) / M.sum(axis=1))


def _d23_icc_agreement_is_consistency(res):
    forms = list(res.forms)
    forms[1] = _d23_replace(forms[2], name="ICC2", shrout_fleiss="ICC(2,1)", mcgraw_wong="ICC(A,1)")
    forms[4] = _d23_replace(
        forms[5], name="ICC2k", shrout_fleiss="ICC(2,k)", mcgraw_wong="ICC(A,k)"
    )
    return _d23_replace(res, forms=tuple(forms))


def _d23_stuart_maxwell_df_k(res):
    if res.statistic is None:
        return res
    from kappalib._shared.distributions import chi2_sf

    return _d23_replace(res, df=res.df + 1, pvalue=chi2_sf(res.statistic, res.df + 1))


MUTANTS.update(
    {
        "conger_kappa_pooled_margins": (
            "conger_kappa",
            "chance agreement from the pooled margins (Fleiss), not each rater's own",
            lambda f: _d23_conger_pooled,
        ),
        "light_kappa_listwise_deletion": (
            "light_kappa",
            "units with a missing rating dropped for every pair (not pairwise)",
            lambda f: (
                lambda data, *, layout=None, **kw: f(
                    _d23_complete_units(data, layout), layout="raters x units", **kw
                )
            ),
        ),
        "fleiss_kappa_generalized_weighting_ignored": (
            "fleiss_kappa_generalized",
            "weighting and scores ignored: always unweighted",
            lambda f: lambda table, *, weighting=None, scores=None, **kw: f(table, **kw),
        ),
        "specific_agreement_rows_twice": (
            "specific_agreement",
            "n_kk / n_k. (rater 1's margin twice) instead of 2 n_kk / (n_k. + n_.k)",
            lambda f: lambda C, **kw: _d23_specific_rows_twice(f, C, **kw),
        ),
        "category_fleiss_kappas_se_without_2": (
            "category_fleiss_kappas",
            "z from the standard error sqrt(1 / (N n (n - 1))), without Fleiss' factor 2",
            lambda f: (
                lambda table, **kw: (lambda res: _d23_replace(res, z=res.z * np.sqrt(2.0)))(
                    f(table, **kw)
                )
            ),
        ),
        "class_validity_columns_as_reference": (
            "class_validity",
            "sensitivity and PPV swapped (the columns taken for the reference)",
            lambda f: (
                lambda C, **kw: (
                    lambda res: _d23_replace(res, sensitivity=res.ppv, ppv=res.sensitivity)
                )(f(C, **kw))
            ),
        ),
        "mcnemar_test_correction_ignored": (
            "mcnemar_test",
            "correction=True ignored: never the continuity correction",
            lambda f: (
                lambda C, *, correction=True, exact=False: f(C, correction=False, exact=exact)
            ),
        ),
        "stuart_maxwell_test_df_k": (
            "stuart_maxwell_test",
            "K degrees of freedom instead of K - 1",
            lambda f: lambda C: _d23_stuart_maxwell_df_k(f(C)),
        ),
        "icc_agreement_is_consistency": (
            "icc",
            "ICC2 and ICC2k (absolute agreement) computed as ICC3 and ICC3k (consistency)",
            lambda f: lambda data, **kw: _d23_icc_agreement_is_consistency(f(data, **kw)),
        ),
        "icc_confidence_ignored": (
            "icc",
            "confidence_level ignored (always 0.95)",
            lambda f: lambda data, *, confidence_level=0.95, **kw: f(data, **kw),
        ),
        "lins_ccc_is_pearson": (
            "lins_ccc",
            "the concordance reported as Pearson's r (no bias correction)",
            lambda f: (
                lambda x, y, **kw: (lambda res: _d23_replace(res, estimate=res.pearson))(
                    f(x, y, **kw)
                )
            ),
        ),
    }
)
# the tests that kill them, not their files: with -x a file runs its slower parity tests
# first.  A whole test function where its cases are cheap, else its first case ([0]); a
# focus that misses falls back to its whole files, then FALLBACK (and the table says so).
FOCUS.update(
    {
        "conger_kappa_pooled_margins": [
            "tests/test_designs.py::test_conger_and_generalized_fleiss_on_krippendorffs_example"
        ],
        "light_kappa_listwise_deletion": [
            "tests/test_designs.py::test_light_against_sklearn_pairs[0]"
        ],
        "fleiss_kappa_generalized_weighting_ignored": [
            "tests/test_designs.py::test_conger_against_irrcac[0]"
        ],
        "specific_agreement_rows_twice": [
            "tests/test_designs.py::test_specific_agreement_in_exact_fractions"
        ],
        "category_fleiss_kappas_se_without_2": [
            "tests/test_designs.py::test_category_fleiss_kappas_against_statsmodels_collapsed"
        ],
        "class_validity_columns_as_reference": [
            "tests/test_designs.py::test_class_validity_against_sklearn"
        ],
        "mcnemar_test_correction_ignored": [
            "tests/test_designs.py::test_mcnemar_against_statsmodels"
        ],
        "stuart_maxwell_test_df_k": [
            "tests/test_designs.py::test_stuart_maxwell_against_statsmodels"
        ],
        "icc_agreement_is_consistency": [
            "tests/test_continuous.py::test_shrout_fleiss_worked_example"
        ],
        "icc_confidence_ignored": ["tests/test_continuous.py::test_icc_interval_at_other_levels"],
        "lins_ccc_is_pearson": ["tests/test_continuous.py::test_ccc_value_in_exact_fractions"],
    }
)


def _pe(r, c, N):
    return (r * c).sum(axis=-1) / (N * N)


# --- helpers of the mutants of the multi-rater coefficients (public API and numpy only) ---


def _agreement_weights(K, weighting=None, scores=None):
    """Gwet's agreement weights w = 1 - W / max W (identity when unweighted)."""
    import kappalib

    if weighting is None:
        return np.eye(K)
    if isinstance(weighting, str):
        W = kappalib.disagreement_weights(K, weighting, scores=scores)
    else:
        W = np.asarray(weighting, dtype=np.float64)
    return 1.0 - W / W.max()


def _fleiss_n_squared(value, table):
    if value is None or not math.isfinite(value):
        return value
    T = np.asarray(table, dtype=np.float64)
    n = T.sum(axis=1)[0]
    P = ((T * T).sum(axis=1) - n) / (n * n)
    p = T.sum(axis=0) / T.sum()
    pe = float(p @ p)
    return float((P.mean() - pe) / (1 - pe))


def _alpha_without_n_minus_1(value, data, layout=None):
    """alpha = 1 - (n - 1) D; the mutant is 1 - n D = 1 - (1 - alpha) n / (n - 1)."""
    if value is None or not math.isfinite(value):
        return value
    import kappalib

    table = kappalib.rating_table(data, layout=layout)  # the layout the call was given
    m = table.sum(axis=1)
    n = float(m[m >= 2].sum())
    return 1.0 - (1.0 - value) * n / (n - 1.0)


def _gwet_two(C, *, pooled, weighting=None, scores=None):
    C, N, r, c = _margins(C)
    K = C.shape[-1]
    w = _agreement_weights(K, weighting, scores)
    p_a = np.einsum("...ij,ij->...", C, w) / N
    pi = (r + c) / (2 * N[..., None]) if pooled else r / N[..., None]
    p_e = w.sum() / (K * (K - 1.0)) * (pi * (1 - pi)).sum(axis=-1)
    return _float((p_a - p_e) / (1 - p_e))


def _multi_p_a(T, w):
    r = T.sum(axis=1)
    T, r = T[r > 0], r[r > 0]
    two = r >= 2
    T2, r2 = T[two], r[two]
    agree = np.einsum("ik,ik->i", T2, T2 @ w.T) - r2
    return float(np.mean(agree / (r2 * (r2 - 1.0))))


def _gwet_multi_pooled(table, *, weighting=None, scores=None):
    T = np.asarray(table, dtype=np.float64)
    K = T.shape[1]
    w = _agreement_weights(K, weighting, scores)
    pi = T.sum(axis=0) / T.sum()
    p_e = w.sum() / (K * (K - 1.0)) * float(pi @ (1 - pi))
    return float((_multi_p_a(T, w) - p_e) / (1 - p_e))


def _bp_multi_one_over_k(value, table, *, weighting=None, scores=None):
    K = np.shape(table)[1]
    T_w = _agreement_weights(K, weighting, scores).sum()
    p_e = T_w / (K * K)
    p_a = value * (1 - p_e) + p_e
    return float((p_a - 1.0 / K) / (1.0 - 1.0 / K))


def _ratings_se_n_squared(se, data, kw):
    if se is None or kw.get("method", "analytic") != "analytic" or kw.get("null"):
        return se
    n = int((np.asarray(data, dtype=np.float64).sum(axis=1) > 0).sum())
    return float(se * math.sqrt((n - 1) / n))


# --- issue 34 (f34a): limits of agreement, overall CCC, Bangdiwala's B, benchmarking ---------


def _f34a_limits_one_sd(res):
    """Limits at bias -/+ one SD (z dropped)."""
    b, s = res.bias.estimate, res.standard_deviation
    return _d23_replace(
        res,
        lower_limit=res.lower_limit._replace(estimate=b - s),
        upper_limit=res.upper_limit._replace(estimate=b + s),
    )


def _f34a_untruncated(res):
    """Gwet's probabilities without the truncation to [-1, 1]."""
    import math

    def phi(x):
        return 0.5 * math.erfc(-x / math.sqrt(2.0))

    if res is None or res.standard_error == 0:
        return res
    k, s = res.estimate, res.standard_error
    factor = phi((k + 1) / s) - phi((k - 1) / s)
    p = res.probabilities * factor
    return _d23_replace(res, probabilities=p, cumulative_probabilities=np.cumsum(p))


MUTANTS.update(
    {
        "bland_altman_limits_one_sd": (
            "bland_altman",
            "limits of agreement at bias -/+ 1 SD (agreement_level's z ignored)",
            lambda f: lambda y1, y2, **kw: _f34a_limits_one_sd(f(y1, y2, **kw)),
        ),
        "bland_altman_exact_is_approximate": (
            "bland_altman",
            "method='exact' ignored: Bland and Altman's approximate interval always",
            lambda f: (
                lambda y1, y2, *, method=None, units=None, **kw: f(
                    y1, y2, units=units, method="approximate" if units is None else method, **kw
                )
            ),
        ),
        "overall_ccc_is_precision": (
            "overall_ccc",
            "the overall concordance reported as its precision (no accuracy factor)",
            lambda f: (
                lambda data, **kw: (lambda r: _d23_replace(r, estimate=r.precision))(f(data, **kw))
            ),
        ),
        "bangdiwala_b_weighting_ignored": (
            "bangdiwala_b",
            "weighting ignored: always the unweighted B",
            lambda f: lambda C, *, weighting=None, **kw: f(C, **kw),
        ),
        "bangdiwala_confint_weighting_ignored": (
            "bangdiwala_confint",
            "weighting ignored in the interval",
            lambda f: lambda C, *, weighting=None, **kw: f(C, **kw),
        ),
        "benchmark_untruncated": (
            "benchmark",
            "membership probabilities not truncated to [-1, 1]",
            lambda f: lambda *a, **kw: _f34a_untruncated(f(*a, **kw)),
        ),
    }
)
FOCUS.update(
    {
        "bland_altman_limits_one_sd": [
            "tests/test_bland_altman.py::test_bland_altman_1986_peak_flow"
        ],
        "bland_altman_exact_is_approximate": [
            "tests/test_bland_altman.py::test_exact_intervals_are_noncentral_t_tolerance_limits"
        ],
        "overall_ccc_is_precision": [
            "tests/test_overall_ccc.py::test_coefficient_and_factors_are_exact"
        ],
        "bangdiwala_b_weighting_ignored": ["tests/test_bangdiwala.py::test_b_is_exact"],
        "bangdiwala_confint_weighting_ignored": [
            "tests/test_bangdiwala.py::test_interval_is_the_delta_method"
        ],
        "benchmark_untruncated": ["tests/test_benchmark.py::test_irrcac_documented_example"],
    }
)


def _za_top_left(Z):
    Z = np.array(Z, dtype=np.float64)
    Z[..., 0, 0], Z[..., 0, -1] = Z[..., 0, -1], Z[..., 0, 0]
    return Z


# --- issue 34 (f34b): dependent, clustered and subgroup kappas; named weights; alpha's
# analytic standard error; Light's test ------------------------------------------------------


def _f34b_independent_difference(res):
    """The two kappas' standard errors combined as if independent (no covariance)."""
    if res.standard_error is None:
        return res
    se = math.sqrt(sum(e.standard_error**2 for e in res.coefficients))
    return __import__("dataclasses").replace(res, standard_error=se, z=res.estimate / se)


def _f34b_clusters_ignored(res):
    """Every case treated as independent: the standard error without the design effect."""
    if res.standard_error is None or not res.design_effect:
        return res
    se = res.standard_error / math.sqrt(res.design_effect)
    return __import__("dataclasses").replace(res, standard_error=se, design_effect=1.0)


def _f34b_df_g(res):
    if res.statistic is None:
        return res
    from kappalib._distributions import chi2_sf

    df = res.df + 1
    return __import__("dataclasses").replace(res, df=df, pvalue=chi2_sf(res.statistic, df))


def _f34b_light_z_from_delta_se(res):
    if res.estimate is None or not res.standard_error:
        return res
    return res._replace(null_standard_error=res.standard_error, z=res.estimate / res.standard_error)


def _f34b_category_null_se(res):
    null = np.abs(res.kappa / res.z)
    return __import__("dataclasses").replace(res, standard_error=null)


MUTANTS.update(
    {
        "kappa_difference_covariance_ignored": (
            "kappa_difference",
            "the standard error of the difference as if the two kappas were independent",
            lambda f: lambda *a, **k: _f34b_independent_difference(f(*a, **k)),
        ),
        "clustered_kappa_clusters_ignored": (
            "clustered_kappa",
            "the standard error of independent cases (Fleiss, Cohen & Everitt)",
            lambda f: lambda *a, **k: _f34b_clusters_ignored(f(*a, **k)),
        ),
        "subgroup_kappas_df_g": (
            "subgroup_kappas",
            "the homogeneity chi-square on G degrees of freedom instead of G - 1",
            lambda f: lambda *a, **k: _f34b_df_g(f(*a, **k)),
        ),
        "light_kappa_test_z_from_delta_se": (
            "light_kappa_test",
            "Light's z from the delta-method standard error, not the null one",
            lambda f: lambda *a, **k: _f34b_light_z_from_delta_se(f(*a, **k)),
        ),
        "disagreement_weights_ordinal_is_linear": (
            "disagreement_weights",
            "Gwet's ordinal weights computed as linear ones",
            lambda f: (
                lambda K, weighting=None, **kw: f(
                    K, "linear" if weighting == "ordinal" else weighting, **kw
                )
            ),
        ),
        "krippendorff_alpha_weighting_ignored": (
            "krippendorff_alpha",
            "weighting= ignored (nominal alpha)",
            lambda f: lambda *a, weighting=None, scores=None, **k: f(*a, **k),
        ),
        "category_fleiss_kappas_null_se_for_interval": (
            "category_fleiss_kappas",
            "the interval's standard error under kappa = 0 (Fleiss 1971) instead of Gwet's",
            lambda f: lambda *a, **k: _f34b_category_null_se(f(*a, **k)),
        ),
        "ratings_standard_error_alpha_nominal_weights": (
            "ratings_standard_error",
            "alpha's analytic standard error with nominal weights at every level",
            lambda f: (
                lambda *a, **k: f(
                    *a,
                    **{
                        **k,
                        **(
                            {"level_of_measurement": "nominal", "weighting": None}
                            if k.get("coefficient") == "alpha"
                            and k.get("method", "analytic") == "analytic"
                            else {}
                        ),
                    },
                )
            ),
        ),
    }
)

FOCUS.update(
    {
        "kappa_difference_covariance_ignored": [
            "tests/test_dependent_kappas.py::test_delta_method_against_the_complex_step_oracle"
        ],
        "clustered_kappa_clusters_ignored": [
            "tests/test_clustered_kappa.py::test_cluster_robust_se_against_the_complex_step_oracle"
        ],
        "subgroup_kappas_df_g": [
            "tests/test_subgroup_kappas.py::test_each_subgroup_and_the_test_against_statsmodels"
        ],
        "light_kappa_test_z_from_delta_se": [
            "tests/test_dependent_kappas.py::test_light_null_se_is_statsmodels_pairs_combined"
        ],
        "disagreement_weights_ordinal_is_linear": [
            "tests/test_named_weights.py::test_the_weights_are_irrcacs_on_positions"
        ],
        "krippendorff_alpha_weighting_ignored": [
            "tests/test_named_weights.py::test_alpha_takes_a_level_or_a_weighting_not_both"
        ],
        "ratings_standard_error_alpha_nominal_weights": [
            "tests/test_alpha_variance.py::test_alpha_se_and_interval_against_irrcac"
        ],
        "category_fleiss_kappas_null_se_for_interval": [
            "tests/test_category_kappa_errors.py::test_per_category_se_and_interval_against_irrcac"
        ],
    }
)


def resolve(target):
    """The public object a mutant targets: ``name`` in kappalib, or ``module.name`` in one of
    its public topic modules (closed_forms, families)."""
    import kappalib

    return functools.reduce(getattr, target.split("."), kappalib)


def _apply(name):
    """Replace the mutated public function everywhere kappalib holds it."""
    target, _, factory = MUTANTS[name]
    original = resolve(target)
    bare = factory(original)
    if callable(bare) and not isinstance(bare, type):

        @functools.wraps(original)  # the same name and signature as the public function
        def mutant(*args, **kwargs):
            if len(args) > 1 and hasattr(original, "__wrapped__"):
                return original(*args, **kwargs)  # a matrix function's own pointer message
            return bare(*args, **kwargs)

    else:
        mutant = bare
    setattr(mutant, MARK, name)
    for modname, module in list(sys.modules.items()):
        if modname == "kappalib" or modname.startswith("kappalib."):
            for attr, value in list(vars(module).items()):
                if value is original:
                    setattr(module, attr, mutant)


def applied():
    """The mutants applied in this process (none, outside a mutant's pytest session)."""
    found = set()
    for modname, module in list(sys.modules.items()):
        if modname == "kappalib" or modname.startswith("kappalib."):
            found.update(getattr(v, MARK, None) for v in list(vars(module).values()))
    return sorted(found - {None})


def pytest_configure(config):
    name = os.environ.get(ENV)
    if name:
        import kappalib.widgets  # noqa: F401  (load the submodules so that they get patched)

        _apply(name)


def _record(report):
    """Append the id of a failed test (or collector) to the file RESULT names, if any."""
    path = os.environ.get(RESULT)
    if path and report.failed:
        with open(path, "a", encoding="utf-8") as out:
            out.write(report.nodeid + "\n")


def pytest_runtest_logreport(report):
    _record(report)


def pytest_collectreport(report):
    _record(report)


# --- the runner ---------------------------------------------------------------------------
#
# Each check is one pytest session: ``-p mutants -x`` on a selection, with KAPPALIB_MUTANT
# naming the mutant (or unset for the baseline).  Where the platform has os.fork, a session
# is a forked child of this process, which imported the heavy modules below once (never a
# mutant: the mutant is applied by pytest_configure in the child only, and the child's
# memory is its own copy).  Elsewhere it is a fresh ``python -m pytest`` subprocess.  Either
# way the session's failed test ids go to a file (the hooks above) and its output to a log.

PYTEST_ARGS = ["-p", "mutants", "-p", "no:xdist", "-x", "-q", "-rf", "--no-header"]
PYTEST_ARGS += ["-o", "addopts=-p no:cacheprovider"]
# what the test files and their oracles import; loaded once in the parent of the forks
PRELOAD = [
    "numpy",
    "scipy",
    "scipy.stats",
    "pandas",
    "sklearn.metrics",
    "statsmodels.stats.inter_rater",
    "statsmodels.stats.contingency_tables",
    "krippendorff",
    "hypothesis",
    "hypothesis.extra.numpy",
    "pytest",
    "kappalib",
    "kappalib.widgets",
]
ORACLES = ["irrCAC.raw", "pingouin"]  # from .venv/oracles (the test files add it to sys.path)
# seconds one pytest session may take before it is killed (a hung mutant is not killed), and
# the mutants that have a timeout of their own (name -> seconds)
TIMEOUT = float(os.environ.get("KAPPALIB_MUTANT_TIMEOUT", "300"))
TIMEOUTS: dict[str, float] = {}
# the clock the timeouts are read on (tests/test_mutants_runner.py gives the runner one that
# moves on only once its planted mutant blocks, so that no test depends on the wall clock)
CLOCK = time.monotonic
RESULT = "KAPPALIB_MUTANT_RESULT"  # the file the failed test ids go to


def _preload():
    import importlib
    import importlib.metadata

    for module in PRELOAD:
        try:
            importlib.import_module(module)
        except ImportError:
            pass
    for entry in importlib.metadata.entry_points(group="pytest11"):  # pytest's plugins
        try:
            importlib.import_module(entry.module)
        except Exception:  # a broken plugin fails in the session, as it would anyway
            pass
    oracles = os.path.join(os.getcwd(), ".venv", "oracles")
    sys.path.insert(0, oracles)
    try:
        for module in ORACLES:
            try:
                importlib.import_module(module)
            except Exception:
                pass
    finally:
        sys.path.remove(oracles)


def _env(mutant, result):
    env = dict(os.environ)
    env.pop(ENV, None)
    if mutant:
        env[ENV] = mutant
    env[RESULT] = result
    env["PYTHONPATH"] = os.pathsep.join(filter(None, ["tests", env.get("PYTHONPATH")]))
    return env


class _Session:
    """One pytest session on a selection, with or without a mutant, run in the background."""

    def __init__(self, job, selection, mutant, workdir, number):
        self.job, self.selection, self.mutant = job, selection, mutant
        self.log = os.path.join(workdir, f"{number}.log")
        self.result = os.path.join(workdir, f"{number}.failed")
        self.t0, self.started = time.perf_counter(), CLOCK()
        self.timeout = TIMEOUTS.get(mutant, TIMEOUT)
        self.code = self.timed_out = None
        if hasattr(os, "fork"):
            self._fork()
        else:
            with open(self.log, "wb") as log:
                self.process = subprocess.Popen(
                    [sys.executable, "-m", "pytest", *PYTEST_ARGS, *selection],
                    env=_env(mutant, self.result),
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    stdin=subprocess.DEVNULL,
                )
            self.pid = None

    def _fork(self):
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid:
            self.pid, self.process = pid, None
            return
        code = 70
        try:  # the child: never returns into the parent's code
            os.setpgid(0, 0)  # its own process group, so that a timeout kills all of it
            log = os.open(self.log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            os.dup2(log, 1)
            os.dup2(log, 2)
            null = os.open(os.devnull, os.O_RDONLY)
            os.dup2(null, 0)
            os.environ.clear()
            os.environ.update(_env(self.mutant, self.result))
            import pytest

            # the plugins this process imported before pytest ran are not assert-rewritten
            quiet = ["-W", "ignore::pytest.PytestAssertRewriteWarning"]
            code = int(pytest.main([*PYTEST_ARGS, *quiet, *self.selection]))
        except BaseException:
            import traceback

            traceback.print_exc()
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)

    def poll(self):
        """True once the session has ended (or been killed at the timeout)."""
        if self.code is not None:
            return True
        if self.process is not None:
            code = self.process.poll()
        else:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            code = None if pid == 0 else os.waitstatus_to_exitcode(status)
        if code is None and CLOCK() - self.started > self.timeout:
            self.kill()
            self.timed_out = True
            code = -9
        if code is None:
            return False
        self.code, self.seconds = code, time.perf_counter() - self.t0
        return True

    def kill(self):
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            return
        try:
            os.killpg(self.pid, signal.SIGKILL)
        except OSError:
            os.kill(self.pid, signal.SIGKILL)
        os.waitpid(self.pid, 0)

    @property
    def failed(self):
        """The failed test ids, in order (the first is the killer)."""
        try:
            with open(self.result, encoding="utf-8") as f:
                return [line for line in f.read().splitlines() if line]
        except FileNotFoundError:
            return []

    @property
    def output(self):
        with open(self.log, encoding="utf-8", errors="replace") as f:
            return f.read()


def _fallback(name):
    """Where a mutant that survived its focus is looked for: the files of its focus (whole,
    first), then FALLBACK's selection."""
    files = [s.split("::")[0] for s in FOCUS.get(name, DEFAULT_FOCUS)]
    return list(dict.fromkeys(files)) + FALLBACK


def _baseline_jobs(names):
    """The focus selections of the mutants, once each (a test id inside a file that is
    itself selected is left out), one session each."""
    items = list(dict.fromkeys(s for n in names for s in FOCUS.get(n, DEFAULT_FOCUS)))
    whole = {s for s in items if "::" not in s}
    return [s for s in items if "::" not in s or s.split("::")[0] not in whole]


def _schedule(names, workdir):
    """Run the baseline and the mutants, WORKERS sessions at a time.

    Returns (baseline failure or None, baseline seconds, {name: (killer, seconds, note)})."""
    queue = [("baseline", [s], None) for s in _baseline_jobs(names)]
    queue += [("focus", FOCUS.get(n, DEFAULT_FOCUS), n) for n in names]
    baseline_left = sum(job == "baseline" for job, _, _ in queue)
    running, results, spent, number = [], {}, {}, 0
    t0, baseline_seconds = time.perf_counter(), None
    try:
        while queue or running:
            while queue and len(running) < WORKERS:
                job, selection, mutant = queue.pop(0)
                number += 1
                running.append(_Session(job, selection, mutant, workdir, number))
            done = [s for s in running if s.poll()]
            if not done:
                time.sleep(0.01)
                continue
            for s in done:
                running.remove(s)
                failed = s.failed
                if s.job == "baseline":
                    if s.code != 0:
                        why = f"timed out after {s.timeout:g} s" if s.timed_out else "failed"
                        return (s.selection, why, s.output), None, results
                    baseline_left -= 1
                    if not baseline_left:
                        baseline_seconds = time.perf_counter() - t0
                    continue
                seconds = spent.get(s.mutant, 0.0) + s.seconds
                if s.timed_out:
                    note = f"(timed out: its pytest session killed after {s.timeout:g} s)"
                    results[s.mutant] = (None, seconds, note)
                elif s.code != 0 and failed:
                    note = "(focus missed)" if s.job == "fallback" else ""
                    results[s.mutant] = (failed[0], seconds, note)
                elif s.job == "focus":  # not in its focus: the whole files, then FALLBACK
                    spent[s.mutant] = seconds
                    queue.insert(0, ("fallback", _fallback(s.mutant), s.mutant))
                else:
                    results[s.mutant] = (None, seconds, "(by neither its focus nor FALLBACK)")
    finally:
        for s in running:
            s.kill()
    return None, baseline_seconds, results


def uncovered():
    """Public callables of kappalib.__all__ without a mutant (each must have one or more).

    Left out: the deprecated aliases of renamed functions (``__deprecated__`` names the new
    one, whose mutants they call)."""
    import kappalib

    covered = {target for target, _, _ in MUTANTS.values()}
    public = set()
    for n in kappalib.__all__:
        obj = getattr(kappalib, n)
        if not callable(obj) or getattr(obj, "__deprecated__", None):
            continue
        if isinstance(obj, type) and not issubclass(obj, Exception):
            continue
        public.add(n)
    return sorted(public - covered)


def main(argv):
    missing = uncovered()
    if missing:
        print(f"public functions without a mutant (add one to MUTANTS): {', '.join(missing)}")
        return 1
    names = argv or list(MUTANTS)
    unknown = [n for n in names if n not in MUTANTS]
    if unknown:
        print(f"unknown mutants: {unknown}; known: {sorted(MUTANTS)}")
        return 2
    t0 = time.perf_counter()
    if hasattr(os, "fork"):
        _preload()  # the forks start from this process: it must hold no mutant
        if applied():
            print(f"mutants applied in the runner itself: {applied()}")
            return 1
    import tempfile

    with tempfile.TemporaryDirectory(prefix="mutants-") as workdir:
        broken, seconds, results = _schedule(names, workdir)
    if broken:
        selection, why, out = broken
        print(out[-3000:])
        print(f"the unit tests {why} without any mutant ({' '.join(selection)}): fix them first")
        return 1
    n_base = len(_baseline_jobs(names))
    print(f"baseline, no mutant: {n_base} focus selections pass ({seconds:.0f} s)\n")
    width = max(map(len, names))
    print(f"{'mutant':<{width}}  {'function':<22} killed by")
    survivors = []
    for name in names:
        killer, seconds, note = results[name]
        target = MUTANTS[name][0]
        if killer is None:
            survivors.append(name)
        shown = " ".join(filter(None, [killer or "SURVIVED", note]))
        print(f"{name:<{width}}  {target:<22} {shown}  ({seconds:.0f} s)")
    functions = {MUTANTS[n][0] for n in names}
    print(
        f"\n{len(names) - len(survivors)} of {len(names)} mutants killed, covering "
        f"{len(functions)} public names, in {time.perf_counter() - t0:.0f} s"
    )
    if survivors:
        print("SURVIVORS (each marks a missing oracle): " + ", ".join(survivors))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
