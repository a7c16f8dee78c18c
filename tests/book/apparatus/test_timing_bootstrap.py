"""The bootstrap sampler and the timing helpers of the chapter on speed."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pytest

import clfmetrics as cm
from clfbook.plots.perf import growth_plot
from clfbook.tooling.timing import count_stack, median_seconds, time_growth
from clfmetrics import bootstrap

TWEETS = np.array([[60, 15, 5], [35, 170, 40], [5, 15, 55]])


def test_bootstrap_keeps_the_test_set_size_and_centres_on_it():
    stack = bootstrap(TWEETS, 20_000, rng=3)
    assert stack.shape == (20_000, 3, 3) and stack.dtype == np.int64
    assert (stack.sum(axis=(-2, -1)) == TWEETS.sum()).all()
    # Each cell is binomial(|S|, m_ij/|S|): its mean over 20,000 draws is within 5 standard errors.
    total = TWEETS.sum()
    se = np.sqrt(TWEETS * (1 - TWEETS / total) / 20_000)
    assert (np.abs(stack.mean(axis=0) - TWEETS) < 5 * se + 1e-12).all()


def test_bootstrap_is_seeded_and_shaped():
    first, again = bootstrap(TWEETS, (2, 3), rng=7), bootstrap(TWEETS, (2, 3), rng=7)
    np.testing.assert_array_equal(first, again)
    assert first.shape == (2, 3, 3, 3)


@pytest.mark.parametrize(
    ("m", "match"),
    [
        ([[1.5, 0], [0, 1]], "whole-number counts"),
        (np.ones((2, 2, 2)), "one test set"),
        ([[1, -1], [0, 1]], "negative"),
    ],
)
def test_bootstrap_rejects_bad_input(m, match):
    with pytest.raises(ValueError, match=match):
        bootstrap(m, 10)


def test_bootstrap_interval_contains_the_observed_score():
    scores = cm.macro_f1(bootstrap(TWEETS, 5_000, rng=1))
    low, high = np.percentile(scores, [2.5, 97.5])
    assert low < cm.macro_f1(TWEETS) < high


def test_count_stack_has_no_empty_row_or_column():
    stack = count_stack(1_000, 4, rng=0)
    assert stack.shape == (1_000, 4, 4)
    assert (cm.bias(stack) > 0).all() and (cm.prevalence(stack) > 0).all()
    with pytest.raises(ValueError, match="n >= 2"):
        count_stack(10, 1)


def test_median_seconds_and_time_growth_report_consistent_numbers():
    assert median_seconds(lambda: None, repeat=3) >= 0
    with pytest.raises(ValueError, match="repeat"):
        median_seconds(lambda: None, repeat=0)
    r = time_growth(cm.accuracy, [100, 1_000], n=3, repeat=2, rng=0)
    assert r["sizes"].tolist() == [100, 1_000]
    assert (r["seconds"] > 0).all() and (r["floor_seconds"] > 0).all()
    np.testing.assert_allclose(r["ratio"], r["seconds"] / r["floor_seconds"])
    assert np.isfinite(r["slope"])
    with pytest.raises(ValueError, match="at least two"):
        time_growth(cm.accuracy, [100])


def test_growth_plot_is_labelled_and_logarithmic():
    r = {
        "a": {
            "sizes": np.array([10, 100]),
            "seconds": np.array([1e-5, 1e-4]),
            "floor_seconds": np.array([1e-6, 1e-5]),
            "slope": 1.0,
        }
    }
    ax = growth_plot(r).axes[0]
    assert ax.get_xlabel() and ax.get_ylabel()
    assert ax.get_xscale() == "log" and ax.get_yscale() == "log"
    assert len(ax.get_lines()) == 2
    with pytest.raises(ValueError, match="empty"):
        growth_plot({})


def test_paired_bootstrap_counts_every_system_on_the_same_items():
    from clfmetrics import paired_bootstrap

    rng = np.random.default_rng(0)
    y = rng.choice(["a", "b", "c"], size=200)
    preds = [np.where(rng.random(200) < q, y, rng.choice(["a", "b", "c"], 200)) for q in (0.9, 0.5)]
    out = paired_bootstrap(y, preds, 500, rng=1)
    assert out.shape == (500, 2, 3, 3)
    assert (out.sum(axis=(-2, -1)) == 200).all()
    # Same items, so the same true classes: the column sums (prevalence) agree between systems.
    np.testing.assert_array_equal(cm.prevalence(out[:, 0]), cm.prevalence(out[:, 1]))
    # Over many resamples each system's counts average to its own confusion matrix.
    for k, p in enumerate(preds):
        mean = out[:, k].mean(axis=0)
        np.testing.assert_allclose(mean, cm.confusion_matrix(y, p), atol=2.5)
    with pytest.raises(ValueError, match="empty"):
        paired_bootstrap(y, [], 10)
    with pytest.raises(ValueError, match="size"):
        paired_bootstrap(y, preds, 0)
    with pytest.raises(ValueError, match="not in labels"):
        paired_bootstrap(y, preds, 5, labels=["a", "b"])
