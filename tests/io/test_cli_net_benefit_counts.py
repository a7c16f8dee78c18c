"""--net-benefit through DuckDB's counts: on a file of SCORE_ROWS rows or more the decision
curve comes from counts per (class, prediction, threshold reached), equal to the row
reader's (to 1e-12, the same band for the same seed) with the same matrix metrics; with two
--pred/--scores the paired difference in net benefit comes from counts per (class, pair of
predictions, pair of bins), equal to the row reader's in the same way and in every format;
bad scores get one line. ``SCORE_ROWS`` (and ``SMALL_CSV``) are lowered so that small files
take the path a file of 10**7 rows takes."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

import clfmetrics as cm
from clfmetrics.io import _cli as cli
from clfmetrics.io import run
from clfmetrics.reporting import parse_thresholds

pytest.importorskip("duckdb")  # pinned in requirements.txt: present in make test

N, SIZE = 2000, "200"
CURVE = ("net_benefit", "low", "high", "pointwise_low", "pointwise_high", "treat_all",
         "standardized", "interventions_avoided")  # fmt: skip


def _frame(seed=36, n=N):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    # Risks with ties (3 decimals) and values equal to thresholds, 0 and 1 among them.
    s = np.round(np.clip(0.3 * y + 0.7 * rng.random(n), 0, 1), 3)
    s[:4] = [0.0, 1.0, 0.05, 0.35]
    names = np.array(["healthy", "ill"])
    return names[y], names[(s >= 0.3).astype(int)], s


def _write(tmp_path, kind: str, truth, pred, s, *, float32=False):
    import duckdb

    csv = tmp_path / "scored.csv"
    csv.write_text(
        "gold,flag,risk\n"
        + "".join(f"{t},{p},{x!r}\n" for t, p, x in zip(truth, pred, s.tolist(), strict=True))
    )
    if kind == "csv":
        return csv
    path = tmp_path / "scored.parquet"
    cast = "CAST(risk AS FLOAT)" if float32 else "CAST(risk AS DOUBLE)"
    duckdb.execute(
        f"COPY (SELECT gold, flag, {cast} AS risk FROM read_csv('{csv}', header=true, "
        f"all_varchar=true)) TO '{path}' (FORMAT parquet)"
    )
    return path


def _json(capsys, *argv):
    status = run(["report", *map(str, argv), "--size", SIZE, "--json", "--seed", "5"])
    captured = capsys.readouterr()
    assert status == 0, captured.err
    return json.loads(captured.out)


def _fails(capsys, *argv) -> str:
    status = run(["report", *map(str, argv), "--size", SIZE])
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1 and err.startswith("clfmetrics: error: "), err
    return err


@pytest.fixture
def counted(monkeypatch):
    """Every file DuckDB reads takes the counts path (as one of 10**7 rows would)."""
    monkeypatch.setattr(cli, "SCORE_ROWS", 0)
    monkeypatch.setattr(cli, "SMALL_CSV", 0)


def _both(capsys, monkeypatch, path, *extra):
    argv = [path, "--truth", "gold", "--pred", "flag", "--scores", "risk", *extra]
    rows = _json(capsys, *argv)
    monkeypatch.setattr(cli, "SCORE_ROWS", 0)
    monkeypatch.setattr(cli, "SMALL_CSV", 0)
    counts = _json(capsys, *argv)
    return rows, counts


@pytest.mark.parametrize(
    ("kind", "thresholds"),
    [("parquet", "0.05:0.35"), ("parquet", "0.5,0.05,0.2,0.2"), ("csv", "0.01:0.99:0.07")],
)
def test_the_counts_path_equals_the_row_reader(tmp_path, capsys, monkeypatch, kind, thresholds):
    truth, pred, s = _frame()
    path = _write(tmp_path, kind, truth, pred, s)
    rows, counts = _both(capsys, monkeypatch, path, "--net-benefit", thresholds)
    assert rows["scores"] is not None and counts["scores"] is None  # the row reader's only
    a, b = rows["decision_curve"], counts["decision_curve"]
    assert a["threshold"] == b["threshold"]
    assert (a["positive"], a["size"], a["prevalence"]) == (
        b["positive"],
        b["size"],
        b["prevalence"],
    )
    for key in CURVE:
        assert np.allclose(a[key], b[key], rtol=0, atol=1e-12), key
    # the matrix's metrics: the same matrix and resamples
    for key in ("matrix", "metrics", "binary_rates", "n_items"):
        assert counts[key] == rows[key], key
    assert any("score summaries" in w and "DuckDB counted" in w for w in counts["warnings"])
    # and the library's decision curve of the items themselves
    curve = cm.decision_curve(truth == "ill", s, parse_thresholds(thresholds), size=200, rng=5)
    assert np.allclose(b["net_benefit"], curve.net_benefit, rtol=0, atol=1e-12)


def test_a_single_precision_parquet_column_is_read_as_the_row_reader_reads_it(
    tmp_path, capsys, monkeypatch
):
    truth, pred, s = _frame(7)
    path = _write(tmp_path, "parquet", truth, pred, s, float32=True)
    rows, counts = _both(capsys, monkeypatch, path, "--net-benefit", "0.1:0.4", "--pos-label",
                         "ill")  # fmt: skip
    for key in CURVE:
        assert np.allclose(rows["decision_curve"][key], counts["decision_curve"][key],
                           rtol=0, atol=1e-12), key  # fmt: skip


def test_the_other_positive_class(tmp_path, capsys, monkeypatch):
    truth, pred, s = _frame(8)
    path = _write(tmp_path, "parquet", truth, pred, 1 - s)
    rows, counts = _both(capsys, monkeypatch, path, "--net-benefit", "0.2,0.4", "--pos-label",
                         "healthy")  # fmt: skip
    assert counts["decision_curve"]["positive"] == "healthy"
    assert np.allclose(rows["decision_curve"]["net_benefit"],
                       counts["decision_curve"]["net_benefit"], rtol=0, atol=1e-12)  # fmt: skip


def test_every_format_and_text(tmp_path, capsys, counted):
    truth, pred, s = _frame()
    path = _write(tmp_path, "parquet", truth, pred, s)
    for fmt in ("text", "html"):  # (markdown and CSV render the same sections)
        argv = [path, "--truth", "gold", "--pred", "flag", "--scores", "risk"]
        status = run(["report", *map(str, argv), "--net-benefit", "0.05:0.35", "--size", SIZE,
                      "--format", fmt])  # fmt: skip
        out = capsys.readouterr().out
        assert status == 0 and "0.35" in out and "net benefit" in out.lower(), fmt


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({5: "1.5"}, "must be predicted risks (probabilities in [0, 1])"),
        ({5: "-0.1"}, "got -0.1"),
        ({5: "high"}, "1 value that is not a finite number"),
        ({5: "nan", 6: "inf"}, "2 values that are not a finite number"),
        ({5: ""}, "1 missing value"),
    ],
)
def test_bad_scores_one_line(tmp_path, capsys, counted, values, message):
    truth, pred, s = _frame()
    text = [f"{x!r}" for x in s.tolist()]
    for i, v in values.items():
        text[i] = v
    path = tmp_path / "bad.csv"
    path.write_text("gold,flag,risk\n" + "".join(
        f"{t},{p},{x}\n" for t, p, x in zip(truth, pred, text, strict=True)))  # fmt: skip
    err = _fails(capsys, path, "--truth", "gold", "--pred", "flag", "--scores", "risk",
                 "--net-benefit", "0.1,0.2")  # fmt: skip
    assert message in err, err


def test_na_drop_skips_rows_without_a_score(tmp_path, capsys, monkeypatch):
    truth, pred, s = _frame()
    text = [f"{x!r}" for x in s.tolist()]
    text[9] = ""
    path = tmp_path / "gap.csv"
    path.write_text("gold,flag,risk\n" + "".join(
        f"{t},{p},{x}\n" for t, p, x in zip(truth, pred, text, strict=True)))  # fmt: skip
    rows, counts = _both(capsys, monkeypatch, path, "--net-benefit", "0.1,0.3", "--na", "drop")
    assert counts["n_items"] == rows["n_items"] == N - 1
    assert np.allclose(rows["decision_curve"]["high"], counts["decision_curve"]["high"],
                       rtol=0, atol=1e-12)  # fmt: skip


def test_below_score_rows_the_row_reader_reports_the_scores(tmp_path, capsys):
    truth, pred, s = _frame()
    path = _write(tmp_path, "parquet", truth, pred, s)
    data = _json(capsys, path, "--truth", "gold", "--pred", "flag", "--scores", "risk",
                 "--net-benefit", "0.1,0.3")  # fmt: skip
    assert data["scores"] is not None and not any("DuckDB counted" in w for w in data["warnings"])


def test_report_from_counts_checks_its_arguments():
    with pytest.raises(ValueError, match="net_benefit needs scores"):
        cm.report_from_counts([0, 1], [0, 1], [3, 4], net_benefit=[0.2], size=10)
    with pytest.raises(ValueError, match="read only with net_benefit"):
        cm.report_from_counts([0, 1], [0, 1], [3, 4], scores=[0.1, 0.9], size=10)
    with pytest.raises(ValueError, match="two classes"):
        cm.report_from_counts([0, 1, 2], [0, 1, 2], [3, 4, 5], scores=[0.1, 0.9, 0.5],
                              net_benefit=[0.2], size=10)  # fmt: skip
    with pytest.raises(ValueError, match="pos_label=5"):
        cm.report_from_counts([0, 1], [0, 1], [3, 4], scores=[0.1, 0.9], net_benefit=[0.2],
                              pos_label=5, size=10)  # fmt: skip


def test_the_classes_are_checked_as_on_the_row_reader(tmp_path, capsys, counted):
    truth, pred, s = _frame()
    truth[:5] = "unsure"  # a third class
    path = _write(tmp_path, "parquet", truth, pred, s)
    argv = [path, "--truth", "gold", "--pred", "flag", "--scores", "risk", "--net-benefit", "0.2"]
    assert "for a task of two classes; there are 3" in _fails(capsys, *argv)
    path = _write(tmp_path, "parquet", *_frame())
    assert "--pos-label sick is not one of the classes" in _fails(
        capsys, path, *argv[1:], "--pos-label", "sick"
    )


def test_decimal_commas(tmp_path, capsys, monkeypatch):
    truth, pred, s = _frame(9)
    path = tmp_path / "comma.csv"
    path.write_text("gold;flag;risk\n" + "".join(
        f"{t};{p};{x!r}\n".replace(".", ",") for t, p, x in zip(truth, pred, s.tolist(),
                                                                 strict=True)))  # fmt: skip
    rows, counts = _both(capsys, monkeypatch, path, "--net-benefit", "0.1,0.3", "--decimal", ",")
    assert counts["scores"] is None
    assert np.allclose(rows["decision_curve"]["low"], counts["decision_curve"]["low"],
                       rtol=0, atol=1e-12)  # fmt: skip


# Two systems: the paired difference in net benefit from the joint bins of the two scores.

DIFFERENCE = ("difference", "net_benefit_a", "net_benefit_b", "low", "high", "pointwise_low",
              "pointwise_high")  # fmt: skip
TWO = ["--truth", "gold", "--pred", "lr", "--scores", "p_lr", "--pred", "rf", "--scores", "p_rf"]


def _two(seed=36, n=N):
    """Two correlated systems' risks (ties, values at the thresholds, 0 and 1 among them)."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    shared = rng.random(n)
    a = np.round(np.clip(0.3 * y + 0.5 * shared + 0.2 * rng.random(n), 0, 1), 3)
    b = np.round(np.clip(0.2 * y + 0.5 * shared + 0.3 * rng.random(n), 0, 1), 2)
    a[:4], b[:4] = [0.0, 1.0, 0.05, 0.35], [0.35, 0.0, 1.0, 0.1]
    return y, a, b


