"""Brier score, log loss, the reliability curve and ECE: against scikit-learn and by hand."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn import metrics as skm
from sklearn.calibration import calibration_curve

import clfmetrics as cm
from clfmetrics import (
    brier_score,
    expected_calibration_error,
    log_loss,
    reliability_curve,
)


def binary_problems(count=200, seed=7):
    """Random binary problems: tied probabilities, exact 0 and 1, several label kinds, sizes."""
    rng = np.random.default_rng(seed)
    for k in range(count):
        n_items = int(rng.integers(2, 60 if k % 5 else 600))
        y = rng.integers(0, 2, n_items)
        if k % 7 == 0:
            y[:] = rng.integers(0, 2)  # one class only
        if k % 3 == 0:  # few distinct values: many ties, 0 and 1 included
            p = rng.integers(0, int(rng.integers(1, 6)) + 1, n_items) / 5
        elif k % 3 == 1:  # calibrated-looking
            p = np.clip(0.5 * y + 0.5 * rng.random(n_items), 0, 1)
        else:
            p = rng.random(n_items)
        kind = k % 4
        if kind == 1:
            y = np.where(y == 1, 1, -1)
        elif kind == 2 and len(set(y.tolist())) == 2:
            y = np.where(y == 1, "spam", "ham")  # "spam" > "ham": the greater is positive
        yield y, p


def _sk_pos(y):
    return "spam" if y.dtype.kind == "U" else None


def test_brier_and_log_loss_of_binary_probabilities_equal_sklearn():
    """1-d P(positive): both losses equal scikit-learn's on every problem, ties and 0/1 included."""
    checked = 0
    for y, p in binary_problems():
        pos = _sk_pos(y)
        assert brier_score(y, p) == pytest.approx(
            skm.brier_score_loss(y, p, pos_label=pos), rel=1e-12, abs=1e-15
        )
        if len(set(y.tolist())) == 2:  # scikit-learn's 1-d log loss needs both classes
            assert log_loss(y, p) == pytest.approx(skm.log_loss(y, p), rel=1e-12)
            checked += 1
    assert checked > 150


def test_log_loss_of_one_class_with_pos_label():
    """A single class: scikit-learn needs labels=, here pos_label (or the 0/1 rule)."""
    y, p = np.zeros(5, dtype=int), np.array([0.1, 0.2, 0.0, 0.5, 1.0])
    assert log_loss(y, p) == pytest.approx(skm.log_loss(y, p, labels=[0, 1]), rel=1e-12)
    assert log_loss(["a"] * 5, p, pos_label="b") == pytest.approx(
        skm.log_loss(y, p, labels=[0, 1]), rel=1e-12
    )


def test_log_loss_clips_like_sklearn():
    """Probability 0 for the true class costs -log(eps), not infinity; 1 costs eps."""
    eps = np.finfo(float).eps
    assert log_loss([1, 0], [0.0, 0.0]) == pytest.approx(-np.log(eps) / 2 - np.log1p(-eps) / 2)
    assert log_loss([1, 0], [1.0, 0.0]) == skm.log_loss([1, 0], [1.0, 0.0])
    assert 0 < log_loss([1, 0], [1.0, 0.0]) < 1e-15


def matrix_problems(count=120, seed=11):
    """(N, n) probability rows from a Dirichlet, some rows one-hot, labels of several kinds."""
    rng = np.random.default_rng(seed)
    for k in range(count):
        n = int(rng.integers(2, 6))
        n_items = int(rng.integers(n, 80 if k % 4 else 500))
        y = rng.integers(0, n, n_items)
        y[:n] = np.arange(n)  # every class occurs (scikit-learn infers the columns from y)
        p = rng.dirichlet(np.full(n, 0.3 + k % 3), n_items)
        onehot = rng.random(n_items) < 0.1
        p[onehot] = np.eye(n)[rng.integers(0, n, onehot.sum())]
        p /= p.sum(axis=1, keepdims=True)
        if k % 2:
            y = np.array([f"c{v}" for v in y])
        yield y, p


