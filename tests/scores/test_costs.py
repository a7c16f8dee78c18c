"""Costs: expected_cost, the Bayes threshold, and best_threshold with a cost matrix.

``costs[i, j]`` is the cost of predicting ``i`` when the truth is ``j`` (the book's
orientation, rows = predicted), class order (negative, positive) for two classes.
"""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import make_scorer
from sklearn.model_selection import TunedThresholdClassifierCV, train_test_split

import clfmetrics as cm
from clfmetrics import best_threshold, cost_threshold, expected_cost, threshold_stack


def test_expected_cost_is_the_direct_sum():
    """sum_ij m[i, j] c[i, j] / sum_ij m[i, j], by two Python loops, for matrices and stacks."""
    rng = np.random.default_rng(2)
    for _ in range(200):
        n = int(rng.integers(2, 6))
        stack = rng.integers(0, 20, (int(rng.integers(1, 5)), n, n)).astype(float)
        stack[:, 0, 0] += 1  # no empty matrix
        costs = rng.normal(size=(n, n))
        ours = expected_cost(stack, costs)
        for k, m in enumerate(stack):
            direct = sum(m[i, j] * costs[i, j] for i in range(n) for j in range(n)) / m.sum()
            assert ours[k] == pytest.approx(direct, rel=1e-12, abs=1e-12)
            assert expected_cost(m, costs) == pytest.approx(direct, rel=1e-12, abs=1e-12)
            assert isinstance(expected_cost(m, costs), float)


def test_a_stack_of_cost_matrices_broadcasts():
    m = np.array([[5, 1], [2, 7]])
    costs = np.array([[[0, 1], [1, 0]], [[0, 5], [1, 0]]])
    np.testing.assert_allclose(expected_cost(m, costs), [3 / 15, 7 / 15])


def test_zero_one_costs_are_one_minus_accuracy():
    rng = np.random.default_rng(4)
    stack = rng.integers(1, 30, (50, 4, 4))
    np.testing.assert_allclose(expected_cost(stack, 1 - np.eye(4)), 1 - cm.accuracy(stack))


def test_orientation_rows_are_predictions():
    """A false negative (predicted 0, true 1) is the cell costs[0, 1]."""
    m = cm.confusion_matrix([1], [0], labels=[0, 1])  # one false negative
    assert expected_cost(m, [[0, 7], [3, 0]]) == 7.0


def test_cost_threshold_is_elkans_formula():
    rng = np.random.default_rng(6)
    for _ in range(100):
        c00, c11 = rng.normal(size=2)
        c10 = c00 + rng.exponential()  # a false positive costs more than a true negative
        c01 = c11 + rng.exponential()
        costs = [[c00, c01], [c10, c11]]
        t = cost_threshold(costs)
        assert t == pytest.approx((c10 - c00) / (c10 - c00 + c01 - c11))
        # At p = t both decisions cost the same; above it predicting positive is cheaper.
        assert t * c11 + (1 - t) * c10 == pytest.approx(t * c01 + (1 - t) * c00)
        p = min(1.0, t + 0.01)
        assert p * c11 + (1 - p) * c10 <= p * c01 + (1 - p) * c00
        # Shifting a column (a cost every item of that class pays) and scaling all costs
        # leave the threshold where it is.
        shifted = np.array(costs) + rng.normal(size=2)  # one shift per column
        assert cost_threshold(3.5 * shifted) == pytest.approx(t)
    assert cost_threshold([[0, 1], [1, 0]]) == 0.5
    assert cost_threshold([[0, 5], [1, 0]]) == pytest.approx(1 / 6)


def test_empirical_cost_minimiser_approaches_the_bayes_threshold():
    """On calibrated scores (outcome ~ Bernoulli(score)) the cost-minimising threshold of a
    large sample lies near cost_threshold(costs), and costs about the same."""
    rng = np.random.default_rng(8)
    n_items = 1_000_000
    for costs in ([[0, 5], [1, 0]], [[0, 1], [1, 0]], [[1, 2], [6, 0]]):
        p = rng.random(n_items)
        y = (rng.random(n_items) < p).astype(int)
        bayes = cost_threshold(costs)
        t_hat, cost_hat = best_threshold(costs, y, p)
        assert abs(t_hat - bayes) < 0.02, (costs, t_hat, bayes)
        at_bayes = expected_cost(cm.confusion_matrix(y, (p >= bayes).astype(int)), costs)
        assert cost_hat <= at_bayes < cost_hat + 1e-3


def test_best_threshold_with_costs_minimises_over_the_sweep():
    rng = np.random.default_rng(10)
    for _ in range(50):
        n_items = int(rng.integers(2, 200))
        y = rng.integers(0, 2, n_items)
        y[:2] = [0, 1]
        s = rng.integers(0, 8, n_items) / 7
        costs = rng.exponential(size=(2, 2)) * [[0.1, 1], [1, 0.1]]
        t, value = best_threshold(costs, y, s)
        thresholds, stack = threshold_stack(y, s)
        every = [expected_cost(m, costs) for m in stack]
        assert value == pytest.approx(min(every))
        # the highest of the equally good thresholds
        best = [th for th, v in zip(thresholds, every, strict=True) if v <= min(every) + 1e-12]
        assert t == max(best)


