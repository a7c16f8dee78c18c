"""Labels that differ only in whitespace: the command line follows the rule of report().

``clfmetrics.report(["yes", "yes "], ...)`` keeps two classes and raises ``LabelWarning``;
the command line keeps them too, and warns with the same words, on every reader path:
the streaming row reader (counted, and per row with ``--scores``), DuckDB's counts of a CSV
and of a Parquet file, and Parquet read row by row through DuckDB. ``--strip-labels``
merges them on every path, and the report says it did.
"""

from __future__ import annotations

import json
import warnings
from collections import Counter

import numpy as np
import pytest

import clfmetrics
from clfmetrics.io import _cli as cli
from clfmetrics.io import run
from clfmetrics.io._stream import read_columns

#: (gold, model, score): "yes"/"yes " and "no"/" no" (quoted in the file, as a writer quotes).
ROWS = [
    ("yes", "yes", 0.9),
    ("yes ", "yes", 0.8),
    ("no", " no", 0.2),
    ("no", "no", 0.1),
    ("yes", "no", 0.4),
    ("yes ", "yes", 0.7),
    ("no", "no", 0.3),
    ("no", "yes", 0.6),
    (" no", "no", 0.35),
    ("yes", "yes ", 0.65),
] * 3


def _csv(tmp_path, rows=ROWS, name="ws.csv"):
    path = tmp_path / name
    path.write_text(
        "gold,model,other,s,q0,q1,q2,q3\n"
        + "".join(f'"{g}","{m}","{g}",{s},0.1,0.2,0.3,0.4\n' for g, m, s in rows)
    )
    return path


def _parquet(tmp_path, csv_path):
    duckdb = pytest.importorskip("duckdb")  # in requirements.txt: installed wherever tests run
    path = tmp_path / "ws.parquet"
    src = f"read_csv('{csv_path}', all_varchar=true, quote='\"')"
    duckdb.execute(f"COPY (SELECT * FROM {src}) TO '{path}' (FORMAT parquet)")
    return path


def _json(capsys, argv, engine=True, monkeypatch=None):
    """The report as JSON; ``engine``: True (DuckDB, but a small CSV file with notes is
    reread by rows), "always" (DuckDB's counts whatever the size), False (no DuckDB)."""
    if not engine:
        monkeypatch.setattr(cli, "duckdb_installed", lambda: False)
    if engine == "always":
        monkeypatch.setattr(cli, "SMALL_CSV", 0)
    status = run([*argv, "--json", "--size", "100"])
    if engine is not True:
        monkeypatch.undo()
    out, err = capsys.readouterr()
    assert status == 0, err
    return json.loads(out)


def _api():
    """report() on the same labels: its classes and its LabelWarning."""
    gold, model = [r[0] for r in ROWS], [r[1] for r in ROWS]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rep = clfmetrics.report(gold, model, size=100)
    raised = [str(w.message) for w in caught if issubclass(w.category, clfmetrics.LabelWarning)]
    assert len(raised) == 1
    return rep, raised[0]


def _paths(tmp_path, scored):
    """(name, argv, engine) for every reader path the command line takes; ``scored``: the
    score options of the per-row paths (four classes need --proba, two take --scores)."""
    csv_path = _csv(tmp_path)
    parquet = _parquet(tmp_path, csv_path)
    head = ["--truth", "gold", "--pred", "model"]
    return [
        ("row reader, counted", ["report", str(csv_path), *head], False),
        ("DuckDB counts of the CSV", ["report", str(csv_path), *head], True),
        ("DuckDB counts of a large CSV", ["report", str(csv_path), *head], "always"),
        ("DuckDB counts of the Parquet file", ["report", str(parquet), *head], True),
        ("row reader, per row", ["report", str(csv_path), *head, *scored], False),
        ("Parquet row by row", ["report", str(parquet), *head, *scored], True),
    ]


def test_the_whitespace_file_keeps_report_s_classes_and_warning_on_every_path(
    tmp_path, capsys, monkeypatch
):
    rep, warning = _api()
    assert rep.labels == [" no", "no", "yes", "yes "]
    for name, argv, engine in _paths(tmp_path, ["--proba", "q0", "q1", "q2", "q3"]):
        got = _json(capsys, argv, engine, monkeypatch)
        assert got["labels"] == rep.labels, name
        assert got["matrix"] == rep.matrix.tolist(), name
        first = [w for w in got["warnings"] if w.startswith("labels that differ only")]
        assert len(first) == 1, name
        # report()'s own words, then the option that would merge them
        assert first[0].startswith(warning), name
        assert first[0].endswith("pass --strip-labels to remove the whitespace around every label")
        assert not any(w.startswith("--strip-labels:") for w in got["warnings"]), name


def test_the_comparison_keeps_them_too(tmp_path, capsys, monkeypatch):
    csv_path = _csv(tmp_path)
    argv = ["report", str(csv_path), "--truth", "gold", "--pred", "model", "--pred", "other"]
    for engine in (False, True):
        got = _json(capsys, argv, engine, monkeypatch)
        assert got["labels"] == [" no", "no", "yes", "yes "]
        assert any("'yes' and 'yes '" in w for w in got["warnings"])


