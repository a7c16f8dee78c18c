"""The chapter "From a score to a decision": its claims against independent computation.

Net benefit against ``dcurves``; net benefit as prevalence minus a cost (symbolically and
on the chapter's data); the cheapest cost-curve point against a brute-force search and the
ROC convex hull; the decision curve's ceiling against the best threshold in hindsight;
Bayes decisions against a loop over the classes and the median rule; the figures.
"""

from __future__ import annotations

import re

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
import sympy as sp
from chapter_text import ROOT, chapter
from dcurves import dca
from pybtex.database import parse_file
from scipy.spatial import ConvexHull

import clfmetrics as cm
from clfbook.examples.screening import (
    fit_logistic_1d,
    screening_data,
    screening_scores,
    split_indices,
)
from clfbook.plots.decisions import cost_curve_figure, decision_curve_figure, difference_figure
from clfbook.widgets.costs import cheapest_point, probability_cost

STEM = "15b-decisions"
THRESHOLDS = np.round(np.arange(0.05, 0.501, 0.01), 2)


@pytest.fixture(scope="module")
def screening():
    """The chapter's data and risks, drawn as its first cells draw them."""
    rng = np.random.default_rng(1602)
    x, y = screening_data(3000, rng=rng)
    x_cheap = x + rng.normal(0.0, 0.8, len(x))
    train, val, test = split_indices(len(y), (1000, 1000, 1000), rng=rng)
    risk_a = screening_scores(*fit_logistic_1d(x[train], y[train]), x)
    risk_b = screening_scores(*fit_logistic_1d(x_cheap[train], y[train]), x_cheap)
    return {"y": y, "x": x, "train": train, "val": val, "test": test, "a": risk_a, "b": risk_b}


def test_the_chapter_draws_the_data_as_the_fixture():
    text = chapter(STEM)
    assert "np.random.default_rng(1602)" in text
    assert "x_cheap = x + rng.normal(0.0, 0.8, len(x))" in text
    assert "split_indices(len(y), (1000, 1000, 1000), rng=rng)" in text
    assert "THRESHOLDS = np.round(np.arange(0.05, 0.501, 0.01), 2)" in text


def test_net_benefit_equals_dcurves_on_the_chapter_data(screening):
    y, test = screening["y"], screening["test"]
    frame = pd.DataFrame({"y": y[test], "a": screening["a"][test], "b": screening["b"][test]})
    out = dca(data=frame, outcome="y", modelnames=["a", "b"], thresholds=THRESHOLDS)
    for name in ("a", "b"):
        rows = out[out.model == name].sort_values("threshold")
        ours = cm.net_benefit(y[test], screening[name][test], THRESHOLDS)
        np.testing.assert_allclose(ours, rows.net_benefit.to_numpy(), rtol=0, atol=1e-12)
    dc = cm.decision_curve(y[test], screening["a"][test], THRESHOLDS, size=50, rng=0)
    rows = out[out.model == "all"].sort_values("threshold")
    np.testing.assert_allclose(dc.treat_all, rows.net_benefit.to_numpy(), rtol=0, atol=1e-12)


def test_net_benefit_is_prevalence_minus_cost(screening):
    """The chapter's theorem, symbolically and at every threshold of the chapter's data."""
    tp, fn, fp, tn, w = sp.symbols("TP FN FP TN w", nonnegative=True)
    n = tp + fn + fp + tn
    assert sp.simplify(tp / n - fp / n * w - ((tp + fn) / n - (fn + w * fp) / n)) == 0
    y, test = screening["y"][screening["test"]], screening["test"]
    for t in (0.05, 0.2, 0.37, 0.5):
        pred = (screening["a"][test] >= t).astype(int)
        m = cm.confusion_matrix(y, pred, labels=[0, 1])
        cost = cm.expected_cost(m, [[0, 1], [t / (1 - t), 0]])
        nb = cm.net_benefit(y, screening["a"][test], [t])[0]
        assert nb == pytest.approx(y.mean() - cost, abs=1e-12)


def test_the_exchange_rate_is_the_threshold():
    p, t, b, h = sp.symbols("p t B H", positive=True)
    root = sp.solve(sp.Eq(p * b - (1 - p) * h, 0), p)[0]
    assert sp.simplify(root.subs(h, b * t / (1 - t)) - t) == 0


def test_the_cheapest_point_is_brute_force_and_on_the_hull(screening):
    y, s = screening["y"][screening["test"]], screening["a"][screening["test"]]
    cc = cm.cost_curve(y, s)
    fpr, tpr, thr = cm.roc_curve(y, s)
    hull = ConvexHull(np.column_stack([np.r_[fpr, 1.0], np.r_[tpr, 0.0]]))
    vertices = {(round(fpr[k], 12), round(tpr[k], 12)) for k in hull.vertices if k < len(fpr)}
    prior = y.mean()
    for ratio in (0.2, 1.0, 5.0, 20.0):
        pc = probability_cost(ratio, prior)
        k, nec = cheapest_point(cc.lines, pc)
        costs = [
            (np.sum((s < t) & (y == 1)) * ratio + np.sum((s >= t) & (y == 0))) / len(y) for t in thr
        ]
        assert nec == pytest.approx(min(costs) / (prior * ratio + 1 - prior), abs=1e-12)
        assert costs[k] == pytest.approx(min(costs), abs=1e-12)
        assert (round(fpr[k], 12), round(tpr[k], 12)) in vertices, ratio
    # the area under the envelope is its mean over uniform PC (midpoint rule)
    grid = (np.arange(20_000) + 0.5) / 20_000
    mean = np.mean([cheapest_point(cc.lines, q)[1] for q in grid])
    assert cc.area == pytest.approx(mean, abs=1e-6)


