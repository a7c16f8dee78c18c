"""python -m clfmetrics report on CSV and Parquet through DuckDB: the row reader's output.

The command line aggregates a file with DuckDB when it is installed; these tests run
each command twice, once so and once with DuckDB hidden (the row-by-row reader), and
require the same output, then check ``--counts`` tables and the errors (exit status 2).
"""

from __future__ import annotations

import numpy as np
import pytest

from clfmetrics.io import _cli as cli
from clfmetrics.io import run

duckdb = pytest.importorskip("duckdb")  # pinned in requirements.txt: present in make test


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    rng = np.random.default_rng(0)
    n = 400
    gold = rng.choice(["cat", "dog", "owl"], size=n, p=[0.5, 0.3, 0.2])
    new = np.where(rng.random(n) < 0.8, gold, rng.choice(["cat", "dog", "owl"], size=n))
    old = np.where(rng.random(n) < 0.7, gold, "cat")
    nums = {"cat": "1", "dog": "2", "owl": "10"}
    lines = ["id, gold ,new,old,num_gold,num_new"]
    for k in range(n):
        g = nums[gold[k]] + (".0" if k % 7 == 0 else "")  # 1 and 1.0 are one integer label
        lines.append(f'{k}, {gold[k]} ,"{new[k]}",{old[k]},{g},{nums[new[k]]}')
        if k == 5:
            lines.append("")  # a blank line, skipped by both readers
    path = tmp_path_factory.mktemp("cli_counts")
    (path / "items.csv").write_text("\n".join(lines) + "\n")
    con = duckdb.connect()
    src = f"read_csv('{path / 'items.csv'}', all_varchar=true)"
    con.execute(f"COPY (SELECT * FROM {src}) TO '{path / 'items.parquet'}' (FORMAT parquet)")
    typed = "CAST(num_gold AS DOUBLE) AS num_gold, CAST(num_new AS INTEGER) AS num_new"
    con.execute(f"COPY (SELECT {typed} FROM {src}) TO '{path / 'typed.parquet'}' (FORMAT parquet)")
    grouped = f"SELECT gold, new, old, count(*) AS n FROM {src} GROUP BY ALL ORDER BY n"
    con.execute(f"COPY ({grouped}) TO '{path / 'counts.csv'}' (HEADER)")
    con.execute(f"COPY ({grouped}) TO '{path / 'counts.parquet'}' (FORMAT parquet)")
    return path


def _out(capsys, argv, engine=True, monkeypatch=None):
    if not engine:
        monkeypatch.setattr(cli, "duckdb_installed", lambda: False)
    status = run(argv)
    if not engine:
        monkeypatch.undo()
    captured = capsys.readouterr()
    return status, captured.out, captured.err


# gold is written " cat ": compared as written (6 classes, warned) or with --strip-labels.
ARGS = [
    ["--truth", "gold", "--pred", "new", "--seed", "3", "--size", "300"],
    [
        "--truth",
        "gold",
        "--pred",
        "new",
        "--pred",
        "old",
        "--seed",
        "4",
        "--size",
        "300",
        "--strip-labels",
    ],
    [
        "--truth",
        "gold",
        "--pred",
        "old",
        "--json",
        "--seed",
        "5",
        "--size",
        "300",
        "--strip-labels",
    ],
    ["--truth", "num_gold", "--pred", "num_new", "--seed", "6", "--size", "300"],
    [
        "--truth",
        "gold",
        "--pred",
        "new",
        "--labels",
        "owl",
        "dog",
        "cat",
        "bat",
        "--strip-labels",
        "--seed",
        "7",
        "--size",
        "300",
    ],
]


@pytest.mark.parametrize("args", ARGS)
def test_duckdb_output_equals_the_row_readers(folder, capsys, monkeypatch, args):
    csv = str(folder / "items.csv")
    status, by_rows, _ = _out(capsys, ["report", csv, *args], False, monkeypatch)
    assert status == 0 and by_rows
    assert _out(capsys, ["report", csv, *args]) == (0, by_rows, "")
    parquet = str(folder / "items.parquet")
    assert _out(capsys, ["report", parquet, *args]) == (0, by_rows, "")


def test_typed_parquet_columns_read_as_the_csv_text(folder, capsys):
    args = ARGS[3]
    csv, typed = str(folder / "items.csv"), str(folder / "typed.parquet")
    assert _out(capsys, ["report", typed, *args]) == _out(capsys, ["report", csv, *args])


