"""What ``agree`` and ``prevalence`` share: label columns with empty cells, and their output.

:func:`rated_columns` reads label columns in which a missing value is an absence (a rater
who did not rate an item, an item nobody labelled), not a class: the file's rows are
counted by combination, as ``report`` counts them, and each column's values become
category codes, ``-1`` where missing; :func:`rated_rows` does the same a row at a time,
beside number columns (``prevalence --proba``). :class:`Tables` holds a result as titled
sections and its JSON, rendered in ``--format text|json|markdown|csv|html`` by
:func:`clfmetrics.io._output.render` (the page of ``report``'s HTML, without figures: no
script, no network, every label escaped).
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass, field

import numpy as np

from ..reporting import Section, document, markdown, plain_values, text, to_csv
from ._columns import NA_TOKENS, _missing, _number_column
from ._counts import is_parquet
from ._file import (
    InputError,
    check_encoding,
    check_shape,
    choose_delimiter,
    delimiter_option,
    read_batches,
)
from ._stream import BATCH, _parquet_batches, read_columns

#: The renderings of ``agree`` and ``prevalence`` (``--json`` is ``--format json``).
FORMATS = ("text", "json", "markdown", "csv", "html")
#: An integer label as the reader keeps integers: no leading zero, no whitespace.
_INTEGER = re.compile(r"^-?(0|[1-9][0-9]*)$")
#: The values the reader's warning on a column of numbers names (``_columns._nearly_numeric``).
_EXCEPT = re.compile(r"^column .* holds numbers except [0-9,]+ values? \((.*?)\)( \(|:)")


@dataclass
class Tables:
    """A result as sections, with the same numbers at full precision for JSON.

    Parameters
    ----------
    heading : str
        The rendering's title.
    sections : list of Section
        Its tables and notes, in order.
    data : dict
        What ``--format json`` prints.
    """

    heading: str
    sections: list = field(default_factory=list)
    data: dict = field(default_factory=dict)

    def __str__(self) -> str:
        return text(self.sections, self.heading)

    def to_json(self) -> str:
        return json.dumps(plain_values(self.data), indent=2, allow_nan=False)

    def to_markdown(self) -> str:
        return markdown(self.sections, self.heading)

    def to_csv(self) -> str:
        return to_csv(self.sections)

    def to_html(self) -> str:
        return document(self.sections, self.heading, [])


def cross_section(title: str, rows_name: str, columns_name: str, labels, m) -> Section:
    """A count cross-table as a section: a row per category of ``rows_name``, and totals."""
    names = [str(c) for c in labels]
    body = [[c, *map(str, row), str(row.sum())] for c, row in zip(names, m, strict=True)]
    total = ["total", *map(str, m.sum(axis=0)), str(m.sum())]
    return Section(title, [f"{rows_name} \\ {columns_name}", *names, "total"], [*body, total])


def add_reading_options(parser) -> None:
    """--strip-labels, --delimiter, --encoding, as ``report`` has them."""
    parser.add_argument(
        "--strip-labels",
        action="store_true",
        help="remove the whitespace around every label before comparing them (default: "
        "labels are compared as written, so 'yes ' and 'yes' are two categories)",
    )
    parser.add_argument(
        "--delimiter",
        metavar="CHAR",
        help="field delimiter (default: chosen from , ; tab | by the header); 'tab' for a tab",
    )
    parser.add_argument(
        "--encoding", help="the file's text encoding (default utf-8), e.g. latin-1, cp1252"
    )


def _is_missing(label) -> bool:
    return isinstance(label, str) and label.strip().lower() in NA_TOKENS


def _only_missing(warning: str) -> bool:
    """Whether ``warning`` is the reader's "numbers except ..." about missing cells alone:
    here they are ratings not given, not classes."""
    found = _EXCEPT.search(warning)
    if not found:
        return False
    try:
        shown = ast.literal_eval(f"[{found.group(1)}]")
    except (ValueError, SyntaxError):
        return False
    return all(_is_missing(v) for v in shown)


def _order(value):
    """Sort key: numbers written as text (``0.5``, ``10.5``) by value, then the rest as text."""
    try:
        return (0, float(value), str(value))
    except (TypeError, ValueError):
        return (1, 0.0, str(value))


def _category(label):
    """The reader keeps a column with a blank cell as text: its integers become numbers."""
    return int(label) if isinstance(label, str) and _INTEGER.match(label) else label


@dataclass
class Rated:
    """Label columns read with their missing cells.

    Parameters
    ----------
    codes : dict of str to ndarray
        Per column, each combination's category code (``-1`` where missing).
    counts : ndarray
        Rows of each combination.
    lines : ndarray
        The file's first line of each combination.
    categories : list
        Every category found (or ``--categories``), in order.
    warnings : list of str
        The reader's notes on the labels (near duplicates, stripped whitespace).
    """

    codes: dict
    counts: np.ndarray
    lines: np.ndarray
    categories: list
    warnings: list


def _read(path, names, args, single, numbers=()):
    """The reader's columns, its one-class refusal in these commands' terms."""
    try:
        return read_columns(
            path,
            names,
            numbers,
            na="keep",
            delimiter=delimiter_option(args.delimiter),
            encoding=check_encoding(args.encoding),
            strip=args.strip_labels,
        )
    except InputError as err:  # in these commands' terms: they have no --labels, --na
        text = str(err)
        if "only one class" in text:
            raise InputError(f"{text.split(';')[0]}: {single}") from None
        if numbers and "a missing value is not a class or a score" in text:
            raise InputError(
                text.split("; fix the file")[0] + "; every item needs its probabilities"
            ) from None
        raise


def _categories(path, cols, categories):
    """The categories in order, and each of the reader's classes' code (``-1`` if missing)."""
    found = [c for c in cols.classes if not _is_missing(c)]
    values = [_category(c) for c in found]
    numeric = all(isinstance(v, int) for v in values)
    if not numeric:  # '1' and 'a' in one column: all of them stay as written
        values = list(found)
    if categories is not None:
        order = [_category(c) for c in categories] if numeric else list(categories)
        if len(set(map(str, order))) != len(order):
            raise InputError(f"--categories names a category twice: {list(categories)}")
        known = {str(c): k for k, c in enumerate(order)}
        outside = [v for v in values if str(v) not in known]
        if outside:
            raise InputError(
                f"{path}: the value {outside[0]!r} is not one of --categories {list(categories)}"
            )
        index = {v: known[str(v)] for v in values}
    else:
        order = sorted(set(values), key=_order)
        index = {v: order.index(v) for v in values}
    code_of = {c: index[v] for c, v in zip(found, values, strict=True)}
    return order, code_of, [w for w in cols.warnings if not _only_missing(w)]


def rated_columns(path, names, args, categories=None, single="") -> Rated:
    """``names`` of ``path``, their empty (or NA) cells missing, their values as codes.

    Labels keep the reader's rules (as written unless ``--strip-labels``; a column of integers
    is numbers); a column with a missing cell holds integers as numbers too. With
    ``categories`` every value must be one of them (compared as text), else InputError;
    ``single`` says why one class in the columns is refused.
    """
    cols = _read(path, names, args, single)
    order, code_of, notes = _categories(path, cols, categories)
    codes = {}
    for name in names:
        codes[name] = np.array([code_of.get(c, -1) for c in cols.labels[name].tolist()], dtype=int)
    return Rated(codes, np.asarray(cols.counts, dtype=np.int64), cols.lines, order, notes)


def rated_rows(path, names, numbers, args, single="") -> tuple[Rated, dict]:
    """As :func:`rated_columns`, one entry per row (``counts`` all 1), and the number
    columns ``numbers`` (float64, none missing) by name."""
    cols = _read(path, names, args, single, numbers)
    order, code_of, notes = _categories(path, cols, None)
    codes = {}
    for name in names:  # each class's code, then each row's: one lookup per row
        of_class = np.array([code_of.get(c, -1) for c in cols.classes], dtype=int)
        codes[name] = of_class[cols.codes[name]]
    values = {n: cols.numbers[n] for n in numbers}
    rows = np.ones(cols.lines.size, dtype=np.int64)
    return Rated(codes, rows, np.asarray(cols.lines), order, notes), values


def number_rows(path, names, args, why="every item needs its probabilities") -> np.ndarray:
    """The number columns ``names`` of ``path`` as an ``(N, len(names))`` matrix, a row per
    item: a file with no label column (``prevalence --deploy FILE2 --proba``). A missing or
    non-numeric cell, a ragged row or a column named twice: InputError, one line."""
    if is_parquet(path):
        delimiter, batches = ",", _parquet_batches(path, names, BATCH)
    else:
        encoding = check_encoding(args.encoding)
        delimiter = delimiter_option(args.delimiter) or choose_delimiter(path, names, encoding)
        batches = read_batches(path, delimiter, encoding, BATCH)
    first = next(batches, None)
    if first is None:
        raise InputError(f"{path} is empty: expected a header row and one row per item")
    header = [h.strip() for h in first[0][0]]
    absent = [n for n in names if n not in header]
    if absent:
        raise InputError(f"{path} has no column {absent[0]!r}; its columns are {header}")
    check_shape(path, header, [], first[1][:1], names, delimiter)

    def chunks():
        yield first[0][1:], first[1][1:]
        yield from batches

    take, parts = [header.index(n) for n in names], []
    for rows, lines in chunks():
        if not rows:
            continue
        check_shape(path, header, rows, [0, *lines], [], delimiter)
        cells = np.array([[row[k] for k in take] for row in rows], dtype=str).reshape(-1, len(take))
        lines = np.asarray(lines)
        block = np.empty(cells.shape)
        for j, name in enumerate(names):
            gap = _missing(cells[:, j])
            if gap.any():
                raise InputError(
                    f"{path}, line {lines[np.argmax(gap)]}: column {name!r} has a missing "
                    f"value: {why}"
                )
            block[:, j] = _number_column(path, name, np.char.strip(cells[:, j]), lines)
        parts.append(block)
    if not parts:
        raise InputError(f"{path} has a header but no rows: there is nothing to evaluate")
    return np.concatenate(parts)
