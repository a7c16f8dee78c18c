"""clfmetrics.inference._simulate: coverage studies of the intervals on simulated matrices."""

from __future__ import annotations

import numpy as np
import pytest

from clfmetrics import (
    coverage,
    coverages,
)

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
