"""Bootstrap intervals on counts against resampling items with scikit-learn.

Three measurements, all in one run so that their ratio is meaningful on a
shared machine:

- ``clfmetrics.interval`` for every metric of ``METRICS`` with 10**4 resamples
  of a test set of 10**7 labelled items, for 3 and 13 classes; the time
  includes counting the labels into a confusion matrix (goal: under 1 s each);
- ``clfmetrics.paired_interval`` of macro F1 at 10**7 items, labels included;
- the common item-resampling approach (draw item indices, recompute macro F1
  with scikit-learn) at 10**5 items, side by side with ``interval`` on the same
  items: time, speed-up and both intervals (goal: >= 1000x faster, the same
  interval up to Monte-Carlo error).
"""

from __future__ import annotations

import time

import numpy as np

import clfmetrics as cm


def _labels(n_items: int, n: int, rng, accuracy: float = 0.7):
    y_true = rng.integers(0, n, size=n_items)
    wrong = rng.integers(0, n, size=n_items)
    y_pred = np.where(rng.random(n_items) < accuracy, y_true, wrong)
    return y_true, y_pred


def _seconds(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def bench_interval_rows(n_items: int, size: int, rng) -> list[dict]:
    rows = []
    for n in (3, 13):
        y_true, y_pred = _labels(n_items, n, rng)
        labels = list(range(n))
        count_s = _seconds(lambda t=y_true, p=y_pred, k=labels: cm.confusion_matrix(t, p, k))
        m = cm.confusion_matrix(y_true, y_pred, labels)
        for name in cm.METRICS:
            interval_s = _seconds(lambda k=name, mm=m: cm.interval(k, mm, size=size, rng=0))
            rows.append(
                {
                    "items": n_items,
                    "n": n,
                    "metric": name,
                    "resamples": size,
                    "count_s": count_s,
                    "interval_s": interval_s,
                    "total_s": count_s + interval_s,
                }
            )
    return rows


def bench_paired_row(n_items: int, size: int, rng) -> dict:
    y_true, pred_a = _labels(n_items, 3, rng)
    pred_b = np.where(rng.random(n_items) < 0.9, pred_a, rng.integers(0, 3, n_items))
    start = time.perf_counter()
    iv = cm.paired_interval("macro_f1", y_true, pred_a, pred_b, size=size, rng=0)
    return {
        "items": n_items,
        "n": 3,
        "resamples": size,
        "paired_interval_s": time.perf_counter() - start,
        "difference": iv.estimate,
        "low": iv.low,
        "high": iv.high,
    }


def bench_item_resampling(n_items: int, size: int, rng) -> dict:
    """Index resampling with scikit-learn's f1_score against one multinomial stack."""
    from sklearn.metrics import f1_score

    y_true, y_pred = _labels(n_items, 3, rng)
    labels = [0, 1, 2]
    draw = np.random.default_rng(1)
    scores = np.empty(size)
    start = time.perf_counter()
    for b in range(size):
        idx = draw.integers(0, n_items, size=n_items)
        scores[b] = f1_score(y_true[idx], y_pred[idx], labels=labels, average="macro")
    items_s = time.perf_counter() - start
    low, high = np.quantile(scores, [0.025, 0.975])
    start = time.perf_counter()
    ours = cm.interval("macro_f1", cm.confusion_matrix(y_true, y_pred, labels), size=size, rng=2)
    ours_s = time.perf_counter() - start
    return {
        "items": n_items,
        "resamples": size,
        "sklearn_items_s": items_s,
        "interval_s": ours_s,
        "speedup": items_s / ours_s,
        "sklearn_low": float(low),
        "sklearn_high": float(high),
        "ours_low": ours.low,
        "ours_high": ours.high,
    }


def bench_intervals(quick: bool) -> dict:
    rng = np.random.default_rng(15)
    if quick:
        big, size, item_n, item_size = 10**4, 500, 10**4, 50
    else:
        big, size, item_n, item_size = 10**7, 10**4, 10**5, 10**4
    return {
        "interval": bench_interval_rows(big, size, rng),
        "paired": [bench_paired_row(big, size, rng)],
        "item_resampling": [bench_item_resampling(item_n, item_size, rng)],
    }
