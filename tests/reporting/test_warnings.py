"""clfmetrics.reporting._warnings: what the report and the comparison warn about, and when.

Convention: ``m[i, j]`` = items predicted as class i whose true class is j.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import binomtest

import clfmetrics as cm
from clfmetrics.inference import Interval
from clfmetrics.reporting._warnings import (
    EXACT_BELOW,
    TINY_CLASS,
    class_warnings,
    exact_intervals,
    exact_section,
    exact_warnings,
    imbalance_warning,
    needs_exact,
    undefined_metrics,
    undefined_share_warnings,
)

LABELS = ["a", "b", "c"]


def _iv(estimate, low, high, undefined=0.0):
    return Interval(estimate, low, high, 0.95, "percentile, 100 resamples", undefined)


def test_a_0_over_0_names_exactly_the_metrics_it_leaves_undefined():
    never_predicted = np.array([[20, 3, 2], [4, 30, 1], [0, 0, 0]])  # c is never predicted
    named = undefined_metrics(never_predicted, cm.METRICS)
    assert len(named) == 1 and "zero_division=0" in named[0]
    listed = named[0].split(": ", 1)[1].split(";")[0].split(", ")
    expected = [
        name
        for name, f in cm.METRICS.items()
        if name not in ("accuracy", "micro_precision", "micro_recall", "micro_f1")
        and np.isnan(f(never_predicted, zero_division="nan"))
    ]
    assert listed == expected and "macro_precision" in listed and "macro_recall" not in listed
    assert undefined_metrics(np.array([[5, 1], [2, 7]]), cm.METRICS) == []


def test_only_a_share_of_undefined_resamples_between_1_percent_and_all_is_named():
    intervals = {
        "kappa": _iv(0.5, 0.4, 0.6, undefined=0.005),
        "macro_f1": _iv(0.5, 0.4, 0.6, undefined=0.25),
        "mcc": _iv(0.5, 0.4, 0.6, undefined=1.0),  # undefined everywhere: undefined_metrics
    }
    (text,) = undefined_share_warnings(intervals)
    assert "macro_f1 25.0%" in text and "kappa" not in text and "mcc" not in text
    assert undefined_share_warnings({"kappa": intervals["kappa"]}) == []


def test_imbalance_is_flagged_from_three_times_the_smallest_class():
    intervals = {"accuracy": _iv(0.9, 0.8, 1.0), "macro_recall": _iv(0.6, 0.5, 0.7)}
    (text,) = imbalance_warning(np.array([0.75, 0.25]), intervals)
    assert "largest 3.0 times the smallest" in text and "(0.900)" in text and "(0.600)" in text
    assert imbalance_warning(np.array([0.7, 0.3]), intervals) == []
    assert imbalance_warning(np.array([1.0]), intervals) == []


def test_each_class_is_flagged_for_what_it_lacks():
    m = np.array([[40, 0, 2], [3, 0, 1], [0, 0, 0]])  # b never occurs, c never predicted, 3 of c
    warnings = class_warnings(m, LABELS, system="sys1")
    assert any(w.startswith("class b never occurs in y_true") for w in warnings)
    assert any(w.startswith("class c is never predicted by sys1") for w in warnings)
    assert any(w.startswith("class c has only 3 items") and "1/3" in w for w in warnings)
    assert not any(w.startswith("class a") for w in warnings)  # 43 items, predicted
    assert len(warnings) == 3
    big = np.diag([TINY_CLASS, TINY_CLASS, TINY_CLASS])
    assert class_warnings(big, LABELS) == []


def test_the_exact_intervals_are_scipys_clopper_pearson():
    m = np.array([[8, 1, 0], [2, 30, 1], [0, 4, 5]])
    exact = exact_intervals(m, LABELS, 0.95)
    for entry, (k, n) in [
        (exact["accuracy"], (43, 51)),
        (exact["recall"]["a"], (8, 10)),
        (exact["recall"]["b"], (30, 35)),
        (exact["recall"]["c"], (5, 6)),
    ]:
        ci = binomtest(k, n).proportion_ci(0.95, method="exact")
        assert (entry["successes"], entry["trials"]) == (k, n) and entry["estimate"] == k / n
        assert entry["low"] == pytest.approx(ci.low, abs=1e-9)
        assert entry["high"] == pytest.approx(ci.high, abs=1e-9)
    absent = exact_intervals(np.array([[5, 0], [2, 0]]), ["x", "y"], 0.95)
    assert list(absent["recall"]) == ["x"]  # y never occurs: no recall to bound


def test_small_classes_and_flat_intervals_call_for_the_exact_intervals():
    small = np.array([[EXACT_BELOW - 1, 0], [0, 50]])
    wide = {"accuracy": _iv(0.9, 0.8, 1.0)}
    flat = {"accuracy": _iv(1.0, 1.0, 1.0)}
    assert needs_exact(wide, small) and needs_exact(flat, np.diag([50, 50]))
    assert not needs_exact(wide, np.diag([EXACT_BELOW, 50]))
    exact = exact_intervals(small, ["x", "y"], 0.95)
    warnings = exact_warnings(flat, small, ["x", "y"], exact)
    assert warnings[0].startswith("zero-width bootstrap intervals (accuracy)")
    assert warnings[1].startswith(f"class x has fewer than {EXACT_BELOW} items (9)")
    assert len(warnings) == 2


def test_the_exact_section_lists_accuracy_then_each_recall():
    m = np.array([[8, 1], [2, 30]])
    (section,) = exact_section(exact_intervals(m, ["x", "y"], 0.9), 0.9)
    assert "90% Clopper-Pearson" in section.title
    assert [row[0] for row in section.rows] == ["accuracy", "recall of x", "recall of y"]
    assert section.rows[1][-1] == "8 / 10" and section.rows[0][-1] == "38 / 41"
