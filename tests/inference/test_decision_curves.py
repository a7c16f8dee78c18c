"""The decision curve's band covers the true curve as often as its level says.

A population with ten score levels and known class-conditional shares has an exact net
benefit at every threshold (and an exact difference between two models). Each replicate
draws a cohort of n items, builds the band from the bootstrap of its items, and asks
whether the whole true curve lies inside; the share of replicates is the simultaneous
coverage, within Monte Carlo error (three standard errors) of the level. The pointwise
intervals, each of one threshold, cover the whole curve less often.
"""

from __future__ import annotations

import numpy as np
import pytest

from clfmetrics import (
    decision_curve,
    decision_curve_from_counts,
    net_benefit_difference,
    net_benefit_difference_from_counts,
)

LEVELS = (np.arange(10) + 0.5) / 10
THRESHOLDS = np.array([0.1, 0.2, 0.3, 0.4, 0.5])
PI = 0.3
LEVEL = 0.9
REPLICATES = 300
N = 600


def _shares(weights):
    return np.asarray(weights, float) / np.sum(weights)


POS_A, NEG_A = _shares(LEVELS), _shares(1 - LEVELS)
POS_B, NEG_B = _shares(np.sqrt(LEVELS)), _shares(np.sqrt(1 - LEVELS))


def _true_nb(pos, neg, prevalence=PI):
    treated_pos = np.array([pos[LEVELS >= t].sum() for t in THRESHOLDS])
    treated_neg = np.array([neg[LEVELS >= t].sum() for t in THRESHOLDS])
    return prevalence * treated_pos - (1 - prevalence) * treated_neg * THRESHOLDS / (1 - THRESHOLDS)


def _cohort(rng, n=N):
    y = rng.random(n) < PI
    a = np.where(y, rng.choice(LEVELS, n, p=POS_A), rng.choice(LEVELS, n, p=NEG_A))
    b = np.where(y, rng.choice(LEVELS, n, p=POS_B), rng.choice(LEVELS, n, p=NEG_B))
    return y.astype(int), a, b


def _inside(truth, low, high):
    return bool(((low <= truth) & (truth <= high)).all())


#: Three binomial standard errors of a share of REPLICATES at LEVEL, plus one replicate.
MONTE_CARLO_ERROR = 3 * np.sqrt(LEVEL * (1 - LEVEL) / REPLICATES) + 1 / REPLICATES


def test_the_band_covers_the_true_decision_curve_at_its_level():
    truth = _true_nb(POS_A, NEG_A)
    rng = np.random.default_rng(0)
    band = pointwise = 0
    for r in range(REPLICATES):
        y, a, _ = _cohort(rng)
        dc = decision_curve(y, a, THRESHOLDS, level=LEVEL, size=400, rng=r)
        band += _inside(truth, dc.low, dc.high)
        pointwise += _inside(truth, dc.pointwise_low, dc.pointwise_high)
    coverage = band / REPLICATES
    assert abs(coverage - LEVEL) < MONTE_CARLO_ERROR, coverage
    assert pointwise / REPLICATES < coverage - 0.05


