"""Issue 27, section 3: the findings of the statistical review as chapters 15-17 now state them.

Where a finding is a number, the test computes it; where it is a sentence, the test pins
the sentence (and the absence of the one it replaced).
"""

from __future__ import annotations

import numpy as np
from chapter_text import ROOT, chapter
from pybtex.database import parse_file

import clfmetrics as cm
from clfbook.examples import fit_logistic, imbalanced_digits
from clfbook.examples.calibration import ece_interval
from clfmetrics import corrected_resampled_ttest, student_t_two_sided


def test_a_calibrated_forecasters_ece_interval_never_holds_its_true_ece():
    """ch15, finding 1: the true ECE of a calibrated forecaster is 0; no resample reaches 0."""
    rng = np.random.default_rng(27)
    q = rng.uniform(0.5, 1.0, 155)
    misses = 0
    for _ in range(20):
        outcome = (rng.random(155) < q).astype(int)
        iv = ece_interval(outcome, q, bins=10, size=500, rng=rng)
        misses += not (iv.low <= 0.0 <= iv.high)
        test = cm.calibration_test(outcome, q, size=500, rng=rng)
        assert test.statistic == cm.expected_calibration_error(outcome, q, bins=10)
    assert misses == 20
    text = chapter("15-probabilities")
    assert "This number gets no bootstrap interval" in text
    assert "no such interval can ever contain the truth" in text
    assert "ECE {glue:text}`ch15-ece:.3f` [" not in text


def test_chapter_15_states_both_sides_of_the_ece_and_the_classwise_check():
    text = chapter("15-probabilities")
    assert "Debiasing removes the upward bias; it does nothing for the other side." in text
    assert "the binned ECE is a *lower* bound on the calibration error" in text
    assert "They find no column miscalibrated even before scaling" in text
    assert "$\\mathrm{BS} = \\mathrm{MCB} - \\mathrm{DSC} + \\mathrm{UNC}$" in text
    bib = parse_file(ROOT / "references.bib").entries
    for key in ("kull2019beyond", "dimitriadis2021stable", "alexandari2020maximum"):
        assert key in text and key in bib


def test_chapter_15_draws_the_corp_curve_with_its_consistency_band():
    """ch15: the CORP curve is drawn with its band, and the caption says what the band
    is and assumes (the numbers of the text are glued from ``corp_bands``)."""
    text = chapter("15-probabilities")
    assert "name: fig-ch15-corp-band" in text
    assert "corp_band_diagram(corp_bands" in text
    caption = text[text.index("CORP reliability curves (isotonic fit") :]
    caption = " ".join(caption[: caption.index("name: fig-ch15-corp-band")].split())
    assert "pointwise 95 % consistency band" in caption
    assert "The band assumes independent images and holds the stated confidences fixed" in caption
    assert "{glue:text}`ch15-corp-raw-out`" in text


def _digits_matrix():
    task = imbalanced_digits(seed=0, validation=True)
    plain = fit_logistic(task)
    return cm.confusion_matrix(plain.y_test, plain.predictions, labels=list(range(10)))


def test_macro_precisions_undefined_resamples_are_those_without_a_predicted_8():
    """ch16, finding 3: 8 is predicted 3 times in 304; interval is near [0.887, 0.952]."""
    m = _digits_matrix()
    assert int(m[8].sum()) == 3 and int(m.sum()) == 304
    iv = cm.interval("macro_precision", m, rng=16)
    never = (1 - 3 / 304) ** 304
    assert abs(iv.undefined - never) < 0.01
    assert 0.88 < iv.low < 0.895 and 0.945 < iv.high < 0.96
    text = chapter("16-real-classifier")
    assert "It is undefined on {glue:text}`ch16-mp-undefined:.1f` % of the resamples" in text


def test_chapter_16_decides_only_where_interval_and_holm_agree():
    """ch16, finding 4: harmonic macro recall's interval excludes 0, its Holm test does not."""
    text = chapter("16-real-classifier")
    assert "the paired intervals decide" not in text
    assert "Harmonic macro recall shows why the rule needs both." in text
    assert "harmonic macro recall counts as undecided" in text


def test_correlated_resplits_need_the_corrected_test():
    """ch16, finding 5: with n_test = n_train the corrected t is the naive t / sqrt(1 + J)."""
    d = np.random.default_rng(5).normal(0.018, 0.012, 20)
    naive_t = d.mean() / (d.std(ddof=1) / np.sqrt(20))
    corrected = corrected_resampled_ttest(d, 304, 304)
    assert np.isclose(corrected.statistic, naive_t / np.sqrt(1 + 20))
    assert student_t_two_sided(naive_t, 19) < 0.001 < 0.05 < corrected.pvalue
    text = chapter("16-real-classifier")
    assert "more test images would settle it" not in text
    assert "{cite}`dietterich1998approximate,nadeau2003inference`" in text
    assert "the verdict follows the corrected test" in text


def test_chapter_16_states_the_small_sample_coverage_and_chapter_17_collects_it():
    text16 = chapter("16-real-classifier")
    assert "auc_coverage(n_pos, len(plain.y_test) - n_pos, auc_worst.estimate," in text16
    assert "None keeps its promise" in text16
    text17 = chapter("17-is-the-difference-real")
    assert "## What each interval covers, and where it falls short" in text17
    assert "Where coverage is known to be poor:" in text17
