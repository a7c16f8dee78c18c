"""The interactive widgets: readouts equal the library, presets reproduce the sources.

Every widget is driven through its plain methods and, where it matters, through
its ipywidgets children (setting ``.value`` as a user's edit would). Expected
values come from the sources (Opitz & Burst 2019; Opitz 2024; vor der Brück
2020) or from exact fractions derived by hand.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import ipywidgets
import numpy as np
import pytest
from matplotlib.figure import Figure

import clfmetrics as cm
from clfbook.plots.widgets import classwise_figure
from clfbook.widgets import (
    chance_baseline_simulator,
    confusion_matrix_explorer,
    f_measure_paradox_explorer,
    macro_f1_explorer,
    metric_chooser,
    nonmonotonicity_explorer,
    prevalence_explorer,
)
from clfbook.widgets.chance import omega, simulate_chance
from clfbook.widgets.chooser import PROPERTIES, matching_metrics
from clfbook.widgets.macro_f1 import delta_supremum, skew_errors
from clfbook.widgets.nonmonotonicity import M7, M8, add_errors
from clfbook.widgets.paradox import SOURCE_VERDICTS, harmonic_propositions, paradox_readout
from clfmetrics import random_classifier

TWEETS = [[60, 15, 5], [35, 170, 40], [5, 15, 55]]  # chapter 1's larger matrix
LABELS = ["negative", "neutral", "positive"]


def assert_same_metrics(readout: dict, m) -> None:
    assert list(readout) == list(cm.METRICS)
    for name, fn in cm.METRICS.items():
        assert readout[name] == pytest.approx(fn(m), abs=1e-15), name


# --- 1. confusion-matrix explorer ------------------------------------------------------------


def test_explorer_metrics_equal_library_after_edits():
    """metrics() has exactly the METRICS keys and equals each library function after edits."""
    ex = confusion_matrix_explorer(TWEETS, LABELS, live_figure=False)
    assert_same_metrics(ex.metrics(), TWEETS)
    ex.set_cell(1, 0, 5)
    expected = np.array(TWEETS)
    expected[1, 0] = 5
    assert np.array_equal(ex.matrix, expected)
    assert_same_metrics(ex.metrics(), expected)
    assert ex.metrics()["mcc"] == cm.mcc(expected)
    ex.set_matrix([[3, 1], [2, 4]])
    assert_same_metrics(ex.metrics(), [[3, 1], [2, 4]])


def test_explorer_classwise_equals_library():
    """classwise() gives the library's per-class precision, recall, F1, bias and prevalence."""
    ex = confusion_matrix_explorer(TWEETS, live_figure=False)
    cw = ex.classwise()
    assert np.allclose(cw["precision"], cm.precision(TWEETS))
    assert np.allclose(cw["recall"], cm.recall(TWEETS))
    assert np.allclose(cw["f1"], cm.f1(TWEETS))
    assert np.array_equal(cw["bias"], cm.bias(TWEETS))
    assert np.array_equal(cw["prevalence"], cm.prevalence(TWEETS))


def test_explorer_user_edit_through_box_updates_readout():
    """Setting a BoundedIntText's value (a user edit) updates the matrix, metrics and HTML."""
    ex = confusion_matrix_explorer([[15, 5], [10, 10]], live_figure=False)
    assert isinstance(ex.view, ipywidgets.Widget)
    box = ex.editor.boxes[1][0]
    assert isinstance(box, ipywidgets.BoundedIntText)
    box.value = 0
    # accuracy of [[15, 5], [0, 10]] is 25/30 = 5/6
    assert ex.metrics()["accuracy"] == pytest.approx(5 / 6)
    assert f"{5 / 6:.4f}" in ex.readout.value
    assert "|S| = 30" in ex.readout.value


def test_explorer_figure_bars_follow_edits():
    """figure() is a matplotlib Figure whose bar heights are the current P, R and F1."""
    ex = confusion_matrix_explorer([[15, 5], [10, 10]], live_figure=False)
    ex.set_cell(0, 1, 15)  # [[15, 15], [10, 10]]: P = (1/2, 1/2), R = (3/5, 2/5)
    fig = ex.figure()
    assert isinstance(fig, Figure)
    heights = [bar.get_height() for bar in fig.axes[0].patches]
    assert heights == pytest.approx([0.5, 0.5, 0.6, 0.4, 6 / 11, 4 / 9])


