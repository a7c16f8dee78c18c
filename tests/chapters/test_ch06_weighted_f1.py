"""Chapter 6 (06-weighted-f1.md): each claim the text makes, computed or read."""

from __future__ import annotations

import numpy as np
import pytest
from chapter_text import chapter

import clfmetrics as cm
from clfbook.sources.search import all_counts, smallest_rise


def test_the_extra_error_moves_f1_of_b_from_two_thirds_to_one_half():
    """06 ~333: b's F1 goes from 2/3 to 1/2 while its count doubles."""
    candidates = np.concatenate([all_counts(3, total) for total in range(3, 6)])
    rise = smallest_rise(cm.weighted_f1, candidates)
    j = rise.cell[1]
    assert cm.f1(rise.before)[j] == pytest.approx(2 / 3)
    assert cm.f1(rise.after)[j] == pytest.approx(1 / 2)
    assert cm.prevalence(rise.after)[j] == 2 * cm.prevalence(rise.before)[j]
    text = chapter("06-weighted-f1")
    assert "lowers b's F1 a little" not in text
    assert "It lowers b's F1 from {glue:text}`ch06-cx-f1-before` to" in text


def test_d4_the_positive_term_is_largest_at_bias_equal_prevalence():
    """06 ~192: T = 2yz/(x+y)^2 falls as class j is over-predicted; the rise condition is
    T > 2 x_i z_i/(x_i+y_i)^2 + weightF1 (appendix F.1), which the smallest example meets."""
    import sympy as sp

    x, y, z = sp.symbols("x y z", positive=True)
    t = 2 * y * z / (x + y) ** 2
    assert sp.simplify(sp.diff(t, y) - 2 * z * (x - y) / (x + y) ** 3) == 0
    values = [t.subs({x: 1, z: 1, y: v}) for v in (1, 2, 3, 10)]
    assert values == [sp.Rational(1, 2), sp.Rational(4, 9), sp.Rational(3, 8), sp.Rational(20, 121)]
    every = np.concatenate([all_counts(2, n, require_seen=False) for n in range(1, 6)])
    rise = smallest_rise(cm.weighted_f1, every)
    (i, j), m = rise.cell, rise.before
    xs, ys, zs = cm.prevalence(m), cm.bias(m), cm.correct(m)
    positive = 2 * ys[j] * zs[j] / (xs[j] + ys[j]) ** 2
    threshold = 2 * xs[i] * zs[i] / (xs[i] + ys[i]) ** 2 + cm.weighted_f1(m)
    assert positive > threshold and ys[j] > xs[j]
    assert cm.weighted_f1(rise.after) > cm.weighted_f1(m)
    text = chapter("06-weighted-f1")
    assert "is over-predicted ($y_j$ large), while" not in text
    assert "which is the condition of the source's appendix F.1" in text
    assert "ch06-T-y10" in text and "ch06-tiny-T" in text


def test_d2_the_summary_says_the_macro_f1_of_the_calibrated_matrix():
    """06 summary, the twin of 11 ~19: weightF1(m~) = macF1(m~), not macF1(m)."""
    text = chapter("06-weighted-f1")
    assert "prevalence calibration it becomes macro F1." not in text
    assert "it equals the macro F1 of the calibrated matrix" in text
