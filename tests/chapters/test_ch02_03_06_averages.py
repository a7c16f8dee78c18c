"""Claims of chapters 2 (accuracy, micro averages), 3 (macro recall/precision) and 6 (weighted F1).

Expected values come from the sources (Opitz 2024; the micro-averaging note; the F-measure
paradox talk) or from exact hand derivations with fractions, never from our own output.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
import sympy as sp

import clfmetrics as cm
from clfbook.sources.search import (
    all_counts,
    bookmaker_net_win,
    error_search,
    precision_gap_construction,
    random_class_items,
    random_counts,
    smallest_rise,
)
from clfbook.theory import derivations as sym
from clfmetrics import random_classifier

# --- chapter 2: the nine-example case of the micro-averaging note -----------------------

NINE_PRED = ["A", "A", "B", "C", "A", "B", "B", "C", "C"]
NINE_TRUE = ["A", "A", "A", "A", "B", "B", "C", "C", "C"]


def test_nine_example_tp_fp_fn_table():
    """The note's table: TP/FP/FN = A (2, 1, 2), B (1, 2, 1), C (2, 1, 1)."""
    m = cm.confusion_matrix(NINE_TRUE, NINE_PRED, labels=["A", "B", "C"])
    tp = cm.correct(m)
    fp = cm.bias(m) - tp
    fn = cm.prevalence(m) - tp
    assert tp.tolist() == [2, 1, 2]
    assert fp.tolist() == [1, 2, 1]
    assert fn.tolist() == [2, 1, 1]


def test_nine_example_micro_averages_are_five_ninths():
    """Micro precision = micro recall = micro F1 = accuracy = 5/9 on the nine examples."""
    m = cm.confusion_matrix(NINE_TRUE, NINE_PRED, labels=["A", "B", "C"])
    for f in (cm.micro_precision, cm.micro_recall, cm.micro_f1, cm.accuracy):
        assert f(m) == pytest.approx(5 / 9, abs=1e-15), f.__name__


def test_micro_identities_symbolic():
    """On a symbolic 3x3 matrix: sum FP - sum FN expands to 0; micro P, R, F1 equal accuracy."""
    M = sym.confusion_symbols(3)
    assert sp.expand(sym.false_positive_total(M) - sym.false_negative_total(M)) == 0
    acc = sym.accuracy_expr(M)
    for f in (sym.micro_precision_expr, sym.micro_recall_expr, sym.micro_f1_expr):
        assert sym.exactly_equal(f(M), acc), f.__name__


def test_symbolic_expressions_match_library():
    """The sympy formulas evaluate to the numpy library's values on a concrete matrix."""
    m = np.array([[5, 2, 1], [3, 7, 2], [1, 4, 6]])
    M = sym.confusion_symbols(3)
    values = {M[i, j]: int(m[i, j]) for i in range(3) for j in range(3)}
    pairs = [
        (sym.accuracy_expr, cm.accuracy),
        (sym.macro_recall_expr, cm.macro_recall),
        (sym.macro_precision_expr, cm.macro_precision),
        (sym.weighted_f1_expr, cm.weighted_f1),
        (sym.micro_f1_expr, cm.micro_f1),
    ]
    for expr, f in pairs:
        assert float(expr(M).subs(values)) == pytest.approx(f(m), rel=1e-12), f.__name__


# --- chapter 2: the accuracy paradox of the talk -------------------------------------

# The talk's table: rows = actual (p', n'), columns = predicted (p, n).
TALK_TABLE = [[8, 2], [12, 9978]]


def test_paradox_orientation():
    """In the book's orientation (rows = predicted) the talk's table is [[8, 12], [2, 9978]]."""
    assert cm.from_sklearn(TALK_TABLE).tolist() == [[8, 12], [2, 9978]]


