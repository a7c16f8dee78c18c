"""``python -m clfmetrics prevalence``: a judge's labels corrected by a hand-labelled sample.

Two designs, one file (the deployment items are the rows with an empty truth) or two
(``--deploy``); the same items give the same bytes either way. The numbers equal
:func:`clfmetrics.estimate_prevalence` and :func:`clfmetrics.labels_needed` called
directly, and Rogan-Gladen's formula computed by hand. Bad input: one line, exit 2.
"""

from __future__ import annotations

import csv
import io

import numpy as np
import pytest
from messy_csv import cli_json, messy_csv, missing_cell, proba_csv, run_cli, scored

import clfmetrics as cm


def _judged(n, prevalence, seed, tpr=0.85, fpr=0.1):
    rng = np.random.default_rng(seed)
    truth = rng.random(n) < prevalence
    pred = np.where(truth, rng.random(n) < tpr, rng.random(n) < fpr)
    name = np.array(["ham", "spam"])
    return name[truth.astype(int)], name[pred.astype(int)]


CAL = _judged(300, 0.2, 1)
DEP = _judged(10_000, 0.35, 2)[1]


def _one_file(tmp_path, cal=CAL, dep=DEP):
    """';'-delimited with a BOM; the deployment rows have an empty (or NA) truth."""
    rows = [[i, t, p] for i, (t, p) in enumerate(zip(*cal, strict=True))]
    rows += [[f"d{i}", missing_cell(i), p] for i, p in enumerate(dep)]
    return messy_csv(tmp_path / "judged.csv", ["id", "gold", "judge"], rows)


def _two_files(tmp_path, cal=CAL, dep=DEP):
    first, second = tmp_path / "cal.csv", tmp_path / "dep.tsv"
    first.write_text("gold,judge\n" + "".join(f"{t},{p}\n" for t, p in zip(*cal, strict=True)))
    second.write_text("id\tlabel\n" + "".join(f"{i}\t{p}\n" for i, p in enumerate(dep)))
    return first, second


BASE = ["--truth", "gold", "--pred", "judge", "--size", 500]


def test_one_file_equals_the_library_and_rogan_gladen(tmp_path, capsys):
    out = cli_json(capsys, ["prevalence", _one_file(tmp_path), *BASE])
    direct = cm.estimate_prevalence(*CAL, DEP, size=500, rng=0)
    assert out["labels"] == ["ham", "spam"] and out["method"] == "adjusted"
    for key in ("estimate", "low", "high"):
        assert out[key] == pytest.approx(getattr(direct, key).tolist(), abs=1e-12)
    truth, pred = CAL
    tpr = np.mean(pred[truth == "spam"] == "spam")
    fpr = np.mean(pred[truth == "ham"] == "spam")
    share = np.mean(DEP == "spam")
    assert out["estimate"][1] == pytest.approx((share - fpr) / (tpr - fpr), abs=1e-12)
    naive = cm.estimate_prevalence(*CAL, DEP, method="cc", size=500, rng=0)
    assert out["classify_and_count"]["estimate"] == pytest.approx([1 - share, share], abs=1e-12)
    assert out["classify_and_count"]["low"] == pytest.approx(naive.low.tolist(), abs=1e-12)
    assert out["calibration"] == 300 and out["deployment"] == 10_000
    m = out["cross_table"]
    assert m[1][1] == np.sum((pred == "spam") & (truth == "spam"))
    assert m[0][1] == np.sum((pred == "ham") & (truth == "spam"))
    need = out["labels_needed"]
    expected = cm.labels_needed(
        0.04, prevalence=direct.estimate[1], sensitivity=tpr, specificity=1 - fpr,
        deployment=10_000, calibration_prevalence=np.mean(truth == "spam"),
    )  # fmt: skip
    assert need["half_width"] == 0.02 and need["labels"] == expected > 300


