"""--net-benefit through DuckDB's counts: on a file of SCORE_ROWS rows or more the decision
curve comes from counts per (class, prediction, threshold reached), equal to the row
reader's (to 1e-12, the same band for the same seed) with the same matrix metrics; bad
scores get one line. ``SCORE_ROWS`` (and ``SMALL_CSV``) are lowered so that small files
take the path a file of 10**7 rows takes."""

from __future__ import annotations

import json

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
