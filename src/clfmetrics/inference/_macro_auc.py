r"""Macro-averaged one-vs-rest ROC AUC of a probability matrix, with its interval.

.. math:: AUC_{macro} = \frac1n \sum_k AUC(y = k,\ s_{\cdot k})

the unweighted mean over the classes of the AUC of column ``k`` for class ``k``
against the rest: scikit-learn's ``roc_auc_score(y, proba, multi_class="ovr",
average="macro")``.

**Bootstrap** (``"percentile"``). The items are resampled within each true class
(every class keeps its size, as the report's per-class ranking intervals do), with
the same resample for every column, so the classes' AUCs move together as they do on
a new test set of this class mix. A resample is an integer weight per item (how many
times it was drawn). Each column is sorted once; a block of resamples then gathers
the weights in that order, sums them per distinct score (the cells: positive and
negative weight at each score, ties count 1/2) and takes the AUC of every resample
from integer cumulative sums: ``O(B N n)`` for ``B`` resamples, exact integers.
``"bca"``: the same resamples with BCa's ends (:func:`acceleration`).

**DeLong** (``"delong"``). DeLong's structural components, generalised to the mean
of the one-vs-rest AUCs with the class sizes fixed: with :math:`V_{10}^k(i)` the
share of the items outside class ``k`` that item ``i`` of class ``k`` outscores in
column ``k``, and :math:`V_{01}^k(i)` the share of class ``k`` that outscores item
``i`` outside it (ties one half), the first-order term of the macro AUC in item ``i``
of class ``j`` is

.. math:: z_i = \frac1n \Big( \frac{V_{10}^j(i)}{n_j}
          + \sum_{k \ne j} \frac{V_{01}^k(i)}{N - n_k} \Big),
   \qquad \operatorname{Var}(AUC_{macro}) = \sum_j n_j\, S_j^2(z),

:math:`S_j^2` the sample variance of ``z`` within class ``j``. For two classes it
is DeLong's :math:`S_{10}/P + S_{01}/N` (DeLong, DeLong & Clarke-Pearson 1988). One
sort per column, ``O(n N log N)``: the report uses it where it uses DeLong for the
per-class AUCs (from ``AUC_DELONG_FROM`` items, where the normal approximation is
accurate and the bootstrap's ``B N n`` is minutes).
"""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np

from .._base.arrays import bincount_onto
from ._auc import ROWS, distinct_scores, group_counts
from ._bootstrap import bounds
from ._interval import Interval

#: Integers gathered at once per block of resamples (rows of weights x items).
_BLOCK_NUMBERS = 2**22
#: Resamples x items x classes at most (fewer resamples for large files), but at least
#: MIN_SIZE resamples: the cost of the interval stays bounded.
WORK, MIN_SIZE = 10**8, 200
#: Methods of :func:`macro_auc_interval`.
METHODS = ("percentile", "bca", "delong")


def _column_cells(score: np.ndarray, positive: np.ndarray) -> tuple[np.ndarray, int]:
    """Each item's cell in one column, ``2 * (rank of its distinct score) + positive``."""
    groups, inverse = np.unique(score, return_inverse=True)
    return 2 * inverse.reshape(-1) + positive, 2 * groups.size


def _cell_auc(counts: np.ndarray, n_pos: int, n_neg: int) -> np.ndarray:
    """AUC of each row of cell counts ``(B, 2 G)`` (negatives, positives at each score)."""
    neg, pos = counts[:, 0::2], counts[:, 1::2]
    below = np.cumsum(neg, axis=1)
    below -= neg
    below *= 2
    below += neg  # twice the negatives below each score, ties once
    # Twice the numerator, a whole number: exact in int64 below 2**62 pairs.
    return np.einsum("bc,bc->b", pos, below) / (2.0 * n_pos * n_neg)


def _column_auc(drawn: np.ndarray, cells: np.ndarray, width: int, n_pos: int, n_neg: int):
    """AUC of one column for each row of ``drawn`` item indices ``(B, N)``."""
    rows = drawn.shape[0]
    at = cells[drawn]
    at += (np.arange(rows) * width)[:, None]
    counts = np.bincount(at.reshape(-1), minlength=rows * width).reshape(rows, width)
    return _cell_auc(counts, n_pos, n_neg)


