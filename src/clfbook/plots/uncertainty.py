"""Figures for the chapter on inference: coverage, spread, sample size, assumptions."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from .basic import OKABE_ITO

__all__ = [
    "coverage_plot",
    "sample_size_plot",
    "seed_spread_plot",
    "selection_plot",
    "spread_check_plot",
]

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


def spread_check_plot(fresh_sd: dict, bootstrap_sds: dict, *, ax=None):
    """The bootstrap's standard error against the spread over fresh test sets, per metric.

    ``fresh_sd`` maps a metric name to the standard deviation of the metric over
    fresh test sets from the population; ``bootstrap_sds`` maps the same names to
    the bootstrap standard errors computed on each of those test sets (one per
    test set). Each metric gets a box of the bootstrap values and a diamond at the
    fresh spread.
    """
    if not fresh_sd or set(fresh_sd) != set(bootstrap_sds):
        raise ValueError("fresh_sd and bootstrap_sds must name the same, non-empty metrics")
    fig, ax = _axes(ax)
    names = list(fresh_sd)
    pos = np.arange(len(names))
    ax.boxplot(
        [np.asarray(bootstrap_sds[k], dtype=float) for k in names],
        positions=pos,
        widths=0.5,
        whis=(5, 95),
        showfliers=False,
        patch_artist=True,
        boxprops={"facecolor": OKABE_ITO[2], "alpha": 0.5},
        medianprops={"color": "black"},
    )
    ax.plot([], [], color=OKABE_ITO[2], lw=8, alpha=0.5, label="bootstrap, one per test set")
    ax.scatter(
        pos,
        [fresh_sd[k] for k in names],
        marker="D",
        color=OKABE_ITO[5],
        zorder=3,
        label="spread over fresh test sets",
    )
    ax.set_xticks(pos, [k.replace("_", " ") for k in names])
    ax.set_ylabel("standard error of the metric")
    ax.legend(frameon=False, fontsize="small")
    return fig


def selection_plot(n_models, best_on_test, best_on_fresh, true_value, *, ax=None):
    """Score of the best of ``k`` equally good models on the test set that chose it.

    ``best_on_test[k]`` is the mean test score of the model that scored best among
    ``n_models[k]``; ``best_on_fresh[k]`` that model's mean score on a fresh test
    set; ``true_value`` the accuracy every model has in the population.
    """
    fig, ax = _axes(ax)
    k = np.asarray(n_models, dtype=float)
    ax.axhline(true_value, color="black", ls="--", lw=1, label="every model's true score")
    ax.plot(k, best_on_test, marker="o", color=OKABE_ITO[5], label="best model, on the test set")
    ax.plot(
        k, best_on_fresh, marker="s", color=OKABE_ITO[2], label="same model, on a fresh test set"
    )
    ax.set_xscale("log")
    ax.set_xticks(k, [f"{v:.0f}" for v in k])
    ax.minorticks_off()
    ax.set_xlabel("models tried on the same test set")
    ax.set_ylabel("accuracy")
    ax.legend(frameon=False, fontsize="small")
    return fig


def seed_spread_plot(scores, interval, *, metric="macro F1", ax=None):
    """Scores of one recipe trained with different seeds, against one run's interval.

    ``scores`` holds one test score per training seed; ``interval`` is the
    bootstrap interval (an object with ``estimate``, ``low``, ``high``) of the
    first seed's model, which holds that model fixed.
    """
    values = np.asarray(scores, dtype=float)
    if values.ndim != 1 or values.size < 2:
        raise ValueError("scores must hold one score per training seed, at least two")
    fig, ax = _axes(ax)
    ax.errorbar(
        [0],
        [interval.estimate],
        yerr=[[interval.estimate - interval.low], [interval.high - interval.estimate]],
        fmt="o",
        color=OKABE_ITO[5],
        capsize=6,
        label="one model, bootstrap interval",
    )
    jitter = np.linspace(-0.15, 0.15, values.size)
    ax.scatter(1 + jitter, values, color=OKABE_ITO[2], label="one model per training seed")
    ax.set_xticks([0, 1], ["first seed:\ntest items resampled", "every seed:\nmodel retrained"])
    ax.set_xlim(-0.6, 1.6)
    ax.set_ylabel(f"{metric} on the same test set")
    ax.legend(frameon=False, fontsize="small", loc="lower center")
    return fig
