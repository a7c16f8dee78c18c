"""ROC AUC and AP with their uncertainty: cell bootstrap, BCa, DeLong, compare_auc.

References: scikit-learn's roc_auc_score and average_precision_score for the
areas, a plain item bootstrap (numpy) for the cell bootstrap, scipy.stats.bootstrap
for BCa, and the O(P N) pairs of DeLong's definition for the variances.
"""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np
import pytest
from scipy import stats
from sklearn.metrics import average_precision_score, roc_auc_score

import clfmetrics as cm
from clfmetrics import (
    AUCComparison,
    Interval,
    ap_interval,
    auc_coverage,
    auc_interval,
    compare_auc,
)
from clfmetrics.inference import _auc as ac
from clfmetrics.inference._multinomial import draw


def problem(rng, n_items, *, distinct=None, shift=0.8):
    """Random binary labels (both classes present) and scores, discrete if ``distinct``."""
    while True:
        y = rng.random(n_items) < rng.uniform(0.25, 0.75)
        if 2 <= y.sum() <= n_items - 2:
            break
    s = rng.normal(shift * y, 1.0)
    if distinct is not None:
        s = np.floor(s * distinct / 6)  # about ``distinct`` values: many ties, also across classes
    return y, s


def pairs(y, s):
    """DeLong's kernel psi(positive i, negative j) for all pairs: the O(P N) definition."""
    pos, neg = s[y], s[~y]
    return (pos[:, None] > neg[None, :]) + 0.5 * (pos[:, None] == neg[None, :])


# --- the areas and their closed-form jackknife ---------------------------------------------


@pytest.mark.parametrize("distinct", [None, 3, 12])
def test_areas_of_the_cells_equal_sklearn(distinct):
    rng = np.random.default_rng(distinct or 0)
    for _ in range(40):
        y, s = problem(rng, int(rng.integers(4, 80)), distinct=distinct)
        iv_auc = auc_interval(y, s, size=20, rng=0)
        iv_ap = ap_interval(y, s, size=20, rng=0)
        assert iv_auc.estimate == pytest.approx(roc_auc_score(y, s), abs=1e-14)
        assert iv_ap.estimate == pytest.approx(average_precision_score(y, s), abs=1e-14)


@pytest.mark.parametrize(
    ("metric", "reference"),
    [("roc_auc", roc_auc_score), ("average_precision", average_precision_score)],
)
def test_jackknife_per_cell_equals_leaving_each_item_out(metric, reference):
    rng = np.random.default_rng(7)
    for distinct in (None, 2, 5, 15):
        y, s = problem(rng, 40, distinct=distinct)
        cells = ac.cells_of(y, s)
        drop_pos, drop_neg = ac.jackknife(metric, cells)
        group = np.unique(s, return_inverse=True)[1]
        for i in range(len(y)):  # the reference leaves out one item at a time
            keep = np.arange(len(y)) != i
            if y[i]:
                ours = drop_pos[np.searchsorted(cells.pos_group, group[i])]
            else:
                ours = drop_neg[np.searchsorted(cells.neg_group, group[i])]
            assert ours == pytest.approx(reference(y[keep], s[keep]), abs=1e-13)


# --- DeLong ----------------------------------------------------------------------------------


@pytest.mark.parametrize("distinct", [None, 2, 6, 30])
def test_delong_variance_equals_the_direct_structural_components(distinct):
    rng = np.random.default_rng(11)
    z = NormalDist().inv_cdf(0.975)
    for _ in range(25):
        y, s = problem(rng, int(rng.integers(6, 120)), distinct=distinct)
        psi = pairs(y, s)
        v10, v01 = psi.mean(axis=1), psi.mean(axis=0)  # V10 per positive, V01 per negative
        var = v10.var(ddof=1) / len(v10) + v01.var(ddof=1) / len(v01)
        auc = psi.mean()
        iv = auc_interval(y, s, method="delong")
        assert iv.estimate == pytest.approx(auc, abs=1e-14)
        assert iv.low == pytest.approx(max(auc - z * var**0.5, 0), abs=1e-12)
        assert iv.high == pytest.approx(min(auc + z * var**0.5, 1), abs=1e-12)
        assert iv.method == "delong"


