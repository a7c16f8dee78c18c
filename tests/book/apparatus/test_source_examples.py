"""Exact values from the sources the library implements.

Opitz & Burst (2019), *Macro F1 and Macro F1*; Opitz (2024), *A Closer Look at
Classification Evaluation Metrics*; the note on micro averaging; the
F-measure paradox talk. Expected values are the sources' printed numbers or
exact fractions worked by hand (in comments and in the test code), never
output of clfmetrics. Convention: ``m[i, j]`` = predicted ``i``, true ``j``.
"""

from __future__ import annotations

import math
from fractions import Fraction as F

import numpy as np
import pytest

import clfmetrics as cm

# Opitz & Burst (2019): the reference implementation's printed output.
OB_SKEWED = [[100, 10000], [0, 100]]
OB_SYMMETRIC = [[100, 5000], [5000, 100]]

# Opitz (2024), tables 7 and 8: rows = predicted x, y, z; columns = true x, y, z.
M7 = [[10, 43, 0], [1, 1, 0], [0, 0, 1]]
M8 = [[10, 43, 0], [1, 1, 0], [0, 10, 1]]

# Opitz (2024), tables 2-4.
M2 = [[15, 5], [10, 10]]


def _sums(m):
    """Total s, correct mass r, bias b (row sums) and prevalence p (column sums), in plain ints."""
    n = len(m)
    s = sum(sum(row) for row in m)
    r = sum(m[i][i] for i in range(n))
    b = [sum(m[i]) for i in range(n)]
    p = [sum(m[i][j] for i in range(n)) for j in range(n)]
    return s, r, b, p


# ---------------------------------------------------------------------------
# Opitz & Burst (2019)
# ---------------------------------------------------------------------------


def test_opitz_burst_skewed_matrix_matches_reference_output():
    """[[100, 10000], [0, 100]]: F1 of averages 0.5049..., averaged F1 0.0196..., gap 0.4853..."""
    assert cm.f1_of_averages(OB_SKEWED) == pytest.approx(0.504950495049505, rel=1e-12)
    assert cm.macro_f1(OB_SKEWED) == pytest.approx(1.96078431372549e-2, rel=1e-12)
    assert cm.delta_f1(OB_SKEWED) == pytest.approx(0.48534265191225007, rel=1e-12)
    gap = cm.f1_of_averages(OB_SKEWED) - cm.macro_f1(OB_SKEWED)
    assert gap == pytest.approx(0.48534265191225007, rel=1e-12)


def test_opitz_burst_skewed_matrix_by_exact_fractions():
    """Both class-wise F1 are 2*100/(10100 + 100) = 1/51; macP = macR = 51/101; gap 2500/5151."""
    p = [F(100, 10100), F(100, 100)]  # class 0 predicted 10100 times, class 1 100 times
    r = [F(100, 100), F(100, 10100)]  # class 0 occurs 100 times, class 1 10100 times
    f1 = [2 * pi * ri / (pi + ri) for pi, ri in zip(p, r, strict=True)]
    assert f1 == [F(1, 51), F(1, 51)] == [F(2, 102), F(2, 102)]
    mac_p, mac_r = sum(p) / 2, sum(r) / 2
    assert mac_p == mac_r == F(51, 101)
    assert 2 * mac_p * mac_r / (mac_p + mac_r) - sum(f1) / 2 == F(2500, 5151)

    np.testing.assert_allclose(cm.f1(OB_SKEWED), [float(F(1, 51))] * 2, rtol=1e-15)
    assert cm.macro_f1(OB_SKEWED) == pytest.approx(float(F(1, 51)), rel=1e-14)
    assert cm.f1_of_averages(OB_SKEWED) == pytest.approx(float(F(51, 101)), rel=1e-14)
    assert cm.delta_f1(OB_SKEWED) == pytest.approx(float(F(2500, 5151)), rel=1e-14)


def test_opitz_burst_symmetric_matrix_has_no_gap():
    """[[100, 5000], [5000, 100]]: both F1s are 0.0196... and the gap is 0."""
    assert cm.f1_of_averages(OB_SYMMETRIC) == pytest.approx(1.96078431372549e-2, rel=1e-12)
    assert cm.macro_f1(OB_SYMMETRIC) == pytest.approx(1.96078431372549e-2, rel=1e-12)
    assert cm.delta_f1(OB_SYMMETRIC) == 0.0
    gap = cm.f1_of_averages(OB_SYMMETRIC) - cm.macro_f1(OB_SYMMETRIC)
    assert gap == pytest.approx(0.0, abs=1e-15)


