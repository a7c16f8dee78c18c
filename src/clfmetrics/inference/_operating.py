r"""Operating points: the rates at a threshold fixed in advance, and at a threshold chosen.

A threshold turns scores into decisions (predict positive where
``score >= threshold``); its confusion matrix is ``[[TN, FN], [FP, TP]]``
(rows = predicted, class order (negative, positive)).

- :func:`rates_at_threshold`: sensitivity, specificity, precision and NPV,
  each a binomial proportion with its exact Clopper-Pearson interval
  (Clopper & Pearson 1934). Exact only for a threshold fixed before these data
  were seen.
- :func:`tuned_threshold_interval`: a threshold chosen on validation data is a
  random quantity too. The bootstrap repeats the whole selection: choose on a
  resample of the validation set, score on a resample of the test set.
"""

from __future__ import annotations

import math

import numpy as np

from ..metrics import CLASSWISE, METRICS
from ..scores import positives
from . import _bootstrap as rs
from ._binomial import clopper_pearson
from ._bootstrap import defined_bounds, undefined_mask
from ._interval import Interval
from ._multinomial import draw


def _threshold(threshold) -> float:
    if isinstance(threshold, (bool, np.bool_)) or not isinstance(
        threshold, (int, float, np.integer, np.floating)
    ):
        raise ValueError(f"threshold must be a number; got {threshold!r}")
    if math.isnan(threshold):
        raise ValueError("threshold must be a number; got NaN")
    return float(threshold)


def rates_at_threshold(y_true, scores, threshold, *, level=0.95, pos_label=None) -> dict:
    r"""Sensitivity, specificity, precision and NPV at one threshold, with exact intervals.

    With ``TP, FP, TN, FN`` the counts where ``score >= threshold`` is predicted
    positive:

    .. math::

        \text{sensitivity} = \frac{TP}{TP + FN}, \quad
        \text{specificity} = \frac{TN}{TN + FP}, \quad
        \text{precision} = \frac{TP}{TP + FP}, \quad
        \text{NPV} = \frac{TN}{TN + FN}.

    Each is ``k`` successes in ``n`` trials; its interval is the exact
    Clopper-Pearson interval, whose coverage is at least ``level`` for every
    true proportion. That holds for a threshold **fixed in advance**: a threshold
    chosen on these same items (the best F1 of the sweep, say) makes the rates
    optimistic and the intervals too short; use :func:`tuned_threshold_interval`
    for a chosen threshold, or choose on validation data and report here on test
    data.

    Parameters
    ----------
    y_true : array_like of shape (N,)
        Reference labels, two classes (or more with ``pos_label``).
    scores : array_like of float, shape (N,)
    threshold : float
        Predict positive where ``score >= threshold``.
    level : float, default 0.95
    pos_label : label, optional
        As in :func:`clfmetrics.scores.roc_curve`.

    Returns
    -------
    dict of str to Interval
        Keys ``"sensitivity"``, ``"specificity"``, ``"precision"``, ``"npv"``;
        ``method`` is ``"clopper-pearson"``. A rate whose denominator is 0 (no
        predicted positive: precision) has a NaN estimate and the interval [0, 1]:
        the data say nothing about it.

    Examples
    --------
    >>> r = rates_at_threshold([0, 0, 1, 1, 0, 1] * 10, [0.1, 0.6, 0.7, 0.8, 0.2, 0.4] * 10, 0.5)
    >>> str(r["sensitivity"])
    '0.667 [0.472, 0.827] (95% clopper-pearson)'
    """
    level = rs.check_level(level)
    t = _threshold(threshold)
    s, pos = positives(y_true, scores, pos_label)
    said = s >= t
    tp, fp = int(np.sum(said & pos)), int(np.sum(said & ~pos))
    fn, tn = int(np.sum(~said & pos)), int(np.sum(~said & ~pos))
    names = ("sensitivity", "specificity", "precision", "npv")
    ks, ns = np.array([tp, tn, tp, tn]), np.array([tp + fn, tn + fp, tp + fp, tn + fn])
    # One vectorised call for the four rates; a rate with no trials has no estimate.
    lows, highs = clopper_pearson(ks, np.maximum(ns, 1), level)
    out = {}
    for name, k, n, low, high in zip(names, ks, ns, lows, highs, strict=True):
        if n == 0:
            out[name] = Interval(math.nan, 0.0, 1.0, level, "clopper-pearson")
        else:
            out[name] = Interval(int(k) / int(n), float(low), float(high), level, "clopper-pearson")
    return out


