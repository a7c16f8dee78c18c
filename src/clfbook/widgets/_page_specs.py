"""What the page version of each explorer needs, computed by the library at build time.

One function per explorer turns an ipywidgets explorer into a JSON-ready dict (its
*spec*): the starting state read off the explorer object, and whatever the browser
cannot compute from the formulas of ``_static/clfmetrics.js``: a sweep (the threshold
explorer's stack) or a grid of simulations (the chance simulator). Convention:
``m[i, j]`` = predicted ``i``, true ``j``.
"""

from __future__ import annotations

import itertools

import numpy as np

from clfmetrics import METRICS
from clfmetrics.inference._simulate import random_classifier

from ..properties import PROPERTIES
from ..properties.chooser import PITFALLS, QUESTIONS, choose, every_answer, metric_plan
from . import judge
from .chance import SHOWN, normalise, omega
from .costs import LOG_RATIO, probability_cost
from .intervals import LEVEL, SCALES
from .macro_f1 import PRESETS, SKEW_GRID, delta_supremum
from .nonmonotonicity import TRACE_METRICS
from .paradox import PROPOSITIONS, SOURCE_VERDICTS
from .problem import DEFAULT_COSTS, NUMBER, pitfall_links
from .threshold import BAND_SIZE, CURVE_METRICS, RATES

#: Slider levels of the chance simulator's page version: each weight is 0, 1/2 or 1.
CHANCE_LEVELS = (0.0, 0.5, 1.0)
#: Most classes the chance simulator's page version precomputes (3^n weight vectors each).
CHANCE_MAX_N = 3
#: Exponents of the prevalence sliders: λ = 10^e for e = -2, -1.95, ..., 2 (as the widget).
LOG_LAMBDA = np.round(np.arange(-40, 41) * 0.05, 2)
#: Bins of the two score histograms.
SCORE_BINS = 30


def _matrix(m) -> list[list[int]]:
    return np.asarray(m).astype(np.int64).tolist()


def confusion_spec(ex) -> dict:
    """The matrix and class names of a :class:`ConfusionMatrixExplorer`, the level of its
    exact intervals and the count scales of its narrowing figure (``intervals.SCALES``)."""
    return {
        "matrix": _matrix(ex.matrix),
        "labels": ex._names(),
        "metrics": list(METRICS),
        "level": LEVEL,
        "scales": list(SCALES),
    }


def macro_f1_spec(ex) -> dict:
    """Matrix, presets, skew grid and the supremum of Δ for 2 and 3 classes."""
    return {
        "matrix": _matrix(ex.matrix),
        "presets": PRESETS,
        "grid": SKEW_GRID.tolist(),
        "supremum": {str(n): float(delta_supremum(n)) for n in (2, 3)},
    }


def nonmonotonicity_spec(ex) -> dict:
    """The starting matrix, the class names, the selected cell and the traced metrics."""
    return {
        "matrix": _matrix(ex._start),
        "labels": list(ex._names),
        "cell": list(ex.cell.value),
        "step": int(ex.step.value),
        "metrics": list(TRACE_METRICS),
    }


def paradox_spec(ex) -> dict:
    """TP, FP, FN, TN and the four propositions with the talk's verdicts."""
    return {
        "counts": [int(ex.tp.value), int(ex.fp.value), int(ex.fn.value), int(ex._tn)],
        "propositions": {str(k): v for k, v in PROPOSITIONS.items()},
        "verdicts": {str(k): list(v) for k, v in SOURCE_VERDICTS.items()},
    }


def prevalence_spec(ex) -> dict:
    """The matrix, class names and, per class, the λ of every slider position.

    The positions are λ = 10^e of the widget's slider; the explorer's current λ_j is
    added as a stop of its own when it lies between them, so the page starts where
    the explorer (and the chapter's figure) stands.
    """
    grid = 10.0**LOG_LAMBDA
    lambdas = [sorted(set(grid.tolist()) | {float(x)}) for x in ex.scale]
    return {
        "matrix": _matrix(ex._m),
        "labels": list(ex._names),
        "metrics": list(METRICS),
        "lambdas": lambdas,
        "start": [stops.index(float(x)) for stops, x in zip(lambdas, ex.scale, strict=True)],
    }


def chance_vectors(n: int) -> tuple[list[tuple], dict[str, int]]:
    """The distinct normalised weight vectors of the slider levels, and level key -> index."""
    vectors: list[tuple] = []
    index: dict[str, int] = {}
    for levels in itertools.product(range(len(CHANCE_LEVELS)), repeat=n):
        weights = [CHANCE_LEVELS[k] for k in levels]
        if sum(weights) == 0:
            continue
        v = tuple(normalise(weights, n, "weights").tolist())
        if v not in vectors:
            vectors.append(v)
        index[",".join(map(str, levels))] = vectors.index(v)
    return vectors, index


