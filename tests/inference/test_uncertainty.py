"""Bootstrap intervals, paired comparisons and tests of clfmetrics.inference."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

import clfmetrics as cm
from clfmetrics import (
    Interval,
    interval,
    interval_from_labels,
    mcnemar,
    mcnemar_sample_size,
    paired_interval,
    permutation_test,
    sample_confusion,
)
from clfmetrics.inference._bootstrap import acceleration, bounds

TWEETS = np.array([[60, 15, 5], [35, 170, 40], [5, 15, 55]])
PREVALENCE = np.array([0.5, 0.3, 0.2])
BEHAVIOUR = np.array([[0.80, 0.10, 0.15], [0.15, 0.80, 0.15], [0.05, 0.10, 0.70]])


def _pair_of_systems(n_items, seed):
    """Labels of two correlated systems on the same items (A a little better than B)."""
    rng = np.random.default_rng(seed)
    y = rng.choice(3, size=n_items, p=PREVALENCE)
    noise = rng.integers(0, 3, n_items)
    a = np.where(rng.random(n_items) < 0.8, y, noise)
    b = np.where(rng.random(n_items) < 0.9, a, rng.integers(0, 3, n_items))
    return y, a, b


def _resampled_matrices(y_true, y_pred, idx, n_classes):
    """The confusion matrix of every item resample ``y[idx[r]]`` as one stack, counted with
    ``np.bincount`` (m[i, j]: predicted i, true j) rather than one confusion_matrix call per
    resample: the same matrices, without a Python loop over thousands of resamples."""
    rows = np.arange(len(idx))[:, None] * n_classes**2
    codes = rows + y_pred[idx] * n_classes + y_true[idx]
    counts = np.bincount(codes.ravel(), minlength=len(idx) * n_classes**2)
    return counts.reshape(len(idx), n_classes, n_classes)


@pytest.mark.parametrize("method", ["percentile", "bca"])
def test_coverage_study(method):
    """Seeded: 95 % intervals cover the population value 93-97 % of the time.

    The population value is the metric of the expected confusion matrix (the
    limit of the test-set metric as the number of items grows).
    """
    population = cm.macro_f1(PREVALENCE[None, :] * BEHAVIOUR)
    sets = sample_confusion(PREVALENCE, BEHAVIOUR, 600, size=600, rng=11)
    rng = np.random.default_rng(12)
    hits = [population in interval("macro_f1", m, size=1000, method=method, rng=rng) for m in sets]
    assert 0.93 <= np.mean(hits) <= 0.97


def test_interval_matches_item_bootstrap_and_counts_every_cell():
    """The multinomial over cells is the item bootstrap: same quantiles up to Monte-Carlo error."""
    y_true, y_pred = cm.to_labels(TWEETS)
    rng = np.random.default_rng(3)
    idx = rng.integers(0, len(y_true), size=(2000, len(y_true)))
    by_items = cm.macro_f1(_resampled_matrices(y_true, y_pred, idx, 3))
    ours = interval("macro_f1", TWEETS, size=20_000, rng=4)
    assert ours.estimate == pytest.approx(cm.macro_f1(TWEETS))
    low, high = np.quantile(by_items, [0.025, 0.975])
    # 2,000 item resamples: the ends agree within about 3 of their standard errors.
    assert ours.low == pytest.approx(low, abs=0.012)
    assert ours.high == pytest.approx(high, abs=0.012)
    same = interval_from_labels(cm.macro_f1, y_true, y_pred, size=20_000, rng=4)
    assert same == ours


def test_bca_acceleration_equals_the_item_jackknife():
    """The n**2 weighted leave-one-out matrices give exactly the N-item jackknife."""
    m = np.array([[7, 2, 0], [1, 9, 3], [0, 1, 4]])
    y_true, y_pred = cm.to_labels(m)
    theta = np.array(
        [
            cm.macro_f1(
                cm.confusion_matrix(np.delete(y_true, k), np.delete(y_pred, k), labels=[0, 1, 2])
            )
            for k in range(len(y_true))
        ]
    )
    d = theta.mean() - theta
    direct = np.sum(d**3) / (6 * np.sum(d**2) ** 1.5)
    assert acceleration(cm.macro_f1, m.astype(float)) == pytest.approx(direct, rel=1e-12)


def test_bca_matches_scipy_on_accuracy():
    """Accuracy is the mean of a 0/1 vector, so scipy's BCa on the items is a reference."""
    m = np.array([[184, 7], [9, 0]])  # 184 right of 200: a skewed proportion
    correct = np.r_[np.ones(184), np.zeros(16)]
    ref = stats.bootstrap(
        (correct,), np.mean, n_resamples=20_000, method="BCa", random_state=np.random.default_rng(5)
    ).confidence_interval
    ours = interval("accuracy", m, size=20_000, method="bca", rng=6)
    # Accuracy of 200 items moves in steps of 0.005: the ends agree within one step.
    assert ours.low == pytest.approx(ref.low, abs=0.0051)
    assert ours.high == pytest.approx(ref.high, abs=0.0051)
    # The percentile interval of the same data differs: BCa is not a relabelled percentile.
    plain = interval("accuracy", m, size=20_000, rng=6)
    assert (plain.low, plain.high) != (ours.low, ours.high)


