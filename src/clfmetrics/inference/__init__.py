"""Inference: intervals, bands, tests and simulations of coverage."""

from ._agreement import (
    AGREEMENT_FEW_ITEMS,
    AGREEMENT_FEW_ITEMS_COVERAGE,
    AGREEMENT_FEW_ITEMS_STUDY,
    AgreementInterval,
    agreement_coverage,
    agreement_interval,
)
from ._auc import AUCComparison, ap_interval, auc_interval, compare_auc
from ._bands import Band, pr_band, roc_band
from ._binomial import McNemarResult, clopper_pearson, holm, mcnemar, mcnemar_sample_size
from ._decision_curves import (
    DecisionCurve,
    NetBenefitDifference,
    decision_curve,
    decision_curve_from_counts,
    net_benefit_difference,
    net_benefit_difference_from_counts,
)
from ._decisions import bayes_cost_interval
from ._grouped import clustered_coverage, confusion_by_group, group_interval, sample_clustered
from ._interval import Interval
from ._jackknife import RANGES, jackknife_interval, jackknife_se
from ._operating import rates_at_threshold, tuned_threshold_interval
from ._resplits import ResampledTTest, corrected_resampled_ttest, student_t_two_sided
from ._simulate import (
    bootstrap,
    coverage,
    coverages,
    paired_bootstrap,
    random_classifier,
    sample_confusion,
)
from ._small_classes import (
    AP_COVERAGE,
    AUC_COVERAGE,
    COVERAGE_FLAG,
    SMALL_CLASS_COVERAGE,
    SMALL_CLASS_STUDY,
    auc_coverage,
    auc_method_for,
    expected_coverage,
    small_class_warning,
)
from ._uncertainty import interval, interval_from_labels, paired_interval, permutation_test

# isort: split
# The interface to the concerns above, not public API (not in __all__): the checks and seed of
# resampling, the agreement intervals' methods, item patterns, the intervals of a matrix, the
# AUC's cells, two systems' AUCs.
from ._agreement import AGREEMENT_ANALYTIC as AGREEMENT_ANALYTIC
from ._agreement import AGREEMENT_METHODS as AGREEMENT_METHODS
from ._auc import ROWS as ROWS
from ._auc import area_interval as area_interval
from ._auc import class_cells as class_cells
from ._binomial import mcnemar_of_patterns as mcnemar_of_patterns
from ._bootstrap import DEFAULT_SEED as DEFAULT_SEED
from ._bootstrap import check_level as check_level
from ._bootstrap import check_memory as check_memory
from ._bootstrap import check_size as check_size
from ._bootstrap import patterns as patterns
from ._controlled import CONTROL_ITEMS as CONTROL_ITEMS
from ._interval import CENTRED as CENTRED
from ._interval import centred_on_estimate as centred_on_estimate
from ._macro_auc import macro_auc_interval as macro_auc_interval
from ._paired_auc import paired_aucs as paired_aucs
from ._uncertainty import intervals_of_matrix as intervals_of_matrix
from ._uncertainty import paired_intervals as paired_intervals
from ._uncertainty import permutation_pvalues as permutation_pvalues
from ._uncertainty import system_matrices as system_matrices

__all__ = [
    "AGREEMENT_FEW_ITEMS",
    "AGREEMENT_FEW_ITEMS_COVERAGE",
    "AGREEMENT_FEW_ITEMS_STUDY",
    "AP_COVERAGE",
    "AUC_COVERAGE",
    "COVERAGE_FLAG",
    "RANGES",
    "SMALL_CLASS_COVERAGE",
    "SMALL_CLASS_STUDY",
    "AUCComparison",
    "AgreementInterval",
    "Band",
    "DecisionCurve",
    "Interval",
    "McNemarResult",
    "NetBenefitDifference",
    "ResampledTTest",
    "agreement_coverage",
    "agreement_interval",
    "ap_interval",
    "auc_coverage",
    "auc_interval",
    "auc_method_for",
    "bayes_cost_interval",
    "bootstrap",
    "clopper_pearson",
    "clustered_coverage",
    "compare_auc",
    "confusion_by_group",
    "corrected_resampled_ttest",
    "coverage",
    "coverages",
    "decision_curve",
    "decision_curve_from_counts",
    "expected_coverage",
    "group_interval",
    "holm",
    "interval",
    "interval_from_labels",
    "jackknife_interval",
    "jackknife_se",
    "mcnemar",
    "mcnemar_sample_size",
    "net_benefit_difference",
    "net_benefit_difference_from_counts",
    "paired_bootstrap",
    "paired_interval",
    "permutation_test",
    "pr_band",
    "random_classifier",
    "rates_at_threshold",
    "roc_band",
    "sample_clustered",
    "sample_confusion",
    "small_class_warning",
    "student_t_two_sided",
    "tuned_threshold_interval",
]
