"""report_from_counts and compare_from_counts equal report and compare on the expanded items."""

from __future__ import annotations

import numpy as np
import pytest

import clfmetrics as cm


def _items(n=3_000, classes=("cat", "dog", "owl"), seed=0):
    rng = np.random.default_rng(seed)
    classes = np.asarray(classes)
    y = rng.choice(classes, size=n)
    a = np.where(rng.random(n) < 0.8, y, rng.choice(classes, size=n))
    b = np.where(rng.random(n) < 0.75, y, rng.choice(classes, size=n))
    return y, a, b


def _grouped(*columns, seed=1):
    """Distinct combinations with counts, shuffled, one split in two, plus a zero row."""
    stacked = np.stack(columns)
    uniq, counts = np.unique(stacked, axis=1, return_counts=True)
    order = np.random.default_rng(seed).permutation(uniq.shape[1])
    uniq, counts = uniq[:, order], counts[order]
    split = counts[0] // 2  # the same combination on two rows: the counts add up
    uniq = np.concatenate([uniq, uniq[:, :1]], axis=1)
    counts = np.concatenate([[counts[0] - split], counts[1:], [split]])
    # A combination with no items, naming a class that no item has: ignored.
    uniq = np.concatenate([uniq, np.full((len(columns), 1), uniq.flat[0])], axis=1)
    uniq[0, -1] = "zebra" if uniq.dtype.kind == "U" else uniq.max() + 1
    counts = np.concatenate([counts, [0]])
    return [*uniq, counts.astype(float)]


def test_report_from_counts_equals_report_on_the_items():
    y, a, _ = _items()
    truth, pred, counts = _grouped(y, a)
    assert len(counts) < 15
    by_items = cm.report(y, a, size=2_000, rng=7)
    by_counts = cm.report_from_counts(truth, pred, counts, size=2_000, rng=7)
    assert by_counts.to_json() == by_items.to_json()
    assert str(by_counts) == str(by_items)
    assert by_counts.n_items == len(y)


def test_report_from_counts_with_labels_and_integer_classes():
    y, a, _ = _items(n=500, classes=(3, 5, 9), seed=3)
    truth, pred, counts = _grouped(y, a)
    labels = [3, 5, 9, 11]  # a class no item has
    by_items = cm.report(y, a, labels=labels, size=500, rng=1)
    by_counts = cm.report_from_counts(truth, pred, counts, labels=labels, size=500, rng=1)
    assert by_counts.to_json() == by_items.to_json()


def test_compare_from_counts_equals_compare_on_the_items():
    y, a, b = _items(seed=4)
    truth, pa, pb, counts = _grouped(y, a, b)
    opts = {"names": ("new", "old"), "size": 2_000, "rng": 11}
    by_items = cm.compare(y, a, b, **opts)
    by_counts = cm.compare_from_counts(truth, pa, pb, counts, **opts)
    assert by_counts.to_json() == by_items.to_json()  # scores, intervals, p-values, McNemar
    assert str(by_counts) == str(by_items)
    assert by_counts.pvalues == by_items.pvalues
    assert by_counts.differences == by_items.differences


def test_compare_from_counts_with_many_classes_uses_the_sorting_path():
    # 200 classes: 200**3 possible patterns, too many to count them all; np.unique is used.
    y, a, b = _items(n=2_000, classes=np.arange(200), seed=5)
    truth, pa, pb, counts = _grouped(y, a, b)
    by_items = cm.compare(y, a, b, size=300, rng=2)
    by_counts = cm.compare_from_counts(truth, pa, pb, counts, size=300, rng=2)
    assert by_counts.to_json() == by_items.to_json()


def test_a_billion_items_in_four_counts():
    # McNemar's exact test sums O(sqrt(N)) binomial masses, not N: this takes well under 1 s.
    truth, a, b = ["x", "x", "y", "y"], ["x", "y", "y", "x"], ["x", "x", "x", "x"]
    big = np.array([4e8, 1e8, 3e8, 2e8])
    c = cm.compare_from_counts(truth, a, b, big.astype(np.int64), size=200, rng=0)
    assert c.n_items == 10**9
    assert c.scores["accuracy"] == pytest.approx((0.7, 0.5))
    assert c.mcnemar.a_only == 3 * 10**8 and c.mcnemar.b_only == 10**8
    assert c.mcnemar.pvalue == 0.0  # 2 * P(X <= 10**8) for X ~ Bin(4 * 10**8, 1/2) underflows
    # The report's exact (Clopper-Pearson) intervals search a root over O(sqrt(N)) masses.
    r = cm.report_from_counts(truth, a, big // 1000, size=200, rng=0)
    assert r.matrix.tolist() == [[4 * 10**5, 2 * 10**5], [10**5, 3 * 10**5]]


@pytest.mark.parametrize(
    ("counts", "message"),
    [
        ([2, -1], "must not be negative"),
        ([2, 0.5], "whole-number counts"),
        ([2, np.nan], "finite"),
        ([2, np.inf], "finite"),
        ([0, 0], "sum to 0"),
        ([2], "counts has 1 entries but the label arrays have 2"),
        ([[2, 1]], "1-d"),
        (["2", "1"], "numbers of items"),
        ([True, False], "numbers of items"),
        ([2, None], "numbers of items"),
        (np.ma.masked_array([2, 1], mask=[0, 1]), "masked"),
    ],
)
def test_bad_counts_raise_a_value_error_naming_counts(counts, message):
    with pytest.raises(ValueError, match=message):
        cm.report_from_counts(["a", "b"], ["a", "a"], counts)
    with pytest.raises(ValueError, match=message):
        cm.compare_from_counts(["a", "b"], ["a", "a"], ["b", "b"], counts)


def test_bad_combinations_name_their_argument():
    with pytest.raises(ValueError, match="truth and pred differ in length"):
        cm.report_from_counts(["a", "b"], ["a"], [1, 1])
    with pytest.raises(ValueError, match="truth and pred_b differ in length"):
        cm.compare_from_counts(["a", "b"], ["a", "b"], ["a"], [1, 1])
    with pytest.raises(ValueError, match="y_true and y_pred differ in length"):
        cm.report(["a", "b"], ["a"])  # the item-level call keeps its own names
    with pytest.raises(ValueError, match="names must be two different names"):
        cm.compare_from_counts(["a"], ["a"], ["a"], [1], names=("A", "A"))