@pytest.mark.parametrize("distinct", [None, 3, 10])
def test_compare_auc_covariance_equals_the_direct_computation(distinct):
    rng = np.random.default_rng(13)
    for _ in range(20):
        y, s_a = problem(rng, int(rng.integers(8, 150)), distinct=distinct)
        s_b = s_a + rng.normal(0, 1.5, len(y))
        if distinct is not None:
            s_b = np.round(s_b)
        psi_a, psi_b = pairs(y, s_a), pairs(y, s_b)
        n_pos, n_neg = psi_a.shape
        s10 = np.cov(psi_a.mean(axis=1), psi_b.mean(axis=1), ddof=1)
        s01 = np.cov(psi_a.mean(axis=0), psi_b.mean(axis=0), ddof=1)
        cov = s10 / n_pos + s01 / n_neg
        diff = psi_a.mean() - psi_b.mean()
        sd = (cov[0, 0] + cov[1, 1] - 2 * cov[0, 1]) ** 0.5
        r = compare_auc(y, s_a, s_b)
        assert isinstance(r, AUCComparison)
        assert (r.auc_a, r.auc_b) == pytest.approx((psi_a.mean(), psi_b.mean()), abs=1e-14)
        assert r.difference == pytest.approx(diff, abs=1e-14)
        assert r.high - r.low == pytest.approx(2 * 1.959963984540054 * sd, rel=1e-9)
        assert r.pvalue == pytest.approx(2 * stats.norm.sf(abs(diff) / sd), rel=1e-9)


def test_compare_auc_is_paired_and_symmetric():
    rng = np.random.default_rng(17)
    y, s_a = problem(rng, 400)
    s_b = s_a + rng.normal(0, 0.3, len(y))  # a near copy: the paired interval is narrow
    r, back = compare_auc(y, s_a, s_b), compare_auc(y, s_b, s_a)
    assert back.difference == pytest.approx(-r.difference) and back.pvalue == pytest.approx(
        r.pvalue
    )
    separate = [auc_interval(y, s, method="delong") for s in (s_a, s_b)]
    assert r.high - r.low < 0.5 * (separate[0].high - separate[0].low)
    same = compare_auc(y, s_a, s_a)
    assert (same.difference, same.low, same.high, same.pvalue) == (0.0, 0.0, 0.0, 1.0)
    assert "DeLong" in str(r)


def test_delong_interval_stays_in_the_unit_interval():
    y = np.r_[np.ones(20), np.zeros(20)]
    iv = auc_interval(y, np.r_[np.full(20, 2.0), np.full(20, 1.0)], method="delong")
    assert (iv.estimate, iv.low, iv.high) == (1.0, 1.0, 1.0)
    iv = auc_interval(y, np.r_[np.linspace(1, 3, 20), np.linspace(0, 1.1, 20)], method="delong")
    assert iv.high == 1.0 and iv.low < iv.estimate < 1


# --- the bootstrap ---------------------------------------------------------------------------


def expand(cells, pos, neg):
    """Items (scores, is-positive) of one resample's cell counts."""
    scores = np.r_[np.repeat(cells.pos_group, pos), np.repeat(cells.neg_group, neg)]
    return np.r_[np.ones(pos.sum(), bool), np.zeros(neg.sum(), bool)], scores


@pytest.mark.parametrize("distinct", [None, 6, 40])
def test_merged_negatives_give_the_same_areas_on_the_same_draws(distinct):
    rng = np.random.default_rng(41)
    for _ in range(30):
        y, s = problem(rng, int(rng.integers(6, 200)), distinct=distinct)
        cells = ac.cells_of(y, s)
        merged = ac.merged_negatives(cells)
        assert merged.neg.sum() == cells.neg.sum()
        assert merged.neg.size <= min(cells.neg.size, 2 * cells.pos.size + 1)
        pos, neg = draw(cells.pos, 20, rng), draw(cells.neg, 20, rng)
        # The same draws, summed over each merged cell.
        into = np.searchsorted(merged.neg_group, cells.neg_group)
        summed = np.zeros((20, merged.neg.size), np.int64)
        np.add.at(summed, (slice(None), into), neg)
        for metric, reference in (("roc_auc", roc_auc_score), ("average_precision", None)):
            full = ac.areas(metric, cells, pos, neg)
            assert np.array_equal(ac.areas(metric, merged, pos, summed), full)
            for b in range(3):  # the definitions on the resampled items themselves
                yy, ss = expand(cells, pos[b], neg[b])
                ref = (reference or average_precision_score)(yy, ss)
                assert full[b] == pytest.approx(ref, abs=1e-12)


