"""Chapter 5 (05-macro-f1-in-practice.md): each claim the text makes, computed or read."""

from __future__ import annotations

import numpy as np
from chapter_text import chapter, seed

import clfmetrics as cm
from clfbook.sources import experiments


def test_the_note_gives_only_the_end_points_of_its_y_axes():
    """05 ~290, ~351: the linear interpolation is the book's, in the chapter and the library."""
    note = seed("000")
    if note is not None:
        assert "[y=0]" in note and "[y=1]" in note
        assert "1-y" not in note and "(1 - y)" not in note
    # the end points are the note's, the values between them a straight line
    n = 4
    ends = experiments.skewed_prevalence(n, [0.0, 1.0])
    np.testing.assert_allclose(ends, [np.full(n, 1 / n), np.arange(1, n + 1) / 10])
    np.testing.assert_allclose(experiments.skewed_prevalence(n, 0.5), ends.mean(axis=0))
    for func in (experiments.skewed_prevalence, experiments.error_spread_conditional):
        doc = " ".join(func.__doc__.split())
        assert "give only" in doc and "end points" in doc, func.__name__
        assert "the linear interpolation between them is this book's choice" in doc
    text = chapter("05-macro-f1-in-practice")
    assert "The note gives only these two end points; the straight line between them is" in text
    assert "Again the note gives the two end points, and the straight line between" in text


def test_error_spread_keeps_every_recall_and_moves_only_the_precisions():
    """05 ~355: at y = 1 the high-numbered classes lose precision, not gain recall."""
    n, x = 4, 0.55
    expected = experiments.error_spread_conditional(n, x, 1.0) / n  # balanced classes
    np.testing.assert_allclose(cm.recall(expected), x)
    precision = cm.precision(expected)
    assert np.all(np.diff(precision) < 0) and precision[0] > x > precision[-1]
    text = chapter("05-macro-f1-in-practice")
    assert "(high recall, low precision)" not in text
    assert "Every class keeps its recall $x$" in text


def test_d12_a_uniform_guessers_f1_of_averages_is_one_over_n_not_one_half():
    """05 ~113: one half holds for two classes; with n classes it is 1/n."""
    for shares in ([0.95, 0.05], [0.90, 0.07, 0.03], [0.4, 0.3, 0.2, 0.1]):
        n = len(shares)
        expected = np.outer(np.full(n, 1 / n), shares)  # m[i, j] = z_i * p_j
        assert np.isclose(cm.f1_of_averages(expected), 1 / n)
    text = chapter("05-macro-f1-in-practice")
    assert "for two classes, $\\mathbb{F}_1$ is about one half for *every* class" in text
    assert "ch05-expected-3-f1avg" in text
