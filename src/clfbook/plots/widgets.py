"""Figures that the interactive widgets redraw in place.

Every ``live_*`` function draws a figure from plain numbers and returns
``(fig, update)``: ``update(...)`` moves the existing artists to new data
(bar heights, line data, text) instead of re-plotting, which keeps an edit in
a widget fast. The artists that move are marked *animated*, and ``update``
returns True only when something static (an axis range) changed as well, so
a widget can redraw by blitting the moving artists over a cached background
(see ``clfbook.widgets._base.FigureImage``). The figures are plain
``matplotlib.figure.Figure`` objects with an Agg canvas, not registered
with pyplot, so creating a widget never makes Jupyter's inline backend print
a stray copy; return one as the last
expression of a cell (without ``;``) to show it. Colours come from Okabe &
Ito's colour-blind-safe palette and every axis is labelled. Convention where a
matrix is involved: ``m[i, j]`` = predicted ``i``, true ``j``.
"""

from __future__ import annotations

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from clfmetrics._base.checks import fill_value
from clfmetrics.metrics._classwise import _f1, _precision, _recall

from .basic import OKABE_ITO, _labels, _single

__all__ = [
    "EXPLORER_TITLE",
    "classwise_figure",
    "live_classwise_bars",
    "live_curves",
    "live_histograms",
    "live_metric_comparison",
]

#: Title of the confusion-matrix explorer's figure.
EXPLORER_TITLE = "per-class precision, recall, F1"