def _cost_scorer(costs):
    def cost(y_true, y_pred):
        return expected_cost(cm.confusion_matrix(y_true, y_pred, labels=[0, 1]), costs)

    return make_scorer(cost, greater_is_better=False)


@pytest.mark.parametrize("seed", range(8))
def test_best_threshold_agrees_with_tuned_threshold_classifier_cv(seed):
    """best_threshold(costs, y_val, scores_val) against scikit-learn on the same split.

    A logistic regression is fitted on a training part; both tools then tune the threshold
    of its ``predict_proba[:, 1]`` on the same validation part: scikit-learn's
    ``TunedThresholdClassifierCV(cv="prefit", refit=False)`` with the scorer "minus the
    mean cost", and ``best_threshold`` with the cost matrix.

    What must agree: given every distinct validation score as its grid
    (``thresholds=``), scikit-learn reaches exactly the smallest cost of our sweep
    (``-best_score_`` equals our value), and scikit-learn's threshold, applied by us,
    costs the same. Where the thresholds may differ: on a flat stretch of the cost
    scikit-learn keeps the lowest threshold (``argmax`` over increasing thresholds) and
    we the highest; both predict positive at ``score >= threshold``. With its default
    grid of 100 evenly spaced thresholds scikit-learn can only do as well or worse.
    """
    rng = np.random.default_rng(seed)
    X, y = make_classification(
        n_samples=1200, weights=[0.8, 0.2], class_sep=0.6, flip_y=0.05, random_state=seed
    )
    X_train, X_val, y_train, y_val = train_test_split(
        X, y, test_size=0.5, stratify=y, random_state=seed
    )
    model = LogisticRegression().fit(X_train, y_train)
    s_val = model.predict_proba(X_val)[:, 1]
    costs = np.array([[0.0, rng.uniform(2, 10)], [1.0, 0.0]])  # false negatives dearer

    t_ours, cost_ours = best_threshold(costs, y_val, s_val)
    assert np.isfinite(t_ours)  # the optimum predicts something, so sklearn's grid has it
    exact = TunedThresholdClassifierCV(
        model,
        scoring=_cost_scorer(costs),
        cv="prefit",
        refit=False,
        thresholds=np.unique(s_val),
    ).fit(X_val, y_val)
    assert -exact.best_score_ == pytest.approx(cost_ours, rel=1e-12)
    t_sk = exact.best_threshold_
    cost_at_sk = expected_cost(cm.confusion_matrix(y_val, (s_val >= t_sk).astype(int)), costs)
    assert cost_at_sk == pytest.approx(cost_ours, rel=1e-12)
    assert t_sk <= t_ours
    assert (exact.predict(X_val) == (s_val >= t_sk)).all()

    grid = TunedThresholdClassifierCV(
        model, scoring=_cost_scorer(costs), cv="prefit", refit=False
    ).fit(X_val, y_val)
    assert -grid.best_score_ >= cost_ours - 1e-12


def test_new_names_are_exported():
    assert cm.expected_cost is expected_cost and cm.cost_threshold is cost_threshold


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: expected_cost([[1, 2], [3, 4]], [[0, 1, 2], [1, 0, 2], [1, 1, 0]]), r"2 x 2"),
        (lambda: expected_cost([[1, 2], [3, 4]], [0, 1]), r"square matrix"),
        (lambda: expected_cost([[1, 2], [3, 4]], [[0, np.nan], [1, 0]]), r"NaN or infinite"),
        (lambda: expected_cost([[1, 2], [3, 4]], [["a", "b"], ["c", "d"]]), r"must hold numbers"),
        (lambda: expected_cost([[1, 2], [3, 4]], [[True, False], [False, True]]), r"numbers"),
        (lambda: expected_cost([[1, -2], [3, 4]], [[0, 1], [1, 0]]), r"^m has a negative"),
        (lambda: expected_cost(np.ones((3, 2, 2)), np.ones((2, 2, 2))), r"does not broadcast"),
        (
            lambda: expected_cost(
                [[1, 2], [3, 4]], np.ma.array([[0, 1], [1, 0]], mask=[[0, 1], [0, 0]])
            ),
            r"costs is a masked array",
        ),
        (lambda: cost_threshold([[0, 1, 1], [1, 0, 1], [1, 1, 0]]), r"one 2 x 2 matrix"),
        (lambda: cost_threshold([[1, 0], [0, 1]]), r"a mistake costs less"),
        (lambda: cost_threshold([[0, 1], [-1, 0]]), r"c10 - c00 = -1"),
        (lambda: cost_threshold([[1, 2], [1, 2]]), r"cost the same"),
        (lambda: cost_threshold([[0, np.inf], [1, 0]]), r"NaN or infinite"),
        (lambda: best_threshold("f1", [0, 1], [0.1, 0.2]), r"must be a function.*cost matrix"),
        (lambda: best_threshold([[0, 1, 1]], [0, 1], [0.1, 0.2]), r"\(2, 2\) cost matrix"),
        (lambda: best_threshold([[0, 1], [1, np.nan]], [0, 1], [0.1, 0.2]), r"NaN or infinite"),
    ],
)
def test_bad_input_is_named(call, message):
    with pytest.raises(ValueError, match=message):
        call()
