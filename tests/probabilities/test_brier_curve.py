"""Brier curves: the loss of thresholding at the cost proportion; the area is the Brier score.

The identity, with the factor 2 of Hernández-Orallo, Flach & Ferri (2011): a false positive
costs 2c, a false negative 2(1 - c), items are positive where p >= c, and

    integral over c in [0, 1] of Q(c) = (1/n) sum_i (p_i - y_i)**2,

the binary Brier score (``brier_score`` of 1-d probabilities, in [0, 1]).
"""

from __future__ import annotations

import numpy as np
import pytest

from clfmetrics import brier_curve, brier_score


def _data(seed, n=400, rounded=False):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.4).astype(int)
    p = np.clip(rng.beta(2 + 3 * y, 5 - 3 * y), 0, 1)
    return y, (p.round(2) if rounded else p)


@pytest.mark.parametrize(("seed", "rounded"), [(0, False), (1, True), (2, False), (3, True)])
def test_the_area_is_the_brier_score(seed, rounded):
    y, p = _data(seed, rounded=rounded)
    assert brier_curve(y, p).area == pytest.approx(brier_score(y, p), abs=1e-12)


def test_the_loss_is_the_cost_of_thresholding_at_c():
    y, p = _data(4, rounded=True)
    bc = brier_curve(y, p, grid=201)
    for c, loss in zip(bc.cost, bc.loss, strict=True):
        positive = p >= c
        cost = np.where(positive & (y == 0), 2 * c, 0) + np.where(
            ~positive & (y == 1), 2 * (1 - c), 0
        )
        assert loss == pytest.approx(cost.mean(), abs=1e-15)
    # The grid's mean tends to the exact area (a check of the exact integration's pieces).
    fine = brier_curve(y, p, grid=200_001)
    trapezoid = np.sum(np.diff(fine.cost) * (fine.loss[1:] + fine.loss[:-1]) / 2)
    assert trapezoid == pytest.approx(fine.area, abs=1e-4)


def test_perfect_and_constant_probabilities():
    assert brier_curve([0, 1], [0.0, 1.0]).area == 0
    # p = 1/2 for everyone: the Brier score 1/4.
    assert brier_curve([0, 1, 1, 0], [0.5] * 4).area == pytest.approx(0.25, abs=1e-15)


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match=r"probabilities in \[0, 1\]"):
        brier_curve([0, 1], [0.2, 1.5])
    with pytest.raises(ValueError, match="grid must be an integer"):
        brier_curve([0, 1], [0.2, 0.5], grid=0)
    with pytest.raises(ValueError, match="NaN or infinite"):
        brier_curve([0, 1], [0.2, np.nan])
