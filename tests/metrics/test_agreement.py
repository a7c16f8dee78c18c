"""clfmetrics.metrics._agreement: kappa, MCC and the agreement coefficients of a cross-table.

kappa and MCC decide undefinedness exactly and stay accurate on lopsided matrices.

The reference values are exact rationals computed with Python integers from
the count forms (r s - p.b) / (s^2 - p.b) and (r s - p.b) / sqrt((s^2 - p.p)(s^2 - b.b)),
never from the library. Convention: ``m[i, j]`` = predicted ``i``, true ``j``.

Weighted kappa, Scott's pi, PABAK and Gwet's AC1/AC2 of a two-raters cross-table.

References: scikit-learn's cohen_kappa_score (weighted kappa), statsmodels' fleiss_kappa of the
two raters (Scott's pi), and irrCAC's values (AC1, AC2, Brennan-Prediger), written here as
literals: irrCAC 0.4.3 pins scipy 1.12 and pandas < 3, so it cannot share the test
environment. They were computed by ``CAC(ratings, weights=w, categories=range(q),
digits=15).gwet()`` (and ``.bp()``) on the two raters' ratings of each matrix below.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats.inter_rater import fleiss_kappa as statsmodels_fleiss

import clfmetrics
import clfmetrics as cm
from clfmetrics import gwet_ac1, kappa, pabak, scott_pi, weighted_kappa


def _exact(m):
    """(kappa, mcc) of an integer matrix in exact arithmetic; None where undefined."""
    m = [[int(v) for v in row] for row in m]
    n = len(m)
    s = sum(map(sum, m))
    r = sum(m[k][k] for k in range(n))
    b = [sum(row) for row in m]
    p = [sum(m[i][j] for i in range(n)) for j in range(n)]
    pb = sum(u * v for u, v in zip(p, b, strict=True))
    num = r * s - pb
    den_kappa = s * s - pb
    den_mcc2 = (s * s - sum(v * v for v in p)) * (s * s - sum(v * v for v in b))
    kappa = Fraction(num, den_kappa) if den_kappa else None
    mcc = math.copysign(math.sqrt(Fraction(num * num, den_mcc2)), num) if den_mcc2 else None
    return kappa, mcc


@pytest.mark.parametrize("metric", [cm.kappa, cm.mcc])
@pytest.mark.parametrize("big", [1e13, 2.0**52, 1e300])
def test_lopsided_perfect_agreement_is_1(metric, big):
    """[[big, 0], [0, 1]] is defined and perfect: 1, not the zero_division value."""
    assert metric([[big, 0], [0, 1]], zero_division="nan") == 1.0


@pytest.mark.parametrize("big", [1, 10**6, 10**15])
def test_undefined_exactly_when_the_mass_sits_in_one_cell(big):
    """One diagonal cell: both undefined. One more item elsewhere: kappa is defined."""
    one_cell = [[big, 0], [0, 0]]
    assert math.isnan(cm.kappa(one_cell, zero_division="nan"))
    assert math.isnan(cm.mcc(one_cell, zero_division="nan"))
    # predicted always class 0, one item of class 1: a constant classifier, kappa = 0,
    # and MCC stays undefined (the bias sits on one class)
    constant = [[big, 1], [0, 0]]
    assert cm.kappa(constant, zero_division="nan") == 0.0
    assert math.isnan(cm.mcc(constant, zero_division="nan"))
    # one error and one correct item of class 1: both defined, and equal to the exact value
    mixed = [[big, 0], [1, 1]]
    kappa, mcc = _exact(mixed)
    assert cm.kappa(mixed, zero_division="nan") == pytest.approx(float(kappa), abs=1e-15)
    assert cm.mcc(mixed, zero_division="nan") == pytest.approx(mcc, abs=1e-15)


def _lopsided_counts(rng, size: int) -> np.ndarray:
    """Integer matrices whose cells span 0 to 15 orders of magnitude; totals below 2**53."""
    n = 4
    magnitude = 10.0 ** rng.uniform(0, 14.5, size=(size, n, n))
    kept = rng.random((size, n, n)) < 0.6
    m = np.floor(magnitude * rng.random((size, n, n)) * kept)
    m[:, 0, 0] += 1  # no empty matrix
    return m


def test_stack_matches_exact_values_on_lopsided_counts():
    """On 300 lopsided count matrices the stacked results are within 1e-14 of exact values."""
    stack = _lopsided_counts(np.random.default_rng(12), 300)
    kappas = cm.kappa(stack, zero_division="nan")
    mccs = cm.mcc(stack, zero_division="nan")
    for m, k, r in zip(stack, kappas, mccs, strict=True):
        kappa, mcc = _exact(m)
        assert math.isnan(k) if kappa is None else abs(k - float(kappa)) < 1e-14
        assert math.isnan(r) if mcc is None else abs(r - mcc) < 1e-14


M = np.array([[100.0, 10.0], [1.0, 100.0]])


@pytest.mark.parametrize("metric", [cm.kappa, cm.mcc])
@pytest.mark.parametrize("scale", [1e-310, 1e-300, 1e150, 1e300])
def test_agreement_is_scale_invariant_at_extreme_masses(metric, scale):
    """kappa and MCC of a matrix do not change when its mass is tiny or enormous."""
    assert metric(M * scale) == pytest.approx(metric(M), rel=1e-12)


@pytest.mark.parametrize(
    "m",
    [
        [[0.1, 0.2], [0.0, 0.0]],  # always predicts class 0: 1 - b.b is rounding noise
        [[0.1, 0.2, 0.7], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]],
        [[0.1, 0.0], [0.2, 0.0]],  # only class 0 in the reference
    ],
)
def test_mcc_of_degenerate_float_matrix_is_the_zero_division_value(m):
    """Float rounding must not turn an undefined MCC into a number."""
    assert cm.mcc(m) == 0.0
    assert math.isnan(cm.mcc(m, zero_division="nan"))


def test_kappa_of_degenerate_float_matrix_is_the_zero_division_value():
    m = [[0.1 + 0.2, 0.0], [0.0, 0.0]]
    assert cm.kappa(m, zero_division=1) == 1.0
    assert math.isnan(cm.kappa(m, zero_division="nan"))


def test_nearly_degenerate_count_matrix_is_still_defined():
    """One item of a second class among a billion is information, not rounding."""
    m = np.array([[1e9, 0.0], [0.0, 1.0]])
    assert cm.mcc(m) == pytest.approx(1.0)
    assert cm.kappa(m) == pytest.approx(1.0)


# classifier and reference put everything on class 0: chance agreement = 1
ALL_ON_ONE_CLASS = [[5, 0], [0, 0]]


# a constant classifier: always predicts class 0 (row 1 is empty)
CONSTANT_CLASSIFIER = [[3, 4], [0, 0]]


# a reference with one class only: every item is truly class 0 (column 1 is empty)
ONE_CLASS_REFERENCE = [[3, 0], [4, 0]]


STACK_4x3x3 = np.array(
    [
        [[5, 1, 0], [2, 7, 1], [0, 3, 9]],
        [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
        [[0, 4, 2], [3, 0, 5], [1, 1, 0]],
        [[6, 6, 6], [0, 0, 0], [0, 0, 0]],  # constant classifier
    ]
)


def test_kappa_all_mass_on_one_class_is_0_by_default():
    """Kappa's denominator 1 - chance is 0; the default fill is 0.0 (no better than chance)."""
    assert cm.kappa(ALL_ON_ONE_CLASS) == 0.0


