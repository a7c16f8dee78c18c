"""clfmetrics.metrics._classwise: the per-class counts and ratios (precision, recall, F1...)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import clfmetrics as cm


@pytest.mark.parametrize("value", [np.int64(1), np.float64(0.0), np.int32(0)])
def test_numpy_scalars_are_accepted_as_zero_division(value):
    assert cm.precision([[1, 0], [0, 0]], zero_division=value)[1] == float(value)


@pytest.mark.parametrize("value", [np.bool_(True), 2, "zero"])
def test_bad_zero_division_raises(value):
    with pytest.raises(ValueError, match="zero_division"):
        cm.precision([[1, 0], [0, 0]], zero_division=value)


CLASSWISE = cm.CLASSWISE


# class 1 is predicted twice but never occurs: TP = 0, FP = 2, FN = 0 (F-measure paradox)
PREDICTED_NEVER_OCCURS = [[5, 0], [2, 0]]


# class 2 is never predicted (row 2 empty) but occurs
NEVER_PREDICTED = [[4, 1, 2], [1, 3, 1], [0, 0, 0]]


STACK_4x3x3 = np.array(
    [
        [[5, 1, 0], [2, 7, 1], [0, 3, 9]],
        [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
        [[0, 4, 2], [3, 0, 5], [1, 1, 0]],
        [[6, 6, 6], [0, 0, 0], [0, 0, 0]],  # constant classifier
    ]
)


def test_precision_of_never_predicted_class():
    """A class never predicted has precision 0 by default, NaN under 'nan', 1 under 1."""
    p0 = cm.precision(NEVER_PREDICTED)
    np.testing.assert_allclose(p0, [4 / 7, 3 / 5, 0.0], rtol=1e-15)
    p_nan = cm.precision(NEVER_PREDICTED, zero_division="nan")
    np.testing.assert_allclose(p_nan[:2], [4 / 7, 3 / 5], rtol=1e-15)
    assert math.isnan(p_nan[2])
    assert cm.precision(NEVER_PREDICTED, zero_division=1)[2] == 1.0


def test_recall_of_never_occurring_class():
    """A class that never occurs has recall 0 by default, NaN under 'nan', 1 under 1."""
    assert cm.recall(PREDICTED_NEVER_OCCURS)[1] == 0.0
    assert math.isnan(cm.recall(PREDICTED_NEVER_OCCURS, zero_division="nan")[1])
    assert cm.recall(PREDICTED_NEVER_OCCURS, zero_division=1)[1] == 1.0
    assert cm.recall(PREDICTED_NEVER_OCCURS)[0] == 5 / 7


def test_f1_paradox_tp0_fp_positive_fn0_is_nan_under_nan():
    """TP = 0, FP > 0, FN = 0: P = 0 and R undefined, so F1 is NaN under 'nan' (NaN absorbs)."""
    f = cm.f1(PREDICTED_NEVER_OCCURS, zero_division="nan")
    assert math.isnan(f[1])
    assert f[0] == pytest.approx(2 * 5 / (5 + 7), rel=1e-15)  # 2TP / (bias + prevalence)


def test_f1_paradox_tp0_fp_positive_fn0_is_0_by_default_and_with_1():
    """Same class: F1 = H(0, 0) = 0 by default and H(0, 1) = 0 with zero_division=1."""
    assert cm.f1(PREDICTED_NEVER_OCCURS)[1] == 0.0
    assert cm.f1(PREDICTED_NEVER_OCCURS, zero_division=1)[1] == 0.0


def test_f1_of_class_absent_from_both():
    """A class neither predicted nor occurring: F1 = H(0, 0) = 0, H(1, 1) = 1, or NaN."""
    m = [[3, 1, 0], [2, 4, 0], [0, 0, 0]]
    assert cm.f1(m)[2] == 0.0
    assert cm.f1(m, zero_division=1)[2] == 1.0
    assert math.isnan(cm.f1(m, zero_division="nan")[2])


@pytest.mark.parametrize("name", list(CLASSWISE))
def test_classwise_shapes(name):
    """Class-wise functions give (n,) for a matrix and (..., n) for a stack."""
    func = CLASSWISE[name]
    assert func([[5, 1], [2, 7]]).shape == (2,)
    assert func(STACK_4x3x3).shape == (4, 3)
