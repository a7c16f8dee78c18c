"""clfmetrics.io: the combination counts from DuckDB and Dask equal numpy's on the items.

Spark, whose start-up takes long, is tested in ``test_engines_spark.py``.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from clfmetrics import dask_counts, duckdb_counts

duckdb = pytest.importorskip("duckdb")  # pinned in requirements.txt: present in make test


def _items(n=5_000, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.choice(np.array(["cat", "dog", "owl"]), size=n, p=[0.6, 0.3, 0.1])
    a = np.where(rng.random(n) < 0.8, y, rng.choice(np.array(["cat", "dog", "owl"]), size=n))
    b = np.where(rng.random(n) < 0.7, y, "cat")
    return y, a, b


def _as_counter(*arrays):
    *keys, counts = arrays
    assert all(len(k) == len(counts) for k in keys)
    assert counts.dtype == np.int64 and (counts > 0).all()
    table = Counter()
    for combo, c in zip(
        zip(*(k.tolist() for k in keys), strict=True), counts.tolist(), strict=True
    ):
        assert combo not in table, "a combination listed twice"
        table[combo] = c
    return table


def _expected(*columns):
    return Counter(zip(*(c.tolist() for c in columns), strict=True))


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    y, a, b = _items()
    folder = tmp_path_factory.mktemp("engines")
    con = duckdb.connect()
    con.register("items", {"y": y, "a": a, "b": b})
    con.execute(f"COPY items TO '{folder / 'p.parquet'}' (FORMAT parquet)")
    con.execute(f"COPY items TO '{folder / 'p.csv'}' (HEADER)")
    return folder, (y, a, b)


@pytest.mark.parametrize("name", ["p.parquet", "p.csv"])
def test_duckdb_file_counts_equal_numpy(files, name):
    folder, (y, a, b) = files
    got = _as_counter(*duckdb_counts(folder / name, ["y", "a", "b"]))
    assert got == _expected(y, a, b)
    got = _as_counter(*duckdb_counts(str(folder / name), ["y", "b"]))
    assert got == _expected(y, b)


def test_duckdb_pre_aggregated_table_sums_its_counts(files):
    folder, (y, a, _) = files
    con = duckdb.connect()
    # The same items split into two partial counts per combination, as shards would give.
    rel = con.sql(f"SELECT y, a, count(*) AS n FROM '{folder / 'p.parquet'}' GROUP BY y, a, b")
    got = _as_counter(*duckdb_counts(rel, ["y", "a"], counts="n", connection=con))
    assert got == _expected(y, a)
    fractional_type = con.sql("SELECT y, a, CAST(n AS DOUBLE) AS n FROM rel")
    assert _as_counter(*duckdb_counts(fractional_type, ["y", "a"], counts="n")) == got


def test_duckdb_keeps_integer_labels_as_integers():
    rel = duckdb.sql("SELECT * FROM (VALUES (1, 2), (1, 2), (0, 0)) t(y, p)")
    y, p, n = duckdb_counts(rel, ["y", "p"])
    assert y.dtype.kind == "i" and sorted(zip(y.tolist(), p.tolist(), n.tolist(), strict=True)) == [
        (0, 0, 1),
        (1, 2, 2),
    ]


BAD = [
    ("SELECT 'a' AS y, 'a' AS p", ["y", "q"], None, "no column 'q'"),
    ("SELECT * FROM (VALUES ('a', NULL), ('a', 'b')) t(y, p)", ["y", "p"], None, "NULL"),
    (
        "SELECT * FROM (VALUES ('a', 'a', 2), ('a', 'b', -1)) t(y, p, n)",
        ["y", "p"],
        "n",
        "negative",
    ),
    (
        "SELECT * FROM (VALUES ('a', 'a', 2.0), ('a', 'b', 0.5)) t(y, p, n)",
        ["y", "p"],
        "n",
        "fractional",
    ),
    (
        "SELECT * FROM (VALUES ('a', 'a', 2), ('a', 'b', NULL)) t(y, p, n)",
        ["y", "p"],
        "n",
        "NULL entries",
    ),
    ("SELECT * FROM (VALUES ('a', 'a', 'x')) t(y, p, n)", ["y", "p"], "n", "must be numeric"),
    ("SELECT 'a' AS y, 'a' AS p WHERE false", ["y", "p"], None, "empty"),
    ("SELECT * FROM (VALUES ('a', 'a', 0)) t(y, p, n)", ["y", "p"], "n", "empty"),
    ("SELECT 'a' AS y, 'a' AS p", ["y", "y"], None, "columns must be different"),
    ("SELECT 'a' AS y, 'a' AS p", "y", None, "list of column names"),
]


@pytest.mark.parametrize(("sql", "columns", "counts", "message"), BAD)
def test_duckdb_bad_tables_raise_a_clear_value_error(sql, columns, counts, message):
    with pytest.raises(ValueError, match=message):
        duckdb_counts(duckdb.sql(sql), columns, counts=counts)


def test_duckdb_bad_sources(tmp_path):
    with pytest.raises(ValueError, match="no such file"):
        duckdb_counts(tmp_path / "absent.parquet", ["y", "p"])
    (tmp_path / "x.json").write_text("{}")
    with pytest.raises(ValueError, match=r"expected a \.csv"):
        duckdb_counts(tmp_path / "x.json", ["y", "p"])
    with pytest.raises(ValueError, match="file path or a DuckDB relation"):
        duckdb_counts([["a", "a"]], ["y", "p"])
    (tmp_path / "bad.parquet").write_text("not parquet")
    with pytest.raises(ValueError, match="cannot read"):
        duckdb_counts(tmp_path / "bad.parquet", ["y", "p"])


@pytest.fixture(scope="module")
def dask_dataframe():
    dask = pytest.importorskip("dask")
    dataframe = pytest.importorskip("dask.dataframe")
    with dask.config.set(scheduler="synchronous"):
        yield dataframe


def test_dask_counts_equal_numpy(dask_dataframe):
    import pandas as pd

    y, a, b = _items(seed=1)
    frame = dask_dataframe.from_pandas(pd.DataFrame({"y": y, "a": a, "b": b}), npartitions=3)
    assert _as_counter(*dask_counts(frame, ["y", "a", "b"])) == _expected(y, a, b)
    assert _as_counter(*dask_counts(frame, ["y"])) == _expected(y)
    partial = frame.assign(n=1.0)  # whole counts of a float type are accepted
    assert _as_counter(*dask_counts(partial, ["y", "a"], counts="n")) == _expected(y, a)


@pytest.mark.parametrize(
    ("data", "counts", "message"),
    [
        ({"y": ["a", None], "p": ["a", "b"]}, None, "label column 'y' has NULL"),
        ({"y": ["a", "b"], "p": ["a", "b"], "n": [2, -1]}, "n", "negative"),
        ({"y": ["a", "b"], "p": ["a", "b"], "n": [2, 0.5]}, "n", "fractional"),
        ({"y": ["a", "b"], "p": ["a", "b"], "n": [2, None]}, "n", "NULL entries"),
        ({"y": ["a", "b"], "p": ["a", "b"], "n": ["2", "1"]}, "n", "must be numeric"),
        ({"y": ["a", "b"], "p": ["a", "b"]}, "m", "no column 'm'"),
        ({"y": [], "p": []}, None, "empty"),
    ],
)
def test_dask_bad_tables_raise_a_clear_value_error(dask_dataframe, data, counts, message):
    import pandas as pd

    frame = dask_dataframe.from_pandas(
        pd.DataFrame(data, dtype=object if not data["y"] else None), npartitions=1
    )
    with pytest.raises(ValueError, match=message):
        dask_counts(frame, ["y", "p"], counts=counts)
