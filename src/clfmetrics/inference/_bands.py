r"""Confidence bands on the ROC and precision-recall curves, from counts.

A curve drawn without a band shows one test set's luck as if it were the
classifier's. :func:`roc_band` and :func:`pr_band` resample the test set the
way :func:`~clfmetrics.inference.auc_interval` does (positives and negatives
separately, through the counts of the (distinct score, class) cells; see
``_auc_cells.py``), read every resampled curve off on a fixed grid, and turn
the stack of resampled curves into a band.

**Reading a curve off at a grid point.** Between two operating points the
counts ``(FP, TP)`` are interpolated linearly, which for the ROC is the straight
segment of the trapezoid AUC and for the precision-recall curve the
interpolation of Davis & Goadrich (2006) (linear in counts, not in precision).
Where the curve has several points at one grid value (a vertical step), the
best of them is taken: the highest TPR at that FPR, the highest precision at
that recall.

**Simultaneous (default) or pointwise.**

- Pointwise (``simultaneous=False``): at each grid point, the :math:`\alpha/2`
  and :math:`1 - \alpha/2` quantiles of the resampled values, widened where
  needed to at least :math:`z_{1-\alpha/2}/P` either side of the observed curve
  (one positive item's spread: near FPR 1 nearly every resample has TPR 1,
  while the population curve lies a fraction of an item below). Each point's
  interval is meant to cover its own true value with probability ``level``;
  the whole curve lies inside all of them far less often (with 101 grid
  points, much less than ``level``).
- Simultaneous (``simultaneous=True``), the sup-t band (Montiel Olea &
  Plagborg-Møller 2019; for ROC curves Macskassy, Provost & Rosset 2005):
  with :math:`\hat y(x)` the observed curve, :math:`y^*_b(x)` the resampled
  curves and :math:`s(x)` their standard deviation,

  .. math::

      T_b = \max_x \frac{|y^*_b(x) - \hat y(x)|}{s(x)}, \qquad
      \text{band} = \hat y(x) \pm c\, s(x),

  with :math:`c` the ``level`` quantile of :math:`T_b`, and :math:`s(x)`
  at least :math:`1/P` (one positive item): where every resample agrees (the
  TPR at 1 beyond the lowest positive) the bootstrap sees no spread, though the
  population curve lies a fraction of an item below. The whole true curve
  lies inside the band with probability about ``level``. A reader looks at
  a curve as a whole ("the curve is above 0.8 everywhere past FPR 0.2"), so a
  band that holds for the whole curve is the default; the pointwise band is
  narrower and answers a question about one fixed grid point only.

At FPR 0 the ROC curve is the vertical segment from (0, 0) to its first
point, so the band's lower end there is 0 in both kinds of band.

Convention: predict positive where ``score >= t``; class order (negative,
positive) as in :mod:`clfmetrics.scores`.
"""

from __future__ import annotations

from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

from . import _auc as ac
from . import _bootstrap as rs
from ._bootstrap import bounds
from ._multinomial import draw

_BLOCK = 2**21  # numbers per array in one block of resamples


@dataclass(frozen=True)
class Band:
    """A curve on a grid with its confidence band.

    Parameters
    ----------
    x : ndarray
        The grid: false positive rate (ROC) or recall (precision-recall).
    y : ndarray
        The observed curve on the grid: true positive rate or precision.
    low, high : ndarray
        The band's ends on the grid, within [0, 1].
    level : float
        Nominal coverage.
    simultaneous : bool
        True: the whole curve is covered with probability ``level`` (sup-t);
        False: each grid point separately (pointwise percentile).
    """

    x: np.ndarray
    y: np.ndarray
    low: np.ndarray
    high: np.ndarray
    level: float
    simultaneous: bool


def _check_grid(grid) -> int:
    if isinstance(grid, (bool, np.bool_)) or not isinstance(grid, (int, np.integer)) or grid < 2:
        raise ValueError(f"grid must be an integer of at least 2 (points on [0, 1]); got {grid!r}")
    return int(grid)


