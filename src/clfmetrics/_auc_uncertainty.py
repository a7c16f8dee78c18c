r"""ROC AUC and average precision with their uncertainty; DeLong's test of two AUCs.

Private module: :mod:`clfmetrics.uncertainty` and :mod:`clfmetrics` re-export
:func:`auc_interval`, :func:`ap_interval`, :func:`compare_auc` and
:class:`AUCComparison`. Numpy and the standard library only; the arithmetic
on (distinct score, class) cells is in ``_auc_cells.py``.

References: DeLong, DeLong & Clarke-Pearson (1988) for the variance and the
paired test; Sun & Xu (2014) for its ``O(N log N)`` form; Efron & Tibshirani
(1993) for the percentile and BCa intervals; Robin et al. (2011, pROC) for the
stratified bootstrap of the AUC.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

from . import _auc_cells as ac
from . import _resample as rs
from ._interval import Interval
from ._intervals import bounds
from ._render import fixed
from .curves import _positives

__all__ = ["AUCComparison", "ap_interval", "auc_interval", "compare_auc"]

_NORMAL = NormalDist()
AUC_METHODS = ("percentile", "bca", "delong")
AP_METHODS = ("percentile", "bca")


def _check_method(method, allowed) -> str:
    if not isinstance(method, str) or method not in allowed:
        raise ValueError(f"method must be one of {allowed}; got {method!r}")
    return method


def delong_variance(cells: ac.Cells) -> tuple[float, float]:
    """The AUC and DeLong's estimate of its variance, :math:`S_{10}/P + S_{01}/N`."""
    n_pos, n_neg = cells.sizes
    _need_two(n_pos, n_neg)
    v10, v01 = ac.components(cells)
    auc = float(cells.pos @ v10 / n_pos)
    s10 = cells.pos @ (v10 - auc) ** 2 / (n_pos - 1)
    s01 = cells.neg @ (v01 - auc) ** 2 / (n_neg - 1)
    return auc, float(s10 / n_pos + s01 / n_neg)


def _need_two(n_pos: int, n_neg: int) -> None:
    if n_pos < 2 or n_neg < 2:
        raise ValueError(
            "DeLong's variance needs at least 2 positive and 2 negative items (sample "
            f"variances); got {n_pos} positive and {n_neg} negative"
        )


def _area_interval(metric, y_true, scores, level, size, method, pos_label, rng) -> Interval:
    """Shared body of :func:`auc_interval` and :func:`ap_interval`."""
    level, size = rs.check_level(level), rs.check_size(size)
    return area_interval(metric, ac.checked_cells(y_true, scores, pos_label), level, size,
                         method, rng)  # fmt: skip


def area_interval(metric, cells: ac.Cells, level, size, method, rng) -> Interval:
    """The interval of ``metric`` from the cells of a checked problem (see above)."""
    if method == "delong":
        auc, var = delong_variance(cells)
        half = _NORMAL.inv_cdf(1 - (1 - level) / 2) * math.sqrt(var)
        return Interval(auc, max(auc - half, 0.0), min(auc + half, 1.0), level, method)
    if method == "bca" and min(cells.sizes) < 2:
        raise ValueError("bca needs at least 2 items of each class: the jackknife leaves one out")
    observed = float(ac.areas(metric, cells, cells.pos[None], cells.neg[None])[0])
    stats = ac.bootstrap_areas(metric, cells, size, np.random.default_rng(rng))
    acc = ac.acceleration(metric, cells) if method == "bca" else 0.0
    low, high = bounds(stats, observed, level, method, acc)
    return Interval(observed, low, high, level, method)