def test_matrix_brier_in_blocks_of_rows_equals_the_whole_matrix():
    """More rows than one block (2**20 floats): every block's rows are counted once."""
    rng = np.random.default_rng(26)
    n_items = 2**20 // 5 * 2 + 77  # two whole blocks and a part
    y = rng.integers(0, 5, n_items)
    proba = rng.dirichlet(np.ones(5), n_items)
    direct = np.mean(((proba - (y[:, None] == np.arange(5))) ** 2).sum(axis=1))
    assert cm.brier_score(y, proba, labels=list(range(5))) == pytest.approx(direct, rel=1e-12)
    assert cm.brier_score(y[:-77], proba[:-77], labels=list(range(5))) != pytest.approx(
        direct, rel=1e-12
    )


def test_matrix_brier_and_log_loss_equal_sklearn():
    """(N, n): the unhalved Brier score (scale_by_half=False) and log loss equal scikit-learn's."""
    for y, p in matrix_problems():
        ours = brier_score(y, p)
        assert ours == pytest.approx(
            skm.brier_score_loss(y, p, labels=np.unique(y), scale_by_half=False), rel=1e-12
        )
        if p.shape[1] >= 3:  # scikit-learn's default halves only the two-column case
            assert ours == pytest.approx(skm.brier_score_loss(y, p, labels=np.unique(y)))
        assert log_loss(y, p) == pytest.approx(skm.log_loss(y, p), rel=1e-12)


def test_two_column_matrix_is_twice_the_binary_brier_score():
    y, p = np.array([0, 1, 1, 0, 1]), np.array([0.2, 0.9, 0.4, 0.0, 1.0])
    matrix = np.column_stack([1 - p, p])
    assert brier_score(y, matrix) == pytest.approx(2 * brier_score(y, p))
    assert log_loss(y, matrix) == pytest.approx(log_loss(y, p))


def test_labels_give_the_column_order():
    """Permuting columns and labels together changes nothing; labels may name absent classes."""
    rng = np.random.default_rng(3)
    y = rng.integers(0, 3, 50)
    p = rng.dirichlet(np.ones(4), 50)  # class 3 never occurs
    labels = [0, 1, 2, 3]
    perm = [2, 0, 3, 1]
    for f in (brier_score, log_loss):
        assert f(y, p, labels=labels) == pytest.approx(
            f(y, p[:, perm], labels=[labels[k] for k in perm])
        )
    assert log_loss(y, p, labels=labels) == pytest.approx(skm.log_loss(y, p, labels=labels))