def test_kappa_all_mass_on_one_class_is_nan_with_zero_division_nan():
    """zero_division='nan' (or np.nan) marks the undefined kappa as NaN, like sklearn's default."""
    assert math.isnan(cm.kappa(ALL_ON_ONE_CLASS, zero_division="nan"))
    assert math.isnan(cm.kappa(ALL_ON_ONE_CLASS, zero_division=np.nan))


def test_kappa_all_mass_on_one_class_is_1_with_zero_division_1():
    """zero_division=1 reads the perfect (if uninformative) agreement as kappa 1."""
    assert cm.kappa(ALL_ON_ONE_CLASS, zero_division=1) == 1.0


def test_kappa_all_mass_on_one_class_of_three_off_the_first_class():
    """The same holds when the single class is not class 0 and there are 3 classes."""
    m = [[0, 0, 0], [0, 7, 0], [0, 0, 0]]
    assert cm.kappa(m) == 0.0
    assert math.isnan(cm.kappa(m, zero_division="nan"))
    assert cm.kappa(m, zero_division=1) == 1.0


def test_kappa_of_constant_classifier_is_defined_and_zero():
    """A constant classifier keeps kappa's denominator positive: kappa is 0 for any fill."""
    for zd in (0, 1, "nan"):
        assert cm.kappa(CONSTANT_CLASSIFIER, zero_division=zd) == 0.0


