r"""Decision curves with their bands, and the paired difference of two models' net benefit.

:func:`decision_curve` gives the net benefit (:func:`clfmetrics.scores.net_benefit`)
of a model across threshold probabilities beside the two default strategies, treat
all (:math:`\pi - (1 - \pi)\, t/(1-t)`) and treat none (0), the standardized net
benefit :math:`NB/\pi` and the net interventions avoided per 100 items,
:math:`100\,(NB - NB_\text{all}) / (t/(1-t))`, all as ``dcurves`` computes them;
and a band from the bootstrap of the items.

**The bootstrap.** The net benefit at every threshold depends on the items only
through the counts of each class between consecutive thresholds (``2 (K + 1)``
numbers for ``K`` thresholds), so a resample of the items is a multinomial draw of
those counts (as :func:`~clfmetrics.inference.roc_band` draws the (score, class)
cells): its cost does not grow with the number of items, and a file's counts give
the same band (:func:`decision_curve_from_counts`). The items are resampled as one
sample (the prevalence varies, as in a cohort); with ``prevalence=`` (a case-control
sample, the class sizes fixed by the design) each class is resampled apart.

**The band.** ``low``/``high`` is the simultaneous sup-t band of ``roc_band``: with
:math:`s(t)` the resamples' standard deviation (at least one item's worth,
:math:`1/n`), :math:`\widehat{NB}(t) \pm c\, s(t)` with :math:`c` the ``level``
quantile of :math:`\max_t |NB^*_b(t) - \widehat{NB}(t)| / s(t)`; it covers the whole
true curve with probability about ``level``. ``pointwise_low``/``pointwise_high``
are the percentile intervals of each threshold alone.

**Two models on the same items.** :func:`net_benefit_difference` resamples the items
with both models' scores together (the cells are the joint bins of the two scores
and the class), so the band of the difference keeps the correlation of the two
models' errors: it is narrower than the two bands would suggest when the models
agree on most items.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..scores import (
    as_scores,
    bin_index,
    bins_from_counts,
    check_counts,
    check_harm,
    check_prevalence,
    check_risks,
    check_thresholds,
    checked_scores,
    exchange_rate,
    net_benefit_from_bins,
    net_benefit_of,
    threshold_bins,
    treated,
)
from . import _bootstrap as rs
from ._bands import _sup_t
from ._bootstrap import bounds
from ._multinomial import draw

_BLOCK = 2**21  # numbers per array in one block of resamples


@dataclass(frozen=True)
class DecisionCurve:
    """A decision curve with its band.

    Parameters
    ----------
    threshold : ndarray
        The threshold probabilities, as given.
    net_benefit : ndarray
        The model's net benefit at each threshold.
    treat_all, treat_none : ndarray
        The net benefit of treating every item (:math:`\\pi - (1-\\pi)\\,t/(1-t)`) and
        none (0).
    standardized : ndarray
        ``net_benefit / prevalence``: the share of the best possible benefit.
    interventions_avoided : ndarray
        Net interventions avoided per 100 items against treating all,
        :math:`100\\,(NB - NB_{all})\\,(1-t)/t`.
    low, high : ndarray
        The simultaneous band of the net benefit (sup-t).
    pointwise_low, pointwise_high : ndarray
        The percentile interval of each threshold alone.
    prevalence : float
        The prevalence used: the test set's, or the one given.
    harm : float
    level : float
    """

    threshold: np.ndarray
    net_benefit: np.ndarray
    treat_all: np.ndarray
    treat_none: np.ndarray
    standardized: np.ndarray
    interventions_avoided: np.ndarray
    low: np.ndarray
    high: np.ndarray
    pointwise_low: np.ndarray
    pointwise_high: np.ndarray
    prevalence: float
    harm: float
    level: float


@dataclass(frozen=True)
class NetBenefitDifference:
    """The paired difference in net benefit of two models on the same items, with its band.

    Parameters
    ----------
    threshold : ndarray
    difference : ndarray
        ``net_benefit_a - net_benefit_b`` at each threshold.
    net_benefit_a, net_benefit_b : ndarray
    low, high : ndarray
        The simultaneous (sup-t) band of the difference.
    pointwise_low, pointwise_high : ndarray
        The percentile interval of each threshold alone.
    level : float
    """

    threshold: np.ndarray
    difference: np.ndarray
    net_benefit_a: np.ndarray
    net_benefit_b: np.ndarray
    low: np.ndarray
    high: np.ndarray
    pointwise_low: np.ndarray
    pointwise_high: np.ndarray
    level: float


def _draws(pos, neg, rows, stratified, rng):
    """``rows`` bootstrap draws of the positive and negative cell counts."""
    if stratified:
        return draw(pos, rows, rng), draw(neg, rows, rng)
    both = draw(np.concatenate([pos, neg]), rows, rng)
    return both[:, : pos.size], both[:, pos.size :]


def _blocks(size: int, width: int):
    step = max(1, _BLOCK // max(width, 1))
    for start in range(0, size, step):
        yield start, min(step, size - start)


def _band(observed, curves, level, floor):
    low, high = _sup_t(observed, curves, level, floor)
    p_low, p_high = bounds(curves, observed, level, "percentile")
    return low, high, np.asarray(p_low), np.asarray(p_high)


def _floor(n_pos: int, n_neg: int, prevalence) -> float:
    """One item's worth of net benefit: no resampled spread is resolved more finely."""
    if prevalence is None:
        return 1.0 / (n_pos + n_neg)
    return min(prevalence / n_pos, (1 - prevalence) / n_neg)


