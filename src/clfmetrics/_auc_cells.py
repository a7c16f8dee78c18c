r"""The cells of a scored binary test set, and what AUC and AP intervals compute from them.

Private helpers of :mod:`clfmetrics._auc_uncertainty` (whose public functions
:mod:`clfmetrics.uncertainty` re-exports).

**Cells.** Both areas depend on the items only through how many positives and
how many negatives share each distinct score. After one sort, a test set of
``N`` items is the list of *cells* (distinct score, class) with their counts:
the positive cells and the negative cells, in increasing order of score. A
resample of the items is a resample of these counts, and both areas of a
resample are computed from its counts with cumulative sums, for a whole block
of resamples at once. With ``c`` the positive cells and :math:`p_c` their
counts, :math:`P, N` the class sizes, :math:`b_c` and :math:`t_c` the
negatives below and tied with cell ``c``, :math:`T_c` the positives and
:math:`D_c` all items scoring at least as high as cell ``c``:

.. math::

    AUC = \frac{1}{PN} \sum_c p_c \left(b_c + \tfrac12 t_c\right), \qquad
    AP = \frac1P \sum_c p_c \frac{T_c}{D_c}.

**Stratified resampling.** Positives and negatives are resampled separately
(each class keeps its size), as in pROC's default bootstrap (Robin et al.
2011) and in ``scipy.stats.bootstrap`` given the two classes as two samples:
both areas are undefined on a resample without one of the classes, and
DeLong's variance, too, holds the class sizes fixed. Each class's counts are
one multinomial draw over its cells when the cells are few (a thousand
distinct scores among a million items), or ``P`` (``N``) uniform draws of items
counted into cells when most cells hold one item (continuous scores): both
give the same multinomial distribution, whichever is cheaper.

**BCa.** The jackknife leaves out one item of a cell; all the items of a cell
give the same value, so the ``N`` jackknife values take one value per cell,
each computed in closed form from cumulative sums (``O(cells)`` in all). The
acceleration combines the two classes' jackknife deviations as
``scipy.stats.bootstrap`` does for several samples (Efron & Tibshirani 1993,
ch. 14).

**DeLong.** The variance of the AUC from its structural components (DeLong,
DeLong & Clarke-Pearson 1988): :math:`V_{10}` of a positive is the share of
negatives it outscores (ties one half), :math:`V_{01}` of a negative the share
of positives that outscore it, and
:math:`\operatorname{Var}(AUC) = S_{10}/P + S_{01}/N` with :math:`S` their
sample variances. Sun & Xu (2014) compute the components from midranks after
one sort, ``O(N log N)`` instead of the ``O(PN)`` pairs; here they are the
cells' :math:`b_c + t_c/2`, read off the same cumulative counts.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._checks import reject_masked
from .curves import _positives

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


def cells_of(is_pos: np.ndarray, s: np.ndarray) -> Cells:
    """The cells of a checked binary problem: each class's scores sorted apart.

    Sorting the two classes' scores separately (in place, one copy of the scores at
    a time) holds about one float per item at once, where a sort of all the items
    with their ranks (``np.unique(..., return_inverse=True)``) held five.
    """
    pos_values, pos = _runs(np.sort(s[is_pos]))
    neg_values, neg = _runs(np.sort(s[~is_pos]))
    groups = np.union1d(pos_values, neg_values)
    pos_group = np.searchsorted(groups, pos_values)
    neg_group = np.searchsorted(groups, neg_values)
    below = np.searchsorted(neg_group, pos_group, side="left")
    tied = np.where(
        (below < neg_group.size) & (neg_group[np.minimum(below, neg_group.size - 1)] == pos_group),
        below,
        -1,
    )
    return Cells(pos_group, neg_group, pos, neg, below, tied)


def checked_cells(y_true, scores, pos_label) -> Cells:
    """Validate a binary problem (both classes present) and return its cells."""
    reject_masked(y_true, "y_true")
    reject_masked(scores, "scores")
    if np.ndim(scores) != 1:
        raise ValueError(
            f"scores must be a 1-d array, one score per item (binary problem); got shape "
            f"{np.shape(scores)}"
        )
    s, is_pos = _positives(y_true, scores, pos_label)
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
    below, tied = _negatives_at(cells, neg)
    if metric == "roc_auc":
        # Twice the numerator, a whole number: exact in int64 below 2**62 pairs.
        twice = (pos * (2 * below + tied)).sum(axis=1)
        return twice / (2.0 * n_pos * n_neg)
    # Positives at or above each cell: P minus those strictly below (cells are increasing).
    above_pos = n_pos - (np.cumsum(pos, axis=1) - pos)
    at_least = above_pos + (n_neg - below)
    # A cell empty in a resample may have nothing at or above it: its weight is 0 anyway.
    share = np.divide(above_pos, at_least, out=np.zeros(at_least.shape), where=at_least > 0)
    return np.einsum("bc,bc->b", pos, share) / n_pos


def _items_into_cells(counts: np.ndarray, rows: int, rng) -> np.ndarray:
    """``rows`` resamples of the items (uniform, with replacement), counted per cell (int64)."""
    total = int(counts.sum())
    picks = rng.integers(0, total, size=(rows, total))
    if counts.size != total:  # some cell holds several items
        picks = np.repeat(np.arange(counts.size), counts)[picks]
    picks += (np.arange(rows) * counts.size)[:, None]
    return np.bincount(picks.ravel(), minlength=rows * counts.size).reshape(rows, -1)


def _draw(counts: np.ndarray, rows: int, rng) -> np.ndarray:
    """``rows`` multinomial draws of ``n = counts.sum()`` items over cells with these counts.

    Few cells holding many items each (a thousand distinct scores among a
    million items): numpy's multinomial, one binomial per cell. Many cells, most
    holding one item (continuous scores): the ``n`` items themselves are drawn
    uniformly and counted into their cells, one random integer per item. Both
    are exact draws of the same multinomial; the cheaper one is used.
    (Poisson splitting with a top-up was tried: its top-up draws cost what the
    cheaper Poisson draws save.)
    """
    total = int(counts.sum())
    if 16 * counts.size < total:
        return rng.multinomial(total, counts / total, size=rows)
    return _items_into_cells(counts, rows, rng)


def bootstrap_areas(metric: str, cells: Cells, size: int, rng) -> np.ndarray:
    """``size`` stratified bootstrap values of the metric, in blocks that bound the memory."""
    width = 0
    for counts in (cells.pos, cells.neg):
        width += counts.size + (int(counts.sum()) if 16 * counts.size >= counts.sum() else 0)
    step = max(1, _BLOCK // max(width, 1))
    out = np.empty(size)
    for start in range(0, size, step):
        rows = min(step, size - start)
        pos, neg = _draw(cells.pos, rows, rng), _draw(cells.neg, rows, rng)
        out[start : start + rows] = areas(metric, cells, pos, neg)
    return out


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
    below = _negatives_at(cells, cells.neg[None])[0][0].astype(np.float64)
    top = n_pos - (np.cumsum(pos) - pos)  # positives at or above each positive cell
    reach = top + (n_neg - below)  # all items at or above it
    term = pos * top / reach
    with np.errstate(divide="ignore", invalid="ignore"):
        # Dropping a positive of cell c: cells below c lose one positive and one item.
        lower = np.where(reach > 1, pos * (top - 1) / (reach - 1), 0.0)
        own = np.where(reach > 1, (pos - 1) * (top - 1) / (reach - 1), 0.0)
        # Dropping a negative: the cells at or below its score lose one item.
        thinner = np.where(reach > 1, pos * top / (reach - 1), 0.0)
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
