"""Probe PI (monotonicity): one more correct item never lowers the score, one more error never
raises it (Opitz 2024, section 3, footnote 3)."""

from __future__ import annotations

import numpy as np

from clfmetrics._base.checks import as_confusion

from .cases import _cached_cases, _check_metric, _is_integer, _name, _scores
from .paper import PAPER_M7
from .render import _fmt
from .results import ProbeResult


def is_monotonic(
    metric, *, ns=(2, 3, 4), size=500, steps=(1.0, 10.0), tol=1e-7, seed=0, extra_cases=()
) -> ProbeResult:
    r"""Probe PI: one more correct item never lowers the score, one more error never raises it.

    For every case :math:`m` (a varied random stack per ``n`` in ``ns``, the
    paper's matrix of table 7 for ``n = 3``, and ``extra_cases``), every cell
    :math:`(i, j)` and every step :math:`\delta`, compare
    :math:`metric(m + \delta e_{ij})` with :math:`metric(m)`: a rise by more
    than ``tol`` on an error cell (:math:`i \ne j`) or a fall on a diagonal
    cell refutes PI (the discrete version of Opitz 2024, footnote 3). The
    largest violation found is returned as the counterexample.

    Parameters
    ----------
    metric : callable
        ``(k, n, n) -> (k,)``; rows = predicted, columns = true.
    ns : sequence of int
        Numbers of classes to try.
    size : int
        Random matrices per ``n``.
    steps : sequence of float
        Masses added to one cell.
    tol : float
        Changes within ``tol * max(1, |score|)`` count as floating-point noise.
    seed : int
        Seed of the case generator (the result is deterministic).
    extra_cases : sequence of array_like
        More matrices to include (any ``n``).

    Returns
    -------
    ProbeResult
    """
    by_n = {n: [_cached_cases(n, size, seed)] for n in ns}
    by_n.setdefault(3, []).append(PAPER_M7[None])
    for extra in extra_cases:
        e = as_confusion(extra)
        by_n.setdefault(e.shape[-1], []).append(e.reshape(-1, *e.shape[-2:]))
    worst, n_cases = None, 0
    for n, parts in by_n.items():
        _check_metric(metric, n)
        m = np.concatenate(parts)
        base = _scores(metric, m)
        eye = np.eye(n * n).reshape(n * n, n, n)
        st = np.asarray(steps, dtype=float)
        bumped = m[:, None, None] + st[None, :, None, None, None] * eye[None, None]
        after = _scores(metric, bumped)  # (k, steps, cells)
        n_cases += after.size
        diagonal = np.eye(n, dtype=bool).reshape(-1)
        change = after - base[:, None, None]
        # a positive "violation" is a fall on the diagonal or a rise off it
        violation = np.where(diagonal, -change, change)
        violation = np.where(np.isnan(violation), -np.inf, violation)
        limit = tol * np.maximum(1.0, np.abs(base))[:, None, None]
        excess = violation - limit
        # prefer a counterexample in whole counts: it reads better than soft mass
        pref = np.where((excess > 0) & _is_integer(m)[:, None, None], excess + 1e6, excess)
        flat = int(np.argmax(pref))
        if excess.reshape(-1)[flat] > 0 and (worst is None or pref.reshape(-1)[flat] > worst[0]):
            c, s, cell = np.unravel_index(flat, excess.shape)
            i, j = divmod(int(cell), n)
            worst = (
                pref.reshape(-1)[flat],
                m[c],
                float(st[s]),
                (i, j),
                float(base[c]),
                float(after[c, s, cell]),
            )
    name = _name(metric)
    if worst is None:
        return ProbeResult(
            "PI",
            name,
            True,
            "no counterexample",
            n_cases,
            "No added correct item lowered the score and no added error raised it.",
        )
    _, m0, step, (i, j), before, after = worst
    m1 = m0.copy()
    m1[i, j] += step
    what = "a correct item" if i == j else "an error"
    how = "lowered" if i == j else "raised"
    return ProbeResult(
        "PI",
        name,
        False,
        "counterexample",
        n_cases,
        f"Adding {_fmt(step)} to m[{i}, {j}] ({what}) {how} the score from "
        f"{before:.6g} to {after:.6g}.",
        {"m": m0, "m_after": m1, "cell": (i, j), "step": step, "before": before, "after": after},
    )
