"""The property probes of clfbook.properties against Opitz (2024), section 3-4 and Table 5."""

from __future__ import annotations

import functools
from fractions import Fraction

import matplotlib
import numpy as np
import pytest
import sympy as sp

import clfmetrics as cm
from clfbook.properties import (
    EXPONENT_RANGE,
    PAPER_M7,
    PAPER_TABLE_5,
    PROPERTIES,
    calibrated,
    compare_with_paper,
    expected_random_matrix,
    is_chance_corrected,
    is_class_sensitive,
    is_decomposable,
    is_monotonic,
    is_prevalence_invariant,
    metrics_with,
    property_table,
)
from clfmetrics import power_mean_recall

matplotlib.use("Agg")


def macr_squared(m):
    return cm.macro_recall(m) ** 2


def error_rate_reward(m):
    """A made-up metric that rewards errors: 1 - accuracy."""
    return 1.0 - cm.accuracy(m)


@pytest.fixture(scope="module")
def table():
    return property_table()


# ------------------------------------------------------------------ PI


def test_monotonic_made_up_metrics():
    """macR**2 keeps PI (no counterexample); a metric rewarding errors is refuted by one."""
    assert is_monotonic(macr_squared)
    bad = is_monotonic(error_rate_reward)
    assert not bad
    ev = bad.counterexample
    i, j = ev["cell"]
    assert error_rate_reward(ev["m_after"]) != pytest.approx(error_rate_reward(ev["m"]))
    # the counterexample is real: recompute it
    if i == j:
        assert error_rate_reward(ev["m_after"]) < error_rate_reward(ev["m"])
    else:
        assert error_rate_reward(ev["m_after"]) > error_rate_reward(ev["m"])


@pytest.mark.parametrize("name", ["weighted_f1", "kappa", "mcc"])
def test_non_monotonic_counterexamples_are_real(name):
    """For weighted F1, kappa and MCC the probe finds an added error that raises the score."""
    metric = cm.METRICS[name]
    res = is_monotonic(metric)
    assert not res and res.kind == "counterexample"
    ev = res.counterexample
    i, j = ev["cell"]
    assert i != j, "the violation should be an error raising the score"
    expected = ev["m"].copy()
    expected[i, j] += ev["step"]
    assert np.array_equal(ev["m_after"], expected), "m_after is m plus the step in one cell"
    assert metric(ev["m_after"]) > metric(ev["m"]) + 1e-6


def test_paper_tables_7_8_exact():
    """Tables 7/8: adding 10 to m[2,1] of m7 raises MCC from 0 to 0.07 and kappa from 0 to 0.02.

    Exact values by hand with fractions (counts: r s - p.b over the denominators).
    """
    m7 = [[10, 43, 0], [1, 1, 0], [0, 0, 1]]
    m8 = [[10, 43, 0], [1, 1, 0], [0, 10, 1]]

    def exact(m):
        m = sp.Matrix(m)
        s = sum(m)
        r = sum(m[i, i] for i in range(3))
        b = [sum(m.row(i)) for i in range(3)]
        p = [sum(m.col(j)) for j in range(3)]
        pb = sum(x * y for x, y in zip(p, b, strict=True))
        num = r * s - pb
        kap = sp.Rational(num, s * s - pb)
        mc = num / sp.sqrt((s * s - sum(x * x for x in p)) * (s * s - sum(x * x for x in b)))
        return kap, mc

    k7, c7 = exact(m7)
    k8, c8 = exact(m8)
    assert k7 == 0 and c7 == 0
    assert round(float(c8), 2) == 0.07 and round(float(k8), 2) == 0.02
    assert cm.mcc(m8) == pytest.approx(float(c8)) and cm.kappa(m8) == pytest.approx(float(k8))
    assert np.array_equal(PAPER_M7, np.array(m7, dtype=float))


# ------------------------------------------------------------------ PII


def test_class_sensitivity():
    """Accuracy has no PII (no witness); macro recall has one, and the witness is real."""
    assert not is_class_sensitive(cm.accuracy)
    res = is_class_sensitive(cm.macro_recall)
    assert res and res.kind == "witness"
    m = res.evidence["m"]
    (a, b), (c, d) = res.evidence["cells"]
    bumped = []
    for i, j in ((a, b), (c, d)):
        x = m.copy()
        x[i, j] += 1
        bumped.append(cm.macro_recall(x))
    assert abs(bumped[0] - bumped[1]) > 1e-6
    assert (a == b) == (c == d), "a witness compares two correct cells or two error cells"
    # the witness is the one the chapter describes: whole counts, two correct items, and the
    # item of the rarer class is worth more
    assert np.array_equal(m, np.round(m)) and a == b and c == d
    assert res.evidence["scores"] == (bumped[0], bumped[1]) and bumped[0] > bumped[1]
    assert cm.prevalence(m)[a] < cm.prevalence(m)[c]