# ---------------------------------------------------------------------------
# Opitz (2024), tables 7 and 8: kappa and MCC rise with ten more errors
# ---------------------------------------------------------------------------


def test_table7_mcc_and_kappa_are_zero():
    """Table 7: accuracy 12/56 equals chance p.b/s^2 = 672/3136, so MCC = kappa = 0."""
    s, r, b, p = _sums(M7)
    assert (s, r, b, p) == (56, 12, [53, 2, 1], [11, 44, 1])
    assert r * s == 672 == sum(pi * bi for pi, bi in zip(p, b, strict=True))
    assert cm.mcc(M7) == pytest.approx(0.0, abs=1e-12)
    assert cm.kappa(M7) == pytest.approx(0.0, abs=1e-12)


def test_table8_mcc_and_kappa_as_printed():
    """Table 8: MCC rounds to 0.07 and kappa to 0.02, as the paper prints."""
    assert round(cm.mcc(M8), 2) == 0.07
    assert round(cm.kappa(M8), 2) == 0.02


def test_table8_kappa_and_mcc_by_exact_fractions():
    """kappa = (rs - p.b)/(s^2 - p.b) = 90/3654 = 5/203; MCC^2 = 90^2 / (1318 * 1422)."""
    s, r, b, p = _sums(M8)
    assert (s, r, b, p) == (66, 12, [53, 2, 11], [11, 54, 1])
    pb = sum(pi * bi for pi, bi in zip(p, b, strict=True))
    pp = sum(pi * pi for pi in p)
    bb = sum(bi * bi for bi in b)
    assert (pb, pp, bb) == (702, 3038, 2934)
    numerator = r * s - pb
    assert numerator == 90
    kappa_exact = F(numerator, s * s - pb)
    assert kappa_exact == F(90, 3654) == F(5, 203)
    mcc_squared = F(numerator**2, (s * s - pp) * (s * s - bb))
    assert mcc_squared == F(8100, 1318 * 1422)

    assert cm.kappa(M8) == pytest.approx(float(kappa_exact), rel=1e-13)
    assert cm.mcc(M8) == pytest.approx(90 / math.sqrt(1318 * 1422), rel=1e-13)
    assert cm.mcc(M8) ** 2 == pytest.approx(float(mcc_squared), rel=1e-13)


def test_table8_has_ten_more_errors_yet_higher_mcc_and_kappa():
    """m8 - m7 is 10 in one off-diagonal cell (predicted z, true y), yet MCC and kappa rise."""
    diff = np.array(M8) - np.array(M7)
    assert np.count_nonzero(diff) == 1 and diff[2, 1] == 10
    assert np.trace(diff) == 0
    assert cm.accuracy(M8) < cm.accuracy(M7)
    assert cm.mcc(M8) > cm.mcc(M7)
    assert cm.kappa(M8) > cm.kappa(M7)


# ---------------------------------------------------------------------------
# Opitz (2024), tables 2-4: prevalence scaling
# ---------------------------------------------------------------------------


def test_tables_2_to_4_prevalence_scale_doubles_the_second_column():
    """prevalence_scale(m, [1, 2]) doubles the true-class-2 column: [[15, 10], [10, 20]]."""
    scaled = cm.prevalence_scale(M2, [1, 2])
    np.testing.assert_array_equal(scaled, [[15, 10], [10, 20]])


def test_tables_2_to_4_macro_precision_moves_macro_recall_does_not():
    """macP: (15/20 + 10/20)/2 = 5/8 before, (15/25 + 20/30)/2 = 19/30 after; macR 19/30 both."""
    assert (F(15, 20) + F(10, 20)) / 2 == F(5, 8)
    assert (F(15, 25) + F(20, 30)) / 2 == F(19, 30)
    assert (F(15, 25) + F(10, 15)) / 2 == F(19, 30)  # macR before: recalls 15/25, 10/15
    scaled = cm.prevalence_scale(M2, [1, 2])
    assert cm.macro_precision(M2) == pytest.approx(float(F(5, 8)), rel=1e-15)
    assert cm.macro_precision(scaled) == pytest.approx(float(F(19, 30)), rel=1e-15)
    assert cm.macro_recall(M2) == pytest.approx(float(F(19, 30)), rel=1e-15)
    assert cm.macro_recall(scaled) == pytest.approx(float(F(19, 30)), rel=1e-15)


