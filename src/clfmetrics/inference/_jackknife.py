r"""A large-sample interval of any metric of a confusion matrix: jackknife standard error.

Every metric of the library is a smooth function of the cell proportions ``m / N``
wherever its ratios are defined, so its estimate is approximately normal for large
``N`` with a variance given by the delta method. The jackknife estimates that variance
without a derivative (Efron & Stein 1981; Efron 1982, ch. 3): leaving out one item of
cell ``c`` gives the matrix ``m - e_c`` whoever the item is, so the ``N`` leave-one-out
values take at most ``n**2`` distinct values :math:`\theta_{(c)}`, each ``m_c`` times, and

.. math::

    \widehat{se}^2 = \frac{N - 1}{N} \sum_c m_c (\theta_{(c)} - \bar\theta)^2,
    \qquad \bar\theta = \frac{1}{N} \sum_c m_c \theta_{(c)}.

It is deterministic, costs ``n**2`` evaluations of the metric, and converges to the
delta-method variance (for Cohen's kappa, the large-sample variance of Fleiss, Cohen &
Everitt 1969; ``tests/inference/test_jackknife.py`` checks both). The interval is
:math:`\hat\theta \pm z_{1-\alpha/2}\,\widehat{se}`, cut to the metric's range.

What it assumes: the ``N`` items are independent draws, and ``N`` is large enough for
the normal approximation. Near the ends of the range (kappa near 1, a class of a few
items) it is less reliable than :func:`clfmetrics.inference.interval`; when no item's
removal changes the metric (a perfect matrix) the standard error is 0 and the interval
has no width, which says that the jackknife sees no spread, not that there is none.

A leave-one-out matrix on which the metric is a 0/0 (the last item of a class left out)
is left out of the sum, as the bootstrap leaves out undefined resamples;
``Interval.undefined`` is the share of items whose removal did that. When the metric is
a 0/0 on ``m`` itself, every value counts its 0/0 as ``zero_division``, as in
:func:`clfmetrics.inference.interval`.

Convention: ``m[i, j]`` = items predicted ``i`` whose true class is ``j``.
"""

from __future__ import annotations

from statistics import NormalDist

import numpy as np

from ..metrics import resolve_metric
from . import _bootstrap as rs
from ._bootstrap import count_matrix, score, scores, undefined_mask
from ._interval import Interval

#: The range of each metric of ``clfmetrics.METRICS`` that is not [0, 1]; the interval is cut to it.
RANGES = {"kappa": (-1.0, 1.0), "mcc": (-1.0, 1.0)}

METHOD = "jackknife"


def jackknife_se(func, m: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Jackknife standard errors of ``func`` and the shares of undefined left-outs, for a
    stack ``m`` of shape ``(k, n, n)`` of checked count matrices (arrays of shape ``(k,)``).

    NaN where fewer than 2 items are left among the defined left-outs.
    """
    k, n = m.shape[0], m.shape[-1]
    weights = m.reshape(k, n * n)
    # Every cell's leave-one-out matrix; empty cells get weight 0 and are clipped at 0.
    left_out = np.repeat(weights[:, None, :], n * n, axis=1)
    diagonal = np.arange(n * n)
    left_out[:, diagonal, diagonal] = np.maximum(weights - 1, 0)
    stack = left_out.reshape(k * n * n, n, n)
    flat = scores(func, stack)
    theta = flat.reshape(k, n * n)
    undefined = undefined_mask(func, stack, flat).reshape(k, n * n) & (weights > 0)
    share = (weights * undefined).sum(axis=1) / weights.sum(axis=1)
    observed = ~undefined_mask(func, m, scores(func, m))
    w = np.where(undefined & observed[:, None], 0.0, weights)
    theta = np.where(w > 0, theta, 0.0)
    total = w.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = (w * theta).sum(axis=1) / total
        var = (total - 1) / total * (w * (theta - mean[:, None]) ** 2).sum(axis=1)
    return np.where(total >= 2, np.sqrt(np.maximum(var, 0.0)), np.nan), share


def jackknife_interval(metric, m, *, level=0.95) -> Interval:
    r"""Large-sample interval of a metric: estimate :math:`\pm z \cdot` jackknife standard error.

    Parameters
    ----------
    metric : callable or str
        A function of a stack of confusion matrices or its name in ``clfmetrics.METRICS``.
    m : array_like of non-negative whole numbers, shape (n, n)
        Counts; ``m[i, j]`` = items predicted ``i`` whose true class is ``j``; at least 2 items.
    level : float, default 0.95
        Nominal coverage, strictly between 0 and 1.

    Returns
    -------
    Interval
        ``method="jackknife"``; the ends are cut to the metric's range ([0, 1], or
        :data:`RANGES`) when ``metric`` is a name; NaN when every left-out matrix is
        undefined. ``undefined``: the share of items whose removal makes the metric a 0/0.

    Raises
    ------
    ValueError
        For an unknown metric, a matrix that is not one square matrix of whole counts,
        fewer than 2 items, or ``level`` outside (0, 1).

    Examples
    --------
    >>> iv = jackknife_interval("kappa", [[60, 15, 5], [35, 170, 40], [5, 15, 55]])
    >>> round(iv.estimate, 4), round(iv.low, 4), round(iv.high, 4)
    (0.5183, 0.4448, 0.5918)
    """
    name, func = resolve_metric(metric)
    arr = count_matrix(m)
    level = rs.check_level(level)
    if arr.sum() < 2:
        raise ValueError("the jackknife needs at least 2 items: it leaves one out")
    estimate = score(func, arr)
    se, share = (float(x[0]) for x in jackknife_se(func, arr[None]))
    z = NormalDist().inv_cdf((1 + level) / 2)
    low, high = estimate - z * se, estimate + z * se
    if isinstance(metric, str):
        lower, upper = RANGES.get(name, (0.0, 1.0))
        low, high = max(low, lower), min(high, upper)
    return Interval(estimate, low, high, level, METHOD, share)
