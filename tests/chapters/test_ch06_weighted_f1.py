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
