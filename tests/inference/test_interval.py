"""Interval.undefined: the share of resamples where the metric is undefined, left out."""

from __future__ import annotations

import math

import numpy as np

import clfmetrics as cm
from clfmetrics.inference._uncertainty import resample_matrix

# Class 2 is predicted 3 times among 120 items: a resample predicts it never with
# probability (1 - 3/120)**120, about 4.8 %, and its precision is then 0/0.
RARE = np.array([[40, 3, 2], [4, 60, 5], [0, 1, 2]])


def test_share_and_ends_are_those_of_the_defined_resamples():
    iv = cm.interval("macro_precision", RARE, size=4000, rng=0)
    stack = resample_matrix(RARE.astype(float), 4000, np.random.default_rng(0))
    undefined = np.isnan(cm.macro_precision(stack, zero_division="nan"))
    assert iv.undefined == undefined.mean()
    assert 0.03 < iv.undefined < 0.07
    defined = cm.macro_precision(stack)[~undefined]
    low, high = np.quantile(defined, [0.025, 0.975])
    assert (iv.low, iv.high) == (low, high)
    # Counting 0/0 as 0 would have dragged the lower end down.
    assert np.quantile(cm.macro_precision(stack), 0.025) < iv.low


def test_always_defined_metrics_report_zero():
    assert cm.interval("accuracy", RARE, size=500, rng=0).undefined == 0.0
    assert cm.interval("macro_recall", RARE, size=500, rng=0).undefined == 0.0


def test_a_metric_that_returns_nan_is_undefined_there():
    def first_precision(m):
        m = np.asarray(m, dtype=float)
        with np.errstate(invalid="ignore"):
            return m[..., 2, 2] / m[..., 2, :].sum(axis=-1)

    iv = cm.interval(first_precision, RARE, size=2000, rng=1)
    assert 0.03 < iv.undefined < 0.07
    assert not math.isnan(iv.low) and not math.isnan(iv.high)


def test_undefined_everywhere_gives_nan_ends():
    iv = cm.interval(lambda m: np.full(np.shape(m)[:-2], np.nan), RARE, size=50, rng=0)
    assert iv.undefined == 1.0 and math.isnan(iv.low) and math.isnan(iv.high)


def test_paired_interval_counts_a_resample_undefined_for_either_system():
    y = [0] * 50 + [1] * 50 + [2] * 4
    a = [0] * 50 + [1] * 50 + [2, 2, 0, 0]
    b = [0] * 50 + [1] * 49 + [0] + [2, 0, 0, 0]  # predicts class 2 once
    iv = cm.paired_interval("macro_precision", y, a, b, size=3000, rng=0)
    # B never predicts class 2 in a resample with probability (1 - 1/104)**104, about 37 %.
    assert 0.3 < iv.undefined < 0.45


def test_the_default_interval_is_unchanged_by_the_new_field():
    iv = cm.Interval(0.5, 0.4, 0.6, 0.95, "percentile")
    assert iv.undefined == 0.0 and str(iv) == "0.500 [0.400, 0.600] (95% percentile)"
