r"""Exact multinomial draws of resampled counts over cells, the cheapest way for the counts.

A bootstrap resample of a class of ``n`` items, grouped into cells (distinct scores,
patterns) with counts :math:`n_c`, is one multinomial draw of ``n`` items with shares
:math:`n_c / n`. :func:`draw` makes ``rows`` of them at once by whichever of three exact
methods costs least for the counts (:func:`way`): the items themselves counted into their
cells, numpy's multinomial (conditional binomials), or Poisson splitting topped up item
by item. The AUC and AP bootstrap, the ROC/PR bands, the operating points and the decision
curves all resample through it.
"""

from __future__ import annotations

import math

import numpy as np


def _items_into_cells(counts: np.ndarray, rows: int, rng) -> np.ndarray:
    """``rows`` resamples of the items (uniform, with replacement), counted per cell (int64)."""
    total = int(counts.sum())
    picks = rng.integers(0, total, size=(rows, total))
    if counts.size != total:  # some cell holds several items
        picks = np.repeat(np.arange(counts.size), counts)[picks]
    picks += (np.arange(rows) * counts.size)[:, None]
    return np.bincount(picks.ravel(), minlength=rows * counts.size).reshape(rows, -1)


#: Below this mean a Poisson variate is drawn by inverting its CDF (numpy's multiplication
#: method costs about ``mean + 1`` uniforms and products there).
_INVERT_BELOW = 10.0


def _poisson(counts: np.ndarray, scale: float, rows: int, rng) -> np.ndarray:
    """``rows`` rows of independent Poisson variates with means ``counts * scale`` (int64).

    Means of ``_INVERT_BELOW`` and more: numpy's ``poisson`` (PTRS). The smaller
    means belong to a few whole counts: each one's CDF, to 64 terms (its tail beyond
    is below 1e-25), is inverted at one uniform per variate (:func:`_inverted`),
    exact to the rounding of the CDF.
    """
    x = np.empty((rows, counts.size), np.int64)
    lam = counts * scale
    small = lam < _INVERT_BELOW
    if not small.all():
        x[:, ~small] = rng.poisson(lam[~small], size=(rows, int((~small).sum())))
    if small.any():
        cols = np.flatnonzero(small)
        u = rng.random((rows, cols.size))
        k = np.arange(64)
        log_factorial = np.cumsum(np.log(np.maximum(k, 1)))
        order = np.argsort(counts[cols], kind="stable")  # the columns, grouped by count
        values, starts = np.unique(counts[cols][order], return_index=True)
        ends = np.r_[starts[1:], order.size]
        for value, start, end in zip(values, starts, ends, strict=True):
            at = order[start:end]
            mean = float(value) * scale
            if mean == 0:
                x[:, cols[at]] = 0
                continue
            cdf = np.cumsum(np.exp(k * math.log(mean) - mean - log_factorial))
            x[:, cols[at]] = _inverted(cdf, u[:, at])
    return x


def _inverted(cdf: np.ndarray, u: np.ndarray, buckets: int = 4096) -> np.ndarray:
    """``np.searchsorted(cdf, u, side="right")``, the same integers, mostly by a table.

    ``u`` in [0, 1) falls in one of ``buckets`` equal buckets; where no value of
    ``cdf`` lies inside its bucket (all but at most ``cdf.size`` of them), every
    ``u`` of the bucket has the same answer, read from a table; the others are
    searched. (A search among 64 numbers at random costs tens of mispredicted branches.)
    """
    edges = np.arange(buckets + 1) / buckets
    first = np.searchsorted(cdf, edges[:-1], side="right")  # the answer at the bucket's start
    inside = np.searchsorted(cdf, edges[1:], side="left") > first
    j = (u * buckets).astype(np.intp)
    out = first[j]
    again = inside[j]
    out[again] = np.searchsorted(cdf, u[again], side="right")
    return out


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
    scale = (total - 3.0 * np.sqrt(total)) / total
    x = _poisson(counts, scale, rows, rng)
    got = x.sum(axis=1)
    over = np.flatnonzero(got > total)
    while over.size:  # rare: about 0.1 % of the rows, each drawn again until t <= n
        x[over] = _poisson(counts, scale, over.size, rng)
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


def way(counts: np.ndarray) -> str:
    """How to draw a class's counts: ``"items"``, ``"binomials"`` or ``"poisson"``.

    Under 3 items per cell on average, one uniform integer per item costs less than
    one Poisson variate per cell (numpy's ``poisson`` uses the multiplication method
    below a mean of 10: several uniforms and an exponential per variate).
    :func:`_poisson_topped_up` costs one Poisson variate per cell plus about
    ``3 sqrt(n)`` items of top-up per resample; with fewer cells than that (a thousand
    distinct scores among a million items) the top-up dominates, and numpy's
    multinomial (one conditional binomial per cell, about two Poisson variates at
    large means) is cheaper from 16 items a cell, the items below. With more cells (a
    file's rounded probabilities: tens of items per cell, thousands of cells),
    Poisson splitting is the cheapest.
    """
    total, cells = int(counts.sum()), counts.size
    if total < 3 * cells + 64:
        return "items"
    if 3.0 * math.sqrt(total) >= cells:
        return "binomials" if 16 * cells < total else "items"
    return "poisson"


def draw(counts: np.ndarray, rows: int, rng) -> np.ndarray:
    """``rows`` multinomial draws of ``n = counts.sum()`` items over cells with these counts.

    Many cells, most holding one item (continuous scores): the ``n`` items
    themselves are drawn uniformly and counted into their cells, one random
    integer per item. Several items per cell: numpy's multinomial, or
    :func:`_poisson_topped_up` (one Poisson variate per cell), whichever
    :func:`way` finds cheaper. All three are exact draws of the same multinomial.
    """
    how = way(counts)
    if how == "items":
        return _items_into_cells(counts, rows, rng)
    if how == "binomials":
        total = int(counts.sum())
        return rng.multinomial(total, counts / total, size=rows)
    return _poisson_topped_up(counts, rows, rng)
