"""Chapter 1 (01-confusion-matrix.md): each claim the text makes, computed or read."""

from __future__ import annotations

from chapter_text import chapter, seed


def test_item13_zero_over_zero_is_opitz_and_bursts_convention():
    burst, closer, talk = seed("001"), seed("002"), seed("003")
    if None not in (burst, closer, talk):
        assert "when the denominator is zero" in burst
        assert "denominator is zero" not in closer and "denominator is zero" not in talk
    for stem in ("notation", "01-confusion-matrix"):
        text = chapter(stem)
        assert "like the papers" not in text and "as in the papers;" not in text, stem
        assert "{cite:t}`opitz2019macro`" in text, stem
