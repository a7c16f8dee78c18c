"""The screening task of the chapter "Scores and thresholds": data, split, model, grid sweeps."""

from __future__ import annotations

import numpy as np
import pytest

import clfmetrics as cm
from clfbook.examples.screening import (
    INTERCEPT,
    SLOPE,
    THRESHOLDS,
    fit_logistic_1d,
    grid_population,
    grid_stack,
    screening_data,
    screening_scores,
    split_indices,
    split_sweeps,
    threshold_coverage,
    validation_choice,
)
from clfmetrics import best_threshold, threshold_stack


def test_data_is_seeded_and_follows_the_logistic_rule():
    x, y = screening_data(50_000, rng=1)
    again = screening_data(50_000, rng=1)
    assert np.array_equal(x, again[0]) and np.array_equal(y, again[1])
    expected = 1 / (1 + np.exp(-(INTERCEPT + SLOPE * x)))
    # The positives' share matches the mean probability to well within sampling error.
    assert abs(y.mean() - expected.mean()) < 4 * np.sqrt(0.2 * 0.8 / len(y))
    assert 0.15 < y.mean() < 0.25
    with pytest.raises(ValueError, match="n_items"):
        screening_data(0)


def test_split_indices_are_disjoint_parts_of_the_given_sizes():
    parts = split_indices(100, (50, 30, 20), rng=0)
    assert [len(p) for p in parts] == [50, 30, 20]
    assert np.array_equal(np.sort(np.concatenate(parts)), np.arange(100))
    assert all(np.all(np.diff(p) > 0) for p in parts)
    assert not np.array_equal(parts[0], split_indices(100, (50, 30, 20), rng=1)[0])
    assert sum(len(p) for p in split_indices(100, (10, 10), rng=0)) == 20
    with pytest.raises(ValueError, match="sizes"):
        split_indices(10, (6, 6))
    with pytest.raises(ValueError, match="sizes"):
        split_indices(10, (0, 6))


def test_newton_fit_equals_scikit_learns_unpenalised_logistic_regression():
    from sklearn.linear_model import LogisticRegression

    x, y = screening_data(2000, rng=3)
    a, b = fit_logistic_1d(x, y)
    ref = LogisticRegression(C=np.inf, tol=1e-12, max_iter=10_000).fit(x[:, None], y)
    assert a == pytest.approx(ref.intercept_[0], abs=1e-6)
    assert b == pytest.approx(ref.coef_[0, 0], abs=1e-6)
    # Many data sets at once give what each gives alone.
    xs, ys = x.reshape(4, 500), y.reshape(4, 500)
    batch = fit_logistic_1d(xs, ys)
    for k in range(4):
        alone = fit_logistic_1d(xs[k], ys[k])
        assert np.allclose([batch[0][k], batch[1][k]], alone)
    with pytest.raises(ValueError, match="same shape"):
        fit_logistic_1d(x, y[:-1])


def test_grid_stack_repeats_threshold_stack_on_the_grid():
    x, y = screening_data(700, rng=4)
    scores = screening_scores(-1.5, 2.5, x)
    assert np.allclose(scores * 100, np.rint(scores * 100))
    grid = grid_stack(y, scores)
    thresholds, stack = threshold_stack(y, scores)
    # Each distinct score's matrix sits at the grid threshold equal to it.
    at = [0] + [int(np.flatnonzero(np.isclose(THRESHOLDS, t))[0]) for t in thresholds[1:]]
    assert np.array_equal(grid[at], stack)
    # Grid thresholds between two scores repeat the matrix of the next score up.
    k = np.searchsorted(-thresholds, -THRESHOLDS, side="right") - 1
    assert np.array_equal(grid, stack[k])
    # Several sets at once.
    both = grid_stack(np.stack([y, y[::-1]]), np.stack([scores, scores[::-1]]))
    assert both.shape == (2, 102, 2, 2) and np.array_equal(both[0], grid)
    with pytest.raises(ValueError, match=r"multiples of 0\.01"):
        grid_stack(y, scores + 0.003)
    with pytest.raises(ValueError, match="same shape"):
        grid_stack(y[:-1], scores)


def _one_cut(x, y, sizes, seed):
    """The first cut of split_sweeps(..., rng=seed), rebuilt by hand."""
    order = np.argsort(np.random.default_rng(seed).random((1, len(x))), axis=1)[0]
    train, val, test = np.split(order[: sum(sizes)], np.cumsum(sizes)[:-1])
    a, b = fit_logistic_1d(x[train], y[train])
    return (y[val], screening_scores(a, b, x[val])), (y[test], screening_scores(a, b, x[test]))


def test_split_sweeps_and_validation_choice_match_a_cut_done_by_hand():
    x, y = screening_data(900, rng=5)
    sizes = (300, 300, 300)
    val_stacks, test_stacks = split_sweeps(x, y, sizes, 3, rng=7)
    assert val_stacks.shape == test_stacks.shape == (3, 102, 2, 2)
    assert np.all(test_stacks.sum(axis=(-2, -1)) == 300)
    (yv, sv), (yt, st) = _one_cut(x, y, sizes, 7)
    assert np.array_equal(val_stacks[0], grid_stack(yv, sv))
    honest, tuned = validation_choice(cm.macro_f1, val_stacks, test_stacks)
    t_val, _ = best_threshold(cm.macro_f1, yv, sv)
    m_test = cm.confusion_matrix(yt, (st >= t_val).astype(int), labels=[0, 1])
    assert honest[0] == pytest.approx(cm.macro_f1(m_test))
    assert tuned[0] == pytest.approx(best_threshold(cm.macro_f1, yt, st)[1])
    assert np.all(tuned >= honest)
    with pytest.raises(ValueError, match="sizes"):
        split_sweeps(x, y, (300, 300), 2)
    with pytest.raises(ValueError, match="n_splits"):
        split_sweeps(x, y, (500, 300, 300), 2)


def test_validation_choice_takes_the_highest_of_equal_thresholds():
    # A metric read straight from the stack: TP. Validation is flat after index 2.
    val = np.zeros((1, 5, 2, 2))
    val[0, :, 1, 1] = [0, 1, 3, 3, 3]
    test = np.zeros((1, 5, 2, 2))
    test[0, :, 1, 1] = [0, 2, 1, 5, 4]
    honest, tuned = validation_choice(lambda s: s[..., 1, 1], val, test)
    assert honest[0] == 1 and tuned[0] == 5
    with pytest.raises(ValueError, match="one value per matrix"):
        validation_choice(lambda s: s[..., 1], val, test)


def test_grid_population_is_the_limit_of_the_sampled_sweeps():
    pop = grid_population(-2.0, 1.9)
    assert np.allclose(pop.sum(axis=(1, 2)), 1.0)
    x, y = screening_data(400_000, rng=3)
    sampled = grid_stack(y, screening_scores(-2.0, 1.9, x)) / len(y)
    # Every cell of every threshold within five standard errors of its sampled share.
    assert np.all(np.abs(sampled - pop) <= 5 * np.sqrt(pop * (1 - pop) / len(y)) + 1e-12)


def test_threshold_coverage_counts_both_targets_of_both_intervals():
    got = threshold_coverage(INTERCEPT, SLOPE, 300, 300, repetitions=20, size=200, rng=0)
    assert set(got) == {"test_only", "rule"}
    for row in got.values():
        assert set(row) == {"deployed", "recipe"}
        assert all(0.6 <= share <= 1 and share * 20 == round(share * 20) for share in row.values())
