"""Counts of label combinations from a data engine: DuckDB, Spark or Dask.

:func:`~clfmetrics.reporting.report_from_counts` and
:func:`~clfmetrics.reporting.compare_from_counts`
need only how many items share each combination of true class and
predictions, which is what one ``GROUP BY`` returns. The functions here run
that aggregation *inside* the engine, so no item reaches Python: only the
aggregated table (at most ``n ** (k + 1)`` rows for ``n`` classes and ``k``
systems) is fetched.

- :func:`duckdb_counts` -- a CSV or Parquet file of any size (DuckDB streams it
  from disk, out of core), or a DuckDB relation such as ``duckdb.sql("SELECT ...")``.
- :func:`spark_counts` -- a ``pyspark.sql.DataFrame`` (one ``groupBy().count()``).
- :func:`dask_counts` -- a ``dask.dataframe.DataFrame`` (one ``groupby().size()``).

Each returns one array per requested column and then the counts, all of equal
length: ``truth, a, b, n = duckdb_counts("preds.parquet", ["y", "a", "b"])``
feeds ``compare_from_counts(truth, a, b, n)``. With ``counts="COL"`` the table
is already aggregated: ``COL`` holds each row's number of items, summed per
combination.

Only numpy is imported here; each engine is imported inside the function that
uses it, so ``import clfmetrics`` needs none of them (``pip install
clfmetrics[duckdb]``, ``[spark]`` or ``[dask]``).
"""

from __future__ import annotations

import os

import numpy as np

_PARQUET = (".parquet", ".pq")
_CSV = (".csv", ".tsv", ".csv.gz", ".tsv.gz")


def _check_names(columns, counts) -> list[str]:
    if isinstance(columns, str) or not all(isinstance(c, str) for c in columns):
        raise ValueError(f"columns must be a list of column names; got {columns!r}")
    columns = list(columns)
    if not columns:
        raise ValueError("columns must name at least one column (the true labels)")
    if len(set(columns)) != len(columns):
        raise ValueError(f"columns must be different; got {columns!r}")
    if counts is not None and (not isinstance(counts, str) or counts in columns):
        raise ValueError(f"counts must be the name of a column not in columns; got {counts!r}")
    return columns


def _check_present(wanted, available, where) -> None:
    for name in wanted:
        if name not in available:
            raise ValueError(f"{where} has no column {name!r}; its columns are {list(available)}")


def _finish(columns, keys, total, nulls=None, fractional=None, low=None, counts=None, where=""):
    """Check the aggregated table and return ``(*keys, counts)`` as numpy arrays.

    ``keys[c]`` are the distinct values of column ``c`` (None or NaN where the
    engine had NULL), ``total`` the items per combination; for a pre-aggregated
    table ``nulls``, ``fractional`` and ``low`` are, per combination, the number
    of NULL counts, of fractional counts, and the smallest count.
    """
    keys = [np.asarray(k, dtype=object) if np.ma.isMaskedArray(k) else k for k in keys]
    for name, key in zip(columns, keys, strict=True):
        missing = _missing(key)
        if missing.any():
            raise ValueError(
                f"{where}: label column {name!r} has NULL values; drop or fill those rows"
            )
    if counts is not None:
        if np.asarray(nulls).sum() > 0:
            raise ValueError(f"{where}: counts column {counts!r} has NULL entries")
        if np.asarray(fractional).sum() > 0:
            raise ValueError(
                f"{where}: counts column {counts!r} has fractional entries; counts of items "
                "must be whole numbers"
            )
        if len(low) and np.min(low) < 0:
            raise ValueError(f"{where}: counts column {counts!r} has negative entries")
    total = np.asarray(total, dtype=np.int64)
    if total.sum() == 0:
        raise ValueError(f"{where} is empty: there are no items to evaluate")
    keep = total > 0
    return (*(_plain(np.asarray(k)[keep]) for k in keys), total[keep])