def item_bootstrap(y, s, size, rng, metric):
    """Plain stratified bootstrap of the items: numpy indices, areas from the definitions."""
    pos, neg = s[y], s[~y]
    ip = rng.integers(0, len(pos), (size, len(pos)))
    ineg = rng.integers(0, len(neg), (size, len(neg)))
    out = np.empty(size)
    for start in range(0, size, 500):
        p, q = pos[ip[start : start + 500]], neg[ineg[start : start + 500]]
        above = (p[:, :, None] > q[:, None, :]) + 0.5 * (p[:, :, None] == q[:, None, :])
        if metric == "roc_auc":
            out[start : start + 500] = above.mean(axis=(1, 2))
        else:  # each positive's precision at its own score: positives / items at least as high
            pos_up = (p[:, None, :] >= p[:, :, None]).sum(axis=2)
            neg_up = (q[:, None, :] >= p[:, :, None]).sum(axis=2)
            out[start : start + 500] = (pos_up / (pos_up + neg_up)).mean(axis=1)
    # The definitions are scikit-learn's functions on the same resamples.
    reference = roc_auc_score if metric == "roc_auc" else average_precision_score
    for k in range(5):
        yy = np.r_[np.ones(len(pos), bool), np.zeros(len(neg), bool)]
        assert out[k] == pytest.approx(reference(yy, np.r_[pos[ip[k]], neg[ineg[k]]]), abs=1e-12)
    return out


@pytest.mark.parametrize("distinct", [None, 8])
@pytest.mark.parametrize("metric", ["roc_auc", "average_precision"])
def test_cell_bootstrap_agrees_with_an_item_bootstrap(metric, distinct):
    rng = np.random.default_rng(23)
    y, s = problem(rng, 240, distinct=distinct)
    items = item_bootstrap(y, s, 10_000, np.random.default_rng(1), metric)
    low, high = np.quantile(items, [0.025, 0.975])
    func = auc_interval if metric == "roc_auc" else ap_interval
    iv = func(y, s, size=10_000, rng=2)
    assert abs(iv.low - low) < 0.01 and abs(iv.high - high) < 0.01
    assert iv.high - iv.low > 0.05  # a real width, not a degenerate agreement


@pytest.mark.parametrize("metric", ["roc_auc", "average_precision"])
def test_bca_agrees_with_scipy_bootstrap_of_the_two_classes(metric):
    rng = np.random.default_rng(29)
    y, s = problem(rng, 160, distinct=20)

    def statistic(pos, neg, axis=-1):
        p, q = np.moveaxis(pos, axis, -1), np.moveaxis(neg, axis, -1)
        if metric == "roc_auc":
            above = (p[..., :, None] > q[..., None, :]) + 0.5 * (p[..., :, None] == q[..., None, :])
            return above.mean(axis=(-2, -1))
        pos_up = (p[..., None, :] >= p[..., :, None]).sum(axis=-1)
        neg_up = (q[..., None, :] >= p[..., :, None]).sum(axis=-1)
        return (pos_up / (pos_up + neg_up)).mean(axis=-1)

    ref = stats.bootstrap(
        (s[y], s[~y]), statistic, n_resamples=10_000, method="BCa", batch=500, rng=3
    ).confidence_interval
    func = auc_interval if metric == "roc_auc" else ap_interval
    iv = func(y, s, size=10_000, method="bca", rng=4)
    assert abs(iv.low - ref.low) < 0.01 and abs(iv.high - ref.high) < 0.01


def test_large_sample_is_fast_enough_to_test_and_consistent():
    # 10**5 items, 50 distinct scores: the multinomial path; DeLong and the bootstrap agree.
    rng = np.random.default_rng(31)
    y, s = problem(rng, 100_000, distinct=50)
    boot = auc_interval(y, s, size=2000, rng=0)
    delong = auc_interval(y, s, method="delong")
    assert boot.estimate == delong.estimate == pytest.approx(roc_auc_score(y, s), abs=1e-12)
    assert abs(boot.low - delong.low) < 0.002 and abs(boot.high - delong.high) < 0.002


