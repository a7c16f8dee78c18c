"""Chapter 18 (18-how-fast.md): each claim the text makes, computed or read."""

from __future__ import annotations

import numpy as np
from chapter_text import chapter

import clfmetrics as cm
from clfmetrics import bootstrap, paired_bootstrap


def test_item12_overlapping_intervals_and_a_paired_interval_that_excludes_zero():
    """The chapter's construction: B fixes a few of A's errors; the paired interval decides."""
    tweets = np.array([[60, 15, 5], [35, 170, 40], [5, 15, 55]])
    y_true, pred_a = cm.to_labels(tweets)
    fixed = np.flatnonzero(pred_a != y_true)[::12]
    pred_b = pred_a.copy()
    pred_b[fixed] = y_true[fixed]
    single = [
        np.percentile(
            cm.macro_f1(bootstrap(cm.confusion_matrix(y_true, p), 4000, rng=k)), [2.5, 97.5]
        )
        for k, p in enumerate((pred_a, pred_b))
    ]
    assert single[1][0] < single[0][1], "the single-system intervals overlap"
    both = paired_bootstrap(y_true, [pred_b, pred_a], 4000, rng=3)
    low = np.percentile(cm.macro_f1(both[:, 0]) - cm.macro_f1(both[:, 1]), 2.5)
    assert low > 0
    text = chapter("18-how-fast")
    assert "is not clearly better" not in text
    assert "{glue:text}`ch18-pair-low:.3f`" in text
