"""The judge explorer: its coefficients are the library's and the textbook formulas', the
kappa paradox shows as the prevalence moves, and its prevalence intervals are the variance
of ``labels_needed`` (and near the bootstrap of ``estimate_prevalence``)."""

from __future__ import annotations

import itertools

import ipywidgets
import numpy as np
import pytest
from matplotlib.figure import Figure

import clfmetrics as cm
from clfbook.widgets import judge_explorer
from clfbook.widgets._base import fmt
from clfbook.widgets.judge import (
    GRID,
    HAND_LABELS,
    agreement_curves,
    agreement_values,
    prevalence_values,
)
from clfbook.widgets.page import page_spec


@pytest.mark.parametrize(("t", "s", "q"), [(0.9, 0.85, 0.05), (0.7, 0.97, 0.3), (1.0, 0.5, 0.9)])
def test_agreement_is_the_textbook_formulas(t, s, q):
    """Cohen's kappa, Scott's pi, PABAK and Gwet's AC1 written out for two raters."""
    got = agreement_values(t, s, q)
    m = got["matrix"]
    want = [[s * (1 - q), (1 - t) * q], [(1 - s) * (1 - q), t * q]]
    np.testing.assert_allclose(m, want, rtol=0, atol=1e-15)
    np.testing.assert_allclose(m.sum(axis=0), [1 - q, q], rtol=0, atol=1e-15)  # the people's
    po = m[0, 0] + m[1, 1]
    b, p = m.sum(axis=1), m.sum(axis=0)
    pooled = (b + p) / 2
    want = {
        "accuracy": po,
        "kappa": (po - b @ p) / (1 - b @ p),
        "scott_pi": (po - pooled @ pooled) / (1 - pooled @ pooled),
        "pabak": 2 * po - 1,
        "gwet_ac1": (po - 2 * pooled[0] * pooled[1]) / (1 - 2 * pooled[0] * pooled[1]),
    }
    for key, value in want.items():
        assert got[key] == pytest.approx(value, abs=1e-12), key


def test_the_kappa_paradox_appears_as_the_prevalence_moves():
    """One judge (0.9, 0.9): accuracy and PABAK flat, kappa an arch from 0.8 at q = 0.5 down
    towards 0 at both ends, AC1 the other way round."""
    c = agreement_curves(0.9, 0.9)
    mid = int(np.flatnonzero(GRID == 0.5)[0])
    np.testing.assert_allclose(c["accuracy"], 0.9, atol=1e-12)
    np.testing.assert_allclose(c["pabak"], 0.8, atol=1e-12)
    assert c["kappa"][mid] == pytest.approx(0.8) and int(np.argmax(c["kappa"])) == mid
    assert c["kappa"][0] < 0.2 and c["kappa"][-1] < 0.2
    assert int(np.argmin(c["gwet_ac1"])) == mid and c["gwet_ac1"][0] > 0.85
    # and the readout's values are the curves' at the slider's prevalence
    assert agreement_values(0.9, 0.9, 0.01)["kappa"] == c["kappa"][0]


def test_classify_and_count_is_biased_except_where_the_errors_cancel():
    t, s = 0.9, 0.8
    f = 1 - s
    for q in GRID:
        e = prevalence_values(t, s, q, labels=200, deployment=20_000)
        assert e["flagged"] == pytest.approx(t * q + f * (1 - q), abs=1e-15)
        assert e["cc_bias"] == pytest.approx(e["flagged"] - q, abs=1e-15)
        assert e["adjusted"] == pytest.approx(q, abs=1e-12)
    # the bias changes sign where false positives and missed positives cancel
    biases = np.array(
        [prevalence_values(t, s, q, labels=200, deployment=20_000)["cc_bias"] for q in GRID]
    )
    crossing = f / (1 - t + f)
    assert (biases[GRID < crossing] > 0).all() and (biases[GRID > crossing] < 0).all()


@pytest.mark.parametrize(("t", "s", "q"), [(0.9, 0.85, 0.05), (0.7, 0.97, 0.12), (0.8, 0.6, 0.5)])
def test_the_adjusted_interval_is_labels_needed_solved_the_other_way(t, s, q):
    """For each number of hand labels n, labels_needed asked for the width the explorer shows
    returns n: the two use one variance."""
    for n in HAND_LABELS:
        e = prevalence_values(t, s, q, labels=n, deployment=20_000)
        # the half-width on a side the cut to [0, 1] left alone
        if e["adjusted_low"] > 0:
            half = e["adjusted"] - e["adjusted_low"]
        else:
            half = e["adjusted_high"] - e["adjusted"]
        for width, want in ((2 * half * (1 + 1e-9), n), (2 * half * (1 - 1e-9), n + 1)):
            got = cm.labels_needed(
                width, prevalence=q, sensitivity=t, specificity=s, deployment=20_000
            )
            assert got == want, (n, width, got)


