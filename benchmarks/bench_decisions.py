"""Net benefit and decision curves against ``dcurves`` (PyPI), measured in the same run.

Two rows (ratios, not seconds, are what a shared machine can compare):

- ``net_benefit`` at 10**6 scores and 100 thresholds, against ``dcurves.dca`` on the same
  items and thresholds (the model's rows only are compared; both give treat-all and
  treat-none as well); the largest difference between the two is reported too.
- ``decision_curve`` with its simultaneous band at 10**6 tied scores (1,000 distinct values)
  and 2,000 resamples (goal: under 2 s). ``dcurves`` has no band; its reference is one
  ``dca`` call per resample, timed on a few resamples and scaled linearly to 2,000.

- ``python -m clfmetrics report --scores --net-benefit`` on a Parquet file of 10**8 rows
  that DuckDB generates (through DuckDB's counts: ``SCORE_ROWS``), in a fresh process
  (seconds, peak memory; ``bench_scale._measure``). ``dcurves`` cannot hold 10**8 rows
  (pandas needs the whole frame); the ratio row runs both on 10**6 rows of the same kind of
  file, each in a fresh process: the command line forced onto the counts path, against
  ``pandas.read_parquet`` + ``dca``. The command line also gives the band (2,000
  resamples) and the matrix's metrics with their intervals; ``dca`` gives neither.
- The same with two systems (``--pred a --scores r --pred b --scores q``): the paired
  difference in net benefit with its band, through DuckDB's counts per pair of bins, at
  10**8 rows; at 10**6 rows forced onto the counts path against the command line's own
  row reader on the same file (below ``SCORE_ROWS`` it reads every row and adds the ROC AUC
  comparison, DeLong's and a paired bootstrap; ``dcurves`` has no paired difference).

Wall and CPU seconds are both given: on a shared machine the CPU time is the steadier figure.
"""

from __future__ import annotations

import time

import numpy as np

import clfmetrics as cm


def _seconds(fn):
    start, cpu = time.perf_counter(), time.process_time()
    out = fn()
    return time.perf_counter() - start, time.process_time() - cpu, out


def _problem(n_items: int, distinct: int | None, rng):
    """Outcomes at prevalence 0.3 and probabilities from a binormal score, optionally binned."""
    y = rng.random(n_items) < 0.3
    s = 1 / (1 + np.exp(-(rng.normal(1.0 * y, 1.0) - 1.2)))
    if distinct is not None:  # quantile bins: exactly ``distinct`` values, equally common
        edges = np.quantile(s, np.linspace(0, 1, distinct + 1)[1:-1])
        s = np.take(np.r_[edges, 1.0], np.searchsorted(edges, s))
    return y.astype(int), s


def _dca(y, s, thresholds):
    import pandas as pd
    from dcurves import dca

    frame = pd.DataFrame({"y": y, "m": s})
    out = dca(data=frame, outcome="y", modelnames=["m"], thresholds=thresholds)
    return out[out["model"] == "m"].sort_values("threshold")["net_benefit"].to_numpy()


def net_benefit_row(n_items: int, rng) -> dict:
    y, s = _problem(n_items, None, rng)
    thresholds = np.arange(1, 101) / 101
    row = {"items": n_items, "thresholds": thresholds.size}
    row["ours_s"], row["ours_cpu_s"], ours = _seconds(lambda: cm.net_benefit(y, s, thresholds))
    try:
        _dca(y[:100], s[:100], thresholds)  # warm-up: the first call pays for imports
        row["dcurves_s"], row["dcurves_cpu_s"], ref = _seconds(lambda: _dca(y, s, thresholds))
    except ImportError:  # dcurves is a test dependency
        row["reference"] = "dcurves not installed"
        return row
    row["speedup"] = row["dcurves_s"] / row["ours_s"]
    row["cpu_speedup"] = row["dcurves_cpu_s"] / row["ours_cpu_s"]
    row["max_difference"] = float(np.max(np.abs(np.asarray(ours) - ref)))
    return row


def band_row(n_items: int, distinct: int, size: int, reference: int, rng) -> dict:
    y, s = _problem(n_items, distinct, rng)
    thresholds = np.arange(5, 51) / 100
    row = {"items": n_items, "distinct": int(np.unique(s).size), "resamples": size}
    row["band_s"], row["band_cpu_s"], curve = _seconds(
        lambda: cm.decision_curve(y, s, thresholds, size=size, rng=0)
    )
    row["mean_width"] = float(np.mean(curve.high - curve.low))
    try:
        _dca(y[:100], s[:100], thresholds)
        draws = np.random.default_rng(1)

        def resampled():
            for _ in range(reference):
                idx = draws.integers(0, y.size, y.size)
                _dca(y[idx], s[idx], thresholds)

        wall, cpu, _ = _seconds(resampled)
    except ImportError:
        row["reference"] = "dcurves not installed"
        return row
    row["dcurves_resamples_timed"] = reference
    row["dcurves_s_scaled"] = wall * size / reference
    row["speedup"] = row["dcurves_s_scaled"] / row["band_s"]
    row["cpu_speedup"] = cpu * size / reference / row["band_cpu_s"]
    return row


