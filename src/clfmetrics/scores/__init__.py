"""Scores and thresholds: the threshold sweep, ROC and PR curves, costs, decisions, net benefit."""

from ._cost_curves import CostCurve, cost_curve
from ._costs import cost_threshold, expected_cost
from ._curves import (
    average_precision,
    best_threshold,
    precision_recall_curve,
    roc_auc,
    roc_curve,
    threshold_stack,
)
from ._decisions import argmax_predictions, bayes_decisions, prior_shift
from ._net_benefit import net_benefit

# isort: split
# The interface to the concerns above, not public API (not in __all__): the checks of scores and
# their labels; the net benefit's checks and its counts between thresholds.
from ._checks import as_scores as as_scores
from ._checks import as_target as as_target
from ._checks import positives as positives
from ._net_benefit import bin_index as bin_index
from ._net_benefit import bins_from_counts as bins_from_counts
from ._net_benefit import check_counts as check_counts
from ._net_benefit import check_harm as check_harm
from ._net_benefit import check_prevalence as check_prevalence
from ._net_benefit import check_risks as check_risks
from ._net_benefit import check_thresholds as check_thresholds
from ._net_benefit import checked_scores as checked_scores
from ._net_benefit import exchange_rate as exchange_rate
from ._net_benefit import net_benefit_from_bins as net_benefit_from_bins
from ._net_benefit import net_benefit_of as net_benefit_of
from ._net_benefit import threshold_bins as threshold_bins
from ._net_benefit import treated as treated

__all__ = [
    "CostCurve",
    "argmax_predictions",
    "average_precision",
    "bayes_decisions",
    "best_threshold",
    "cost_curve",
    "cost_threshold",
    "expected_cost",
    "net_benefit",
    "precision_recall_curve",
    "prior_shift",
    "roc_auc",
    "roc_curve",
    "threshold_stack",
]
