"""Chapter 10 (10-metric-properties.md): each claim the text makes, computed or read."""

from __future__ import annotations

import numpy as np
from chapter_text import chapter

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
