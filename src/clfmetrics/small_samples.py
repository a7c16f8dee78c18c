r"""How often the ROC AUC intervals keep their promise when one class is small.

A 95 % interval of the ROC AUC is built from the items of both classes; with a
dozen positives, the bootstrap resamples a dozen scores and the normal
approximation of DeLong's interval rests on a dozen terms, and both fall short
of 95 %. :func:`auc_coverage` measures that by simulation, on a binormal
problem (negatives :math:`N(0, 1)`, positives :math:`N(\delta, 1)`, true AUC
:math:`\Phi(\delta / \sqrt 2)`), and :data:`SMALL_CLASS_COVERAGE` keeps the
result at the size of chapter 16's digit 8 (14 positives, 290 negatives, AUC
0.96), which the report quotes when the smaller class of a ranking has fewer
than :data:`SMALL_CLASS` items. ``tests/test_small_samples.py`` reruns the
simulation and checks the stored numbers against it.
"""

from __future__ import annotations

from statistics import NormalDist

import numpy as np

from . import _resample as rs
from ._auc_uncertainty import auc_interval

__all__ = ["SMALL_CLASS", "SMALL_CLASS_COVERAGE", "auc_coverage", "small_class_warning"]

#: Below this many items in the smaller class, the report flags a ROC AUC interval.
SMALL_CLASS = 20

#: The simulation that :data:`SMALL_CLASS_COVERAGE` comes from (``auc_coverage(**...)``).
SMALL_CLASS_STUDY = {"n_pos": 14, "n_neg": 290, "auc": 0.96, "sets": 1000, "size": 1000, "rng": 0}

#: Actual coverage of nominal 95 % ROC AUC intervals at 14 positives, 290 negatives and a
#: binormal AUC of 0.96, from ``auc_coverage(**SMALL_CLASS_STUDY)`` (1,000 simulated test
#: sets, so each share is uncertain by about 0.014, one standard error).
SMALL_CLASS_COVERAGE = {"percentile": 0.823, "bca": 0.866, "delong": 0.795}


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
) -> dict[str, float]:
    r"""Share of simulated test sets whose ROC AUC interval contains the true AUC.

    Each of ``sets`` test sets holds ``n_pos`` positives with scores
    :math:`N(\delta, 1)` and ``n_neg`` negatives with scores :math:`N(0, 1)`,
    :math:`\delta = \sqrt 2\, \Phi^{-1}(\text{auc})`, so that the population AUC is
    ``auc``; on each, :func:`~clfmetrics.uncertainty.auc_interval` computes the
    interval of every method (bootstraps from ``size`` resamples).

    Parameters
    ----------
    n_pos, n_neg : int
        Positives and negatives per test set, at least 1 each.
    auc : float
        The population ROC AUC, strictly between 0 and 1.
    methods : sequence of str, default ("percentile", "bca", "delong")
    sets : int, default 200
        Simulated test sets; a coverage near 0.95 is uncertain by about
        :math:`\sqrt{0.95 \cdot 0.05 / \text{sets}}`.
    level : float, default 0.95
    size : int, default 1000
    rng : numpy.random.Generator or int, optional

    Returns
    -------
    dict
        For each method, the share of test sets whose interval contains ``auc``.

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
    hits = dict.fromkeys(methods, 0)
    for _ in range(sets):  # a loop over simulated test sets; each interval is vectorised
        scores = rng.normal(shift * y, 1.0)
        for method in methods:
            iv = auc_interval(y, scores, level=level, size=size, method=method, rng=rng)
            hits[method] += bool(iv.low <= auc <= iv.high)
    return {method: hit / sets for method, hit in hits.items()}


def small_class_warning(label, n_small: int, method: str, level: float) -> str | None:
    """The report's warning for a ROC AUC interval whose smaller class is small, or None."""
    if n_small >= SMALL_CLASS or method not in SMALL_CLASS_COVERAGE:
        return None
    study = SMALL_CLASS_STUDY
    return (
        f"the ROC AUC interval of class {label!s} rests on only {n_small} items of the smaller "
        f"class (fewer than {SMALL_CLASS}): in simulation, nominal 95 % {method} intervals at "
        f"{study['n_pos']} positives and AUC {study['auc']} covered the true AUC only "
        f"{SMALL_CLASS_COVERAGE[method]:.2f} of the time; read it as too narrow"
        + ("" if abs(level - 0.95) < 1e-9 else f" (this report's level is {level:.0%})")
    )
