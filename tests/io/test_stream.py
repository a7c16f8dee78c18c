"""Issue 26, bounded memory: chunked resampling, class-sum metrics, the streaming reader."""

from __future__ import annotations

import numpy as np
import pytest
from csv_reference import read_columns as in_memory

import clfmetrics as cm
from clfmetrics.inference import _bootstrap as _chunked
from clfmetrics.inference._interval import centred_on_estimate
from clfmetrics.inference._uncertainty import interval_of_stack, resample_matrix
from clfmetrics.io._stream import read_columns as streaming
from clfmetrics.metrics import CLASS_SUM_FORMS, registry


def _sample(n, items, seed=0, skew=0.6):
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, n, items)
    pred = np.where(rng.random(items) < skew, truth, rng.integers(0, n, items))
    return truth, pred


@pytest.mark.parametrize("n", [9, 12, 40])
def test_class_sum_metrics_are_the_matrix_metrics_bit_for_bit(n):
    rng = np.random.default_rng(n)
    stack = rng.multinomial(3 * n, np.full(n * n, 1 / n**2), size=300).reshape(300, n, n)
    stack[:50, 0, :] = 0  # class 0 never predicted
    stack[50:100, :, 1] = 0  # class 1 never occurs
    b, p, c = (stack.sum(axis=-1), stack.sum(axis=-2), np.diagonal(stack, 0, -2, -1))
    from clfmetrics.inference._bootstrap import scores, undefined_mask, values_and_undefined

    for name, f in registry().items():
        want = scores(f, stack)
        got, undefined = values_and_undefined(f, tuple(x.astype(np.float64) for x in (b, p, c)))
        assert got.tobytes() == want.tobytes(), name
        assert np.array_equal(undefined, undefined_mask(f, stack, want)), name
    assert set(CLASS_SUM_FORMS) == set(registry().values())


def test_every_metric_of_a_matrix_is_its_class_sum_form():
    """The function of a matrix is the class-sum form on the matrix's sums: one definition."""
    rng = np.random.default_rng(1)
    stack = rng.random((60, 4, 4)) ** 3
    stack[:10, 0, :] = 0  # class 0 never predicted
    stack[10:20, :, 2] = 0  # class 2 never occurs
    sums = cm.metrics.ClassSums(stack)
    for name, f in registry().items():
        form = CLASS_SUM_FORMS[f]
        for zero_division, fill in ((0, 0.0), (1, 1.0), ("nan", np.nan)):
            with np.errstate(invalid="ignore"):
                want = form(sums, fill)
            try:
                got = f(stack, zero_division=zero_division)
            except TypeError:  # the micro averages fill nothing
                got = f(stack)
            assert np.asarray(got).tobytes() == np.asarray(want).tobytes(), (name, fill)


def _tiny_budget(monkeypatch, n, width, rows=97):
    """A chunk budget of ``rows`` resamples (a few chunks, not hundreds: the test stays quick)."""
    margins = _chunked.by_margins(registry().values(), n)
    monkeypatch.setattr(_chunked, "CHUNK_BYTES", rows * _chunked.per_resample(n, width, margins))


@pytest.mark.parametrize("n", [3, 12])
def test_chunked_report_equals_unchunked_byte_for_byte(n, monkeypatch):
    truth, pred = _sample(n, 200)
    whole = cm.report(truth, pred, size=700, rng=5).to_json()
    width = np.unique(pred * n + truth).size
    _tiny_budget(monkeypatch, n, width)
    rows = _chunked.chunk_rows(n, width, 700, _chunked.by_margins(registry().values(), n))
    assert rows == 97  # the budget really splits the resamples, unevenly
    assert cm.report(truth, pred, size=700, rng=5).to_json() == whole


