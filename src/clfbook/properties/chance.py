"""Probe PV (chance correction) on the exact expected matrices of random classifiers."""

from __future__ import annotations

import numpy as np

from .cases import _check_metric, _dirichlet, _name, _rng, _scores
from .render import _clean
from .results import ChanceResult


def expected_random_matrix(prevalence, prediction) -> np.ndarray:
    r"""The expected (normalised) confusion matrix of a random classifier: :math:`m_{ij} = z_i p_j`.

    ``prediction`` :math:`z` is how often the classifier predicts each class,
    whatever the item; ``prevalence`` :math:`p` how often each class occurs.
    Both broadcast: shapes ``(..., n)`` give a stack ``(..., n, n)``. This is
    the matrix the proofs of Opitz (2024, B.5-G.5) use.
    """
    p = np.asarray(prevalence, dtype=float)
    z = np.asarray(prediction, dtype=float)
    return z[..., :, None] * p[..., None, :]


def _simplex(rng, n, k, alpha) -> np.ndarray:
    return _dirichlet(rng, alpha, (k, n))


def is_chance_corrected(
    metric, *, ns=(2, 3, 4, 5), n_prevalences=16, n_predictions=40, rounds=20, tol=1e-6, seed=4
) -> ChanceResult:
    r"""Probe PV on exact expected matrices of random classifiers.

    For each number of classes :math:`n`, data sets are prevalence vectors
    :math:`p` (uniform, one very skewed, and random ones) and random
    classifiers are prediction distributions :math:`z` (uniform, :math:`z = p`,
    near-constant, random), all strictly positive. The score of
    :math:`m = z p^T` is computed for every pair, and for each :math:`p` the
    best :math:`z` is refined by a seeded random search on the simplex.

    * PV holds when the best random score :math:`\omega` is the same for every
      data set of :math:`n` classes (within ``tol``) and below 1.
    * *strict*: every random classifier scores :math:`\omega(n)`.
    * *complete*: strict, and :math:`\omega(n)` is the same for every ``n``.

    Returns
    -------
    ChanceResult
        ``baselines[n] = (lowest, highest)``; ``omega``; ``strict``; ``complete``;
        ``note`` in the style of Table 5 ("1/n, strict", "0, complete").
    """
    rng = _rng(seed)
    baselines, spread_worst, n_cases = {}, (0.0, None), 0
    for n in ns:
        _check_metric(metric, n)
        prevs = np.concatenate(
            [
                np.full((1, n), 1.0 / n),
                (lambda v: v / v.sum())(np.geomspace(1.0, 0.02, n))[None],
                _simplex(rng, n, n_prevalences - 2, 0.7),
            ]
        )
        preds = np.concatenate(
            [
                np.full((1, n), 1.0 / n),
                0.98 * np.eye(n) + 0.02 / n,
                _simplex(rng, n, n_predictions // 2, 1.0),
                _simplex(rng, n, n_predictions - n_predictions // 2 - n - 1, 0.3) * 0.999
                + 0.001 / n,
            ]
        )
        zs = np.concatenate(
            [np.broadcast_to(preds[None], (len(prevs), *preds.shape)), prevs[:, None, :]], axis=1
        )  # (P, Z, n): the shared classifiers plus z = p for each data set
        scores = _scores(metric, expected_random_matrix(prevs[:, None, :], zs))
        n_cases += scores.size
        best_z = zs[np.arange(len(prevs)), np.nanargmax(scores, axis=1)]
        best = np.nanmax(scores, axis=1)
        lowest = float(np.nanmin(scores))
        for r in range(rounds):
            sigma = 0.5 * (0.002 / 0.5) ** (r / max(rounds - 1, 1))
            prop = best_z[:, None, :] * np.exp(sigma * rng.standard_normal((len(prevs), 8, n)))
            prop /= prop.sum(axis=-1, keepdims=True)
            s = _scores(metric, expected_random_matrix(prevs[:, None, :], prop))
            n_cases += s.size
            lowest = min(lowest, float(np.nanmin(s)))
            k = np.nanargmax(s, axis=1)
            gain = s[np.arange(len(prevs)), k] > best
            best = np.where(gain, s[np.arange(len(prevs)), k], best)
            best_z = np.where(gain[:, None], prop[np.arange(len(prevs)), k], best_z)
        hi = float(np.nanmax(best))
        baselines[n] = (lowest, hi)
        spread = hi - float(np.nanmin(best))
        if spread > spread_worst[0]:
            lo_idx, hi_idx = int(np.nanargmin(best)), int(np.nanargmax(best))
            spread_worst = (spread, (n, prevs[lo_idx], best[lo_idx], prevs[hi_idx], best[hi_idx]))
    name = _name(metric)
    his = np.array([hi for lo, hi in baselines.values()])
    data_free = spread_worst[0] <= tol
    holds = bool(data_free and np.all(his < 1 - tol))
    strict = holds and all(hi - lo <= tol for lo, hi in baselines.values())
    complete = strict and float(np.ptp(his)) <= tol
    if holds:
        detail = (
            "The best random classifier scores the same on every data set with n classes: "
            + ", ".join(f"ω({n}) = {_clean(hi):.6f}" for n, (lo, hi) in baselines.items())
            + "."
        )
        return ChanceResult(
            "PV", name, True, "no counterexample", n_cases, detail, {},
            baselines, strict, complete,
        )  # fmt: skip
    if data_free:
        detail = "Random classifiers can reach a score of 1."
        ev = {}
    else:
        n, p_lo, s_lo, p_hi, s_hi = spread_worst[1]
        detail = (
            f"With n = {n}, the best random classifier scores {s_lo:.4f} on prevalences "
            f"{np.round(p_lo, 3).tolist()} but {s_hi:.4f} on {np.round(p_hi, 3).tolist()}: "
            "the chance baseline depends on the data set."
        )
        ev = {"n": n, "prevalence_low": p_lo, "best_low": float(s_lo),
              "prevalence_high": p_hi, "best_high": float(s_hi)}  # fmt: skip
    return ChanceResult(
        "PV", name, False, "counterexample", n_cases, detail, ev, baselines, False, False
    )