def test_rows_within_float32_rounding_are_accepted():
    rng = np.random.default_rng(5)
    y = rng.integers(0, 3, 200)
    p = rng.dirichlet(np.ones(3), 200).astype(np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # scikit-learn warns at sqrt(eps), computes anyway
        assert log_loss(y, p) == pytest.approx(skm.log_loss(y, p.astype(float)), rel=1e-12)


@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
def test_reliability_curve_equals_sklearns_calibration_curve(strategy):
    """observed and predicted are scikit-learn's prob_true and prob_pred, bit for bit."""
    rng = np.random.default_rng(17)
    for y, p in binary_problems(seed=23):
        bins = int(rng.integers(1, 16))
        observed, predicted, counts = reliability_curve(y, p, bins=bins, strategy=strategy)
        ref_true, ref_pred = calibration_curve(
            y, p, n_bins=bins, strategy=strategy, pos_label=_sk_pos(y)
        )
        np.testing.assert_array_equal(observed, ref_true)
        np.testing.assert_array_equal(predicted, ref_pred)
        assert counts.dtype == np.int64 and counts.sum() == len(y) and (counts > 0).all()
        assert len(counts) == len(observed) <= bins


def _bins_by_loop(stated, hit, bins, strategy):
    """One bin at a time, with explicit interval tests: the definition, not the code."""
    if strategy == "uniform":
        edges = [b / bins for b in range(bins + 1)]
    else:
        edges = list(np.percentile(stated, np.linspace(0, 1, bins + 1) * 100))
    rows = []
    for b in range(bins):
        lo, hi = edges[b], edges[b + 1]
        inside = [
            i
            for i, s in enumerate(stated)
            if (s <= hi or b == bins - 1)
            and (s > lo or b == 0)
            and not any(s <= edges[c + 1] for c in range(b))  # an earlier bin took it
        ]
        if inside:
            rows.append(
                (
                    len(inside),
                    sum(hit[i] for i in inside) / len(inside),
                    sum(stated[i] for i in inside) / len(inside),
                )
            )
    return rows


@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
def test_ece_and_counts_against_a_loop_over_bins(strategy):
    """ECE = sum_b n_b / N |observed_b - predicted_b|, each bin collected by a Python loop."""
    rng = np.random.default_rng(29)
    for k, (y, p) in enumerate(binary_problems(count=60, seed=31)):
        bins = int(rng.integers(1, 12))
        pos = np.asarray(y) == (np.unique(y)[-1] if len(np.unique(y)) == 2 else 1)
        rows = _bins_by_loop(p.tolist(), pos.tolist(), bins, strategy)
        n_items = len(p)
        loop_ece = sum(n / n_items * abs(o - q) for n, o, q in rows)
        assert expected_calibration_error(y, p, bins=bins, strategy=strategy) == pytest.approx(
            loop_ece, abs=1e-12
        ), k
        observed, predicted, counts = reliability_curve(y, p, bins=bins, strategy=strategy)
        assert counts.tolist() == [r[0] for r in rows]
        np.testing.assert_allclose(observed, [r[1] for r in rows], atol=1e-12)
        np.testing.assert_allclose(predicted, [r[2] for r in rows], atol=1e-12)


def test_top_label_reliability_of_a_matrix():
    """(N, n): bins of the largest probability; a hit is an argmax equal to the truth."""
    for y, p in matrix_problems(count=30, seed=41):
        labels = np.unique(y)
        confidence = p.max(axis=1)
        hit = labels[np.argmax(p, axis=1)] == y
        rows = _bins_by_loop(confidence.tolist(), hit.tolist(), 10, "uniform")
        observed, predicted, counts = reliability_curve(y, p)
        assert counts.tolist() == [r[0] for r in rows]
        np.testing.assert_allclose(observed, [r[1] for r in rows], atol=1e-12)
        np.testing.assert_allclose(predicted, [r[2] for r in rows], atol=1e-12)
        loop_ece = sum(n / len(y) * abs(o - q) for n, o, q in rows)
        assert expected_calibration_error(y, p) == pytest.approx(loop_ece, abs=1e-12)


def test_calibrated_probabilities_have_a_small_ece_that_grows_with_the_bins():
    """Outcomes drawn from the stated probabilities: ECE near 0, larger with more bins."""
    rng = np.random.default_rng(0)
    p = rng.random(20_000)
    y = (rng.random(20_000) < p).astype(int)
    few, many = (expected_calibration_error(y, p, bins=b) for b in (5, 500))
    assert few < 0.015 < many
    shifted = expected_calibration_error(y, np.clip(p + 0.1, 0, 1), bins=5)
    assert shifted > 0.07


def test_one_bin_is_the_gap_of_the_means():
    y, p = [0, 1, 1, 1], [0.2, 0.5, 0.9, 0.4]
    assert expected_calibration_error(y, p, bins=1) == pytest.approx(abs(0.75 - 0.5))


def test_exported_from_the_package():
    assert cm.brier_score is brier_score and cm.log_loss is log_loss
    assert cm.reliability_curve is reliability_curve
    assert cm.expected_calibration_error is expected_calibration_error


RELIABILITY_FUNCTIONS = [brier_score, log_loss, reliability_curve, expected_calibration_error]


@pytest.mark.parametrize("f", RELIABILITY_FUNCTIONS, ids=lambda f: f.__name__)
@pytest.mark.parametrize(
    ("y", "proba", "kwargs", "message"),
    [
        ([0, 1], [0.2, 1.5], {}, r"proba has the value 1\.5 at index 1: .*\[0, 1\]"),
        ([0, 1], [-0.1, 0.5], {}, r"value -0\.1 at index 0"),
        ([0, 1], [0.2, np.nan], {}, r"NaN or infinite"),
        ([0, 1], [0.2, np.inf], {}, r"NaN or infinite"),
        ([0, 1, 1], [0.2, 0.5], {}, r"y_true and proba differ in length: 3 vs 2"),
        ([], [], {}, r"empty"),
        ([0, 1], ["a", "b"], {}, r"must hold numbers"),
        ([0, 1], [[[0.5]], [[0.5]]], {}, r"1-d .* or \(N, n\)"),
        ([0, 1], [[0.2, 0.3], [0.5]], {}, r"not a rectangular array"),
        ([0, 1, 2], [0.1, 0.5, 0.9], {}, r"3 classes .* pass pos_label"),
        (["a", "a"], [0.1, 0.5], {}, r"single class 'a'; pass pos_label"),
        ([0, 1], [0.1, 0.5], {"pos_label": 2}, r"pos_label=2 is not a label"),
        ([0, 1], [0.1, 0.5], {"labels": [0, 1]}, r"labels applies to an \(N, n\) matrix"),
        ([0, 1], [[0.5, 0.5], [0.2, 0.8]], {"pos_label": 1}, r"pos_label applies to 1-d"),
        ([0, 0], [[0.5, 0.5], [0.2, 0.8]], {}, r"1 distinct classes \[0\]; pass labels="),
        ([0, 1], [[0.5, 0.4], [0.2, 0.8]], {}, r"proba row 0 sums to 0\.9.*, not 1"),
        ([0, 1], [[0.5, 0.5], [0.2, 0.8]], {"labels": [0, 1, 2]}, r"2 columns but labels"),
        ([0, 3], [[0.5, 0.5], [0.2, 0.8]], {"labels": [0, 1]}, r"y_true contains label 3"),
        ([0, 1], [[0.5, 0.5], [0.2, 0.8]], {"labels": [1, 1]}, r"must not repeat"),
        ([0, 1], [[1.0], [1.0]], {}, r"one column per class"),
        (
            [0, 1, 1],
            np.ma.array([0.1, 0.05, 0.9], mask=[0, 1, 0]),
            {},
            r"proba is a masked array with masked entries",
        ),
        (
            np.ma.array([0, 1, 1], mask=[0, 1, 0]),
            [0.1, 0.05, 0.9],
            {},
            r"y_true is a masked array with masked entries",
        ),
    ],
)
def test_bad_input_is_named(f, y, proba, kwargs, message):
    with pytest.raises(ValueError, match=message):
        f(y, proba, **kwargs)


@pytest.mark.parametrize("f", [reliability_curve, expected_calibration_error])
@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"bins": 0}, r"bins must be at least 1"),
        ({"bins": 2.5}, r"bins must be a positive integer"),
        ({"bins": True}, r"bins must be a positive integer"),
        ({"strategy": "equal"}, r"strategy must be 'uniform' or 'quantile'"),
    ],
)
def test_bad_binning_is_named(f, kwargs, message):
    with pytest.raises(ValueError, match=message):
        f([0, 1], [0.2, 0.8], **kwargs)


def test_pos_label_takes_one_class_against_the_rest():
    y = np.array([0, 1, 2, 2, 1, 0, 2])
    p = np.array([0.1, 0.3, 0.9, 0.6, 0.5, 0.0, 1.0])
    assert brier_score(y, p, pos_label=2) == skm.brier_score_loss(y == 2, p)
    assert log_loss(y, p, pos_label=2) == pytest.approx(skm.log_loss(y == 2, p), rel=1e-12)
    observed, predicted, _ = reliability_curve(y, p, bins=3, pos_label=2)
    ref = calibration_curve(y == 2, p, n_bins=3)
    np.testing.assert_array_equal(observed, ref[0])
    np.testing.assert_array_equal(predicted, ref[1])
