"""F-measure paradox explorer: when F1 stops behaving like a harmonic mean.

vor der Brück (2020) lists four propositions about the harmonic mean
:math:`H(a, b)`. With :math:`a` = precision, :math:`b` = recall and
:math:`H` = F1 they can fail once precision or recall may be undefined (NaN,
absorbing as in Bochvar's logic), and hold again under the "0/0 = 0" convention.
The 2x2 matrix is ``[[TP, FP], [FN, TN]]``: rows = predicted positive /
negative, columns = true positive / negative, and class 0 is "positive".
"""

from __future__ import annotations

import math

import ipywidgets as w
import numpy as np

from clfmetrics.metrics._classwise import f1, precision, recall

from ._base import Explorer, check_count, fmt, html_table, mark, row

__all__ = [
    "PROPOSITIONS",
    "SOURCE_VERDICTS",
    "FMeasureParadoxExplorer",
    "f_measure_paradox_explorer",
    "harmonic_propositions",
    "paradox_readout",
]

#: The four propositions (a = precision, b = recall, H = F1).
PROPOSITIONS = {
    1: "a = 0 ⇒ H(a, b) = 0",
    2: "H(a, b) = 0 ⇒ a = 0",
    3: "a ≠ 0 ∧ H(a, b) = a ⇒ b = a",
    4: "a ≠ 0 ∧ H(a, b) = b ⇒ b = a",
}

#: The talk's summary table: does the proposition hold for the harmonic mean / for F1?
SOURCE_VERDICTS = {1: (True, False), 2: (False, True), 3: (True, False), 4: (False, True)}


def _same(x: float, y: float) -> bool:
    """Equality on the reals extended by NaN, with NaN equal to itself (NaN is a value here)."""
    if math.isnan(x) or math.isnan(y):
        return math.isnan(x) and math.isnan(y)
    return math.isclose(x, y, rel_tol=1e-12, abs_tol=1e-15)


def harmonic_propositions(a: float, b: float, h: float) -> dict[int, bool]:
    """Whether each of the four propositions holds for the values ``a``, ``b``, ``h = H(a, b)``.

    An implication holds when its premise is false or its conclusion true.
    Equality treats NaN as one more value equal only to itself, as the talk's
    counterexamples require (e.g. proposition 3 fails for precision = NaN = F1,
    recall = 0); "a ≠ 0" is therefore true for a = NaN.
    """
    a_zero = _same(a, 0.0)
    return {
        1: (not a_zero) or _same(h, 0.0),
        2: (not _same(h, 0.0)) or a_zero,
        3: not (not a_zero and _same(h, a)) or _same(b, a),
        4: not (not a_zero and _same(h, b)) or _same(b, a),
    }


def paradox_readout(tp, fp, fn, tn=1) -> dict:
    """Precision, recall and F1 of the positive class under both conventions, and the propositions.

    Parameters
    ----------
    tp, fp, fn, tn : int
        Counts of ``[[TP, FP], [FN, TN]]`` (rows = predicted, columns = true). ``tn`` does not
        affect the positive class; it only keeps the matrix non-empty.

    Returns
    -------
    dict
        ``zero`` and ``nan``: {precision, recall, f1} with ``zero_division=0`` / ``'nan'``
        (library functions on the 2x2 matrix, class 0); ``propositions``: {k: {"zero": bool,
        "nan": bool}} from :func:`harmonic_propositions`.
    """
    counts = [check_count(v, name) for v, name in ((tp, "TP"), (fp, "FP"), (fn, "FN"), (tn, "TN"))]
    if sum(counts) == 0:
        raise ValueError("TP + FP + FN + TN must be positive: there is nothing to evaluate")
    m = np.array([[counts[0], counts[1]], [counts[2], counts[3]]], dtype=float)
    out = {}
    for key, zd in (("zero", 0), ("nan", "nan")):
        out[key] = {
            "precision": float(precision(m, zero_division=zd)[0]),
            "recall": float(recall(m, zero_division=zd)[0]),
            "f1": float(f1(m, zero_division=zd)[0]),
        }
    props = {
        c: harmonic_propositions(out[c]["precision"], out[c]["recall"], out[c]["f1"])
        for c in ("zero", "nan")
    }
    out["propositions"] = {
        k: {"zero": props["zero"][k], "nan": props["nan"][k]} for k in PROPOSITIONS
    }
    return out


