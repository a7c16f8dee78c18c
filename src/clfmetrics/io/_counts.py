"""The command line's reader for files of any size: DuckDB counts the label combinations.

``python -m clfmetrics report FILE.{csv,parquet}`` needs only how many rows
share each combination of the label columns used. DuckDB (imported here only
when the command line uses it) reads the file out of core and returns that
aggregated table; the values are read as text as they are written (the whitespace
around them removed only with ``strip=True``, ``--strip-labels``), as the row-by-row
reader of ``_stream`` reads them, and the same rules then apply to the
distinct values: missing-value tokens, integer labels, ``--labels``. So the
output is the row reader's, at a memory cost independent of the file's length.
``counts=COL`` reads a table that is already aggregated (``COL`` holds each
row's number of items). What the aggregate cannot give is a line number: the
command line reruns the row reader for a small CSV file with a problem, so
that its message names the lines.
"""

from __future__ import annotations

import importlib.util
import os
import re
from dataclasses import dataclass

import numpy as np

from .._base.numbers import count
from ._columns import _label_columns, _missing, strip_note, stripped
from ._engines import duckdb_counts
from ._file import InputError

PARQUET = (".parquet", ".pq")


@dataclass
class Counted:
    """Distinct combinations of the label columns (checked, as labels) and their counts;
    with score columns and thresholds, also of each score's bin (``bins``, one row per score
    column: how many of the thresholds the score reaches)."""

    labels: dict[str, np.ndarray]
    counts: np.ndarray
    classes: list
    dropped: int
    warnings: list[str]
    bins: np.ndarray | None = None


def duckdb_installed() -> bool:
    return importlib.util.find_spec("duckdb") is not None


def is_parquet(path: str) -> bool:
    return path.lower().endswith(PARQUET)


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _relation(con, path: str, delimiter: str = ","):
    import duckdb

    if not os.path.exists(path):
        raise InputError(f"no such file: {path}")
    if os.path.isdir(path):
        raise InputError(f"{path} is a directory, not a file")
    try:
        if is_parquet(path):
            return con.read_parquet(path)
        # As Python's csv module reads it: commas, double quotes, short rows padded.
        return con.read_csv(
            path, header=True, all_varchar=True, sep=delimiter, quotechar='"', escapechar='"',
            null_padding=True,
        )  # fmt: skip
    except duckdb.Error as err:
        first = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
        raise InputError(f"cannot read {path}: {first}") from None


def _score_value(rel, column: str, parquet: bool, decimal: str) -> str:
    """SQL for the number in ``column`` (NULL where it is missing or not a number), read as
    the row reader reads it: a CSV's text as written, a Parquet float (single precision)
    as the text DuckDB writes for it, other Parquet numbers as they are."""
    q = _quote(column)
    if not parquet:
        text = f"trim({q})" if decimal == "." else f"replace(trim({q}), '{decimal}', '.')"
        return f"TRY_CAST({text} AS DOUBLE)"
    kind = str(dict(zip(rel.columns, rel.types, strict=True))[column])
    if kind in ("FLOAT", "REAL"):
        return f"TRY_CAST(CAST({q} AS VARCHAR) AS DOUBLE)"
    return f"TRY_CAST({q} AS DOUBLE)"


def _check_risks(rel, value: str, column: str, path: str, name: str, na: str) -> None:
    """One pass over the score column: every value a number in [0, 1] (a missing one only
    with ``na="drop"``), or an :class:`InputError` naming what was found."""
    raw, kind = _quote(column), str(dict(zip(rel.columns, rel.types, strict=True))[column])
    present = f"{raw} IS NOT NULL" + (f" AND trim({raw}) <> ''" if kind == "VARCHAR" else "")
    ((missing, bad, low, high),) = rel.aggregate(
        f"count(*) FILTER (WHERE NOT ({present})), "
        f"count(*) FILTER (WHERE ({present}) AND ({value} IS NULL OR isnan({value}) "
        f"OR isinf({value}))), min({value}) FILTER (WHERE isfinite({value})), "
        f"max({value}) FILTER (WHERE isfinite({value}))"
    ).fetchall()
    if bad:
        raise InputError(
            f"{path}: column {name!r} has {count(int(bad), 'value')} that "
            f"{'is' if bad == 1 else 'are'} not a finite number: --scores needs the predicted "
            "risk of every row"
        )
    if missing and na != "drop":
        raise InputError(
            f"{path}: column {name!r} has {count(int(missing), 'missing value')}: every row "
            "needs its score; fix the file, or pass --na drop to skip those rows"
        )
    if low is not None and (low < 0 or high > 1):
        shown = low if low < 0 else high
        raise InputError(
            f"{path}: --scores {name} must be predicted risks (probabilities in [0, 1]), to "
            f"be compared with threshold probabilities; got {shown!r}"
        )


def count_rows(path: str, delimiter=None) -> int:
    """The number of rows of ``path`` (a Parquet file's from its metadata), by DuckDB."""
    import duckdb

    con = duckdb.connect()
    ((rows,),) = _relation(con, path, delimiter or ",").aggregate("count(*)").fetchall()
    return int(rows)


