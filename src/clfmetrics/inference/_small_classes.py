r"""How often the ROC AUC intervals keep their promise when one class is small.

:func:`auc_coverage` simulates it: binormal test sets of given class sizes and
population AUC, the interval of each method computed by
:func:`~clfmetrics.inference.auc_interval` on each. ``AUC_COVERAGE`` is the table
of such simulations that ships with the library (``_auc_coverage_table.py``,
written by ``python -m clfbook.tooling.auc_coverage_table``), over the size of the
smaller class, the ratio of the larger to it and the AUC; :func:`expected_coverage`
reads it for a test set, and :func:`small_class_warning` is the report's flag: it
fires where the table's coverage of the method falls short of the nominal level,
and :func:`better_auc_method` names the method the table finds closest to it.
"""

from __future__ import annotations

from statistics import NormalDist

import numpy as np

from . import _bootstrap as rs
from ._auc import auc_interval
from ._auc_coverage_table import AP_CELLS, AUCS, CELLS, METHODS, RATIOS, SMALL


def auc_coverage(
    n_pos: int,
    n_neg: int,
    auc: float,
    *,
    methods=("percentile", "bca", "delong"),
    sets: int = 200,
    level=0.95,
    size: int = 1000,
    rng=None,
    detail: bool = False,
) -> dict:
    r"""Share of simulated test sets whose ROC AUC interval contains the true AUC.

    Each of ``sets`` test sets holds ``n_pos`` positives with scores
    :math:`N(\delta, 1)` and ``n_neg`` negatives with scores :math:`N(0, 1)`,
    :math:`\delta = \sqrt 2\, \Phi^{-1}(\text{auc})`, so that the population AUC is
    ``auc``; on each, :func:`~clfmetrics.inference.auc_interval` computes the
    interval of every method (bootstraps from ``size`` resamples).

    Parameters
    ----------
    n_pos, n_neg : int
        Positives and negatives per test set, at least 1 each.
    auc : float
        The population ROC AUC, strictly between 0 and 1.
    methods : sequence of str, default ("percentile", "bca", "delong")
        Any of :func:`~clfmetrics.inference.auc_interval`'s methods.
    sets : int, default 200
        Simulated test sets; a coverage near 0.95 is uncertain by about
        :math:`\sqrt{0.95 \cdot 0.05 / \text{sets}}`.
    level : float, default 0.95
    size : int, default 1000
    rng : numpy.random.Generator or int, optional
    detail : bool, default False
        Also say how the intervals miss: for each method a dict of ``cover``,
        ``above`` (the share of sets whose whole interval lies above the true AUC),
        ``below`` (wholly below it) and ``width`` (the mean width).

    Returns
    -------
    dict
        For each method, the share of test sets whose interval contains ``auc``
        (with ``detail``, the dict above).

    Examples
    --------
    >>> cover = auc_coverage(200, 200, 0.8, methods=("delong",), sets=100, rng=0)
    >>> 0.85 < cover["delong"] <= 1
    True
    """
    if not (isinstance(n_pos, (int, np.integer)) and isinstance(n_neg, (int, np.integer))):
        raise ValueError(f"n_pos and n_neg must be whole numbers; got {n_pos!r}, {n_neg!r}")
    if n_pos < 1 or n_neg < 1:
        raise ValueError(f"n_pos and n_neg must be at least 1; got {n_pos}, {n_neg}")
    if not 0 < auc < 1:
        raise ValueError(f"auc must lie strictly between 0 and 1; got {auc!r}")
    sets, level = rs.check_size(sets), rs.check_level(level)
    shift = np.sqrt(2) * NormalDist().inv_cdf(auc)
    y = np.r_[np.ones(n_pos, np.int64), np.zeros(n_neg, np.int64)]
    rng = np.random.default_rng(rng)
    tally = {method: np.zeros(4) for method in methods}  # inside, above, below, width
    for _ in range(sets):  # a loop over simulated test sets; each interval is vectorised
        scores = rng.normal(shift * y, 1.0)
        for method in methods:
            iv = auc_interval(y, scores, level=level, size=size, method=method, rng=rng)
            tally[method] += (
                iv.low <= auc <= iv.high,
                iv.low > auc,
                iv.high < auc,
                iv.high - iv.low,
            )
    if not detail:
        return {method: float(t[0]) / sets for method, t in tally.items()}
    keys = ("cover", "above", "below", "width")
    return {
        method: dict(zip(keys, (t / sets).tolist(), strict=True)) for method, t in tally.items()
    }


#: The simulated coverage of nominal 95 % ROC AUC intervals, by
#: ``(smaller class, ratio of the larger to it, population AUC, method)``: a tuple
#: ``(cover, above, below, width, sets)``, the shares of simulated test sets whose interval
#: contains the true AUC, lies wholly above it and wholly below it, the mean width, and the
#: number of sets. Written by ``python -m clfbook.tooling.auc_coverage_table``.
AUC_COVERAGE = CELLS

#: The simulated coverage of nominal 95 % AP intervals (:func:`~clfmetrics.inference.ap_interval`)
#: at a few cells of the same grid, ``(smaller class, ratio, AUC, method): cover``, the
#: population AP that of the binormal model at the test set's prevalence. The report's AP
#: intervals are BCa, as they cover better here.
AP_COVERAGE = AP_CELLS

#: The report flags a ROC AUC interval whose method covered less than this in the table's
#: cell for its test set (nominal 0.95: two points short, two simulation errors of a cell).
COVERAGE_FLAG = 0.93