class FMeasureParadoxExplorer(Explorer):
    """TP, FP, FN boxes; P, R, F1 under both conventions and the four propositions, live."""

    def __init__(self, tp: int = 0, fp: int = 3, fn: int = 0, tn: int = 1):
        def box(value, name):
            return w.BoundedIntText(
                value=value, min=0, max=10**7, description=name, layout=w.Layout(width="160px")
            )

        self.tp, self.fp, self.fn = box(tp, "TP"), box(fp, "FP"), box(fn, "FN")
        self._tn = check_count(tn, "TN")
        for b in (self.tp, self.fp, self.fn):
            b.observe(self._on_edit, names="value")
        self.scores = w.HTML()
        self.table = w.HTML()
        self.view = w.VBox(
            [
                w.HTML(
                    "<b>F-measure paradox</b>: matrix [[TP, FP], [FN, TN]], rows = predicted "
                    f"positive/negative, columns = true positive/negative, TN = {self._tn}"
                ),
                row([self.tp, self.fp, self.fn]),
                row([self.scores, self.table]),
            ]
        )
        self._muted = False
        self._refresh()

    def set_counts(self, tp, fp, fn) -> None:
        """Set TP, FP and FN (whole numbers >= 0) through the boxes, then refresh once."""
        values = [check_count(v, name) for v, name in ((tp, "TP"), (fp, "FP"), (fn, "FN"))]
        self._muted = True
        try:
            for b, v in zip((self.tp, self.fp, self.fn), values, strict=True):
                b.value = v
        finally:
            self._muted = False
        self._refresh()

    def readout(self) -> dict:
        """:func:`paradox_readout` of the current counts."""
        return paradox_readout(self.tp.value, self.fp.value, self.fn.value, self._tn)

    def _on_edit(self, _change) -> None:
        if not self._muted:
            self._refresh()

    def _refresh(self) -> None:
        r = self.readout()
        self.scores.value = html_table(
            ["", "precision a", "recall b", "F1 = H(a, b)"],
            [
                [label, fmt(r[k]["precision"]), fmt(r[k]["recall"]), fmt(r[k]["f1"])]
                for k, label in (("zero", "0/0 = 0"), ("nan", "0/0 = NaN"))
            ],
        )
        self.table.value = html_table(
            ["proposition", "holds (0/0 = 0)", "holds (0/0 = NaN)", "talk: HM", "talk: F1"],
            [
                [
                    text,
                    mark(r["propositions"][k]["zero"]),
                    mark(r["propositions"][k]["nan"]),
                    mark(SOURCE_VERDICTS[k][0]),
                    mark(SOURCE_VERDICTS[k][1]),
                ]
                for k, text in PROPOSITIONS.items()
            ],
        )


def f_measure_paradox_explorer(tp: int = 0, fp: int = 3, fn: int = 0, tn: int = 1):
    """TP/FP/FN inputs with P, R, F1 under both zero-division conventions and the four propositions.

    The default counts are the talk's counterexample to proposition 1 (TP = FN = 0, FP > 0).

    Returns
    -------
    FMeasureParadoxExplorer
        ``set_counts(tp, fp, fn)`` and ``readout()`` drive and read it.

    Examples
    --------
    >>> ex = f_measure_paradox_explorer()
    >>> ex.readout()["propositions"][1]
    {'zero': True, 'nan': False}
    """
    return FMeasureParadoxExplorer(tp, fp, fn, tn)
