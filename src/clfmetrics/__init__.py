"""clfmetrics: classification metrics from bias and prevalence.

Convention everywhere: ``m[i, j]`` is the mass predicted as class ``i`` whose
true class is ``j`` (rows = predictions, columns = reference), as in Opitz &
Burst (2019) and Opitz (2024). scikit-learn's ``confusion_matrix`` is the
transpose; use :func:`~clfmetrics.confusion.from_sklearn` to convert it.

Every metric takes one matrix ``(n, n)`` or a stack ``(..., n, n)`` and is
vectorised over the stack.

The package has layers, and imports point down only::

    widgets/      explorers (ipywidgets)                     layer 4
    plots/        figures (matplotlib)                       layer 3
    properties/ theory/ sources/ tooling/ examples/          layer 2: the book's apparatus
    clfmetrics    the library: the modules in this folder    layer 1: numpy only
    coursework/   stands apart (reads chapters, grades notebooks)

``import clfmetrics`` loads layer 1 only, and needs nothing but numpy;
``src/clfmetrics/README.md`` says what each part holds.
"""

from ._labels import LabelWarning
from ._registry import CLASSWISE, METRICS
from .agreement import kappa, mcc
from .averages import (
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
    weighted_f1,
)
from .bands import Band, pr_band, roc_band
from .classwise import bias, correct, f1, precision, prevalence, recall
from .classwise_calibration import classwise_calibration_error, classwise_reliability
from .comparison import compare, compare_from_counts
from .confusion import confusion_matrix, from_sklearn, to_labels, to_sklearn
from .consistency import CalibrationTest, ReliabilityBand, calibration_test, reliability_band
from .corp import CORPBand, CORPResult, corp_band, corp_reliability
from .curves import (
    average_precision,
    best_threshold,
    cost_threshold,
    expected_cost,
    precision_recall_curve,
    roc_auc,
    roc_curve,
    threshold_stack,
)
from .decisions import argmax_predictions, prior_shift
from .engines import dask_counts, duckdb_counts, spark_counts
from .grouped import confusion_by_group, group_interval
from .operating import rates_at_threshold, tuned_threshold_interval
from .reliability import brier_score, expected_calibration_error, log_loss, reliability_curve
from .reporting import report, report_from_counts
from .resplits import ResampledTTest, corrected_resampled_ttest
from .scaling import prevalence_calibrate, prevalence_scale
from .uncertainty import (
    AUCComparison,
    Interval,
    ap_interval,
    auc_interval,
    compare_auc,
    holm,
    interval,
    interval_from_labels,
    mcnemar,
    mcnemar_sample_size,
    paired_interval,
    permutation_test,
)

__version__ = "0.1.0"

__all__ = [
    "CLASSWISE",
    "METRICS",
    "AUCComparison",
    "Band",
    "CORPBand",
    "CORPResult",
    "CalibrationTest",
    "Interval",
    "LabelWarning",
    "ReliabilityBand",
    "ResampledTTest",
    "accuracy",
    "ap_interval",
    "argmax_predictions",
    "auc_interval",
    "average_precision",
    "best_threshold",
    "bias",
    "brier_score",
    "calibration_test",
    "classwise_calibration_error",
    "classwise_reliability",
    "compare",
    "compare_auc",
    "compare_from_counts",
    "confusion_by_group",
    "confusion_matrix",
    "corp_band",
    "corp_reliability",
    "correct",
    "corrected_resampled_ttest",
    "cost_threshold",
    "dask_counts",
    "delta_f1",
    "duckdb_counts",
    "expected_calibration_error",
    "expected_cost",
    "f1",
    "f1_of_averages",
    "from_sklearn",
    "geometric_macro_recall",
    "group_interval",
    "harmonic_macro_recall",
    "holm",
    "interval",
    "interval_from_labels",
    "kappa",
    "log_loss",
    "macro_f1",
    "macro_precision",
    "macro_recall",
    "mcc",
    "mcnemar",
    "mcnemar_sample_size",
    "micro_f1",
    "micro_precision",
    "micro_recall",
    "paired_interval",
    "permutation_test",
    "pr_band",
    "precision",
    "precision_recall_curve",
    "prevalence",
    "prevalence_calibrate",
    "prevalence_scale",
    "prior_shift",
    "rates_at_threshold",
    "recall",
    "reliability_band",
    "reliability_curve",
    "report",
    "report_from_counts",
    "roc_auc",
    "roc_band",
    "roc_curve",
    "spark_counts",
    "threshold_stack",
    "to_labels",
    "to_sklearn",
    "tuned_threshold_interval",
    "weighted_f1",
]