def test_paired_interval_agrees_with_an_item_index_bootstrap():
    y, a, b = _pair_of_systems(400, seed=1)
    labels = [0, 1, 2]
    rng = np.random.default_rng(7)
    idx = rng.integers(0, len(y), size=(3000, len(y)))
    diffs = cm.macro_f1(_resampled_matrices(y, a, idx, 3)) - cm.macro_f1(
        _resampled_matrices(y, b, idx, 3)
    )
    ours = paired_interval("macro_f1", y, a, b, size=20_000, rng=8)
    observed = cm.macro_f1(cm.confusion_matrix(y, a)) - cm.macro_f1(cm.confusion_matrix(y, b))
    assert ours.estimate == pytest.approx(observed)
    low, high = np.quantile(diffs, [0.025, 0.975])
    assert ours.low == pytest.approx(low, abs=0.01)
    assert ours.high == pytest.approx(high, abs=0.01)
    # Pairing matters: the unpaired intervals of A and B overlap although the paired one excludes 0.
    ia = interval_from_labels("macro_f1", y, a, labels=labels, size=5000, rng=9)
    ib = interval_from_labels("macro_f1", y, b, labels=labels, size=5000, rng=9)
    assert ours.low > 0 and ia.low < ib.high


def test_permutation_test_on_accuracy_is_the_exact_mcnemar_test():
    """Swapping an item changes the accuracy difference only where exactly one system is right,
    so the swap test's null distribution for accuracy is McNemar's binomial."""
    y, a, b = _pair_of_systems(300, seed=2)
    exact = mcnemar(y, a, b).pvalue
    perm = permutation_test("accuracy", y, a, b, size=40_000, rng=10)
    assert perm == pytest.approx(exact, abs=0.01)
    assert permutation_test("macro_f1", y, y, y, size=100, rng=0) == 1.0
    same = permutation_test(cm.macro_f1, y, a, b, size=2000, rng=3)
    assert 0 < same <= 1


def test_mcnemar_equals_the_exact_binomial_test():
    y, a, b = _pair_of_systems(250, seed=4)
    r = mcnemar(y, a, b)
    right_a, right_b = a == y, b == y
    assert r.a_only == np.sum(right_a & ~right_b) and r.b_only == np.sum(right_b & ~right_a)
    assert r.statistic == min(r.a_only, r.b_only)
    d = r.a_only + r.b_only
    assert r.pvalue == pytest.approx(stats.binomtest(r.a_only, d, 0.5).pvalue)
    by_hand = min(1.0, 2 * sum(math.comb(d, k) for k in range(r.statistic + 1)) / 2**d)
    assert r.pvalue == pytest.approx(by_hand)
    assert mcnemar(y, a, a).pvalue == 1.0


def test_interval_prints_and_contains():
    iv = Interval(0.5, 0.4, 0.6, 0.95, "percentile")
    assert str(iv) == "0.500 [0.400, 0.600] (95% percentile)"
    assert 0.45 in iv and 0.7 not in iv


