"""Files as people have them (issue 26): delimiters, encodings, gzip, messy labels.

Every refusal is one line on stderr naming the file (and its lines) with status 2;
every doubt is a warning in the report's text and in ``--json`` as ``warnings``.
"""

from __future__ import annotations

import gzip
import json
import subprocess
import sys

import numpy as np
import pytest

import clfmetrics as cm
from clfmetrics.inference import _bootstrap as _resample
from clfmetrics.io import _cli as cli
from clfmetrics.io import run

RNG = np.random.default_rng(26)
GOLD = RNG.choice(["spam", "ham"], size=300, p=[0.4, 0.6])
MODEL = np.where(RNG.random(300) < 0.9, GOLD, np.where(GOLD == "spam", "ham", "spam"))


def _write(tmp_path, text: str, name="in.csv", encoding="utf-8"):
    path = tmp_path / name
    if name.endswith(".gz"):
        with gzip.open(path, "wt", encoding=encoding) as handle:
            handle.write(text)
    else:
        path.write_bytes(text.encode(encoding))
    return path


def _table(sep=",", gold=GOLD, model=MODEL) -> str:
    return f"gold{sep}model\n" + "".join(f"{g}{sep}{m}\n" for g, m in zip(gold, model, strict=True))


def _ok(capsys, path, *argv, engine=True, monkeypatch=None):
    if not engine:
        monkeypatch.setattr(cli, "duckdb_installed", lambda: False)
    base = ["report", str(path), "--truth", "gold", "--pred", "model", "--size", "200"]
    status = run([*base, "--json", *argv])
    out, err = capsys.readouterr()
    assert status == 0, err
    return json.loads(out)


def _fails(capsys, path, *argv, pred="model") -> str:
    status = run(["report", str(path), "--truth", "gold", "--pred", pred, *argv])
    err = capsys.readouterr().err
    assert status == 2 and err.startswith("clfmetrics: error: ") and err.count("\n") == 1, err
    return err


EXPECTED = cm.accuracy(cm.confusion_matrix(GOLD, MODEL))


@pytest.mark.parametrize("engine", [True, False])
@pytest.mark.parametrize(("sep", "name"), [(";", "in.csv"), ("\t", "in.tsv"), ("|", "in.txt")])
def test_the_delimiter_is_found(tmp_path, capsys, monkeypatch, engine, sep, name):
    path = _write(tmp_path, _table(sep), name)
    data = _ok(capsys, path, engine=engine, monkeypatch=monkeypatch)
    assert data["metrics"]["accuracy"]["estimate"] == pytest.approx(EXPECTED)


def test_delimiter_option_overrides_and_is_checked(tmp_path, capsys):
    # Commas inside the labels: only --delimiter ';' reads this file as meant.
    gold = np.char.add(GOLD, ",x")
    path = _write(tmp_path, _table(";", gold, np.char.add(MODEL, ",x")))
    data = _ok(capsys, path, "--delimiter", "semicolon")
    assert data["labels"] == ["ham,x", "spam,x"]
    assert "--delimiter must be one character" in _fails(capsys, path, "--delimiter", "ab")


@pytest.mark.parametrize("engine", [True, False])
def test_gzip_is_read_with_or_without_duckdb(tmp_path, capsys, monkeypatch, engine):
    path = _write(tmp_path, _table(), "in.csv.gz")
    data = _ok(capsys, path, engine=engine, monkeypatch=monkeypatch)
    assert data["metrics"]["accuracy"]["estimate"] == pytest.approx(EXPECTED)


def test_a_latin1_file_names_the_line_and_the_option(tmp_path, capsys):
    text = _table().replace("spam\n", "café\n", 1)
    line = 1 + next(k for k, row in enumerate(text.splitlines()) if "café" in row)
    path = _write(tmp_path, text, encoding="latin-1")
    err = _fails(capsys, path)
    assert f"{path}, line {line}: bytes that are not utf-8" in err and "--encoding" in err
    data = _ok(capsys, path, "--encoding", "latin-1")
    assert "café" in data["labels"]
    assert "no such encoding" in _fails(capsys, path, "--encoding", "klingon")


