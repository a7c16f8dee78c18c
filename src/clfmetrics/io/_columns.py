"""Reading the command line's CSV file: columns of labels and of scores, checked.

Every problem is reported with the file's own line numbers (blank lines and
quoted line breaks counted, as an editor counts them). Missing values are
never a class by accident: the tokens pandas' ``read_csv`` reads as missing
(``NA_TOKENS``, compared without case) are refused, dropped or, for label
columns only, kept as labels, as ``na`` says.

Labels are compared as text, exactly as :func:`clfmetrics.report` compares
strings: ``"yes"`` and ``"yes "`` are two classes (and the report warns that they
differ only in whitespace), unless ``strip=True`` (``--strip-labels``) removes
the whitespace around every label first, which the report then says. Numbers
are matched as numbers only when every label of the label columns is an integer
written without leading zeros or surrounding whitespace: then
``1``, ``2``, ``10`` sort as numbers and ``1`` in one column matches ``1.0`` in
another. A label such as ``007`` or ``01`` makes the columns text (codes,
not quantities), so ``007`` and ``7`` stay two classes, and the report warns
that they differ only in leading zeros (as it warns about ``Spam``/``spam``).
A column of numbers with a few values that are not numbers is read as text
too, and a warning names those values and their lines.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

from .._base.numbers import count
from ._file import InputError, lines_text

#: Read as missing, case-insensitively: pandas' default ``na_values`` (and "none").
NA_TOKENS = (
    "",
    "na",
    "n/a",
    "nan",
    "-nan",
    "null",
    "none",
    "<na>",
    "#n/a",
    "#na",
    "#n/a n/a",
    "1.#ind",
    "-1.#ind",
    "1.#qnan",
    "-1.#qnan",
)
NA_CHOICES = ("error", "drop", "keep")
#: Integers above this are not all exact in a float64: such labels stay strings.
_EXACT = 2.0**53
#: A number written with a leading zero (007, -01): an identifier, compared as text.
_LEADING_ZERO = re.compile(r"^[+-]?0[0-9]")
#: A number written with a decimal comma (0,0255; -1,5e-3), as --decimal , reads it.
_DECIMAL_COMMA = re.compile(r"^[+-]?[0-9]*,[0-9]+(?:[eE][+-]?[0-9]+)?$")
#: The decimal marks that ``--decimal`` accepts.
DECIMALS = (".", ",")
#: A column is "numbers with a few exceptions" when at most this share of its rows is not.
_FEW = 0.1


@dataclass
class Columns:
    """The checked columns of the kept rows, with the file's line number of each row."""

    labels: dict[str, np.ndarray]
    classes: list
    numbers: dict[str, np.ndarray]
    lines: np.ndarray
    dropped: np.ndarray
    #: Warnings about the file's labels, for the report.
    warnings: list[str] = field(default_factory=list)
    #: Rows of each entry when the entries are distinct combinations (the streaming
    #: reader without score columns; ``lines`` then hold each one's first line), else None.
    counts: np.ndarray | None = None
    #: With one entry per row (the streaming reader): each label column's class codes,
    #: indices into ``classes`` (``labels`` are made from them when read), else None.
    codes: dict[str, np.ndarray] | None = None
    #: The number columns (distinct names, in order) as one (N, m) matrix; ``numbers``
    #: holds views of its columns (the streaming reader), else None.
    matrix: np.ndarray | None = None


def _missing(column: np.ndarray) -> np.ndarray:
    """Where a value is a missing-value token; a cell of blanks (or `` NA``) is missing too,
    whether or not labels are stripped, so that no blank cell becomes a class by accident."""
    return np.isin(np.char.lower(np.char.strip(column)), NA_TOKENS)


def stripped(column: np.ndarray, changed: set) -> np.ndarray:
    """``column`` without whitespace around its values; ``changed`` gains those that had some."""
    out = np.char.strip(column)
    moved = out != column
    if moved.any():
        changed.update(np.unique(column[moved]).tolist())
    return out


def strip_note(changed: set, most: int = 5) -> str:
    """What ``--strip-labels`` did, for the report: the labels that lost whitespace."""
    if not changed:
        return "--strip-labels: no label had whitespace around it; nothing was stripped"
    values = sorted(changed)
    shown = ", ".join(f"{v!r} as {v.strip()!r}" for v in values[:most])
    more = f" and {count(len(values) - most, 'more label')}" if len(values) > most else ""
    return (
        f"--strip-labels: the whitespace around labels was removed, so labels that differ "
        f"only in it are one class: {shown}{more}"
    )


def _shown(token: str) -> str:
    return "empty" if token == "" else repr(token)


def _as_numbers(values: np.ndarray) -> np.ndarray | None:
    """``values`` as floats when every one parses as a number, else None."""
    try:
        return values.astype(np.float64)
    except ValueError:
        return None


def decimal_point(column: np.ndarray, decimal: str = ".") -> np.ndarray:
    """Number text as Python reads it: with ``decimal=","`` (``--decimal ,``) 0,5 is 0.5."""
    return column if decimal == "." else np.char.replace(column, decimal, ".")


def not_a_number(path, line, name, value: str, what="not a number", decimal=".") -> InputError:
    """The error for a number column's bad value; a decimal comma gets the option that reads it."""
    hint = ""
    if what == "not a number" and decimal == "." and _DECIMAL_COMMA.match(value.strip()):
        hint = "; it looks like a decimal comma: pass --decimal , to read 0,5 as 0.5"
    return InputError(f"{path}, line {line}: column {name!r} holds {value!r}, {what}{hint}")