def test_static_figure_is_the_explorer_figure():
    """classwise_figure (the book's static picture) draws the explorer's bars for the same m."""
    static = classwise_figure(TWEETS, LABELS)
    live = confusion_matrix_explorer(TWEETS, LABELS, live_figure=False).figure()
    heights = [bar.get_height() for bar in static.axes[0].patches]
    assert heights == [bar.get_height() for bar in live.axes[0].patches]
    expected = np.concatenate([cm.precision(TWEETS), cm.recall(TWEETS), cm.f1(TWEETS)])
    assert heights == pytest.approx(expected.tolist())
    assert static.axes[0].get_xlabel() and static.axes[0].get_ylabel()


def test_explorer_live_image_is_png_and_changes():
    """A live figure's Image widget holds a PNG once the explorer is shown (its view taken),
    and the PNG changes when a cell changes; until then no PNG is encoded."""
    ex = confusion_matrix_explorer([[15, 5], [10, 10]])
    ex.set_cell(0, 0, 2)
    assert ex._figure.image.value == b""  # built and edited, never shown: nothing encoded
    ex._repr_mimebundle_()  # what Jupyter calls to show it
    before = ex._figure.image.value
    assert before[:8] == b"\x89PNG\r\n\x1a\n"
    ex.set_cell(0, 0, 1)
    assert ex._figure.image.value != before


def test_explorer_resize_and_zero_matrix():
    """The size dropdown resizes (new class gets one correct item); all-zero shows a message."""
    ex = confusion_matrix_explorer([[1, 2], [3, 4]], live_figure=False)
    ex.size.value = 3
    assert ex.matrix.tolist() == [[1, 2, 0], [3, 4, 0], [0, 0, 1]]
    assert len(ex.editor.boxes) == 3
    ex.set_matrix(np.zeros((3, 3)))
    assert "nothing to evaluate" in ex.status.value
    with pytest.raises(ValueError, match="total mass 0"):
        ex.metrics()


@pytest.mark.parametrize(
    ("m", "message"),
    [
        (np.ones((7, 7)), "between 2 and 6 classes"),
        ([[1]], "between 2 and 6 classes"),
        ([[1, 2, 3], [4, 5, 6]], "square"),
        ([[1, -2], [3, 4]], "negative"),
        ([[1, 2.5], [3, 4]], "whole count"),
        ([[1, np.nan], [3, 4]], "finite"),
    ],
)
def test_explorer_rejects_bad_matrices(m, message):
    """n outside 2..6, non-square, negative, fractional or NaN counts raise a clear ValueError."""
    with pytest.raises(ValueError, match=message):
        confusion_matrix_explorer(m)


def test_explorer_rejects_bad_cells():
    """set_cell refuses negative values and cells outside the matrix."""
    ex = confusion_matrix_explorer([[1, 2], [3, 4]], live_figure=False)
    with pytest.raises(ValueError, match=">= 0"):
        ex.set_cell(0, 0, -1)
    with pytest.raises(ValueError, match="outside"):
        ex.set_cell(2, 0, 1)
    assert ex.matrix.tolist() == [[1, 2], [3, 4]]


def test_explorer_displays_as_its_view():
    """The explorer's mime bundle is the view's widget bundle (so Jupyter shows the widget)."""
    ex = confusion_matrix_explorer([[1, 2], [3, 4]], live_figure=False)
    bundle = ex._repr_mimebundle_()
    assert bundle["application/vnd.jupyter.widget-view+json"]["model_id"] == ex.view.model_id


# --- 2. prevalence explorer ------------------------------------------------------------------


def test_prevalence_recall_metrics_stay_others_move():
    """Scaling class prevalences moves accuracy, macro P, kappa, MCC but not the recall means."""
    ex = prevalence_explorer(TWEETS, LABELS, live_figure=False)
    ex.set_scale([1, 1, 3])
    changed = ex.changed()
    assert set(changed) == set(cm.METRICS)
    for name in ("macro_recall", "geometric_macro_recall", "harmonic_macro_recall"):
        assert not changed[name], name
    for name in ("accuracy", "macro_precision", "macro_f1", "weighted_f1", "kappa", "mcc"):
        assert changed[name], name
    scaled = cm.prevalence_scale(TWEETS, [1, 1, 3])
    assert_same_metrics(ex.metrics(), scaled)
    for name, fn in cm.METRICS.items():
        assert changed[name] == (abs(fn(scaled) - fn(TWEETS)) > 1e-12)


