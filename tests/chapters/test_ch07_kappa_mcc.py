"""Chapter 7: kappa and MCC from bias and prevalence, their relation, non-monotonicity, chance.

Expected values come from Opitz (2024) (tables 7 and 8, section 4.7, appendix
G) or from exact hand derivations with fractions and sympy, never from our
own output. Convention: ``m[i, j]`` = predicted ``i``, true ``j``.
"""

from __future__ import annotations

import ast
import itertools
import re
from fractions import Fraction as F
from functools import partial

import matplotlib
import numpy as np
import pytest
import sympy as sp
from chapter_text import chapter

import clfmetrics as cm
from clfbook.sources.nonmonotonic import add_one_item, error_gains, raising_errors
from clfmetrics import random_classifier

matplotlib.use("Agg")

M7 = [[10, 43, 0], [1, 1, 0], [0, 0, 1]]
M8 = [[10, 43, 0], [1, 1, 0], [0, 10, 1]]


def _exact_parts(m):
    """Numerator r*s - p.b and the kappa / squared-MCC denominators, as exact integers."""
    m = [[int(v) for v in row] for row in m]
    n = len(m)
    s = sum(map(sum, m))
    r = sum(m[i][i] for i in range(n))
    b = [sum(m[i]) for i in range(n)]
    p = [sum(m[i][j] for i in range(n)) for j in range(n)]
    pb = sum(x * y for x, y in zip(p, b, strict=True))
    num = r * s - pb
    den_mcc2 = (s * s - sum(x * x for x in p)) * (s * s - sum(x * x for x in b))
    return num, s * s - pb, den_mcc2


def _kappa_exact(m):
    num, den, _ = _exact_parts(m)
    return F(num, den)


def _mcc_signed_square(m):
    """sign(MCC) * MCC^2 as a fraction: increasing in MCC, so it orders MCC values exactly."""
    num, _, den2 = _exact_parts(m)
    return F(num * abs(num), den2)


def test_table7_scores_are_exactly_zero():
    """Table 7: s = 56, r = 12, p.b = 11*53 + 44*2 + 1*1 = 672 = r*s, so MCC = kappa = 0."""
    assert _exact_parts(M7)[0] == 0
    assert cm.kappa(M7) == 0.0
    assert cm.mcc(M7) == 0.0


def test_table8_scores_rise_to_the_papers_values():
    """Table 8: kappa = 90/3654 = 5/203, MCC = 90/sqrt(1318*1422); the paper prints 0.02, 0.07."""
    assert _kappa_exact(M8) == F(5, 203)
    assert cm.kappa(M8) == pytest.approx(5 / 203, rel=1e-12)
    assert cm.mcc(M8) == pytest.approx(90 / np.sqrt(1318 * 1422), rel=1e-12)
    assert round(cm.kappa(M8), 2) == 0.02
    assert round(cm.mcc(M8), 2) == 0.07


def test_numerator_step_per_error_in_the_table7_cell():
    """One error at (z, y) adds r - prevalence(z) - bias(y) = 12 - 1 - 2 = 9 to the numerator."""
    grown = [row[:] for row in M7]
    for k in range(1, 11):
        grown[2][1] += 1
        assert _exact_parts(grown)[0] == 9 * k
    assert grown == M8


def test_search_flags_the_papers_cell():
    """raising_errors finds the error cell (predicted z, true y) of table 7 for both metrics."""
    for metric in (cm.kappa, cm.mcc):
        hits = raising_errors(partial(metric, zero_division="nan"), M7)
        assert hits[2, 1]
        assert not hits[np.diag_indices(3)].any()


def test_search_finds_genuine_counterexamples():
    """Random 3x3 matrices give many hits; each checked one is a real rise in exact arithmetic."""
    rng = np.random.default_rng(11)
    ms = rng.integers(0, 21, size=(3000, 3, 3))
    for metric, exact in ((cm.kappa, _kappa_exact), (cm.mcc, _mcc_signed_square)):
        hits = raising_errors(partial(metric, zero_division="nan"), ms)
        matrices = np.flatnonzero(hits.any(axis=(-2, -1)))
        assert len(matrices) > 100, "counterexamples should be common on random matrices"
        for k in matrices[:150]:
            for i, j in np.argwhere(hits[k]):
                assert i != j
                after = ms[k].copy()
                after[i, j] += 1
                assert exact(after) > exact(ms[k]), (ms[k], (i, j))


