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
a multinomial draw over its cells: one Poisson variate per cell with a small
top-up (exact, see :func:`_poisson_topped_up`) when the cells hold several items
each (rounded probabilities: a thousand distinct scores among a million items),
or ``P`` (``N``) uniform draws of items counted into cells when most cells hold
one item (continuous scores), whichever is cheaper.

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


def _items_into_cells(counts: np.ndarray, rows: int, rng) -> np.ndarray:
    """``rows`` resamples of the items (uniform, with replacement), counted per cell (int64)."""
    total = int(counts.sum())
    picks = rng.integers(0, total, size=(rows, total))
    if counts.size != total:  # some cell holds several items
        picks = np.repeat(np.arange(counts.size), counts)[picks]
    picks += (np.arange(rows) * counts.size)[:, None]
    return np.bincount(picks.ravel(), minlength=rows * counts.size).reshape(rows, -1)


def _poisson_topped_up(counts: np.ndarray, rows: int, rng) -> np.ndarray:
    """``rows`` multinomial draws over cells by Poisson splitting, topped up item by item.

    Each cell's count is Poisson with mean ``counts * (n - s) / n`` (``s = 3 sqrt(n)``
    below ``n = counts.sum()``), one variate per cell. Given their total ``t``, the
    counts are multinomial with ``t`` items and the cells' shares; a row with
    ``t > n`` (under 0.2 %) is drawn again, which conditions on ``t`` alone, and the
    ``n - t`` missing items (about ``3 sqrt(n)``) are drawn uniformly among the ``n``
    items and counted into their cells. A multinomial of ``t`` items plus an
    independent one of ``n - t`` items over the same shares is one of ``n`` items,
    whatever ``t``: the draw is exact.
    """
    total = int(counts.sum())
    lam = counts * ((total - 3.0 * np.sqrt(total)) / total)
    x = rng.poisson(lam, size=(rows, counts.size))
    got = x.sum(axis=1)
    over = np.flatnonzero(got > total)
    while over.size:  # rare: about 0.1 % of the rows, each drawn again until t <= n
        x[over] = rng.poisson(lam, size=(over.size, counts.size))
        got[over] = x[over].sum(axis=1)
        over = over[got[over] > total]
    missing = total - got
    picks = rng.integers(0, total, size=int(missing.sum()))
    # The cell of each item drawn: items 0, 1, ... fill the cells in order (a search among
    # the cells' ends, not np.repeat's array of n cell numbers: 8 bytes an item).
    at = np.searchsorted(np.cumsum(counts), picks, side="right")
    at += np.repeat(np.arange(rows) * counts.size, missing)
    np.add.at(x.reshape(-1), at, 1)
    return x


def _by_items(counts: np.ndarray) -> bool:
    """Whether to draw a class's counts item by item (fewer than 3 items per cell on average).

    One uniform integer per item costs about a third of one Poisson variate per cell
    (numpy's ``poisson``: the multiplication method below a mean of 10, PTRS above),
    and ``numpy.random.Generator.multinomial`` (one conditional binomial per cell,
    by inversion for small means) costs several times a Poisson variate at the
    means of a file's rounded probabilities (tens of items per cell).
    """
    return int(counts.sum()) < 3 * counts.size + 64


def _draw(counts: np.ndarray, rows: int, rng) -> np.ndarray:
    """``rows`` multinomial draws of ``n = counts.sum()`` items over cells with these counts.

    Many cells, most holding one item (continuous scores): the ``n`` items
    themselves are drawn uniformly and counted into their cells, one random
    integer per item. Several items per cell (rounded scores, or a thousand
    distinct scores among a million items): :func:`_poisson_topped_up`, one
    Poisson variate per cell. Both are exact draws of the same multinomial.
    """
    if _by_items(counts):
        return _items_into_cells(counts, rows, rng)
    return _poisson_topped_up(counts, rows, rng)


def bootstrap_areas(metric: str, cells: Cells, size: int, rng) -> np.ndarray:
    """``size`` stratified bootstrap values of the metric, in blocks that bound the memory.

    The negatives are resampled through :func:`merged_negatives` (fewer cells, the
    same distribution of both areas).
    """
    cells = merged_negatives(cells)
    width = 0
    for counts in (cells.pos, cells.neg):
        width += counts.size + (int(counts.sum()) if _by_items(counts) else 0)
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
