"""Cost explorer: slide the cost ratio and watch the cheapest ROC point move.

A cost ratio :math:`r = C(-|+) / C(+|-)` (a missed positive against a false alarm) and
the prior :math:`p(+)` give the probability cost

.. math:: PC(+) = \\frac{p(+)\\, r}{p(+)\\, r + 1 - p(+)}

(Drummond & Holte 2006). Each ROC point of the sweep is the line
:math:`NEC_k(PC) = FPR_k\\,(1 - PC) + FNR_k\\, PC` of the cost curve; the explorer shows
the line that is lowest at the chosen :math:`PC(+)` (a point of the lower envelope) and
the same point on the ROC curve. The sweep is computed once
(:func:`clfmetrics.scores.cost_curve`); moving the slider only compares the lines.
"""

from __future__ import annotations

import ipywidgets as w
import numpy as np

from clfmetrics.scores._cost_curves import cost_curve
from clfmetrics.scores._curves import threshold_stack

from ..plots.decisions import live_cost_figure
from ._base import Explorer, FigureImage, fmt, html_table

__all__ = ["CostCurveExplorer", "cheapest_point", "cost_curve_explorer", "probability_cost"]

#: The slider's exponents: the cost ratio is 10^e for e = -2, -1.98, ..., 2.
LOG_RATIO = np.round(np.arange(-100, 101) * 0.02, 2)


def probability_cost(ratio, prior) -> np.ndarray | float:
    """:math:`PC(+) = p\\,r / (p\\,r + 1 - p)` for cost ratio ``r`` = C(FN)/C(FP), prior ``p``.

    Raises
    ------
    ValueError
        For a ratio that is not positive and finite, or a prior outside (0, 1).
    """
    r = np.asarray(ratio, dtype=float)
    if not (np.isfinite(r).all() and (r > 0).all()):
        raise ValueError(f"the cost ratio must be positive and finite; got {ratio!r}")
    if isinstance(prior, bool) or not 0 < float(prior) < 1:
        raise ValueError(f"the prior p(+) must lie strictly between 0 and 1; got {prior!r}")
    pc = prior * r / (prior * r + (1 - prior))
    return float(pc) if np.ndim(pc) == 0 else pc


def cheapest_point(lines, pc) -> tuple[int, float]:
    """The ROC point whose cost line is lowest at ``pc``, and its normalized expected cost.

    ``lines[k] = (FPR_k, FNR_k)`` as :attr:`clfmetrics.scores.CostCurve.lines`; the cost
    of point ``k`` is ``FPR_k * (1 - pc) + FNR_k * pc``. Of tied points the first (the
    one with the fewest predicted positives) is returned.
    """
    if isinstance(pc, bool) or not 0 <= float(pc) <= 1:
        raise ValueError(f"the probability cost PC(+) must lie in [0, 1]; got {pc!r}")
    lines = np.asarray(lines, dtype=float)
    nec = lines[:, 0] * (1 - pc) + lines[:, 1] * pc
    k = int(np.argmin(nec))
    return k, float(nec[k])