@pytest.mark.parametrize("engine", [True, False])
def test_ragged_rows_are_refused_with_their_lines(tmp_path, capsys, monkeypatch, engine):
    rows = _table().splitlines()
    rows[6] = "big,cat,dog"
    path = _write(tmp_path, "\n".join(rows) + "\n")
    if not engine:
        monkeypatch.setattr(cli, "duckdb_installed", lambda: False)
    err = _fails(capsys, path)
    assert f"{path}: 1 row (line 7) has a number of fields other than the header's 2" in err


def test_a_used_column_named_twice_is_refused(tmp_path, capsys):
    path = _write(tmp_path, "gold,model,gold\n" + "a,a,b\nb,b,a\n")
    err = _fails(capsys, path)
    assert f"{path}, line 1: the header names column 'gold' 2 times (columns 1, 3)" in err


def test_truth_and_prediction_from_one_column_are_refused(tmp_path, capsys):
    path = _write(tmp_path, _table())
    assert "--truth and --pred name the same column 'gold'" in _fails(capsys, path, pred="gold")
    err = _fails(capsys, path, "--scores", "model")
    assert "both as labels" in err


def test_labels_that_differ_in_case_are_named(tmp_path, capsys):
    model = np.where((MODEL == "spam") & (np.arange(300) % 10 == 0), "Spam", MODEL)
    data = _ok(capsys, _write(tmp_path, _table(model=model)))
    assert data["labels"] == ["Spam", "ham", "spam"]
    assert any("'Spam' and 'spam'" in w for w in data["warnings"])


def test_true_true_false(tmp_path, capsys):
    gold = np.where(GOLD == "spam", "True", "FALSE")
    model = np.where(MODEL == "spam", "true", "False")
    data = _ok(capsys, _write(tmp_path, _table(gold=gold, model=model)))
    (warning,) = [w for w in data["warnings"] if "differ only in case" in w]
    assert "'FALSE' and 'False'" in warning and "'True' and 'true'" in warning


def test_leading_zeros_keep_two_classes_and_warn(tmp_path, capsys):
    gold = np.where(GOLD == "spam", "7", "1")
    model = np.where(MODEL == "spam", "007", "1")
    data = _ok(capsys, _write(tmp_path, _table(gold=gold, model=model)))
    assert data["labels"] == ["1", "007", "7"]  # text, sorted by value
    assert any("'007' and '7'" in w for w in data["warnings"])
    # Without leading zeros, numbers are matched as numbers: 1 is 1.0.
    model = np.where(MODEL == "spam", "7.0", "1")
    data = _ok(capsys, _write(tmp_path, _table(gold=gold, model=model)))
    assert data["labels"] == ["1", "7"]
    assert not any("differ only" in w for w in data["warnings"])


@pytest.mark.parametrize("engine", [True, False])
def test_a_stray_word_in_a_numeric_column_is_named_with_its_line(
    tmp_path, capsys, monkeypatch, engine
):
    gold = np.where(GOLD == "spam", "1", "0")
    model = np.where(MODEL == "spam", "1", "0")
    model[16] = "x"
    data = _ok(capsys, _write(tmp_path, _table(gold=gold, model=model)), engine=engine,
               monkeypatch=monkeypatch)  # fmt: skip
    assert "x" in data["labels"]
    assert any(
        "column 'model' holds numbers except 1 value ('x') (line 18)" in w for w in data["warnings"]
    )


def test_counts_without_duckdb_equal_counts_with_it(tmp_path, capsys, monkeypatch):
    pytest.importorskip("duckdb")
    pairs, n = np.unique(np.stack([GOLD, MODEL]), axis=1, return_counts=True)
    text = "gold,model,n\n" + "".join(
        f"{g},{m},{k}\n" for (g, m), k in zip(pairs.T, n, strict=True)
    )
    path = _write(tmp_path, text)
    with_engine = _ok(capsys, path, "--counts", "n")
    without = _ok(capsys, path, "--counts", "n", engine=False, monkeypatch=monkeypatch)
    assert with_engine == without
    assert without["metrics"]["accuracy"]["estimate"] == pytest.approx(EXPECTED)


def test_more_classes_than_memory_is_one_line(tmp_path, capsys, monkeypatch):
    # The resamples are drawn in chunks (tests/io/test_stream.py); what cannot shrink is
    # the matrix itself and its copies.
    monkeypatch.setattr(_resample, "memory_budget", lambda: 100)
    err = _fails(capsys, _write(tmp_path, _table()))
    assert "2 classes need about" in err and "merge rare classes" in err
    with pytest.raises(ValueError, match="the 2 x 2 confusion matrix and its copies"):
        cm.report(GOLD, MODEL)