@pytest.mark.parametrize("m", [CONSTANT_CLASSIFIER, ONE_CLASS_REFERENCE, ALL_ON_ONE_CLASS])
def test_mcc_zero_denominator_is_0_by_default_like_sklearn(m):
    """MCC of a constant classifier / one-class reference is 0.0, as sklearn's matthews_corrcoef."""
    assert cm.mcc(m) == 0.0


@pytest.mark.parametrize("m", [CONSTANT_CLASSIFIER, ONE_CLASS_REFERENCE, ALL_ON_ONE_CLASS])
def test_mcc_zero_denominator_is_nan_with_zero_division_nan(m):
    """zero_division='nan' marks the undefined MCC as NaN."""
    assert math.isnan(cm.mcc(m, zero_division="nan"))


def test_mcc_zero_denominator_takes_zero_division_1():
    """zero_division=1 is returned as documented ('returned where the denominator is 0')."""
    assert cm.mcc(CONSTANT_CLASSIFIER, zero_division=1) == 1.0


def test_mcc_defined_matrix_ignores_zero_division():
    """Where MCC is defined, zero_division changes nothing."""
    m = [[5, 1], [2, 7]]
    values = {cm.mcc(m, zero_division=zd) for zd in (0, 1, "nan")}
    assert len(values) == 1 and math.isfinite(values.pop())


def test_stack_fills_only_the_undefined_entries():
    """In a stack, zero_division fills only the matrices whose ratio is undefined."""
    stack = np.array([ALL_ON_ONE_CLASS, [[1, 1], [1, 1]], [[4, 0], [0, 4]], CONSTANT_CLASSIFIER])
    k = cm.kappa(stack, zero_division="nan")
    assert np.isnan(k[0]) and not np.isnan(k[1:]).any()
    np.testing.assert_array_equal(k[1:], [0.0, 1.0, 0.0])
    r = cm.mcc(stack, zero_division="nan")
    np.testing.assert_array_equal(np.isnan(r), [True, False, False, True])
    np.testing.assert_array_equal(r[1:3], [0.0, 1.0])
    np.testing.assert_array_equal(cm.mcc(STACK_4x3x3, zero_division="nan")[3:], [np.nan])


MATRICES = [
    [[20, 5, 0], [3, 15, 4], [1, 2, 10]],
    [[90, 5], [3, 2]],
    [[12, 3, 1, 0], [2, 9, 3, 1], [0, 4, 8, 2], [1, 0, 2, 6]],
]


# irrCAC 0.4.3: gwet() coefficient_value by weights (identity = AC1), and bp() unweighted.
IRRCAC_GWET = [
    {"identity": 0.630124319326004, "linear": 0.710042788824566, "quadratic": 0.786814054480853},
    {"identity": 0.909828674481515, "linear": 0.909828674481515, "quadratic": 0.909828674481515},
    {"identity": 0.532893239244252, "linear": 0.665364407921326, "quadratic": 0.763566405731723},
]


IRRCAC_BP = [0.625, 0.84, 0.530864197530864]


def raters_of(m):
    """The two raters' labels of a cross-table: rater A the rows, rater B the columns."""
    m = np.asarray(m)
    i, j = np.indices(m.shape)
    return np.repeat(i.ravel(), m.ravel()), np.repeat(j.ravel(), m.ravel())


def random_matrices(seed, count=30):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        n = int(rng.integers(2, 7))
        m = rng.integers(0, 12, size=(n, n)) + np.diag(rng.integers(1, 30, size=n))
        yield m


@pytest.mark.parametrize("weights", ["linear", "quadratic"])
def test_weighted_kappa_equals_scikit_learn(weights):
    for m in random_matrices(1):
        a, b = raters_of(m)
        want = cohen_kappa_score(a, b, weights=weights, labels=np.arange(len(m)))
        assert weighted_kappa(m, weights=weights) == pytest.approx(want, abs=1e-12)


def test_weighted_kappa_with_identity_weights_is_kappa_and_a_matrix_weights_its_cells():
    for m in random_matrices(2):
        n = len(m)
        assert weighted_kappa(m, weights=np.eye(n)) == pytest.approx(kappa(m), abs=1e-12)
        # An asymmetric weight matrix: w[i, j] weights m[i, j], so transposing both changes
        # nothing, and transposing one does.
        w = np.eye(n) + np.triu(np.full((n, n), 0.5), 1)
        assert weighted_kappa(m, weights=w) == pytest.approx(weighted_kappa(m.T, weights=w.T))
        a, b = raters_of(m)
        # The same from the items: observed and chance disagreement with v = 1 - w.
        v = 1 - w
        observed = v[a, b].mean()
        chance = v[a[:, None], b[None, :]].mean()
        assert weighted_kappa(m, weights=w) == pytest.approx(1 - observed / chance, abs=1e-12)
    m = np.array([[10, 6], [0, 10]])
    w = np.array([[1, 0.9], [0, 1]])
    assert weighted_kappa(m, weights=w) != pytest.approx(weighted_kappa(m, weights=w.T))


