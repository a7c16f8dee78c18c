"""``--proba`` columns named ``p_<label>`` are matched to their classes, in any order.

Today's trap: ``--proba p_sports p_politics p_arts`` in the file's own order was mapped to
the sorted classes (arts, politics, sports), so each class got another class's scores.
Named columns now go to the class they name; columns named for no class keep the order
of the classes; a mix of the two, or two columns for one class, is refused in one line.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import clfmetrics as cm
from clfmetrics.io import run

CLASSES = ["arts", "politics", "sports"]  # sorted: the matrix order


def _file(tmp_path, n=150, seed=5):
    """Columns in the file's own order: sports, politics, arts (not the sorted order)."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    logits = rng.normal(0, 1, (n, 3)) + 2.0 * np.eye(3)[y]
    proba = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    proba = proba.round(6)
    proba[:, 2] = 1 - proba[:, 0] - proba[:, 1]  # rows sum to 1 as written
    names = np.array(CLASSES)
    head = "gold,model,p_sports,p_politics,p_arts,s1,s2,s3"
    rows = [head] + [
        f"{names[t]},{names[p.argmax()]},{p[2]:.6f},{p[1]:.6f},{p[0]:.6f},"
        f"{p[0]:.6f},{p[1]:.6f},{p[2]:.6f}"
        for t, p in zip(y, proba, strict=True)
    ]
    path = tmp_path / "news.csv"
    path.write_text("\n".join(rows) + "\n")
    return str(path), names[y], names[proba.argmax(axis=1)], proba


def _run(capsys, path, *argv):
    status = run(["report", path, "--truth", "gold", "--pred", "model", "--json",
                  "--size", "100", "--seed", "2", *argv])  # fmt: skip
    out, err = capsys.readouterr()
    return status, (json.loads(out) if status == 0 else None), err


def _expected(y, pred, proba, labels=None):
    return cm.report(y, pred, scores=proba, labels=labels, size=100, rng=2).to_dict()["scores"]


@pytest.mark.parametrize(
    "columns",
    [
        ["p_sports", "p_politics", "p_arts"],  # the file's own order
        ["p_arts", "p_politics", "p_sports"],  # the class order
        ["p_politics", "p_arts", "p_sports"],
    ],
)
def test_p_label_columns_are_matched_whatever_their_order(tmp_path, capsys, columns):
    path, y, pred, proba = _file(tmp_path)
    status, data, err = _run(capsys, path, "--proba", *columns)
    assert status == 0, err
    want = _expected(y, pred, proba)
    assert data["scores"]["log_loss"] == pytest.approx(want["log_loss"])
    assert data["scores"]["brier_score"] == pytest.approx(want["brier_score"])
    for label in CLASSES:
        got = data["scores"]["roc_auc"][label]["estimate"]
        assert got == pytest.approx(want["roc_auc"][label]["estimate"]), label
    reordered = columns != ["p_arts", "p_politics", "p_sports"]
    note = (
        "matched to the classes by name: class arts is column 'p_arts', class politics is "
        "column 'p_politics', class sports is column 'p_sports'"
    )
    assert (note in err) == reordered


def test_the_match_follows_labels_order(tmp_path, capsys):
    path, y, pred, proba = _file(tmp_path)
    order = ["sports", "arts", "politics"]
    status, data, _ = _run(capsys, path, "--labels", *order, "--proba", "p_arts", "p_politics",
                           "p_sports")  # fmt: skip
    assert status == 0 and data["labels"] == order
    want = _expected(y, pred, proba[:, [2, 0, 1]], labels=order)
    assert data["scores"]["log_loss"] == pytest.approx(want["log_loss"])
    assert data["scores"]["roc_auc"]["sports"]["estimate"] == pytest.approx(
        want["roc_auc"]["sports"]["estimate"]
    )


def test_other_prefixes_and_bare_labels_are_names_too(tmp_path, capsys):
    path = tmp_path / "two.csv"
    path.write_text("gold,model,proba_b,prob_a,b,a\na,a,0.2,0.8,0.2,0.8\nb,b,0.9,0.1,0.9,0.1\n")
    for columns in (["proba_b", "prob_a"], ["b", "a"]):
        status, data, err = _run(capsys, str(path), "--proba", *columns)
        assert status == 0, err
        assert data["scores"]["log_loss"] == pytest.approx(-np.log([0.8, 0.9]).mean())


def test_unnamed_columns_keep_the_class_order(tmp_path, capsys):
    path, y, pred, proba = _file(tmp_path)
    status, data, err = _run(capsys, path, "--proba", "s1", "s2", "s3")
    assert status == 0 and "matched" not in err
    assert data["scores"]["log_loss"] == pytest.approx(_expected(y, pred, proba)["log_loss"])


@pytest.mark.parametrize(
    ("columns", "message"),
    [
        (
            ["p_sports", "s2", "p_arts"],
            "--proba column 's2' is named for no class while others are (classes: arts "
            "politics sports); name every column for its class (p_<label>), or none and list "
            "them in the class order",
        ),
        (
            ["p_sports", "p_sports", "p_arts"],
            "--proba columns 'p_sports' and 'p_sports' are both named for class sports; give "
            "one column per class",
        ),
    ],
)
def test_a_mismatch_is_refused_in_one_line(tmp_path, capsys, columns, message):
    path, *_ = _file(tmp_path)
    status, _, err = _run(capsys, path, "--proba", *columns)
    assert status == 2 and err.count("\n") == 1
    assert err == f"clfmetrics: error: {message}\n"


def test_integer_labels_are_matched_by_their_text(tmp_path, capsys):
    path = tmp_path / "ints.csv"
    rows = [(0, 0, (0.7, 0.2, 0.1)), (1, 1, (0.1, 0.8, 0.1)), (10, 10, (0.2, 0.2, 0.6))] * 4
    path.write_text(
        "gold,model,p_10,p_0,p_1\n" + "".join(f"{g},{m},{p[2]},{p[0]},{p[1]}\n" for g, m, p in rows)
    )
    status, data, err = _run(capsys, str(path), "--proba", "p_10", "p_0", "p_1")
    assert status == 0, err
    assert data["labels"] == ["0", "1", "10"]  # integer labels, sorted as numbers
    assert data["scores"]["log_loss"] == pytest.approx(-np.log([0.7, 0.8, 0.6]).mean())
