"""The arithmetic of bootstrap intervals: scoring stacks, percentile and BCa ends.

Private helpers of :mod:`clfmetrics.uncertainty` and :mod:`clfmetrics.reporting`.
Formulas from Efron & Tibshirani (1993, ch. 13-14) and DiCiccio & Efron (1996).
"""

from __future__ import annotations

from statistics import NormalDist

import numpy as np

from . import _resample as rs
from ._checks import as_confusion

_NORMAL = NormalDist()


def registry() -> dict:
    """``clfmetrics.METRICS``, the package's metrics by name."""
    from . import METRICS  # imported at call time: the package imports this module first

    return METRICS


def resolve_metric(metric):
    """The metric as ``(name, function)``; a name is looked up in ``clfmetrics.METRICS``."""
    METRICS = registry()
    if isinstance(metric, str):
        if metric not in METRICS:
            raise ValueError(f"unknown metric {metric!r}; choose one of {sorted(METRICS)}")
        return metric, METRICS[metric]
    if not callable(metric):
        raise ValueError(
            f"metric must be a function of a confusion matrix or a name in METRICS; got {metric!r}"
        )
    return getattr(metric, "__name__", repr(metric)), metric


def scores(func, stack: np.ndarray) -> np.ndarray:
    """The metric of every matrix of a stack, checked to be one number per matrix."""
    values = np.asarray(func(stack), dtype=np.float64)
    if values.shape != stack.shape[:-2]:
        raise ValueError(
            f"metric must return one number per matrix of a stack; for shape {stack.shape} "
            f"it returned shape {values.shape}"
        )
    return values


def score(func, m: np.ndarray) -> float:
    """The metric of one matrix, as a float (same shape check as :func:`scores`)."""
    return float(scores(func, m[None])[0])


def count_matrix(m) -> np.ndarray:
    """``m`` as one checked square matrix of whole-number counts (float array)."""
    arr = as_confusion(m)
    if arr.ndim != 2:
        raise ValueError(f"m must be one count matrix (n, n); got shape {arr.shape}")
    rs.whole_counts(arr)
    return arr


def acceleration(func, m: np.ndarray) -> float:
    r"""BCa acceleration from the jackknife over items.

    Leaving out one item of cell ``(i, j)`` gives the matrix ``m - e_ij`` whoever
    the item is, so the ``N`` jackknife values take at most ``n**2`` distinct
    values, each repeated ``m[i, j]`` times:
    :math:`a = \sum_c m_c d_c^3 / (6 (\sum_c m_c d_c^2)^{3/2})` with
    :math:`d_c = \bar\theta - \theta_{(c)}` (Efron & Tibshirani 1993, eq. 14.15).
    """
    n = m.shape[0]
    cells = np.flatnonzero(m.ravel() > 0)
    left_out = np.repeat(m[None], cells.size, axis=0).reshape(cells.size, n * n)
    left_out[np.arange(cells.size), cells] -= 1
    left_out = left_out.reshape(-1, n, n)
    weights = m.ravel()[cells]
    if weights.sum() < 2 or (left_out.sum(axis=(-2, -1)) == 0).any():
        raise ValueError("bca needs at least 2 items: the jackknife leaves one out")
    theta = scores(func, left_out)
    if not np.isfinite(theta).all():
        raise ValueError(
            "bca is undefined here: the metric is not finite on a leave-one-out matrix; "
            "use method='percentile'"
        )
    d = np.average(theta, weights=weights) - theta
    spread = np.sum(weights * d**2)
    if spread == 0:
        return 0.0
    return float(np.sum(weights * d**3) / (6 * spread**1.5))


def bounds(stats, estimate, level, method, acceleration=0.0):
    """Interval ends from the bootstrap values ``stats`` (percentile or BCa)."""
    alpha = (1 - level) / 2
    finite = stats[np.isfinite(stats)]
    if finite.size == 0:
        return float("nan"), float("nan")
    if method == "percentile":
        low, high = np.quantile(finite, [alpha, 1 - alpha])
        return float(low), float(high)
    if finite.min() == finite.max():
        return float(finite[0]), float(finite[0])
    # BCa: bias correction z0 from the share of resamples below the estimate
    # (Efron & Tibshirani 1993, eq. 14.14). Scores of counts are discrete, so
    # resamples equal to the estimate count half, as in scipy.stats.bootstrap;
    # the share is kept off 0 and 1 so that z0 is finite.
    below = (np.count_nonzero(finite < estimate) + 0.5 * np.count_nonzero(finite == estimate)) / (
        finite.size
    )
    below = min(max(below, 0.5 / finite.size), 1 - 0.5 / finite.size)
    z0 = _NORMAL.inv_cdf(below)
    qs = []
    for z in (_NORMAL.inv_cdf(alpha), _NORMAL.inv_cdf(1 - alpha)):
        shifted = z0 + (z0 + z) / (1 - acceleration * (z0 + z))
        qs.append(_NORMAL.cdf(shifted))
    low, high = np.quantile(finite, qs)
    return float(low), float(high)
