"""Edge cases found by review: extreme masses, float rounding, unusual labels."""

from __future__ import annotations

import math

import numpy as np
import pytest

import clfmetrics as cm

M = np.array([[100.0, 10.0], [1.0, 100.0]])


@pytest.mark.parametrize("metric", [cm.kappa, cm.mcc])
@pytest.mark.parametrize("scale", [1e-310, 1e-300, 1e150, 1e300])
def test_agreement_is_scale_invariant_at_extreme_masses(metric, scale):
    """kappa and MCC of a matrix do not change when its mass is tiny or enormous."""
    assert metric(M * scale) == pytest.approx(metric(M), rel=1e-12)


@pytest.mark.parametrize(
    "m",
    [
        [[0.1, 0.2], [0.0, 0.0]],  # always predicts class 0: 1 - b.b is rounding noise
        [[0.1, 0.2, 0.7], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]],
        [[0.1, 0.0], [0.2, 0.0]],  # only class 0 in the reference
    ],
)
def test_mcc_of_degenerate_float_matrix_is_the_zero_division_value(m):
    """Float rounding must not turn an undefined MCC into a number."""
    assert cm.mcc(m) == 0.0
    assert math.isnan(cm.mcc(m, zero_division="nan"))


def test_kappa_of_degenerate_float_matrix_is_the_zero_division_value():
    m = [[0.1 + 0.2, 0.0], [0.0, 0.0]]
    assert cm.kappa(m, zero_division=1) == 1.0
    assert math.isnan(cm.kappa(m, zero_division="nan"))


def test_nearly_degenerate_count_matrix_is_still_defined():
    """One item of a second class among a billion is information, not rounding."""
    m = np.array([[1e9, 0.0], [0.0, 1.0]])
    assert cm.mcc(m) == pytest.approx(1.0)
    assert cm.kappa(m) == pytest.approx(1.0)


def test_tuple_labels_count_as_whole_labels():
    y_true = [("a", 1), ("b", 2), ("a", 1)]
    y_pred = [("a", 1), ("a", 1), ("b", 2)]
    m = cm.confusion_matrix(y_true, y_pred)
    np.testing.assert_array_equal(m, [[1, 1], [1, 0]])
    np.testing.assert_array_equal(
        cm.confusion_matrix(y_true, y_pred, labels=[("b", 2), ("a", 1)]), [[0, 1], [1, 1]]
    )


def test_an_int_and_its_string_are_different_labels():
    m = cm.confusion_matrix([1, "1", 1], ["1", "1", 1], labels=[1, "1"])
    np.testing.assert_array_equal(m, [[1, 0], [1, 1]])
    # Without labels= the mix is refused (issue 19, item 1): see test_bad_input.py.
    with pytest.raises(ValueError, match="mixed label types"):
        cm.confusion_matrix([1, "1"], [1, "1"])


def test_unhashable_labels_raise_value_error():
    labels = [{"a": 1}, {"b": 2}]
    with pytest.raises(ValueError, match="hashable"):
        cm.confusion_matrix(labels, labels)


@pytest.mark.parametrize("value", [np.int64(1), np.float64(0.0), np.int32(0)])
def test_numpy_scalars_are_accepted_as_zero_division(value):
    assert cm.precision([[1, 0], [0, 0]], zero_division=value)[1] == float(value)


@pytest.mark.parametrize("value", [np.bool_(True), 2, "zero"])
def test_bad_zero_division_raises(value):
    with pytest.raises(ValueError, match="zero_division"):
        cm.precision([[1, 0], [0, 0]], zero_division=value)


@pytest.mark.parametrize("lam", [["1", "2"], [True, False], "12"])
def test_prevalence_scale_rejects_non_numbers(lam):
    with pytest.raises(ValueError, match="lam must be numbers"):
        cm.prevalence_scale([[1, 2], [3, 4]], lam)