@pytest.mark.parametrize("n", [3, 12])
def test_chunked_intervals_equal_the_whole_stack(n, monkeypatch):
    # The chunked path (class sums from 9 classes on) against the one (size, n, n) stack.
    truth, pred = _sample(n, 300, seed=2)
    m = cm.confusion_matrix(truth, pred).astype(np.float64)
    _tiny_budget(monkeypatch, n, np.count_nonzero(m))
    got = cm.report(truth, pred, size=500, rng=3).intervals
    stack = resample_matrix(m, 500, np.random.default_rng(3))
    for name, f in registry().items():
        # The report centres an interval that excludes its estimate (delta_f1 here).
        lower = -1.0 if name in ("kappa", "mcc") else 0.0
        want = centred_on_estimate(interval_of_stack(f, m, stack, 0.95, "percentile"), lower)
        assert (got[name].low, got[name].high, got[name].undefined) == (
            want.low,
            want.high,
            want.undefined,
        ), name


@pytest.mark.parametrize("n", [3, 10])
def test_chunked_comparison_equals_unchunked(n, monkeypatch):
    truth, a = _sample(n, 300, seed=4)
    _, b = _sample(n, 300, seed=5)
    whole = cm.compare(truth, a, b, size=400, rng=1).to_json()
    _tiny_budget(monkeypatch, n, n**3, rows=45)
    assert cm.compare(truth, a, b, size=400, rng=1).to_json() == whole


def test_single_resample_too_big_is_refused_in_one_sentence(monkeypatch):
    monkeypatch.setattr(_chunked, "CHUNK_BYTES", 200)
    truth, pred = _sample(3, 2000)
    with pytest.raises(ValueError, match="for a single resample, more than the"):
        cm.report(truth, pred, size=100)


def test_interval_api_unchanged_by_chunks(monkeypatch):
    m = [[60, 15, 5], [35, 170, 40], [5, 15, 55]]
    whole = cm.interval("macro_f1", m, size=900, method="bca", rng=0)
    monkeypatch.setattr(_chunked, "CHUNK_BYTES", 50 * _chunked.per_resample(3, 9, False))
    assert cm.interval("macro_f1", m, size=900, method="bca", rng=0) == whole


def test_many_exact_intervals_equal_one_at_a_time_and_scipy():
    from scipy.stats import binomtest

    from clfmetrics.inference._binomial import clopper_pearson

    rng = np.random.default_rng(0)
    n = rng.integers(1, 300, 12)
    k = rng.integers(0, n + 1)
    k[:3], k[3:6] = 0, n[3:6]
    n[7], k[7] = 10_000, 3
    low, high = clopper_pearson(k, n, 0.9)  # every class at once, as the report asks
    one = np.array([clopper_pearson(int(a), int(b), 0.9) for a, b in zip(k, n, strict=True)])
    ref = [binomtest(int(a), int(b)).proportion_ci(0.9, "exact") for a, b in zip(k, n, strict=True)]
    np.testing.assert_allclose(low, one[:, 0], rtol=1e-11, atol=1e-14)
    np.testing.assert_allclose(high, one[:, 1], rtol=1e-11, atol=1e-14)
    np.testing.assert_allclose(low, [r.low for r in ref], atol=1e-12)
    np.testing.assert_allclose(high, [r.high for r in ref], atol=1e-12)


# --- the streaming CSV reader against the former in-memory one ---------------------------

MESSY = {
    "clean": "gold,model,p\n"
    + "".join(f"{i % 3},{(i * 7) % 3},{i % 10 / 10}\n" for i in range(40)),
    "near duplicates": "gold,model,p\n"
    + "".join(f"{g},{m},0.5\n" for g, m in [("Spam", "spam"), ("spam", "ham"), ("ham", "ham")] * 9),
    "leading zeros": "gold,model,p\n" + "007,7,0.1\n7,7,0.2\n01,1,0.3\n1,01,0.4\n" * 3,
    "stray text in numbers": "gold,model,p\n"
    + "".join(f"{i % 2},{i % 2},0.5\n" for i in range(30))
    + "x,1,0.5\n\n1,y,0.5\n",
    "ragged": "gold,model,p\n1,0,0.5\n1,0,0.5,9\n0,0,0.5\n0,1\n" + "1,1,0.5\n" * 5,
    "missing": "gold,model,p\n1,0,0.5\n,0,0.5\n0,NA,0.5\n1,1,0.5\n0,0,0.5\n",
    "quoted line breaks": 'gold,model,p\n"a",b,0.1\n"a\nb",b,0.2\nb,"a",0.3\n\nb,b,0.4\n',
    "score not a number": "gold,model,p\n1,0,0.5\n0,0,x\n1,1,inf\n0,1,0.2\n",
    "score not finite": "gold,model,p\n1,0,0.5\n0,0,inf\n1,1,x\n0,1,0.2\n",
    "score in a label column": "gold,model,p\n1,0,0.5\n0,0.5,0.5\n1,1,0.5\n",
}


