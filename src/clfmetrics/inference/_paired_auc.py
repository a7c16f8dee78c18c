r"""Two systems' ROC AUCs on the same items: the difference, by DeLong and by the bootstrap.

For binary scores (the positive class's score) the difference is of the two AUCs; for
probability matrices, of each column's AUC of its class against the rest and of their
macro mean (scikit-learn's ``roc_auc_score(..., multi_class="ovr", average="macro")``).

**DeLong** (DeLong, DeLong & Clarke-Pearson 1988). The difference's first-order term in
each item is system A's term less system B's, so its variance is DeLong's variance of
that difference: :math:`S_{10}(d)/P + S_{01}(d)/N` for one column (the covariance that
:func:`clfmetrics.inference.compare_auc` uses), and :math:`\sum_j n_j S_j^2(z_A - z_B)`
for the macro mean (:mod:`clfmetrics.inference._macro_auc`'s terms). A normal
approximation: the interval :math:`d \pm z_{1-\alpha/2}\, \mathrm{sd}` and the two-sided
p-value :math:`2\Phi(-|d| / \mathrm{sd})`.

**Paired bootstrap.** The items are resampled within each true class (each class keeps
its size, as pROC's stratified default and the report's ranking intervals do), and the
*same* resample is scored for both systems, so the difference keeps their correlation.
The interval is the percentile interval of the resampled differences; the p-value is
pROC's ``roc.test(method="bootstrap")`` (Robin et al. 2011):
:math:`2\Phi(-|d| / \mathrm{sd_{boot}})`, the standard deviation of the resampled
differences in place of DeLong's. Both assume independent test items.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

from .._base.arrays import bincount_onto
from ._auc import delong_covariance
from ._bootstrap import bounds
from ._interval import Interval
from ._macro_auc import MIN_SIZE, WORK, _cell_auc, _column_auc, _column_cells, _delong_terms

_NORMAL = NormalDist()


@dataclass(frozen=True)
class PairedAUC:
    """One ROC AUC of two systems on the same items, and the interval tests of A - B.

    Parameters
    ----------
    auc_a, auc_b : float
        The two areas.
    delong : Interval or None
        DeLong's interval of ``auc_a - auc_b`` (None with fewer than 2 items of a class).
    delong_p : float or None
        DeLong's two-sided p-value of equal AUCs.
    bootstrap : Interval
        The paired, class-stratified percentile bootstrap interval of the difference.
    bootstrap_p : float
        The two-sided p-value from the bootstrap's standard deviation (pROC's test).
    resamples : int
        The bootstrap's resamples.
    """

    auc_a: float
    auc_b: float
    delong: Interval | None
    delong_p: float | None
    bootstrap: Interval
    bootstrap_p: float
    resamples: int

    @property
    def difference(self) -> float:
        return self.auc_a - self.auc_b


def _normal(difference: float, var: float, level: float, method: str):
    """The normal interval of ``difference`` with variance ``var``, and its p-value."""
    sd = math.sqrt(max(var, 0.0))
    half = _NORMAL.inv_cdf(1 - (1 - level) / 2) * sd
    if sd > 0:
        p = 2 * _NORMAL.cdf(-abs(difference) / sd)
    else:  # identical rankings: no variance, as in compare_auc
        p = 1.0 if difference == 0 else 0.0
    return Interval(difference, difference - half, difference + half, level, method), p


def _delong_column(is_pos: np.ndarray, a: np.ndarray, b: np.ndarray, level: float):
    aucs, cov = delong_covariance(is_pos, [a, b])
    var = float(cov[0, 0] + cov[1, 1] - 2 * cov[0, 1])
    return _normal(float(aucs[0] - aucs[1]), var, level, "delong")


def _delong_macro(truth, a, b, support, level: float):
    macro_a, terms_a = _delong_terms(truth, a, support)
    macro_b, terms_b = _delong_terms(truth, b, support)
    sums, squares = np.zeros(support.size), np.zeros(support.size)
    for (start, za), (_, zb) in zip(terms_a, terms_b, strict=True):
        d, codes = za - zb, truth[start : start + za.size]
        sums, squares = bincount_onto(sums, codes, d), bincount_onto(squares, codes, d * d)
    var = float((support * (squares - sums**2 / support) / (support - 1)).sum())
    return _normal(float(macro_a - macro_b), var, level, "delong")


def paired_aucs(truth, scores_a, scores_b, pos, level: float, size: int, rng) -> dict:
    """Per scored column (and ``"macro"`` for matrices), the :class:`PairedAUC`, or None.

    ``truth`` holds class codes ``0 .. n-1``; ``scores_a`` and ``scores_b`` are both
    ``(N,)`` (the score of class ``pos``) or both ``(N, n)`` (column ``k`` for class
    ``k``), checked by the caller. A column is None where its class is absent or is
    every item (its AUC is 0/0); the macro entry is None where any class is absent.
    DeLong's parts are None with fewer than 2 items of a class (sample variances). The
    bootstrap draws ``size`` resamples, fewer where ``WORK`` bounds the cost
    (``resamples x items x columns x 2``), but at least ``MIN_SIZE``.
    """
    truth = np.asarray(truth)
    n_items, matrix = truth.size, scores_a.ndim == 2
    n = scores_a.shape[1] if matrix else max(int(truth.max(initial=0)) + 1, pos + 1, 2)
    support = np.bincount(truth, minlength=n)
    keys = list(range(n)) if matrix else [pos]
    out: dict = dict.fromkeys([*keys, *(["macro"] if matrix else [])])
    scored = [k for k in keys if 0 < support[k] < n_items]
    if not scored:
        return out
    size = min(size, max(MIN_SIZE, WORK // (n_items * len(scored) * 2)))
    systems = {"a": scores_a, "b": scores_b}
    cells = {
        (k, s): _column_cells(x[:, k] if matrix else x, truth == k)
        for k in scored
        for s, x in systems.items()
    }
    values = _resampled(cells, truth, support, size, rng)
    everything = np.arange(n_items)[None]  # the test set itself, as one "resample"
    aucs = {
        (k, s): float(_column_auc(everything, c, w, support[k], n_items - support[k])[0])
        for (k, s), (c, w) in cells.items()
    }
    for k in scored:
        delong = (None, None)
        if min(support[k], n_items - support[k]) >= 2:
            a, b = (x[:, k] if matrix else x for x in systems.values())
            delong = _delong_column(truth == k, a, b, level)
        out[k] = _paired(aucs[k, "a"], aucs[k, "b"], values[k, "a"] - values[k, "b"], delong,
                         level)  # fmt: skip
    if matrix and len(scored) == n:
        diffs = sum(values[k, "a"] - values[k, "b"] for k in scored) / n
        macro = [sum(aucs[k, s] for k in scored) / n for s in systems]
        delong = (None, None)
        if (support >= 2).all():
            delong = _delong_macro(truth, scores_a, scores_b, support, level)
        out["macro"] = _paired(*macro, diffs, delong, level)
    return out


def _resampled(cells: dict, truth, support, size: int, rng) -> dict:
    """Every cell's AUC on each of ``size`` class-stratified resamples, the same for all.

    A resample is each item's multiplicity (how often it was drawn within its class), one
    count per item; each column's cell counts are then one weighted ``np.bincount`` over
    the items in order, so both systems read the same resample without gathering it.
    """
    n_items = truth.size
    members = [np.flatnonzero(truth == j) for j in range(support.size) if support[j]]
    order = np.concatenate(members)  # the items class by class, as the draws come
    cells = {key: (c[order], width) for key, (c, width) in cells.items()}
    values = {key: np.empty(size) for key in cells}
    for row in range(size):
        # Each class keeps its size: its items drawn with replacement among themselves.
        drawn = np.concatenate(
            [
                np.bincount(rng.integers(0, idx.size, idx.size), minlength=idx.size)
                for idx in members
            ]
        )
        for (k, s), (c, width) in cells.items():
            counts = np.bincount(c, weights=drawn, minlength=width).astype(np.int64)
            n_pos = support[k]
            values[k, s][row] = _cell_auc(counts[None], n_pos, n_items - n_pos)[0]
    return values


def _paired(auc_a: float, auc_b: float, diffs: np.ndarray, delong, level: float) -> PairedAUC:
    d = auc_a - auc_b
    low, high = bounds(diffs, d, level, "percentile")
    sd = float(np.std(diffs, ddof=1)) if diffs.size > 1 else 0.0
    _, p = _normal(d, sd * sd, level, "bootstrap")
    boot = Interval(d, low, high, level, "paired percentile bootstrap")
    return PairedAUC(auc_a, auc_b, delong[0], delong[1], boot, p, diffs.size)