def test_two_files_give_the_same_numbers_as_one(tmp_path, capsys):
    one = cli_json(capsys, ["prevalence", _one_file(tmp_path), *BASE, "--half-width", 0.05])
    cal, dep = _two_files(tmp_path)
    argv = ["prevalence", cal, *BASE, "--deploy", dep, "--deploy-pred", "label"]
    two = cli_json(capsys, [*argv, "--half-width", 0.05])
    for key in ("estimate", "low", "high", "classify_and_count", "labels_needed", "cross_table"):
        assert two[key] == one[key]
    assert two["labels_needed"]["labels"] == cm.labels_needed(
        0.1, prevalence=two["estimate"][1], sensitivity=two["labels_needed"]["sensitivity"],
        specificity=two["labels_needed"]["specificity"], deployment=10_000,
        calibration_prevalence=np.mean(CAL[0] == "spam"),
    )  # fmt: skip
    notes = " ".join(two["notes"])
    assert "label shift" in notes and "bootstrap of both samples" in notes
    assert f"{dep} (column 'label')" in notes


def test_every_format_holds_the_same_numbers(tmp_path, capsys):
    argv = ["prevalence", _one_file(tmp_path), *BASE]
    data = cli_json(capsys, argv)
    shown = [f"{data[k][1]:.3f}" for k in ("estimate", "low", "high")]
    naive = f"{data['classify_and_count']['estimate'][1]:.3f}"
    _, text, _ = run_cli(capsys, argv)
    assert "classify-and-count" in text and all(s in text for s in [*shown, naive])
    assert f"{data['labels_needed']['labels']:,}" in text
    _, md, _ = run_cli(capsys, [*argv, "--format", "markdown"])
    assert f"| spam | {shown[0]} | {shown[1]} | {shown[2]} | {naive} |" in md
    _, long, _ = run_cli(capsys, [*argv, "--format", "csv"])
    cell = {(r["section"], r["row"], r["column"]): r["value"]
            for r in csv.DictReader(io.StringIO(long))}  # fmt: skip
    ends = ("estimate", "estimate low", "estimate high")  # the long table names whose ends
    assert [cell["Prevalence", "spam", k] for k in ends] == shown
    assert cell["Prevalence", "spam", "classify-and-count"] == naive
    low = f"{data['classify_and_count']['low'][1]:.3f}"
    assert cell["Prevalence", "spam", "classify-and-count low"] == low
    assert cell["Calibration cross-table", "spam", "spam"] == str(data["cross_table"][1][1])


def test_three_classes_and_the_naive_method(tmp_path, capsys):
    rng = np.random.default_rng(5)
    names = np.array(["a", "b", "c"])
    truth = rng.choice(3, 400, p=[0.5, 0.3, 0.2])
    pred = np.where(rng.random(400) < 0.8, truth, rng.integers(0, 3, 400))
    dep = rng.choice(3, 1500, p=[0.2, 0.3, 0.5])
    dep = np.where(rng.random(1500) < 0.8, dep, rng.integers(0, 3, 1500))
    cal, dep_file = _two_files(tmp_path, (names[truth], names[pred]), names[dep])
    argv = ["prevalence", cal, *BASE, "--deploy", dep_file, "--deploy-pred", "label"]
    out = cli_json(capsys, [*argv, "--half-width", 0.1])
    direct = cm.estimate_prevalence(names[truth], names[pred], names[dep], size=500, rng=0)
    assert out["estimate"] == pytest.approx(direct.estimate.tolist(), abs=1e-12)
    assert out["high"] == pytest.approx(direct.high.tolist(), abs=1e-12)
    m = np.array(out["cross_table"])
    need = out["labels_needed"]
    assert np.allclose(need["rates"], m / m.sum(axis=0), rtol=0, atol=1e-15)
    assert need["labels"] == cm.labels_needed(
        0.2, prevalence=direct.estimate, rates=m / m.sum(axis=0), deployment=1500,
        calibration_prevalence=m.sum(axis=0) / m.sum(),
    )  # fmt: skip
    cc = cli_json(capsys, [*argv, "--method", "cc"])
    assert cc["method"] == "classify_and_count"
    assert cc["estimate"] == cc["classify_and_count"]["estimate"]


