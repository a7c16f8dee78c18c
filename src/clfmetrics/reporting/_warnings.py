"""Warnings shared by the report and the comparison: classes too small or absent.

Convention: ``matrix[i, j]`` = items predicted ``labels[i]`` whose true class
is ``labels[j]``, so a class's support is a column sum and its predictions a
row sum.
"""

from __future__ import annotations

import inspect

import numpy as np

from .._base.numbers import count, fixed, num
from ..inference import CENTRED, clopper_pearson
from ._render import Section

#: A class with fewer true items than this is flagged as tiny.
TINY_CLASS = 30
#: Largest over smallest prevalence from which accuracy and macro recall are flagged.
IMBALANCE = 3.0


def undefined_metrics(matrix: np.ndarray, metrics: dict) -> list[str]:
    """Metrics with a 0/0 on this matrix, which the intervals count as 0."""
    undefined = []
    for name, func in metrics.items():
        if "zero_division" not in inspect.signature(func).parameters:
            continue  # accuracy and the micro averages are always defined
        with np.errstate(invalid="ignore", divide="ignore"):
            if np.isnan(func(matrix, zero_division="nan")):
                undefined.append(name)
    if not undefined:
        return []
    return [
        f"undefined on this matrix (a 0/0 inside the formula): {', '.join(undefined)}; "
        "the report counts each 0/0 as 0, as scikit-learn's zero_division=0 does"
    ]


#: Share of resamples above which an interval's undefined resamples are named in a warning.
UNDEFINED_SHARE = 0.01


def undefined_share_warnings(intervals: dict, what: str = "interval") -> list[str]:
    """Intervals whose metric was undefined on more than 1 % of the resamples.

    Those resamples are left out (:func:`clfmetrics.inference.interval`), so the
    interval describes test sets on which the metric exists; a metric undefined on the
    test set itself (every resample, share 1) is named by :func:`undefined_metrics`.
    """
    flagged = {
        name: iv.undefined
        for name, iv in intervals.items()
        if UNDEFINED_SHARE < getattr(iv, "undefined", 0.0) < 1.0
    }
    if not flagged:
        return []
    shares = ", ".join(f"{name} {share:.1%}" for name, share in flagged.items())
    return [
        f"undefined (a 0/0) on part of the resamples: {shares}; each {what} is computed "
        "among the resamples where its metric is defined (a rare class that a resample "
        "misses, or never predicts, is the usual cause); more items of that class narrow it"
    ]


def imbalance_warning(prev: np.ndarray, intervals: dict) -> list[str]:
    """Accuracy against macro recall when the occurring classes' prevalences differ a lot."""
    if prev.size < 2 or prev.max() / prev.min() < IMBALANCE:
        return []
    acc, mr = intervals["accuracy"].estimate, intervals["macro_recall"].estimate
    return [
        "the classes are far from equally common (largest "
        f"{fixed(prev.max() / prev.min(), 1)} times the smallest): "
        f"accuracy ({fixed(acc)}) weighs classes by frequency, "
        f"macro recall ({fixed(mr)}) equally; report both"
    ]


def class_warnings(matrix: np.ndarray, labels: list, system: str | None = None) -> list[str]:
    """Per class: never occurs, never predicted (by ``system``, if named), or tiny.

    The first and the last depend on the truth only; a comparison calls this
    once per system and keeps one copy of those.
    """
    support, predicted = matrix.sum(axis=0), matrix.sum(axis=1)
    by = "" if system is None else f" by {system}"
    out = []
    for k, lab in enumerate(labels):
        if support[k] == 0:
            out.append(
                f"class {lab!s} never occurs in y_true: its recall is undefined (0/0, "
                "counted as 0 in the macro averages), and prevalence calibration is undefined"
            )
        elif predicted[k] == 0:
            out.append(
                f"class {lab!s} is never predicted{by}: its precision is undefined (0/0, "
                "counted as 0 in the macro averages)"
            )
        if 0 < support[k] < TINY_CLASS:
            size = int(support[k])
            out.append(
                f"class {lab!s} has only {count(size, 'item')}: its recall moves in steps of "
                f"1/{size}, so the macro metrics' intervals are wide"
            )
    return out


#: Below this many items in a class, the report adds the exact interval of its recall.
EXACT_BELOW = 10


