"""The corrected resampled t-test (Nadeau & Bengio 2003) against a direct computation."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

import clfmetrics as cm


def test_statistic_and_pvalue_equal_the_formula_computed_directly():
    rng = np.random.default_rng(0)
    d = rng.normal(0.01, 0.02, 20)
    r = cm.corrected_resampled_ttest(d, 1200, 597)
    j = len(d)
    mean = sum(d) / j
    var = sum((x - mean) ** 2 for x in d) / (j - 1)
    t = mean / math.sqrt((1 / j + 597 / 1200) * var)
    assert r.statistic == pytest.approx(t, rel=1e-12)
    assert r.pvalue == pytest.approx(2 * stats.t.sf(abs(t), j - 1), rel=1e-11)
    assert r.df == j - 1 and r.mean == pytest.approx(mean)


def test_it_is_more_cautious_than_the_ordinary_paired_ttest():
    d = np.random.default_rng(1).normal(0.01, 0.02, 20)
    naive = stats.ttest_1samp(d, 0.0).pvalue
    assert cm.corrected_resampled_ttest(d, 1200, 597).pvalue > naive
    # With a vanishing test share the correction vanishes: the ordinary t-test.
    assert cm.corrected_resampled_ttest(d, 10**12, 1).pvalue == pytest.approx(naive, rel=1e-6)


def test_constant_differences():
    assert cm.corrected_resampled_ttest([0.0, 0.0, 0.0], 10, 5).pvalue == 1.0
    r = cm.corrected_resampled_ttest([0.1, 0.1], 10, 5)
    assert r.pvalue == 0.0 and r.statistic == math.inf


@pytest.mark.parametrize(
    ("args", "match"),
    [
        (([0.1], 10, 5), "at least 2"),
        (([0.1, np.nan], 10, 5), "NaN"),
        (([0.1, 0.2], 0, 5), "n_train"),
        (([0.1, 0.2], 10, 2.5), "n_test"),
        ((["a", "b"], 10, 5), "numbers"),
    ],
)
def test_bad_input_raises(args, match):
    with pytest.raises(ValueError, match=match):
        cm.corrected_resampled_ttest(*args)


@pytest.mark.parametrize("df", [1, 2, 5, 19, 99, 1000])
def test_the_t_tail_equals_scipys(df):
    from clfmetrics import student_t_two_sided

    for t in [0.0, 0.01, 0.5, 1.0, 2.0, 3.5, 8.0, 40.0, -2.5]:
        want = 2 * stats.t.sf(abs(t), df)
        assert student_t_two_sided(t, df) == pytest.approx(want, rel=1e-11, abs=1e-300)
