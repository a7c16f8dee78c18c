"""clfmetrics.inference._decisions: the expected cost of Bayes decisions, with its interval."""

from __future__ import annotations

import numpy as np
import pytest

from clfmetrics import argmax_predictions, bayes_cost_interval, bayes_decisions


def _proba(seed, n=500, k=4):
    rng = np.random.default_rng(seed)
    return rng.dirichlet(np.ones(k), size=n)


def test_the_cost_of_the_decisions_and_its_interval():
    rng = np.random.default_rng(4)
    p = _proba(4, n=2000, k=3)
    y = np.array([rng.choice(3, p=row) for row in p])  # calibrated by construction
    costs = np.array([[0, 1, 8], [1, 0, 8], [1, 1, 0]], float)
    decided = bayes_decisions(p, costs)
    iv = bayes_cost_interval(y, p, costs, size=2000, rng=0)
    assert iv.estimate == pytest.approx(costs[decided, y].mean(), abs=1e-15)
    assert iv.low < iv.estimate < iv.high
    # Bootstrap standard error of a mean cost: the interval's width is about 2 x 1.96 se.
    se = costs[decided, y].std() / np.sqrt(len(y))
    assert iv.high - iv.low == pytest.approx(2 * 1.96 * se, rel=0.15)
    # The argmax, blind to the costs, costs more on these calibrated probabilities.
    assert costs[argmax_predictions(p), y].mean() > iv.high


def test_labels_name_the_columns():
    p = [[0.7, 0.3], [0.4, 0.6], [0.8, 0.2], [0.9, 0.1]] * 10
    y = ["no", "yes", "yes", "no", "yes", "no", "no", "no"] * 5
    a = bayes_cost_interval(y, p, [[0, 5], [1, 0]], size=200, rng=0)
    b = bayes_cost_interval([int(v == "yes") for v in y], p, [[0, 5], [1, 0]], size=200, rng=0)
    assert a == b


def test_bad_labels_are_refused():
    with pytest.raises(ValueError, match="3 classes but proba has 2 columns"):
        bayes_cost_interval([0, 1, 2], [[0.5, 0.5]] * 3, [[0, 1], [1, 0]], size=10)
    with pytest.raises(ValueError, match="differ in length"):
        bayes_cost_interval([0, 1], [[0.5, 0.5]] * 3, [[0, 1], [1, 0]], size=10)