def macro_auc(truth: np.ndarray, proba: np.ndarray, weights=None) -> np.ndarray:
    """Macro one-vs-rest AUC for each row of ``weights`` ``(B, N)`` (default: one row of 1s).

    The weights are counts (how many times a resample drew each item); they are
    rounded to whole numbers and summed exactly.
    """
    n_items, n = proba.shape
    weights = np.ones((1, n_items)) if weights is None else np.asarray(weights)
    weights = np.rint(weights).astype(np.int64)
    rows = weights.shape[0]
    total = np.zeros(rows)
    for k in range(n):
        positive = truth == k
        cells, width = _column_cells(proba[:, k], positive)
        at = (cells + (np.arange(rows) * width)[:, None]).reshape(-1)
        counts = np.bincount(at, weights.reshape(-1), rows * width)
        counts = counts.astype(np.int64).reshape(rows, width)
        total += _cell_auc(counts, counts[:, 1::2].sum(axis=1), counts[:, 0::2].sum(axis=1))
    return total / n


def _components(score: np.ndarray, positive: np.ndarray, n_pos: int, n_neg: int):
    """One column's DeLong components at each distinct score, and each item's score group.

    Returns ``cell`` (the rank of each item's distinct score), ``v10`` (the share of the
    negatives below each score, ties one half: read for the positives) and ``v01`` (the
    share of the positives above it, ties one half: read for the negatives).
    """
    groups = np.unique(score)
    cell = np.searchsorted(groups, score)
    pos_at = np.bincount(cell[positive], minlength=groups.size)
    neg_at = np.bincount(cell, minlength=groups.size) - pos_at
    return cell, *_shares(pos_at, neg_at, n_pos, n_neg)


def _shares(pos_at, neg_at, n_pos: int, n_neg: int):
    """``v10`` and ``v01`` at each distinct score, from the positives and negatives there."""
    v10 = (np.cumsum(neg_at) - 0.5 * neg_at) / n_neg
    v01 = (n_pos - np.cumsum(pos_at) + 0.5 * pos_at) / n_pos
    return v10, v01


def _delong_terms(truth: np.ndarray, proba: np.ndarray, support: np.ndarray):
    """The macro AUC, and each item's first-order term ``z`` (see the module's formula) as
    an iterator of ``(start, z of items start, start + 1, ...)``, a block of items at a time.

    Each column's distinct scores and their counts come first (:func:`distinct_scores`,
    :func:`group_counts`, ``ROWS`` items at a time), then each item's term is read from a
    table with one entry per cell (``2 * rank + positive``): nothing of N items is held
    but one gathered float per positive of the column in turn (for its exact sum).
    """
    n_items, n = proba.shape
    tables, groups, total = [], [], 0.0
    for k in range(n):
        positive = truth == k
        n_pos, n_neg = support[k], n_items - support[k]
        groups.append(distinct_scores(proba[:, k]))
        every, pos_at = group_counts(proba[:, k], positive, groups[k])
        v10, v01 = _shares(pos_at, every - pos_at, n_pos, n_neg)
        read, done = np.empty(n_pos), 0  # v10 of each positive, in item order
        for start in range(0, n_items, ROWS):
            at = positive[start : start + ROWS]
            cell = np.searchsorted(groups[k], proba[start : start + ROWS, k][at])
            read[done : done + cell.size] = v10[cell]
            done += cell.size
        total += read.sum() / n_pos
        tables.append(np.stack([v01 / n_neg, v10 / n_pos], axis=1).reshape(-1))

    def terms():
        for start in range(0, n_items, ROWS):
            block, z = proba[start : start + ROWS], np.zeros(min(ROWS, n_items - start))
            for k in range(n):
                cell = np.searchsorted(groups[k], block[:, k])
                cell *= 2
                cell += truth[start : start + ROWS] == k
                z += tables[k][cell]
            yield start, z / n

    return total / n, terms()


