r"""ROC AUC and average precision with their uncertainty, and DeLong's test of two AUCs.

**Cells.** Both areas depend on the items only through how many positives and how
many negatives share each distinct score: after one sort a test set is a list of
*cells* (distinct score, class) with their counts, and a resample of the items is a
resample of those counts. With :math:`p_c` the count of positive cell ``c``,
:math:`P, N` the class sizes, :math:`b_c` and :math:`t_c` the negatives below and
tied with it, :math:`T_c` the positives and :math:`D_c` all items scoring at least as
high:

.. math::

    AUC = \frac{1}{PN} \sum_c p_c \left(b_c + \tfrac12 t_c\right), \qquad
    AP = \frac1P \sum_c p_c \frac{T_c}{D_c}.

**Intervals.** :func:`auc_interval` and :func:`ap_interval` resample the two classes
separately (each keeps its size, as pROC's default bootstrap does), by percentile or
BCa ends, or take DeLong's variance for the AUC (in Sun & Xu's ``O(N log N)`` form), on
the AUC's scale or the logit's, or Newcombe's score interval; :func:`compare_auc` is
DeLong's paired test. How often each covers the true AUC when a class is small is
simulated in ``_small_classes.py``. With many items and many cells (``CONTROL_ITEMS``
in the smaller class, ``CONTROL_CELLS`` cells) the bootstrap's ends are estimated from
fewer of the same resamples, with the linear part of the area as a control variate
(:mod:`._controlled`, Efron 1990): the same bootstrap distribution, its quantiles as
precise as the plain ones from ``size``.

References: DeLong, DeLong & Clarke-Pearson (1988); Sun & Xu (2014); Robin et al.
(2011, pROC); Efron & Tibshirani (1993); Newcombe (2006); Pohar Perme & Manevski (2019).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

from .._base.checks import reject_masked
from .._base.numbers import fixed
from ..scores import positives
from . import _bootstrap as rs
from . import _controlled as ct
from ._bootstrap import bounds
from ._interval import Interval
from ._multinomial import draw, way

_BLOCK = 2**21  # numbers per array in one block of resamples


@dataclass(frozen=True)
class Cells:
    """Counts of (distinct score, class) cells, both classes in increasing order of score.

    ``pos_group``/``neg_group`` index the distinct scores of the positive and
    negative cells, ``pos``/``neg`` their counts; ``below[c]`` is the number of
    negative cells whose score is below positive cell ``c``, ``tied[c]`` the
    negative cell with the same score (or -1).
    """

    pos_group: np.ndarray
    neg_group: np.ndarray
    pos: np.ndarray
    neg: np.ndarray
    below: np.ndarray
    tied: np.ndarray

    @property
    def sizes(self) -> tuple[int, int]:
        return int(self.pos.sum()), int(self.neg.sum())


def _runs(sorted_scores: np.ndarray):
    """Distinct values of a sorted array and how many items hold each."""
    if sorted_scores.size == 0:
        return sorted_scores, np.zeros(0, np.int64)
    starts = np.flatnonzero(np.r_[True, sorted_scores[1:] != sorted_scores[:-1]])
    return sorted_scores[starts], np.diff(np.r_[starts, sorted_scores.size])


def _sorted(x: np.ndarray) -> np.ndarray:
    """``x`` (a fresh copy) sorted in place: ``np.sort`` would hold a second copy."""
    x.sort()
    return x


def cells_of(is_pos: np.ndarray, s: np.ndarray) -> Cells:
    """The cells of a checked binary problem: each class's scores sorted apart.

    Sorting the two classes' scores separately (in place, one copy of the scores at
    a time) holds about one float per item at once, where a sort of all the items
    with their ranks (``np.unique(..., return_inverse=True)``) held five.
    """
    pos_values, pos = _runs(_sorted(s[is_pos]))
    neg_values, neg = _runs(_sorted(s[~is_pos]))
    groups = np.union1d(pos_values, neg_values)
    pos_group = np.searchsorted(groups, pos_values)
    neg_group = np.searchsorted(groups, neg_values)
    return _cells(pos_group, neg_group, pos, neg)


#: Items grouped at a time by :func:`class_cells` (a few MB of temporaries, whatever N).
ROWS = 2**18


def distinct_scores(s: np.ndarray) -> np.ndarray:
    """The sorted distinct values of ``s`` (``np.unique(s)``), a block of items at a time:
    no sorted copy of the N scores is held (``s`` may be a column of a matrix)."""
    found = [s[:0]]
    for start in range(0, len(s), ROWS):
        found.append(np.unique(s[start : start + ROWS]))
        if len(found) > 32:
            found = [np.unique(np.concatenate(found))]
    return np.unique(np.concatenate(found))


def group_counts(s: np.ndarray, is_pos: np.ndarray, groups: np.ndarray):
    """How many items, and how many positives, score each of ``groups``, a block at a time."""
    every, pos = np.zeros(groups.size, np.int64), np.zeros(groups.size, np.int64)
    for start in range(0, len(s), ROWS):
        at = np.searchsorted(groups, s[start : start + ROWS])
        every += np.bincount(at, minlength=groups.size)
        pos += np.bincount(at[is_pos[start : start + ROWS]], minlength=groups.size)
    return every, pos


def class_cells(is_pos: np.ndarray, s: np.ndarray) -> Cells:
    """:func:`cells_of`'s cells (the same integers), counted a block of items at a time.

    The report's columns: ``s`` may be a column of the ``(N, n)`` matrix, read in place;
    besides ``is_pos``, nothing of N items is held (``cells_of`` copies each class's
    scores to sort them: 8 bytes an item).
    """
    every, pos = group_counts(s, is_pos, distinct_scores(s))
    neg = every - pos
    pos_group, neg_group = np.flatnonzero(pos), np.flatnonzero(neg)
    return _cells(pos_group, neg_group, pos[pos_group], neg[neg_group])


def _cells(pos_group, neg_group, pos, neg) -> Cells:
    """Cells from their groups and counts: where each positive cell sits among the negatives."""
    below = np.searchsorted(neg_group, pos_group, side="left")
    tied = np.where(
        (below < neg_group.size) & (neg_group[np.minimum(below, neg_group.size - 1)] == pos_group),
        below,
        -1,
    )
    return Cells(pos_group, neg_group, pos, neg, below, tied)


def merged_negatives(cells: Cells) -> Cells:
    """The same cells with the negative cells between two positive cells merged into one.

    Both areas see the negatives only through how many lie below and how many tie
    with each positive cell, so the negatives strictly between two consecutive
    positive scores (or below the lowest, or above the highest) count as one cell,
    and those tied with a positive cell as another: at most ``2 Cp + 1`` negative
    cells. Sums of multinomial counts are multinomial with the summed shares, so a
    resample of the merged cells is a resample of the original ones, summed; each
    merged cell keeps the score group of its highest member.
    """
    gap = np.searchsorted(cells.pos_group, cells.neg_group, side="left")
    inside = gap < cells.pos_group.size
    on = np.zeros(gap.size, bool)
    on[inside] = cells.pos_group[gap[inside]] == cells.neg_group[inside]
    key = 2 * gap + on  # non-decreasing: the negatives are in increasing order of score
    starts = np.flatnonzero(np.r_[True, key[1:] != key[:-1]])
    if starts.size == key.size:
        return cells
    last = np.r_[starts[1:], key.size] - 1
    neg = np.add.reduceat(cells.neg, starts)
    return _cells(cells.pos_group, cells.neg_group[last], cells.pos, neg)


def checked_cells(y_true, scores, pos_label) -> Cells:
    """Validate a binary problem (both classes present) and return its cells."""
    reject_masked(y_true, "y_true")
    reject_masked(scores, "scores")
    if np.ndim(scores) != 1:
        raise ValueError(
            f"scores must be a 1-d array, one score per item (binary problem); got shape "
            f"{np.shape(scores)}"
        )
    s, is_pos = positives(y_true, scores, pos_label)
    n_pos = int(is_pos.sum())
    if n_pos == 0 or n_pos == len(s):
        which = "positive" if n_pos == 0 else "negative"
        raise ValueError(
            f"y_true has no {which} item: the AUC and AP need both classes in the test set"
        )
    return cells_of(is_pos, s)


def _negatives_at(cells: Cells, neg: np.ndarray):
    """Negatives below and tied with each positive cell, for counts ``neg`` of shape (B, Cn).

    Counts stay integers (int64): their cumulative sums are exact, and numpy's
    integer ``cumsum`` is several times faster than its float one.
    """
    cum = np.zeros((neg.shape[0], neg.shape[1] + 1), dtype=neg.dtype)
    np.cumsum(neg, axis=1, out=cum[:, 1:])
    below = cum[:, cells.below]
    if (cells.tied < 0).all():  # no score shared by the two classes (continuous scores)
        return below, np.zeros_like(below)
    tied = np.where(cells.tied >= 0, neg[:, np.maximum(cells.tied, 0)], 0)
    return below, tied


def areas(metric: str, cells: Cells, pos: np.ndarray, neg: np.ndarray) -> np.ndarray:
    """AUC or AP of every resample, from counts ``pos`` (B, Cp) and ``neg`` (B, Cn)."""
    n_pos, n_neg = cells.sizes
    if metric == "roc_auc":
        below, tied = _negatives_at(cells, neg)
        # Twice the numerator, a whole number: exact in int64 below 2**62 pairs.
        twice = (pos * (2 * below + tied)).sum(axis=1)
        return twice / (2.0 * n_pos * n_neg)
    # Items at or above each positive cell: positives at or above it (a reversed cumulative
    # sum) plus the negatives not below it; AP needs no ties apart.
    cum = np.zeros((neg.shape[0], neg.shape[1] + 1), dtype=neg.dtype)
    np.cumsum(neg, axis=1, out=cum[:, 1:])
    at_least = cum.take(cells.below, axis=1)
    np.subtract(n_neg, at_least, out=at_least)
    above_pos = np.cumsum(pos[:, ::-1], axis=1)[:, ::-1]
    at_least += above_pos
    # A cell empty in a resample may have nothing at or above it (0 / 0): its weight is 0
    # anyway, and 0 / 1 gives it.
    np.maximum(at_least, 1, out=at_least)
    return np.einsum("bc,bc->b", pos, above_pos / at_least) / n_pos


def _blocks(cells: Cells, size: int, rng):
    """``size`` resampled counts of the cells, ``(pos, neg)`` a block of rows at a time.

    Blocks of about ``_BLOCK`` numbers bound the memory; the draws are the same
    whatever the block size.
    """
    width = 0
    for counts in (cells.pos, cells.neg):
        width += counts.size + (int(counts.sum()) if way(counts) == "items" else 0)
    step = max(1, _BLOCK // max(width, 1))
    for start in range(0, size, step):
        rows = min(step, size - start)
        yield draw(cells.pos, rows, rng), draw(cells.neg, rows, rng)


def bootstrap_areas(metric: str, cells: Cells, size: int, rng) -> np.ndarray:
    """``size`` stratified bootstrap values of the metric, in blocks that bound the memory.

    The negatives are resampled through :func:`merged_negatives` (fewer cells, the
    same distribution of both areas).
    """
    cells = merged_negatives(cells)
    blocks = _blocks(cells, size, rng)
    return np.concatenate([areas(metric, cells, pos, neg) for pos, neg in blocks])


#: Cells (positive and merged negative) from which a bootstrap of many items is a large
#: cost (a resample a millisecond or more), and :func:`controlled_bounds` is used.
CONTROL_CELLS = 2**15

#: Resamples :func:`controlled_bounds` draws at least, then a hundred at a time.
CONTROL_FIRST, CONTROL_STEP = 200, 100


def controlled(cells: Cells) -> bool:
    """Whether the ends come from :func:`controlled_bounds`: many items, many cells."""
    return (
        min(cells.sizes) >= ct.CONTROL_ITEMS
        and cells.pos.size + merged_negatives(cells).neg.size >= CONTROL_CELLS
    )


def linear_coefficients(metric: str, cells: Cells, observed: float):
    r"""Coefficients of the linear part :math:`L^*` on the positive and negative cells.

    The jackknife's empirical influence of an item of class :math:`j`,
    :math:`l = (n_j - 1)(\hat\theta - \theta_{(i)})`, over :math:`n_j`: the resample's
    linear part is :math:`\sum_c (f_c - n_c)\, l_c / n_j`.
    """
    drop_pos, drop_neg = jackknife(metric, cells)
    n_pos, n_neg = cells.sizes
    return (
        (n_pos - 1) * (observed - drop_pos) / n_pos,
        (n_neg - 1) * (observed - drop_neg) / n_neg,
    )


def _dot(counts: np.ndarray, coefficients: np.ndarray, width: int = 2**16) -> np.ndarray:
    """``counts @ coefficients`` for int64 counts (B, C), a slice of columns at a time.

    numpy's matrix product of integers and floats is slow, and converting the whole
    block to floats would hold 8 bytes a cell; slices of ``width`` columns hold a
    fixed amount.
    """
    out = np.zeros(counts.shape[0])
    for start in range(0, counts.shape[1], width):
        part = slice(start, start + width)
        out += counts[:, part].astype(np.float64) @ coefficients[part]
    return out


def controlled_bounds(metric, cells: Cells, observed, level, size, method, rng, acc=0.0):
    """The ends of the bootstrap of ``size`` resamples, from as few as are needed.

    Resamples are drawn (the same draws as :func:`bootstrap_areas`, fewer of them)
    until both ends of the control-variate estimate (:mod:`._controlled`) are at
    least as precise as the plain ends from ``size`` resamples, or ``size`` are
    drawn: the same bootstrap distribution, with its quantiles estimated from its
    linear part (known) and the resamples' departures from it.
    """
    cells = merged_negatives(cells)
    a_pos, a_neg = linear_coefficients(metric, cells, observed)
    k2 = k3 = 0.0
    for weights, coefficients in ((cells.pos, a_pos), (cells.neg, a_neg)):
        v, t = ct.class_cumulants(weights, coefficients)
        k2, k3 = k2 + v, k3 + t
    offset = cells.pos @ a_pos + cells.neg @ a_neg
    stats, linear = [], []
    drawn, check = 0, CONTROL_FIRST
    for pos, neg in _blocks(cells, size, rng):
        stats.append(areas(metric, cells, pos, neg))
        linear.append(_dot(pos, a_pos) + _dot(neg, a_neg) - offset)
        drawn += len(pos)
        if drawn >= check or drawn == size:
            t, lin = np.concatenate(stats), np.concatenate(linear)
            ends, ratio = ct.controlled_ends(t, lin, observed, k2, k3, level, method, acc)
            if ratio <= drawn / size or drawn == size:
                return ends
            check = drawn + CONTROL_STEP
    raise AssertionError("unreachable: the last block returns")  # pragma: no cover


def jackknife(metric: str, cells: Cells):
    r"""Leave-one-out values of the metric: one per positive cell and one per negative cell.

    For the AUC they follow from DeLong's components: leaving out a positive
    with component :math:`V_{10}` gives :math:`(P \cdot AUC - V_{10}) / (P - 1)`, and a
    negative :math:`(N \cdot AUC - V_{01}) / (N - 1)`. For AP, leaving out an item
    changes the precision of every positive cell at or below its score, by one
    item (and one positive); prefix and suffix sums give all of them at once.
    """
    n_pos, n_neg = cells.sizes
    pos = cells.pos.astype(np.float64)
    if metric == "roc_auc":
        v10, v01 = components(cells)
        auc = pos @ v10 / n_pos
        return (n_pos * auc - v10) / (n_pos - 1), (n_neg * auc - v01) / (n_neg - 1)
    # In place where it can be (the same arithmetic, fewer arrays of one number a cell
    # alive at once: with continuous scores there are as many cells as items).
    reach = _negatives_at(cells, cells.neg[None])[0][0].astype(np.float64)
    np.subtract(n_neg, reach, out=reach)  # negatives not below each positive cell
    top = np.cumsum(pos)
    top -= pos
    np.subtract(n_pos, top, out=top)  # positives at or above each positive cell
    reach += top  # all items at or above it
    term = pos * top
    term /= reach
    short = reach <= 1
    reach -= 1
    with np.errstate(divide="ignore", invalid="ignore"):
        # Dropping a negative: the cells at or below its score lose one item.
        thinner = pos * top
        thinner /= reach
        thinner[short] = 0.0
        # Dropping a positive of cell c: cells below c lose one positive and one item.
        top -= 1
        lower = pos * top
        lower /= reach
        lower[short] = 0.0
        own = pos - 1
        own *= top
        own /= reach
        own[short] = 0.0
    del reach, top, short
    lower_before = np.concatenate([[0.0], np.cumsum(lower)])[:-1]
    term_after = np.concatenate([np.cumsum(term[::-1])[::-1][1:], [0.0]])
    drop_pos = (lower_before + own + term_after) / (n_pos - 1)
    split = np.searchsorted(cells.pos_group, cells.neg_group, side="right")
    thin_cum = np.concatenate([[0.0], np.cumsum(thinner)])
    term_cum = np.concatenate([[0.0], np.cumsum(term)])
    drop_neg = (thin_cum[split] + term_cum[-1] - term_cum[split]) / n_pos
    return drop_pos, drop_neg


def acceleration(metric: str, cells: Cells) -> float:
    r"""BCa acceleration from the jackknife within each class, combined as scipy does.

    With :math:`d_i = \bar\theta_j - \theta_{(i)}` the jackknife deviations of class
    :math:`j` (:math:`n_j` items), ``scipy.stats.bootstrap`` scales them by
    :math:`(n_j - 1)/n_j` before summing over both classes:

    .. math:: a = \frac{\sum_j ((n_j-1)/n_j)^3 \sum_i d_i^3}
                       {6 \left(\sum_j ((n_j-1)/n_j)^2 \sum_i d_i^2\right)^{3/2}}
    """
    num = den = 0.0
    for values, weights in zip(jackknife(metric, cells), (cells.pos, cells.neg), strict=True):
        n = weights.sum()
        d = weights @ values / n - values
        num += ((n - 1) / n) ** 3 * (weights @ d**3)
        den += ((n - 1) / n) ** 2 * (weights @ d**2)
    return 0.0 if den == 0 else float(num / (6 * den**1.5))


def components(cells: Cells):
    """DeLong's structural components per cell: V10 of positive cells, V01 of negative cells.

    :math:`V_{10}` of a positive is the share of negatives it outscores (ties
    one half), :math:`V_{01}` of a negative the share of positives that outscore it.
    """
    n_pos, n_neg = cells.sizes
    below, tied = _negatives_at(cells, cells.neg[None])
    pos_cum = np.concatenate([[0], np.cumsum(cells.pos)])
    at_or_below = pos_cum[np.searchsorted(cells.pos_group, cells.neg_group, side="right")]
    strictly_below = pos_cum[np.searchsorted(cells.pos_group, cells.neg_group, side="left")]
    v10 = (2 * below[0] + tied[0]) / (2.0 * n_neg)
    v01 = (2 * (n_pos - at_or_below) + (at_or_below - strictly_below)) / (2.0 * n_pos)
    return v10, v01


_NORMAL = NormalDist()
AUC_METHODS = ("percentile", "bca", "delong", "delong-logit", "newcombe")
AP_METHODS = ("percentile", "bca")


def _check_method(method, allowed) -> str:
    if not isinstance(method, str) or method not in allowed:
        raise ValueError(f"method must be one of {allowed}; got {method!r}")
    return method


def delong_variance(cells: Cells) -> tuple[float, float]:
    """The AUC and DeLong's estimate of its variance, :math:`S_{10}/P + S_{01}/N`."""
    n_pos, n_neg = cells.sizes
    _need_two(n_pos, n_neg)
    v10, v01 = components(cells)
    auc = float(cells.pos @ v10 / n_pos)
    s10 = cells.pos @ (v10 - auc) ** 2 / (n_pos - 1)
    s01 = cells.neg @ (v01 - auc) ** 2 / (n_neg - 1)
    return auc, float(s10 / n_pos + s01 / n_neg)


