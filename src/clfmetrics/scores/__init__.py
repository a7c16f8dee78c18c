"""Scores and thresholds: the threshold sweep, ROC and PR curves, costs, decisions."""

from ._costs import cost_threshold, expected_cost
from ._curves import (
    average_precision,
    best_threshold,
    precision_recall_curve,
    roc_auc,
    roc_curve,
    threshold_stack,
)
from ._decisions import argmax_predictions, prior_shift

# isort: split
# The interface to the concerns above, not public API (not in __all__): the checks of scores and
# their labels.
from ._checks import as_scores as as_scores
from ._checks import as_target as as_target
from ._checks import positives as positives

__all__ = [
    "argmax_predictions",
    "average_precision",
    "best_threshold",
    "cost_threshold",
    "expected_cost",
    "precision_recall_curve",
    "prior_shift",
    "roc_auc",
    "roc_curve",
    "threshold_stack",
]
