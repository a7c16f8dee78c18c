"""The second review's chapter findings (issue 19, items 6-18): each claim the text now makes.

Where a finding is a number or a mathematical claim, the test computes it; where it is wording,
the test checks the source the wording was compared with and the chapter's text together.
"""

from __future__ import annotations

import ast
import itertools
import re
import warnings

import numpy as np
import pytest
from chapter_text import M7, ROOT, chapter, seed
from pybtex.database import parse_file

import clfmetrics as cm
from clfbook.properties import probe_all
from clfbook.theory import supremum
from clfmetrics import bootstrap, calibrated_macro_precision, paired_bootstrap


def test_item6_kappa_peaks_and_falls_and_the_figure_says_where():
    """Errors in (predicted z, true y) raise kappa up to a peak, then lower it."""
    added = np.arange(201)
    trace = np.repeat(M7[None], added.size, axis=0)
    trace[:, 2, 1] += added
    kappas, mccs = cm.kappa(trace), cm.mcc(trace)
    peak = int(np.argmax(kappas))
    assert 10 < peak < 200 and kappas[-1] < kappas[peak] - 0.01
    assert np.all(np.diff(kappas[: peak + 1]) > 0) and np.all(np.diff(kappas[peak:]) < 0)
    assert np.all(np.diff(mccs) > 0)
    text = chapter("07-kappa-mcc")
    assert "so the scores keep rising" not in text
    alt = re.search(r"alt: >- (.*?) figure:", text).group(1)
    assert f"peak at {peak} added errors" in alt and "0 to 200 errors" in alt
    assert "error_trace(m7, (2, 1), 200" in text and "{glue:text}`ch07-kappa-peak-at`" in text


def test_item7_a_guesser_scores_zero_in_expectation_exactly():
    """The issue's reading (only the numerator averages 0) is wrong: the scores do too.

    Every 3x3 matrix of 4 items, weighted by its multinomial probability under a skewed
    guesser: the expected kappa and MCC (undefined counted as 0) are 0 up to rounding, because
    given the row and column sums the numerator has expectation 0 and the sums fix the
    denominators. The chapter must say so, not that the mean is only approximately 0.
    """
    from scipy.stats import multinomial

    cells = np.array(
        [np.bincount(c, minlength=9) for c in itertools.combinations_with_replacement(range(9), 4)]
    )
    z, p = np.array([0.7, 0.2, 0.1]), np.array([0.2, 0.5, 0.3])
    weights = multinomial.pmf(cells, 4, np.outer(z, p).ravel())
    stack = cells.reshape(-1, 3, 3)
    assert np.isclose(weights.sum(), 1)
    assert abs(weights @ cm.kappa(stack)) < 1e-12 and abs(weights @ cm.mcc(stack)) < 1e-12
    # not an accident of symmetry: a classifier that is not a guesser averages far from 0
    biased = np.outer(z, p) + 0.05 * np.eye(3)
    weights = multinomial.pmf(cells, 4, (biased / biased.sum()).ravel())
    assert weights @ cm.kappa(stack) > 0.01
    text = chapter("07-kappa-mcc")
    assert "its mean is only approximately 0 in small samples" not in text
    assert "{glue:text}`ch07-exact-max:.1e`" in text


def test_item8_equality_of_the_means_needs_positive_recalls():
    """A zero recall makes GmacR = HmacR = min although the recalls differ."""
    m = np.array([[0, 0, 0], [3, 5, 0], [2, 0, 5]])  # class 0 never predicted
    r = cm.recall(m)
    assert r.min() == 0 and not np.allclose(r, r[0])
    assert cm.geometric_macro_recall(m) == cm.harmonic_macro_recall(m) == 0
    text = chapter("08-recall-variants")
    assert "with equality only when all recalls are equal" not in text
    assert "When every recall is positive, any two of them are equal only when" in text


