"""Exact binomial tails, Clopper-Pearson intervals and Holm's adjustment (numpy only) vs scipy."""

import numpy as np
import pytest
from scipy import stats

import clfmetrics
from clfmetrics import holm
from clfmetrics.inference import _binomial as binom


@pytest.mark.parametrize("n", [1, 2, 7, 40, 333, 5_000, 10**6])
@pytest.mark.parametrize("p", [0.5, 0.013, 0.3, 0.999, 1e-6])
def test_pmf_and_tails_equal_scipy(n, p):
    rng = np.random.default_rng(n)
    k = np.unique(np.r_[0, 1, n, n // 2, round(n * p), rng.integers(0, n + 1, 30)])
    for ours, ref in (
        (binom.pmf(k, n, p), stats.binom.pmf(k, n, p)),
        (binom.cdf(k, n, p), stats.binom.cdf(k, n, p)),
        (binom.upper_tail(k, n, p), stats.binom.sf(k - 1, n, p)),
    ):
        usable = ref > 1e-280  # below, either side may underflow
        np.testing.assert_allclose(ours[usable], ref[usable], rtol=5e-12, atol=0)
        assert (ours[~usable] < 1e-270).all()


def test_tiny_tails_are_computed_not_rounded_to_zero():
    # P(X <= 3) for Binomial(2000, 1/2) is about 1e-593... too small; 1e-200 is in range.
    ref = stats.binom.cdf(60, 1000, 0.5)
    assert 1e-220 < ref < 1e-150
    assert binom.cdf(60, 1000, 0.5) == pytest.approx(ref, rel=1e-11)


def test_two_sided_pvalue_at_one_half_equals_binomtest():
    rng = np.random.default_rng(0)
    pairs = [(b, c) for b in range(0, 25) for c in range(0, 25)]
    pairs += [tuple(rng.integers(0, 3000, 2)) for _ in range(60)]
    pairs += [(0, 10**5), (49_000, 51_000), (500_000, 500_001), (49_997_000, 50_003_000)]
    b, c = np.array(pairs).T
    ours = binom.two_sided_half(b, b + c)  # one call on arrays; the scalar form below
    for i, (bi, ci) in enumerate(pairs):
        n = int(bi + ci)
        ref = 1.0 if n == 0 else stats.binomtest(int(bi), n, 0.5).pvalue
        assert ours[i] == pytest.approx(ref, rel=1e-12, abs=1e-300), (bi, ci)
    for i in (0, 30, 650, len(pairs) - 1):
        assert float(binom.two_sided_half(int(b[i]), int(b[i] + c[i]))) == ours[i]


@pytest.mark.parametrize(
    ("n", "level"),
    [(n, level) for n in (1, 2, 3, 10, 37, 240, 1001, 10**5) for level in (0.95, 0.5, 0.999)]
    + [(10**6, 0.95)],
)
def test_clopper_pearson_equals_scipy_exact_interval(n, level):
    for k in sorted({0, 1, 2, n // 3, n - 2, n - 1, n}):
        if not 0 <= k <= n:
            continue
        ref = stats.binomtest(k, n).proportion_ci(level, method="exact")
        low, high = binom.clopper_pearson(k, n, level)
        assert abs(low - ref.low) < 1e-9 and abs(high - ref.high) < 1e-9, (k, n, level)
        assert 0 <= low <= k / n <= high <= 1


def test_clopper_pearson_on_arrays_equals_scipy_on_a_grid_up_to_a_million():
    rng = np.random.default_rng(26)
    n = np.r_[1, 1, 2, 3, 5, 5, 10**6, 10**6, 10**6, rng.integers(1, 10**6 + 1, 40)]
    n = np.r_[n, rng.integers(1, 60, 40)]
    k = np.r_[0, 1, 1, 2, 0, 5, 0, 1, 10**6 - 1, rng.integers(0, n[9:] + 1)]
    for level in (0.95, 0.8, 0.999):
        low, high = binom.clopper_pearson(k, n, level)
        assert low.shape == high.shape == k.shape
        # The interval's definition, as scipy's beta quantiles on the whole grid at once
        # (binomtest's root search, per interval, is the reference of the test above: too
        # slow for the whole grid, and it agrees with this one).
        tail = (1 - level) / 2
        ref_low = np.where(k == 0, 0.0, stats.beta.ppf(tail, np.maximum(k, 1), n - k + 1))
        ref_high = np.where(k == n, 1.0, stats.beta.isf(tail, k + 1, np.maximum(n - k, 1)))
        np.testing.assert_allclose(low, ref_low, rtol=0, atol=1e-10)
        np.testing.assert_allclose(high, ref_high, rtol=0, atol=1e-10)
        assert (low <= k / n).all() and (k / n <= high).all()
    # The scalar form gives floats, the same as the array's elements.
    one = binom.clopper_pearson(int(k[12]), int(n[12]), 0.999)
    assert isinstance(one[0], float) and isinstance(one[1], float)
    assert one == (float(low[12]), float(high[12]))


def test_clopper_pearson_closed_form_ends():
    low, high = binom.clopper_pearson(240, 240)
    assert high == 1.0 and low == pytest.approx(0.025 ** (1 / 240), rel=1e-15)
    low, high = binom.clopper_pearson(0, 240)
    assert low == 0.0 and high == pytest.approx(1 - 0.025 ** (1 / 240), rel=1e-12)


@pytest.mark.parametrize(
    ("k", "n", "level", "word"),
    [(3, 2, 0.95, "k <= n"), (-1, 4, 0.95, "k <= n"), (1.5, 4, 0.95, "whole"),
     (0, 0, 0.95, "n must"), (1, 4, 1.0, "level"), (1, 4, 0, "level"),
     ([1, 5], 4, 0.95, "k <= n"), ([0, 0], [4, 0], 0.95, "n must"),
     (np.nan, 4, 0.95, "whole")],
)  # fmt: skip
def test_clopper_pearson_bad_input(k, n, level, word):
    with pytest.raises(ValueError, match=word):
        binom.clopper_pearson(k, n, level)


def holm_by_definition(p):
    """Holm's adjusted p-values straight from the step-down definition (a loop)."""
    p = list(p)
    m = len(p)
    order = sorted(range(m), key=lambda i: p[i])
    out, running = [0.0] * m, 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p[i]))
        out[i] = running
    return out


def test_holm_equals_its_definition_and_is_monotone():
    rng = np.random.default_rng(1)
    for m in (1, 2, 5, 28, 200):
        p = rng.uniform(0, 0.2, m) ** 2
        p[rng.integers(0, m, m // 3)] = p[0]  # ties
        adj = holm(p)
        np.testing.assert_allclose(adj, holm_by_definition(p), rtol=0, atol=1e-15)
        order = np.argsort(p, kind="stable")
        assert (np.diff(adj[order]) >= 0).all()
        assert (adj >= p).all() and (adj <= 1).all()


def test_holm_equals_statsmodels():
    from statsmodels.stats.multitest import multipletests

    rng = np.random.default_rng(2)
    for m in (1, 3, 30):
        p = rng.uniform(0, 0.1, m)
        np.testing.assert_allclose(holm(p), multipletests(p, method="holm")[1], rtol=1e-15)


def test_holm_keeps_shape_and_is_exported():
    assert clfmetrics.holm is holm
    p = np.array([[0.01, 0.04], [0.03, 0.5]])
    np.testing.assert_allclose(holm(p), [[0.04, 0.09], [0.09, 0.5]])
    assert holm([0.2]).tolist() == [0.2]


@pytest.mark.parametrize(
    ("p", "word"),
    [([], "empty"), ([0.1, np.nan], "NaN"), ([0.1, 1.2], r"\[0, 1\]"), ([-0.1], r"\[0, 1\]"),
     (["0.1"], "numbers"), ([True], "numbers"),
     (np.ma.array([0.1, 0.2], mask=[0, 1]), "masked")],
)  # fmt: skip
def test_holm_bad_input(p, word):
    with pytest.raises(ValueError, match=word):
        holm(p)
