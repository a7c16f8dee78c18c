"""clfmetrics.metrics._registry: the metrics by name, their aliases and how a metric is named."""

from __future__ import annotations

import numpy as np
import pytest

import clfmetrics as cm
from clfmetrics.metrics._registry import ALIASES, CLASSWISE, METRICS, resolve_metric


def test_a_name_resolves_to_the_registered_function():
    for name, function in METRICS.items():
        assert resolve_metric(name) == (name, function)


def test_balanced_accuracy_is_macro_recall_by_another_name():
    assert ALIASES == {"balanced_accuracy": "macro_recall"}
    assert resolve_metric("balanced_accuracy") == ("macro_recall", cm.macro_recall)


def test_a_function_is_named_by_its_own_name():
    assert resolve_metric(cm.kappa) == ("kappa", cm.kappa)

    def custom(m):
        return np.trace(np.asarray(m)) / np.sum(m)

    assert resolve_metric(custom) == ("custom", custom)
    name, function = resolve_metric(np.trace)  # a callable without __name__ is still named
    assert function is np.trace and name


def test_an_unknown_name_lists_every_name_that_is_known():
    with pytest.raises(ValueError, match="unknown metric 'f2'") as raised:
        resolve_metric("f2")
    for name in [*METRICS, *ALIASES]:
        assert repr(name) in str(raised.value)


@pytest.mark.parametrize("bad", [3, None, [cm.kappa]])
def test_what_is_neither_a_name_nor_a_function_is_refused(bad):
    with pytest.raises(ValueError, match="must be a function of a confusion matrix"):
        resolve_metric(bad)


def test_the_class_wise_functions_give_one_value_per_class():
    m = np.array([[5, 1, 0], [2, 7, 1], [0, 3, 9]])
    for function in CLASSWISE.values():
        assert np.shape(function(m)) == (3,)
    for function in METRICS.values():
        assert np.ndim(function(m)) == 0