def test_the_adjusted_interval_is_near_the_bootstrap_of_estimate_prevalence():
    """On a simulated study of the explorer's setting the bootstrap interval of
    estimate_prevalence (both samples resampled) is about as wide as the delta method's."""
    rng = np.random.default_rng(3)
    t, s, q, n, big_n = 0.8, 0.9, 0.3, 1600, 20_000

    def judged(y):
        u = rng.random(y.size)
        return np.where(y == 1, u < t, u >= s).astype(int)

    y_cal = (rng.random(n) < q).astype(int)
    dep = judged((rng.random(big_n) < q).astype(int))
    est = cm.estimate_prevalence(y_cal, judged(y_cal), dep, labels=[0, 1], size=400, rng=4)
    e = prevalence_values(t, s, q, labels=n, deployment=big_n)
    ratio = (est.high[1] - est.low[1]) / (e["adjusted_high"] - e["adjusted_low"])
    assert 0.8 < ratio < 1.25, ratio
    cc = cm.estimate_prevalence(
        y_cal, judged(y_cal), dep, method="classify_and_count", size=400, rng=4
    )
    ratio = (cc.high[1] - cc.low[1]) / (e["cc_high"] - e["cc_low"])
    assert 0.8 < ratio < 1.25, ratio


def test_the_adjusted_interval_widens_as_the_judge_gets_worse():
    """Same prevalence and hand labels, rates lowered towards T = F: nested intervals."""
    ends = [
        prevalence_values(r, r, 0.3, labels=200, deployment=20_000) for r in (0.95, 0.8, 0.65, 0.55)
    ]
    for better, worse in itertools.pairwise(ends):
        assert worse["adjusted_low"] <= better["adjusted_low"] < 0.3
        assert 0.3 < better["adjusted_high"] < worse["adjusted_high"]


def test_a_judge_with_t_equal_f_says_nothing_about_the_prevalence():
    e = prevalence_values(0.5, 0.5, 0.2, labels=200, deployment=1000)
    assert e["youden"] == 0 and e["flagged"] == 0.5
    assert np.isnan(e["adjusted"]) and np.isnan(e["adjusted_low"]) and not e["adjusted_covers"]
    ex = judge_explorer(0.5, 0.5, 0.2, live_figure=False)
    assert "undefined" in ex.readout.value


def test_sliders_update_the_readout_and_the_figure():
    ex = judge_explorer(0.9, 0.85, 0.05, names=("acceptable", "fails"), live_figure=True)
    assert isinstance(ex.view, ipywidgets.Widget)
    before = ex._figure.image.value
    assert before[:8] == b"\x89PNG\r\n\x1a\n"
    ex.sliders["prevalence"].value = 0.5  # a user's edit
    assert ex.prevalence == 0.5
    assert fmt(ex.agreement()["kappa"]) in ex.readout.value
    assert ex._figure.image.value != before
    ex.set_state(sensitivity=0.7, labels=3200)
    assert ex.sliders["sensitivity"].value == 0.7 and ex.labels == 3200
    assert fmt(ex.estimates()["adjusted_high"]) in ex.readout.value
    assert isinstance(ex.figure(), Figure)
    assert [a.get_xlabel() for a in ex.figure().axes] == [
        "prevalence of fails",
        "true prevalence of fails",
    ]
    spec = page_spec(ex)
    assert spec["kind"] == "judge" and spec["names"] == ["acceptable", "fails"]
    assert {k: spec["stops"][k][i] for k, i in spec["start"].items()} == {
        "sensitivity": 0.7,
        "specificity": 0.85,
        "prevalence": 0.5,
        "labels": 3200,
    }


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: agreement_values(1.2, 0.9, 0.1), r"sensitivity must lie in \[0, 1\]"),
        (lambda: agreement_values(0.9, 0.9, 0.0), r"prevalence must lie in \(0, 1\)"),
        (lambda: agreement_values(0.9, "0.9", 0.5), "specificity must be a number"),
        (lambda: prevalence_values(0.9, 0.9, 0.5, labels=0, deployment=10), "labels must be"),
        (lambda: prevalence_values(0.9, 0.9, 0.5, labels=5, deployment=2.5), "deployment"),
        (lambda: judge_explorer(0.905, live_figure=False), "one of the slider's stops"),
        (lambda: judge_explorer(labels=300, live_figure=False), "labels must be one of"),
        (lambda: judge_explorer(names=("a",), live_figure=False), "names must name the two"),
        (lambda: judge_explorer(live_figure=False).set_state(q=0.2), "unknown settings"),
    ],
)
def test_bad_input(call, message):
    with pytest.raises(ValueError, match=message):
        call()