# ---------------------------------------------------------------------------
# The micro-averaging note: nine examples
# ---------------------------------------------------------------------------

PRED = list("AABCABBCC")
TRUE = list("AAAABBCCC")


def test_nine_examples_matrix():
    """The pairs (A,A),(A,A),(B,A),(C,A),(A,B),(B,B),(B,C),(C,C),(C,C) as (pred, true)."""
    assert list(zip(PRED, TRUE, strict=True)) == [
        ("A", "A"), ("A", "A"), ("B", "A"), ("C", "A"), ("A", "B"),
        ("B", "B"), ("B", "C"), ("C", "C"), ("C", "C"),
    ]  # fmt: skip
    m = cm.confusion_matrix(TRUE, PRED)
    np.testing.assert_array_equal(m, [[2, 1, 0], [1, 1, 1], [1, 0, 2]])


def test_nine_examples_tp_fp_fn_per_class():
    """TP/FP/FN are A: 2/1/2, B: 1/2/1, C: 2/1/1 (correct, bias - correct, prevalence - correct)."""
    m = cm.confusion_matrix(TRUE, PRED, labels=["A", "B", "C"])
    tp = cm.correct(m)
    np.testing.assert_array_equal(tp, [2, 1, 2])
    np.testing.assert_array_equal(cm.bias(m) - tp, [1, 2, 1])
    np.testing.assert_array_equal(cm.prevalence(m) - tp, [2, 1, 1])


def test_nine_examples_micro_scores_are_five_ninths():
    """Micro P = micro R = micro F1 = accuracy = (2 + 1 + 2) / 9 = 5/9."""
    m = cm.confusion_matrix(TRUE, PRED)
    five_ninths = float(F(5, 9))
    for func in (cm.micro_precision, cm.micro_recall, cm.micro_f1, cm.accuracy):
        assert func(m) == pytest.approx(five_ninths, rel=1e-15), func.__name__


# ---------------------------------------------------------------------------
# The F-measure paradox talk: the accuracy paradox
# ---------------------------------------------------------------------------

# The talk's table has rows = actual (p', n') and columns = predicted (p, n):
#   actual p': predicted p 8, predicted n 2; actual n': predicted p 12, predicted n 9978.
# In our convention (rows = predicted) that is the transpose:
ACCURACY_PARADOX = [[8, 12], [2, 9978]]
ALWAYS_MAJORITY = [[0, 0], [10, 9990]]


def test_accuracy_paradox_matrix_is_the_talks_table_transposed():
    """from_sklearn converts the talk's rows-are-actual table to our matrix."""
    talk_table = [[8, 2], [12, 9978]]
    np.testing.assert_array_equal(cm.from_sklearn(talk_table), ACCURACY_PARADOX)
    np.testing.assert_array_equal(cm.prevalence(ACCURACY_PARADOX), [10, 9990])


def test_accuracy_paradox_values():
    """The classifier scores accuracy 9986/10000; always predicting the majority scores 0.999."""
    assert cm.accuracy(ACCURACY_PARADOX) == pytest.approx(0.9986, abs=1e-12)
    assert cm.accuracy(ALWAYS_MAJORITY) == pytest.approx(0.999, abs=1e-12)


def test_accuracy_paradox_majority_wins_accuracy_only():
    """The useless majority classifier has higher accuracy but lower macro recall and kappa 0."""
    assert cm.accuracy(ALWAYS_MAJORITY) > cm.accuracy(ACCURACY_PARADOX)
    mac_r = (F(8, 10) + F(9978, 9990)) / 2
    assert cm.macro_recall(ACCURACY_PARADOX) == pytest.approx(float(mac_r), rel=1e-14)
    assert cm.macro_recall(ALWAYS_MAJORITY) == pytest.approx(0.5, rel=1e-15)
    assert cm.kappa(ALWAYS_MAJORITY) == 0.0
    assert cm.mcc(ALWAYS_MAJORITY) == 0.0
    assert cm.kappa(ACCURACY_PARADOX) > 0.0
