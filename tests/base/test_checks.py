"""Masked arrays are refused wherever the library takes numbers (issue 19, item 2).

``np.asarray`` drops a mask and keeps the hidden values, so a masked score, probability,
scale factor or power-mean value would silently count. Issue 12 refused masked matrices
and labels; the same rule holds for every other numeric argument: a masked array with a
masked entry raises ``ValueError`` naming the argument, and one without masked entries is
an ordinary array.
"""

from __future__ import annotations

import numpy as np
import pytest

import clfmetrics as cm
from clfmetrics import power_mean, power_mean_recall, random_classifier, sample_confusion


def masked(values, hide):
    """``values`` as a masked array that hides the entries where ``hide`` is true."""
    return np.ma.array(values, mask=hide)


Y = [0, 1, 1]
SCORES = masked([0.1, 0.05, 0.9], [0, 1, 0])  # the example: roc_auc gave 0.5
PROBA = masked([[0.9, 0.1], [0.2, 0.8], [0.3, 0.7]], [[0, 0], [1, 1], [0, 0]])
M = [[5, 2], [1, 7]]

# (id, call, argument the message names)
CASES = [
    ("roc_auc", lambda: cm.roc_auc(Y, SCORES), "scores"),
    ("roc_auc_matrix", lambda: cm.roc_auc(Y, PROBA), "scores"),
    ("roc_curve", lambda: cm.roc_curve(Y, SCORES), "scores"),
    ("precision_recall_curve", lambda: cm.precision_recall_curve(Y, SCORES), "scores"),
    ("average_precision", lambda: cm.average_precision(Y, SCORES), "scores"),
    ("threshold_stack", lambda: cm.threshold_stack(Y, SCORES), "scores"),
    ("best_threshold", lambda: cm.best_threshold(cm.accuracy, Y, SCORES), "scores"),
    ("argmax_predictions", lambda: cm.argmax_predictions(PROBA), "probabilities"),
    ("prior_shift", lambda: cm.prior_shift(PROBA, [1, 1], [1, 2]), "probabilities"),
    (
        "prior_shift_old_prior",
        lambda: cm.prior_shift([[0.5, 0.5]], masked([1, 1], [0, 1]), [1, 2]),
        "old_prior",
    ),
    (
        "prior_shift_new_prior",
        lambda: cm.prior_shift([[0.5, 0.5]], [1, 1], masked([1, 2], [1, 0])),
        "new_prior",
    ),
    ("prevalence_scale", lambda: cm.prevalence_scale(M, masked([1.0, 3.0], [0, 1])), "lam"),
    ("power_mean_x", lambda: power_mean(masked([0.2, 0.9, 0.0], [0, 0, 1]), 1), "x"),
    ("power_mean_p", lambda: power_mean([0.2, 0.9], masked([1.0, 0.0], [0, 1])), "p"),
    ("power_mean_recall_p", lambda: power_mean_recall(M, masked([1.0, -1.0], [1, 0])), "p"),
    (
        "sample_confusion_prevalence",
        lambda: sample_confusion(masked([0.5, 0.5], [1, 0]), np.eye(2), 10, rng=0),
        "prevalence",
    ),
    (
        "sample_confusion_conditional",
        lambda: sample_confusion([0.5, 0.5], masked(np.eye(2), [[0, 1], [0, 0]]), 10, rng=0),
        "conditional",
    ),
    (
        "random_classifier",
        lambda: random_classifier([0.5, 0.5], masked([0.5, 0.5], [0, 1]), 10, rng=0),
        "prediction",
    ),
    (
        "expected_cost",
        lambda: cm.expected_cost(M, masked([[0, 1], [1, 0]], [[0, 1], [0, 0]])),
        "costs",
    ),
    (
        "cost_threshold",
        lambda: cm.cost_threshold(masked([[0, 5], [1, 0]], [[0, 1], [0, 0]])),
        "costs",
    ),
    (
        "best_threshold_costs",
        lambda: cm.best_threshold(masked([[0, 5], [1, 0]], [[0, 1], [0, 0]]), Y, [0.1, 0.5, 0.9]),
        "costs",
    ),
    ("brier_score", lambda: cm.brier_score(Y, SCORES), "proba"),
    ("log_loss", lambda: cm.log_loss(Y, PROBA), "proba"),
    ("reliability_curve", lambda: cm.reliability_curve(Y, SCORES), "proba"),
    ("expected_calibration_error", lambda: cm.expected_calibration_error(Y, PROBA), "proba"),
]


@pytest.mark.parametrize(("call", "name"), [pytest.param(c, n, id=i) for i, c, n in CASES])
def test_masked_numbers_are_refused(call, name):
    with pytest.raises(ValueError, match=rf"^{name} is a masked array with masked entries"):
        call()


def test_a_mask_that_hides_nothing_is_an_ordinary_array():
    """No masked entry: the same result as the plain array."""
    s = np.ma.array([0.1, 0.05, 0.9], mask=False)
    assert cm.roc_auc(Y, s) == cm.roc_auc(Y, s.data)
    lam = np.ma.array([1.0, 3.0], mask=[False, False])
    np.testing.assert_array_equal(cm.prevalence_scale(M, lam), cm.prevalence_scale(M, [1, 3]))
    assert power_mean(np.ma.array([0.2, 0.9]), 0) == power_mean([0.2, 0.9], 0)
    assert cm.brier_score(Y, s) == cm.brier_score(Y, s.data)


def test_the_message_says_what_to_do_instead():
    with pytest.raises(ValueError, match=r"drop the masked items from y_true"):
        cm.roc_auc(Y, SCORES)
    with pytest.raises(ValueError, match=r"x\.filled\(value\)"):
        cm.prevalence_scale(M, masked([1.0, 3.0], [0, 1]))
    with pytest.raises(ValueError, match=r"m\.filled\(0\)"):
        cm.accuracy(masked(M, [[0, 1], [0, 0]]))