def test_prevalence_slider_edit_updates_readout():
    """Moving one slider (a user edit) scales that column and refreshes the readout."""
    ex = prevalence_explorer([[60, 15], [40, 85]], live_figure=False)
    assert all(isinstance(s, ipywidgets.FloatLogSlider) for s in ex.sliders)
    ex.sliders[1].value = 10.0
    assert np.allclose(ex.scaled_matrix(), [[60, 150], [40, 850]])
    assert ex.metrics()["accuracy"] == pytest.approx(910 / 1100)
    assert f"{910 / 1100:.4f}" in ex.readout.value


def test_prevalence_rejects_bad_scales():
    """λ of the wrong length or not positive raises ValueError."""
    ex = prevalence_explorer([[60, 15], [40, 85]], live_figure=False)
    with pytest.raises(ValueError, match="one factor per class"):
        ex.set_scale([1, 2, 3])
    with pytest.raises(ValueError, match="positive"):
        ex.set_scale([1, 0])


# --- 3. macro F1 explorer --------------------------------------------------------------------


def test_macro_f1_presets_reproduce_opitz_burst():
    """Presets give F1-of-averages 51/101 ≈ 0.505 vs macro F1 1/51 ≈ 0.0196, and 0.0196 twice."""
    ex = macro_f1_explorer(live_figure=False)
    ex.preset("skewed")  # P = (1/101, 1), R = (1, 1/101): macP = macR = 51/101, F1_i = 1/51
    r = ex.metrics()
    assert r["f1_of_averages"] == pytest.approx(float(Fraction(51, 101)), abs=1e-15)
    assert r["macro_f1"] == pytest.approx(float(Fraction(1, 51)), abs=1e-15)
    assert round(r["f1_of_averages"], 3) == 0.505 and round(r["macro_f1"], 4) == 0.0196
    assert r["delta_f1"] == pytest.approx(float(Fraction(51, 101) - Fraction(1, 51)))
    ex.preset("balanced")
    r = ex.metrics()
    assert round(r["f1_of_averages"], 4) == round(r["macro_f1"], 4) == 0.0196
    assert r["delta_f1"] == 0.0


@pytest.mark.parametrize("n", range(2, 9))
def test_delta_supremum_matches_theorem(n):
    """sup Δ = 1/2 for even n and 1/2 - 1/(2n²) for odd n (Opitz & Burst, theorem part 3)."""
    expected = Fraction(1, 2) if n % 2 == 0 else Fraction(1, 2) - Fraction(1, 2 * n * n)
    assert delta_supremum(n) == expected


def test_three_class_preset_approaches_supremum():
    """The derived 3-class preset has Δ just below sup Δ(3) = 4/9, and the readout shows both."""
    ex = macro_f1_explorer(3, live_figure=False)
    ex.preset("three-class-skewed")
    r = ex.metrics()
    assert r["supremum"] == pytest.approx(4 / 9)
    assert 0.999 * 4 / 9 < r["delta_f1"] < 4 / 9
    assert r["delta_f1"] == pytest.approx(cm.delta_f1(ex.matrix))


def test_skew_slider_moves_errors_and_keeps_totals():
    """The skew slider keeps diagonal and error-pair totals; at 1/2 the 2-class Δ vanishes."""
    ex = macro_f1_explorer(live_figure=False)
    ex.preset("skewed")
    ex.skew.value = 0.5  # user drags the slider
    assert ex.matrix.tolist() == [[100, 5000], [5000, 100]]
    assert ex.metrics()["delta_f1"] == 0.0
    stack = skew_errors([[1, 2, 3], [4, 5, 6], [7, 8, 9]], np.linspace(0, 1, 5))
    assert np.array_equal(stack.sum(axis=(-2, -1)), np.full(5, 45))
    assert np.array_equal(np.diagonal(stack, axis1=-2, axis2=-1), np.tile([1, 5, 9], (5, 1)))


def test_macro_f1_cell_edit_and_bad_input():
    """A box edit updates Δ to the library's value; n = 4 and unknown presets raise."""
    ex = macro_f1_explorer(live_figure=False)
    ex.editor.boxes[0][1].value = 7000
    assert ex.metrics()["delta_f1"] == pytest.approx(cm.delta_f1(ex.matrix))
    assert ex.metrics()["macro_f1"] == pytest.approx(cm.macro_f1(ex.matrix))
    with pytest.raises(ValueError, match="2 or 3"):
        macro_f1_explorer(4)
    with pytest.raises(ValueError, match="unknown preset"):
        ex.preset("nope")
    with pytest.raises(ValueError, match="between 2 and 3"):
        ex.set_matrix(np.ones((4, 4)))


