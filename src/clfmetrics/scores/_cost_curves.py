r"""Cost curves (Drummond & Holte 2006): the expected cost of every operating point.

An operating condition is the class prior :math:`p(+)` with the costs of a false
negative :math:`C(-|+)` and of a false positive :math:`C(+|-)`; it enters the
expected cost only through the *probability cost*

.. math::

    PC(+) = \frac{p(+)\, C(-|+)}{p(+)\, C(-|+) + p(-)\, C(+|-)} \in [0, 1].

Dividing the expected cost by its largest value over the two trivial classifiers'
worst case, :math:`p(+) C(-|+) + p(-) C(+|-)`, gives the *normalized expected cost*
of the ROC point :math:`(FPR, TPR)`:

.. math::

    NEC(PC) = (1 - TPR)\, PC + FPR\, (1 - PC),

a straight line from :math:`(0, FPR)` to :math:`(1, FNR)`. Each ROC point is a line,
each line a point's cost under every condition; the lower envelope of the lines is the
cost of the best threshold for each condition (the ROC convex hull, seen from the
costs). The trivial classifiers are the lines :math:`NEC = PC` (everything negative)
and :math:`NEC = 1 - PC` (everything positive).

**Area.** With :math:`PC` uniform on [0, 1] and, for each :math:`PC`, the threshold
of least cost, the expected normalized cost is

.. math::

    E_{PC \sim U(0,1)}\left[\min_k NEC_k(PC)\right] = \int_0^1 \min_k NEC_k(PC)\, dPC,

the area under the envelope. The envelope is concave and piecewise linear, with its
kinks where two consecutive vertices of the ROC convex hull cost the same,
:math:`PC = \Delta FPR / (\Delta FPR + \Delta TPR)`; between kinks one line is the
least, so the trapezoid rule on the kinks is exact.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._curves import roc_curve


@dataclass(frozen=True)
class CostCurve:
    """A cost curve: the ROC points as lines of normalized expected cost against PC(+).

    Parameters
    ----------
    pc : ndarray of shape (G,)
        The grid of probability costs PC(+) on [0, 1].
    nec : ndarray of shape (G,)
        The lower envelope of the lines on the grid: the least normalized expected cost
        of any threshold at each PC(+).
    lines : ndarray of shape (K, 2)
        One line per ROC point: its cost at PC = 0 (the FPR) and at PC = 1 (the FNR).
        ``nec_k(pc) = lines[k, 0] * (1 - pc) + lines[k, 1] * pc``.
    area : float
        The exact area under the envelope (not read off the grid): the expected
        normalized cost over uniform operating conditions.
    all_negative, all_positive : ndarray of shape (G,)
        The trivial classifiers on the grid: ``pc`` and ``1 - pc``.
    """

    pc: np.ndarray
    nec: np.ndarray
    lines: np.ndarray
    area: float
    all_negative: np.ndarray
    all_positive: np.ndarray


def _upper_hull(fpr: np.ndarray, tpr: np.ndarray):
    """Vertices of the ROC convex hull from (0, 0) to (1, 1), by the monotone chain."""
    points = np.unique(np.column_stack([np.r_[0.0, fpr, 1.0], np.r_[0.0, tpr, 1.0]]), axis=0)
    hull: list[tuple[float, float]] = []
    # Sorted by FPR, then TPR: the upper hull keeps right turns only.
    for x, y in points[::-1]:  # from (1, 1) towards (0, 0)
        while len(hull) >= 2:
            (x1, y1), (x2, y2) = hull[-2], hull[-1]
            if (x2 - x1) * (y - y1) - (y2 - y1) * (x - x1) <= 0:
                hull.pop()
            else:
                break
        hull.append((x, y))
    return np.array(hull[::-1])


def envelope_area(fpr: np.ndarray, tpr: np.ndarray) -> float:
    """The exact area under the lower envelope of the cost lines of the ROC points."""
    hull = _upper_hull(fpr, tpr)
    d_f, d_t = np.diff(hull[:, 0]), np.diff(hull[:, 1])
    kinks = np.r_[0.0, d_f / (d_f + d_t), 1.0]
    cost = np.min(np.outer(1 - kinks, hull[:, 0]) + np.outer(kinks, 1 - hull[:, 1]), axis=1)
    return float(np.sum(np.diff(kinks) * (cost[1:] + cost[:-1]) / 2))


def cost_curve(y_true, scores, *, pos_label=None, grid=101) -> CostCurve:
    r"""The cost curve of a scorer: normalized expected cost of every ROC point against PC(+).

    Each ROC point :math:`(FPR_k, TPR_k)` of the sweep (predict positive where
    ``scores >= t``) is the line

    .. math:: NEC_k(PC) = (1 - TPR_k)\, PC + FPR_k\, (1 - PC)

    and ``nec`` is their lower envelope on ``grid`` points of :math:`PC \in [0, 1]`
    (Drummond & Holte 2006). The sweep's first and last points are the trivial
    classifiers (everything negative: :math:`NEC = PC`; everything positive:
    :math:`1 - PC`), so the envelope never exceeds :math:`\min(PC, 1 - PC)`.
    ``area`` is the envelope's exact area, the expected normalized cost when
    :math:`PC` is uniform on [0, 1] and the best threshold is used for each.

    To read a cost matrix ``costs[i, j]`` (cost of predicting ``i`` when the truth is
    ``j``, class order (negative, positive)) and a prior :math:`p(+)` as a point on
    the PC axis: :math:`C(-|+) = c_{01} - c_{11}`, :math:`C(+|-) = c_{10} - c_{00}`.

    Parameters
    ----------
    y_true : array_like of shape (N,)
        Reference labels, two classes (or more with ``pos_label``); both present.
    scores : array_like of float, shape (N,)
        Higher means more likely positive; finite.
    pos_label : label, optional
        As in :func:`roc_curve`.
    grid : int, default 101
        Points of the PC grid on [0, 1], ends included.

    Returns
    -------
    CostCurve

    Examples
    --------
    >>> cc = cost_curve([0, 0, 1, 1], [0.1, 0.6, 0.4, 0.9], grid=5)
    >>> cc.nec.tolist(), cc.area
    ([0.0, 0.125, 0.25, 0.125, 0.0], 0.125)
    """
    if isinstance(grid, (bool, np.bool_)) or not isinstance(grid, (int, np.integer)) or grid < 2:
        raise ValueError(f"grid must be an integer of at least 2 (points on [0, 1]); got {grid!r}")
    fpr, tpr, _ = roc_curve(y_true, scores, pos_label=pos_label)
    pc = np.linspace(0.0, 1.0, int(grid))
    lines = np.column_stack([fpr, 1 - tpr])
    hull = _upper_hull(fpr, tpr)  # the envelope's lines: the others never reach it
    nec = np.min(np.outer(1 - pc, hull[:, 0]) + np.outer(pc, 1 - hull[:, 1]), axis=1)
    return CostCurve(pc, nec, lines, envelope_area(fpr, tpr), pc.copy(), 1 - pc)