def chance_spec(ex) -> dict:
    """Simulated mean, 5 % and 95 % quantile of every metric for every pair of slider states.

    The simulation is random, so the browser cannot redo it; the library runs it at
    build time for each pair (prevalence, prediction) of distinct normalised weight
    vectors with every weight 0, 1/2 or 1, with the simulator's data sets, items and
    seed. Values are kept to the 4 decimals of the readout (as integers, times 10^4).
    """
    n = ex.n
    if n > CHANCE_MAX_N:
        raise ValueError(f"the page version simulates up to {CHANCE_MAX_N} classes; got n = {n}")
    vectors, index = chance_vectors(n)
    settings = {"n_sets": ex.n_sets.value, "n_items": ex.n_items.value, "seed": ex.seed.value}
    # Each pair draws from its own generator seeded as the simulator's (the numbers of
    # simulate_chance); the metrics then score all pairs' data sets as one stack.
    pairs = list(itertools.product(vectors, repeat=2))
    stack = np.stack(
        [
            random_classifier(
                p, z, settings["n_items"], size=settings["n_sets"], rng=settings["seed"]
            )
            for p, z in pairs
        ]
    )
    columns = []
    for func in METRICS.values():
        values = np.asarray(func(stack), dtype=np.float64).reshape(len(pairs), -1)
        q05, q95 = np.quantile(values, [0.05, 0.95], axis=1)
        columns.append((values.mean(axis=1), q05, q95))
    stats = [
        [[_tenthousandths(float(c[row])) for c in column] for column in columns]
        for row in range(len(pairs))
    ]
    return {
        "n": n,
        "levels": list(CHANCE_LEVELS),
        "vectors": [list(v) for v in vectors],
        "index": index,
        "settings": settings,
        "metrics": list(METRICS),
        "shown": list(SHOWN),
        "omega": {k: omega(k, n) for k in METRICS},
        "stats": stats,
    }


def _tenthousandths(x: float) -> int:
    """``x`` as the integer of its readout ``f"{x:.4f}"`` without the point (exact, no float
    product that could round a last digit the other way)."""
    return int(f"{x:.4f}".replace(".", ""))


def chooser_spec(ex) -> dict:
    """The property table (metric -> code -> bool) and the property names."""
    return {"table": ex.table, "properties": PROPERTIES}


def answers_key(answers: dict) -> str:
    """The key of a combination of answers in :func:`problem_spec`'s ``answers``."""
    return "|".join(answers[key] for key in QUESTIONS)


def problem_spec(ex) -> dict:
    """Every combination of answers (216) with what :func:`clfbook.properties.chooser.choose`
    makes of it, so that the page shows the library's pool and plan and computes nothing.

    ``answers[answers_key(a)]`` holds the required property codes, the pool and the metrics
    left out (indices into ``entries``: metric, reason, evidence, pitfall key), the notes
    (indices into ``notes``), the thresholds of interest and ``plan``, the keys of
    :func:`~clfbook.properties.chooser.metric_plan`'s dict in order (its values are the
    pool's, the answers', the thresholds and the reader's costs and prevalence).
    """
    entries: list = []
    notes: list = []

    def index(items: list, item) -> int:
        if item not in items:
            items.append(item)
        return items.index(item)

    def entry(e) -> dict:
        key = next((k for k, p in PITFALLS.items() if p is e.pitfall), None)
        return {"metric": e.metric, "reason": e.reason, "properties": e.properties,
                "pitfall": key}  # fmt: skip

    table = {}
    for a in every_answer():
        c = choose(a, ex.table)
        # Stand-in costs and prevalence: only which keys the plan has is kept.
        plan = metric_plan(c, costs=[[0.0]], deployment_prevalence=0.5)
        table[answers_key(a)] = {
            "required": list(c.required),
            "pool": [index(entries, entry(e)) for e in c.pool],
            "left_out": [index(entries, entry(e)) for e in c.left_out],
            "notes": [index(notes, n) for n in c.notes],
            "thresholds": None if c.thresholds is None else list(c.thresholds),
            "plan": list(plan),
        }
    links = pitfall_links()
    return {
        "questions": [[k, q, list(options.items())] for k, (q, options) in QUESTIONS.items()],
        "properties": PROPERTIES,
        "pitfalls": {
            k: {"section": p.section, "what": p.what, "href": links[k]} for k, p in PITFALLS.items()
        },
        "entries": entries,
        "notes": notes,
        "answers": table,
        "start": ex.answers(),
        "prevalence": ex.prevalence.value,
        "costs": ex.costs.value,
        "default_costs": DEFAULT_COSTS,
        "number": NUMBER.pattern,
    }