def auc_interval(
    y_true, scores, *, level=0.95, size=10_000, method="percentile", pos_label=None, rng=None
) -> Interval:
    r"""Confidence interval of the ROC AUC of one binary classifier's scores.

    .. math:: AUC = \frac{1}{PN} \sum_{i \in pos} \sum_{j \in neg}
              \left([s_i > s_j] + \tfrac12 [s_i = s_j]\right)

    - ``"percentile"`` and ``"bca"``: a bootstrap that resamples the positives
      and the negatives separately (each class keeps its size, as in pROC's
      default), through the counts of the (distinct score, class) cells after
      one sort: a resample costs ``O(cells)``, not ``O(N log N)``. BCa's
      acceleration comes from the jackknife over items, one closed-form value
      per cell. See :func:`interval` for the two methods.
    - ``"delong"``: :math:`AUC \pm z_{1-\alpha/2} \sqrt{S_{10}/P + S_{01}/N}`,
      DeLong's variance (DeLong et al. 1988) from the structural components
      computed after one sort (Sun & Xu 2014), with a normal approximation on
      the AUC scale, the ends clipped to [0, 1]. No resampling; ``size`` and
      ``rng`` are unused. Near 0 or 1 and with few items of a class the normal
      approximation is poor: prefer ``"bca"`` there.

    Parameters
    ----------
    y_true : array_like of shape (N,)
        Reference labels, two classes (or more with ``pos_label``: one against the rest).
    scores : array_like of float, shape (N,)
        Higher means more likely positive; finite.
    level : float, default 0.95
        Nominal coverage, strictly between 0 and 1.
    size : int, default 10_000
        Number of bootstrap resamples.
    method : {"percentile", "bca", "delong"}, default "percentile"
    pos_label : label, optional
        The positive class, as in :func:`clfmetrics.curves.roc_auc`.
    rng : numpy.random.Generator or int, optional

    Returns
    -------
    Interval
        ``estimate`` equals :func:`clfmetrics.curves.roc_auc` (scikit-learn's
        ``roc_auc_score``).

    Raises
    ------
    ValueError
        For lengths that differ, NaN or infinite scores, masked input, a test set
        without positives or negatives, a bad ``level``, ``size`` or ``method``,
        and ``"bca"`` (``"delong"``) with fewer than 2 items of a class.

    Examples
    --------
    >>> y = [0, 0, 1, 1, 0, 1, 0, 1] * 10
    >>> s = [0.1, 0.4, 0.35, 0.8, 0.2, 0.7, 0.5, 0.45] * 10
    >>> iv = auc_interval(y, s, size=2000, rng=0)
    >>> iv.estimate, iv.low < 0.8125 < iv.high
    (0.8125, True)
    >>> str(auc_interval(y, s, method="delong"))
    '0.812 [0.720, 0.905] (95% delong)'
    """
    _check_method(method, AUC_METHODS)
    return _area_interval("roc_auc", y_true, scores, level, size, method, pos_label, rng)


def ap_interval(
    y_true, scores, *, level=0.95, size=10_000, method="percentile", pos_label=None, rng=None
) -> Interval:
    r"""Bootstrap confidence interval of the average precision of binary scores.

    :math:`AP = \sum_k (R_k - R_{k-1}) P_k` over the distinct thresholds (as
    :func:`clfmetrics.curves.average_precision` and scikit-learn's
    ``average_precision_score``), resampled exactly as in :func:`auc_interval`:
    positives and negatives separately, through the counts of the (distinct
    score, class) cells. Keeping the class sizes fixed matters more for AP than
    for the AUC: AP depends on the prevalence, and the interval describes the
    test set's own class mix.

    Parameters
    ----------
    y_true, scores, level, size, pos_label, rng
        As in :func:`auc_interval`.
    method : {"percentile", "bca"}, default "percentile"
        There is no DeLong form of AP.

    Returns
    -------
    Interval

    Examples
    --------
    >>> y = [0, 0, 1, 1, 0, 1, 0, 1] * 10
    >>> s = [0.1, 0.4, 0.35, 0.8, 0.2, 0.7, 0.5, 0.45] * 10
    >>> iv = ap_interval(y, s, size=2000, rng=0)
    >>> round(iv.estimate, 4), iv.low < iv.estimate < iv.high
    (0.8542, True)
    """
    _check_method(method, AP_METHODS)
    return _area_interval("average_precision", y_true, scores, level, size, method, pos_label, rng)


@dataclass(frozen=True)
class AUCComparison:
    """DeLong's paired comparison of two ROC AUCs on the same items.

    Attributes
    ----------
    difference : float
        ``auc_a - auc_b``.
    low, high : float
        Ends of the normal-approximation interval of the difference.
    pvalue : float
        Two-sided p-value of the hypothesis that the two AUCs are equal.
    auc_a, auc_b : float
        The two areas.
    level : float
        Nominal coverage of the interval.
    """

    difference: float
    low: float
    high: float
    pvalue: float
    auc_a: float
    auc_b: float
    level: float

    def __str__(self) -> str:
        return (
            f"AUC {fixed(self.auc_a)} - {fixed(self.auc_b)} = "
            f"{fixed(self.difference, sign=True)} [{fixed(self.low, sign=True)}, "
            f"{fixed(self.high, sign=True)}] ({self.level:.0%} DeLong), "
            f"p = {self.pvalue:.3g}"
        )


