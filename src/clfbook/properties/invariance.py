"""Probe PIV (prevalence invariance): rescaling the true classes never changes the score."""

from __future__ import annotations

import numpy as np

from clfmetrics import prevalence_scale

from .cases import _cached_cases, _check_metric, _is_integer, _name, _rng, _scores
from .results import ProbeResult


def is_prevalence_invariant(metric, *, ns=(2, 3, 4), size=300, tol=1e-7, seed=3):
    r"""Probe PIV: :math:`metric(m\lambda) = metric(m)` for diagonal :math:`\lambda > 0`.

    Each case gets its own random :math:`\lambda` (log-uniform in [1/10, 10],
    applied with :func:`clfmetrics.prevalence_scale`); since the identity is a
    valid :math:`\lambda'`, comparing with :math:`m` itself tests the paper's
    :math:`metric(m\lambda) = metric(m\lambda')`. The largest change is the
    counterexample.
    """
    rng = _rng(seed)
    worst, n_cases = None, 0
    for n in ns:
        _check_metric(metric, n)
        m = _cached_cases(n, size, seed)
        lam = np.exp(rng.uniform(np.log(0.1), np.log(10.0), size=(len(m), n)))
        before = _scores(metric, m)
        after = _scores(metric, prevalence_scale(m, lam))
        n_cases += len(m)
        change = np.abs(after - before)
        change = np.where(np.isnan(change) & ~(np.isnan(after) & np.isnan(before)), np.inf, change)
        change = np.nan_to_num(change, nan=0.0)
        excess = change - tol * np.maximum(1.0, np.abs(np.nan_to_num(before)))
        pref = np.where((excess > 0) & _is_integer(m), excess + 1e6, excess)
        c = int(np.argmax(pref))
        if excess[c] > 0 and (worst is None or pref[c] > worst[0]):
            worst = (pref[c], m[c].copy(), lam[c], float(before[c]), float(after[c]))
    name = _name(metric)
    if worst is None:
        return ProbeResult(
            "PIV",
            name,
            True,
            "no counterexample",
            n_cases,
            "Rescaling the true classes (columns) never changed the score.",
        )
    _, m0, lam, before, after = worst
    return ProbeResult(
        "PIV",
        name,
        False,
        "counterexample",
        n_cases,
        f"Scaling the columns by λ = {np.round(lam, 3).tolist()} changes the score from "
        f"{before:.6g} to {after:.6g}.",
        {"m": m0, "m_after": prevalence_scale(m0, lam), "lam": lam, "before": before,
         "after": after},
    )  # fmt: skip
