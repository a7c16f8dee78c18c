r"""Bootstrap ends from fewer resamples: the statistic's linear part as a control variate.

On many items a statistic is close to its linear part: on a resample,
:math:`T^* = \hat\theta + L^* + R^*` with :math:`L^* = \sum_c (f_c - n_c)\, a_c` over
the cells (resampled counts :math:`f_c`, observed :math:`n_c`, coefficients
:math:`a_c` from the jackknife) and a remainder :math:`R^*` of a smaller order.
The distribution of :math:`L^*` is known without resampling: within each class it
is a sum of :math:`n_j` independent draws from the cells' coefficients (each with
its cell's share), so its cumulants are :math:`n_j` times theirs, and from
``CONTROL_ITEMS`` items a class its distribution is the normal one corrected for
skewness (Edgeworth's one-term expansion), up to :math:`O(1/n)`.

Efron's (1990) control-function estimator of the bootstrap distribution
:math:`G(t) = P(T^* \le t)` from :math:`B` resamples is

.. math:: \hat G(t) = G_L(t - \hat\theta) + \frac1B \sum_b
          \left([T^*_b \le t] - [\hat\theta + L^*_b \le t]\right),

unbiased for :math:`G` (for any coefficients), with variance at most
:math:`p_t / B`, :math:`p_t` the chance that the two indicators differ, in place of
the plain share's :math:`G(1 - G)/B`. The ends are the quantiles of :math:`\hat G`
(percentile, or BCa's adjusted levels with :math:`z_0 = \Phi^{-1}(\hat G(\hat\theta))`):
the same bootstrap distribution as the plain ends, estimated with less Monte Carlo
error per resample. :math:`p_t` is estimated by the larger of the share of
resamples whose indicators differ and :math:`g_L(t - \hat\theta)\, \overline{|R^*|}`
(the chance that :math:`t` falls between :math:`\hat\theta + L^*` and :math:`T^*`,
:math:`g_L` the density of :math:`L^*`), so that resampling can stop as soon as
both ends are as precise as the plain ends from the resamples asked for.

References: Efron (1990), More efficient bootstrap computations, JASA 85, 79-89;
Davison & Hinkley (1997, section 9.3); Hall (1992, section 2.5) for the expansions.
"""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np

_NORMAL = NormalDist()

#: Items of the smaller class from which :math:`L^*`'s distribution is taken as its
#: skewness-corrected normal one (its error, O(1/n), is then far below the Monte Carlo
#: error of the ends).
CONTROL_ITEMS = 10_000


def class_cumulants(weights: np.ndarray, coefficients: np.ndarray) -> tuple[float, float]:
    r"""Variance and third cumulant of :math:`\sum_c f_c a_c`, ``f`` multinomial over cells.

    ``f`` draws ``n = weights.sum()`` items, each cell with share ``weights / n``:
    the sum of ``n`` independent draws of :math:`a`, so ``n`` times the variance and
    the third central moment of one draw.
    """
    n = float(weights.sum())
    share = weights / n
    mean = share @ coefficients
    d = coefficients - mean
    return n * float(share @ d**2), n * float(share @ d**3)


def linear_cdf(x: float, k2: float, k3: float) -> float:
    """Edgeworth CDF (one skewness term) of the same variable, kept within [0, 1]."""
    if k2 <= 0:
        return float(x >= 0)
    sd = math.sqrt(k2)
    z = x / sd
    value = _NORMAL.cdf(z) - _NORMAL.pdf(z) * k3 / sd**3 * (z * z - 1) / 6
    return min(max(value, 0.0), 1.0)


def linear_density(x: float, k2: float) -> float:
    """The normal density of :math:`L^*` at ``x`` (for the Monte Carlo error only)."""
    if k2 <= 0:
        return 0.0
    sd = math.sqrt(k2)
    return _NORMAL.pdf(x / sd) / sd


def controlled_cdf(t: float, stats, linear, estimate: float, k2: float, k3: float) -> float:
    r""":math:`\hat G(t)`: the known CDF of the linear part, corrected by the resamples."""
    correction = np.mean(stats <= t) - np.mean(estimate + linear <= t)
    return linear_cdf(t - estimate, k2, k3) + float(correction)


def controlled_quantile(q: float, stats, linear, estimate, k2, k3) -> float:
    r"""A ``t`` with :math:`\hat G(t) = q`, by bisection.

    :math:`\hat G` is the continuous CDF of the linear part plus the resamples'
    correction, a step function (so not always increasing): the bisection starts
    below and above every resample, where :math:`\hat G` is 0 and 1, and ends at a
    crossing of ``q``, to the last bits of ``t``.
    """
    spread = 10 * math.sqrt(max(k2, 0.0)) + 1e-12
    low = min(float(stats.min()), estimate + float(linear.min())) - spread
    high = max(float(stats.max()), estimate + float(linear.max())) + spread
    for _ in range(200):
        middle = 0.5 * (low + high)
        if middle in (low, high):
            break
        if controlled_cdf(middle, stats, linear, estimate, k2, k3) < q:
            low = middle
        else:
            high = middle
    return high


def end_variance(t: float, stats, linear, estimate: float, k2: float) -> float:
    """Estimated Monte Carlo variance of :math:`\\hat G(t)` (see the module's text)."""
    size = len(stats)
    differ = float(np.mean((stats <= t) != (estimate + linear <= t)))
    smooth = linear_density(t - estimate, k2) * float(np.mean(np.abs(stats - estimate - linear)))
    return max(differ, smooth) / size


def controlled_levels(stats, linear, estimate, k2, k3, level, method, acceleration=0.0):
    """The two quantile levels of the ends: percentile's, or BCa's from :math:`\\hat G`."""
    alpha = (1 - level) / 2
    if method == "percentile":
        return alpha, 1 - alpha
    size = len(stats)
    below = controlled_cdf(estimate, stats, linear, estimate, k2, k3)
    z0 = _NORMAL.inv_cdf(min(max(below, 0.5 / size), 1 - 0.5 / size))
    out = []
    for z in (_NORMAL.inv_cdf(alpha), _NORMAL.inv_cdf(1 - alpha)):
        out.append(_NORMAL.cdf(z0 + (z0 + z) / (1 - acceleration * (z0 + z))))
    return tuple(out)


def controlled_ends(stats, linear, estimate, k2, k3, level, method, acceleration=0.0):
    """The ends and, for each, its estimated Monte Carlo variance over the plain ends'.

    The plain ends from ``len(stats)`` resamples have variance ``q (1 - q) / B`` at
    level ``q`` (on the CDF's scale); a ratio of at most ``B / size`` makes these ends
    as precise as the plain ones from ``size`` resamples.
    """
    stats, linear = np.asarray(stats, np.float64), np.asarray(linear, np.float64)
    ends, ratios = [], []
    for q in controlled_levels(stats, linear, estimate, k2, k3, level, method, acceleration):
        t = controlled_quantile(q, stats, linear, estimate, k2, k3)
        ends.append(t)
        plain = q * (1 - q) / len(stats)
        ratios.append(end_variance(t, stats, linear, estimate, k2) / plain)
    return (ends[0], ends[1]), max(ratios)