#: The cell :data:`SMALL_CLASS_COVERAGE` comes from, the one chapter 16's digit 8 reads
#: (14 images of it among 304, AUC about 0.96): 14 positives, 25 times as many negatives.
SMALL_CLASS_STUDY = {
    "n_pos": 14,
    "n_neg": 14 * 25,
    "auc": 0.96,
    "sets": CELLS[(14, 25, 0.96, "bca")][4],
}

#: Coverage of each method's nominal 95 % interval in that cell of :data:`AUC_COVERAGE`.
SMALL_CLASS_COVERAGE = {m: CELLS[(14, 25, 0.96, m)][0] for m in METHODS}


def _cell(n_pos: int, n_neg: int, auc: float):
    """The grid cell that bounds this test set from the side of lower coverage, or None.

    Fewer items of the smaller class, a larger ratio and an AUC nearer 1 (or 0: the
    methods treat both ends alike) each lower the coverage: the smaller class is rounded
    down to the grid, the ratio and the AUC's distance from 1/2 up. None where the grid
    does not reach: fewer than its fewest items, or an AUC beyond its highest.
    """
    small, large = min(n_pos, n_neg), max(n_pos, n_neg)
    far = max(auc, 1 - auc)
    if small < SMALL[0] or far > AUCS[-1]:
        return None
    row = max(s for s in SMALL if s <= small)
    # The test set's own ratio of the classes, rounded up (not the ratio to the rounded-down
    # row: 10,000 items a class is a balanced set, not one a hundred to one).
    ratio = next((r for r in RATIOS if r * small >= large), RATIOS[-1])
    column = next(a for a in AUCS if a >= far - 1e-12)
    return row, ratio, column


def expected_coverage(n_pos: int, n_neg: int, auc: float, method: str = "percentile"):
    """The table's coverage of ``method``'s nominal 95 % ROC AUC interval for such a test set.

    Reads :data:`AUC_COVERAGE` at the cell that bounds the test set from the side of lower
    coverage (the smaller class rounded down to the grid, the ratio of the classes and the
    AUC's distance from 1/2 rounded up). The cells are binormal simulations; the coverage
    of other score distributions may differ.

    Returns
    -------
    float or None
        None where the table does not reach (a smaller class below its fewest items, an
        AUC beyond its highest) or for a method it does not hold.

    Examples
    --------
    >>> expected_coverage(30, 290, 0.96, "percentile") < 0.93
    True
    >>> expected_coverage(5, 290, 0.96) is None
    True
    """
    cell = _cell(n_pos, n_neg, auc)
    found = None if cell is None else CELLS.get((*cell, method))
    return None if found is None else found[0]


def auc_method_for(n_pos: int, n_neg: int, auc: float) -> str:
    """The ROC AUC interval the table finds best for such a test set.

    The narrowest (by the table's mean width) of the methods whose simulated coverage is
    at least :data:`COVERAGE_FLAG`; if none is, the one that covered most. Where the table
    does not reach, ``"newcombe"``, the one that covered most at its edges.

    Examples
    --------
    >>> auc_method_for(14, 290, 0.96)
    'newcombe'
    """
    cell = _cell(n_pos, n_neg, auc)
    if cell is None:
        return "newcombe"
    found = {m: CELLS[(*cell, m)] for m in METHODS}
    good = [m for m, f in found.items() if f[0] >= COVERAGE_FLAG]
    if good:
        return min(good, key=lambda m: found[m][3])
    return max(found, key=lambda m: found[m][0])


def small_class_warning(
    label,
    n_pos: int,
    n_neg: int,
    auc: float,
    method: str,
    level: float,
    chosen_over: str | None = None,
) -> str | None:
    """The report's warning for a ROC AUC interval that the table says falls short, or None.

    ``chosen_over``: the method the report would have used, when it gave ``method``'s
    interval instead because the table finds it better here.
    """
    if method not in METHODS:
        return None
    small = min(n_pos, n_neg)
    head = f"the ROC AUC interval of class {label!s} rests on {small} items of the smaller class"
    tail = "" if abs(level - 0.95) < 1e-9 else f" (this report's level is {level:.0%})"
    cell = _cell(n_pos, n_neg, auc)
    if cell is None:
        return (
            f"{head} at an AUC of {auc:.3f}, outside the simulated table (from {SMALL[0]} items "
            f"and no nearer 0 or 1 than {1 - AUCS[-1]:.2f}): no interval's coverage is known "
            f"there, and near the table's edges all covered less; this is {method}'s" + tail
        )
    row, ratio, column = cell
    where = f"binormal scores, {row} items against {ratio} times as many, AUC {column}"
    cover, away = CELLS[(*cell, method)][:2]  # the table's AUCs are above 1/2
    high = auc >= 0.5
    side, end = ("above", "lower") if high else ("below", "upper")
    end += " end as overstating" if high else " end as understating"
    if chosen_over is not None:
        old = CELLS[(*cell, chosen_over)]
        return (
            f"{head}: the report gives {method}'s interval, not the {chosen_over} one, as the "
            f"simulated table finds it better there ({where}: nominal 95 % {method} intervals "
            f"covered the true AUC {cover:.2f} of the time, {chosen_over} ones {old[0]:.2f}, "
            "missing mostly on the side away from 1/2)" + tail
        )
    if cover >= COVERAGE_FLAG:
        return None
    better = auc_method_for(n_pos, n_neg, auc)
    hint = (
        ""
        if better == method
        else (
            f"; {better}'s interval covered {CELLS[(*cell, better)][0]:.2f} there "
            f"(auc_interval(..., method={better!r}))"
        )
    )
    return (
        f"{head}: in simulation ({where}), nominal 95 % {method} intervals covered the true "
        f"AUC only {cover:.2f} of the time, and lay wholly {side} it {away:.2f}: read its "
        f"{end} the ranking{hint}" + tail
    )
