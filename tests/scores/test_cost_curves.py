"""Cost curves: the envelope is the least cost of any threshold, its area the expected cost.

The identity checked: with the probability cost PC uniform on [0, 1] and, for each PC,
the threshold of least cost,

    E[min_k NEC_k(PC)] = integral over [0, 1] of the envelope = ``area``.

``area`` is computed exactly from the ROC convex hull (the envelope's kinks). The test
computes the left side by another route, numerically: for each PC of a fine midpoint
grid, the cost matrix of that condition (a false negative costs PC / p(+), a false
positive (1 - PC) / p(-), so that the normalizer is 1) priced on every confusion matrix
of the threshold sweep by ``expected_cost``, the least of them, averaged. The midpoint
rule is exact on the envelope's linear pieces; a cell holding a kink where the slope drops
by d errs by at most d h**2 / 8, and the slopes (FNR - FPR) drop by at most 2 in all: the
two agree to h**2 / 4 (6e-10 at h = 1/20000).
"""

from __future__ import annotations

import numpy as np
import pytest

from clfmetrics import cost_curve, expected_cost, roc_curve, threshold_stack


def _data(seed, n=300, rounded=True):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.35).astype(int)
    s = rng.normal(y * 1.2, 1.0)
    return y, (s.round(1) if rounded else s)


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_area_is_the_expected_cost_over_uniform_operating_conditions(seed):
    y, s = _data(seed, rounded=seed % 2 == 0)
    cc = cost_curve(y, s)
    stack = threshold_stack(y, s)[1]
    prior = np.mean(y == 1)
    h = 1 / 20_000
    pc = (np.arange(20_000) + 0.5) * h
    costs = np.zeros((pc.size, 1, 2, 2))
    costs[:, 0, 0, 1] = pc / prior  # predicted negative, truly positive
    costs[:, 0, 1, 0] = (1 - pc) / (1 - prior)  # predicted positive, truly negative
    least = expected_cost(stack[None], costs).min(axis=1)
    assert least.mean() == pytest.approx(cc.area, abs=h**2 / 4)


def test_the_envelope_is_the_least_of_all_lines():
    y, s = _data(5)
    cc = cost_curve(y, s, grid=501)
    fpr, tpr, _ = roc_curve(y, s)
    brute = np.min(np.outer(1 - cc.pc, fpr) + np.outer(cc.pc, 1 - tpr), axis=1)
    np.testing.assert_allclose(cc.nec, brute, rtol=0, atol=1e-15)
    np.testing.assert_array_equal(cc.lines, np.column_stack([fpr, 1 - tpr]))
    assert (cc.nec <= np.minimum(cc.all_negative, cc.all_positive) + 1e-15).all()
    np.testing.assert_array_equal(cc.all_negative, cc.pc)
    np.testing.assert_array_equal(cc.all_positive, 1 - cc.pc)


def test_trivial_and_perfect_scorers():
    # Every score tied: only the trivial classifiers, the envelope min(PC, 1 - PC).
    assert cost_curve([0, 1, 0, 1], [0.5] * 4).area == pytest.approx(0.25, abs=1e-15)
    # A perfect ranking costs nothing at any condition.
    perfect = cost_curve([0, 0, 1, 1], [0.1, 0.2, 0.8, 0.9])
    assert perfect.area == 0 and (perfect.nec == 0).all()
    # A reversed ranking is no better than the trivial classifiers.
    assert cost_curve([1, 1, 0, 0], [0.1, 0.2, 0.8, 0.9]).area == pytest.approx(0.25)


def test_bad_grid_is_refused():
    with pytest.raises(ValueError, match="grid must be an integer of at least 2"):
        cost_curve([0, 1], [0.1, 0.9], grid=1)
    with pytest.raises(ValueError, match="no positive"):
        cost_curve([0, 0], [0.1, 0.9])
