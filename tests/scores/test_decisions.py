"""clfmetrics.scores._decisions: decisions from probabilities (argmax, prior shift)."""

from __future__ import annotations

import numpy as np

from clfmetrics import (
    argmax_predictions,
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
