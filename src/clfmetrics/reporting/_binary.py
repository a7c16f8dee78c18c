"""The binary report's headline: sensitivity, specificity, PPV and NPV with exact intervals.

Each of the four is a binomial proportion of one margin of the 2 x 2 matrix (rows =
predicted, columns = true), so each gets the exact (Clopper-Pearson) interval of
:func:`clfmetrics.inference.clopper_pearson`, as the report's other exact intervals:

- sensitivity (recall of the positive class) = TP / (TP + FN), the true positives;
- specificity (recall of the negative class) = TN / (TN + FP);
- PPV (precision of the positive class) = TP / (TP + FP);
- NPV (precision of the negative class) = TN / (TN + FN).

PPV and NPV depend on the test set's class mix, sensitivity and specificity do not.
A rate whose margin is empty (nothing predicted positive: PPV) is undefined.
"""

from __future__ import annotations

import numpy as np

from .._base.numbers import fixed, num
from ..inference import clopper_pearson
from ._render import Section

#: The four rates: name, what they count ("true" column or "predicted" row), which class.
RATES = (
    ("sensitivity", "true", "positive"),
    ("specificity", "true", "negative"),
    ("PPV", "predicted", "positive"),
    ("NPV", "predicted", "negative"),
)


def binary_rates(matrix: np.ndarray, labels: list, pos: int, level: float) -> dict:
    """The four rates of a 2 x 2 ``matrix`` whose positive class is ``labels[pos]``.

    Returns ``{"positive_class", "negative_class", "method", name: entry or None}``,
    an entry holding ``estimate``, ``low``, ``high``, ``successes`` and ``trials``.
    """
    neg = 1 - pos
    hits = {"positive": int(matrix[pos, pos]), "negative": int(matrix[neg, neg])}
    margins = {
        ("true", "positive"): int(matrix[:, pos].sum()),
        ("true", "negative"): int(matrix[:, neg].sum()),
        ("predicted", "positive"): int(matrix[pos].sum()),
        ("predicted", "negative"): int(matrix[neg].sum()),
    }
    k = np.array([hits[c] for _, _, c in RATES])
    n = np.array([margins[m, c] for _, m, c in RATES])
    lows, highs = clopper_pearson(k, np.maximum(n, 1), level)  # an empty margin: undefined
    out = {
        "positive_class": str(labels[pos]),
        "negative_class": str(labels[neg]),
        "method": f"{level:.0%} exact (Clopper-Pearson)",
    }
    for (name, _, _), a, b, lo, hi in zip(RATES, k, n, lows, highs, strict=True):
        entry = {"estimate": int(a) / max(int(b), 1), "low": float(lo), "high": float(hi)}
        out[name] = None if b == 0 else {**entry, "successes": int(a), "trials": int(b)}
    return out


def binary_section(rates: dict) -> Section:
    """The four rates as the table under the confusion matrix."""
    pos, neg = rates["positive_class"], rates["negative_class"]
    what = {
        "sensitivity": f"recall of {pos}",
        "specificity": f"recall of {neg}",
        "PPV": f"precision of {pos}",
        "NPV": f"precision of {neg}",
    }
    rows = []
    for name, _, _ in RATES:
        e = rates[name]
        shown = ["undefined"] * 3 + ["0 / 0"] if e is None else [
            num(e["estimate"]), num(e["low"]), num(e["high"]), f"{e['successes']} / {e['trials']}"
        ]  # fmt: skip
        rows.append([f"{name} ({what[name]})", *shown])
    return Section(
        f"Binary rates (positive class {pos}; {rates['method']} intervals)",
        ["rate", "estimate", "low", "high", "successes / items"],
        rows,
        [
            f"With {neg} as the positive class, sensitivity and specificity swap, and so do "
            "PPV and NPV. PPV and NPV depend on this test set's class mix; sensitivity and "
            "specificity do not. Exact binomial intervals (Clopper & Pearson 1934) hold at "
            "least their level at any size and assume independent test items."
        ],
    )


def binary_sentence(rates: dict) -> str:
    """The four rates for the report's suggested paragraph."""
    shown = ", ".join(
        f"{name} {'undefined' if e is None else _text(e)}"
        for name, e in ((n, rates[n]) for n, _, _ in RATES)
    )
    return (
        f" With {rates['positive_class']} as the positive class: {shown} "
        f"({rates['method']} intervals)."
    )


def _text(e: dict) -> str:
    return f"{fixed(e['estimate'])} [{fixed(e['low'])}, {fixed(e['high'])}]"
