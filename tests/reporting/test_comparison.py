"""Every interval the report and the comparison print holds its own estimate, or a warning says why.

Issue 26: a 36-class paired comparison printed ``delta_f1 0.000 [0.009, 0.030]``.
The paired percentile interval of ``delta_f1`` is that of the resampled
differences, and ``delta_f1`` is a sum of squares of class-wise rates: the
resampling noise inflates it, more for the system with small, noisy classes, so
the resampled differences can all lie above the observed one. Such an interval
is now centred on its estimate (same width) and a warning names the metric.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from counted_items import counted, labelled_items

import clfmetrics as cm


def _biased_case():
    """36 classes, 200 items: a weak system A against a strong B (found by a seed search)."""
    rng = np.random.default_rng(14)
    k, n = 36, int(rng.choice([200, 400, 800]))
    t = rng.choice(k, n, p=rng.dirichlet(np.ones(k) * rng.choice([0.5, 2, 50])))

    def noisy(acc):
        wrong = rng.random(n) > acc
        out = t.copy()
        out[wrong] = rng.integers(0, k, wrong.sum())
        return out

    a = noisy(rng.uniform(0.2, 0.6))
    return t, a, noisy(rng.uniform(0.85, 0.99))


def _inside(iv) -> bool:
    return iv.low <= iv.estimate <= iv.high


def test_paired_delta_f1_interval_holds_its_estimate_on_36_classes():
    t, a, b = _biased_case()
    c = cm.compare(t, a, b, size=400, rng=0)
    d = c.differences["delta_f1"]
    assert _inside(d), d
    assert "centred on the estimate" in d.method
    assert any(w.startswith("delta_f1: the paired interval") for w in c.warnings)
    # The resamples themselves do lie above the estimate: the percentile interval excluded it.
    assert d.estimate > 0 and d.high - d.low > 0
    for name, iv in c.differences.items():
        assert _inside(iv), (name, iv)
    assert any(w.startswith("delta_f1:") for w in c.to_dict()["warnings"])  # --json too


def _random_items(rng):
    """Tiny, lopsided data: 2-6 classes, 5-60 items, some classes never predicted."""
    k = int(rng.integers(2, 7))
    n = int(rng.integers(5, 61))
    truth = rng.choice(k, n, p=rng.dirichlet(np.ones(k) * rng.choice([0.3, 1.0, 5.0])))
    never = rng.choice(k, int(rng.integers(0, k - 1)), replace=False)  # never predicted
    allowed = np.setdiff1d(np.arange(k), never)

    def system(acc):
        pred = np.where(rng.random(n) < acc, truth, rng.choice(allowed, n))
        return np.where(np.isin(pred, never), rng.choice(allowed, n), pred)

    return truth, system(rng.uniform(0.2, 0.95)), system(rng.uniform(0.2, 0.95))


def _unexplained(intervals: dict, warnings: list[str]) -> list[str]:
    bad = []
    for name, iv in intervals.items():
        if math.isnan(iv.estimate) or math.isnan(iv.low) or math.isnan(iv.high):
            continue  # undefined: the report says so (undefined share warnings)
        if not _inside(iv) and not any(w.startswith(f"{name}:") for w in warnings):
            bad.append(f"{name} {iv}")
    return bad


@pytest.mark.parametrize("seed", range(12))
def test_every_printed_interval_holds_its_estimate_or_warns(seed):
    rng = np.random.default_rng(1000 + seed)
    truth, a, b = _random_items(rng)
    labels = list(range(int(truth.max()) + 1))
    r = cm.report(truth, a, labels=labels, size=300, rng=seed)
    assert not _unexplained(r.intervals, r.warnings)
    for e in [r.exact["accuracy"], *r.exact["recall"].values()]:
        assert e["low"] <= e["estimate"] <= e["high"]
    c = cm.compare(truth, a, b, labels=labels, size=300, rng=seed)
    assert not _unexplained(c.differences, c.warnings)


def test_compare_from_counts_equals_compare_on_the_items():
    y, a, b = labelled_items(seed=4)
    truth, pa, pb, counts = counted(y, a, b)
    opts = {"names": ("new", "old"), "size": 2_000, "rng": 11}
    by_items = cm.compare(y, a, b, **opts)
    by_counts = cm.compare_from_counts(truth, pa, pb, counts, **opts)
    assert by_counts.to_json() == by_items.to_json()  # scores, intervals, p-values, McNemar
    assert str(by_counts) == str(by_items)
    assert by_counts.pvalues == by_items.pvalues
    assert by_counts.differences == by_items.differences


def test_compare_from_counts_with_many_classes_uses_the_sorting_path():
    # 200 classes: 200**3 possible patterns, too many to count them all; np.unique is used.
    y, a, b = labelled_items(n=2_000, classes=np.arange(200), seed=5)
    truth, pa, pb, counts = counted(y, a, b)
    by_items = cm.compare(y, a, b, size=300, rng=2)
    by_counts = cm.compare_from_counts(truth, pa, pb, counts, size=300, rng=2)
    assert by_counts.to_json() == by_items.to_json()


def _pair(seed, n=60):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    a = np.where(rng.random(n) < 0.85, y, 1 - y)
    b = np.where(rng.random(n) < 0.72, y, 1 - y)
    return y, a, b


@pytest.mark.parametrize("seed", [2, 5])
def test_verdicts_follow_the_interval_and_the_holm_test(seed):
    c = cm.compare(*_pair(seed), size=2000, rng=0)
    for k, verdict in c.verdicts().items():
        if k == "delta_f1":
            continue
        iv = c.differences[k]
        decided = (iv.low > 0 or iv.high < 0) and c.pvalues_holm[k] < 0.05
        assert (verdict != "undecided") == decided
        if decided:
            assert verdict == ("A" if iv.low > 0 else "B")
    listed = {d["metric"] for d in c.disagreements() if d["test"].startswith("Holm")}
    for k in c.pvalues_holm:
        iv = c.differences[k]
        assert (k in listed) == ((iv.low > 0 or iv.high < 0) != (c.pvalues_holm[k] < 0.05))


def test_an_interval_alone_does_not_decide():
    """Seed 2: macro F1's interval excludes 0 but its Holm-adjusted p does not reach 0.05."""
    c = cm.compare(*_pair(2), size=2000, rng=0)
    iv = c.differences["macro_f1"]
    assert iv.low > 0 and c.pvalues_holm["macro_f1"] >= 0.05
    assert c.verdicts()["macro_f1"] == "undecided"
    assert "favours a system only where the interval and the Holm-adjusted test both decide" in (
        " ".join(str(c).split())
    )
