"""The command line's numpy-only CSV reader, streaming: memory does not grow with the rows.

The file is read in batches of ``BATCH`` rows. Each label column's values
become integer codes as they come; without score columns only how many rows
share each combination of labels is kept (the first line of each
combination, and of each distinct value, for the messages), so 10**7 rows
of two label columns need a few MB. With ``--scores``/``--proba`` (a score
belongs to its row) each row keeps its label codes, its line and its
numbers as compact arrays (the narrowest integers and float64), never as Python lists.

Every check of the in-memory reader is kept, with the same messages and line
numbers: ragged rows (counted over the whole file), a column named twice,
missing values, integer labels, a numeric column with a few other values,
labels outside ``--labels``, scores that are not numbers. The rules are those
of :mod:`clfmetrics.io._columns`.
"""

from __future__ import annotations

import ctypes
from collections.abc import Mapping
from operator import itemgetter

import numpy as np

from .._base.numbers import count
from ._columns import (
    Columns,
    _as_numbers,
    _label_columns,
    _missing,
    _shown,
    decimal_point,
    not_a_number,
    strip_note,
    stripped,
)
from ._counts import _quote, _relation, is_parquet
from ._file import (
    InputError,
    check_encoding,
    check_shape,
    choose_delimiter,
    lines_text,
    read_batches,
)

#: Rows per batch.
BATCH = 65_536


def _parquet_batches(path: str, names: list[str], size: int):
    """The columns ``names`` of a Parquet file as rows of text through DuckDB, in batches.

    The header row first (only ``names``: every other column is refused or unused
    here); NULL reads as an empty value, so it is a missing value as in a CSV file.
    Line numbers count the rows from 1.
    """
    import duckdb

    con = duckdb.connect()
    columns = [c.strip() for c in _relation(con, path).columns]
    absent = [n for n in names if n not in columns]
    if absent:
        raise InputError(f"{path} has no column {absent[0]!r}; its columns are {columns}")
    yield [names], [0]
    listed = ", ".join(f"coalesce(CAST({_quote(c)} AS VARCHAR), '')" for c in names)
    try:
        cursor = con.execute(f"SELECT {listed} FROM read_parquet(?)", [path])
        done = 0
        while rows := cursor.fetchmany(size):
            yield rows, range(done + 1, done + len(rows) + 1)
            done += len(rows)
    except duckdb.Error as err:
        raise InputError(f"cannot read {path}: {str(err).strip().splitlines()[0]}") from None


class _Sample:
    """How many rows, and the first five of their lines (and tokens, for missing values)."""

    def __init__(self):
        self.rows, self.lines, self.tokens = 0, [], {}

    def add(self, lines: np.ndarray, tokens=()):
        self.rows += lines.size
        self.lines += lines[: 5 - len(self.lines)].tolist() if len(self.lines) < 5 else []
        self.tokens.update(dict.fromkeys(tokens))

    def text(self) -> str:
        return lines_text(self.lines, total=self.rows)


class _Values:
    """One label column's distinct values as codes, with each value's rows and first lines."""

    def __init__(self):
        self.codes, self.values, self.samples = {}, [], []

    def encode(self, column: np.ndarray, lines: np.ndarray) -> np.ndarray:
        uniq, inverse, sizes = np.unique(column, return_inverse=True, return_counts=True)
        order = np.argsort(inverse.ravel(), kind="stable")
        starts = np.cumsum(sizes) - sizes
        mapped = np.empty(uniq.size, dtype=np.int64)
        for j, value in enumerate(uniq.tolist()):  # a loop over distinct values, not rows
            code = self.codes.get(value)
            if code is None:
                code = self.codes[value] = len(self.values)
                self.values.append(value)
                self.samples.append(_Sample())
            mapped[j] = code
            self.samples[code].add(lines[order[starts[j] : starts[j] + 5]])
            self.samples[code].rows += int(sizes[j]) - min(int(sizes[j]), 5)
        # The narrowest type of the codes so far (a batch's codes are joined with a cast).
        return mapped[inverse.ravel()].astype(np.min_scalar_type(len(self.values)))

    def value_lines(self) -> dict:
        return {v: (s.rows, s.lines) for v, s in zip(self.values, self.samples, strict=True)}