def test_a_clipped_estimate_says_so(tmp_path, capsys):
    # the deployment set's predicted share is below the false positive rate
    cal = (
        np.array(["ham"] * 50 + ["spam"] * 50),
        np.array(["spam"] * 10 + ["ham"] * 40 + ["spam"] * 45 + ["ham"] * 5),
    )
    dep = np.array(["spam"] * 5 + ["ham"] * 195)
    path = _one_file(tmp_path, cal, dep)
    out = cli_json(capsys, ["prevalence", path, *BASE])
    assert out["clipped"] and out["estimate"][1] == 0.0 and out["raw"][1] < 0
    assert any("was clipped" in n for n in out["notes"])


@pytest.mark.parametrize(
    "body, extra, message",
    [
        ("gold,judge\na,a\nb,b\n", [], "the deployment set (the rows of"),
        ("gold,judge\n,a\n,b\n", [], "is empty on every row"),
        ("gold,judge\na,a\nb,\n,b\n", [], "'judge' has 1 missing value"),
        ("gold,judge\na,a\nb,b\n,c\n", [], "the deployment set's --pred contains label 'c'"),
        ("gold,judge\na,a\nb,b\n,a\n", ["--deploy-pred", "x"], "give --deploy"),
        ("gold,judge\na,a\nb,b\n,a\n", ["--truth", "judge"], "the same column"),
        ("gold,judge\na,a\nb,b\n,a\n", ["--truth", "zz"], "has no column 'zz'"),
        ("gold,judge\na,a\na,a\n,a\n", [], "pass --labels with every class"),
        ("gold,judge\na,a\na,a\n", [], "a prevalence needs two classes or more"),
        ("gold,judge\na,a\nb,b\n,a\n", ["--method", "em"], "needs the judge's probabilities"),
        ("gold,judge\na,a\nb,b\n,a\n", ["--size", "0"], "size"),
        ("gold,judge\na,a\nb,a\n,a\n", [], "cannot be inverted"),
    ],
)
def test_bad_input_is_one_line_and_status_2(tmp_path, capsys, body, extra, message):
    path = tmp_path / "bad.csv"
    path.write_text(body)
    argv = ["prevalence", path, "--truth", "gold", "--pred", "judge", *extra]
    status, out, err = run_cli(capsys, argv)
    assert status == 2 and out == ""
    assert err.startswith("clfmetrics: error: ") and err.count("\n") == 1
    assert message in err


def test_the_two_designs_are_never_mixed(tmp_path, capsys):
    cal, dep = _two_files(tmp_path)
    mixed = _one_file(tmp_path)  # has rows with an empty truth
    argv = ["prevalence", mixed, *BASE, "--deploy", dep, "--deploy-pred", "label"]
    status, out, err = run_cli(capsys, argv)
    assert status == 2 and out == "" and err.count("\n") == 1
    assert "every row of FILE needs its truth" in err
    empty = tmp_path / "empty.csv"
    empty.write_text("label\n")
    status, _, err = run_cli(capsys, ["prevalence", cal, *BASE, "--deploy", empty,
                                   "--deploy-pred", "label"])  # fmt: skip
    assert status == 2 and "has a header but no rows" in err
    missing = tmp_path / "gap.csv"
    missing.write_text("label\nham\n\nspam\nNA\n")
    status, _, err = run_cli(capsys, ["prevalence", cal, *BASE, "--deploy", missing,
                                   "--deploy-pred", "label"])  # fmt: skip
    assert status == 2 and "'label' has 1 missing value" in err and err.count("\n") == 1


SCORED_CAL, SCORED_DEP = scored(400, 0.3, 3), scored(3000, 0.75, 4)[1]


def _proba_file(tmp_path):
    return proba_csv(tmp_path / "scored.csv", SCORED_CAL, SCORED_DEP)


PROBA = ["--truth", "gold", "--proba", "p_spam", "p_ham", "--size", 200]