def test_the_ceiling_is_the_best_threshold_in_hindsight(screening):
    """The chapter's ceiling from the cost curve equals the best net benefit of any
    threshold of the sweep, and no decision curve of the same ranking rises above it."""
    y, s = screening["y"][screening["test"]], screening["a"][screening["test"]]
    pi, w = y.mean(), THRESHOLDS / (1 - THRESHOLDS)
    lines = cm.cost_curve(y, s).lines
    env = np.array([cheapest_point(lines, q)[1] for q in probability_cost(1 / w, pi)])
    ceiling = pi - (pi + (1 - pi) * w) * env
    cuts = np.r_[np.inf, np.unique(s)]
    tp = np.array([np.sum((s >= c) & (y == 1)) for c in cuts]) / len(y)
    fp = np.array([np.sum((s >= c) & (y == 0)) for c in cuts]) / len(y)
    best = np.max(tp[None, :] - fp[None, :] * w[:, None], axis=1)
    np.testing.assert_allclose(ceiling, best, rtol=0, atol=1e-12)
    assert np.all(cm.net_benefit(y, s, THRESHOLDS) <= best + 1e-12)
    # an increasing map of the risks keeps the ROC curve, hence the ceiling
    squashed = s**3
    np.testing.assert_array_equal(cm.roc_curve(y, s)[1], cm.roc_curve(y, squashed)[1])
    assert np.all(cm.net_benefit(y, squashed, THRESHOLDS) <= best + 1e-12)
    assert np.mean(best - cm.net_benefit(y, squashed, THRESHOLDS)) > np.mean(
        best - cm.net_benefit(y, s, THRESHOLDS)
    ), "miscalibrated risks lie further below the ceiling"


def test_brier_curve_area_is_the_brier_score(screening):
    y, s = screening["y"][screening["test"]], screening["a"][screening["test"]]
    for p in (s, np.clip(s * 1.8, 0, 1)):
        assert cm.brier_curve(y, p).area == pytest.approx(np.mean((p - y) ** 2), abs=1e-12)


def test_bayes_decisions_under_distance_costs_are_the_median():
    rng = np.random.default_rng(36)
    proba = rng.dirichlet(np.full(10, 0.3), size=400)
    digits = np.arange(10)
    distance = np.abs(digits[:, None] - digits[None, :]).astype(float)
    up = np.where(digits[:, None] > digits[None, :], 3.0, 1.0) * distance
    for costs in (distance, up):
        brute = np.array(
            [
                min(range(10), key=lambda i, q=q: sum(costs[i, j] * q[j] for j in range(10)))
                for q in proba
            ]
        )
        np.testing.assert_array_equal(cm.bayes_decisions(proba, costs), brute)
    median = np.argmax(np.cumsum(proba, axis=1) >= 0.5, axis=1)
    np.testing.assert_array_equal(cm.bayes_decisions(proba, distance), median)
    assert np.any(median != proba.argmax(axis=1)), "not the argmax"


def test_figures_label_their_axes(screening):
    y, test = screening["y"], screening["test"]
    dc = cm.decision_curve(y[test], screening["a"][test], THRESHOLDS, size=50, rng=0)
    fig = decision_curve_figure({"A": dc}, extra={"bound": dc.net_benefit + 0.01})
    ax = fig.axes[0]
    assert ax.get_xlabel().startswith("threshold probability")
    assert ax.get_ylabel().startswith("net benefit")
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert {"A", "treat all", "treat none", "bound"} <= set(labels)
    d = cm.net_benefit_difference(
        y[test], screening["a"][test], screening["b"][test], THRESHOLDS, size=50, rng=0
    )
    ax = difference_figure(d).axes[0]
    assert ax.get_ylabel() == "difference in net benefit"
    ax = cost_curve_figure(cm.cost_curve(y[test], screening["a"][test]), pc={"x": 0.3}).axes[0]
    assert (ax.get_xlabel(), ax.get_ylabel()) == (
        "probability cost PC(+)",
        "normalized expected cost",
    )
    with pytest.raises(ValueError, match="at least one"):
        decision_curve_figure({})
    plt.close("all")


def test_the_chapter_cites_what_it_uses_and_sits_after_probabilities():
    text = chapter(STEM)
    keys = set(re.findall(r"\{cite(?::t)?\}`([^`]+)`", text))
    bib = parse_file(str(ROOT / "references.bib")).entries
    assert keys <= set(bib), keys - set(bib)
    for key in (
        "vickers2006decision",
        "drummond2006cost",
        "hernandezorallo2011brier",
        "hernandezorallo2012unified",
        "elkan2001foundations",
    ):
        assert key in keys, key
    toc = (ROOT / "_toc.yml").read_text()
    assert toc.index("chapters/15-probabilities") < toc.index(f"chapters/{STEM}")
    assert toc.index(f"chapters/{STEM}") < toc.index("chapters/16-real-classifier")
