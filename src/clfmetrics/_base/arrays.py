"""Numeric helpers on arrays that more than one concern needs."""

from __future__ import annotations

import numpy as np


def bincount_onto(sums: np.ndarray, ids: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """``sums`` plus ``np.bincount(ids, weights)``, added as one ``np.bincount`` over all the
    items would add them: a block at a time, each block's bincount starts from the sums so
    far, so sums taken block by block equal those over all N items to the last bit."""
    head = np.arange(sums.size)
    return np.bincount(
        np.concatenate([head, ids]), weights=np.concatenate([sums, weights]), minlength=sums.size
    )
