"""The report's and the comparison's own checks (issue 26): swapped scores, verdicts.

- probabilities whose decision disagrees with the predictions on most items warn;
- an ROC AUC whose whole interval lies below 0.5 warns about a swapped positive class;
- an AP interval never excludes its own estimate (the wrong-positive-class case);
- a paired comparison favours a system only where the interval and the Holm test agree.
"""

from __future__ import annotations

import numpy as np
import pytest

import clfmetrics as cm


@pytest.fixture(scope="module")
def binary():
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 300)
    p = np.clip(0.5 + (y - 0.5) * 0.7 + rng.normal(0, 0.15, 300), 0, 1)  # a good ranking
    pred = (p >= 0.5).astype(int)
    return y, pred, p


def test_scores_of_the_other_class_warn_twice_and_keep_ap_honest(binary):
    y, pred, p = binary
    r = cm.report(y, pred, scores=p, pos_label=0, size=300)
    auc, ap = r.scores.ranking[0]
    assert auc.high < 0.5
    assert any("did you swap the positive class or the columns?" in w for w in r.warnings)
    assert any("differs from the predictions on" in w for w in r.warnings)
    assert ap.low <= ap.estimate <= ap.high
    right = cm.report(y, pred, scores=p, size=300)
    assert not any("swap" in w or "differs from the predictions" in w for w in right.warnings)


def test_the_ap_interval_is_centred_where_the_resamples_miss_the_estimate():
    from clfmetrics import Interval
    from clfmetrics.reporting._scores import _centred

    moved = _centred(Interval(0.219, 0.221, 0.223, 0.95, "percentile"))  # issue 26's case
    assert (moved.low, moved.high) == pytest.approx((0.218, 0.220))
    assert moved.method == "percentile, centred on the estimate"
    inside = Interval(0.5, 0.4, 0.6, 0.95, "percentile")
    assert _centred(inside) is inside


def test_proba_columns_in_the_wrong_order_warn():
    rng = np.random.default_rng(4)
    y = rng.integers(0, 3, 400)
    proba = rng.dirichlet(np.ones(3), 400)
    proba[np.arange(400), y] += 2
    proba /= proba.sum(axis=1, keepdims=True)
    pred = proba.argmax(axis=1)
    good = cm.report(y, pred, scores=proba, size=200)
    assert not any("differs from the predictions" in w for w in good.warnings)
    bad = cm.report(y, pred, scores=proba[:, [1, 2, 0]], size=200)
    (w,) = [w for w in bad.warnings if "differs from the predictions" in w]
    assert "100% of the items" in w and "class order (0 1 2)" in w


def _pair(seed, n=60):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    a = np.where(rng.random(n) < 0.85, y, 1 - y)
    b = np.where(rng.random(n) < 0.72, y, 1 - y)
    return y, a, b


def test_macro_one_vs_rest_auc_equals_scikit_learn():
    from sklearn.metrics import roc_auc_score

    rng = np.random.default_rng(6)
    y = rng.integers(0, 4, 500)
    proba = rng.dirichlet(np.ones(4), 500)
    proba[np.arange(500), y] += 0.4
    proba = np.round(proba / proba.sum(axis=1, keepdims=True), 2)  # ties, as files have them
    proba /= proba.sum(axis=1, keepdims=True)
    r = cm.report(y, proba.argmax(axis=1), scores=proba, size=300)
    iv = r.scores.macro_auc
    want = roc_auc_score(y, proba, multi_class="ovr", average="macro")
    assert iv.estimate == pytest.approx(want, abs=1e-12)
    assert iv.low < iv.estimate < iv.high
    assert r.to_dict()["scores"]["roc_auc_macro_ovr"]["estimate"] == iv.estimate
    assert "macro (one-vs-rest)" in str(r) and "Their macro average" in r.reporting_block()
    # weights of whole items: a resample's AUC equals scikit-learn's on the repeated items
    from clfmetrics.inference._macro_auc import macro_auc

    w = rng.integers(0, 3, 500).astype(float)
    w[[np.flatnonzero(y == k)[0] for k in range(4)]] += 1  # every class stays present
    items = np.repeat(np.arange(500), w.astype(int))
    got = macro_auc(y, proba, w[None])[0]
    assert got == pytest.approx(roc_auc_score(y[items], proba[items], multi_class="ovr"))