def test_out_of_memory_is_one_line(tmp_path, capsys, monkeypatch):
    def exhausted(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(cli, "report_of_codes", exhausted)
    monkeypatch.setattr(cli, "report_from_counts", exhausted)
    assert "out of memory" in _fails(capsys, _write(tmp_path, _table()))


def test_the_same_command_prints_the_same_bytes(tmp_path):
    path = _write(tmp_path, _table())
    argv = [sys.executable, "-m", "clfmetrics", "report", str(path), "--truth", "gold"]
    argv += ["--pred", "model", "--size", "300"]
    first, second = (subprocess.run(argv, capture_output=True, check=True) for _ in range(2))
    assert first.stdout == second.stdout and b"seed 0" in first.stdout
    other = subprocess.run([*argv, "--seed", "1"], capture_output=True, check=True)
    assert b"seed 1" in other.stdout and other.stdout != first.stdout


def test_the_python_api_default_seed_is_fixed_and_printed():
    a, b = cm.report(GOLD, MODEL, size=300), cm.report(GOLD, MODEL, size=300)
    assert str(a) == str(b) and a.seed == 0 and a.to_dict()["seed"] == 0
    assert "seed 0" in str(a) and "seed 0" in a.reporting_block()
    c = cm.compare(GOLD, MODEL, GOLD, size=200)
    assert str(c) == str(cm.compare(GOLD, MODEL, GOLD, size=200)) and "seed 0" in str(c)
    fresh = cm.report(GOLD, MODEL, size=300, rng=None)
    assert fresh.seed is None and "no seed" in str(fresh)


def test_auc_method_option_and_the_auto_rule(tmp_path, capsys, monkeypatch):
    from clfmetrics.reporting import _scores as _report_scores

    y = (GOLD == "spam").astype(int)
    score = np.round(np.clip(0.5 + (y - 0.5) * 0.4 + RNG.normal(0, 0.2, 300), 0, 1), 3)
    text = "gold,model,p\n" + "".join(
        f"{g},{m},{p}\n" for g, m, p in zip(GOLD, MODEL, score, strict=True)
    )
    path = _write(tmp_path, text)
    data = _ok(capsys, path, "--scores", "p", "--auc-method", "delong")
    assert data["scores"]["roc_auc_method"] == "delong"
    assert data["scores"]["roc_auc"]["spam"]["method"] == "delong"
    assert _ok(capsys, path, "--scores", "p")["scores"]["roc_auc_method"] == "percentile"
    monkeypatch.setattr(_report_scores, "AUC_DELONG_FROM", 300)  # auto: DeLong from N items
    assert _ok(capsys, path, "--scores", "p")["scores"]["roc_auc_method"] == "delong"
    assert "argument --auc-method: invalid choice" in _fails(capsys, path, "--auc-method", "x")


def test_a_large_file_without_duckdb_suggests_it(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(cli, "SMALL_CSV", 100)  # "large": from 100 bytes on, for the test
    path = _write(tmp_path, _table())
    _ok(capsys, path, engine=False, monkeypatch=monkeypatch)  # the note goes to stderr
    monkeypatch.setattr(cli, "duckdb_installed", lambda: False)
    assert run(["report", str(path), "--truth", "gold", "--pred", "model", "--size", "50"]) == 0
    assert "DuckDB is not installed" in capsys.readouterr().err


def test_near_duplicates_are_in_the_text_of_the_report_and_of_the_comparison(tmp_path, capsys):
    model = np.where((MODEL == "spam") & (np.arange(300) % 10 == 0), "Spam", MODEL)
    text = "gold,model,other\n" + "".join(
        f"{g},{m},{g}\n" for g, m in zip(GOLD, model, strict=True)
    )
    path = _write(tmp_path, text)
    for extra in ([], ["--pred", "other"]):
        argv = ["report", str(path), "--truth", "gold", "--pred", "model", *extra, "--size", "100"]
        assert run(argv) == 0
        out = " ".join(capsys.readouterr().out.split())
        assert (
            "differ only in case, whitespace or leading zeros are separate classes: 'Spam' and"
            in out
        )
