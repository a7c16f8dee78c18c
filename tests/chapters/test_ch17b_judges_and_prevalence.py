"""Chapter 17b (17b-judges-and-prevalence.md): its claims, against independent references.

The chapter's code cells run once in this process (as the wrong-answers test does); its
numbers are then recomputed with scikit-learn, statsmodels, the ``krippendorff`` package and
QuaPy, or by hand, and the claims the prose makes about them are checked.
"""

from __future__ import annotations

import contextlib
import io
import itertools

import krippendorff
import matplotlib
import matplotlib.pyplot as plt
import numpy as np
import pytest
from chapter_runner import read_notebook
from chapter_text import ROOT, chapter
from quapy.method.aggregative import EMQ
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats.inter_rater import fleiss_kappa

STEM = "17b-judges-and-prevalence"


@pytest.fixture(scope="module")
def ns():
    """The namespace of the chapter's code cells, run in order (checks included)."""
    matplotlib.use("Agg")
    namespace: dict = {}
    with contextlib.chdir(ROOT / "chapters"), contextlib.redirect_stdout(io.StringIO()):
        for cell in read_notebook(ROOT / "chapters" / f"{STEM}.md").cells:
            if cell.cell_type == "code":
                exec(cell.source, namespace)
                plt.close("all")
    return namespace


def _items(m):
    """The items of a cross-table m[i, j] (rows = the judge), as (truth, judge) labels."""
    pred, true = np.indices(m.shape).reshape(2, -1)
    return np.repeat(true, m.ravel()), np.repeat(pred, m.ravel())


def test_the_prompt_is_chosen_on_validation_and_kappa_reported_on_test(ns):
    truth, test, val = ns["truth"], ns["test"], ns["val"]
    assert set(test).isdisjoint(val)
    scores = {n: cohen_kappa_score(truth[val], v[val]) for n, v in ns["verdicts"].items()}
    assert ns["chosen"] == max(scores, key=scores.get)
    judged = ns["verdicts"][ns["chosen"]][test]
    assert ns["k_test"].estimate == pytest.approx(cohen_kappa_score(truth[test], judged))
    assert ns["k_test"].low < ns["k_test"].estimate < ns["k_test"].high


def test_the_smallest_paradox_is_the_smallest():
    """Every 2x2 table with fewer items, both raters using both classes: none agrees on
    90 % with kappa <= 0 (kappa by scikit-learn)."""

    def hits(total):
        for a, b, c in itertools.product(range(total + 1), repeat=3):
            m = np.array([[a, b], [c, total - a - b - c]])
            if m[1, 1] < 0 or (m.sum(axis=0) == 0).any() or (m.sum(axis=1) == 0).any():
                continue
            if np.trace(m) >= 0.9 * total and cohen_kappa_score(*_items(m)) <= 0:
                yield m

    assert not any(next(hits(total), None) is not None for total in range(2, 20))
    first = next(hits(20))
    assert first.sum() == 20 and cohen_kappa_score(*_items(first)) < 0


def test_the_counterexamples_as_the_text_reads_them(ns):
    lopsided, balanced, never = ns["lopsided"], ns["balanced"], ns["never"]
    assert ns["total"] == 20 and lopsided.sum() == balanced.sum() == 20
    assert np.trace(lopsided) == np.trace(balanced) == 18
    assert cohen_kappa_score(*_items(lopsided)) < 0 < cohen_kappa_score(*_items(balanced))
    assert cohen_kappa_score(*_items(never)) == pytest.approx(0.0)
    # Gwet's AC1 of two raters from its definition: chance = sum pi_k (1 - pi_k) / (q - 1).
    pi = (never.sum(axis=0) + never.sum(axis=1)) / (2 * never.sum())
    chance = np.sum(pi * (1 - pi))
    ac1 = (np.trace(never) / never.sum() - chance) / (1 - chance)
    assert ns["cm"].gwet_ac1(never) == pytest.approx(ac1) and ac1 > 0.9
    assert ns["cm"].pabak(never) == pytest.approx(2 * np.trace(never) / never.sum() - 1)


def test_kappa_falls_towards_zero_at_both_ends_while_accuracy_stays():
    from clfbook.plots.judges import judge_matrices

    counts = np.rint(judge_matrices([0.01, 0.5, 0.99], 0.9, 0.9) * 10_000).astype(int)
    kappas = [cohen_kappa_score(*_items(m)) for m in counts]
    assert kappas[0] < 0.2 and kappas[2] < 0.2 and kappas[1] == pytest.approx(0.8)
    np.testing.assert_allclose([np.trace(m) / m.sum() for m in counts], 0.9)


def test_weighted_kappa_of_the_rubric_is_scikit_learns(ns):
    grades, judged, test = ns["grades"], ns["judged"], ns["test"]
    for w in ("linear", "quadratic"):
        ref = cohen_kappa_score(grades[test], judged[test], weights=w)
        assert ns["rubric"][w].estimate == pytest.approx(ref)
    # the order the text states: near misses earn more credit under heavier weights
    est = {w: iv.estimate for w, iv in ns["rubric"].items()}
    assert est["unweighted"] < est["linear"] < est["quadratic"]