def _write_two(tmp_path, kind, y, a, b, names=("healthy", "ill")):
    import duckdb

    label = np.array(names)
    csv = tmp_path / "two.csv"
    rows = zip(label[y], label[(a >= 0.3).astype(int)], a.tolist(), label[(b >= 0.4).astype(int)],
               b.tolist(), strict=True)  # fmt: skip
    csv.write_text("gold,lr,p_lr,rf,p_rf\n" + "".join(
        f"{t},{pa},{x!r},{pb},{z!r}\n" for t, pa, x, pb, z in rows))  # fmt: skip
    if kind == "csv":
        return csv
    path = tmp_path / "two.parquet"
    duckdb.execute(
        f"COPY (SELECT gold, lr, CAST(p_lr AS DOUBLE) AS p_lr, rf, CAST(p_rf AS DOUBLE) AS p_rf "
        f"FROM read_csv('{csv}', header=true, all_varchar=true)) TO '{path}' (FORMAT parquet)"
    )
    return path


def _same_difference(rows, counts):
    a, b = rows["net_benefit_difference"], counts["net_benefit_difference"]
    for key in ("threshold", "positive", "systems", "level", "size", "band"):
        assert a[key] == b[key], key
    for key in DIFFERENCE:
        assert np.allclose(a[key], b[key], rtol=0, atol=1e-12), key