def test_perfect_classifier_gives_a_point_interval():
    for method in ("percentile", "bca"):
        iv = interval("macro_f1", np.diag([30, 20, 10]), size=500, method=method, rng=1)
        assert (iv.low, iv.estimate, iv.high) == (1.0, 1.0, 1.0)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"level": 1.0}, "level"),
        ({"level": 0}, "level"),
        ({"level": "95%"}, "level"),
        ({"size": 0}, "size"),
        ({"size": 2.5}, "size"),
        ({"method": "basic"}, "method"),
    ],
)
def test_interval_bad_arguments(kwargs, match):
    with pytest.raises(ValueError, match=match):
        interval("accuracy", TWEETS, **kwargs)


def test_bad_input_names_the_problem():
    with pytest.raises(ValueError, match="whole-number counts"):
        interval("accuracy", TWEETS / TWEETS.sum())
    with pytest.raises(ValueError, match="unknown metric"):
        interval("f2", TWEETS)
    with pytest.raises(ValueError, match="one count matrix"):
        interval("accuracy", np.stack([TWEETS, TWEETS]))
    with pytest.raises(ValueError, match="one number per matrix"):
        interval(cm.recall, TWEETS, size=10)
    with pytest.raises(ValueError, match="differ in length"):
        paired_interval("accuracy", [0, 1, 1], [0, 1], [0, 1, 1])
    with pytest.raises(ValueError, match="differ in length"):
        permutation_test("accuracy", [0, 1, 1], [0, 1, 1], [0, 1])
    with pytest.raises(ValueError, match="differ in length"):
        mcnemar([0, 1, 1], [0, 1, 1], [0])
    with pytest.raises(ValueError, match="size"):
        permutation_test("accuracy", [0, 1], [0, 1], [1, 0], size=-1)
    with pytest.raises(ValueError, match="level"):
        paired_interval("accuracy", [0, 1], [0, 1], [1, 0], level=95)
    with pytest.raises(ValueError, match="at least 2 items"):
        interval("accuracy", [[1, 0], [0, 0]], method="bca", size=10)


def test_stacked_interval_arithmetic_equals_one_matrix_at_a_time():
    """coverage() scores many test sets at once; each column equals the one-matrix result."""
    sets = sample_confusion(PREVALENCE, BEHAVIOUR, 80, size=5, rng=1).astype(float)
    acc = acceleration(cm.mcc, sets)
    np.testing.assert_allclose(acc, [acceleration(cm.mcc, m) for m in sets], rtol=1e-12)
    stats = np.random.default_rng(2).normal(size=(300, 5))
    est = np.linspace(-0.2, 0.2, 5)
    low, high = bounds(stats, est, 0.9, "bca", acc)
    for k in range(5):
        assert (low[k], high[k]) == bounds(stats[:, k], est[k], 0.9, "bca", acc[k])
    np.testing.assert_allclose(
        bounds(stats[:, 0], 0.0, 0.9, "percentile"), np.quantile(stats[:, 0], [0.05, 0.95])
    )


@pytest.mark.parametrize(("delta", "psi"), [(0.02, 0.10), (0.05, 0.30)])
def test_mcnemar_sample_size_gives_the_promised_power(delta, psi):
    """Simulate the exact test at Connor's N: it detects the difference about 80 % of the time."""
    n_items = mcnemar_sample_size(delta, psi)
    rng = np.random.default_rng(0)
    discordant = rng.binomial(n_items, psi, size=4000)
    a_only = rng.binomial(discordant, (psi + delta) / (2 * psi))
    smaller = np.minimum(a_only, discordant - a_only)
    pvalues = np.minimum(1.0, 2 * stats.binom.cdf(smaller, discordant, 0.5))
    # The exact test is a little conservative, the formula a normal approximation.
    assert 0.75 <= np.mean(pvalues < 0.05) <= 0.85
    with pytest.raises(ValueError, match="at most the discordance"):
        mcnemar_sample_size(0.2, 0.1)
    with pytest.raises(ValueError, match="discordance"):
        mcnemar_sample_size(0.01, 0)
