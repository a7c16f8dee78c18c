"""clfmetrics.reporting._html: the HTML report and its SVG figures."""

from __future__ import annotations

from clfmetrics.reporting._html import round_ticks, tick_text


def test_round_ticks():
    assert round_ticks(0, 1).tolist() == [0, 0.2, 0.4, 0.6, 0.8, 1.0]
    assert round_ticks(0, 0.37).tolist() == [0, 0.1, 0.2, 0.3]
    assert [tick_text(t) for t in round_ticks(0, 1)] == ["0", "0.2", "0.4", "0.6", "0.8", "1"]