@pytest.mark.parametrize(
    ("kind", "thresholds"), [("parquet", "0.05:0.35"), ("csv", "0.5,0.05,0.2,0.35")]
)
def test_two_systems_the_counts_path_equals_the_row_reader(
    tmp_path, capsys, monkeypatch, kind, thresholds
):
    y, a, b = _two()
    path = _write_two(tmp_path, kind, y, a, b)
    rows = _json(capsys, path, *TWO, "--net-benefit", thresholds)
    monkeypatch.setattr(cli, "SCORE_ROWS", 0)
    monkeypatch.setattr(cli, "SMALL_CSV", 0)
    counts = _json(capsys, path, *TWO, "--net-benefit", thresholds)
    assert rows["scores"] is not None and counts["scores"] is None  # the row reader's only
    _same_difference(rows, counts)
    # the matrix's metrics and tests: the same joint cells and resamples
    for key in ("metrics", "mcnemar", "n_items", "systems", "labels"):
        assert counts[key] == rows[key], key
    assert any("ROC AUC comparison" in w and "DuckDB counted" in w for w in counts["warnings"])
    # and the library's paired difference of the items themselves, band and all
    d = cm.net_benefit_difference(y == 1, a, b, parse_thresholds(thresholds), size=200, rng=5)
    for key in DIFFERENCE:
        assert np.allclose(counts["net_benefit_difference"][key], getattr(d, key), rtol=0,
                           atol=1e-12), key  # fmt: skip


