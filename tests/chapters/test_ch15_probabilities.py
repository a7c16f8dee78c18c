"""The chapter "Are the probabilities right?": proper scoring rules proved exactly, the
held-out recalibration of the digits model, the item-bootstrap helpers and the figures."""

from __future__ import annotations

import itertools

import matplotlib

matplotlib.use("Agg")


import matplotlib.pyplot as plt
import numpy as np
import pytest
import sympy as sp
from chapter_text import ROOT, chapter
from pybtex.database import parse_file
from sklearn.calibration import calibration_curve
from sklearn.metrics import brier_score_loss, f1_score, log_loss

import clfmetrics as cm
from clfbook.examples import calibration as ex
from clfbook.examples import fit_logistic, imbalanced_digits
from clfbook.examples.calibration import ece_interval
from clfbook.plots.reliability import ece_against_bins, expected_scores, reliability_diagram
from clfbook.theory import scoring
from clfmetrics import Interval

P, Q = scoring.P, scoring.Q


# --- theory: proper scoring rules -----------------------------------------------------


def test_brier_derivation_steps_follow_and_end_in_closed_form():
    steps = scoring.brier_derivation()
    assert len(steps) == 4
    for before, after in itertools.pairwise(steps):
        assert sp.simplify(before.value - after.value) == 0
    assert sp.simplify(steps[0].value - scoring.expected_brier()) == 0
    assert sp.simplify(steps[-1].value - (P * (1 - P) + (Q - P) ** 2)) == 0
    assert steps[-1]._repr_latex_().startswith("$\\displaystyle \\bar S")


def test_log_loss_derivation_ends_in_sign_of_q_minus_p():
    steps = scoring.log_loss_derivation()
    assert sp.simplify(steps[0].value - sp.diff(scoring.expected_log_loss(), Q)) == 0
    assert sp.simplify(steps[-1].value - (Q - P) / (Q * (1 - Q))) == 0


def test_both_rules_are_strictly_proper_and_absolute_loss_is_not():
    assert scoring.brier_is_strictly_proper()
    assert scoring.log_loss_is_strictly_proper()
    # The absolute loss |q - y| is the classic improper rule: its expected value is
    # linear in q, so the same exact check must fail for it.
    absolute = P * (1 - Q) + (1 - P) * Q
    assert sp.solve(sp.diff(absolute, Q), Q) != [P]


@pytest.mark.parametrize("n", [2, 3, 4])
def test_multiclass_brier_excess_is_sum_of_squares(n):
    assert scoring.multiclass_brier_is_strictly_proper(n)
    excess, closed = scoring.multiclass_brier_excess(n)
    rng = np.random.default_rng(n)
    p, q = rng.dirichlet(np.ones(n)), rng.dirichlet(np.ones(n))
    values = dict(zip(sp.symbols(f"p_1:{n}"), p[:-1], strict=True))
    values |= dict(zip(sp.symbols(f"q_1:{n}"), q[:-1], strict=True))
    symbols = {s.name: s for s in excess.free_symbols | closed.free_symbols}
    subs = {symbols[k.name]: v for k, v in values.items()}
    direct = sum(p[k] * np.sum((q - np.eye(n)[k]) ** 2) for k in range(n)) - sum(
        p[k] * np.sum((p - np.eye(n)[k]) ** 2) for k in range(n)
    )
    assert float(excess.subs(subs)) == pytest.approx(direct, abs=1e-12)
    assert float(closed.subs(subs)) == pytest.approx(np.sum((q - p) ** 2), abs=1e-12)


@pytest.mark.parametrize("n", [1, 2.0, True])
def test_multiclass_brier_bad_n(n):
    with pytest.raises(ValueError, match="n must be"):
        scoring.multiclass_brier_excess(n)


