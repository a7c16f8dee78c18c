"""Figures for the chapter on automatic judges: agreement against prevalence, prevalence
estimates with their intervals, and the hand labels a prevalence interval needs.

Every function labels its axes, uses the colour-blind-safe Okabe & Ito palette (plus line
styles and markers, so colour is never the only cue) and returns the figure. Convention:
``m[i, j]`` = predicted ``i``, true ``j``; class 1 is the positive class.
"""

from __future__ import annotations

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from clfmetrics.metrics import accuracy, gwet_ac1, kappa, pabak

from .basic import OKABE_ITO, _axes

__all__ = [
    "agreement_against_prevalence",
    "judge_matrices",
    "labels_width_plot",
    "live_judge_figure",
    "prevalence_plot",
]


def _rate(value, name: str) -> float:
    value = float(value)
    if not 0 <= value <= 1:
        raise ValueError(f"{name} must lie in [0, 1]; got {value!r}")
    return value


def judge_matrices(prevalences, sensitivity: float, specificity: float) -> np.ndarray:
    """The expected 2x2 matrices (shares) of a judge with fixed rates, one per prevalence.

    Row and column 1 are the positive class: ``m[1, 1] = sensitivity * q``,
    ``m[1, 0] = (1 - specificity) * (1 - q)``.
    """
    t, s = _rate(sensitivity, "sensitivity"), _rate(specificity, "specificity")
    q = np.asarray(prevalences, dtype=float)
    if q.ndim != 1 or q.size == 0 or ((q < 0) | (q > 1)).any():
        raise ValueError("prevalences must be a non-empty 1-d sequence of shares in [0, 1]")
    stack = np.empty((q.size, 2, 2))
    stack[:, 0, 0], stack[:, 0, 1] = s * (1 - q), (1 - t) * q
    stack[:, 1, 0], stack[:, 1, 1] = (1 - s) * (1 - q), t * q
    return stack


def agreement_against_prevalence(sensitivity, specificity, prevalences=None, *, ax=None):
    """Accuracy, PABAK, Gwet's AC1 and Cohen's kappa of one judge as the prevalence moves.

    The judge's sensitivity and specificity stay fixed, so its quality does not change
    along the x axis; only the class mix does.
    """
    q = np.linspace(0.01, 0.99, 99) if prevalences is None else np.asarray(prevalences, float)
    stack = judge_matrices(q, sensitivity, specificity)
    fig, ax = _axes(ax, (6.4, 4.0))
    lines = (
        ("accuracy", accuracy, "-", None, OKABE_ITO[7]),
        ("PABAK", pabak, ":", "^", OKABE_ITO[2]),
        ("Gwet's AC1", gwet_ac1, "-.", "s", OKABE_ITO[0]),
        ("Cohen's kappa", kappa, "--", "o", OKABE_ITO[4]),
    )
    for label, func, style, marker, colour in lines:
        ax.plot(q, func(stack), style, marker=marker, markevery=12, ms=4, color=colour, label=label)
    ax.set_xlabel("prevalence of the positive class")
    ax.set_ylabel("agreement with the truth")
    ax.set_ylim(-0.05, 1.02)
    ax.set_title(
        f"one judge: sensitivity {sensitivity:.2f}, specificity {specificity:.2f}",
        fontsize="medium",
    )
    ax.legend(frameon=False, loc="lower center")
    return fig


def prevalence_plot(estimates: dict, *, truth=None, ax=None):
    """Estimates of one prevalence with their intervals, one row per method.

    ``estimates`` maps a method's name to ``(estimate, low, high)``; ``truth`` (optional)
    is drawn as a vertical dashed line.
    """
    if not estimates:
        raise ValueError("estimates is empty: nothing to plot")
    fig, ax = _axes(ax, (6.4, 0.6 * len(estimates) + 1.4))
    names = list(estimates)
    for k, name in enumerate(names):
        est, low, high = (float(v) for v in estimates[name])
        ax.errorbar(
            est,
            k,
            xerr=[[est - low], [high - est]],
            fmt="os^Dv"[k % 5],
            capsize=4,
            color=OKABE_ITO[(4, 5, 2, 0, 6)[k % 5]],
        )
    if truth is not None:
        ax.axvline(float(truth), color="black", ls="--", lw=1, label="true prevalence")
        ax.legend(frameon=False, loc="best", fontsize="small")
    ax.set_yticks(range(len(names)), names)
    ax.invert_yaxis()
    ax.set_xlabel("estimated prevalence of the positive class (95 % interval)")
    ax.set_ylabel("method")
    return fig


def labels_width_plot(labels, widths, *, target: float, planned: int, ax=None):
    """Median simulated interval width against the number of hand labels.

    ``widths`` holds one median width per entry of ``labels``; the ``target`` width is a
    dashed horizontal line and the ``planned`` number of labels a dotted vertical one.
    """
    n = np.asarray(labels, dtype=float)
    w = np.asarray(widths, dtype=float)
    if n.shape != w.shape or n.ndim != 1 or n.size == 0:
        raise ValueError("labels and widths must be 1-d sequences of the same length")
    fig, ax = _axes(ax, (6.4, 4.0))
    ax.plot(n, w, "-o", color=OKABE_ITO[4], label="simulated (median width)")
    ax.axhline(target, color="black", ls="--", lw=1, label=f"target width {target:g}")
    ax.axvline(planned, color=OKABE_ITO[5], ls=":", lw=1.5, label=f"planned: {planned} labels")
    ax.set_xscale("log")
    ax.set_xticks(n, [f"{v:.0f}" for v in n])
    ax.minorticks_off()
    ax.set_xlabel("hand-labelled items")
    ax.set_ylabel("width of the 95 % prevalence interval")
    ax.legend(frameon=False, fontsize="small")
    return fig


