r"""A reliability diagram without bins (CORP), its band, and the Murphy decomposition.

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

:func:`corp_band` adds the curve's uncertainty: the consistency band of the paper
(where the curve of calibrated probabilities would lie), or a bootstrap band around
the curve. Its resamples are refitted together by
:func:`pool_adjacent_violators_stack`, the PAV over a stack of rows.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..inference import check_level, check_size
from ..scores import positives
from ._reliability import _as_proba


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
    pass pools every chain of adjacent blocks whose means do not increase into one
    block (pooling adjacent violators in any order reaches the same, unique solution,
    and two adjacent blocks of equal means share one value in it), vectorised over
    the blocks; passes repeat until every mean is above the one before. Usually a
    few passes; at worst one per value (a single violator that spreads).

    Parameters
    ----------
    values, weights : ndarray of float, shape (K,)
        Values in their order, positive weights.

    Returns
    -------
    ndarray of float, shape (K,)
    """
    values = np.asarray(values, dtype=np.float64)
    return pool_adjacent_violators_stack(values[None, :], np.asarray(weights)[None, :])[0]


def pool_adjacent_violators_stack(values, weights) -> np.ndarray:
    r"""One isotonic regression per row of ``values``, all rows pooled in the same passes.

    The rows are laid end to end and pooled as in :func:`pool_adjacent_violators`,
    with a wall between rows that no block crosses; each pass is one vectorised step
    over every block of every row, and the passes stop when no row has a violator
    (as many passes as the slowest row needs; no loop over rows).

    An entry of weight 0 takes no part in its row's fit (an item absent from a
    bootstrap resample) and gets the fitted value of the nearest entry to its left
    with a positive weight, else of the nearest to its right: the fit read as a step
    function, as the R package ``reliabilitydiag`` reads it. A row without any
    positive weight is NaN.

    Parameters
    ----------
    values, weights : ndarray of float, shape (R, K)
        Values in their order, non-negative weights.

    Returns
    -------
    ndarray of float, shape (R, K)
    """
    values = np.asarray(values, dtype=np.float64)
    weights = np.asarray(weights, dtype=np.float64)
    rows, width = values.shape
    present = np.broadcast_to(weights > 0, values.shape)
    pos = np.flatnonzero(present)
    mass = np.broadcast_to(weights, values.shape).ravel()[pos]
    sums = values.ravel()[pos] * mass
    row = pos // width
    size = np.ones(pos.size, dtype=np.int64)  # entries per block
    # (row, mean, size) of the blocks of rows without violators
    done = [(row[:0], sums[:0], size[:0])]
    while sums.size:
        means = sums / mass
        falls = (means[:-1] >= means[1:]) & (row[:-1] == row[1:])
        # A row without a violator is final: set its blocks aside, pool the rest.
        busy = np.zeros(rows, dtype=bool)
        busy[row[:-1][falls]] = True
        keep = busy[row]
        done.append((row[~keep], means[~keep], size[~keep]))
        if not keep.any():
            break
        starts = np.concatenate([[True], ~falls])[keep]  # a new block after each rise
        ids = np.cumsum(starts) - 1
        sums, mass = np.bincount(ids, sums[keep]), np.bincount(ids, mass[keep])
        size = np.bincount(ids, size[keep]).astype(np.int64)
        row = row[keep][starts]
    block_row, block_mean, block_size = (np.concatenate(parts) for parts in zip(*done, strict=True))
    order = np.argsort(block_row, kind="stable")  # rows in order, blocks in order within a row
    fitted = np.full(rows * width, np.nan)
    fitted[pos] = np.repeat(block_mean[order], block_size[order])
    fitted = fitted.reshape(rows, width)
    if pos.size == rows * width:
        return fitted
    # Weight 0: the nearest present entry to the left, else to the right.
    k = np.arange(width)
    left = np.maximum.accumulate(np.where(present, k, -1), axis=1)
    right = np.minimum.accumulate(np.where(present, k, width)[:, ::-1], axis=1)[:, ::-1]
    source = np.where(left >= 0, left, right)
    out = np.take_along_axis(fitted, np.minimum(source, width - 1), axis=1)
    out[source == width] = np.nan
    return out


def _pooled(y_true, proba, pos_label):
    """Checked input, pooled by distinct probability: p, y, values, inverse, counts, hits."""
    p = _as_proba(proba)
    if p.ndim != 1:
        raise ValueError(
            f"proba must be 1-d, the probability of the positive class; got shape {p.shape}"
        )
    _, pos = positives(y_true, p, pos_label, name="proba")
    y = pos.astype(np.float64)
    predicted, inverse, counts = np.unique(p, return_inverse=True, return_counts=True)
    hits = np.bincount(inverse, weights=y, minlength=predicted.size)
    return p, y, predicted, inverse, counts, hits


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
        As in :func:`~clfmetrics.probabilities.brier_score`.

    Returns
    -------
    CORPResult

    Raises
    ------
    ValueError
        For probabilities outside [0, 1], NaN, a matrix (CORP here is binary), or
        labels as in :func:`~clfmetrics.probabilities.brier_score`.

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
    p, y, predicted, inverse, counts, hits = _pooled(y_true, proba, pos_label)
    observed = np.clip(pool_adjacent_violators(hits / counts, counts), 0.0, 1.0)
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


