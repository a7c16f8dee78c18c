"""Figures for choosing a threshold: where it cuts the two classes, and what tuning on test costs.

Each function draws on an ``Axes`` it is given (or a new pyplot figure), labels both axes,
uses the Okabe & Ito palette with a second cue besides colour (hatching, line style,
marker) and returns the figure. Convention: predict "positive" where ``score >= t``;
class order (negative, positive).
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from .basic import OKABE_ITO

__all__ = ["optimism_figure", "score_distributions", "seed_spread"]

_LINES = ("-", "--", "-.", ":")


def _axes(ax, figsize):
    if ax is None:
        _, ax = plt.subplots(figsize=figsize, layout="constrained")
    return ax.figure, ax


def score_distributions(
    y, scores, thresholds=None, *, bins=None, names=("negative", "positive"), ax=None
):
    """The scores of each class as a histogram of shares, with thresholds drawn on them.

    Each class's histogram sums to 1, so the share of a class's histogram at or right of
    a threshold ``t`` is that class's rate of "predicted positive": the true positive
    rate for the positives, the false positive rate for the negatives. The overlap of the
    two histograms is what the ROC curve traces as ``t`` moves.

    Parameters
    ----------
    y : array_like of 0/1, shape (N,)
        1 = positive.
    scores : array_like of shape (N,)
    thresholds : dict of str -> float, optional
        Labelled vertical lines, e.g. ``{"chosen on validation": 0.31}``.
    bins : int or sequence, optional
        Default: 21 bins of width 0.05 centred on 0, 0.05, ..., 1, each holding five
        two-decimal scores.
    names : pair of str
        What the negative and the positive class are called.
    ax : matplotlib Axes, optional
    """
    y, s = np.asarray(y), np.asarray(scores, dtype=float)
    if y.shape != s.shape or y.ndim != 1:
        raise ValueError(f"y and scores must be 1-d of equal length; got {y.shape}, {s.shape}")
    if not (np.any(y == 1) and np.any(y == 0)):
        raise ValueError("y must hold both classes (0 = negative, 1 = positive)")
    fig, ax = _axes(ax, (7, 3.6))
    edges = np.arange(-0.025, 1.05, 0.05) if bins is None else bins
    for k, (label, hatch) in enumerate(((0, "//"), (1, "\\\\"))):
        part = s[y == label]
        ax.hist(
            part,
            bins=edges,
            weights=np.full(len(part), 1 / len(part)),
            histtype="stepfilled",
            alpha=0.45,
            color=OKABE_ITO[(1, 5)[k]],
            hatch=hatch,
            edgecolor=OKABE_ITO[(1, 5)[k]],
            label=f"{names[k]} items ({len(part)})",
        )
    for k, (label, t) in enumerate((thresholds or {}).items()):
        tpr, fpr = np.mean(s[y == 1] >= t), np.mean(s[y == 0] >= t)
        ax.axvline(
            t,
            color="black",
            lw=1.5,
            linestyle=_LINES[k % 4],
            label=f"{label}: t = {t:.2f}, TPR {tpr:.2f}, FPR {fpr:.2f}",
        )
    ax.set_xlabel("score (predict positive where score ≥ t)")
    ax.set_ylabel("share of the class's items")
    ax.legend(frameon=False, fontsize=8)
    return fig


def optimism_figure(honest, tuned, *, metric: str = "score", axes=None):
    """The tuned-on-test score against the honest one, over many cuts of the data.

    Left: one dot per cut, the honest test score (threshold chosen on validation)
    against the score tuned on the test set itself, with the diagonal of no optimism.
    Right: a histogram of the optimism, tuned minus honest, with its mean.

    Parameters
    ----------
    honest, tuned : array_like of shape (S,)
        From :func:`clfbook.examples.screening.validation_choice`.
    metric : str
        Name of the metric, for the axis labels.
    axes : pair of matplotlib Axes, optional
    """
    honest, tuned = np.asarray(honest, dtype=float), np.asarray(tuned, dtype=float)
    if honest.shape != tuned.shape or honest.ndim != 1 or len(honest) == 0:
        raise ValueError("honest and tuned must be 1-d of equal, non-zero length")
    if axes is None:
        fig, axes = plt.subplots(1, 2, figsize=(8.5, 3.6), layout="constrained")
    else:
        fig = axes[0].figure
    left, right = axes
    lo, hi = min(honest.min(), tuned.min()), max(honest.max(), tuned.max())
    left.plot([lo, hi], [lo, hi], color="grey", lw=1, linestyle=":", label="no optimism")
    left.plot(honest, tuned, "o", ms=3.5, alpha=0.6, color=OKABE_ITO[4], label="one cut")
    left.set_xlabel(f"honest test {metric}\n(threshold chosen on validation)")
    left.set_ylabel(f"test {metric} tuned on the test set")
    left.legend(frameon=False, fontsize=8, loc="upper left")
    gap = tuned - honest
    right.hist(gap, bins=30, color=OKABE_ITO[0], edgecolor="white")
    right.axvline(gap.mean(), color="black", lw=1.5, linestyle="--", label=f"mean {gap.mean():.3f}")
    right.set_xlabel(f"optimism: tuned minus honest {metric}")
    right.set_ylabel("cuts of the data")
    right.legend(frameon=False, fontsize=8)
    return fig


def seed_spread(
    differences: dict,
    *,
    reference=None,
    metric_names=None,
    xlabel: str = "difference between the two models on a test set",
    ax=None,
):
    """Differences between two models across seeds: one row of dots per metric and source.

    Parameters
    ----------
    differences : dict of str -> dict of str -> array_like
        Source of variation (e.g. "every part redrawn") -> metric -> one difference per
        seed.
    reference : dict of str -> (estimate, low, high), optional
        Per metric, the difference and its interval on the chapter's own test set, drawn
        as a bar under the dots.
    metric_names : dict of str -> str, optional
        Display names of the metrics.
    xlabel : str
        Label of the horizontal axis; say which model is subtracted from which.
    ax : matplotlib Axes, optional
    """
    if not differences:
        raise ValueError("differences is empty: nothing to plot")
    metrics = list(next(iter(differences.values())))
    if any(list(d) != metrics for d in differences.values()):
        raise ValueError("every source must give the same metrics")
    names = metric_names or {}
    fig, ax = _axes(ax, (7, 1.0 + 0.9 * len(metrics)))
    n_rows = len(differences) + (reference is not None)
    width = 0.7 / n_rows
    for k, (source, per_metric) in enumerate(differences.items()):
        for row, name in enumerate(metrics):
            d = np.asarray(per_metric[name], dtype=float)
            y = row - 0.35 + width * (k + 0.5) + np.linspace(-0.2, 0.2, len(d)) * width
            ax.plot(
                d,
                y,
                "osD^"[k % 4],
                ms=4,
                alpha=0.7,
                color=OKABE_ITO[(4, 0, 2, 6)[k % 4]],
                label=source if row == 0 else None,
            )
    if reference is not None:
        for row, name in enumerate(metrics):
            estimate, low, high = reference[name]
            y = row + 0.35 - width / 2
            ax.plot(
                [low, high],
                [y, y],
                color="black",
                lw=2,
                label="this chapter's test set: 95 % interval" if row == 0 else None,
            )
            ax.plot([estimate], [y], "|", ms=10, color="black")
    ax.axvline(0, color="grey", lw=1, linestyle=":")
    ax.set_yticks(range(len(metrics)), [names.get(m, m) for m in metrics])
    ax.invert_yaxis()
    ax.set_xlabel(xlabel)
    ax.set_ylabel("metric")
    ax.legend(frameon=False, fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    return fig
