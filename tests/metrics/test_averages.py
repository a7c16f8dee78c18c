"""clfmetrics.metrics._averages: the averages over classes, and what they do with a 0/0."""

from __future__ import annotations

import math

import pytest

import clfmetrics as cm

# classifier and reference put everything on class 0: chance agreement = 1
ALL_ON_ONE_CLASS = [[5, 0], [0, 0]]


# a constant classifier: always predicts class 0 (row 1 is empty)
CONSTANT_CLASSIFIER = [[3, 4], [0, 0]]


# class 2 is never predicted (row 2 empty) but occurs
NEVER_PREDICTED = [[4, 1, 2], [1, 3, 1], [0, 0, 0]]


# class 1 is predicted but never occurs (recall undefined), class 2 occurs but is
# never predicted (precision undefined)
BOTH_UNDEFINED = [[5, 0, 1], [2, 0, 0], [0, 0, 0]]


NAN_PROPAGATING = [
    "macro_precision",
    "macro_recall",
    "macro_f1",
    "f1_of_averages",
    "delta_f1",
    "weighted_f1",
    "geometric_macro_recall",
    "harmonic_macro_recall",
]


@pytest.mark.parametrize("name", NAN_PROPAGATING)
def test_macro_averages_propagate_nan(name):
    """An undefined class-wise ratio makes the average NaN under 'nan' (it is not skipped)."""
    func = cm.METRICS[name]
    assert math.isnan(func(BOTH_UNDEFINED, zero_division="nan"))
    assert math.isfinite(func(BOTH_UNDEFINED))
    assert math.isfinite(func(BOTH_UNDEFINED, zero_division=1))


def test_macro_precision_nan_from_never_predicted_class():
    """macro_precision is NaN under 'nan' as soon as one class is never predicted."""
    assert math.isnan(cm.macro_precision(NEVER_PREDICTED, zero_division="nan"))
    assert cm.macro_precision(NEVER_PREDICTED) == pytest.approx((4 / 7 + 3 / 5 + 0) / 3)
    assert cm.macro_precision(NEVER_PREDICTED, zero_division=1) == pytest.approx(
        (4 / 7 + 3 / 5 + 1) / 3
    )


@pytest.mark.parametrize("name", ["accuracy", "micro_precision", "micro_recall", "micro_f1"])
def test_accuracy_and_micro_averages_are_always_defined(name):
    """Total mass > 0, so accuracy and the micro averages never need zero_division."""
    for m in (BOTH_UNDEFINED, NEVER_PREDICTED, ALL_ON_ONE_CLASS, CONSTANT_CLASSIFIER):
        assert math.isfinite(cm.METRICS[name](m))


def test_weighted_f1_drops_a_predicted_class_that_never_occurs():
    """Class 2 is predicted but never occurs: weight 0, so 'nan' changes nothing (0 x NaN)."""
    m = [[3, 1, 0], [1, 4, 0], [2, 0, 0]]
    assert math.isnan(cm.f1(m, zero_division="nan")[2])
    # by hand: bias (4, 5, 2), prevalence (6, 5, 0), correct (3, 4, 0); F1_k = 2c / (b + p)
    expected = (6 * (6 / 10) + 5 * (8 / 10)) / 11
    assert cm.weighted_f1(m, zero_division="nan") == pytest.approx(expected, rel=1e-15)
    assert cm.weighted_f1(m, zero_division="nan") == cm.weighted_f1(m)
