"""Resampling test items through their counts, never through the items themselves.

A test set of ``N`` items is summarised without loss, for any metric of the
confusion matrix, by how many items fall into each *pattern*: the true class
together with every system's prediction. Drawing ``N`` items with replacement
is then one multinomial draw over the patterns, and swapping two systems'
predictions item by item is one binomial draw per pattern, so the cost of a
resample depends on the number of patterns (at most ``n ** (k + 1)`` for ``k``
systems and ``n`` classes), not on ``N``.

Convention: the matrices returned have ``m[..., i, j]`` = items predicted
``i`` whose true class is ``j``.
"""

from __future__ import annotations

import os

import numpy as np

from ._codes import check_counts, counted_codes, joint_codes  # noqa: F401 (re-exported)

#: The seed of report(), compare(), their from-counts forms and the command line when
#: none is given: the same call prints the same intervals every time.
DEFAULT_SEED = 0
#: Bytes per resampled matrix cell, counting the metrics' temporary arrays (measured: about
#: three int64/float64 copies of the stack); ``_chunked`` sizes its chunks with it.
_BYTES_PER_CELL = 24

# Rows of resamples drawn at once, so that a block of draws holds about 2**20 numbers.
_BLOCK_NUMBERS = 2**20


def check_size(size) -> int:
    """``size`` as a positive int, or a ValueError naming it."""
    if isinstance(size, bool) or not isinstance(size, (int, np.integer)) or size < 1:
        raise ValueError(f"size must be a positive integer (number of resamples); got {size!r}")
    return int(size)


def check_level(level) -> float:
    """``level`` as a float strictly between 0 and 1, or a ValueError naming it."""
    if isinstance(level, bool) or not isinstance(level, (int, float, np.integer, np.floating)):
        raise ValueError(f"level must be a number strictly between 0 and 1; got {level!r}")
    if not 0 < level < 1:
        raise ValueError(f"level must be strictly between 0 and 1 (e.g. 0.95); got {level!r}")
    return float(level)