def item_components(is_pos: np.ndarray, s: np.ndarray):
    """DeLong's V10 of every positive item and V01 of every negative item, in item order."""
    cells = ac.cells_of(is_pos, s)
    v10, v01 = ac.components(cells)
    group = np.unique(s, return_inverse=True)[1]
    return (
        v10[np.searchsorted(cells.pos_group, group[is_pos])],
        v01[np.searchsorted(cells.neg_group, group[~is_pos])],
    )


def delong_covariance(is_pos: np.ndarray, score_rows) -> tuple[np.ndarray, np.ndarray]:
    """AUCs of several score vectors on the same items and DeLong's covariance matrix."""
    parts = [item_components(is_pos, s) for s in score_rows]
    v10 = np.stack([p[0] for p in parts])
    v01 = np.stack([p[1] for p in parts])
    n_pos, n_neg = v10.shape[1], v01.shape[1]
    _need_two(n_pos, n_neg)
    aucs = v10.mean(axis=1)
    cov = np.cov(v10, ddof=1).reshape(len(parts), -1) / n_pos
    cov = cov + np.cov(v01, ddof=1).reshape(len(parts), -1) / n_neg
    return aucs, cov


def compare_auc(y_true, scores_a, scores_b, *, level=0.95, pos_label=None) -> AUCComparison:
    r"""DeLong's test of two classifiers' ROC AUCs on the same items.

    With :math:`S_{10}` and :math:`S_{01}` the 2x2 sample covariance matrices of
    the two models' structural components over the positives and over the
    negatives (DeLong, DeLong & Clarke-Pearson 1988), computed after one sort per
    model (Sun & Xu 2014),

    .. math::

        \operatorname{Var}(\hat A_a - \hat A_b) = c^\top \left(\frac{S_{10}}{P}
        + \frac{S_{01}}{N}\right) c, \quad c = (1, -1), \qquad
        z = \frac{\hat A_a - \hat A_b}{\sqrt{\operatorname{Var}}},

    the p-value is :math:`2(1 - \Phi(|z|))` and the interval
    :math:`\hat A_a - \hat A_b \pm z_{1-\alpha/2} \sqrt{\operatorname{Var}}`: a normal
    approximation. The covariance is what makes the test paired: two models that
    rank the same items alike have a much smaller variance of the difference than
    two separate intervals suggest. A zero variance (for example identical
    rankings) gives a zero-width interval and p = 1 for a zero difference, 0 otherwise.

    Parameters
    ----------
    y_true : array_like of shape (N,)
    scores_a, scores_b : array_like of float, shape (N,)
        The two models' scores on the same items.
    level : float, default 0.95
    pos_label : label, optional
        As in :func:`clfmetrics.curves.roc_auc`.

    Returns
    -------
    AUCComparison

    Raises
    ------
    ValueError
        As :func:`auc_interval`, and when the two score vectors differ in length.

    Examples
    --------
    >>> y = [0, 0, 1, 1, 0, 1, 0, 1] * 10
    >>> a = [0.1, 0.4, 0.35, 0.8, 0.2, 0.7, 0.5, 0.45] * 10
    >>> b = [0.1, 0.4, 0.45, 0.8, 0.2, 0.7, 0.5, 0.35] * 10
    >>> r = compare_auc(y, a, b)
    >>> r.difference, r.pvalue < 0.05
    (0.0, False)
    """
    level = rs.check_level(level)
    for name, s in (("scores_a", scores_a), ("scores_b", scores_b)):
        if np.ndim(s) != 1:
            raise ValueError(
                f"{name} must be a 1-d array, one score per item; got shape {np.shape(s)}"
            )
    if len(scores_a) != len(scores_b):
        raise ValueError(
            f"scores_a and scores_b differ in length: {len(scores_a)} vs {len(scores_b)}"
        )
    ac.checked_cells(y_true, scores_a, pos_label)
    ac.checked_cells(y_true, scores_b, pos_label)
    s_a, is_pos = _positives(y_true, scores_a, pos_label)
    s_b, _ = _positives(y_true, scores_b, pos_label)
    aucs, cov = delong_covariance(is_pos, [s_a, s_b])
    difference = float(aucs[0] - aucs[1])
    var = max(float(cov[0, 0] + cov[1, 1] - 2 * cov[0, 1]), 0.0)
    sd = math.sqrt(var)
    half = _NORMAL.inv_cdf(1 - (1 - level) / 2) * sd
    if sd > 0:
        pvalue = 2 * _NORMAL.cdf(-abs(difference) / sd)
    else:
        pvalue = 1.0 if difference == 0 else 0.0
    return AUCComparison(
        difference,
        difference - half,
        difference + half,
        pvalue,
        float(aucs[0]),
        float(aucs[1]),
        level,
    )
