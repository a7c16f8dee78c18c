"""Chapter 14 (14-scores-and-thresholds.md): each claim the text makes, computed or read."""

from __future__ import annotations

import re

import pytest
from chapter_text import ROOT, chapter

import clfmetrics as cm
from clfbook.examples.screening import screening_data, split_sweeps, validation_choice


def test_optimism_grows_when_only_the_test_part_shrinks():
    """ch14 ~372: the chapter's second run shrinks the test part alone."""
    source = (ROOT / "chapters" / "14-scores-and-thresholds.md").read_text()
    calls = re.findall(r"split_sweeps\(x, y, \((\d+), (\d+), (\w+)\)", source)
    (train, val, test), (small_train, small_val, small_test) = calls
    assert (train, val) == (small_train, small_val) and small_test == "SMALL_TEST"
    small = int(re.search(r"^SMALL_TEST = (\d+)$", source, re.M).group(1))
    assert small < int(test)
    x, y = screening_data(3000, rng=14)
    full = validation_choice(cm.macro_f1, *split_sweeps(x, y, (1000, 1000, 1000), 150, rng=1))
    shrunk = validation_choice(cm.macro_f1, *split_sweeps(x, y, (1000, 1000, small), 150, rng=2))
    assert (shrunk[1] - shrunk[0]).mean() > 1.3 * (full[1] - full[0]).mean()
    text = chapter("14-scores-and-thresholds")
    assert "with validation and test parts of 250 items" not in text
    assert "with the same training and validation parts and a test part of" in text


def test_the_bayes_threshold_c10_over_c10_plus_c01_needs_free_correct_decisions():
    """ch14 ~1029: with costs on the diagonal the threshold moves."""
    c00, c01, c10, c11 = 0.0, 5.0, 1.0, 0.0
    assert cm.cost_threshold([[c00, c01], [c10, c11]]) == pytest.approx(c10 / (c10 + c01))
    priced = cm.cost_threshold([[0.5, 5.0], [1.0, 2.0]])
    assert priced == pytest.approx(0.5 / (0.5 + 3.0)) and priced != pytest.approx(1 / 6)
    text = chapter("14-scores-and-thresholds")
    assert "when correct decisions cost nothing, the least-cost threshold is the" in text


def test_the_two_estimands_of_a_tuned_threshold_are_named():
    """ch14 ~391 (review D14-1): the test-only interval is for the deployed threshold, the
    rule's interval for the recipe (Bates, Hastie & Tibshirani 2023); a reader who deploys
    the chosen threshold is told to report the first."""
    text = chapter("14-scores-and-thresholds")
    assert "{cite}`bates2023cross`" in text
    assert "**the deployed classifier**" in text and "**the recipe**" in text
    assert "reports the fixed-threshold interval of the test part" in text
    assert "The first is the one to report for a threshold that was chosen" not in text
    bib = (ROOT / "references.bib").read_text()
    assert "@article{bates2023cross," in bib


def test_the_band_claims_are_checked_on_the_chapters_tied_scores():
    """ch14 ~541 (review D14-2, W14-3): the band's coverage with this chapter's tied scores
    is simulated and glued; a band value is not read as 'could as well be anything'."""
    source = (ROOT / "chapters" / "14-scores-and-thresholds.md").read_text()
    assert "band_coverage(intercept, slope, len(test)" in source
    text = chapter("14-scores-and-thresholds")
    assert "{glue:text}`ch14-band-cover:.3f`" in text
    assert "could as well be anything" not in text
    assert "as part of a statement about the whole curve" in text
