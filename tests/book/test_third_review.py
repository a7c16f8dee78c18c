"""The third review's findings (issue 25, item 4): chapters 01-13 read against the sources,
and the wording and teaching points of the statistical review of chapters 14-17.

Where a finding is a number or a mathematical claim, the test computes it; where it is
wording, the test checks the source the wording was compared with and the text together.
"""

from __future__ import annotations

import ast
import itertools
import re

import numpy as np
import pytest
import sympy as sp
from chapter_text import M7, ROOT, chapter, seed
from pybtex.database import parse_file

import clfmetrics as cm
from clfbook.examples.screening import screening_data, split_sweeps, validation_choice
from clfbook.sources import experiments
from clfbook.sources.paradox import proposition_table
from clfbook.sources.search import all_counts, bookmaker_net_win, smallest_rise
from clfbook.theory import scoring
from clfmetrics import power_mean
from clfmetrics.inference import _auc as ac

# --- chapters 01-13 against the sources ---------------------------------------------------


def test_mcc_rises_at_every_added_error_and_only_kappa_peaks():
    """07 ~307: MCC(k) = 9k / sqrt((1078 + 24k)(322 + 110k)) rises towards 9/sqrt(2640)."""
    k = sp.Symbol("k", nonnegative=True)
    mcc_k = 9 * k / sp.sqrt((1078 + 24 * k) * (322 + 110 * k))
    added = np.arange(5001)
    trace = np.repeat(M7[None], added.size, axis=0)
    trace[:, 2, 1] += added
    mccs = cm.mcc(trace)
    np.testing.assert_allclose(mccs, sp.lambdify(k, mcc_k)(added), rtol=1e-12)
    assert np.all(np.diff(mccs) > 0) and mccs[-1] < 9 / np.sqrt(2640)
    slope_numerator, _ = sp.fraction(sp.factor(sp.diff(mcc_k, k)))
    assert sp.Poly(slope_numerator, k).degree() == 1
    assert all(c > 0 for c in sp.Poly(slope_numerator, k).all_coeffs())
    kappas = cm.kappa(trace)
    assert np.argmax(kappas) < added[-1] and kappas[-1] < kappas.max() / 10
    text = chapter("07-kappa-mcc")
    assert "faster in the end, so the scores do not rise for ever" not in text
    assert "{glue:text}`ch07-mcc-limit:.3f` and never reaches it. Only kappa peaks." in text


def test_the_bettor_wins_and_the_fair_bookmaker_loses_when_macro_recall_beats_chance():
    """03 ~172, ~26, ~478: |S|(n macR - 1) is the bettor's net win."""
    y_true = ["a", "a", "b", "b", "c", "c"]
    y_pred = ["a", "a", "b", "c", "c", "a"]  # macR = (1 + 1/2 + 1/2)/3 > 1/3
    win = bookmaker_net_win(y_true, y_pred)
    m = cm.confusion_matrix(y_true, y_pred)
    assert cm.macro_recall(m) > 1 / 3 and win > 0
    # the stakes paid in minus the payouts: what the bookmaker keeps is the negative
    stakes = len(y_true)
    payouts = sum(6 / 2 for t, p in zip(y_true, y_pred, strict=True) if t == p)
    assert stakes - payouts == -win
    text = chapter("03-macro-recall-precision")
    assert "The bookmaker profits exactly when" not in text
    assert "fair bookmaker's win" not in text and "a fair bookmaker's net win" not in text
    assert "The bettor profits, and the fair bookmaker loses, exactly when" in text


