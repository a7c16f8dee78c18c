"""The small-sample coverage of the ROC AUC intervals and the report's flag (issue 27)."""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np
import pytest

import clfmetrics as cm
from clfmetrics import SMALL_CLASS, SMALL_CLASS_COVERAGE, SMALL_CLASS_STUDY, auc_coverage


def test_the_stored_coverage_agrees_with_an_independent_rerun():
    """A rerun with other seeds lands within three standard errors of the stored shares."""
    study = {**SMALL_CLASS_STUDY, "sets": 300, "size": 500, "rng": 11}
    rerun = auc_coverage(**study)
    for method, stored in SMALL_CLASS_COVERAGE.items():
        se = math.sqrt(stored * (1 - stored) * (1 / 300 + 1 / SMALL_CLASS_STUDY["sets"]))
        assert abs(rerun[method] - stored) < 3 * se + 0.01, (method, rerun[method], stored)
        # every method falls short of its nominal 95 %, by more than the simulation's error
        assert stored < 0.95 - 3 * math.sqrt(0.95 * 0.05 / SMALL_CLASS_STUDY["sets"])


def test_auc_coverage_counts_intervals_that_contain_the_true_auc():
    """A direct loop over the same draws gives the same share."""
    rng = np.random.default_rng(3)
    shift = math.sqrt(2) * NormalDist().inv_cdf(0.8)
    y = np.r_[np.ones(15, np.int64), np.zeros(40, np.int64)]
    hits = 0
    for _ in range(30):
        s = rng.normal(shift * y, 1.0)
        iv = cm.auc_interval(y, s, size=300, method="percentile", rng=rng)
        hits += iv.low <= 0.8 <= iv.high
    assert auc_coverage(15, 40, 0.8, methods=("percentile",), sets=30, size=300, rng=3) == {
        "percentile": hits / 30
    }


@pytest.mark.parametrize(
    "kwargs", [{"n_pos": 0, "n_neg": 5}, {"n_pos": 5.5, "n_neg": 5}, {"auc": 1.0}, {"sets": 0}]
)
def test_auc_coverage_bad_input(kwargs):
    args = {"n_pos": 5, "n_neg": 5, "auc": 0.7, "sets": 2} | kwargs
    with pytest.raises(ValueError):
        auc_coverage(args.pop("n_pos"), args.pop("n_neg"), args.pop("auc"), **args)


def _binary(n_pos, n_neg=200, seed=0):
    rng = np.random.default_rng(seed)
    y = np.r_[np.ones(n_pos, int), np.zeros(n_neg, int)]
    s = 1 / (1 + np.exp(-rng.normal(2 * y, 1)))
    return y, (s >= 0.5).astype(int), s


def test_the_report_flags_an_auc_interval_with_a_small_class_and_quotes_the_simulation():
    y, pred, s = _binary(SMALL_CLASS - 6)
    r = cm.report(y, pred, scores=s, size=300, rng=0)
    flags = [w for w in r.warnings if "items of the smaller class" in w]
    assert len(flags) == 1
    assert f"only {SMALL_CLASS - 6} items" in flags[0]
    assert f"{SMALL_CLASS_COVERAGE['percentile']:.2f} of the time" in flags[0]
    assert "percentile" in flags[0]
    delong = cm.report(y, pred, scores=s, size=300, rng=0, auc_method="delong")
    assert any(f"{SMALL_CLASS_COVERAGE['delong']:.2f}" in w for w in delong.warnings)


def test_the_report_does_not_flag_a_class_of_twenty():
    y, pred, s = _binary(SMALL_CLASS)
    r = cm.report(y, pred, scores=s, size=300, rng=0)
    assert not [w for w in r.warnings if "items of the smaller class" in w]


def test_every_column_of_a_probability_matrix_is_checked():
    rng = np.random.default_rng(4)
    y = np.r_[np.zeros(100, int), np.ones(100, int), np.full(8, 2)]
    p = rng.dirichlet(np.ones(3), size=y.size)
    p[np.arange(y.size), y] += 1
    p /= p.sum(axis=1, keepdims=True)
    r = cm.report(y, p.argmax(1), scores=p, size=200, rng=0)
    flags = [w for w in r.warnings if "items of the smaller class" in w]
    assert len(flags) == 1 and "class 2 " in flags[0] and "only 8 items" in flags[0]


def test_the_report_docstring_quotes_the_stored_coverage():
    doc = " ".join(cm.report.__doc__.split())
    for method, name in (("percentile", "percentile"), ("bca", "BCa"), ("delong", "DeLong")):
        assert f"{SMALL_CLASS_COVERAGE[method]:.2f} {name}" in doc
    assert f"fewer than {SMALL_CLASS} items" in doc