def _curve(bins, harm, prevalence, level, size, rng) -> DecisionCurve:
    level, size = rs.check_level(level), rs.check_size(size)
    rng = np.random.default_rng(rng)
    t = bins.thresholds
    n_pos, n_neg = bins.sizes
    observed = net_benefit_from_bins(bins, harm, prevalence)
    pi = n_pos / (n_pos + n_neg) if prevalence is None else prevalence
    curves = np.empty((size, t.size))
    width = 2 * (bins.pos.size + bins.neg.size) + t.size
    for start, rows in _blocks(size, width):
        pos, neg = _draws(bins.pos, bins.neg, rows, prevalence is not None, rng)
        tp, fp = treated(pos, bins.where), treated(neg, bins.where)
        sizes_p, sizes_n = pos.sum(axis=1, keepdims=True), neg.sum(axis=1, keepdims=True)
        curves[start : start + rows] = net_benefit_of(tp, fp, sizes_p, sizes_n, t, harm, prevalence)
    low, high, p_low, p_high = _band(observed, curves, level, _floor(n_pos, n_neg, prevalence))
    w = exchange_rate(t)
    treat_all = pi - (1 - pi) * w
    return DecisionCurve(
        threshold=t,
        net_benefit=observed,
        treat_all=treat_all,
        treat_none=np.zeros(t.size),
        standardized=observed / pi,
        interventions_avoided=(observed - treat_all) / w * 100,
        low=low,
        high=high,
        pointwise_low=p_low,
        pointwise_high=p_high,
        prevalence=float(pi),
        harm=harm,
        level=level,
    )