def test_monotone_metrics_are_never_flagged():
    """Accuracy and macro recall are monotone (Opitz 2024, A.1 and B.1): no error raises them."""
    rng = np.random.default_rng(12)
    ms = rng.integers(0, 21, size=(3000, 3, 3))
    assert not raising_errors(cm.accuracy, ms).any()
    assert not raising_errors(cm.macro_recall, ms).any()


def test_error_gains_match_direct_recomputation():
    """error_gains[..., i, j] equals metric(m + e_ij) - metric(m) computed one cell at a time."""
    m = np.array([[5, 2, 1], [0, 7, 3], [2, 1, 4]])
    gains = error_gains(cm.mcc, m)
    for i in range(3):
        for j in range(3):
            plus = m.copy()
            plus[i, j] += 1
            assert gains[i, j] == pytest.approx(cm.mcc(plus) - cm.mcc(m), abs=1e-14)


def test_sign_and_magnitude_relation_on_random_matrices():
    """sgn(MCC) = sgn(kappa) and |MCC| >= |kappa| on 20,000 random matrices (Opitz 2024, 4.7)."""
    rng = np.random.default_rng(13)
    for n in (3, 4):
        ms = rng.integers(0, 30, size=(10_000, n, n))
        k, c = cm.kappa(ms), cm.mcc(ms)
        assert (np.sign(k) == np.sign(c)).all()
        assert (np.abs(c) >= np.abs(k) - 1e-12).all()


def test_equality_iff_bias_equals_prevalence():
    """b = p gives MCC = kappa exactly; b != p with a non-zero numerator gives |MCC| > |kappa|."""
    m_eq = [[5, 0, 2], [2, 6, 0], [0, 2, 7]]  # row sums = column sums = (7, 8, 9)
    num, den, den2 = _exact_parts(m_eq)
    assert F(num * num, den * den) == F(num * num, den2)
    assert cm.mcc(m_eq) == pytest.approx(cm.kappa(m_eq), rel=1e-12)
    assert abs(cm.mcc(M8)) > abs(cm.kappa(M8))


def test_equality_with_zero_numerator_needs_no_b_equal_p():
    """The chapter's 'or the shared numerator is 0': b != p, numerator 0, so kappa = MCC = 0."""
    m = [[10, 43, 0], [1, 1, 0], [0, 0, 1]]  # Table 7: chance level, b != p
    num, _, _ = _exact_parts(m)
    assert num == 0
    assert list(cm.bias(m)) != list(cm.prevalence(m))
    assert cm.kappa(m) == cm.mcc(m) == 0.0


def test_majority_guesser_kappa_zero_unless_one_class_only():
    """Exercise ex-ch07-majority: kappa is 0 for p_k < 1 and undefined at p_k = 1; MCC always."""
    for k_items in (1, 10, 90):
        m = [[k_items, 10], [0, 0]]  # always predicts class 0, which has p_0 < 1
        assert _exact_parts(m)[0] == 0 and _exact_parts(m)[1] > 0
        assert cm.kappa(m, zero_division="nan") == 0.0
        assert np.isnan(cm.mcc(m, zero_division="nan"))
    only = [[10, 0], [0, 0]]  # p_0 = 1: 1 - p.b = 0 as well
    assert _exact_parts(only)[:2] == (0, 0)
    assert np.isnan(cm.kappa(only, zero_division="nan"))
    assert cm.kappa(only) == 0.0 and cm.mcc(only) == 0.0


def test_source_reason_min_reading_is_false():
    """Bias (0.6, 0.4), prevalence (0.9, 0.1): p.b = 0.58 > b.b = 0.52, so p.b <= min fails."""
    m = [[6, 0], [3, 1]]
    b = [F(6, 10), F(4, 10)]
    p = [F(9, 10), F(1, 10)]
    assert list(cm.bias(m) / 10) == [float(x) for x in b]
    assert list(cm.prevalence(m) / 10) == [float(x) for x in p]
    pb, bb, pp = (
        sum(x * y for x, y in zip(u, v, strict=True)) for u, v in [(p, b), (b, b), (p, p)]
    )
    assert pb == F(58, 100) > bb == F(52, 100)
    assert pb <= max(bb, pp)
    # and yet the theorem's inequality holds for this matrix
    _, den, den2 = _exact_parts(m)
    assert den * den >= den2


def test_proof_steps_are_identities():
    """1 - p.b - (1 - (p.p + b.b)/2) = |p - b|^2 / 2 and ((x+y)/2)^2 - xy = ((x-y)/2)^2."""
    p = sp.Matrix(sp.symbols("p1:5"))
    b = sp.Matrix(sp.symbols("b1:5"))
    gap = (1 - (p.T * b)[0]) - (1 - ((p.T * p)[0] + (b.T * b)[0]) / 2)
    assert sp.expand(gap - ((p - b).T * (p - b))[0] / 2) == 0
    x, y = sp.symbols("x y")
    assert sp.expand(((x + y) / 2) ** 2 - x * y - ((x - y) / 2) ** 2) == 0