def test_the_case_control_band_covers_the_population_curve():
    # Cases and controls sampled 1:1; the population's prevalence is PI.
    truth = _true_nb(POS_A, NEG_A)
    rng = np.random.default_rng(1)
    covered = 0
    for r in range(REPLICATES):
        pos = rng.multinomial(N // 2, POS_A)
        neg = rng.multinomial(N // 2, NEG_A)
        dc = decision_curve_from_counts(
            LEVELS, pos, neg, THRESHOLDS, prevalence=PI, level=LEVEL, size=400, rng=r
        )
        covered += _inside(truth, dc.low, dc.high)
    coverage = covered / REPLICATES
    assert abs(coverage - LEVEL) < MONTE_CARLO_ERROR, coverage


def test_the_paired_band_covers_the_true_difference():
    truth = _true_nb(POS_A, NEG_A) - _true_nb(POS_B, NEG_B)
    rng = np.random.default_rng(2)
    covered = 0
    for r in range(REPLICATES):
        y, a, b = _cohort(rng)
        d = net_benefit_difference(y, a, b, THRESHOLDS, level=LEVEL, size=400, rng=r)
        covered += _inside(truth, d.low, d.high)
    coverage = covered / REPLICATES
    assert abs(coverage - LEVEL) < MONTE_CARLO_ERROR, coverage


def test_the_paired_difference_is_the_difference_of_the_curves():
    y, a, b = _cohort(np.random.default_rng(3))
    d = net_benefit_difference(y, a, b, THRESHOLDS, harm=(0.01, 0.0), size=200, rng=0)
    nb_a = decision_curve(y, a, THRESHOLDS, harm=0.01, size=10, rng=0).net_benefit
    nb_b = decision_curve(y, b, THRESHOLDS, size=10, rng=0).net_benefit
    np.testing.assert_allclose(d.difference, nb_a - nb_b, rtol=0, atol=1e-15)
    np.testing.assert_array_equal(d.net_benefit_a, nb_a)
    assert (d.low <= d.difference).all() and (d.difference <= d.high).all()
    # The paired band is narrower than the sum of the two models' half-widths: the two
    # models' errors on the same items are correlated.
    ca = decision_curve(y, a, THRESHOLDS, level=0.95, size=400, rng=1)
    cb = decision_curve(y, b, THRESHOLDS, level=0.95, size=400, rng=2)
    unpaired = (ca.pointwise_high - ca.pointwise_low) + (cb.pointwise_high - cb.pointwise_low)
    assert ((d.pointwise_high - d.pointwise_low) < unpaired).all()


def test_bad_pairs_are_refused():
    with pytest.raises(ValueError, match="differ in length"):
        net_benefit_difference([0, 1, 0], [0.1, 0.9, 0.2], [0.1, 0.9], [0.5])
    with pytest.raises(ValueError, match="one number or a pair"):
        net_benefit_difference([0, 1], [0.1, 0.9], [0.2, 0.8], [0.5], harm=(0.1, 0.2, 0.3))


def test_the_paired_difference_from_counts_is_that_of_the_items():
    y, a, b = _cohort(np.random.default_rng(4))
    pairs, inverse = np.unique(np.column_stack([a, b, y]), axis=0, return_inverse=True)
    n = np.bincount(inverse.ravel())
    for prevalence in (None, 0.2):
        items = net_benefit_difference(
            y, a, b, THRESHOLDS, harm=(0.0, 0.01), prevalence=prevalence, size=300, rng=5
        )
        counted = net_benefit_difference_from_counts(
            pairs[:, 0],
            pairs[:, 1],
            n * (pairs[:, 2] == 1),
            n * (pairs[:, 2] == 0),
            THRESHOLDS,
            harm=(0.0, 0.01),
            prevalence=prevalence,
            size=300,
            rng=5,
        )
        for field in ("difference", "net_benefit_a", "low", "high", "pointwise_high"):
            np.testing.assert_array_equal(getattr(items, field), getattr(counted, field))


def test_the_paired_band_of_binned_counts_is_the_item_bootstraps_by_its_definition():
    """The command line's counts (each pair of bins standing at its lower edges) against the
    band computed by its definition from resamples of the items' indices, scored by
    ``net_benefit`` on the items' own risks: within Monte Carlo error of two bootstraps."""
    from clfmetrics import net_benefit

    y, a, b = _cohort(np.random.default_rng(9), 1500)
    low_edge = np.r_[0.0, THRESHOLDS]  # THRESHOLDS are sorted and distinct
    bins = np.searchsorted(THRESHOLDS, np.column_stack([a, b]), side="right")
    cells, inverse = np.unique(np.column_stack([bins, y]), axis=0, return_inverse=True)
    n, is_pos = np.bincount(inverse.ravel()), cells[:, 2] == 1
    size = 4000
    counted = net_benefit_difference_from_counts(
        low_edge[cells[:, 0]], low_edge[cells[:, 1]], n * is_pos, n * ~is_pos, THRESHOLDS,
        size=size, rng=1,
    )  # fmt: skip
    observed = net_benefit(y, a, THRESHOLDS) - net_benefit(y, b, THRESHOLDS)
    np.testing.assert_allclose(counted.difference, observed, rtol=0, atol=1e-12)
    picks = np.random.default_rng(2).integers(0, y.size, (size, y.size))
    curves = np.array(
        [net_benefit(y[i], a[i], THRESHOLDS) - net_benefit(y[i], b[i], THRESHOLDS) for i in picks]
    )
    # The definition: sup-t over the thresholds (spread at least one item's worth), and the
    # percentile interval of each threshold.
    spread = np.maximum(curves.std(axis=0), 1 / y.size)
    crit = np.quantile((np.abs(curves - observed) / spread).max(axis=1), 0.95)
    low, high = observed - crit * spread, observed + crit * spread
    p_low, p_high = np.quantile(curves, [0.025, 0.975], axis=0)
    half = (high - low) / 2
    tolerance = 0.1 * half  # about three standard errors of two bootstraps of 4,000
    for got, want in ((counted.low, low), (counted.high, high), (counted.pointwise_low, p_low),
                      (counted.pointwise_high, p_high)):  # fmt: skip
        assert (np.abs(got - want) < tolerance).all(), (got, want)
    # and the tolerance tells the simultaneous band from the pointwise one
    assert ((high - low) / 2 - (p_high - p_low) / 2 > 1.5 * tolerance).all()
