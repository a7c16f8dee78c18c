"""Test items of three classes and two systems, and the same items as counted combinations.

Shared by the tests of ``report_from_counts`` and ``compare_from_counts``, which must give what
``report`` and ``compare`` give on the items themselves.
"""

from __future__ import annotations

import numpy as np


def labelled_items(n=3_000, classes=("cat", "dog", "owl"), seed=0):
    rng = np.random.default_rng(seed)
    classes = np.asarray(classes)
    y = rng.choice(classes, size=n)
    a = np.where(rng.random(n) < 0.8, y, rng.choice(classes, size=n))
    b = np.where(rng.random(n) < 0.75, y, rng.choice(classes, size=n))
    return y, a, b


def counted(*columns, seed=1):
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