# A second system (b, q) beside the first (a, r): read only by the paired rows (Parquet
# is read column by column).
_GENERATE = """
COPY (
  SELECT y, CAST(r >= 0.3 AS INTEGER) AS a, r, CAST(q >= 0.3 AS INTEGER) AS b, q
  FROM (SELECT y, 0.2 * y + 0.8 * (hash(i, 2) % 1000000) / 1e6 AS r,
               0.1 * y + 0.9 * (hash(i, 3) % 1000000) / 1e6 AS q
        FROM (SELECT i, CAST(hash(i, 1) % 10 < 3 AS INTEGER) AS y FROM range({n}) t(i)))
) TO '{path}' (FORMAT parquet)
"""

# The command line on the counts path (SCORE_ROWS 0 forces it on a smaller file).
_CLI = """
from clfmetrics.io import _cli as cli
cli.SCORE_ROWS = {score_rows}
start = time.perf_counter()  # the imports are not timed
with contextlib.redirect_stdout(io.StringIO()) as out:
    status = cli.run(["report", {path!r}, "--truth", "y", "--pred", "a", "--scores", "r",
                      *{paired!r}, "--net-benefit", "0.05:0.35", "--json", *{extra!r}])
assert status == 0, status
assert ("DuckDB counted" in out.getvalue()) == {counted!r}
"""
_PAIRED = ["--pred", "b", "--scores", "q"]

_DCA = """
import numpy as np
import pandas as pd
from dcurves import dca
start = time.perf_counter()  # the imports are not timed
frame = pd.read_parquet({path!r}, columns=["y", "r"])
got = dca(data=frame, outcome="y", modelnames=["r"], thresholds=np.arange(5, 36) / 100)
assert len(got) == 3 * 31
"""


def scale_rows(quick: bool) -> list[dict]:
    """``report --net-benefit`` through DuckDB at 10**8 rows, and against ``dcurves`` at
    10**6; the same with two systems, against the row reader at 10**6 (quick: 10**4 and
    10**3 rows, 100 resamples)."""
    import tempfile
    from pathlib import Path

    import duckdb
    from bench_scale import _measure, _measure_group

    big, small = (10**4, 10**3) if quick else (10**8, 10**6)
    extra = ["--size", "100"] if quick else []
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        paths = {n: Path(folder) / f"risks-{n}.parquet" for n in (big, small)}
        for n, path in paths.items():
            duckdb.execute(_GENERATE.format(n=n, path=path))
        at = {"score_rows": 0 if quick else 10**7, "counted": True, "extra": extra}
        forced = at | {"score_rows": 0}
        below = at | {"score_rows": 10**7, "counted": False}  # the row reader
        bodies = [
            _CLI.format(path=str(paths[big]), paired=[], **at),
            _CLI.format(path=str(paths[small]), paired=[], **forced),
            _CLI.format(path=str(paths[big]), paired=_PAIRED, **at),
            _CLI.format(path=str(paths[small]), paired=_PAIRED, **forced),
            _CLI.format(path=str(paths[small]), paired=_PAIRED, **below),
        ]
        # quick: all in one process (seconds); the full run: each in a fresh one
        measured = _measure_group(bodies) if quick else [_measure(b) for b in bodies]
        got, ours, paired_big, paired, rows_read = measured
        rows.append({"what": "python -m clfmetrics report --scores --net-benefit (DuckDB)",
                     "rows": big, "thresholds": 31, **got})  # fmt: skip
        row = {"what": "the same, forced onto the counts path, against dcurves.dca",
               "rows": small, "thresholds": 31, **ours}  # fmt: skip
        try:
            ref = _measure(_DCA.format(path=str(paths[small])))
        except RuntimeError as err:  # dcurves is a test dependency
            row["reference"] = f"dcurves did not run: {str(err).splitlines()[-1]}"
        else:
            row |= {"reference": "pandas.read_parquet + dcurves.dca (model, all, none)",
                    "reference_seconds": ref["seconds"], "reference_peak_mb": ref["peak_mb"],
                    "speedup": ref["seconds"] / ours["seconds"]}  # fmt: skip
        rows.append(row)
        rows.append({"what": "the same with two systems: the paired difference in net "
                     "benefit (DuckDB)", "rows": big, "thresholds": 31, **paired_big})  # fmt: skip
        rows.append({"what": "the paired difference forced onto the counts path, against the "
                     "command line's row reader", "rows": small, "thresholds": 31, **paired,
                     "reference": "the row reader: every row's scores in memory, with the ROC "
                     "AUC comparison", "reference_seconds": rows_read["seconds"],
                     "reference_peak_mb": rows_read["peak_mb"],
                     "speedup": rows_read["seconds"] / paired["seconds"]})  # fmt: skip
    return rows


def bench_decisions(quick: bool) -> dict:
    rng = np.random.default_rng(36)
    if quick:
        n, big, distinct, size, few = 10**4, 10**4, 100, 200, 2
    else:
        n, big, distinct, size, few = 10**6, 10**6, 1000, 2000, 3
    return {
        "net_benefit": [net_benefit_row(n, rng)],
        "band": [band_row(big, distinct, size, few, rng)],
        "scale": scale_rows(quick),
    }
