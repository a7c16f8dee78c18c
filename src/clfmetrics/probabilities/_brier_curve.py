r"""Brier curves (Hernández-Orallo, Flach & Ferri 2011): the cost of trusting probabilities.

A cost curve (:func:`clfmetrics.scores.cost_curve`) lets each operating condition
pick its best threshold, which only the test set's labels reveal. A Brier curve
instead sets the threshold from the probabilities themselves, as a decision maker
who trusts them would: at cost proportion :math:`c`, a false positive costs
:math:`2c` and a false negative :math:`2(1-c)`, and the item is treated as positive
where :math:`p \ge c` (the threshold of least expected cost if :math:`p` is
calibrated). The loss per item is

.. math::

    Q(c) = \frac{2}{n}\Big( c \cdot \#\{y = 0,\ p \ge c\}
           + (1 - c) \cdot \#\{y = 1,\ p < c\} \Big).

**Area.** An item with :math:`y = 1` costs :math:`2(1-c)` for every :math:`c > p`,
:math:`\int_p^1 2(1-c)\,dc = (1-p)^2`; an item with :math:`y = 0` costs :math:`2c`
for every :math:`c \le p`, :math:`\int_0^p 2c\,dc = p^2`. So, with the factor 2 of
the paper's definition,

.. math:: \int_0^1 Q(c)\, dc = \frac1n \sum_i (p_i - y_i)^2 = BS,

the binary Brier score of :func:`clfmetrics.probabilities.brier_score` (1-d
probabilities). Between two consecutive distinct probabilities the counts are
fixed and :math:`Q` is linear, so ``area`` is integrated exactly piece by piece.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..scores import positives


@dataclass(frozen=True)
class BrierCurve:
    """A Brier curve: the loss of thresholding at the cost proportion, on a grid.

    Parameters
    ----------
    cost : ndarray of shape (G,)
        The grid of cost proportions :math:`c` on [0, 1].
    loss : ndarray of shape (G,)
        :math:`Q(c)` on the grid.
    area : float
        The exact area under :math:`Q` (not read off the grid): the Brier score.
    """

    cost: np.ndarray
    loss: np.ndarray
    area: float


def _loss(c, neg_at_least, pos_below, n):
    return 2.0 / n * (c * neg_at_least + (1 - c) * pos_below)


def brier_curve(y_true, proba, *, pos_label=None, grid=101) -> BrierCurve:
    r"""The Brier curve of binary probabilities: loss against cost proportion.

    .. math::

        Q(c) = \frac{2}{n}\Big( c \cdot \#\{y = 0,\ p \ge c\}
               + (1 - c) \cdot \#\{y = 1,\ p < c\} \Big),

    the mean cost when a false positive costs :math:`2c`, a false negative
    :math:`2(1-c)`, and items are predicted positive where :math:`p \ge c`
    (Hernández-Orallo, Flach & Ferri 2011). Its area is the Brier score,
    :math:`\int_0^1 Q(c)\,dc = \frac1n\sum_i (p_i - y_i)^2` (see the module's text).

    Parameters
    ----------
    y_true : array_like of shape (N,)
        Reference labels, two classes (or more with ``pos_label``).
    proba : array_like of float, shape (N,)
        Probabilities of the positive class, in [0, 1].
    pos_label : label, optional
        As in :func:`clfmetrics.probabilities.brier_score`.
    grid : int, default 101
        Points of the cost grid on [0, 1], ends included.

    Returns
    -------
    BrierCurve

    Raises
    ------
    ValueError
        For probabilities outside [0, 1], a bad ``grid``, or bad labels.

    Examples
    --------
    >>> bc = brier_curve([0, 1, 1, 0], [0.2, 0.9, 0.6, 0.4], grid=3)
    >>> bc.loss.tolist(), round(bc.area, 6)
    ([0.0, 0.0, 0.0], 0.0925)
    """
    if isinstance(grid, (bool, np.bool_)) or not isinstance(grid, (int, np.integer)) or grid < 2:
        raise ValueError(f"grid must be an integer of at least 2 (points on [0, 1]); got {grid!r}")
    p, is_pos = positives(y_true, proba, pos_label, name="proba")
    if ((p < 0) | (p > 1)).any():
        raise ValueError(f"proba must be probabilities in [0, 1]; got {p[(p < 0) | (p > 1)][0]!r}")
    n = p.size
    neg, pos = np.sort(p[~is_pos]), np.sort(p[is_pos])
    cost = np.linspace(0.0, 1.0, int(grid))
    loss = _loss(
        cost,
        neg.size - np.searchsorted(neg, cost, side="left"),
        np.searchsorted(pos, cost, side="left"),
        n,
    )
    # The pieces between consecutive distinct probabilities: counts fixed inside each.
    edges = np.unique(np.r_[0.0, p, 1.0])
    a, b = edges[:-1], edges[1:]
    neg_at_least = neg.size - np.searchsorted(neg, b, side="left")  # p >= c for c in (a, b)
    pos_below = np.searchsorted(pos, a, side="right")  # p < c for c in (a, b)
    area = (
        2.0
        / n
        * np.sum(neg_at_least * (b**2 - a**2) / 2 + pos_below * ((1 - a) ** 2 - (1 - b) ** 2) / 2)
    )
    return BrierCurve(cost, loss, float(area))
