"""clfmetrics.probabilities._classwise: calibration class by class, one-vs-rest."""

from __future__ import annotations

import numpy as np
import pytest

import clfmetrics as cm


def _matrix(rng, n_items=600, n=3):
    logits = rng.normal(0, 1.5, (n_items, n))
    proba = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    y = (rng.random(n_items)[:, None] > np.cumsum(proba, axis=1)).sum(axis=1)
    return y, proba


def test_classwise_ece_is_the_mean_of_each_columns_binary_ece():
    y, proba = _matrix(np.random.default_rng(6))
    per_class = [
        cm.expected_calibration_error(y == k, proba[:, k], pos_label=True, debiased=d)
        for d in (False, True)
        for k in range(3)
    ]
    assert cm.classwise_calibration_error(y, proba) == pytest.approx(np.mean(per_class[:3]))
    assert cm.classwise_calibration_error(y, proba, debiased=True) == pytest.approx(
        np.mean(per_class[3:])
    )
    curves = cm.classwise_reliability(y, proba, bins=5, labels=[0, 1, 2])
    for k in range(3):
        want = cm.reliability_curve(y == k, proba[:, k], bins=5, pos_label=True)
        for got, ref in zip(curves[k], want, strict=True):
            np.testing.assert_allclose(got, ref)
    # The top-label ECE is still there, and differs.
    assert cm.expected_calibration_error(y, proba) != cm.classwise_calibration_error(y, proba)


def test_classwise_needs_a_matrix():
    with pytest.raises(ValueError, match=r"\(N, n\) matrix"):
        cm.classwise_calibration_error([0, 1], [0.2, 0.7])
