"""Chapter 16 (16-real-classifier.md): each claim the text makes, computed or read."""

from __future__ import annotations

import math
import re

import numpy as np
from chapter_text import chapter

import clfmetrics as cm
from clfbook.examples import fit_logistic, imbalanced_digits
from clfmetrics import AUC_COVERAGE, corrected_resampled_ttest, student_t_two_sided


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
    assert "cover = {m: dict(zip(KEYS, AUC_COVERAGE[(*STUDY, m)])) for m in AUC_METHODS}" in text16
    assert "None keeps its promise" in text16
    text17 = chapter("17-is-the-difference-real")
    assert "## What each interval covers, and where it falls short" in text17
    assert "Where coverage is known to be poor:" in text17


def test_the_resplit_heuristic_and_its_size_are_stated():
    """ch16 ~930 (review D16-3, W16-3b): n_test/n_train is rho/(1 - rho) with Nadeau &
    Bengio's rho = n_test/(n_test + n_train); the test's size here is simulated."""
    n_train, n_test = 304, 304
    rho = n_test / (n_test + n_train)
    assert rho / (1 - rho) == n_test / n_train
    text = chapter("16-real-classifier")
    assert "whose $\\rho / (1 - \\rho)$ is the $n_\\text{test}/n_\\text{train}$" in text
    assert "{glue:text}`ch16-null-corrected:.3f`" in text
    assert "non-rejection here is weak evidence" in text
    from clfmetrics.inference import _resplits

    assert "\\rho / (1 - \\rho)" in _resplits.corrected_resampled_ttest.__doc__


def test_the_harmonic_macro_recall_mechanism_is_the_discordant_images():
    """ch16 ~695 (review D16-4): the degenerate resamples are not why the interval excludes
    zero; four discordant images, missed by (1 - 4/304)**304 < 2.5 % of the resamples, and
    their exact sign test (p = 0.125) are."""
    from scipy.stats import binomtest

    assert (1 - 4 / 304) ** 304 < 0.025
    assert binomtest(4, 4).pvalue == 0.125
    text = chapter("16-real-classifier")
    assert "those resamples alone pull the difference away from zero" not in text
    assert "but they are not why it excludes zero" in text
    assert "The exact sign test on those discordant images" in text
    assert "{glue:text}`ch16-mp-cover:.3f` of the time, below its nominal 95 %" in text


def test_chapter_16s_coverage_study_has_the_sets_to_rank_bca_and_shows_the_misses_side():
    """D16-1: the study of the digit's AUC intervals (the shipped table's cell, which the
    chapter reruns in part) has enough test sets to tell BCa from the percentile interval,
    shows on which side the intervals miss, and its table of cells is the shipped one."""
    text = chapter("16-real-classifier")
    study = re.search(r"STUDY = \((\d+), (\d+), ([\d.]+)\)", text)
    cell = (int(study[1]), int(study[2]), float(study[3]))
    assert cell == (14, 25, 0.96)
    assert "rerun = simulate_cell(*STUDY, methods=" in text
    sets = AUC_COVERAGE[(*cell, "bca")][4]
    assert sets == AUC_COVERAGE[(*cell, "percentile")][4]
    bca, pct = (AUC_COVERAGE[(*cell, m)][0] for m in ("bca", "percentile"))
    assert bca - pct > 2 * math.hypot(*(math.sqrt(c * (1 - c) / sets) for c in (bca, pct)))
    assert "detail=True" in text and "The interval lay wholly *above*" in text
    assert "AUC_COVERAGE[(small, RATIO, a, m)][0]" in text
