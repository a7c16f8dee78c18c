"""Invariants every metric of the registry shares (``clfmetrics.METRICS`` and ``CLASSWISE``).

Like scikit-learn's ``ALL_METRICS`` tests: a metric added to the registry is checked here
without a line of its own, and a property one metric lacks is listed by name.
Convention: ``m[i, j]`` is the mass predicted as class i whose true class is j.
"""

from __future__ import annotations

import inspect

import numpy as np
import pytest
import sklearn.metrics as skm

import clfmetrics as cm
from clfmetrics.metrics import _averages as variants
from clfmetrics.metrics import _prevalence as calibration

METRICS = dict(cm.METRICS)
CLASSWISE = dict(cm.CLASSWISE)
ALL = {**METRICS, **CLASSWISE}
#: The per-class counts: scaling every count by c scales them by c (the others are ratios).
COUNTS = {"bias", "prevalence", "correct"}
#: The metrics that may be negative; every other single number lies in [0, 1].
SIGNED = {"kappa", "mcc", "delta_f1"}
#: scikit-learn's function of (y_true, y_pred) for each metric it has.
SKLEARN = {
    "accuracy": skm.accuracy_score,
    "macro_recall": skm.balanced_accuracy_score,
    "macro_precision": lambda t, p: skm.precision_score(t, p, average="macro", zero_division=0),
    "macro_f1": lambda t, p: skm.f1_score(t, p, average="macro", zero_division=0),
    "weighted_f1": lambda t, p: skm.f1_score(t, p, average="weighted", zero_division=0),
    "kappa": skm.cohen_kappa_score,
    "mcc": skm.matthews_corrcoef,
    "micro_precision": lambda t, p: skm.precision_score(t, p, average="micro"),
    "micro_recall": lambda t, p: skm.recall_score(t, p, average="micro"),
    "micro_f1": lambda t, p: skm.f1_score(t, p, average="micro"),
}
SKLEARN_CLASSWISE = {
    "precision": lambda t, p: skm.precision_score(t, p, average=None, zero_division=0),
    "recall": lambda t, p: skm.recall_score(t, p, average=None, zero_division=0),
    "f1": lambda t, p: skm.f1_score(t, p, average=None, zero_division=0),
}


def _matrices(seed: int, n_classes: int, count: int = 6) -> np.ndarray:
    """Count matrices with every row and column sum positive (every metric defined)."""
    rng = np.random.default_rng(seed)
    stack = rng.integers(0, 30, size=(count, n_classes, n_classes))
    stack += np.eye(n_classes, dtype=stack.dtype)  # no empty row or column
    return stack


STACK = _matrices(0, 3)
STACK4 = _matrices(1, 4)


def _takes_zero_division(metric) -> bool:
    return "zero_division" in inspect.signature(metric).parameters


