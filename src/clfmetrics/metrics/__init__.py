"""Metrics of a confusion matrix (class-wise, averages, agreement, prevalence scaling), of raters.

Each metric is written once, as a function of the matrix's class sums (bias = row sums,
prevalence = column sums, correct = the diagonal, and the total); the function of a
matrix computes the sums and calls it, and the resampling of many classes calls it on
each resample's sums.
"""

from ._agreement import gwet_ac1, kappa, mcc, pabak, scott_pi, weighted_kappa
from ._averages import (
    accuracy,
    delta_f1,
    f1_of_averages,
    geometric_macro_recall,
    harmonic_macro_recall,
    macro_f1,
    macro_precision,
    macro_recall,
    micro_f1,
    micro_precision,
    micro_recall,
    power_mean,
    power_mean_recall,
    weighted_f1,
)
from ._classwise import bias, correct, f1, precision, prevalence, recall
from ._confusion import (
    ConfusionTable,
    confusion_matrix,
    confusion_table,
    from_sklearn,
    to_labels,
    to_sklearn,
)
from ._prevalence import (
    calibrated_bias,
    calibrated_kappa_closed_form,
    calibrated_macro_precision,
    calibrated_mcc_closed_form,
    calibrated_precision,
    prevalence_calibrate,
    prevalence_scale,
)
from ._raters import fleiss_kappa, krippendorff_alpha
from ._registry import CLASSWISE, METRICS

# isort: split
# The interface to the concerns above, not public API (not in __all__): every metric as a
# function of the class sums, the look-up by name, the agreement weights, the raters' per-item
# parts that the bootstrap of items weights.
from ._agreement import agreement_weights as agreement_weights
from ._classwise import ClassSums as ClassSums
from ._raters import LEVELS as LEVELS
from ._raters import alpha_of as alpha_of
from ._raters import check_measurement as check_measurement
from ._raters import check_ratings as check_ratings
from ._raters import check_table as check_table
from ._raters import coincidences_per_item as coincidences_per_item
from ._raters import fleiss_of as fleiss_of
from ._raters import fleiss_parts as fleiss_parts
from ._registry import CLASS_SUM_FORMS as CLASS_SUM_FORMS
from ._registry import registry as registry
from ._registry import resolve_metric as resolve_metric

__all__ = [
    "CLASSWISE",
    "METRICS",
    "ConfusionTable",
    "accuracy",
    "bias",
    "calibrated_bias",
    "calibrated_kappa_closed_form",
    "calibrated_macro_precision",
    "calibrated_mcc_closed_form",
    "calibrated_precision",
    "confusion_matrix",
    "confusion_table",
    "correct",
    "delta_f1",
    "f1",
    "f1_of_averages",
    "fleiss_kappa",
    "from_sklearn",
    "geometric_macro_recall",
    "gwet_ac1",
    "harmonic_macro_recall",
    "kappa",
    "krippendorff_alpha",
    "macro_f1",
    "macro_precision",
    "macro_recall",
    "mcc",
    "micro_f1",
    "micro_precision",
    "micro_recall",
    "pabak",
    "power_mean",
    "power_mean_recall",
    "precision",
    "prevalence",
    "prevalence_calibrate",
    "prevalence_scale",
    "recall",
    "scott_pi",
    "to_labels",
    "to_sklearn",
    "weighted_f1",
    "weighted_kappa",
]