def decision_curve(
    y_true,
    scores,
    thresholds,
    *,
    pos_label=None,
    harm=0.0,
    prevalence=None,
    level=0.95,
    size=2000,
    rng=None,
) -> DecisionCurve:
    r"""The decision curve of a model: net benefit across thresholds, the defaults, a band.

    With :math:`\pi` the prevalence (the test set's, or ``prevalence``) and
    :math:`w = t/(1-t)`:

    - ``net_benefit``: :math:`NB(t)` of :func:`clfmetrics.scores.net_benefit`
      (Vickers & Elkin 2006), treating where ``scores >= t``;
    - ``treat_all``: :math:`\pi - (1-\pi)\,w`; ``treat_none``: 0;
    - ``standardized``: :math:`NB(t)/\pi`;
    - ``interventions_avoided``: :math:`100\,(NB(t) - NB_{all}(t))/w`, net
      interventions avoided per 100 items;
    - ``low``/``high`` the simultaneous band and ``pointwise_low``/``pointwise_high``
      the pointwise intervals of the net benefit, from ``size`` bootstrap resamples
      of the items (see the module's text).

    The values agree with ``dcurves.dca`` (its ``net_benefit`` of the model, of
    ``all`` and ``none``, and ``net_intervention_avoided`` with ``nper=100``).

    Parameters
    ----------
    y_true, scores, thresholds, pos_label, harm, prevalence
        As in :func:`clfmetrics.scores.net_benefit`.
    level : float, default 0.95
    size : int, default 2000
        Bootstrap resamples.
    rng : numpy.random.Generator or int, optional

    Returns
    -------
    DecisionCurve

    Raises
    ------
    ValueError
        As :func:`clfmetrics.scores.net_benefit`, and for a bad ``level`` or ``size``.

    Examples
    --------
    >>> y = [0, 0, 1, 1, 0, 1, 0, 0] * 10
    >>> p = [0.1, 0.4, 0.35, 0.8, 0.2, 0.7, 0.5, 0.05] * 10
    >>> dc = decision_curve(y, p, [0.25, 0.5], size=500, rng=0)
    >>> dc.net_benefit.round(4).tolist(), dc.treat_all.round(4).tolist()
    ([0.2917, 0.125], [0.1667, -0.25])
    >>> bool((dc.low <= dc.net_benefit).all() and (dc.net_benefit <= dc.high).all())
    True
    """
    s, is_pos = checked_scores(y_true, scores, pos_label)
    t = check_thresholds(thresholds)
    harm, prevalence = check_harm(harm), check_prevalence(prevalence)
    return _curve(threshold_bins(s, is_pos, t), harm, prevalence, level, size, rng)


def decision_curve_from_counts(
    scores,
    positives,
    negatives,
    thresholds,
    *,
    harm=0.0,
    prevalence=None,
    level=0.95,
    size=2000,
    rng=None,
) -> DecisionCurve:
    """:func:`decision_curve` from counts: how many positives and negatives hold each score.

    The counts of a file or a database give the same curve and, with the same ``rng``,
    the same band as the items themselves: the bootstrap draws the counts between
    consecutive thresholds in both. From :func:`clfmetrics.io.duckdb_counts` (its label
    and score columns, then the counts)::

        y, risk, n = duckdb_counts("visits.parquet", ["outcome", "risk"])
        decision_curve_from_counts(risk, n * (y == 1), n * (y == 0), thresholds)

    Parameters
    ----------
    scores : array_like of float, shape (K,)
        Predicted risks in [0, 1]; a score may repeat (its counts add up).
    positives, negatives : array_like of int, shape (K,)
        Whole, non-negative numbers of positive and negative items at each score.
    thresholds, harm, prevalence, level, size, rng
        As in :func:`decision_curve`.

    Returns
    -------
    DecisionCurve

    Examples
    --------
    >>> dc = decision_curve_from_counts([0.1, 0.4, 0.8], [1, 3, 6], [20, 5, 1], [0.2], rng=0)
    >>> round(float(dc.net_benefit[0]), 4), round(dc.prevalence, 4)
    (0.2083, 0.2778)
    """
    bins = bins_from_counts(scores, positives, negatives, thresholds)
    harm, prevalence = check_harm(harm), check_prevalence(prevalence)
    return _curve(bins, harm, prevalence, level, size, rng)