@pytest.mark.parametrize("truth", [0.2, 0.5, 0.7, 0.93])
def test_expected_losses_are_lowest_at_the_truth_on_a_grid(truth):
    grid = np.linspace(0.005, 0.995, 199)
    for expr in (scoring.expected_brier(), scoring.expected_log_loss()):
        values = sp.lambdify(Q, expr.subs(P, truth))(grid)
        assert grid[np.argmin(values)] == pytest.approx(truth, abs=0.005)


def test_expected_accuracy_is_flat_on_each_side_of_the_threshold():
    p = sp.Rational(7, 10)
    right = [scoring.expected_accuracy(q, p) for q in (sp.Rational(1, 2), sp.Rational(4, 5), 1)]
    assert right == [p, p, p]
    assert scoring.expected_accuracy(sp.Rational(3, 10), p) == 1 - p


# --- examples: held-out split, recalibration, helpers ------------------------------------


@pytest.fixture(scope="module")
def digits():
    task = imbalanced_digits(seed=0)
    return task, fit_logistic(task), ex.split_held_out(task, seed=0)


def test_split_held_out_halves_every_digit(digits):
    task, _, held = digits
    assert len(held.y_val) + len(held.y_test) == len(task.y_test)
    val_counts = np.bincount(held.y_val, minlength=10)
    all_counts = np.bincount(task.y_test, minlength=10)
    assert np.array_equal(val_counts, all_counts // 2)
    rows = np.concatenate([held.X_val, held.X_test])
    order = np.lexsort(rows.T)
    assert np.array_equal(rows[order], task.X_test[np.lexsort(task.X_test.T)])
    again = ex.split_held_out(task, seed=0)
    assert np.array_equal(again.y_val, held.y_val) and np.array_equal(again.X_val, held.X_val)
    assert not np.array_equal(ex.split_held_out(task, seed=1).X_val, held.X_val)


def test_split_held_out_keeps_a_tasks_own_validation_part(digits):
    from types import SimpleNamespace

    task, _, _ = digits
    with_val = SimpleNamespace(
        X_val=task.X_train[:20], y_val=task.y_train[:20], X_test=task.X_test, y_test=task.y_test
    )
    held = ex.split_held_out(with_val)
    assert np.array_equal(held.X_val, task.X_train[:20])
    assert np.array_equal(held.y_test, task.y_test) and len(held.X_test) == len(task.X_test)


def test_temperature_recalibration_keeps_decisions_and_model(digits):
    _, plain, held = digits
    coef = plain.model[-1].coef_.copy()
    cal = ex.recalibrate(plain.model, held.X_val, held.y_val)
    q = cal.predict_proba(held.X_test)
    p = plain.probabilities_for(held.X_test)
    assert np.allclose(q.sum(axis=1), 1)
    assert np.array_equal(q.argmax(axis=1), p.argmax(axis=1))
    assert not np.allclose(q, p)
    assert np.array_equal(plain.model[-1].coef_, coef), "the fitted model must stay frozen"
    # the fitted map lowers log loss on the data it was fitted on
    assert log_loss(held.y_val, cal.predict_proba(held.X_val), labels=range(10)) < log_loss(
        held.y_val, plain.probabilities_for(held.X_val), labels=range(10)
    )


def test_recalibrate_bad_method(digits):
    _, plain, held = digits
    with pytest.raises(ValueError, match="method must be one of"):
        ex.recalibrate(plain.model, held.X_val, held.y_val, method="beta")


def test_sharpen():
    rng = np.random.default_rng(0)
    p = rng.dirichlet(np.ones(4), size=50)
    assert np.allclose(ex.sharpen(p, 1), p)
    s = ex.sharpen(p, 3)
    assert np.allclose(s.sum(axis=1), 1)
    assert np.array_equal(s.argmax(axis=1), p.argmax(axis=1))
    assert np.all(s.max(axis=1) >= p.max(axis=1) - 1e-12)
    b = rng.random(100)
    assert np.allclose(ex.sharpen(b, 2), b**2 / (b**2 + (1 - b) ** 2))
    assert np.array_equal(np.argsort(ex.sharpen(b, 3)), np.argsort(b))
    for bad in (0, -1, True, "2"):
        with pytest.raises(ValueError, match="power"):
            ex.sharpen(b, bad)
    with pytest.raises(ValueError, match="proba"):
        ex.sharpen([1.5, 0.2], 2)


def test_item_losses_average_to_scikit_learns_scores():
    rng = np.random.default_rng(1)
    p = rng.dirichlet(np.ones(3), size=200)
    y = rng.integers(0, 3, size=200)
    losses = ex.item_losses(y, p)
    onehot = np.eye(3)[y]
    assert losses["brier"].mean() == pytest.approx(np.mean(np.sum((p - onehot) ** 2, axis=1)))
    assert losses["log_loss"].mean() == pytest.approx(log_loss(y, p, labels=range(3)))
    yb, qb = rng.integers(0, 2, size=300), rng.random(300)
    qb[0], yb[0] = 0.0, 1  # a zero probability for the true class is clipped, as sklearn does
    binary = ex.item_losses(yb, qb)
    assert binary["brier"].mean() == pytest.approx(brier_score_loss(yb, qb))
    assert binary["log_loss"].mean() == pytest.approx(log_loss(yb, qb))
    with pytest.raises(ValueError, match="class indices"):
        ex.item_losses(np.array([0, 3]), p[:2])
    with pytest.raises(ValueError, match="0 and 1"):
        ex.item_losses(np.array([0, 2]), qb[:2])


def test_bootstrap_weights():
    w = ex.bootstrap_weights(7, 5_000, rng=0)
    assert w.shape == (5_000, 7) and np.all(w.sum(axis=1) == 7)
    assert w.mean(axis=0) == pytest.approx(np.ones(7), abs=0.05)
    for bad in (0, 2.5, True):
        with pytest.raises(ValueError, match="n_items"):
            ex.bootstrap_weights(bad, 3)
        with pytest.raises(ValueError, match="size"):
            ex.bootstrap_weights(3, bad)


def test_mean_interval_agrees_with_an_index_bootstrap():
    rng = np.random.default_rng(2)
    x = rng.exponential(size=150)
    iv = ex.mean_interval(x, size=20_000, rng=3)
    idx = rng.integers(0, len(x), size=(20_000, len(x)))
    low, high = np.quantile(x[idx].mean(axis=1), [0.025, 0.975])
    assert isinstance(iv, Interval) and iv.estimate == pytest.approx(x.mean())
    assert iv.low == pytest.approx(low, abs=0.01) and iv.high == pytest.approx(high, abs=0.01)
    assert ex.mean_interval(np.full(20, 0.3), size=100, rng=0).low == pytest.approx(0.3)
    # blocks of resamples: more resamples than fit in one block give the same law
    big = np.tile(x, 200)  # 30,000 items, so a block holds 66 resamples
    wide = ex.mean_interval(big, size=300, rng=0)
    assert wide.low < big.mean() < wide.high
    for bad in ([], [np.nan, 1.0], [[1.0, 2.0]]):
        with pytest.raises(ValueError, match="per_item"):
            ex.mean_interval(bad)
    with pytest.raises(ValueError, match="level"):
        ex.mean_interval(x, level=1.5)


def test_uniform_bin_ids_match_scikit_learn():
    p = np.array([0.0, 0.1, 0.15, 0.2, 0.5, 0.95, 1.0])
    y = np.array([0, 1, 0, 1, 1, 0, 1])
    ids = ex.uniform_bin_ids(p, 10)
    counts = np.bincount(ids, minlength=10)
    observed, _ = calibration_curve(y, p, n_bins=10, strategy="uniform")
    assert len(observed) == np.count_nonzero(counts)
    assert ids[1] == 0 and ids[3] == 1 and ids[-1] == 9
    with pytest.raises(ValueError, match="bins"):
        ex.uniform_bin_ids(p, 0)


def _ece_sklearn(y, p, bins):
    observed, predicted = calibration_curve(y, p, n_bins=bins, strategy="uniform")
    ids = ex.uniform_bin_ids(p, bins)
    counts = np.bincount(ids, minlength=bins)
    return float(np.sum(counts[counts > 0] * np.abs(observed - predicted)) / len(p))


def test_ece_interval_resamples_equal_scikit_learn_on_the_resampled_items():
    rng = np.random.default_rng(4)
    p = rng.random(120)
    y = (rng.random(120) < p**1.5).astype(int)
    iv = ex.ece_interval(y, p, bins=8, size=5, rng=7)
    assert iv.estimate == pytest.approx(_ece_sklearn(y, p, 8))
    # the same draws, built item by item and scored by scikit-learn
    w = ex.bootstrap_weights(120, 5, rng=7)
    direct = [_ece_sklearn(np.repeat(y, row), np.repeat(p, row), 8) for row in w]
    ids = ex.uniform_bin_ids(p, 8)
    residual = np.zeros((120, 8))
    residual[np.arange(120), ids] = y - p
    fast = np.abs(w @ residual).sum(axis=1) / 120
    assert np.allclose(fast, direct)
    wide = ex.ece_interval(y, p, bins=8, size=4_000, rng=1)
    assert wide.low <= np.quantile(direct, 0.5) + 0.1 and wide.low < wide.high
    with pytest.raises(ValueError, match="0 and 1"):
        ex.ece_interval(y + 1, p)
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        ex.ece_interval(y, p + 1)


def test_pooled_f1_equals_scikit_learn_on_the_pairs(digits):
    _, plain, held = digits
    p = plain.probabilities_for(held.X_test)
    pairs = (np.arange(10)[None, :] == held.y_test[:, None]).ravel()
    for t in (0.2, 0.5, 0.8):
        expected = f1_score(pairs, p.ravel() >= t)
        assert ex.pooled_f1(held.y_test, p, t) == pytest.approx(expected)
    (a, b), diff = ex.pooled_f1_intervals(held.y_test, [(p, 0.5), (p, 0.5)], size=500, rng=0)
    assert a == b and diff.low == diff.high == 0
    (a, b), diff = ex.pooled_f1_intervals(held.y_test, [(p, 0.3), (p, 0.6)], size=2_000, rng=0)
    assert diff.estimate == pytest.approx(a.estimate - b.estimate)
    assert a.low < a.estimate < a.high
    three, none = ex.pooled_f1_intervals(held.y_test, [(p, 0.3)] * 3, size=100, rng=0)
    assert len(three) == 3 and none is None
    with pytest.raises(ValueError, match="threshold"):
        ex.pooled_f1(held.y_test, p, np.nan)
    with pytest.raises(ValueError, match="class indices"):
        ex.pooled_f1(held.y_test + 10, p, 0.5)


# --- figures -------------------------------------------------------------------------------


def test_reliability_diagram_draws_curves_and_counts():
    curves = {
        "a": (np.array([0.1, 0.5, 0.9]), np.array([0.15, 0.45, 0.85]), np.array([3, 10, 40])),
        "b": (np.array([0.2, 0.8]), np.array([0.3, 0.7]), np.array([5, 8])),
    }
    fig = reliability_diagram(curves, bins=10)
    top, bottom = fig.axes
    assert top.get_ylabel() and bottom.get_xlabel() and bottom.get_ylabel()
    assert len(top.get_lines()) == 3  # the diagonal and two curves
    assert len(bottom.patches) == 5
    assert sorted(p.get_height() for p in bottom.patches) == [3, 5, 8, 10, 40]
    plt.close(fig)
    single = reliability_diagram({"a": curves["a"]})
    assert [t.get_text() for t in single.axes[1].texts] == ["3", "10", "40"]
    plt.close(single)
    with pytest.raises(ValueError, match="differ in shape"):
        reliability_diagram({"a": (np.ones(2), np.ones(3), np.ones(3))})
    with pytest.raises(ValueError, match="non-empty dict"):
        reliability_diagram({})


def test_ece_and_expected_score_figures():
    fig = ece_against_bins([2, 5, 10], {"u": [0.1, 0.2, 0.3], "q": [0.1, 0.1, 0.2]})
    ax = fig.axes[0]
    assert ax.get_xlabel() == "number of bins" and len(ax.get_lines()) == 2
    plt.close(fig)
    with pytest.raises(ValueError, match="one number per entry"):
        ece_against_bins([2, 5], {"u": [0.1]})
    q = np.linspace(0.1, 0.9, 9)
    fig = expected_scores(q, {"Brier": (q - 0.7) ** 2}, truth=0.7)
    ax = fig.axes[0]
    assert ax.get_xlabel().startswith("reported probability")
    assert len(ax.get_lines()) == 2  # the curve and the guide at the truth
    plt.close(fig)
    with pytest.raises(ValueError, match="one number per entry"):
        expected_scores(q, {"Brier": [1.0]}, truth=0.7)


def test_only_strictly_proper_scores_single_out_the_honest_report():
    """ch15 ~356, _report_scores ~192: the error rate of [q >= 1/2] is proper, not strictly."""
    seven = sp.Rational(7, 10)
    error = 1 - scoring.expected_accuracy()
    at = {q: error.subs({scoring.Q: q, scoring.P: seven}) for q in (seven, 1, sp.Rational(1, 4))}
    assert at[seven] == at[1] < at[sp.Rational(1, 4)]  # lowest at the honest report, not only
    text = chapter("15-probabilities")
    assert "Only the proper scores are lowest at the honest report." not in text
    assert "Only the strictly proper scores are lowest at the honest report and nowhere" in text
    assert "It is not *strictly* proper" in text
    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, 200)
    p = np.clip(0.3 + 0.4 * y + rng.normal(0, 0.15, 200), 0.01, 0.99)
    shown = " ".join(str(cm.report(y, (p >= 0.5).astype(int), scores=p, size=200, rng=0)).split())
    assert "are proper scoring rules: they reward honest probabilities" not in shown
    assert "strictly proper scoring rules" in shown and "but not only there" in shown


