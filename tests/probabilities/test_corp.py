"""The CORP reliability curve's band (clfmetrics.probabilities.corp_band) and the stacked PAV.

Checked against a direct computation (the same draws, scikit-learn's isotonic
regression one resample at a time), by simulation (a calibrated forecaster's curve
inside its consistency band at the nominal pointwise rate) and against the bootstrap
band of ``model_diagnostics.calibration.plot_reliability_diagram``.
"""

from __future__ import annotations

import numpy as np
import pytest

import clfmetrics as cm
from clfmetrics import pool_adjacent_violators_stack


def _step(fitted_x, fitted_y, x):
    """The fit as a step function: the value at the nearest fitted x to the left, else right."""
    i = np.searchsorted(fitted_x, x, side="right") - 1
    return fitted_y[np.maximum(i, 0)]


def test_stacked_pav_is_sklearns_isotonic_regression_row_by_row():
    from sklearn.isotonic import isotonic_regression

    rng = np.random.default_rng(20)
    values = rng.random((60, 25))
    values[:3] = np.arange(25.0)[::-1]  # all decreasing: one block
    values[3] = np.r_[np.arange(24.0), -100.0]  # one violator that spreads
    values[4] = 0.5  # ties: one value
    weights = rng.integers(0, 4, (60, 25)).astype(float)
    weights[:5] = 1.0
    weights[5] = 0.0  # a row without items: NaN
    out = pool_adjacent_violators_stack(values, weights)
    assert np.isnan(out[5]).all()
    for r in (*range(5), *range(6, 60)):
        here = np.flatnonzero(weights[r] > 0)
        want = isotonic_regression(values[r, here], sample_weight=weights[r, here])
        np.testing.assert_allclose(out[r, here], want, atol=1e-12)
        # An entry of weight 0 gets the fit of the nearest present entry on its left, else right.
        np.testing.assert_array_equal(out[r], _step(here, out[r, here], np.arange(25)))


def test_consistency_band_is_the_direct_computation():
    """Six items: the same binomial draws, refitted one by one with scikit-learn."""
    from sklearn.isotonic import isotonic_regression

    y = [0, 1, 0, 1, 1, 0, 1]
    p = [0.1, 0.3, 0.3, 0.5, 0.6, 0.8, 0.9]
    band = cm.corp_band(y, p, level=0.8, size=300, rng=5)
    values, counts = np.unique(p, return_counts=True)
    draws = np.random.default_rng(5).binomial(counts, values, size=(300, values.size))
    fits = np.array([isotonic_regression(d / counts, sample_weight=counts) for d in draws])
    np.testing.assert_allclose(band.low, np.quantile(fits, 0.1, axis=0), atol=1e-12)
    np.testing.assert_allclose(band.high, np.quantile(fits, 0.9, axis=0), atol=1e-12)
    np.testing.assert_array_equal(band.predicted, values)
    np.testing.assert_array_equal(band.counts, counts)
    np.testing.assert_allclose(band.observed, cm.corp_reliability(y, p).observed)
    assert (band.method, band.level, band.size) == ("consistency", 0.8, 300)
    assert (band.low <= band.high).all() and band.high[-1] > band.low[0]


def test_confidence_band_is_the_direct_pairs_bootstrap():
    """The multinomial draw over (probability, outcome) cells is the pairs bootstrap; each
    resample's fit is scikit-learn's, read as a step function where a value is missing."""
    from sklearn.isotonic import isotonic_regression

    y = np.array([0, 1, 0, 1, 1, 0, 1, 1])
    p = np.array([0.1, 0.3, 0.3, 0.5, 0.6, 0.8, 0.9, 0.9])
    band = cm.corp_band(y, p, method="confidence", level=0.9, size=400, rng=6)
    values, inverse = np.unique(p, return_inverse=True)
    hits = np.bincount(inverse, weights=y)
    counts = np.bincount(inverse)
    cells = np.r_[hits, counts - hits] / y.size
    drawn = np.random.default_rng(6).multinomial(y.size, cells, size=400)
    fits = []
    for row in drawn:
        k, n = row[: values.size], row[: values.size] + row[values.size :]
        here = np.flatnonzero(n)
        fit = isotonic_regression(k[here] / n[here], sample_weight=n[here])
        fits.append(_step(values[here], fit, values))
    np.testing.assert_allclose(band.low, np.quantile(fits, 0.05, axis=0), atol=1e-12)
    np.testing.assert_allclose(band.high, np.quantile(fits, 0.95, axis=0), atol=1e-12)
    assert band.method == "confidence"