@pytest.mark.parametrize(
    ("method", "prior"), [("pcc", None), ("pacc", None), ("em", None), ("sld", [0.5, 0.5])]
)
def test_probabilities_equal_the_library(tmp_path, capsys, method, prior):
    extra = [] if prior is None else ["--prior", *prior]
    out = cli_json(capsys, ["prevalence", _proba_file(tmp_path), *PROBA, "--method", method,
                            *extra])  # fmt: skip
    direct = cm.estimate_prevalence(*SCORED_CAL, SCORED_DEP, method=method, size=200, rng=0,
                                    prior=prior)  # fmt: skip
    for key in ("estimate", "low", "high"):
        assert out[key] == pytest.approx(getattr(direct, key).tolist(), abs=1e-12)
    assert out["method"] == direct.method and out["prior"] == prior
    # the naive column counts the most probable class; the cross-table is of it too
    share = np.mean(SCORED_DEP.argmax(axis=1) == 1)
    assert out["classify_and_count"]["estimate"][1] == pytest.approx(share, abs=1e-12)
    truth, p_cal = SCORED_CAL
    both = np.sum((p_cal.argmax(axis=1) == 1) & (truth == "spam"))
    assert out["cross_table"][1][1] == both
    notes = " ".join(out["notes"])
    assert "class spam is column 'p_spam'" in notes
    if method == "pcc":
        assert "no shift since they were calibrated" in notes
        assert "resamples the deployment set alone" in notes
    elif prior is None:
        assert "bootstrap of both samples" in notes
    else:
        assert "--prior 0.5 0.5 (taken as known)" in notes


def test_the_fitting_prior_mends_em_where_the_probabilities_were_fitted_elsewhere(tmp_path, capsys):
    # Probabilities calibrated for equal priors, a hand-labelled sample at 30 % spam:
    # EM from the sample's shares misses the deployment prevalence, from the fitting prior
    # (0.5, 0.5) it does not.
    path, argv = _proba_file(tmp_path), [*PROBA, "--method", "em"]
    shares = cli_json(capsys, ["prevalence", path, *argv])
    fitted = cli_json(capsys, ["prevalence", path, *argv, "--prior", 0.5, 0.5])
    assert fitted["low"][1] <= 0.75 <= fitted["high"][1]
    assert not shares["low"][1] <= 0.75 <= shares["high"][1]


def test_probabilities_in_a_file_of_their_own_give_the_same_numbers(tmp_path, capsys):
    one = cli_json(capsys, ["prevalence", _proba_file(tmp_path), *PROBA])
    assert one["method"] == "probabilistic_adjusted"  # the default with --proba
    truth, p_cal = SCORED_CAL
    cal, dep = tmp_path / "cal.csv", tmp_path / "dep.csv"
    rows = [f"{t},{float(p[0])!r},{float(p[1])!r}\n" for t, p in zip(truth, p_cal, strict=True)]
    cal.write_text("gold,p_ham,p_spam\n" + "".join(rows))
    dep.write_text(
        "ham\tspam\n" + "".join(f"{float(p[0])!r}\t{float(p[1])!r}\n" for p in SCORED_DEP)
    )
    argv = ["prevalence", cal, *PROBA, "--deploy", dep, "--deploy-proba", "spam", "ham"]
    two = cli_json(capsys, argv)
    for key in ("estimate", "low", "high", "classify_and_count", "cross_table"):
        assert two[key] == one[key]
    assert f"{dep} (columns 'ham' 'spam')" in " ".join(two["notes"])