def _check_flag(simultaneous) -> bool:
    if not isinstance(simultaneous, (bool, np.bool_)):
        raise ValueError(f"simultaneous must be True or False; got {simultaneous!r}")
    return bool(simultaneous)


def _row_search(cum: np.ndarray, targets: np.ndarray, top: int, side: str) -> np.ndarray:
    """Per row, ``searchsorted(cum[b], targets[b], side)`` (int64 rows non-decreasing in [0, top]).

    One ``searchsorted`` over all rows: row ``b`` is shifted by ``b * (top + 1)``
    (in place, and back), which keeps the flattened array sorted. Counts are
    whole numbers, so ``cum <= t`` is ``cum <= floor(t)`` and ``cum < t`` is
    ``cum <= ceil(t) - 1``: the search stays in integers.
    """
    rows, width = cum.shape
    shift = np.arange(rows, dtype=np.int64)[:, None] * (top + 1)
    whole = np.floor(targets) if side == "right" else np.ceil(targets) - 1
    cum += shift
    found = np.searchsorted(cum.ravel(), (whole.astype(np.int64) + shift).ravel(), side="right")
    cum -= shift
    return found.reshape(targets.shape) - (np.arange(rows) * width)[:, None]


class _Layout:
    """How the two classes' cells interleave, read from the top score down."""

    def __init__(self, cells: ac.Cells, axis: str):
        # The axis class is counted along x (negatives for ROC, positives for PR), the
        # other class along y. Cells are reversed: index 0 is the highest score.
        if axis == "neg":
            x_group, y_group = cells.neg_group[::-1], cells.pos_group[::-1]
        else:
            x_group, y_group = cells.pos_group[::-1], cells.neg_group[::-1]
        # Other-class cells strictly above each axis cell (higher score), and the tied cell.
        self.above = np.searchsorted(-y_group, -x_group, side="left")
        hit = np.minimum(self.above, y_group.size - 1)
        self.tied = np.where(
            (self.above < y_group.size) & (y_group[hit] == x_group), self.above, -1
        )


def _other_counts(layout: _Layout, xs, ys, grid, best: str):
    """The other class's count where the axis count reaches ``grid * X``, per resample.

    ``xs`` (B, Cx) and ``ys`` (B, Cy) are counts ordered from the top score. The
    axis cell that crosses the target is entered linearly: ``above`` other items
    strictly above it, plus the share ``step`` of its ``tied`` other items. At a
    target reached exactly, ``best="last"`` takes the last point at that count
    (ROC: the highest TPR), ``best="first"`` the first point that reaches it (PR:
    the fewest false positives). Returns ``(other, above, tied, width)``,
    each (B, G).
    """
    rows, n_cells = xs.shape
    total_x = int(xs[0].sum())
    cum_x = np.zeros((rows, n_cells + 1), dtype=np.int64)
    np.cumsum(xs, axis=1, out=cum_x[:, 1:])
    cum_y = np.zeros((rows, ys.shape[1] + 1), dtype=np.int64)
    np.cumsum(ys, axis=1, out=cum_y[:, 1:])
    targets = np.broadcast_to(grid * total_x, (rows, grid.size))
    # "last": the last prefix within the target; "first": the cell ending at or past it.
    cell = _row_search(cum_x, targets, total_x, "right") - 1
    if best == "first":
        first = _row_search(cum_x, targets, total_x, "left") - 1
        cell = np.where(targets > 0, first, cell)
    full = cell >= n_cells  # the target is every axis item: the curve's end
    cell = np.minimum(cell, n_cells - 1)
    before = np.take_along_axis(cum_x, cell, axis=1)
    width = np.take_along_axis(xs, cell, axis=1)
    step = np.divide(targets - before, width, out=np.zeros(targets.shape), where=width > 0)
    above = np.take_along_axis(cum_y, layout.above[cell], axis=1).astype(np.float64)
    tied_idx = layout.tied[cell]
    tied = np.where(tied_idx >= 0, np.take_along_axis(ys, np.maximum(tied_idx, 0), axis=1), 0)
    other = np.where(full, cum_y[:, -1:].astype(np.float64), above + step * tied)
    return other, above, tied, width