@pytest.mark.parametrize("name", ["macro_precision", "kappa", "mcc", "weighted_f1"])
def test_class_sensitivity_witness_in_whole_counts(name):
    """Every PII witness of the table's metrics is a matrix of whole counts."""
    res = is_class_sensitive(cm.METRICS[name])
    assert res and np.array_equal(res.evidence["m"], np.round(res.evidence["m"]))


# ------------------------------------------------------------------ PIII


@pytest.mark.parametrize(
    ("metric", "exponent"),
    [
        (cm.macro_recall, 1.0),
        (cm.macro_precision, 1.0),
        (cm.macro_f1, 1.0),
        (cm.geometric_macro_recall, 0.0),
        (cm.harmonic_macro_recall, -1.0),
        (macr_squared, 0.5),
        (functools.partial(power_mean_recall, p=0.3), 0.3),
        (functools.partial(power_mean_recall, p=5), 5.0),
        (functools.partial(power_mean_recall, p=-2.5), -2.5),
    ],
)
def test_decomposable_metrics_pass_with_their_exponent(metric, exponent):
    """Generalised means over classes pass the necessary condition at their own exponent p,
    found by the continuous search also off the old grid of quarters (0.3) and beyond it (5)."""
    res = is_decomposable(metric)
    assert res and res.kind == "necessary condition"
    assert res.evidence["exponents"] == [exponent]
    assert res.evidence["largest_relative_difference"] < 1e-6


def test_decomposable_searches_continuously_between_grid_points():
    """An exponent between two scan points (7.33) is still found; min recall (p = -inf) is not
    a generalised mean with any exponent in the searched range, and the verdict says so."""
    lo, hi = EXPONENT_RANGE
    assert lo <= -4 and hi >= 5
    res = is_decomposable(functools.partial(power_mean_recall, p=7.33))
    assert res and res.evidence["exponents"] == [7.33]
    worst = is_decomposable(lambda m: cm.recall(m).min(axis=-1))
    assert not worst and f"[{lo:g}, {hi:g}]" in worst.detail


@pytest.mark.parametrize("name", ["accuracy", "f1_of_averages", "weighted_f1", "kappa", "mcc"])
def test_non_decomposable_metrics_are_refuted(name):
    """Accuracy, F1 of averages, weighted F1, kappa, MCC: cells sharing no class interact."""
    metric = cm.METRICS[name]
    res = is_decomposable(metric)
    assert not res and res.evidence["exponents"] == []
    assert res.evidence["largest_relative_difference"] > 1e-3, "far from any exponent"
    m, (a, b), step = res.evidence["m"], res.evidence["cells"], res.evidence["step"]
    assert not ({a[0], a[1]} & {b[0], b[1]}), "the two cells must share no class"
    ea, eb = np.zeros_like(m), np.zeros_like(m)
    ea[a], eb[b] = step, step
    d = metric(m + ea + eb) - metric(m + ea) - metric(m + eb) + metric(m)
    assert abs(d) > 1e-6


# ------------------------------------------------------------------ PIV


def test_prevalence_invariance():
    """macR has PIV; macP lacks it and the counterexample is m vs m·λ."""
    assert is_prevalence_invariant(cm.macro_recall)
    res = is_prevalence_invariant(cm.macro_precision)
    assert not res
    ev = res.counterexample
    assert np.allclose(ev["m_after"], cm.prevalence_scale(ev["m"], ev["lam"]))
    assert abs(cm.macro_precision(ev["m"]) - cm.macro_precision(ev["m_after"])) > 1e-6


def test_paper_c4_example():
    """Appendix C.4: macP of tables 2/4 is 5/8 before and 19/30 after λ = (1, 2)."""
    m = [[15, 5], [10, 10]]
    before = Fraction(1, 2) * (Fraction(15, 20) + Fraction(10, 20))
    after = Fraction(1, 2) * (Fraction(15, 25) + Fraction(20, 30))
    assert before == Fraction(5, 8) and after == Fraction(19, 30)
    assert cm.macro_precision(m) == pytest.approx(float(before))
    assert cm.macro_precision(cm.prevalence_scale(m, [1, 2])) == pytest.approx(float(after))


# ------------------------------------------------------------------ PV


def test_expected_random_matrix():
    """m_ij = z_i p_j: rows sum to z (the bias), columns to p (the prevalence)."""
    p, z = np.array([0.5, 0.3, 0.2]), np.array([0.1, 0.1, 0.8])
    m = expected_random_matrix(p, z)
    assert np.allclose(m.sum(axis=1), z) and np.allclose(m.sum(axis=0), p)


