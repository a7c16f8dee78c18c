"""Probe PIII (class decomposability): a necessary condition for a generalised mean over classes."""

from __future__ import annotations

import numpy as np

from .cases import _cached_cases, _check_metric, _name, _rng, _scores
from .render import _fmt
from .results import ProbeResult

#: The interval of exponents p that :func:`is_decomposable` searches (0 = geometric mean).
EXPONENT_RANGE = (-8.0, 8.0)

#: Step of the first, vectorised scan over :data:`EXPONENT_RANGE`.
SCAN_STEP = 0.1

_SCAN_CASES = 400


def _box_cox(f: np.ndarray, p: np.ndarray) -> np.ndarray:
    r""":math:`(f^p - 1)/p`, and :math:`\log f` at :math:`p = 0`; NaN where :math:`f \le 0`
    (except at :math:`p = 1`, the arithmetic mean, which any real score allows).

    A generalised mean with exponent :math:`p` is a class-wise sum after
    :math:`f \mapsto f^p`, and equally after this affine rescaling of it, which
    is continuous in :math:`p` through the geometric mean (:math:`p \to 0`).
    Plain :math:`f^p` would flatten every mixed difference as :math:`p \to 0`.
    """
    with np.errstate(all="ignore"):
        log_f = np.log(np.where(f > 0, f, np.nan))
        p_safe = np.where(p == 0, 1.0, p)
        out = np.where(p == 0, log_f, np.expm1(p * log_f) / p_safe)
        return np.where(p == 1, f - 1.0, out)  # p = 1 is defined for negative scores too


def _relative(values: tuple, p) -> np.ndarray:
    """Signed mixed difference relative to the larger single effect, shape (len(p), cases).

    ``values`` are the scores at m, m + a, m + b, m + a + b (each of shape
    (cases,)). The single effect gets a floor of 1e-8 of the transformed
    score's own size, so a pair of cells the score barely notices does not turn
    rounding noise into a large ratio. NaN (a score <= 0, or undefined) is
    infinitely bad.
    """
    p = np.asarray(p, dtype=np.float64)[:, None]
    t0, ta, tb, tab = (_box_cox(v[None, :], p) for v in values)
    d = tab - ta - tb + t0
    with np.errstate(all="ignore"):
        floor = 1e-8 * (np.abs(1 + p * t0) + np.abs(t0))  # 1 + p t0 = score**p
        rel = d / (np.maximum(np.abs(ta - t0), np.abs(tb - t0)) + floor)
    return np.where(np.isnan(rel), np.inf, rel)


def _worst(values: tuple, p) -> np.ndarray:
    """Largest relative mixed difference over all cases, for each exponent in ``p``."""
    return np.max(np.abs(_relative(values, p)), axis=1)


def _disjoint_pairs(n: int) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Pairs of cells whose classes do not overlap: no class's row or column holds both."""
    cells = [(i, j) for i in range(n) for j in range(n)]
    return [(a, b) for a in cells for b in cells if a < b and not ({a[0], a[1]} & {b[0], b[1]})]


def _mixed_cases(metric, ns, size, step, seed):
    """Scores at m, m + a, m + b, m + a + b over all cases and cell pairs, flattened."""
    rng = _rng(seed)
    parts, worst = [], None
    for n in ns:
        _check_metric(metric, n)
        pairs = _disjoint_pairs(n)
        m = _cached_cases(n, size, seed) + rng.uniform(0.5, 2.0, size=(1, n, n))
        ea = np.zeros((len(pairs), n, n))
        eb = np.zeros((len(pairs), n, n))
        for k, (a, b) in enumerate(pairs):
            ea[k][a] = step
            eb[k][b] = step
        base = np.broadcast_to(_scores(metric, m)[:, None], (len(m), len(pairs)))
        fa = _scores(metric, m[:, None] + ea[None])
        fb = _scores(metric, m[:, None] + eb[None])
        fab = _scores(metric, m[:, None] + ea[None] + eb[None])
        parts.append([x.reshape(-1) for x in (base, fa, fb, fab)])
        d = np.abs(fab - fa - fb + base)
        d = np.where(np.isnan(d), np.inf, d)
        c, k = np.unravel_index(int(np.argmax(d)), d.shape)
        if worst is None or d[c, k] > worst[0]:
            worst = (d[c, k], m[c], pairs[k], float((fab - fa - fb + base)[c, k]))
    return tuple(np.concatenate(v) for v in zip(*parts, strict=True)), worst


def _root(values, a: float, b: float, p: float) -> float:
    """Refine ``p`` in ``[a, b]``: solve the worst case's mixed difference for 0, a few times.

    For a generalised mean every case's difference vanishes at the same exponent,
    so solving one case (scipy's ``brentq``) lands on it; for any other score
    the worst case changes and the others stay far from 0. Once the worst case left is
    rounding noise, solving it can land anywhere in ``[a, b]`` (its difference is 0 at
    many points), so a step is kept only when it lowers the worst difference over all cases.
    """
    from scipy.optimize import brentq

    worst = float(_worst(values, [p])[0])
    for _ in range(4):
        c = int(np.argmax(np.abs(_relative(values, [p])[0])))
        sub = tuple(v[c : c + 1] for v in values)
        lo, hi = (float(_relative(sub, [q])[0, 0]) for q in (a, b))
        if not (np.isfinite(lo) and np.isfinite(hi)) or lo * hi > 0:
            break
        step = brentq(lambda q, sub=sub: float(_relative(sub, [q])[0, 0]), a, b, xtol=1e-15)
        step_worst = float(_worst(values, [step])[0])
        if not step_worst < worst:
            break
        p, worst = step, step_worst
    return p