def _check_harms(harm) -> tuple[float, float]:
    if isinstance(harm, (tuple, list)):
        if len(harm) != 2:
            raise ValueError(f"harm must be one number or a pair (model a, model b); got {harm!r}")
        return check_harm(harm[0]), check_harm(harm[1])
    value = check_harm(harm)
    return value, value


def _group_sums(draws: np.ndarray, groups: np.ndarray, n_groups: int) -> np.ndarray:
    """Column sums of ``draws`` (B, C) by ``groups`` (C,): shape (B, n_groups)."""
    order = np.argsort(groups, kind="stable")
    g = groups[order]
    starts = np.flatnonzero(np.r_[True, g[1:] != g[:-1]])
    out = np.zeros((draws.shape[0], n_groups), dtype=draws.dtype)
    out[:, g[starts]] = np.add.reduceat(draws[:, order], starts, axis=1)
    return out


def net_benefit_difference(
    y_true,
    scores_a,
    scores_b,
    thresholds,
    *,
    pos_label=None,
    harm=0.0,
    prevalence=None,
    level=0.95,
    size=2000,
    rng=None,
) -> NetBenefitDifference:
    r"""The paired difference in net benefit of two models on the same items, with its band.

    :math:`NB_a(t) - NB_b(t)` (:func:`clfmetrics.scores.net_benefit`) at each
    threshold, and its simultaneous and pointwise bands from ``size`` bootstrap
    resamples of the items, each item keeping both its scores (see the module's text).
    A band that excludes 0 over a range of thresholds says one model is the more useful
    there, for every threshold of the range at once.

    Parameters
    ----------
    y_true : array_like of shape (N,)
    scores_a, scores_b : array_like of float, shape (N,)
        The two models' predicted risks in [0, 1], for the same items.
    thresholds, pos_label, prevalence, level, size, rng
        As in :func:`decision_curve`.
    harm : float or (float, float), default 0.0
        The harm of each model's test (one number: both).

    Returns
    -------
    NetBenefitDifference

    Examples
    --------
    >>> y = [0, 0, 1, 1, 0, 1, 0, 0] * 10
    >>> a = [0.1, 0.4, 0.35, 0.8, 0.2, 0.7, 0.5, 0.05] * 10
    >>> b = [0.3, 0.2, 0.3, 0.6, 0.3, 0.2, 0.3, 0.3] * 10
    >>> d = net_benefit_difference(y, a, b, [0.25, 0.5], size=500, rng=0)
    >>> d.difference.round(4).tolist()
    [0.2083, 0.0]
    """
    s_a, is_pos = checked_scores(y_true, scores_a, pos_label, "scores_a")
    s_b, _ = checked_scores(y_true, scores_b, pos_label, "scores_b")
    if len(s_a) != len(s_b):
        raise ValueError(f"scores_a and scores_b differ in length: {len(s_a)} vs {len(s_b)}")
    return _difference(s_a, s_b, is_pos, None, thresholds, harm, prevalence, level, size, rng)


