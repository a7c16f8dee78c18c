"""Exact multinomial draws over cells: each of the three ways is the multinomial.

References: the multinomial's mean n p and covariance n (diag p - p pᵀ), against which
40,000 draws are compared within their Monte Carlo error.
"""

from __future__ import annotations

import numpy as np
import pytest

from clfmetrics.inference import _multinomial as mn


@pytest.mark.parametrize(
    ("counts", "way"),
    [
        ([700, 200, 90, 10], "binomials"),
        ([1] * 40 + [2, 3], "items"),
        ([5, 9, 30, 2, 14] * 3, "items"),  # few cells of under 16 items: e67cb27's items
        ([50, 90, 300, 20, 140] * 12, "binomials"),
        ([5, 9, 30, 2, 14] * 60, "poisson"),
    ],
)
def test_the_three_ways_of_drawing_are_the_multinomial(counts, way):
    counts = np.array(counts)
    # Each way is tested: items, numpy's multinomial, Poisson splitting with a top-up.
    assert mn.way(counts) == way
    n, p = counts.sum(), counts / counts.sum()
    x = mn.draw(counts, 40_000, np.random.default_rng(2))
    assert (x.sum(axis=1) == n).all() and (x >= 0).all()
    se_mean = np.sqrt(n * p * (1 - p) / len(x))
    assert (np.abs(x.mean(axis=0) - n * p) < 5 * se_mean).all()
    cov = n * (np.diag(p) - np.outer(p, p))
    scale = np.sqrt(np.outer(np.diag(cov), np.diag(cov)) * 2 / len(x))
    assert (np.abs(np.cov(x.T) - cov) < 6 * scale + 1e-9).all()


def test_the_poisson_draw_redraws_rows_over_the_total_and_tops_up_the_others():
    class Scripted:
        """Poisson rows from a script (the first row over the total), the rest numpy's."""

        def __init__(self, rows):
            self.rows, self.real = list(rows), np.random.default_rng(0)

        def poisson(self, lam, size):
            return np.array([self.rows.pop(0) for _ in range(size[0])])

        def integers(self, *args, **kwargs):
            return self.real.integers(*args, **kwargs)

    counts = np.array([40, 30, 30])  # n = 100: the Poisson means sum to 70
    x = mn._poisson_topped_up(counts, 2, Scripted([[60, 30, 20], [10, 0, 5], [20, 20, 20]]))
    assert (x.sum(axis=1) == 100).all()
    # Row 0 was over 100 and was drawn again ([20, 20, 20]); each row only gained items.
    assert (x[0] >= [20, 20, 20]).all() and (x[1] >= [10, 0, 5]).all()
