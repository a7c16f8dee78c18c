"""python -m clfmetrics report: good files print, bad files give one line and status 2."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

import clfmetrics as cm
from clfmetrics.io import run

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


def test_kept_na_tokens_among_numbers_still_sort_numbers_by_value(tmp_path, capsys):
    data, _ = _json(tmp_path, capsys, "gold,model\n10,NA\n2,2\n1,10\n", "--na", "keep")
    assert data["labels"] == ["1", "2", "10", "NA"]


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


# ---------------------------------------------------------------------------
# Issue 18: --scores, --proba, --pos-label
# ---------------------------------------------------------------------------


def _scored_file(tmp_path, n=200, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    logits = rng.normal(0, 1, (n, 3)) + 1.5 * np.eye(3)[y]
    proba = (np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)).round(6)
    proba[:, 2] = 1 - proba[:, 0] - proba[:, 1]
    names = np.array(["cat", "dog", "fox"])
    path = tmp_path / "scored.csv"
    rows = ["gold,model,p_cat,p_dog,p_fox,p_bin"] + [
        f"{names[t]},{names[p.argmax()]},{p[0]:.6f},{p[1]:.6f},{p[2]:.6f},{p[1]:.6f}"
        for t, p in zip(y, proba, strict=True)
    ]
    path.write_text("\n".join(rows) + "\n")
    return path, names[y], names[proba.argmax(axis=1)], proba


def _run_json(path, *argv):
    base = ["report", str(path), "--truth", "gold", "--pred", "model", "--json"]
    status = run([*base, *argv, "--size", "200", "--seed", "3"])
    return status


def test_proba_end_to_end_equals_the_library(tmp_path, capsys):
    path, y, pred, proba = _scored_file(tmp_path)
    assert _run_json(path, "--proba", "p_cat", "p_dog", "p_fox") == 0
    data = json.loads(capsys.readouterr().out)
    expected = cm.report(y, pred, scores=proba, size=200, rng=3).to_dict()
    assert data["scores"]["log_loss"] == pytest.approx(expected["scores"]["log_loss"])
    for label, auc in expected["scores"]["roc_auc"].items():
        assert data["scores"]["roc_auc"][label]["estimate"] == pytest.approx(auc["estimate"])
    got, want = data["scores"]["reliability"], expected["scores"]["reliability"]
    assert [r["items"] for r in got] == [r["items"] for r in want]
    np.testing.assert_allclose([r["observed"] for r in got], [r["observed"] for r in want])


def test_proba_follows_the_labels_order(tmp_path, capsys):
    path, y, pred, proba = _scored_file(tmp_path)
    argv = ["--labels", "fox", "cat", "dog", "--proba", "p_fox", "p_cat", "p_dog"]
    assert _run_json(path, *argv) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["labels"] == ["fox", "cat", "dog"]
    reordered = proba[:, [2, 0, 1]]
    expected = cm.report(y, pred, labels=["fox", "cat", "dog"], scores=reordered, size=200)
    assert data["scores"]["brier_score"] == pytest.approx(expected.scores.proper["brier_score"])


def test_scores_end_to_end_with_pos_label(tmp_path, capsys):
    """Binary: keep the dog and cat rows; p_bin is the probability of 'dog'."""
    path, *_ = _scored_file(tmp_path)
    lines = path.read_text().splitlines()
    kept = [lines[0]] + [r for r in lines[1:] if ",fox," not in r and not r.startswith("fox")]
    path.write_text("\n".join(kept) + "\n")
    assert _run_json(path, "--scores", "p_bin") == 0
    data = json.loads(capsys.readouterr().out)
    assert data["labels"] == ["cat", "dog"] and data["scores"]["positive_class"] == "dog"
    cells = [r.split(",") for r in kept[1:]]
    truth = np.array([c[0] for c in cells])
    p_dog = np.array([float(c[5]) for c in cells])
    from sklearn.metrics import roc_auc_score

    assert data["scores"]["roc_auc"]["dog"]["estimate"] == pytest.approx(
        roc_auc_score(truth == "dog", p_dog)
    )
    assert _run_json(path, "--scores", "p_cat", "--pos-label", "cat") == 0
    data = json.loads(capsys.readouterr().out)
    assert data["scores"]["positive_class"] == "cat"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--proba", "p_cat", "p_dog"], "--proba names 2 columns, but there are 3 classes"),
        (["--proba", "p_cat", "p_dog", "p_nope"], "no column 'p_nope'"),
        (
            ["--proba", "p_cat", "p_dog", "p_dog"],
            "'p_dog' and 'p_dog' are both named for class dog",
        ),
        (["--scores", "p_bin"], "--scores gives the score of one class, for a task of two"),
        (["--scores", "p_bin", "--proba", "p_cat"], "not allowed with argument"),
        (["--pos-label", "cat"], "--pos-label names the class that --scores scores"),
        (["--scores", "p_bin", "--pos-label", "cow"], "with --proba instead"),
        (["--pred", "p_cat", "--scores", "p_bin"], "give --scores once per --pred"),
    ],
)
def test_bad_score_options(tmp_path, capsys, argv, message):
    path, *_ = _scored_file(tmp_path, n=30)
    status = run(["report", str(path), "--truth", "gold", "--pred", "model", *argv])
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1 and message in err


def test_proba_columns_named_like_the_classes_in_another_order_are_matched(tmp_path, capsys):
    content = "gold,model,b,a\na,a,0.2,0.8\nb,b,0.9,0.1\n"
    data, err = _json(tmp_path, capsys, content, "--proba", "b", "a")
    assert "by name: class a is column 'a', class b is column 'b'" in err
    assert data["scores"]["log_loss"] == pytest.approx(-np.log([0.8, 0.9]).mean())


def test_proba_rows_that_do_not_sum_to_one(tmp_path, capsys):
    rows = "gold,model,pa,pb\na,a,0.8,0.2\n\nb,b,0.3,0.6\n"
    assert "line 4: the --proba columns sum to 0.9, not 1" in _fails(
        tmp_path, capsys, rows, "--proba", "pa", "pb"
    )
    rounded = "gold,model,pa,pb\na,a,0.667,0.334\nb,b,0.333,0.666\na,b,0.5,0.5\n"
    data, err = _json(tmp_path, capsys, rounded, "--proba", "pa", "pb")
    assert "rescaled to sum to 1" in err and data["scores"]["log_loss"] > 0


def test_missing_and_bad_scores_name_their_lines(tmp_path, capsys):
    content = "gold,model,s\na,a,0.1\nb,b,\na,b,NaN\nb,a,0.7\n"
    err = _fails(tmp_path, capsys, content, "--scores", "s")
    assert "column 's' has 2 missing values (empty, 'NaN') on lines 3, 4" in err
    assert "--na keep" not in err
    data, note = _json(tmp_path, capsys, content, "--scores", "s", "--na", "drop")
    assert data["n_items"] == 2 and "lines 3, 4" in note
    err = _fails(tmp_path, capsys, "gold,model,s\na,a,0.1\nb,b,high\n", "--scores", "s")
    assert "line 3: column 's' holds 'high', not a number" in err


def test_proba_through_python_dash_m(tmp_path):
    """End to end in a subprocess: --proba with --labels, JSON on stdout, status 0."""
    path, y, pred, _ = _scored_file(tmp_path, n=120)
    argv = ["report", str(path), "--truth", "gold", "--pred", "model", "--json", "--size", "100"]
    argv += ["--labels", "cat", "dog", "fox", "--proba", "p_cat", "p_dog", "p_fox"]
    done = subprocess.run(
        [sys.executable, "-m", "clfmetrics", *argv], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["n_items"] == 120 and data["scores"]["kind"] == "probability matrix"
    assert set(data["scores"]["roc_auc"]) == {"cat", "dog", "fox"}
    assert data["matrix"] == cm.confusion_matrix(y, pred, labels=["cat", "dog", "fox"]).tolist()
