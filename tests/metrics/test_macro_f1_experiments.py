"""The numbers of Opitz & Burst (2019) that chapters 4 and 5 use, reproduced by clfmetrics.

Examples are checked against exact fractions derived by hand and against the
values printed in the note; the simulations against the note's reported
statistics within sampling tolerance.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from sklearn.metrics import f1_score

from clfbook.sources import experiments as E
from clfbook.sources.experiments import PAPER
from clfmetrics import delta_f1, f1_of_averages, macro_f1, to_labels


def test_lopsided_two_class_example():
    """[[100, 10000], [0, 100]]: F1 of averages 51/101, averaged F1 1/51, gap 2500/5151."""
    m = [[100, 10_000], [0, 100]]
    assert f1_of_averages(m) == pytest.approx(float(Fraction(51, 101)), rel=1e-14)
    assert macro_f1(m) == pytest.approx(float(Fraction(1, 51)), rel=1e-14)
    assert delta_f1(m) == pytest.approx(float(Fraction(2500, 5151)), rel=1e-14)
    # the reference implementation's printed output (appendix D)
    assert f1_of_averages(m) == pytest.approx(PAPER["example_f1_of_averages"], rel=1e-13)
    assert macro_f1(m) == pytest.approx(PAPER["example_averaged_f1"], rel=1e-13)
    assert delta_f1(m) == pytest.approx(PAPER["example_delta"], rel=1e-13)


def test_even_errors_two_class_example():
    """[[100, 5000], [5000, 100]]: both formulas give 1/51 and the gap is 0."""
    m = [[100, 5000], [5000, 100]]
    assert f1_of_averages(m) == pytest.approx(1 / 51, rel=1e-14)
    assert macro_f1(m) == pytest.approx(1 / 51, rel=1e-14)
    assert delta_f1(m) == 0


def test_ranking_tables_of_the_note():
    """Tables 1 and 2: (1/2, 17/35) and (F1 of averages of P=(1/2,19/28), R=(1/10,19/20), 23/48)."""
    t1, t2 = [[5, 10], [5, 10]], [[1, 1], [9, 19]]
    p_bar, r_bar = Fraction(33, 56), Fraction(21, 40)
    t2_big = 2 * p_bar * r_bar / (p_bar + r_bar)
    assert f1_of_averages(t1) == pytest.approx(0.5)
    assert macro_f1(t1) == pytest.approx(float(Fraction(17, 35)))
    assert f1_of_averages(t2) == pytest.approx(float(t2_big))
    assert macro_f1(t2) == pytest.approx(float(Fraction(23, 48)))
    for key, value in [
        ("table1_f1_of_averages", f1_of_averages(t1)),
        ("table1_averaged_f1", macro_f1(t1)),
        ("table2_f1_of_averages", f1_of_averages(t2)),
        ("table2_averaged_f1", macro_f1(t2)),
    ]:
        # the note prints two digits; table 2's 0.5553 appears as 0.55 (truncated, not rounded)
        assert abs(value - PAPER[key]) < 0.006, key
    # the flip: table 2 wins by F1 of averages, loses by averaged F1
    assert f1_of_averages(t2) > f1_of_averages(t1) and macro_f1(t2) < macro_f1(t1)


def test_sklearn_macro_f1_is_the_averaged_f1():
    """scikit-learn's f1_score(average='macro') is macro_f1 (averaged F1), not f1_of_averages."""
    m = np.array([[100, 1000], [0, 100]])
    y_true, y_pred = to_labels(m, ["a", "b"])
    got = f1_score(y_true, y_pred, average="macro")
    assert got == pytest.approx(macro_f1(m), rel=1e-12)
    assert abs(got - f1_of_averages(m)) > 0.1


@pytest.mark.parametrize("seed", [2019, 1, 2])
def test_figure_1a_statistics_match_the_paper(seed):
    """1000 binary data sets (95/5), uniform random classifier: maxima, RMSD and correlations."""
    stack = E.random_baseline([0.95, 0.05], n_sets=1000, n_items=1000, rng=seed)
    assert stack.shape == (1000, 2, 2) and np.all(stack.sum(axis=(-2, -1)) == 1000)
    found = E.agreement_stats(f1_of_averages(stack), macro_f1(stack))
    assert np.all(f1_of_averages(stack) > macro_f1(stack)), "every point lies above the diagonal"
    assert found["max_f1_of_averages"] == pytest.approx(PAPER["fig1a_max_f1_of_averages"], abs=0.05)
    assert found["max_averaged_f1"] == pytest.approx(PAPER["fig1a_max_averaged_f1"], abs=0.05)
    assert found["rmsd"] == pytest.approx(PAPER["fig1a_rmsd"], abs=0.03)
    assert found["pearson"] == pytest.approx(PAPER["fig1a_pearson"], abs=0.1)
    assert found["spearman"] == pytest.approx(PAPER["fig1a_spearman"], abs=0.1)
    assert 0 < found["discordant"] < 0.5


def test_expected_random_baseline_gap():
    """Expected 95/5 random baseline: P = prevalence, R = 1/2, gap 1/2 - mean F1 (by hand)."""
    m = 1000 * np.array([[0.475, 0.025], [0.475, 0.025]])
    f1_major = 2 * 0.95 * 0.5 / 1.45
    f1_minor = 2 * 0.05 * 0.5 / 0.55
    assert f1_of_averages(m) == pytest.approx(0.5)
    assert delta_f1(m) == pytest.approx(0.5 - (f1_major + f1_minor) / 2)


