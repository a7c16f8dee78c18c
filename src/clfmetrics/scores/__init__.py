"""Scores and thresholds: the threshold sweep, ROC and precision-recall curves, costs, decisions."""

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