#: The judge explorer's agreement curves: key, label, line style, colour.
_JUDGE_LINES = (
    ("accuracy", "accuracy", "-", OKABE_ITO[7]),
    ("pabak", "PABAK", ":", OKABE_ITO[2]),
    ("gwet_ac1", "Gwet's AC1", "-.", OKABE_ITO[0]),
    ("kappa", "Cohen's kappa", "--", OKABE_ITO[4]),
)


def _band(lo, hi):
    return np.r_[lo, hi[::-1]]


def live_judge_figure(
    grid, agreement: dict, estimates: dict, prevalence: float, positive="positive"
):
    """Two panels for the judge explorer: agreement against the prevalence, and the two
    prevalence estimates against the true prevalence, with their intervals.

    Every curve, band and marker is an *animated* artist (``clfbook.widgets._base.FigureImage``):
    moving the judge's rates moves the curves, moving the prevalence moves the markers.

    Parameters
    ----------
    grid : array of shape (G,)
        The prevalences the curves are drawn at.
    agreement : dict
        Key of ``clfbook.widgets.judge.COEFFICIENTS`` -> array (G,) (``agreement_curves``).
    estimates : dict
        ``prevalence_curves``: ``flagged``, ``cc_low``, ``cc_high``, ``adjusted``,
        ``adjusted_low``, ``adjusted_high``, arrays (G,).
    prevalence : float
        The current prevalence (a vertical line and the markers).
    positive : str
        The name of the class the judge counts.

    Returns
    -------
    fig : matplotlib.figure.Figure
    update : callable
        ``update(agreement, estimates, prevalence)``; returns False (the axes stay fixed).
    """
    q = np.asarray(grid, dtype=float)
    fig = Figure(figsize=(9, 3.8), layout="constrained")
    FigureCanvasAgg(fig)
    ax_a, ax_p = fig.subplots(1, 2)
    curves, dots = {}, {}
    for key, label, style, colour in _JUDGE_LINES:
        (curves[key],) = ax_a.plot(q, q, style, color=colour, lw=1.8, label=label, animated=True)
        (dots[key],) = ax_a.plot([], [], "o", ms=6, color=colour, mec="black", animated=True)
    ax_a.set_xlim(0, 1)
    ax_a.set_ylim(-0.05, 1.02)
    ax_a.set_xlabel(f"prevalence of {positive}")
    ax_a.set_ylabel("agreement with the people")
    ax_a.set_title("agreement against the prevalence", fontsize=9)
    ax_a.legend(frameon=False, fontsize=6.5, loc="lower center")
    ax_p.plot([0, 1], [0, 1], color="grey", lw=1, ls=":", label="the truth")
    (cc_band,) = ax_p.fill(q, q, color=OKABE_ITO[4], alpha=0.3, lw=0, animated=True)
    (adj_band,) = ax_p.fill(q, q, color=OKABE_ITO[1], alpha=0.3, lw=0, animated=True)
    (cc_line,) = ax_p.plot(
        q, q, "--", color=OKABE_ITO[4], lw=1.8, label="classify and count", animated=True
    )
    (adj_line,) = ax_p.plot(
        q, q, "-", color=OKABE_ITO[5], lw=1.8, label="adjusted (Rogan–Gladen)", animated=True
    )
    (cc_dot,) = ax_p.plot([], [], "s", ms=7, color=OKABE_ITO[4], mec="black", animated=True)
    (adj_dot,) = ax_p.plot([], [], "o", ms=7, color=OKABE_ITO[5], mec="black", animated=True)
    ax_p.set_xlim(0, 1)
    ax_p.set_ylim(0, 1)
    ax_p.set_xlabel(f"true prevalence of {positive}")
    ax_p.set_ylabel("estimated prevalence (band: interval)")
    ax_p.set_title("classify and count against the adjusted estimate", fontsize=9)
    ax_p.legend(frameon=False, fontsize=6.5, loc="upper left")
    vlines = [ax.axvline(prevalence, color="black", lw=1, animated=True) for ax in (ax_a, ax_p)]

    def update(agreement: dict, estimates: dict, prevalence: float) -> bool:
        k = int(np.argmin(np.abs(q - prevalence)))
        for key, line in curves.items():
            line.set_ydata(agreement[key])
            dots[key].set_data([q[k]], [agreement[key][k]])
        e = estimates
        cc_line.set_ydata(e["flagged"])
        adj_line.set_ydata(e["adjusted"])
        cc_band.set_xy(np.c_[np.r_[q, q[::-1]], _band(e["cc_low"], e["cc_high"])])
        # where the adjusted estimate is undefined (T = F) there is no band to draw
        adj_band.set_xy(
            np.c_[np.r_[q, q[::-1]], np.nan_to_num(_band(e["adjusted_low"], e["adjusted_high"]))]
        )
        cc_dot.set_data([q[k]], [e["flagged"][k]])
        adj_dot.set_data([q[k]], [e["adjusted"][k]])
        for line in vlines:
            line.set_xdata([prevalence, prevalence])
        return False

    update(agreement, estimates, prevalence)
    return fig, update
