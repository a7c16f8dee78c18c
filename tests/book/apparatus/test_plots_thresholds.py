"""Figures for choosing a threshold (clfbook.plots.thresholds)."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pytest

from clfbook.plots.thresholds import (
    optimism_figure,
    score_distributions,
    seed_spread,
)


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


def test_score_distributions_draw_shares_and_named_thresholds():
    y = np.array([0, 0, 0, 0, 1, 1])
    s = np.array([0.1, 0.2, 0.2, 0.6, 0.5, 0.9])
    fig = score_distributions(y, s, {"chosen": 0.5})
    ax = fig.axes[0]
    assert ax.get_xlabel() and ax.get_ylabel()
    # Each class is named with its number of items.
    for patch in ax.patches[:2]:
        assert patch.get_label().endswith(("(4)", "(2)"))
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert any("TPR 1.00, FPR 0.25" in label for label in labels)
    with pytest.raises(ValueError, match="both classes"):
        score_distributions([1, 1], [0.2, 0.3])
    with pytest.raises(ValueError, match="equal length"):
        score_distributions([0, 1], [0.2])


def test_optimism_figure_has_two_labelled_panels():
    rng = np.random.default_rng(0)
    honest = rng.uniform(0.7, 0.8, 50)
    fig = optimism_figure(honest, honest + rng.uniform(0, 0.02, 50), metric="macro F1")
    left, right = fig.axes
    assert "macro F1" in left.get_xlabel() and "macro F1" in right.get_xlabel()
    assert left.get_ylabel() and right.get_ylabel()
    with pytest.raises(ValueError, match="equal"):
        optimism_figure([0.1, 0.2], [0.3])


def test_seed_spread_draws_one_row_per_metric():
    diffs = {
        "every part redrawn": {"accuracy": [0.01, -0.02], "macro F1": [0.0, 0.03]},
        "test fixed": {"accuracy": [0.0, 0.01], "macro F1": [-0.01, 0.02]},
    }
    fig = seed_spread(
        diffs, reference={"accuracy": (0.0, -0.03, 0.02), "macro F1": (0.01, -0.02, 0.04)}
    )
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["accuracy", "macro F1"]
    assert ax.get_xlabel() and ax.get_ylabel()
    with pytest.raises(ValueError, match="same metrics"):
        seed_spread({"a": {"accuracy": [0]}, "b": {"kappa": [0]}})
    with pytest.raises(ValueError, match="empty"):
        seed_spread({})
