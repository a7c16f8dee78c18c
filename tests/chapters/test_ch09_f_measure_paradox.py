"""Chapter 9: the F-measure paradox (vor der Brück 2020) by exhaustive enumeration.

The expected proposition table is the talk's (HM: holds, fails, holds, fails;
F1: fails, holds, fails, holds) plus our hand derivations for the other
readings. A pure-Python enumeration with exact fractions, written here
independently of the library, cross-checks the vectorised one.
"""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest
from chapter_text import chapter, seed

import clfmetrics as cm
from clfbook.sources.paradox import (
    count_grid,
    macro_f1_skip_undefined,
    proposition_table,
    scores_from_counts,
)
from clfmetrics import f1, macro_f1, to_labels

NAN = None  # the undefined value in the pure-Python reference


def _ratio(num, den, convention):
    if den == 0:
        return F(0) if convention == "zero" else NAN
    return F(num, den)


def _hm(a, b):
    if a is NAN or b is NAN:
        return NAN  # NaN is absorbing
    return F(0) if a + b == 0 else 2 * a * b / (a + b)


def _reference_table(max_count, convention, equality, a_is="precision"):
    """Which of the four propositions hold for F1, by plain loops over (TP, FP, FN)."""

    def eq(x, y):
        if x is NAN or y is NAN:
            return equality == "symbolic" and x is NAN and y is NAN
        return x == y

    def nonzero(x):
        return x is NAN or x != 0

    def is_zero(x):
        return x is not NAN and x == 0

    holds = [True] * 4
    rng = range(max_count + 1)
    for tp in rng:
        for fp in rng:
            for fn in rng:
                p = _ratio(tp, tp + fp, convention)
                r = _ratio(tp, tp + fn, convention)
                h = _hm(p, r)
                a, b = (p, r) if a_is == "precision" else (r, p)
                checks = [
                    not is_zero(a) or eq(h, F(0)),
                    not eq(h, F(0)) or is_zero(a),
                    not (nonzero(a) and eq(h, a)) or eq(b, a),
                    not (nonzero(a) and eq(h, b)) or eq(b, a),
                ]
                holds = [x and y for x, y in zip(holds, checks, strict=True)]
    return holds


def test_talks_table_is_reproduced():
    """HM: holds/fails/holds/fails; F1 with NaN (NaN = NaN): fails/holds/fails/holds (the talk)."""
    table = proposition_table(5)
    assert table.columns[0] == "HM"
    assert table.holds[:, 0].tolist() == [True, False, True, False]
    assert table.holds[:, 2].tolist() == [False, True, False, True]


def test_other_readings():
    """Undefined -> 0: all four hold; NaN with IEEE equality: only proposition 1 fails."""
    assert proposition_table(5).holds[:, 1].tolist() == [True, True, True, True]
    ieee = proposition_table(5, equality="ieee")
    assert ieee.holds[:, 2].tolist() == [False, True, True, True]
    assert ieee.holds[:, 0].tolist() == [True, False, True, False]


@pytest.mark.parametrize("equality", ["symbolic", "ieee"])
@pytest.mark.parametrize("a_is", ["precision", "recall"])
def test_vectorised_table_matches_exact_loops(equality, a_is):
    """The numpy enumeration agrees with exact-fraction loops for both conventions."""
    table = proposition_table(4, equality=equality, a_is=a_is)
    for c, convention in ((1, "zero"), (2, "nan")):
        expected = _reference_table(4, convention, equality, a_is)
        assert table.holds[:, c].tolist() == expected, (convention, equality, a_is)


def test_precision_and_recall_are_interchangeable():
    """Swapping which argument is precision leaves the whole table unchanged (the talk's note)."""
    assert (proposition_table(5, a_is="recall").holds == proposition_table(5).holds).all()


def test_counterexamples_are_the_hand_derived_cases():
    """(1) fails at TP = FN = 0 < FP; (3) at TP = FP = 0 < FN; HM's (2), (4) at a > 0 = b."""
    table = proposition_table(5)
    ex1 = table.counterexamples[0][2]
    assert ex1["TP"] == 0 and ex1["FN"] == 0 and ex1["FP"] > 0 and ex1["a"] == 0
    assert np.isnan(ex1["F1"])
    ex3 = table.counterexamples[2][2]
    assert ex3["TP"] == 0 and ex3["FP"] == 0 and ex3["FN"] > 0 and ex3["b"] == 0
    for k in (1, 3):
        ex = table.counterexamples[k][0]
        assert ex["a"] > 0 and ex["b"] == 0 and ex["H"] == 0
    assert table.counterexamples[1][2] is None


