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
        ("gold,model\na,a\nb,\n", ["--pred", "model"], "line 3: empty value in column 'model'"),
        ("gold,model\na,a\na,a\n", ["--pred", "model"], "only 1 class"),
        ("gold,m,n,o\na,a,a,a\nb,b,b,b\n", ["--pred", "m", "--pred", "n", "--pred", "o"], "two"),
        ("gold,m\na,a\nb,b\n", ["--pred", "m", "--pred", "m"], "the same"),
        ("gold,m\na,a\nb,b\n", ["--pred", "m", "--level", "2"], "level"),
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