def test_the_registry_is_what_the_package_exports():
    assert all(getattr(cm, name) is f for name, f in ALL.items())
    assert set(METRICS).isdisjoint(CLASSWISE)
    assert "registry" not in cm.__all__ or cm.registry() is cm.METRICS


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("stack", [STACK, STACK4], ids=["3x3", "4x4"])
def test_a_stack_gives_each_matrix_its_own_value(name, stack):
    metric = ALL[name]
    together = metric(stack)
    one_by_one = np.array([metric(m) for m in stack])
    assert together.shape == one_by_one.shape
    np.testing.assert_allclose(together, one_by_one, rtol=1e-12, atol=1e-15)
    nested = metric(stack.reshape(2, 3, *stack.shape[1:]))  # any number of leading axes
    np.testing.assert_allclose(nested.reshape(together.shape), together, rtol=1e-12)


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("factor", [7, 0.25, 1e6])
def test_scaling_every_count_scales_counts_and_leaves_ratios(name, factor):
    metric = ALL[name]
    scaled = metric(STACK * factor)
    expected = metric(STACK) * (factor if name in COUNTS else 1)
    np.testing.assert_allclose(scaled, expected, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("name", METRICS)
def test_a_single_number_ignores_the_order_of_the_classes(name):
    metric = METRICS[name]
    for perm in ([1, 2, 0], [2, 1, 0], [0, 2, 1]):
        relabelled = STACK[:, perm][:, :, perm]
        np.testing.assert_allclose(metric(relabelled), metric(STACK), rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("name", CLASSWISE)
def test_a_class_wise_value_follows_its_class(name):
    metric = CLASSWISE[name]
    perm = [2, 0, 1]
    relabelled = STACK[:, perm][:, :, perm]
    np.testing.assert_allclose(metric(relabelled), metric(STACK)[..., perm], rtol=1e-12)


@pytest.mark.parametrize("name", METRICS)
def test_a_single_number_lies_in_its_range(name):
    rng = np.random.default_rng(2)
    stack = rng.integers(0, 5, size=(500, 3, 3)) + np.eye(3, dtype=int)
    values = METRICS[name](stack)
    low = -1 if name in SIGNED else 0
    assert np.all(values >= low - 1e-12) and np.all(values <= 1 + 1e-12)
    if name not in SIGNED:
        return
    assert values.min() < 0 or name == "delta_f1", f"{name} never negative on 500 matrices"


@pytest.mark.parametrize("name", [n for n in ALL if n not in COUNTS])
def test_a_perfect_classifier_scores_one_or_zero_gap(name):
    perfect = np.diag([5, 3, 9])
    expected = 0.0 if name == "delta_f1" else 1.0
    np.testing.assert_allclose(ALL[name](perfect), expected, rtol=1e-12, atol=1e-15)


BAD = {
    "not square": np.ones((2, 3)),
    "one axis": np.ones(4),
    "one class": np.ones((1, 1)),
    "negative": np.array([[3, -1], [0, 2]]),
    "nan": np.array([[3.0, np.nan], [0.0, 2.0]]),
    "infinite": np.array([[3.0, np.inf], [0.0, 2.0]]),
    "no mass": np.zeros((2, 2)),
    "text": np.array([["a", "b"], ["c", "d"]]),
}


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("case", BAD)
def test_bad_input_raises_a_value_error(name, case):
    with pytest.raises(ValueError, match=r"\S"):
        ALL[name](BAD[case])


@pytest.mark.parametrize("name", ALL)
def test_integer_and_float_counts_give_the_same_values(name):
    metric = ALL[name]
    as_int = metric(STACK4)
    as_float = metric(STACK4.astype(np.float64))
    np.testing.assert_allclose(as_int, as_float, rtol=1e-12, atol=1e-15)
    assert np.asarray(as_float).dtype.kind == "f" or name in COUNTS


@pytest.mark.parametrize("name", [n for n in ALL if _takes_zero_division(ALL[n])])
def test_zero_division_matters_only_where_a_ratio_is_undefined(name):
    metric = ALL[name]
    values = [metric(STACK, zero_division=z) for z in (0, 1, "nan")]
    for other in values[1:]:
        np.testing.assert_allclose(other, values[0], rtol=1e-12, atol=1e-15)
    never_predicted = np.array([[5, 2, 0], [1, 6, 0], [0, 0, 0]]) + np.array(
        [[0, 0, 1], [0, 0, 0], [0, 0, 0]]
    )  # class 2 is never predicted: its precision is 0/0
    as_nan = metric(never_predicted, zero_division="nan")
    as_zero = metric(never_predicted, zero_division=0)
    if name in ("recall", "macro_recall", "geometric_macro_recall", "harmonic_macro_recall"):
        assert not np.any(np.isnan(as_nan)), f"{name} needs no precision"
    elif name in ("kappa", "mcc"):
        assert np.all(np.isfinite(as_nan)), f"{name} is defined with one class never predicted"
    else:
        assert np.any(np.isnan(as_nan)) and np.all(np.isfinite(as_zero)), name


def _labels(seed: int, n: int = 400, n_classes: int = 4):
    rng = np.random.default_rng(seed)
    y_true = rng.integers(0, n_classes, size=n)
    right = rng.random(n) < 0.6
    y_pred = np.where(right, y_true, rng.integers(0, n_classes, size=n))
    return y_true, y_pred


@pytest.mark.parametrize("name", SKLEARN)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_matrix_of_labels_gives_scikit_learns_value(name, seed):
    y_true, y_pred = _labels(seed)
    m = cm.confusion_matrix(y_true, y_pred)  # rows = predictions
    assert m.sum() == y_true.size and np.trace(m) == np.sum(y_true == y_pred)
    assert METRICS[name](m) == pytest.approx(SKLEARN[name](y_true, y_pred), rel=1e-12, abs=1e-15)


@pytest.mark.parametrize("name", SKLEARN_CLASSWISE)
def test_the_class_wise_values_of_labels_are_scikit_learns(name):
    y_true, y_pred = _labels(3)
    m = cm.confusion_matrix(y_true, y_pred)
    np.testing.assert_allclose(CLASSWISE[name](m), SKLEARN_CLASSWISE[name](y_true, y_pred))


def test_the_counts_of_labels_are_the_predicted_the_true_and_the_correct_items():
    y_true, y_pred = _labels(4)
    m = cm.confusion_matrix(y_true, y_pred)
    classes = np.arange(4)
    np.testing.assert_array_equal(cm.bias(m), [(y_pred == k).sum() for k in classes])
    np.testing.assert_array_equal(cm.prevalence(m), [(y_true == k).sum() for k in classes])
    np.testing.assert_array_equal(
        cm.correct(m), [((y_true == k) & (y_pred == k)).sum() for k in classes]
    )


STACK_4x3x3 = np.array(
    [
        [[5, 1, 0], [2, 7, 1], [0, 3, 9]],
        [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
        [[0, 4, 2], [3, 0, 5], [1, 1, 0]],
        [[6, 6, 6], [0, 0, 0], [0, 0, 0]],  # constant classifier
    ]
)


SCALAR_SCORES = {
    "calibrated_macro_precision": lambda m: calibration.calibrated_macro_precision(m),
    "calibrated_kappa_closed_form": calibration.calibrated_kappa_closed_form,
    "calibrated_mcc_closed_form": lambda m: calibration.calibrated_mcc_closed_form(m),
    "power_mean_recall": lambda m: variants.power_mean_recall(m, 0.5),
    "power_mean_of_recall": lambda m: variants.power_mean(cm.recall(m), 2),
}


def test_all_metrics_defined_without_undefined_ratios():
    """On a matrix where every class is predicted and occurs, 'nan' changes no metric."""
    m = [[5, 1, 0], [2, 7, 1], [0, 3, 9]]
    for name, func in cm.METRICS.items():
        if name.startswith("micro") or name == "accuracy":
            continue
        assert func(m, zero_division="nan") == func(m) == func(m, zero_division=1), name


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


@pytest.mark.parametrize("name", list(SCALAR_SCORES))
def test_other_scores_give_python_float_or_array(name):
    """The scores outside METRICS follow the same rule: float for one matrix, array for a stack."""
    score = SCALAR_SCORES[name]
    single = score(np.asarray(STACK_4x3x3[0]))
    assert type(single) is float, (name, type(single))
    stacked = score(STACK_4x3x3)
    assert isinstance(stacked, np.ndarray) and stacked.shape == (4,)