class CostCurveExplorer(Explorer):
    """A cost-ratio slider, the cheapest operating point, the cost curve and the ROC curve."""

    _muted = False

    def __init__(self, y_true, scores, *, pos_label=None, live_figure: bool = True):
        # the sweep: +inf, then the distinct scores, decreasing; one cost line per point
        self.thresholds, stack = threshold_stack(y_true, scores, pos_label=pos_label)
        self.curve = cost_curve(y_true, scores, pos_label=pos_label)
        self.prior = float(stack[0, 0, 1] / stack[0].sum())
        self.fpr = self.curve.lines[:, 0]
        self.tpr = 1 - self.curve.lines[:, 1]
        self._e = 0.0
        self.slider = w.SelectionSlider(
            options=[(f"{10**e:.3g}", float(e)) for e in LOG_RATIO],
            value=0.0,
            description="cost ratio",
            continuous_update=True,
            layout=w.Layout(width="480px"),
        )
        self.slider.observe(self._on_slide, names="value")
        self.readout = w.HTML()
        k, _ = self.point()
        fig, update = live_cost_figure(self.curve, self.fpr, self.tpr, k, self.pc)
        self._figure = FigureImage(fig, update, live=live_figure)
        self.view = w.VBox(
            [
                w.HTML("<b>Cost ratio C(FN) / C(FP): a missed positive against a false alarm</b>"),
                self.slider,
                self.readout,
                self._figure.image,
            ]
        )
        self._refresh(redraw=False)

    @property
    def ratio(self) -> float:
        """The current cost ratio C(FN) / C(FP)."""
        return float(10.0**self._e)

    @property
    def pc(self) -> float:
        """The current probability cost PC(+)."""
        return probability_cost(self.ratio, self.prior)

    def point(self) -> tuple[int, float]:
        """Index of the cheapest ROC point at the current PC(+), and its normalized cost."""
        return cheapest_point(self.curve.lines, self.pc)

    def readout_values(self) -> dict:
        """Ratio, PC(+), the point's threshold, FPR, TPR and cost, and the trivial cost."""
        k, nec = self.point()
        return {
            "ratio": self.ratio,
            "pc": self.pc,
            "k": k,
            "threshold": float(self.thresholds[k]),
            "fpr": float(self.fpr[k]),
            "tpr": float(self.tpr[k]),
            "nec": nec,
            "trivial": min(self.pc, 1 - self.pc),
        }

    def _on_slide(self, change) -> None:
        if not self._muted:
            self._e = float(change["new"])
            self._refresh()

    def set_log_ratio(self, e) -> None:
        """Set the cost ratio to ``10**e``; ``e`` must be one of the slider's stops."""
        if isinstance(e, bool) or not isinstance(e, (int, float, np.integer, np.floating)):
            raise ValueError(f"the exponent must be a number; got {e!r}")
        if not np.any(np.isclose(LOG_RATIO, e, rtol=0, atol=1e-9)):
            raise ValueError(f"the exponent must be a stop -2, -1.98, ..., 2; got {e!r}")
        e = float(LOG_RATIO[np.argmin(np.abs(LOG_RATIO - e))])
        self._muted = True
        try:
            self.slider.value = e
        finally:
            self._muted = False
        self._e = e
        self._refresh()

    def _refresh(self, redraw: bool = True) -> None:
        r = self.readout_values()
        t = "∞ (treat none)" if not np.isfinite(r["threshold"]) else f"{r['threshold']:.4g}"
        self.readout.value = html_table(
            ["quantity", "value"],
            [
                ["cost ratio C(FN) / C(FP)", f"{r['ratio']:.4g}"],
                ["probability cost PC(+)", fmt(r["pc"])],
                ["cheapest threshold (score ≥ t)", t],
                ["false positive rate", fmt(r["fpr"])],
                ["true positive rate", fmt(r["tpr"])],
                ["normalized expected cost", fmt(r["nec"])],
                ["best trivial classifier", fmt(r["trivial"])],
            ],
            caption=f"prior p(+) = {self.prior:.3f}",
        )
        if redraw:
            self._figure.redraw(r["k"], r["pc"])

    def figure(self):
        """The cost curve with the current line and the ROC curve with the current point."""
        return self._figure.fig


def cost_curve_explorer(y_true, scores, *, pos_label=None, live_figure: bool = True):
    """A slider over the cost ratio that moves a line across the cost-curve envelope.

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
    CostCurveExplorer
        ``set_log_ratio(e)`` (ratio ``10**e``), ``point()``, ``readout_values()`` and
        ``figure()`` drive and read it.

    Examples
    --------
    >>> ex = cost_curve_explorer([0, 0, 1, 1], [0.1, 0.6, 0.4, 0.9], live_figure=False)
    >>> ex.set_log_ratio(1.0)  # a missed positive costs ten false alarms
    >>> ex.readout_values()["tpr"], ex.readout_values()["fpr"]
    (1.0, 0.5)
    """
    return CostCurveExplorer(y_true, scores, pos_label=pos_label, live_figure=live_figure)
