"""The group (cluster) bootstrap of clfmetrics.inference."""

from __future__ import annotations

import numpy as np
import pytest

import clfmetrics as cm
from clfmetrics import (
    clustered_coverage,
    confusion_by_group,
    group_interval,
    sample_clustered,
)

PREVALENCE = np.array([0.5, 0.3, 0.2])
BEHAVIOUR = np.array([[0.80, 0.10, 0.15], [0.15, 0.80, 0.15], [0.05, 0.10, 0.70]])


def _groups(seed, n_groups=12, items=30, concentration=3.0):
    return sample_clustered(
        PREVALENCE, BEHAVIOUR, n_groups, items, concentration=concentration, rng=seed
    )


def test_group_interval_matches_a_loop_that_resamples_groups():
    """Percentile ends agree with drawing G group indices with replacement, one resample a time."""
    mats = _groups(1)
    rng = np.random.default_rng(2)
    g = mats.shape[0]
    loop = np.array(
        [cm.macro_f1(mats[rng.integers(0, g, size=g)].sum(axis=0)) for _ in range(20_000)]
    )
    low, high = np.percentile(loop, [2.5, 97.5])
    iv = group_interval("macro_f1", mats, size=20_000, rng=3)
    assert iv.estimate == pytest.approx(cm.macro_f1(mats.sum(axis=0)), abs=1e-12)
    assert iv.low == pytest.approx(low, abs=0.006)
    assert iv.high == pytest.approx(high, abs=0.006)
    assert iv.method == "percentile" and iv.level == 0.95


def test_one_item_per_group_is_the_item_bootstrap():
    """Groups of single items: resampling groups is resampling items."""
    y_true, y_pred = cm.to_labels(np.array([[60, 15, 5], [35, 170, 40], [5, 15, 55]]))
    mats, ids = confusion_by_group(y_true, y_pred, np.arange(len(y_true)))
    assert len(ids) == len(y_true) and mats.shape == (len(y_true), 3, 3)
    by_groups = group_interval("accuracy", mats, size=20_000, rng=4)
    by_items = cm.interval_from_labels("accuracy", y_true, y_pred, size=20_000, rng=5)
    assert by_groups.estimate == pytest.approx(by_items.estimate)
    assert by_groups.low == pytest.approx(by_items.low, abs=0.005)
    assert by_groups.high == pytest.approx(by_items.high, abs=0.005)


def test_confusion_by_group_sums_to_the_confusion_matrix_and_matches_a_loop():
    rng = np.random.default_rng(6)
    y, p = rng.integers(0, 4, 500), rng.integers(0, 4, 500)
    groups = rng.choice(np.array(["w1", "w2", "w3", "w7"]), 500)
    mats, ids = confusion_by_group(y, p, groups)
    assert ids == ["w1", "w2", "w3", "w7"]
    np.testing.assert_array_equal(mats.sum(axis=0), cm.confusion_matrix(y, p))
    for k, gid in enumerate(ids):
        chosen = groups == gid
        np.testing.assert_array_equal(
            mats[k], cm.confusion_matrix(y[chosen], p[chosen], labels=[0, 1, 2, 3])
        )


def test_sample_clustered_shapes_means_and_clustering():
    """Group behaviours average to the population; small concentration spreads groups apart."""
    sets = sample_clustered(PREVALENCE, BEHAVIOUR, 10, 50, concentration=2.0, size=400, rng=7)
    assert sets.shape == (400, 10, 3, 3) and sets.dtype == np.int64
    assert np.all(sets.sum(axis=(-2, -1)) == 50)
    expected = PREVALENCE[None, :] * BEHAVIOUR
    np.testing.assert_allclose(sets.sum(axis=(0, 1)) / (400 * 500), expected, atol=0.01)
    loose = sample_clustered(PREVALENCE, BEHAVIOUR, 10, 50, concentration=1e6, size=400, rng=8)
    tight_sd = np.std(cm.accuracy(sets.sum(axis=1)))
    loose_sd = np.std(cm.accuracy(loose.sum(axis=1)))
    assert tight_sd > 1.5 * loose_sd  # clustered test sets vary more than independent ones


