"""The bootstrap's machinery: resampling through item patterns, in chunks, and interval ends.

- **Patterns.** A test set of ``N`` items is summarised, for any metric of the
  confusion matrix, by how many items share each *pattern* (the true class with
  every system's prediction, :func:`patterns`). Drawing ``N`` items with
  replacement is one multinomial draw over the patterns, swapping two systems'
  predictions item by item one binomial draw per pattern, so a resample costs the
  number of patterns, not ``N``.
- **Chunks.** The resamples are drawn, scored and dropped a chunk at a time
  (``CHUNK_BYTES``, or half the machine's memory if less), keeping only each
  metric's values; the draws are the same whatever the chunk size. From
  ``MARGINS_FROM`` classes on, the metrics of ``clfmetrics.METRICS`` are scored on
  each resample's class sums (``3 n`` numbers instead of ``n ** 2``) by the same
  class-sum forms that their matrix functions call (``CLASS_SUM_FORMS``).
- **Ends.** Percentile and BCa ends (:func:`bounds`), the jackknife acceleration
  over the at most ``n ** 2`` distinct leave-one-out matrices (:func:`acceleration`),
  and where a metric is undefined (a 0/0 that ``zero_division`` filled).

Convention: ``m[..., i, j]`` = items predicted ``i`` whose true class is ``j``.
References: Efron & Tibshirani (1993, ch. 13-14); DiCiccio & Efron (1996).
"""

from __future__ import annotations

import inspect
import math
import os
from statistics import NormalDist

import numpy as np

from .._base.checks import as_confusion
from .._base.codes import joint_codes
from ..metrics import CLASS_SUM_FORMS, ClassSums

_NORMAL = NormalDist()


def scores(func, stack: np.ndarray) -> np.ndarray:
    """The metric of every matrix of a stack, checked to be one number per matrix."""
    values = np.asarray(func(stack), dtype=np.float64)
    if values.shape != stack.shape[:-2]:
        raise ValueError(
            f"metric must return one number per matrix of a stack; for shape {stack.shape} "
            f"it returned shape {values.shape}"
        )
    return values


def score(func, m: np.ndarray) -> float:
    """The metric of one matrix, as a float (same shape check as :func:`scores`)."""
    return float(scores(func, m[None])[0])


def count_matrix(m) -> np.ndarray:
    """``m`` as one checked square matrix of whole-number counts (float array)."""
    arr = as_confusion(m)
    if arr.ndim != 2:
        raise ValueError(f"m must be one count matrix (n, n); got shape {arr.shape}")
    whole_counts(arr)
    return arr


def acceleration(func, m: np.ndarray):
    r"""BCa acceleration from the jackknife over items, for ``m`` of shape ``(..., n, n)``.

    Leaving out one item of cell ``(i, j)`` gives the matrix ``m - e_ij`` whoever
    the item is, so the ``N`` jackknife values take at most ``n**2`` distinct
    values, each repeated ``m[i, j]`` times:
    :math:`a = \sum_c m_c d_c^3 / (6 (\sum_c m_c d_c^2)^{3/2})` with
    :math:`d_c = \bar\theta - \theta_{(c)}` (Efron & Tibshirani 1993, eq. 14.15).
    Returns a float for one matrix and an array of shape ``...`` for a stack.
    """
    n = m.shape[-1]
    weights = m.reshape(*m.shape[:-2], n * n)
    if (weights.sum(axis=-1) < 2).any():
        raise ValueError("bca needs at least 2 items: the jackknife leaves one out")
    # Every cell's leave-one-out matrix; empty cells get weight 0 and are clipped at 0.
    left_out = np.repeat(weights[..., None, :], n * n, axis=-2)
    diagonal = np.arange(n * n)
    left_out[..., diagonal, diagonal] = np.maximum(weights - 1, 0)
    theta = scores(func, left_out.reshape(*weights.shape, n, n))
    if not np.isfinite(theta[weights > 0]).all():
        raise ValueError(
            "bca is undefined here: the metric is not finite on a leave-one-out matrix; "
            "use method='percentile'"
        )
    theta = np.where(weights > 0, theta, 0.0)
    d = (weights * theta).sum(axis=-1, keepdims=True) / weights.sum(axis=-1, keepdims=True) - theta
    spread = (weights * d**2).sum(axis=-1)
    skew = (weights * d**3).sum(axis=-1)
    out = np.zeros_like(spread)
    np.divide(skew, 6 * spread**1.5, out=out, where=spread > 0)
    return float(out) if out.ndim == 0 else out


