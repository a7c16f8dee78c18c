"""How long an edit in each widget takes until its readout (and figure) is up to date.

A script, not a test: ``.venv/bin/python benchmarks/bench_widgets.py [--repeat N]``.
Each edit is made the way a user makes it, by setting ``.value`` on the
widget's own input (a ``BoundedIntText``, a slider, a button click), and timed
until the observers have finished. There is no browser, so the time is the
kernel's share: the readout is recomputed and written into the HTML widgets,
and, in the "with figure" column, the figure's artists are moved and the
image is re-rendered to PNG. Reported: median and 95th percentile in ms.
Goals: median <= 10 ms without the figure, <= 60 ms with it. The machine may
be shared, so the script also prints the load average.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import numpy as np

from clfbook.widgets import (
    chance_baseline_simulator,
    confusion_matrix_explorer,
    f_measure_paradox_explorer,
    macro_f1_explorer,
    metric_chooser,
    nonmonotonicity_explorer,
    prevalence_explorer,
    threshold_explorer,
)

TWEETS = [[60, 15, 5], [35, 170, 40], [5, 15, 55]]
#: 10**5 scores for the threshold explorer: its goal is stated for that size.
N_SCORES = 100_000


def _scores(n: int) -> tuple[np.ndarray, np.ndarray]:
    """n labels (a fifth positive) and scores that rank them imperfectly."""
    rng = np.random.default_rng(5)
    labels = (rng.random(n) < 0.2).astype(int)
    return labels, rng.random(n) + 0.5 * labels


TABLE = {
    "accuracy": {"PI": True},
    "macro_recall": {"PI": True, "PII": True, "PIII": True, "PIV": True, "PV": True},
    "kappa": {"PII": True, "PV": True},
    "kappa~": {"PII": True, "PV": True, "PIV": True},
}


def timed(obj, edit, repeat: int, warmup: int = 3) -> tuple[float, float, float]:
    """Wall median, wall 95th percentile and CPU median (ms) of ``edit(obj, k)``, k < repeat.

    ``warmup`` warm-up edits come first. The CPU time (``time.process_time``) is what the edit
    costs when the machine is not shared; the wall time is what a user waits.
    """
    for k in range(warmup):
        edit(obj, k)
    wall, cpu = [], []
    for k in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        edit(obj, k)
        wall.append((time.perf_counter() - start) * 1e3)
        cpu.append((time.process_time() - start_cpu) * 1e3)
    return statistics.median(wall), float(np.percentile(wall, 95)), statistics.median(cpu)


def cases(n_scores: int = N_SCORES):
    """(name, factory(live) -> object, edit(obj, k)) for every widget."""
    score_labels, scores = _scores(n_scores)

    def cm_edit(ex, k):
        ex.editor.boxes[1][2].value = 40 + k % 7

    def prev_edit(ex, k):
        ex.sliders[2].value = 1.0 + (k % 9) * 0.5

    def f1_edit(ex, k):
        ex.skew.value = (k % 11) / 10

    def nm_edit(ex, k):
        if k % 25 == 0:
            ex.reset_button.click()
        ex.add_button.click()

    def chance_edit(ex, k):
        ex.prevalence_sliders[0].value = 0.2 + (k % 8) / 10

    def paradox_edit(ex, k):
        ex.fp.value = k % 5

    def chooser_edit(ex, k):
        ex.checkboxes["PI"].value = k % 2 == 0

    def threshold_edit(ex, k):
        ex.slider.value = 0.2 + (k % 13) * 0.08

    return [
        (
            "confusion_matrix_explorer",
            lambda live: confusion_matrix_explorer(TWEETS, live_figure=live),
            cm_edit,
        ),
        (
            "prevalence_explorer",
            lambda live: prevalence_explorer(TWEETS, live_figure=live),
            prev_edit,
        ),
        ("macro_f1_explorer", lambda live: macro_f1_explorer(live_figure=live), f1_edit),
        (
            "nonmonotonicity_explorer",
            lambda live: nonmonotonicity_explorer(live_figure=live),
            nm_edit,
        ),
        (
            "chance_baseline_simulator (2000 x 200 items)",
            lambda live: chance_baseline_simulator(3, live_figure=live),
            chance_edit,
        ),
        (
            "f_measure_paradox_explorer (no figure)",
            lambda live: f_measure_paradox_explorer(),
            paradox_edit,
        ),
        ("metric_chooser (no figure)", lambda live: metric_chooser(TABLE), chooser_edit),
        (
            f"threshold_explorer (10^{len(str(n_scores)) - 1} scores)",
            lambda live: threshold_explorer(score_labels, scores, live_figure=live),
            threshold_edit,
        ),
    ]


def bench_widgets(repeat: int, warmup: int = 3, n_scores: int = N_SCORES) -> list[dict]:
    """One row per widget: edit -> readout, and edit -> readout and figure, in ms.

    ``n_scores``: the threshold explorer's size (``make bench QUICK=1``: 10**4; building it,
    which is not timed, draws its ROC band from resamples of every score).
    """
    rows = []
    for name, factory, edit in cases(n_scores):
        no_fig = timed(factory(False), edit, repeat, warmup)
        shown = factory(True)
        shown._repr_mimebundle_()  # shown as Jupyter shows it: a live figure renders each edit
        fig = timed(shown, edit, repeat, warmup)
        rows.append(
            {
                "widget": name,
                "readout_median_ms": no_fig[0],
                "readout_p95_ms": no_fig[1],
                "readout_cpu_median_ms": no_fig[2],
                "figure_median_ms": fig[0],
                "figure_p95_ms": fig[1],
                "figure_cpu_median_ms": fig[2],
            }
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=60, help="timed edits per widget")
    args = parser.parse_args()
    print(
        f"load average: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs; "
        f"{args.repeat} edits per widget; ms: wall median / wall p95 [CPU median]"
    )
    print(f"{'widget':46s} {'readout only':>24s} {'with figure':>26s}")
    for name, factory, edit in cases():
        no_fig = timed(factory(False), edit, args.repeat)
        fig = timed(factory(True), edit, args.repeat)
        print(
            f"{name:46s} {no_fig[0]:7.2f} / {no_fig[1]:7.2f} [{no_fig[2]:6.2f}]"
            f" {fig[0]:7.2f} / {fig[1]:7.2f} [{fig[2]:6.2f}]"
        )


if __name__ == "__main__":
    main()
