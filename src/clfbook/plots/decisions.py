"""Figures for decisions: decision curves with their bands, paired differences, cost curves.

Each function draws on an ``Axes`` it is given (or a new figure), labels both axes, uses
the Okabe & Ito palette with a second cue besides colour (line style, hatching, marker)
and returns the figure. Net benefit is in true positives per item (Vickers & Elkin
2006); a cost curve plots the normalized expected cost of every ROC point against the
probability cost PC(+) (Drummond & Holte 2006). Convention: predict "positive" (treat)
where ``score >= t``; class order (negative, positive).
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from .basic import OKABE_ITO

__all__ = [
    "cost_curve_figure",
    "decision_curve_figure",
    "difference_figure",
    "live_cost_figure",
]

_LINES = ("-", "--", "-.", ":")
_HATCHES = ("//", "\\\\", "..", "xx")


def _axes(ax, figsize):
    if ax is None:
        _, ax = plt.subplots(figsize=figsize, layout="constrained")
    return ax.figure, ax


def decision_curve_figure(curves: dict, *, bands: bool = True, extra: dict | None = None, ax=None):
    """Net benefit against the threshold probability, with treat all and treat none.

    Parameters
    ----------
    curves : dict of str -> clfmetrics.inference.DecisionCurve
        One curve per model, all on the same thresholds; the first one's ``treat_all``
        is drawn (the prevalence is that of the data, the same for every model).
    bands : bool, default True
        Shade each curve's simultaneous band (``low``, ``high``).
    extra : dict of str -> array, optional
        Further labelled lines on the same thresholds (e.g. a bound), drawn dotted.
    ax : matplotlib Axes, optional
    """
    if not curves:
        raise ValueError("curves must name at least one decision curve")
    fig, ax = _axes(ax, (6.4, 4))
    first = next(iter(curves.values()))
    t = first.threshold
    for k, (label, dc) in enumerate(curves.items()):
        if not np.array_equal(dc.threshold, t):
            raise ValueError(f"the curve {label!r} has other thresholds than the first")
        color = OKABE_ITO[(5, 2, 1, 6)[k % 4]]
        if bands:
            ax.fill_between(
                t,
                dc.low,
                dc.high,
                color=color,
                alpha=0.22,
                lw=0,
                hatch=_HATCHES[k % 4],
                label=f"{label}: {dc.level:.0%} simultaneous band",
            )
        ax.plot(t, dc.net_benefit, color=color, lw=2, ls=_LINES[k % 4], label=label)
    ax.plot(t, first.treat_all, color=OKABE_ITO[0], lw=1.3, ls="--", label="treat all")
    ax.axhline(0.0, color="grey", lw=1.3, ls=":", label="treat none")
    for k, (label, values) in enumerate((extra or {}).items()):
        ax.plot(t, values, color="black", lw=1.2, ls=(":", "-.")[k % 2], label=label)
    tops = [np.nanmax(dc.high if bands else dc.net_benefit) for dc in curves.values()]
    ax.set_ylim(min(-0.02, -0.15 * max(tops)), 1.1 * max(max(tops), first.prevalence * 0.5))
    ax.set_xlim(t.min(), t.max())
    ax.set_xlabel("threshold probability t (treat where risk ≥ t)")
    ax.set_ylabel("net benefit (true positives per item)")
    ax.legend(frameon=False, fontsize=7)
    return fig


def difference_figure(diff, *, label: str = "A − B", ax=None):
    """The paired difference in net benefit with its simultaneous and pointwise bands.

    The thresholds where the simultaneous band lies wholly above (or below) zero are
    marked on the zero line: only there is the difference a finding.

    Parameters
    ----------
    diff : clfmetrics.inference.NetBenefitDifference
    label : str
        What is subtracted from what.
    ax : matplotlib Axes, optional
    """
    fig, ax = _axes(ax, (6.4, 3.6))
    t = diff.threshold
    ax.fill_between(
        t,
        diff.low,
        diff.high,
        color=OKABE_ITO[5],
        alpha=0.2,
        lw=0,
        hatch="//",
        label=f"{diff.level:.0%} simultaneous band",
    )
    ax.plot(t, diff.pointwise_low, color=OKABE_ITO[5], lw=1, ls=":", label="pointwise interval")
    ax.plot(t, diff.pointwise_high, color=OKABE_ITO[5], lw=1, ls=":")
    ax.plot(t, diff.difference, color=OKABE_ITO[5], lw=2, label=f"difference {label}")
    ax.axhline(0.0, color="black", lw=1)
    decided = (diff.low > 0) | (diff.high < 0)
    if decided.any():
        ax.plot(
            t[decided],
            np.zeros(decided.sum()),
            "|",
            ms=10,
            color=OKABE_ITO[4],
            label="band excludes 0",
        )
    ax.set_xlim(t.min(), t.max())
    ax.set_xlabel("threshold probability t")
    ax.set_ylabel("difference in net benefit")
    ax.legend(frameon=False, fontsize=7)
    return fig


def _cost_panel(ax, cc, *, lines: bool = True, max_lines: int = 200):
    if lines:
        step = max(1, len(cc.lines) // max_lines)
        for fpr, fnr in cc.lines[::step]:
            ax.plot([0, 1], [fpr, fnr], color=OKABE_ITO[1], lw=0.5, alpha=0.5)
    ax.plot(
        cc.pc,
        cc.all_negative,
        color=OKABE_ITO[0],
        lw=1.3,
        ls="--",
        label="always negative (NEC = PC)",
    )
    ax.plot(
        cc.pc,
        cc.all_positive,
        color=OKABE_ITO[0],
        lw=1.3,
        ls="-.",
        label="always positive (NEC = 1 − PC)",
    )
    ax.plot(cc.pc, cc.nec, color=OKABE_ITO[4], lw=2.2, label=f"lower envelope (area {cc.area:.3f})")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 0.55)
    ax.set_xlabel("probability cost PC(+)")
    ax.set_ylabel("normalized expected cost")


def cost_curve_figure(cc, *, pc: dict | None = None, ax=None):
    """A cost curve: one line per ROC point, their lower envelope, the trivial classifiers.

    Parameters
    ----------
    cc : clfmetrics.scores.CostCurve
    pc : dict of str -> float, optional
        Labelled operating conditions PC(+), drawn as vertical lines.
    ax : matplotlib Axes, optional
    """
    fig, ax = _axes(ax, (6, 4))
    _cost_panel(ax, cc)
    ax.plot([], [], color=OKABE_ITO[1], lw=0.8, label="one ROC point (a line)")
    for k, (label, x) in enumerate((pc or {}).items()):
        ax.axvline(x, color="black", lw=1.2, ls=_LINES[(k + 1) % 4], label=f"{label}: PC = {x:.2f}")
    ax.legend(frameon=False, fontsize=7, loc="upper right")
    return fig


def live_cost_figure(cc, fpr, tpr, k: int, pc: float):
    """Two panels for the cost explorer: the cost curve and the ROC curve, a movable choice.

    Moving the operating condition ``pc`` moves a vertical line across the envelope and
    highlights the line of the ROC point that is cheapest there; on the ROC curve that
    point lights up, with the iso-cost line through it. Those are *animated* artists
    (``clfbook.widgets._base.FigureImage``).

    Parameters
    ----------
    cc : clfmetrics.scores.CostCurve
    fpr, tpr : arrays of shape (K,)
        The ROC points of ``cc.lines`` (``fpr = lines[:, 0]``, ``tpr = 1 - lines[:, 1]``).
    k : int
        The index of the point shown first.
    pc : float
        The probability cost shown first.

    Returns
    -------
    fig : matplotlib.figure.Figure
    update : callable
        ``update(k, pc)``; returns False (nothing static changes).
    """
    fig = Figure(figsize=(9, 3.8), layout="constrained")
    FigureCanvasAgg(fig)
    ax_c, ax_r = fig.subplots(1, 2)
    _cost_panel(ax_c, cc)
    ax_c.legend(frameon=False, fontsize=6.5, loc="upper right")
    ax_c.set_title("cost curve: the cheapest line at PC(+)", fontsize=9)
    ax_r.plot(fpr, tpr, color=OKABE_ITO[7], lw=1.8, label="ROC curve")
    ax_r.plot([0, 1], [0, 1], color="grey", lw=1, ls=":", label="random guessing")
    ax_r.set_xlim(0, 1)
    ax_r.set_ylim(0, 1.01)
    ax_r.set_aspect("equal")
    ax_r.set_xlabel("false positive rate FP / N(negative)")
    ax_r.set_ylabel("true positive rate TP / N(positive)")
    ax_r.set_title("ROC: the same operating point", fontsize=9)
    ax_r.legend(frameon=False, fontsize=6.5, loc="lower right")
    vline = ax_c.axvline(pc, color="black", lw=1, animated=True)
    (chosen,) = ax_c.plot([], [], color=OKABE_ITO[5], lw=2.4, animated=True)
    (dot,) = ax_c.plot([], [], "o", ms=7, color=OKABE_ITO[5], mec="black", animated=True)
    (iso,) = ax_r.plot([], [], color=OKABE_ITO[5], lw=1.2, ls="--", animated=True)
    (point,) = ax_r.plot([], [], "o", ms=9, color=OKABE_ITO[5], mec="black", animated=True)

    def update(k: int, pc: float) -> bool:
        a, b = float(cc.lines[k, 0]), float(cc.lines[k, 1])
        vline.set_xdata([pc, pc])
        chosen.set_data([0, 1], [a, b])
        dot.set_data([pc], [a * (1 - pc) + b * pc])
        point.set_data([fpr[k]], [tpr[k]])
        # points of equal cost: (1 - TPR) PC + FPR (1 - PC) = const, a line of slope
        # (1 - PC) / PC through the chosen point
        if pc > 0:
            xs = np.array([0.0, 1.0])
            iso.set_data(xs, tpr[k] + (1 - pc) / pc * (xs - fpr[k]))
        else:  # only false positives cost: the line is vertical
            iso.set_data([fpr[k], fpr[k]], [0, 1])
        return False

    update(k, pc)
    return fig, update
