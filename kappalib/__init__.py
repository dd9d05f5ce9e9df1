"""kappalib: chance-corrected agreement, computed once and tested against independent oracles.

Every formula of the course *Kappa, honestly* lives here.  Matrix-level functions take a
confusion matrix ``C`` of shape ``(K, K)``, or a stack ``(..., K, K)``, with rows = the
reference (rater 1) and columns = the prediction (rater 2).  Label-level functions keep
scikit-learn's names.  Undefined values (0/0) give ``None`` for one matrix and NaN inside a
stack, unless ``zero_division`` says otherwise.

Where each stage lives (``ARCHITECTURE.md`` draws them): every public function reads check
-> encode -> count -> compute.

* check: ``_validation`` (matrices, zero_division, confidence_level, the label-order rule,
  the decorator), ``_ratings`` (raw ratings: layout, missing values, subject ids, count
  tables, categories), ``_weights`` (disagreement weights)
* encode and count: ``_encoding`` (label vectors -> confusion matrix), ``_counting`` (ratings
  -> units x values counts and coincidences)
* shared arithmetic: ``_arithmetic`` (margins, ratio, scale-free counts, agreement weights,
  to_float)
* compute: ``_agreement`` (p_o, p_e, kappa, kappa_max, prevalence and bias indices),
  ``_two_rater`` (PABAK, Scott's pi, Gwet's AC1/AC2, Brennan-Prediger), ``_correlation``
  (MCC), ``_diagnostics`` (asymmetry, off-diagonal entropy), ``_multirater`` (rating_table,
  Fleiss, Krippendorff, multi-rater AC1 and BP), ``_inference`` (standard error and
  interval, sample size), ``_bootstrap`` (bootstrap intervals, the paired difference),
  ``_designs`` (Conger, Light, the generalized Fleiss kappa), ``_categories`` (specific
  agreement, per-category kappas, validity), ``_bias`` (McNemar, Stuart-Maxwell),
  ``_continuous`` (intraclass correlations, Lin's CCC), ``_distributions`` (chi-square, F and
  t, without scipy), ``_rating_inference`` with ``_rating_variance`` (standard errors and
  intervals for many raters)
* front ends with scikit-learn's names: ``_labels``
* reports: ``_report`` (agreement_report), ``_ratings_report`` (ratings_report): every
  number from the functions above, and a methods paragraph (``_report_text`` prints them);
  ``_long_counts`` (matrix_from_counts for long count tables); the command line
  ``python -m kappalib report`` in ``__main__``

Public topic modules, met by name in the chapters: ``kappalib.families`` (the paper's
matrix families), ``kappalib.closed_forms`` (the paper's closed-form kappa and MCC of those
families, with their minimisers), ``kappalib.plotting`` (heatmaps) and ``kappalib.widgets``
(explorers; imports ipywidgets).
``kappalib.datasets`` reads the published rating data shipped with the package (Fleiss 1971,
Krippendorff 2011, Gwet 2014): ``datasets.names()`` and ``datasets.load(name)``.
"""

from . import closed_forms, datasets, families  # noqa: F401  (numpy only; plotting, widgets lazy)
from ._agreement import (
    bias_index,
    expected_agreement,
    expected_counts,
    kappa,
    kappa_max,
    observed_agreement,
    prevalence_index,
)
from ._bangdiwala import bangdiwala_b, bangdiwala_confint  # issue 34: the agreement chart
from ._benchmark import benchmark  # issue 34: Gwet's benchmarking
from ._bias import mcnemar_test, stuart_maxwell_test
from ._bland_altman import bland_altman  # issue 34: limits of agreement
from ._bootstrap import bootstrap_confint, paired_difference_confint
from ._categories import category_fleiss_kappas, class_validity, specific_agreement
from ._continuous import icc, lins_ccc  # issue 23: continuous ratings
from ._correlation import mcc
from ._designs import conger_kappa, fleiss_kappa_generalized, light_kappa
from ._diagnostics import asymmetry, off_diagonal_entropy
from ._errors import UndefinedMetricError
from ._inference import kappa_confint, kappa_sample_size, kappa_standard_error
from ._labels import (
    cohen_kappa_confint,
    cohen_kappa_score,
    confusion_matrix,
    labels_from_matrix,
    matthews_corrcoef,
)

# the report in one call, and long count tables (issue 23, sections 3-4)
from ._long_counts import matrix_from_counts
from ._multirater import (
    brennan_prediger_multi,
    fleiss_kappa,
    gwet_ac1_multi,
    krippendorff_alpha,
    rating_table,
)
from ._overall_ccc import overall_ccc  # issue 34: several methods
from ._rating_inference import ratings_confint, ratings_standard_error
from ._ratings_report import ratings_report
from ._report import agreement_report
from ._two_rater import brennan_prediger, gwet_ac1, pabak, scotts_pi
from ._weights import disagreement_weights
from .results import (
    AgreementReport,
    AlphaBeta,
    BenchmarkResult,
    BiasTest,
    BlandAltmanResult,
    CategoryKappas,
    CCCResult,
    ClassValidity,
    ConfidenceInterval,
    ConfusionMatrix,
    Estimate,
    Gap,
    ICCForm,
    ICCResult,
    IntervalEstimate,
    LabelPair,
    OverallCCCResult,
    ProportionalBias,
    RatingsReport,
    RatingTable,
    SpecificAgreement,
)

__version__ = "0.1.0"

__all__ = [
    "AgreementReport",
    "AlphaBeta",
    "BenchmarkResult",
    "BiasTest",
    "BlandAltmanResult",
    "CCCResult",
    "CategoryKappas",
    "ClassValidity",
    "ConfidenceInterval",
    "ConfusionMatrix",
    "Estimate",
    "Gap",
    "ICCForm",
    "ICCResult",
    "IntervalEstimate",
    "LabelPair",
    "OverallCCCResult",
    "ProportionalBias",
    "RatingTable",
    "RatingsReport",
    "SpecificAgreement",
    "UndefinedMetricError",
    "agreement_report",
    "asymmetry",
    "bangdiwala_b",
    "bangdiwala_confint",
    "benchmark",
    "bias_index",
    "bland_altman",
    "bootstrap_confint",
    "brennan_prediger",
    "brennan_prediger_multi",
    "category_fleiss_kappas",
    "class_validity",
    "cohen_kappa_confint",
    "cohen_kappa_score",
    "confusion_matrix",
    "conger_kappa",
    "disagreement_weights",
    "expected_agreement",
    "expected_counts",
    "fleiss_kappa",
    "fleiss_kappa_generalized",
    "gwet_ac1",
    "gwet_ac1_multi",
    "icc",
    "kappa",
    "kappa_confint",
    "kappa_max",
    "kappa_sample_size",
    "kappa_standard_error",
    "krippendorff_alpha",
    "labels_from_matrix",
    "light_kappa",
    "lins_ccc",
    "matrix_from_counts",
    "matthews_corrcoef",
    "mcc",
    "mcnemar_test",
    "observed_agreement",
    "off_diagonal_entropy",
    "overall_ccc",
    "pabak",
    "paired_difference_confint",
    "prevalence_index",
    "rating_table",
    "ratings_confint",
    "ratings_report",
    "ratings_standard_error",
    "scotts_pi",
    "specific_agreement",
    "stuart_maxwell_test",
]
