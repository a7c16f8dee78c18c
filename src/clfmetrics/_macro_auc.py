"""Macro-averaged one-vs-rest ROC AUC of a probability matrix, with a bootstrap interval.

.. math:: AUC_{macro} = \\frac1n \\sum_k AUC(y = k,\\ s_{\\cdot k})

the unweighted mean over the classes of the AUC of column ``k`` for class ``k``
against the rest: scikit-learn's ``roc_auc_score(y, proba, multi_class="ovr",
average="macro")``. The interval resamples the items within each true class (every
class keeps its size, as the report's per-class ranking intervals do), with the
same resample for every column, so the classes' AUCs move together as they do on
a new test set of this class mix. A resample is a weight per item; each column's
AUC under weights is one pass over its sorted distinct scores (ties count 1/2).
"""

from __future__ import annotations

import numpy as np

from ._interval import Interval

#: Resampled items held at once: rows of weights per block.
_BLOCK_NUMBERS = 2**22
#: Resamples x items x classes at most (fewer resamples for large files), but at least
#: MIN_SIZE resamples: the cost of the interval stays bounded.
WORK, MIN_SIZE = 10**8, 200


def _column_auc(weights: np.ndarray, order: np.ndarray, starts: np.ndarray, positive: np.ndarray):
    """AUC of one column for each row of ``weights`` (items sorted by ``order``)."""
    w = weights[:, order]
    pos = np.where(positive[order], w, 0.0)
    neg = w - pos
    if starts.size == order.size:  # no ties: every item is its own distinct score
        pos_c, neg_c = pos, neg
    else:
        pos_c = np.add.reduceat(pos, starts, axis=1)  # weight per distinct score
        neg_c = np.add.reduceat(neg, starts, axis=1)
    below = np.cumsum(neg_c, axis=1) - neg_c
    wins = (pos_c * (below + 0.5 * neg_c)).sum(axis=1)
    return wins / (pos_c.sum(axis=1) * neg_c.sum(axis=1))


def macro_auc(truth: np.ndarray, proba: np.ndarray, weights=None) -> np.ndarray:
    """Macro one-vs-rest AUC for each row of ``weights`` ``(B, N)`` (default: one row of 1s)."""
    n_items, n = proba.shape
    weights = np.ones((1, n_items)) if weights is None else weights
    total = np.zeros(weights.shape[0])
    for k in range(n):
        order = np.argsort(proba[:, k], kind="stable")
        s = proba[order, k]
        starts = np.flatnonzero(np.r_[True, s[1:] != s[:-1]])
        total += _column_auc(weights, order, starts, truth == k)
    return total / n


def macro_auc_interval(truth: np.ndarray, proba: np.ndarray, level: float, size: int, rng):
    """The macro one-vs-rest AUC and its stratified percentile interval; None if undefined.

    ``truth`` holds class codes ``0 .. n-1``, ``proba`` is ``(N, n)``. Undefined
    (None) when a class never occurs, since its AUC is then 0/0.
    """
    n_items, n = proba.shape
    support = np.bincount(truth, minlength=n)
    if (support == 0).any():
        return None
    estimate = float(macro_auc(truth, proba)[0])
    size = min(size, max(MIN_SIZE, WORK // (n_items * n)))
    members = [np.flatnonzero(truth == j) for j in range(n)]
    step = max(1, _BLOCK_NUMBERS // max(n_items * 4, 1))
    values = np.empty(size)
    for start in range(0, size, step):
        rows = min(step, size - start)
        # Each class keeps its size: its items drawn with replacement among themselves.
        drawn = np.concatenate(
            [idx[rng.integers(0, idx.size, (rows, idx.size))] for idx in members], axis=1
        )
        flat = (np.arange(rows)[:, None] * n_items + drawn).ravel()
        weights = np.bincount(flat, minlength=rows * n_items).reshape(rows, n_items)
        weights = weights.astype(np.float64)
        values[start : start + rows] = macro_auc(truth, proba, weights)
    alpha = 1 - level
    low, high = np.quantile(values, [alpha / 2, 1 - alpha / 2])
    return Interval(estimate, float(low), float(high), level, f"percentile, {size} resamples")