def _missing(key) -> np.ndarray:
    """Where a fetched key column holds NULL (masked, None, NaN or pandas' NA)."""
    if np.ma.isMaskedArray(key):
        return np.ma.getmaskarray(key)
    arr = np.asarray(key)
    if arr.dtype.kind == "f":
        return np.isnan(arr)
    if arr.dtype.kind == "O":
        return np.array(
            [v is None or type(v).__name__ == "NAType" or v != v for v in arr], dtype=bool
        )
    return np.zeros(arr.shape, dtype=bool)


def _plain(arr: np.ndarray) -> np.ndarray:
    """Object arrays of one plain kind (str, int, float) as a numpy array of that kind."""
    if arr.dtype.kind == "O" and all(isinstance(v, str) for v in arr):
        return arr.astype(str)
    if arr.dtype.kind == "O" and all(isinstance(v, (int, np.integer)) for v in arr):
        return arr.astype(np.int64)
    if arr.dtype.kind == "O" and all(isinstance(v, (float, np.floating)) for v in arr):
        return arr.astype(np.float64)
    return arr


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def duckdb_counts(source, columns, *, counts=None, connection=None):
    """How many items share each combination of ``columns``, counted by DuckDB.

    Parameters
    ----------
    source : str, os.PathLike or duckdb.DuckDBPyRelation
        A CSV file (``.csv``, ``.tsv``, optionally gzipped) or a Parquet file
        (``.parquet``, ``.pq``; a glob such as ``"part-*.parquet"`` works too), read
        out of core; or a relation, e.g. ``con.sql("SELECT ... FROM warehouse")``.
    columns : list of str
        The true-label column first, then one or more prediction columns.
    counts : str, optional
        Column of an already aggregated table holding each row's number of items.
    connection : duckdb.DuckDBPyConnection, optional
        Where to run the query (default: a new in-memory database for a path).

    Returns
    -------
    tuple of numpy arrays
        One array of distinct values per column, then the number of items with
        that combination (int64); combinations with no item are left out.

    Raises
    ------
    ValueError
        A missing column, NULL in a label column, NULL, negative or fractional
        entries of ``counts``, an empty table, or a file type it cannot read.

    Examples
    --------
    >>> import duckdb
    >>> rel = duckdb.sql("SELECT * FROM (VALUES ('a','a'), ('a','b'), ('a','a')) t(y, p)")
    >>> y, p, n = duckdb_counts(rel, ["y", "p"])
    >>> sorted(zip(y.tolist(), p.tolist(), n.tolist()))
    [('a', 'a', 2), ('a', 'b', 1)]
    """
    import duckdb

    columns = _check_names(columns, counts)
    con = connection if connection is not None else duckdb.connect()
    if isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
        where = path
        lower = path.lower()
        if lower.endswith(_PARQUET):
            reader = con.read_parquet
        elif lower.endswith(_CSV):
            reader = con.read_csv
        else:
            raise ValueError(
                f"source {path!r}: expected a .csv, .tsv or .parquet file (or a DuckDB relation)"
            )
        if "*" not in path and not os.path.exists(path):
            raise ValueError(f"source: no such file: {path}")
        try:
            rel = reader(path)
        except duckdb.Error as err:
            raise ValueError(f"source: cannot read {path}: {err}") from None
    elif isinstance(source, duckdb.DuckDBPyRelation):
        rel, where = source, "the relation"
    else:
        raise ValueError(
            f"source must be a file path or a DuckDB relation; got {type(source).__name__}"
        )
    wanted = [*columns] if counts is None else [*columns, counts]
    _check_present(wanted, rel.columns, where)
    keys = ", ".join(map(_quote, columns))
    if counts is None:
        agg = rel.aggregate(f"{keys}, count(*) AS __n", keys).fetchnumpy()
        return _finish(columns, [agg[c] for c in columns], agg["__n"], where=where)
    kind = str(dict(zip(rel.columns, rel.types, strict=True))[counts])
    if not any(t in kind for t in ("INT", "DECIMAL", "DOUBLE", "FLOAT", "REAL")):
        raise ValueError(f"{where}: counts column {counts!r} must be numeric; it is {kind}")
    c = _quote(counts)
    agg = rel.aggregate(
        f"{keys}, sum(CAST(round({c}) AS BIGINT)) AS __n, count(*) - count({c}) AS __null, "
        f"count(*) FILTER (WHERE {c} <> round({c})) AS __frac, min({c}) AS __low",
        keys,
    ).fetchnumpy()
    return _finish(
        columns,
        [agg[k] for k in columns],
        np.ma.filled(agg["__n"], 0),
        agg["__null"],
        agg["__frac"],
        np.ma.filled(np.asarray(agg["__low"], dtype=np.float64), 0),
        counts,
        where,
    )