def test_the_coefficients_are_vectorised_over_a_stack():
    stack = np.array([[[20, 5], [3, 15]], [[9, 1], [2, 30]], [[5, 5], [5, 5]]])
    for func in (weighted_kappa, scott_pi, pabak, gwet_ac1):
        got = func(stack)
        assert got.shape == (3,)
        assert got == pytest.approx([func(m) for m in stack])


def test_scott_pi_is_fleiss_kappa_of_the_two_raters():
    for m in random_matrices(3):
        a, b = raters_of(m)
        n = len(m)
        table = (np.eye(n)[a] + np.eye(n)[b]).astype(int)  # items x categories
        assert scott_pi(m) == pytest.approx(statsmodels_fleiss(table), abs=1e-12)
        assert table.shape == (m.sum(), n)


def test_pabak_is_twice_the_accuracy_less_one_and_brennan_prediger_for_more_classes():
    for m in random_matrices(4):
        acc = np.trace(m) / m.sum()
        q = len(m)
        assert pabak(m) == pytest.approx((q * acc - 1) / (q - 1), abs=1e-15)
    assert pabak([[45, 5], [5, 45]]) == pytest.approx(0.8)
    for m, want in zip(MATRICES, IRRCAC_BP, strict=True):
        assert pabak(m) == pytest.approx(want, abs=1e-14)


@pytest.mark.parametrize("weights", ["identity", "linear", "quadratic"])
def test_gwet_ac1_and_ac2_equal_irrcac(weights):
    for m, want in zip(MATRICES, IRRCAC_GWET, strict=True):
        got = gwet_ac1(m, weights=None if weights == "identity" else weights)
        assert got == pytest.approx(want[weights], abs=1e-14)


def test_the_kappa_paradox_ac1_and_pabak_stay_with_the_accuracy():
    # Two raters agreeing on 90 of 100 items, at 50 % and at 95 % prevalence: kappa falls
    # from 0.8 to near 0 (Feinstein & Cicchetti 1990); AC1 and PABAK do not.
    balanced = np.array([[45, 5], [5, 45]])
    extreme = np.array([[88, 5], [5, 2]])
    assert kappa(balanced) == pytest.approx(0.8)
    assert kappa(extreme) < 0.3
    assert pabak(extreme) == pytest.approx(pabak(balanced))
    assert gwet_ac1(extreme) > 0.85 > gwet_ac1(balanced) - 0.1
    assert scott_pi(extreme) == pytest.approx(kappa(extreme))  # same margins


def test_perfect_chance_agreement_is_the_zero_division():
    one_class = [[10, 0], [0, 0]]
    assert weighted_kappa(one_class) == 0
    assert np.isnan(weighted_kappa(one_class, zero_division="nan"))
    assert scott_pi(one_class, zero_division=1) == 1
    assert gwet_ac1(one_class) == 1.0  # AC1's chance agreement is 0 there
    assert pabak(one_class) == 1.0


def test_every_coefficient_is_public():
    for name in ("weighted_kappa", "scott_pi", "pabak", "gwet_ac1"):
        assert name in clfmetrics.__all__
        assert name in clfmetrics.metrics.__all__


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: weighted_kappa([[1, 2], [3, 4]], weights="cubic"), "weights must be"),
        (lambda: weighted_kappa([[1, 2], [3, 4]], weights=np.eye(3)), r"shape \(2, 2\)"),
        (lambda: weighted_kappa([[1, 2], [3, 4]], weights=[[1, 2], [0, 1]]), "agreement weights"),
        (lambda: weighted_kappa([[1, 2], [3, 4]], weights=[[0.5, 0], [0, 1]]), "diagonal"),
        (lambda: gwet_ac1([[1, 2], [3, 4]], weights=[["a", "b"], ["c", "d"]]), "weights must"),
        (lambda: gwet_ac1([[5]]), "at least 2 classes"),
        (lambda: pabak([[5]]), "at least 2 classes"),
        (lambda: scott_pi([[1, -2], [3, 4]]), "negative"),
    ],
)
def test_bad_input_is_a_value_error(call, message):
    with pytest.raises(ValueError, match=message):
        call()