def test_binned_ece_can_understate_the_error_of_continuous_probabilities():
    """ch15 ~515, ~814: errors of opposite sign within a bin cancel (Kumar et al. 2019)."""
    rng = np.random.default_rng(15)
    q = rng.random(200_000)
    # ten waves, one per equal-width bin of ten: the gaps change sign within every bin
    truth = np.clip(q + 0.1 * np.sin(20 * np.pi * q), 0, 1)
    y = (rng.random(q.size) < truth).astype(int)
    true_error = np.mean(np.abs(truth - q))
    ece = cm.expected_calibration_error(y, q, bins=10)
    assert true_error > 0.05 and ece < true_error / 3
    text = chapter("15-probabilities")
    assert "it can also *understate* the error" in text
    assert "{cite}`kumar2019verified,roelofs2022mitigating`" in text
    assert "can understate the error of" in text
    entry = parse_file(ROOT / "references.bib").entries["roelofs2022mitigating"]
    assert entry.fields["pages"] == "4036--4054" and entry.fields["year"] == "2022"


def test_the_f1_rule_does_not_spare_the_search():
    """ch15 ~721: F* comes from the validation search; scaling moved t* away from F*/2."""
    text = chapter("15-probabilities")
    assert "needs no search over thresholds at all" not in text
    assert "$F^*$ is the maximum that the search on validation found" in text
    assert "temperature scaling moved $t^*$ away from $F^*/2$ on validation" in text
    source = (ROOT / "chapters" / "15-probabilities.md").read_text()
    assert 'assert gap["temperature"] > gap["uncalibrated"]' in source


