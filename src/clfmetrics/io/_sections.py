"""What ``agree`` and ``prevalence`` share: label columns with empty cells, and their output.

:func:`rated_columns` reads label columns in which a missing value is an absence (a rater
who did not rate an item, an item nobody labelled), not a class: the file's rows are
counted by combination, as ``report`` counts them, and each column's values become
category codes, ``-1`` where missing. :class:`Tables` holds a result as titled sections
and its JSON, rendered in ``--format text|json|markdown|csv`` by
:func:`clfmetrics.io._output.render`.
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass, field

import numpy as np

from ..reporting import Section, markdown, plain_values, text, to_csv
from ._columns import NA_TOKENS
from ._file import InputError, check_encoding, delimiter_option
from ._stream import read_columns

#: The renderings of ``agree`` and ``prevalence`` (``--json`` is ``--format json``).
FORMATS = ("text", "json", "markdown", "csv")
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


def rated_columns(path, names, args, categories=None, single="") -> Rated:
    """``names`` of ``path``, their empty (or NA) cells missing, their values as codes.

    Labels keep the reader's rules (as written unless ``--strip-labels``; a column of integers
    is numbers); a column with a missing cell holds integers as numbers too. With
    ``categories`` every value must be one of them (compared as text), else InputError;
    ``single`` says why one class in the columns is refused.
    """
    try:
        cols = read_columns(
            path,
            names,
            na="keep",
            delimiter=delimiter_option(args.delimiter),
            encoding=check_encoding(args.encoding),
            strip=args.strip_labels,
        )
    except InputError as err:  # in these commands' terms: they have no --labels
        text = str(err)
        if "only one class" not in text:
            raise
        raise InputError(f"{text.split(';')[0]}: {single}") from None
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
    codes = {}
    for name in names:
        codes[name] = np.array([code_of.get(c, -1) for c in cols.labels[name].tolist()], dtype=int)
    notes = [w for w in cols.warnings if not _only_missing(w)]
    return Rated(codes, np.asarray(cols.counts, dtype=np.int64), cols.lines, order, notes)
