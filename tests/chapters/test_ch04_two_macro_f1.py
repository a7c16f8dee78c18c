"""Chapter 4 (04-two-macro-f1.md): each claim the text makes, computed or read."""

from __future__ import annotations

import numpy as np
from chapter_text import chapter

import clfmetrics as cm


def test_equality_needs_one_ratio_only_among_the_classes_that_are_sometimes_correct():
    """04 ~586, ~701: always_a has delta 0 with ratios 1/2 and 1/0."""
    always_a = np.array([[1, 1], [0, 0]])
    assert cm.delta_f1(always_a) == 0
    with np.errstate(divide="ignore"):
        ratios = cm.prevalence(always_a) / cm.bias(always_a)
    assert ratios[0] == 0.5 and np.isinf(ratios[1]) and cm.correct(always_a)[1] == 0
    text = chapter("04-two-macro-f1")
    assert "equal only when the classes share one ratio" not in text
    assert "equality when the classes share one ratio" not in text
    assert text.count("classes that are sometimes correct share one ratio") == 2
    assert "the classes that are sometimes correct share one ratio of prevalence" in text
    assert "with equality exactly when the classes that are sometimes correct share" in text


def test_part_3_leads_with_the_direct_proof_and_keeps_the_sources_route_as_a_remark():
    """Teaching (review turn5): the supremum section opens with the complete direct proof;
    the source's three moves, one of them not re-derived, follow as a remark."""
    text = chapter("04-two-macro-f1")
    part3 = text.index("### Part 3: the largest gap")
    direct = text.index("We prove the bound directly", part3)
    steps = [text.index(f"**Step {k}:", part3) for k in (1, 2, 3)]
    remark = text.index("### Remark: the source's route")
    sequence = text.index("### A sequence that approaches the supremum")
    assert part3 < direct < steps[0] < steps[1] < steps[2] < remark < sequence
    assert text.index("**We do not re-derive this step**") > remark
    assert "### The bound, and why no matrix reaches it" not in text
    assert "the next section proves the bound by another route" not in text
