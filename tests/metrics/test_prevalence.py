"""Prevalence calibration (Opitz 2024, eq. 5-8, 16 and §4.3, §4.6): exact and numeric checks."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
import sympy as sp

import clfmetrics as cm
from clfbook.theory.calibration import (
    calibration_identities,
    is_zero,
    symbolic_calibrate,
    symbolic_confusion,
    symbolic_scores,
)
from clfmetrics import (
    accuracy,
    calibrated_bias,
    calibrated_kappa_closed_form,
    calibrated_macro_precision,
    calibrated_mcc_closed_form,
    calibrated_precision,
    kappa,
    macro_f1,
    macro_precision,
    macro_recall,
    mcc,
    prevalence_calibrate,
    prevalence_scale,
    weighted_f1,
)

BALANCED = np.array([[30, 6, 4], [10, 18, 4], [10, 6, 12]])
NEVER_NEGATIVE = np.array([[0, 0, 0], [0, 24, 0], [50, 6, 20]])


@pytest.fixture(scope="module")
def stack():
    """2,000 random 3x3 count matrices in which every class occurs."""
    return np.random.default_rng(7).integers(0, 60, size=(2000, 3, 3)) + 1


@pytest.mark.parametrize("n", [2, 3])
def test_symbolic_identities_are_exact(n):
    """accuracy∼ = macR, weightF1∼ = macF1∼, Kappa∼ and MCC∼ (eq. 16): differences exactly 0."""
    for name, (lhs, rhs) in calibration_identities(n).items():
        assert is_zero(lhs - rhs), f"{name} identity fails for n={n}"


def test_symbolic_calibration_equalises_prevalence():
    """After calibration every class holds exactly 1/n of the mass (eq. 6), for n = 2 and 3."""
    for n in (2, 3):
        cal = symbolic_scores(symbolic_calibrate(symbolic_confusion(n)))
        assert cal["prevalence"] == [sp.Rational(1, n)] * n
        assert cal["chance"] == sp.Rational(1, n)


def test_symbolic_weighted_f1_is_not_uncalibrated_macro_f1():
    """weightF1(mλ∼) ≠ macF1(m) in general: exact rational values differ for a 2x2 matrix."""
    M = symbolic_confusion(2)
    lhs = symbolic_scores(symbolic_calibrate(M))["weighted_f1"]
    rhs = symbolic_scores(M)["macro_f1"]
    values = dict(zip(M, [30, 5, 10, 15], strict=True))
    # by hand: calibrated matrix [[22.5, 7.5], [7.5, 22.5]] has F1 = 3/4 for both classes;
    # macF1(m) = (2*30/(35+40) + 2*15/(25+20)) / 2 = (4/5 + 2/3) / 2 = 11/15
    assert sp.nsimplify(lhs.subs(values)) == sp.Rational(3, 4)
    assert sp.nsimplify(rhs.subs(values)) == sp.Rational(11, 15)
    assert not is_zero(lhs - rhs)


def test_symbolic_scores_match_numeric_library():
    """The sympy formulas agree with the numeric library on a concrete 3x3 matrix."""
    m = np.array([[60, 15, 5], [35, 170, 40], [5, 15, 55]])
    M = symbolic_confusion(3)
    values = dict(zip(M, m.flatten().tolist(), strict=True))
    raw = symbolic_scores(M)
    for key, func in [
        ("accuracy", accuracy),
        ("macro_recall", macro_recall),
        ("macro_precision", macro_precision),
        ("macro_f1", macro_f1),
        ("weighted_f1", weighted_f1),
        ("kappa", kappa),
        ("mcc", mcc),
    ]:
        assert float(raw[key].subs(values)) == pytest.approx(func(m), abs=1e-12), key


def test_numeric_identities_on_random_stack(stack):
    """Eq. 8, §4.6 and eq. 16 hold to float precision on 2,000 random matrices."""
    cal = prevalence_calibrate(stack)
    np.testing.assert_allclose(accuracy(cal), macro_recall(stack), atol=1e-12)
    np.testing.assert_allclose(weighted_f1(cal), macro_f1(cal), atol=1e-12)
    np.testing.assert_allclose(kappa(cal), calibrated_kappa_closed_form(stack), atol=1e-12)
    np.testing.assert_allclose(mcc(cal), calibrated_mcc_closed_form(stack), atol=1e-12)
    np.testing.assert_allclose(macro_precision(cal), calibrated_macro_precision(stack), atol=1e-12)


def test_weighted_f1_calibrated_differs_from_macro_f1_on_random_stack(stack):
    """weightF1(mλ∼) = macF1(m) is not an identity: many random matrices violate it."""
    gap = np.abs(weighted_f1(prevalence_calibrate(stack)) - macro_f1(stack))
    assert (gap > 1e-6).mean() > 0.9
    assert gap.max() > 0.1


def test_calibrated_mcc_at_least_calibrated_kappa(stack):
    """|MCC∼| >= |Kappa∼| with equal signs, since b∼ᵀb∼ >= 1/n (Cauchy–Schwarz)."""
    cal = prevalence_calibrate(stack)
    k, r = kappa(cal), mcc(cal)
    assert (np.abs(r) >= np.abs(k) - 1e-12).all()
    assert (np.sign(r[np.abs(k) > 1e-12]) == np.sign(k[np.abs(k) > 1e-12])).all()
    assert ((calibrated_bias(stack) ** 2).sum(axis=-1) >= 1 / 3 - 1e-12).all()


def test_equal_macro_recall_different_calibrated_mcc():
    """Same macR 3/5 and Kappa∼ 2/5, but MCC∼ 2/5 vs sqrt(3/11) (hand-derived from eq. 16)."""
    pair = np.stack([BALANCED, NEVER_NEGATIVE])
    np.testing.assert_allclose(macro_recall(pair), [0.6, 0.6])
    cal = prevalence_calibrate(pair)
    np.testing.assert_allclose(kappa(cal), [0.4, 0.4])
    # never_negative: b∼ = (0, 4/15, 11/15), b∼ᵀb∼ = 137/225, so
    # MCC∼ = (3/5 - 1/3) / (sqrt(88/225) sqrt(2/3)) = sqrt(3/11)
    np.testing.assert_allclose(calibrated_bias(NEVER_NEGATIVE), [0, 4 / 15, 11 / 15])
    np.testing.assert_allclose(mcc(cal), [0.4, np.sqrt(3 / 11)])


def test_calibrated_macro_precision_source_example():
    """Opitz (2024) Tables 2-4: macP 5/8 -> 19/30 under λ = (1, 2); macP∼ = 71/112 for both."""
    m = np.array([[15, 5], [10, 10]])
    scaled = prevalence_scale(m, [1, 2])
    assert macro_precision(m) == pytest.approx(float(Fraction(5, 8)))
    assert macro_precision(scaled) == pytest.approx(float(Fraction(19, 30)))
    # by hand: calibrated columns (12, 8) and (20/3, 40/3): P∼ = 9/14 and 5/8
    expected = float((Fraction(9, 14) + Fraction(5, 8)) / 2)
    assert calibrated_macro_precision(m) == pytest.approx(expected)
    assert calibrated_macro_precision(scaled) == pytest.approx(expected)


def test_calibrated_precision_is_bayes_with_uniform_prior():
    """P∼_i = R_i / (n b∼_i); for never_negative that is (0 [undefined], 1, 5/11)."""
    np.testing.assert_allclose(calibrated_precision(NEVER_NEGATIVE), [0, 1, 5 / 11])
    p_nan = calibrated_precision(NEVER_NEGATIVE, zero_division="nan")
    assert np.isnan(p_nan[0])
    assert calibrated_macro_precision(NEVER_NEGATIVE) == pytest.approx(16 / 33)


def test_calibrated_precision_is_prevalence_invariant(stack):
    """macP∼ does not change when the columns are rescaled by random positive factors."""
    lam = np.random.default_rng(3).uniform(0.05, 20, size=(stack.shape[0], 3))
    np.testing.assert_allclose(
        calibrated_macro_precision(prevalence_scale(stack, lam)),
        calibrated_macro_precision(stack),
        atol=1e-12,
    )


def test_calibrated_mcc_single_class_predictor():
    """A classifier that always predicts one class: b∼ᵀb∼ = 1, MCC∼ takes zero_division."""
    m = np.array([[10, 20, 5], [0, 0, 0], [0, 0, 0]])
    assert calibrated_mcc_closed_form(m) == 0.0
    assert np.isnan(calibrated_mcc_closed_form(m, zero_division="nan"))
    assert mcc(prevalence_calibrate(m)) == 0.0


def test_bad_input_raises():
    """A class that never occurs cannot be calibrated; n < 2 is not a confusion matrix."""
    with pytest.raises(ValueError, match="never occurs"):
        calibrated_bias([[1, 0], [1, 0]])
    with pytest.raises(ValueError, match="never occurs"):
        calibrated_kappa_closed_form([[1, 0], [1, 0]])
    with pytest.raises(ValueError, match="n must be an integer"):
        symbolic_confusion(1)


def test_is_zero_detects_non_zero():
    """is_zero is not vacuous: a non-zero rational function is reported as such."""
    x, y = sp.symbols("x y", positive=True)
    assert is_zero(x / (x + y) + y / (x + y) - 1)
    assert not is_zero(x / (x + y) - 1)


def test_figures_have_labelled_axes(stack):
    """The calibration figures return figures whose axes are labelled; bad class index raises."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from clfbook.plots.calibration import calibrated_vs_macro_recall, prevalence_sweep

    m = np.array([[60, 15, 5], [35, 170, 40], [5, 15, 55]])
    for fig in (prevalence_sweep(m, cls=2), calibrated_vs_macro_recall(stack[:200])):
        ax = fig.axes[0]
        assert ax.get_xlabel() and ax.get_ylabel()
        plt.close(fig)
    with pytest.raises(ValueError, match="cls"):
        prevalence_sweep(m, cls=3)


@pytest.mark.parametrize("lam", [["1", "2"], [True, False], "12"])
def test_prevalence_scale_rejects_non_numbers(lam):
    with pytest.raises(ValueError, match="lam must be numbers"):
        cm.prevalence_scale([[1, 2], [3, 4]], lam)
