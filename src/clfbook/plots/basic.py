"""Figures used by the chapters, the tests and the widgets (matplotlib).

Every function draws on an ``Axes`` it is given (or a new figure), labels both
axes, uses a colour-blind-safe palette (Okabe & Ito) and returns the figure, so
chapters can ``glue`` it and widgets can redraw it. Convention: ``m[i, j]`` =
predicted ``i``, true ``j``.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from clfmetrics._base.checks import as_confusion, fill_value
from clfmetrics.metrics._classwise import _bias, _f1, _precision, _prevalence, _recall

__all__ = ["OKABE_ITO", "bias_prevalence_bars", "classwise_bars", "confusion_heatmap"]

#: Okabe & Ito's palette, distinguishable under the common colour-vision deficiencies.
OKABE_ITO = (
    "#E69F00",  # orange
    "#56B4E9",  # sky blue
    "#009E73",  # bluish green
    "#F0E442",  # yellow
    "#0072B2",  # blue
    "#D55E00",  # vermillion
    "#CC79A7",  # reddish purple
    "#000000",  # black
)


def _single(m) -> np.ndarray:
    arr = as_confusion(m)
    if arr.ndim != 2:
        raise ValueError(f"a figure shows one matrix (n, n); got shape {arr.shape}")
    return arr


def _labels(labels, n: int) -> list[str]:
    labels = [str(k) for k in range(n)] if labels is None else [str(x) for x in labels]
    if len(labels) != n:
        raise ValueError(f"labels must name {n} classes; got {len(labels)}")
    return labels


def _axes(ax, figsize):
    if ax is None:
        _, ax = plt.subplots(figsize=figsize, layout="constrained")
    return ax.figure, ax


def confusion_heatmap(m, labels=None, *, ax=None, title: str | None = None):
    """Draw ``m`` as an annotated heat map: rows = predicted class, columns = true class.

    Uses the perceptually uniform, colour-blind-safe ``cividis`` map; every
    cell is annotated with its count so colour is never the only cue.
    """
    m = _single(m)
    n = m.shape[0]
    names = _labels(labels, n)
    fig, ax = _axes(ax, (1.2 + 0.9 * n, 1.0 + 0.8 * n))
    image = ax.imshow(m, cmap="cividis", vmin=0)
    ax.set_xticks(range(n), names)
    ax.set_yticks(range(n), names)
    ax.set_xlabel("true class (reference, column j)")
    ax.set_ylabel("predicted class (row i)")
    ax.xaxis.set_label_position("top")
    ax.xaxis.tick_top()
    threshold = m.max() / 2
    for i in range(n):
        for j in range(n):
            colour = "black" if m[i, j] > threshold else "white"
            ax.text(j, i, f"{m[i, j]:g}", ha="center", va="center", color=colour)
    fig.colorbar(image, ax=ax, label="mass m[i, j]")
    if title:
        ax.set_title(title)
    return fig


def _grouped_bars(ax, names, series: dict[str, np.ndarray], ylabel: str):
    k = len(series)
    x = np.arange(len(names))
    width = 0.8 / k
    for s, (label, values) in enumerate(series.items()):
        bars = ax.bar(
            x + (s - (k - 1) / 2) * width,
            values,
            width,
            label=label,
            color=OKABE_ITO[s % len(OKABE_ITO)],
            edgecolor="black",
            linewidth=0.5,
        )
        ax.bar_label(bars, fmt="%.3g", fontsize=8, padding=1)
    ax.set_xticks(x, names)
    ax.set_xlabel("class")
    ax.set_ylabel(ylabel)
    ax.legend(frameon=False)


def bias_prevalence_bars(m, labels=None, *, ax=None, title: str | None = None):
    """Bars of each class's bias (how often predicted) next to its prevalence (how often true)."""
    m = _single(m)
    names = _labels(labels, m.shape[0])
    fig, ax = _axes(ax, (5.5, 3.2))
    series = {"bias (row sum)": _bias(m), "prevalence (column sum)": _prevalence(m)}
    _grouped_bars(ax, names, series, "mass")
    if title:
        ax.set_title(title)
    return fig


def classwise_bars(m, labels=None, *, ax=None, title: str | None = None, zero_division=0):
    """Bars of class-wise precision, recall and F1 (undefined ratios count as ``zero_division``)."""
    m = _single(m)
    fill = fill_value(zero_division)
    names = _labels(labels, m.shape[0])
    fig, ax = _axes(ax, (5.5, 3.2))
    _grouped_bars(
        ax,
        names,
        {"precision": _precision(m, fill), "recall": _recall(m, fill), "F1": _f1(m, fill)},
        "score",
    )
    ax.set_ylim(0, 1.15)
    if title:
        ax.set_title(title)
    return fig
