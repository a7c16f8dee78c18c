r"""Reliability diagrams with their uncertainty, and a test of calibration.

A reliability diagram's bin of 2 items says almost nothing; a bin of 71 says
a lot. :func:`reliability_band` gives each bin an interval, and
:func:`calibration_test` replaces the bootstrap interval of the ECE, which is
invalid (the plug-in ECE is biased upward and resampling adds the bias again),
by a test of the hypothesis that the probabilities are calibrated.

Both use **consistency resampling** (Bröcker & Smith 2007): if the
probabilities were calibrated, item :math:`i` would be a hit with probability
:math:`p_i`, so outcomes drawn as :math:`y^*_i \sim \mathrm{Bernoulli}(p_i)`
show what a calibrated forecaster's diagram looks like with these very
probabilities. Bröcker & Smith also resample the forecasts; here the
forecasts are held fixed, because the question is whether *these*
probabilities are consistent with the observed outcomes. Draws are
count-based: the items sharing a bin and a probability get one binomial draw.

Input as in :mod:`clfmetrics.probabilities`: 1-d ``proba`` (the positive class)
or an ``(N, n)`` matrix (top-label confidence).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..inference import check_level, check_size, clopper_pearson
from ._reliability import _BLOCK_ITEMS, _bin_items, bin_ids, bin_items, bincount_onto

_BLOCK = 2**20


@dataclass(frozen=True)
class ReliabilityBand:
    """A reliability diagram with an interval per non-empty bin.

    Parameters
    ----------
    observed, predicted : ndarray
        Observed frequency and mean stated probability per non-empty bin.
    counts : ndarray of int64
        Items per non-empty bin.
    low, high : ndarray
        The interval of each bin (see :func:`reliability_band` for what it covers).
    level : float
    method : str
        ``"clopper-pearson"`` or ``"consistency"``.
    """

    observed: np.ndarray
    predicted: np.ndarray
    counts: np.ndarray
    low: np.ndarray
    high: np.ndarray
    level: float
    method: str


@dataclass(frozen=True)
class CalibrationTest:
    """The consistency-resampling test of :func:`calibration_test`.

    Attributes
    ----------
    statistic : float
        The observed (plug-in) ECE.
    pvalue : float
        Share of calibrated resamples with an ECE at least as large, add-one.
    """

    statistic: float
    pvalue: float


def _groups(ids, stated, bins):
    """Distinct probabilities (a bin is a function of the probability): bin, value, count."""
    values, first, counts = np.unique(stated, return_index=True, return_counts=True)
    return ids[first], values, counts


def _calibrated_hits(groups, bins, size, rng):
    """``size`` draws of the hits per bin if the probabilities were calibrated: (size, bins).

    ``groups`` are the distinct probabilities: their bins, values and counts (:func:`_groups`).
    """
    group_bin, group_p, group_n = groups
    out = np.empty((size, bins))
    step = max(1, _BLOCK // max(group_n.size, 1))
    for start in range(0, size, step):
        rows = min(step, size - start)
        hits = rng.binomial(group_n, group_p, size=(rows, group_n.size))
        index = (np.arange(rows)[:, None] * bins + group_bin[None, :]).ravel()
        summed = np.bincount(index, weights=hits.ravel(), minlength=rows * bins)
        out[start : start + rows] = summed.reshape(rows, bins)
    return out


def _check_method(method) -> str:
    if method not in ("clopper-pearson", "consistency"):
        raise ValueError(f"method must be 'clopper-pearson' or 'consistency'; got {method!r}")
    return method


def reliability_band(
    y_true,
    proba,
    *,
    bins=10,
    strategy="uniform",
    level=0.95,
    method="clopper-pearson",
    size=2000,
    pos_label=None,
    rng=None,
) -> ReliabilityBand:
    r"""Reliability diagram of :func:`~clfmetrics.probabilities.reliability_curve`, with intervals.

    - ``"clopper-pearson"``: the exact interval of each bin's observed
      frequency :math:`k_b / n_b` (hits among the bin's items): where the true
      frequency of that bin's items may lie. Exact for the bins as cut (the
      bins do not depend on the outcomes).
    - ``"consistency"``: the consistency band (Bröcker & Smith 2007), where the
      observed frequency would fall, with probability ``level``, if the
      probabilities were calibrated: the :math:`\alpha/2` and :math:`1 - \alpha/2`
      quantiles of :math:`k^*_b / n_b` over ``size`` draws of
      :math:`y^*_i \sim \mathrm{Bernoulli}(p_i)`. A point outside its band is a
      bin whose gap the noise of :math:`n_b` items does not explain. It is a band
      around the diagonal, not around the observed point.

    Parameters
    ----------
    y_true, proba, bins, strategy, pos_label
        As in :func:`~clfmetrics.probabilities.reliability_curve` (an ``(N, n)``
        matrix: top-label confidence).
    level : float, default 0.95
    method : {"clopper-pearson", "consistency"}, default "clopper-pearson"
    size : int, default 2000
        Draws of the consistency band (unused by ``"clopper-pearson"``).
    rng : numpy.random.Generator or int, optional

    Returns
    -------
    ReliabilityBand
        ``observed``, ``predicted``, ``counts``, ``low``, ``high`` per non-empty bin.

    Examples
    --------
    >>> band = reliability_band([0, 0, 1, 1, 1], [0.1, 0.2, 0.6, 0.7, 0.9], bins=2)
    >>> band.counts.tolist(), band.high.round(3).tolist()
    ([2, 3], [0.842, 1.0])
    """
    level, method = check_level(level), _check_method(method)
    ids, stated, hit, bins = _bin_items(y_true, proba, bins, strategy, pos_label, None)
    counts = np.bincount(ids, minlength=bins)
    hits = np.bincount(ids, weights=hit.astype(np.float64), minlength=bins)
    sums = np.bincount(ids, weights=stated, minlength=bins)
    full = np.flatnonzero(counts)
    if method == "clopper-pearson":
        low, high = clopper_pearson(hits[full].round(), counts[full], level)
    else:
        draws = _calibrated_hits(
            _groups(ids, stated, bins), bins, check_size(size), np.random.default_rng(rng)
        )
        freq = draws[:, full] / counts[full]
        low, high = np.quantile(freq, [(1 - level) / 2, (1 + level) / 2], axis=0)
    return ReliabilityBand(
        hits[full] / counts[full],
        sums[full] / counts[full],
        counts[full],
        low,
        high,
        level,
        method,
    )


def calibration_test(
    y_true, proba, *, bins=10, size=10_000, pos_label=None, rng=None
) -> CalibrationTest:
    r"""Test of calibration by consistency resampling, with the ECE as statistic.

    Null hypothesis: the probabilities are calibrated, item :math:`i` is a hit
    with probability :math:`p_i`. The statistic is the plug-in ECE of
    :func:`~clfmetrics.probabilities.expected_calibration_error` (``bins`` uniform
    bins); ``size`` sets of outcomes are drawn under the null,
    :math:`y^*_i \sim \mathrm{Bernoulli}(p_i)`, each giving
    :math:`ECE^* = \sum_b |k^*_b - \sum_{i \in b} p_i| / N`, and

    .. math:: p = \frac{1 + \#\{ECE^* \ge ECE\}}{1 + \text{size}}

    (Phipson & Smyth 2010). Calibrated probabilities have a plug-in ECE above 0;
    the test compares the observed ECE with the ECE that calibrated probabilities
    show at this size and with these probabilities, which a bootstrap interval of
    the ECE does not. A small p says the gaps are larger than noise explains; a
    large one does not say the probabilities are calibrated, only that these items
    cannot show otherwise.

    Parameters
    ----------
    y_true, proba, bins, pos_label
        As in :func:`~clfmetrics.probabilities.expected_calibration_error`.
    size : int, default 10_000
        Draws under the null.
    rng : numpy.random.Generator or int, optional

    Returns
    -------
    CalibrationTest
        ``statistic`` (the ECE) and ``pvalue``.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> p = rng.random(500)
    >>> calibration_test(rng.random(500) < p, p, size=2000, rng=0).pvalue > 0.05
    True
    >>> calibration_test(rng.random(500) < p**2, p, size=2000, rng=0).pvalue < 0.01
    True
    """
    size = check_size(size)
    ids, stated, hit, bins = _bin_items(y_true, proba, bins, "uniform", pos_label, None)
    sums = np.bincount(ids, weights=stated, minlength=bins)
    hits = np.bincount(ids, weights=hit.astype(np.float64), minlength=bins)
    groups = _groups(ids, stated, bins)
    return _test_of_groups(groups, sums, hits, ids.size, bins, size, np.random.default_rng(rng))


def calibration_test_in_blocks(p, pos, cols, bins, size, rng, max_groups):
    """:func:`calibration_test` of checked probabilities (as :func:`binned` takes them),
    read a block of items at a time, so that no array of N items is held; None when the
    items state more than ``max_groups`` distinct probabilities (the test's cost per draw).
    """
    values, weights = np.zeros(0), np.zeros(0, np.int64)
    sums, hits = np.zeros(bins), np.zeros(bins)
    step = max(1, _BLOCK_ITEMS // (1 if p.ndim == 1 else p.shape[1]))
    for start in range(0, len(p), step):
        part = slice(start, start + step)
        ids, said, hit = bin_items(
            p[part], None if pos is None else pos[part], None if cols is None else cols[part],
            bins, "uniform",
        )  # fmt: skip
        sums = bincount_onto(sums, ids, said)
        hits = bincount_onto(hits, ids, hit)
        merged, where = np.unique(np.r_[values, said], return_inverse=True)
        weights = np.bincount(where, np.r_[weights, np.ones(said.size, np.int64)], merged.size)
        values, weights = merged, np.rint(weights).astype(np.int64)
        if values.size > max_groups:
            return None
    groups = (bin_ids(values, bins, "uniform"), values, weights)
    n_items = int(weights.sum())
    return _test_of_groups(groups, sums, hits, n_items, bins, size, np.random.default_rng(rng))


def _test_of_groups(groups, sums, hits, n_items, bins, size, rng) -> CalibrationTest:
    """The test from the distinct probabilities ``(bin, value, count)`` and the bins' sums."""
    statistic = float(np.abs(hits - sums).sum() / n_items)
    draws = _calibrated_hits(groups, bins, size, rng)
    null = np.abs(draws - sums).sum(axis=1) / n_items
    # A relative tolerance, so that draws equal to the observed ECE count as ties.
    extreme = np.count_nonzero(null >= statistic * (1 - 1e-9) - 1e-12)
    return CalibrationTest(statistic, float((1 + extreme) / (1 + size)))
