"""Intervals of the ROC AUC: the cell bootstrap and DeLong against the usual tools.

Four rows, each with its reference measured in the same run (ratios, not seconds,
are what a shared machine can compare):

- ``auc_interval`` (percentile, BCa) and ``ap_interval`` at 10**6 scores with
  1,000 distinct values, 10**4 resamples (goal: under 2 s). Reference: item
  resampling with scikit-learn's ``roc_auc_score``, timed on a few resamples and
  scaled linearly to 10**4 (at this size it would take hours).
- Continuous scores (every score distinct) at 10**5 items, 10**4 resamples (goal:
  under 20 s). Reference: item resampling with ``roc_auc_score``, timed on a few
  hundred resamples and scaled linearly to 10**4; both intervals are reported,
  the reference's from its few hundred resamples only.
- The report's five one-vs-rest ``ap_interval`` of 10**5 rows of 5-class
  probabilities rounded to 3 decimals and rescaled (a few thousand distinct scores
  per column), 2,000 resamples each, in CPU seconds against item resampling with
  scikit-learn's ``average_precision_score`` (2 resamples per class, scaled).
  Issue 26: they were most of the CPU time of the 5-class ``--proba`` report.
- ``auc_interval(method="delong")`` at 10**6 continuous scores against the DeLong
  interval of the ``confidenceinterval`` package (goal: no slower), with the
  difference of the two ends.
- Issue 39, speed back: ``auc_interval(y, s, size=10_000)`` at 10**6 scores with 900
  distinct values (quick: 10**4 scores, 100 values, 500 resamples) against the
  library at commit ``e67cb27`` (``git archive`` into a scratch folder, imported as
  ``clfmetrics_e67cb27``), the two timed in turn in the same run (goal: a ratio of
  medians of at most 1), with whether the intervals are equal; and
  ``report(y, pred, scores=s)`` at 10**6 continuous scores against one
  ``sklearn.metrics.average_precision_score`` call on the same scores (goal: a ratio
  of at most 25, 5 s where that call takes 0.2 s).

The bootstrap rows give wall and CPU seconds of the percentile interval: on a
shared machine the CPU time (and the ratio of CPU times) is the steadier figure.
Every bootstrap here resamples the positives and the negatives separately
(stratified), the reference as well, so that both draw from the same distribution.
"""

from __future__ import annotations

import importlib
import io
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

import numpy as np

import clfmetrics as cm


def _seconds(fn) -> tuple[float, float, object]:
    """Wall and CPU seconds of ``fn()`` (CPU time is the steadier one on a busy machine)."""
    start, cpu = time.perf_counter(), time.process_time()
    out = fn()
    return time.perf_counter() - start, time.process_time() - cpu, out


def _median_seconds(fn, repeat: int) -> tuple[float, object]:
    runs = [_seconds(fn) for _ in range(repeat)]
    return statistics.median(t for t, _, _ in runs), runs[-1][2]


def _problem(n_items: int, distinct: int | None, rng):
    y = rng.random(n_items) < 0.3
    s = rng.normal(1.0 * y, 1.0)
    if distinct is not None:  # quantile bins: exactly ``distinct`` values, equally common
        edges = np.quantile(s, np.linspace(0, 1, distinct + 1)[1:-1])
        s = np.searchsorted(edges, s).astype(np.float64)
    return y, s


def item_bootstrap_seconds(y, s, resamples: int, rng) -> tuple[float, float, np.ndarray]:
    """Stratified item resampling with scikit-learn's roc_auc_score: wall and CPU s, AUCs."""
    from sklearn.metrics import roc_auc_score

    pos, neg = np.flatnonzero(y), np.flatnonzero(~y)
    values = np.empty(resamples)

    def run():
        for b in range(resamples):
            idx = np.concatenate([rng.choice(pos, pos.size), rng.choice(neg, neg.size)])
            values[b] = roc_auc_score(y[idx], s[idx])

    wall, cpu, _ = _seconds(run)
    return wall, cpu, values


