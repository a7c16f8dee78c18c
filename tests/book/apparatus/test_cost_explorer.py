"""The cost explorer: its operating point is the cheapest threshold, found by brute force."""

from __future__ import annotations

import ipywidgets
import numpy as np
import pytest
from matplotlib.figure import Figure

import clfmetrics as cm
from clfbook.widgets import cost_curve_explorer
from clfbook.widgets.costs import LOG_RATIO, cheapest_point, probability_cost

RNG = np.random.default_rng(36)
Y = RNG.integers(0, 2, 300)
S = np.round(np.clip(RNG.random(300) * 0.7 + 0.3 * Y, 0, 1), 2)  # rounded: many ties


def brute_force(y, s, ratio):
    """The least mean cost over every threshold when a miss costs ``ratio`` false alarms,
    normalized as Drummond & Holte's NEC, and the thresholds that reach it."""
    prior = np.mean(y == 1)
    norm = prior * ratio + (1 - prior)
    costs = {}
    for t in np.r_[np.inf, np.unique(s)]:
        fn = np.sum((s < t) & (y == 1))
        fp = np.sum((s >= t) & (y == 0))
        costs[float(t)] = (fn * ratio + fp) / len(y) / norm
    best = min(costs.values())
    return best, {t for t, c in costs.items() if np.isclose(c, best, rtol=0, atol=1e-12)}


@pytest.mark.parametrize("e", [-2.0, -1.0, -0.3, 0.0, 0.42, 1.0, 2.0])
def test_the_point_is_the_cheapest_threshold(e):
    ex = cost_curve_explorer(Y, S, live_figure=False)
    ex.set_log_ratio(e)
    r = ex.readout_values()
    best, where = brute_force(Y, S, 10.0**e)
    assert r["nec"] == pytest.approx(best, abs=1e-12)
    assert r["threshold"] in where
    assert r["ratio"] == 10.0**e and ex.slider.value == e
    # the same point on the ROC curve: its rates at that threshold
    pred = S >= r["threshold"]
    assert r["tpr"] == pytest.approx(np.mean(pred[Y == 1]), abs=1e-15)
    assert r["fpr"] == pytest.approx(np.mean(pred[Y == 0]), abs=1e-15)
    assert r["nec"] <= r["trivial"] + 1e-15  # never worse than a trivial classifier


def test_probability_cost_and_envelope():
    assert probability_cost(1.0, 0.2) == pytest.approx(0.2)  # equal costs: PC is the prior
    pcs = probability_cost(10.0**LOG_RATIO, 0.3)
    assert np.all(np.diff(pcs) > 0) and 0 < pcs[0] < pcs[-1] < 1
    cc = cm.cost_curve(Y, S)
    envelope = [cheapest_point(cc.lines, q)[1] for q in cc.pc]
    np.testing.assert_allclose(envelope, cc.nec, rtol=0, atol=1e-12)


def test_slider_edit_updates_the_readout_and_figure():
    ex = cost_curve_explorer(Y, S, live_figure=True)
    assert isinstance(ex.view, ipywidgets.Widget)
    before = ex._figure.image.value
    assert before[:8] == b"\x89PNG\r\n\x1a\n"
    ex.slider.value = 1.0
    assert ex.ratio == 10.0
    assert f"{ex.readout_values()['nec']:.4f}" in ex.readout.value
    assert ex._figure.image.value != before  # the line and the point moved
    assert isinstance(ex.figure(), Figure)
    assert [a.get_xlabel() for a in ex.figure().axes] == [
        "probability cost PC(+)",
        "false positive rate FP / N(negative)",
    ]
    assert [a.get_ylabel() for a in ex.figure().axes] == [
        "normalized expected cost",
        "true positive rate TP / N(positive)",
    ]


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: cost_curve_explorer([1, 1], [0.2, 0.3]), "no negative items"),
        (lambda: cost_curve_explorer(Y, S, live_figure=False).set_log_ratio(0.011), "stop"),
        (lambda: cost_curve_explorer(Y, S, live_figure=False).set_log_ratio("1"), "number"),
        (lambda: probability_cost(0.0, 0.2), "positive"),
        (lambda: probability_cost(1.0, 1.0), "prior"),
        (lambda: cheapest_point([[0.0, 1.0]], 1.5), r"\[0, 1\]"),
    ],
)
def test_bad_input(call, message):
    with pytest.raises(ValueError, match=message):
        call()