def test_paradox_accuracies():
    """The talk: the model has accuracy 0.9986, always predicting the majority class 0.999."""
    model = cm.from_sklearn(TALK_TABLE)
    majority = [[0, 0], [10, 9990]]
    assert cm.accuracy(model) == pytest.approx(0.9986, abs=1e-12)
    assert cm.accuracy(majority) == pytest.approx(0.999, abs=1e-12)
    assert cm.accuracy(majority) > cm.accuracy(model)


def test_paradox_macro_recall():
    """Macro recall: model (8/10 + 9978/9990)/2, majority exactly 1/2 -- the order flips."""
    model = cm.from_sklearn(TALK_TABLE)
    majority = [[0, 0], [10, 9990]]
    expected = (Fraction(8, 10) + Fraction(9978, 9990)) / 2
    assert cm.macro_recall(model) == pytest.approx(float(expected), abs=1e-15)
    assert cm.macro_recall(majority) == 0.5
    assert cm.macro_recall(model) > cm.macro_recall(majority)


# --- gradients (appendices A.1, B.1, C.1, F.1) --------------------------------------


@pytest.mark.parametrize("metric", ["accuracy", "macro_recall", "macro_precision"])
def test_gradient_equals_appendix_and_signs(metric):
    """sympy's derivatives equal the appendix closed forms; signs '+' on, '-' off the diagonal."""
    M = sym.confusion_symbols(3)
    grad, closed = sym.gradient(metric, M), sym.appendix_gradient(metric, M)
    assert all(sym.exactly_equal(grad[k], closed[k]) for k in range(9))
    signs = sym.gradient_signs(metric, 3)
    assert signs == [["+" if i == j else "-" for j in range(3)] for i in range(3)]


def test_gradient_signs_rejects_weighted_f1():
    """gradient_signs refuses weighted F1, whose sign is not fixed, with a helpful error."""
    with pytest.raises(ValueError, match="weighted_f1_gradient_at"):
        sym.gradient_signs("weighted_f1", 2)


def test_weighted_f1_chain_rule_equals_appendix_f():
    """The chain rule in class quantities gives appendix F.1 (and the diagonal analogue)."""
    assert all(
        sym.exactly_equal(
            sym.weighted_f1_chain_rule(3, i, j), sym.weighted_f1_appendix_class(3, i, j)
        )
        for i in range(3)
        for j in range(3)
    )


def test_weighted_f1_full_gradient_two_classes():
    """On a full symbolic 2x2 matrix, d weightF1/d m_ij equals the appendix form in all cells."""
    M = sym.confusion_symbols(2)
    grad, closed = sym.gradient("weighted_f1", M), sym.appendix_gradient("weighted_f1", M)
    assert all(sym.exactly_equal(grad[k], closed[k]) for k in range(4))


def test_weighted_f1_gradient_positive_at_counterexample():
    """At [[0,0,1],[0,1,1],[1,0,0]] the derivative for cell (0, 1) is 5/72 > 0 (by hand).

    x = (1, 1, 2), y = (1, 2, 1), z = (0, 1, 0), |S| = 4, weightF1 = 1/6:
    (2*2*1/9 - 0 - 1/6) / 4 = (4/9 - 1/6) / 4 = 5/72.
    """
    g = sym.weighted_f1_gradient_at([[0, 0, 1], [0, 1, 1], [1, 0, 0]])
    assert g[0, 1] == sp.Rational(5, 72)


# --- chapter 3: macro recall readings --------------------------------------------------


def _random_matrix(seed: int) -> np.ndarray:
    return np.random.default_rng(seed).integers(1, 30, size=(4, 4))


def _exact_win(y_true, y_pred) -> Fraction:
    """The bookmaker's win with exact fractions, item by item (independent of the library)."""
    total = len(y_true)
    prev = {c: sum(1 for t in y_true if t == c) for c in set(y_true)}
    return sum(
        (Fraction(total, prev[t]) if t == p else Fraction(0)) - 1
        for t, p in zip(y_true, y_pred, strict=True)
    )


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_bookmaker_win_equals_formula_exactly(seed):
    """Betting at fair odds |S|/prevalence wins exactly |S| (n macR - 1) (exact fractions)."""
    m = _random_matrix(seed)
    y_true, y_pred = cm.to_labels(m)
    exact = _exact_win(y_true.tolist(), y_pred.tolist())
    n, total = m.shape[0], int(m.sum())
    mac_r = sum(Fraction(int(m[i, i]), int(m[:, i].sum())) for i in range(n)) / n
    assert exact == total * (n * mac_r - 1)
    assert bookmaker_net_win(y_true, y_pred) == pytest.approx(float(exact), rel=1e-12)


