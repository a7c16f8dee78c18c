"""Figures for the chapter on inference: coverage of intervals, test items needed."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from .basic import OKABE_ITO

__all__ = ["coverage_plot", "sample_size_plot"]

_MARKERS = "osD^v"


def _axes(ax):
    if ax is None:
        _, ax = plt.subplots(figsize=(6.4, 4.0), layout="constrained")
    return ax.figure, ax


def coverage_plot(n_items, coverages: dict, *, level=0.95, sets=None, ax=None):
    """Actual coverage against test-set size, one line per interval method.

    ``coverages`` maps a label (e.g. "percentile") to one coverage per entry of
    ``n_items``. The nominal ``level`` is a dashed line; with ``sets`` given,
    a grey band shows two binomial standard errors of a simulated coverage.
    """
    if not coverages:
        raise ValueError("coverages is empty: nothing to plot")
    fig, ax = _axes(ax)
    x = np.asarray(n_items, dtype=float)
    if sets:
        half = 2 * np.sqrt(level * (1 - level) / sets)
        ax.axhspan(level - half, level + half, color="0.9", label="±2 simulation errors")
    ax.axhline(level, color="black", ls="--", lw=1, label=f"nominal {level:.0%}")
    for k, (label, values) in enumerate(coverages.items()):
        ax.plot(
            x, values, marker=_MARKERS[k % 5], color=OKABE_ITO[(4, 5, 2, 0)[k % 4]], label=label
        )
    ax.set_xscale("log")
    ax.set_xticks(x, [f"{v:.0f}" for v in x])
    ax.minorticks_off()
    ax.set_xlabel("test items per test set")
    ax.set_ylabel("share of intervals containing the population value")
    ax.legend(frameon=False, fontsize="small")
    return fig


def sample_size_plot(deltas, sizes: dict, *, ax=None):
    """Test items needed against the difference to detect, one line per discordance.

    ``sizes`` maps a label (e.g. "ψ = 0.10") to one item count per entry of ``deltas``.
    """
    if not sizes:
        raise ValueError("sizes is empty: nothing to plot")
    fig, ax = _axes(ax)
    d = 100 * np.asarray(deltas, dtype=float)
    for k, (label, values) in enumerate(sizes.items()):
        ax.plot(
            d, values, marker=_MARKERS[k % 5], color=OKABE_ITO[(4, 5, 2, 0)[k % 4]], label=label
        )
    ax.set_yscale("log")
    ax.set_xlabel("difference in accuracy to detect (percentage points)")
    ax.set_ylabel("test items needed (80 % power, 5 % level)")
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(frameon=False, fontsize="small", title="share of items where\nexactly one is right")
    return fig