def test_coverage_of_the_95_percent_intervals():
    """Binormal population: negatives N(0, 1), positives N(d, 1), AUC = Phi(d / sqrt 2)."""
    auc = 0.8
    d = 2**0.5 * NormalDist().inv_cdf(auc)
    rng = np.random.default_rng(37)
    reps, n_pos, n_neg = 1000, 60, 60
    y = np.r_[np.ones(n_pos), np.zeros(n_neg)]
    hits = dict.fromkeys(("percentile", "bca", "delong"), 0)
    for _ in range(reps):
        s = np.r_[rng.normal(d, 1, n_pos), rng.normal(0, 1, n_neg)]
        for method in hits:
            hits[method] += auc in auc_interval(y, s, method=method, size=500, rng=rng)
    # Accept what a coverage of 0.935 to 0.95 gives 99.9 % of the time over 1000 repetitions
    # (bootstrap intervals cover a little less than nominal with 60 items per class).
    low = stats.binom.ppf(0.0005, reps, 0.935)
    high = stats.binom.isf(0.0005, reps, 0.95)
    for method, count in hits.items():
        assert low <= count <= high, (method, count / reps)


# --- interface -------------------------------------------------------------------------------


def test_exports_and_types():
    for name in ("auc_interval", "ap_interval", "compare_auc", "AUCComparison", "holm"):
        assert getattr(cm, name) is getattr(cm.inference, name)
    y, s = [0, 1, 0, 1, 1, 0], [0.1, 0.9, 0.3, 0.2, 0.8, 0.4]
    iv = auc_interval(y, s, size=50, rng=0)
    assert isinstance(iv, Interval) and iv.level == 0.95 and iv.method == "percentile"
    assert auc_interval(y, s, size=50, rng=5) == auc_interval(y, s, size=50, rng=5)
    strings = ["b", "a", "b", "a", "a", "b"]
    assert auc_interval(strings, s, pos_label="a", size=50, rng=0).estimate == pytest.approx(
        roc_auc_score([x == "a" for x in strings], s)
    )


BAD = [
    (dict(y_true=[0, 0, 0], scores=[0.1, 0.2, 0.3]), "no positive"),
    (dict(y_true=[1, 1, 1], scores=[0.1, 0.2, 0.3]), "no negative"),
    (dict(y_true=[0, 1, 1], scores=[0.1, 0.2]), "differ in length"),
    (dict(y_true=[0, 1, 1], scores=[0.1, np.nan, 0.3]), "NaN or infinite"),
    (dict(y_true=[0, 1, 1], scores=[0.1, np.inf, 0.3]), "NaN or infinite"),
    (dict(y_true=[0, 1, 1], scores=np.ma.array([0.1, 0.2, 0.3], mask=[0, 1, 0])), "masked"),
    (dict(y_true=np.ma.array([0, 1, 1], mask=[0, 1, 0]), scores=[0.1, 0.2, 0.3]), "masked"),
    (dict(y_true=[0, 1, 1], scores=[[0.1, 0.9]] * 3), "1-d"),
    (dict(y_true=[0, 1, 2], scores=[0.1, 0.2, 0.3]), "pos_label"),
    (dict(level=1.0), "level"),
    (dict(level=0), "level"),
    (dict(size=0), "size"),
    (dict(size=2.5), "size"),
    (dict(method="wald"), "method"),
    (dict(method=None), "method"),
    (dict(y_true=[0, 1, 1], scores=[0.1, 0.2, 0.3], method="bca"), "at least 2"),
    (dict(y_true=[0, 1, 1], scores=[0.1, 0.2, 0.3], method="delong"), "at least 2"),
]


@pytest.mark.parametrize(("kwargs", "word"), BAD)
def test_auc_interval_bad_input(kwargs, word):
    args = dict(y_true=[0, 1, 1, 0, 1, 0], scores=[0.1, 0.9, 0.3, 0.2, 0.8, 0.4], size=20)
    args.update(kwargs)
    with pytest.raises(ValueError, match=word):
        auc_interval(args.pop("y_true"), args.pop("scores"), **args)


def test_ap_interval_has_no_delong_and_compare_auc_checks_its_input():
    y, s = [0, 1, 1, 0, 1, 0], [0.1, 0.9, 0.3, 0.2, 0.8, 0.4]
    with pytest.raises(ValueError, match="method"):
        ap_interval(y, s, method="delong")
    with pytest.raises(ValueError, match="differ in length"):
        compare_auc(y, s, s[:-1])
    with pytest.raises(ValueError, match="scores_b must be a 1-d"):
        compare_auc(y, s, [s, s])
    with pytest.raises(ValueError, match="NaN"):
        compare_auc(y, s, [0.1, 0.9, np.nan, 0.2, 0.8, 0.4])
    with pytest.raises(ValueError, match="level"):
        compare_auc(y, s, s, level=95)
    with pytest.raises(ValueError, match="at least 2"):
        compare_auc([0, 1, 1], [0.1, 0.2, 0.3], [0.3, 0.2, 0.1])


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


