"""Bounded memory (issue 26): many classes, and many rows read without DuckDB.

Each measurement is one fresh Python process (wall seconds after the imports, and peak
resident memory, its own ``VmHWM``), recorded against the issue's limit of 1 GB
and, in the same run, as a ratio to a reference: pandas' ``read_csv`` and
scikit-learn's ``confusion_matrix`` on the same file (the matrix only, no intervals),
or ``confusion_matrix`` alone on the same arrays.

- 1,000 classes x 10**5 rows, the report with its intervals (``--size`` resamples, drawn
  in chunks): through ``python -m clfmetrics report`` on a CSV file read without DuckDB,
  and through ``clfmetrics.report``.
- 10**7 rows of a binary task, ``python -m clfmetrics report`` without DuckDB (the
  streaming reader), and with ``--scores``.

- 5 classes with ``--proba`` (one probability column per class, rounded to 3 decimals as
  files have them), against pandas' ``read_csv`` and scikit-learn's
  ``roc_auc_score(multi_class="ovr", average="macro")``: 10**7 rows in the full run (the
  reader keeps class codes and one matrix of probabilities, the report checks them once
  and goes over them a block of items at a time, which keeps this row well under the
  limit: the report's whole-column passes came near it, and the reader before the matrix
  passed it).

``--quick``: 100 classes x 2,000 rows, 2,000 binary rows and 2,000 rows of 5-class
probabilities, 100 resamples (seconds), ours in one process and the references in another.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from bench_scale import _measure, _measure_group

LIMIT_MB = 1024

_FILE = """
COPY (
  SELECT y, CASE WHEN h < 7000 THEN y ELSE hash(i, 3) % {n} END AS p,
         (y = 1)::DOUBLE * 0.3 + (hash(i, 4) % 1000) / 1500.0 AS s
  FROM (SELECT i, hash(i, 1) % {n} AS y, hash(i, 2) % 10000 AS h FROM range({rows}) t(i))
) TO '{path}' (HEADER)
"""

_PROBA_FILE = """
COPY (
  SELECT y, CASE {pred} END AS p, {columns}
  FROM (SELECT i, hash(i, 1) % 5 AS y FROM range({rows}) t(i)) a,
       LATERAL (SELECT {raw}) b
) TO '{path}' (HEADER)
"""


def _proba_file(rows: int, path) -> str:
    """5 classes: column k is noise plus 0.6 for the true class, normalised, 3 decimals."""
    raw = ", ".join(f"(hash(i, {k + 10}) % 1000) / 1000.0 + 0.6 * (y = {k})::DOUBLE AS r{k}"
                    for k in range(5))  # fmt: skip
    total = " + ".join(f"r{k}" for k in range(5))
    columns = ", ".join(f"round(r{k} / ({total}), 3) AS c{k}" for k in range(5))
    top = ", ".join(f"r{k}" for k in range(5))
    pred = " ".join(f"WHEN r{k} >= greatest({top}) THEN {k}" for k in range(5))
    return _PROBA_FILE.format(rows=rows, path=path, raw=raw, columns=columns, pred=pred)


_REFERENCE_PROBA = """
import pandas as pd
from sklearn.metrics import confusion_matrix, roc_auc_score
start = time.perf_counter()
d = pd.read_csv({path!r})
m = confusion_matrix(d["y"], d["p"])
proba = d[["c0", "c1", "c2", "c3", "c4"]].to_numpy()
auc = roc_auc_score(d["y"], proba / proba.sum(axis=1, keepdims=True), multi_class="ovr")
"""

_CLI = """
from clfmetrics.io import _cli as cli
cli.duckdb_installed = lambda: False
start = time.perf_counter()  # after the imports, as for the reference
with contextlib.redirect_stdout(io.StringIO()):
    status = cli.run(["report", {path!r}, "--truth", "y", "--pred", "p", "--size", "{size}",
                      *{extra!r}])