#: Where the two paths' outputs differ by design: the row reader's ROC AUC section, and the
#: counts path's warning that it is left out (the row reader has none here).
_ROC_SECTION = {
    "text": r"ROC AUC \(scores.*?\n\n",
    "markdown": r"## ROC AUC \(scores.*?\n\n(?=## )",
    "csv": r"(?m)^ROC AUC,[^\n]*\n",
    "html": r"<section><h2>ROC AUC \(scores.*?</section>\n",
}
_LEFT_OUT = r"\"?the ROC AUC comparison \(each system.*?a random sample\s+of the rows\"?"


@pytest.mark.parametrize("fmt", ["text", "markdown", "csv", "html"])
def test_two_systems_every_format_as_the_row_reader(tmp_path, capsys, monkeypatch, fmt):
    y, a, b = _two(11, 600)
    path = _write_two(tmp_path, "parquet", y, a, b)
    argv = ["report", str(path), *TWO, "--net-benefit", "0.1:0.3:0.05", "--size", SIZE,
            "--format", fmt]  # fmt: skip
    outputs = []
    for score_rows in (cli.SCORE_ROWS, 0):
        monkeypatch.setattr(cli, "SCORE_ROWS", score_rows)
        assert run(argv) == 0
        outputs.append(capsys.readouterr().out)
    rows, counts = outputs
    assert "Net benefit difference (lr - rf" in counts
    roc = re.compile(_ROC_SECTION[fmt], re.S)
    assert roc.search(rows) and not roc.search(counts)
    assert re.search(_LEFT_OUT, counts, re.S) and not re.search(_LEFT_OUT, rows, re.S)
    if fmt == "html":  # the difference's figure on both
        assert counts.count('id="nb-difference') == rows.count('id="nb-difference') > 0
    assert re.sub(_LEFT_OUT, "none", counts, flags=re.S) == roc.sub("", rows)


