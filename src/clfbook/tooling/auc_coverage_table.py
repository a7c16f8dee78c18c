"""Write ``clfmetrics/inference/_auc_coverage_table.py``: the simulated coverage of the AUC
(and AP) intervals that the library ships and its small-class flag reads.

Run ``python -m clfbook.tooling.auc_coverage_table [--jobs 2]`` from the repository root
(with ``src`` first on ``PYTHONPATH``); it takes about twenty minutes of a core, and then
``ruff format`` leaves the written file as it is. Every cell is a call of the procedure the
library ships: :func:`clfmetrics.inference.auc_coverage` (binormal test sets, each
method's interval from :func:`clfmetrics.inference.auc_interval`, bootstraps of ``SIZE``
resamples), seeded by the cell's place in the grid, so a rerun writes the same file.

The grid: the smaller class of ``SMALL`` items, the larger ``RATIOS`` times as many (the
coverage falls as the larger class grows, so a reader rounds the ratio up), and the
population AUC in ``AUCS`` (the coverage falls towards 1: round up). The bootstrap methods
get ``SETS`` test sets a cell (``HEAVY_SETS`` in cells of more than ``HEAVY`` items, as their
cost grows with the items; ``STUDY_SETS`` in the cell chapter 16 quotes), the others
``FAST_SETS``. :func:`simulate_cell` is one cell's simulation, as this script runs it (a
chapter or a test reruns a cell with it and finds the table's numbers). The AP rows use
:func:`clfmetrics.inference.ap_interval` on test sets of the same design, the population AP
that of the binormal model at the test set's prevalence, by quadrature (scipy's normal).
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import pathlib
import time

import numpy as np
from scipy.stats import norm

import clfmetrics as cm

SMALL = (10, 14, 20, 30, 50, 100)
RATIOS = (1, 5, 25, 100)
AUCS = (0.7, 0.85, 0.9, 0.94, 0.96, 0.98, 0.99)
METHODS = ("percentile", "bca", "delong", "delong-logit", "newcombe")
#: The bootstrap methods get SETS test sets (HEAVY_SETS above HEAVY items), the others
#: FAST_SETS: they cost almost nothing.
BOOTSTRAPS = ("percentile", "bca")
LEVEL, SIZE, SETS, HEAVY, HEAVY_SETS, FAST_SETS, SEED = 0.95, 1000, 500, 3000, 200, 1000, 2026
#: The cell chapter 16 quotes for its weakest digit (14 images among 304, AUC about 0.96): its
#: bootstrap methods get STUDY_SETS test sets, enough to tell BCa's coverage from the
#: percentile interval's there.
STUDY, STUDY_SETS = (14, 25, 0.96), 2000
#: AP cells: (smaller class, ratio, AUC), the report's AP methods.
AP_GRID = ((14, 25, 0.96), (14, 25, 0.85), (30, 25, 0.96), (50, 25, 0.96), (200, 5, 0.88))
AP_METHODS = ("percentile", "bca")

OUT = pathlib.Path(cm.__file__).parent / "inference" / "_auc_coverage_table.py"


GRID = tuple((s, r, a) for s in SMALL for r in RATIOS for a in AUCS)
#: A cell's two simulations, each seeded by the cell's place in GRID and the part's here.
PARTS = (BOOTSTRAPS, tuple(m for m in METHODS if m not in BOOTSTRAPS))


def sets_of(small: int, ratio: int, auc: float, method: str) -> int:
    """The number of simulated test sets of a cell and method."""
    if method not in BOOTSTRAPS:
        return FAST_SETS
    if (small, ratio, auc) == STUDY:
        return STUDY_SETS
    return HEAVY_SETS if small * (1 + ratio) > HEAVY else SETS


def simulate_cell(small: int, ratio: int, auc: float, methods=METHODS) -> dict:
    """The table's simulation of one cell, for the parts that hold ``methods``: by method,
    ``cover``, ``above``, ``below`` and ``width`` (:func:`clfmetrics.auc_coverage`'s detail).

    A part is simulated whole (its methods share their test sets), seeded as the script
    seeds it, so the table's numbers come back to their last digit.
    """
    index = GRID.index((small, ratio, auc))
    found = {}
    for part, chosen in enumerate(PARTS):
        if not set(chosen) & set(methods):
            continue
        found |= cm.auc_coverage(
            small,
            small * ratio,
            auc,
            methods=chosen,
            sets=sets_of(small, ratio, auc, chosen[0]),
            level=LEVEL,
            size=SIZE,
            rng=[SEED, index, part],
            detail=True,
        )
    return found


def _auc_cell(job):
    cell = job[1]
    return cell, simulate_cell(*cell)


def population_ap(auc: float, prevalence: float) -> float:
    """AP of the binormal model (shift sqrt(2) probit(auc)) at this prevalence, by quadrature."""
    shift = math.sqrt(2) * norm.ppf(auc)
    t = np.linspace(-12, 14, 2_000_001)
    tpr, fpr = norm.sf(t - shift), norm.sf(t)
    precision = prevalence * tpr / np.maximum(prevalence * tpr + (1 - prevalence) * fpr, 1e-300)
    return float(np.sum(precision[:-1] * (tpr[:-1] - tpr[1:])))  # recall falls as t rises


def _ap_cell(job):
    index, (small, ratio, auc) = job
    truth = population_ap(auc, 1 / (1 + ratio))
    shift = math.sqrt(2) * norm.ppf(auc)
    y = np.r_[np.ones(small, np.int64), np.zeros(small * ratio, np.int64)]
    rng = np.random.default_rng([SEED, 10_000 + index])
    hits = dict.fromkeys(AP_METHODS, 0)
    for _ in range(FAST_SETS):
        s = rng.normal(shift * y, 1.0)
        for method in AP_METHODS:
            iv = cm.ap_interval(y, s, level=LEVEL, size=SIZE, method=method, rng=rng)
            hits[method] += bool(iv.low <= truth <= iv.high)
    return (small, ratio, auc), {m: h / FAST_SETS for m, h in hits.items()}


def _module(cells, ap_cells, seconds) -> str:
    lines = [
        '"""The simulated coverage of the ROC AUC and AP intervals (nominal 95 %), a table.',
        "",
        "Written by ``python -m clfbook.tooling.auc_coverage_table`` (see its docstring for how);",
        f"do not edit by hand. The run took {seconds / 60:.0f} minutes.",
        '"""',
        "",
        f"LEVEL, SIZE = {LEVEL}, {SIZE}",
        f"SMALL = {SMALL}",
        f"RATIOS = {RATIOS}",
        f"AUCS = {AUCS}",
        "METHODS = (" + ", ".join(f'"{m}"' for m in METHODS) + ")",
        f"SETS, HEAVY, HEAVY_SETS, FAST_SETS = {SETS}, {HEAVY}, {HEAVY_SETS}, {FAST_SETS}",
        f"SEED = {SEED}",
        "",
        "#: (smaller class, ratio, AUC, method): (cover, above, below, mean width, sets).",
        "CELLS = {",
    ]
    for (small, ratio, auc), found in sorted(cells):
        for method in METHODS:
            f = found[method]
            row = ", ".join(f"{f[k]:.4f}" for k in ("cover", "above", "below", "width"))
            sets = sets_of(small, ratio, auc, method)
            lines.append(f'    ({small}, {ratio}, {auc}, "{method}"): ({row}, {sets}),')
    lines += [
        "}",
        "",
        f"#: AP cells: (smaller class, ratio, AUC, method): cover ({FAST_SETS} sets).",
        "AP_CELLS = {",
    ]
    for (small, ratio, auc), found in sorted(ap_cells):
        for method in AP_METHODS:
            lines.append(f'    ({small}, {ratio}, {auc}, "{method}"): {found[method]:.4f},')
    return "\n".join([*lines, "}", ""])


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    jobs = sorted(enumerate(GRID), key=lambda job: -job[1][0] * (1 + job[1][1]))  # heavy first
    start = time.time()
    with multiprocessing.Pool(args.jobs) as pool:
        cells = []
        for done, cell in enumerate(pool.imap_unordered(_auc_cell, jobs), 1):
            cells.append(cell)
            print(f"{done}/{len(jobs)} {cell[0]} {time.time() - start:.0f} s", flush=True)
        ap_cells = pool.map(_ap_cell, list(enumerate(AP_GRID)))
    OUT.write_text(_module(cells, ap_cells, time.time() - start), encoding="utf-8")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
