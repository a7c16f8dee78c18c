"""Bootstrap and permutation resamples in chunks, so that memory stays bounded.

A stack of ``size`` resampled ``n x n`` matrices needs ``size * n**2`` numbers:
for 1,000 classes and 10,000 resamples, 80 GB. Here the resamples are drawn,
scored and dropped a chunk at a time; only each metric's ``size`` values are
kept. A chunk holds as many resamples as fit in ``chunk_budget()`` bytes
(``CHUNK_BYTES``, 256 MiB, or half the machine's memory if that is less).

- The draws are the same whatever the chunk size: ``Generator.multinomial``
  and ``Generator.binomial`` draw row after row, so drawing 10 rows and then 10
  more gives the numbers of drawing 20 at once, and the results are identical
  (``tests/test_cli_scale.py`` checks it byte for byte).
- For more than 8 classes the metrics of ``clfmetrics.METRICS`` are computed
  from each resample's class sums (``_margin_metrics``): ``3 n`` numbers per
  resample instead of ``n**2``, with the same values.
- Only a problem whose single resample cannot fit in the budget is refused.

Convention: ``m[i, j]`` = items predicted ``i`` whose true class is ``j``.
"""

from __future__ import annotations

import numpy as np

from . import _resample as rs
from ._intervals import scores, undefined_mask
from ._margin_metrics import BY_MARGINS, values_and_undefined

#: Bytes of working memory for one chunk of resamples.
CHUNK_BYTES = 256 * 2**20
#: From this many classes on, the library's metrics are resampled through class sums.
MARGINS_FROM = 9


def chunk_budget() -> int:
    """Working memory of one chunk: ``CHUNK_BYTES``, or half the machine's memory if less."""
    return min(CHUNK_BYTES, rs.memory_budget())


def by_margins(funcs, n: int) -> bool:
    """Whether every function has a class-sum form and there are enough classes for it to pay."""
    return n >= MARGINS_FROM and all(f in BY_MARGINS for f in funcs)


def per_resample(n: int, width: int, margins: bool, stacks: int = 1) -> int:
    """Bytes one resample needs: its ``width`` draws (and their indices) and its matrices."""
    held = 40 * n if margins else (8 + rs._BYTES_PER_CELL) * n * n
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
        return rs._into_cells(weights, cells, n * n).reshape(-1, n, n)
    pred, true = np.divmod(cells, n)
    diagonal = pred == true
    return (
        rs._into_cells(weights, pred, n),
        rs._into_cells(weights, true, n),
        rs._into_cells(weights[:, diagonal], true[diagonal], n),
    )


def combine(first, second, sign: float = 1.0):
    """``first + sign * second`` of two states (stacks or class sums); broadcasting allowed."""
    if isinstance(first, tuple):
        return tuple(a + sign * b for a, b in zip(first, second, strict=True))
    return first + sign * second


def evaluate(funcs: dict, st) -> dict:
    """``{name: (values, undefined)}`` of each metric on one chunk's state."""
    if isinstance(st, tuple):
        b, p, c = (np.rint(x) for x in st)
        return {name: values_and_undefined(f, b, p, c) for name, f in funcs.items()}
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
    cell_a, cell_b = rs.cell_index(a, t, n), rs.cell_index(b, t, n)
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
