r"""A reliability diagram without bins (CORP) and the Murphy decomposition of the Brier score.

The binned reliability diagram depends on the bins. CORP (consistent,
optimally binned, reproducible and PAV-based; Dimitriadis, Gneiting & Jordan
2021) replaces the bins by the isotonic regression of the outcomes on the
stated probabilities, computed by the pool-adjacent-violators algorithm: the
non-decreasing function :math:`\hat q` of the probability that is closest to
the outcomes in squared error. :math:`\hat q(p)` is the recalibrated
probability, and the diagram plots it against :math:`p`. The bins are chosen
by the data (the PAV's pools), so there is nothing to tune.

The recalibrated probabilities give the Murphy decomposition of the Brier
score :math:`BS = \frac1N \sum_i (p_i - y_i)^2`:

.. math::

    BS = \underbrace{BS - BS_{rc}}_{\text{miscalibration}}
       - \underbrace{(BS_{ref} - BS_{rc})}_{\text{discrimination}}
       + \underbrace{BS_{ref}}_{\text{uncertainty}},

with :math:`BS_{rc}` the Brier score of :math:`\hat q(p_i)` and
:math:`BS_{ref} = \bar y (1 - \bar y)` that of the constant :math:`\bar y`.
Miscalibration is what recalibration would save, discrimination what the
recalibrated probabilities gain over the base rate, uncertainty the base rate's
own score. Binary problems only (1-d probabilities of the positive class).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._scores import _positives
from .reliability import _as_proba

__all__ = ["CORPResult", "corp_reliability", "pool_adjacent_violators"]


@dataclass(frozen=True)
class CORPResult:
    """The CORP reliability curve and the Murphy decomposition of the Brier score.

    Parameters
    ----------
    predicted : ndarray
        The distinct stated probabilities, increasing.
    observed : ndarray
        The recalibrated probability (isotonic fit) at each of them.
    counts : ndarray of int64
        Items with each stated probability.
    brier, miscalibration, discrimination, uncertainty : float
        ``brier = miscalibration - discrimination + uncertainty``.
    """

    predicted: np.ndarray
    observed: np.ndarray
    counts: np.ndarray
    brier: float
    miscalibration: float
    discrimination: float
    uncertainty: float


def pool_adjacent_violators(values, weights) -> np.ndarray:
    r"""Weighted isotonic (non-decreasing) regression of ``values``, by pooling violators.

    Minimises :math:`\sum_k w_k (q_k - v_k)^2` over non-decreasing :math:`q`. Each
    pass pools every chain of adjacent blocks whose means decrease into one block
    (pooling adjacent violators in any order reaches the same, unique solution),
    vectorised over the blocks; passes repeat until no two adjacent means decrease.
    Usually a few passes; at worst one per value (a single violator that spreads).

    Parameters
    ----------
    values, weights : ndarray of float, shape (K,)
        Values in their order, positive weights.

    Returns
    -------
    ndarray of float, shape (K,)
    """
    sums, mass = values * weights, weights.astype(np.float64)
    block = np.arange(values.size)
    while sums.size > 1:
        means = sums / mass
        falls = means[:-1] > means[1:]
        if not falls.any():
            break
        ids = np.cumsum(np.concatenate([[True], ~falls])) - 1  # a new block after each rise
        sums, mass = np.bincount(ids, sums), np.bincount(ids, mass)
        block = ids[block]
    return (sums / mass)[block]


def corp_reliability(y_true, proba, *, pos_label=None) -> CORPResult:
    r"""CORP reliability curve (Dimitriadis et al. 2021) and Murphy decomposition.

    The isotonic regression of the outcomes :math:`y_i \in \{0, 1\}` on the
    stated probabilities :math:`p_i`, items with equal :math:`p_i` pooled first
    (so equal probabilities get one recalibrated value), weighted by their
    counts; then the decomposition of the module's text.

    Parameters
    ----------
    y_true : array_like of shape (N,)
    proba : array_like of shape (N,)
        Probability of the positive class, in [0, 1].
    pos_label : label, optional
        As in :func:`~clfmetrics.reliability.brier_score`.

    Returns
    -------
    CORPResult

    Raises
    ------
    ValueError
        For probabilities outside [0, 1], NaN, a matrix (CORP here is binary), or
        labels as in :func:`~clfmetrics.reliability.brier_score`.

    Notes
    -----
    The isotonic fit is :func:`pool_adjacent_violators` (numpy only); it equals
    scikit-learn's ``IsotonicRegression`` on the same data. The decomposition equals
    ``model_diagnostics.scoring.decompose`` with ``SquaredError()`` (tested).

    Examples
    --------
    >>> r = corp_reliability([0, 1, 0, 1, 1], [0.1, 0.3, 0.5, 0.7, 0.9])
    >>> r.observed.tolist()
    [0.0, 0.5, 0.5, 1.0, 1.0]
    >>> round(r.miscalibration - r.discrimination + r.uncertainty, 12) == round(r.brier, 12)
    True
    """
    p = _as_proba(proba)
    if p.ndim != 1:
        raise ValueError(
            f"proba must be 1-d, the probability of the positive class; got shape {p.shape}"
        )
    _, pos = _positives(y_true, p, pos_label, name="proba")
    y = pos.astype(np.float64)
    predicted, inverse, counts = np.unique(p, return_inverse=True, return_counts=True)
    means = np.bincount(inverse, weights=y, minlength=predicted.size) / counts
    observed = np.clip(pool_adjacent_violators(means, counts), 0.0, 1.0)
    brier = float(np.mean((p - y) ** 2))
    recalibrated = float(np.mean((observed[inverse] - y) ** 2))
    base = float(y.mean())
    uncertainty = base * (1 - base)
    return CORPResult(
        predicted,
        observed,
        counts.astype(np.int64),
        brier,
        brier - recalibrated,
        uncertainty - recalibrated,
        uncertainty,
    )