def _need_two(n_pos: int, n_neg: int) -> None:
    if n_pos < 2 or n_neg < 2:
        raise ValueError(
            "DeLong's variance needs at least 2 positive and 2 negative items (sample "
            f"variances); got {n_pos} positive and {n_neg} negative"
        )


def newcombe_interval(auc: float, n_pos: int, n_neg: int, level: float, method: str) -> Interval:
    r"""Newcombe's (2006, method 5) score interval of an AUC: every :math:`\theta` with
    :math:`(\hat A - \theta)^2 \le z^2 V(\theta)`, where

    .. math:: V(\theta) = \frac{\theta (1 - \theta)}{P N} \left(1 + h \frac{1 - \theta}{2 - \theta}
              + h \frac{\theta}{1 + \theta}\right), \qquad h = \frac{P + N}{2} - 1,

    Hanley & McNeil's variance under their exponential model with both class sizes
    replaced by their mean (a Wilson-type interval: the variance is taken at each
    candidate :math:`\theta`, not at the estimate, so an estimate of 1 still has a
    lower end below 1). Each end is the root of a quartic on one side of the
    estimate, found by bisection (SingleCaseES's ``NAP`` solves the same equation).
    """
    z2 = _NORMAL.inv_cdf(1 - (1 - level) / 2) ** 2
    h = (n_pos + n_neg) / 2 - 1

    def excess(x):  # > 0 outside the interval, < 0 inside (both sides of the estimate)
        return n_pos * n_neg * (auc - x) ** 2 * (2 - x) * (1 + x) - z2 * x * (1 - x) * (
            2 + h + (1 + 2 * h) * x * (1 - x)
        )

    ends = []
    for outside, inside in ((0.0, auc), (1.0, auc)):
        if outside == inside:  # an estimate of 0 (1): the interval reaches 0 (1)
            ends.append(outside)
            continue
        for _ in range(60):  # halves the bracket to below 1e-17
            mid = (outside + inside) / 2
            outside, inside = (mid, inside) if excess(mid) > 0 else (outside, mid)
        ends.append((outside + inside) / 2)
    return Interval(auc, ends[0], ends[1], level, method)


