"""Exact checks of the two-macro-F1 lemma and theorem (Opitz & Burst 2019): clfbook.theory.

Expected values come from the source or from hand derivations with fractions,
never from running the code under test.
"""

from __future__ import annotations

import time
from fractions import Fraction

import numpy as np
import pytest
import sympy as sp

from clfbook.theory import lemma as L
from clfbook.theory import supremum as S
from clfmetrics import delta_f1, f1_of_averages, macro_f1, precision, recall


def _sup_by_hand(n: int) -> Fraction:
    """The source's theorem, part 3: 1/2 for even n, 1/2 - 1/(2 n^2) for odd n."""
    return Fraction(1, 2) if n % 2 == 0 else Fraction(1, 2) - Fraction(1, 2 * n * n)


def _closed_form_fraction(p, r) -> Fraction:
    """The lemma's closed form with Fractions, leaving out classes with P + R = 0."""
    n = len(p)
    keep = [k for k in range(n) if p[k] + r[k] != 0]
    total = sum(p[k] + r[k] for k in keep)
    pair_sum = sum(
        (p[x] * r[y] - p[y] * r[x]) ** 2 / ((p[x] + r[x]) * (p[y] + r[y]))
        for x in keep
        for y in keep
    )
    return pair_sum / (n * total)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_lemma_holds_exactly(n):
    """F1 of averages minus averaged F1 equals the lemma's closed form, as rational functions."""
    start = time.perf_counter()
    assert L.delta_lemma_holds(n) is True
    assert time.perf_counter() - start < 20, "the exact check should take seconds, not minutes"


def test_lemma_check_detects_a_wrong_closed_form():
    """The exact comparison is not vacuous: dropping the factor 1/n makes it fail."""
    p, r = L.class_symbols(3)
    wrong = L.delta_closed_form(p, r) * 3
    assert not L.exactly_equal(L.f1_of_averages_expr(p, r) - L.averaged_f1_expr(p, r), wrong)


@pytest.mark.parametrize("n", [2, 3])
def test_derivation_steps_are_checked_and_end_in_the_closed_form(n):
    """The step-by-step proof has five steps, each a sentence, ending in the lemma."""
    steps = L.lemma_derivation(n)
    assert len(steps) == 5
    assert all(isinstance(s.sentence, str) and s.sentence for s in steps)
    p, r = L.class_symbols(n)
    last = steps[-1].value.subs(L.SIGMA, n * sum(p + r))
    assert L.exactly_equal(last, L.delta_closed_form(p, r))
    assert steps[0]._repr_latex_().startswith("$\\displaystyle \\Delta =")


def test_lemma_with_an_empty_class():
    """A class with P = R = 0 drops out of the sums while n still counts it (n = 3, one empty)."""
    p1, p2, r1, r2 = sp.symbols("P_1 P_2 R_1 R_2", positive=True)
    p, r = (p1, p2, sp.Integer(0)), (r1, r2, sp.Integer(0))
    big = L.f1_of_averages_expr(p, r)
    small = (2 * p1 * r1 / (p1 + r1) + 2 * p2 * r2 / (p2 + r2)) / 3
    assert L.exactly_equal(big - small, L.delta_closed_form((p1, p2), (r1, r2), n=3))


@pytest.mark.parametrize("n", [2, 3, 4])
def test_delta_is_certified_nonnegative(n):
    """Theorem part 1: every term of the closed form is a square over positive numbers."""
    assert L.delta_is_sum_of_nonnegative_terms(n)


def test_count_cross_term_and_common_ratio():
    """P_xR_y - P_yR_x = c_x c_y (p_x b_y - p_y b_x) / (b_x b_y p_x p_y); kappa = 1."""
    cx, cy, bx, by, px, py = sp.symbols("c_x c_y b_x b_y p_x p_y", positive=True)
    by_hand = cx * cy * (px * by - py * bx) / (bx * by * px * py)
    assert L.exactly_equal(L.count_cross_term(), by_hand)
    assert L.common_ratio(3) == [1]


