"""Intervals of metrics undefined on some resamples: computed among the defined ones, and said.

Issue 27, finding 3: a digit predicted 3 times is never predicted in some resamples; its
precision 0/0 counted as 0 set the lower end of the macro-precision interval. The intervals now
leave those resamples out and the report and the comparison name the share. A metric undefined
on the test set itself (a class never predicted) keeps 0/0 = 0 on every resample, as its
estimate does, so that its interval exists.
"""

import numpy as np

import clfmetrics as cm
from clfmetrics.inference._uncertainty import resample_matrix


def _rare_prediction():
    """Class 2 is predicted 3 times in 120 items: some resamples never predict it."""
    y = np.r_[np.zeros(50, int), np.ones(50, int), np.full(20, 2)]
    p = y.copy()
    p[:8] = 1
    p[100:117] = 0
    return y, p


def test_report_leaves_out_and_names_undefined_resamples():
    y, p = _rare_prediction()
    rep = cm.report(y, p, size=2000, rng=1)
    iv = rep.intervals["macro_precision"]
    assert 0.01 < iv.undefined < 0.2
    assert iv.low <= iv.estimate <= iv.high
    m = cm.confusion_matrix(y, p)
    assert cm.interval("macro_precision", m, size=2000, rng=1).undefined > 0.01
    # the old rule, 0/0 = 0 on every resample, lets the resamples without class 2 set the
    # lower end: a made-up precision of 0 for a class that is predicted in the test set
    stack = resample_matrix(m, 2000, np.random.default_rng(1))
    assert np.quantile(cm.macro_precision(stack), 0.025) < iv.low - 0.05
    warned = [w for w in rep.warnings if "undefined (a 0/0) on part of the resamples" in w]
    assert warned and "macro_precision" in warned[0]


def test_a_class_never_predicted_keeps_an_interval():
    y = [0, 0, 1, 1, 2, 2, 0, 1] * 5
    p = [0, 1, 1, 0, 0, 1, 0, 1] * 5
    rep = cm.report(y, p, size=500, rng=0)
    iv = rep.intervals["macro_precision"]
    assert iv.undefined == 1.0
    assert np.isfinite([iv.low, iv.high]).all() and iv.low <= iv.estimate <= iv.high
    assert not any("on part of the resamples" in w for w in rep.warnings)
    assert any("undefined on this matrix" in w for w in rep.warnings)


def test_comparison_names_undefined_resamples():
    y, p = _rare_prediction()
    q = y.copy()
    q[:5] = 1
    cmp = cm.compare(y, p, q, size=1000, rng=2)
    assert any("paired interval" in w and "macro_precision" in w for w in cmp.warnings)


def test_the_paragraph_never_prints_a_zero_width_interval():
    """Issue 27, finding 7: 9 positives, no errors, a perfect ranking."""
    y = np.r_[np.zeros(40, int), np.ones(9, int)]
    scores = np.r_[np.linspace(0, 0.4, 40), np.linspace(0.6, 1, 9)]
    rep = cm.report(y, y, scores=scores, size=500, rng=0)
    block = rep.reporting_block()
    assert "[1.000, 1.000]" not in block
    assert "every resample gave this value" in block
    assert "exact Clopper-Pearson interval" in block  # accuracy keeps its exact interval