def test_discordant_share_by_hand():
    """Three items: a = (1, 2, 3), b = (3, 2, 1) disagree on all 3 pairs; a with itself on none."""
    assert E.discordant_share([1, 2, 3], [3, 2, 1]) == 1.0
    assert E.discordant_share([1, 2, 3], [1, 2, 3]) == 0.0
    assert E.discordant_share([1, 2, 3], [1, 3, 2]) == pytest.approx(1 / 3)


def test_all_binary_matrices_and_the_flip():
    """Every matrix with column sums (10, 20) is listed once; the strongest flip is a real flip."""
    every = E.all_binary_matrices((10, 20))
    assert every.shape == (11 * 21, 2, 2)
    assert np.all(every.sum(axis=-2) == [10, 20])
    assert len({m.tobytes() for m in every}) == len(every)
    assert any(np.array_equal(m, [[5, 10], [5, 10]]) for m in every)
    big, small = f1_of_averages(every), macro_f1(every)
    k, j = E.strongest_flip(big, small)
    assert big[k] > big[j] and small[j] > small[k]
    assert E.discordant_share(big, small) > 0.01
    with pytest.raises(ValueError, match="identically"):
        E.strongest_flip([1, 2], [1, 2])


def test_grid_building_blocks():
    """Skewed prevalence runs from uniform to i / sum(i); the classifier's columns sum to 1."""
    prev = E.skewed_prevalence(4, [0.0, 1.0])
    assert np.allclose(prev[0], 0.25) and np.allclose(prev[1], [0.1, 0.2, 0.3, 0.4])
    cond = E.accuracy_conditional(4, [0.25, 0.7, 1.0])
    assert np.allclose(cond.sum(axis=-2), 1.0)
    assert np.allclose(cond[1], 0.7 * np.eye(4) + 0.1 * (1 - np.eye(4)))
    m = E.sample_grid(prev[:, None], cond[None], 2000, rng=0)
    assert m.shape == (2, 3, 4, 4) and np.all(m.sum(axis=(-2, -1)) == 2000)


@pytest.mark.parametrize("n", [4, 13])
def test_figure_2_gap_is_about_two_points(n):
    """Accuracy/skew grid: gap up to about 2 points (paper), 0 at x = 1, tiny without skew."""
    xs, ys, d = E.accuracy_skew_grid(n, n_x=11, n_y=11, n_items=2000, reps=10, rng=n)
    assert d.shape == (11, 11) and xs[0] == pytest.approx(1 / n) and ys[-1] == 1
    assert 0.005 < d.max() < PAPER["fig2_max_delta"] + 0.015
    assert np.all(d[:, -1] == 0)
    assert d[0].max() < 0.005


def test_error_spread_classifier_by_hand():
    """Figure 3's classifier for n = 4, x = 1/2: at y = 1 true class 1 goes to class i with
    probability i (1 - x) / (10 - 1); at y = 0 the errors are even; columns sum to 1."""
    cond = E.error_spread_conditional(4, 0.5, np.array([0.0, 1.0]))
    assert np.allclose(cond.sum(axis=-2), 1.0)
    assert np.allclose(cond[0], 0.5 * np.eye(4) + 0.5 / 3 * (1 - np.eye(4)))
    assert np.allclose(cond[1][:, 0], [0.5, 2 / 18, 3 / 18, 4 / 18])
    assert np.allclose(cond[1][:, 3], [1 / 12, 2 / 12, 3 / 12, 0.5])  # 0.5 / (10 - 4) per number


@pytest.mark.parametrize(("n", "key"), [(4, "fig3_max_delta_4"), (13, "fig3_max_delta_13")])
def test_figure_3_gap_on_balanced_data(n, key):
    """Balanced data, uneven error spread: the largest mean gap is about the note's 0.8 (n = 4)
    and 1.7 (n = 13) percentage points; it sits at the most uneven spread (y = 1); with even
    errors (y = 0) the expected matrix has no gap at all."""
    xs, ys, d = E.accuracy_spread_grid(n, n_x=21, n_y=11, n_items=2000, reps=10, rng=n)
    assert d.shape == (11, 21) and xs[0] == pytest.approx(1 / n) and ys[-1] == 1
    assert 0.75 * PAPER[key] < d.max() < 1.25 * PAPER[key]
    assert np.unravel_index(d.argmax(), d.shape)[0] == len(ys) - 1
    assert np.all(d[:, -1] == 0)
    expected = E.error_spread_conditional(n, xs[None, :], ys[:, None]) / n
    assert np.abs(delta_f1(expected[0])).max() < 1e-15


def test_gap_grows_with_skew_for_random_classifiers():
    """Mean gap of a random classifier: about 0 on balanced data, largest for the 95/5 split."""
    deltas = E.delta_by_distribution(
        {"95/5": [0.95, 0.05], "80/20": [0.8, 0.2], "50/50": [0.5, 0.5]}, n_sets=300, rng=3
    )
    means = {k: float(v.mean()) for k, v in deltas.items()}
    assert means["95/5"] > means["80/20"] > means["50/50"]
    assert means["50/50"] < 0.005
