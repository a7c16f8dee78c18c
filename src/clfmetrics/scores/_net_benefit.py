r"""Net benefit at threshold probabilities (Vickers & Elkin 2006), from counts.

Treating the items whose predicted risk is at least :math:`t` (the library's
``score >= t``), with :math:`TP(t)` and :math:`FP(t)` the positives and negatives
treated among :math:`n` items,

.. math::

    NB(t) = \frac{TP(t)}{n} - \frac{FP(t)}{n} \frac{t}{1 - t} - \text{harm}.

The threshold is an exchange rate: a decision maker who treats at risk :math:`t`
values a false positive :math:`t/(1-t)` times as much (as a loss) as a true
positive (as a gain), so :math:`NB` is the number of true positives per item net of
the false positives converted at that rate. With a case-control sample the
prevalence of the test set is the design's, not the population's; given the
population's :math:`\pi` (``prevalence=``), the rates are weighted by it instead,
as ``dcurves`` does:

.. math::

    NB(t) = \pi \frac{TP(t)}{P} - (1 - \pi) \frac{FP(t)}{N} \frac{t}{1 - t} - \text{harm}.

Every net benefit depends on the items only through how many of each class score
between two consecutive thresholds: :func:`threshold_bins` counts them once, and the
curve, its bootstrap (:mod:`clfmetrics.inference`) and a file's counts are read
off those ``2 (K + 1)`` numbers for ``K`` thresholds, whatever the number of items.
"""

from __future__ import annotations

import math

import numpy as np

from .._base.checks import reject_masked
from ._checks import as_scores, positives


def check_thresholds(thresholds) -> np.ndarray:
    """``thresholds`` as a 1-d float array of threshold probabilities in (0, 1), or a ValueError."""
    reject_masked(thresholds, "thresholds", "values")
    arr = np.asarray(thresholds)
    if arr.ndim == 0:
        arr = arr.reshape(1)
    if arr.dtype.kind not in "iuf" or arr.ndim != 1 or arr.size == 0:
        raise ValueError(
            f"thresholds must be one or more numbers (threshold probabilities); got {thresholds!r}"
        )
    arr = arr.astype(np.float64)
    bad = ~((arr > 0) & (arr < 1))  # also NaN
    if bad.any():
        raise ValueError(
            f"thresholds must lie strictly between 0 and 1 (a threshold probability t gives "
            f"false positives the weight t / (1 - t)); got {arr[bad][0]!r}"
        )
    return arr


def check_harm(harm) -> float:
    """``harm`` as a finite non-negative float, or a ValueError."""
    if isinstance(harm, (bool, np.bool_)) or not isinstance(harm, (int, float, np.number)):
        raise ValueError(f"harm must be a number (net benefit lost per item tested); got {harm!r}")
    value = float(harm)
    if not math.isfinite(value) or value < 0:
        raise ValueError(f"harm must be finite and at least 0; got {harm!r}")
    return value


def check_prevalence(prevalence) -> float | None:
    """``prevalence`` as a float in (0, 1), or None, or a ValueError."""
    if prevalence is None:
        return None
    if isinstance(prevalence, (bool, np.bool_)) or not isinstance(
        prevalence, (int, float, np.number)
    ):
        raise ValueError(f"prevalence must be a number in (0, 1) or None; got {prevalence!r}")
    value = float(prevalence)
    if not 0 < value < 1:
        raise ValueError(
            f"prevalence must lie strictly between 0 and 1 (the population's share of "
            f"positives); got {prevalence!r}"
        )
    return value


class Bins:
    """The items counted between consecutive thresholds: what every net benefit needs.

    ``edges`` are the distinct thresholds in increasing order (``K``), ``where`` maps
    each given threshold to its edge, and ``pos``/``neg`` (length ``K + 1``) count the
    positives and negatives in bin ``b``: those with ``edges[b - 1] <= score <
    edges[b]`` (bin 0 below every threshold, bin ``K`` at or above the last).
    """

    def __init__(self, thresholds: np.ndarray, edges, where, pos, neg):
        self.thresholds, self.edges, self.where = thresholds, edges, where
        self.pos, self.neg = pos, neg
        self.sizes = int(pos.sum()), int(neg.sum())
        n_pos, n_neg = self.sizes
        if n_pos == 0 or n_neg == 0:
            which = "positive" if n_pos == 0 else "negative"
            raise ValueError(
                f"y_true has no {which} item: the net benefit needs both classes (the "
                "prevalence and the rate of each)"
            )


