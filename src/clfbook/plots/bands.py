"""Curves with their uncertainty: bands on ROC and precision-recall curves, operating points.

Each function draws what the library computed (it recomputes nothing):

- :func:`band_on_axes` draws a :class:`clfmetrics.inference.Band` (from
  :func:`~clfmetrics.inference.roc_band` or :func:`~clfmetrics.inference.pr_band`) as a
  shaded band under its line; the legend says whether the band is simultaneous
  or pointwise and its level.
- :func:`roc_band_figure` and :func:`pr_band_figure` draw one or more bands with
  the guides of :mod:`clfbook.plots.curves` (diagonal, prevalence).
- :func:`operating_point` draws the exact intervals of a threshold's rates (from
  :func:`~clfmetrics.inference.rates_at_threshold`) as a cross at the point:
  on the ROC curve false positive rate ``1 - specificity`` and sensitivity, on
  the precision-recall curve sensitivity (recall) and precision.
- :func:`selection_range` marks the stretch of a curve swept by the
  thresholds inside the interval of a chosen threshold (from
  :func:`~clfmetrics.inference.tuned_threshold_interval`).

Axes are labelled, ticks fall on round values (0, 0.2, ..., 1), colours come
from the Okabe & Ito palette with a line style per curve.
"""

from __future__ import annotations

import numpy as np

from .basic import OKABE_ITO
from .curves import _STYLES, _axes

__all__ = [
    "band_label",
    "band_on_axes",
    "operating_point",
    "pr_band_figure",
    "roc_band_figure",
    "selection_range",
]

_TICKS = np.linspace(0, 1, 6)


def band_label(band) -> str:
    """The legend text of a band, e.g. ``"95% simultaneous band"``."""
    kind = "simultaneous" if band.simultaneous else "pointwise"
    return f"{band.level:.0%} {kind} band"


def band_on_axes(
    ax, band, *, label: str = "curve", k: int = 0, step: bool = False, line: bool = True
):
    """Draw ``band`` on ``ax``: the band shaded, the observed curve as a line over it.

    Parameters
    ----------
    ax : matplotlib Axes
    band : clfmetrics.inference.Band
        ``x`` the grid, ``y`` the observed curve on it, ``low`` and ``high`` the band.
    label : str
        Name of the curve in the legend; the band's entry adds its kind and level.
    k : int
        Index of the curve (its colour and line style).
    step : bool
        Draw the curve as steps (precision-recall) rather than straight segments.
    line : bool
        Draw the observed curve on the grid; False when it is already drawn
        through its own points (the band alone is added).

    Returns
    -------
    (line, fill) : the Line2D of the curve (None without ``line``) and the
        PolyCollection of the band.
    """
    x, y = np.asarray(band.x, float), np.asarray(band.y, float)
    low, high = np.asarray(band.low, float), np.asarray(band.high, float)
    if not x.shape == y.shape == low.shape == high.shape:
        raise ValueError("a band needs x, y, low and high of one shape")
    color = OKABE_ITO[(k + 4) % len(OKABE_ITO)]
    where = "post" if step else None
    fill = ax.fill_between(
        x,
        low,
        high,
        color=color,
        alpha=0.25,
        lw=0,
        step=where,
        label=f"{label}: {band_label(band)}",
    )
    if not line:
        return None, fill
    drawstyle = "steps-post" if step else "default"
    (curve,) = ax.plot(
        x, y, lw=2, color=color, ls=_STYLES[k % len(_STYLES)], drawstyle=drawstyle, label=label
    )
    return curve, fill


def _square(ax, xlabel: str, ylabel: str, loc: str) -> None:
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_xlim(-0.02, 1.02)
    ax.set_ylim(-0.02, 1.02)
    ax.set_xticks(_TICKS)
    ax.set_yticks(_TICKS)
    ax.set_aspect("equal")
    ax.legend(frameon=False, fontsize=7, loc=loc)


def _check(bands) -> None:
    if not isinstance(bands, dict) or not bands:
        raise ValueError("bands must be a non-empty dict of label -> Band")


def roc_band_figure(bands: dict, *, ax=None):
    """ROC curves with their bands (from :func:`clfmetrics.inference.roc_band`) and the diagonal.

    Parameters
    ----------
    bands : dict of str -> Band
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib.figure.Figure
    """
    _check(bands)
    fig, ax = _axes(ax, (4.4, 4.2))
    ax.plot([0, 1], [0, 1], color="grey", lw=1, ls=":", label="chance (random guessing)")
    for k, (name, band) in enumerate(bands.items()):
        band_on_axes(ax, band, label=name, k=k)
    _square(
        ax,
        "false positive rate FP / N(negative)",
        "true positive rate TP / N(positive)",
        "lower right",
    )
    return fig


