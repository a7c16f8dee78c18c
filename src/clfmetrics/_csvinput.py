"""Reading the command line's CSV file: columns of labels and of scores, checked.

Every problem is reported with the file's own line numbers (blank lines and
quoted line breaks counted, as an editor counts them). Missing values are
never a class by accident: the tokens pandas' ``read_csv`` reads as missing
(``NA_TOKENS``, compared without case) are refused, dropped or, for label
columns only, kept as labels, as ``na`` says. Label columns whose every value
is a number become integer labels, so that ``1``, ``2``, ``10`` sort as numbers
and ``1`` in one column matches ``1.0`` in another.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass

import numpy as np

from ._render import count

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


class InputError(Exception):
    """A problem with the user's file or arguments, reported in one line."""


@dataclass
class Columns:
    """The checked columns of the kept rows, with the file's line number of each row."""

    labels: dict[str, np.ndarray]
    classes: list
    numbers: dict[str, np.ndarray]
    lines: np.ndarray
    dropped: np.ndarray


def lines_text(lines, most: int = 5) -> str:
    """'line 4' or 'lines 3, 7, 9 and 12 more'."""
    lines = [int(x) for x in lines]
    shown = ", ".join(map(str, lines[:most]))
    more = f" and {len(lines) - most} more" if len(lines) > most else ""
    return f"line{'s' if len(lines) > 1 else ''} {shown}{more}"


def _rows(path: str) -> tuple[list[list[str]], list[int]]:
    """Non-blank rows of the file and the line on which each one starts."""
    rows, lines = [], []
    try:
        with open(path, newline="", encoding="utf-8-sig") as handle:
            reader = csv.reader(handle)
            start = 1
            for row in reader:
                if any(cell.strip() for cell in row):
                    rows.append(row)
                    lines.append(start)
                start = reader.line_num + 1
    except FileNotFoundError:
        raise InputError(f"no such file: {path}") from None
    except IsADirectoryError:
        raise InputError(f"{path} is a directory, not a CSV file") from None
    except (OSError, UnicodeDecodeError, csv.Error) as err:
        raise InputError(f"cannot read {path}: {err}") from None
    return rows, lines


def _missing(column: np.ndarray) -> np.ndarray:
    return np.isin(np.char.lower(column), NA_TOKENS)


def _shown(token: str) -> str:
    return "empty" if token == "" else repr(token)


def read_columns(
    path: str,
    label_names: list[str],
    number_names: list[str] = (),
    *,
    na: str = "error",
    given=None,
) -> Columns:
    """The label columns and number columns of ``path``, checked, with the line of each row.

    ``given`` is the ``--labels`` list (strings) or None. Raises :class:`InputError`.
    """
    rows, lines = _rows(path)
    if not rows:
        raise InputError(f"{path} is empty: expected a header row and one row per item")
    header, body, lines = [h.strip() for h in rows[0]], rows[1:], np.array(lines[1:])
    names = list(dict.fromkeys([*label_names, *number_names]))
    missing_columns = [n for n in names if n not in header]
    if missing_columns:
        raise InputError(f"{path} has no column {missing_columns[0]!r}; its columns are {header}")
    if not body:
        raise InputError(f"{path} has a header but no rows: there is nothing to evaluate")
    raw = {}
    for name in names:
        k = header.index(name)
        raw[name] = np.array([row[k].strip() if k < len(row) else "" for row in body], dtype=str)
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
    labels, classes = _label_columns(
        path, {n: raw[n][keep_rows] for n in label_names}, lines[keep_rows], given
    )
    numbers = {
        n: _number_column(path, n, raw[n][keep_rows], lines[keep_rows]) for n in number_names
    }
    return Columns(labels, classes, numbers, lines[keep_rows], lines[drop])


def _as_numbers(values: np.ndarray) -> np.ndarray | None:
    """``values`` as floats when every one parses as a number, else None."""
    try:
        return values.astype(np.float64)
    except ValueError:
        return None


def _number_column(path: str, name: str, values: np.ndarray, lines: np.ndarray) -> np.ndarray:
    x = _as_numbers(values)
    if x is None:
        bad = next(k for k, v in enumerate(values.tolist()) if _as_numbers(np.array([v])) is None)
        raise InputError(
            f"{path}, line {lines[bad]}: column {name!r} holds {str(values[bad])!r}, not a number"
        )
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


def _label_columns(path, columns: dict, lines: np.ndarray, given) -> tuple[dict, list]:
    numeric = _integer_labels(path, columns, lines, given)
    if numeric is not None:
        columns, classes = numeric
    else:
        classes = None if given is None else list(given)
    if classes is None:
        classes = sorted(np.unique(np.concatenate(list(columns.values()))).tolist(), key=_order)
        if len(classes) < 2:
            names = " and ".join(map(repr, columns))
            raise InputError(
                f"{path}: only one class ({classes[0]!r}) in column(s) {names}; "
                f"pass --labels with every class of the task (e.g. --labels {classes[0]} OTHER)"
            )
        return columns, classes
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
    return columns, classes
