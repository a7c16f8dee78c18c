"""Bands on the ROC and precision-recall curves (clfmetrics.inference).

The curves on the grid are checked against scikit-learn's curves read off with
the documented interpolation; the simultaneous ROC band's coverage of the true
binormal ROC is checked by simulation.
"""

from __future__ import annotations

from statistics import NormalDist

import numpy as np
import pytest
from sklearn.metrics import roc_curve

import clfmetrics as cm

_ND = NormalDist()


def _problem(rng, n=300, ties=False):
    y = rng.random(n) < 0.4
    s = rng.normal(1.0 * y, 1.0)
    return y, (np.round(s * 2) / 2 if ties else s)


def _roc_reference(y, s, xs):
    """TPR at each FPR: the last sklearn point at or left of x, joined to the next."""
    fpr, tpr, _ = roc_curve(y, s, drop_intermediate=False)
    out = []
    for x in xs:
        j = np.searchsorted(fpr, x, side="right") - 1
        if j >= len(fpr) - 1:
            out.append(tpr[-1])
        else:
            out.append(tpr[j] + (x - fpr[j]) / (fpr[j + 1] - fpr[j]) * (tpr[j + 1] - tpr[j]))
    return np.array(out)


def _pr_reference(y, s, recalls):
    """Precision at each recall > 0: FP linear in TP from the last point below it.

    The points are scikit-learn's, as counts (TP, FP) along the decreasing thresholds
    (its ``confusion_matrix_at_thresholds``; precision alone loses FP where TP = 0).
    """
    from sklearn.metrics import confusion_matrix_at_thresholds

    _, fp, _, tp, _ = confusion_matrix_at_thresholds(y, s)
    tp, fp = np.r_[0, tp], np.r_[0, fp]
    out = []
    for r in recalls:
        t = r * y.sum()
        j = np.searchsorted(tp, t, side="left")
        f = (
            fp[j]
            if t == tp[j]
            else fp[j - 1] + (t - tp[j - 1]) / (tp[j] - tp[j - 1]) * (fp[j] - fp[j - 1])
        )
        out.append(t / (t + f))
    return np.array(out)


@pytest.mark.parametrize("ties", [False, True])
def test_curves_on_the_grid_are_sklearns_curves_interpolated(ties):
    y, s = _problem(np.random.default_rng(1), ties=ties)
    roc = cm.roc_band(y, s, size=50, grid=51, rng=0)
    np.testing.assert_allclose(roc.y, _roc_reference(y, s, roc.x), atol=1e-12)
    pr = cm.pr_band(y, s, size=50, grid=51, rng=0)
    np.testing.assert_allclose(pr.y[1:], _pr_reference(y, s, pr.x[1:]), atol=1e-12)


@pytest.mark.parametrize("simultaneous", [True, False])
def test_band_holds_the_observed_curve_and_stays_in_the_unit_square(simultaneous):
    y, s = _problem(np.random.default_rng(2), ties=True)
    for band in (
        cm.roc_band(y, s, size=300, simultaneous=simultaneous, rng=0),
        cm.pr_band(y, s, size=300, simultaneous=simultaneous, rng=0),
    ):
        assert band.simultaneous is simultaneous and band.level == 0.95
        assert band.x.shape == band.y.shape == band.low.shape == (101,)
        assert (band.low <= band.y + 1e-12).all() and (band.y <= band.high + 1e-12).all()
        assert band.low.min() >= 0 and band.high.max() <= 1
        assert (band.high - band.low).max() > 0.05


def test_the_simultaneous_band_is_wider_than_the_pointwise_one():
    y, s = _problem(np.random.default_rng(3))
    joint = cm.roc_band(y, s, size=1000, rng=0)
    point = cm.roc_band(y, s, size=1000, simultaneous=False, rng=0)
    inner = slice(5, 95)
    assert ((joint.high - joint.low)[inner] > (point.high - point.low)[inner]).mean() > 0.9


def test_same_seed_same_band_and_level_narrows_it():
    y, s = _problem(np.random.default_rng(4))
    a, b = cm.roc_band(y, s, size=200, rng=7), cm.roc_band(y, s, size=200, rng=7)
    np.testing.assert_array_equal(a.low, b.low)
    narrow = cm.roc_band(y, s, size=200, level=0.5, rng=7)
    assert (narrow.high - narrow.low).sum() < (a.high - a.low).sum()