@pytest.mark.parametrize("labels", [["zebra", "apple", "mango"], [2, 0, 1], ["a", "b", "c"]])
def test_random_class_items_draws_a_class_then_an_item(labels):
    """Chapter 3, reading 1: P(item) = 1/(n * size of its class), for labels in any order.

    The draw must not pair items sorted by name with the matrix's column order,
    so two of the label sets here are not in sorted order.
    """
    m = np.array([[2, 1, 0], [7, 20, 1], [1, 0, 3]])  # class sizes 10, 21, 4
    y_true, y_pred = cm.to_labels(m, labels)
    draws = 300_000
    items = random_class_items(y_true, draws, rng=7)
    counts = np.bincount(items, minlength=len(y_true))
    size_of = {c: int(np.sum(y_true == c)) for c in labels}
    expected = np.array([draws / (3 * size_of[c]) for c in y_true])
    assert (np.abs(counts - expected) < 6 * np.sqrt(expected)).all()
    share = float(np.mean(y_true[items] == y_pred[items]))
    mac_r = float(Fraction(2, 10) + Fraction(20, 21) + Fraction(3, 4)) / 3
    assert cm.macro_recall(m) == pytest.approx(mac_r, rel=1e-12)
    assert share == pytest.approx(mac_r, abs=6 * np.sqrt(mac_r * (1 - mac_r) / draws))


def test_random_class_items_rejects_bad_input():
    """No labels, a 2-d label array or a non-positive size is a ValueError naming it."""
    with pytest.raises(ValueError, match="non-empty 1-d"):
        random_class_items([], 10)
    with pytest.raises(ValueError, match="non-empty 1-d"):
        random_class_items([[0, 1], [1, 0]], 10)
    with pytest.raises(ValueError, match="size must be"):
        random_class_items([0, 1], 0)


def test_bookmaker_identity_symbolic():
    """sympy: sum_i correct(i) |S|/prevalence(i) - |S| = |S| (n macR - 1) for a 3x3 matrix."""
    M = sym.confusion_symbols(3)
    rhs = sym.total_expr(M) * (3 * sym.macro_recall_expr(M) - 1)
    assert sym.exactly_equal(sym.bookmaker_win_expr(M), rhs)


def test_bookmaker_majority_breaks_even():
    """A constant answer has macR = 1/n, so its fair-odds win is exactly 0."""
    y_true = ["a"] * 7 + ["b"] * 3
    assert bookmaker_net_win(y_true, ["a"] * 10, labels=["a", "b"]) == pytest.approx(0.0, abs=1e-12)


def test_bookmaker_rejects_missing_class():
    """A class that never occurs in y_true has no fair odds: ValueError."""
    with pytest.raises(ValueError, match="every class must occur"):
        bookmaker_net_win(["a", "a"], ["a", "b"], labels=["a", "b"])


@pytest.mark.parametrize("seed", [3, 4])
def test_calibrated_accuracy_is_macro_recall(seed):
    """Eq. 8 of the source: accuracy(m lambda~) = macR(m)."""
    m = _random_matrix(seed)
    assert cm.accuracy(cm.prevalence_calibrate(m)) == pytest.approx(cm.macro_recall(m), abs=1e-12)


def test_calibrated_accuracy_symbolic():
    """sympy: accuracy of the prevalence-calibrated 3x3 matrix equals macro recall exactly."""
    M = sym.confusion_symbols(3)
    assert sym.exactly_equal(sym.calibrated_accuracy_expr(M), sym.macro_recall_expr(M))


