"""``--decimal ,``: score and count columns written with decimal commas (0,0255).

A file written with decimal commas is read with ``--decimal ,`` as its twin written with
decimal points is read without it: the same bytes out, on every reader path. Without the
option such a value is refused in one line whose hint names ``--decimal ,``.
"""

from __future__ import annotations

import numpy as np
import pytest

from clfmetrics.io import _cli as cli
from clfmetrics.io import run


def _rows(n=80, seed=3):
    rng = np.random.default_rng(seed)
    gold = rng.choice(["benign", "malign"], size=n)
    model = np.where(rng.random(n) < 0.8, gold, rng.choice(["benign", "malign"], size=n))
    p = np.clip(np.where(gold == "malign", 0.6, 0.35) + rng.normal(0, 0.2, n), 0.001, 0.999)
    return gold, model, np.round(p, 4)


def _write(tmp_path, name, decimal, delimiter=";"):
    gold, model, p = _rows()
    head = delimiter.join(["gold", "model", "p_benign", "p_malign", "n"])
    lines = [head]
    for g, m, x in zip(gold, model, p, strict=True):
        cells = [g, m, f"{1 - x:.4f}", f"{x:.4f}", "2.0"]
        lines.append(delimiter.join([*cells[:2], *(c.replace(".", decimal) for c in cells[2:])]))
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def _run(capsys, argv, engine=True, monkeypatch=None):
    if not engine:
        monkeypatch.setattr(cli, "duckdb_installed", lambda: False)
    status = run(argv)
    if not engine:
        monkeypatch.undo()
    out, err = capsys.readouterr()
    return status, out, err


HEAD = ["--truth", "gold", "--pred", "model", "--size", "200", "--seed", "1"]
OPTIONS = {
    "scores": ["--scores", "p_malign"],
    "proba": ["--proba", "p_benign", "p_malign"],
    "scores, json": ["--scores", "p_malign", "--json"],
}


@pytest.mark.parametrize("kind", sorted(OPTIONS))
def test_decimal_commas_read_as_the_same_file_with_points(tmp_path, capsys, kind):
    commas, points = _write(tmp_path, "commas.csv", ","), _write(tmp_path, "points.csv", ".")
    want = _run(capsys, ["report", points, *HEAD, *OPTIONS[kind]])
    assert want[0] == 0 and ("ROC AUC" in want[1] or "roc_auc" in want[1])
    got = _run(capsys, ["report", commas, *HEAD, *OPTIONS[kind], "--decimal", ","])
    assert got == want
    # a file with decimal points reads the same with --decimal , (no comma in its numbers)
    assert _run(capsys, ["report", points, *HEAD, *OPTIONS[kind], "--decimal", ","]) == want


@pytest.mark.parametrize("engine", [True, False])
def test_counts_with_decimal_commas(tmp_path, capsys, monkeypatch, engine):
    commas, points = _write(tmp_path, "commas.csv", ","), _write(tmp_path, "points.csv", ".")
    argv = [*HEAD, "--counts", "n"]
    want = _run(capsys, ["report", points, *argv], engine, monkeypatch)
    assert want[0] == 0 and "160 items" in want[1]  # each row counts 2.0 items
    got = _run(capsys, ["report", commas, *argv, "--decimal", ","], engine, monkeypatch)
    assert got == want


def test_a_parquet_file_of_text_with_decimal_commas(tmp_path, capsys):
    duckdb = pytest.importorskip("duckdb")  # in requirements.txt: installed wherever tests run
    commas, points = _write(tmp_path, "commas.csv", ","), _write(tmp_path, "points.csv", ".")
    parquet = tmp_path / "commas.parquet"
    src = f"read_csv('{commas}', all_varchar=true, sep=';')"
    duckdb.execute(f"COPY (SELECT * FROM {src}) TO '{parquet}' (FORMAT parquet)")
    want = _run(capsys, ["report", points, *HEAD, *OPTIONS["scores"]])
    got = _run(capsys, ["report", str(parquet), *HEAD, *OPTIONS["scores"], "--decimal", ","])
    assert got == want
    status, _, err = _run(capsys, ["report", str(parquet), *HEAD, *OPTIONS["scores"]])
    assert status == 2 and "pass --decimal ," in err


@pytest.mark.parametrize("kind", sorted(OPTIONS))
def test_without_the_option_the_error_names_it(tmp_path, capsys, kind):
    commas = _write(tmp_path, "commas.csv", ",")
    status, out, err = _run(capsys, ["report", commas, *HEAD, *OPTIONS[kind]])
    assert status == 2 and out == "" and err.count("\n") == 1
    column = "p_benign" if kind == "proba" else "p_malign"
    assert f"line 2: column '{column}' holds '0," in err
    assert err.rstrip().endswith(
        "not a number; it looks like a decimal comma: pass --decimal , to read 0,5 as 0.5"
    )


def test_a_value_that_is_no_decimal_comma_gets_no_hint(tmp_path, capsys):
    path = tmp_path / "bad.csv"
    path.write_text("gold;model;s\na;a;0.5\nb;b;high\na;b;1,2,3\n")
    status, _, err = _run(capsys, ["report", str(path), "--truth", "gold", "--pred", "model",
                                   "--scores", "s"])  # fmt: skip
    assert status == 2 and "holds 'high', not a number" in err and "--decimal" not in err
    status, _, err = _run(capsys, ["report", str(path), "--truth", "gold", "--pred", "model",
                                   "--scores", "s", "--decimal", ","])  # fmt: skip
    assert status == 2 and "holds 'high', not a number" in err and "--decimal" not in err


def test_decimal_comma_with_a_comma_delimiter_is_refused(tmp_path, capsys):
    points = _write(tmp_path, "points.csv", ".", delimiter=",")
    status, out, err = _run(capsys, ["report", points, *HEAD, "--decimal", ","])
    assert status == 2 and out == "" and err.count("\n") == 1
    assert "delimiter is the comma too" in err
    status, _, err = _run(capsys, ["report", points, *HEAD, "--decimal", ";"])
    assert status == 2 and "--decimal: invalid choice: ';'" in err
