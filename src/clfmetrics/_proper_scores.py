"""The arithmetic of :mod:`clfmetrics.reliability` on checked probabilities.

Each function takes what ``reliability._binary_or_matrix`` returns: ``p`` (float64,
1-d or ``(N, n)``, finite, in [0, 1], rows summing to 1), and either ``pos`` (1-d: is
item ``i`` positive) or ``cols`` (a matrix: the column of each item's true class).
The public functions check their input once and call these; the report, whose
scores are checked where they enter, calls them directly, so no check is repeated
over the N items (at 10**7 items each check held about 40 bytes an item).
"""

from __future__ import annotations

import math

import numpy as np

_EPS = np.finfo(np.float64).eps
#: Rows of a probability matrix handled at a time by the Brier score (no copy of the matrix).
_BLOCK_ITEMS = 2**20


def brier_of(p: np.ndarray, pos, cols) -> float:
    """The Brier score (see :func:`clfmetrics.reliability.brier_score`)."""
    if cols is None:
        # Both columns of [1 - p, p], halved: scikit-learn's arithmetic (the same last bit),
        # in place (one or two floats per item held, not five).
        outer = (~pos).astype(np.float64)  # 1 - y
        inner = 1.0 - p
        outer -= inner
        del inner
        np.square(outer, out=outer)
        term = pos.astype(np.float64)
        term -= p
        np.square(term, out=term)
        outer += term
        return float(np.mean(outer) * 0.5)
    rows, step = np.empty(len(p)), max(1, _BLOCK_ITEMS // p.shape[1])  # blocks: no matrix copy
    for start in range(0, len(p), step):
        diff = p[start : start + step].copy()
        diff[np.arange(len(diff)), cols[start : start + step]] -= 1.0
        rows[start : start + step] = np.einsum("ij,ij->i", diff, diff)
    return float(np.mean(rows))


def log_loss_of(p: np.ndarray, pos, cols) -> float:
    """The log loss, clipped as scikit-learn's (see :func:`clfmetrics.reliability.log_loss`)."""
    if cols is None:  # np.where(pos, p, 1 - p), in place
        true_p = 1.0 - p
        np.copyto(true_p, p, where=pos)
    else:  # p[np.arange(N), cols], a block of rows at a time (no N indices)
        true_p, step = np.empty(len(p)), max(1, _BLOCK_ITEMS // p.shape[1])
        for start in range(0, len(p), step):
            block = p[start : start + step]
            true_p[start : start + len(block)] = block[
                np.arange(len(block)), cols[start : start + step]
            ]
    np.clip(true_p, _EPS, 1.0 - _EPS, out=true_p)
    return float(-np.mean(np.log(true_p, out=true_p)))


def bin_items(p: np.ndarray, pos, cols, bins: int, strategy: str):
    """Per item: its bin, stated probability and hit (outcome)."""
    if cols is None:
        stated, hit = p, pos
    else:  # top-label (confidence) calibration, Guo et al. (2017)
        top = np.argmax(p, axis=1)
        stated, hit = p[np.arange(len(p)), top], top == cols
    return bin_ids(stated, bins, strategy), stated, hit


def bin_ids(stated: np.ndarray, bins: int, strategy: str) -> np.ndarray:
    """The bin of each stated probability: ``bins`` equal widths, or quantile edges."""
    if strategy == "uniform":
        edges = np.linspace(0.0, 1.0, bins + 1)
    else:
        edges = np.percentile(stated, np.linspace(0, 1, bins + 1) * 100)
    # As scikit-learn's calibration_curve: bin b holds (edges[b], edges[b + 1]], the
    # first bin also its left edge; values on an inner edge go to the lower bin.
    return np.searchsorted(edges[1:-1], stated)


def bin_sums(ids, stated, hit, bins):
    """Per non-empty bin: count, sum of outcomes, sum of stated probabilities."""
    counts = np.bincount(ids, minlength=bins)
    observed = np.bincount(ids, weights=hit.astype(np.float64), minlength=bins)
    predicted = np.bincount(ids, weights=stated, minlength=bins)
    full = counts > 0
    return counts[full], observed[full], predicted[full]


def bincount_onto(sums: np.ndarray, ids: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """``sums`` plus ``np.bincount(ids, weights)``, added as one ``np.bincount`` over all the
    items would add them: a block at a time, each block's bincount starts from the sums so
    far, so sums taken block by block equal those over all N items to the last bit."""
    head = np.arange(sums.size)
    return np.bincount(
        np.concatenate([head, ids]), weights=np.concatenate([sums, weights]), minlength=sums.size
    )


def binned(p: np.ndarray, pos, cols, bins: int, strategy: str):
    """Per non-empty bin: count, sum of outcomes, sum of stated probabilities.

    Equal-width bins: a block of items at a time, so no bin, top label or stated
    probability of N items is held; the sums are the same to the last bit
    (:func:`bincount_onto`).
    """
    if strategy != "uniform":  # quantile edges need every stated probability at once
        return bin_sums(*bin_items(p, pos, cols, bins, strategy), bins)
    counts, hits, stated = np.zeros(bins, np.int64), np.zeros(bins), np.zeros(bins)
    step = max(1, _BLOCK_ITEMS // (1 if p.ndim == 1 else p.shape[1]))
    for start in range(0, len(p), step):
        part = slice(start, start + step)
        ids, said, hit = bin_items(
            p[part], None if pos is None else pos[part], None if cols is None else cols[part],
            bins, strategy,
        )  # fmt: skip
        counts += np.bincount(ids, minlength=bins)
        hits, stated = bincount_onto(hits, ids, hit), bincount_onto(stated, ids, said)
    full = counts > 0
    return counts[full], hits[full], stated[full]


def ece_of(counts, hits, stated, debiased) -> float:
    """Plug-in or debiased ECE from the sums per non-empty bin."""
    gap = hits / counts - stated / counts
    weight = counts / counts.sum()
    if not debiased:
        return float(np.abs(hits - stated).sum() / counts.sum())
    freq = hits / counts
    sd = np.sqrt(freq * (1 - freq) / counts)
    # E|G| for G ~ N(gap, sd^2): sd sqrt(2/pi) exp(-gap^2 / 2 sd^2) + gap (1 - 2 Phi(-gap / sd)).
    z = np.divide(gap, sd, out=np.zeros_like(gap), where=sd > 0)
    phi = 0.5 * (1 + np.array([math.erf(-v / math.sqrt(2)) for v in z.tolist()]))
    folded = np.where(
        sd > 0,
        sd * math.sqrt(2 / math.pi) * np.exp(-0.5 * z**2) + gap * (1 - 2 * phi),
        np.abs(gap),
    )
    return float(weight @ (2 * np.abs(gap) - folded))