def counted_columns(
    path: str,
    label_names: list[str],
    *,
    na="error",
    given=None,
    counts=None,
    delimiter=None,
    width=None,
    strip=False,
    decimal=".",
    scores=(),
    edges=None,
):
    """The label columns of ``path`` aggregated by DuckDB: a :class:`Counted`.

    With ``scores`` (columns of predicted risks) and ``edges`` (sorted distinct threshold
    probabilities), the rows are counted per combination of labels and bin of each score:
    the number of edges at or below it (``Counted.bins``), all a decision curve (one score)
    or a paired difference in net benefit (two, their joint bins) needs.

    Raises :class:`InputError` for a missing file or column, a missing value
    (``na="error"``), bad counts, an empty table, a score that is not a number in [0, 1],
    or labels that break the rules of ``_csvinput`` (messages without line numbers).
    """
    import duckdb

    con = duckdb.connect()
    rel = _relation(con, path, delimiter or ",")
    if width is not None and len(rel.columns) > width:  # DuckDB pads: a long row adds columns
        extra = " OR ".join(f"{_quote(c)} IS NOT NULL" for c in rel.columns[width:])
        ((long,),) = rel.filter(extra).aggregate("count(*)").fetchall()
        if long:
            raise InputError(
                f"{path}: {count(int(long), 'row')} {'has' if long == 1 else 'have'} more "
                f"fields than the header's {width}; quote values that contain the delimiter "
                f"{delimiter!r} (or pass --delimiter), and give every row one field per column"
            )
    header = {c.strip(): c for c in rel.columns}
    for name in [*label_names, *([counts] if counts else []), *scores]:
        if name not in header:
            raise InputError(f"{path} has no column {name!r}; its columns are {list(header)}")
    binned, bin_names = "", [f"__bin{k}" for k in range(len(scores))]
    for score, bin_name in zip(scores, bin_names, strict=True):
        value = _score_value(rel, header[score], is_parquet(path), decimal)
        _check_risks(rel, value, header[score], path, score, na)
        # The bin: how many edges the score reaches (numpy's searchsorted, side="right");
        # -1 for a missing score. Edges are written as the shortest text of their double.
        reached = " + ".join(
            f"CAST({value} >= CAST('{float(t)!r}' AS DOUBLE) AS INTEGER)" for t in edges
        )
        binned += f", coalesce({reached}, -1) AS {bin_name}"
    if counts is None:
        # Count the rows on the file's own types first (cheap), then turn only the
        # distinct values into text below, where equal texts are summed again.
        grouped = ", ".join(_quote(header[n]) for n in label_names)
        if binned:
            rel = rel.project(f"{grouped}{binned}")
            grouped += "".join(f", {b}" for b in bin_names)
        rel = rel.aggregate(f"{grouped}, count(*) AS __rows", grouped)
        number = "__rows"
    else:
        number = _quote(header[counts])
        if not is_parquet(path):  # a CSV's text: empty or not a number becomes NULL
            if decimal != ".":
                number = f"replace({number}, '{decimal}', '.')"
            number = f"TRY_CAST(trim({number}) AS DOUBLE)"
    # Text as written, NULL as empty: the row reader's view of every value (``strip`` is
    # applied to the distinct combinations below, where the labels it changes are collected).
    keys = [
        f"coalesce(CAST({_quote(header[n])} AS VARCHAR), '') AS k{i}"
        for i, n in enumerate(label_names)
    ]
    names = [f"k{i}" for i in range(len(label_names))]
    keys += bin_names
    names += bin_names
    table = rel.project(", ".join([*keys, f"{number} AS n"]))
    try:
        *values, n = duckdb_counts(table, names, counts="n")
    except ValueError as err:
        text = str(err).replace("the relation", path).replace("'n'", repr(counts))
        raise InputError(text.replace("NULL entries", "empty or non-numeric entries")) from None
    except duckdb.Error as err:
        raise InputError(f"cannot read {path}: {str(err).strip().splitlines()[0]}") from None
    bins = None
    if scores:
        bins = np.array([np.asarray(v, dtype=np.int64) for v in values[-len(scores) :]])
        del values[-len(scores) :]
    values = [np.asarray(v, dtype=str) for v in values]
    drop = np.zeros(n.shape, dtype=bool) if bins is None else (bins < 0).any(axis=0)
    for name, v in zip(label_names, values, strict=True):
        missing = _missing(v) if na != "keep" else np.zeros(v.shape, dtype=bool)
        if missing.any() and na == "error":
            tokens = ", ".join(
                "empty" if t == "" else repr(t) for t in dict.fromkeys(v[missing].tolist())
            )
            rows = count(int(n[missing].sum()), "missing value")
            raise InputError(
                f"{path}: column {name!r} has {rows} ({tokens}): a missing value is not a "
                "class; fix the file, or pass --na drop to skip those rows (--na keep: count "
                "them as a label)"
            )
        drop |= missing
    if drop.all():
        raise InputError(f"{path}: every row has a missing value; nothing is left to evaluate")
    keep = ~drop
    columns = {name: v[keep] for name, v in zip(label_names, values, strict=True)}
    changed = set()
    if strip:  # combinations that become equal stay apart: their counts add up downstream
        columns = {name: stripped(v, changed) for name, v in columns.items()}
    try:
        labels, classes, notes = _label_columns(
            path, columns, np.full(int(keep.sum()), -1), given, n[keep]
        )
    except InputError as err:  # the aggregate has no line numbers
        raise InputError(re.sub(r", line -1", "", str(err))) from None
    notes[:0] = [strip_note(changed)] if strip else []
    kept = None if bins is None else bins[:, keep]
    return Counted(labels, n[keep], classes, int(n[drop].sum()), notes, kept)