def _search_exponents(values, tol):
    """Exponents in :data:`EXPONENT_RANGE` at which every relative mixed difference is <= tol.

    A vectorised scan at :data:`SCAN_STEP`; around each of the best local minima
    of the scan the exponent is solved for (:func:`_root`). A passing exponent is
    reported rounded to the fewest decimals (up to 6) that still pass.

    Returns
    -------
    passing : list of float
    best : tuple (p, largest relative mixed difference at p)
    """
    lo, hi = EXPONENT_RANGE
    grid = np.linspace(lo, hi, round((hi - lo) / SCAN_STEP) + 1)
    # the scan only locates candidates, so an even subsample of the cases is enough;
    # every candidate is then checked on all of them
    stride = max(1, values[0].size // _SCAN_CASES)
    scan = _worst(tuple(v[::stride] for v in values), grid)
    padded = np.concatenate([[np.inf], scan, [np.inf]])
    minima = np.flatnonzero((scan <= padded[:-2]) & (scan <= padded[2:]) & np.isfinite(scan))
    best = (float(grid[np.argmin(scan)]), np.inf)
    passing = []
    for k in minima[np.argsort(scan[minima])][:6]:
        a, b = grid[max(k - 1, 0)], grid[min(k + 1, len(grid) - 1)]
        p = _root(values, float(a), float(b), float(grid[k]))
        worst = float(_worst(values, [p])[0])
        if worst < best[1]:
            best = (p, worst)
        if worst > tol:
            continue
        p = next((r for d in range(7) if _worst(values, [r := round(p, d) + 0.0])[0] <= tol), p)
        if not any(abs(p - q) < 1e-6 for q in passing):
            passing.append(p)
    return sorted(passing), best


def is_decomposable(metric, *, ns=(2, 3, 4), size=120, step=3.0, tol=1e-6, seed=2):
    r"""Probe PIII through a necessary condition for a generalised mean over classes.

    If :math:`metric(m) = \big(\frac1n\sum_i g(m_{i,\cdot}, m_{\cdot,i}, i)^p\big)^{1/p}`
    (Opitz 2024, eq. 4), then :math:`(metric^p - 1)/p` is a sum of terms that
    each see only row and column :math:`i` (the logarithm for :math:`p = 0`). Two
    cells :math:`a, b` that share no class — e.g. :math:`m_{00}` and
    :math:`m_{11}`, or :math:`m_{01}` and :math:`m_{23}` — then never meet in
    one term, so the mixed difference

    .. math:: D = \phi(m + a + b) - \phi(m + a) - \phi(m + b) + \phi(m),
              \qquad \phi = (metric^p - 1)/p

    is 0. The probe evaluates :math:`D` on strictly positive random matrices
    and searches every exponent :math:`p` in :data:`EXPONENT_RANGE`
    continuously (a scan, then bounded minimisation of the largest
    :math:`|D|` relative to the single effects). PIII is *refuted* for that
    range when no exponent brings every :math:`D` to 0 (within ``tol``);
    otherwise the result lists the exponents found. A pass is a necessary
    condition only — sufficiency needs the algebraic form (e.g. :math:`g = R_i`,
    :math:`p = 1` for macro recall), which the result says.

    Returns
    -------
    ProbeResult
        ``evidence["exponents"]``: the exponents consistent with the data;
        ``evidence["best_exponent"]`` and ``evidence["largest_relative_difference"]``:
        where the search came closest; on failure also the matrix and cells with
        the largest :math:`|D|` at :math:`p = 1`.
    """
    values, worst = _mixed_cases(metric, ns, size, step, seed)
    n_cases = values[0].size
    passing, (p_best, d_best) = _search_exponents(values, tol)
    name = _name(metric)
    lo, hi = EXPONENT_RANGE
    ev = {"exponents": passing, "best_exponent": p_best, "largest_relative_difference": d_best}
    if passing:
        return ProbeResult(
            "PIII",
            name,
            True,
            "necessary condition",
            n_cases,
            "Cells that share no class never interact (mixed differences are 0) after "
            f"x -> (x**p - 1)/p for p = {', '.join(f'{p:g}' for p in passing)}. This is "
            "necessary, not sufficient: that a class-wise g exists is established by the "
            "metric's formula, not by this probe.",
            ev,
        )
    detail = (
        f"No exponent p in [{lo:g}, {hi:g}] (searched continuously) makes every pair of "
        "cells that share no class independent, so the score is no generalised mean over "
        "class-wise scores with such a p"
    )
    detail += (
        "."
        if not np.isfinite(d_best)
        else f" (closest: p = {p_best:.3g}, where a mixed difference is still "
        f"{d_best:.2g} of a single effect)."
    )
    if worst is not None and worst[0] > 0:
        _, m0, (a, b), d = worst
        ev.update({"m": m0, "cells": (a, b), "step": step, "mixed_difference_p1": d})
        detail += (
            f" At p = 1: adding {_fmt(step)} to m[{a[0]}, {a[1]}] changes the effect of adding "
            f"{_fmt(step)} to m[{b[0]}, {b[1]}] by {d:.3g}."
        )
    return ProbeResult("PIII", name, False, "counterexample", n_cases, detail, ev)