@pytest.mark.parametrize("name", ["macro_recall", "macro_precision", "f1_of_averages"])
def test_chance_one_over_n_strict(name):
    """macR, macP (B.5, C.5) and macF1' (E.5): every random classifier scores 1/n (strict)."""
    res = is_chance_corrected(cm.METRICS[name])
    assert res and res.strict and not res.complete
    for n, (lo, hi) in res.baselines.items():
        assert lo == pytest.approx(1 / n, abs=1e-9) and hi == pytest.approx(1 / n, abs=1e-9)
    assert res.note == "1/n, strict"


@pytest.mark.parametrize("name", ["kappa", "mcc"])
def test_chance_zero_complete(name):
    """Kappa and MCC (G.5): every random classifier scores 0 for every n (complete)."""
    res = is_chance_corrected(cm.METRICS[name])
    assert res and res.strict and res.complete and res.note == "0, complete"
    assert all(abs(v) < 1e-9 for v in res.omega.values())


@pytest.mark.parametrize("name", ["macro_f1", "geometric_macro_recall", "harmonic_macro_recall"])
def test_chance_one_over_n_not_strict(name):
    """macF1 (D.5, max at z = p), GmacR and HmacR (B.5): ω(n) = 1/n, but not strict."""
    res = is_chance_corrected(cm.METRICS[name])
    assert res and not res.strict and res.note == "1/n"
    for n, hi in res.omega.items():
        assert hi == pytest.approx(1 / n, abs=1e-6)


@pytest.mark.parametrize("name", ["accuracy", "weighted_f1"])
def test_no_chance_correction(name):
    """Accuracy and weighted F1: the best random score depends on the prevalences."""
    res = is_chance_corrected(cm.METRICS[name])
    assert not res
    ev = res.evidence
    assert ev["best_high"] - ev["best_low"] > 0.1


# ------------------------------------------------------------------ Table 5


def test_paper_table_transcription():
    """The transcribed Table 5 has every metric and property, with the printed PV notes."""
    assert set(PAPER_TABLE_5) == set(cm.METRICS) - {
        "micro_precision", "micro_recall", "micro_f1", "delta_f1",
    }  # fmt: skip
    for row in PAPER_TABLE_5.values():
        assert set(row) == {*PROPERTIES, "PV_note"}
    notes = {k: v["PV_note"] for k, v in PAPER_TABLE_5.items()}
    assert notes["macro_recall"] == notes["macro_precision"] == "1/n, strict"
    assert notes["kappa"] == notes["mcc"] == "0, complete"
    assert notes["macro_f1"] == "1/n"


@pytest.mark.parametrize("prop", ["PI", "PII", "PIV", "PV"])
def test_table_reproduces_paper_raw_verdicts(table, prop):
    """On PI, PII, PIV and PV the probes agree with Table 5 for every raw metric."""
    for name, row in PAPER_TABLE_5.items():
        assert bool(table.raw[name][prop]) == (row[prop] == "✓"), (name, prop)
    for name, row in PAPER_TABLE_5.items():
        assert table.note(name) == row["PV_note"] or row["PV"] != "✓", name


def test_table_disagreements_are_exactly_the_explained_ones(table):
    """The only contradictions: weighted F1~ is not decomposable; kappa~ has PI and PIII."""
    found = compare_with_paper(table)
    contra = {(d.metric, d.prop) for d in found if d.kind == "disagreement"}
    assert contra == {("weighted_f1", "PIII"), ("kappa", "PI"), ("kappa", "PIII")}
    silent = {(d.metric, d.prop) for d in found if d.kind == "silent"}
    assert silent == {
        ("macro_precision", "PI"), ("macro_precision", "PIII"),
        ("macro_f1", "PI"), ("macro_f1", "PIII"), ("f1_of_averages", "PI"),
    }  # fmt: skip
    for d in found:
        if d.kind == "silent" or d.metric == "weighted_f1":
            assert not d.result and d.result.evidence, "a lost property comes with evidence"
    # Chapter 10: every listed cell concerns a calibrated version; the raw metrics agree.
    for d in found:
        assert d.result is table.cal[d.metric][d.prop], (d.metric, d.prop)


def test_paper_table_calibration_marks_are_where_chapter_10_says():
    """The extraction kept only the count of (✓) per row; their placement is inferred."""
    marks = {
        name: [p for p in PROPERTIES if row[p] == "(✓)"] for name, row in PAPER_TABLE_5.items()
    }
    counts = {name: len(cols) for name, cols in marks.items()}
    # the counts the extraction kept (GmacR and HmacR share one printed row)
    assert counts == {
        "accuracy": 4, "macro_recall": 0, "geometric_macro_recall": 0,
        "harmonic_macro_recall": 0, "macro_precision": 1, "macro_f1": 1,
        "f1_of_averages": 1, "weighted_f1": 3, "kappa": 1, "mcc": 1,
    }  # fmt: skip
    # "through prevalence calibration, all metrics obtain PIV" (section 6.1)
    for row in PAPER_TABLE_5.values():
        assert row["PIV"] in ("✓", "(✓)")
    assert (
        marks["accuracy"] == ["PII", "PIII", "PIV", "PV"] and PAPER_TABLE_5["accuracy"]["PI"] == "✓"
    )