def test_a_calibrated_forecasters_ece_interval_never_holds_its_true_ece():
    """ch15, finding 1: the true ECE of a calibrated forecaster is 0; no resample reaches 0."""
    rng = np.random.default_rng(27)
    q = rng.uniform(0.5, 1.0, 155)
    misses = 0
    for _ in range(20):
        outcome = (rng.random(155) < q).astype(int)
        iv = ece_interval(outcome, q, bins=10, size=500, rng=rng)
        misses += not (iv.low <= 0.0 <= iv.high)
        test = cm.calibration_test(outcome, q, size=500, rng=rng)
        assert test.statistic == cm.expected_calibration_error(outcome, q, bins=10)
    assert misses == 20
    text = chapter("15-probabilities")
    assert "This number gets no bootstrap interval" in text
    assert "no such interval can ever contain the truth" in text
    assert "ECE {glue:text}`ch15-ece:.3f` [" not in text


def test_chapter_15_states_both_sides_of_the_ece_and_the_classwise_check():
    text = chapter("15-probabilities")
    assert "Debiasing removes the upward bias; it does nothing for the other side." in text
    assert "the binned ECE is a *lower* bound on the calibration error" in text
    assert "They find no column miscalibrated even before scaling" in text
    assert "$\\mathrm{BS} = \\mathrm{MCB} - \\mathrm{DSC} + \\mathrm{UNC}$" in text
    bib = parse_file(ROOT / "references.bib").entries
    for key in ("kull2019beyond", "dimitriadis2021stable", "alexandari2020maximum"):
        assert key in text and key in bib


