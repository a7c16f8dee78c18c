"""The report's figures for its HTML file: curves with their uncertainty, as inline SVG.

With scores, the figures are the ROC and precision-recall curves with their
simultaneous bootstrap bands (:func:`clfmetrics.bands.roc_band`,
:func:`~clfmetrics.bands.pr_band`) and the reliability diagram with each bin's
Clopper-Pearson interval (:func:`clfmetrics.consistency.reliability_band`):
no number without its uncertainty, in a figure either. For a probability
matrix, the curves are one class against the rest (at most ``MOST_CURVES``
classes, the most common) and the reliability diagram is of the top-label
confidence. The bands' resamples use the report's seed, so the same report
gives the same bytes.
"""

from __future__ import annotations

import html

import numpy as np

from ._svg import Series, chart
from .bands import pr_band, roc_band
from .consistency import reliability_band

#: At most this many classes get a curve in a chart (one colour each); the table has all.
MOST_CURVES = 7
#: Points of the bands' grids.
GRID = 101


def _figure(svg: str, caption: str) -> str:
    return f"<figure>{svg}<figcaption>{html.escape(caption)}</figcaption></figure>"


def score_figures(summary, seed) -> list[str]:
    """ROC, precision-recall and reliability figures of a report's scores, or [] without."""
    if summary is None:
        return []
    truth, scores, level, size = summary.truth, summary.scores, summary.level, summary.size
    rng = np.random.default_rng(seed if isinstance(seed, int) else None)
    labels = summary.labels
    if summary.binary:
        scored = [(summary.labels.index(summary.positive), scores)]
    else:
        support = np.bincount(truth, minlength=len(labels))
        order = np.argsort(-support, kind="stable")[:MOST_CURVES]
        scored = [(int(k), scores[:, k]) for k in sorted(order)]
    scored = [(k, s) for k, s in scored if 0 < (truth == k).sum() < len(truth)]
    shown = (
        ""
        if summary.binary or len(scored) == len(labels)
        else (
            f" The {len(scored)} most common classes of {len(labels)} are drawn; "
            "the table lists all."
        )
    )
    lv = f"{level:.0%}"
    rocs, prs = [], []
    for k, s in scored:
        y = (truth == k).astype(np.int64)
        kw = {"level": level, "size": size, "grid": GRID, "pos_label": 1, "rng": rng}
        rocs.append(Series(str(labels[k]), *_band(roc_band(y, s, **kw))))
        prs.append(Series(str(labels[k]), *_band(pr_band(y, s, **kw))))
    out = []
    if rocs:
        what = "class " + rocs[0].label if summary.binary else "each class against the rest"
        desc = (
            f"ROC curve of {what}: true positive rate against false positive rate, with a {lv} "
            f"simultaneous bootstrap band ({size} resamples); the dashed diagonal is chance."
        )
        svg = chart(rocs, title="ROC curve", xlabel="false positive rate",
                    ylabel="true positive rate", desc=desc, ident="roc",
                    reference=((0, 0), (1, 1)))  # fmt: skip
        out.append(_figure(svg, desc + shown))
        desc = (
            f"Precision-recall curve of {what}, with a {lv} simultaneous bootstrap band; "
            "a classifier without skill has precision equal to the class's prevalence."
        )
        base = float((truth == scored[0][0]).mean())
        svg = chart(prs, title="Precision-recall curve", xlabel="recall", ylabel="precision",
                    desc=desc, ident="pr", legend="lower left",
                    reference=((0, base), (1, base)) if summary.binary else None)  # fmt: skip
        out.append(
            _figure(
                svg,
                desc + (f" Dashed: prevalence {base:.3f}." if summary.binary else "") + shown,
            )
        )
    if summary.probabilities:
        if summary.binary:
            y, stated = (truth == scored[0][0]).astype(np.int64), scores
        else:  # top-label: was the most probable class the true one, at that probability
            y, stated = (np.argmax(scores, axis=1) == truth).astype(np.int64), scores.max(axis=1)
        band = reliability_band(y, stated, bins=10, level=level, pos_label=1)
        which = f"class {labels[scored[0][0]]}" if summary.binary else "the top-label confidence"
        desc = (
            f"Reliability diagram of {which}: observed frequency against mean stated probability "
            f"in 10 equal-width bins, each with its {lv} Clopper-Pearson interval; the dashed "
            "diagonal is calibration."
        )
        points = Series(
            "observed", band.predicted, band.observed, band.low, band.high, kind="points"
        )
        svg = chart([points], title="Reliability diagram", xlabel="mean stated probability",
                    ylabel="observed frequency", desc=desc, ident="reliability",
                    reference=((0, 0), (1, 1)))  # fmt: skip
        out.append(_figure(svg, desc))
    return out


def _band(b):
    return b.x, b.y, b.low, b.high
