"""clfmetrics.scores._decisions: decisions from probabilities (argmax, prior shift)."""

from __future__ import annotations

import numpy as np
import pytest

from clfmetrics import (
    argmax_predictions,
    bayes_decisions,
    prior_shift,
)


def test_prior_shift_is_bayes_rule_for_a_known_model():
    """Gaussian classes: the posterior under one prior, shifted, is the posterior under another."""
    x = np.linspace(-3, 3, 41)[:, None]
    means = np.array([-1.0, 0.0, 1.5])
    likelihood = np.exp(-0.5 * (x - means) ** 2)
    old, new = np.array([0.6, 0.3, 0.1]), np.array([0.1, 0.2, 0.7])
    posterior = likelihood * old / (likelihood * old).sum(axis=1, keepdims=True)
    expected = likelihood * new / (likelihood * new).sum(axis=1, keepdims=True)
    assert np.allclose(prior_shift(posterior, old, new), expected, atol=1e-14)
    assert np.allclose(prior_shift(posterior, old * 7, new * 3), expected, atol=1e-14)
    assert np.allclose(prior_shift(posterior, old, old), posterior, atol=1e-15)
    before = np.bincount(argmax_predictions(posterior), minlength=3)
    after = np.bincount(argmax_predictions(prior_shift(posterior, old, new)), minlength=3)
    assert after[2] > before[2] and after[0] < before[0]  # the bias follows the prevalence


def test_argmax_predictions_labels_and_ties():
    p = [[0.5, 0.5, 0.0], [0.1, 0.2, 0.7]]
    assert argmax_predictions(p).tolist() == [0, 2]
    assert argmax_predictions(p, labels=["a", "b", "c"]).tolist() == ["a", "c"]


def _proba(seed, n=500, k=4):
    rng = np.random.default_rng(seed)
    return rng.dirichlet(np.ones(k), size=n)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_bayes_decisions_are_the_brute_force_least_cost(seed):
    p = _proba(seed)
    costs = np.random.default_rng(seed + 10).uniform(0, 5, (4, 4))
    decided = bayes_decisions(p, costs)
    for row, d in zip(p, decided, strict=True):
        expected = [sum(costs[i, j] * row[j] for j in range(4)) for i in range(4)]
        assert d == min(range(4), key=lambda i: (expected[i], i))


def test_zero_one_costs_give_the_argmax_and_unequal_costs_do_not():
    p = _proba(3)
    zero_one = 1 - np.eye(4)
    np.testing.assert_array_equal(bayes_decisions(p, zero_one), argmax_predictions(p))
    # Missing class 3 costs ten times any other error: items move to class 3.
    unequal = zero_one.copy()
    unequal[:3, 3] = 10
    decided = bayes_decisions(p, unequal)
    moved = decided != argmax_predictions(p)
    assert moved.sum() > 50
    assert (decided[moved] == 3).all()


@pytest.mark.parametrize(
    ("proba", "costs", "match"),
    [
        ([[0.5, 0.5]], [[0, 1, 1], [1, 0, 1], [1, 1, 0]], r"must be a \(2, 2\) matrix"),
        ([[0.5, 0.5]], [[0, np.nan], [1, 0]], "NaN or infinite"),
        ([[0.5, -0.5]], [[0, 1], [1, 0]], "negative entry"),
        ([0.5, 0.5], [[0, 1], [1, 0]], r"shape \(N, n\)"),
    ],
)
def test_bad_input_is_refused(proba, costs, match):
    with pytest.raises(ValueError, match=match):
        bayes_decisions(proba, costs)
