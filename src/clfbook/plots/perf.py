"""Figures for the chapter on speed: time against stack size, log-log."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from .basic import OKABE_ITO

__all__ = ["growth_plot"]


def growth_plot(results: dict, ax=None):
    """Seconds per call against stack size on log-log axes, one line per metric.

    ``results`` maps a label to the output of :func:`clfbook.tooling.timing.time_growth`.
    The floor (one read pass over the stack) is drawn dashed for the first entry.
    """
    if not results:
        raise ValueError("results is empty: nothing to plot")
    if ax is None:
        fig, ax = plt.subplots(figsize=(6.4, 4.0), layout="constrained")
    else:
        fig = ax.figure
    markers = "osD^v<>"
    for k, (label, r) in enumerate(results.items()):
        ax.loglog(
            r["sizes"],
            r["seconds"],
            marker=markers[k % len(markers)],
            color=OKABE_ITO[(4, 5, 0, 2, 6, 1)[k % 6]],
            label=f"{label} (slope {r['slope']:.2f})",
        )
    first = next(iter(results.values()))
    ax.loglog(first["sizes"], first["floor_seconds"], "k--", label="one read pass (floor)")
    ax.set_xlabel("matrices in the stack")
    ax.set_ylabel("seconds per call")
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(frameon=False, fontsize="small")
    ax.set_xlim(np.min(first["sizes"]) / 1.5, np.max(first["sizes"]) * 1.5)
    return fig
