"""How fast the library, the chapters and the symbolic derivations are.

Run with ``make bench`` (full, a few minutes) or ``make bench QUICK=1`` (seconds;
what ``make test`` checks). Prints a table and writes ``benchmarks/results.json``.

The machine is shared and noisy, so every timing is repeated and reported as
median and spread (min-max), and the library is judged by *ratios* measured in
the same run: each metric's time over one read pass of the same stack
(``stack.sum()``), the memory floor. The full run also audits four of the built
book's pages with Lighthouse beside a bare Jupyter Book page (bench_lighthouse.py).
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

import clfmetrics as cm
from clfbook.tooling.timing import count_stack, run_times
from clfmetrics._base.checks import as_confusion

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_auc import bench_auc
from bench_bands import bench_bands
from bench_corp import bench_corp
from bench_curves import bench_curves
from bench_decisions import bench_decisions
from bench_exact import bench_exact
from bench_intervals import bench_intervals
from bench_judges import bench_judges
from bench_lighthouse import bench_lighthouse
from bench_memory import bench_memory
from bench_pages import bench_pages
from bench_scale import bench_scale
from bench_widgets import bench_widgets

ROOT = Path(__file__).resolve().parents[1]
PER_CLASS = {"precision": cm.precision, "recall": cm.recall, "f1": cm.f1}


def timed(fn, repeat: int) -> dict:
    """Median, min and max wall time of ``fn()`` over ``repeat`` runs (after one warm-up)."""
    times = run_times(fn, repeat)
    return {"median": statistics.median(times), "min": min(times), "max": max(times)}


def bench_throughput(sizes: list[tuple[int, int]], repeat: int, rng) -> list[dict]:
    rows = []
    functions = {**cm.METRICS, **PER_CLASS}
    for size, n in sizes:
        stack = count_stack(size, n, rng)
        floor = timed(stack.sum, repeat)["median"]
        check = timed(lambda s=stack: as_confusion(s), repeat)["median"]
        rows.append(
            {
                "stack": size,
                "n": n,
                "metric": "(validation only)",
                "median_s": check,
                "ratio_to_floor": check / floor,
            }
        )
        for name, fn in functions.items():
            t = timed(lambda f=fn, s=stack: f(s), repeat)
            rows.append(
                {
                    "stack": size,
                    "n": n,
                    "metric": name,
                    "median_s": t["median"],
                    "min_s": t["min"],
                    "max_s": t["max"],
                    "ratio_to_floor": t["median"] / floor,
                }
            )
    return rows


def bench_vs_sklearn(lengths: list[int], repeat: int, rng, stack_size: int = 100_000) -> list[dict]:
    try:
        from sklearn import metrics as skm
    except ImportError:  # scikit-learn is a test dependency; skip when absent
        return []
    pairs = {
        "macro_f1": (lambda m: cm.macro_f1(m), lambda t, p: skm.f1_score(t, p, average="macro")),
        "weighted_f1": (
            lambda m: cm.weighted_f1(m),
            lambda t, p: skm.f1_score(t, p, average="weighted"),
        ),
        "mcc": (lambda m: cm.mcc(m), skm.matthews_corrcoef),
        "kappa": (lambda m: cm.kappa(m), skm.cohen_kappa_score),
        "accuracy": (lambda m: cm.accuracy(m), skm.accuracy_score),
    }
    rows = []
    for length in lengths:
        y_true = rng.integers(0, 3, size=length)
        y_pred = np.where(rng.random(length) < 0.7, y_true, rng.integers(0, 3, size=length))
        stack = count_stack(stack_size, 3, rng)
        for name, (ours, theirs) in pairs.items():
            rows.append(
                {
                    "labels": length,
                    "metric": name,
                    **_compare(ours, theirs, y_true, y_pred, stack, repeat),
                }
            )
    return rows


def _compare(ours, theirs, y_true, y_pred, stack, repeat: int) -> dict:
    t_sk = timed(lambda: theirs(y_true, y_pred), repeat)["median"]
    t_labels = timed(lambda: ours(cm.confusion_matrix(y_true, y_pred, labels=[0, 1, 2])), repeat)[
        "median"
    ]
    t_stack = timed(lambda: ours(stack), max(1, repeat // 2))["median"] / len(stack)
    return {
        "sklearn_s": t_sk,
        "ours_from_labels_s": t_labels,
        "ours_per_matrix_in_stack_s": t_stack,
        "speedup_from_labels": t_sk / t_labels,
        "speedup_per_matrix": t_sk / t_stack,
    }


def bench_growth(stack_sizes: list[int], class_counts: list[int], repeat: int, rng) -> dict:
    by_size = []
    for size in stack_sizes:
        stack = count_stack(size, 3, rng)
        by_size.append(
            {
                "stack": size,
                "macro_f1_s": timed(lambda s=stack: cm.macro_f1(s), repeat)["median"],
                "mcc_s": timed(lambda s=stack: cm.mcc(s), repeat)["median"],
            }
        )
    by_n = []
    for n in class_counts:
        stack = count_stack(max(10, 200_000 // (n * n)) if n > 3 else 20_000, n, rng)
        per = len(stack)
        by_n.append(
            {
                "n": n,
                "stack": per,
                "macro_f1_per_matrix_s": timed(lambda s=stack: cm.macro_f1(s), repeat)["median"]
                / per,
                "delta_f1_per_matrix_s": timed(lambda s=stack: cm.delta_f1(s), repeat)["median"]
                / per,
            }
        )
    return {"by_stack_size": by_size, "by_class_count": by_n}


def plot_growth(growth: dict, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from clfbook.plots import OKABE_ITO

    fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.5), layout="constrained")
    sizes = [r["stack"] for r in growth["by_stack_size"]]
    for k, key in enumerate(["macro_f1_s", "mcc_s"]):
        left.loglog(
            sizes,
            [r[key] for r in growth["by_stack_size"]],
            "o-",
            color=OKABE_ITO[k],
            label=key.removesuffix("_s"),
        )
    left.set_xlabel("matrices in the stack (3 x 3)")
    left.set_ylabel("time for the whole stack (s)")
    left.legend(frameon=False)
    ns = [r["n"] for r in growth["by_class_count"]]
    for k, key in enumerate(["macro_f1_per_matrix_s", "delta_f1_per_matrix_s"]):
        right.loglog(
            ns,
            [r[key] for r in growth["by_class_count"]],
            "o-",
            color=OKABE_ITO[k + 2],
            label=key.removesuffix("_per_matrix_s"),
        )
    right.set_xlabel("number of classes n")
    right.set_ylabel("time per matrix (s)")
    right.legend(frameon=False)
    fig.savefig(path, dpi=120)


def bench_chapters(quick: bool) -> list[dict]:
    sys.path.insert(0, str(ROOT / "tests" / "support"))
    from chapter_runner import execute, notebook_pages

    pages = notebook_pages()
    if quick:
        pages = pages[:1]
    rows = []
    for page in pages:
        start = time.perf_counter()
        execute(page, timeout=300)
        rows.append({"chapter": page.stem, "fresh_kernel_s": time.perf_counter() - start})
    return rows


def bench_cached_rebuild() -> dict:
    """Time of `jupyter-book build` when the book is already built and nothing changed."""
    jb = str(Path(sys.executable).parent / "jupyter-book")
    subprocess.run([jb, "build", str(ROOT), "-q"], check=True, capture_output=True)
    start = time.perf_counter()
    subprocess.run([jb, "build", str(ROOT), "-q"], check=True, capture_output=True)
    return {"cached_rebuild_s": time.perf_counter() - start}


def bench_symbolic(quick: bool) -> list[dict]:
    try:
        from clfbook.theory import lemma
    except ImportError:
        return []
    rows = []
    for n in [2] if quick else [2, 3, 4]:
        start = time.perf_counter()
        ok = lemma.delta_lemma_holds(n)
        rows.append(
            {
                "derivation": f"delta_lemma_holds({n})",
                "seconds": time.perf_counter() - start,
                "result": bool(ok),
            }
        )
    return rows


def print_table(title: str, rows: list[dict]) -> None:
    if not rows:
        return
    print(f"\n== {title}")
    keys = list(rows[0])
    fmt = [(k, max(len(k), *(len(_cell(r.get(k))) for r in rows))) for k in keys]
    print("  ".join(k.ljust(w) for k, w in fmt))
    for r in rows:
        print("  ".join(_cell(r.get(k)).ljust(w) for k, w in fmt))


def _cell(v) -> str:
    if isinstance(v, float):
        return f"{v:.3g}"
    return str(v)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="tiny sizes, one chapter: seconds")
    parser.add_argument(
        "--output",
        help="JSON file (default: benchmarks/results.json, "
        "or _build/bench-quick.json with --quick)",
    )
    args = parser.parse_args(argv)
    if args.output is None:
        args.output = str(
            ROOT / ("_build/bench-quick.json" if args.quick else "benchmarks/results.json")
        )
        Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(20261122)
    # quick: "it runs and writes every row", so the least work that still takes each row's
    # path: one timed run (no warm-up beyond run_times' own), tiny stacks
    repeat = 1 if args.quick else 7
    if args.quick:
        sizes, lengths = [(1_000, 3), (100, 13)], [300]
        stack_sizes, class_counts = [10**2, 10**3], [2, 5, 10]
    else:
        sizes, lengths = [(1_000_000, 3), (100_000, 13)], [300, 100_000]
        stack_sizes, class_counts = [10**3, 10**4, 10**5, 10**6, 10**7], [2, 3, 5, 10, 20, 50]
    results = {
        "machine": {
            "python": platform.python_version(),
            "numpy": np.__version__,
            "cpu_count": __import__("os").cpu_count(),
            "quick": args.quick,
        },
        "throughput": bench_throughput(sizes, repeat, rng),
        "vs_sklearn": bench_vs_sklearn(lengths, repeat, rng, 1_000 if args.quick else 100_000),
        "growth": bench_growth(stack_sizes, class_counts, 1 if args.quick else 3, rng),
        "symbolic": bench_symbolic(args.quick),
        "chapters": bench_chapters(args.quick),
        # quick: one timed edit, no warm-up, the threshold explorer on 10**3 scores (building
        # it on 10**5 is slow); each widget is still built with and without its figure
        "widgets": bench_widgets(1, warmup=0, n_scores=1_000) if args.quick else bench_widgets(60),
        "curves": bench_curves(1_000 if args.quick else 1_000_000, repeat, rng),
        "intervals": bench_intervals(args.quick),
        "auc": bench_auc(args.quick),
        "bands": bench_bands(args.quick),
        "corp_band": bench_corp(args.quick),
        "decisions": bench_decisions(args.quick),
        "exact": bench_exact(args.quick),
        "judges": bench_judges(args.quick),
        # quick: the eleven explorers on one page, loaded once (the full run: every page)
        "pages": bench_pages(1, together=True) if args.quick else bench_pages(3),
        "scale": bench_scale(args.quick),
        "memory": bench_memory(args.quick),
    }
    if not args.quick:
        results["cached_rebuild"] = bench_cached_rebuild()
        # Lighthouse needs the built book, so it runs after the rebuild (minutes: not in --quick)
        results["lighthouse"] = bench_lighthouse()
        plot_growth(results["growth"], ROOT / "benchmarks" / "cost_growth.png")
    print_table("library throughput (ratio = time / one stack.sum())", results["throughput"])
    print_table("per problem versus scikit-learn", results["vs_sklearn"])
    print_table("cost growth with stack size", results["growth"]["by_stack_size"])
    print_table("cost growth with class count", results["growth"]["by_class_count"])
    print_table("symbolic derivations", results["symbolic"])
    print_table("chapters on a fresh kernel", results["chapters"])
    print_table("widgets: edit -> updated readout / figure (ms)", results["widgets"])
    print_table("threshold sweep versus scikit-learn (ratio < 1: faster)", results["curves"])
    print_table("bootstrap intervals, labels counted first", results["intervals"]["interval"])
    print_table("paired interval of macro F1", results["intervals"]["paired"])
    print_table("item resampling with scikit-learn", results["intervals"]["item_resampling"])
    print_table("AUC intervals, 1,000 distinct scores", results["auc"]["distinct"])
    print_table("AUC intervals, continuous scores", results["auc"]["continuous"])
    print_table("DeLong versus confidenceinterval", results["auc"]["delong"])
    print_table("one-vs-rest AP intervals, 5 classes", results["auc"]["proba_ap"])
    print_table("auc_interval against e67cb27 (issue 39)", results["auc"]["versus_e67cb27"])
    print_table("report with scores against one AP call", results["auc"]["report_scores"])
    print_table("ROC/PR bands, 1,000 distinct scores", results["bands"]["distinct"])
    print_table("ROC/PR bands, continuous scores", results["bands"]["continuous"])
    print_table("CORP consistency band", results["corp_band"])
    print_table("net benefit versus dcurves", results["decisions"]["net_benefit"])
    print_table("decision curve band versus dca per resample", results["decisions"]["band"])
    print_table("report --net-benefit through DuckDB", results["decisions"]["scale"])
    print_table("exact intervals, one call, versus scipy's binomtest per class", results["exact"])
    print_table("agreement versus statsmodels and krippendorff", results["judges"]["agreement"])
    print_table("prevalence with its interval versus QuaPy", results["judges"]["prevalence"])
    print_table("page explorers: weight and time to interactive, cold cache", results["pages"])
    print_table("paired comparison at scale (fresh process each)", results["scale"])
    print_table("bounded memory: many classes, many rows (limit 1 GB)", results["memory"])
    if "cached_rebuild" in results:
        print_table("cached rebuild", [results["cached_rebuild"]])
    lighthouse = results.get("lighthouse", {})
    print_table(
        "Lighthouse, mobile, gzipped loopback (goals: a11y/BP 100, SEO >= 95, "
        "performance, median of 5, within 5 of the bare page)",
        lighthouse.get("pages", []),
    )
    Path(args.output).write_text(json.dumps(results, indent=2))
    print(f"\nwrote {args.output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
