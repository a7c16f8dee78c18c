"""Figures for the chapter "Are the probabilities right?": reliability diagrams, ECE, scores.

Each function takes arrays computed elsewhere (by :mod:`clfmetrics.probabilities` or
the chapter), draws on a new pyplot figure, labels every axis, uses the Okabe &
Ito palette with a different marker and line style per series (colour is never
the only cue) and returns the figure.

"Calibration" here means calibrated probabilities (the observed frequency of the
event among items given probability :math:`q` is :math:`q`), not the *prevalence
calibration* of a confusion matrix (Opitz 2024).
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from .basic import OKABE_ITO

__all__ = [
    "corp_band_diagram",
    "ece_against_bins",
    "expected_scores",
    "reliability_band_diagram",
    "reliability_diagram",
]

_STYLES = ("-", "--", "-.", ":")
_MARKERS = ("o", "s", "^", "D")


def _style(k: int) -> dict:
    return {
        "color": OKABE_ITO[(k + 4) % len(OKABE_ITO)],
        "linestyle": _STYLES[k % len(_STYLES)],
        "marker": _MARKERS[k % len(_MARKERS)],
    }


def _series(curves: dict, name: str) -> None:
    if not isinstance(curves, dict) or not curves:
        raise ValueError(f"{name} must be a non-empty dict of label -> arrays")


def reliability_diagram(curves: dict, *, bins: int = 10, xlabel: str = "predicted probability"):
    """Observed frequency against mean predicted probability per bin, and the items per bin.

    Parameters
    ----------
    curves : dict of str -> (observed, predicted, counts)
        One entry per model, e.g. from :func:`clfmetrics.probabilities.reliability_curve`:
        the observed frequency of the event, the mean predicted probability and the
        number of items in each non-empty bin.
    bins : int
        Number of bins the curves were computed with (sets the width of the count bars).
    xlabel : str
        What the probability is of (e.g. "confidence: largest class probability").

    Returns
    -------
    matplotlib.figure.Figure
        Top panel: the curves and the diagonal of perfect calibration (points above it
        are under-confident, below it over-confident). Bottom panel: the count of each
        bin as a bar at the bin's mean predicted probability, labelled with its number.
    """
    _series(curves, "curves")
    fig, (top, bottom) = plt.subplots(
        2, 1, figsize=(5.2, 5.4), sharex=True, height_ratios=(3, 1.3), layout="constrained"
    )
    top.plot([0, 1], [0, 1], color="grey", lw=1, linestyle=":", label="perfectly calibrated")
    width = 0.8 / bins / len(curves)
    for k, (name, (observed, predicted, counts)) in enumerate(curves.items()):
        observed, predicted = np.asarray(observed, float), np.asarray(predicted, float)
        counts = np.asarray(counts)
        if not observed.shape == predicted.shape == counts.shape:
            raise ValueError(f"observed, predicted and counts of {name!r} differ in shape")
        style = _style(k)
        top.plot(predicted, observed, lw=1.5, ms=5, label=name, **style)
        x = predicted + (k - (len(curves) - 1) / 2) * width
        bars = bottom.bar(x, counts, width=width, color=style["color"], label=name)
        if len(curves) == 1:
            bottom.bar_label(bars, fontsize=7)
    top.set_ylabel("observed frequency")
    top.set_xlim(-0.02, 1.02)
    top.set_ylim(-0.02, 1.02)
    top.legend(frameon=False, fontsize=8, loc="upper left")
    bottom.set_xlabel(xlabel)
    bottom.set_ylabel("items per bin")
    return fig


def reliability_band_diagram(
    curves: dict, *, consistency: dict | None = None, xlabel: str = "predicted probability"
):
    """A reliability diagram with its uncertainty: per-bin intervals, consistency bands, counts.

    Parameters
    ----------
    curves : dict of str -> ReliabilityBand
        One entry per model, from :func:`clfmetrics.probabilities.reliability_band` with
        ``method="clopper-pearson"``: each bin's observed frequency is drawn with its
        exact interval as an error bar, so a bin of 2 items shows a long bar and a bin
        of 71 a short one.
    consistency : dict of str -> ReliabilityBand, optional
        For some of the same labels, the band of ``method="consistency"``: where a
        calibrated forecaster's observed frequency would fall (Bröcker & Smith 2007),
        drawn as a shaded bar around the diagonal at each bin.
    xlabel : str
        What the probability is of.

    Returns
    -------
    matplotlib.figure.Figure
        Top panel: diagonal, consistency bars, points with error bars. Bottom panel:
        the items per bin as labelled bars.
    """
    _series(curves, "curves")
    consistency = consistency or {}
    unknown = set(consistency) - set(curves)
    if unknown:
        raise ValueError(f"consistency names curves that are not drawn: {sorted(unknown)}")
    fig, (top, bottom) = plt.subplots(
        2, 1, figsize=(5.4, 5.8), sharex=True, height_ratios=(3, 1.3), layout="constrained"
    )
    top.plot([0, 1], [0, 1], color="grey", lw=1, linestyle=":", label="perfectly calibrated")
    width = 0.8 / max(len(c.counts) for c in curves.values()) / len(curves)
    for k, (name, rb) in enumerate(curves.items()):
        style = _style(k)
        if name in consistency:
            cb = consistency[name]
            if not np.array_equal(cb.counts, rb.counts):
                raise ValueError(f"the consistency band of {name!r} has other bins than its curve")
            top.bar(
                cb.predicted,
                cb.high - cb.low,
                bottom=cb.low,
                width=width * 0.9,
                color=style["color"],
                alpha=0.3,
                label=f"{name}: {cb.level:.0%} consistency band (if calibrated)",
            )
        observed = np.asarray(rb.observed, float)
        top.errorbar(
            rb.predicted,
            observed,
            yerr=[observed - rb.low, rb.high - observed],
            capsize=3,
            lw=1.2,
            ms=5,
            label=f"{name}, {rb.level:.0%} exact interval per bin",
            **style,
        )
        x = np.asarray(rb.predicted) + (k - (len(curves) - 1) / 2) * width
        bars = bottom.bar(x, rb.counts, width=width, color=style["color"], label=name)
        bottom.bar_label(bars, fontsize=6 if len(curves) > 1 else 7)
    top.set_ylabel("observed frequency")
    top.set_xlim(-0.02, 1.02)
    top.set_ylim(-0.02, 1.02)
    top.set_yticks(np.linspace(0, 1, 6))
    # Above the panel: the error bars of small bins reach every corner of it.
    top.legend(frameon=False, fontsize=7, loc="lower left", bbox_to_anchor=(0, 1.0))
    bottom.set_xticks(np.linspace(0, 1, 6))
    bottom.set_xlabel(xlabel)
    bottom.set_ylabel("items per bin")
    bottom.margins(y=0.25)
    return fig


def corp_band_diagram(bands: dict, *, xlabel: str = "predicted probability"):
    """CORP reliability curves with their bands, one panel per model, and where the items are.

    Parameters
    ----------
    bands : dict of str -> CORPBand
        One entry per model, from :func:`clfmetrics.probabilities.corp_band`. The curve (the
        isotonic fit at each stated probability, joined by straight lines, as
        scikit-learn's ``IsotonicRegression.predict`` reads it) is drawn over its
        band; with ``method="consistency"`` the band surrounds the diagonal (where a
        calibrated forecaster's curve would lie, point by point), with
        ``"confidence"`` the curve.
    xlabel : str
        What the probability is of.

    Returns
    -------
    matplotlib.figure.Figure
        Top row: diagonal, shaded band, the curve, and a cross where the curve is
        outside its band; above each panel its legend, titled with the model.
        Bottom row: a histogram of the stated probabilities (items per 0.05).
    """
    _series(bands, "bands")
    ticks = np.linspace(0, 1, 6)
    fig, axes = plt.subplots(
        2,
        len(bands),
        figsize=(3.3 * len(bands) + 0.6, 4.9),
        sharex=True,
        sharey="row",
        height_ratios=(3, 1),
        layout="constrained",
        squeeze=False,
    )
    for k, (name, band) in enumerate(bands.items()):
        x, y = np.asarray(band.predicted, float), np.asarray(band.observed, float)
        low, high = np.asarray(band.low, float), np.asarray(band.high, float)
        if not x.shape == y.shape == low.shape == high.shape == np.shape(band.counts):
            raise ValueError(f"predicted, observed, low, high and counts of {name!r} differ")
        top, bottom = axes[0, k], axes[1, k]
        style = _style(k)
        top.plot([0, 1], [0, 1], color="grey", lw=1, ls=":", label="perfectly calibrated")
        kind = "consistency band (if calibrated)" if band.method == "consistency" else "band"
        top.fill_between(
            x,
            low,
            high,
            color=style["color"],
            alpha=0.3,
            lw=0,
            label=f"{band.level:.0%} pointwise {kind}",
        )
        top.plot(
            x,
            y,
            lw=1.8,
            color=style["color"],
            ls=style["linestyle"],
            label="CORP curve (isotonic fit)",
        )
        out = (y < low) | (y > high)
        if out.any():
            top.plot(
                x[out],
                y[out],
                ls="none",
                marker="x",
                ms=5,
                mew=1.2,
                color=OKABE_ITO[7],
                label="outside the band",
            )
        top.set_xlim(-0.02, 1.02)
        top.set_ylim(-0.02, 1.02)
        top.set_xticks(ticks)
        top.set_yticks(ticks)
        # Above the panel, titled with the model: inside, it would cover a curve far
        # from the diagonal in either corner.
        top.legend(
            frameon=False,
            fontsize=7,
            loc="lower left",
            bbox_to_anchor=(0, 1.0),
            title=name,
            title_fontsize=9,
            alignment="left",
        )
        bottom.hist(x, bins=20, range=(0, 1), weights=band.counts, color=style["color"])
        bottom.set_xlabel(xlabel)
    axes[0, 0].set_ylabel("recalibrated probability")
    axes[1, 0].set_ylabel("items")
    return fig


def ece_against_bins(bins, values: dict, *, ylabel: str = "expected calibration error (ECE)"):
    """ECE against the number of bins, one line per model and binning strategy.

    Parameters
    ----------
    bins : array_like of int
        The numbers of bins.
    values : dict of str -> array_like
        Label -> the ECE at each number of bins.
    ylabel : str

    Returns
    -------
    matplotlib.figure.Figure
    """
    _series(values, "values")
    b = np.asarray(bins)
    fig, ax = plt.subplots(figsize=(6.4, 3.6), layout="constrained")
    for k, (name, v) in enumerate(values.items()):
        v = np.asarray(v, dtype=float)
        if v.shape != b.shape:
            raise ValueError(f"values of {name!r} need one number per entry of bins")
        ax.plot(b, v, lw=1.5, ms=4, label=name, **_style(k))
    ax.set_xlabel("number of bins")
    ax.set_ylabel(ylabel)
    ax.set_ylim(bottom=0)
    ax.legend(frameon=False, fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    return fig


def expected_scores(q, values: dict, *, truth: float):
    """Expected score of reporting probability ``q`` when the true probability is ``truth``.

    Parameters
    ----------
    q : array_like of shape (K,)
        Reported probabilities.
    values : dict of str -> array_like of shape (K,)
        Score name -> its expected value at each ``q``.
    truth : float
        The true probability, drawn as a vertical guide.

    Returns
    -------
    matplotlib.figure.Figure
    """
    _series(values, "values")
    q = np.asarray(q, dtype=float)
    fig, ax = plt.subplots(figsize=(6.4, 3.6), layout="constrained")
    for k, (name, v) in enumerate(values.items()):
        v = np.asarray(v, dtype=float)
        if v.shape != q.shape:
            raise ValueError(f"values of {name!r} need one number per entry of q")
        style = {**_style(k), "marker": None}
        ax.plot(q, v, lw=2, label=name, **style)
    ax.axvline(truth, color="grey", lw=1, linestyle=":")
    ax.annotate(
        f"honest report q = {truth:g}",
        (truth, 0.97),
        xycoords=("data", "axes fraction"),
        fontsize=8,
        ha="left",
        va="top",
        xytext=(3, 0),
        textcoords="offset points",
    )
    ax.set_xlabel("reported probability q of the positive class")
    ax.set_ylabel("expected score")
    ax.legend(frameon=False, fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    return fig