def test_fleiss_and_alpha_are_statsmodels_and_krippendorffs(ns):
    raters = list(ns["raters"].values())
    assert raters[0].estimate == pytest.approx(fleiss_kappa(ns["table"]))
    for iv, data in ((raters[1], ns["ratings"]), (raters[2], ns["people"])):
        ref = krippendorff.alpha(reliability_data=data, level_of_measurement="nominal")
        assert iv.estimate == pytest.approx(ref)
    assert np.isnan(ns["ratings"]).any(), "alpha is shown with missing ratings"
    assert ns["table"].shape[0] == ns["complete"].sum() < ns["ratings"].shape[1]


def test_few_items_warn_and_the_analytic_interval_is_close(ns):
    assert ns["few"].sum() == 20 and "too narrow" in ns["iv_few"].warning
    boot, analytic = ns["k_test"], ns["analytic"]
    assert abs(boot.low - analytic.low) < 0.05 and abs(boot.high - analytic.high) < 0.05


def test_rogan_gladen_by_hand_and_the_intervals_as_described(ns):
    m, flagged = ns["m"], ns["flagged"]
    t, f = m[1, 1] / m[:, 1].sum(), m[1, 0] / m[:, 0].sum()
    two, true = ns["two"], ns["deploy_truth"].mean()
    assert two["adjusted"].raw[1] == pytest.approx((flagged - f) / (t - f))
    assert two["classify_and_count"].estimate[1] == pytest.approx(flagged)
    cc, adj = two["classify_and_count"], two["adjusted"]
    assert not cc.low[1] <= true <= cc.high[1], "'a narrow interval around the wrong value'"
    assert adj.low[1] <= true <= adj.high[1]
    assert adj.high[1] - adj.low[1] > 3 * (cc.high[1] - cc.low[1])
    low = ns["low_month"]
    assert low.clipped and low.raw[1] < 0 and low.estimate[1] == 0 and "clipped" in low.warning


def test_the_many_class_estimates_and_em(ns):
    many, y_dep = ns["many"], ns["y_dep"]
    true = np.mean(y_dep == 2)
    for method in ("adjusted", "probabilistic_adjusted"):
        assert many[method].low[2] <= true <= many[method].high[2]
    assert many["classify_and_count"].high[2] < true and many["em"].high[2] < true
    # the library's EM is QuaPy's, started from the hand-labelled sample's shares
    pi_cal = ns["pi_cal"]
    ref, _ = EMQ.EM(pi_cal, ns["p_dep"], epsilon=1e-12)
    np.testing.assert_allclose(many["em"].estimate, ref, atol=1e-6)
    # the fitting prior brings EM back to the truth, as QuaPy's EM from it
    from_fit = ns["em_fit"]
    assert abs(from_fit.estimate[2] - true) < 0.02 < abs(many["em"].estimate[2] - true)
    ref, _ = EMQ.EM(ns["pi_fit"], ns["p_dep"], epsilon=1e-12)
    np.testing.assert_allclose(from_fit.estimate, ref, atol=1e-6)
    assert from_fit.low[2] <= true <= from_fit.high[2]


def test_the_label_plan_and_its_simulation_as_the_text_reads_them(ns):
    planned, sims = ns["planned"], ns["sims"]
    widths = {n: np.median(s[:, 0]) for n, s in sims.items()}
    assert widths[planned] > 0.06 > widths[2 * planned], "'between planned and twice'"
    assert all(a > b for a, b in itertools.pairwise(widths.values()))
    assert abs(sims[planned][:, 1].mean() - 0.95) < 3 * np.sqrt(0.95 * 0.05 / 60)


def test_the_explorer_starts_at_the_chosen_judge_and_says_what_the_text_says(ns):
    """The explorer's starting state is the chosen prompt's rates at next month's 5 %, and
    the readings the text glues hold: kappa lowest of the three at 0.01, all three within
    0.01 at 0.5, classify and count's interval missing 0.05, the adjusted one containing it
    and narrower with 3,200 hand labels; the page version starts where the figure does."""
    ex, (t, s) = ns["explorer"], ns["PROMPTS"][ns["chosen"]]
    assert (ex.sensitivity, ex.specificity, ex.prevalence, ex.labels) == (t, s, 0.05, 200)
    at, est = ns["ex_at"], ns["ex_est"]
    assert at[0.01]["kappa"] < min(at[0.01]["gwet_ac1"], at[0.01]["pabak"]) - 0.3
    trio = [at[0.5][k] for k in ("kappa", "gwet_ac1", "pabak")]
    assert max(trio) - min(trio) < 0.01
    e200, e3200 = est[200], est[3200]
    assert not e200["cc_covers"] and e200["adjusted_covers"] and e3200["adjusted_covers"]
    assert e3200["adjusted_high"] - e3200["adjusted_low"] < (
        e200["adjusted_high"] - e200["adjusted_low"]
    )
    assert ex.estimates() == e200
    cancel = (1 - s) / (1 - t + 1 - s)
    assert (
        abs(ns["prevalence_values"](t, s, cancel, labels=200, deployment=20_000)["cc_bias"]) < 1e-12
    )
    html = ns["page_view"](ex).html
    assert 'data-kind="judge"' in html and '"start":{"sensitivity":' in html


def test_the_text_names_its_assumptions():
    text = chapter(STEM)
    assert "resamples the *items* with replacement and keeps the raters fixed" in text
    assert "It assumes *label shift*" in text
    assert "its interval resamples **both**" in text