def threshold_spec(ex) -> dict:
    """The sweep (one 2x2 matrix per distinct score), the slider, the score histograms and
    the ROC band the explorer computed (``ex.band``, from :func:`clfmetrics.inference.roc_band`:
    a bootstrap, so the page draws the library's arrays; the operating point's exact
    intervals the page computes itself, as ``clfbook.widgets.intervals``).

    ``stack[k]`` = ``[[TN, FN], [FP, TP]]`` predicting positive the ``k`` highest distinct
    scores; the items at each distinct score are the differences of consecutive matrices,
    so the two score distributions (negatives, positives) come from the stack too.
    """
    stack = np.asarray(ex.stack, dtype=np.int64)
    scores = np.asarray(ex.thresholds[1:], dtype=float)
    # Items newly predicted positive at each distinct score, per true class.
    new_pos = np.diff(stack[:, 1, :], axis=0)
    edges = np.linspace(scores.min(), scores.max(), SCORE_BINS + 1)
    hist = [np.histogram(scores, bins=edges, weights=new_pos[:, j])[0] for j in (0, 1)]
    low, step = float(ex.slider.min), float(ex.slider.step)
    return {
        "thresholds": scores.tolist(),  # the +inf of the sweep is implied before them
        "stack": stack.reshape(len(stack), 4).tolist(),
        "low": low,
        "step": step,
        "steps": round((float(ex.slider.max) - low) / step),
        "start": round((ex.threshold - low) / step),
        "edges": edges.tolist(),
        "negatives": hist[0].astype(int).tolist(),
        "positives": hist[1].astype(int).tolist(),
        "metrics": list(METRICS),
        "curves": {label: fn.__name__ for label, fn in CURVE_METRICS.items()},
        "level": ex.band.level,
        "band": {
            key: np.asarray(getattr(ex.band, key), dtype=float).tolist()
            for key in ("x", "y", "low", "high")
        }
        | {"simultaneous": ex.band.simultaneous, "size": BAND_SIZE},
        "rates": RATES,
    }


def costs_spec(ex) -> dict:
    """The cost lines of every ROC point, the prior, the slider's stops with their PC(+)
    (computed here, so the page compares the lines at the library's very numbers) and the
    envelope on its grid.

    ``lines[k] = [FPR_k, FNR_k]`` in sweep order (``+inf`` first); ``thresholds`` are the
    finite thresholds of points 1, 2, ...; the page picks the first line of least
    ``FPR_k (1 - PC) + FNR_k PC``, as :func:`clfbook.widgets.costs.cheapest_point`.
    """
    pcs = probability_cost(10.0**LOG_RATIO, ex.prior)
    return {
        "lines": np.asarray(ex.curve.lines, dtype=float).tolist(),
        "thresholds": np.asarray(ex.thresholds[1:], dtype=float).tolist(),
        "prior": ex.prior,
        "exponents": LOG_RATIO.tolist(),
        "ratios": (10.0**LOG_RATIO).tolist(),
        "pcs": np.asarray(pcs, dtype=float).tolist(),
        "start": int(np.argmin(np.abs(LOG_RATIO - ex._e))),
        "grid": np.asarray(ex.curve.pc, dtype=float).tolist(),
        "envelope": np.asarray(ex.curve.nec, dtype=float).tolist(),
        "area": float(ex.curve.area),
    }


def judge_spec(ex) -> dict:
    """The stops of the four sliders, where each starts, the deployment items, the level
    with its z (from the library's ``NormalDist``, so the page multiplies by the very
    number), the class names, the coefficients' labels and the figures' prevalence grid.
    Every readout value is a closed form of these, computed in the page as
    :func:`clfbook.widgets.judge.agreement_values` and ``prevalence_values``."""
    stops = {
        "sensitivity": judge.RATES.tolist(),
        "specificity": judge.RATES.tolist(),
        "prevalence": judge.PREVALENCES.tolist(),
        "labels": list(judge.HAND_LABELS),
    }
    return {
        "stops": stops,
        "start": {key: values.index(getattr(ex, key)) for key, values in stops.items()},
        "deployment": ex.deployment,
        "level": ex.level,
        "z": ex.estimates()["z"],
        "names": list(ex.names),
        "coefficients": {key: label for key, (label, _) in judge.COEFFICIENTS.items()},
        "grid": judge.GRID.tolist(),
        "note": judge.INTERVAL_NOTE,
    }