def net_benefit_difference_from_counts(
    scores_a,
    scores_b,
    positives,
    negatives,
    thresholds,
    *,
    harm=0.0,
    prevalence=None,
    level=0.95,
    size=2000,
    rng=None,
) -> NetBenefitDifference:
    """:func:`net_benefit_difference` from counts of the items per pair of scores.

    The same difference and, with the same ``rng``, the same band as the items: both
    resample the counts of the joint cells (bin of each model's score, class). From
    :func:`clfmetrics.io.duckdb_counts`::

        y, a, b, n = duckdb_counts("visits.parquet", ["outcome", "risk_a", "risk_b"])
        net_benefit_difference_from_counts(a, b, n * (y == 1), n * (y == 0), thresholds)

    Parameters
    ----------
    scores_a, scores_b : array_like of float, shape (K,)
        The two models' risks in [0, 1] of each combination (a pair may repeat).
    positives, negatives : array_like of int, shape (K,)
        Whole, non-negative numbers of positive and negative items with each pair.
    thresholds, harm, prevalence, level, size, rng
        As in :func:`net_benefit_difference`.

    Returns
    -------
    NetBenefitDifference

    Examples
    --------
    >>> d = net_benefit_difference_from_counts(
    ...     [0.1, 0.6, 0.6], [0.1, 0.1, 0.6], [1, 4, 5], [20, 5, 2], [0.3], size=200, rng=0
    ... )
    >>> round(float(d.difference[0]), 4)
    0.0502
    """
    s_a, s_b = (
        as_scores(scores_a, ndim=1, name="scores_a"),
        as_scores(scores_b, ndim=1, name="scores_b"),
    )
    if len(s_a) != len(s_b):
        raise ValueError(f"scores_a and scores_b differ in length: {len(s_a)} vs {len(s_b)}")
    check_risks(s_a, "scores_a")
    check_risks(s_b, "scores_b")
    pos, neg = check_counts(positives, negatives, s_a.size)
    is_pos = np.r_[np.ones(s_a.size, bool), np.zeros(s_a.size, bool)]
    return _difference(
        np.r_[s_a, s_a],
        np.r_[s_b, s_b],
        is_pos,
        np.r_[pos, neg],
        thresholds,
        harm,
        prevalence,
        level,
        size,
        rng,
    )


def _difference(s_a, s_b, is_pos, weights, thresholds, harm, prevalence, level, size, rng):
    t = check_thresholds(thresholds)
    harm_a, harm_b = _check_harms(harm)
    prevalence = check_prevalence(prevalence)
    level, size = rs.check_level(level), rs.check_size(size)
    rng = np.random.default_rng(rng)
    # The joint cells (bin of a, bin of b) of each class: all the paired resample needs.
    edges, where = np.unique(t, return_inverse=True)
    where = where.ravel()
    k1 = edges.size + 1
    at_a, at_b = bin_index(s_a, edges), bin_index(s_b, edges)
    cells = []
    for members in (is_pos, ~is_pos):
        keys, inverse = np.unique(at_a[members] * k1 + at_b[members], return_inverse=True)
        w = None if weights is None else weights[members]
        counts = np.bincount(inverse.ravel(), weights=w, minlength=keys.size).astype(np.int64)
        keep = counts > 0
        cells.append((keys[keep] // k1, keys[keep] % k1, counts[keep]))
    (pa, pb, pos), (na, nb, neg) = cells
    n_pos, n_neg = int(pos.sum()), int(neg.sum())
    if n_pos == 0 or n_neg == 0:
        which = "positive" if n_pos == 0 else "negative"
        raise ValueError(
            f"y_true has no {which} item: the net benefit needs both classes (the "
            "prevalence and the rate of each)"
        )

    def both(dp, dn):
        """Each model's net benefit from joint cell counts (B, C) of each class."""
        sp, sn = dp.sum(axis=1, keepdims=True), dn.sum(axis=1, keepdims=True)
        out = []
        for own_p, own_n, h in ((pa, na, harm_a), (pb, nb, harm_b)):
            tp = treated(_group_sums(dp, own_p, k1), where)
            fp = treated(_group_sums(dn, own_n, k1), where)
            out.append(net_benefit_of(tp, fp, sp, sn, t, h, prevalence))
        return out

    nb_a, nb_b = (v[0] for v in both(pos[None], neg[None]))
    observed = nb_a - nb_b
    curves = np.empty((size, t.size))
    width = 3 * (pos.size + neg.size) + 4 * k1 + t.size
    for start, rows in _blocks(size, width):
        values_a, values_b = both(*_draws(pos, neg, rows, prevalence is not None, rng))
        curves[start : start + rows] = values_a - values_b
    low, high, p_low, p_high = _band(observed, curves, level, _floor(n_pos, n_neg, prevalence))
    return NetBenefitDifference(t, observed, nb_a, nb_b, low, high, p_low, p_high, level)
