"""A small site of standalone pages, one per explorer, each with its page version.

Used by ``tests/book/test_page_explorers.py`` (and ``benchmarks/bench_pages.py`` when no
book is built): the same snippets the chapters show, wrapped in a minimal HTML page
that loads the book's ``_static`` files, so the browser tests need no book build.
"""

from __future__ import annotations

import functools
import html
import shutil
from pathlib import Path

import numpy as np

from clfbook.properties import property_table
from clfbook.widgets import (
    chance_baseline_simulator,
    confusion_matrix_explorer,
    cost_curve_explorer,
    f_measure_paradox_explorer,
    judge_explorer,
    macro_f1_explorer,
    metric_chooser,
    nonmonotonicity_explorer,
    prevalence_explorer,
    problem_chooser,
    threshold_explorer,
)
from clfbook.widgets.page import page_html

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "_static"

#: A small property table for the chooser (the chapter computes the full one).
CHOOSER_TABLE = {
    "accuracy": {"PI": True, "PII": False, "PIII": False, "PIV": False, "PV": False},
    "macro_recall": {"PI": True, "PII": True, "PIII": True, "PIV": True, "PV": True},
    "macro_f1": {"PI": True, "PII": True, "PIII": True, "PIV": False, "PV": False},
    "accuracy~": {"PI": True, "PII": True, "PIII": True, "PIV": True, "PV": True},
    "macro_f1~": {"PI": False, "PII": True, "PIII": True, "PIV": True, "PV": False},
}


@functools.cache
def problem_table() -> dict:
    """The computed property table (the chooser's pools rest on it), computed once."""
    return property_table().as_dict()


def screening_sample(n_items: int = 2000, seed: int = 0):
    """Labels and 2-decimal scores as in the chapter on scores (calibrated Beta(1, 4))."""
    rng = np.random.default_rng(seed)
    s = rng.beta(1.0, 4.0, n_items)
    return (rng.random(n_items) < s).astype(int), np.round(s, 2)


def _prevalence():
    explorer = prevalence_explorer([[15, 5], [10, 10]], ["x", "y"], live_figure=False)
    explorer.set_scale([1, 4])  # as in the chapter on the properties
    return explorer


def explorers(*kinds: str) -> dict:
    """One ipywidgets explorer per kind, in the starting states the chapters use (only the
    ``kinds`` named, when any are)."""
    tweets = [[40, 10, 5], [20, 120, 30], [5, 15, 60]]
    factories = {
        "confusion": lambda: confusion_matrix_explorer(
            tweets, ["negative", "neutral", "positive"], live_figure=False
        ),
        "macro_f1": lambda: macro_f1_explorer(2, live_figure=False),
        "nonmonotonicity": lambda: nonmonotonicity_explorer(live_figure=False),
        "paradox": lambda: f_measure_paradox_explorer(tp=0, fp=3, fn=0),
        "prevalence": _prevalence,
        # as in the chapter: 500 data sets per state keep the precomputation quick
        "chance": lambda: chance_baseline_simulator(3, live_figure=False, n_sets=500),
        "chooser": lambda: metric_chooser(CHOOSER_TABLE),
        "threshold": lambda: threshold_explorer(*screening_sample(), live_figure=False),
        "costs": lambda: cost_curve_explorer(*screening_sample(), live_figure=False),
        "problem": lambda: problem_chooser(problem_table()),
        # the chapter's chosen judge (the lenient prompt) on next month's answers, 5 % failing
        "judge": lambda: judge_explorer(
            0.7, 0.97, 0.05, names=("acceptable", "fails"), live_figure=False
        ),
    }
    assert set(kinds) <= set(factories), f"no explorer kinds {set(kinds) - set(factories)}"
    return {kind: make() for kind, make in factories.items() if not kinds or kind in kinds}


def standalone(snippet: str, title: str) -> str:
    """A minimal page that loads the book's static files and shows ``snippet``."""
    head = "".join(
        f'<link rel="stylesheet" href="{p.name}">' for p in sorted(STATIC.glob("*.css"))
    ) + "".join(f'<script src="{p.name}"></script>' for p in sorted(STATIC.glob("*.js")))
    return (
        f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}'
        f"</title>{head}</head><body><main><h1>{html.escape(title)}</h1>{snippet}</main>"
        "</body></html>"
    )


def write_site(directory: Path, objects: dict) -> dict[str, str]:
    """Write one page per explorer and the static files; return kind -> file name."""
    directory.mkdir(parents=True, exist_ok=True)
    for path in STATIC.iterdir():
        shutil.copy(path, directory / path.name)
    pages = {}
    for kind, explorer in objects.items():
        name = f"{kind}.html"
        (directory / name).write_text(standalone(page_html(explorer), f"{kind} explorer"))
        pages[kind] = name
    (directory / "blank.html").write_text(standalone("", "the JavaScript port"))
    return pages
