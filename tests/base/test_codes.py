"""clfmetrics._base.codes: labels to class indices, for one or many prediction vectors."""

from __future__ import annotations

import numpy as np
import pytest

from clfmetrics._base.codes import check_counts, counted_codes, joint_codes, label_codes


def test_codes_follow_the_sorted_union_of_the_labels():
    codes, n, labels = joint_codes(["b", "a", "c"], [["a", "a", "c"], ["c", "b", "b"]])
    assert n == 3 and labels == ["a", "b", "c"]
    np.testing.assert_array_equal(codes, [[1, 0, 2], [0, 0, 2], [2, 1, 1]])


def test_given_labels_set_the_order_and_the_classes():
    t, p, n = label_codes([3, 1, 1], [1, 3, 2], labels=[3, 2, 1])
    assert n == 3
    np.testing.assert_array_equal(t, [0, 2, 2])
    np.testing.assert_array_equal(p, [2, 0, 1])
    with pytest.raises(ValueError, match=r"\S"):
        label_codes([1, 4], [1, 1], labels=[1, 2])  # 4 is not a class


def test_integer_labels_far_apart_get_the_same_codes_as_near_ones():
    near = label_codes([0, 1, 2, 1], [1, 1, 0, 2])
    far = label_codes([0, 10**12, -(10**12), 10**12], [10**12, 10**12, 0, -(10**12)])
    np.testing.assert_array_equal(near[0], [0, 1, 2, 1])
    np.testing.assert_array_equal(far[0], [1, 2, 0, 2])  # sorted: -1e12, 0, 1e12
    np.testing.assert_array_equal(far[1], [2, 2, 1, 0])


@pytest.mark.parametrize(
    ("truth", "predictions", "message"),
    [
        ([1, 2], [], "predictions is empty"),
        ([1, 2], [[1, 2, 1]], "differ in length: 2 vs 3"),
        ([], [[]], "are empty"),
        ([1, 1], [[1, 1]], "only 1 class"),
    ],
)
def test_bad_label_vectors_are_refused(truth, predictions, message):
    with pytest.raises(ValueError, match=message):
        joint_codes(truth, predictions)


def test_counts_are_whole_non_negative_numbers_of_items():
    np.testing.assert_array_equal(check_counts([2, 0.0, 3], 3), [2, 0, 3])
    assert check_counts(np.array([1.0, 2.0]), 2).dtype == np.int64
    for bad, message in [
        ([[1, 2]], "1-d"),
        (["1", "2"], "numbers of items"),
        ([1, 2, 3], "3 entries but the label arrays have 2"),
        ([1, np.nan], "finite"),
        ([1, -1], "negative"),
        ([1, 0.5], "whole-number"),
        ([0, 0], "sum to 0"),
        (np.ma.masked_array([1, 2], mask=[0, 1]), "masked"),
    ]:
        with pytest.raises(ValueError, match=message):
            check_counts(bad, 2)


def test_counted_codes_drop_the_combinations_of_no_items():
    codes, weights, n, labels = counted_codes(
        ["a", "b", "c"], [["a", "a", "c"]], [4, 1, 0], names=["truth", "pred"]
    )
    assert labels == ["a", "b"] and n == 2  # "c" only in a combination of count 0
    np.testing.assert_array_equal(codes, [[0, 1], [0, 0]])
    np.testing.assert_array_equal(weights, [4, 1])
    codes, weights, n, _ = counted_codes(["a", "b"], [["b", "b"]], None)
    assert weights is None and n == 2
    np.testing.assert_array_equal(codes, [[0, 1], [1, 1]])
