"""Exact (Clopper-Pearson) intervals on many classes against scipy's binomtest, same inputs.

One row per problem size: ``K`` pairs ``(k, n)`` as a report with ``K`` classes
meets them (per-class recall: small ``n`` for most classes, a few large), solved
by one vectorised call of :func:`clfmetrics.inference._binomial.clopper_pearson`, and the
reference ``scipy.stats.binomtest(k, n).proportion_ci(level, method="exact")``
called once per pair in the same run. The ratio (ours / scipy, below 1: faster)
is what a shared machine can compare; the largest end difference is reported too.
"""

from __future__ import annotations

import time

import numpy as np

from clfmetrics.inference._binomial import clopper_pearson


def _pairs(classes: int, rng) -> tuple[np.ndarray, np.ndarray]:
    """Class sizes from 1 item to 10**5 (log-uniform), recall around 0.7."""
    n = np.round(10 ** rng.uniform(0, 5, classes)).astype(np.int64)
    k = rng.binomial(n, 0.7)
    return k, n


def bench_exact_row(classes: int, rng) -> dict:
    from scipy import stats

    k, n = _pairs(classes, rng)
    start = time.perf_counter()
    low, high = clopper_pearson(k, n, 0.95)
    ours = time.perf_counter() - start
    start = time.perf_counter()
    refs = [
        stats.binomtest(int(a), int(b)).proportion_ci(0.95, method="exact")
        for a, b in zip(k, n, strict=True)
    ]
    theirs = time.perf_counter() - start
    worst = max(
        max(abs(lo - r.low), abs(hi - r.high)) for lo, hi, r in zip(low, high, refs, strict=True)
    )
    return {
        "classes": classes,
        "ours_s": ours,
        "scipy_s": theirs,
        "ratio_ours_to_scipy": ours / theirs,
        "max_end_difference": float(worst),
    }


def bench_exact(quick: bool) -> list[dict]:
    rng = np.random.default_rng(26)
    return [bench_exact_row(c, rng) for c in ((36,) if quick else (36, 1_000))]
