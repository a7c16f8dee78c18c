"""Figures for the prevalence-calibration chapter (matplotlib).

Convention: ``m[i, j]`` = predicted ``i``, true ``j``. Every function labels
its axes, uses the Okabe & Ito palette and returns the figure.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from clfmetrics.metrics._agreement import kappa, mcc
from clfmetrics.metrics._averages import (
    accuracy,
    macro_f1,
    macro_precision,
    macro_recall,
    weighted_f1,
)
from clfmetrics.metrics._prevalence import calibrated_bias, prevalence_calibrate, prevalence_scale

from .basic import OKABE_ITO, _single

__all__ = ["calibrated_vs_macro_recall", "prevalence_sweep"]

_SWEEP = {
    "accuracy": accuracy,
    "macro recall": macro_recall,
    "macro precision": macro_precision,
    "macro F1": macro_f1,
    "weighted F1": weighted_f1,
    "kappa": kappa,
    "MCC": mcc,
}
_STYLES = ("-", "--", "-.", ":", (0, (5, 1)), (0, (3, 1, 1, 1)), (0, (1, 1)))


def prevalence_sweep(m, cls: int = 0, factors=None, *, labels=None):
    """Metrics of ``m`` as class ``cls`` becomes rarer or commoner, before and after calibration.

    Left panel: each metric of :math:`m\\lambda` as column ``cls`` is scaled.
    Right panel: the same metrics of the calibrated matrix
    :math:`(m\\lambda)\\lambda^\\sim`; they are flat because calibration undoes any scaling.
    """
    m = _single(m)
    n = m.shape[0]
    if not 0 <= cls < n:
        raise ValueError(f"cls must be a class index in 0..{n - 1}; got {cls}")
    factors = np.geomspace(0.1, 10, 41) if factors is None else np.asarray(factors, float)
    lam = np.ones((factors.size, n))
    lam[:, cls] = factors
    scaled = prevalence_scale(m, lam)
    calibrated = prevalence_calibrate(scaled)
    name = str(cls) if labels is None else str(labels[cls])
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.6), sharey=True, layout="constrained")
    for k, (label, metric) in enumerate(_SWEEP.items()):
        style = {"color": OKABE_ITO[k % len(OKABE_ITO)], "linestyle": _STYLES[k], "lw": 2}
        axes[0].plot(factors, metric(scaled), label=label, **style)
        axes[1].plot(factors, metric(calibrated), **style)
    for ax, title in zip(axes, ("as measured", "after prevalence calibration"), strict=True):
        ax.set_xscale("log")
        ax.set_xlabel(f"factor λ applied to the prevalence of class {name}")
        ax.set_title(title)
        ax.axvline(1.0, color="grey", lw=0.8)
    axes[0].set_ylabel("score")
    fig.legend(loc="outside right center", frameon=False)
    return fig


def calibrated_vs_macro_recall(stack):
    """Scatter of calibrated kappa and calibrated MCC against macro recall over a stack of matrices.

    Calibrated kappa falls on one line, :math:`(macR - 1/n)/(1 - 1/n)`; calibrated
    MCC spreads around it, coloured by :math:`\\tilde{\\mathbf b}^T\\tilde{\\mathbf b}`,
    the concentration of the calibrated bias.
    """
    stack = np.asarray(stack, dtype=float)
    if stack.ndim != 3:
        raise ValueError(f"stack must have shape (k, n, n); got {stack.shape}")
    c = prevalence_calibrate(stack)
    r = macro_recall(stack)
    b = calibrated_bias(stack)
    fig, ax = plt.subplots(figsize=(6, 4), layout="constrained")
    points = ax.scatter(r, mcc(c), c=(b * b).sum(axis=-1), cmap="viridis", s=10, label="MCC∼")
    order = np.argsort(r)
    ax.plot(r[order], kappa(c)[order], color=OKABE_ITO[5], lw=2, label="Kappa∼")
    ax.set_xlabel("macro recall of m")
    ax.set_ylabel("score of the calibrated matrix mλ∼")
    ax.legend(frameon=False, loc="upper left")
    fig.colorbar(points, ax=ax, label="b∼ᵀb∼ (calibrated bias concentration)")
    return fig