def _area_interval(metric, y_true, scores, level, size, method, pos_label, rng) -> Interval:
    """Shared body of :func:`auc_interval` and :func:`ap_interval`."""
    level, size = rs.check_level(level), rs.check_size(size)
    return area_interval(metric, checked_cells(y_true, scores, pos_label), level, size,
                         method, rng)  # fmt: skip


def area_interval(metric, cells: Cells, level, size, method, rng) -> Interval:
    """The interval of ``metric`` from the cells of a checked problem (see above)."""
    if method in ("delong", "delong-logit"):
        auc, var = delong_variance(cells)
        z = _NORMAL.inv_cdf(1 - (1 - level) / 2)
        if method == "delong-logit" and 0 < auc < 1 and var > 0:
            # The delta method on the logit: d logit(A) / dA = 1 / (A (1 - A)).
            centre, half = math.log(auc / (1 - auc)), z * math.sqrt(var) / (auc * (1 - auc))
            low, high = (1 / (1 + math.exp(-(centre + side * half))) for side in (-1, 1))
            return Interval(auc, low, high, level, method)
        if method == "delong-logit":  # an AUC of 0 or 1, or no spread: no logit to take
            return newcombe_interval(auc, *cells.sizes, level, "newcombe")
        half = z * math.sqrt(var)
        return Interval(auc, max(auc - half, 0.0), min(auc + half, 1.0), level, method)
    if method == "newcombe":
        auc = float(areas(metric, cells, cells.pos[None], cells.neg[None])[0])
        return newcombe_interval(auc, *cells.sizes, level, method)
    if method == "bca" and min(cells.sizes) < 2:
        raise ValueError("bca needs at least 2 items of each class: the jackknife leaves one out")
    observed = float(areas(metric, cells, cells.pos[None], cells.neg[None])[0])
    acc = acceleration(metric, cells) if method == "bca" else 0.0
    if controlled(cells):
        low, high = controlled_bounds(metric, cells, observed, level, size, method,
                                      np.random.default_rng(rng), acc)  # fmt: skip
        return Interval(observed, low, high, level, method)
    stats = bootstrap_areas(metric, cells, size, np.random.default_rng(rng))
    low, high = bounds(stats, observed, level, method, acc)
    return Interval(observed, low, high, level, method)