# --- chapter 3: macro precision and prevalence (tables 2-4, footnote 7) ----------------


def test_tables_2_to_4_exact_fractions():
    """Table 2 -> table 4 with lambda = (1, 2): macP 5/8 -> 19/30; macR unchanged (19/30)."""
    table2 = np.array([[15, 5], [10, 10]])
    table4 = cm.prevalence_scale(table2, [1, 2])
    assert table4.tolist() == [[15, 10], [10, 20]]
    assert sym.macro_precision_expr(sp.Matrix(table2)) == sp.Rational(5, 8)
    assert sym.macro_precision_expr(sp.Matrix(table4.astype(int))) == sp.Rational(19, 30)
    assert cm.macro_precision(table2) == pytest.approx(5 / 8, abs=1e-15)
    assert cm.macro_precision(table4) == pytest.approx(19 / 30, abs=1e-15)
    # (15/25 + 10/15) / 2 = 19/30 in both tables
    assert cm.macro_recall(table2) == pytest.approx(19 / 30, abs=1e-15)
    assert cm.macro_recall(table4) == pytest.approx(19 / 30, abs=1e-15)


@pytest.mark.parametrize("n", [2, 3, 5, 10])
def test_precision_gap_closed_form(n):
    """Construction: gap = (1 - 1/n)(t - 1)/(t + 1) exactly (sympy) and numerically."""
    t, gap = sym.precision_gap_expr(n)
    assert sym.exactly_equal(gap, (1 - sp.Rational(1, n)) * (t - 1) / (t + 1))
    ts = np.array([1.0, 3.0, 50.0])
    m, lam = precision_gap_construction(n, ts)
    numeric = cm.macro_precision(cm.prevalence_scale(m, lam)) - cm.macro_precision(m)
    assert numeric == pytest.approx((1 - 1 / n) * (ts - 1) / (ts + 1), abs=1e-12)


@pytest.mark.parametrize("n", [2, 3, 5, 10])
def test_precision_gap_tends_to_bound(n):
    """The gap tends to 1 - 1/n (limit) and stays below it for every finite t."""
    t, gap = sym.precision_gap_expr(n)
    assert sp.limit(gap, t, sp.oo) == 1 - sp.Rational(1, n)
    m, lam = precision_gap_construction(n, 1e6)
    numeric = cm.macro_precision(cm.prevalence_scale(m, lam)) - cm.macro_precision(m)
    assert 1 - 1 / n - 1e-5 < numeric < 1 - 1 / n
    assert cm.macro_recall(cm.prevalence_scale(m, lam)) == pytest.approx(cm.macro_recall(m))


def test_precision_gap_bound_on_random_scalings():
    """Theorem: |macP(m lambda) - macP(m lambda')| < 1 - 1/n for random m, lambda, lambda'."""
    rng = np.random.default_rng(7)
    m = rng.integers(0, 20, size=(4000, 3, 3)) + np.eye(3)
    lam1 = np.exp(rng.normal(0, 4, size=(4000, 3)))
    lam2 = np.exp(rng.normal(0, 4, size=(4000, 3)))
    gap = cm.macro_precision(cm.prevalence_scale(m, lam1)) - cm.macro_precision(
        cm.prevalence_scale(m, lam2)
    )
    assert np.abs(gap).max() < 1 - 1 / 3


# --- chapter 3: chance baselines (appendices B.5, C.5) --------------------------------


@pytest.mark.parametrize("n", [2, 3, 4])
def test_chance_baselines_symbolic(n):
    """For m_ij = z_i p_j (any positive z, p): macR = macP = 1/n exactly."""
    C, _, _ = sym.chance_matrix(n)
    assert sp.simplify(sym.macro_recall_expr(C)) == sp.Rational(1, n)
    assert sp.simplify(sym.macro_precision_expr(C)) == sp.Rational(1, n)


