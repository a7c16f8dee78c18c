"""Probe PIII (class decomposability): a necessary condition for a generalised mean over classes."""

from __future__ import annotations

import numpy as np

from .cases import _cached_cases, _check_metric, _name, _rng, _scores
from .render import _fmt
from .results import ProbeResult

#: Exponents p of the generalised mean tried by :func:`is_decomposable` (0 = geometric mean).
EXPONENTS = tuple(np.round(np.arange(-4.0, 4.0001, 0.25), 2).tolist())


def _transform(f: np.ndarray, p: float) -> np.ndarray:
    with np.errstate(all="ignore"):
        if p == 0:
            return np.where(f > 0, np.log(np.where(f > 0, f, 1.0)), np.nan)
        if p == 1:
            return f
        return np.where(f > 0, np.power(np.where(f > 0, f, 1.0), p), np.nan)


def _disjoint_pairs(n: int) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Pairs of cells whose classes do not overlap: no class's row or column holds both."""
    cells = [(i, j) for i in range(n) for j in range(n)]
    return [(a, b) for a in cells for b in cells if a < b and not ({a[0], a[1]} & {b[0], b[1]})]


def is_decomposable(metric, *, ns=(2, 3, 4), size=120, step=3.0, tol=1e-8, seed=2):
    r"""Probe PIII through a necessary condition for a generalised mean over classes.

    If :math:`metric(m) = \big(\frac1n\sum_i g(m_{i,\cdot}, m_{\cdot,i}, i)^p\big)^{1/p}`
    (Opitz 2024, eq. 4), then :math:`metric^p` is a sum of terms that each see
    only row and column :math:`i` (the logarithm for :math:`p = 0`). Two cells
    :math:`a, b` that share no class — e.g. :math:`m_{00}` and :math:`m_{11}`,
    or :math:`m_{01}` and :math:`m_{23}` — then never meet in one term, so the
    mixed difference

    .. math:: D = \phi(m + a + b) - \phi(m + a) - \phi(m + b) + \phi(m), \qquad \phi = metric^p

    is 0. The probe evaluates :math:`D` on strictly positive random matrices
    for every exponent in :data:`EXPONENTS`. PIII is *refuted* (for those
    exponents) when every exponent leaves some :math:`D \ne 0`; otherwise it
    returns the exponents that passed. A pass is a necessary condition only —
    sufficiency needs the algebraic form (e.g. :math:`g = R_i`, :math:`p = 1`
    for macro recall), which the result says.

    Returns
    -------
    ProbeResult
        ``evidence["exponents"]``: the exponents consistent with the data; on
        failure the matrix and cells with the largest :math:`|D|` at :math:`p = 1`.
    """
    rng = _rng(seed)
    ok = np.ones(len(EXPONENTS), dtype=bool)
    worst, n_cases = None, 0
    for n in ns:
        _check_metric(metric, n)
        pairs = _disjoint_pairs(n)
        m = _cached_cases(n, size, seed) + rng.uniform(0.5, 2.0, size=(1, n, n))
        ea = np.zeros((len(pairs), n, n))
        eb = np.zeros((len(pairs), n, n))
        for k, (a, b) in enumerate(pairs):
            ea[k][a] = step
            eb[k][b] = step
        base = _scores(metric, m)[:, None]
        fa = _scores(metric, m[:, None] + ea[None])
        fb = _scores(metric, m[:, None] + eb[None])
        fab = _scores(metric, m[:, None] + ea[None] + eb[None])
        n_cases += fa.size
        for q, p in enumerate(EXPONENTS):
            if not ok[q]:
                continue
            t = [_transform(np.broadcast_to(x, fa.shape), p) for x in (base, fa, fb, fab)]
            d = t[3] - t[1] - t[2] + t[0]
            scale = np.maximum(1.0, np.max(np.abs(t), axis=0))
            bad = ~(np.abs(d) <= tol * scale)  # NaN counts as bad
            if bad.any():
                ok[q] = False
            if p == 1 and bad.any():
                dd = np.where(np.isnan(d), np.inf, np.abs(d))
                c, k = np.unravel_index(int(np.argmax(dd)), dd.shape)
                if worst is None or dd[c, k] > worst[0]:
                    worst = (dd[c, k], m[c], pairs[k], float(d[c, k]))
    name = _name(metric)
    passing = [p for p, good in zip(EXPONENTS, ok, strict=True) if good]
    if passing:
        return ProbeResult(
            "PIII",
            name,
            True,
            "necessary condition",
            n_cases,
            "Cells that share no class never interact (mixed differences are 0) after "
            f"x -> x**p for p in {passing}. This is necessary, not sufficient: that a "
            "class-wise g exists is established by the metric's formula, not by this probe.",
            {"exponents": passing},
        )
    ev = {"exponents": []}
    detail = (
        f"For every exponent p in [{EXPONENTS[0]}, {EXPONENTS[-1]}] some pair of cells that "
        "share no class interact, so the score is no generalised mean over class-wise scores "
        "with such a p."
    )
    if worst is not None:
        _, m0, (a, b), d = worst
        ev.update({"m": m0, "cells": (a, b), "step": step, "mixed_difference_p1": d})
        detail += (
            f" At p = 1: adding {_fmt(step)} to m[{a[0]}, {a[1]}] changes the effect of adding "
            f"{_fmt(step)} to m[{b[0]}, {b[1]}] by {d:.3g}."
        )
    return ProbeResult("PIII", name, False, "counterexample", n_cases, detail, ev)
