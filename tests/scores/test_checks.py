"""clfmetrics.scores._checks: scores and targets checked, and which class is the positive one."""

from __future__ import annotations

import numpy as np
import pytest

from clfmetrics.scores._checks import as_scores, positives


def test_scores_become_a_float_array_of_the_asked_dimensions():
    arr = as_scores([1, 0, 3], ndim=1)
    assert arr.dtype == np.float64 and arr.tolist() == [1.0, 0.0, 3.0]
    assert as_scores([[0.2, 0.8], [1, 0]], ndim=2).shape == (2, 2)
    assert as_scores(np.array([True, False]), ndim=1).tolist() == [1.0, 0.0]


@pytest.mark.parametrize(
    ("scores", "ndim", "message"),
    [
        ([[1, 2], [3]], 1, "not a rectangular array"),
        (["a", "b"], 1, "must hold numbers"),
        ([[0.1, 0.9]], 1, "a 1-d array, one score per item"),
        ([0.1, 0.9], 2, r"shape \(N, n\)"),
        ([0.1, np.nan, 0.3], 1, "NaN or infinite score nan at index 1"),
        ([[0.1, 0.9], [np.inf, 0]], 2, r"at index \(1, 0\)"),
        (np.ma.masked_array([0.1, 0.2], mask=[0, 1]), 1, "masked"),
    ],
)
def test_bad_scores_are_refused_saying_where(scores, ndim, message):
    with pytest.raises(ValueError, match=message):
        as_scores(scores, ndim=ndim)


def test_the_greater_of_two_classes_is_positive_unless_pos_label_says_otherwise():
    s, positive = positives(["no", "yes", "yes"], [0.1, 0.7, 0.4], None)
    assert positive.tolist() == [False, True, True] and s.tolist() == [0.1, 0.7, 0.4]
    _, positive = positives(["no", "yes", "yes"], [0.1, 0.7, 0.4], "no")
    assert positive.tolist() == [True, False, False]
    _, positive = positives([2, 0, 1], [0.1, 0.7, 0.4], 2)  # one class against the rest
    assert positive.tolist() == [True, False, False]


def test_a_single_class_of_0_1_or_minus_1_takes_1_as_positive_like_scikit_learn():
    assert positives([0, 0], [0.2, 0.4], None)[1].tolist() == [False, False]
    assert positives([1, 1], [0.2, 0.4], None)[1].tolist() == [True, True]
    with pytest.raises(ValueError, match="single class 'spam'; pass pos_label="):
        positives(["spam", "spam"], [0.2, 0.4], None)


@pytest.mark.parametrize(
    ("y_true", "scores", "pos_label", "message"),
    [
        ([0, 1, 2], [0.1, 0.2, 0.3], None, r"3 classes \[0, 1, 2\], but scores is 1-d"),
        ([0, 1], [0.1, 0.2], 5, r"pos_label=5 is not a label of y_true \[0, 1\]"),
        ([0, 1, 1], [0.1, 0.2], None, "differ in length: 3 vs 2"),
        ([], [], None, "are empty"),
        ([1, "a"], [0.1, 0.2], None, r"\S"),
    ],
)
def test_targets_that_do_not_fit_the_scores_are_refused(y_true, scores, pos_label, message):
    with pytest.raises(ValueError, match=message):
        positives(y_true, scores, pos_label)