@pytest.mark.parametrize(
    "prediction", [[1 / 3, 1 / 3, 1 / 3], [0.6, 0.3, 0.1], [0.8, 0.15, 0.05], [0.1, 0.1, 0.8]]
)
def test_chance_baselines_simulated(prediction):
    """Random classifiers on imbalanced data: mean macR and macP within 0.01 of 1/3."""
    sims = random_classifier([0.6, 0.3, 0.1], prediction, 3000, size=200, rng=11)
    assert abs(cm.macro_recall(sims).mean() - 1 / 3) < 0.01
    assert abs(cm.macro_precision(sims).mean() - 1 / 3) < 0.01


def test_chance_macro_precision_needs_every_class_predicted():
    """Never predicting class 3: macR stays 1/3, macP drops to (0.6 + 0.3 + 0)/3 = 0.3."""
    sims = random_classifier([0.6, 0.3, 0.1], [0.5, 0.5, 0.0], 3000, size=200, rng=12)
    assert abs(cm.macro_recall(sims).mean() - 1 / 3) < 0.01
    assert abs(cm.macro_precision(sims).mean() - 0.3) < 0.01


# --- chapter 6: weighted F1 ------------------------------------------------------------


def test_weighted_f1_counterexample_by_hand():
    """[[0,0,1],[0,1,1],[1,0,0]] + error in (0, 1): weightF1 1/6 -> 1/5 (hand computation)."""
    before = np.array([[0, 0, 1], [0, 1, 1], [1, 0, 0]])
    after = before.copy()
    after[0, 1] += 1
    assert cm.weighted_f1(before) == pytest.approx(1 / 6, abs=1e-15)
    assert cm.weighted_f1(after) == pytest.approx(1 / 5, abs=1e-15)
    assert cm.accuracy(after) < cm.accuracy(before)
    assert cm.macro_recall(after) < cm.macro_recall(before)


def test_smallest_counterexample_search():
    """Exhaustive search: no 3-class matrix of total 3 has a rising error; the smallest has 4."""
    assert smallest_rise(cm.weighted_f1, all_counts(3, 3)) is None
    candidates = np.concatenate([all_counts(3, total) for total in range(3, 6)])
    rise = smallest_rise(cm.weighted_f1, candidates)
    assert rise.before.sum() == 4
    assert rise.after.sum() == 5
    assert rise.after[rise.cell] == rise.before[rise.cell] + 1
    assert rise.cell[0] != rise.cell[1]
    assert cm.weighted_f1(rise.after) > cm.weighted_f1(rise.before)
    assert cm.accuracy(rise.after) < cm.accuracy(rise.before)
    assert cm.macro_recall(rise.after) <= cm.macro_recall(rise.before)


def test_smallest_two_class_counterexample():
    """Two classes: none up to total 4; at total 5, [[0,1],[3,1]] + (0,1): 2/15 -> 1/7 by hand."""
    for total in range(2, 5):
        assert smallest_rise(cm.weighted_f1, all_counts(2, total)) is None
    rise = smallest_rise(cm.weighted_f1, all_counts(2, 5))
    assert rise.before.sum() == 5
    assert cm.weighted_f1([[0, 1], [3, 1]]) == pytest.approx(2 / 15, abs=1e-15)
    assert cm.weighted_f1([[0, 2], [3, 1]]) == pytest.approx(1 / 7, abs=1e-15)
    assert rise.gain == pytest.approx(1 / 7 - 2 / 15, abs=1e-12)


def test_all_counts_without_the_filter_lists_every_composition():
    """require_seen=False keeps all C(total + n^2 - 1, n^2 - 1) matrices, absent classes too."""
    from math import comb

    for n, total in ((2, 3), (3, 2), (2, 1)):
        stack = all_counts(n, total, require_seen=False)
        assert len(stack) == comb(total + n * n - 1, n * n - 1)
        assert (stack.sum(axis=(-2, -1)) == total).all()
        assert len({m.tobytes() for m in stack}) == len(stack)
    assert len(all_counts(2, 3)) < len(all_counts(2, 3, require_seen=False))


