"""The chapter's inference figures in clfbook.plots.uncertainty draw what they are given."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pytest

from clfbook.plots.uncertainty import (
    seed_spread_plot,
    selection_plot,
    spread_check_plot,
)
from clfmetrics import Interval


def test_spread_check_plot_marks_each_fresh_spread():
    fresh = {"accuracy": 0.02, "mcc": 0.04}
    boot = {"accuracy": np.full(50, 0.021), "mcc": np.linspace(0.03, 0.05, 50)}
    fig = spread_check_plot(fresh, boot)
    ax = fig.axes[0]
    (diamonds,) = [c for c in ax.collections if c.get_offsets().shape[0] == 2]
    np.testing.assert_allclose(diamonds.get_offsets()[:, 1], [0.02, 0.04])
    assert [t.get_text() for t in ax.get_xticklabels()] == ["accuracy", "mcc"]
    plt.close(fig)
    with pytest.raises(ValueError, match="same"):
        spread_check_plot({"accuracy": 0.02}, {"mcc": [0.1]})


def test_selection_plot_draws_both_lines_and_the_truth():
    fig = selection_plot([1, 10, 100], [0.90, 0.92, 0.94], [0.90, 0.90, 0.90], 0.9)
    ax = fig.axes[0]
    lines = {line.get_label(): line.get_ydata() for line in ax.get_lines()}
    np.testing.assert_allclose(lines["best model, on the test set"], [0.90, 0.92, 0.94])
    np.testing.assert_allclose(lines["same model, on a fresh test set"], [0.9, 0.9, 0.9])
    assert ax.get_xscale() == "log"
    plt.close(fig)


def test_seed_spread_plot_shows_every_seed_and_the_interval():
    interval = Interval(0.93, 0.91, 0.95, 0.95, "percentile")
    scores = [0.93, 0.94, 0.95, 0.92]
    fig = seed_spread_plot(scores, interval)
    ax = fig.axes[0]
    points = [c for c in ax.collections if c.get_offsets().shape[0] == len(scores)]
    np.testing.assert_allclose(points[0].get_offsets()[:, 1], scores)
    low, high = ax.get_ylim()
    assert low <= 0.91 and high >= 0.95
    plt.close(fig)
    with pytest.raises(ValueError, match="seed"):
        seed_spread_plot([0.9], interval)