def test_chapter_15_draws_the_corp_curve_with_its_consistency_band():
    """ch15: the CORP curve is drawn with its band, and the caption says what the band
    is and assumes (the numbers of the text are glued from ``corp_bands``)."""
    text = chapter("15-probabilities")
    assert "name: fig-ch15-corp-band" in text
    assert "corp_band_diagram(corp_bands" in text
    caption = text[text.index("CORP reliability curves (isotonic fit") :]
    caption = " ".join(caption[: caption.index("name: fig-ch15-corp-band")].split())
    assert "pointwise 95 % consistency band" in caption
    assert "The band assumes independent images and holds the stated confidences fixed" in caption
    assert "{glue:text}`ch15-corp-raw-out`" in text


def test_the_l1_correction_keeps_two_minus_root_two_of_the_bias():
    """ch15 ~565 (review D15-1): for a calibrated bin with normal noise, d ~ N(0, s^2),
    E[2|d| - E|G|], G ~ N(d, s^2), is (2 - sqrt 2) E|d| whatever s; the chapter says so
    and offers the debiased squared error, which the library computes as norm=2."""
    from scipy import integrate, stats

    def kept_share(s):
        def corrected(d):
            return (2 * abs(d) - stats.foldnorm.mean(abs(d) / s, scale=s)) * stats.norm.pdf(d, 0, s)

        kept = integrate.quad(corrected, -10 * s, 10 * s, points=[0])[0]
        return kept / (s * np.sqrt(2 / np.pi))

    for s in (0.02, 0.1):
        assert kept_share(s) == pytest.approx(2 - np.sqrt(2), abs=1e-6)
    text = chapter("15-probabilities")
    assert "about 59 % of the plug-in's bias stays" in text
    assert "since the normal approximation of each bin's noise is rough" not in text
    assert "norm=2, debiased=True" in text
    assert "the debiased squared calibration error is unbiased" in text


def test_holm_and_reliabilitydiag_are_stated_as_they_are():
    """ch15 ~808, ~939 (review W15-3, W15-4): Holm bounds the chance at most; the package's
    default band is 90 % and resamples the forecasts, so the chapter's band is an analogue."""
    text = chapter("15-probabilities")
    assert "keeps the chance of any false alarm at most 5 %" in text
    assert "the chance of any false alarm at 5 %" not in text
    assert "the package draws a 90 % band by default and resamples the forecasts" in text
    assert "It is the default of the authors' own software" not in text