def _read(reader, path, numbers, **kw):
    from clfmetrics.io._file import InputError

    try:
        return reader(str(path), ["gold", "model"], numbers, **kw)
    except InputError as err:
        return str(err)


def _per_row(cols):
    """A counted result expanded to one row per item, in the in-memory reader's form."""
    if cols.counts is None:
        return cols
    return {
        "labels": {n: np.repeat(v, cols.counts) for n, v in cols.labels.items()},
        "classes": cols.classes,
        "warnings": cols.warnings,
        "dropped": cols.dropped.tolist(),
    }


def _as_compared(cols, counted=False):
    if isinstance(cols, str):
        return cols
    if counted:  # compare the multiset of rows: combinations are in first-line order
        keys = np.stack([np.asarray(cols["labels"][n]).astype(str) for n in ("gold", "model")])
        order = np.lexsort(keys)
        return (keys[:, order].tolist(), cols["classes"], cols["warnings"], cols["dropped"])
    return (
        {n: np.asarray(v).tolist() for n, v in cols.labels.items()},
        cols.classes,
        cols.warnings,
        cols.dropped.tolist(),
        {n: v.tolist() for n, v in cols.numbers.items()},
        cols.lines.tolist(),
    )


@pytest.mark.parametrize("case", sorted(MESSY))
@pytest.mark.parametrize("na", ["error", "drop", "keep"])
@pytest.mark.parametrize("batch", [2, 3, 65_536])
def test_streaming_reader_equals_the_in_memory_one(tmp_path, case, na, batch):
    path = tmp_path / "messy.csv"
    path.write_text(MESSY[case])
    with_scores = (
        _read(in_memory, path, ["p"], na=na),
        _read(streaming, path, ["p"], na=na, batch=batch),
    )
    assert _as_compared(with_scores[0]) == _as_compared(with_scores[1])
    ref, got = _read(in_memory, path, [], na=na), _read(streaming, path, [], na=na, batch=batch)
    if isinstance(ref, str) or isinstance(got, str):
        assert ref == got
        return
    assert got.counts is not None and got.counts.sum() == ref.lines.size
    expanded = _per_row(got)
    want = {"labels": ref.labels, "classes": ref.classes, "warnings": ref.warnings,
            "dropped": ref.dropped.tolist()}  # fmt: skip
    assert _as_compared(expanded, True) == _as_compared(want, True)


# --- --scores / --proba on Parquet through DuckDB -------------------------------------------


def _cli_json(capsys, argv):
    from clfmetrics.io import _cli as cli

    status = cli.run([*argv, "--json", "--size", "200"])
    out, err = capsys.readouterr()
    assert status == 0, err
    return out


@pytest.mark.parametrize("kind", ["scores", "proba"])
def test_scores_on_parquet_equal_the_csv_result(tmp_path, capsys, kind):
    duckdb = pytest.importorskip("duckdb")  # in requirements.txt: installed wherever tests run
    rng = np.random.default_rng(7)
    n = 2 if kind == "scores" else 3
    truth = rng.integers(0, n, 300)
    logits = rng.normal(size=(300, n))
    logits[np.arange(300), truth] += 1.0
    proba = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    names = [f"c{k}" for k in range(n)]
    rows = [
        ",".join([f"k{t}", f"k{p}", *(repr(float(v)) for v in ps)])
        for t, p, ps in zip(truth, proba.argmax(axis=1), proba, strict=True)
    ]
    csv = tmp_path / "items.csv"
    csv.write_text("\n".join(["gold,model," + ",".join(names), *rows, ""]))
    parquet = tmp_path / "items.parquet"
    duckdb.execute(f"COPY (SELECT * FROM read_csv('{csv}')) TO '{parquet}' (FORMAT parquet)")
    assert duckdb.execute(f"SELECT typeof(c0) FROM '{parquet}' LIMIT 1").fetchone() == ("DOUBLE",)
    extra = ["--scores", "c1"] if kind == "scores" else ["--proba", *names]
    argv = ["--truth", "gold", "--pred", "model", *extra]
    from_csv = _cli_json(capsys, ["report", str(csv), *argv])
    from_parquet = _cli_json(capsys, ["report", str(parquet), *argv])
    assert from_parquet == from_csv and '"roc_auc"' in from_csv