def test_with_ieee_comparisons_f1_still_differs_from_the_harmonic_mean_on_three():
    """09 ~200: F1 has ✗✓✓✓ under IEEE equality against the harmonic mean's ✓✗✓✗."""
    ieee = proposition_table(5, equality="ieee")
    assert ieee.holds[:, 0].tolist() == [True, False, True, False]
    assert ieee.holds[:, 2].tolist() == [False, True, True, True]
    assert (np.flatnonzero(ieee.holds[:, 0] != ieee.holds[:, 2]) + 1).tolist() == [1, 2, 4]
    text = chapter("09-f-measure-paradox")
    assert "and only (1) separates F1 from the harmonic mean" not in text
    assert "still differ on propositions {glue:text}`ch09-ieee-differ`" in text


def test_vor_der_brueck_sets_zero_over_zero_to_nan_and_h00_to_zero():
    """notation ~39: not every other source leaves 0/0 open."""
    talk = seed("003")
    if talk is not None:
        assert r"$0/0 = \text{NaN}$" in talk and "$H(0, 0) = 0$" in talk
    assert np.isnan(cm.precision(np.array([[0, 0], [0, 3]]), zero_division="nan")[0])
    text = chapter("notation")
    assert "(the other sources leave it open)" not in text
    assert "{cite:t}`vorderbrueck2020paradox` sets $0/0 = \\mathrm{NaN}$" in text
    assert "$H(0, 0) = 0$" in text


def test_the_note_gives_only_the_end_points_of_its_y_axes():
    """05 ~290, ~351: the linear interpolation is the book's, in the chapter and the library."""
    note = seed("000")
    if note is not None:
        assert "[y=0]" in note and "[y=1]" in note
        assert "1-y" not in note and "(1 - y)" not in note
    # the end points are the note's, the values between them a straight line
    n = 4
    ends = experiments.skewed_prevalence(n, [0.0, 1.0])
    np.testing.assert_allclose(ends, [np.full(n, 1 / n), np.arange(1, n + 1) / 10])
    np.testing.assert_allclose(experiments.skewed_prevalence(n, 0.5), ends.mean(axis=0))
    for func in (experiments.skewed_prevalence, experiments.error_spread_conditional):
        doc = " ".join(func.__doc__.split())
        assert "give only" in doc and "end points" in doc, func.__name__
        assert "the linear interpolation between them is this book's choice" in doc
    text = chapter("05-macro-f1-in-practice")
    assert "The note gives only these two end points; the straight line between them is" in text
    assert "Again the note gives the two end points, and the straight line between" in text


def test_error_spread_keeps_every_recall_and_moves_only_the_precisions():
    """05 ~355: at y = 1 the high-numbered classes lose precision, not gain recall."""
    n, x = 4, 0.55
    expected = experiments.error_spread_conditional(n, x, 1.0) / n  # balanced classes
    np.testing.assert_allclose(cm.recall(expected), x)
    precision = cm.precision(expected)
    assert np.all(np.diff(precision) < 0) and precision[0] > x > precision[-1]
    text = chapter("05-macro-f1-in-practice")
    assert "(high recall, low precision)" not in text
    assert "Every class keeps its recall $x$" in text


def test_equality_needs_one_ratio_only_among_the_classes_that_are_sometimes_correct():
    """04 ~586, ~701: always_a has delta 0 with ratios 1/2 and 1/0."""
    always_a = np.array([[1, 1], [0, 0]])
    assert cm.delta_f1(always_a) == 0
    with np.errstate(divide="ignore"):
        ratios = cm.prevalence(always_a) / cm.bias(always_a)
    assert ratios[0] == 0.5 and np.isinf(ratios[1]) and cm.correct(always_a)[1] == 0
    text = chapter("04-two-macro-f1")
    assert "equal only when the classes share one ratio" not in text
    assert "equality when the classes share one ratio" not in text
    assert text.count("classes that are sometimes correct share one ratio") == 2
    assert "the classes that are sometimes correct share one ratio of prevalence" in text
    assert "with equality exactly when the classes that are sometimes correct share" in text


