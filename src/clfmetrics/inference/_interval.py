"""The :class:`Interval`: a point estimate with its confidence interval.

It lives in a module of its own, below everything that makes or reads intervals
(:mod:`clfmetrics.inference`, :mod:`clfmetrics.inference._auc`,
:mod:`clfmetrics.inference`, the reports), so that none of them imports another to get
it. Public as ``clfmetrics.Interval`` and ``clfmetrics.inference.Interval``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .._base.numbers import fixed


@dataclass(frozen=True)
class Interval:
    """A point estimate with a bootstrap confidence interval.

    Attributes
    ----------
    estimate : float
        The metric on the observed test set (or the observed difference).
    low, high : float
        Ends of the interval.
    level : float
        Nominal coverage, e.g. 0.95.
    method : str
        ``"percentile"`` or ``"bca"``.
    undefined : float
        The share of resamples on which the metric was undefined (a 0/0); the ends are
        computed among the other resamples. 0 for intervals that are not bootstrapped.
    """

    estimate: float
    low: float
    high: float
    level: float
    method: str
    undefined: float = 0.0

    def __str__(self) -> str:
        return (
            f"{fixed(self.estimate)} [{fixed(self.low)}, {fixed(self.high)}] "
            f"({self.level:.0%} {self.method})"
        )

    def __contains__(self, value) -> bool:
        return self.low <= value <= self.high


#: The method name of an interval moved by :func:`centred_on_estimate`.
CENTRED = "centred on the estimate"


def centred_on_estimate(iv: Interval, lower: float = 0.0, upper: float = 1.0) -> Interval:
    """``iv``, or, if it excludes its own estimate, the same width centred on the estimate.

    A percentile interval that excludes the estimate says the resamples are biased
    relative to it, not that the estimate is implausible: a metric built from squares
    of noisy class-wise rates (``delta_f1``) or of rare classes gains from the
    resampling noise itself, more for the system with smaller classes, and AP of a
    ranking that puts the class last rises when items are duplicated. The shift
    removes that bias, the width stays; the ends are kept within ``[lower, upper]``
    (the metric's range) and the method says ``"..., centred on the estimate"``, so
    the reports can say why.
    """
    if iv.low <= iv.estimate <= iv.high or iv.estimate != iv.estimate:  # inside, or NaN
        return iv
    half = (iv.high - iv.low) / 2
    low, high = max(iv.estimate - half, lower), min(iv.estimate + half, upper)
    return replace(iv, low=low, high=high, method=f"{iv.method}, {CENTRED}")