def _metric_of_stack(metric):
    """A function of a (..., 2, 2) stack, larger is better, and its name."""
    if isinstance(metric, str):
        if metric in ("precision", "recall", "f1"):
            per_class = CLASSWISE[metric]

            def positive(stack, zero_division=0):
                return per_class(stack, zero_division=zero_division)[..., 1]

            return positive
        if metric in METRICS:
            return METRICS[metric]
        raise ValueError(
            f"unknown metric {metric!r}; choose 'precision', 'recall' or 'f1' (of the "
            f"positive class) or one of {sorted(METRICS)}"
        )
    if not callable(metric):
        raise ValueError(f"metric must be a name or a function of a stack; got {metric!r}")
    return metric


def _cumulative(counts: np.ndarray) -> np.ndarray:
    """Items at or above each distinct score (counts ordered from the top), with 0 first."""
    out = np.zeros((counts.shape[0], counts.shape[1] + 1), dtype=np.int64)
    np.cumsum(counts, axis=1, out=out[:, 1:])
    return out


def _stack(tp: np.ndarray, fp: np.ndarray, n_pos, n_neg) -> np.ndarray:
    """Matrices ``[[TN, FN], [FP, TP]]`` from counts above the threshold."""
    return np.stack([np.stack([n_neg - fp, n_pos - tp], -1), np.stack([fp, tp], -1)], -2)


class _Scored:
    """One scored set as (distinct score, class) counts, distinct scores from the top."""

    def __init__(self, y_true, scores, pos_label):
        s, pos = positives(y_true, scores, pos_label)
        self.values, inverse = np.unique(-s, return_inverse=True)  # decreasing scores
        self.values = -self.values
        size = self.values.size
        self.counts = np.concatenate(
            [np.bincount(inverse[pos], minlength=size), np.bincount(inverse[~pos], minlength=size)]
        )

    def draw(self, rows, rng):
        """Positive and negative counts per distinct score: ``rows`` item resamples."""
        keep = np.flatnonzero(self.counts)
        drawn = np.zeros((rows, self.counts.size), dtype=np.int64)
        drawn[:, keep] = draw(self.counts[keep], rows, rng)
        return np.split(drawn, 2, axis=1)


def _choose(func, values, pos, neg):
    """Per row, the best threshold: ``+inf`` first, then the distinct scores, decreasing.

    Ties go to the highest threshold, as in :func:`clfmetrics.scores.best_threshold`.
    """
    tp, fp = _cumulative(pos), _cumulative(neg)
    n_pos, n_neg = tp[:, -1:], fp[:, -1:]
    with np.errstate(invalid="ignore", divide="ignore"):
        values_k = np.asarray(func(_stack(tp, fp, n_pos, n_neg)), dtype=np.float64)
    values_k = np.where(np.isnan(values_k), -np.inf, values_k)
    best = np.argmax(values_k, axis=1)
    return np.concatenate([[np.inf], values])[best]


def _score_at(func, scored: _Scored, pos, neg, thresholds):
    """The metric of each row's matrix at its own threshold (predict ``score >= t``)."""
    above = np.searchsorted(-scored.values, -thresholds, side="right")  # scores >= t
    tp = np.take_along_axis(_cumulative(pos), above[:, None], axis=1)[:, 0]
    fp = np.take_along_axis(_cumulative(neg), above[:, None], axis=1)[:, 0]
    stack = _stack(tp, fp, pos.sum(axis=1), neg.sum(axis=1))
    return stack, np.asarray(func(stack), dtype=np.float64)