def test_the_same_rng_gives_the_same_band():
    y, p = [0, 1, 1, 0, 1], [0.2, 0.4, 0.5, 0.7, 0.9]
    for method in ("consistency", "confidence"):
        a, b = (cm.corp_band(y, p, method=method, size=50, rng=3) for _ in range(2))
        np.testing.assert_array_equal(a.low, b.low)
        np.testing.assert_array_equal(a.high, b.high)


def test_a_calibrated_forecasters_curve_is_inside_its_consistency_band_at_the_nominal_rate():
    """60 calibrated test sets of 150 items, level 0.9, pointwise: the CORP curve at each
    stated probability is inside its band in about 90 % of the checks. The ends of the
    band are attained values of the fit, so the rate is at or a little above 0.9."""
    rng = np.random.default_rng(21)
    inside = total = 0
    for _ in range(60):
        p = rng.beta(2, 2, 150)
        band = cm.corp_band(rng.random(150) < p, p, level=0.9, size=200, rng=rng)
        inside += int(((band.low <= band.observed) & (band.observed <= band.high)).sum())
        total += band.observed.size
    assert 0.87 <= inside / total <= 0.97, inside / total


def test_the_consistency_band_flags_a_miscalibrated_forecaster():
    rng = np.random.default_rng(22)
    p = rng.random(1000)
    band = cm.corp_band(rng.random(1000) < p**2, p, size=300, rng=0)
    outside = (band.observed < band.low) | (band.observed > band.high)
    assert outside.mean() > 0.3
    # ... and the band is around the diagonal, not around the curve.
    assert ((band.low <= band.predicted) & (band.predicted <= band.high)).mean() > 0.95


def test_confidence_band_agrees_with_model_diagnostics_bootstrap_band():
    """model-diagnostics draws a pairs-bootstrap band (scipy.stats.bootstrap, "basic"
    intervals, made monotone) at the thresholds of the isotonic fit; it has no
    consistency band. The same construction from corp_band's percentile band
    (basic = 2 x fit - the opposite quantile) agrees within the resamples' noise
    (500 and 2,000 resamples, independent draws: under 0.01 apart when tried with
    several seeds, 0.02 allowed; the percentile band itself is 0.04 away)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from model_diagnostics.calibration import plot_reliability_diagram

    rng = np.random.default_rng(23)
    p = np.round(rng.random(1000) * 20) / 20  # 21 distinct values, about 50 items each
    y = (rng.random(1000) < p**1.3).astype(float)
    # scipy.stats.bootstrap draws from numpy's global generator when given none.
    np.random.seed(0)  # noqa: NPY002
    fig, ax = plt.subplots()
    plot_reliability_diagram(y, p, n_bootstrap=500, confidence_level=0.9, ax=ax)
    (fill,) = ax.collections
    vertices = fill.get_paths()[0].vertices
    plt.close(fig)
    band = cm.corp_band(y, p, method="confidence", level=0.9, size=2000, rng=1)
    basic_low = np.maximum.accumulate(2 * band.observed - band.high)
    basic_high = np.minimum.accumulate((2 * band.observed - band.low)[::-1])[::-1]
    # fill_between's polygon: the upper edge forward, then the lower edge back (or the reverse).
    xs = np.unique(vertices[:, 0])
    at = np.searchsorted(band.predicted, xs)
    assert np.allclose(band.predicted[at], xs)
    theirs_low = np.array([vertices[vertices[:, 0] == x, 1].min() for x in xs])
    theirs_high = np.array([vertices[vertices[:, 0] == x, 1].max() for x in xs])
    np.testing.assert_allclose(basic_low[at], theirs_low, atol=0.02)
    np.testing.assert_allclose(basic_high[at], theirs_high, atol=0.02)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"method": "bootstrap"}, "method"),
        ({"level": 1.0}, "level"),
        ({"size": 0}, "size"),
        ({"proba": [0.2, 1.3, 0.5]}, r"\[0, 1\]"),
        ({"proba": [[0.8, 0.2], [0.3, 0.7], [0.5, 0.5]]}, "1-d"),
        ({"y_true": [0, 1]}, "differ in length"),
    ],
)
def test_corp_band_refuses_bad_input(kwargs, match):
    args = {"y_true": [0, 1, 1], "proba": [0.2, 0.6, 0.9], **kwargs}
    with pytest.raises(ValueError, match=match):
        cm.corp_band(**args)
