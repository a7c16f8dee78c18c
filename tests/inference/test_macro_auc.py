"""clfmetrics.inference._macro_auc: the macro one-vs-rest ROC AUC and its intervals."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

from clfmetrics.inference._macro_auc import acceleration, macro_auc, macro_auc_interval


def _task(seed: int, n_items: int = 300, n: int = 3, ties: bool = False):
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, n, n_items)
    logits = rng.normal(size=(n_items, n)) + 1.5 * np.eye(n)[truth]
    proba = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    if ties:
        proba = np.round(proba, 1)  # many tied scores per column
    return truth, proba


@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("seed", [0, 1])
def test_macro_auc_is_scikit_learns_one_vs_rest_macro_average(seed, ties):
    truth, proba = _task(seed, ties=ties)
    expected = np.mean([roc_auc_score(truth == k, proba[:, k]) for k in range(3)])
    if not ties:
        assert expected == pytest.approx(roc_auc_score(truth, proba, multi_class="ovr"))
    assert macro_auc(truth, proba)[0] == pytest.approx(expected, rel=1e-12)


def test_weights_count_each_item_as_often_as_a_resample_drew_it():
    truth, proba = _task(2, n_items=60)
    rng = np.random.default_rng(3)
    drawn = rng.integers(0, 60, size=(4, 60))
    weights = np.stack([np.bincount(row, minlength=60) for row in drawn])
    values = macro_auc(truth, proba, weights)
    expected = [
        roc_auc_score(truth[row], proba[row], multi_class="ovr", average="macro") for row in drawn
    ]
    np.testing.assert_allclose(values, expected, rtol=1e-12)


@pytest.mark.parametrize("method", ["percentile", "bca", "delong"])
def test_the_interval_holds_its_estimate_at_its_level(method):
    truth, proba = _task(4)
    interval = macro_auc_interval(truth, proba, 0.95, 400, np.random.default_rng(5), method)
    assert interval.estimate == pytest.approx(macro_auc(truth, proba)[0], rel=1e-12)
    assert interval.low < interval.estimate < interval.high <= 1.0
    assert interval.level == 0.95 and method in interval.method
    wider = macro_auc_interval(truth, proba, 0.99, 400, np.random.default_rng(5), method)
    assert wider.high - wider.low > interval.high - interval.low


def test_a_class_that_never_occurs_leaves_the_auc_undefined():
    truth, proba = _task(6)
    rng = np.random.default_rng(0)
    absent = np.where(truth == 2, 1, truth)  # class 2 of the 3 columns never occurs
    assert macro_auc_interval(absent, proba, 0.95, 100, rng) is None
    single = absent.copy()
    single[0] = 2  # class 2 has one item: no sample variance, no jackknife
    assert macro_auc_interval(single, proba, 0.95, 100, rng, "delong") is None
    assert macro_auc_interval(single, proba, 0.95, 100, rng, "bca") is None
    assert macro_auc_interval(single, proba, 0.95, 100, rng, "percentile") is not None


def test_the_acceleration_is_the_stratified_jackknifes_from_the_leave_one_out_aucs():
    """Each class a stratum, combined as scipy.stats.bootstrap combines samples."""
    truth, proba = _task(7, n_items=120)
    leave_one_out = macro_auc(truth, proba, 1 - np.eye(truth.size))  # by brute force
    num = den = 0.0
    for j in range(3):
        theta, n_j = leave_one_out[truth == j], np.sum(truth == j)
        u = (n_j - 1) * (theta.mean() - theta)
        num += (u**3).sum() / n_j**3
        den += (u**2).sum() / n_j**2
    a = acceleration(truth, proba, np.bincount(truth, minlength=3))
    assert a != 0 and a == pytest.approx(num / (6 * den**1.5), rel=1e-9)


def test_an_unknown_method_is_refused():
    truth, proba = _task(8)
    with pytest.raises(ValueError, match="method must be one of"):
        macro_auc_interval(truth, proba, 0.95, 10, np.random.default_rng(0), "wald")
