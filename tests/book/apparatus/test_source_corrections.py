"""Derivatives that Opitz (2024) prints wrongly (appendices D.1, E.1, G.1), and Table 8's exact
kappa and MCC: clfbook.theory.corrections.

Expected values come from hand derivations with fractions or from the source, never from the
code under test.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
import sympy as sp

import clfmetrics as cm
from clfbook.theory import corrections as C
from clfbook.theory.derivations import confusion_symbols

TABLE_8 = [[10, 43, 0], [1, 1, 0], [0, 10, 1]]  # rows = predicted x, y, z; columns = true


@pytest.mark.parametrize("metric", ["macro_f1", "f1_of_averages", "kappa", "mcc"])
def test_corrected_derivative_equals_the_derivative_of_the_definition(metric):
    """Proved for every positive 2 x 2 matrix, and exactly at a 3 x 3 integer matrix."""
    assert C.corrected_matches(metric, 2)
    M = confusion_symbols(3)
    at = {M[i, j]: v for (i, j), v in np.ndenumerate(np.array(TABLE_8) + 1)}
    g = C.gradient(metric, M).subs(at)
    c = C.corrected_gradient(metric, M).subs(at)
    assert all(sp.radsimp(g[k] - c[k]) == 0 for k in range(9))


def test_macro_f1_printed_diagonal_is_wrong_and_off_diagonal_right():
    """D.1: the diagonal needs 4 correct(i)/(n Z_i^2), not 2; the off-diagonal form is right."""
    true, printed = C.printed_is_wrong("macro_f1", TABLE_8)
    # by hand, class x: correct 10, bias 53, prevalence 11, Z = 64, n = 3
    assert true[0, 0] == sp.Rational(2, 3 * 64) - sp.Rational(4 * 10, 3 * 64**2)
    assert printed[0, 0] == sp.Rational(2, 3 * 64) - sp.Rational(2 * 10, 3 * 64**2)
    assert all(true[i, j] == printed[i, j] for i in range(3) for j in range(3) if i != j)


def test_f1_of_averages_printed_derivative_is_wrong():
    """E.1: 2 x eps/(macR + macP) is not the derivative of 2PR/(P + R)."""
    true, printed = C.printed_is_wrong("f1_of_averages", TABLE_8)
    assert all(true[k] != printed[k] for k in range(9))


@pytest.mark.parametrize("metric", ["kappa", "mcc"])
def test_kappa_mcc_printed_derivatives_are_wrong_off_the_diagonal(metric):
    """G.1: eq. (20) has D_K^2 for D_K; MCC's lacks a factor 2 and has square roots for the
    full factors. Both differ from the true derivative in every off-diagonal cell."""
    true, printed = C.printed_is_wrong(metric, TABLE_8)
    assert all(
        sp.radsimp(true[i, j] - printed[i, j]) != 0 for i in range(3) for j in range(3) if i != j
    )


def test_the_sources_conclusions_stand():
    """Macro F1 and the F1 of averages are monotonic (signs of the corrected gradient on random
    integer matrices, exactly); one more error in cell (z, y) of Table 7 raises kappa and MCC."""
    rng = np.random.default_rng(12)
    M = confusion_symbols(3)
    for metric in ("macro_f1", "f1_of_averages"):
        grad = C.corrected_gradient(metric, M)
        for m in rng.integers(1, 30, size=(3, 3, 3)):
            g = grad.subs({M[i, j]: int(v) for (i, j), v in np.ndenumerate(m)})
            assert all(
                (g[i, j] >= 0) == (i == j) or g[i, j] == 0 for i in range(3) for j in range(3)
            )
    table7 = np.array(TABLE_8) - np.array([[0, 0, 0], [0, 0, 0], [0, 10, 0]])
    for metric in ("kappa", "mcc"):
        true, _ = C.printed_is_wrong(metric, table7)
        assert true[2, 1] > 0


def test_exact_kappa_mcc_of_table_8():
    """By hand: s = 66, r = 12, p.b = 702, p.p = 3038, b.b = 2934."""
    kappa, mcc = C.exact_kappa_mcc(TABLE_8)
    assert kappa == sp.Rational(Fraction(12 * 66 - 702, 66**2 - 702))
    assert mcc**2 == sp.Rational((12 * 66 - 702) ** 2, (66**2 - 3038) * (66**2 - 2934))
    assert mcc > 0


def test_exact_kappa_mcc_agrees_with_the_library():
    rng = np.random.default_rng(4)
    for m in rng.integers(0, 9, size=(20, 3, 3)):
        kappa, mcc = C.exact_kappa_mcc(m)
        assert float(kappa) == pytest.approx(cm.kappa(m), abs=1e-12)
        assert float(mcc) == pytest.approx(cm.mcc(m), abs=1e-12)


@pytest.mark.parametrize("bad", [[[1.5, 0], [0, 1]], [[1, 2, 3]], [[-1, 0], [0, 1]], [[1]]])
def test_exact_kappa_mcc_rejects_non_count_matrices(bad):
    with pytest.raises(ValueError, match="non-negative integers"):
        C.exact_kappa_mcc(bad)


def test_unknown_metric_raises():
    M = confusion_symbols(2)
    for f in (C.gradient, C.printed_gradient, C.corrected_gradient):
        with pytest.raises(ValueError, match="metric must be one of"):
            f("accuracy", M)