def bench_cells(n_items: int, distinct: int | None, size: int, reference: int, rng) -> dict:
    y, s = _problem(n_items, distinct, rng)
    row = {"items": n_items, "distinct": int(np.unique(s).size), "resamples": size}
    for name, fn in (
        ("auc_percentile_s", lambda: cm.auc_interval(y, s, size=size, rng=0)),
        ("auc_bca_s", lambda: cm.auc_interval(y, s, size=size, method="bca", rng=0)),
        ("ap_percentile_s", lambda: cm.ap_interval(y, s, size=size, rng=0)),
    ):
        row[name], cpu, iv = _seconds(fn)
        if name == "auc_percentile_s":
            row["auc_low"], row["auc_high"], ours_cpu = iv.low, iv.high, cpu
    items_s, items_cpu, values = item_bootstrap_seconds(y, s, reference, np.random.default_rng(1))
    row["sklearn_resamples_timed"] = reference
    row["sklearn_items_s_scaled"] = items_s * size / reference
    row["speedup"] = row["sklearn_items_s_scaled"] / row["auc_percentile_s"]
    row["auc_percentile_cpu_s"] = ours_cpu
    row["cpu_speedup"] = items_cpu * size / reference / ours_cpu
    if reference >= 100:
        low, high = np.quantile(values, [0.025, 0.975])
        row["sklearn_low"], row["sklearn_high"] = float(low), float(high)
    return row


def bench_delong(n_items: int, repeat: int, rng) -> dict:
    y, s = _problem(n_items, None, rng)
    ours_s, ours = _median_seconds(lambda: cm.auc_interval(y, s, method="delong"), repeat)
    row = {"items": n_items, "delong_s": ours_s, "auc": ours.estimate, "low": ours.low}
    try:
        from confidenceinterval import roc_auc_score
    except ImportError:  # a test dependency (requirements-dev.txt); the row says it is absent
        row["reference"] = "confidenceinterval not installed"
        return row
    ref_s, (auc, (low, high)) = _median_seconds(
        lambda: roc_auc_score(y.astype(int), s, confidence_level=0.95, method="delong"), repeat
    )
    row.update(
        {
            "confidenceinterval_s": ref_s,
            "ratio_ours_to_reference": ours_s / ref_s,
            "auc_difference": abs(float(auc) - ours.estimate),
            "end_difference": max(abs(float(low) - ours.low), abs(float(high) - ours.high)),
        }
    )
    return row


def bench_proba_ap(n_items: int, size: int, reference: int, rng) -> dict:
    """The report's five one-vs-rest AP intervals of rounded 5-class probabilities.

    Probabilities as files have them (3 decimals, rows rescaled to sum to 1: a few
    thousand distinct scores per column), ``size`` resamples per class, against
    stratified item resampling with scikit-learn's ``average_precision_score``
    (timed on ``reference`` resamples per class, scaled linearly).
    """
    from sklearn.metrics import average_precision_score

    y = rng.integers(0, 5, n_items)
    raw = rng.random((n_items, 5)) + 0.6 * (y[:, None] == np.arange(5))
    proba = np.round(raw / raw.sum(axis=1, keepdims=True), 3)
    proba /= proba.sum(axis=1, keepdims=True)
    _, ours_cpu, _ = _seconds(
        lambda: [cm.ap_interval(y == k, proba[:, k], size=size, rng=0) for k in range(5)]
    )
    draw = np.random.default_rng(1)

    def items():
        for k in range(5):
            pos, neg = np.flatnonzero(y == k), np.flatnonzero(y != k)
            for _ in range(reference):
                idx = np.concatenate([draw.choice(pos, pos.size), draw.choice(neg, neg.size)])
                average_precision_score(y[idx] == k, proba[idx, k])

    _, items_cpu, _ = _seconds(items)
    return {
        "items": n_items,
        "classes": 5,
        "distinct_per_column": int(np.mean([np.unique(c).size for c in proba.T])),
        "resamples": size,
        "ap_five_classes_cpu_s": ours_cpu,
        "sklearn_resamples_timed": reference,
        "sklearn_items_cpu_s_scaled": items_cpu * size / reference,
        "cpu_speedup": items_cpu * size / reference / ours_cpu,
    }


