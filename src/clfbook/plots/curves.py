"""Figures of the threshold sweep: metrics against the threshold, ROC and precision-recall curves.

Each function takes arrays computed by :mod:`clfmetrics.scores` (it does not
recompute them), draws on an ``Axes`` it is given or on a new pyplot figure,
labels both axes, uses the Okabe & Ito palette with a different line style per
curve (colour is never the only cue) and returns the figure. Convention of the
stacks: ``m[i, j]`` = predicted ``i``, true ``j``, class order (negative,
positive).
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from .basic import OKABE_ITO

__all__ = ["live_threshold_figure", "metrics_along_threshold", "pr_figure", "roc_figure"]

#: Most points of a sweep drawn as a line in the explorer's figure.
MAX_DRAWN = 2000

_STYLES = ("-", "--", "-.", ":", (0, (5, 1)), (0, (3, 1, 1, 1)), (0, (1, 1)))


def _style(k: int) -> dict:
    return {"color": OKABE_ITO[(k + 4) % len(OKABE_ITO)], "linestyle": _STYLES[k % len(_STYLES)]}


def _axes(ax, figsize):
    """``ax`` and its figure, or a new pyplot figure (shown by Jupyter's inline backend)."""
    if ax is None:
        fig, ax = plt.subplots(figsize=figsize, layout="constrained")
        return fig, ax
    return ax.figure, ax


def metrics_along_threshold(thresholds, values: dict, *, mark=None, ax=None):
    """One line per metric against the threshold (predict positive where score >= t).

    Parameters
    ----------
    thresholds : array_like of shape (K + 1,)
        As returned by :func:`clfmetrics.scores.threshold_stack`; the ``+inf`` entry is
        left out of the figure.
    values : dict of str -> array_like of shape (K + 1,)
        Metric name -> its value at each threshold (e.g. ``{"accuracy": accuracy(stack)}``).
    mark : dict of str -> float, optional
        Vertical guides named in the legend, e.g. ``{"best F1": t_best}``.
    ax : matplotlib Axes, optional
    """
    fig, ax = _axes(ax, (7, 3.6))
    t = np.asarray(thresholds, dtype=float)
    finite = np.isfinite(t)
    for k, (name, v) in enumerate(values.items()):
        ax.plot(t[finite], np.asarray(v, dtype=float)[finite], lw=2, label=name, **_style(k))
    for k, (name, x) in enumerate((mark or {}).items()):
        # In the legend, not written on the line: guides close together stay readable.
        ax.axvline(x, color="grey", lw=1.2, linestyle=_STYLES[(k + 1) % len(_STYLES)], label=name)
    ax.set_xlabel("threshold t (predict positive where score ≥ t)")
    ax.set_ylabel("score")
    ax.legend(frameon=False, fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    return fig


def roc_figure(curves: dict, *, points: dict | None = None, ax=None):
    """ROC curves: true positive rate (recall) against false positive rate, with the diagonal.

    Parameters
    ----------
    curves : dict of str -> (fpr, tpr)
        One curve per entry, e.g. from :func:`clfmetrics.scores.roc_curve`.
    points : dict of str -> (fpr, tpr), optional
        Labelled single points (e.g. the operating point of a threshold).
    ax : matplotlib Axes, optional
    """
    fig, ax = _axes(ax, (4.2, 4))
    ax.plot([0, 1], [0, 1], color="grey", lw=1, linestyle=":", label="chance (random guessing)")
    for k, (name, (fpr, tpr)) in enumerate(curves.items()):
        ax.plot(fpr, tpr, lw=2, label=name, **_style(k))
    for k, (name, (x, y)) in enumerate((points or {}).items()):
        ax.plot([x], [y], "o", ms=7, color=OKABE_ITO[(k + 5) % 8], label=name)
    ax.set_xlabel("false positive rate FP / N(negative)")
    ax.set_ylabel("true positive rate (recall) TP / N(positive)")
    ax.set_xlim(-0.02, 1.02)
    ax.set_ylim(-0.02, 1.02)
    ax.set_aspect("equal")
    ax.legend(frameon=False, fontsize=8, loc="lower right")
    return fig


def pr_figure(curves: dict, *, baselines: dict | None = None, points=None, ax=None):
    """Precision-recall curves, with the precision of random guessing as a guide.

    Parameters
    ----------
    curves : dict of str -> (recall, precision)
        One curve per entry in the order of :func:`clfmetrics.scores.precision_recall_curve`
        (recall decreasing). Drawn as a step function (each recall step at the precision
        of its lower threshold), so the area under the drawn line is the average
        precision; a straight line between PR points would overstate it (Davis &
        Goadrich 2006).
    baselines : dict of str -> float, optional
        Labelled horizontal guides; random guessing has precision = prevalence.
    points : dict of str -> (recall, precision), optional
    ax : matplotlib Axes, optional
    """
    fig, ax = _axes(ax, (4.2, 4))
    for k, (name, (recall, precision)) in enumerate(curves.items()):
        ax.plot(recall, precision, lw=2, label=name, drawstyle="steps-post", **_style(k))
    for k, (name, y) in enumerate((baselines or {}).items()):
        ax.axhline(y, lw=1, label=name, **{**_style(k), "linestyle": ":"})
    for k, (name, (x, y)) in enumerate((points or {}).items()):
        ax.plot([x], [y], "o", ms=7, color=OKABE_ITO[(k + 5) % 8], label=name)
    ax.set_xlabel("recall TP / N(positive)")
    ax.set_ylabel("precision TP / (TP + FP)")
    ax.set_xlim(-0.02, 1.02)
    ax.set_ylim(-0.02, 1.02)
    ax.legend(frameon=False, fontsize=8, loc="lower left")
    return fig


def live_threshold_figure(
    thresholds, fpr, tpr, recall, precision, values: dict, k: int = 0, *, band=None, cross=None
):
    """Three panels for the threshold explorer: metrics vs threshold, ROC, PR; a movable point.

    The curves are static; the vertical line and the two operating points are *animated*
    artists, so moving the threshold redraws only them (see
    ``clfbook.widgets._base.FigureImage``).

    Parameters
    ----------
    thresholds, fpr, tpr : arrays of shape (K + 1,)
        In sweep order (``+inf`` first), as from :func:`clfmetrics.scores.roc_curve`.
    recall, precision : arrays of shape (K + 1,)
        In sweep order; at ``+inf`` (nothing predicted) precision is undefined (NaN).
    values : dict of str -> array of shape (K + 1,)
    k : int
        Index of the threshold shown first.
    band : clfmetrics.inference.Band, optional
        The ROC band (from :func:`clfmetrics.inference.roc_band`), shaded under the ROC curve.
    cross : callable, optional
        ``cross(k) -> (fpr_low, fpr_high, tpr_low, tpr_high)``: the intervals of the
        operating point at index ``k``, drawn as a cross through the moving point.

    Returns
    -------
    fig : matplotlib.figure.Figure
    update : callable
        ``update(k)`` moves the markers to threshold index ``k``; returns False (nothing
        static changes).
    """
    # A figure outside pyplot, as for every explorer: creating one never makes Jupyter
    # print a stray copy; the explorer shows it as an image.
    fig = Figure(figsize=(11, 3.4), layout="constrained")
    FigureCanvasAgg(fig)
    ax_t, ax_roc, ax_pr = fig.subplots(1, 3)
    # The lines are drawn through at most MAX_DRAWN points of the sweep (the markers use
    # every point): at screen resolution the thinned line looks the same and draws fast.
    keep = np.unique(np.linspace(0, len(thresholds) - 1, MAX_DRAWN).astype(int))
    metrics_along_threshold(
        np.asarray(thresholds)[keep], {n: np.asarray(v)[keep] for n, v in values.items()}, ax=ax_t
    )
    ax_t.legend(frameon=False, fontsize=7, loc="lower left")
    finite = np.asarray(thresholds)[np.isfinite(thresholds)]
    vline = ax_t.axvline(finite[0], color="black", lw=1, animated=True)
    roc_figure({"ROC": (fpr[keep], tpr[keep])}, ax=ax_roc)
    # precision_recall_curve's order: decreasing recall, ending at (recall 0, precision 1).
    drawn = keep[keep > 0][::-1]
    pr_figure({"PR": (np.append(recall[drawn], 0.0), np.append(precision[drawn], 1.0))}, ax=ax_pr)
    if band is not None:
        kind = "simultaneous" if band.simultaneous else "pointwise"
        ax_roc.fill_between(
            band.x,
            band.low,
            band.high,
            color=OKABE_ITO[4],
            alpha=0.25,
            lw=0,
            label=f"{band.level:.0%} {kind} band",
        )
        ax_roc.legend(frameon=False, fontsize=7, loc="lower right")
    (roc_h,) = ax_roc.plot([], [], color=OKABE_ITO[5], lw=1.5, animated=True)
    (roc_v,) = ax_roc.plot([], [], color=OKABE_ITO[5], lw=1.5, animated=True)
    (roc_point,) = ax_roc.plot([], [], "o", ms=8, color=OKABE_ITO[5], animated=True)
    (pr_point,) = ax_pr.plot([], [], "s", ms=8, color=OKABE_ITO[5], animated=True)
    ax_t.set_title("metrics along the threshold", fontsize=9)
    ax_roc.set_title(
        "ROC curve and band, current point" + (" ± exact intervals" if cross else ""), fontsize=9
    )
    ax_pr.set_title("precision-recall curve, current point", fontsize=9)

    def update(k: int) -> bool:
        t = thresholds[k]
        vline.set_xdata([t, t] if np.isfinite(t) else [finite[0], finite[0]])
        roc_point.set_data([fpr[k]], [tpr[k]])
        if cross is not None:
            x_low, x_high, y_low, y_high = cross(k)
            roc_h.set_data([x_low, x_high], [tpr[k], tpr[k]])
            roc_v.set_data([fpr[k], fpr[k]], [y_low, y_high])
        p = precision[k] if np.isfinite(precision[k]) else 1.0
        pr_point.set_data([recall[k]], [p])
        return False

    update(k)
    return fig, update