def read_columns(
    path: str,
    label_names: list[str],
    number_names: list[str] = (),
    *,
    na: str = "error",
    given=None,
    delimiter: str | None = None,
    encoding: str | None = None,
    batch: int = BATCH,
    strip: bool = False,
    decimal: str = ".",
) -> Columns:
    """The label and number columns of ``path``, checked, read in batches of ``batch`` rows.

    Without ``number_names`` the result is counted: ``labels`` hold the distinct
    combinations, ``counts`` their rows, ``lines`` the first line of each.
    With them, one entry per row. Labels are read as they are written unless ``strip``
    (``--strip-labels``) removes the whitespace around them (numbers always lose it);
    ``decimal`` is the number columns' decimal mark (``--decimal``). Raises :class:`InputError`.
    """
    names = list(dict.fromkeys([*label_names, *number_names]))
    per_row = bool(number_names)
    if is_parquet(path):
        batches = _parquet_batches(path, names, batch)
    else:
        encoding = check_encoding(encoding)
        delimiter = delimiter or choose_delimiter(path, names, encoding)
        batches = read_batches(path, delimiter, encoding, batch)
    first = next(batches, None)
    if first is None:
        raise InputError(f"{path} is empty: expected a header row and one row per item")
    header = [h.strip() for h in first[0][0]]
    absent = [n for n in names if n not in header]
    if absent:
        raise InputError(f"{path} has no column {absent[0]!r}; its columns are {header}")
    check_shape(path, header, [], first[1][:1], names, delimiter)
    take = {n: itemgetter(header.index(n)) for n in names}
    checked = [n for n in names if na != "keep" or n in number_names]
    ragged, width, ragged_first = _Sample(), len(header), None
    missing = {n: _Sample() for n in checked}
    values = {n: _Values() for n in label_names}
    bad_numbers: dict[tuple[str, str], tuple[int, str]] = {}
    kept, combined, dropped, body, raw = [], [], [], 0, None
    changed = set() if strip else None  # the labels that had whitespace around them

    def chunks():
        yield first[0][1:], first[1][1:]
        yield from batches

    for rows, row_lines in chunks():
        if not rows:
            continue
        body += len(rows)
        lines = np.asarray(row_lines, dtype=np.int64)
        sizes = np.fromiter(map(len, rows), dtype=np.int64, count=len(rows))
        fit = sizes == width
        if not fit.all():
            if ragged_first is None:
                ragged_first = int(sizes[np.argmax(~fit)])
            ragged.add(lines[~fit])
            rows = [r for r, ok in zip(rows, fit.tolist(), strict=True) if ok]
            lines = lines[fit]
        if ragged.rows or not rows:
            continue  # the file is refused for its ragged rows; only count them
        raw = {n: np.array(list(map(take[n], rows)), dtype=str) for n in names}
        for name in number_names:
            raw[name] = np.char.strip(raw[name])
        drop = np.zeros(lines.size, dtype=bool)
        for name in checked:
            gap = _missing(raw[name])
            if gap.any():
                missing[name].add(lines[gap], raw[name][gap].tolist())
                drop |= gap
        if na == "drop":
            dropped.append(lines[drop])
            keep = ~drop
            raw, lines = {n: c[keep] for n, c in raw.items()}, lines[keep]
            if not lines.size:
                continue
        if strip:
            for name in label_names:
                raw[name] = stripped(raw[name], changed)
        # Line numbers as int32 below 2**31 (4 bytes a row kept, not 8): joined with a cast.
        part = {"lines": lines.astype(np.int32) if lines[-1] < 2**31 else lines}
        for name in label_names:
            part[name] = values[name].encode(raw[name], lines)
        for name in number_names:
            part[name] = _numbers(name, raw[name], lines, bad_numbers, decimal)
        # The label rules need only the distinct combinations (with rows and first lines),
        # so they are counted as they stream, with or without per-row numbers.
        combined.append(_combinations(part, label_names))
        if len(combined) >= 32:
            combined = [_combinations(_joined(combined), label_names, merged=True)]
        if per_row:
            kept.append(part)
    if ragged.rows:
        shown = "tab" if delimiter == "\t" else repr(delimiter)
        raise InputError(
            f"{path}: {count(ragged.rows, 'row')} ({ragged.text()}) "
            f"{'has' if ragged.rows == 1 else 'have'} a number of fields other than the "
            f"header's {width} (the first has {ragged_first}); quote values that contain the "
            f"delimiter {shown} (or pass --delimiter), and give every row one field per column"
        )
    if not body:
        raise InputError(f"{path} has a header but no rows: there is nothing to evaluate")
    for name in checked:
        gap = missing[name]
        if gap.rows and na != "drop":
            tokens = ", ".join(_shown(t) for t in gap.tokens)
            keep_hint = "" if name in number_names else " (--na keep: count them as a label)"
            raise InputError(
                f"{path}: column {name!r} has {count(gap.rows, 'missing value')} "
                f"({tokens}) on {gap.text()}: a missing value is not a "
                f"class or a score; fix the file, or pass --na drop to skip those rows{keep_hint}"
            )
    if not combined:
        raise InputError(f"{path}: every row has a missing value; nothing is left to evaluate")
    first = rows = raw = None  # the last batch's text
    table = _combinations(_joined(combined), label_names, merged=True)
    rows = _rows(kept, label_names, number_names) if per_row else None
    out = _finish(
        path, table, rows, values, label_names, number_names, given, bad_numbers, dropped,
        decimal,
    )  # fmt: skip
    out.warnings[:0] = [strip_note(changed)] if strip else []
    return out