def bin_index(s: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """Bin of each score: how many edges are at most the score (treated at those)."""
    return np.searchsorted(edges, s, side="right")


def threshold_bins(s: np.ndarray, is_pos: np.ndarray, thresholds: np.ndarray, weights=None):
    """:class:`Bins` of checked scores ``s`` with classes ``is_pos`` (and counts ``weights``)."""
    edges, where = np.unique(thresholds, return_inverse=True)
    at = bin_index(s, edges)
    w = np.ones(s.size, np.int64) if weights is None else weights
    pos = np.bincount(at[is_pos], weights=w[is_pos], minlength=edges.size + 1)
    neg = np.bincount(at[~is_pos], weights=w[~is_pos], minlength=edges.size + 1)
    return Bins(thresholds, edges, where.ravel(), pos.astype(np.int64), neg.astype(np.int64))


def treated(counts: np.ndarray, where: np.ndarray) -> np.ndarray:
    """Items treated at each threshold from bin counts ``(..., K + 1)``: ``(..., len(where))``."""
    above = np.cumsum(counts[..., ::-1], axis=-1)[..., ::-1]
    return above[..., 1:][..., where]


def exchange_rate(thresholds: np.ndarray) -> np.ndarray:
    """The weight of a false positive against a true positive, :math:`t / (1 - t)`."""
    return thresholds / (1 - thresholds)


def net_benefit_of(tp, fp, n_pos, n_neg, thresholds, harm: float, prevalence):
    """Net benefit from treated counts (any leading shape; class sizes broadcast)."""
    w = exchange_rate(thresholds)
    if prevalence is None:
        n = n_pos + n_neg
        return (tp - fp * w) / n - harm
    return prevalence * (tp / n_pos) - w * (fp / n_neg) * (1 - prevalence) - harm


def check_counts(positives_, negatives_, n_scores: int):
    """Counts of positives and negatives per score as int64 arrays, or a ValueError."""
    out = []
    for name, counts in (("positives", positives_), ("negatives", negatives_)):
        reject_masked(counts, name)
        arr = np.asarray(counts)
        if arr.dtype.kind not in "iuf" or arr.shape != (n_scores,):
            raise ValueError(
                f"{name} must be {n_scores} numbers of items, one per score; got shape "
                f"{arr.shape} of dtype {arr.dtype}"
            )
        if arr.dtype.kind == "f" and not (
            np.isfinite(arr).all() and np.array_equal(arr, np.round(arr))
        ):
            raise ValueError(f"{name} must hold whole numbers of items")
        if (arr < 0).any():
            raise ValueError(f"{name} must not be negative; got {arr[arr < 0][0]!r}")
        out.append(arr.astype(np.int64))
    return out


def checked_scores(y_true, scores, pos_label, name: str = "scores"):
    """Checked risks in [0, 1] and the positive class of a binary problem."""
    s, is_pos = positives(y_true, scores, pos_label, name=name)
    check_risks(s, name)
    return s, is_pos


def check_risks(s: np.ndarray, name: str) -> None:
    if ((s < 0) | (s > 1)).any():
        bad = s[(s < 0) | (s > 1)][0]
        raise ValueError(
            f"{name} must be predicted risks (probabilities in [0, 1]), to be compared with "
            f"threshold probabilities; got {bad!r}"
        )


def bins_from_counts(scores, positives_, negatives_, thresholds) -> Bins:
    """:class:`Bins` from counts of positives and negatives per score."""
    s = as_scores(scores, ndim=1)
    check_risks(s, "scores")
    pos, neg = check_counts(positives_, negatives_, s.size)
    t = check_thresholds(thresholds)
    s2 = np.concatenate([s, s])
    is_pos = np.r_[np.ones(s.size, bool), np.zeros(s.size, bool)]
    return threshold_bins(s2, is_pos, t, np.concatenate([pos, neg]))


def net_benefit(y_true, scores, thresholds, *, pos_label=None, harm=0.0, prevalence=None):
    r"""Net benefit of treating the items whose risk is at least each threshold.

    .. math::

        NB(t) = \frac{TP(t)}{n} - \frac{FP(t)}{n} \frac{t}{1 - t} - \text{harm},

    with :math:`TP(t), FP(t)` the positives and negatives with ``scores >= t`` among
    the :math:`n` items (Vickers & Elkin 2006). With ``prevalence`` :math:`\pi` (a
    case-control sample), :math:`\pi\, TP/P - (1 - \pi)\, FP/N \cdot t/(1-t) -
    \text{harm}`, as ``dcurves`` computes it.

    Parameters
    ----------
    y_true : array_like of shape (N,)
        Reference labels, two classes (or more with ``pos_label``); both present.
    scores : array_like of float, shape (N,)
        Predicted risks of the positive class, in [0, 1].
    thresholds : array_like of float
        Threshold probabilities, each strictly between 0 and 1, in any order.
    pos_label : label, optional
        As in :func:`clfmetrics.scores.roc_curve`.
    harm : float, default 0.0
        The harm of the test itself, in true positives per item, subtracted from the
        model's net benefit.
    prevalence : float, optional
        The population's prevalence, for a case-control test set; default the test
        set's own.

    Returns
    -------
    ndarray of shape (len(thresholds),)

    Raises
    ------
    ValueError
        For a threshold outside (0, 1), scores outside [0, 1], a missing class, a
        negative or non-finite ``harm``, a ``prevalence`` outside (0, 1).

    Examples
    --------
    >>> y = [0, 0, 1, 1, 0, 1, 0, 0]
    >>> p = [0.1, 0.4, 0.35, 0.8, 0.2, 0.7, 0.5, 0.05]
    >>> net_benefit(y, p, [0.25, 0.5]).round(4).tolist()
    [0.2917, 0.125]
    """
    s, is_pos = checked_scores(y_true, scores, pos_label)
    t = check_thresholds(thresholds)
    harm, prevalence = check_harm(harm), check_prevalence(prevalence)
    bins = threshold_bins(s, is_pos, t)
    return net_benefit_from_bins(bins, harm, prevalence)


def net_benefit_from_bins(bins: Bins, harm: float, prevalence) -> np.ndarray:
    """The observed net benefit at ``bins.thresholds``."""
    tp, fp = treated(bins.pos, bins.where), treated(bins.neg, bins.where)
    n_pos, n_neg = bins.sizes
    return net_benefit_of(tp, fp, n_pos, n_neg, bins.thresholds, harm, prevalence)