def tuned_threshold_interval(
    y_val, s_val, y_test, s_test, *, metric="f1", level=0.95, size=2000, pos_label=None, rng=None
) -> dict:
    r"""A threshold chosen on validation data, and its test score, both with intervals.

    The rule: on the validation set, take the threshold of the sweep (``+inf``,
    then every distinct score) with the largest ``metric`` (ties: the highest
    threshold, as :func:`clfmetrics.scores.best_threshold`); predict positive on
    the test set where ``score >= threshold``; score the test matrix.

    The bootstrap repeats the whole rule ``size`` times: each repetition
    resamples the validation items (with replacement, one multinomial draw over
    the (distinct score, class) counts), chooses the threshold on that
    resample, resamples the test items the same way and scores the chosen
    threshold there. The score interval therefore includes the selection's
    variability (another validation set would choose another threshold) on top
    of the test set's: it is an interval for the *rule*, the population score
    averaged over the validation sets one might have drawn (Bates, Hastie &
    Tibshirani 2023), and in simulation it is conservative. For the classifier
    actually deployed, with the one chosen threshold, the interval of the score
    at that threshold (:func:`~clfmetrics.inference.interval` of its test matrix)
    is the valid one: given the validation set, the threshold is fixed and the
    test set played no part in choosing it. Both intervals are percentile intervals;
    the score's is computed among the resamples where the metric is defined
    (``undefined`` gives their share).

    Parameters
    ----------
    y_val, s_val : array_like of shape (N_val,)
        Validation labels and scores (choose here).
    y_test, s_test : array_like of shape (N_test,)
        Test labels and scores (report here).
    metric : str or callable, default "f1"
        A class-wise name (``"f1"``, ``"precision"``, ``"recall"``: of the positive
        class), a name in ``clfmetrics.METRICS`` (``"mcc"``, ``"macro_f1"``...), or a
        function of a stack ``(..., 2, 2)`` with one value per matrix, larger is better.
    level : float, default 0.95
    size : int, default 2000
    pos_label : label, optional
        The positive class of both sets, as in :func:`clfmetrics.scores.roc_curve`.
    rng : numpy.random.Generator or int, optional

    Returns
    -------
    dict of str to Interval
        ``"threshold"``: the threshold chosen on the observed validation set, with
        the interval of the thresholds chosen on the resamples; ``"score"``: the
        metric of the observed test set at that threshold, with the interval of
        the rule's resampled test scores.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> y_v, y_t = rng.random(400) < 0.3, rng.random(400) < 0.3
    >>> s_v, s_t = rng.normal(1.5 * y_v, 1), rng.normal(1.5 * y_t, 1)
    >>> r = tuned_threshold_interval(y_v, s_v, y_t, s_t, size=500, rng=0)
    >>> r["score"].low < r["score"].estimate < r["score"].high
    True
    """
    level, size = rs.check_level(level), rs.check_size(size)
    func = _metric_of_stack(metric)
    val = _Scored(y_val, s_val, pos_label)
    test = _Scored(y_test, s_test, pos_label)
    rng = np.random.default_rng(rng)
    v_pos, v_neg = np.split(val.counts[None], 2, axis=1)
    chosen = _choose(func, val.values, v_pos, v_neg)
    t_pos, t_neg = np.split(test.counts[None], 2, axis=1)
    estimate = float(_score_at(func, test, t_pos, t_neg, chosen)[1][0])
    width = val.counts.size + test.counts.size
    step = max(1, 2**20 // max(width, 1))
    thresholds, values = np.empty(size), np.empty(size)
    undefined = np.zeros(size, dtype=bool)
    for start in range(0, size, step):
        rows = slice(start, min(start + step, size))
        n = rows.stop - rows.start
        thresholds[rows] = _choose(func, val.values, *val.draw(n, rng))
        stack, values[rows] = _score_at(func, test, *test.draw(n, rng), thresholds[rows])
        undefined[rows] = undefined_mask(func, stack, values[rows])
    low, high, share = defined_bounds(values, undefined, estimate, level, "percentile")
    # "Predict nothing" (+inf) may be chosen: interpolating towards it would give NaN.
    how = "linear" if np.isfinite(thresholds).all() else "inverted_cdf"
    t_low, t_high = np.quantile(thresholds, [(1 - level) / 2, (1 + level) / 2], method=how)
    return {
        "threshold": Interval(float(chosen[0]), float(t_low), float(t_high), level, "percentile"),
        "score": Interval(estimate, low, high, level, "percentile", share),
    }