def auc_interval(
    y_true, scores, *, level=0.95, size=10_000, method="percentile", pos_label=None, rng=None
) -> Interval:
    r"""Confidence interval of the ROC AUC of one binary classifier's scores.

    .. math:: AUC = \frac{1}{PN} \sum_{i \in pos} \sum_{j \in neg}
              \left([s_i > s_j] + \tfrac12 [s_i = s_j]\right)

    - ``"percentile"`` and ``"bca"``: a bootstrap that resamples the positives
      and the negatives separately (each class keeps its size, as in pROC's
      default), through the counts of the (distinct score, class) cells after
      one sort: a resample costs ``O(cells)``, not ``O(N log N)``. BCa's
      acceleration comes from the jackknife over items, one closed-form value
      per cell. See :func:`interval` for the two methods.
    - ``"delong"``: :math:`AUC \pm z_{1-\alpha/2} \sqrt{S_{10}/P + S_{01}/N}`,
      DeLong's variance (DeLong et al. 1988) from the structural components
      computed after one sort (Sun & Xu 2014), with a normal approximation on
      the AUC scale, the ends clipped to [0, 1]. No resampling; ``size`` and
      ``rng`` are unused (nor by the two below).
    - ``"delong-logit"``: the same variance by the delta method on the logit scale,
      :math:`\operatorname{logit}^{-1}(\operatorname{logit} AUC \pm z\, \sigma / (AUC (1 -
      AUC)))`, inside (0, 1) and skewed away from the nearer end (Pohar Perme &
      Manevski 2019). At an AUC of 0 or 1, or a zero variance, there is no logit:
      Newcombe's interval instead, and ``method`` says ``"newcombe"``.
    - ``"newcombe"``: Newcombe's (2006) Wilson-type score interval (his method 5),
      which assumes Hanley & McNeil's exponential model of the variance with both class
      sizes replaced by their mean, and needs only the AUC and the class sizes.

    **Small classes.** With few items of a class and an AUC near 0 or 1 no method
    keeps its nominal coverage, and the misses are one-sided: the interval lies wholly
    on the side away from 1/2 (its end nearer 1/2 overstates the ranking). In the
    library's simulated table (``clfmetrics.inference.AUC_COVERAGE``; read it with
    :func:`~clfmetrics.inference.expected_coverage`), at 14 positives among 294 items and
    AUC 0.96 the percentile, BCa and DeLong intervals cover far less than 0.95; the logit
    DeLong interval does better at no resampling cost, and Newcombe's covers at least
    the nominal level there, being wider. :func:`~clfmetrics.inference.auc_method_for`
    names the one the table finds best for a test set, as the report uses it.

    Parameters
    ----------
    y_true : array_like of shape (N,)
        Reference labels, two classes (or more with ``pos_label``: one against the rest).
    scores : array_like of float, shape (N,)
        Higher means more likely positive; finite.
    level : float, default 0.95
        Nominal coverage, strictly between 0 and 1.
    size : int, default 10_000
        Number of bootstrap resamples.
    method : {"percentile", "bca", "delong", "delong-logit", "newcombe"}, default "percentile"
    pos_label : label, optional
        The positive class, as in :func:`clfmetrics.scores.roc_auc`.
    rng : numpy.random.Generator or int, optional

    Returns
    -------
    Interval
        ``estimate`` equals :func:`clfmetrics.scores.roc_auc` (scikit-learn's
        ``roc_auc_score``).

    Raises
    ------
    ValueError
        For lengths that differ, NaN or infinite scores, masked input, a test set
        without positives or negatives, a bad ``level``, ``size`` or ``method``,
        and ``"bca"`` (``"delong"``, ``"delong-logit"``) with fewer than 2 items of a class.

    Examples
    --------
    >>> y = [0, 0, 1, 1, 0, 1, 0, 1] * 10
    >>> s = [0.1, 0.4, 0.35, 0.8, 0.2, 0.7, 0.5, 0.45] * 10
    >>> iv = auc_interval(y, s, size=2000, rng=0)
    >>> iv.estimate, iv.low < 0.8125 < iv.high
    (0.8125, True)
    >>> str(auc_interval(y, s, method="delong"))
    '0.812 [0.720, 0.905] (95% delong)'
    """
    _check_method(method, AUC_METHODS)
    return _area_interval("roc_auc", y_true, scores, level, size, method, pos_label, rng)


