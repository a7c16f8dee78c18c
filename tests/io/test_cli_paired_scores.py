"""Two systems' scores from the command line: ``--pred A --scores SA --pred B --scores SB``.

The comparison adds the ROC AUC difference (DeLong's paired test and the paired
bootstrap) in every format, with the numbers of scikit-learn's ``roc_auc_score`` and
:func:`clfmetrics.compare_auc` on the same data, from files as practitioners have them
(decimal commas and ``;``, a BOM and CRLF, gzip, missing values, columns named for the
classes in another order). A bad combination of options is one line and status 2.
"""

from __future__ import annotations

import csv
import gzip
import io
import json

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

import clfmetrics as cm
from clfmetrics.io import run


def _data(n=160, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    sa = np.round(1 / (1 + np.exp(-(2 * rng.normal(size=n) + 3 * y - 1.5))), 4)
    sb = np.round(1 / (1 + np.exp(-(2 * rng.normal(size=n) + 1.5 * y - 0.75))), 4)
    names = np.array(["benign", "malign"])
    return names[y], names[(sa >= 0.5).astype(int)], names[(sb >= 0.5).astype(int)], sa, sb


def _write(tmp_path, name="two.csv", delimiter=",", decimal=".", bom=False, newline="\n"):
    gold, a, b, sa, sb = _data()
    lines = [delimiter.join(["gold", "lr", "rf", "p_lr", "p_rf"])]
    for row in zip(gold, a, b, sa, sb, strict=True):
        cells = [*row[:3], *(f"{x:.4f}".replace(".", decimal) for x in row[3:])]
        lines.append(delimiter.join(cells))
    text = ("\ufeff" if bom else "") + newline.join(lines) + newline
    path = tmp_path / name
    if name.endswith(".gz"):
        path.write_bytes(gzip.compress(text.encode("utf-8")))
    else:
        path.write_bytes(text.encode("utf-8"))
    return str(path)


TWO = ["--truth", "gold", "--pred", "lr", "--scores", "p_lr", "--pred", "rf", "--scores", "p_rf"]


def _run(capsys, path, *argv):
    status = run(["report", path, *TWO, "--size", "300", "--seed", "2", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_the_json_equals_sklearn_compare_auc_and_the_python_api(tmp_path, capsys):
    status, out, _ = _run(capsys, _write(tmp_path), "--format", "json")
    assert status == 0
    row = json.loads(out)["scores"]["roc_auc"]["malign"]
    gold, a, b, sa, sb = _data()
    assert row["lr"] == pytest.approx(roc_auc_score(gold == "malign", sa), abs=1e-12)
    assert row["rf"] == pytest.approx(roc_auc_score(gold == "malign", sb), abs=1e-12)
    d = cm.compare_auc(gold, sa, sb)
    assert (row["delong"]["low"], row["delong"]["high"], row["delong_p_value"]) == pytest.approx(
        (d.low, d.high, d.pvalue), abs=1e-12
    )
    python = cm.compare(gold, a, b, scores=(sa, sb), names=("lr", "rf"), size=300, rng=2)
    assert json.loads(out) == json.loads(python.to_json())


def test_every_format(tmp_path, capsys):
    path = _write(tmp_path)
    outs = {f: _run(capsys, path, "--format", f) for f in ("text", "markdown", "csv", "html")}
    assert all(status == 0 for status, _, _ in outs.values())
    assert "ROC AUC (scores of class malign; 95% paired intervals of lr - rf" in outs["text"][1]
    assert "| ROC AUC of | lr | rf | difference | DeLong low |" in outs["markdown"][1]
    table = list(csv.reader(io.StringIO(outs["csv"][1])))
    cells = {(r[0], r[1], r[2]): r[3] for r in table}
    assert cells["ROC AUC", "malign", "favours"] in ("lr", "rf", "undecided")
    assert float(cells["ROC AUC", "malign", "bootstrap low"]) < float(
        cells["ROC AUC", "malign", "bootstrap high"]
    )
    assert all(f'<th scope="col">{h}</th>' in outs["html"][1] for h in ("DeLong p", "bootstrap p"))


def test_messy_files_give_the_same_numbers(tmp_path, capsys):
    """Decimal commas with ';', a BOM with CRLF, a gzip file: the same bytes as the plain one."""
    plain = _run(capsys, _write(tmp_path), "--format", "json")[1]
    eu = _write(tmp_path, "eu.csv", delimiter=";", decimal=",")
    assert _run(capsys, eu, "--format", "json", "--decimal", ",")[1] == plain
    excel = _write(tmp_path, "excel.csv", delimiter=";", bom=True, newline="\r\n")
    assert _run(capsys, excel, "--format", "json")[1] == plain
    assert _run(capsys, _write(tmp_path, "two.csv.gz"), "--format", "json")[1] == plain
    status, _, err = _run(capsys, eu, "--format", "json")
    assert status == 2 and "--decimal ," in err and err.count("\n") == 1


def test_whitespace_around_labels_is_kept_or_stripped_as_said(tmp_path, capsys):
    """' malign' and 'malign' are two classes (so --scores is refused: three classes) unless
    --strip-labels merges them, which gives the plain file's numbers."""
    plain = json.loads(_run(capsys, _write(tmp_path), "--format", "json")[1])
    lines = open(_write(tmp_path)).read().splitlines()
    spaced = [lines[0]] + [
        line.replace("malign,", " malign,", 1) if k % 3 == 0 else line
        for k, line in enumerate(lines[1:])
    ]
    path = tmp_path / "spaced.csv"
    path.write_text("\n".join(spaced) + "\n")
    status, _, err = _run(capsys, str(path))
    assert status == 2 and "there are 3" in err and "--strip-labels merges them" in err
    status, out, _ = _run(capsys, str(path), "--strip-labels", "--format", "json")
    assert status == 0
    assert json.loads(out)["scores"] == plain["scores"]


def test_a_missing_score_of_either_system_drops_its_row(tmp_path, capsys):
    path = tmp_path / "na.csv"
    lines = open(_write(tmp_path)).read().splitlines()
    cells = [line.split(",") for line in lines]
    lines[3] = ",".join([*cells[3][:4], ""])  # rf's score missing on line 4
    lines[6] = ",".join([*cells[6][:3], "NA", cells[6][4]])  # lr's on line 7
    path.write_text("\n".join(lines) + "\n")
    status, _, err = _run(capsys, str(path))
    assert status == 2 and "'p_lr' has 1 missing value ('NA') on line 7" in err
    assert err.count("\n") == 1
    status, out, err = _run(capsys, str(path), "--na", "drop", "--format", "json")
    assert status == 0 and "lines 4, 7" in err and json.loads(out)["n_items"] == 158


def test_two_proba_groups_matched_by_name(tmp_path, capsys):
    rng = np.random.default_rng(1)
    y = rng.integers(0, 3, 120)
    classes = np.array(["cat", "dog", "fox"])

    def proba(shift):
        e = np.exp(rng.normal(size=(120, 3)) + shift * np.eye(3)[y])
        return np.round(e / e.sum(axis=1, keepdims=True), 6)

    pa, pb = proba(1.5), proba(0.8)
    head = "gold,a,b,a_cat,a_dog,a_fox,p_fox,p_cat,p_dog"
    rows = [
        ",".join(
            [
                classes[t],
                classes[u.argmax()],
                classes[v.argmax()],
                *map(str, u),
                *map(str, v[[2, 0, 1]]),
            ]
        )
        for t, u, v in zip(y, pa, pb, strict=True)
    ]
    path = tmp_path / "three.csv"
    path.write_text("\n".join([head, *rows]) + "\n")
    argv = ["report", str(path), "--truth", "gold", "--pred", "a", "--proba", "a_cat", "a_dog",
            "a_fox", "--pred", "b", "--proba", "p_fox", "p_cat", "p_dog", "--json",
            "--size", "200"]  # fmt: skip
    assert run(argv) == 0
    out, err = capsys.readouterr()
    assert "--proba columns of --pred b matched to the classes by name" in err
    data = json.loads(out)["scores"]["roc_auc"]
    assert set(data) == {"cat", "dog", "fox", "macro (one-vs-rest)"}
    assert data["dog"]["b"] == pytest.approx(roc_auc_score(y == 1, pb[:, 1]), abs=1e-9)
    macro = data["macro (one-vs-rest)"]
    assert macro["a"] == pytest.approx(roc_auc_score(y, pa, multi_class="ovr"), abs=1e-6)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--pred", "lr", "--pred", "rf", "--scores", "p_lr"], "give --scores once per --pred"),
        (["--pred", "lr", "--scores", "p_lr", "--scores", "p_rf"], "got 1 --pred and 2 --scores"),
        (
            ["--pred", "lr", "--scores", "p_lr", "--pred", "rf", "--scores", "p_lr"],
            "column 'p_lr' is given as scores of both --pred lr and --pred rf",
        ),
        (
            ["--pred", "lr", "--scores", "p_lr", "--pred", "rf", "--proba", "p_rf"],
            "not allowed with argument",
        ),
        (
            ["--pred", "lr", "--proba", "p_lr", "p_rf", "--pred", "rf"],
            "give --proba once per --pred",
        ),
        (
            ["--pred", "lr", "--scores", "p_lr", "--pred", "rf", "--scores", "rf"],
            "given both as labels (--truth/--pred) and as scores",
        ),
        (
            ["--pred", "lr", "--scores", "p_lr", "--pred", "rf", "--scores", "p_nope"],
            "has no column 'p_nope'",
        ),
        (
            [
                "--pred",
                "lr",
                "--scores",
                "p_lr",
                "--pred",
                "rf",
                "--scores",
                "p_rf",
                "--pos-label",
                "cat",
            ],
            "--pos-label cat is not one of the classes benign malign",
        ),
    ],
)
def test_bad_combinations_one_line_and_status_2(tmp_path, capsys, argv, message):
    status = run(["report", _write(tmp_path), "--truth", "gold", *argv, "--size", "50"])
    out, err = capsys.readouterr()
    assert status == 2 and out == "" and err.count("\n") == 1 and message in err