# --- 4. non-monotonicity explorer ------------------------------------------------------------


def test_nonmonotonicity_preset_reproduces_tables_7_and_8():
    """Ten errors in the preselected cell turn Table 7 into Table 8, as chapter 7 says."""
    ex = nonmonotonicity_explorer(live_figure=False)
    assert ex.matrix.tolist() == [list(r) for r in M7]
    # Chapter 7 tells the reader the explorer starts on "predicted z, true y" and
    # presses "add errors" without choosing a cell: the default must be that cell.
    assert ex.cell.value == (2, 1)
    assert ex.cell.label.startswith("predicted z, true y")
    ex.add_error(10)
    assert ex.matrix.tolist() == [list(r) for r in M8]
    trace = ex.trace()
    assert len(trace["mcc"]) == 11
    assert trace["mcc"][-1] > trace["mcc"][0] and trace["kappa"][-1] > trace["kappa"][0]
    # Table 7: MCC = 0.0, Kappa = 0.0; Table 8: MCC = 0.07, Kappa = 0.02
    assert round(trace["mcc"][0], 2) == 0.0 and round(trace["kappa"][0], 2) == 0.0
    assert round(trace["mcc"][-1], 2) == 0.07 and round(trace["kappa"][-1], 2) == 0.02
    # macro recall is monotonic: an error in column y can only lower it
    assert all(b <= a for a, b in itertools.pairwise(trace["macro_recall"]))
    for name, values in trace.items():
        assert values[-1] == pytest.approx(cm.METRICS[name](M8))


def test_nonmonotonicity_buttons_and_reset():
    """Clicking 'add errors' adds the box's count to the dropdown's cell; reset restores m7."""
    ex = nonmonotonicity_explorer(live_figure=False)
    ex.cell.value = (0, 1)
    ex.step.value = 3
    ex.add_button.click()
    assert ex.matrix[0, 1] == M7[0][1] + 3
    assert "3 errors added" in ex.readout.value
    ex.reset_button.click()
    assert ex.matrix.tolist() == [list(r) for r in M7]
    assert all(len(v) == 1 for v in ex.trace().values())


def test_nonmonotonicity_rejects_diagonal_and_bad_counts():
    """Diagonal cells are not errors; negative k raises."""
    ex = nonmonotonicity_explorer(live_figure=False)
    with pytest.raises(ValueError, match="diagonal"):
        ex.select_cell(1, 1)
    with pytest.raises(ValueError, match=">= 0"):
        ex.add_error(-1)
    with pytest.raises(ValueError, match="outside"):
        add_errors(M7, (3, 0))


# --- 5. chance baseline simulator ------------------------------------------------------------


def test_chance_simulation_is_the_library_on_random_classifier():
    """simulate() returns each metric of random_classifier's stack for the same seed."""
    sim = chance_baseline_simulator(3, live_figure=False, n_sets=50)
    sim.set_prevalence([5, 3, 2])
    sim.set_prediction([1, 1, 2])
    scores = sim.simulate(n_sets=300, n_items=100, seed=7)
    stack = random_classifier([0.5, 0.3, 0.2], [0.25, 0.25, 0.5], 100, size=300, rng=7)
    assert set(scores) == set(cm.METRICS)
    for name, fn in cm.METRICS.items():
        assert np.allclose(scores[name], fn(stack), equal_nan=True), name