def ap_interval(
    y_true, scores, *, level=0.95, size=10_000, method="percentile", pos_label=None, rng=None
) -> Interval:
    r"""Bootstrap confidence interval of the average precision of binary scores.

    :math:`AP = \sum_k (R_k - R_{k-1}) P_k` over the distinct thresholds (as
    :func:`clfmetrics.scores.average_precision` and scikit-learn's
    ``average_precision_score``), resampled exactly as in :func:`auc_interval`:
    positives and negatives separately, through the counts of the (distinct
    score, class) cells. Keeping the class sizes fixed matters more for AP than
    for the AUC: AP depends on the prevalence, and the interval describes the
    test set's own class mix. With few items of a class the percentile interval covers
    less than BCa's in the library's simulations (``clfmetrics.inference.AP_COVERAGE``):
    prefer ``"bca"`` there, as the report does. From 10,000 items in the smaller class
    and 32,768 cells (continuous scores), the ends come from as few of the same
    resamples as make them as precise as the plain ends of ``size``, with AP's linear
    part (from the jackknife) as a control variate (Efron 1990): at a million scores,
    a few hundred resamples instead of ``size``.

    Parameters
    ----------
    y_true, scores, level, size, pos_label, rng
        As in :func:`auc_interval`.
    method : {"percentile", "bca"}, default "percentile"
        There is no DeLong form of AP.

    Returns
    -------
    Interval

    Examples
    --------
    >>> y = [0, 0, 1, 1, 0, 1, 0, 1] * 10
    >>> s = [0.1, 0.4, 0.35, 0.8, 0.2, 0.7, 0.5, 0.45] * 10
    >>> iv = ap_interval(y, s, size=2000, rng=0)
    >>> round(iv.estimate, 4), iv.low < iv.estimate < iv.high
    (0.8542, True)
    """
    _check_method(method, AP_METHODS)
    return _area_interval("average_precision", y_true, scores, level, size, method, pos_label, rng)