def test_the_extra_error_moves_f1_of_b_from_two_thirds_to_one_half():
    """06 ~333: b's F1 goes from 2/3 to 1/2 while its count doubles."""
    candidates = np.concatenate([all_counts(3, total) for total in range(3, 6)])
    rise = smallest_rise(cm.weighted_f1, candidates)
    j = rise.cell[1]
    assert cm.f1(rise.before)[j] == pytest.approx(2 / 3)
    assert cm.f1(rise.after)[j] == pytest.approx(1 / 2)
    assert cm.prevalence(rise.after)[j] == 2 * cm.prevalence(rise.before)[j]
    text = chapter("06-weighted-f1")
    assert "lowers b's F1 a little" not in text
    assert "It lowers b's F1 from {glue:text}`ch06-cx-f1-before` to" in text


def test_table_6_recall_means_agree_with_the_paper_to_the_printed_decimal():
    """08 ~138: no 'small differences from the paper' for systems B and E."""
    rows = {"B": None, "E": None}
    closer = seed("002")
    if closer is not None:
        for line in closer.splitlines():
            fields = line.split()
            if len(fields) == 20 and fields[0] in rows:
                rows[fields[0]] = [float(v) for v in fields[1:]]
    else:  # the chapter's own copy of the printed values
        rows = {
            "B": [0] * 3 + [68.1] + [0] * 6 + [66.5, 65.0, 87.8, 51.4, 65.2],
            "E": [0] * 3 + [66.9] + [0] * 6 + [66.8, 66.8, 69.8, 64.0, 66.8],
        }
    for name, row in rows.items():
        printed = [row[3], row[10], row[11]]  # macR, GmacR, HmacR
        ours = power_mean(np.array(row[12:15]) / 100, [1, 0, -1]) * 100
        assert [round(float(v), 1) for v in ours] == printed, name
    text = chapter("08-recall-variants")
    assert "The small differences from the paper" not in text
    assert "every one of these values is the one its table 6 prints" in text


def test_a_guessers_zero_expectation_counts_undefined_scores_as_zero():
    """07 ~577-605: under NaN the expectation is undefined (3 and 117 of 1,287 tables)."""
    tables = np.array(
        [np.bincount(c, minlength=9) for c in itertools.combinations_with_replacement(range(9), 5)]
    ).reshape(-1, 3, 3)
    assert len(tables) == 1287
    assert int(np.isnan(cm.kappa(tables, zero_division="nan")).sum()) == 3
    assert int(np.isnan(cm.mcc(tables, zero_division="nan")).sum()) == 117
    text = chapter("07-kappa-mcc")
    assert "That exact 0 counts an undefined score as 0" in text
    for key in ("ch07-exact-nan-kappa", "ch07-exact-nan-mcc"):
        assert f"{{glue:text}}`{key}`" in text


# --- chapters 14-17: wording and teaching points -------------------------------------------


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


def test_optimism_grows_when_only_the_test_part_shrinks():
    """ch14 ~372: the chapter's second run shrinks the test part alone."""
    source = (ROOT / "chapters" / "14-scores-and-thresholds.md").read_text()
    calls = re.findall(r"split_sweeps\(x, y, \((\d+), (\d+), (\w+)\)", source)
    (train, val, test), (small_train, small_val, small_test) = calls
    assert (train, val) == (small_train, small_val) and small_test == "SMALL_TEST"
    small = int(re.search(r"^SMALL_TEST = (\d+)$", source, re.M).group(1))
    assert small < int(test)
    x, y = screening_data(3000, rng=14)
    full = validation_choice(cm.macro_f1, *split_sweeps(x, y, (1000, 1000, 1000), 150, rng=1))
    shrunk = validation_choice(cm.macro_f1, *split_sweeps(x, y, (1000, 1000, small), 150, rng=2))
    assert (shrunk[1] - shrunk[0]).mean() > 1.3 * (full[1] - full[0]).mean()
    text = chapter("14-scores-and-thresholds")
    assert "with validation and test parts of 250 items" not in text
    assert "with the same training and validation parts and a test part of" in text