def test_random_classifiers_score_about_zero():
    """Guessers with any prediction distribution have mean kappa and MCC near 0 (appendix G.5)."""
    prev = [0.7, 0.2, 0.1]
    for guess in ([1 / 3] * 3, prev, [0.1, 0.1, 0.8]):
        ms = random_classifier(prev, guess, 500, size=2000, rng=5)
        assert abs(cm.kappa(ms).mean()) < 0.01
        assert abs(cm.mcc(ms).mean()) < 0.01


def test_expected_numerator_vanishes_for_any_sample_size():
    """Multinomial counts with q_ij = z_i p_j: E[r s - p.b] = 0 exactly, for symbolic N."""
    n, big_n = 3, sp.Symbol("N", positive=True)
    z, pr = sp.symbols("z0:3"), sp.symbols("p0:3")

    def q(i, j):
        return z[i] * pr[j]

    def second_moment(a, c):
        return big_n * (big_n - 1) * q(*a) * q(*c) + (big_n * q(*a) if a == c else 0)

    expected_rs = big_n**2 * sum(q(i, i) for i in range(n))
    expected_pb = sum(
        second_moment((k, i), (i, c)) for i in range(n) for k in range(n) for c in range(n)
    )
    on_simplex = {z[2]: 1 - z[0] - z[1], pr[2]: 1 - pr[0] - pr[1]}
    assert sp.simplify((expected_rs - expected_pb).subs(on_simplex)) == 0
    # the population identity of G.5: sum p_i z_i - sum_i (sum_j z_i p_j)(sum_j z_j p_i) = 0
    g5 = sum(pr[i] * z[i] for i in range(n)) - sum(
        sum(z[i] * pr[j] for j in range(n)) * sum(z[j] * pr[i] for j in range(n)) for i in range(n)
    )
    assert sp.simplify(g5.subs(on_simplex)) == 0


def test_add_one_item_shape_and_content():
    """add_one_item returns one copy per cell, each with exactly one unit more in that cell."""
    stack = add_one_item(np.ones((4, 3, 3)))
    assert stack.shape == (4, 3, 3, 3, 3)
    diff = stack - 1.0
    assert (diff.sum(axis=(-2, -1)) == 1).all()
    assert diff[0, 2, 1, 2, 1] == 1


@pytest.mark.parametrize(
    "call",
    [
        lambda: add_one_item(M7, amount=0),
        lambda: add_one_item(M7, amount=-1),
        lambda: add_one_item(M7, amount=float("nan")),
        lambda: add_one_item([[1, 2, 3]]),
        lambda: error_gains("kappa", M7),
        lambda: raising_errors(cm.kappa, M7, tol=-1),
        lambda: raising_errors(cm.kappa, M7, tol=True),
        lambda: raising_errors(cm.kappa, [[-1, 0], [0, 1]]),
    ],
)
def test_bad_input_raises_value_error(call):
    """The search functions reject bad amounts, tolerances, metrics and matrices."""
    with pytest.raises(ValueError):
        call()


def test_error_trace_figure_and_bad_cell():
    """error_trace draws two labelled curves and rejects a diagonal (correct) cell."""
    from clfbook.plots.agreement import error_trace

    fig = error_trace(M7, (2, 1), 12, labels="xyz", marks=(10,))
    ax = fig.axes[0]
    assert len(ax.get_lines()) >= 2 and ax.get_xlabel() and ax.get_ylabel()
    with pytest.raises(ValueError):
        error_trace(M7, (1, 1))
    with pytest.raises(ValueError):
        error_trace(M7, (0, 1), 0)


def test_item6_kappa_peaks_and_falls_and_the_figure_says_where():
    """Errors in (predicted z, true y) raise kappa up to a peak, then lower it."""
    added = np.arange(201)
    trace = np.repeat(np.array(M7)[None], added.size, axis=0)
    trace[:, 2, 1] += added
    kappas, mccs = cm.kappa(trace), cm.mcc(trace)
    peak = int(np.argmax(kappas))
    assert 10 < peak < 200 and kappas[-1] < kappas[peak] - 0.01
    assert np.all(np.diff(kappas[: peak + 1]) > 0) and np.all(np.diff(kappas[peak:]) < 0)
    assert np.all(np.diff(mccs) > 0)
    text = chapter("07-kappa-mcc")
    assert "so the scores keep rising" not in text
    alt = re.search(r"alt: >- (.*?) figure:", text).group(1)
    assert f"peak at {peak} added errors" in alt and "0 to 200 errors" in alt
    assert "error_trace(m7, (2, 1), 200" in text and "{glue:text}`ch07-kappa-peak-at`" in text


