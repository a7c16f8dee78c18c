"""Clopper-Pearson intervals of many proportions at once (the report's per-class recalls).

:func:`clfmetrics._binomial.clopper_pearson` searches each end on a grid of 8
points per step, summing the binomial masses within ``12 sd + 60`` of the
mean. Here the search runs for all proportions together, by safeguarded
Newton steps: each step is one vectorised evaluation over ``(entries,
window)``, so 1,000 classes cost seconds, where one search per class took
about 20 minutes. The ends agree with ``clopper_pearson`` to about 1e-12
(``tests/test_cli_scale.py``).
"""

from __future__ import annotations

import numpy as np

from ._binomial import clopper_pearson, pmf

#: Numbers of one vectorised step (entries x points x window), to bound its memory.
_STEP_NUMBERS = 2**21


def _window_sums(lo, hi, n, ps):
    """``sum_{x = lo..hi} pmf(x, n, p)`` for each entry (row) and each ``p`` of its row of ``ps``.

    ``lo``, ``hi``, ``n``: shape ``(E,)``; ``ps``: ``(E, G)``. Only the masses within
    ``12 sd + 60`` of the mean are summed, as in ``_binomial._window_sums``.
    """
    means = n[:, None] * ps
    halves = 12 * np.sqrt(means * (1 - ps)) + 60
    a = np.maximum(np.maximum(lo[:, None], np.ceil(means - halves)), 0)
    b = np.minimum(np.minimum(hi[:, None], np.floor(means + halves)), n[:, None])
    width = np.maximum(b - a + 1, 0).astype(np.int64)
    out = np.zeros(ps.shape)
    longest = int(width.max(initial=0))
    if longest == 0:
        return out
    rows = max(1, _STEP_NUMBERS // (ps.shape[1] * longest))
    offsets = np.arange(longest)
    for start in range(0, ps.shape[0], rows):
        part = slice(start, start + rows)
        x = a[part, :, None] + offsets
        masses = pmf(x, n[part, None, None], ps[part, :, None])
        out[part] = np.where(offsets < width[part, :, None], masses, 0.0).sum(axis=-1)
    return out


def _solve(tail, slope, target: float, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Per entry, the p in [a, b] where the increasing ``tail`` crosses ``target``.

    ``tail(p, index)`` and ``slope(p, index)`` (its derivative) evaluate the entries
    ``index``. The bracket is widened as in ``_binomial._solve``; then safeguarded
    Newton steps, a bisection wherever a step would leave the bracket, until each
    entry's step is below 2e-15 of itself; converged entries drop out.
    """
    while True:
        ends = tail(np.stack([a, b], axis=1), slice(None))
        done = ((ends[:, 0] < target) & (target <= ends[:, 1])) | ((a == 0.0) & (b == 1.0))
        if done.all():
            break
        width = b - a
        a = np.where(done, a, np.maximum(a - width, 0.0))
        b = np.where(done, b, np.minimum(b + width, 1.0))
    x = 0.5 * (a + b)
    todo = np.arange(x.size)
    for _ in range(200):
        f = tail(x[todo, None], todo)[:, 0] - target
        lo, hi = np.where(f < 0, x[todo], a[todo]), np.where(f >= 0, x[todo], b[todo])
        d = slope(x[todo], todo)
        step = np.divide(f, d, out=np.full_like(f, np.inf), where=d > 0)
        new = x[todo] - step
        # Converged: the step is below 2e-15 of p (then p may sit on the bracket's end).
        done = (np.abs(step) <= 2e-15 * np.abs(x[todo])) | (
            hi - lo <= np.maximum(1e-15 * hi, 1e-300)
        )
        new = np.where(done | ((new > lo) & (new < hi)), new, 0.5 * (lo + hi))
        a[todo], b[todo], x[todo] = lo, hi, new
        todo = todo[~done]
        if todo.size == 0:
            break
    return x


def clopper_pearson_many(k, n, level: float) -> tuple[np.ndarray, np.ndarray]:
    """Exact intervals of ``k[i] / n[i]`` (whole numbers, ``1 <= n``, ``0 <= k <= n``)."""
    k, n = np.asarray(k, dtype=np.int64), np.asarray(n, dtype=np.int64)
    if k.size <= 2:
        ends = [clopper_pearson(int(a), int(b), level) for a, b in zip(k, n, strict=True)]
        return np.array([e[0] for e in ends]), np.array([e[1] for e in ends])
    half = (1 - level) / 2
    share = k / n
    reach = 10 * np.sqrt(share * (1 - share) / n) + 10 / n
    low = np.where(k == 0, 0.0, np.where(k == n, half ** (1 / n), np.nan))
    high = np.where(k == n, 1.0, np.where(k == 0, 1 - half ** (1 / n), np.nan))
    inner = (k > 0) & (k < n)
    if inner.any():
        ki, ni = k[inner].astype(np.float64), n[inner].astype(np.float64)
        s, r = share[inner], reach[inner]
        # d/dp P(X >= k) = n pmf(k - 1; n - 1, p); d/dp -P(X <= k) = n pmf(k; n - 1, p).
        low[inner] = _solve(
            lambda p, i: _window_sums(ki[i], ni[i], ni[i], p),
            lambda p, i: ni[i] * pmf(ki[i] - 1, ni[i] - 1, p),
            half,
            np.maximum(s - r, 0.0),
            s,
        )
        high[inner] = _solve(
            lambda p, i: -_window_sums(np.zeros_like(ki[i]), ki[i], ni[i], p),
            lambda p, i: ni[i] * pmf(ki[i], ni[i] - 1, p),
            -half,
            s,
            np.minimum(s + r, 1.0),
        )
    return low, high