def test_the_bayes_threshold_c10_over_c10_plus_c01_needs_free_correct_decisions():
    """ch14 ~1029: with costs on the diagonal the threshold moves."""
    c00, c01, c10, c11 = 0.0, 5.0, 1.0, 0.0
    assert cm.cost_threshold([[c00, c01], [c10, c11]]) == pytest.approx(c10 / (c10 + c01))
    priced = cm.cost_threshold([[0.5, 5.0], [1.0, 2.0]])
    assert priced == pytest.approx(0.5 / (0.5 + 3.0)) and priced != pytest.approx(1 / 6)
    text = chapter("14-scores-and-thresholds")
    assert "when correct decisions cost nothing, the least-cost threshold is the" in text


def test_neighbours_are_within_the_noise_even_at_one_tweet_in_twenty():
    """ch17 ~691: less discordance means a narrower interval, so 'even if', not 'unless'."""
    psi = np.array([0.05, 0.45])
    half = 1.96 * np.sqrt(psi / 1000)
    assert half[0] < half[1]
    text = chapter("17-is-the-difference-real")
    assert "unless the two systems disagree on fewer than one tweet in twenty" not in text
    assert "even if the two systems disagree on only one tweet in twenty" in text


def test_the_sample_size_plan_is_called_a_retrospective_illustration():
    """ch17 ~575: the test digits were scored before the plan."""
    source = (ROOT / "chapters" / "17-is-the-difference-real.md").read_text()
    plan = source.index("SMALLEST = 0.02")
    first_scored = source.index("y_test")
    assert first_scored < plan
    text = chapter("17-is-the-difference-real")
    assert "# fixed before scoring any test digit" not in text
    assert "what follows is a retrospective illustration of the plan" in text


def test_the_scale_section_says_what_runs_where():
    """ch17 ~1023: the page runs 10**7 rows, make bench 10**8, nothing runs a billion."""
    source = (ROOT / "chapters" / "17-is-the-difference-real.md").read_text()
    n_scale = ast.literal_eval(re.search(r"^N_SCALE = ([\d_]+)$", source, re.M).group(1))
    bench = (ROOT / "benchmarks" / "bench_scale.py").read_text()
    assert "(10**8, 10**7)" in bench and n_scale < 10**8 < 10**9
    assert "## Evaluating a billion predictions" not in source
    text = chapter("17-is-the-difference-real")
    assert "This page runs the method on {glue:text}`ch17-scale-n` predictions" in text
    assert "not a run made here" in text
    assert "shows them on a billion predictions" not in chapter("api/engines")


def test_bca_acceleration_is_scipys_exactly():
    """_auc_cells.acceleration: scipy weights each class's jackknife by (n_j - 1)/n_j."""
    from scipy.stats._resampling import _bca_interval

    rng = np.random.default_rng(25)
    y = np.r_[np.ones(23, bool), np.zeros(61, bool)]
    s = np.floor(rng.normal(0.8 * y, 1.0) * 4)  # ties within and across the classes

    def auc(pos, neg, axis=-1):
        p, q = np.moveaxis(pos, axis, -1), np.moveaxis(neg, axis, -1)
        above = (p[..., :, None] > q[..., None, :]) + 0.5 * (p[..., :, None] == q[..., None, :])
        return above.mean(axis=(-2, -1))

    with np.errstate(divide="ignore", invalid="ignore"):  # the interval ends: unused
        _, _, a_scipy = _bca_interval(
            (s[y], s[~y]),
            auc,
            axis=-1,
            alpha=0.025,
            theta_hat_b=np.zeros((1, 1)),
            batch=None,
            xp=np,
        )
    ours = ac.acceleration("roc_auc", ac.checked_cells(y, s, None))
    assert ours == pytest.approx(float(np.squeeze(a_scipy)), rel=1e-10, abs=1e-15)
    assert abs(ours) > 1e-4  # a real skew, not two zeros agreeing
