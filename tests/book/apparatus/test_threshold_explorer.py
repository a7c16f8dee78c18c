"""The threshold explorer: its readout is the library at the thresholded predictions."""

from __future__ import annotations

import ipywidgets
import numpy as np
import pytest
from matplotlib.figure import Figure

import clfmetrics as cm
from clfbook.widgets import threshold_explorer
from clfbook.widgets.threshold import sweep_index, threshold_readout

RNG = np.random.default_rng(7)
Y = RNG.integers(0, 2, 400)
S = np.round(RNG.random(400) + 0.5 * Y, 2)  # rounded: many ties


def expected_matrix(t):
    return cm.confusion_matrix(Y, (S >= t).astype(int), labels=[0, 1])


def test_set_threshold_gives_the_matrix_and_metrics_of_the_thresholded_predictions():
    ex = threshold_explorer(Y, S, live_figure=False)
    for t in (-1.0, 0.0, 0.37, 0.5, 0.505, 1.2, 1.49, 10.0, np.inf):
        ex.set_threshold(t)
        m = expected_matrix(t)
        assert np.array_equal(ex.matrix(), m), t
        readout = ex.metrics()
        assert list(readout) == list(cm.METRICS)  # the same keys as every explorer
        for name, fn in cm.METRICS.items():
            assert readout[name] == pytest.approx(fn(m), abs=1e-15), (t, name)
        assert ex.threshold == t


def test_slider_edit_updates_the_readout():
    ex = threshold_explorer(Y, S, live_figure=False)
    ex.slider.value = 0.8
    assert np.array_equal(ex.matrix(), expected_matrix(0.8))
    assert "t = 0.8" in ex.readout.value
    assert f"{cm.accuracy(expected_matrix(0.8)):.4f}" in ex.metric_view.value


def test_sweep_index_and_readout():
    thresholds, stack = cm.threshold_stack([0, 1, 1, 0], [0.2, 0.9, 0.5, 0.5])
    assert [sweep_index(thresholds, t) for t in (np.inf, 1.0, 0.9, 0.7, 0.5, 0.2, -3)] == [
        0,
        0,
        1,
        1,
        2,
        3,
        3,
    ]
    state = threshold_readout(stack, 2)  # predict positive where score >= 0.5
    assert state["matrix"].tolist() == [[1, 0], [1, 2]]
    assert state["bias"].tolist() == [1, 3] and state["prevalence"].tolist() == [2, 2]
    assert state["precision"] == pytest.approx(2 / 3) and state["recall"] == 1.0
    assert np.isnan(threshold_readout(stack, 0)["precision"])  # nothing predicted positive


def test_live_figure_and_view():
    ex = threshold_explorer(Y, S, live_figure=True)
    assert ex._figure.image.value == b""  # not shown yet: no PNG encoded
    assert isinstance(ex.view, ipywidgets.Widget)  # showing it renders the image
    before = ex._figure.image.value
    assert before[:8] == b"\x89PNG\r\n\x1a\n"
    ex.set_threshold(0.3)
    assert ex._figure.image.value != before  # the marker moved
    assert isinstance(ex.figure(), Figure)
    assert [a.get_xlabel() for a in ex.figure().axes] == [
        "threshold t (predict positive where score ≥ t)",
        "false positive rate FP / N(negative)",
        "recall TP / N(positive)",
    ]
    assert isinstance(ex.view, ipywidgets.Widget)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: threshold_explorer([1, 1], [0.2, 0.3]), "positive and negative"),
        (lambda: threshold_explorer([0, 1], [0.2, np.nan]), "NaN"),
        (lambda: threshold_explorer([0, 1, 2], [0.2, 0.3, 0.4]), "pos_label"),
        (lambda: threshold_explorer(Y, S, live_figure=False).set_threshold("0.5"), "number"),
        (lambda: threshold_explorer(Y, S, live_figure=False).set_threshold(np.nan), "NaN"),
    ],
)
def test_bad_input(call, message):
    with pytest.raises(ValueError, match=message):
        call()