def _figure(figsize) -> Figure:
    fig = Figure(figsize=figsize, layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def live_classwise_bars(scores: dict, names, *, title: str | None = None):
    """Grouped bars of per-class scores in [0, 1] (e.g. precision, recall, F1), value on top.

    Parameters
    ----------
    scores : dict of str -> array of shape (n,)
        One bar series per entry, e.g. ``{"precision": P, "recall": R, "F1": F}``.
    names : list of str
        The ``n`` class names (x axis).
    title : str, optional

    Returns
    -------
    fig : matplotlib.figure.Figure
    update : callable
        ``update(scores)`` with the same keys and class count sets the bar heights and labels
        (returns False: the axes never change).
    """
    fig = _figure((5.5, 3.0))
    ax = fig.add_subplot()
    k, n = len(scores), len(names)
    x = np.arange(n)
    width = 0.8 / k
    series = []
    for s, (label, values) in enumerate(scores.items()):
        xs = x + (s - (k - 1) / 2) * width
        bars = ax.bar(
            xs,
            values,
            width,
            label=label,
            color=OKABE_ITO[s % len(OKABE_ITO)],
            edgecolor="black",
            linewidth=0.5,
        )
        texts = [
            ax.text(xi, 0, "", ha="center", va="bottom", fontsize=8, animated=True) for xi in xs
        ]
        for bar in bars:
            bar.set_animated(True)
        series.append((label, bars, texts))
    ax.set_xticks(x, names)
    ax.set_xlabel("class (predicted row i / true column i)")
    ax.set_ylabel("score")
    ax.set_ylim(0, 1.15)
    ax.legend(frameon=False, ncols=k, loc="upper center")
    if title:
        ax.set_title(title)

    def update(new_scores: dict) -> None:
        for label, bars, texts in series:
            values = np.asarray(new_scores[label], dtype=float)
            for bar, text, v in zip(bars, texts, values, strict=True):
                h = 0.0 if np.isnan(v) else float(v)
                bar.set_height(h)
                text.set_y(h + 0.01)
                text.set_text("nan" if np.isnan(v) else f"{v:.2f}")
        return False

    update(scores)
    return fig, update


def classwise_figure(m, labels=None, *, zero_division=0):
    """The confusion-matrix explorer's figure for ``m``: per-class P, R and F1 bars.

    ``P_i = m[i, i] / bias(i)``, ``R_i = m[i, i] / prevalence(i)``, ``F1_i = H(P_i, R_i)``;
    undefined ratios count as ``zero_division``. Rows of ``m`` are predictions, columns the
    truth. Use it for a static picture of the explorer's state (no widget is created).

    Returns
    -------
    matplotlib.figure.Figure
    """
    m = _single(m)
    fill = fill_value(zero_division)
    scores = {"precision": _precision(m, fill), "recall": _recall(m, fill), "F1": _f1(m, fill)}
    return live_classwise_bars(scores, _labels(labels, m.shape[0]), title=EXPLORER_TITLE)[0]


def live_metric_comparison(names, before, after, *, labels=("unscaled", "scaled")):
    """Horizontal bar pairs: each metric before and after a change (e.g. prevalence scaling).

    Parameters
    ----------
    names : list of str
        Metric names (y axis).
    before, after : array_like of shape (len(names),)
        The scores of the original and the changed matrix.
    labels : pair of str
        Legend entries for ``before`` and ``after``.

    Returns
    -------
    fig : matplotlib.figure.Figure
    update : callable
        ``update(before, after)`` sets the bar widths; returns True when the score axis
        had to be widened (negative scores) or narrowed.
    """
    fig = _figure((5.5, 0.35 * len(names) + 1.2))
    ax = fig.add_subplot()
    y = np.arange(len(names))
    h = 0.4
    bars_before = ax.barh(y - h / 2, before, h, label=labels[0], color=OKABE_ITO[4])
    bars_after = ax.barh(
        y + h / 2,
        after,
        h,
        label=labels[1],
        color=OKABE_ITO[0],
        hatch="//",
        edgecolor="black",
        linewidth=0.3,
    )
    ax.set_yticks(y, names)
    ax.invert_yaxis()
    ax.axvline(0, color="black", linewidth=0.6)
    ax.set_xlabel("score")
    ax.set_ylabel("metric")
    ax.legend(frameon=False, loc="lower right")
    for bar in (*bars_before, *bars_after):
        bar.set_animated(True)
    ax.set_xlim(-0.05, 1.05)

    def update(new_before, new_after) -> bool:
        vals = np.concatenate([np.asarray(new_before, float), np.asarray(new_after, float)])
        for bars, values in ((bars_before, new_before), (bars_after, new_after)):
            for bar, v in zip(bars, values, strict=True):
                bar.set_width(0.0 if np.isnan(v) else float(v))
        low = min(0.0, float(np.nanmin(vals))) if np.isfinite(vals).any() else 0.0
        # Widen the axis for negative scores, shrink it back only when far off: few full draws.
        current = ax.get_xlim()[0] + 0.05
        if low < current or low > current + 0.5:
            ax.set_xlim(low - 0.05, 1.05)
            return True
        return False

    update(before, after)
    return fig, update


def live_curves(
    x,
    curves: dict,
    *,
    xlabel: str,
    ylabel: str,
    marker=None,
    hlines=None,
    title: str | None = None,
    xlim=None,
    ylim=None,
):
    """Lines of several quantities over a common x, an optional vertical marker and guides.

    Parameters
    ----------
    x : array_like of shape (k,)
    curves : dict of str -> array_like of shape (k,)
        One line per entry (colour and line style both differ, so colour is not the only cue).
    xlabel, ylabel : str
    marker : float, optional
        x position of a vertical line marking the current state.
    hlines : dict of str -> float, optional
        Labelled horizontal guides (e.g. a supremum).
    title : str, optional
    xlim, ylim : pair of float, optional
        Fixed axis ranges. An axis without one follows the data with slack: it is
        rescaled only when the data leave it or shrink to under a quarter of it, so most
        updates only move the lines (fast blitting).

    Returns
    -------
    fig : matplotlib.figure.Figure
    update : callable
        ``update(curves, x=None, marker=None)`` sets the line data (same keys); returns True
        when the axes were rescaled.
    """
    fig = _figure((5.5, 3.2))
    ax = fig.add_subplot()
    styles = ("-", "--", "-.", ":")
    lines = {}
    for s, (label, ys) in enumerate(curves.items()):
        (lines[label],) = ax.plot(
            x,
            ys,
            styles[s % 4],
            marker="o",
            markersize=3,
            label=label,
            color=OKABE_ITO[(s + 4) % len(OKABE_ITO)],
            animated=True,
        )
    for label, yv in (hlines or {}).items():
        ax.axhline(yv, color="grey", linestyle=":", linewidth=1)
        ax.annotate(
            label,
            (0.01, yv),
            xycoords=("axes fraction", "data"),
            fontsize=8,
            va="bottom",
            color="dimgray",
        )
    vline = ax.axvline(
        marker if marker is not None else 0, color="black", linewidth=0.8, animated=True
    )
    vline.set_visible(marker is not None)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    # A fixed place outside the axes: "best" would be searched on every full draw.
    ax.legend(frameon=False, fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    if title:
        ax.set_title(title)
    state = {"x": np.asarray(x, dtype=float)}

    def update(new_curves: dict, x=None, marker=None) -> bool:
        if x is not None:
            state["x"] = np.asarray(x, dtype=float)
        for label, line in lines.items():
            line.set_data(state["x"], np.asarray(new_curves[label], dtype=float))
        if marker is not None:
            vline.set_xdata([marker, marker])
            vline.set_visible(True)
        ys = np.concatenate([np.asarray(v, dtype=float).ravel() for v in new_curves.values()])
        rescaled = False
        if xlim is None:
            rescaled |= _follow(ax.get_xlim, ax.set_xlim, state["x"], min_span=10.0)
        if ylim is None:
            rescaled |= _follow(ax.get_ylim, ax.set_ylim, ys, min_span=0.1)
        return rescaled

    if xlim is not None:
        ax.set_xlim(*xlim)
    if ylim is not None:
        ax.set_ylim(*ylim)
    update(curves, marker=marker)

    return fig, update


def _follow(get, set_, values, *, min_span: float) -> bool:
    """Fit an axis to ``values`` with generous slack; True if it had to change."""
    values = values[np.isfinite(values)]
    if not len(values):
        return False
    lo, hi = float(values.min()), float(values.max())
    cur_lo, cur_hi = get()
    if lo >= cur_lo and hi <= cur_hi and max(hi - lo, min_span) >= 0.25 * (cur_hi - cur_lo):
        return False
    span = max(hi - lo, min_span)
    set_(lo - 0.1 * span, lo + 1.6 * span)
    return True


def live_histograms(bins: dict, guides: dict | None = None, *, ncols: int = 3):
    """One histogram panel per metric, with fixed bins, so new samples only change bar heights.

    Parameters
    ----------
    bins : dict of str -> array_like
        Bin edges per metric (e.g. ``np.linspace(0, 1, 41)``).
    guides : dict of str -> float or None, optional
        A vertical reference line per metric (e.g. the chance baseline ω(n)); None for none.
    ncols : int
        Panels per row.

    Returns
    -------
    fig : matplotlib.figure.Figure
    update : callable
        ``update(scores)`` with ``scores[name]`` an array of samples; heights are shares of
        samples. Returns True when a panel's height range had to change.
    """
    names = list(bins)
    nrows = -(-len(names) // ncols)
    fig = _figure((3.0 * ncols, 2.2 * nrows))
    axes = fig.subplots(nrows, ncols, squeeze=False).ravel()
    panels = {}
    for ax, name in zip(axes, names, strict=False):
        edges = np.asarray(bins[name], dtype=float)
        # One filled step patch per panel (not one patch per bin): a redraw moves one artist.
        bars = ax.stairs(
            np.zeros(len(edges) - 1), edges, fill=True, color=OKABE_ITO[4], animated=True
        )
        mean_line = ax.axvline(
            0, color=OKABE_ITO[5], linestyle="--", linewidth=1.2, label="mean", animated=True
        )
        guide = (guides or {}).get(name)
        if guide is not None:
            ax.axvline(guide, color="black", linestyle=":", linewidth=1.5, label="ω(n)", zorder=5)
        ax.set_title(name, fontsize=9)
        ax.set_xlabel("score", fontsize=8)
        ax.set_ylabel("share of data sets", fontsize=8)
        ax.tick_params(labelsize=7)
        ax.set_xlim(edges[0], edges[-1])
        ax.set_ylim(0, 1)
        ax.legend(frameon=False, fontsize=7, loc="upper right")
        panels[name] = (ax, edges, bars, mean_line)
    for ax in axes[len(names) :]:
        ax.set_visible(False)

    def update(scores: dict) -> bool:
        rescaled = False
        for name, (ax, edges, bars, mean_line) in panels.items():
            values = np.asarray(scores[name], dtype=float)
            values = values[np.isfinite(values)]
            counts, _ = np.histogram(np.clip(values, edges[0], edges[-1]), bins=edges)
            share = counts / max(len(values), 1)
            bars.set_data(share)
            mean = float(values.mean()) if len(values) else np.nan
            mean_line.set_xdata([mean, mean])
            top = max(float(share.max()), 0.05)
            # Rescale only when bars would be clipped or look flat, with headroom, so most
            # updates just blit.
            if top > ax.get_ylim()[1] or top < 0.4 * ax.get_ylim()[1]:
                ax.set_ylim(0, 1.3 * top)
                rescaled = True
        return rescaled

    return fig, update