def test_truly_smallest_weighted_f1_counterexample():
    """Without the filter: 3 items, 2 classes, [[0,0],[2,1]] + (0, 1): 1/6 -> 1/5 by hand.

    Class a is never predicted, but F1_a = 2 * 0 / (0 + 2) needs no convention:
    scikit-learn gives the same values under every zero_division.
    """
    from sklearn.metrics import f1_score

    for n in (2, 3):
        for total in (1, 2):
            assert smallest_rise(cm.weighted_f1, all_counts(n, total, require_seen=False)) is None
        three = smallest_rise(cm.weighted_f1, all_counts(n, 3, require_seen=False))
        assert three is not None and three.before.sum() == 3
    rise = smallest_rise(cm.weighted_f1, all_counts(2, 3, require_seen=False))
    assert rise.before.tolist() == [[0, 0], [2, 1]] and rise.cell == (0, 1)
    assert cm.weighted_f1(rise.before) == pytest.approx(1 / 6, abs=1e-15)
    assert cm.weighted_f1(rise.after) == pytest.approx(1 / 5, abs=1e-15)
    for zero_division in (0, 1, np.nan):
        for m, value in ((rise.before, 1 / 6), (rise.after, 1 / 5)):
            y_true, y_pred = cm.to_labels(m.astype(int))
            got = f1_score(
                y_true, y_pred, labels=[0, 1], average="weighted", zero_division=zero_division
            )
            assert got == pytest.approx(value, abs=1e-15)
    assert np.isnan(cm.weighted_f1(rise.before, zero_division="nan"))


def test_accuracy_and_macro_recall_never_rise_on_the_search():
    """On random 3x3 matrices: errors raise weighted F1 sometimes, accuracy and macR never."""
    pool = random_counts(3, 5000, 9, rng=5)
    wf1 = error_search(cm.weighted_f1, pool)
    assert 0 < wf1.matrix_rate < 1 and 0 < wf1.cell_rate <= wf1.matrix_rate
    assert wf1.max_gain > 0
    for f in (cm.accuracy, cm.macro_recall):
        found = error_search(f, pool)
        assert found.max_gain <= 0, f.__name__
        assert found.matrix_rate == 0.0 and not found.rises.any(), f.__name__


def test_weighted_f1_calibrated_is_macro_f1():
    """Section 4.6: weightF1(m lambda~) = macF1(m lambda~)."""
    m = _random_matrix(9)
    calibrated = cm.prevalence_calibrate(m)
    assert cm.weighted_f1(calibrated) == pytest.approx(cm.macro_f1(calibrated), abs=1e-12)


def test_weighted_f1_is_prevalence_weighted_like_accuracy():
    """accuracy = sum_i prevalence(i)/|S| * R_i and weightF1 = sum_i prevalence(i)/|S| * F1_i."""
    m = _random_matrix(10)
    w = cm.prevalence(m) / m.sum()
    assert cm.accuracy(m) == pytest.approx(float(np.sum(w * cm.recall(m))), abs=1e-12)
    assert cm.weighted_f1(m) == pytest.approx(float(np.sum(w * cm.f1(m))), abs=1e-12)


# --- input checks of the new modules ----------------------------------------------------


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: random_counts(1, 10, 5), "n must be"),
        (lambda: random_counts(3, 0, 5), "size must be"),
        (lambda: all_counts(3, 2), "total must be an integer >= n = 3"),
        (lambda: all_counts(3, 0, require_seen=False), "total must be an integer >= 1"),
        (lambda: all_counts(3, 3, require_seen="no"), "require_seen must be"),
        (lambda: precision_gap_construction(3, 0.5), "t must be"),
        (lambda: error_search(cm.accuracy, [[1, 0], [0, 1]]), "stack must have shape"),
        (lambda: sym.gradient("kappa", sym.confusion_symbols(2)), "metric must be one of"),
        (lambda: sym.confusion_symbols(1), "n must be"),
    ],
)
def test_bad_input_messages(call, message):
    """The search and derivation helpers reject bad input with a message naming the problem."""
    with pytest.raises(ValueError, match=message):
        call()