def test_chance_baselines_omega():
    """Random classifiers score about ω(n): 1/n for macro R and macro P, 0 for kappa and MCC."""
    sim = chance_baseline_simulator(3, live_figure=False, n_sets=50)
    sim.set_prevalence([6, 3, 1])
    sim.set_prediction([1, 2, 2])
    sim.simulate(n_sets=4000, n_items=300, seed=1)
    summary = sim.summary()
    assert summary["macro_recall"]["omega"] == summary["macro_precision"]["omega"] == 1 / 3
    assert summary["kappa"]["omega"] == summary["mcc"]["omega"] == 0.0
    for name in ("macro_recall", "macro_precision", "kappa", "mcc"):
        spread = summary[name]["std"] / math.sqrt(4000)
        assert abs(summary[name]["mean"] - summary[name]["omega"]) < 6 * spread + 2e-3, name
        assert summary[name]["limit"] == pytest.approx(summary[name]["omega"], abs=1e-12)
    assert omega("accuracy", 3) is None
    # GmacR and HmacR: 1/n is an upper bound on the expected score of a random classifier
    assert omega("geometric_macro_recall", 4) == omega("harmonic_macro_recall", 4) == 0.25
    for name in ("geometric_macro_recall", "harmonic_macro_recall"):
        assert summary[name]["limit"] <= summary[name]["omega"] + 1e-12, name


def test_chance_slider_edit_resimulates_and_bad_input():
    """Moving a prevalence slider re-normalises and re-simulates; bad distributions raise."""
    sim = chance_baseline_simulator(2, live_figure=False, n_sets=100)
    before = sim.simulate()["accuracy"]
    sim.prevalence_sliders[0].value = 0.25  # weights (0.25, 1) -> prevalence (0.2, 0.8)
    assert np.allclose(sim.prevalence, [0.2, 0.8])
    assert not np.array_equal(sim.simulate()["accuracy"], before)
    with pytest.raises(ValueError, match="2 entries"):
        sim.set_prevalence([1, 2, 3])
    with pytest.raises(ValueError, match=">= 0"):
        sim.set_prediction([-1, 2])
    with pytest.raises(ValueError, match="2 to 6"):
        chance_baseline_simulator(7)
    with pytest.raises(ValueError, match="n_items"):
        simulate_chance([0.5, 0.5], [0.5, 0.5], n_items=-3)


# --- 6. F-measure paradox --------------------------------------------------------------------


def test_paradox_readout_uses_the_library_on_the_2x2_matrix():
    """P, R, F1 under both conventions equal the library on [[TP, FP], [FN, TN]], class 0."""
    ex = f_measure_paradox_explorer()
    ex.set_counts(3, 1, 2)
    r = ex.readout()
    m = [[3, 1], [2, 1]]
    assert r["zero"]["precision"] == pytest.approx(3 / 4) == cm.precision(m)[0]
    assert r["zero"]["recall"] == pytest.approx(3 / 5) == cm.recall(m)[0]
    assert r["nan"]["f1"] == pytest.approx(2 * 3 / (2 * 3 + 1 + 2))


def test_paradox_counterexamples_of_the_talk():
    """TP = FN = 0 < FP breaks proposition 1; TP = FP = 0 < FN breaks 3 — only with NaN."""
    ex = f_measure_paradox_explorer()
    ex.set_counts(0, 4, 0)
    r = ex.readout()
    assert r["nan"]["precision"] == 0 and math.isnan(r["nan"]["recall"])
    assert math.isnan(r["nan"]["f1"])
    assert r["propositions"][1] == {"zero": True, "nan": False}
    ex.tp.value, ex.fp.value, ex.fn.value = 0, 0, 2  # user edits
    assert ex.readout()["propositions"][3] == {"zero": True, "nan": False}
    assert "&#10007;" in ex.table.value


def test_paradox_f1_column_of_the_talk_over_all_small_counts():
    """Over all counts 0..5, F1 breaks exactly propositions 1 and 3 (with NaN), never 2 and 4."""
    broken = {"zero": set(), "nan": set()}
    for tp, fp, fn in itertools.product(range(6), repeat=3):
        props = paradox_readout(tp, fp, fn)["propositions"]
        for k, holds in props.items():
            for conv in ("zero", "nan"):
                if not holds[conv]:
                    broken[conv].add(k)
    assert broken["zero"] == set()
    assert broken["nan"] == {k for k, (_hm, f1_holds) in SOURCE_VERDICTS.items() if not f1_holds}


def test_harmonic_mean_column_of_the_talk():
    """For H with H(0, 0) = 0 on [0, 1]², propositions 1 and 3 hold, 2 and 4 fail (a > 0, b = 0)."""
    grid = [Fraction(k, 4) for k in range(5)]
    broken = set()
    for a, b in itertools.product(grid, repeat=2):
        h = 2 * a * b / (a + b) if a + b else Fraction(0)
        broken |= {
            k for k, ok in harmonic_propositions(float(a), float(b), float(h)).items() if not ok
        }
    assert broken == {k for k, (hm_holds, _f1) in SOURCE_VERDICTS.items() if not hm_holds}


