"""--net-benefit and --costs: the library's numbers in every format; bad input, one line."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

import clfmetrics as cm
from clfmetrics.io import run

N, SIZE = 240, "200"


@pytest.fixture
def scored(tmp_path):
    rng = np.random.default_rng(4)
    y = rng.integers(0, 2, N)
    a = np.round(np.clip(0.35 * y + 0.65 * rng.random(N), 0, 1), 4)
    b = np.round(rng.random(N), 4)
    names = np.array(["no", "yes"])
    path = tmp_path / "scored.csv"
    rows = ["gold,lr,rf,p_lr,p_rf,p_no,p_yes"] + [
        f"{names[t]},{names[int(x >= 0.5)]},{names[int(z >= 0.5)]},{x},{z},{1 - x:.4f},{x}"
        for t, x, z in zip(y, a, b, strict=True)
    ]
    path.write_text("\n".join(rows) + "\n")
    return path, y, a, b


def _json(capsys, *argv):
    status = run(["report", *map(str, argv), "--size", SIZE, "--json"])
    captured = capsys.readouterr()
    assert status == 0, captured.err
    return json.loads(captured.out)


def _fails(capsys, *argv) -> str:
    status = run(["report", *map(str, argv), "--size", SIZE])
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1 and err.startswith("clfmetrics: error: "), err
    return err


def test_net_benefit_equals_decision_curve(scored, capsys):
    path, y, a, _ = scored
    data = _json(
        capsys,
        path,
        "--truth",
        "gold",
        "--pred",
        "lr",
        "--scores",
        "p_lr",
        "--net-benefit",
        "0.05:0.35",
        "--seed",
        "3",
    )
    direct = cm.decision_curve(y, a, np.arange(5, 36) / 100, size=int(SIZE), rng=3)
    got = data["decision_curve"]
    np.testing.assert_allclose(got["threshold"], direct.threshold, atol=1e-12, rtol=0)
    for key in ("net_benefit", "low", "high", "treat_all", "interventions_avoided"):
        assert got[key] == getattr(direct, key).tolist(), key


def test_proba_of_two_classes_gives_the_same_curve(scored, capsys):
    path, *_ = scored
    argv = [path, "--truth", "gold", "--pred", "lr", "--net-benefit", "0.1,0.2"]
    one = _json(capsys, *argv, "--scores", "p_lr")["decision_curve"]
    two = _json(capsys, *argv, "--proba", "p_yes", "p_no")["decision_curve"]  # matched by name
    assert one == two


def test_two_systems_give_the_paired_difference(scored, capsys):
    path, y, a, b = scored
    data = _json(
        capsys,
        path,
        "--truth",
        "gold",
        "--pred",
        "lr",
        "--scores",
        "p_lr",
        "--pred",
        "rf",
        "--scores",
        "p_rf",
        "--net-benefit",
        "0.1:0.3:0.1",
    )
    d = cm.net_benefit_difference(y, a, b, [0.1, 0.2, 0.3], size=int(SIZE), rng=0)
    got = data["net_benefit_difference"]
    assert got["systems"] == ["lr", "rf"] and got["difference"] == d.difference.tolist()
    assert got["low"] == d.low.tolist() and got["high"] == d.high.tolist()


COSTS = np.array([[0.0, 5.0], [1.0, 0.0]])  # rows no, yes predicted; columns no, yes true


@pytest.mark.parametrize(
    "content",
    [
        "0,5\n1,0\n",  # no header: matrix order
        "no,yes\n0,5\n1,0\n",
        "yes,no\n0,1\n5,0\n",  # the header's order, rows following it
        ",no,yes\nno,0,5\nyes,1,0\n",  # row labels under an empty corner
        "predicted \\ true;yes;no\nyes;0;1\nno;5;0\n",  # semicolons, both reordered
        "\ufeffno\tyes\n\n 0 \t 5 \n1\t0\n\n",  # BOM, tabs, blank lines, spaces
        "no|yes\n0|5.0e0\n1|0\n",
    ],
)
def test_cost_files_in_many_spellings_give_one_matrix(scored, capsys, tmp_path, content):
    path, y, a, _ = scored
    costs = tmp_path / "costs.csv"
    costs.write_text(content, encoding="utf-8")
    data = _json(
        capsys, path, "--truth", "gold", "--pred", "lr", "--scores", "p_lr", "--costs", costs
    )
    got = data["bayes_decisions"]
    assert got["costs"] == COSTS.tolist()
    iv = cm.bayes_cost_interval(y, np.c_[1 - a, a], COSTS, size=int(SIZE), rng=0)
    assert got["bayes_decisions"] == {"estimate": iv.estimate, "low": iv.low, "high": iv.high}


def test_integer_labels_may_head_the_cost_file(tmp_path, capsys):
    rng = np.random.default_rng(0)
    y = rng.integers(0, 3, 150)
    p = rng.dirichlet([1, 1, 1], 150).round(4)
    p[:, 2] = (1 - p[:, 0] - p[:, 1]).round(4)
    path = tmp_path / "three.csv"
    path.write_text(
        "y,pred,p0,p1,p2\n"
        + "".join(
            f"{t},{int(np.argmax(r))},{r[0]},{r[1]},{r[2]}\n" for t, r in zip(y, p, strict=True)
        )
    )
    costs = tmp_path / "costs.csv"
    costs.write_text("2,0,1\n0,4,1\n1,0,8\n2,1,0\n")  # header of integer labels, reordered
    data = _json(
        capsys,
        path,
        "--truth",
        "y",
        "--pred",
        "pred",
        "--proba",
        "p0",
        "p1",
        "p2",
        "--costs",
        costs,
    )
    expected = [[0, 8, 1], [1, 0, 2], [4, 1, 0]]  # rows and columns 0, 1, 2
    assert data["bayes_decisions"]["costs"] == expected
    iv = cm.bayes_cost_interval(y, p, expected, size=int(SIZE), rng=0)
    assert data["bayes_decisions"]["bayes_decisions"]["estimate"] == iv.estimate


@pytest.mark.parametrize("fmt", ["text", "markdown", "csv", "html"])
def test_every_format_has_the_sections(scored, capsys, fmt, tmp_path):
    path, *_ = scored
    costs = tmp_path / "costs.csv"
    costs.write_text("0,5\n1,0\n")
    argv = [
        "report",
        str(path),
        "--truth",
        "gold",
        "--pred",
        "lr",
        "--scores",
        "p_lr",
        "--net-benefit",
        "0.1,0.2",
        "--costs",
        str(costs),
        "--size",
        SIZE,
        "--format",
        fmt,
    ]
    assert run(argv) == 0
    out = capsys.readouterr().out
    if fmt == "csv":
        keys = {line.split(",")[0] for line in out.splitlines()}
        assert {"Decision curve", "Bayes decisions"} <= keys
    else:
        assert "Decision curve (class yes" in out and "Bayes decisions (" in out
    if fmt == "html":
        assert 'aria-labelledby="decision-t decision-d"' in out
    argv[5:8] = ["lr", "--scores", "p_lr", "--pred", "rf", "--scores", "p_rf"]
    assert run(argv) == 0
    out = capsys.readouterr().out
    assert ("Net benefit difference" in out) and (
        "B: Bayes" not in out and "rf: Bayes decisions" in out
    )


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--net-benefit", "0:0.3"], "--net-benefit 0:0.3: a threshold probability lies"),
        (["--net-benefit", "0.1:1"], "strictly between 0 and 1.*got 1$"),
        (["--net-benefit", "1"], "got 1$"),
        (["--net-benefit=-0.2"], "got -0.2$"),
        (["--net-benefit", "0.3:0.1"], "LOW must be below HIGH"),
        (["--net-benefit", "0.1:0.2:0"], "STEP must be a positive"),
        (["--net-benefit", "ten"], "LOW:HIGH, LOW:HIGH:STEP or a comma list"),
    ],
)
def test_bad_thresholds_one_line(scored, capsys, argv, message):
    path, *_ = scored
    err = _fails(capsys, path, "--truth", "gold", "--pred", "lr", "--scores", "p_lr", *argv)
    assert re.search(message, err.strip()), err


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("0,5,1\n1,0,1\n", "must be square.*row 1 has 3 costs and there are 2 rows"),
        ("0,5\n1,0\n2,2\n", "must be square.*3 rows of 2 costs.*does not name the classes"),
        ("0,1,2\n1,0,2\n2,1,0\n", "3 x 3 matrix but the task has 2 classes"),
        ("0,-5\n1,0\n", "row 1, column 2 is -5, a negative cost"),
        ("no,yes\n0,x\n1,0\n", "row 1, column 2 is 'x', not a finite number"),
        ("0,inf\n1,0\n", "'inf', not a finite number"),
        ("cat,dog\n0,1\n1,0\n", "header name cat, dog, but the classes are no, yes"),
        ("no,no\n0,1\n1,0\n", "header name no, no"),
        (",no,yes\nno,0,5\nmaybe,1,0\n", "row labels name no, maybe"),
        ("no,yes,maybe\n0,1\n1,0\n", "header names 3 classes but the matrix is 2 x 2"),
        ("", "the file is empty"),
        ("no,yes\n", "no rows of costs"),
    ],
)
def test_bad_cost_files_one_line(scored, capsys, tmp_path, content, message):
    path, *_ = scored
    costs = tmp_path / "costs.csv"
    costs.write_text(content)
    err = _fails(
        capsys, path, "--truth", "gold", "--pred", "lr", "--scores", "p_lr", "--costs", costs
    )
    assert re.search(message, err), err


def test_option_refusals_one_line(scored, capsys, tmp_path):
    path, *_ = scored
    base = [path, "--truth", "gold", "--pred", "lr"]
    assert "--net-benefit needs the predicted probabilities" in _fails(
        capsys, *base, "--net-benefit", "0.1"
    )
    assert "--costs needs the predicted probabilities" in _fails(capsys, *base, "--costs", "x")
    assert f"--costs {tmp_path / 'missing.csv'}: cannot read the file" in _fails(
        capsys, *base, "--scores", "p_lr", "--costs", tmp_path / "missing.csv"
    )
    wide = tmp_path / "wide.csv"
    wide.write_text("gold,lr,s\n" + "".join(f"{k % 2},{k % 2},{k * 0.5}\n" for k in range(40)))
    err = _fails(
        capsys, wide, "--truth", "gold", "--pred", "lr", "--scores", "s", "--net-benefit", "0.1"
    )
    assert "--net-benefit needs predicted probabilities in [0, 1]" in err


def test_three_classes_refuse_net_benefit_and_a_two_by_two_cost_matrix(tmp_path, capsys):
    rng = np.random.default_rng(0)
    y = rng.integers(0, 3, 90)
    p = rng.dirichlet([1, 1, 1], 90).round(4)
    p[:, 2] = (1 - p[:, 0] - p[:, 1]).round(4)
    path = tmp_path / "three.csv"
    path.write_text(
        "y,pred,p0,p1,p2\n"
        + "".join(
            f"{t},{int(np.argmax(r))},{r[0]},{r[1]},{r[2]}\n" for t, r in zip(y, p, strict=True)
        )
    )
    base = [path, "--truth", "y", "--pred", "pred", "--proba", "p0", "p1", "p2"]
    err = _fails(capsys, *base, "--net-benefit", "0.1")
    assert "--net-benefit needs a binary task" in err and "3 classes" in err
    costs = tmp_path / "costs.csv"
    costs.write_text("0,1\n1,0\n")
    err = _fails(capsys, *base, "--costs", costs)
    assert "is a 2 x 2 matrix but the task has 3 classes (0, 1, 2)" in err
