"""clfmetrics.inference._simulate: coverage studies of the intervals on simulated matrices."""

from __future__ import annotations

import numpy as np
import pytest

import clfmetrics as cm
from clfmetrics import (
    coverage,
    coverages,
)
from clfmetrics.inference._bootstrap import bounds
from clfmetrics.inference._simulate import resample_sets, set_intervals
from clfmetrics.inference._uncertainty import interval_of_stack

PREVALENCE = np.array([0.5, 0.3, 0.2])


BEHAVIOUR = np.array([[0.80, 0.10, 0.15], [0.15, 0.80, 0.15], [0.05, 0.10, 0.70]])


def test_simulated_coverage_is_near_nominal():
    # Both methods from one set of draws: coverage(..., method=m, rng=0) draws the same test
    # sets and resamples for either method, so this is each one's coverage, at half the cost.
    both = coverages("accuracy", PREVALENCE, BEHAVIOUR, 600, sets=1000, size=1000, rng=0)
    assert sorted(both) == ["bca", "percentile"]
    for c in both.values():
        assert 0.93 <= c <= 0.97
    with pytest.raises(ValueError, match="method"):
        coverage("accuracy", PREVALENCE, BEHAVIOUR, 300, method="normal")


# 20 items from a population whose class 2 is rarely predicted: a resample often predicts
# it never, and macro precision is then 0/0.
SMALL = 20


def _direct(func, tests, stack, method):
    """The interval that interval() computes, test set by test set, from the given resamples."""
    return [interval_of_stack(func, m, stack[:, k], 0.95, method) for k, m in enumerate(tests)]


@pytest.mark.parametrize("method", ["percentile", "bca"])
def test_the_simulated_ends_are_those_of_interval_on_identical_resamples(method):
    func = cm.macro_precision
    rng = np.random.default_rng(3)
    tests = cm.sample_confusion(PREVALENCE, BEHAVIOUR, SMALL, size=300, rng=rng)
    stack = resample_sets(tests, 300, rng)
    low, high = set_intervals(func, tests, stack, 0.95, (method,))[method]
    direct = _direct(func, tests, stack, method)
    # Equal up to the rounding of the acceleration, summed over a stack or one matrix.
    assert np.allclose(low, [iv.low for iv in direct], rtol=0, atol=1e-12)
    assert np.allclose(high, [iv.high for iv in direct], rtol=0, atol=1e-12)
    # The comparison is not vacuous: resamples were left out, and test sets on which the
    # metric is itself undefined keep their 0/0 resamples as interval() does.
    shares = np.array([iv.undefined for iv in direct])
    assert (shares > 0.05).sum() >= 10
    never = (tests.sum(axis=-1) == 0).any(axis=-1)
    assert never.any() and (~never & (shares > 0)).any()


def test_coverages_is_the_coverage_of_interval_not_of_zero_filled_resamples():
    func = cm.macro_precision
    got = coverages("macro_precision", PREVALENCE, BEHAVIOUR, SMALL, sets=400, size=300, rng=5)
    rng = np.random.default_rng(5)
    tests = cm.sample_confusion(PREVALENCE, BEHAVIOUR, SMALL, size=400, rng=rng)
    stack = resample_sets(tests, 300, rng)
    truth = func(PREVALENCE[None, :] * BEHAVIOUR)
    for method in ("percentile", "bca"):
        direct = _direct(func, tests, stack, method)
        assert got[method] == np.mean([iv.low <= truth <= iv.high for iv in direct])
    # Counting each 0/0 as 0, as the study once did, gives a different coverage.
    low, high = bounds(func(stack), func(tests), 0.95, "percentile")
    assert got["percentile"] != np.mean((low <= truth) & (truth <= high))
