"""The figures of curves and reliability diagrams draw the library's intervals, as computed."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pytest

from clfbook.plots.bands import (
    operating_point,
    pr_band_figure,
    roc_band_figure,
    selection_range,
)
from clfbook.plots.reliability import corp_band_diagram, reliability_band_diagram
from clfmetrics import (
    corp_band,
    pr_band,
    rates_at_threshold,
    reliability_band,
    roc_band,
    roc_curve,
    tuned_threshold_interval,
)


@pytest.fixture(scope="module")
def scored():
    rng = np.random.default_rng(27)
    y = rng.random(300) < 0.3
    s = np.round(1 / (1 + np.exp(-rng.normal(1.5 * y - 1, 1))), 2)
    return y.astype(int), s


def _band_edges(fill):
    """The vertices of a fill_between polygon (lower end forwards, upper end back)."""
    return fill.get_paths()[0].vertices


def test_roc_band_figure_draws_the_band_and_its_curve(scored):
    y, s = scored
    band = roc_band(y, s, size=300, grid=21, rng=0)
    fig = roc_band_figure({"test": band})
    ax = fig.axes[0]
    (line,) = [ln for ln in ax.get_lines() if ln.get_label() == "test"]
    np.testing.assert_allclose(line.get_xdata(), band.x)
    np.testing.assert_allclose(line.get_ydata(), band.y)
    (fill,) = ax.collections
    assert fill.get_label() == "test: 95% simultaneous band"
    v = _band_edges(fill)
    # fill_between's polygon: along the lower end, then back along the upper end.
    for x, low, high in zip(band.x, band.low, band.high, strict=True):
        at = v[np.isclose(v[:, 0], x)][:, 1]
        assert np.isclose(at.min(), low) and np.isclose(at.max(), high)
    assert ax.get_xlabel().startswith("false positive rate")
    np.testing.assert_allclose(ax.get_xticks(), np.linspace(0, 1, 6))
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "test: 95% simultaneous band" in legend
    plt.close(fig)


def test_pr_band_figure_says_pointwise_and_its_level(scored):
    y, s = scored
    band = pr_band(y, s, size=300, grid=21, simultaneous=False, level=0.9, rng=0)
    fig = pr_band_figure({"test": band}, baselines={"prevalence": y.mean()})
    ax = fig.axes[0]
    (fill,) = ax.collections
    assert fill.get_label() == "test: 90% pointwise band"
    v = _band_edges(fill)
    assert np.isclose(v[:, 1].min(), band.low.min()) and np.isclose(v[:, 1].max(), band.high.max())
    guides = [ln for ln in ax.get_lines() if ln.get_label() == "prevalence"]
    np.testing.assert_allclose(guides[0].get_ydata(), [y.mean()] * 2)
    plt.close(fig)
    with pytest.raises(ValueError, match="non-empty"):
        roc_band_figure({})


def test_operating_point_is_a_cross_of_the_exact_intervals(scored):
    y, s = scored
    rates = rates_at_threshold(y, s, 0.4)
    fig, ax = plt.subplots()
    bars = operating_point(ax, rates, curve="roc", label="t = 0.40")
    spec, sens = rates["specificity"], rates["sensitivity"]
    point = bars.lines[0]
    np.testing.assert_allclose(np.asarray(point.get_xdata(), float), [1 - spec.estimate])
    np.testing.assert_allclose(np.asarray(point.get_ydata(), float), [sens.estimate])
    segments = [c.get_segments()[0] for c in bars.lines[2]]
    horizontal = next(seg for seg in segments if np.isclose(seg[0, 1], seg[1, 1]))
    vertical = next(seg for seg in segments if np.isclose(seg[0, 0], seg[1, 0]))
    np.testing.assert_allclose(sorted(horizontal[:, 0]), [1 - spec.high, 1 - spec.low])
    np.testing.assert_allclose(sorted(vertical[:, 1]), [sens.low, sens.high])
    assert "95% exact intervals" in bars.get_label()
    bars = operating_point(ax, rates, curve="pr")
    segments = [c.get_segments()[0] for c in bars.lines[2]]
    vertical = next(seg for seg in segments if np.isclose(seg[0, 0], seg[1, 0]))
    prec = rates["precision"]
    np.testing.assert_allclose(sorted(vertical[:, 1]), [prec.low, prec.high])
    with pytest.raises(ValueError, match="roc"):
        operating_point(ax, rates, curve="det")
    plt.close(fig)


def test_selection_range_marks_the_thresholds_inside_the_interval(scored):
    y, s = scored
    half = len(y) // 2
    tuned = tuned_threshold_interval(y[:half], s[:half], y[half:], s[half:], size=200, rng=0)
    fpr, tpr, t = roc_curve(y[half:], s[half:])
    fig, ax = plt.subplots()
    line = selection_range(ax, t, fpr, tpr, tuned["threshold"])
    inside = (t >= tuned["threshold"].low) & (t <= tuned["threshold"].high)
    assert inside.any()
    np.testing.assert_allclose(line.get_xdata(), fpr[inside])
    np.testing.assert_allclose(line.get_ydata(), tpr[inside])
    plt.close(fig)


def test_reliability_band_diagram_draws_intervals_bands_and_counts(scored):
    y, s = scored
    exact = reliability_band(y, s, bins=10)
    cons = reliability_band(y, s, bins=10, method="consistency", size=400, rng=0)
    fig = reliability_band_diagram({"model": exact}, consistency={"model": cons})
    top, bottom = fig.axes
    bars, container = top.containers  # the consistency bars, then the points' error bars
    point = container.lines[0]
    np.testing.assert_allclose(point.get_xdata(), exact.predicted)
    np.testing.assert_allclose(point.get_ydata(), exact.observed)
    segments = container.lines[2][0].get_segments()
    np.testing.assert_allclose([seg[:, 1].min() for seg in segments], exact.low)
    np.testing.assert_allclose([seg[:, 1].max() for seg in segments], exact.high)
    np.testing.assert_allclose([r.get_y() for r in bars], cons.low)
    np.testing.assert_allclose([r.get_y() + r.get_height() for r in bars], cons.high)
    heights = [r.get_height() for r in bottom.containers[0]]
    np.testing.assert_array_equal(heights, exact.counts)
    labels = [t.get_text() for t in bottom.texts]
    assert labels == [str(n) for n in exact.counts]
    plt.close(fig)
    with pytest.raises(ValueError, match="not drawn"):
        reliability_band_diagram({"model": exact}, consistency={"other": cons})


def test_corp_band_diagram_draws_the_band_the_curve_and_the_items(scored):
    y, s = scored
    bands = {
        "scores": corp_band(y, s, size=300, rng=0),
        "squared": corp_band(y, s**2, method="confidence", size=300, rng=1),
    }
    fig = corp_band_diagram(bands)
    tops, bottoms = fig.axes[:2], fig.axes[2:]  # rows: curves, then histograms
    for ax, bottom, (name, band) in zip(tops, bottoms, bands.items(), strict=True):
        assert ax.get_legend().get_title().get_text() == name
        (curve,) = [ln for ln in ax.get_lines() if ln.get_label().startswith("CORP")]
        np.testing.assert_allclose(curve.get_xdata(), band.predicted)
        np.testing.assert_allclose(curve.get_ydata(), band.observed)
        (fill,) = ax.collections
        v = _band_edges(fill)
        for x, low, high in zip(band.predicted, band.low, band.high, strict=True):
            at = v[np.isclose(v[:, 0], x)][:, 1]
            assert np.isclose(at.min(), low) and np.isclose(at.max(), high)
        out = (band.observed < band.low) | (band.observed > band.high)
        crosses = [ln for ln in ax.get_lines() if ln.get_label() == "outside the band"]
        assert len(crosses) == int(out.any())
        if out.any():
            np.testing.assert_allclose(crosses[0].get_xdata(), band.predicted[out])
        assert sum(r.get_height() for r in bottom.patches) == band.counts.sum()
        np.testing.assert_allclose(ax.get_yticks(), np.linspace(0, 1, 6))
    legends = [" ".join(t.get_text() for t in ax.get_legend().get_texts()) for ax in tops]
    assert "95% pointwise consistency band" in legends[0]
    assert "consistency" not in legends[1] and "95% pointwise band" in legends[1]
    assert tops[0].get_ylabel() and bottoms[0].get_xlabel() and bottoms[0].get_ylabel()
    plt.close(fig)
    with pytest.raises(ValueError, match="non-empty dict"):
        corp_band_diagram({})