def test_simultaneous_roc_band_covers_the_true_binormal_roc():
    """Coverage of the whole true curve (101 grid points) at 200 positives, 200 negatives.

    120 simulated test sets with 400 resamples each keep this to a few seconds; the
    coverage estimate then has a standard error of about 0.02 at 0.95, so the bar
    0.93 sits one standard error below the nominal level (the seed is fixed). The
    pointwise band, run on the first 40 sets, covers the whole curve far less often:
    that is why the simultaneous band is the default.
    """
    rng = np.random.default_rng(20261125)
    mu, repeats = 1.0, 120
    x = np.linspace(0, 1, 101)
    true = np.array([0.0] + [_ND.cdf(mu + _ND.inv_cdf(v)) for v in x[1:-1]] + [1.0])
    y = np.r_[np.ones(200, bool), np.zeros(200, bool)]
    joint = point = 0
    for k in range(repeats):
        s = np.r_[rng.normal(mu, 1, 200), rng.normal(0, 1, 200)]
        band = cm.roc_band(y, s, size=400, rng=rng)
        joint += bool(((band.low <= true + 1e-12) & (true <= band.high + 1e-12)).all())
        if k >= 40:
            continue
        band = cm.roc_band(y, s, size=400, simultaneous=False, rng=rng)
        point += bool(((band.low <= true + 1e-12) & (true <= band.high + 1e-12)).all())
    assert joint / repeats >= 0.93, joint / repeats
    assert point / 40 < 0.7, point / 40


def test_the_pointwise_band_covers_each_grid_point_near_fpr_one():
    """Near FPR 1 nearly every resample has TPR 1, so the bare percentile interval is a
    point and misses the population TPR just below 1 (it covered 0.26 at FPR 0.99); the
    one-item floor keeps each point's interval valid there. 200 sets: a coverage of 0.95
    has a standard error of about 0.015, and the bar sits at 0.90."""
    rng = np.random.default_rng(20261201)
    mu, repeats = 1.0, 200
    x = np.linspace(0, 1, 101)
    true = np.array([0.0] + [_ND.cdf(mu + _ND.inv_cdf(v)) for v in x[1:-1]] + [1.0])
    y = np.r_[np.ones(200, bool), np.zeros(200, bool)]
    hits = np.zeros(101)
    for _ in range(repeats):
        s = np.r_[rng.normal(mu, 1, 200), rng.normal(0, 1, 200)]
        band = cm.roc_band(y, s, size=500, simultaneous=False, rng=rng)
        hits += (band.low <= true + 1e-12) & (true <= band.high + 1e-12)
    near_one = hits[90:100] / repeats  # FPR 0.90 to 0.99
    assert near_one.min() >= 0.90, near_one


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"grid": 1}, "grid"),
        ({"grid": 2.5}, "grid"),
        ({"simultaneous": "yes"}, "simultaneous"),
        ({"level": 1.5}, "level"),
        ({"size": 0}, "size"),
    ],
)
def test_bad_arguments_raise(kwargs, match):
    y, s = _problem(np.random.default_rng(5), n=40)
    for band in (cm.roc_band, cm.pr_band):
        with pytest.raises(ValueError, match=match):
            band(y, s, **kwargs)


def test_bad_data_raise():
    with pytest.raises(ValueError, match="no negative"):
        cm.roc_band([1, 1, 1], [0.1, 0.2, 0.3], pos_label=1)
    with pytest.raises(ValueError, match="NaN"):
        cm.pr_band([0, 1, 1], [0.1, np.nan, 0.3])
    with pytest.raises(ValueError, match="differ in length"):
        cm.roc_band([0, 1], [0.1, 0.2, 0.3])


@pytest.mark.parametrize("ties", [False, True])
def test_a_resampled_curve_with_empty_cells_is_the_curve_of_the_resampled_items(ties):
    """The counts of one item resample (many cells empty) give sklearn's curve of those items."""
    from clfmetrics.inference import _auc as ac
    from clfmetrics.inference import _bands as bands

    rng = np.random.default_rng(6)
    y, s = _problem(rng, n=120, ties=ties)
    cells = ac.cells_of(y, s)
    groups = np.unique(s, return_inverse=True)[1]
    grid = np.linspace(0, 1, 41)
    for _ in range(5):
        pos, neg = np.flatnonzero(y), np.flatnonzero(~y)
        idx = np.r_[rng.choice(pos, pos.size), rng.choice(neg, neg.size)]
        size = groups.max() + 1
        p_counts = np.bincount(groups[idx][y[idx]], minlength=size)[cells.pos_group][::-1]
        n_counts = np.bincount(groups[idx][~y[idx]], minlength=size)[cells.neg_group][::-1]
        roc = bands._roc_values(bands._Layout(cells, "neg"), n_counts[None], p_counts[None], grid)
        np.testing.assert_allclose(roc[0], _roc_reference(y[idx], s[idx], grid), atol=1e-12)
        pr = bands._pr_values(bands._Layout(cells, "pos"), p_counts[None], n_counts[None], grid)
        want = _pr_reference(y[idx], s[idx], grid[1:])
        np.testing.assert_allclose(pr[0, 1:], want, atol=1e-12)
