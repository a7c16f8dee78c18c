"""Chapter 13 (13-choosing-a-metric.md): each claim the text makes, computed or read."""

from __future__ import annotations

import numpy as np
from chapter_text import chapter

from clfbook.theory import supremum


def test_item17_the_macro_f1_gap_is_a_supremum_and_the_survey_asks_for_sensible_arguments():
    assert np.isclose(float(supremum.delta_supremum(2)), 0.5)
    text = chapter("13-choosing-a-metric")
    assert "can differ by up to {glue:text}`ch13-delta-sup" not in text
    assert "can differ by almost {glue:text}`ch13-delta-sup" in text
    assert "fewer still give a *sensible* argument" in text
