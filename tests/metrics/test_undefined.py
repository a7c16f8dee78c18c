"""What the library returns when a ratio is undefined, and the shape of what it returns.

Convention: ``m[i, j]`` = predicted ``i``, true ``j``. An undefined ratio
(denominator 0) takes the ``zero_division`` value: 0 (default), 1 or NaN.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import clfmetrics as cm
from clfmetrics.metrics import _averages as variants
from clfmetrics.metrics import _prevalence as calibration

CLASSWISE = cm.CLASSWISE

# classifier and reference put everything on class 0: chance agreement = 1
ALL_ON_ONE_CLASS = [[5, 0], [0, 0]]
# a constant classifier: always predicts class 0 (row 1 is empty)
CONSTANT_CLASSIFIER = [[3, 4], [0, 0]]
# a reference with one class only: every item is truly class 0 (column 1 is empty)
ONE_CLASS_REFERENCE = [[3, 0], [4, 0]]
# class 1 is predicted twice but never occurs: TP = 0, FP = 2, FN = 0 (F-measure paradox)
PREDICTED_NEVER_OCCURS = [[5, 0], [2, 0]]
# class 2 is never predicted (row 2 empty) but occurs
NEVER_PREDICTED = [[4, 1, 2], [1, 3, 1], [0, 0, 0]]
# class 1 is predicted but never occurs (recall undefined), class 2 occurs but is
# never predicted (precision undefined)
BOTH_UNDEFINED = [[5, 0, 1], [2, 0, 0], [0, 0, 0]]

STACK_4x3x3 = np.array(
    [
        [[5, 1, 0], [2, 7, 1], [0, 3, 9]],
        [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
        [[0, 4, 2], [3, 0, 5], [1, 1, 0]],
        [[6, 6, 6], [0, 0, 0], [0, 0, 0]],  # constant classifier
    ]
)


# ---------------------------------------------------------------------------
# kappa: denominator s^2 - p.b is 0 only when both put all mass on one class
# ---------------------------------------------------------------------------


def test_kappa_all_mass_on_one_class_is_0_by_default():
    """Kappa's denominator 1 - chance is 0; the default fill is 0.0 (no better than chance)."""
    assert cm.kappa(ALL_ON_ONE_CLASS) == 0.0


def test_kappa_all_mass_on_one_class_is_nan_with_zero_division_nan():
    """zero_division='nan' (or np.nan) marks the undefined kappa as NaN, like sklearn's default."""
    assert math.isnan(cm.kappa(ALL_ON_ONE_CLASS, zero_division="nan"))
    assert math.isnan(cm.kappa(ALL_ON_ONE_CLASS, zero_division=np.nan))


def test_kappa_all_mass_on_one_class_is_1_with_zero_division_1():
    """zero_division=1 reads the perfect (if uninformative) agreement as kappa 1."""
    assert cm.kappa(ALL_ON_ONE_CLASS, zero_division=1) == 1.0


def test_kappa_all_mass_on_one_class_of_three_off_the_first_class():
    """The same holds when the single class is not class 0 and there are 3 classes."""
    m = [[0, 0, 0], [0, 7, 0], [0, 0, 0]]
    assert cm.kappa(m) == 0.0
    assert math.isnan(cm.kappa(m, zero_division="nan"))
    assert cm.kappa(m, zero_division=1) == 1.0


def test_kappa_of_constant_classifier_is_defined_and_zero():
    """A constant classifier keeps kappa's denominator positive: kappa is 0 for any fill."""
    for zd in (0, 1, "nan"):
        assert cm.kappa(CONSTANT_CLASSIFIER, zero_division=zd) == 0.0


# ---------------------------------------------------------------------------
# MCC: denominator 0 for a constant classifier or a one-class reference
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("m", [CONSTANT_CLASSIFIER, ONE_CLASS_REFERENCE, ALL_ON_ONE_CLASS])
def test_mcc_zero_denominator_is_0_by_default_like_sklearn(m):
    """MCC of a constant classifier / one-class reference is 0.0, as sklearn's matthews_corrcoef."""
    assert cm.mcc(m) == 0.0


@pytest.mark.parametrize("m", [CONSTANT_CLASSIFIER, ONE_CLASS_REFERENCE, ALL_ON_ONE_CLASS])
def test_mcc_zero_denominator_is_nan_with_zero_division_nan(m):
    """zero_division='nan' marks the undefined MCC as NaN."""
    assert math.isnan(cm.mcc(m, zero_division="nan"))


def test_mcc_zero_denominator_takes_zero_division_1():
    """zero_division=1 is returned as documented ('returned where the denominator is 0')."""
    assert cm.mcc(CONSTANT_CLASSIFIER, zero_division=1) == 1.0


def test_mcc_defined_matrix_ignores_zero_division():
    """Where MCC is defined, zero_division changes nothing."""
    m = [[5, 1], [2, 7]]
    values = {cm.mcc(m, zero_division=zd) for zd in (0, 1, "nan")}
    assert len(values) == 1 and math.isfinite(values.pop())


