r"""Figures for the two macro F1 formulas (chapters 4 and 5).

:math:`\mathbb{F}_1` is the F1 of averages, :math:`\mathcal{F}_1` the averaged
F1 and :math:`\Delta = \mathbb{F}_1 - \mathcal{F}_1`. Every function labels its
axes, uses the Okabe & Ito palette or the cividis map, and returns the figure.
The functions take precomputed numbers, so they draw in milliseconds.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from scipy.stats import gaussian_kde

from .basic import OKABE_ITO

__all__ = ["delta_density", "delta_heatmaps", "supremum_approach", "two_f1_scatter"]

_DASHES = ("-", "--", "-.", (0, (5, 1, 1, 1)), (0, (3, 1, 1, 1, 1, 1)), (0, (8, 2)))
#: Okabe-Ito colours with good contrast on white (yellow left out).
_COLOURS = tuple(c for c in OKABE_ITO if c != "#F0E442")
_DELTA_LABEL = r"$\Delta$ = F1 of averages $-$ averaged F1"


def supremum_approach(curves: dict, *, ax=None):
    r"""Δ along a sequence of confusion matrices, one line per number of classes.

    Parameters
    ----------
    curves : dict
        ``n -> (z, delta, sup)``: the sequence parameter, :math:`\Delta` of each
        matrix and the supremum, drawn as a dotted horizontal line.
    """
    if ax is None:
        _, ax = plt.subplots(figsize=(6, 3.6), layout="constrained")
    for k, (n, (z, delta, sup)) in enumerate(curves.items()):
        colour = _COLOURS[k % len(_COLOURS)]
        ax.plot(z, delta, color=colour, linestyle=_DASHES[k % len(_DASHES)], label=f"n = {n}")
        ax.axhline(float(sup), color=colour, linestyle=":", linewidth=1.2)
    ax.set_xscale("log")
    ax.set_xlabel("off-diagonal mass z of the sequence matrix (log scale)")
    ax.set_ylabel(_DELTA_LABEL)
    ax.legend(frameon=False, title="dotted: supremum", loc="lower right")
    return ax.figure


def two_f1_scatter(big, small, *, ax=None):
    r"""Scatter of :math:`\mathcal{F}_1` (x) against :math:`\mathbb{F}_1` (y), with the diagonal."""
    if ax is None:
        _, ax = plt.subplots(figsize=(4.6, 4.2), layout="constrained")
    ax.scatter(small, big, s=8, alpha=0.5, color=OKABE_ITO[4], edgecolor="none")
    lo = min(np.min(small), np.min(big))
    hi = max(np.max(small), np.max(big))
    ax.plot([lo, hi], [lo, hi], color="black", linestyle="--", linewidth=1, label="equal scores")
    ax.set_xlabel("averaged F1 (scikit-learn's macro F1)")
    ax.set_ylabel("F1 of averages")
    ax.legend(frameon=False, loc="lower right")
    return ax.figure


def delta_density(samples: dict, *, ax=None):
    r"""Kernel density estimate of :math:`\Delta` for each named sample (one line each)."""
    if ax is None:
        _, ax = plt.subplots(figsize=(6, 3.6), layout="constrained")
    hi = max(float(np.max(v)) for v in samples.values())
    grid = np.linspace(0, hi * 1.05, 400)
    for k, (name, values) in enumerate(samples.items()):
        values = np.asarray(values, dtype=float)
        if np.ptp(values) > 0:
            density = gaussian_kde(values)(grid)
        else:  # a constant sample has no spread to estimate
            density = np.where(np.isclose(grid, values[0]), 1.0, 0.0)
        ax.plot(
            grid,
            density,
            color=_COLOURS[k % len(_COLOURS)],
            linestyle=_DASHES[k % len(_DASHES)],
            label=name,
        )
    ax.set_xlabel(_DELTA_LABEL)
    ax.set_ylabel("density (KDE, log scale)")
    ax.set_yscale("log")
    ax.set_ylim(0.1, 1e4)  # near-balanced samples give very tall, narrow peaks at 0
    ax.legend(frameon=False, title="true class distribution", fontsize=8)
    return ax.figure


def delta_heatmaps(panels: list, *, xlabel: str, ylabel: str):
    r"""Side-by-side heat maps of :math:`\Delta` over a grid (cividis, shared colour scale).

    Parameters
    ----------
    panels : list of (title, xs, ys, delta)
        ``delta[k, l]`` belongs to ``ys[k]`` (row) and ``xs[l]`` (column).
    xlabel, ylabel : str
        Axis labels, shared by all panels.
    """
    fig, axes = plt.subplots(1, len(panels), figsize=(4.2 * len(panels), 3.6), layout="constrained")
    axes = np.atleast_1d(axes)
    vmax = max(float(np.max(p[3])) for p in panels)
    for ax, (title, xs, ys, delta) in zip(axes, panels, strict=True):
        image = ax.pcolormesh(xs, ys, delta, cmap="cividis", vmin=0, vmax=vmax, shading="nearest")
        ax.set_title(title)
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
    fig.colorbar(image, ax=axes, label="mean " + _DELTA_LABEL)
    return fig