def _numbers(name, shown, lines, bad: dict, decimal: str = ".") -> np.ndarray:
    """A batch of a number column as float64; its first bad values are remembered (NaN here),
    as written (``shown``), not as read with the decimal mark replaced."""
    column = decimal_point(shown, decimal)
    x = _as_numbers(column)
    if x is None:
        ok = np.array([_as_numbers(np.array([v])) is not None for v in column.tolist()])
        k = int(np.argmax(~ok))
        bad.setdefault((name, "not a number"), (int(lines[k]), str(shown[k])))
        x = np.full(column.shape, np.nan)
        x[ok] = column[ok].astype(np.float64)
        ok &= np.isfinite(x)
    else:
        ok = np.isfinite(x)
    if not ok.all() and (name, "not a number") not in bad:
        k = int(np.argmax(~np.isfinite(x)))
        bad.setdefault((name, "not a finite number"), (int(lines[k]), str(shown[k])))
    return x


def _combinations(part: dict, names: list[str], merged: bool = False) -> dict:
    """The distinct combinations of a batch's label codes, their rows and first lines."""
    codes = np.stack([part[n] for n in names])
    uniq, inverse = np.unique(codes, axis=1, return_inverse=True)
    weights = part["rows"] if merged else None
    rows = np.bincount(inverse.ravel(), weights=weights, minlength=uniq.shape[1])
    # Within a merged table, a combination's first line is the smallest of its entries.
    lines = np.full(uniq.shape[1], np.iinfo(np.int64).max)
    np.minimum.at(lines, inverse.ravel(), part["lines"])
    out = {n: uniq[k] for k, n in enumerate(names)}
    out.update(rows=np.rint(rows).astype(np.int64), lines=lines)
    return out


def _joined(parts: list[dict]) -> dict:
    """The batches' arrays end to end, one key at a time: each batch's array is released as
    soon as it is copied, so the peak is the result and one column, not twice the result."""
    return {key: np.concatenate([p.pop(key) for p in parts]) for key in list(parts[0])}


