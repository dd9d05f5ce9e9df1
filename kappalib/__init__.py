"""kappalib: chance-corrected agreement, computed once and tested against independent oracles.

Every formula of the course *Kappa, honestly* lives here.  Matrix-level functions take a
confusion matrix ``C`` of shape ``(K, K)``, or a stack ``(..., K, K)``, with rows = the
reference (rater 1) and columns = the prediction (rater 2).  Label-level functions keep
scikit-learn's names.  Undefined values (0/0) give ``None`` for one matrix and NaN inside a
stack, unless ``zero_division`` says otherwise.  What the functions return is in
``kappalib.results``.

This module is the public front: it re-exports the names of ``__all__`` from private
packages, one per stage (read and check the input, count, coefficients, uncertainty,
report).  ``ARCHITECTURE.md`` maps them.
"""

from . import closed_forms, datasets, families  # noqa: F401  (numpy only; plotting, widgets lazy)
from ._coefficients.bangdiwala import bangdiwala_b
from ._coefficients.chance_models import brennan_prediger, gwet_ac1, pabak, scotts_pi
from ._coefficients.continuous import icc, lins_ccc, overall_ccc
from ._coefficients.count_tables import (
    brennan_prediger_multi,
    fleiss_kappa,
    fleiss_kappa_generalized,
    gwet_ac1_multi,
)
from ._coefficients.diagnostics import asymmetry, off_diagonal_entropy
from ._coefficients.fixed_raters import conger_kappa, light_kappa
from ._coefficients.from_labels import cohen_kappa_score, matthews_corrcoef
from ._coefficients.kappa import (
    bias_index,
    expected_agreement,
    expected_counts,
    kappa,
    kappa_max,
    observed_agreement,
    prevalence_index,
)
from ._coefficients.krippendorff import krippendorff_alpha
from ._coefficients.limits_of_agreement import bland_altman
from ._coefficients.mcc import mcc
from ._coefficients.per_category import class_validity, specific_agreement
from ._count.confusion import confusion_matrix, labels_from_matrix
from ._count.long_counts import matrix_from_counts
from ._count.ratings import rating_table
from ._input.weights import disagreement_weights
from ._report.ratings import ratings_report
from ._report.two_raters import agreement_report
from ._shared.errors import UndefinedMetricError
from ._uncertainty.bangdiwala_interval import bangdiwala_confint
from ._uncertainty.benchmark import benchmark
from ._uncertainty.bias_tests import mcnemar_test, stuart_maxwell_test
from ._uncertainty.bootstrap_intervals import bootstrap_confint, paired_difference_confint
from ._uncertainty.category_kappas import category_fleiss_kappas
from ._uncertainty.clustered_kappa import clustered_kappa
from ._uncertainty.dependent_kappas import kappa_difference, light_kappa_test
from ._uncertainty.kappa_inference import (
    cohen_kappa_confint,
    kappa_confint,
    kappa_sample_size,
    kappa_standard_error,
)
from ._uncertainty.ratings_intervals import ratings_confint, ratings_standard_error
from ._uncertainty.subgroup_kappas import subgroup_kappas
from .results import (
    AgreementReport,
    AlphaBeta,
    BenchmarkResult,
    BiasTest,
    BlandAltmanResult,
    CategoryKappas,
    CCCResult,
    ClassValidity,
    ClusteredKappa,
    ConfidenceInterval,
    ConfusionMatrix,
    Estimate,
    Gap,
    ICCForm,
    ICCResult,
    IntervalEstimate,
    KappaDifference,
    LabelPair,
    OverallCCCResult,
    ProportionalBias,
    RatingsReport,
    RatingTable,
    SpecificAgreement,
    SubgroupKappas,
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
    "ClusteredKappa",
    "ConfidenceInterval",
    "ConfusionMatrix",
    "Estimate",
    "Gap",
    "ICCForm",
    "ICCResult",
    "IntervalEstimate",
    "KappaDifference",
    "LabelPair",
    "OverallCCCResult",
    "ProportionalBias",
    "RatingTable",
    "RatingsReport",
    "SpecificAgreement",
    "SubgroupKappas",
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
    "clustered_kappa",
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
    "kappa_difference",
    "kappa_max",
    "kappa_sample_size",
    "kappa_standard_error",
    "krippendorff_alpha",
    "labels_from_matrix",
    "light_kappa",
    "light_kappa_test",
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
    "subgroup_kappas",
]
