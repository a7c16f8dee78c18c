"""The threshold sweep, ROC and PR curves and their areas, against scikit-learn and by hand."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import numpy as np
import pytest
from sklearn import metrics as skm

import clfmetrics as cm
from clfmetrics import (
    argmax_predictions,
    average_precision,
    best_threshold,
    precision_recall_curve,
    prior_shift,
    roc_auc,
    roc_curve,
    threshold_stack,
)

RNG = np.random.default_rng(13)


def problems(count=120):
    """Random binary problems with many tied scores, several label kinds, tiny to medium."""
    for k in range(count):
        n_items = int(RNG.integers(2, 80 if k % 4 else 400))
        y = RNG.integers(0, 2, n_items)
        if len(set(y.tolist())) < 2:
            y[0], y[-1] = 0, 1
        levels = int(RNG.integers(1, 8))  # one level: every score tied
        scores = RNG.integers(0, levels, n_items) / max(levels - 1, 1) + 0.1 * y * (k % 3 == 0)
        kind = k % 3
        if kind == 1:
            y = np.where(y == 1, 1, -1)
        elif kind == 2:
            y = np.where(y == 1, "spam", "ham")
        yield y, scores


def test_curves_equal_sklearn_point_for_point():
    for y, s in problems():
        pos = "spam" if y.dtype.kind == "U" else 1
        fpr, tpr, t = roc_curve(y, s)
        ref = skm.roc_curve(y, s, pos_label=pos, drop_intermediate=False)
        for ours, theirs in zip((fpr, tpr, t), ref, strict=True):
            assert np.array_equal(ours, theirs)
        for ours, theirs in zip(
            precision_recall_curve(y, s),
            skm.precision_recall_curve(y, s, pos_label=pos),
            strict=True,
        ):
            assert np.array_equal(ours, theirs)


def test_areas_equal_sklearn():
    for y, s in problems():
        pos = "spam" if y.dtype.kind == "U" else 1
        assert roc_auc(y, s) == pytest.approx(skm.roc_auc_score(y, s), abs=1e-12)
        assert average_precision(y, s) == pytest.approx(
            skm.average_precision_score(y, s, pos_label=pos), abs=1e-12
        )


def test_every_matrix_is_the_confusion_matrix_of_thresholded_predictions():
    for y, s in list(problems(40)):
        pos = np.unique(y)[-1]
        thresholds, stack = threshold_stack(y, s)
        assert thresholds[0] == np.inf and np.all(np.diff(thresholds) < 0)
        assert np.array_equal(thresholds[1:], np.unique(s)[::-1])
        truth = (y == pos).astype(int)
        for t, m in zip(thresholds, stack, strict=True):
            expected = cm.confusion_matrix(truth, (s >= t).astype(int), labels=[0, 1])
            assert np.array_equal(m, expected)
        tns, fps, fns, tps, _ = skm.confusion_matrix_at_thresholds(y, s, pos_label=pos)
        assert np.array_equal(stack[1:, 0, 0], tns) and np.array_equal(stack[1:, 1, 1], tps)
        assert np.array_equal(stack[1:, 1, 0], fps) and np.array_equal(stack[1:, 0, 1], fns)


def test_auc_is_the_probability_a_positive_outranks_a_negative():
    """Exact enumeration of all pairs, in fractions, on small problems with ties."""
    for y, s in list(problems(30))[:30]:
        pos = y == np.unique(y)[-1]
        wins = sum(
            Fraction(1) if a > b else Fraction(1, 2) if a == b else Fraction(0)
            for a, b in product(s[pos].tolist(), s[~pos].tolist())
        )
        exact = wins / (pos.sum() * (~pos).sum())
        assert roc_auc(y, s) == pytest.approx(float(exact), abs=1e-15)


def test_degenerate_cases():
    assert roc_auc([0, 1], [0.2, 0.9]) == 1.0
    assert roc_auc([0, 1], [0.9, 0.2]) == 0.0
    assert roc_auc([0, 1, 0, 1], [0.5] * 4) == 0.5  # all tied: one diagonal step
    t, stack = threshold_stack([1, 1, 1], [0.3, 0.3, 0.1])  # one class: the stack exists
    assert t.tolist() == [np.inf, 0.3, 0.1] and stack[:, 1, 1].tolist() == [0, 2, 3]
    t, stack = threshold_stack([0, 0], [5, 5])
    assert stack.tolist() == [[[2, 0], [0, 0]], [[0, 0], [2, 0]]]
    assert average_precision([1, 1], [0.1, 0.2]) == skm.average_precision_score([1, 1], [0.1, 0.2])
    assert average_precision([True, False, True], [3, 2, 1]) == pytest.approx(
        skm.average_precision_score([True, False, True], [3, 2, 1])
    )


def test_pos_label_and_one_against_the_rest():
    y = np.array(["a", "b", "c", "a", "c", "b", "a"])
    s = np.array([0.9, 0.1, 0.4, 0.8, 0.4, 0.3, 0.2])
    ours = roc_curve(y, s, pos_label="a")
    ref = skm.roc_curve(y, s, pos_label="a", drop_intermediate=False)
    for a, b in zip(ours, ref, strict=True):
        assert np.array_equal(a, b)
    # The default is the greater label for any two labels (scikit-learn asks for pos_label).
    assert roc_auc([1, 2, 2, 1], [0.1, 0.7, 0.4, 0.5]) == roc_auc(
        [1, 2, 2, 1], [0.1, 0.7, 0.4, 0.5], pos_label=2
    )
    assert roc_auc([1, 2, 2, 1], [0.1, 0.7, 0.4, 0.5], pos_label=1) == pytest.approx(
        1 - roc_auc([1, 2, 2, 1], [0.1, 0.7, 0.4, 0.5])
    )


def test_one_vs_rest_macro_equals_sklearn():
    for k in range(20):
        n = int(RNG.integers(3, 6))
        n_items = int(RNG.integers(3 * n, 200))
        y = RNG.permutation(np.resize(np.arange(n), n_items))
        raw = RNG.integers(1, 6, size=(n_items, n)).astype(float) + 2 * np.eye(n)[y] * (k % 2)
        p = raw / raw.sum(axis=1, keepdims=True)
        ref = skm.roc_auc_score(y, p, multi_class="ovr", average="macro")
        assert roc_auc(y, p) == pytest.approx(ref, abs=1e-12)
        assert average_precision(y, p) == pytest.approx(
            skm.average_precision_score(y, p), abs=1e-12
        )
        names = np.array(["x", "y", "z", "w", "v"])[:n]
        assert roc_auc(names[y], p, labels=names) == pytest.approx(ref, abs=1e-12)
        # Rows need not sum to 1: only each column's ranking matters.
        assert roc_auc(y, raw) == pytest.approx(roc_auc(y, np.log(raw) * 3), abs=1e-12)


def test_best_threshold_is_the_maximum_over_the_sweep():
    y = RNG.integers(0, 2, 500)
    s = np.round(RNG.random(500) + 0.6 * y, 2)
    thresholds, stack = threshold_stack(y, s)
    for metric in (cm.accuracy, cm.macro_f1, cm.mcc, lambda st: cm.f1(st)[..., 1]):
        t, value = best_threshold(metric, y, s)
        values = metric(stack)
        assert value == values.max()
        assert t == thresholds[np.argmax(values)]
        pred = (s >= t).astype(int)
        assert value == pytest.approx(metric(cm.confusion_matrix(y, pred, labels=[0, 1])))
    assert best_threshold(cm.accuracy, [0, 0, 0, 1], [0.9, 0.8, 0.7, 0.1])[0] == np.inf


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: roc_curve([0, 1, 1], [0.1, 0.2]), "differ in length"),
        (lambda: roc_auc([0, 1], [0.1, np.nan]), "NaN or infinite"),
        (lambda: threshold_stack([0, 1], [0.1, np.inf]), "NaN or infinite"),
        (lambda: roc_auc([1, 1, 1], [0.1, 0.2, 0.3]), "no negative"),
        (lambda: roc_curve([0, 0], [0.1, 0.2]), "no positive"),
        (lambda: average_precision([0, 0], [0.1, 0.2]), "no positive"),
        (lambda: precision_recall_curve([-1, -1], [0.1, 0.2]), "no positive"),
        (lambda: roc_auc([0, 1, 2], [0.1, 0.2, 0.3]), "pass pos_label"),
        (lambda: roc_auc(["a", "a"], [0.1, 0.2]), "single class"),
        (lambda: roc_auc([0, 1], [0.1, 0.2], pos_label=2), "not a label"),
        (lambda: roc_auc([0, 1], ["x", "y"]), "must hold numbers"),
        (lambda: roc_auc([0, 1], [[0.1, 0.2]]), "one column per class|differ in length"),
        (lambda: roc_auc([0, 1, 2], np.ones((3, 2))), "3 classes"),
        (lambda: roc_auc([0, 1, 2], np.ones((3, 3, 1))), "1-d array"),
        (lambda: roc_auc([0, 1, 1], np.eye(3)[[0, 1, 1]], labels=[0, 1, 2]), "class 2"),
        (lambda: roc_auc([0, 3, 1], np.eye(3), labels=[0, 1, 2]), "not in labels"),
        (lambda: roc_auc([], []), "empty"),
        (lambda: best_threshold(cm.f1, [0, 1], [0.1, 0.2]), "one value per matrix"),
        (lambda: best_threshold("f1", [0, 1], [0.1, 0.2]), "must be a function"),
        (lambda: prior_shift([[0.5, 0.5]], [1, 1], [1, 0]), "positive"),
        (lambda: prior_shift([[0.5, 0.5]], [1, 1, 1], [1, 1]), "one per class"),
        (lambda: prior_shift([[0.0, 0.0]], [1, 1], [1, 2]), "all zeros"),
        (lambda: prior_shift([0.5, 0.5], [1, 1], [1, 2]), "shape \\(N, n\\)"),
        (lambda: argmax_predictions([[0.5, -0.1]]), "negative"),
        (lambda: argmax_predictions([[0.5, 0.1]], labels=["a"]), "name the 2 columns"),
    ],
)
def test_bad_input_is_named(call, message):
    with pytest.raises(ValueError, match=message):
        call()
