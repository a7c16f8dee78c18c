"""Figures for the chapters on kappa and MCC, recall variants and the F-measure paradox.

Every function labels its axes, uses the colour-blind-safe Okabe & Ito palette
(plus line styles and markers, so colour is never the only cue) and returns
the figure. Convention: ``m[i, j]`` = predicted ``i``, true ``j``.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from clfmetrics._base.checks import as_confusion
from clfmetrics.metrics._agreement import _kappa, _mcc
from clfmetrics.metrics._averages import _as_exponent, _as_values, _power_mean

from ..sources.paradox import scores_from_counts
from .basic import OKABE_ITO, _axes

__all__ = ["error_trace", "power_mean_curves", "undefined_map"]


def error_trace(m, cell, steps: int = 40, *, labels=None, marks=(), ax=None):
    """MCC and kappa as errors are added one at a time to one cell of ``m``.

    Parameters
    ----------
    m : array_like, shape (n, n)
        Start matrix; ``m[i, j]`` = predicted ``i``, true ``j``.
    cell : tuple (i, j)
        The cell that receives the errors (``i != j``).
    steps : int
        Number of errors added (the x axis runs from 0 to ``steps``).
    labels : sequence of str, optional
        Class names, used in the x-axis label.
    marks : sequence of int
        Numbers of added errors to highlight with a vertical line.
    """
    m = as_confusion(m)
    if m.ndim != 2:
        raise ValueError(f"error_trace needs one matrix (n, n); got shape {m.shape}")
    n = m.shape[0]
    i, j = cell
    if not (0 <= i < n and 0 <= j < n) or i == j:
        raise ValueError(f"cell must be an off-diagonal index pair of a {n}x{n} matrix; got {cell}")
    if isinstance(steps, bool) or not isinstance(steps, (int, np.integer)) or steps < 1:
        raise ValueError(f"steps must be a positive integer; got {steps!r}")
    names = [str(k) for k in range(n)] if labels is None else [str(x) for x in labels]
    k = np.arange(steps + 1)
    stack = np.repeat(m[None], steps + 1, axis=0)
    stack[:, i, j] += k
    fig, ax = _axes(ax, (6, 3.4))
    ax.plot(k, _mcc(stack, 0.0), "-o", ms=3, color=OKABE_ITO[4], label="MCC")
    ax.plot(k, _kappa(stack, 0.0), "--s", ms=3, color=OKABE_ITO[5], label="Cohen's kappa")
    for x in marks:
        ax.axvline(x, color="grey", linestyle=":", linewidth=1)
    ax.axhline(0, color="black", linewidth=0.6)
    ax.set_xlabel(f"errors added to cell (predicted {names[i]}, true {names[j]})")
    ax.set_ylabel("score")
    ax.legend(frameon=False)
    return fig


def power_mean_curves(recalls: dict, p=None, *, ax=None):
    """Generalised mean of each classifier's class-wise recalls as a function of ``p``.

    Parameters
    ----------
    recalls : dict of str -> array_like, shape (n,)
        Class-wise recall vectors, one per classifier.
    p : array_like, optional
        Exponents on the x axis; default -10 .. 3. Dotted lines mark
        ``p = -1`` (harmonic), ``0`` (geometric) and ``1`` (arithmetic).
    """
    if not recalls:
        raise ValueError("recalls must name at least one classifier")
    p = np.linspace(-10, 3, 261) if p is None else _as_exponent(p)
    fig, ax = _axes(ax, (6, 3.4))
    styles = ["-", "--", "-.", ":"]
    for s, (name, r) in enumerate(recalls.items()):
        ax.plot(
            p,
            _power_mean(_as_values(r), p),
            styles[s % 4],
            color=OKABE_ITO[s % len(OKABE_ITO)],
            label=name,
            linewidth=2,
        )
    for x, what in [(-1, "harmonic"), (0, "geometric"), (1, "arithmetic")]:
        ax.axvline(x, color="grey", linestyle=":", linewidth=1)
        ax.annotate(
            what,
            (x, 1),
            xycoords=("data", "axes fraction"),
            rotation=90,
            va="top",
            ha="right",
            fontsize=8,
            color="dimgrey",
        )
    ax.set_xlabel("exponent p of the generalised mean")
    ax.set_ylabel("mean of class-wise recall")
    ax.legend(frameon=False, loc="lower right")
    return fig


def undefined_map(max_count: int = 4, *, tp: int = 0):
    """Where precision, recall and F1 are 0 and where they are undefined (NaN), over FP and FN.

    Three panels (precision, recall, F1) for a fixed ``tp``; each cell is
    annotated with its value under the NaN convention, and undefined cells are
    hatched, so the figure does not rely on colour.
    """
    if isinstance(max_count, bool) or not isinstance(max_count, (int, np.integer)):
        raise ValueError(f"max_count must be a positive integer; got {max_count!r}")
    if max_count < 1:
        raise ValueError(f"max_count must be a positive integer; got {max_count!r}")
    fp, fn = np.meshgrid(np.arange(max_count + 1), np.arange(max_count + 1), indexing="xy")
    scores = scores_from_counts(tp, fp, fn, convention="nan")
    fig, axes = plt.subplots(1, 3, figsize=(9, 3.8), layout="constrained", sharey=True)
    for ax, name, values in zip(axes, ["precision", "recall", "F1"], scores, strict=True):
        undefined = np.isnan(values)
        ax.imshow(np.where(undefined, 1.0, 0.0), cmap="cividis", vmin=0, vmax=1.6, origin="lower")
        for (r, c), v in np.ndenumerate(values):
            text = "NaN" if np.isnan(v) else f"{v:.2g}"
            ax.text(
                c,
                r,
                text,
                ha="center",
                va="center",
                fontsize=8,
                color="black" if np.isnan(v) else "white",
            )
            if np.isnan(v):
                ax.add_patch(
                    plt.Rectangle(
                        (c - 0.5, r - 0.5),
                        1,
                        1,
                        fill=False,
                        hatch="///",
                        edgecolor="dimgrey",
                        linewidth=0,
                    )
                )
        ax.set_title(f"{name} (TP = {tp})")
        ax.set_xlabel("FP (false positives)")
        ax.set_xticks(range(max_count + 1))
    axes[0].set_ylabel("FN (false negatives)")
    axes[0].set_yticks(range(max_count + 1))
    return fig
