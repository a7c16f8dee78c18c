"""Figures for the shared-task chapter: rank-correlation heat map and class-wise recalls.

The data are published scores (systems x metrics), not confusion matrices.
Every function labels its axes, uses a colour-blind-safe palette and returns
the figure.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from ..sources.shared_task import ScoreTable
from .basic import OKABE_ITO

__all__ = ["rank_correlation_heatmap", "recall_dot_plot"]


def rank_correlation_heatmap(corr, labels, *, title: str | None = None):
    """Annotated heat map of a (k, k) rank-correlation matrix (values in [-1, 1], shown x 100)."""
    corr = np.asarray(corr, dtype=float)
    k = len(labels)
    if corr.shape != (k, k):
        raise ValueError(f"corr must have shape ({k}, {k}) to match labels; got {corr.shape}")
    fig, ax = plt.subplots(figsize=(1.5 + 0.5 * k, 1.0 + 0.45 * k), layout="constrained")
    image = ax.imshow(corr, cmap="cividis", vmin=-1, vmax=1)
    ax.set_xticks(range(k), labels, rotation=60, ha="right")
    ax.set_yticks(range(k), labels)
    ax.set_xlabel("metric")
    ax.set_ylabel("metric")
    for i in range(k):
        for j in range(k):
            value = corr[i, j]
            text = "–" if np.isnan(value) else f"{100 * value:.0f}"
            colour = "black" if value > 0.2 else "white"
            ax.text(j, i, text, ha="center", va="center", color=colour, fontsize=7)
    fig.colorbar(image, ax=ax, label="Spearman's ρ")
    if title:
        ax.set_title(title)
    return fig


def recall_dot_plot(table: ScoreTable, columns=("r1", "r2", "r3")):
    """Each system's class-wise recalls as markers on one line, joined from lowest to highest."""
    r = table.columns_of(columns)
    y = np.arange(len(table.systems))[::-1]
    markers = ("o", "s", "^", "D", "v")
    fig, ax = plt.subplots(figsize=(6, 3.6), layout="constrained")
    ax.hlines(y, r.min(axis=1), r.max(axis=1), color="grey", lw=2, zorder=1)
    for k, name in enumerate(columns):
        ax.scatter(
            r[:, k],
            y,
            marker=markers[k % 5],
            color=OKABE_ITO[k],
            s=45,
            zorder=2,
            label=f"recall of class {name[1:]}",
        )
    ax.set_yticks(y, table.systems)
    ax.set_xlabel("class-wise recall (%)")
    ax.set_ylabel("system (official order)")
    ax.legend(frameon=False, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8)
    return fig
