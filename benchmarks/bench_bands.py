"""ROC bands from the cell bootstrap against resampling items with scikit-learn's roc_curve.

Two rows, each with its reference measured in the same run (ratios, not seconds,
are what a shared machine can compare):

- ``roc_band`` at 10**6 scores with 1,000 distinct values, 2,000 resamples (goal:
  under 2 s), and ``pr_band`` on the same data.
- ``roc_band`` at 10**5 continuous scores, 2,000 resamples (goal: at least 10 times
  faster than the reference).

Reference: stratified item resampling, ``sklearn.metrics.roc_curve`` on each
resample and ``np.interp`` onto the same 101-point FPR grid; timed on a few
resamples and scaled linearly to 2,000. Wall and CPU seconds are both given: on a
shared machine the CPU time (and the ratio of CPU times) is the steadier figure.
"""

from __future__ import annotations

import time

import numpy as np
from bench_auc import _problem  # the same binormal problem as the AUC rows

import clfmetrics as cm


def _seconds(fn):
    start, cpu = time.perf_counter(), time.process_time()
    out = fn()
    return time.perf_counter() - start, time.process_time() - cpu, out


def item_curves_seconds(y, s, resamples: int, rng):
    """Stratified item resampling, roc_curve and np.interp per resample: wall and CPU s."""
    from sklearn.metrics import roc_curve

    pos, neg = np.flatnonzero(y), np.flatnonzero(~y)
    grid = np.linspace(0, 1, 101)

    def run():
        for _ in range(resamples):
            idx = np.concatenate([rng.choice(pos, pos.size), rng.choice(neg, neg.size)])
            fpr, tpr, _ = roc_curve(y[idx], s[idx])
            np.interp(grid, fpr, tpr)

    roc_curve(y[:10], s[:10])  # warm-up: the first call pays for imports
    wall, cpu, _ = _seconds(run)
    return wall, cpu


def bench_row(n_items: int, distinct: int | None, size: int, reference: int, rng) -> dict:
    y, s = _problem(n_items, distinct, rng)
    row = {"items": n_items, "distinct": int(np.unique(s).size), "resamples": size}
    row["roc_band_s"], cpu, band = _seconds(lambda: cm.roc_band(y, s, size=size, rng=0))
    row["roc_band_cpu_s"] = cpu
    row["mean_width"] = float(np.mean(band.high - band.low))
    row["pr_band_s"], _, _ = _seconds(lambda: cm.pr_band(y, s, size=size, rng=0))
    try:
        wall, ref_cpu = item_curves_seconds(y, s, reference, np.random.default_rng(1))
    except ImportError:  # scikit-learn is a test dependency
        row["reference"] = "scikit-learn not installed"
        return row
    row["sklearn_resamples_timed"] = reference
    row["sklearn_items_s_scaled"] = wall * size / reference
    row["speedup"] = row["sklearn_items_s_scaled"] / row["roc_band_s"]
    row["cpu_speedup"] = ref_cpu * size / reference / cpu
    return row


def bench_bands(quick: bool) -> dict:
    rng = np.random.default_rng(27)
    if quick:
        big, distinct, cont, size, few, many = 10**4, 100, 10**3, 200, 2, 20
    else:
        big, distinct, cont, size, few, many = 10**6, 1000, 10**5, 2000, 3, 60
    return {
        "distinct": [bench_row(big, distinct, size, few, rng)],
        "continuous": [bench_row(cont, None, size, many, rng)],
    }
