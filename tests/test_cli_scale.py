"""Issue 26, bounded memory: chunked resampling, class-sum metrics, the streaming reader."""

from __future__ import annotations

import numpy as np
import pytest

import clfmetrics as cm
from clfmetrics import _chunked
from clfmetrics._margin_metrics import BY_MARGINS, values_and_undefined
from clfmetrics._registry import registry
from clfmetrics.uncertainty import interval_of_stack, resample_matrix


def _sample(n, items, seed=0, skew=0.6):
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, n, items)
    pred = np.where(rng.random(items) < skew, truth, rng.integers(0, n, items))
    return truth, pred


@pytest.mark.parametrize("n", [9, 12, 40])
def test_class_sum_metrics_are_the_matrix_metrics_bit_for_bit(n):
    rng = np.random.default_rng(n)
    stack = rng.multinomial(3 * n, np.full(n * n, 1 / n**2), size=300).reshape(300, n, n)
    stack[:50, 0, :] = 0  # class 0 never predicted
    stack[50:100, :, 1] = 0  # class 1 never occurs
    b, p, c = (stack.sum(axis=-1), stack.sum(axis=-2), np.diagonal(stack, 0, -2, -1))
    from clfmetrics._intervals import scores, undefined_mask

    for name, f in registry().items():
        want = scores(f, stack)
        got, undefined = values_and_undefined(f, *(x.astype(np.float64) for x in (b, p, c)))
        assert got.tobytes() == want.tobytes(), name
        assert np.array_equal(undefined, undefined_mask(f, stack, want)), name
    assert set(BY_MARGINS) == set(registry().values())


def _tiny_budget(monkeypatch, n, width, rows=97):
    """A chunk budget of ``rows`` resamples (a few chunks, not hundreds: the test stays quick)."""
    margins = _chunked.by_margins(registry().values(), n)
    monkeypatch.setattr(_chunked, "CHUNK_BYTES", rows * _chunked.per_resample(n, width, margins))


@pytest.mark.parametrize("n", [3, 12])
def test_chunked_report_equals_unchunked_byte_for_byte(n, monkeypatch):
    truth, pred = _sample(n, 200)
    whole = cm.report(truth, pred, size=700, rng=5).to_json()
    width = np.unique(pred * n + truth).size
    _tiny_budget(monkeypatch, n, width)
    rows = _chunked.chunk_rows(n, width, 700, _chunked.by_margins(registry().values(), n))
    assert rows == 97  # the budget really splits the resamples, unevenly
    assert cm.report(truth, pred, size=700, rng=5).to_json() == whole


@pytest.mark.parametrize("n", [3, 12])
def test_chunked_intervals_equal_the_whole_stack(n, monkeypatch):
    # The chunked path (class sums from 9 classes on) against the one (size, n, n) stack.
    truth, pred = _sample(n, 300, seed=2)
    m = cm.confusion_matrix(truth, pred).astype(np.float64)
    _tiny_budget(monkeypatch, n, np.count_nonzero(m))
    got = cm.report(truth, pred, size=500, rng=3).intervals
    stack = resample_matrix(m, 500, np.random.default_rng(3))
    for name, f in registry().items():
        want = interval_of_stack(f, m, stack, 0.95, "percentile")
        assert (got[name].low, got[name].high, got[name].undefined) == (
            want.low,
            want.high,
            want.undefined,
        ), name


@pytest.mark.parametrize("n", [3, 10])
def test_chunked_comparison_equals_unchunked(n, monkeypatch):
    truth, a = _sample(n, 300, seed=4)
    _, b = _sample(n, 300, seed=5)
    whole = cm.compare(truth, a, b, size=400, rng=1).to_json()
    _tiny_budget(monkeypatch, n, n**3, rows=45)
    assert cm.compare(truth, a, b, size=400, rng=1).to_json() == whole


def test_single_resample_too_big_is_refused_in_one_sentence(monkeypatch):
    monkeypatch.setattr(_chunked, "CHUNK_BYTES", 200)
    truth, pred = _sample(3, 2000)
    with pytest.raises(ValueError, match="for a single resample, more than the"):
        cm.report(truth, pred, size=100)


def test_interval_api_unchanged_by_chunks(monkeypatch):
    m = [[60, 15, 5], [35, 170, 40], [5, 15, 55]]
    whole = cm.interval("macro_f1", m, size=900, method="bca", rng=0)
    monkeypatch.setattr(_chunked, "CHUNK_BYTES", 50 * _chunked.per_resample(3, 9, False))
    assert cm.interval("macro_f1", m, size=900, method="bca", rng=0) == whole


def test_many_exact_intervals_equal_one_at_a_time_and_scipy():
    from scipy.stats import binomtest

    from clfmetrics._binomial import clopper_pearson
    from clfmetrics._exact_many import clopper_pearson_many

    rng = np.random.default_rng(0)
    n = rng.integers(1, 300, 30)
    k = rng.integers(0, n + 1)
    k[:3], k[3:6] = 0, n[3:6]
    n[7], k[7] = 20_000, 3
    low, high = clopper_pearson_many(k, n, 0.9)
    one = np.array([clopper_pearson(int(a), int(b), 0.9) for a, b in zip(k, n, strict=True)])
    ref = [binomtest(int(a), int(b)).proportion_ci(0.9, "exact") for a, b in zip(k, n, strict=True)]
    np.testing.assert_allclose(low, one[:, 0], rtol=1e-11, atol=1e-14)
    np.testing.assert_allclose(high, one[:, 1], rtol=1e-11, atol=1e-14)
    np.testing.assert_allclose(low, [r.low for r in ref], atol=1e-12)
    np.testing.assert_allclose(high, [r.high for r in ref], atol=1e-12)