def test_html_is_one_escaped_page_without_script(tmp_path, capsys):
    names = np.array(["<b>ok</b>", "bad & <script>x</script>"])
    truth, pred = CAL
    cal = (names[(truth == "spam").astype(int)], names[(pred == "spam").astype(int)])
    dep = names[(DEP == "spam").astype(int)]
    path = _one_file(tmp_path, cal, dep)
    data = cli_json(capsys, ["prevalence", path, *BASE])
    status, page, err = run_cli(capsys, ["prevalence", path, *BASE, "--format", "html"])
    assert status == 0, err
    assert page.startswith("<!DOCTYPE html>") and "Content-Security-Policy" in page
    assert "<script" not in page and "<b>" not in page and "src=" not in page
    assert "&lt;b&gt;ok&lt;/b&gt;" in page and "bad &amp; &lt;script&gt;" in page
    row = f"{data['estimate'][1]:.3f}</td><td>{data['low'][1]:.3f}</td>"
    assert row in page


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--proba", "p_spam"], "--proba names 1 columns, but there are 2 classes"),
        (["--proba", "p_spam", "p_spam"], "names a column twice"),
        (["--proba", "p_spam", "p_ham", "--prior", 0.5, 0.5], "--method is probabilistic_adj"),
        (["--proba", "p_spam", "p_ham", "--method", "em", "--prior", 0.5], "2 numbers"),
        (["--proba", "p_spam", "p_ham", "--method", "em", "--prior", 0.7, 0.7], "sum to 1"),
        (["--proba", "p_spam", "p_ham", "--deploy-proba", "a", "b"], "give --deploy"),
        (["--pred", "judge", "--deploy-proba", "a", "b", "--deploy", "x"], "give --proba"),
        (["--proba", "p_spam", "p_ham", "--pred", "judge"], "not allowed with argument"),
        (["--proba", "p_spam", "p_gap"], "'p_gap' has 1 missing value"),
        (["--proba", "q1", "q2"], "line 3: the --proba columns sum to 1.5, not 1"),
        (["--proba", "p_spam", "p_word"], "holds 'high', not a number"),
        (["--proba", "gold", "p_ham"], "also one of the --proba columns"),
    ],
)
def test_bad_probabilities_are_one_line_and_status_2(tmp_path, capsys, extra, message):
    path = tmp_path / "bad.csv"
    path.write_text(
        "gold,judge,p_spam,p_ham,p_gap,q1,q2,p_word\n"
        "ham,ham,0.2,0.8,0.8,0.2,0.8,0.8\nspam,spam,0.7,0.3,0.3,0.7,0.8,0.3\n"
        ",ham,0.4,0.6,,0.4,0.6,high\n"
    )
    status, out, err = run_cli(capsys, ["prevalence", path, "--truth", "gold", *extra])
    assert status == 2 and out == ""
    assert err.startswith("clfmetrics: error: ") and err.count("\n") == 1, err
    assert message in err


def test_labels_order_the_probability_columns_of_integer_classes(tmp_path, capsys):
    path = tmp_path / "ints.csv"
    path.write_text(
        "gold,p_0,p_1\n0,0.8,0.2\n1,0.3,0.7\n0,0.6,0.4\n1,0.2,0.8\n,0.5,0.5\n,0.1,0.9\n"
    )
    argv = ["prevalence", path, "--truth", "gold", "--proba", "p_0", "p_1", "--size", 50]
    out = cli_json(capsys, [*argv, "--method", "pcc", "--labels", 1, 0])
    assert out["labels"] == ["1", "0"]  # matched by name: class 1 is column p_1
    assert out["estimate"] == pytest.approx([0.7, 0.3], abs=1e-12)
    status, _, err = run_cli(capsys, [*argv, "--labels", 1, 2])
    assert status == 2 and "the truth 0 is not one of --labels 1 2" in err


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            "\ufeffp_ham;p_spam\r\n0.3;0.7\r\nNA;0.5\r\n",
            "line 3: column 'p_ham' has a missing value",
        ),
        ("p_ham;p_spam\n0.3;0.7\n0.1;0.9;3\n", "1 row (line 3) has a number of fields"),
        ("p_ham;p_spam\n0.3;0.7\nlow;0.9\n", "line 3: column 'p_ham' holds 'low', not a number"),
        ("p_ham;p_spam\n0.3;0.7\n0.3;0.9\n", "item 2: the --proba columns sum to 1.2, not 1"),
        ("p_ham;p_spam\n", "has a header but no rows"),
        ("p_spam\n0.7\n", "has no column 'p_ham'"),
    ],
)
def test_a_bad_probability_file_of_its_own_is_one_line(tmp_path, capsys, body, message):
    cal, dep = tmp_path / "cal.csv", tmp_path / "dep.csv"
    cal.write_text("gold,p_ham,p_spam\nham,0.8,0.2\nspam,0.3,0.7\nham,0.6,0.4\n")
    dep.write_bytes(body.encode("utf-8"))
    argv = ["prevalence", cal, "--truth", "gold", "--proba", "p_ham", "p_spam", "--deploy", dep]
    status, out, err = run_cli(capsys, argv)
    assert status == 2 and out == "" and err.count("\n") == 1, err
    assert message in err