REFERENCE_COMMIT = "e67cb27"


def _library_at(commit: str, folder: Path):
    """The library at ``commit``, imported as ``clfmetrics_<commit>``, or None without git."""
    root = Path(__file__).resolve().parents[1]
    try:
        archive = subprocess.run(
            ["git", "-C", str(root), "archive", commit, "src/clfmetrics"],
            capture_output=True,
            check=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    name = f"clfmetrics_{commit}"
    (folder / "src" / "clfmetrics").rename(folder / name)
    sys.path.insert(0, str(folder))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(folder))


def bench_versus_commit(n_items: int, distinct: int, size: int, repeat: int, rng) -> dict:
    """``auc_interval`` at ``n_items`` scores with ``distinct`` values, ours and e67cb27's.

    Where a class has fewer cells than ``3 sqrt(n)`` both draw the same way (numpy's
    multinomial, or the items), so the intervals are equal to the last bit.
    """
    y, s = _problem(n_items, distinct, rng)
    row = {"items": n_items, "distinct": int(np.unique(s).size), "resamples": size}
    with tempfile.TemporaryDirectory() as folder:
        old = _library_at(REFERENCE_COMMIT, Path(folder))
        if old is None:
            row["reference"] = f"git archive {REFERENCE_COMMIT} failed (no history)"
            return row
        times, ends = {"ours": [], "commit": []}, {}
        for _ in range(repeat):  # in turn, so that both see the same load
            for key, lib in (("ours", cm), ("commit", old)):
                wall, _, iv = _seconds(lambda lib=lib: lib.auc_interval(y, s, size=size, rng=0))
                times[key].append(wall)
                ends[key] = (iv.low, iv.high)
    ours, theirs = times["ours"], times["commit"]
    row.update(
        {
            "ours_s": statistics.median(ours),
            f"{REFERENCE_COMMIT}_s": statistics.median(theirs),
            "ratio_ours_to_commit": statistics.median(ours) / statistics.median(theirs),
            "same_interval": ends["ours"] == ends["commit"],
            "repeats": repeat,
        }
    )
    return row


def bench_report_scores(n_items: int, repeat: int, rng) -> dict:
    """``report(y, pred, scores=s)`` at continuous scores against one AP call (sklearn)."""
    from sklearn.metrics import average_precision_score

    y = (rng.random(n_items) < 0.3).astype(np.int64)
    s = 1 / (1 + np.exp(-rng.normal(1.5 * y - 0.5, 1.0)))
    pred = (s > 0.5).astype(np.int64)
    ours, theirs = [], []
    for _ in range(repeat):
        theirs.append(_seconds(lambda: average_precision_score(y, s))[0])
        ours.append(_seconds(lambda: cm.report(y, pred, scores=s))[0])
    return {
        "items": n_items,
        "report_s": statistics.median(ours),
        "average_precision_score_s": statistics.median(theirs),
        "ratio_to_one_ap_call": statistics.median(ours) / statistics.median(theirs),
        "repeats": repeat,
    }


def bench_auc(quick: bool) -> dict:
    rng = np.random.default_rng(18)
    if quick:
        big, cont, size, few, many, delong_n, repeat = 10**4, 10**3, 500, 2, 20, 10**4, 1
    else:
        big, cont, size, few, many, delong_n, repeat = 10**6, 10**5, 10**4, 3, 300, 10**6, 3
    versus = (10**4, 100, 500) if quick else (10**6, 900, 10**4)  # items, distinct, resamples
    return {
        "distinct": [bench_cells(big, 1000 if not quick else 100, size, few, rng)],
        "continuous": [bench_cells(cont, None, size, many, rng)],
        "delong": [bench_delong(delong_n, repeat, rng)],
        "proba_ap": [bench_proba_ap(10**4 if quick else 10**5, 200 if quick else 2000, 2, rng)],
        "versus_e67cb27": [bench_versus_commit(*versus, repeat + 2, rng)],
        "report_scores": [bench_report_scores(10**4 if quick else 10**6, repeat, rng)],
    }
