"""python -m clfmetrics report: good files print, bad files give one line and status 2."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

import clfmetrics as cm
from clfmetrics.cli import run

TWEETS = np.array([[60, 15, 5], [35, 170, 40], [5, 15, 55]])


@pytest.fixture
def predictions(tmp_path):
    y_true, y_pred = cm.to_labels(TWEETS, ["negative", "neutral", "positive"])
    other = np.roll(y_pred, 7)
    path = tmp_path / "preds.csv"
    rows = ["id,gold,model,baseline"] + [
        f"{k},{t},{p},{o}" for k, (t, p, o) in enumerate(zip(y_true, y_pred, other, strict=True))
    ]
    path.write_text("\n".join(rows) + "\n")
    return path


def test_report_prints_text(predictions, capsys):
    status = run(
        ["report", str(predictions), "--truth", "gold", "--pred", "model", "--size", "300"]
    )
    out = capsys.readouterr().out
    assert status == 0
    assert "Evaluation report" in out and f"{cm.macro_f1(TWEETS):.3f}" in out


def test_two_preds_print_the_comparison_as_json(predictions, capsys):
    argv = ["report", str(predictions), "--truth", "gold", "--pred", "model"]
    status = run([*argv, "--pred", "baseline", "--json", "--size", "300", "--seed", "1"])
    data = json.loads(capsys.readouterr().out)
    assert status == 0 and data["systems"] == ["model", "baseline"]
    assert data["metrics"]["accuracy"]["model"] == pytest.approx(cm.accuracy(TWEETS))


def test_module_entry_point_and_exit_status(predictions, tmp_path):
    good = subprocess.run(
        [
            sys.executable,
            "-m",
            "clfmetrics",
            "report",
            str(predictions),
            "--truth",
            "gold",
            "--pred",
            "model",
            "--json",
            "--size",
            "100",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert good.returncode == 0 and json.loads(good.stdout)["n_items"] == 400
    bad = subprocess.run(
        [
            sys.executable,
            "-m",
            "clfmetrics",
            "report",
            str(tmp_path / "missing.csv"),
            "--truth",
            "gold",
            "--pred",
            "model",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.count("\n") == 1 and "no such file" in bad.stderr


@pytest.mark.parametrize(
    ("content", "argv", "message"),
    [
        (None, ["--pred", "model"], "no such file"),
        ("", ["--pred", "model"], "is empty"),
        ("\n\n", ["--pred", "model"], "is empty"),
        ("gold,model\n", ["--pred", "model"], "no rows"),
        ("gold,model\na,a\nb,b\n", ["--pred", "guess"], "no column 'guess'"),
        (
            "gold,model\na,a\nb,\n",
            ["--pred", "model"],
            "'model' has 1 missing value (empty) on line 3",
        ),
        ("gold,model\na,a\na,a\n", ["--pred", "model"], "only one class ('a')"),
        ("gold,m,n,o\na,a,a,a\nb,b,b,b\n", ["--pred", "m", "--pred", "n", "--pred", "o"], "two"),
        ("gold,m\na,a\nb,b\n", ["--pred", "m", "--pred", "m"], "the same"),
        ("gold,m\na,a\nb,b\n", ["--pred", "m", "--level", "2"], "level"),
        ("gold,m\na,a\nb,b\n", ["--pred", "m", "--size", "x"], "argument --size: invalid int"),
        ("gold,m\na,a\nb,b\n", [], "the following arguments are required: --pred"),
        ("gold,m\na,a\nb,b\n", ["--pred", "m", "--na", "ignore"], "argument --na: invalid"),
    ],
)
def test_bad_input_one_line_and_status_2(tmp_path, capsys, content, argv, message):
    path = tmp_path / "in.csv"
    if content is not None:
        path.write_text(content)
    status = run(["report", str(path), "--truth", "gold", *argv])
    err = capsys.readouterr().err
    assert status == 2
    assert err.startswith("clfmetrics: error: ") and err.count("\n") == 1
    assert message in err


# ---------------------------------------------------------------------------
# Issue 19, item 4: line numbers, missing values, numeric labels, --labels
# ---------------------------------------------------------------------------


def _fails(tmp_path, capsys, content, *argv) -> str:
    path = tmp_path / "in.csv"
    path.write_text(content)
    status = run(["report", str(path), "--truth", "gold", "--pred", "model", *argv])
    err = capsys.readouterr().err
    assert status == 2 and err.startswith("clfmetrics: error: ") and err.count("\n") == 1
    return err


def _json(tmp_path, capsys, content, *argv) -> tuple[dict, str]:
    path = tmp_path / "in.csv"
    path.write_text(content)
    argv = ["report", str(path), "--truth", "gold", "--pred", "model", "--json", *argv]
    status = run([*argv, "--size", "50", "--seed", "0"])
    out, err = capsys.readouterr()
    assert status == 0
    return json.loads(out), err


def test_errors_name_the_files_own_lines_past_blank_rows_and_quoted_breaks(tmp_path, capsys):
    """Blank lines used to shift the reported line: line 5 of the file was called line 3."""
    err = _fails(tmp_path, capsys, "gold,model\n\na,a\n\nb,\n")
    assert "on line 5:" in err
    err = _fails(tmp_path, capsys, 'gold,model\n"a\nx",a\nb,NaN\n')
    assert "on line 4:" in err


@pytest.mark.parametrize("token", ["NaN", "nan", "NA", "N/A", "null", "None", "", " ", "#N/A"])
def test_missing_value_tokens_are_refused_with_their_lines(tmp_path, capsys, token):
    """They silently became a class named 'NaN'; the Python API refuses NaN, so does the CLI."""
    content = f"gold,model\na,a\nb,{token}\na,b\nb,{token}\n"
    err = _fails(tmp_path, capsys, content)
    assert "column 'model' has 2 missing values" in err and "on lines 3, 5" in err
    assert "--na drop" in err


def test_na_drop_skips_the_rows_and_says_which(tmp_path, capsys):
    data, err = _json(tmp_path, capsys, "gold,model\na,a\nNA,b\nb,b\na,\nb,a\n", "--na", "drop")
    assert "skipped 2 rows with a missing value (lines 3, 5); 3 rows remain" in err
    assert data["n_items"] == 3
    np.testing.assert_array_equal(data["matrix"], cm.confusion_matrix(list("abb"), list("aba")))


def test_na_keep_counts_the_token_as_a_label(tmp_path, capsys):
    data, _ = _json(tmp_path, capsys, "gold,model\nNA,NA\nEU,EU\nNA,EU\n", "--na", "keep")
    assert data["labels"] == ["EU", "NA"] and data["n_items"] == 3


def test_numeric_labels_sort_as_numbers_and_match_across_columns(tmp_path, capsys):
    """'1, 10, 2' was the string order; and 1 against 1.0 was a mismatch."""
    data, _ = _json(tmp_path, capsys, "gold,model\n10,10.0\n2,2\n1,1.0\n2,1\n")
    assert data["labels"] == ["1", "2", "10"]
    assert data["metrics"]["accuracy"]["estimate"] == 0.75


def test_a_score_in_a_label_column_is_refused_with_its_line(tmp_path, capsys):
    err = _fails(tmp_path, capsys, "gold,model\n1,1\n\n0,0.7\n")
    assert "line 4: column 'model' holds '0.7', which is not a class label" in err


def test_labels_option(tmp_path, capsys):
    """The one-class message suggests --labels, and --labels exists and orders the matrix."""
    one_class = "gold,model\na,a\na,a\n"
    assert "pass --labels with every class" in _fails(tmp_path, capsys, one_class)
    data, _ = _json(tmp_path, capsys, one_class, "--labels", "b", "a")
    assert data["labels"] == ["b", "a"] and data["matrix"] == [[0, 0], [0, 2]]
    err = _fails(tmp_path, capsys, "gold,model\na,a\nb,c\n", "--labels", "a", "b")
    assert "line 3: column 'model' holds 'c', which is not in --labels a b" in err
    assert "repeats a class" in _fails(tmp_path, capsys, one_class, "--labels", "a", "a")
    data, _ = _json(tmp_path, capsys, "gold,model\n1,1\n2,2\n", "--labels", "2", "1", "3")
    assert data["labels"] == ["2", "1", "3"]


def test_help_exits_0(capsys):
    assert run(["report", "--help"]) == 0
    assert "--labels" in capsys.readouterr().out
