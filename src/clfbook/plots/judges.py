"""Figures for the chapter on automatic judges: agreement against prevalence, prevalence
estimates with their intervals, and the hand labels a prevalence interval needs.

Every function labels its axes, uses the colour-blind-safe Okabe & Ito palette (plus line
styles and markers, so colour is never the only cue) and returns the figure. Convention:
``m[i, j]`` = predicted ``i``, true ``j``; class 1 is the positive class.
"""

from __future__ import annotations

import numpy as np

from clfmetrics.metrics import accuracy, gwet_ac1, kappa, pabak

from .basic import OKABE_ITO, _axes

__all__ = ["agreement_against_prevalence", "judge_matrices", "labels_width_plot", "prevalence_plot"]


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