def test_theorem_part2_edge_cases_from_the_book():
    """A never-correct class breaks the source's part 2: Delta = 0, P != R; Delta > 0, P <= R."""
    always_a = np.array([[1, 1], [0, 0]])
    assert precision(always_a)[0] != recall(always_a)[0]
    assert delta_f1(always_a) == 0
    # F1 of averages H(1/4, 1/2) = 1/3 and averaged F1 (2/3 + 0)/2 = 1/3 by hand.
    assert f1_of_averages(always_a) == pytest.approx(1 / 3)
    assert macro_f1(always_a) == pytest.approx(1 / 3)
    no_over = np.array([[1, 0, 1], [0, 1, 3], [0, 0, 0]])
    assert np.all(precision(no_over) <= recall(no_over))
    # P = (1/2, 1/4, 0), R = (1, 1, 0): F1 of averages 4/11, averaged F1 16/45, gap 4/495.
    assert delta_f1(no_over) == pytest.approx(4 / 495, rel=1e-12)


def test_theorem_part2_when_every_class_is_sometimes_correct():
    """Positive diagonal: Delta = 0 exactly when bias = prevalence (P = R) for every class."""
    rng = np.random.default_rng(7)
    base = rng.integers(1, 30, size=(2000, 4, 4))
    symmetric = base + np.swapaxes(base, -1, -2)  # equal margins, so P_i = R_i
    assert np.all(delta_f1(symmetric) < 1e-15)
    unequal = base[np.any(np.abs(precision(base) - recall(base)) > 1e-9, axis=-1)]
    assert len(unequal) > 1000
    assert np.all(delta_f1(unequal) > 0)
    p, r = precision(unequal), recall(unequal)
    assert np.all(np.any(p < r, axis=-1) & np.any(p > r, axis=-1))


@pytest.mark.parametrize("n", [2, 3, 4])
def test_swap_identity_of_the_source(n):
    """The source's equation (6) for swapping P_i and R_i holds exactly."""
    assert S.swap_identity_holds(n)


def test_boundary_delta_and_fill_gain_by_hand():
    """Boundary gap 2rs/(n(r+s)); filling an empty class gains 2r^2/(n(r+s)(r+s+1))."""
    r, s, n = sp.symbols("r s n", positive=True, integer=True)
    assert L.exactly_equal(S.boundary_delta(r, s, n), 2 * r * s / (n * (r + s)))
    assert L.exactly_equal(S.fill_gain(r, s, n), 2 * r**2 / (n * (r + s) * (r + s + 1)))


@pytest.mark.parametrize("n", range(2, 9))
def test_delta_supremum_by_brute_force(n):
    """delta_supremum(n) equals the maximum over r of the closed form on 0/1 vectors (Fractions)."""
    best = Fraction(0)
    for k in range(n + 1):
        p = [Fraction(0)] * k + [Fraction(1)] * (n - k)
        r = [Fraction(1)] * k + [Fraction(0)] * (n - k)
        best = max(best, _closed_form_fraction(p, r))
    assert best == _sup_by_hand(n)
    got = S.delta_supremum(n)
    assert isinstance(got, sp.Rational)
    assert Fraction(int(got.p), int(got.q)) == best


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7])
def test_sequence_limit_is_the_supremum(n):
    """sympy's limit of Delta(m_z) for z -> oo equals the supremum of the theorem."""
    assert S.sequence_limit(n) == sp.Rational(
        _sup_by_hand(n).numerator, _sup_by_hand(n).denominator
    )


@pytest.mark.parametrize("n", [2, 3, 4, 5, 8, 9])
def test_sequence_approaches_the_supremum_numerically(n):
    """delta_f1 along the numeric sequence increases towards sup and ends within 1e-3 of it."""
    sup = float(_sup_by_hand(n))
    zs = np.logspace(0, 6, 40)
    d = delta_f1(S.supremum_sequence(n, zs))
    assert np.all(np.diff(d) > 0)
    assert np.all(d < sup)
    assert sup - d[-1] < 1e-3
    z, m = S.supremum_sequence_symbolic(n)
    assert np.allclose(np.array(m.subs(z, 7), dtype=float), S.supremum_sequence(n, 7))


def _stacks(n: int, rng) -> list[np.ndarray]:
    dense = rng.integers(0, 100, size=(3000, n, n))
    sparse = rng.integers(0, 50, size=(3000, n, n)) * (rng.random((3000, n, n)) < 0.25)
    skewed = rng.integers(0, 5, size=(3000, n, n))
    skewed[:, 0, :] += rng.integers(0, 1000, size=(3000, n))  # one class over-predicted
    prevalence = rng.dirichlet(np.full(n, 0.3), size=3000)
    floats = rng.dirichlet(np.ones(n), size=(3000, n)) * prevalence[:, None, :]
    lopsided = np.eye(n) + np.triu(rng.integers(0, 10_000, size=(3000, n, n)), k=1)
    stacks = [dense, sparse, skewed, floats, lopsided]
    return [s[s.sum(axis=(-2, -1)) > 0] for s in stacks]


