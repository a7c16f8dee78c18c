"""Threshold explorer: slide the decision threshold over a classifier's scores.

Predict positive where ``score >= t``. The whole sweep is computed once
(:func:`clfmetrics.scores.threshold_stack`: one sort and cumulative sums);
moving the slider only looks up the matrix of the new threshold, so an edit
costs the same for 100 or 100,000 scores. Convention: ``m[i, j]`` = predicted
``i``, true ``j``, class order (negative, positive): ``m = [[TN, FN], [FP, TP]]``.
"""

from __future__ import annotations

import ipywidgets as w
import numpy as np

from clfmetrics.inference._bands import roc_band
from clfmetrics.metrics._agreement import kappa, mcc
from clfmetrics.metrics._averages import accuracy, f1_of_averages, macro_f1
from clfmetrics.metrics._classwise import _bias, _precision, _prevalence, _recall
from clfmetrics.scores._curves import threshold_stack

from ..plots.curves import live_threshold_figure
from ._base import Explorer, FigureImage, fmt, html_table, row
from .confusion import metric_readout
from .intervals import operating_intervals

__all__ = ["ThresholdExplorer", "sweep_index", "threshold_explorer", "threshold_readout"]

#: The metrics drawn against the threshold in the explorer's figure.
CURVE_METRICS = {
    "accuracy": accuracy,
    "macro F1": macro_f1,
    "F1 of averages": f1_of_averages,
    "kappa": kappa,
    "MCC": mcc,
}

#: Resamples and seed of the explorer's ROC band (the page shows the same band).
BAND_SIZE, BAND_SEED = 1000, 0
#: The operating point's rates, readout name -> key of ``operating_intervals``.
RATES = {
    "sensitivity (recall)": "sensitivity",
    "specificity": "specificity",
    "precision": "precision",
    "NPV": "npv",
}


def sweep_index(thresholds, t) -> int:
    """Index ``k`` of the sweep whose matrix is that of threshold ``t`` (any number or inf).

    ``stack[k]`` predicts positive the items with the ``k`` highest distinct scores, so
    ``k`` is the number of distinct scores ``>= t``.
    """
    if isinstance(t, bool) or not isinstance(t, (int, float, np.integer, np.floating)):
        raise ValueError(f"the threshold must be a number; got {t!r}")
    if np.isnan(t):
        raise ValueError("the threshold must be a number, not NaN")
    distinct = np.asarray(thresholds)[:0:-1]  # the distinct scores, increasing
    return int(len(distinct) - np.searchsorted(distinct, t, side="left"))


def threshold_readout(stack, k: int) -> dict:
    """Matrix, bias, prevalence, positive-class precision and recall, and every metric at ``k``.

    Returns
    -------
    dict
        ``matrix`` (2x2, rows = predicted), ``bias`` and ``prevalence`` (counts per class,
        order (negative, positive)), ``precision`` and ``recall`` of the positive class
        (NaN when undefined) and ``metrics`` (keys of :data:`clfmetrics.METRICS`).
    """
    m = np.asarray(stack[k], dtype=np.float64)
    return {
        "matrix": m,
        "bias": _bias(m),
        "prevalence": _prevalence(m),
        "precision": float(_precision(m, np.nan)[1]),
        "recall": float(_recall(m, np.nan)[1]),
        "metrics": metric_readout(m),
    }