def test_group_interval_covers_on_clustered_data_where_the_item_interval_does_not():
    """Seeded coverage study, one interval per test set, as a user would compute it."""
    population = cm.accuracy(PREVALENCE[None, :] * BEHAVIOUR)
    sets = sample_clustered(PREVALENCE, BEHAVIOUR, 40, 25, concentration=2.0, size=300, rng=9)
    rng = np.random.default_rng(10)
    by_items = np.mean(
        [population in cm.interval("accuracy", s.sum(axis=0), size=500, rng=rng) for s in sets]
    )
    by_groups = np.mean(
        [population in group_interval("accuracy", s, size=500, rng=rng) for s in sets]
    )
    assert by_items < 0.85, f"the item interval should under-cover clustered data: {by_items}"
    assert 0.90 <= by_groups <= 0.98, f"the group interval should be near 95 %: {by_groups}"


def test_clustered_coverage_agrees_with_the_per_set_study():
    items, groups = clustered_coverage(
        "accuracy",
        PREVALENCE,
        BEHAVIOUR,
        40,
        25,
        concentration=2.0,
        sets=300,
        size=500,
        rng=11,
    )
    assert items < 0.85 and 0.90 <= groups <= 0.98
    # Independent items: both methods near nominal.
    items, groups = clustered_coverage(
        "macro_f1",
        PREVALENCE,
        BEHAVIOUR,
        40,
        25,
        concentration=1e6,
        sets=300,
        size=500,
        rng=12,
    )
    assert 0.91 <= items <= 0.98 and 0.90 <= groups <= 0.98


@pytest.mark.parametrize(
    ("mats", "match"),
    [
        (np.ones((3, 2)), "shape"),
        (np.ones((3, 2, 3)), "shape"),
        (np.ones((1, 2, 2)), "at least 2 groups"),
        (-np.ones((3, 2, 2)), "non-negative"),
        (np.full((3, 2, 2), 0.5), "whole-number"),
        (np.zeros((3, 2, 2)), "no items"),
        ([["a"]], "numeric"),
    ],
)
def test_group_interval_bad_input(mats, match):
    with pytest.raises(ValueError, match=match):
        group_interval("accuracy", mats)


def test_bad_arguments_name_themselves():
    mats = _groups(13)
    with pytest.raises(ValueError, match="level"):
        group_interval("accuracy", mats, level=1.5)
    with pytest.raises(ValueError, match="size"):
        group_interval("accuracy", mats, size=0)
    with pytest.raises(ValueError, match="groups"):
        confusion_by_group([0, 1], [0, 1], [0])
    with pytest.raises(ValueError, match="concentration"):
        sample_clustered(PREVALENCE, BEHAVIOUR, 3, 3, concentration=0)
    with pytest.raises(ValueError, match="n_groups"):
        sample_clustered(PREVALENCE, BEHAVIOUR, 0, 3, concentration=1)
    with pytest.raises(ValueError, match="conditional"):
        sample_clustered(PREVALENCE, BEHAVIOUR[:2], 3, 3, concentration=1)


def test_group_interval_reports_and_leaves_out_the_undefined_resamples():
    """Class 2 is predicted only in group 0: a resample without it has macro precision 0/0."""
    rare = np.zeros((8, 3, 3))
    rare[:, 0, 0], rare[:, 1, 1], rare[:, 0, 1] = 20, 15, 2
    rare[:, 2, 2], rare[:, 0, 2] = 0, 1
    rare[0, 2, 2] = 2
    iv = group_interval("macro_precision", rare, size=4000, rng=0)
    # P(group 0 never drawn in 8 draws) = (7/8)**8, about 0.34
    assert abs(iv.undefined - (7 / 8) ** 8) < 0.03
    weights = np.random.default_rng(0).multinomial(8, np.full(8, 1 / 8), size=4000)
    stack = (weights @ rare.reshape(8, 9)).reshape(4000, 3, 3)
    undefined = np.isnan(cm.macro_precision(stack, zero_division="nan"))
    assert iv.undefined == undefined.mean()
    low, high = np.quantile(cm.macro_precision(stack)[~undefined], [0.025, 0.975])
    assert (iv.low, iv.high) == pytest.approx((low, high))
    assert group_interval("accuracy", rare, size=500, rng=0).undefined == 0.0
