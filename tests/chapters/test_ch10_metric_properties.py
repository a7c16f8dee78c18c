"""Chapter 10 (10-metric-properties.md): each claim the text makes, computed or read."""

from __future__ import annotations

import numpy as np
from chapter_text import chapter

import clfmetrics as cm
from clfbook.properties import probe_all


def test_item14_caption_names_the_cell_by_its_classes():
    text = chapter("10-metric-properties")
    assert "Adding errors to cell (2, 1)" not in text
    assert "(predicted z, true y)" in text


def test_item15_a_constant_function_of_accuracy_has_more_than_pi():
    verdicts = {
        p: bool(r) for p, r in probe_all(lambda m: np.zeros(np.shape(m)[:-2]) + 0.5).items()
    }
    assert verdicts["PIV"] and verdicts["PV"]
    text = chapter("10-metric-properties")
    assert "Only PI, and only if the function of accuracy is non-decreasing." not in text
    assert "If the function of accuracy is not constant: only PI" in text


def test_d1_the_scaled_macro_precision_equals_macro_recall_only_by_coincidence():
    """10 ~432 and 03 ~305: doubling y makes table 2 symmetric; quadrupling it does not."""

    m2 = np.array([[15, 5], [10, 10]])
    doubled, quadrupled = cm.prevalence_scale(m2, [1, 2]), cm.prevalence_scale(m2, [1, 4])
    assert (doubled == doubled.T).all() and not (quadrupled == quadrupled.T).all()
    assert np.isclose(cm.macro_precision(doubled), cm.macro_recall(m2))
    assert not np.isclose(cm.macro_precision(quadrupled), cm.macro_recall(m2))
    assert not np.isclose(cm.macro_precision(quadrupled), cm.macro_precision(m2))
    text = chapter("10-metric-properties")
    assert "no accident of the numbers" not in text
    assert "is a coincidence of this matrix" in text
    assert "ch10-macp-quadrupled" in text
    assert "is a coincidence of this example: doubling $y$ happens to make table 4" in chapter(
        "03-macro-recall-precision"
    )


def test_d10_scaling_before_calibrating_changes_only_a_global_factor():
    """10 ~444: calibration undoes a scaling up to the new total, which no metric sees."""

    m = np.array([[30, 6, 4], [10, 18, 4], [10, 6, 12]])
    once = cm.prevalence_calibrate(m)
    twice = cm.prevalence_calibrate(cm.prevalence_scale(m, [4, 0.5, 3]))
    factor = twice.sum() / once.sum()
    assert not np.isclose(factor, 1) and np.allclose(twice, factor * once)
    assert np.isclose(cm.macro_f1(twice), cm.macro_f1(once))
    text = chapter("10-metric-properties")
    assert "changes nothing, because calibration undoes it" not in text
    assert "only by a global factor, its new total" in text


def test_d11_the_agreement_is_with_the_books_reconstruction_of_table_5():
    """10 ~669: the plain marks of the paper's table were placed by the book."""
    text = chapter("10-metric-properties")
    assert "The probes and the paper agree on every raw metric" not in text
    assert "agree with our reconstruction of the paper's Table 5 on every raw" in text