class ThresholdExplorer(Explorer):
    """A threshold slider, the readout of the matrix and metrics, and the point on ROC and PR."""

    _muted = False

    def __init__(self, y_true, scores, *, pos_label=None, live_figure: bool = True):
        self.thresholds, self.stack = threshold_stack(y_true, scores, pos_label=pos_label)
        if self.stack[0, 0, 1] == 0 or self.stack[0, 0, 0] == 0:
            raise ValueError("y_true needs positive and negative items to draw ROC and PR curves")
        finite = self.thresholds[1:]
        low, high = float(finite[-1]), float(finite[0])
        self._k = sweep_index(self.thresholds, (low + high) / 2)
        self._t = (low + high) / 2
        self.slider = w.FloatSlider(
            value=self._t,
            min=low,
            max=high if high > low else low + 1.0,
            step=(high - low) / 1000 if high > low else 1.0,
            readout_format=".4g",
            description="threshold t",
            continuous_update=True,
            layout=w.Layout(width="480px"),
        )
        self.slider.observe(self._on_slide, names="value")
        self.readout = w.HTML()
        self.metric_view = w.HTML()
        self.rate_view = w.HTML()
        recall = _recall(self.stack.astype(np.float64), np.nan)[:, 1]
        precision = _precision(self.stack.astype(np.float64), np.nan)[:, 1]
        fpr = self.stack[:, 1, 0] / self.stack[0, 0, 0]
        values = {name: fn(self.stack) for name, fn in CURVE_METRICS.items()}
        self.band = roc_band(y_true, scores, size=BAND_SIZE, pos_label=pos_label, rng=BAND_SEED)
        fig, update = live_threshold_figure(
            self.thresholds,
            fpr,
            recall,
            recall,
            precision,
            values,
            self._k,
            band=self.band,
            cross=self._cross,
        )
        self._figure = FigureImage(fig, update, live=live_figure)
        self.view = w.VBox(
            [
                w.HTML("<b>Predict positive where score ≥ t</b>"),
                self.slider,
                row([self.readout, self.rate_view, self.metric_view]),
                self._figure.image,
            ]
        )
        self._refresh(redraw=False)

    def _cross(self, k: int) -> tuple[float, float, float, float]:
        r = operating_intervals(self.stack[k])
        spec, sens = r["specificity"], r["sensitivity"]
        return 1 - spec[2], 1 - spec[1], sens[1], sens[2]

    def rates(self) -> dict:
        """Sensitivity, specificity, precision and NPV at the current threshold:
        ``name -> (estimate, low, high)``, exact 95 % intervals (threshold fixed in advance)."""
        return operating_intervals(self.stack[self._k])

    def _on_slide(self, change) -> None:
        if not self._muted:
            self._t = float(change["new"])
            self._k = sweep_index(self.thresholds, self._t)
            self._refresh()

    def set_threshold(self, t) -> None:
        """Predict positive where ``score >= t``; any number, ``inf`` predicts nothing."""
        k = sweep_index(self.thresholds, t)
        self._muted = True
        try:
            self.slider.value = float(np.clip(t, self.slider.min, self.slider.max))
        finally:
            self._muted = False
        self._t, self._k = float(t), k
        self._refresh()

    def _refresh(self, redraw: bool = True) -> None:
        state = threshold_readout(self.stack, self._k)
        m, b, p = state["matrix"], state["bias"], state["prevalence"]
        total = m.sum()
        rows = [
            ["pred negative", f"{m[0, 0]:.0f}", f"{m[0, 1]:.0f}", f"{b[0]:.0f}"],
            ["pred positive", f"{m[1, 0]:.0f}", f"{m[1, 1]:.0f}", f"{b[1]:.0f}"],
            ["prevalence", f"{p[0]:.0f}", f"{p[1]:.0f}", f"{total:.0f}"],
        ]
        self.readout.value = html_table(
            ["pred \\ true", "negative", "positive", "bias"],
            rows,
            caption=(
                f"t = {self._t:.4g}: bias(pos) = {b[1] / total:.3f}, "
                f"prevalence(pos) = {p[1] / total:.3f}, P = {fmt(state['precision'])}, "
                f"R = {fmt(state['recall'])}"
            ),
        )
        rates = self.rates()
        self.rate_view.value = html_table(
            ["rate", "value", "95 % exact interval"],
            [
                [name, fmt(rates[key][0]), f"[{fmt(rates[key][1])}, {fmt(rates[key][2])}]"]
                for name, key in RATES.items()
            ],
            caption="for a threshold fixed in advance",
        )
        self.metric_view.value = html_table(
            ["metric", "value"], [[k, fmt(v)] for k, v in state["metrics"].items()]
        )
        if redraw:
            self._figure.redraw(self._k)

    @property
    def threshold(self) -> float:
        """The current threshold ``t``."""
        return self._t

    def matrix(self) -> np.ndarray:
        """The confusion matrix at the current threshold (rows = predicted; negative, positive)."""
        return self.stack[self._k].copy()

    def metrics(self) -> dict[str, float]:
        """Every metric of :data:`clfmetrics.METRICS` at the current threshold."""
        return threshold_readout(self.stack, self._k)["metrics"]

    def figure(self):
        """Metrics against the threshold, ROC and PR curves with the current point."""
        return self._figure.fig


def threshold_explorer(y_true, scores, *, pos_label=None, live_figure: bool = True):
    """A slider over the decision threshold of a binary classifier's scores.

    Parameters
    ----------
    y_true : array_like of shape (N,)
        Reference labels of a binary task (both classes must occur).
    scores : array_like of shape (N,)
        Finite scores; higher means "more positive".
    pos_label : label, optional
        The positive class; default the greater of the two labels.
    live_figure : bool, default True
        Re-render the figure on every edit.

    Returns
    -------
    ThresholdExplorer
        ``set_threshold(t)``, ``matrix()``, ``metrics()`` (the keys of
        :data:`clfmetrics.METRICS`, as in the other explorers) and ``figure()`` drive and read it.

    Examples
    --------
    >>> ex = threshold_explorer([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], live_figure=False)
    >>> ex.set_threshold(0.35)
    >>> ex.matrix().tolist(), ex.metrics()["accuracy"]
    ([[1, 0], [1, 2]], 0.75)
    """
    return ThresholdExplorer(y_true, scores, pos_label=pos_label, live_figure=live_figure)