@dataclass(frozen=True)
class AUCComparison:
    """DeLong's paired comparison of two ROC AUCs on the same items.

    Attributes
    ----------
    difference : float
        ``auc_a - auc_b``.
    low, high : float
        Ends of the normal-approximation interval of the difference.
    pvalue : float
        Two-sided p-value of the hypothesis that the two AUCs are equal.
    auc_a, auc_b : float
        The two areas.
    level : float
        Nominal coverage of the interval.
    """

    difference: float
    low: float
    high: float
    pvalue: float
    auc_a: float
    auc_b: float
    level: float

    def __str__(self) -> str:
        return (
            f"AUC {fixed(self.auc_a)} - {fixed(self.auc_b)} = "
            f"{fixed(self.difference, sign=True)} [{fixed(self.low, sign=True)}, "
            f"{fixed(self.high, sign=True)}] ({self.level:.0%} DeLong), "
            f"p = {self.pvalue:.3g}"
        )


def item_components(is_pos: np.ndarray, s: np.ndarray):
    """DeLong's V10 of every positive item and V01 of every negative item, in item order."""
    cells = cells_of(is_pos, s)
    v10, v01 = components(cells)
    group = np.unique(s, return_inverse=True)[1]
    return (
        v10[np.searchsorted(cells.pos_group, group[is_pos])],
        v01[np.searchsorted(cells.neg_group, group[~is_pos])],
    )


