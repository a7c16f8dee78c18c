"""Bootstrap ends with the linear part as a control variate (Efron 1990), for large AUC/AP.

References: simulated multinomial sums for the cumulants, and the plain percentile
and BCa ends of many more resamples of the same bootstrap for the ends.
"""

from __future__ import annotations

import numpy as np
import pytest

from clfmetrics.inference import _auc as ac
from clfmetrics.inference import _controlled as ct
from clfmetrics.inference._bootstrap import bounds


def big_problem(n_items, seed, distinct=None):
    rng = np.random.default_rng(seed)
    y = rng.random(n_items) < 0.3
    s = rng.normal(1.2 * y, 1.0)
    if distinct:
        s = np.round(s * distinct / 6)
    return y, s


def test_the_cumulants_of_a_multinomial_sum_are_the_class_size_times_one_draws():
    rng = np.random.default_rng(0)
    weights = np.array([3, 1, 7, 2, 12])
    a = np.array([0.5, -2.0, 0.1, 3.0, -0.4])
    k2, k3 = ct.class_cumulants(weights, a)
    sums = rng.multinomial(weights.sum(), weights / weights.sum(), size=400_000) @ a
    d = sums - sums.mean()
    assert np.mean(d**2) == pytest.approx(k2, rel=0.01)
    assert np.mean(d**3) == pytest.approx(k3, rel=0.05)


def test_the_linear_parts_cdf_is_the_normal_one_corrected_for_skewness():
    from statistics import NormalDist

    for x in (-0.3, 0.0, 0.1):
        assert ct.linear_cdf(x, 0.04, 0.0) == pytest.approx(NormalDist(0, 0.2).cdf(x))
    # A right skew (k3 > 0) puts more mass just below the mean and less far below it.
    assert ct.linear_cdf(-0.1, 0.04, 0.0008) > ct.linear_cdf(-0.1, 0.04, 0.0)
    assert ct.linear_cdf(-0.4, 0.04, 0.0008) < ct.linear_cdf(-0.4, 0.04, 0.0)


def test_an_exactly_linear_statistic_has_the_linear_parts_ends_and_no_monte_carlo_error():
    rng = np.random.default_rng(1)
    linear = rng.normal(0, 0.1, 300)
    (low, high), ratio = ct.controlled_ends(0.5 + linear, linear, 0.5, 0.01, 0.0, 0.9, "percentile")
    assert low == pytest.approx(0.5 - 0.1 * 1.6448536, abs=1e-6) and high == pytest.approx(
        0.5 + 0.1 * 1.6448536, abs=1e-6
    )
    assert ratio < 1e-12


def test_the_estimated_cdf_at_an_end_is_its_level():
    """The ends solve G_hat(t) = q, the resamples' correction included (a shifted statistic)."""
    rng = np.random.default_rng(2)
    linear = rng.normal(0, 0.1, 2000)
    stats = 0.5 + linear + 0.01 + rng.normal(0, 0.005, 2000)  # a bias and a remainder
    for method in ("percentile", "bca"):
        (low, high), _ = ct.controlled_ends(stats, linear, 0.5, 0.01, 0.0, 0.95, method, 0.01)
        q_low, q_high = ct.controlled_levels(stats, linear, 0.5, 0.01, 0.0, 0.95, method, 0.01)
        for t, q in ((low, q_low), (high, q_high)):
            assert ct.controlled_cdf(t, stats, linear, 0.5, 0.01, 0.0) == pytest.approx(q, abs=1e-3)
        # The shift of 0.01 is in the ends (the plain quantiles of stats have it too).
        plain = bounds(stats, 0.5, 0.95, method, 0.01)
        assert np.allclose((low, high), plain, atol=0.02)  # plain: 0.006 Monte Carlo error


@pytest.mark.parametrize("metric", ["average_precision", "roc_auc"])
@pytest.mark.parametrize("method", ["percentile", "bca"])
def test_controlled_ends_are_the_plain_ends_of_many_more_resamples(metric, method):
    """The same bootstrap distribution: the ends from the first resamples of the same
    draws, with the control variate, equal the plain ends of 20,000 resamples within their
    Monte Carlo error, and across seeds they vary no more than the plain ends of ``size``."""
    y, s = big_problem(3000, 3)
    cells = ac.cells_of(y, s)
    observed = float(ac.areas(metric, cells, cells.pos[None], cells.neg[None])[0])
    acc = ac.acceleration(metric, cells) if method == "bca" else 0.0
    many = ac.bootstrap_areas(metric, cells, 20_000, np.random.default_rng(4))
    sd = many.std()
    reference = np.array(bounds(many, observed, 0.95, method, acc))
    size = 2000
    plain = np.array(
        [bounds(many[i * size : (i + 1) * size], observed, 0.95, method, acc) for i in range(10)]
    )
    ends = np.array(
        [
            ac.controlled_bounds(metric, cells, observed, 0.95, size, method, rng, acc)
            # SeedSequence.spawn, not Generator.spawn: the library promises numpy 1.24
            for rng in map(np.random.default_rng, np.random.SeedSequence(5).spawn(10))
        ]
    )
    # Agreement with the 20,000 resamples: a quarter of a standard deviation of T*.
    assert np.all(np.abs(ends.mean(axis=0) - reference) < 0.25 * sd), (ends.mean(0), reference)
    assert np.all(ends.std(axis=0) <= 1.25 * plain.std(axis=0)), (ends.std(0), plain.std(0))


def test_the_controlled_draws_are_the_first_of_the_plain_ones(monkeypatch):
    """Fewer resamples, the same ones: the statistics it uses are bootstrap_areas's first."""
    y, s = big_problem(3000, 6)
    cells = ac.cells_of(y, s)
    seen = []
    real = ac.areas
    monkeypatch.setattr(ac, "areas", lambda *a: seen.append(real(*a)) or seen[-1])
    observed = float(real("average_precision", cells, cells.pos[None], cells.neg[None])[0])
    rng = np.random.default_rng(7)
    ac.controlled_bounds("average_precision", cells, observed, 0.95, 5000, "percentile", rng)
    used = np.concatenate(seen)
    monkeypatch.setattr(ac, "areas", real)
    plain = ac.bootstrap_areas("average_precision", cells, 5000, np.random.default_rng(7))
    assert ac.CONTROL_FIRST <= len(used) < 5000
    assert np.array_equal(used, plain[: len(used)])


def test_only_large_problems_with_many_cells_are_controlled():
    y, s = big_problem(100_000, 8)
    assert ac.controlled(ac.cells_of(y, s))  # 30,000 positives, continuous scores
    assert not ac.controlled(ac.cells_of(y, np.round(s, 1)))  # few cells: plain ends
    assert not ac.controlled(ac.cells_of(*big_problem(20_000, 8)))  # 6,000 positives