def test_scaling_to_bias_equal_prevalence_turns_precision_into_recall():
    """Chapter 10's coincidence: if m λ has bias = prevalence, then macP(m λ) = macR(m)."""
    m2 = np.array([[15, 5], [10, 10]])
    scaled = cm.prevalence_scale(m2, [1, 2])
    assert (cm.bias(scaled) == cm.prevalence(scaled)).all()
    assert cm.macro_precision(scaled) == pytest.approx(cm.macro_recall(m2), rel=1e-15)
    assert cm.macro_precision(scaled) == pytest.approx((15 / 25 + 20 / 30) / 2, rel=1e-15)


def test_kappa_calibrated_is_affine_in_macro_recall():
    """Eq. 16: kappa(m λ~) = (macR - 1/n) / (1 - 1/n), so kappa~ inherits PI and PIII of macR."""
    rng = np.random.default_rng(7)
    m = rng.integers(1, 40, size=(200, 4, 4))
    n = 4
    lhs = cm.kappa(cm.prevalence_calibrate(m))
    assert np.allclose(lhs, (cm.macro_recall(m) - 1 / n) / (1 - 1 / n))


def test_calibration_identities():
    """Accuracy~ = macR (eq. 8) and weighted F1~ = macro F1~ (section 4.6)."""
    rng = np.random.default_rng(8)
    m = rng.integers(1, 40, size=(200, 3, 3))
    c = cm.prevalence_calibrate(m)
    assert np.allclose(cm.accuracy(c), cm.macro_recall(m))
    assert np.allclose(cm.weighted_f1(c), cm.macro_f1(c))


def test_weighted_f1_calibrated_counterexample_is_real(table):
    """weighted F1~ fails the PIII condition on raw matrices: recompute the mixed difference."""
    res = table.cal["weighted_f1"]["PIII"]
    m, (a, b), step = res.evidence["m"], res.evidence["cells"], res.evidence["step"]
    f = calibrated(cm.weighted_f1)
    ea, eb = np.zeros_like(m), np.zeros_like(m)
    ea[a], eb[b] = step, step
    assert abs(f(m + ea + eb) - f(m + ea) - f(m + eb) + f(m)) > 1e-6


# ------------------------------------------------------------------ the rest


def test_determinism():
    """Probes are seeded: two runs give the same verdict and the same counterexample."""
    a, b = is_monotonic(cm.mcc), is_monotonic(cm.mcc)
    assert np.array_equal(a.evidence["m"], b.evidence["m"]) and a.detail == b.detail
    c, d = (
        is_chance_corrected(cm.geometric_macro_recall),
        is_chance_corrected(cm.geometric_macro_recall),
    )
    assert c.baselines == d.baselines


def test_result_objects_print():
    """Results are truthy/falsy and print their verdict and evidence as text and HTML."""
    res = is_prevalence_invariant(cm.macro_precision)
    assert "fails" in repr(res) and "m_after" in repr(res)
    assert "<table" in res._repr_html_()
    ok = is_chance_corrected(cm.kappa)
    assert "complete: True" in repr(ok) and "ω(n)" in ok._repr_html_()


def test_metrics_with(table):
    """Decision aid: PIV alone holds for the macro recalls; with calibration every metric has it."""
    assert metrics_with(table, {"PIV"}) == [
        "macro_recall", "geometric_macro_recall", "harmonic_macro_recall",
    ]  # fmt: skip
    with_cal = metrics_with(table, {"PIV"}, allow_calibration=True)
    assert all(name + "~" in with_cal for name in table.names)
    with pytest.raises(ValueError, match="unknown property"):
        metrics_with(table, {"PVI"})


def test_bad_metric_is_rejected():
    """A metric that does not map a stack (k, n, n) to (k,) is refused with a clear message."""
    with pytest.raises(ValueError, match="must map a stack"):
        is_monotonic(lambda m: 0.5)


def test_figures(table):
    """The figure functions return a figure with labelled axes."""
    from clfbook.plots.properties import chance_baselines, property_grid, score_under_errors

    fig = score_under_errors({"MCC": cm.mcc}, PAPER_M7, (2, 1))
    assert fig.axes[0].get_xlabel() and fig.axes[0].get_ylabel()
    fig = chance_baselines({"kappa": is_chance_corrected(cm.kappa)})
    assert fig.axes[0].get_ylabel()
    fig = property_grid(table)
    assert fig.axes[0].get_ylabel() == "metric"
