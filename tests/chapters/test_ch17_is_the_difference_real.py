"""Chapter 17 (17-is-the-difference-real.md): each claim the text makes, computed or read."""

from __future__ import annotations

import ast
import re

import numpy as np
from chapter_text import ROOT, chapter


def test_neighbours_are_within_the_noise_even_at_one_tweet_in_twenty():
    """ch17 ~691: less discordance means a narrower interval, so 'even if', not 'unless'."""
    psi = np.array([0.05, 0.45])
    half = 1.96 * np.sqrt(psi / 1000)
    assert half[0] < half[1]
    text = chapter("17-is-the-difference-real")
    assert "unless the two systems disagree on fewer than one tweet in twenty" not in text
    assert "even if the two systems disagree on only one tweet in twenty" in text


def test_the_sample_size_plan_is_called_a_retrospective_illustration():
    """ch17 ~575: the test digits were scored before the plan."""
    source = (ROOT / "chapters" / "17-is-the-difference-real.md").read_text()
    plan = source.index("SMALLEST = 0.02")
    first_scored = source.index("y_test")
    assert first_scored < plan
    text = chapter("17-is-the-difference-real")
    assert "# fixed before scoring any test digit" not in text
    assert "what follows is a retrospective illustration of the plan" in text


def test_the_scale_section_says_what_runs_where():
    """ch17 ~1023: the page runs 10**7 rows, make bench 10**8, nothing runs a billion."""
    source = (ROOT / "chapters" / "17-is-the-difference-real.md").read_text()
    n_scale = ast.literal_eval(re.search(r"^N_SCALE = ([\d_]+)$", source, re.M).group(1))
    bench = (ROOT / "benchmarks" / "bench_scale.py").read_text()
    assert "(10**8, 10**7)" in bench and n_scale < 10**8 < 10**9
    assert "## Evaluating a billion predictions" not in source
    text = chapter("17-is-the-difference-real")
    assert "This page runs the method on {glue:text}`ch17-scale-n` predictions" in text
    assert "not a run made here" in text
    assert "shows them on a billion predictions" not in chapter("api/cli")


def test_the_coverage_at_20_items_is_that_of_interval():
    """ch17 ~276: the study's smallest row is the coverage of the interval a reader calls.

    The chapter seeds each size with the size itself; rerun here, the 20-item row equals a
    direct simulation of ``interval`` on the same test sets and resamples, and a simulation
    that calls ``cm.interval`` on each test set with its own resamples agrees with it within
    the resampling noise.
    """
    import clfmetrics as cm
    from clfmetrics.inference._simulate import resample_sets
    from clfmetrics.inference._uncertainty import interval_of_stack

    source = (ROOT / "chapters" / "17-is-the-difference-real.md").read_text()
    study = re.search(
        r"coverages\(\"macro_f1\", prevalence, behaviour, n, sets=SETS, size=(\d+), rng=n\)",
        source,
    )
    sets = int(re.search(r"^SETS = (\d+)$", source, re.M).group(1))
    size, n = int(study.group(1)), 20
    assert "n_grid = [20," in source
    tweets = np.array([[60, 15, 5], [35, 170, 40], [5, 15, 55]])
    prevalence, behaviour = tweets.sum(axis=0) / tweets.sum(), tweets / tweets.sum(axis=0)
    quoted = cm.coverages("macro_f1", prevalence, behaviour, n, sets=sets, size=size, rng=n)
    truth = cm.macro_f1(prevalence[None, :] * behaviour)
    rng = np.random.default_rng(n)
    tests = cm.sample_confusion(prevalence, behaviour, n, size=sets, rng=rng)
    stack = resample_sets(tests, size, rng)
    for method, coverage in quoted.items():
        same = [
            interval_of_stack(cm.macro_f1, m, stack[:, k], 0.95, method)
            for k, m in enumerate(tests)
        ]
        assert coverage == np.mean([iv.low <= truth <= iv.high for iv in same])
        own = [
            cm.interval("macro_f1", m, size=size, method=method, rng=k) for k, m in enumerate(tests)
        ]
        assert abs(coverage - np.mean([iv.low <= truth <= iv.high for iv in own])) < 0.02
    assert np.mean([iv.undefined for iv in same]) > 0.05  # the 0/0 resamples matter here


def test_holm_power_group_cost_and_the_band_check_are_stated_as_measured():
    """ch17 (review W17-2..W17-5): Holm's 'at most'; the exact test's power at Connor's N
    (0.783 at delta 0.02, psi 0.10, computed exactly here); the group bootstrap's cost when
    not needed, glued; a band check of 500 sets, not 60."""
    from scipy.stats import binom

    import clfmetrics as cm

    n = cm.mcnemar_sample_size(0.02, 0.10)
    d = np.arange(n + 1)[:, None]
    a = np.arange(n + 1)[None, :]
    p = np.minimum(1.0, 2 * binom.cdf(np.minimum(a, d - a), d, 0.5))
    given_d = (((a <= d) & (p <= 0.05)) * binom.pmf(a, d, (0.10 + 0.02) / 0.20)).sum(axis=1)
    power = binom.pmf(d[:, 0], n, 0.10) @ given_d
    assert n == 1960 and 0.77 < power < 0.79
    source = (ROOT / "chapters" / "17-is-the-difference-real.md").read_text()
    text = chapter("17-is-the-difference-real")
    assert "among all pairs at most 5 %" in text
    assert "{glue:text}`ch17-exact-power:.2f`" in text
    assert "costs {glue:text}`ch17-ind-cost:.1f` points of coverage" in text
    assert "so resampling groups costs little when it was not needed" not in text
    assert "BAND_N, BAND_SETS = 200, 500" in source and "CLU_SETS = 1000" in source