@pytest.mark.parametrize("kind", ["scores", "proba"])
def test_cli_scores_report_equals_the_api_report_byte_for_byte(tmp_path, capsys, kind):
    # The command line hands the reader's class codes (int8) and its own matrix of number
    # columns, rescaled in blocks, to report_of_codes; the API makes its codes from labels.
    import json

    rng = np.random.default_rng(11)
    n = 2 if kind == "scores" else 4
    truth = rng.integers(0, n, 400)
    raw = rng.random((400, n)) + 0.8 * (np.arange(n) == truth[:, None])
    proba = np.round(raw / raw.sum(axis=1, keepdims=True), 3)  # rows off 1 by rounding
    pred = np.where(rng.random(400) < 0.8, proba.argmax(axis=1), rng.integers(0, n, 400))
    names = [f"c{k}" for k in range(n)]
    rows = [
        ",".join([f"k{t}", f"k{q}", *map(str, ps)])
        for t, q, ps in zip(truth, pred, proba, strict=True)
    ]
    csv = tmp_path / "items.csv"
    csv.write_text("\n".join(["gold,model," + ",".join(names), *rows, ""]))
    labels = [f"k{k}" for k in range(n)]
    if kind == "scores":
        extra, scores, pos = ["--scores", "c0", "--pos-label", "k0"], proba[:, 0], "k0"
    else:
        extra, pos = ["--proba", *names], None
        scores = proba / proba.sum(axis=1, keepdims=True)
    got = json.loads(_cli_json(capsys, ["report", str(csv), "--truth", "gold", "--pred", "model",
                                        *extra]))  # fmt: skip
    want = cm.report([f"k{t}" for t in truth], [f"k{q}" for q in pred], scores=scores,
                     labels=labels, pos_label=pos, size=200, rng=0).to_dict()  # fmt: skip
    assert got == json.loads(json.dumps(want)) and got["scores"]["brier_score"] > 0


def test_parquet_scores_problems_name_the_row(tmp_path, capsys):
    duckdb = pytest.importorskip("duckdb")
    from clfmetrics.io import _cli as cli

    parquet = tmp_path / "bad.parquet"
    duckdb.execute(
        "COPY (SELECT * FROM (VALUES ('a', 'a', 0.2), ('b', 'b', NULL), ('a', 'b', 0.7)) "
        f"t(y, p, s)) TO '{parquet}' (FORMAT parquet)"
    )
    status = cli.run(["report", str(parquet), "--truth", "y", "--pred", "p", "--scores", "s"])
    err = capsys.readouterr().err
    assert status == 2 and "column 's' has 1 missing value (empty) on line 2" in err


# --- memory measured in a fresh process (ru_maxrss), scaled down to seconds ---------------

# VmHWM, the peak resident size of this process image: ru_maxrss survives exec, so a child
# of an xdist worker reported the worker's peak instead of its own.
_PEAK = """
import re
import numpy as np
{body}
status = open("/proc/self/status").read()
print(int(re.search(r"VmHWM:\\s*(\\d+) kB", status).group(1)) // 1024)
"""


def _peak_mb(body: str) -> int:
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-c", _PEAK.format(body=body)], capture_output=True, text=True, check=True
    )
    return int(out.stdout.split()[-1])