def test_item9_balanced_accuracy_and_calibrated_accuracy_differ_for_an_absent_class():
    from sklearn.metrics import balanced_accuracy_score

    m = np.array([[5, 1, 0], [1, 4, 0], [1, 0, 0]])  # the third class never occurs
    y_true, y_pred = cm.to_labels(m)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sk = balanced_accuracy_score(y_true, y_pred)
    assert np.isclose(sk, (5 / 7 + 4 / 5) / 2) and abs(sk - cm.macro_recall(m)) > 0.1
    with pytest.raises(ValueError, match="never occurs"):
        cm.prevalence_calibrate(m)
    full = np.array([[5, 1, 1], [1, 4, 0], [1, 0, 2]])
    y_true, y_pred = cm.to_labels(full)
    assert np.isclose(
        balanced_accuracy_score(y_true, y_pred), cm.accuracy(cm.prevalence_calibrate(full))
    )
    text = chapter("03-macro-recall-precision")
    assert "They cannot differ (up to rounding)" not in text
    assert "but no $prevalence(i)$-normalised recall" not in text
    assert "When a class never occurs in the test set they are no longer the same" in text


def test_item10_the_pair_with_the_same_recalls_has_different_calibrated_precision():
    source = (ROOT / "chapters" / "11-prevalence-calibration.md").read_text()

    def matrix(name: str) -> np.ndarray:
        found = re.search(rf"^{name} = np\.array\((\[\[.*?\]\])\)", source, re.M)
        return np.array(ast.literal_eval(found.group(1)))

    balanced, never_negative = matrix("balanced"), matrix("never_negative")
    same = matrix("same_recalls")
    assert not np.allclose(cm.recall(balanced), cm.recall(never_negative))
    assert np.allclose(cm.recall(balanced), cm.recall(same))
    assert abs(calibrated_macro_precision(same) - calibrated_macro_precision(balanced)) > 0.05
    assert "as `balanced` and `never_negative` do, and get different" not in " ".join(
        source.split()
    )


def test_item11_the_source_latex_of_the_gradients_is_legible():
    text = seed("002")
    if text is not None:
        for latex in (r"GM\mu_{i}(R_{i}^{-1}-1)", r"HM^{2}\mu_{i}(R_{i}^{-2}-R_{"):
            assert latex in text
    chapter_text = chapter("08-recall-variants")
    assert "The text extraction of the paper garbles these" not in chapter_text
    assert "only their text extraction is garbled" not in chapter_text


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


def test_item13_zero_over_zero_is_opitz_and_bursts_convention():
    burst, closer, talk = seed("001"), seed("002"), seed("003")
    if None not in (burst, closer, talk):
        assert "when the denominator is zero" in burst
        assert "denominator is zero" not in closer and "denominator is zero" not in talk
    for stem in ("notation", "01-confusion-matrix"):
        text = chapter(stem)
        assert "like the papers" not in text and "as in the papers;" not in text, stem
        assert "{cite:t}`opitz2019macro`" in text, stem


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


def test_item16_the_blog_prose_miscounts_fn_of_a():
    blog, talk = seed("004"), seed("003")
    if blog is not None and talk is not None:
        prose = "rows where A was not predicted but was the true class, that is, 1 (the third row)"
        assert prose in " ".join(blog.split()) and "A | 2 | 1 | 2 |" in blog
        assert talk.index("Banach-Tarski") < talk.index("Accuracy Paradox")
    pred = ["A", "A", "B", "C", "A", "B", "B", "C", "C"]
    true = ["A", "A", "A", "A", "B", "B", "C", "C", "C"]
    m = cm.confusion_matrix(true, pred, labels=["A", "B", "C"])
    assert cm.prevalence(m)[0] - cm.correct(m)[0] == 2
    text = chapter("02-accuracy-micro")
    assert "The note's prose miscounts one entry" in text
    assert "opens with the accuracy paradox" not in text


def test_item17_the_macro_f1_gap_is_a_supremum_and_the_survey_asks_for_sensible_arguments():
    assert np.isclose(float(supremum.delta_supremum(2)), 0.5)
    text = chapter("13-choosing-a-metric")
    assert "can differ by up to {glue:text}`ch13-delta-sup" not in text
    assert "can differ by almost {glue:text}`ch13-delta-sup" in text
    assert "fewer still give a *sensible* argument" in text


def test_item18_the_microaveraging_post_is_cited_with_its_address():
    entry = parse_file(ROOT / "references.bib").entries["microaveraging"]
    assert entry.fields["url"] == "https://geekyisawesome.blogspot.com/2021/02/"
    assert entry.fields["year"] == "2021" and "Geeky is Awesome" in entry.fields["howpublished"]