def _roc_values(layout, neg, pos, grid):
    other = _other_counts(layout, neg, pos, grid, "last")[0]
    return other / pos.sum(axis=1, keepdims=True)


def _pr_values(layout, pos, neg, grid):
    other, above, tied, width = _other_counts(layout, pos, neg, grid, "first")
    tp = grid * pos.sum(axis=1, keepdims=True)
    precision = np.divide(tp, tp + other, out=np.zeros(other.shape), where=tp + other > 0)
    # Recall 0: the limit towards the first positive cell from the top.
    start = grid == 0
    if start.any():
        limit = np.where(above > 0, 0.0, width / np.maximum(width + tied, 1))
        precision[:, start] = limit[:, start]
    return precision


def _resampled(values_of, cells, axis, size, grid_pts, rng):
    """The observed curve (G,) and ``size`` stratified bootstrap curves (size, G)."""
    layout = _Layout(cells, axis)
    x_counts = (cells.neg if axis == "neg" else cells.pos)[::-1]
    y_counts = (cells.pos if axis == "neg" else cells.neg)[::-1]
    observed = values_of(layout, x_counts[None], y_counts[None], grid_pts)[0]
    width = cells.pos.size + cells.neg.size + int(cells.pos.sum() + cells.neg.sum()) + grid_pts.size
    step = max(1, _BLOCK // max(width, 1))
    curves = np.empty((size, grid_pts.size))
    for start in range(0, size, step):
        rows = min(step, size - start)
        # Drawn straight in the top-down order of the cells: the same multinomial.
        xs, ys = draw(x_counts, rows, rng), draw(y_counts, rows, rng)
        curves[start : start + rows] = values_of(layout, xs, ys, grid_pts)
    return observed, curves


def _band(values_of, cells, axis, level, size, grid, simultaneous, rng) -> Band:
    level, size = rs.check_level(level), rs.check_size(size)
    grid_pts = np.linspace(0.0, 1.0, _check_grid(grid))
    simultaneous = _check_flag(simultaneous)
    observed, curves = _resampled(
        values_of, cells, axis, size, grid_pts, np.random.default_rng(rng)
    )
    # One item of the curve's class: no rate is resolved more finely than that.
    floor = 1.0 / int(cells.pos.sum())
    if simultaneous:
        low, high = _sup_t(observed, curves, level, floor)
    else:
        low, high = _pointwise(observed, curves, level, floor)
    if axis == "neg":
        low[0] = 0.0  # every ROC curve starts at (0, 0): its vertical segment at FPR 0
    return Band(grid_pts, observed, np.clip(low, 0, 1), np.clip(high, 0, 1), level, simultaneous)


def _pointwise(observed, curves, level, floor):
    """Percentile interval per grid point, at least ``z * floor`` either side of the curve.

    Where nearly every resample agrees (the TPR at 1 near FPR 1) the percentile
    interval shrinks to a point though the population curve lies a fraction of an
    item away; the normal interval of a spread of one item is the least it can be.
    """
    low, high = bounds(curves, observed, level, "percentile")
    reach = NormalDist().inv_cdf((1 + level) / 2) * floor
    return np.minimum(low, observed - reach), np.maximum(high, observed + reach)


def _sup_t(observed, curves, level, floor):
    """Sup-t band: the ``level`` quantile of the largest standardised deviation."""
    spread = np.maximum(curves.std(axis=0), floor)
    moving = spread > 0
    dev = np.abs(curves[:, moving] - observed[moving]) / spread[moving]
    crit = float(np.quantile(dev.max(axis=1), level)) if moving.any() else 0.0
    return observed - crit * spread, observed + crit * spread


def roc_band(
    y_true, scores, *, level=0.95, size=2000, grid=101, simultaneous=True, pos_label=None, rng=None
) -> Band:
    r"""The ROC curve on a grid of false positive rates, with its confidence band.

    :math:`TPR(x)` at each of ``grid`` equally spaced false positive rates
    :math:`x \in [0, 1]`, from the ROC points :math:`(FP_k / N, TP_k / P)` joined
    by straight segments (at a vertical step, the highest TPR). The band comes
    from ``size`` stratified bootstrap resamples of the (score, class) cells, as
    in :func:`~clfmetrics.inference.auc_interval`: see the module's text for
    the simultaneous (sup-t, default) and the pointwise (percentile) bands.

    Parameters
    ----------
    y_true : array_like of shape (N,)
        Reference labels, two classes (or more with ``pos_label``).
    scores : array_like of float, shape (N,)
        Higher means more likely positive; finite.
    level : float, default 0.95
    size : int, default 2000
        Bootstrap resamples.
    grid : int, default 101
        Points of the FPR grid on [0, 1], ends included.
    simultaneous : bool, default True
        Sup-t band for the whole curve; False: a percentile interval per grid point.
    pos_label : label, optional
        As in :func:`clfmetrics.scores.roc_curve`.
    rng : numpy.random.Generator or int, optional

    Returns
    -------
    Band
        ``x`` the FPR grid, ``y`` the observed TPR on it.

    Raises
    ------
    ValueError
        As :func:`~clfmetrics.inference.auc_interval`, and for a bad ``grid`` or
        ``simultaneous``.

    Examples
    --------
    >>> y = [0, 0, 1, 1, 0, 1, 0, 1] * 10
    >>> s = [0.1, 0.4, 0.35, 0.8, 0.2, 0.7, 0.5, 0.45] * 10
    >>> b = roc_band(y, s, size=500, grid=5, rng=0)
    >>> b.x.tolist(), b.y.tolist()
    ([0.0, 0.25, 0.5, 0.75, 1.0], [0.5, 0.75, 1.0, 1.0, 1.0])
    >>> bool((b.low <= b.y).all() and (b.y <= b.high).all())
    True
    """
    cells = ac.checked_cells(y_true, scores, pos_label)
    return _band(_roc_values, cells, "neg", level, size, grid, simultaneous, rng)


def pr_band(
    y_true, scores, *, level=0.95, size=2000, grid=101, simultaneous=True, pos_label=None, rng=None
) -> Band:
    r"""The precision-recall curve on a grid of recalls, with its confidence band.

    At recall :math:`r` the true positives are :math:`t = rP`; the false
    positives are interpolated linearly in counts between the operating points
    (Davis & Goadrich 2006), and the precision is :math:`t / (t + FP(t))`. At a
    recall reached exactly by an operating point, the first such point (fewest
    false positives) is taken; at recall 0, the limit towards the first positive.
    The band is built as in :func:`roc_band`, from the same stratified resamples:
    the class sizes are fixed, so the precision describes the test set's own
    prevalence.

    Parameters
    ----------
    y_true, scores, level, size, grid, simultaneous, pos_label, rng
        As in :func:`roc_band`; the grid is of recalls.

    Returns
    -------
    Band
        ``x`` the recall grid, ``y`` the observed precision on it.

    Examples
    --------
    >>> y = [0, 0, 1, 1, 0, 1, 0, 1] * 10
    >>> s = [0.1, 0.4, 0.35, 0.8, 0.2, 0.7, 0.5, 0.45] * 10
    >>> b = pr_band(y, s, size=500, grid=5, rng=0)
    >>> b.y.round(4).tolist()
    [1.0, 1.0, 1.0, 0.75, 0.6667]
    """
    cells = ac.checked_cells(y_true, scores, pos_label)
    return _band(_pr_values, cells, "pos", level, size, grid, simultaneous, rng)