def exact_intervals(matrix: np.ndarray, labels: list, level: float) -> dict:
    """Clopper-Pearson intervals of accuracy and of each occurring class's recall.

    Accuracy is ``k = trace`` successes in ``N`` items, the recall of class
    ``j`` is ``m[j, j]`` successes in its ``support_j`` items; each interval is
    the exact binomial one (Clopper & Pearson 1934), which never has zero width.
    Returns ``{"accuracy": {...}, "recall": {label: {...}}}`` with
    ``estimate``, ``low``, ``high``, ``successes`` and ``trials``.
    """
    support = matrix.sum(axis=0)
    occurring = np.flatnonzero(support > 0)
    # One vectorised root search for accuracy and every class at once (no loop over classes).
    k = np.r_[np.trace(matrix), np.diagonal(matrix)[occurring]].astype(np.int64)
    n = np.r_[matrix.sum(), support[occurring]].astype(np.int64)
    lows, highs = clopper_pearson(k, n, level)
    entries = [
        {"estimate": int(a) / int(b), "low": float(lo), "high": float(hi),
         "successes": int(a), "trials": int(b)}
        for a, b, lo, hi in zip(k, n, lows, highs, strict=True)
    ]  # fmt: skip
    return {
        "accuracy": entries[0],
        "recall": {labels[j]: e for j, e in zip(occurring, entries[1:], strict=True)},
    }


def exact_warnings(intervals: dict, matrix: np.ndarray, labels: list, exact: dict) -> list[str]:
    """Zero-width bootstrap intervals and classes under EXACT_BELOW items, with the exact ends."""

    def shown(e):
        return f"{fixed(e['estimate'])} [{fixed(e['low'])}, {fixed(e['high'])}]"

    out = []
    flat = [name for name, iv in intervals.items() if iv.high == iv.low]
    if flat:
        out.append(
            f"zero-width bootstrap intervals ({', '.join(flat)}): every resample gave the same "
            "value, as when a test set has no errors or a class is never found; that is not "
            "certainty. The exact (Clopper-Pearson) interval of accuracy is "
            f"{shown(exact['accuracy'])}; see the section on exact intervals"
        )
    support = matrix.sum(axis=0)
    for j, lab in enumerate(labels):
        if 0 < support[j] < EXACT_BELOW:
            out.append(
                f"class {lab!s} has fewer than {EXACT_BELOW} items ({int(support[j])}): its "
                "bootstrap interval is unreliable; the exact (Clopper-Pearson) interval of its "
                f"recall is {shown(exact['recall'][lab])}"
            )
    return out


def needs_exact(intervals: dict, matrix: np.ndarray) -> bool:
    """True when the report should show the exact intervals."""
    support = matrix.sum(axis=0)
    tiny = ((support > 0) & (support < EXACT_BELOW)).any()
    return bool(tiny or any(iv.high == iv.low for iv in intervals.values()))


def exact_section(exact: dict, level: float) -> list[Section]:
    """The exact intervals as a table: accuracy, then each class's recall."""
    entries = [("accuracy", exact["accuracy"])] + [
        (f"recall of {lab!s}", e) for lab, e in exact["recall"].items()
    ]
    rows = [
        [k, num(e["estimate"]), num(e["low"]), num(e["high"]), f"{e['successes']} / {e['trials']}"]
        for k, e in entries
    ]
    return [
        Section(
            f"Exact intervals ({level:.0%} Clopper-Pearson)",
            ["metric", "estimate", "low", "high", "successes / items"],
            rows,
            [
                "Exact binomial intervals (Clopper & Pearson 1934) never have zero width and "
                "hold at least their level at any size; like the bootstrap, they assume "
                "independent test items."
            ],
        )
    ]


def centred_warnings(intervals: dict, what: str = "percentile interval") -> list[str]:
    """One warning per interval that excluded its own estimate and was centred on it."""
    return [
        f"{name}: the {what} of the resamples excluded the estimate {fixed(iv.estimate)} "
        "(the resamples are biased relative to it: resampling noise inflates a metric made "
        "of squares of class-wise rates or of rare classes), so it is shown with the same "
        f"width centred on the estimate, [{fixed(iv.low)}, {fixed(iv.high)}]; read it as rough"
        for name, iv in intervals.items()
        if CENTRED in iv.method
    ]
