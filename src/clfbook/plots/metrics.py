"""Figures for the chapters on accuracy and the micro averages, macro recall and precision,
and weighted F1 (matplotlib).

Every function labels its axes, uses the colour-blind-safe Okabe & Ito
palette, draws on a given ``Axes`` (or a new figure) and returns the figure.
Convention: ``m[i, j]`` = mass predicted as class ``i`` whose true class is ``j``.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from clfmetrics._base.checks import as_confusion
from clfmetrics.metrics._averages import _accuracy, _macro_f1, _macro_precision, _weighted_f1
from clfmetrics.metrics._classwise import _bias, _correct, _prevalence
from clfmetrics.metrics._prevalence import prevalence_scale

from ..sources.search import precision_gap_construction
from .basic import OKABE_ITO, _axes, _grouped_bars, _labels, _single

# Okabe & Ito without the yellow, which is hard to see as a thin line or small dot on white.
_COLOURS = tuple(c for c in OKABE_ITO if c != "#F0E442")

__all__ = [
    "chance_strips",
    "metric_bars",
    "precision_gap_curves",
    "tp_fp_fn_bars",
    "weighted_vs_accuracy",
]


def tp_fp_fn_bars(m, labels=None, *, ax=None, title: str | None = None):
    r"""Bars of each class's true positives, false positives and false negatives.

    :math:`TP_i = m_{i,i}`, :math:`FP_i = bias(i) - m_{i,i}` (rest of row ``i``),
    :math:`FN_i = prevalence(i) - m_{i,i}` (rest of column ``i``). The legend
    gives the totals, which show :math:`\sum_i FP_i = \sum_i FN_i`.
    """
    m = _single(m)
    names = _labels(labels, m.shape[0])
    tp = _correct(m)
    fp, fn = _bias(m) - tp, _prevalence(m) - tp
    fig, ax = _axes(ax, (5.5, 3.2))
    _grouped_bars(
        ax,
        names,
        {
            f"TP (total {tp.sum():g})": tp,
            f"FP (total {fp.sum():g})": fp,
            f"FN (total {fn.sum():g})": fn,
        },
        "count",
    )
    # An explicit location: matplotlib's "best" search is slow and warns on a busy machine.
    ax.legend(frameon=False, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    ax.set_ylim(0, 1.25 * max(tp.max(), fp.max(), fn.max()))
    if title:
        ax.set_title(title)
    return fig


def metric_bars(
    matrices: dict, metrics: dict, *, ax=None, title: str | None = None, ylim=(0, 1.15)
):
    """Grouped bars: one group per metric, one bar per matrix (classifier, or before/after).

    Parameters
    ----------
    matrices : dict of str to array_like (n, n)
        Name of each classifier or situation and its confusion matrix.
    metrics : dict of str to callable
        Name and function of each metric (e.g. ``{"accuracy": clfmetrics.accuracy}``).
    """
    if not matrices or not metrics:
        raise ValueError("metric_bars needs at least one matrix and one metric")
    stack = as_confusion(np.stack([np.asarray(v, dtype=float) for v in matrices.values()]))
    values = {name: [] for name in matrices}
    scores = {label: np.atleast_1d(f(stack)) for label, f in metrics.items()}
    for k, name in enumerate(matrices):
        values[name] = np.array([scores[label][k] for label in metrics])
    fig, ax = _axes(ax, (1.6 + 1.5 * len(metrics), 3.2))
    _grouped_bars(ax, list(metrics), values, "score")
    # Four significant digits: scores such as 0.9986 and 0.999 must not print alike.
    for text in list(ax.texts):
        text.remove()
    for bars in ax.containers:
        ax.bar_label(bars, fmt="%.4g", fontsize=8, padding=1)
    ax.legend(frameon=False, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    ax.set_xlabel("metric")
    ax.set_ylim(*ylim)
    if title:
        ax.set_title(title)
    return fig


def chance_strips(
    scores: dict,
    n: int,
    *,
    metric_names=("macro recall", "macro precision"),
    ax=None,
    title: str | None = None,
):
    """Strips of simulated scores of random classifiers, one panel per metric, line at 1/n.

    Parameters
    ----------
    scores : dict of str to array_like, shape (n_metrics, k)
        For each random classifier (its name), the metric values on ``k`` simulated data sets.
    n : int
        Number of classes; the dashed line marks the chance baseline :math:`1/n`.
    """
    k_metrics = len(metric_names)
    if ax is None:
        fig, axes = plt.subplots(
            1, k_metrics, figsize=(3.3 * k_metrics + 0.6, 3.2), layout="constrained", sharey=True
        )
    else:
        axes = np.atleast_1d(ax)
        fig = axes[0].figure
    rng = np.random.default_rng(0)  # jitter only, for legibility
    for q, (panel, metric) in enumerate(zip(np.atleast_1d(axes), metric_names, strict=True)):
        for x, (_name, values) in enumerate(scores.items()):
            v = np.asarray(values, dtype=float)[q]
            jitter = rng.uniform(-0.18, 0.18, size=v.shape)
            panel.scatter(
                x + jitter,
                v,
                s=8,
                alpha=0.5,
                color=_COLOURS[x % len(_COLOURS)],
                edgecolors="none",
            )
        panel.axhline(1 / n, color="black", linestyle="--", linewidth=1, label=f"1/n = 1/{n}")
        panel.set_xticks(range(len(scores)), list(scores), rotation=20, ha="right")
        panel.set_xlabel("random classifier (prediction distribution)")
        panel.set_ylabel(metric)
        panel.legend(frameon=False, loc="upper right")
    if title:
        fig.suptitle(title)
    return fig


def precision_gap_curves(ns=(2, 3, 5, 10), ts=None, *, ax=None, title: str | None = None):
    r"""Gap :math:`macP(m\lambda) - macP(m)` of the footnote-7 construction against ``t``.

    One line per number of classes ``n``, computed with the library on
    :func:`clfbook.sources.search.precision_gap_construction`; the dashed lines mark
    the supremum :math:`1 - 1/n`.
    """
    ts = np.logspace(0, 4, 60) if ts is None else np.asarray(ts, dtype=float)
    fig, ax = _axes(ax, (5.8, 3.6))
    for k, n in enumerate(ns):
        m, lam = precision_gap_construction(n, ts)
        gap = _macro_precision(prevalence_scale(m, lam), 0.0) - _macro_precision(m, 0.0)
        colour = _COLOURS[k % len(_COLOURS)]
        ax.plot(ts, gap, color=colour, label=f"n = {n}")
        ax.axhline(1 - 1 / n, color=colour, linestyle="--", linewidth=1)
    ax.set_xscale("log")
    ax.set_xlabel("t (errors per cell in the first column; class 1 shrunk by 1/t²)")
    ax.set_ylabel("macP(mλ) − macP(m)")
    ax.set_ylim(0, 1)
    ax.legend(frameon=False, loc="lower right")
    if title:
        ax.set_title(title)
    return fig


def weighted_vs_accuracy(stack, *, ax=None, title: str | None = None):
    """Scatter of weighted F1 and of macro F1 against accuracy over a stack of matrices.

    Weighted F1 hugs the diagonal (it weights classes by prevalence, like
    accuracy); macro F1 spreads away from it.
    """
    stack = as_confusion(stack, name="stack")
    if stack.ndim != 3:
        raise ValueError(f"stack must have shape (k, n, n); got {stack.shape}")
    acc = _accuracy(stack)
    fig, ax = _axes(ax, (4.6, 4.2))
    ax.scatter(
        acc,
        _macro_f1(stack, 0.0),
        s=8,
        alpha=0.45,
        color=OKABE_ITO[0],
        marker="^",
        edgecolors="none",
        label="macro F1",
    )
    ax.scatter(
        acc,
        _weighted_f1(stack, 0.0),
        s=8,
        alpha=0.6,
        color=OKABE_ITO[4],
        edgecolors="none",
        label="weighted F1",
    )
    ax.plot([0, 1], [0, 1], color="black", linewidth=1, linestyle="--", label="y = accuracy")
    ax.set_xlabel("accuracy")
    ax.set_ylabel("score")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.legend(frameon=False, loc="upper left")
    if title:
        ax.set_title(title)
    return fig
