"""The :class:`Interval`: a point estimate with its confidence interval.

It lives in a module of its own, below everything that makes or reads intervals
(:mod:`clfmetrics.uncertainty`, :mod:`clfmetrics._auc_uncertainty`,
:mod:`clfmetrics.grouped`, the reports), so that none of them imports another to get
it. Public as ``clfmetrics.Interval`` and ``clfmetrics.uncertainty.Interval``.
"""

from __future__ import annotations

from dataclasses import dataclass

from ._render import fixed

__all__ = ["Interval"]


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
