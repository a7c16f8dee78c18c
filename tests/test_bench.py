"""`make bench QUICK=1` runs and writes a well-formed result file (benchmarks are not tests)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from chapter_runner import ROOT


@pytest.mark.bench
@pytest.mark.browser  # the quick bench opens pages in Chromium
def test_quick_benchmark_runs(tmp_path):
    """The quick benchmark finishes and reports every metric with a positive ratio to the floor."""
    out = tmp_path / "bench.json"
    proc = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "run.py"), "--quick", "--output", str(out)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    results = json.loads(out.read_text())
    import clfmetrics

    measured = {row["metric"] for row in results["throughput"]}
    assert set(clfmetrics.METRICS) <= measured
    assert all(row["ratio_to_floor"] > 0 for row in results["throughput"])
    assert results["chapters"] and results["chapters"][0]["fresh_kernel_s"] > 0
    widgets = {row["widget"].split()[0] for row in results["widgets"]}
    assert len(widgets) == 8, widgets
    assert all(row["figure_median_ms"] > 0 for row in results["widgets"])
    curves = {row["function"]: row for row in results["curves"]}
    assert {"roc_auc", "average_precision", "threshold_stack (full sweep)"} <= set(curves)
    assert all(row["ratio_ours_to_sklearn"] > 0 for row in curves.values())
    auc = results["auc"]
    for key in ("distinct", "continuous"):
        (row,) = auc[key]
        assert row["auc_percentile_s"] > 0 and row["speedup"] > 0
        assert row["auc_low"] < row["auc_high"]
    for key in ("distinct", "continuous"):
        (row,) = results["bands"][key]
        assert row["roc_band_s"] > 0 and row["speedup"] > 0 and 0 < row["mean_width"] < 1
    (corp,) = results["corp_band"]  # issue 27: against IsotonicRegression per resample
    assert corp["ours_cpu_s"] > 0 and corp["speedup"] > 1 and 0 < corp["mean_width"] < 1
    (nb,) = results["decisions"]["net_benefit"]  # issue 36: against dcurves in one run
    assert nb["ours_s"] > 0 and nb["speedup"] > 0 and nb["max_difference"] < 1e-12, nb
    (band,) = results["decisions"]["band"]
    assert band["band_s"] > 0 and band["speedup"] > 1 and 0 < band["mean_width"] < 1, band
    # --net-benefit through DuckDB's counts: one system, then two (the paired difference)
    big, small, paired_big, paired = results["decisions"]["scale"]
    assert big["rows"] > small["rows"] and big["seconds"] > 0 and big["peak_mb"] > 0, big
    assert small["speedup"] > 0 and small["reference_seconds"] > 0, small
    assert paired_big["rows"] == big["rows"] and paired_big["seconds"] > 0, paired_big
    assert paired["speedup"] > 0 and paired["reference_seconds"] > 0, paired
    (exact,) = results["exact"]  # Clopper-Pearson on 36 classes, ours and scipy's
    assert exact["ours_s"] > 0 and exact["ratio_ours_to_scipy"] > 0
    assert exact["max_end_difference"] < 1e-10
    agreement = results["judges"]["agreement"]  # issue 37: statsmodels, krippendorff
    assert len(agreement) == 4 and all(r["ours_s"] > 0 and r["speedup"] > 0 for r in agreement)
    assert all(r["max_difference"] < 1e-12 for r in agreement if "max_difference" in r)
    adjusted, em = results["judges"]["prevalence"]  # issue 37: against QuaPy per resample
    assert adjusted["max_difference"] < 1e-12 and adjusted["speedup"] > 1, adjusted
    assert em["max_difference_at_quapys_tolerance"] < 1e-3 and em["speedup"] > 0, em
    scale = {(row["what"], row["file"]): row for row in results["scale"]}
    assert len(scale) == 4 and all(r["seconds"] > 0 and r["peak_mb"] > 0 for r in scale.values())
    memory = results["memory"]  # issue 26: many classes and many rows, against 1 GB
    assert len(memory) == 5 and all(r["seconds"] > 0 and r["memory_ratio"] > 0 for r in memory)
    assert all(r["under_limit"] for r in memory), memory
    (ap,) = auc["proba_ap"]  # issue 26: the AP bootstraps of a 5-class --proba report
    assert ap["ap_five_classes_cpu_s"] > 0 and ap["cpu_speedup"] > 1, ap
    (commit,) = auc["versus_e67cb27"]  # issue 39: against e67cb27's code, in the same run
    assert commit["ratio_ours_to_commit"] > 0 and commit["same_interval"], commit
    (report,) = auc["report_scores"]  # issue 39: the report against one AP call
    assert report["report_s"] > 0 and report["ratio_to_one_ap_call"] > 0, report
    (delong,) = auc["delong"]
    assert delong["delong_s"] > 0
    assert delong.get("end_difference", 0) < 1e-4  # the same interval as confidenceinterval
    pages = results["pages"]  # the page explorers, in Chromium (make test installs it)
    assert sum(row["explorers"] for row in pages) >= 8, pages
    assert all(row["weight_kB"] > row["explorer_kB"] > 0 for row in pages), pages
    assert all(row["interactive_ms"] > 0 for row in pages), pages


def test_lighthouse_lock_needs_no_moving_dist_tag():
    """``npm ci`` of benchmarks/ refuses a lock that no longer satisfies package.json.

    A dependency asked for by a dist-tag ("latest") is satisfied by the locked version only
    until the tag moves: Lighthouse's trace engine asks for ``third-party-web@latest``, and
    when 0.30.0 came out the locked 0.27.0 stopped matching, so ``make bench`` failed at
    ``npm ci`` on a fresh machine. Every such dependency must be pinned by an override.
    """
    bench = ROOT / "benchmarks"
    lock = json.loads((bench / "package-lock.json").read_text())
    overrides = json.loads((bench / "package.json").read_text()).get("overrides", {})
    tagged = {
        (path.rsplit("node_modules/", 1)[-1], dep)
        for path, entry in lock["packages"].items()
        for dep, spec in entry.get("dependencies", {}).items()
        if spec[:1].isalpha()  # a dist-tag, not a version range
    }
    unpinned = [(pkg, dep) for pkg, dep in tagged if dep not in overrides.get(pkg, {})]
    assert not unpinned, f"dependencies asked for by a dist-tag, not pinned: {unpinned}"
    for pkg, dep in tagged:
        locked = lock["packages"][f"node_modules/{dep}"]["version"]
        assert overrides[pkg][dep] == locked, (pkg, dep, locked)