def test_strip_labels_merges_them_on_every_path_and_says_so(tmp_path, capsys, monkeypatch):
    stripped = [(g.strip(), m.strip(), s) for g, m, s in ROWS]
    want = clfmetrics.report([r[0] for r in stripped], [r[1] for r in stripped], size=100)
    results = []
    for name, argv, engine in _paths(tmp_path, ["--scores", "s"]):
        got = _json(capsys, [*argv, "--strip-labels"], engine, monkeypatch)
        assert got["labels"] == ["no", "yes"], name
        assert got["matrix"] == want.matrix.tolist(), name
        assert got["warnings"][0] == (
            "--strip-labels: the whitespace around labels was removed, so labels that differ "
            "only in it are one class: ' no' as 'no', 'yes ' as 'yes'"
        ), name
        assert not any(w.startswith("labels that differ only") for w in got["warnings"]), name
        results.append(got["metrics"])
    assert all(r == results[0] for r in results[:4])  # the counted paths: the same numbers
    clean = _csv(tmp_path, stripped, "clean.csv")
    argv = ["report", str(clean), "--truth", "gold", "--pred", "model", "--strip-labels"]
    got = _json(capsys, argv, False, monkeypatch)
    assert got["warnings"][0] == (
        "--strip-labels: no label had whitespace around it; nothing was stripped"
    )


def test_the_text_report_names_what_was_stripped(tmp_path, capsys):
    path = _csv(tmp_path)
    argv = ["report", str(path), "--truth", "gold", "--pred", "model", "--size", "100"]
    assert run([*argv, "--strip-labels"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "--strip-labels: the whitespace around labels was removed" in text
    assert "predicted \\ true no yes total" in text


def test_integers_with_whitespace_are_not_merged_silently(tmp_path, capsys, monkeypatch):
    path = tmp_path / "ints.csv"
    path.write_text("gold,model\n" + '10,10\n"10 ",10\n2,2\n2," 2"\n10,2\n' * 4)
    argv = ["report", str(path), "--truth", "gold", "--pred", "model"]
    for engine in (False, True):
        got = _json(capsys, argv, engine, monkeypatch)
        assert got["labels"] == [" 2", "2", "10", "10 "]  # four classes, as report() keeps
        assert any(w.startswith("labels that differ only") for w in got["warnings"])
        got = _json(capsys, [*argv, "--strip-labels"], engine, monkeypatch)
        assert got["labels"] == ["2", "10"]  # stripped first: integer labels, sorted as numbers


def test_a_blank_cell_is_missing_whether_or_not_labels_are_stripped(tmp_path, capsys):
    path = tmp_path / "blank.csv"
    path.write_text("gold,model\na,a\n ,b\nb, NA \n")
    for extra in ([], ["--strip-labels"]):
        assert run(["report", str(path), "--truth", "gold", "--pred", "model", *extra]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "column 'gold' has 1 missing value (' ') on line 3" in err


def test_the_streaming_reader_strips_only_when_asked(tmp_path):
    path = _csv(tmp_path)
    for batch in (2, 7, 65_536):
        cols = read_columns(str(path), ["gold", "model"], ["s"], batch=batch)
        assert cols.classes == [" no", "no", "yes", "yes "]
        assert cols.labels["gold"].tolist() == [r[0] for r in ROWS]
        cols = read_columns(str(path), ["gold", "model"], ["s"], batch=batch, strip=True)
        assert cols.classes == ["no", "yes"]
        assert cols.labels["gold"].tolist() == [r[0].strip() for r in ROWS]
        np.testing.assert_array_equal(cols.numbers["s"], [r[2] for r in ROWS])


@pytest.mark.parametrize("strip", [False, True])
def test_the_streaming_reader_equals_the_in_memory_reference(tmp_path, strip):
    from csv_reference import read_columns as in_memory

    path = _csv(tmp_path)
    for numbers in (["s"], []):
        ref = in_memory(str(path), ["gold", "model"], numbers, strip=strip)
        got = read_columns(str(path), ["gold", "model"], numbers, batch=3, strip=strip)
        assert got.classes == ref.classes and got.warnings == ref.warnings
        if numbers:
            assert {n: v.tolist() for n, v in got.labels.items()} == {
                n: v.tolist() for n, v in ref.labels.items()
            }
        else:  # counted: each combination's rows
            pairs = zip(got.labels["gold"].tolist(), got.labels["model"].tolist(), strict=True)
            counted = Counter(dict(zip(pairs, got.counts.tolist(), strict=True)))
            rows = zip(ref.labels["gold"].tolist(), ref.labels["model"].tolist(), strict=True)
            assert counted == Counter(rows)


def test_messages_quote_classes_that_whitespace_tells_apart(tmp_path, capsys):
    path = _csv(tmp_path)
    assert run(["report", str(path), "--truth", "gold", "--pred", "model", "--scores", "s"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "there are 4 (' no' 'no' 'yes' 'yes ')" in err
    assert err.rstrip().endswith(
        "some classes differ only in whitespace around them: --strip-labels merges them"
    )
    argv = ["report", str(path), "--truth", "gold", "--pred", "model", "--proba", "q0", "q1"]
    assert run(argv) == 2
    err = capsys.readouterr().err
    assert "--proba names 2 columns, but there are 4 classes (' no' 'no' 'yes' 'yes ')" in err
    assert "--strip-labels merges them" in err
    assert run([*argv[:-3], "--scores", "s", "--strip-labels", "--size", "50"]) == 0