def test_item7_a_guesser_scores_zero_in_expectation_exactly():
    """The issue's reading (only the numerator averages 0) is wrong: the scores do too.

    Every 3x3 matrix of 4 items, weighted by its multinomial probability under a skewed
    guesser: the expected kappa and MCC (undefined counted as 0) are 0 up to rounding, because
    given the row and column sums the numerator has expectation 0 and the sums fix the
    denominators. The chapter must say so, not that the mean is only approximately 0.
    """
    from scipy.stats import multinomial

    cells = np.array(
        [np.bincount(c, minlength=9) for c in itertools.combinations_with_replacement(range(9), 4)]
    )
    z, p = np.array([0.7, 0.2, 0.1]), np.array([0.2, 0.5, 0.3])
    weights = multinomial.pmf(cells, 4, np.outer(z, p).ravel())
    stack = cells.reshape(-1, 3, 3)
    assert np.isclose(weights.sum(), 1)
    assert abs(weights @ cm.kappa(stack)) < 1e-12 and abs(weights @ cm.mcc(stack)) < 1e-12
    # not an accident of symmetry: a classifier that is not a guesser averages far from 0
    biased = np.outer(z, p) + 0.05 * np.eye(3)
    weights = multinomial.pmf(cells, 4, (biased / biased.sum()).ravel())
    assert weights @ cm.kappa(stack) > 0.01
    text = chapter("07-kappa-mcc")
    assert "its mean is only approximately 0 in small samples" not in text
    assert "{glue:text}`ch07-exact-max:.1e`" in text


def test_mcc_rises_at_every_added_error_and_only_kappa_peaks():
    """07 ~307: MCC(k) = 9k / sqrt((1078 + 24k)(322 + 110k)) rises towards 9/sqrt(2640)."""
    k = sp.Symbol("k", nonnegative=True)
    mcc_k = 9 * k / sp.sqrt((1078 + 24 * k) * (322 + 110 * k))
    added = np.arange(5001)
    trace = np.repeat(np.array(M7)[None], added.size, axis=0)
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


def test_d6_the_equality_case_names_the_shared_numerator():
    """07 ~27: 'or both are 0' read as bias and prevalence; the numerator is meant."""
    text = chapter("07-kappa-mcc")
    assert "bias equals prevalence or both are 0" not in text
    assert "bias equals prevalence or the shared numerator is 0" in text


def _factor(p, b):
    """|MCC| / |kappa| from the prevalence and bias vectors alone, as exact fractions."""
    pb = sum(x * y for x, y in zip(p, b, strict=True))
    bb, pp = sum(x * x for x in b), sum(x * x for x in p)
    return (1 - pb) / ((1 - bb) * (1 - pp)) ** 0.5


def test_d3_the_factor_does_not_grow_with_the_distance_between_bias_and_prevalence():
    """07 ~210: at p = (0.8, 0.1, 0.1) the nearer bias (0.9, 0.05, 0.05) gets 1.077, the
    farther (0.68, 0.16, 0.16) only 1.043; the chapter's two matrices have these margins."""
    p = [F(8, 10), F(1, 10), F(1, 10)]
    near, far = [F(90, 100), F(5, 100), F(5, 100)], [F(68, 100), F(16, 100), F(16, 100)]
    dist = [sum((x - y) ** 2 for x, y in zip(b, p, strict=True)) for b in (near, far)]
    assert dist[0] < dist[1]
    assert round(_factor(p, near), 3) == 1.077 and round(_factor(p, far), 3) == 1.043
    text = chapter("07-kappa-mcc")
    for name, margins in [("concentrated", near), ("spread", far)]:
        found = re.search(rf"{name} = np\.array\((\[\[.*?\]\])\)", text)
        m = np.array(ast.literal_eval(found.group(1)))
        assert m.sum() == 100
        assert [F(int(v), 100) for v in cm.prevalence(m)] == p
        assert [F(int(v), 100) for v in cm.bias(m)] == margins
        assert cm.mcc(m) / cm.kappa(m) == pytest.approx(_factor(p, margins), rel=1e-12)
        assert f"ch07-{name}-factor" in text and f"ch07-{name}-distance" in text
    assert "grows as they drift apart" not in text
    assert "{prf:ref}`lem-ch11-mcc-kappa`" in text