@dataclass(frozen=True)
class CORPBand:
    """The CORP reliability curve with a pointwise band at each stated probability.

    Parameters
    ----------
    predicted, observed, counts : ndarray
        As in :class:`CORPResult`.
    low, high : ndarray
        The band at each stated probability (see :func:`corp_band` for what it covers).
    level : float
    method : str
        ``"consistency"`` (around the diagonal) or ``"confidence"`` (around the curve).
    size : int
        Resamples drawn.
    """

    predicted: np.ndarray
    observed: np.ndarray
    counts: np.ndarray
    low: np.ndarray
    high: np.ndarray
    level: float
    method: str
    size: int


#: Entries (resamples x distinct probabilities) drawn at once.
_BLOCK = 2**21


def _resampled_fits(predicted, counts, hits, method, size, rng) -> np.ndarray:
    """The isotonic fit of each resample, ``(size, K)``: the PAV over a stack of resamples."""
    width = predicted.size
    fits = np.empty((size, width))
    cells = np.concatenate([hits, counts - hits]) / counts.sum()  # (value, outcome) shares
    step = max(1, _BLOCK // width)
    for start in range(0, size, step):  # chunks of bounded memory, not a loop over resamples
        rows = min(step, size - start)
        if method == "consistency":
            n = np.broadcast_to(counts, (rows, width))
            k = rng.binomial(counts, predicted, size=(rows, width))
        else:
            drawn = rng.multinomial(counts.sum(), cells, size=rows)
            k, n = drawn[:, :width], drawn[:, :width] + drawn[:, width:]
        means = np.divide(k, n, out=np.zeros((rows, width)), where=n > 0)
        fits[start : start + rows] = pool_adjacent_violators_stack(means, n)
    return fits


def corp_band(
    y_true, proba, *, method="consistency", level=0.95, size=1000, pos_label=None, rng=None
) -> CORPBand:
    r"""The CORP reliability curve of :func:`corp_reliability` with a pointwise band.

    - ``"consistency"`` (default): the **consistency band** of Dimitriadis, Gneiting
      & Jordan (2021), the band around the diagonal in which the CORP curve would
      lie, point by point with probability ``level``, *if the probabilities were
      calibrated*. Outcomes are drawn as :math:`y^*_i \sim \mathrm{Bernoulli}(p_i)`
      (count-based: one binomial draw per distinct probability), the PAV is refitted
      on each of ``size`` draws, and ``low``, ``high`` are the :math:`\alpha/2` and
      :math:`1 - \alpha/2` quantiles of the refitted values at each stated
      probability. Where the curve leaves the band, its gap is larger than the noise
      of these items explains. It is the default of the authors' R package
      ``reliabilitydiag`` (``region.position = "diagonal"``, there at level 0.9).
      Assumes independent items; the forecasts are held fixed (the package also
      resamples them, as Bröcker & Smith 2007 do), because the question is whether
      *these* probabilities fit these outcomes, as in
      :func:`~clfmetrics.probabilities.reliability_band`.
    - ``"confidence"``: a percentile bootstrap of the pairs :math:`(p_i, y_i)`
      (count-based: one multinomial draw over the cells (probability, outcome) per
      resample), the PAV refitted on each resample and read as a step function
      where a probability is missing from it: a band around the curve, where the
      recalibrated probability may lie. The pairs bootstrap of an isotonic fit has
      no coverage guarantee (the fit converges at the rate :math:`N^{-1/3}` to a
      non-normal limit); it is offered to compare with the band that
      ``model_diagnostics.calibration.plot_reliability_diagram(..., n_bootstrap=...)``
      draws, and the consistency band is the one to read.

    Both bands are pointwise: each stated probability has probability ``level`` of
    being inside, not the whole curve at once.

    Parameters
    ----------
    y_true, proba, pos_label
        As in :func:`corp_reliability` (binary: 1-d probabilities of the positive class).
    method : {"consistency", "confidence"}, default "consistency"
    level : float, default 0.95
        ``reliabilitydiag`` uses 0.90 by default; the book uses 0.95 throughout.
    size : int, default 1000
        Resamples. The cost is ``size`` x (distinct probabilities) numbers, pooled by
        :func:`pool_adjacent_violators_stack` in a few vectorised passes.
    rng : numpy.random.Generator or int, optional
        The same ``rng`` gives the same band.

    Returns
    -------
    CORPBand
        ``predicted``, ``observed``, ``counts`` of :func:`corp_reliability`, and
        ``low``, ``high`` at each stated probability.

    Raises
    ------
    ValueError
        For a bad ``method``, ``level`` or ``size``, and the input errors of
        :func:`corp_reliability`.

    Examples
    --------
    >>> b = corp_band([0, 0, 1, 0, 1, 1], [0.1, 0.2, 0.4, 0.6, 0.8, 0.9], rng=0)
    >>> bool(np.all(b.low <= b.predicted) and np.all(b.predicted <= b.high))
    True
    """
    if method not in ("consistency", "confidence"):
        raise ValueError(f"method must be 'consistency' or 'confidence'; got {method!r}")
    level, size = check_level(level), check_size(size)
    _, _, predicted, _, counts, hits = _pooled(y_true, proba, pos_label)
    observed = np.clip(pool_adjacent_violators(hits / counts, counts), 0.0, 1.0)
    fits = _resampled_fits(predicted, counts, hits, method, size, np.random.default_rng(rng))
    low, high = np.quantile(fits, [(1 - level) / 2, (1 + level) / 2], axis=0)
    return CORPBand(predicted, observed, counts.astype(np.int64), low, high, level, method, size)