def spark_counts(frame, columns, *, counts=None):
    """How many items share each combination of ``columns`` of a Spark DataFrame.

    One ``groupBy(columns)`` aggregation runs in Spark; only the aggregated
    rows are collected. Parameters, return value and errors as
    :func:`duckdb_counts`, with ``frame`` a ``pyspark.sql.DataFrame``.
    """
    from pyspark.sql import functions as F

    columns = _check_names(columns, counts)
    where = "the Spark DataFrame"
    _check_present([*columns] if counts is None else [*columns, counts], frame.columns, where)
    grouped = frame.groupBy(*columns)
    if counts is None:
        rows = grouped.count().collect()
        return _finish(
            columns,
            [[r[c] for r in rows] for c in columns],
            [r["count"] for r in rows],
            where=where,
        )
    c = F.col(counts)
    rows = grouped.agg(
        F.sum(F.round(c).cast("long")).alias("__n"),
        (F.count(F.lit(1)) - F.count(c)).alias("__null"),
        F.sum(F.when(c != F.round(c), 1).otherwise(0)).alias("__frac"),
        F.min(c).cast("double").alias("__low"),
    ).collect()
    return _finish(
        columns,
        [_objects([r[k] for r in rows]) for k in columns],
        [r["__n"] or 0 for r in rows],
        [r["__null"] for r in rows],
        [r["__frac"] for r in rows],
        [0.0 if r["__low"] is None else r["__low"] for r in rows],
        counts,
        where,
    )


def _objects(values: list) -> np.ndarray:
    out = np.empty(len(values), dtype=object)
    out[:] = values
    return out


def dask_counts(frame, columns, *, counts=None):
    """How many items share each combination of ``columns`` of a Dask DataFrame.

    One ``groupby(columns, dropna=False)`` aggregation runs in Dask on its
    current scheduler; only the aggregated table is computed into memory.
    Parameters, return value and errors as :func:`duckdb_counts`, with ``frame``
    a ``dask.dataframe.DataFrame``.
    """
    columns = _check_names(columns, counts)
    where = "the Dask DataFrame"
    _check_present([*columns] if counts is None else [*columns, counts], frame.columns, where)
    grouped = frame.groupby(columns, dropna=False)
    if counts is None:
        table = grouped.size().compute()
        return _finish(columns, _levels(table.index, columns), table.to_numpy(), where=where)
    c = frame[counts]
    if c.dtype.kind not in "iuf":
        raise ValueError(f"{where}: counts column {counts!r} must be numeric; it is {c.dtype}")
    extra = frame.assign(
        __null=c.isna().astype("int64"),
        __frac=((c - c.round()).abs() > 0).astype("int64"),
        __n=c.fillna(0).round().astype("int64"),
        __low=c.astype("float64"),
    )
    table = (
        extra.groupby(columns, dropna=False)
        .agg({"__n": "sum", "__null": "sum", "__frac": "sum", "__low": "min"})
        .compute()
    )
    return _finish(
        columns,
        _levels(table.index, columns),
        table["__n"].to_numpy(),
        table["__null"].to_numpy(),
        table["__frac"].to_numpy(),
        np.nan_to_num(table["__low"].to_numpy(dtype=np.float64)),
        counts,
        where,
    )


def _levels(index, columns) -> list[np.ndarray]:
    """The group keys of a (Multi)Index as one object array per column."""
    if len(columns) == 1:
        return [_objects(list(index))]
    return [_objects(list(index.get_level_values(k))) for k in range(len(columns))]