@pytest.mark.parametrize("name", ["counts.csv", "counts.parquet"])
def test_counts_column_reads_an_aggregated_table(folder, capsys, name):
    for args in ARGS[:3]:
        expected = _out(capsys, ["report", str(folder / "items.csv"), *args])
        got = _out(capsys, ["report", str(folder / name), *args, "--counts", "n"])
        assert got == expected


def _write(folder, name, sql):
    path = folder / name
    duckdb.execute(
        f"COPY ({sql}) TO '{path}' (FORMAT {'parquet' if name.endswith('t') else 'csv'})"
    )
    return str(path)


BAD = [
    ("SELECT 'a' AS y, 'b' AS p", ["--pred", "q"], "has no column 'q'"),
    ("SELECT * FROM (VALUES ('a', 'a'), (NULL, 'b')) t(y, p)", [], "column 'y' has 1 missing"),
    (
        "SELECT * FROM (VALUES ('a', 'a', 2), ('b', 'b', -1)) t(y, p, n)",
        ["--counts", "n"],
        "negative",
    ),
    (
        "SELECT * FROM (VALUES ('a', 'a', 2.0), ('b', 'b', 0.5)) t(y, p, n)",
        ["--counts", "n"],
        "fractional",
    ),
    (
        "SELECT * FROM (VALUES ('a', 'a', 2), ('b', 'b', NULL)) t(y, p, n)",
        ["--counts", "n"],
        "empty or non-numeric",
    ),
    ("SELECT 'a' AS y, 'a' AS p WHERE false", [], "empty"),
    ("SELECT * FROM (VALUES ('a', 'a'), ('a', 'a')) t(y, p)", [], "only one class"),
    (
        "SELECT * FROM (VALUES ('a', 'a'), ('b', 'c')) t(y, p)",
        ["--labels", "a", "b"],
        "holds 'c', which is not in --labels",
    ),
    ("SELECT 'a' AS y, 'b' AS p", ["--counts", "m"], "has no column 'm'"),
    (
        "SELECT 'a' AS y, 'b' AS p, 0.3 AS s, 1 AS n",
        ["--scores", "s", "--counts", "n"],
        "need one row per item, not --counts",
    ),
]


@pytest.mark.parametrize(("sql", "extra", "message"), BAD)
def test_bad_parquet_input_one_line_and_status_2(tmp_path, capsys, sql, extra, message):
    path = _write(tmp_path, "bad.parquet", sql)
    argv = ["report", path, "--truth", "y", *(["--pred", "p"] if "--pred" not in extra else [])]
    status, out, err = _out(capsys, [*argv, *extra])
    assert status == 2 and out == ""
    assert err.startswith("clfmetrics: error: ") and err.count("\n") == 1
    assert message in err and "line -1" not in err


def test_a_large_csv_with_a_problem_is_not_reread(tmp_path, capsys, monkeypatch):
    path = tmp_path / "na.csv"
    path.write_text("y,p\na,a\nNA,b\nb,b\n")
    status, _, err = _out(capsys, ["report", str(path), "--truth", "y", "--pred", "p"])
    assert status == 2 and "line 3" in err  # small: the row reader names the line
    monkeypatch.setattr(cli, "SMALL_CSV", 0)
    status, _, err = _out(capsys, ["report", str(path), "--truth", "y", "--pred", "p"])
    assert status == 2 and "column 'y' has 1 missing value ('NA')" in err
    status, out, err = _out(
        capsys,
        ["report", str(path), "--truth", "y", "--pred", "p", "--na", "drop", "--size", "100"],
    )
    assert status == 0 and "skipped 1 row with a missing value; 2 rows remain" in err
    assert "2 items" in out


def test_parquet_needs_duckdb_and_counts_in_a_csv_do_not(folder, capsys, monkeypatch):
    argv = ["report", str(folder / "items.parquet"), "--truth", "gold", "--pred", "new"]
    status, _, err = _out(capsys, argv, False, monkeypatch)
    assert status == 2 and "needs DuckDB: pip install duckdb" in err
    # --counts on a CSV file needs no DuckDB (issue 26): the same output either way.
    argv = ["report", str(folder / "counts.csv"), "--truth", "gold", "--pred", "new"]
    argv += ["--counts", "n", "--size", "300"]
    assert _out(capsys, argv, False, monkeypatch) == _out(capsys, argv)