def test_paradox_rejects_negative_counts():
    """Negative or fractional counts raise ValueError naming the count."""
    ex = f_measure_paradox_explorer()
    with pytest.raises(ValueError, match="FP"):
        ex.set_counts(1, -1, 0)
    with pytest.raises(ValueError, match="TP"):
        paradox_readout(0.5, 1, 1)


# --- 7. metric chooser -----------------------------------------------------------------------

TABLE = {
    "accuracy": {"PI": True, "PII": False, "PIII": False, "PIV": False, "PV": False},
    "macro_recall": {"PI": True, "PII": True, "PIII": True, "PIV": True, "PV": True},
    "macro_f1": {"PI": True, "PII": True, "PIII": True, "PIV": False, "PV": True},
    "kappa": {"PI": False, "PII": True, "PIII": False, "PIV": False, "PV": True},
    "macro_f1~": {"PI": False, "PII": True, "PIII": True, "PIV": True, "PV": True},
}


def test_chooser_filters():
    """require() ticks boxes; matching() lists the metrics with all ticked properties."""
    ch = metric_chooser(TABLE)
    assert ch.matching() == ["accuracy", "macro_recall", "macro_f1", "kappa"]
    ch.require(["PIV"])
    assert ch.matching() == ["macro_recall"]
    ch.set_calibrated(True)
    assert ch.matching() == ["macro_recall", "macro_f1~"]
    ch.require(["PI", "PIV"])
    assert ch.matching() == ["macro_recall"], "calibrated macro F1 lost PI: it must not match"
    ch.require(["PII", "PV"])
    ch.set_calibrated(False)
    assert ch.matching() == ["macro_recall", "macro_f1", "kappa"]


def test_chooser_checkbox_edit_updates_result():
    """Ticking a Checkbox (a user edit) refilters and the HTML lists the matching metrics."""
    ch = metric_chooser(TABLE)
    assert isinstance(ch.view, ipywidgets.Widget)
    ch.checkboxes["PIII"].value = True
    assert ch.matching() == ["macro_recall", "macro_f1"]
    assert "macro_recall, macro_f1" in ch.result.value
    assert "macro_f1~" not in ch.table_view.value
    ch.calibration.value = True
    assert "macro_f1~" in ch.table_view.value
    ch.checkboxes["PI"].value = False
    assert matching_metrics(TABLE, ["PIII"], calibrated=True) == ch.matching()


def test_chooser_on_the_computed_table_agrees_with_metrics_with():
    """Driven by the probes' table, the chooser answers as properties.metrics_with does."""
    from itertools import combinations

    from clfbook.properties import metrics_with, property_table

    table = property_table()
    ch = metric_chooser(table)
    for k in range(1, 6):
        for req in combinations(PROPERTIES, k):
            for cal in (False, True):
                ch.require(req)
                ch.set_calibrated(cal)
                expected = metrics_with(table, req, allow_calibration=cal)
                assert ch.matching() == expected, (req, cal)


def test_chooser_rejects_bad_tables_and_codes():
    """Unknown property codes and malformed tables raise ValueError."""
    with pytest.raises(ValueError, match="unknown property codes"):
        metric_chooser({"accuracy": {"PVI": True}})
    with pytest.raises(ValueError, match="mapping"):
        metric_chooser([1, 2])
    with pytest.raises(ValueError, match="True or False"):
        metric_chooser({"accuracy": {"PI": "calibrated"}})
    with pytest.raises(ValueError, match="unknown property codes"):
        metric_chooser(TABLE).require(["P6"])


def test_every_view_is_a_widget():
    """All seven factories return objects whose .view is an ipywidgets Widget."""
    objects = [
        confusion_matrix_explorer([[1, 2], [3, 4]], live_figure=False),
        prevalence_explorer([[1, 2], [3, 4]], live_figure=False),
        macro_f1_explorer(live_figure=False),
        nonmonotonicity_explorer(live_figure=False),
        chance_baseline_simulator(2, live_figure=False, n_sets=20),
        f_measure_paradox_explorer(),
        metric_chooser(TABLE),
    ]
    for obj in objects:
        assert isinstance(obj.view, ipywidgets.Widget), type(obj)
        assert "application/vnd.jupyter.widget-view+json" in obj._repr_mimebundle_()