_cdf = np.vectorize(_NORMAL.cdf, otypes=[float])
_inv_cdf = np.vectorize(_NORMAL.inv_cdf, otypes=[float])


def _column_quantiles(ordered: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Quantile ``q[...]`` of each column ``ordered[:, ...]`` (sorted along axis 0).

    Linear interpolation between order statistics, numpy's default ``"linear"``
    method, but with a different level per column.
    """
    pos = q * (ordered.shape[0] - 1)
    lo = np.floor(pos).astype(np.intp)
    hi = np.minimum(lo + 1, ordered.shape[0] - 1)
    below = np.take_along_axis(ordered, lo[None], axis=0)[0]
    above = np.take_along_axis(ordered, hi[None], axis=0)[0]
    return below + (pos - lo) * (above - below)


def bounds(stats, estimate, level, method, acceleration=0.0):
    """Interval ends from bootstrap values ``stats`` of shape ``(size, ...)``.

    ``estimate`` and ``acceleration`` have the shape ``...`` (or broadcast to it);
    the ends are floats for one interval and arrays of shape ``...`` for many.
    A metric undefined (NaN) on any resample gives NaN ends.
    """
    stats = np.asarray(stats, dtype=np.float64)
    shape = stats.shape[1:]
    alpha = (1 - level) / 2
    if method == "percentile":
        q_low, q_high = np.full(shape, alpha), np.full(shape, 1 - alpha)
    else:
        # BCa: bias correction z0 from the share of resamples below the estimate
        # (Efron & Tibshirani 1993, eq. 14.14). Scores of counts are discrete, so
        # resamples equal to the estimate count half, as in scipy.stats.bootstrap;
        # the share is kept off 0 and 1 so that z0 is finite.
        size = stats.shape[0]
        below = ((stats < estimate).sum(axis=0) + 0.5 * (stats == estimate).sum(axis=0)) / size
        z0 = _inv_cdf(np.clip(below, 0.5 / size, 1 - 0.5 / size))
        z_low, z_high = _NORMAL.inv_cdf(alpha), _NORMAL.inv_cdf(1 - alpha)
        q_low = _cdf(z0 + (z0 + z_low) / (1 - acceleration * (z0 + z_low)))
        q_high = _cdf(z0 + (z0 + z_high) / (1 - acceleration * (z0 + z_high)))
    ordered = np.sort(stats, axis=0)
    undefined = np.isnan(stats).any(axis=0)
    low = np.where(undefined, np.nan, _column_quantiles(ordered, np.asarray(q_low)))
    high = np.where(undefined, np.nan, _column_quantiles(ordered, np.asarray(q_high)))
    if low.ndim == 0:
        return float(low), float(high)
    return low, high


def undefined_mask(func, stack: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Where the metric is undefined on a stack: NaN, or a 0/0 that ``zero_division`` filled.

    The library's metrics fill a 0/0 with ``zero_division`` (0 by default), so a
    resample without a prediction of some class scores a made-up 0. A metric that
    takes ``zero_division`` is asked again with ``"nan"``; any other callable is
    undefined where it returns NaN.
    """
    undefined = np.isnan(values)
    if _takes_fill(func):
        with np.errstate(invalid="ignore", divide="ignore"):
            marked = np.asarray(func(stack, zero_division="nan"), dtype=np.float64)
        undefined = undefined | np.isnan(marked)
    return undefined


def _takes_fill(func) -> bool:
    """Whether a metric fills its 0/0 with a ``zero_division`` it takes."""
    try:
        return "zero_division" in inspect.signature(func).parameters
    except (TypeError, ValueError):  # a callable without a signature
        return False


def undefined_on(func, m) -> bool:
    """Whether the metric is undefined (a 0/0) on the observed matrix ``m`` itself."""
    stack = np.asarray(m, dtype=np.float64)[None]
    return bool(undefined_mask(func, stack, scores(func, stack))[0])


def defined_bounds(stats, undefined, estimate, level, method, acceleration=0.0, *, observed=True):
    """Interval ends among the resamples where the metric is defined, and the undefined share.

    ``stats`` and ``undefined`` have shape ``(size,)``. Returns ``(low, high, share)``;
    both ends are NaN when the metric is undefined on every resample. ``observed=False``
    says the metric is undefined on the observed matrix itself (a class never predicted):
    its estimate then counts the 0/0 as 0, and so does every resample, since leaving them
    out would leave an interval of the few resamples unlike the test set (or none at all).
    """
    share = float(np.mean(undefined))
    if not observed:
        undefined = np.zeros_like(undefined, dtype=bool)
    kept = np.asarray(stats, dtype=np.float64)[~undefined]
    if kept.size == 0:
        return math.nan, math.nan, share
    low, high = bounds(kept, estimate, level, method, acceleration)
    return low, high, share


def defined_bounds_of_sets(
    stats, undefined, estimates, level, method, acceleration=0.0, *, observed=True
):
    """:func:`defined_bounds` of many test sets at once, the ends ``interval`` gives each one.

    ``stats`` and ``undefined`` have shape ``(size, sets)``: column ``k`` holds the
    resamples of test set ``k``; ``estimates``, ``acceleration`` and ``observed`` are one
    per test set (or broadcast). Returns ``(low, high)`` of shape ``(sets,)``. Test sets
    without an undefined resample share one vectorised call; the others are computed
    one at a time, among their defined resamples, exactly as :func:`defined_bounds` does.
    """
    stats = np.asarray(stats, dtype=np.float64)
    sets = stats.shape[1]
    keep_all = ~np.broadcast_to(np.asarray(observed, dtype=bool), (sets,))
    undefined = np.asarray(undefined, dtype=bool) & ~keep_all[None, :]
    estimates = np.broadcast_to(np.asarray(estimates, dtype=np.float64), (sets,))
    acc = np.broadcast_to(np.asarray(acceleration, dtype=np.float64), (sets,))
    low, high = np.empty(sets), np.empty(sets)
    whole = ~undefined.any(axis=0)
    if whole.any():
        low[whole], high[whole] = bounds(
            stats[:, whole], estimates[whole], level, method, acc[whole]
        )
    for k in np.flatnonzero(~whole):
        low[k], high[k], _ = defined_bounds(
            stats[:, k], undefined[:, k], estimates[k], level, method, acc[k]
        )
    return low, high


#: The seed of report(), compare(), their from-counts forms and the command line when
#: none is given: the same call prints the same intervals every time.
DEFAULT_SEED = 0
#: Bytes per resampled matrix cell, counting the metrics' temporary arrays (they hold about
#: three int64/float64 copies of the stack at once); ``_chunked`` sizes its chunks with it.
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


#: Bytes of working memory for one chunk of resamples.
CHUNK_BYTES = 256 * 2**20
#: From this many classes on, the library's metrics are resampled through class sums.
MARGINS_FROM = 9


def chunk_budget() -> int:
    """Working memory of one chunk: ``CHUNK_BYTES``, or half the machine's memory if less."""
    return min(CHUNK_BYTES, memory_budget())


def by_margins(funcs, n: int) -> bool:
    """Whether every function has a class-sum form and there are enough classes for it to pay."""
    return n >= MARGINS_FROM and all(f in CLASS_SUM_FORMS for f in funcs)


def per_resample(n: int, width: int, margins: bool, stacks: int = 1) -> int:
    """Bytes one resample needs: its ``width`` draws (and their indices) and its matrices."""
    held = 40 * n if margins else (8 + _BYTES_PER_CELL) * n * n
    return 32 * width + stacks * held


def chunk_rows(n: int, width: int, size: int, margins: bool, stacks: int = 1) -> int:
    """Resamples per chunk; a ValueError in one sentence when not even one fits."""
    need = per_resample(n, width, margins, stacks)
    budget = chunk_budget()
    if need > budget:
        raise ValueError(
            f"{n} classes ({width} distinct combinations of labels) need about "
            f"{need / 2**30:.2f} GiB for a single resample, more than the "
            f"{budget / 2**30:.2f} GiB allowed: merge rare classes or evaluate a subset "
            "of the classes"
        )
    return max(1, min(size, budget // need))


def _slices(size: int, rows: int):
    for start in range(0, size, rows):
        yield slice(start, min(start + rows, size))


def state(weights: np.ndarray, cells: np.ndarray, n: int, margins: bool):
    """The matrices that ``weights`` (rows, P) put on ``cells`` (P,): a stack or class sums.

    Dense: float64 ``(rows, n, n)``. Class sums: ``(b, p, c)``, each ``(rows, n)``:
    bias (predicted), prevalence (true) and correct, as float64.
    """
    if not margins:
        return _into_cells(weights, cells, n * n).reshape(-1, n, n)
    pred, true = np.divmod(cells, n)
    diagonal = pred == true
    return (
        _into_cells(weights, pred, n),
        _into_cells(weights, true, n),
        _into_cells(weights[:, diagonal], true[diagonal], n),
    )


def combine(first, second, sign: float = 1.0):
    """``first + sign * second`` of two states (stacks or class sums); broadcasting allowed."""
    if isinstance(first, tuple):
        return tuple(a + sign * b for a, b in zip(first, second, strict=True))
    return first + sign * second


def values_and_undefined(func, margins) -> tuple[np.ndarray, np.ndarray]:
    """A metric of METRICS on class sums ``(b, p, c)``: values and where it is undefined.

    The values are those of ``zero_division=0``, as on a stack; undefined means NaN, or a
    0/0 that the metric fills (asked again with NaN), as :func:`undefined_mask` decides.
    """
    form, sums = CLASS_SUM_FORMS[func], ClassSums.of_margins(*margins)
    with np.errstate(invalid="ignore", divide="ignore"):
        values = np.asarray(form(sums, 0.0), dtype=np.float64)
        undefined = np.isnan(values)
        if _takes_fill(func):
            undefined |= np.isnan(form(sums, np.nan))
    return values, undefined


def evaluate(funcs: dict, st) -> dict:
    """``{name: (values, undefined)}`` of each metric on one chunk's state."""
    if isinstance(st, tuple):
        margins = tuple(np.rint(x) for x in st)
        return {name: values_and_undefined(f, margins) for name, f in funcs.items()}
    stack = np.rint(st).astype(np.int64)
    out = {}
    for name, f in funcs.items():
        values = scores(f, stack)
        out[name] = (values, undefined_mask(f, stack, values))
    return out


def _collect(funcs, size, parts):
    """Fill ``(size,)`` value and undefined arrays from ``(slice, [per-stack results])``."""
    out = None
    for block, results in parts:
        if out is None:
            out = [
                {name: (np.empty(size), np.zeros(size, dtype=bool)) for name in funcs}
                for _ in results
            ]
        for held, got in zip(out, results, strict=True):
            for name, (values, undefined) in got.items():
                held[name][0][block] = values
                held[name][1][block] = undefined
    return out


def multinomial_values(funcs: dict, counts, cell_maps, n: int, size: int, rng) -> list[dict]:
    """Bootstrap values of each metric, one dict per map, from ``size`` multinomial draws.

    ``counts[k]`` items share pattern ``k``; ``cell_maps`` give each pattern's flat
    cell ``pred * n + true`` in each system's matrix. Returns, per map,
    ``{name: (values, undefined)}`` of shape ``(size,)``: the values of drawing the
    whole ``(size, n, n)`` stacks with :func:`_resample.multinomial_matrices`.
    """
    counts = np.asarray(counts)
    margins = by_margins(funcs.values(), n)
    rows = chunk_rows(n, counts.size, size, margins, len(cell_maps))
    total = int(counts.sum())
    probs = counts / total

    def parts():
        for block in _slices(size, rows):
            draws = rng.multinomial(total, probs, size=block.stop - block.start)
            yield block, [evaluate(funcs, state(draws, cells, n, margins)) for cells in cell_maps]

    return _collect(funcs, size, parts())


def swapped_values(funcs: dict, patterns, counts, n: int, size: int, rng) -> list[dict]:
    """Both systems' metric values after random swaps, as :func:`_resample.swapped_matrices`.

    ``patterns`` are rows ``(3, P)`` (true, system A, system B). Returns
    ``[values of A, values of B]``, each ``{name: (values, undefined)}``.
    """
    t, a, b = patterns
    counts = np.asarray(counts)
    margins = by_margins(funcs.values(), n)
    moving = a != b
    width = int(moving.sum())
    rows = chunk_rows(n, max(width, 1), size, margins, 2)
    cell_a, cell_b = cell_index(a, t, n), cell_index(b, t, n)
    one = counts[None, :].astype(np.float64)
    base_a, base_b = state(one, cell_a, n, margins), state(one, cell_b, n, margins)
    to_cells, from_cells = cell_b[moving], cell_a[moving]

    def parts():
        for block in _slices(size, rows):
            k = rng.binomial(counts[moving], 0.5, size=(block.stop - block.start, width))
            delta = combine(state(k, to_cells, n, margins), state(k, from_cells, n, margins), -1)
            yield (
                block,
                [
                    evaluate(funcs, combine(base_a, delta)),
                    evaluate(funcs, combine(base_b, delta, -1)),
                ],
            )

    return _collect(funcs, size, parts())
