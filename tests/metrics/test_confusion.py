"""clfmetrics.metrics._confusion: the confusion matrix of labels (rows = predictions)."""

from __future__ import annotations

import numpy as np
import pytest

import clfmetrics as cm


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