assert status == 0, status
"""

_API = """
import numpy as np
import clfmetrics as cm
rng = np.random.default_rng(0)
y = rng.integers(0, {n}, {rows})
p = np.where(rng.random({rows}) < 0.7, y, rng.integers(0, {n}, {rows}))
start = time.perf_counter()  # the report only, not the data
r = cm.report(y, p, size={size}, rng=0)
assert r.n_items == {rows}
"""

_REFERENCE_FILE = """
import pandas as pd
from sklearn.metrics import confusion_matrix
start = time.perf_counter()
d = pd.read_csv({path!r})
m = confusion_matrix(d["y"], d["p"])
"""

_REFERENCE_API = """
import numpy as np
from sklearn.metrics import confusion_matrix
rng = np.random.default_rng(0)
y = rng.integers(0, {n}, {rows})
p = np.where(rng.random({rows}) < 0.7, y, rng.integers(0, {n}, {rows}))
start = time.perf_counter()
m = confusion_matrix(y, p)
"""


def _row(what, classes, rows, size, ours, reference, reference_name):
    return {
        "what": what,
        "classes": classes,
        "rows": rows,
        "resamples": size,
        "seconds": ours["seconds"],
        "peak_mb": ours["peak_mb"],
        "limit_mb": LIMIT_MB,
        "under_limit": ours["peak_mb"] < LIMIT_MB,
        "reference": reference_name,
        "reference_seconds": reference["seconds"],
        "reference_peak_mb": reference["peak_mb"],
        "time_ratio": ours["seconds"] / reference["seconds"],
        "memory_ratio": ours["peak_mb"] / reference["peak_mb"],
    }


def bench_memory(quick: bool) -> list[dict]:
    import duckdb

    classes, many_rows, binary_rows = (100, 2000, 2000) if quick else (1000, 10**5, 10**7)
    proba_rows = 2000 if quick else 10**7
    size = 100 if quick else 2000
    out = []
    with tempfile.TemporaryDirectory() as folder:
        many, binary = Path(folder) / "many.csv", Path(folder) / "binary.csv"
        proba = Path(folder) / "proba.csv"
        duckdb.execute(_proba_file(proba_rows, proba))
        duckdb.execute(_FILE.format(n=classes, rows=many_rows, path=many))
        duckdb.execute(_FILE.format(n=2, rows=binary_rows, path=binary))
        by_file = "pandas.read_csv + sklearn confusion_matrix"
        cases = [
            (f"python -m clfmetrics report, {classes} classes (CSV, no DuckDB)", classes,
             many_rows, size, _CLI.format(path=str(many), size=size, extra=[]),
             _REFERENCE_FILE.format(path=str(many)), by_file),
            (f"clfmetrics.report, {classes} classes", classes, many_rows, size,
             _API.format(n=classes, rows=many_rows, size=size),
             _REFERENCE_API.format(n=classes, rows=many_rows), "sklearn confusion_matrix"),
            ("python -m clfmetrics report, binary (CSV, no DuckDB)", 2, binary_rows, size,
             _CLI.format(path=str(binary), size=size, extra=[]),
             _REFERENCE_FILE.format(path=str(binary)), by_file),
            ("python -m clfmetrics report --scores, binary (CSV, no DuckDB)", 2, binary_rows,
             size, _CLI.format(path=str(binary), size=size, extra=["--scores", "s"]),
             _REFERENCE_FILE.format(path=str(binary)), by_file),
            ("python -m clfmetrics report --proba, 5 classes (CSV, no DuckDB)", 5, proba_rows,
             size, _CLI.format(path=str(proba), size=size,
                               extra=["--proba", "c0", "c1", "c2", "c3", "c4"]),
             _REFERENCE_PROBA.format(path=str(proba)),
             "pandas.read_csv + sklearn confusion_matrix + roc_auc_score(ovr, macro)"),
        ]  # fmt: skip
        measured = _measure_all([c[4] for c in cases], [c[5] for c in cases], quick)
        for what, n, rows, resamples, body, reference, name in cases:
            out.append(_row(what, n, rows, resamples, measured[body], measured[reference], name))
    return out


def _measure_all(ours: list[str], references: list[str], quick: bool) -> dict[str, dict]:
    """Each distinct body measured once (two rows share the binary file's reference).

    The full run gives every body a fresh process. ``--quick`` runs ours in one process and
    the references in another (each body's peak its own, see ``_measure_group``): the
    sizes are too small for the numbers to mean more than "it runs", and each reference
    process spent most of its time importing pandas and scikit-learn.
    """
    ours, references = list(dict.fromkeys(ours)), list(dict.fromkeys(references))
    if not quick:
        return {body: _measure(body) for body in ours + references}
    return {
        **dict(zip(ours, _measure_group(ours), strict=True)),
        **dict(zip(references, _measure_group(references), strict=True)),
    }
