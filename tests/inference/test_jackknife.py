"""The large-sample (jackknife) interval of every metric: clfmetrics.inference.

Checked against a published closed form (the large-sample variance of Cohen's kappa,
Fleiss, Cohen & Everitt 1969), against the bootstrap's spread, and by its coverage in
simulation; the page's port (``_static/clfmetrics.js``) is checked in
``tests/book/test_page_intervals.py``.
"""

from __future__ import annotations

from statistics import NormalDist

import numpy as np
import pytest

from clfmetrics import METRICS, jackknife_interval, jackknife_se
from clfmetrics.inference._uncertainty import resample_matrix

TWEETS = np.array([[60, 15, 5], [35, 170, 40], [5, 15, 55]])


def fleiss_cohen_everitt(m) -> float:
    """Large-sample standard error of kappa, Fleiss, Cohen & Everitt (1969), eq. (13)."""
    p = np.asarray(m, dtype=float) / np.sum(m)
    rows, cols = p.sum(axis=1), p.sum(axis=0)
    po, pe = np.trace(p), rows @ cols
    k = (po - pe) / (1 - pe)
    a = sum(p[i, i] * (1 - (rows[i] + cols[i]) * (1 - k)) ** 2 for i in range(len(p)))
    b = (1 - k) ** 2 * sum(
        p[i, j] * (cols[i] + rows[j]) ** 2 for i in range(len(p)) for j in range(len(p)) if i != j
    )
    c = (k - pe * (1 - k)) ** 2
    return float(np.sqrt((a + b - c) / (np.sum(m) * (1 - pe) ** 2)))


@pytest.mark.parametrize("scale", [1, 1000])
def test_kappa_se_is_the_large_sample_variance_of_fleiss_cohen_everitt(scale):
    m = TWEETS * scale
    (se,), _ = jackknife_se(METRICS["kappa"], m[None].astype(float))
    want = fleiss_cohen_everitt(m)
    # The jackknife differs from the delta method by O(1/N) relatively (N = 400 here).
    assert abs(se / want - 1) < (0.01 if scale == 1 else 1e-4)
    iv = jackknife_interval("kappa", m)
    z = NormalDist().inv_cdf(0.975)
    assert np.isclose(iv.high - iv.low, 2 * z * se) and iv.method == "jackknife"


def test_se_is_the_bootstraps_spread():
    # The bootstrap's standard deviation estimates the same standard error; over B
    # resamples its own relative standard error is about 1/sqrt(2 (B - 1)) (normal
    # statistic), so 5 of those bound the difference from Monte Carlo error alone,
    # plus the O(1/N) by which the two estimators differ at N = 400.
    size = 4000
    stack = resample_matrix(TWEETS.astype(float), size, np.random.default_rng(27))
    tolerance = 5 / np.sqrt(2 * (size - 1)) + 0.02
    for name, func in METRICS.items():
        if name == "delta_f1":  # a sum of squares near 0: far from normal, see coverage below
            continue
        (se,), _ = jackknife_se(func, TWEETS[None].astype(float))
        spread = np.std(func(stack), ddof=1)
        assert abs(se / spread - 1) < tolerance, name


def test_coverage_in_simulation():
    # 1,000 test sets of N = 300 from one population: the 95 % intervals cover the
    # population's value at the nominal rate, within 3.5 binomial standard errors (0.007).
    p = TWEETS / TWEETS.sum()
    draws = np.random.default_rng(5).multinomial(300, p.ravel(), size=1000).reshape(-1, 3, 3)
    z = NormalDist().inv_cdf(0.975)
    for name, func in METRICS.items():
        truth = float(func(p))
        se, share = jackknife_se(func, draws.astype(float))
        covered = np.mean(np.abs(func(draws) - truth) <= z * se)
        assert 0.925 <= covered <= 0.975, (name, covered)
        assert share.max() == 0  # no class this size vanishes when one item is left out


def test_undefined_left_outs_are_left_out_and_counted():
    m = np.array([[5, 0, 0], [0, 7, 1], [0, 0, 1]])  # class 2 is predicted once
    iv = jackknife_interval("macro_precision", m)
    assert iv.undefined == pytest.approx(1 / 14)
    # by hand: the 13 items whose removal leaves every precision defined
    func, theta, w = METRICS["macro_precision"], [], []
    for i, j in ((0, 0), (1, 1), (1, 2)):
        left = m.astype(float).copy()
        left[i, j] -= 1
        theta.append(float(func(left)))
        w.append(m[i, j])
    theta, w = np.array(theta), np.array(w)
    mean = w @ theta / w.sum()
    se = np.sqrt((w.sum() - 1) / w.sum() * (w @ (theta - mean) ** 2))
    z = NormalDist().inv_cdf(0.975)
    assert iv.low == pytest.approx(max(iv.estimate - z * se, 0))
    assert iv.high == pytest.approx(min(iv.estimate + z * se, 1))
    # a class never predicted: its 0/0 counts as 0 in the estimate and in every left-out
    never = jackknife_interval("macro_precision", [[5, 3], [0, 0]])
    assert never.undefined == 1.0 and never.low < never.estimate < never.high


def test_a_perfect_matrix_has_no_spread_and_kappa_stays_in_its_range():
    perfect = jackknife_interval("macro_f1", [[10, 0], [0, 10]])
    assert perfect.low == perfect.high == 1.0
    iv = jackknife_interval("kappa", [[3, 1], [2, 0]])
    assert -1 <= iv.low < iv.estimate < iv.high <= 1


@pytest.mark.parametrize(
    ("m", "kwargs", "message"),
    [
        ([[1, 0], [0, 0]], {}, "at least 2 items"),
        ([[1.5, 0], [0, 1]], {}, "whole"),
        ([[1, 0], [0, 1]], {"level": 1.0}, "level"),
    ],
)
def test_bad_input(m, kwargs, message):
    with pytest.raises(ValueError, match=message):
        jackknife_interval("kappa", m, **kwargs)
    with pytest.raises(ValueError, match="unknown metric"):
        jackknife_interval("kapa", [[1, 0], [0, 1]])