def test_macro_auc_delong_is_delong_for_two_classes_and_near_the_bootstrap():
    from sklearn.metrics import roc_auc_score

    from clfmetrics.inference._macro_auc import macro_auc_interval

    rng = np.random.default_rng(8)
    y = rng.integers(0, 2, 400)
    s = np.round(np.clip(0.5 + 0.25 * (2 * y - 1) + rng.normal(0, 0.3, 400), 0, 1), 2)
    two = macro_auc_interval(y, np.column_stack([1 - s, s]), 0.9, 0, None, "delong")
    one = cm.auc_interval(y, s, level=0.9, method="delong")
    assert (two.estimate, two.low, two.high) == pytest.approx((one.estimate, one.low, one.high))
    # three classes: the estimate is scikit-learn's, the width the bootstrap's (within 10%)
    y = rng.integers(0, 3, 900)
    proba = rng.dirichlet(np.ones(3), 900)
    proba[np.arange(900), y] += 0.5
    proba = np.round(proba / proba.sum(axis=1, keepdims=True), 2)  # ties
    proba /= proba.sum(axis=1, keepdims=True)
    delong = macro_auc_interval(y, proba, 0.95, 0, None, "delong")
    boot = macro_auc_interval(y, proba, 0.95, 2000, np.random.default_rng(0))
    assert delong.estimate == boot.estimate
    assert delong.estimate == pytest.approx(roc_auc_score(y, proba, multi_class="ovr"), abs=1e-12)
    assert delong.method == "delong" and boot.method == "percentile, 2000 resamples"
    width = delong.high - delong.low
    assert width == pytest.approx(boot.high - boot.low, rel=0.1)
    with pytest.raises(ValueError, match="method must be one of"):
        macro_auc_interval(y, proba, 0.95, 10, None, "normal")
    assert (
        macro_auc_interval(np.r_[y[:-1], 3], np.c_[proba, proba[:, 0]], 0.95, 0, None, "delong")
        is None
    )


def test_macro_auc_delong_terms_equal_the_pairs_definition():
    """Each item's first-order term z from its O(P N) pairs in every column (ties one half)."""
    from clfmetrics.inference._macro_auc import _delong_terms

    rng = np.random.default_rng(12)
    n_items, n = 300, 4
    y = np.r_[np.arange(n), rng.integers(0, n, n_items - n)]
    proba = np.round(rng.dirichlet(np.ones(n), n_items), 1)  # many ties within and across
    support = np.bincount(y, minlength=n)
    z = np.zeros(n_items)
    aucs = []
    for k in range(n):
        s, pos = proba[:, k], y == k
        psi = (s[:, None] > s[None, :]) + 0.5 * (s[:, None] == s[None, :])  # psi[i, j]: i over j
        v10 = psi[:, ~pos].mean(axis=1)  # share of the negatives that item i outscores
        v01 = psi[pos, :].mean(axis=0)  # share of the positives that outscore item j
        aucs.append(v10[pos].mean())
        z += np.where(pos, v10 / support[k], v01 / (n_items - support[k]))
    estimate, blocks = _delong_terms(y, proba, support)
    got = np.concatenate([terms for _, terms in blocks])
    assert estimate == pytest.approx(np.mean(aucs), abs=1e-14)
    np.testing.assert_allclose(got, z / n, rtol=0, atol=1e-14)


def test_macro_auc_bca_agrees_with_scipy_bootstrap_of_the_classes():
    """The classes are scipy's samples: the same jackknife acceleration (to 1e-12), and BCa
    ends within the Monte Carlo error of two runs of 4,000 resamples."""
    from scipy import stats
    from scipy.stats._resampling import _bca_interval

    from clfmetrics.inference._macro_auc import acceleration, macro_auc, macro_auc_interval

    rng = np.random.default_rng(4)
    y = rng.integers(0, 3, 300)
    proba = rng.dirichlet(np.ones(3), 300)
    proba[np.arange(300), y] += 0.4
    proba = np.round(proba / proba.sum(axis=1, keepdims=True), 2)  # ties
    proba /= proba.sum(axis=1, keepdims=True)
    samples = [np.flatnonzero(y == j) for j in range(3)]

    def statistic(*idx, axis=-1):
        items = np.concatenate([np.atleast_2d(i) for i in idx], axis=-1)
        return macro_auc(y, proba, np.stack([np.bincount(r, minlength=300) for r in items]))

    support = np.bincount(y)
    theta_b = np.array([statistic(*[rng.choice(s, s.size) for s in samples])[0] for _ in range(9)])
    *_, a_hat = _bca_interval(samples, statistic, -1, 0.025, theta_b, None, np)
    assert abs(a_hat) > 1e-4  # a real acceleration, not 0 on both sides
    assert acceleration(y, proba, support) == pytest.approx(float(a_hat), abs=1e-12)
    ours = macro_auc_interval(y, proba, 0.95, 4000, np.random.default_rng(0), "bca")
    ref = stats.bootstrap(
        samples, statistic, n_resamples=4000, method="BCa", random_state=1, batch=500
    ).confidence_interval
    assert ours.method == "bca, 4000 resamples"
    low, high = np.ravel(ref.low)[0], np.ravel(ref.high)[0]
    assert abs(ours.low - low) < 0.006 and abs(ours.high - high) < 0.006
    one_item = np.vstack([np.c_[proba, np.zeros(300)], [[0, 0, 0, 1.0]]])  # class 3: 1 item
    assert macro_auc_interval(np.r_[y, 3], one_item, 0.95, 10, rng, "bca") is None


def test_balanced_accuracy_is_macro_recall_by_name():
    from sklearn.metrics import balanced_accuracy_score

    y, a, _ = _pair(1)
    m = cm.confusion_matrix(y, a)
    iv = cm.interval("balanced_accuracy", m, size=200, rng=0)
    assert iv == cm.interval("macro_recall", m, size=200, rng=0)
    assert iv.estimate == pytest.approx(balanced_accuracy_score(y, a))
    with pytest.raises(ValueError, match="balanced_accuracy"):
        cm.interval("balanced", m)
