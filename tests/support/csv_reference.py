"""The command line's former in-memory CSV reader, kept as the reference of the streaming one.

``clfmetrics.io._stream.read_columns`` must give what this gives (the same
columns, classes, warnings and messages) at a memory cost that does not grow
with the rows; ``tests/io/test_stream.py`` compares them on messy files.
"""

from __future__ import annotations

import numpy as np

from clfmetrics._base.numbers import count
from clfmetrics.io._columns import (
    Columns,
    _label_columns,
    _missing,
    _number_column,
    _shown,
    strip_note,
    stripped,
)
from clfmetrics.io._file import (
    InputError,
    check_encoding,
    check_shape,
    choose_delimiter,
    lines_text,
    read_batches,
)


def read_columns(
    path: str,
    label_names: list[str],
    number_names: list[str] = (),
    *,
    na: str = "error",
    given=None,
    delimiter: str | None = None,
    encoding: str | None = None,
    strip: bool = False,
    decimal: str = ".",
) -> Columns:
    """The label columns and number columns of ``path``, checked, with the line of each row.

    ``given`` is the ``--labels`` list (strings) or None; ``delimiter`` (default:
    chosen by ``_csvfile.choose_delimiter``) and ``encoding`` (default UTF-8) as
    the options say. Raises :class:`InputError`.
    """
    names = list(dict.fromkeys([*label_names, *number_names]))
    encoding = check_encoding(encoding)
    delimiter = delimiter or choose_delimiter(path, names, encoding)
    rows, all_lines = next(read_batches(path, delimiter, encoding, size=-1), ([], []))  # all
    if not rows:
        raise InputError(f"{path} is empty: expected a header row and one row per item")
    header, body, lines = [h.strip() for h in rows[0]], rows[1:], np.array(all_lines[1:])
    missing_columns = [n for n in names if n not in header]
    if missing_columns:
        raise InputError(f"{path} has no column {missing_columns[0]!r}; its columns are {header}")
    if not body:
        raise InputError(f"{path} has a header but no rows: there is nothing to evaluate")
    check_shape(path, header, body, all_lines, names, delimiter)
    raw = {}
    for name in names:
        k = header.index(name)
        raw[name] = np.array([row[k] if k < len(row) else "" for row in body], dtype=str)
        if name in number_names:
            raw[name] = np.char.strip(raw[name])
    checked = [n for n in names if na != "keep" or n in number_names]
    missing = {n: _missing(raw[n]) for n in checked}
    drop = np.zeros(len(body), dtype=bool)
    for name in checked:
        if not missing[name].any():
            continue
        if na == "drop":
            drop |= missing[name]
            continue
        tokens = ", ".join(_shown(t) for t in dict.fromkeys(raw[name][missing[name]].tolist()))
        keep = "" if name in number_names else " (--na keep: count them as a label)"
        raise InputError(
            f"{path}: column {name!r} has {count(int(missing[name].sum()), 'missing value')} "
            f"({tokens}) on {lines_text(lines[missing[name]])}: a missing value is not a "
            f"class or a score; fix the file, or pass --na drop to skip those rows{keep}"
        )
    if drop.all():
        raise InputError(f"{path}: every row has a missing value; nothing is left to evaluate")
    keep_rows = ~drop
    changed = set()
    kept = {n: raw[n][keep_rows] for n in label_names}
    if strip:
        kept = {n: stripped(v, changed) for n, v in kept.items()}
    labels, classes, notes = _label_columns(path, kept, lines[keep_rows], given)
    notes[:0] = [strip_note(changed)] if strip else []
    numbers = {
        n: _number_column(path, n, raw[n][keep_rows], lines[keep_rows], decimal)
        for n in number_names
    }
    return Columns(labels, classes, numbers, lines[keep_rows], lines[drop], notes)
