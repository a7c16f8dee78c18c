"""The arithmetic of bootstrap intervals: scoring stacks, percentile and BCa ends.

Private helpers of :mod:`clfmetrics.uncertainty` and :mod:`clfmetrics.reporting`.
Formulas from Efron & Tibshirani (1993, ch. 13-14) and DiCiccio & Efron (1996).
"""

from __future__ import annotations

import inspect
import math
from statistics import NormalDist

import numpy as np

from . import _resample as rs
from ._checks import as_confusion

_NORMAL = NormalDist()


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


def acceleration(func, m: np.ndarray):
    r"""BCa acceleration from the jackknife over items, for ``m`` of shape ``(..., n, n)``.

    Leaving out one item of cell ``(i, j)`` gives the matrix ``m - e_ij`` whoever
    the item is, so the ``N`` jackknife values take at most ``n**2`` distinct
    values, each repeated ``m[i, j]`` times:
    :math:`a = \sum_c m_c d_c^3 / (6 (\sum_c m_c d_c^2)^{3/2})` with
    :math:`d_c = \bar\theta - \theta_{(c)}` (Efron & Tibshirani 1993, eq. 14.15).
    Returns a float for one matrix and an array of shape ``...`` for a stack.
    """
    n = m.shape[-1]
    weights = m.reshape(*m.shape[:-2], n * n)
    if (weights.sum(axis=-1) < 2).any():
        raise ValueError("bca needs at least 2 items: the jackknife leaves one out")
    # Every cell's leave-one-out matrix; empty cells get weight 0 and are clipped at 0.
    left_out = np.repeat(weights[..., None, :], n * n, axis=-2)
    diagonal = np.arange(n * n)
    left_out[..., diagonal, diagonal] = np.maximum(weights - 1, 0)
    theta = scores(func, left_out.reshape(*weights.shape, n, n))
    if not np.isfinite(theta[weights > 0]).all():
        raise ValueError(
            "bca is undefined here: the metric is not finite on a leave-one-out matrix; "
            "use method='percentile'"
        )
    theta = np.where(weights > 0, theta, 0.0)
    d = (weights * theta).sum(axis=-1, keepdims=True) / weights.sum(axis=-1, keepdims=True) - theta
    spread = (weights * d**2).sum(axis=-1)
    skew = (weights * d**3).sum(axis=-1)
    out = np.zeros_like(spread)
    np.divide(skew, 6 * spread**1.5, out=out, where=spread > 0)
    return float(out) if out.ndim == 0 else out


_cdf = np.vectorize(_NORMAL.cdf, otypes=[float])
_inv_cdf = np.vectorize(_NORMAL.inv_cdf, otypes=[float])


def _column_quantiles(ordered: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Quantile ``q[...]`` of each column ``ordered[:, ...]`` (sorted along axis 0).

    Linear interpolation between order statistics, numpy's default ``"linear"``
    method, but with a different level per column.
    """
    pos = q * (ordered.shape[0] - 1)
    lo = np.floor(pos).astype(np.intp)
    hi = np.minimum(lo + 1, ordered.shape[0] - 1)
    below = np.take_along_axis(ordered, lo[None], axis=0)[0]
    above = np.take_along_axis(ordered, hi[None], axis=0)[0]
    return below + (pos - lo) * (above - below)


def bounds(stats, estimate, level, method, acceleration=0.0):
    """Interval ends from bootstrap values ``stats`` of shape ``(size, ...)``.

    ``estimate`` and ``acceleration`` have the shape ``...`` (or broadcast to it);
    the ends are floats for one interval and arrays of shape ``...`` for many.
    A metric undefined (NaN) on any resample gives NaN ends.
    """
    stats = np.asarray(stats, dtype=np.float64)
    shape = stats.shape[1:]
    alpha = (1 - level) / 2
    if method == "percentile":
        q_low, q_high = np.full(shape, alpha), np.full(shape, 1 - alpha)
    else:
        # BCa: bias correction z0 from the share of resamples below the estimate
        # (Efron & Tibshirani 1993, eq. 14.14). Scores of counts are discrete, so
        # resamples equal to the estimate count half, as in scipy.stats.bootstrap;
        # the share is kept off 0 and 1 so that z0 is finite.
        size = stats.shape[0]
        below = ((stats < estimate).sum(axis=0) + 0.5 * (stats == estimate).sum(axis=0)) / size
        z0 = _inv_cdf(np.clip(below, 0.5 / size, 1 - 0.5 / size))
        z_low, z_high = _NORMAL.inv_cdf(alpha), _NORMAL.inv_cdf(1 - alpha)
        q_low = _cdf(z0 + (z0 + z_low) / (1 - acceleration * (z0 + z_low)))
        q_high = _cdf(z0 + (z0 + z_high) / (1 - acceleration * (z0 + z_high)))
    ordered = np.sort(stats, axis=0)
    undefined = np.isnan(stats).any(axis=0)
    low = np.where(undefined, np.nan, _column_quantiles(ordered, np.asarray(q_low)))
    high = np.where(undefined, np.nan, _column_quantiles(ordered, np.asarray(q_high)))
    if low.ndim == 0:
        return float(low), float(high)
    return low, high


def undefined_mask(func, stack: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Where the metric is undefined on a stack: NaN, or a 0/0 that ``zero_division`` filled.

    The library's metrics fill a 0/0 with ``zero_division`` (0 by default), so a
    resample without a prediction of some class scores a made-up 0. A metric that
    takes ``zero_division`` is asked again with ``"nan"``; any other callable is
    undefined where it returns NaN.
    """
    undefined = np.isnan(values)
    try:
        takes_fill = "zero_division" in inspect.signature(func).parameters
    except (TypeError, ValueError):  # a callable without a signature
        takes_fill = False
    if takes_fill:
        with np.errstate(invalid="ignore", divide="ignore"):
            marked = np.asarray(func(stack, zero_division="nan"), dtype=np.float64)
        undefined = undefined | np.isnan(marked)
    return undefined


def undefined_on(func, m) -> bool:
    """Whether the metric is undefined (a 0/0) on the observed matrix ``m`` itself."""
    stack = np.asarray(m, dtype=np.float64)[None]
    return bool(undefined_mask(func, stack, scores(func, stack))[0])


def defined_bounds(stats, undefined, estimate, level, method, acceleration=0.0, *, observed=True):
    """Interval ends among the resamples where the metric is defined, and the undefined share.

    ``stats`` and ``undefined`` have shape ``(size,)``. Returns ``(low, high, share)``;
    both ends are NaN when the metric is undefined on every resample. ``observed=False``
    says the metric is undefined on the observed matrix itself (a class never predicted):
    its estimate then counts the 0/0 as 0, and so does every resample, since leaving them
    out would leave an interval of the few resamples unlike the test set (or none at all).
    """
    share = float(np.mean(undefined))
    if not observed:
        undefined = np.zeros_like(undefined, dtype=bool)
    kept = np.asarray(stats, dtype=np.float64)[~undefined]
    if kept.size == 0:
        return math.nan, math.nan, share
    low, high = bounds(kept, estimate, level, method, acceleration)
    return low, high, share