def test_auc_coverage_counts_intervals_that_contain_the_true_auc():
    """A direct loop over the same draws gives the same share."""
    rng = np.random.default_rng(3)
    shift = math.sqrt(2) * NormalDist().inv_cdf(0.8)
    y = np.r_[np.ones(15, np.int64), np.zeros(40, np.int64)]
    hits = 0
    for _ in range(30):
        s = rng.normal(shift * y, 1.0)
        iv = cm.auc_interval(y, s, size=300, method="percentile", rng=rng)
        hits += iv.low <= 0.8 <= iv.high
    assert auc_coverage(15, 40, 0.8, methods=("percentile",), sets=30, size=300, rng=3) == {
        "percentile": hits / 30
    }


@pytest.mark.parametrize(
    "kwargs", [{"n_pos": 0, "n_neg": 5}, {"n_pos": 5.5, "n_neg": 5}, {"auc": 1.0}, {"sets": 0}]
)
def test_auc_coverage_bad_input(kwargs):
    args = {"n_pos": 5, "n_neg": 5, "auc": 0.7, "sets": 2} | kwargs
    with pytest.raises(ValueError):
        auc_coverage(args.pop("n_pos"), args.pop("n_neg"), args.pop("auc"), **args)


def test_newcombe_interval_matches_singlecasees():
    """SingleCaseES's NAP (R) solves Newcombe's (2006) method 5: its documented example."""
    base, treated = [20, 20, 26, 25, 22, 23], [28, 25, 24, 27, 30, 30, 29]
    y, s = [0] * 6 + [1] * 7, base + treated
    iv = auc_interval(y, s, method="newcombe")
    assert iv.estimate == pytest.approx(11 / 12)
    assert (iv.low, iv.high) == pytest.approx((0.5973193600384168, 0.9859976893703788), abs=1e-9)
    iv90 = auc_interval(y, s, method="newcombe", level=0.9)
    assert (iv90.low, iv90.high) == pytest.approx(
        (0.6591091902344411, 0.9822247870934007), abs=1e-9
    )


def test_newcombe_interval_at_a_perfect_ranking_keeps_a_lower_end():
    y = np.r_[np.zeros(20, int), np.ones(5, int)]
    iv = auc_interval(y, np.arange(25.0), method="newcombe")
    assert iv.estimate == iv.high == 1.0 and 0.5 < iv.low < 1.0
    flipped = auc_interval(y, -np.arange(25.0), method="newcombe")
    assert flipped.low == 0.0 and flipped.high == pytest.approx(1 - iv.low, abs=1e-12)


def test_logit_delong_is_the_delta_method_on_the_logit_of_delongs_variance():
    rng = np.random.default_rng(8)
    y, s = problem(rng, 120)
    plain = auc_interval(y, s, method="delong", level=0.9)
    logit = auc_interval(y, s, method="delong-logit", level=0.9)
    a, z = plain.estimate, NormalDist().inv_cdf(0.95)
    sd = (plain.high - plain.low) / (2 * z)  # DeLong's own half-width, unclipped here
    assert 0 < plain.low and plain.high < 1
    centre, half = math.log(a / (1 - a)), z * sd / (a * (1 - a))
    expect = [1 / (1 + math.exp(-(centre + side * half))) for side in (-1, 1)]
    assert (logit.low, logit.high) == pytest.approx(expect, rel=1e-12)
    assert logit.method == "delong-logit" and logit.estimate == a
    # skewed away from the nearer end: the upper part is the shorter one when the AUC > 1/2
    assert a > 0.5 and logit.high - a < a - logit.low


def test_logit_delong_without_a_logit_gives_newcombes_and_says_so():
    y = np.r_[np.zeros(20, int), np.ones(5, int)]
    iv = auc_interval(y, np.arange(25.0), method="delong-logit")
    assert iv.method == "newcombe"
    assert iv == auc_interval(y, np.arange(25.0), method="newcombe")