# ---------------------------------------------------------------------------
# class-wise precision, recall and F1
# ---------------------------------------------------------------------------


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


# ---------------------------------------------------------------------------
# averages under 'nan'
# ---------------------------------------------------------------------------

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


def test_all_metrics_defined_without_undefined_ratios():
    """On a matrix where every class is predicted and occurs, 'nan' changes no metric."""
    m = [[5, 1, 0], [2, 7, 1], [0, 3, 9]]
    for name, func in cm.METRICS.items():
        if name.startswith("micro") or name == "accuracy":
            continue
        assert func(m, zero_division="nan") == func(m) == func(m, zero_division=1), name


# ---------------------------------------------------------------------------
# return types and shapes
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(cm.METRICS))
def test_single_matrix_gives_python_float(name):
    """One (n, n) matrix gives a plain Python float, not a numpy scalar or 0-d array."""
    assert type(cm.METRICS[name]([[5, 1], [2, 7]])) is float


@pytest.mark.parametrize("name", list(cm.METRICS))
def test_stack_gives_array_of_the_stack_shape(name):
    """A (4, 3, 3) stack gives an ndarray of shape (4,); a (2, 4, 3, 3) one gives (2, 4)."""
    out = cm.METRICS[name](STACK_4x3x3)
    assert isinstance(out, np.ndarray) and out.shape == (4,)
    out2 = cm.METRICS[name](np.stack([STACK_4x3x3, STACK_4x3x3]))
    assert isinstance(out2, np.ndarray) and out2.shape == (2, 4)


@pytest.mark.parametrize("name", list(cm.METRICS))
def test_stack_of_one_stays_an_array(name):
    """A (1, n, n) stack gives an array of shape (1,), not a float."""
    out = cm.METRICS[name](STACK_4x3x3[:1])
    assert isinstance(out, np.ndarray) and out.shape == (1,)


@pytest.mark.parametrize("name", list(CLASSWISE))
def test_classwise_shapes(name):
    """Class-wise functions give (n,) for a matrix and (..., n) for a stack."""
    func = CLASSWISE[name]
    assert func([[5, 1], [2, 7]]).shape == (2,)
    assert func(STACK_4x3x3).shape == (4, 3)


def test_stack_fills_only_the_undefined_entries():
    """In a stack, zero_division fills only the matrices whose ratio is undefined."""
    stack = np.array([ALL_ON_ONE_CLASS, [[1, 1], [1, 1]], [[4, 0], [0, 4]], CONSTANT_CLASSIFIER])
    k = cm.kappa(stack, zero_division="nan")
    assert np.isnan(k[0]) and not np.isnan(k[1:]).any()
    np.testing.assert_array_equal(k[1:], [0.0, 1.0, 0.0])
    r = cm.mcc(stack, zero_division="nan")
    np.testing.assert_array_equal(np.isnan(r), [True, False, False, True])
    np.testing.assert_array_equal(r[1:3], [0.0, 1.0])
    np.testing.assert_array_equal(cm.mcc(STACK_4x3x3, zero_division="nan")[3:], [np.nan])


def test_weighted_f1_drops_a_predicted_class_that_never_occurs():
    """Class 2 is predicted but never occurs: weight 0, so 'nan' changes nothing (0 x NaN)."""
    m = [[3, 1, 0], [1, 4, 0], [2, 0, 0]]
    assert math.isnan(cm.f1(m, zero_division="nan")[2])
    # by hand: bias (4, 5, 2), prevalence (6, 5, 0), correct (3, 4, 0); F1_k = 2c / (b + p)
    expected = (6 * (6 / 10) + 5 * (8 / 10)) / 11
    assert cm.weighted_f1(m, zero_division="nan") == pytest.approx(expected, rel=1e-15)
    assert cm.weighted_f1(m, zero_division="nan") == cm.weighted_f1(m)


SCALAR_SCORES = {
    "calibrated_macro_precision": lambda m: calibration.calibrated_macro_precision(m),
    "calibrated_kappa_closed_form": calibration.calibrated_kappa_closed_form,
    "calibrated_mcc_closed_form": lambda m: calibration.calibrated_mcc_closed_form(m),
    "power_mean_recall": lambda m: variants.power_mean_recall(m, 0.5),
    "power_mean_of_recall": lambda m: variants.power_mean(cm.recall(m), 2),
}


@pytest.mark.parametrize("name", list(SCALAR_SCORES))
def test_other_scores_give_python_float_or_array(name):
    """The scores outside METRICS follow the same rule: float for one matrix, array for a stack."""
    score = SCALAR_SCORES[name]
    single = score(np.asarray(STACK_4x3x3[0]))
    assert type(single) is float, (name, type(single))
    stacked = score(STACK_4x3x3)
    assert isinstance(stacked, np.ndarray) and stacked.shape == (4,)
