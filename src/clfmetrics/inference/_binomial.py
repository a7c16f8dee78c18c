r"""Exact binomial arithmetic: masses, tails, Clopper-Pearson intervals, McNemar and Holm.

The probability mass :math:`\binom{n}{k} p^k (1-p)^{n-k}` is computed with Loader's
(2000) saddle-point form, the one R's ``dbinom`` uses (:func:`pmf`): no term is a
difference of large logarithms, so a mass is good to about 1e-16 times
:math:`|\log f(k)|` for any ``n``. The tails (:func:`cdf`, :func:`upper_tail`) sum only
the window of masses that matters. :func:`clopper_pearson` solves
:math:`P(X \ge k \mid p) = I_p(k, n-k+1) = \alpha/2` (and its mirror) for every
element of an array at once; the regularized incomplete beta function :math:`I_x(a, b)`
is its continued fraction (:func:`continued_fraction`, modified Lentz, *Numerical
Recipes* sec. 6.4), vectorised over ``(a, b, x)``, and Student's t tail uses it too.
On these rest McNemar's exact test of two systems on the same items with Connor's
(1987) sample size (:func:`mcnemar`, :func:`mcnemar_sample_size`) and Holm's adjustment
of several p-values (:func:`holm`).

References: Loader (2000); Clopper & Pearson (1934); McNemar (1947); Connor (1987);
Holm (1979).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

from .._base.checks import reject_masked
from . import _bootstrap as rs
from ._bootstrap import check_level

_TINY = 1e-300
_MAX_TERMS = 200_000  # about 20 sqrt(max(a, b)) suffice; this bounds a = b = 10**8


def continued_fraction(a, b, x) -> np.ndarray:
    """The continued fraction of :math:`I_x(a, b)` (modified Lentz), arrays broadcast.

    Meant for ``x`` below the switch point ``(a + 1) / (a + b + 2)``, where it
    converges; each element stops at a relative change below 1e-16.
    """
    a, b, x = (
        np.array(v, dtype=np.float64) for v in np.broadcast_arrays(np.asarray(a, np.float64), b, x)
    )
    shape = a.shape
    a, b, x = a.ravel(), b.ravel(), x.ravel()
    qab, qap = a + b, a + 1.0
    d = 1.0 - qab * x / qap
    d = 1.0 / np.where(np.abs(d) > _TINY, d, _TINY)
    c = np.ones_like(d)
    h = d.copy()
    out = h.copy()
    live = np.arange(a.size)  # the elements still converging, compacted as they finish
    for m in range(1, _MAX_TERMS):
        if live.size == 0:
            break
        m2 = 2.0 * m
        aa_ = a[live]
        for num in (
            m * (b[live] - m) * x[live] / ((aa_ - 1.0 + m2) * (aa_ + m2)),
            -(aa_ + m) * (qab[live] + m) * x[live] / ((aa_ + m2) * (aa_ + 1.0 + m2)),
        ):
            d = 1.0 + num * d
            d = 1.0 / np.where(np.abs(d) > _TINY, d, _TINY)
            c = 1.0 + num / c
            c = np.where(np.abs(c) > _TINY, c, _TINY)
            step = d * c
            h = h * step
        done = np.abs(step - 1.0) < 1e-16
        out[live] = h
        if done.any():
            keep = ~done
            live, c, d, h = live[keep], c[keep], d[keep], h[keep]
    return out.reshape(shape)


def _lgamma(v: np.ndarray) -> np.ndarray:
    return np.vectorize(math.lgamma, otypes=[np.float64])(v)


def regularized_beta(a, b, x) -> np.ndarray:
    """:math:`I_x(a, b)` for ``a, b > 0``, arrays broadcast (0 at ``x <= 0``, 1 at ``x >= 1``).

    The front factor :math:`x^a (1-x)^b / B(a, b)` comes from ``lgamma``, which
    loses about ``log10(a + b)`` digits for large ``a + b``; the binomial tails
    of :mod:`clfmetrics.inference._binomial` use Loader's mass instead.
    """
    a, b, x = (np.asarray(v, dtype=np.float64) for v in np.broadcast_arrays(a, b, x))
    inside = (x > 0) & (x < 1)
    xs = np.where(inside, x, 0.5)
    with np.errstate(divide="ignore"):
        front = np.exp(
            _lgamma(a + b) - _lgamma(a) - _lgamma(b) + a * np.log(xs) + b * np.log1p(-xs)
        )
    low = xs < (a + 1.0) / (a + b + 2.0)
    # Each element through the side of the switch point where its fraction converges.
    frac = continued_fraction(np.where(low, a, b), np.where(low, b, a), np.where(low, xs, 1 - xs))
    value = np.where(low, front * frac / a, 1.0 - front * frac / b)
    return np.where(inside, value, np.where(x >= 1, 1.0, 0.0))


# Stirling's error delta(n) = log n! - log(sqrt(2 pi n) (n/e)^n) for n = 0..15 from lgamma
# (values below 0.16, so lgamma's rounding stays near 1e-15); larger n use the series.
_SMALL = 15
_STIRLING_TABLE = np.array(
    [0.0]
    + [
        math.lgamma(n + 1) - (n + 0.5) * math.log(n) + n - 0.5 * math.log(2 * math.pi)
        for n in range(1, _SMALL + 1)
    ]
)
_SERIES_TERMS = 12  # |v| < 0.1 in the series of D, so 12 terms reach 1e-24 relative


def _stirling_error(n: np.ndarray) -> np.ndarray:
    """delta(n) for whole numbers ``n >= 0`` (Loader 2000, eq. 4 and his series)."""
    n = np.asarray(n, dtype=np.float64)
    small = n <= _SMALL
    big = np.where(small, _SMALL + 1.0, n)
    nn = big * big
    s0, s1, s2, s3, s4 = 1 / 12, 1 / 360, 1 / 1260, 1 / 1680, 1 / 1188
    series = np.where(
        big > 500,
        (s0 - s1 / nn) / big,
        np.where(
            big > 80,
            (s0 - (s1 - s2 / nn) / nn) / big,
            np.where(
                big > 35,
                (s0 - (s1 - (s2 - s3 / nn) / nn) / nn) / big,
                (s0 - (s1 - (s2 - (s3 - s4 / nn) / nn) / nn) / nn) / big,
            ),
        ),
    )
    table = _STIRLING_TABLE[np.clip(n, 0, _SMALL).astype(np.intp)]
    return np.where(small, table, series)


def _deviance(x: np.ndarray, m: np.ndarray) -> np.ndarray:
    """D(x, m) = x log(x / m) + m - x for x >= 0, m > 0, without cancellation near x = m."""
    x, m = np.broadcast_arrays(np.asarray(x, np.float64), np.asarray(m, np.float64))
    near = np.abs(x - m) < 0.1 * (x + m)
    with np.errstate(divide="ignore", invalid="ignore"):
        v = (x - m) / (x + m)
        total = (x - m) * v
        term = 2 * x * v
        v2 = v * v
        for j in range(1, _SERIES_TERMS + 1):
            term = term * v2
            total = total + term / (2 * j + 1)
        direct = np.where(x > 0, x * np.log(x / m), 0.0) + m - x
    return np.where(near, total, direct)


def pmf(k, n, p) -> np.ndarray:
    """``P(X = k)`` for ``X ~ Binomial(n, p)``; arrays broadcast (0 outside ``0..n``)."""
    k, n, p = np.broadcast_arrays(
        np.asarray(k, np.float64), np.asarray(n, np.float64), np.asarray(p, np.float64)
    )
    q = 1 - p
    inside = (k >= 0) & (k <= n)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        # Inner masses (0 < k < n, 0 < p < 1); the ends and degenerate p are set below.
        kk = np.clip(k, 1, None)
        rest = np.clip(n - k, 1, None)
        nn = np.maximum(n, 2)
        pp = np.clip(p, 1e-300, 1)
        qq = np.clip(q, 1e-300, 1)
        log_inner = (
            _stirling_error(nn)
            - _stirling_error(kk)
            - _stirling_error(rest)
            - _deviance(kk, nn * pp)
            - _deviance(rest, nn * qq)
            - 0.5 * (math.log(2 * math.pi) + np.log(kk) + np.log1p(-kk / nn))
        )
        # k = 0: q^n, through D when p is small (log1p would do as well; this is Loader's form).
        log_zero = np.where(p < 0.1, -_deviance(n, n * qq) - n * p, n * np.log(qq))
        log_all = np.where(q < 0.1, -_deviance(n, n * pp) - n * q, n * np.log(pp))
        out = np.exp(np.where(k == 0, log_zero, np.where(k == n, log_all, log_inner)))
    out = np.where(p == 0, (k == 0) * 1.0, out)
    out = np.where(q == 0, (k == n) * 1.0, out)
    out = np.where(n == 0, (k == 0) * 1.0, out)
    return np.where(inside, out, 0.0)


def _check_counts(k, n):
    k_arr, n_arr = np.asarray(k), np.asarray(n)
    for name, arr in (("k", k_arr), ("n", n_arr)):
        if arr.dtype == bool or not np.issubdtype(arr.dtype, np.number):
            raise ValueError(f"{name} must hold whole numbers; got dtype {arr.dtype}")
        if not np.isfinite(arr).all() or not np.array_equal(arr, np.round(arr)):
            raise ValueError(f"{name} must hold finite whole numbers; got {arr!r}")
    if (n_arr < 0).any() or (k_arr < 0).any() or (k_arr > n_arr).any():
        raise ValueError(f"need 0 <= k <= n; got k={k!r}, n={n!r}")
    return k_arr.astype(np.int64), n_arr.astype(np.int64)


def _reach(n: float, p: float) -> int:
    """Masses further than this from a point of the tail or from the mean are negligible.

    The masses are log-concave, so beyond ``40 sd + 100`` of the largest mass
    they have fallen by more than ``exp(-800)`` relative to it (a Gaussian decay
    of curvature at least ``1 / (npq)`` in the bulk, faster in the tails).
    """
    return math.ceil(40 * math.sqrt(n * p * (1 - p))) + 100


def _tails(k, n, p, upper: bool) -> np.ndarray:
    """P(X <= k) (``upper=False``) or P(X >= k), summed from the small end of the tail."""
    k, n, p = np.broadcast_arrays(np.asarray(k), np.asarray(n), np.asarray(p, np.float64))
    out = np.empty(k.shape, dtype=np.float64)
    # One mass vector per distinct (n, p): the queries share it, whatever their number.
    pairs, inverse = np.unique(np.stack([n.ravel(), p.ravel()]), axis=1, return_inverse=True)
    flat_k, flat_out = k.ravel(), out.reshape(-1)
    for g, (n_g, p_g) in enumerate(pairs.T):
        here = inverse.ravel() == g
        ks = flat_k[here].astype(np.int64)
        # Only a window of O(sd) masses matters, not all n + 1: 10**9 trials stay cheap.
        mean, reach, top = n_g * p_g, _reach(n_g, p_g), int(n_g)
        if upper:
            lo = max(int(ks.min()), math.floor(mean) - reach, 0)
            hi = min(max(int(ks.max()), math.ceil(mean)) + reach, top)
        else:
            lo = max(min(int(ks.min()), math.floor(mean)) - reach, 0)
            hi = min(int(ks.max()), math.ceil(mean) + reach, top)
        masses = pmf(np.arange(lo, hi + 1), n_g, p_g)
        if upper:  # sums[i] = P(lo + i <= X <= hi)
            sums = np.append(np.cumsum(masses[::-1])[::-1], 0.0)
            flat_out[here] = sums[np.clip(ks - lo, 0, hi - lo + 1)]
        else:  # sums[i + 1] = P(lo <= X <= lo + i)
            sums = np.append(0.0, np.cumsum(masses))
            flat_out[here] = sums[np.clip(ks - lo + 1, 0, hi - lo + 1)]
    return np.minimum(out, 1.0)


def cdf(k, n, p) -> np.ndarray:
    """``P(X <= k)`` for ``X ~ Binomial(n, p)``, arrays broadcast."""
    k, n = _check_counts(k, n)
    return _tails(k, n, p, upper=False)


def upper_tail(k, n, p) -> np.ndarray:
    """``P(X >= k)`` for ``X ~ Binomial(n, p)`` (scipy's ``sf(k - 1)``), arrays broadcast."""
    k, n = _check_counts(k, n)
    return _tails(k, n, p, upper=True)


def two_sided_half(k, n) -> np.ndarray:
    r"""Exact two-sided p-value of ``k`` successes in ``n`` trials against ``p = 1/2``.

    The distribution is symmetric, so the outcomes at most as likely as ``k``
    are the two tails beyond ``min(k, n - k)``:
    :math:`\min(1, 2 P(X \le \min(k, n - k)))`, which is
    ``scipy.stats.binomtest(k, n, 0.5).pvalue``. ``n = 0`` gives 1.
    """
    k, n = _check_counts(k, n)
    return np.minimum(1.0, 2 * _tails(np.minimum(k, n - k), n, 0.5, upper=False))


def _tail_at_least(k: np.ndarray, n: np.ndarray, p: np.ndarray) -> np.ndarray:
    r"""``P(X >= k)`` for ``1 <= k <= n``, ``0 < p < 1``: :math:`I_p(k, n - k + 1)`, arrays.

    The front factor of the incomplete beta function is Loader's mass,
    :math:`p^k (1-p)^{n-k+1} / (k B(k, n-k+1)) = (1 - p) f(k)`, so no ``lgamma``
    difference loses digits at large ``n``; the continued fraction is
    :func:`clfmetrics.inference._binomial.continued_fraction`, on the side of the switch
    point ``(k + 1) / (n + 3)`` where it converges.
    """
    a, b = k.astype(np.float64), (n - k + 1).astype(np.float64)
    front = (1 - p) * pmf(k, n, p)  # x^a (1-x)^b / (a B(a, b))
    low = p < (a + 1) / (a + b + 2)
    frac = continued_fraction(np.where(low, a, b), np.where(low, b, a), np.where(low, p, 1 - p))
    return np.where(low, front * frac, 1 - front * frac * a / b)


def _guess(a: np.ndarray, b: np.ndarray, target: float) -> np.ndarray:
    """Start of the root search: the ``target`` quantile of Beta(a, b) for ``a, b >= 1``.

    The normal-deviate approximation of *Numerical Recipes* (3rd ed., ``invbetai``).
    """
    t = math.sqrt(-2 * math.log(min(target, 1 - target)))
    z = (2.30753 + t * 0.27061) / (1 + t * (0.99229 + t * 0.04481)) - t
    z = -z if target < 0.5 else z
    al = (z * z - 3) / 6
    h = 2 / (1 / (2 * a - 1) + 1 / (2 * b - 1))
    w = z * np.sqrt(al + h) / h - (1 / (2 * b - 1) - 1 / (2 * a - 1)) * (al + 5 / 6 - 2 / (3 * h))
    with np.errstate(over="ignore"):
        return a / (a + b * np.exp(2 * w))


def _low_ends(k: np.ndarray, n: np.ndarray, half: float) -> np.ndarray:
    r"""The ``p`` with :math:`P(X \ge k \mid p) = ` ``half`` (0 where ``k = 0``), arrays.

    :math:`P(X \ge k \mid p) = I_p(k, n-k+1)` rises from 0 to at least 1/2 on
    ``[0, k/n]`` (``k`` is a median at ``p = k/n``), so that bracket holds the
    root. Halley steps on the exact tail, whose derivative is the Beta density
    :math:`k f(k) / p`, start from :func:`_guess`; a step leaving the bracket is
    replaced by bisection. All elements iterate at once until each has moved
    less than 1e-15 relative (a few steps).
    """
    out = np.zeros(k.shape, dtype=np.float64)
    full = k == n
    out[full] = half ** (1.0 / n[full])
    inner = np.flatnonzero((k > 0) & ~full)
    kk, nn = k[inner], n[inner]
    a, b = kk.astype(np.float64), (nn - kk + 1).astype(np.float64)
    lo, hi = np.zeros(inner.size), kk / nn
    p = _guess(a, b, half)
    p = np.where((p > lo) & (p < hi), p, 0.5 * (lo + hi))
    live = np.arange(inner.size)
    for _ in range(200):
        if live.size == 0:
            break
        ki, ni, ai, bi, pi = kk[live], nn[live], a[live], b[live], p[live]
        err = _tail_at_least(ki, ni, pi) - half
        lo[live] = np.where(err < 0, pi, lo[live])
        hi[live] = np.where(err < 0, hi[live], pi)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            u = err / (ai * pmf(ki, ni, pi) / pi)  # Newton's step
            bend = u * ((ai - 1) / pi - (bi - 1) / (1 - pi))
            # Halley's step, Newton's where the bend is large (far from the root).
            new = pi - u / (1 - 0.5 * np.clip(bend, -1.0, 1.0))
        settled = (np.abs(new - pi) <= 1e-15 * pi) | (hi[live] - lo[live] <= 1e-15 * hi[live])
        outside = ~settled & ~((new > lo[live]) & (new < hi[live]))
        p[live] = np.where(outside, 0.5 * (lo[live] + hi[live]), new)
        live = live[~settled]
    out[inner] = p
    return out


def clopper_pearson(k, n, level=0.95):
    r"""Exact (Clopper-Pearson) interval of a binomial proportion ``k / n``, arrays too.

    The ends are the ``p`` at which the observed count becomes just
    significant in each tail at :math:`\alpha/2`, :math:`\alpha = 1 -` ``level``:

    .. math::

        P(X \ge k \mid p_\text{low}) = \alpha/2, \qquad
        P(X \le k \mid p_\text{high}) = \alpha/2,

    with :math:`p_\text{low} = 0` for ``k = 0`` and :math:`p_\text{high} = 1` for
    ``k = n`` (then the other end is :math:`(\alpha/2)^{1/n}` away in closed
    form). By symmetry :math:`p_\text{high}(k) = 1 - p_\text{low}(n - k)`. Each
    tail is the regularized incomplete beta function :math:`I_p(k, n-k+1)`, by
    its continued fraction with Loader's mass as front factor, and the ends are
    found by safeguarded Halley steps on whole arrays at once (no loop over the
    pairs). They equal ``scipy.stats.binomtest(k, n).proportion_ci(level,
    method="exact")`` (the beta quantiles) to about 1e-12.

    Parameters
    ----------
    k : int or array_like of int
        Successes, ``0 <= k <= n``.
    n : int or array_like of int
        Trials, at least 1; broadcast against ``k``.
    level : float, default 0.95
        Nominal coverage, strictly between 0 and 1 (the coverage is at least this).

    Returns
    -------
    (float, float) or (ndarray, ndarray)
        ``(low, high)``: floats for single ``k`` and ``n``, else arrays of their
        broadcast shape.

    Examples
    --------
    >>> low, high = clopper_pearson(240, 240)
    >>> round(low, 3), high
    (0.985, 1.0)
    >>> low, high = clopper_pearson([0, 3, 5], [5, 5, 5])
    >>> low.round(3).tolist(), high.round(3).tolist()
    ([0.0, 0.147, 0.478], [0.522, 0.947, 1.0])
    """
    level = check_level(level)
    single = np.ndim(k) == 0 and np.ndim(n) == 0
    k_arr, n_arr = _check_counts(k, n)
    k_arr, n_arr = (np.atleast_1d(v).copy() for v in np.broadcast_arrays(k_arr, n_arr))
    if (n_arr < 1).any():
        raise ValueError(f"n must be at least 1; got {n!r}")
    half = (1 - level) / 2
    low = _low_ends(k_arr, n_arr, half)
    high = 1 - _low_ends(n_arr - k_arr, n_arr, half)
    none = k_arr == 0  # 1 - half^(1/n) without cancellation
    high[none] = -np.expm1(math.log(half) / n_arr[none])
    if single:
        return float(low[0]), float(high[0])
    return low, high


def holm(pvalues) -> np.ndarray:
    r"""Holm's (1979) step-down adjusted p-values, in the input's order and shape.

    With the ``m`` p-values sorted, :math:`p_{(1)} \le \dots \le p_{(m)}`,

    .. math::

        \tilde p_{(i)} = \min\left(1, \max_{j \le i} (m - j + 1)\, p_{(j)}\right).

    Rejecting where :math:`\tilde p \le \alpha` controls the family-wise error
    rate at :math:`\alpha` under any dependence between the tests. The adjusted
    values are monotone in the raw ones and capped at 1, the same formula as
    ``statsmodels.stats.multitest.multipletests(p, method="holm")[1]``.

    Parameters
    ----------
    pvalues : array_like of float in [0, 1]
        One p-value per test, any shape (the family is all of them).

    Returns
    -------
    numpy.ndarray
        Adjusted p-values, same shape as ``pvalues``.

    Raises
    ------
    ValueError
        For an empty, masked or non-numeric input, NaN, or a value outside [0, 1].

    Examples
    --------
    >>> holm([0.01, 0.04, 0.03]).tolist()
    [0.03, 0.06, 0.06]
    """
    reject_masked(pvalues, "pvalues")
    arr = np.asarray(pvalues)
    if arr.dtype == bool or not (
        np.issubdtype(arr.dtype, np.integer) or np.issubdtype(arr.dtype, np.floating)
    ):
        raise ValueError(f"pvalues must hold numbers in [0, 1]; got dtype {arr.dtype}")
    if arr.size == 0:
        raise ValueError("pvalues is empty: there is no test to adjust")
    arr = arr.astype(np.float64)
    if np.isnan(arr).any() or (arr < 0).any() or (arr > 1).any():
        raise ValueError(f"pvalues must lie in [0, 1] with no NaN; got {pvalues!r}")
    flat = arr.ravel()
    order = np.argsort(flat, kind="stable")
    m = flat.size
    adjusted = np.minimum(np.maximum.accumulate((m - np.arange(m)) * flat[order]), 1.0)
    out = np.empty_like(flat)
    out[order] = adjusted
    return out.reshape(arr.shape)


@dataclass(frozen=True)
class McNemarResult:
    """The exact McNemar test of two systems' accuracy on the same items.

    Attributes
    ----------
    statistic : int
        ``min(a_only, b_only)``, the count the exact test refers to a binomial.
    pvalue : float
        Two-sided exact p-value, ``P(Binomial(a_only + b_only, 1/2)`` as extreme).
    a_only : int
        Items that system A labels correctly and system B does not.
    b_only : int
        Items that system B labels correctly and system A does not.
    """

    statistic: int
    pvalue: float
    a_only: int
    b_only: int


def mcnemar(y_true, pred_a, pred_b, *, labels=None) -> McNemarResult:
    r"""Exact McNemar test: do two systems have the same accuracy on these items?

    Only the items on which exactly one system is right carry information:
    ``a_only`` (A right, B wrong) and ``b_only``. Under the null hypothesis each
    of these ``a_only + b_only`` items is equally likely to favour either
    system, so ``a_only ~ Binomial(a_only + b_only, 1/2)``; the p-value is the
    exact two-sided binomial test, :math:`\min(1, 2 P(X \le \min(a, b)))`, equal
    to ``scipy.stats.binomtest(a_only, a_only + b_only).pvalue`` and computed
    with numpy alone.

    Parameters
    ----------
    y_true, pred_a, pred_b : sequence of hashable labels, equal length
    labels : sequence, optional

    Returns
    -------
    McNemarResult

    Examples
    --------
    >>> r = mcnemar([0, 1, 0, 1, 0, 1], [0, 1, 0, 1, 0, 0], [1, 0, 1, 1, 0, 0])
    >>> r.a_only, r.b_only, round(r.pvalue, 3)
    (3, 0, 0.25)
    """
    rows, counts, _, _ = rs.pair_patterns(y_true, pred_a, pred_b, labels)
    return mcnemar_of_patterns(rows, counts)


def mcnemar_of_patterns(rows: np.ndarray, counts: np.ndarray) -> McNemarResult:
    """:func:`mcnemar` from joint patterns (true, A, B) and their counts."""
    t, a, b = rows
    a_only = int(counts[(a == t) & (b != t)].sum())
    b_only = int(counts[(b == t) & (a != t)].sum())
    discordant = a_only + b_only
    pvalue = 1.0 if discordant == 0 else float(two_sided_half(a_only, discordant))
    return McNemarResult(min(a_only, b_only), pvalue, a_only, b_only)


def mcnemar_sample_size(delta, discordance, *, level=0.95, power=0.8) -> int:
    r"""Test items needed for McNemar's test to detect an accuracy difference ``delta``.

    With :math:`\psi` the share of items on which exactly one of the two systems
    is right (the discordance) and :math:`\delta` the difference of their
    accuracies, Connor (1987) gives

    .. math::

        N = \left\lceil \frac{\left(z_{1-\alpha/2} \sqrt{\psi}
            + z_{\text{power}} \sqrt{\psi - \delta^2}\right)^2}{\delta^2} \right\rceil ,

    a normal approximation for the two-sided test at level :math:`\alpha`
    (:math:`1 -` ``level``).

    Parameters
    ----------
    delta : float
        Accuracy difference to detect, ``0 < |delta| <= discordance``.
    discordance : float
        Share of items where exactly one system is right, in (0, 1].
    level : float, default 0.95
        One minus the test's significance level.
    power : float, default 0.8
        Probability of detecting the difference.

    Returns
    -------
    int

    Examples
    --------
    >>> mcnemar_sample_size(0.02, 0.10)
    1960
    """
    level = rs.check_level(level)
    if isinstance(power, bool) or not isinstance(power, (int, float, np.integer, np.floating)):
        raise ValueError(f"power must be a number strictly between 0 and 1; got {power!r}")
    if not 0 < power < 1:
        raise ValueError(f"power must be strictly between 0 and 1 (e.g. 0.8); got {power!r}")
    delta = abs(float(delta))
    if not 0 < discordance <= 1:
        raise ValueError(f"discordance must be in (0, 1]; got {discordance!r}")
    if not 0 < delta <= discordance:
        raise ValueError(
            f"delta must be non-zero and at most the discordance {discordance}: the accuracy "
            f"difference comes from discordant items only; got {delta!r}"
        )
    normal = NormalDist()
    z_test, z_power = normal.inv_cdf(1 - (1 - level) / 2), normal.inv_cdf(power)
    root = z_test * math.sqrt(discordance) + z_power * math.sqrt(discordance - delta**2)
    return math.ceil(root**2 / delta**2)