def acceleration(truth: np.ndarray, proba: np.ndarray, support: np.ndarray) -> float:
    r"""BCa's acceleration from the jackknife over the items within each class.

    Leaving out item ``i`` of class ``j`` moves the AUC of column ``j`` by
    :math:`(AUC_j - V_{10}^j(i)) / (n_j - 1)` and that of every other column ``k`` by
    :math:`(AUC_k - V_{01}^k(i)) / (N - n_k - 1)` (DeLong's components), so all ``N``
    leave-one-out values cost one sort per column. The classes are the bootstrap's
    strata, combined as ``scipy.stats.bootstrap`` combines several samples:
    :math:`a = \sum_j \sum_i U_{ji}^3 / n_j^3 \,/\, (6 (\sum_j \sum_i U_{ji}^2 / n_j^2)^{3/2})`
    with :math:`U_{ji} = (n_j - 1)(\bar\theta_j - \theta_{(ji)})`.
    """
    n_items, n = proba.shape
    moved = np.zeros(n_items)
    for k in range(n):
        positive = truth == k
        n_pos, n_neg = support[k], n_items - support[k]
        cell, v10, v01 = _components(proba[:, k], positive, n_pos, n_neg)
        auc = v10[cell[positive]].sum() / n_pos
        moved += np.where(
            positive, (auc - v10[cell]) / (n_pos - 1), (auc - v01[cell]) / (n_neg - 1)
        )
    theta = moved / n  # the leave-one-out macro AUCs, less the estimate
    num = den = 0.0
    for j in range(n):
        u = (support[j] - 1) * (theta[truth == j].mean() - theta[truth == j])
        num += (u**3).sum() / support[j] ** 3
        den += (u**2).sum() / support[j] ** 2
    return 0.0 if den == 0 else float(num / (6 * den**1.5))


def _delong(truth, proba, support, level: float) -> Interval:
    estimate, terms = _delong_terms(truth, proba, support)
    # The sums of z and z**2 within each class, a block at a time, to the last bit as one
    # np.bincount over all N items.
    sums, squares = np.zeros(support.size), np.zeros(support.size)
    for start, z in terms:
        codes = truth[start : start + z.size]
        sums, squares = bincount_onto(sums, codes, z), bincount_onto(squares, codes, z * z)
    # n_j times the sample variance of z within class j: (sum z^2 - (sum z)^2 / n_j) / (n_j - 1)
    var = float((support * (squares - sums**2 / support) / (support - 1)).sum())
    half = NormalDist().inv_cdf(1 - (1 - level) / 2) * math.sqrt(max(var, 0.0))
    return Interval(estimate, max(estimate - half, 0.0), min(estimate + half, 1.0), level, "delong")


def macro_auc_interval(
    truth: np.ndarray, proba: np.ndarray, level: float, size: int, rng, method="percentile"
):
    """The macro one-vs-rest AUC and its interval; None if undefined.

    ``truth`` holds class codes ``0 .. n-1``, ``proba`` is ``(N, n)``. Undefined
    (None) when a class never occurs, since its AUC is then 0/0, and for
    ``"delong"`` and ``"bca"`` when a class has fewer than 2 items (sample
    variances; the jackknife). ``method`` is ``"percentile"`` (stratified
    bootstrap, ``size`` resamples at most), ``"bca"`` (the same resamples, BCa
    ends with :func:`acceleration`) or ``"delong"`` (normal, from the variance in
    the module's docstring).
    """
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}; got {method!r}")
    n_items, n = proba.shape
    support = np.bincount(truth, minlength=n)
    if (support == 0).any():
        return None
    if method != "percentile" and (support < 2).any():
        return None  # sample variances, or a jackknife that leaves one item of a class out
    if method == "delong":
        return _delong(truth, proba, support, level)
    estimate = float(macro_auc(truth, proba)[0])
    size = min(size, max(MIN_SIZE, WORK // (n_items * n)))
    columns = [_column_cells(proba[:, k], truth == k) for k in range(n)]
    members = [np.flatnonzero(truth == j) for j in range(n)]
    step = max(1, _BLOCK_NUMBERS // max(n_items * 4, 1))
    values = np.empty(size)
    for start in range(0, size, step):
        rows = min(step, size - start)
        # Each class keeps its size: its items drawn with replacement among themselves.
        drawn = np.concatenate(
            [idx[rng.integers(0, idx.size, (rows, idx.size))] for idx in members], axis=1
        )
        total = np.zeros(rows)
        for k, (cells, width) in enumerate(columns):
            total += _column_auc(drawn, cells, width, support[k], n_items - support[k])
        values[start : start + rows] = total / n
    acc = acceleration(truth, proba, support) if method == "bca" else 0.0
    low, high = bounds(values, estimate, level, method, acc)
    return Interval(estimate, float(low), float(high), level, f"{method}, {size} resamples")
