"""The intervals beside the explorers' readouts, computed as the library computes them.

- :func:`matrix_intervals`: the proportions of a confusion matrix that have an exact
  interval: accuracy (correct items out of all) and each class's precision (correct out
  of its row) and recall (correct out of its column), Clopper-Pearson, as the
  report's exact intervals (``clfmetrics.reporting._warnings.exact_intervals``).
- :func:`operating_intervals`: the four rates at one threshold of a sweep, as
  :func:`clfmetrics.inference.rates_at_threshold` computes them from the items.
- :func:`metric_intervals`: an interval beside every metric of ``clfmetrics.METRICS``:
  exact for accuracy and the micro averages (which equal it), and the large-sample
  interval of :func:`clfmetrics.inference.jackknife_interval` (estimate +- z times the
  jackknife standard error) for every other metric.
- :func:`width_against_size`: how the accuracy interval narrows when every count is
  multiplied by the same factor (the same proportions, more items).

The page explorers (``_static/clfmetrics.js``, ``clopperPearson``, ``metricIntervals``)
compute the same intervals in the browser; ``tests/book/test_page_intervals.py`` checks the
two agree.
Convention: ``m[i, j]`` = predicted ``i``, true ``j``; in a sweep, class order
(negative, positive), ``m = [[TN, FN], [FP, TP]]``.
"""

from __future__ import annotations

import numpy as np

from clfmetrics import METRICS
from clfmetrics._base.checks import as_confusion
from clfmetrics.inference._binomial import clopper_pearson
from clfmetrics.inference._jackknife import jackknife_interval

__all__ = [
    "EXACT",
    "LEVEL",
    "SCALES",
    "interval_text",
    "matrix_intervals",
    "metric_intervals",
    "operating_intervals",
    "proportion",
    "width_against_size",
]

#: Level of the explorers' intervals.
LEVEL = 0.95
#: Factors of :func:`width_against_size`: the matrix as is, then 2x ... 1000x the counts.
SCALES = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000)
#: Metrics that are k of N (accuracy, and micro P, R, F1, which equal it): exact interval.
EXACT = ("accuracy", "micro_precision", "micro_recall", "micro_f1")


def proportion(k: int, n: int, level: float = 0.95) -> tuple[float, float]:
    """The exact interval of ``k`` out of ``n``; ``(0, 1)`` when ``n = 0`` (nothing is known)."""
    k, n = int(k), int(n)
    return (0.0, 1.0) if n == 0 else tuple(float(x) for x in clopper_pearson(k, n, level))


def matrix_intervals(m, level: float = 0.95) -> dict:
    """Exact intervals of accuracy and of each class's precision and recall.

    Parameters
    ----------
    m : array_like of int, shape (n, n)
        Counts, ``m[i, j]`` = predicted ``i``, true ``j``.
    level : float, default 0.95

    Returns
    -------
    dict
        ``"accuracy"``: ``(low, high)`` of ``trace(m) / sum(m)``; ``"precision"`` and
        ``"recall"``: one ``(low, high)`` per class, of ``m[i, i]`` out of row ``i``
        and out of column ``i``. They assume the items are independent draws.
    """
    arr = np.asarray(as_confusion(m))
    if arr.ndim != 2 or np.any(arr != np.round(arr)):
        raise ValueError("exact intervals need one matrix of whole counts")
    correct, rows, cols = np.diag(arr), arr.sum(axis=1), arr.sum(axis=0)
    return {
        "accuracy": proportion(correct.sum(), arr.sum(), level),
        "precision": [proportion(c, r, level) for c, r in zip(correct, rows, strict=True)],
        "recall": [proportion(c, p, level) for c, p in zip(correct, cols, strict=True)],
    }


def metric_intervals(m, level: float = 0.95) -> dict:
    """An interval for every metric of ``clfmetrics.METRICS`` at the matrix ``m``.

    Parameters
    ----------
    m : array_like of int, shape (n, n)
        Counts, ``m[i, j]`` = predicted ``i``, true ``j``.
    level : float, default 0.95

    Returns
    -------
    dict of str -> (low, high, method)
        ``method`` is ``"exact"`` for the metrics of :data:`EXACT` (Clopper-Pearson of
        ``trace(m)`` out of ``sum(m)``) and ``"jackknife"`` for the others (estimate
        +- z times the jackknife standard error, cut to the metric's range; NaN ends with
        fewer than 2 items). Both assume independent items; the jackknife also a large
        sample.
    """
    arr = np.asarray(as_confusion(m))
    if arr.ndim != 2 or np.any(arr != np.round(arr)):
        raise ValueError("exact intervals need one matrix of whole counts")
    exact = proportion(np.trace(arr), arr.sum(), level)
    out = {}
    for name in METRICS:
        if name in EXACT:
            out[name] = (*exact, "exact")
        elif arr.sum() < 2:
            out[name] = (float("nan"), float("nan"), "jackknife")
        else:
            iv = jackknife_interval(name, arr, level=level)
            out[name] = (iv.low, iv.high, "jackknife")
    return out


def interval_text(low: float, high: float, fmt) -> str:
    """``[low, high]`` with ``fmt``; a zero-width or undefined interval says so in words.

    A width of 0 means that no item's removal changes the metric (the jackknife sees no
    spread), not that the metric is known exactly, so no bracket is printed for it.
    """
    if low != low or high != high:  # NaN: too few items
        return "too few items"
    if low == high:
        return "no spread seen"
    return f"[{fmt(low)}, {fmt(high)}]"


def operating_intervals(m, level: float = 0.95) -> dict:
    """Sensitivity, specificity, precision and NPV of a 2x2 matrix with exact intervals.

    Parameters
    ----------
    m : array_like, shape (2, 2)
        ``[[TN, FN], [FP, TP]]`` (rows = predicted), e.g. ``stack[k]`` of a sweep.

    Returns
    -------
    dict of str -> (estimate, low, high)
        The estimate is NaN where the denominator is 0 (its interval is then [0, 1]),
        as in :func:`clfmetrics.inference.rates_at_threshold`.
    """
    (tn, fn), (fp, tp) = np.asarray(m, dtype=np.int64).tolist()
    out = {}
    for name, k, n in (
        ("sensitivity", tp, tp + fn),
        ("specificity", tn, tn + fp),
        ("precision", tp, tp + fp),
        ("npv", tn, tn + fn),
    ):
        out[name] = (k / n if n else float("nan"), *proportion(k, n, level))
    return out


def width_against_size(m, level: float = 0.95, scales=SCALES) -> dict:
    """Width of the exact accuracy interval when every count is multiplied by each scale.

    Returns
    -------
    dict
        ``"items"``: the total count at each scale; ``"width"``: ``high - low`` of the
        accuracy interval at each scale. The proportions stay; only the count grows, and
        the width shrinks roughly as ``1 / sqrt(items)``.
    """
    arr = np.asarray(as_confusion(m))
    total, correct = int(arr.sum()), int(np.trace(arr))
    if total == 0:
        raise ValueError("the matrix has no items")
    widths = []
    for s in scales:
        low, high = proportion(correct * s, total * s, level)
        widths.append(high - low)
    return {"items": [total * s for s in scales], "width": widths}
