"""Timing a metric on stacks of confusion matrices, for the chapter on speed.

Times are medians of several runs, and every result is also given as a ratio
to one read pass over the same stack (``stack.sum()``), the memory floor: on
a shared machine ratios measured in one run are steadier than seconds.
Convention: ``m[..., i, j]`` = predicted ``i``, true ``j``.
"""

from __future__ import annotations

import statistics
import time

import numpy as np

__all__ = ["count_stack", "median_seconds", "run_times", "time_growth"]


def run_times(fn, repeat: int = 5) -> list[float]:
    """Wall times in seconds of ``repeat`` calls of ``fn()``, after one warm-up call."""
    if isinstance(repeat, bool) or not isinstance(repeat, int) or repeat < 1:
        raise ValueError(f"repeat must be a positive integer; got {repeat!r}")
    fn()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return times


def median_seconds(fn, repeat: int = 5) -> float:
    """Median wall time of ``fn()`` over ``repeat`` runs, after one warm-up run."""
    return statistics.median(run_times(fn, repeat))


def count_stack(size: int, n: int, rng=None, high: int = 50) -> np.ndarray:
    """A stack of ``size`` random ``n x n`` count matrices with entries in ``[1, high)``.

    Every row and column is non-empty, so no metric meets an undefined ratio.
    """
    if size < 1 or n < 2:
        raise ValueError(f"need size >= 1 and n >= 2; got size={size}, n={n}")
    rng = np.random.default_rng(rng)
    return rng.integers(1, high, size=(size, n, n)).astype(np.float64)


def time_growth(metric, sizes, n: int = 3, repeat: int = 3, rng=None) -> dict:
    """Time ``metric`` on stacks of each size in ``sizes`` (matrices of ``n`` classes).

    Returns
    -------
    dict with arrays ``sizes``, ``seconds``, ``floor_seconds`` (one ``stack.sum()``),
    ``ratio`` (seconds / floor) and ``slope``, the least-squares slope of
    log(seconds) against log(size) over the sizes of 10^4 and more: 1 means the
    cost grows linearly with the stack.
    """
    rng = np.random.default_rng(rng)
    sizes = np.asarray(sizes, dtype=np.int64)
    if sizes.ndim != 1 or len(sizes) < 2 or (sizes < 1).any():
        raise ValueError(f"sizes must be at least two positive stack sizes; got {sizes}")
    seconds, floor = [], []
    for size in sizes.tolist():
        stack = count_stack(size, n, rng)
        seconds.append(median_seconds(lambda s=stack: metric(s), repeat))
        floor.append(median_seconds(stack.sum, repeat))
    seconds, floor = np.array(seconds), np.array(floor)
    # Small stacks are dominated by the fixed cost of a call; fit the large ones.
    large = sizes >= 10**4 if (sizes >= 10**4).sum() >= 2 else np.ones(len(sizes), bool)
    slope = float(np.polyfit(np.log(sizes[large]), np.log(seconds[large]), 1)[0])
    return {
        "sizes": sizes,
        "seconds": seconds,
        "floor_seconds": floor,
        "ratio": seconds / floor,
        "slope": slope,
    }