def _number_column(
    path: str, name: str, values: np.ndarray, lines: np.ndarray, decimal: str = "."
) -> np.ndarray:
    shown, values = values, decimal_point(values, decimal)
    x = _as_numbers(values)
    if x is None:
        bad = next(k for k, v in enumerate(values.tolist()) if _as_numbers(np.array([v])) is None)
        raise not_a_number(path, lines[bad], name, str(shown[bad]), decimal=decimal)
    if not np.isfinite(x).all():
        bad = int(np.argmax(~np.isfinite(x)))
        raise InputError(
            f"{path}, line {lines[bad]}: column {name!r} holds {str(values[bad])!r}, not a "
            "finite number"
        )
    return x


def _integer_labels(path, columns: dict, lines, given) -> tuple[dict, list] | None:
    """Every value a number: integer labels (or an error for a score); None if any is not."""
    if any(_missing(c).any() for c in columns.values()):
        return None  # --na keep: the tokens are labels, so the columns hold strings
    values = {n: _as_numbers(c) for n, c in columns.items()}
    wanted = None if given is None else _as_numbers(np.array(given, dtype=str))
    if any(v is None for v in values.values()) or (given is not None and wanted is None):
        return None
    texts = [*(np.unique(c).tolist() for c in columns.values()), list(given or [])]
    if any(_LEADING_ZERO.match(t) or t != t.strip() for ts in texts for t in ts):
        # identifiers such as 007, and " 1" beside "1": compared as text (see the docstring)
        return None
    for name, x in values.items():
        bad = ~np.isfinite(x) | (x != np.trunc(x))
        if bad.any():
            k = int(np.argmax(bad))
            raise InputError(
                f"{path}, line {lines[k]}: column {name!r} holds {str(columns[name][k])!r}, "
                "which is not a class label (a score or probability?); threshold it, and give "
                "it with --scores (or --proba) next to the predictions"
            )
    every = [*values.values(), *([] if wanted is None else [wanted])]
    if any(np.abs(x).max() >= _EXACT for x in every if x.size) or (
        wanted is not None and (~np.isfinite(wanted) | (wanted != np.trunc(wanted))).any()
    ):
        return None
    ints = {n: x.astype(np.int64) for n, x in values.items()}
    classes = None if wanted is None else wanted.astype(np.int64).tolist()
    return ints, classes


def _order(label):
    """Sort key: numbers by value, before other labels (kept NA tokens mixed with numbers)."""
    if isinstance(label, str):
        number = _as_numbers(np.array([label]))
        if number is not None and np.isfinite(number[0]):
            return (0, float(number[0]), label)
        return (1, 0.0, label)
    return (0, float(label), "")


def _nearly_numeric(
    path, columns: dict, lines: np.ndarray, weights=None, value_lines=None
) -> list[str]:
    """Warnings for label columns of numbers with a few values that are not numbers.

    ``weights``: rows per entry (aggregated input, whose ``lines`` are -1).
    ``value_lines``: ``{column: {value: (rows, first lines)}}`` (the streaming reader).
    """
    out = []
    w = np.ones(len(lines)) if weights is None else np.asarray(weights, dtype=np.float64)
    for name, col in columns.items():
        uniq, inverse = np.unique(col, return_inverse=True)
        numeric = np.array([_as_numbers(np.array([u])) is not None for u in uniq.tolist()])
        odd = ~numeric[inverse.ravel()]
        if numeric.all() or not numeric.any() or w[odd].sum() > _FEW * w.sum():
            continue
        where = "" if (lines < 0).all() else f" ({lines_text(lines[odd])})"
        if value_lines is not None:
            seen = [value_lines[name][v] for v in uniq[~numeric].tolist()]
            first = sorted(x for _, some in seen for x in some)[:5]
            where = f" ({lines_text(first, total=sum(rows for rows, _ in seen))})"
        shown = ", ".join(repr(u) for u in uniq[~numeric].tolist()[:5])
        out.append(
            f"column {name!r} holds numbers except {count(int(w[odd].sum()), 'value')} "
            f"({shown}){where}: the labels are read as text, so each such value is a class "
            "of its own; fix or remove those rows if they are not classes"
        )
    return out


def _label_columns(
    path, columns: dict, lines: np.ndarray, given, weights=None, value_lines=None
) -> tuple[dict, list, list]:
    """The label columns (integers or text, see above), the classes, and warnings."""
    numeric = _integer_labels(path, columns, lines, given)
    notes = (
        [] if numeric is not None else _nearly_numeric(path, columns, lines, weights, value_lines)
    )
    if numeric is not None:
        columns, classes = numeric
    else:
        classes = None if given is None else list(given)
    if classes is None:
        # Each column's distinct values, then their union: one column sorted at a time, not
        # all of them joined and sorted (at 10**7 rows the join was the reader's peak).
        distinct = np.unique(np.concatenate([np.unique(c) for c in columns.values()]))
        classes = sorted(distinct.tolist(), key=_order)
        if len(classes) < 2:
            names = " and ".join(map(repr, columns))
            raise InputError(
                f"{path}: only one class ({classes[0]!r}) in column(s) {names}; "
                f"pass --labels with every class of the task (e.g. --labels {classes[0]} OTHER)"
            )
        return columns, classes, notes
    if len(set(classes)) != len(classes):
        raise InputError(f"--labels repeats a class: {given}")
    if len(classes) < 2:
        raise InputError(f"--labels must name at least 2 classes; got {given}")
    known = np.array(classes)
    for name, col in columns.items():
        outside = ~np.isin(col, known)
        if outside.any():
            k = int(np.argmax(outside))
            raise InputError(
                f"{path}, line {lines[k]}: column {name!r} holds {col[k].item()!r}, which is not "
                f"in --labels {' '.join(map(str, classes))}"
            )
    return columns, classes, notes
