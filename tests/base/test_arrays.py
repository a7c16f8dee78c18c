"""clfmetrics._base.arrays: sums added onto, a block at a time, as one bincount adds them."""

from __future__ import annotations

import numpy as np

from clfmetrics._base.arrays import bincount_onto


def test_block_by_block_sums_equal_one_bincount_to_the_last_bit():
    rng = np.random.default_rng(0)
    ids = rng.integers(0, 7, 100_000)
    weights = rng.random(100_000) * 10.0 ** rng.integers(-8, 8, 100_000)
    whole = np.bincount(ids, weights, minlength=7)
    sums = np.zeros(7)
    for start in range(0, ids.size, 4096):
        sums = bincount_onto(sums, ids[start : start + 4096], weights[start : start + 4096])
    assert sums.tobytes() == whole.tobytes()


def test_sums_keep_their_length_when_the_block_misses_the_last_ids():
    out = bincount_onto(np.array([1.0, 2.0, 3.0]), np.array([0, 0]), np.array([0.5, 0.25]))
    np.testing.assert_array_equal(out, [1.75, 2.0, 3.0])
    empty = bincount_onto(np.array([1.0, 2.0]), np.array([], dtype=int), np.array([]))
    np.testing.assert_array_equal(empty, [1.0, 2.0])