def test_scores_from_counts_by_hand():
    """TP=2, FP=1, FN=3: P = 2/3, R = 2/5, F1 = 1/2 = 2TP/(2TP+FP+FN); undefined cases."""
    p, r, f = scores_from_counts(2, 1, 3)
    assert (float(p), float(r), float(f)) == pytest.approx((2 / 3, 2 / 5, 1 / 2), rel=1e-15)
    p, r, f = scores_from_counts(0, 3, 0, convention="nan")
    assert p == 0 and np.isnan(r) and np.isnan(f)
    p, r, f = scores_from_counts(0, 3, 0, convention="zero")
    assert p == 0 and r == 0 and f == 0
    p, r, f = scores_from_counts(0, 0, 0, convention="nan")
    assert np.isnan(p) and np.isnan(r) and np.isnan(f)


def test_count_grid_is_exhaustive():
    """count_grid(k) lists every triple in 0..k exactly once."""
    tp, fp, fn = count_grid(5)
    triples = set(zip(tp.tolist(), fp.tolist(), fn.tolist(), strict=True))
    assert len(tp) == 216 == len(triples)
    assert (0, 0, 0) in triples and (5, 5, 5) in triples


def test_sklearn_zero_division_cases():
    """scikit-learn's F1 is 2TP/(2TP+FP+FN); zero_division only applies when TP=FP=FN=0."""
    from sklearn.metrics import f1_score, precision_score, recall_score

    def sk(tp, fp, fn, zd):
        y_true, y_pred = to_labels([[1, fn], [fp, tp]])
        kw = {"labels": [0, 1], "pos_label": 1, "zero_division": zd}
        return [float(s(y_true, y_pred, **kw)) for s in (precision_score, recall_score, f1_score)]

    p, r, f = sk(0, 3, 0, np.nan)
    assert p == 0 and np.isnan(r) and f == 0  # not NaN, unlike Bochvar's F1
    p, r, f = sk(0, 3, 0, 1)
    assert (p, r, f) == (0, 1, 0)
    assert f == 2 * p * r / (p + r)  # chapter 9: here F1 *is* H(P, R), no mismatch
    p, r, f = sk(0, 0, 3, np.nan)
    assert np.isnan(p) and r == 0 and f == 0
    assert all(np.isnan(sk(0, 0, 0, np.nan)))
    assert sk(0, 0, 0, 1) == [1, 1, 1]


def test_macro_f1_policies_by_hand():
    """[[8,2,0],[1,9,0],[0,0,0]]: F1 = 16/19, 6/7, NaN; skip = mean of two, zero = 2/3 of it."""
    m = [[8, 2, 0], [1, 9, 0], [0, 0, 0]]
    skip = (F(16, 19) + F(6, 7)) / 2
    assert macro_f1_skip_undefined(m) == pytest.approx(float(skip), rel=1e-14)
    assert macro_f1(m, zero_division=0) == pytest.approx(float(skip * F(2, 3)), rel=1e-14)
    assert np.isnan(macro_f1(m, zero_division="nan"))
    assert np.isnan(f1(m, zero_division="nan")[2])
    stack = macro_f1_skip_undefined(np.stack([m, np.eye(3)]))
    assert stack.shape == (2,) and stack[1] == pytest.approx(1.0)


def test_macro_f1_skip_all_undefined_is_nan():
    """If no class has a defined F1 the skip-average is NaN, not a silent number."""
    # every class: either never predicted or never present (and never both correct)
    m = [
        [0, 1],
        [0, 0],
    ]  # class 0 predicted once but never true; class 1 true once, never predicted
    assert np.isnan(macro_f1_skip_undefined(m))


@pytest.mark.parametrize(
    "call",
    [
        lambda: count_grid(0),
        lambda: count_grid(True),
        lambda: count_grid(2.5),
        lambda: scores_from_counts(1, 1, 1, convention="one"),
        lambda: scores_from_counts(-1, 1, 1),
        lambda: proposition_table(3, equality="python"),
        lambda: proposition_table(3, a_is="f1"),
        lambda: proposition_table(-2),
        lambda: macro_f1_skip_undefined([[1, 2, 3]]),
    ],
)
def test_bad_input_raises_value_error(call):
    """Bad grid sizes, conventions, readings and matrices raise ValueError."""
    with pytest.raises(ValueError):
        call()


def test_undefined_map_figure():
    """Three labelled panels; bad sizes raise."""
    import matplotlib

    matplotlib.use("Agg")
    from clfbook.plots.agreement import undefined_map

    fig = undefined_map(3)
    assert len(fig.axes) == 3
    assert all(ax.get_xlabel() for ax in fig.axes) and fig.axes[0].get_ylabel()
    with pytest.raises(ValueError):
        undefined_map(0)


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