def pr_band_figure(bands: dict, *, baselines: dict | None = None, ax=None):
    """Precision-recall curves with their bands (from :func:`clfmetrics.inference.pr_band`).

    The band's grid reads the curve with the interpolation of Davis & Goadrich
    (2006), so it is drawn through the grid points, not as steps.

    Parameters
    ----------
    bands : dict of str -> Band
    baselines : dict of str -> float, optional
        Labelled horizontal guides, e.g. the prevalence (random guessing).
    ax : matplotlib Axes, optional
    """
    _check(bands)
    fig, ax = _axes(ax, (4.4, 4.2))
    for k, (name, y) in enumerate((baselines or {}).items()):
        ax.axhline(y, color="grey", lw=1, ls=_STYLES[(k + 3) % len(_STYLES)], label=name)
    for k, (name, band) in enumerate(bands.items()):
        band_on_axes(ax, band, label=name, k=k)
    _square(ax, "recall TP / N(positive)", "precision TP / (TP + FP)", "lower left")
    return fig


def _rate_xy(rates: dict, curve: str):
    """(estimate, low, high) of the horizontal and the vertical coordinate."""
    sens = rates["sensitivity"]
    if curve == "roc":
        spec = rates["specificity"]
        x = (1 - spec.estimate, 1 - spec.high, 1 - spec.low)
        return x, (sens.estimate, sens.low, sens.high)
    if curve == "pr":
        prec = rates["precision"]
        return (sens.estimate, sens.low, sens.high), (prec.estimate, prec.low, prec.high)
    raise ValueError(f"curve must be 'roc' or 'pr'; got {curve!r}")


def operating_point(ax, rates: dict, *, curve: str = "roc", label: str = "threshold", k: int = 1):
    """The operating point of a threshold with its exact intervals, as a cross of error bars.

    Parameters
    ----------
    ax : matplotlib Axes
    rates : dict of str -> Interval
        As returned by :func:`clfmetrics.inference.rates_at_threshold`.
    curve : {"roc", "pr"}
        ROC: horizontal false positive rate ``1 - specificity`` (its interval
        ``[1 - high, 1 - low]``), vertical sensitivity. PR: horizontal
        sensitivity (recall), vertical precision.
    label : str
    k : int
        Colour index.

    Returns
    -------
    matplotlib.container.ErrorbarContainer
    """
    (x, x_low, x_high), (y, y_low, y_high) = _rate_xy(rates, curve)
    level = rates["sensitivity"].level
    return ax.errorbar(
        [x],
        [y],
        xerr=[[x - x_low], [x_high - x]],
        yerr=[[y - y_low], [y_high - y]],
        fmt="o",
        ms=6,
        color=OKABE_ITO[(k + 4) % len(OKABE_ITO)],
        mec="black",
        capsize=4,
        lw=1.5,
        zorder=4,
        label=f"{label}, {level:.0%} exact intervals",
    )


def selection_range(ax, thresholds, xs, ys, interval, *, label: str = "selection interval"):
    """Mark the points of a sweep whose threshold lies in ``interval`` (a chosen threshold's).

    Parameters
    ----------
    ax : matplotlib Axes
    thresholds, xs, ys : array_like of shape (K,)
        The sweep's thresholds and the curve's coordinates at each (e.g. from
        :func:`clfmetrics.scores.roc_curve`).
    interval : Interval
        ``interval.low`` and ``interval.high`` bound the thresholds to mark, e.g.
        ``tuned_threshold_interval(...)["threshold"]``.

    Returns
    -------
    Line2D
        The marked stretch (empty if no threshold of the sweep lies inside).
    """
    t = np.asarray(thresholds, dtype=float)
    xs, ys = np.asarray(xs, float), np.asarray(ys, float)
    if not t.shape == xs.shape == ys.shape:
        raise ValueError("thresholds, xs and ys need one entry per point of the sweep")
    inside = (t >= interval.low) & (t <= interval.high)
    (line,) = ax.plot(
        xs[inside],
        ys[inside],
        color="black",
        lw=5,
        alpha=0.35,
        solid_capstyle="round",
        zorder=3,
        label=f"{label}: t in [{interval.low:.2f}, {interval.high:.2f}]",
    )
    return line
