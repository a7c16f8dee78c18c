"""The threshold sweep and its areas against scikit-learn, on the same scores in the same run.

Used by ``benchmarks/run.py`` (``make bench``): one row per function with the
median time of ours, of scikit-learn's counterpart, and their ratio (goal: ratio
<= 1, not slower). The scores have many ties (rounded to 4 decimals) and about
20% positives; the same arrays go to both sides. The probability functions
(``clfmetrics.probabilities``) get the scores divided by their maximum, in [0, 1].
"""

from __future__ import annotations

import statistics
import time

import numpy as np

from clfmetrics.probabilities import _reliability as reliability
from clfmetrics.scores import _curves as curves


def _interleaved(ours, theirs, repeat: int) -> tuple[float, float]:
    """Median wall times of ``ours()`` and ``theirs()``, run alternately after a warm-up.

    Alternating the two keeps a burst of load on the shared machine from falling on
    one side only.
    """
    ours()
    theirs()
    times: tuple[list[float], list[float]] = ([], [])
    for _ in range(repeat):
        for fn, out in ((ours, times[0]), (theirs, times[1])):
            start = time.perf_counter()
            fn()
            out.append(time.perf_counter() - start)
    return statistics.median(times[0]), statistics.median(times[1])


def _pairs(skm):
    return {
        "roc_auc": (curves.roc_auc, skm.roc_auc_score),
        "average_precision": (curves.average_precision, skm.average_precision_score),
        "threshold_stack (full sweep)": (
            curves.threshold_stack,
            skm.confusion_matrix_at_thresholds,
        ),
        "roc_curve": (
            curves.roc_curve,
            lambda y, s: skm.roc_curve(y, s, drop_intermediate=False),
        ),
        "precision_recall_curve": (curves.precision_recall_curve, skm.precision_recall_curve),
    }


def _proba_pairs(skm, calibration_curve):
    return {
        "brier_score": (reliability.brier_score, skm.brier_score_loss),
        "log_loss": (reliability.log_loss, skm.log_loss),
        "reliability_curve (uniform)": (
            reliability.reliability_curve,
            lambda y, p: calibration_curve(y, p, n_bins=10),
        ),
        "reliability_curve (quantile)": (
            lambda y, p: reliability.reliability_curve(y, p, strategy="quantile"),
            lambda y, p: calibration_curve(y, p, n_bins=10, strategy="quantile"),
        ),
    }


def bench_curves(size: int, repeat: int, rng) -> list[dict]:
    """One row per sweep function: our median, scikit-learn's median and their ratio."""
    try:
        from sklearn import metrics as skm
        from sklearn.calibration import calibration_curve
    except ImportError:  # scikit-learn is a test dependency; skip when absent
        return []
    y = (rng.random(size) < 0.2).astype(np.int64)
    scores = np.round(rng.random(size) + 0.5 * y, 4)
    proba = scores / scores.max()
    cases = [(pair, scores) for pair in _pairs(skm).items()]
    cases += [(pair, proba) for pair in _proba_pairs(skm, calibration_curve).items()]
    rows = []
    for (name, (ours, theirs)), x in cases:
        t_ours, t_sk = _interleaved(
            lambda f=ours, x=x: f(y, x), lambda f=theirs, x=x: f(y, x), repeat
        )
        rows.append(
            {
                "scores": size,
                "function": name,
                "ours_s": t_ours,
                "sklearn_s": t_sk,
                "ratio_ours_to_sklearn": t_ours / t_sk,
            }
        )
    return rows
