"""Figures for the metric-property chapters (matplotlib, colour-blind-safe).

Convention: ``m[i, j]`` = mass predicted as class ``i`` whose true class is ``j``.
Every function labels its axes, uses the Okabe & Ito palette and returns the figure.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from clfmetrics._base.checks import as_confusion

from ..properties import PROPERTIES
from .basic import OKABE_ITO

__all__ = ["chance_baselines", "property_grid", "score_under_errors"]

_MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")
_STYLES = ("-", "--", "-.", ":")


def _axes(ax, figsize):
    if ax is None:
        _, ax = plt.subplots(figsize=figsize, layout="constrained")
    return ax.figure, ax


def score_under_errors(metrics: dict, m, cell, *, max_mass: float = 20.0, ax=None, points=81):
    """Plot each metric as error mass is added to one cell of ``m``.

    Parameters
    ----------
    metrics : dict of name -> callable
        Metrics with the library's calling convention.
    m : array_like, shape (n, n)
        Starting matrix; rows = predicted, columns = true.
    cell : tuple (i, j)
        The cell that receives the extra mass (an error when ``i != j``).
    max_mass : float
        Largest mass added.
    """
    m = as_confusion(m)
    if m.ndim != 2:
        raise ValueError(f"score_under_errors needs one matrix (n, n); got shape {m.shape}")
    i, j = cell
    added = np.linspace(0.0, max_mass, points)
    stack = np.repeat(m[None], points, axis=0)
    stack[:, i, j] += added
    fig, ax = _axes(ax, (6.0, 3.4))
    for k, (name, metric) in enumerate(metrics.items()):
        ax.plot(
            added,
            np.asarray(metric(stack)),
            label=name,
            color=OKABE_ITO[k % len(OKABE_ITO)],
            linestyle=_STYLES[k % len(_STYLES)],
            linewidth=2,
        )
    kind = "correct" if i == j else "error"
    ax.set_xlabel(f"{kind} mass added to m[{i}, {j}] (predicted {i}, true {j})")
    ax.set_ylabel("score")
    ax.axhline(0, color="grey", linewidth=0.5)
    ax.legend(frameon=False, fontsize=8)
    return fig


def chance_baselines(results: dict, *, ax=None):
    """Range of scores of random classifiers per number of classes, one band per metric.

    Parameters
    ----------
    results : dict of name -> ChanceResult
        Output of :func:`clfbook.properties.is_chance_corrected` per metric.
        A vertical bar spans the lowest to the highest random score for each
        ``n``; the dotted curve is ``1/n``.
    """
    fig, ax = _axes(ax, (6.0, 3.6))
    k_all = len(results)
    for k, (name, res) in enumerate(results.items()):
        ns = np.array(list(res.baselines))
        lo = np.array([v[0] for v in res.baselines.values()])
        hi = np.array([v[1] for v in res.baselines.values()])
        x = ns + (k - (k_all - 1) / 2) * 0.08
        colour = OKABE_ITO[k % len(OKABE_ITO)]
        ax.vlines(x, lo, hi, color=colour, linewidth=3, alpha=0.8)
        ax.plot(x, hi, _MARKERS[k % len(_MARKERS)], color=colour, label=f"{name} (ω(n) = top)")
    grid = np.linspace(2, max(max(r.baselines) for r in results.values()), 50)
    ax.plot(grid, 1 / grid, ":", color="black", label="1/n")
    ax.set_xlabel("number of classes n")
    ax.set_ylabel("score of a random classifier")
    ax.set_xticks(sorted({n for r in results.values() for n in r.baselines}))
    ax.legend(frameon=False, fontsize=8)
    return fig


def property_grid(table, *, ax=None, title: str | None = None):
    """Draw a property table as a grid: ✓ (has it), (✓) (after calibration), ✗ (neither).

    Parameters
    ----------
    table : PropertyTable
        From :func:`clfbook.properties.property_table`.
    """
    marks = {"✓": 2, "(✓)": 1, "✗": 0}
    colours = {2: OKABE_ITO[2], 1: OKABE_ITO[1], 0: "#DDDDDD"}
    names = table.names
    fig, ax = _axes(ax, (6.2, 0.45 * len(names) + 1.2))
    for r, name in enumerate(names):
        for c, prop in enumerate(PROPERTIES):
            level = marks[table.mark(name, prop)]
            ax.add_patch(plt.Rectangle((c - 0.5, r - 0.5), 1, 1, color=colours[level], ec="white"))
            ax.text(c, r, table.mark(name, prop), ha="center", va="center", fontsize=11)
    ax.set_xlim(-0.5, len(PROPERTIES) - 0.5)
    ax.set_ylim(len(names) - 0.5, -0.5)
    ax.set_xticks(range(len(PROPERTIES)), [f"{k}\n{v}" for k, v in PROPERTIES.items()], fontsize=8)
    ax.set_yticks(range(len(names)), names)
    ax.set_xlabel("property (✓ has it, (✓) after prevalence calibration, ✗ neither)")
    ax.set_ylabel("metric")
    ax.xaxis.set_label_position("top")
    ax.xaxis.tick_top()
    if title:
        ax.set_title(title)
    return fig