def memory_budget() -> int:
    """Half the machine's physical memory (8 GiB where it cannot be read)."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // 2
    except (ValueError, OSError, AttributeError):
        return 8 * 2**30


#: Copies of the ``n x n`` matrix that a report or a comparison holds at once (the matrix,
#: its float and rescaled forms, the baselines, the rendered table).
_MATRIX_COPIES = 8


def check_memory(n: int) -> None:
    """Refuse, in one sentence, ``n`` classes whose ``n x n`` matrices cannot fit in memory.

    The resamples are drawn in chunks (``_chunked``), whose size adapts to the
    memory; what cannot shrink is the matrix itself and its few copies.
    """
    need = n * n * 8 * _MATRIX_COPIES
    budget = memory_budget()
    if need <= budget:
        return
    raise ValueError(
        f"{n} classes need about {need / 2**30:.1f} GiB for the {n} x {n} confusion matrix "
        f"and its copies, more than half of this machine's memory ({budget / 2**30:.1f} GiB): "
        "merge rare classes or evaluate a subset of the classes"
    )


def whole_counts(arr: np.ndarray, name: str = "m") -> None:
    """Raise unless every entry of an already checked float array is a whole number."""
    if not np.array_equal(arr, np.round(arr)):
        raise ValueError(
            f"{name} must hold whole-number counts of items to resample them; "
            "got fractional entries (a normalised or rescaled matrix?)"
        )


def patterns(codes: np.ndarray, n: int, weights=None) -> tuple[np.ndarray, np.ndarray]:
    """The distinct columns of ``codes`` and how many items share each one.

    Returns ``(rows, counts)``: ``rows`` of shape ``(1 + k, P)`` (each column one
    pattern: true class, then each system's prediction) and ``counts`` of shape ``(P,)``.
    With ``weights`` (whole counts from :func:`check_counts`) column ``c`` of
    ``codes`` stands for ``weights[c]`` items, so the result equals that of the
    expanded items.
    """
    depth = codes.shape[0]
    if n**depth < 2**62:
        # Mixed-radix key per item, so that patterns are integers.
        key = np.zeros(codes.shape[1], dtype=np.int64)
        for row in codes:
            key = key * n + row
        if n**depth <= 2**22:
            # Few possible patterns: count them all in one pass, keep those that occur.
            counts = _count(key, weights, n**depth)
            uniq = np.flatnonzero(counts)
            counts = counts[uniq]
        else:
            uniq, inverse = np.unique(key, return_inverse=True)
            counts = _count(inverse, weights, uniq.size)
        rows = np.empty((depth, uniq.size), dtype=np.int64)
        for r in range(depth - 1, -1, -1):
            uniq, rows[r] = np.divmod(uniq, n)
        return rows, counts
    uniq, inverse = np.unique(codes, axis=1, return_inverse=True)
    return uniq.astype(np.int64), _count(inverse.ravel(), weights, uniq.shape[1])


def _count(index: np.ndarray, weights, length: int) -> np.ndarray:
    """How many items fall on each index: one per entry, or ``weights[i]`` for entry ``i``."""
    if weights is None:
        return np.bincount(index, minlength=length)
    # bincount sums weights in float64: exact while a total stays below 2**53 items.
    return np.rint(np.bincount(index, weights=weights, minlength=length)).astype(np.int64)


def cell_index(pred: np.ndarray, true: np.ndarray, n: int) -> np.ndarray:
    """Flat cell of each pattern in an ``(n, n)`` matrix: ``pred * n + true`` (row = prediction)."""
    return np.asarray(pred, dtype=np.intp) * n + np.asarray(true, dtype=np.intp)


def _into_cells(draws: np.ndarray, cells: np.ndarray, n_cells: int) -> np.ndarray:
    """Sum the columns of ``draws`` (rows, P) into ``n_cells`` cells: column p goes to ``cells[p]``.

    One bincount over all rows, linear in the size of ``draws``.
    """
    rows = draws.shape[0]
    index = (np.arange(rows)[:, None] * n_cells + cells[None, :]).ravel()
    summed = np.bincount(index, weights=draws.ravel(), minlength=rows * n_cells)
    return summed.reshape(rows, n_cells)


def _blocks(size: int, width: int):
    step = max(1, _BLOCK_NUMBERS // max(width, 1))
    for start in range(0, size, step):
        yield slice(start, min(start + step, size))


def multinomial_matrices(counts: np.ndarray, maps, n: int, size: int, rng) -> list[np.ndarray]:
    """Resample the items ``size`` times and count one confusion matrix per map.

    ``counts[p]`` items share pattern ``p``; each resample draws ``counts.sum()``
    items with replacement (a multinomial over the patterns). ``maps`` are
    arrays from :func:`cell_index`, one per matrix wanted: the cell of each
    pattern in that matrix. Returns one int64 array ``(size, n, n)`` per map;
    all share the same draws.
    """
    total = int(counts.sum())
    probs = counts / total
    out = [np.empty((size, n * n), dtype=np.int64) for _ in maps]
    for block in _blocks(size, counts.size):
        draws = rng.multinomial(total, probs, size=block.stop - block.start)
        for target, cells in zip(out, maps, strict=True):
            target[block] = np.rint(_into_cells(draws, cells, n * n))
    return [o.reshape(size, n, n) for o in out]


def swapped_matrices(codes_rows: np.ndarray, counts: np.ndarray, n: int, size: int, rng):
    """Both systems' matrices after swapping each item's two predictions with probability 1/2.

    ``codes_rows`` are pattern rows ``(3, P)`` (true, system A, system B). Items
    whose two predictions agree are unaffected; for a pattern ``(t, a, b)`` with
    ``a != b``, ``k ~ Binomial(count, 1/2)`` items move from cell ``(a, t)`` to
    ``(b, t)`` in A's matrix and the other way in B's.
    Returns ``(m_a, m_b)``, each int64 ``(size, n, n)``.
    """
    t, a, b = codes_rows
    base_a = np.bincount(cell_index(a, t, n), weights=counts, minlength=n * n)
    base_b = np.bincount(cell_index(b, t, n), weights=counts, minlength=n * n)
    moving = a != b
    to_cells, from_cells = cell_index(b[moving], t[moving], n), cell_index(a[moving], t[moving], n)
    m_a = np.empty((size, n * n), dtype=np.int64)
    m_b = np.empty((size, n * n), dtype=np.int64)
    for block in _blocks(size, int(moving.sum())):
        k = rng.binomial(counts[moving], 0.5, size=(block.stop - block.start, int(moving.sum())))
        delta = _into_cells(k, to_cells, n * n) - _into_cells(k, from_cells, n * n)
        m_a[block] = np.rint(base_a + delta)
        m_b[block] = np.rint(base_b - delta)
    return m_a.reshape(size, n, n), m_b.reshape(size, n, n)


def pair_patterns(y_true, pred_a, pred_b, labels=None):
    """Joint patterns (true, A, B) with their counts, the class count and the labels."""
    codes, n, labels = joint_codes(y_true, [pred_a, pred_b], labels)
    rows, counts = patterns(codes, n)
    return rows, counts, n, labels