@pytest.mark.parametrize("n", [2, 3, 4, 5, 7])
def test_delta_between_zero_and_supremum_on_random_stacks(n):
    """0 <= Delta < sup(n) on thousands of dense, sparse, skewed and lopsided matrices."""
    rng = np.random.default_rng(100 + n)
    sup = float(_sup_by_hand(n))
    for stack in _stacks(n, rng):
        d = delta_f1(stack)
        assert np.all(d >= 0)
        assert np.all(d < sup), "no matrix attains the supremum (proved for even n only)"
        assert np.allclose(d, f1_of_averages(stack) - macro_f1(stack), atol=1e-12)
        # step 3 of chapter 4's proof: after the push no class of a matrix is at (1, 0) or (0, 1)
        pp, rr = S.push_outwards(precision(stack), recall(stack))
        assert np.all(np.abs(pp - rr).sum(axis=-1) < n)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_spread_form_of_delta_is_exact(n):
    """Delta = (sum d^2/w - (sum d)^2 / sum w) / (2n) with d = P - R, w = P + R, exactly."""
    assert S.spread_form_holds(n)
    p, r = L.class_symbols(n)
    assert not L.exactly_equal(L.delta_closed_form(p, r), 2 * S.spread_form(p, r))


@pytest.mark.parametrize("n", [2, 3, 4])
def test_pushing_a_class_outwards_never_lowers_delta(n):
    """Step 1 of chapter 4's bound: dG/dw_k = (u_k - mean u)^2 exactly, and numerically the
    pushed configuration (max(P, R) = 1 per class) has at least the gap of the original."""
    assert S.weight_derivative_holds(n)
    rng = np.random.default_rng(n)
    p, r = rng.random((20_000, n)) ** 3, rng.random((20_000, n)) ** 3
    p[:, 0] = r[:, 0] = 0  # an empty class
    pp, rr = S.push_outwards(p, r)
    assert np.all(np.maximum(pp, rr) == 1)
    before, after = _delta_from_pr(p, r), _delta_from_pr(pp, rr)
    assert np.all(after >= before - 1e-12)
    assert np.all(after <= float(_sup_by_hand(n)) + 1e-12)


def _delta_from_pr(p, r):
    """F1 of averages minus averaged F1 from precision/recall arrays (..., n); 0/0 := 0."""
    w = p + r
    f1 = np.where(w > 0, 2 * p * r / np.where(w > 0, w, 1.0), 0.0).mean(axis=-1)
    pm, rm = p.mean(axis=-1), r.mean(axis=-1)
    return np.where(pm + rm > 0, 2 * pm * rm / np.where(pm + rm > 0, pm + rm, 1.0), 0.0) - f1


def test_odd_bound_curve():
    """h(n) = n - 1/n, and h' has numerator (n + 1)^2 - 4e(n + 1) + 2e^2 at s = n - 1 + e."""
    s, n, h = S.odd_bound()
    e = sp.Symbol("e")
    assert sp.simplify(h.subs(s, n) - (n - 1 / n)) == 0
    num, den = sp.fraction(sp.together(sp.diff(h, s).subs(s, n - 1 + e)))
    assert sp.expand(num - ((n + 1) ** 2 - 4 * e * (n + 1) + 2 * e**2)) == 0
    assert sp.expand(den - (n + 1 - e) ** 2) == 0


def test_push_by_hand_and_the_zero_division_caveat():
    """(1/2, 1/4) goes to (1, 1/2), (0, 0) to (1, 1), (0.3, 1) stays. With undefined ratios
    counted as 1 a single misclassified item reaches Delta = 1/2."""
    pp, rr = S.push_outwards([0.5, 0.0, 0.3], [0.25, 0.0, 1.0])
    assert np.allclose(pp, [1.0, 1.0, 0.3]) and np.allclose(rr, [0.5, 1.0, 1.0])
    never = [[0, 0], [1, 0]]
    assert delta_f1(never) == 0 and delta_f1(never, zero_division=1) == 0.5


def test_bad_number_of_classes_raises():
    """n must be an integer >= 2."""
    for bad in (1, 0, 2.5, True):
        with pytest.raises(ValueError, match="n must be an integer"):
            L.class_symbols(bad)
    with pytest.raises(ValueError, match="z must be finite"):
        S.supremum_sequence(3, -1)
