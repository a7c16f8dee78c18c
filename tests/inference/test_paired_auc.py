"""Two systems' ROC AUCs on the same items: DeLong's paired test and the paired bootstrap.

The areas are scikit-learn's ``roc_auc_score``; DeLong's interval and p-value are those
of :func:`clfmetrics.compare_auc` on the same data; the bootstrap scores both systems on
the same resample, which is what makes it paired.
"""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

import clfmetrics as cm
from clfmetrics.inference import paired_aucs


def _binary(n=300, seed=1):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    a = rng.normal(size=n) + y
    b = np.round(0.6 * a + rng.normal(size=n) + 0.5 * y, 1)  # ties, as rounded scores have
    return y, a, b


def _matrix(n=240, seed=2):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)

    def proba(shift):
        e = np.exp(rng.normal(size=(n, 3)) + shift * np.eye(3)[y])
        return e / e.sum(axis=1, keepdims=True)

    return y, proba(1.5), proba(1.0)


def test_binary_areas_and_delong_equal_sklearn_and_compare_auc():
    y, a, b = _binary()
    r = paired_aucs(y, a, b, 1, 0.95, 1000, np.random.default_rng(0))[1]
    assert r.auc_a == pytest.approx(roc_auc_score(y, a), abs=1e-12)
    assert r.auc_b == pytest.approx(roc_auc_score(y, b), abs=1e-12)
    c = cm.compare_auc(y, a, b)
    assert (r.delong.low, r.delong.high) == pytest.approx((c.low, c.high), abs=1e-12)
    assert r.delong_p == pytest.approx(c.pvalue, abs=1e-12)
    assert r.bootstrap.estimate == pytest.approx(c.difference, abs=1e-12)


def test_the_positive_class_is_the_one_scored():
    y, a, b = _binary()
    r = paired_aucs(y, -a, -b, 0, 0.95, 500, np.random.default_rng(0))[0]
    assert r.auc_a == pytest.approx(roc_auc_score(y == 0, -a), abs=1e-12)


def test_matrix_columns_and_macro_equal_sklearn_and_compare_auc():
    y, pa, pb = _matrix()
    out = paired_aucs(y, pa, pb, None, 0.95, 500, np.random.default_rng(0))
    for k in range(3):
        c = cm.compare_auc(y == k, pa[:, k], pb[:, k])
        assert out[k].auc_a == pytest.approx(roc_auc_score(y == k, pa[:, k]), abs=1e-12)
        assert (out[k].delong.low, out[k].delong_p) == pytest.approx((c.low, c.pvalue), abs=1e-12)
    macro = out["macro"]
    assert macro.auc_a == pytest.approx(roc_auc_score(y, pa, multi_class="ovr"), abs=1e-12)
    assert macro.auc_b == pytest.approx(roc_auc_score(y, pb, multi_class="ovr"), abs=1e-12)
    assert macro.delong.low < macro.difference < macro.delong.high


def test_macro_delong_of_two_columns_is_the_binary_delong():
    """For [1 - s, s] both columns' AUCs are the AUC of s, so the macro mean's variance of
    the difference must be the binary one: a check of the macro terms of the difference."""
    y, a, b = _binary()
    sa, sb = 1 / (1 + np.exp(-a)), 1 / (1 + np.exp(-b))
    two = paired_aucs(y, np.c_[1 - sa, sa], np.c_[1 - sb, sb], None, 0.95, 200,
                      np.random.default_rng(0))["macro"]  # fmt: skip
    one = paired_aucs(y, sa, sb, 1, 0.95, 200, np.random.default_rng(0))[1]
    assert (two.delong.low, two.delong.high, two.delong_p) == pytest.approx(
        (one.delong.low, one.delong.high, one.delong_p), abs=1e-12
    )


def test_the_bootstrap_is_paired_and_agrees_with_delong():
    """Two nearly identical rankings: the paired interval of the difference is far narrower
    than the one from two independent resamples (which ignore the correlation), and on
    300 items it is about as wide as DeLong's."""
    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, 300)
    a = rng.normal(size=300) + y
    b = a + rng.normal(scale=0.05, size=300)
    r = paired_aucs(y, a, b, 1, 0.95, 2000, np.random.default_rng(0))[1]
    width = r.bootstrap.high - r.bootstrap.low
    alone = [cm.auc_interval(y, s, size=2000, rng=k) for k, s in enumerate((a, b))]
    unpaired = np.hypot(*[iv.high - iv.low for iv in alone])
    assert width < 0.2 * unpaired
    assert 0.75 < width / (r.delong.high - r.delong.low) < 1.33
    assert r.bootstrap.low <= r.difference <= r.bootstrap.high and r.resamples == 2000


def test_same_seed_same_numbers_and_the_resamples_bounded(monkeypatch):
    y, a, b = _binary()
    one = paired_aucs(y, a, b, 1, 0.95, 400, np.random.default_rng(3))[1]
    two = paired_aucs(y, a, b, 1, 0.95, 400, np.random.default_rng(3))[1]
    assert one == two
    monkeypatch.setattr("clfmetrics.inference._paired_auc.WORK", 300 * 2 * 300)
    assert paired_aucs(y, a, b, 1, 0.95, 2000, np.random.default_rng(0))[1].resamples == 300
    monkeypatch.setattr("clfmetrics.inference._paired_auc.WORK", 1)  # never below MIN_SIZE
    assert paired_aucs(y, a, b, 1, 0.95, 2000, np.random.default_rng(0))[1].resamples == 200


def test_undefined_columns_and_small_classes():
    y = np.array([0, 0, 0, 1, 1, 1])
    pa = np.array([[0.8, 0.2, 0.0], [0.7, 0.3, 0.0], [0.4, 0.6, 0.0], [0.3, 0.7, 0.0],
                   [0.1, 0.9, 0.0], [0.5, 0.5, 0.0]])  # fmt: skip
    out = paired_aucs(y, pa, pa[:, [1, 0, 2]], None, 0.95, 50, np.random.default_rng(0))
    assert out[2] is None and out["macro"] is None  # class 2 never occurs: 0/0
    assert out[0].auc_a == pytest.approx(roc_auc_score(y == 0, pa[:, 0]))
    one_positive = np.array([0, 0, 0, 0, 1])
    s = np.array([0.1, 0.2, 0.3, 0.4, 0.9])
    r = paired_aucs(one_positive, s, s[::-1], 1, 0.95, 50, np.random.default_rng(0))[1]
    assert r.delong is None and r.delong_p is None and r.bootstrap.estimate == 1.0 - 0.0
    assert r.difference == 1.0