def test_many_classes_stay_under_a_memory_cap():
    # 300 classes x 400 resamples: the whole stack alone would be 275 MB of int64 (and
    # about 1 GB with the metrics' temporaries). In chunks of at most 64 MiB (the default
    # is 256 MiB) of class sums it is never held: the peak is the interpreter, numpy and
    # one chunk.
    classes, size, cap_mb = 300, 400, 200
    assert size * classes**2 * 8 / 2**20 > cap_mb
    body = f"""
import clfmetrics as cm
from clfmetrics.inference import _bootstrap as _chunked
_chunked.CHUNK_BYTES = 64 * 2**20
rng = np.random.default_rng(0)
y = rng.integers(0, {classes}, 10_000)
p = np.where(rng.random(10_000) < 0.7, y, rng.integers(0, {classes}, 10_000))
r = cm.report(y, p, size={size})
assert len(r.labels) == {classes} and r.intervals["macro_f1"].low < r.intervals["macro_f1"].high
"""
    assert _peak_mb(body) < cap_mb


def test_the_streaming_reader_does_not_grow_with_the_rows(tmp_path):
    # The former reader held every row as a list of strings (well over 100 bytes a row, so
    # 140,000 more rows would pass the bound below). The streaming one keeps counts and
    # one batch of rows (4,096 here, so that both files fill whole batches).
    peaks = []
    for rows in (20_000, 160_000):
        path = tmp_path / f"rows{rows}.csv"
        y = np.arange(rows) % 2
        p = (np.arange(rows) // 3) % 2
        np.savetxt(
            path, np.column_stack([y, p]), fmt="%d", delimiter=",", header="y,p", comments=""
        )
        body = f"""
from clfmetrics.io._stream import read_columns
cols = read_columns({str(path)!r}, ["y", "p"], batch=4096)
assert int(cols.counts.sum()) == {rows}
"""
        peaks.append(_peak_mb(body))
    assert peaks[1] - peaks[0] < 8, peaks


def test_the_streaming_reader_with_scores_holds_little_more_than_its_arrays(tmp_path):
    # With a score column every row keeps its line (4 bytes), two class codes (1 byte each
    # for few classes) and its score (8) while the file streams: 14 bytes. The former
    # reader held many times that (text labels per row, and the batches' freed heap beside
    # their joined copy).
    peaks = []
    for rows in (20_000, 220_000):
        path = tmp_path / f"rows{rows}.csv"
        k = np.arange(rows)
        table = np.column_stack([k % 3, (k // 3) % 3, (k % 1000) / 1000])
        np.savetxt(path, table, fmt=["%d", "%d", "%.3f"], delimiter=",", header="y,p,s",
                   comments="")  # fmt: skip
        body = f"""
from clfmetrics.io._stream import read_columns
cols = read_columns({str(path)!r}, ["y", "p"], ["s"], batch=4096)
assert cols.lines.size == {rows} and cols.codes["y"].dtype == np.int8
"""
        peaks.append(_peak_mb(body))
    # 14 bytes a row and the heap's slack pass; int32 codes with int64 lines while streaming
    # (10 bytes more a row, and their slack) do not, nor does the former reader
    per_row = (peaks[1] - peaks[0]) * 2**20 / 200_000
    assert per_row < 30, (peaks, per_row)


def test_score_errors_are_in_the_options_terms(tmp_path, capsys):
    from clfmetrics.io import _cli as cli

    path = tmp_path / "five.csv"
    rows = [f"{k % 5},{k % 5},0.{k % 9}" for k in range(25)]
    path.write_text("\n".join(["y,p,s", *rows, ""]))
    status = cli.run(["report", str(path), "--truth", "y", "--pred", "p", "--scores", "s"])
    err = capsys.readouterr().err
    assert status == 2 and "there are 5 (0 1 2 3 4)" in err and "with --proba instead" in err
    message = cli._option_terms(
        "1-d scores need two classes; there are 5 ([0, 1, 2, 3, 4]): pass an (N, 5) "
        "probability matrix instead",
        cli._parser().parse_args(["report", "f", "--truth", "y", "--pred", "p", "--proba", "a"]),
    )
    assert message == (
        "--scores need two classes; there are 5 ([0, 1, 2, 3, 4]): pass one --proba column "
        "per class instead"
    )
