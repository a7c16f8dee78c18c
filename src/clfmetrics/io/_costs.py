"""``--costs FILE``: an ``n x n`` cost matrix in a small CSV file, matched to the classes.

The matrix is in the book's orientation: ``costs[i, j]`` is the cost of predicting
class ``i`` when the truth is ``j`` (rows = predicted, columns = true). The file has
``n`` rows of ``n`` numbers, in the classes' matrix order, or a header naming the
class of each column (then the columns are matched by name, in any order, and the
rows follow the header's order); a first column of row labels, under an empty or any
corner cell, names the class of each row (matched by name too). Blank lines and
whitespace around cells are ignored; the delimiter is ``,``, ``;``, tab or ``|``.
"""

from __future__ import annotations

import csv
import math

import numpy as np

from ._file import InputError

#: A cost file larger than this is not a cost matrix.
MOST_BYTES = 2**20


def _number(cell: str):
    try:
        value = float(cell)
    except ValueError:
        return None
    return value


def read_costs(path: str) -> tuple[list[str] | None, list[str] | None, np.ndarray]:
    """``(column labels or None, row labels or None, matrix)`` as the file writes them."""
    try:
        with open(path, "rb") as f:
            raw = f.read(MOST_BYTES + 1)
    except OSError as err:
        raise InputError(f"--costs {path}: cannot read the file ({err.strerror})") from None
    if len(raw) > MOST_BYTES:
        raise InputError(f"--costs {path}: over 1 MiB, not an n x n cost matrix")
    try:
        content = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InputError(f"--costs {path}: not UTF-8 text") from None
    lines = [line for line in content.splitlines() if line.strip()]
    if not lines:
        raise InputError(f"--costs {path}: the file is empty; give an n x n matrix of costs")
    delimiter = max(",;\t|", key=lambda d: lines[0].count(d))
    rows = [[c.strip() for c in r] for r in csv.reader(lines, delimiter=delimiter)]
    header = row_labels = None
    # A header (or a column of row labels) is a row (column) with a label, or the one row
    # (column) too many of a square matrix, as integer labels (0, 1) write it.
    width = len(rows[-1])
    if any(_number(c) is None for c in rows[0]) or len(rows) == width + 1:
        header, rows = rows[0], rows[1:]
        if all(_number(c) is not None for c in header):
            header = _Numbered(header, f"{len(rows) + 1} rows of {width} costs")
    if rows and (
        any(_number(r[0]) is None for r in rows)
        or (header is not None and all(len(r) == len(rows) + 1 for r in rows))
    ):
        row_labels, rows = [r[0] for r in rows], [r[1:] for r in rows]
        if header is not None and len(header) == len(rows[0]) + 1:
            header = header[1:]  # the corner cell above the row labels
    n = len(rows)
    for k, r in enumerate(rows):
        if len(r) != n:
            raise InputError(
                f"--costs {path}: the matrix must be square (n rows of n costs); row {k + 1} "
                f"has {len(r)} costs and there are {n} rows"
            )
        for j, c in enumerate(r):
            value = _number(c)
            if value is None or not math.isfinite(value):
                raise InputError(
                    f"--costs {path}: row {k + 1}, column {j + 1} is {c!r}, not a finite number"
                )
            if value < 0:
                raise InputError(
                    f"--costs {path}: row {k + 1}, column {j + 1} is {c}, a negative cost; "
                    "costs must be >= 0"
                )
    if n == 0:
        raise InputError(f"--costs {path}: no rows of costs under the header")
    if header is not None and len(header) != n:
        raise InputError(
            f"--costs {path}: the header names {len(header)} classes but the matrix is {n} x {n}"
        )
    return header, row_labels, np.array([[float(c) for c in r] for r in rows])


def costs_for(path: str, read, classes: list) -> np.ndarray:
    """The matrix of :func:`read_costs` in the order of ``classes`` (a label each)."""
    header, row_labels, matrix = read
    n, texts = len(classes), [str(c) for c in classes]
    if matrix.shape[0] != n:
        raise InputError(
            f"--costs {path} is a {matrix.shape[0]} x {matrix.shape[0]} matrix but the task has "
            f"{n} classes ({', '.join(texts)}); give a row and a column per class (rows = "
            "predicted, columns = true)"
        )
    cols = rows = list(range(n))
    if header is not None:
        cols = _order(path, header, texts, "header")
        rows = cols
    if row_labels is not None:
        rows = _order(path, row_labels, texts, "row labels")
    return matrix[np.ix_(rows, cols)] if (header or row_labels) else matrix


class _Numbered(list):
    """A header of numbers, taken as one by the matrix's shape alone (``shape`` says it)."""

    def __init__(self, cells, shape: str):
        super().__init__(cells)
        self.shape = shape


def _order(path: str, named: list[str], texts: list[str], what: str) -> list[int]:
    """Where each class is among ``named`` (refused where they are not the classes)."""
    if isinstance(named, _Numbered) and sorted(named) != sorted(texts):
        raise InputError(
            f"--costs {path}: the matrix must be square (n rows of n costs); it has "
            f"{named.shape}, and its first row does not name the classes "
            f"({', '.join(texts)}) as a header would"
        )
    if sorted(named) != sorted(texts) or len(set(named)) != len(named):
        raise InputError(
            f"--costs {path}: its {what} name {', '.join(named)}, but the classes are "
            f"{', '.join(texts)}"
        )
    return [named.index(t) for t in texts]
