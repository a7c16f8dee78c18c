"""The expected cost of Bayes decisions on a test set, with its bootstrap interval."""

from __future__ import annotations

import numpy as np

from .._base.codes import label_codes
from ..scores import bayes_decisions, expected_cost
from ._interval import Interval
from ._uncertainty import interval


def bayes_cost_interval(
    y_true,
    proba,
    costs,
    *,
    labels=None,
    level=0.95,
    size=10_000,
    method="percentile",
    rng=None,
) -> Interval:
    r"""The mean cost of the Bayes decisions on the test items, with its interval.

    The decisions are :func:`clfmetrics.scores.bayes_decisions` (least expected cost
    under ``proba``); their realised cost is the mean of ``costs[decision, truth]``
    over the items, :func:`clfmetrics.scores.expected_cost` of their confusion matrix,
    and the interval is :func:`interval`'s bootstrap of the items (a multinomial
    draw of the matrix's cells).

    Parameters
    ----------
    y_true : array_like of shape (N,)
        Reference labels.
    proba : array_like of shape (N, n)
        Class probabilities, column ``k`` for class ``labels[k]``.
    costs : array_like of shape (n, n)
        ``costs[i, j]``: the cost of predicting class ``labels[i]`` when the truth is
        ``labels[j]``.
    labels : sequence of length n, optional
        The class of each column; default the sorted classes of ``y_true``, which must
        then number ``n``.
    level, size, method, rng
        As in :func:`interval`.

    Returns
    -------
    Interval

    Examples
    --------
    >>> y = [0, 1, 1, 0, 1, 0, 0, 0] * 5
    >>> p = [[0.7, 0.3], [0.4, 0.6], [0.8, 0.2], [0.9, 0.1]] * 10
    >>> iv = bayes_cost_interval(y, p, [[0, 5], [1, 0]], size=500, rng=0)
    >>> iv.estimate, iv.low <= iv.estimate <= iv.high
    (0.375, True)
    """
    decisions = bayes_decisions(proba, costs)
    n = np.shape(proba)[1]
    if labels is None:
        classes = np.unique(np.asarray(y_true))
        if classes.size != n:
            raise ValueError(
                f"y_true has {classes.size} classes but proba has {n} columns; pass labels= "
                "to name the class of each column"
            )
        labels = classes.tolist()
    elif len(labels) != n:
        raise ValueError(f"labels must name the {n} columns of proba; got {labels!r}")
    truth, _, k = label_codes(y_true, y_true, labels)
    if truth.size != decisions.size:
        raise ValueError(f"y_true and proba differ in length: {truth.size} vs {decisions.size}")
    m = np.bincount(decisions * k + truth, minlength=k * k).reshape(k, k)
    c = np.asarray(costs, dtype=np.float64)
    return interval(
        lambda stack: expected_cost(stack, c), m, level=level, size=size, method=method, rng=rng
    )