def delong_covariance(is_pos: np.ndarray, score_rows) -> tuple[np.ndarray, np.ndarray]:
    """AUCs of several score vectors on the same items and DeLong's covariance matrix."""
    parts = [item_components(is_pos, s) for s in score_rows]
    v10 = np.stack([p[0] for p in parts])
    v01 = np.stack([p[1] for p in parts])
    n_pos, n_neg = v10.shape[1], v01.shape[1]
    _need_two(n_pos, n_neg)
    aucs = v10.mean(axis=1)
    cov = np.cov(v10, ddof=1).reshape(len(parts), -1) / n_pos
    cov = cov + np.cov(v01, ddof=1).reshape(len(parts), -1) / n_neg
    return aucs, cov


def compare_auc(y_true, scores_a, scores_b, *, level=0.95, pos_label=None) -> AUCComparison:
    r"""DeLong's test of two classifiers' ROC AUCs on the same items.

    With :math:`S_{10}` and :math:`S_{01}` the 2x2 sample covariance matrices of
    the two models' structural components over the positives and over the
    negatives (DeLong, DeLong & Clarke-Pearson 1988), computed after one sort per
    model (Sun & Xu 2014),

    .. math::

        \operatorname{Var}(\hat A_a - \hat A_b) = c^\top \left(\frac{S_{10}}{P}
        + \frac{S_{01}}{N}\right) c, \quad c = (1, -1), \qquad
        z = \frac{\hat A_a - \hat A_b}{\sqrt{\operatorname{Var}}},

    the p-value is :math:`2(1 - \Phi(|z|))` and the interval
    :math:`\hat A_a - \hat A_b \pm z_{1-\alpha/2} \sqrt{\operatorname{Var}}`: a normal
    approximation. The covariance is what makes the test paired: two models that
    rank the same items alike have a much smaller variance of the difference than
    two separate intervals suggest. A zero variance (for example identical
    rankings) gives a zero-width interval and p = 1 for a zero difference, 0 otherwise.

    Parameters
    ----------
    y_true : array_like of shape (N,)
    scores_a, scores_b : array_like of float, shape (N,)
        The two models' scores on the same items.
    level : float, default 0.95
    pos_label : label, optional
        As in :func:`clfmetrics.scores.roc_auc`.

    Returns
    -------
    AUCComparison

    Raises
    ------
    ValueError
        As :func:`auc_interval`, and when the two score vectors differ in length.

    Examples
    --------
    >>> y = [0, 0, 1, 1, 0, 1, 0, 1] * 10
    >>> a = [0.1, 0.4, 0.35, 0.8, 0.2, 0.7, 0.5, 0.45] * 10
    >>> b = [0.1, 0.4, 0.45, 0.8, 0.2, 0.7, 0.5, 0.35] * 10
    >>> r = compare_auc(y, a, b)
    >>> r.difference, r.pvalue < 0.05
    (0.0, False)
    """
    level = rs.check_level(level)
    for name, s in (("scores_a", scores_a), ("scores_b", scores_b)):
        if np.ndim(s) != 1:
            raise ValueError(
                f"{name} must be a 1-d array, one score per item; got shape {np.shape(s)}"
            )
    if len(scores_a) != len(scores_b):
        raise ValueError(
            f"scores_a and scores_b differ in length: {len(scores_a)} vs {len(scores_b)}"
        )
    checked_cells(y_true, scores_a, pos_label)
    checked_cells(y_true, scores_b, pos_label)
    s_a, is_pos = positives(y_true, scores_a, pos_label)
    s_b, _ = positives(y_true, scores_b, pos_label)
    aucs, cov = delong_covariance(is_pos, [s_a, s_b])
    difference = float(aucs[0] - aucs[1])
    var = max(float(cov[0, 0] + cov[1, 1] - 2 * cov[0, 1]), 0.0)
    sd = math.sqrt(var)
    half = _NORMAL.inv_cdf(1 - (1 - level) / 2) * sd
    if sd > 0:
        pvalue = 2 * _NORMAL.cdf(-abs(difference) / sd)
    else:
        pvalue = 1.0 if difference == 0 else 0.0
    return AUCComparison(
        difference,
        difference - half,
        difference + half,
        pvalue,
        float(aucs[0]),
        float(aucs[1]),
        level,
    )
