"""Reliability with its uncertainty: bands per bin, the calibration test, debiased and
class-wise ECE, CORP and the Murphy decomposition (checked against model-diagnostics)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats
from scipy.stats import binomtest

import clfmetrics as cm


def _calibrated(rng, n):
    p = rng.beta(2, 2, n)
    return rng.random(n) < p, p


def test_clopper_pearson_band_is_scipys_exact_interval_per_bin():
    y, p = _calibrated(np.random.default_rng(0), 300)
    band = cm.reliability_band(y, p, bins=5, level=0.9)
    observed, predicted, counts = cm.reliability_curve(y, p, bins=5)
    np.testing.assert_allclose(band.observed, observed)
    np.testing.assert_allclose(band.predicted, predicted)
    np.testing.assert_array_equal(band.counts, counts)
    for k, n, low, high in zip(
        np.rint(observed * counts), counts, band.low, band.high, strict=True
    ):
        ci = binomtest(int(k), int(n)).proportion_ci(0.9, method="exact")
        assert low == pytest.approx(ci.low, abs=1e-10) and high == pytest.approx(ci.high, abs=1e-10)
    assert band.method == "clopper-pearson" and band.level == 0.9


def test_consistency_band_holds_a_calibrated_forecasters_frequencies_at_the_nominal_rate():
    """120 calibrated test sets of 300 items; every bin's observed frequency is checked
    against its band (about 1,150 bin checks: standard error about 0.009 at 0.9)."""
    rng = np.random.default_rng(1)
    inside = total = 0
    for _ in range(120):
        y, p = _calibrated(rng, 300)
        band = cm.reliability_band(y, p, method="consistency", level=0.9, size=400, rng=rng)
        inside += int(((band.low <= band.observed) & (band.observed <= band.high)).sum())
        total += band.counts.size
    # Frequencies are discrete, so the band's ends are attained: a little above 0.9.
    assert 0.88 <= inside / total <= 0.96, inside / total


def test_consistency_band_flags_a_miscalibrated_forecaster():
    rng = np.random.default_rng(2)
    p = rng.random(2000)
    band = cm.reliability_band(rng.random(2000) < p**2, p, method="consistency", rng=0)
    outside = (band.observed < band.low) | (band.observed > band.high)
    assert outside.sum() >= 5


def test_calibration_test_pvalue_is_uniform_under_the_null():
    """200 calibrated sets of 155 items; Kolmogorov-Smirnov against U(0, 1)."""
    rng = np.random.default_rng(3)
    pvalues = [
        cm.calibration_test(*_calibrated(rng, 155), size=500, rng=rng).pvalue for _ in range(200)
    ]
    assert stats.kstest(pvalues, "uniform").pvalue > 0.01
    assert 0.02 < np.mean(np.array(pvalues) <= 0.05) < 0.09


def test_calibration_test_statistic_is_the_ece_and_it_has_power():
    rng = np.random.default_rng(4)
    p = rng.random(400)
    y = rng.random(400) < np.clip(p + 0.15, 0, 1)
    r = cm.calibration_test(y, p, size=2000, rng=0)
    assert r.statistic == pytest.approx(cm.expected_calibration_error(y, p))
    assert r.pvalue < 0.001


@pytest.mark.parametrize("slope", [1.0, 0.8, 0.6])
def test_debiased_ece_is_nearer_the_truth_than_the_plug_in_at_155_items(slope):
    """Forecaster p ~ U(0, 1), outcome probability slope * p + (1 - slope) / 2.

    With 10 uniform bins the true binned ECE is (1 - slope) / 4 (the gap
    |(1 - slope)(1/2 - p)| at the bins' centres, averaged). Root mean squared error
    over 400 simulated test sets of 155 items."""
    rng = np.random.default_rng(5)
    truth = (1 - slope) / 4
    plug, debiased = [], []
    for _ in range(400):
        p = rng.random(155)
        y = rng.random(155) < slope * p + (1 - slope) / 2
        plug.append(cm.expected_calibration_error(y, p))
        debiased.append(cm.expected_calibration_error(y, p, debiased=True))
    rmse = lambda v: float(np.sqrt(np.mean((np.array(v) - truth) ** 2)))  # noqa: E731
    assert rmse(debiased) < rmse(plug), (rmse(debiased), rmse(plug))
    assert np.mean(plug) > truth  # the plug-in's upward bias


def test_debiased_ece_without_noise_is_the_plug_in():
    # Every bin all hits or all misses: no spread to remove.
    y, p = [0, 0, 1, 1], [0.05, 0.15, 0.85, 0.95]
    assert cm.expected_calibration_error(y, p, debiased=True) == pytest.approx(
        cm.expected_calibration_error(y, p)
    )
    with pytest.raises(ValueError, match="debiased"):
        cm.expected_calibration_error(y, p, debiased="yes")


def _squared_errors(rng, sets, n_items, forecasts, truth):
    plug, debiased, ece_plug, ece_debiased = [], [], [], []
    for _ in range(sets):
        p = forecasts(rng, n_items)
        y = rng.random(n_items) < truth(p)
        plug.append(cm.expected_calibration_error(y, p, norm=2))
        debiased.append(cm.expected_calibration_error(y, p, norm=2, debiased=True))
        ece_plug.append(cm.expected_calibration_error(y, p))
        ece_debiased.append(cm.expected_calibration_error(y, p, debiased=True))
    return tuple(np.array(v) for v in (plug, debiased, ece_plug, ece_debiased))


CENTRES = np.arange(10) / 10 + 0.05  # one stated probability per uniform bin


@pytest.mark.parametrize("power", [1.0, 0.7])
def test_debiased_squared_error_is_unbiased_with_one_probability_per_bin(power):
    """Forecasts at the 10 bins' centres, outcome probability centre ** power: the true
    binned squared error is the mean of (centre ** power - centre) ** 2 (0 when
    calibrated), and the debiased estimate's mean equals it within four Monte Carlo
    standard errors, where the plug-in is far above it."""
    rng = np.random.default_rng(41)
    truth = float(np.mean((CENTRES**power - CENTRES) ** 2))
    plug, debiased, _, _ = _squared_errors(
        rng, 1500, 155, lambda r, n: r.choice(CENTRES, n), lambda p: p**power
    )
    se = debiased.std() / np.sqrt(debiased.size)
    assert abs(debiased.mean() - truth) < 4 * se, (debiased.mean(), truth, se)
    assert plug.mean() - truth > 20 * se


def test_debiased_squared_error_is_unbiased_under_calibration_and_the_ece_is_not():
    """Calibrated forecasts p ~ Beta(2, 2) at 155 items: the debiased
    squared error averages 0 (1,500 test sets; within four standard errors, plus its over-correction
    by the probabilities' spread within a bin), while the debiased ECE keeps a share near
    2 - sqrt(2) of the plug-in's bias, whatever the bin sizes."""
    rng = np.random.default_rng(42)
    plug, debiased, ece_plug, ece_debiased = _squared_errors(
        rng, 1500, 155, lambda r, n: r.beta(2, 2, n), lambda p: p
    )
    se = debiased.std() / np.sqrt(debiased.size)
    assert abs(debiased.mean()) < 4 * se + 1e-4, (debiased.mean(), se)
    assert plug.mean() > 20 * se
    share = ece_debiased.mean() / ece_plug.mean()
    assert abs(share - (2 - np.sqrt(2))) < 0.05, share


def test_norm_is_one_or_two():
    y, p = [0, 1, 1, 0], [0.2, 0.7, 0.9, 0.4]
    gaps = cm.reliability_curve(y, p, bins=2)
    assert cm.expected_calibration_error(y, p, bins=2, norm=2) == pytest.approx(
        float(np.sum(gaps[2] / 4 * (gaps[0] - gaps[1]) ** 2))
    )
    for bad in (3, True, "l2"):
        with pytest.raises(ValueError, match="norm"):
            cm.expected_calibration_error(y, p, norm=bad)


@pytest.mark.parametrize("ties", [False, True])
def test_corp_decomposition_equals_model_diagnostics(ties):
    from model_diagnostics.scoring import SquaredError, decompose
    from sklearn.isotonic import IsotonicRegression

    rng = np.random.default_rng(7)
    p = rng.random(500)
    if ties:
        p = np.round(p, 1)
    y = rng.random(500) < p**1.5
    r = cm.corp_reliability(y, p)
    ref = decompose(y.astype(float), p, scoring_function=SquaredError()).row(0, named=True)
    assert r.miscalibration == pytest.approx(ref["miscalibration"], abs=1e-12)
    assert r.discrimination == pytest.approx(ref["discrimination"], abs=1e-12)
    assert r.uncertainty == pytest.approx(ref["uncertainty"], abs=1e-12)
    assert r.brier == pytest.approx(ref["score"], abs=1e-12)
    assert r.brier == pytest.approx(cm.brier_score(y, p))
    iso = IsotonicRegression(out_of_bounds="clip").fit(p, y.astype(float))
    np.testing.assert_allclose(r.observed, iso.predict(r.predicted), atol=1e-12)
    assert (np.diff(r.observed) >= 0).all() and r.counts.sum() == 500


def test_corp_is_binary_and_checks_its_input():
    with pytest.raises(ValueError, match="1-d"):
        cm.corp_reliability([0, 1], [[0.8, 0.2], [0.3, 0.7]])
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        cm.corp_reliability([0, 1], [0.2, 1.7])


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"method": "wilson"}, "method"),
        ({"level": 0}, "level"),
        ({"method": "consistency", "size": 0}, "size"),
        ({"bins": 0}, "bins"),
    ],
)
def test_reliability_band_bad_arguments(kwargs, match):
    with pytest.raises(ValueError, match=match):
        cm.reliability_band([0, 1, 1], [0.2, 0.6, 0.9], **kwargs)


def test_calibration_test_bad_arguments():
    with pytest.raises(ValueError, match="size"):
        cm.calibration_test([0, 1], [0.2, 0.6], size=-1)
    with pytest.raises(ValueError, match="differ in length"):
        cm.calibration_test([0, 1, 1], [0.2, 0.6])


def test_pool_adjacent_violators_equals_sklearns_isotonic_regression():
    from sklearn.isotonic import isotonic_regression

    from clfmetrics import pool_adjacent_violators

    rng = np.random.default_rng(8)
    cases = [
        (rng.random(300), rng.integers(1, 5, 300).astype(float)),
        (np.r_[np.arange(50.0), -100.0], np.ones(51)),  # one violator that spreads
        (np.arange(10.0)[::-1], np.ones(10)),  # all decreasing: one block
        (np.array([0.3]), np.array([2.0])),
    ]
    for values, weights in cases:
        want = isotonic_regression(values, sample_weight=weights)
        np.testing.assert_allclose(pool_adjacent_violators(values, weights), want, atol=1e-12)