def test_two_systems_the_other_positive_class_and_na_drop(tmp_path, capsys, monkeypatch):
    y, a, b = _two(8)
    path = _write_two(tmp_path, "csv", y, 1 - a, 1 - b)
    lines = path.read_text().splitlines(keepends=True)
    lines[10] = ",".join(lines[10].split(",")[:-1]) + ",\n"  # a missing second score
    path.write_text("".join(lines))
    argv = [path, *TWO, "--net-benefit", "0.2,0.4", "--pos-label", "healthy", "--na", "drop"]
    rows = _json(capsys, *argv)
    monkeypatch.setattr(cli, "SCORE_ROWS", 0)
    monkeypatch.setattr(cli, "SMALL_CSV", 0)
    counts = _json(capsys, *argv)
    assert counts["net_benefit_difference"]["positive"] == "healthy"
    assert counts["n_items"] == rows["n_items"] == N - 1
    _same_difference(rows, counts)


def test_two_systems_a_bad_second_score_one_line(tmp_path, capsys, counted):
    y, a, b = _two()
    path = _write_two(tmp_path, "csv", y, a, b)
    text = path.read_text().replace(f",{b.tolist()[7]!r}\n", ",1.5\n", 1)
    path.write_text(text)
    err = _fails(capsys, path, *TWO, "--net-benefit", "0.1,0.2")
    assert "--scores p_rf must be predicted risks" in err and "got 1.5" in err, err


def test_compare_from_counts_checks_its_arguments():
    args = ([0, 0, 1, 1], [0, 1, 0, 1], [0, 0, 1, 1], [3, 4, 5, 6])
    risks = ([0.1, 0.2, 0.3, 0.4], [0.4, 0.3, 0.2, 0.1])
    with pytest.raises(ValueError, match="net_benefit needs scores"):
        cm.compare_from_counts(*args, net_benefit=[0.2], size=10)
    with pytest.raises(ValueError, match="read only with net_benefit"):
        cm.compare_from_counts(*args, scores=risks, size=10)
    with pytest.raises(ValueError, match="a pair"):
        cm.compare_from_counts(*args, scores=risks[0], net_benefit=[0.2], size=10)
    with pytest.raises(ValueError, match="pos_label=5"):
        cm.compare_from_counts(*args, scores=risks, net_benefit=[0.2], pos_label=5, size=10)
    with pytest.raises(ValueError, match="two classes"):
        cm.compare_from_counts([0, 1, 2, 2], *args[1:], scores=risks, net_benefit=[0.2],
                               size=10)  # fmt: skip
    with pytest.raises(ValueError, match="scores_b differ in length"):
        cm.compare_from_counts(*args, scores=(risks[0], risks[1][:3]), net_benefit=[0.2],
                               size=10)  # fmt: skip
