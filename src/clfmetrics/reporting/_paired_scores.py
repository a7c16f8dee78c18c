"""The comparison's part on scores: two systems' ROC AUCs on the same items, paired.

Given both systems' scores, :func:`clfmetrics.compare` adds, from this module, the
difference of their ROC AUCs (binary scores: the positive class's; probability
matrices: each class against the rest and the macro mean) with two paired analyses side
by side: DeLong's test and interval, and a class-stratified paired percentile bootstrap
(with pROC's bootstrap test), see :mod:`clfmetrics.inference._paired_auc`. A row favours
a system only where both intervals exclude 0 on its side.
"""

from __future__ import annotations

from .._base.numbers import count, fixed, num, pvalue, seed_text
from ..inference import paired_aucs
from ._render import Section, interval_dict
from ._scores import RANKING_SIZE, argmax_warning

#: The table's columns after the two AUCs and their difference.
_COLUMNS = ["DeLong low", "DeLong high", "DeLong p", "bootstrap low", "bootstrap high",
            "bootstrap p", "favours"]  # fmt: skip
#: The row of the macro mean of a probability matrix's one-vs-rest AUCs.
MACRO = "macro (one-vs-rest)"


class PairedScores:
    """The paired ROC AUC rows of a :class:`clfmetrics.reporting.Comparison`.

    ``truth`` and ``preds`` are class codes, ``scores`` the two systems' checked
    scores (both ``(N,)`` for class ``labels[pos]``, or both ``(N, n)``).
    """

    def __init__(self, truth, preds, scores, pos, labels, names, level, size, rng, seed):
        self.labels, self.names, self.level, self.seed = labels, names, level, seed
        self.binary = scores[0].ndim == 1
        self.positive = labels[pos] if self.binary else None
        found = paired_aucs(truth, *scores, pos, level, min(size, RANKING_SIZE), rng)
        #: Per row name (the class scored, or MACRO): the PairedAUC, or None if undefined.
        self.rows = {(MACRO if k == "macro" else labels[k]): r for k, r in found.items()}
        done = next((r for r in self.rows.values() if r is not None), None)
        #: Resamples of the bootstrap (WORK bounds them on large files).
        self.size = done.resamples if done else 0
        self.warnings = []
        for name, pred, s in zip(names, preds, scores, strict=True):
            self.warnings += [f"{name}: {w}" for w in argmax_warning(pred, s, pos, labels)]
        self.warnings += [
            f"the ROC AUC of {name}'s scores of {_what(row)} is {fixed(auc)}, below 0.5: they "
            "rank that class below the others; did you swap the positive class or the "
            "columns? Compare the two rankings once both score the same class"
            for row, r in self.rows.items()
            if r is not None
            for name, auc in zip(names, (r.auc_a, r.auc_b), strict=True)
            if auc < 0.5
        ]

    def verdict(self, r) -> str:
        """The system favoured where DeLong's and the bootstrap's intervals both exclude 0
        on its side; else 'undecided' (also where DeLong's is undefined)."""
        if r is None:
            return "undefined"
        ivs = [r.bootstrap] if r.delong is None else [r.delong, r.bootstrap]
        if r.delong is not None and all(iv.low > 0 for iv in ivs):
            return self.names[0]
        if r.delong is not None and all(iv.high < 0 for iv in ivs):
            return self.names[1]
        return "undecided"

    def to_dict(self) -> dict:
        a, b = self.names
        return {
            "kind": "binary scores" if self.binary else "probability matrix",
            "positive_class": None if self.positive is None else str(self.positive),
            "bootstrap_resamples": self.size,
            "roc_auc": {
                str(row): None
                if r is None
                else {
                    a: r.auc_a,
                    b: r.auc_b,
                    "difference": r.difference,
                    "delong": None if r.delong is None else interval_dict(r.delong),
                    "delong_p_value": r.delong_p,
                    "bootstrap": interval_dict(r.bootstrap),
                    "bootstrap_p_value": r.bootstrap_p,
                    "favours": self.verdict(r),
                }
                for row, r in self.rows.items()
            },
        }

    def sections(self) -> list[Section]:
        a, b = self.names
        which = (
            f"scores of class {self.positive}" if self.binary else "each column against the rest"
        )
        rows = []
        for row, r in self.rows.items():
            if r is None:
                rows.append([str(row), *["undefined"] * 9, "undefined"])
                continue
            delong = ["", "", ""] if r.delong is None else [num(r.delong.low), num(r.delong.high),
                                                           pvalue(r.delong_p)]  # fmt: skip
            rows.append(
                [
                    str(row),
                    num(r.auc_a),
                    num(r.auc_b),
                    num(r.difference),
                    *delong,
                    num(r.bootstrap.low),
                    num(r.bootstrap.high),
                    pvalue(r.bootstrap_p),
                    self.verdict(r),
                ]
            )
        notes = [
            f"The difference is {a} - {b}, both systems' scores ranked on the same items. "
            "DeLong's interval and test take the paired variance of the two AUCs (DeLong, "
            "DeLong & Clarke-Pearson 1988), a normal approximation; the bootstrap resamples "
            "the items within each true class and scores both systems on the same resample, "
            "its p-value from the resamples' standard deviation (pROC's bootstrap test). "
            "Column 'favours' names a system only where both intervals exclude 0 on its side. "
            "These p-values are not in the Holm family of the metrics above: choose the row "
            "(for probabilities, the macro row or one class) before comparing.",
        ]
        if any(r is not None and r.delong is None for r in self.rows.values()):
            notes.append("DeLong's variance needs at least 2 items of each class: blank there.")
        if any(r is None for r in self.rows.values()):
            notes.append(
                "undefined where a class is absent from the test set or is every item of it "
                "(its ROC AUC is 0/0), and the macro mean where any class is absent"
            )
        boot = (
            f"a percentile bootstrap of {count(self.size, 'resample')} within the classes"
            if self.size
            else "no bootstrap"
        )
        return [
            Section(
                f"ROC AUC ({which}; {self.level:.0%} paired intervals of {a} - {b}: DeLong, and "
                f"{boot}, "
                f"{seed_text(self.seed)})",
                ["ROC AUC of", a, b, "difference", *_COLUMNS],
                rows,
                notes,
            )
        ]


def _what(row) -> str:
    return "the macro mean" if row == MACRO else f"class {row!s}"