def _rows(parts: list[dict], label_names, number_names) -> dict:
    """The batches' rows end to end; the number columns as one (N, m) matrix whose column
    ``j`` is ``number_names[j]``, each batch released once copied (no second matrix)."""
    names = list(dict.fromkeys(number_names))
    out = _joined([{k: p.pop(k) for k in ("lines", *label_names)} for p in parts])
    _release()
    matrix, done = np.empty((out["lines"].size, len(names))), 0
    while parts:
        part = parts.pop(0)
        size = part[names[0]].size
        for j, name in enumerate(names):
            matrix[done : done + size, j] = part.pop(name)
        done += size
        if len(parts) % 16 == 0:
            _release()
    out["numbers"] = matrix
    return out


def _release() -> None:
    """Return the freed batches' memory to the system now (glibc's ``malloc_trim``).

    A batch's arrays (under 32 MiB) live on the C heap between arrays still in use, so
    freeing them leaves holes that the heap keeps: at 10**7 rows the process would hold
    the freed batches as well as their joined copy, about twice the memory in use.
    ``malloc_trim`` hands the whole free pages back. Elsewhere it does not exist: no-op.
    """
    if _TRIM is not None:
        _TRIM(0)


def _malloc_trim():
    try:
        return ctypes.CDLL(None).malloc_trim
    except (AttributeError, OSError):
        return None


_TRIM = _malloc_trim()


def _finish(path, table, rows, values, label_names, number_names, given, bad, dropped, decimal):
    """Labels from codes (the rules of ``_csvinput``), the numbers checked, as a Columns.

    ``table`` holds the distinct combinations of label codes; the rules are applied to
    them, never to the rows (no column of text per row). ``rows`` (with score columns)
    holds each row's value codes, line and numbers; its codes become class codes.
    """
    order = np.argsort(table["lines"], kind="stable")  # file order: messages name first lines
    table = {k: v[order] for k, v in table.items()}
    texts = {n: np.array(values[n].values, dtype=str)[table[n]] for n in label_names}
    where = {n: values[n].value_lines() for n in label_names}
    labels, classes, notes = _label_columns(
        path, texts, table["lines"], given, table["rows"], where
    )
    for name in number_names:
        for what in ("not a number", "not a finite number"):  # the in-memory reader's order
            if (name, what) in bad:
                line, value = bad[name, what]
                raise not_a_number(path, line, name, value, what, decimal)
    gone = np.concatenate(dropped) if dropped else np.zeros(0, dtype=np.int64)
    if rows is None:
        return Columns(labels, classes, {}, table["lines"], gone, notes, counts=table["rows"])
    index = {c: k for k, c in enumerate(classes)}
    small = np.result_type(np.min_scalar_type(-len(classes)), np.int8)
    codes = {}
    for name in label_names:  # each value's class, then each row's: one lookup per row
        of_value = np.full(len(values[name].values), -1, dtype=small)
        of_value[table[name]] = [index[v] for v in labels[name].tolist()]
        codes[name] = of_value[rows.pop(name)]
    # the matrix's column j is the j-th distinct number name (``_rows``)
    numbers = {n: rows["numbers"][:, j] for j, n in enumerate(dict.fromkeys(number_names))}
    return Columns(
        ClassLabels(classes, codes), classes, numbers, rows["lines"], gone, notes,
        codes=codes, matrix=rows["numbers"],
    )  # fmt: skip


class ClassLabels(Mapping):
    """Each row's labels, made from its class codes only when asked for (``--counts``,
    and the tests); the scores' path uses the codes and never holds a column of labels."""

    def __init__(self, classes: list, codes: dict):
        self._classes, self._codes = np.array(classes), codes

    def __getitem__(self, name):
        return self._classes[self._codes[name]]

    def __iter__(self):
        return iter(self._codes)

    def __len__(self):
        return len(self._codes)
