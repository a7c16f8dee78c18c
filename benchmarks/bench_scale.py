"""Evaluation at scale: a paired comparison of 10**8 predictions through DuckDB.

Rows, each measured in a fresh Python process (wall seconds and peak resident memory,
the process's own ``VmHWM``: ``ru_maxrss`` would carry the parent's over ``exec``), on
files that DuckDB generates in a temporary folder:

- ``duckdb_counts`` + ``compare_from_counts`` on a Parquet file of 10**8 predictions of
  two systems (three classes; goal: under 20 s and under 1 GB), and the same through
  ``python -m clfmetrics report FILE.parquet``.
- The command line on a CSV file of 10**7 rows, side by side: aggregated by DuckDB,
  and read row by row (DuckDB hidden), the reader used before DuckDB was.

``--quick`` uses 10**4 and 10**3 rows and 100 resamples (seconds), all four in one process
(``_measure_group``). The full run's rows are ``scale`` in ``benchmarks/results.json``.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_GENERATE = """
COPY (
  SELECT y,
         CASE WHEN h < 1000 THEN (y + 1) % 3 ELSE y END AS a,
         CASE WHEN h < 990 OR r < 15 THEN (y + 2) % 3 ELSE y END AS b
  FROM (SELECT hash(i, 1) % 3 AS y, hash(i, 2) % 10000 AS h, hash(i, 3) % 10000 AS r
        FROM range({n}) t(i))
) TO '{path}' ({options})
"""

_CHILD = """
import contextlib, ctypes, gc, io, json, re, sys, time
sys.path.insert(0, {src!r})
for body in {bodies!r}:
    gc.collect()
    ctypes.CDLL(None).malloc_trim(0)  # the heap an earlier body freed goes back to the system
    with open("/proc/self/clear_refs", "w") as refs:
        refs.write("5")  # VmHWM := VmRSS: the peak from here on is this body's own
    scope = {{"contextlib": contextlib, "io": io, "sys": sys, "time": time}}
    scope["start"] = time.perf_counter()
    exec(body, scope)
    seconds = time.perf_counter() - scope["start"]
    status = open("/proc/self/status").read()  # VmHWM: this image's own peak (ru_maxrss
    peak = int(re.search(r"VmHWM:\\s*(\\d+) kB", status).group(1)) / 1024  # survives exec)
    print(json.dumps({{"seconds": seconds, "peak_mb": peak}}), flush=True)
    del scope  # the body's data, before the next body's peak starts
"""

_API = """
import clfmetrics as cm
y, a, b, n = cm.duckdb_counts({path!r}, ["y", "a", "b"])
c = cm.compare_from_counts(y, a, b, n, rng=0{size})
assert c.n_items == {n}
"""

_CLI = """
from clfmetrics.io import _counts as _csvcounts
from clfmetrics.io import _cli as cli
# the row reader hides DuckDB; the others see it (also after a body that hid it)
cli.duckdb_installed = (lambda: False) if {rows} else _csvcounts.duckdb_installed
with contextlib.redirect_stdout(io.StringIO()):
    status = cli.run(["report", {path!r}, "--truth", "y", "--pred", "a", "--pred", "b", *{extra!r}])
assert status == 0, status
"""


def _measure(body: str) -> dict:
    """One body in a fresh Python process: its seconds and peak resident memory."""
    (got,) = _measure_group([body])
    return got


def _measure_group(bodies: list[str]) -> list[dict]:
    """Several bodies, one after another in one fresh Python process (``--quick``).

    Before each body the process collects its garbage, returns the freed heap to the system
    and resets its peak (Linux: ``5`` written to ``/proc/self/clear_refs`` sets ``VmHWM``
    to the current ``VmRSS``), so each body's peak is its own plus what the process holds
    between bodies: the interpreter and the modules imported so far, as a fresh process
    has them once it imports the same. Bodies that import the same libraries share one
    start-up; a body's seconds start after its imports, as in a process of its own.
    """
    code = _CHILD.format(src=str(ROOT / "src"), bodies=list(bodies))
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=3600, check=False
    )
    if out.returncode != 0:
        raise RuntimeError(out.stderr[-2000:])
    got = [json.loads(line) for line in out.stdout.splitlines() if line.startswith('{"seconds"')]
    assert len(got) == len(bodies), out.stdout[-2000:]
    return got


def bench_scale(quick: bool) -> list[dict]:
    import duckdb

    n_parquet, n_csv = (10**4, 10**3) if quick else (10**8, 10**7)
    # quick: 100 resamples instead of the default 10,000 (the rows only have to run)
    size, extra = (", size=100", ["--size", "100"]) if quick else ("", [])
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        parquet, csv = Path(folder) / "preds.parquet", Path(folder) / "preds.csv"
        duckdb.execute(_GENERATE.format(n=n_parquet, path=parquet, options="FORMAT parquet"))
        duckdb.execute(_GENERATE.format(n=n_csv, path=csv, options="HEADER"))
        cases = [
            ("duckdb_counts + compare_from_counts", "parquet", n_parquet,
             _API.format(path=str(parquet), n=n_parquet, size=size)),
            ("python -m clfmetrics report (DuckDB)", "parquet", n_parquet,
             _CLI.format(path=str(parquet), rows=False, extra=extra)),
            ("python -m clfmetrics report (DuckDB)", "csv", n_csv,
             _CLI.format(path=str(csv), rows=False, extra=extra)),
            ("python -m clfmetrics report (row reader)", "csv", n_csv,
             _CLI.format(path=str(csv), rows=True, extra=extra)),
        ]  # fmt: skip
        bodies = [body for _, _, _, body in cases]
        measured = _measure_group(bodies) if quick else [_measure(body) for body in bodies]
        for (what, kind, n, _), got in zip(cases, measured, strict=True):
            rows.append(
                {
                    "what": what,
                    "file": kind,
                    "predictions": n,
                    "seconds": got["seconds"],
                    "peak_mb": got["peak_mb"],
                }
            )
    return rows
