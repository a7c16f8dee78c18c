"""SemEval-2017 Task 4 scores (Opitz 2024, Table 6): data, consistency, ranking, winners, balance.

Tolerances: every published score is rounded to one decimal, so it stands for an
exact value within ±0.05. The consistency checks propagate that interval through
each (monotone) identity and allow the published output another ±0.05; two
rounded values compared in an inequality may violate it by up to 0.1.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from clfbook.sources.ranking import kendall_tau, rank, rank_correlation, spearman
from clfbook.sources.shared_task import (
    METRIC_COLUMNS,
    ScoreTable,
    consistency_checks,
    inequality_checks,
    load_semeval2017_task4,
    recall_spread,
    winners,
)

COLUMNS = (
    "official_rank citations acc macR macP macF1 macF1_prime weightF1 kappa mcc GmacR HmacR "
    "r1 r2 r3 cal_macF1 cal_macF1_prime cal_kappa cal_mcc"
).split()

#: Rows A, B, E and H of Table 6 as printed in the paper (independent transcription).
PAPER_ROWS = {
    "A": "1 555 65.1 68.1 65.5 65.4 66.8 64.5 46.5 48.0 66.8 65.4 82.9 51.2 70.2"
    " 67.7 68.2 52.1 52.6",
    "B": "1 271 65.8 68.1 67.4 66.0 67.8 65.1 47.3 49.2 66.5 65.0 87.8 51.4 65.2"
    " 67.7 68.7 52.2 53.1",
    "E": "5 23 66.4 66.9 65.4 66.0 66.1 66.4 47.0 47.0 66.8 66.8 69.8 64.0 66.8"
    " 67.3 67.5 50.3 50.5",
    "H": "8 30 64.3 64.5 63.1 63.7 63.8 64.4 43.6 43.6 64.5 64.5 65.3 63.6 64.5"
    " 64.9 65.2 46.7 47.0",
}


@pytest.fixture(scope="module")
def table():
    return load_semeval2017_task4()


def test_csv_shape_columns_and_source(table):
    """Eight systems A-H, the 19 published columns in order, and the source named in the header."""
    assert table.systems == tuple("ABCDEFGH")
    assert list(table.columns) == COLUMNS
    assert table.values.shape == (8, 19)
    assert "Opitz" in table.source and "Table 6" in table.source
    assert "Rosenthal" in table.source


@pytest.mark.parametrize("system", sorted(PAPER_ROWS))
def test_rows_match_the_paper(table, system):
    """Spot rows equal the paper's Table 6, number by number."""
    expected = [float(x) for x in PAPER_ROWS[system].split()]
    assert table.values[table.systems.index(system)].tolist() == expected


def test_text_recalls_of_e_and_b(table):
    """§7.1 text: E has R = (69.8, 64.0, 66.8), B has R = (87.8, 51.4, 65.2)."""
    assert table.columns_of(["r1", "r2", "r3"])[4].tolist() == [69.8, 64.0, 66.8]
    assert table.columns_of(["r1", "r2", "r3"])[1].tolist() == [87.8, 51.4, 65.2]


def test_recall_spread_e_and_b(table):
    """§7.1: max - min recall is 5.8 for E and 36.4 for B."""
    spread = dict(zip(table.systems, recall_spread(table), strict=True))
    assert spread["E"] == pytest.approx(5.8, abs=1e-9)
    assert spread["B"] == pytest.approx(36.4, abs=1e-9)


def test_consistency_checks_pass(table):
    """macR, GmacR, HmacR from r1..r3, Kappa∼ (eq. 16), macF1′ = H(macP, macR): within rounding."""
    checks = consistency_checks(table)
    assert [c.name for c in checks] == ["macR", "GmacR", "HmacR", "cal_kappa", "macF1_prime"]
    for c in checks:
        assert c.consistent.all(), f"{c.formula}: {c.deviation}"
        # point deviations stay within the widest possible rounding error for these inputs
        assert np.abs(c.deviation).max() <= 0.1


def test_consistency_checks_can_fail(table):
    """A macR off by 0.2 (more than rounding allows) is flagged, for that row only."""
    values = table.values.copy()
    values[2, table.columns.index("macR")] += 0.2
    broken = ScoreTable(table.systems, table.columns, values)
    macr = consistency_checks(broken)[0]
    assert macr.consistent.tolist() == [True, True, False, True, True, True, True, True]


def test_inequalities_hold(table):
    """HmacR <= GmacR <= macR, macF1 <= macF1′ (both), |MCC| >= |Kappa| (both), up to rounding."""
    for name, ok in inequality_checks(table).items():
        assert ok.all(), name


def test_winners_per_metric(table):
    """Best system(s) under each column, read off Table 6 (ties listed together)."""
    expected = {
        "acc": ("E",),
        "macR": ("A", "B"),
        "macP": ("B",),
        "macF1": ("B", "C", "E"),
        "macF1_prime": ("B",),
        "weightF1": ("E",),
        "kappa": ("B",),
        "mcc": ("B",),
        "GmacR": ("A", "C", "E"),
        "HmacR": ("E",),
        "r1": ("B",),
        "r2": ("E",),
        "r3": ("A",),
        "cal_macF1": ("A", "B"),
        "cal_macF1_prime": ("B",),
        "cal_kappa": ("B",),
        "cal_mcc": ("B",),
    }
    assert winners(table) == expected


def test_gmacr_tie_cannot_be_broken_from_the_published_recalls(table):
    """Chapter 12: A, C, E recomputed from one-decimal recalls spread by < 0.04 points,
    but rounding moves each by about 0.05, and the three rounding intervals overlap."""
    tied = ["A", "C", "E"]
    r = np.array([[table.row(s)[k] for k in ("r1", "r2", "r3")] for s in tied])
    recomputed = np.cbrt(r.prod(axis=1))
    low, high = np.cbrt((r - 0.05).prod(axis=1)), np.cbrt((r + 0.05).prod(axis=1))
    assert np.ptp(recomputed) < 0.04
    assert ((high - low) / 2 > np.ptp(recomputed)).all()
    assert low.max() < high.min()  # a value common to all three intervals
    gmacr = next(c for c in consistency_checks(table) if c.name == "GmacR")
    idx = [table.systems.index(s) for s in tied]
    np.testing.assert_allclose(gmacr.recomputed[idx], recomputed, rtol=1e-12)


def test_citations_a_little_more_than_double(table):
    """The paper says "almost double"; its Table 6 gives 555 and 271, a ratio above 2."""
    cites = dict(zip(table.systems, table.column("citations"), strict=True))
    assert (cites["A"], cites["B"]) == (555, 271)
    assert 2 < cites["A"] / cites["B"] < 2.1


def test_official_ranks_tie_a_and_b(table):
    """Both A and B were declared winners with macR; official ranks are 1, 1, 3, ..., 8."""
    assert table.column("official_rank").tolist() == [1, 1, 3, 4, 5, 6, 7, 8]
    assert rank(table.column("macR")).tolist()[:2] == [1.0, 1.0]


@pytest.mark.parametrize("ties", ["min", "average", "max", "dense"])
def test_rank_ties_match_scipy(ties):
    """Ranks with ties equal scipy.stats.rankdata of the negated scores, on heavily tied data."""
    x = np.random.default_rng(5).integers(0, 6, size=(30, 4)).astype(float)
    expected = np.stack([stats.rankdata(-x[:, k], method=ties) for k in range(4)], axis=1)
    np.testing.assert_array_equal(rank(x, ties=ties), expected)


def test_rank_small_tie_example():
    """Hand example: (68.1, 68.1, 67.6) ranks (1, 1, 3), (1.5, 1.5, 3), (2, 2, 3), (1, 1, 2)."""
    x = [68.1, 68.1, 67.6]
    assert rank(x).tolist() == [1, 1, 3]
    assert rank(x, ties="average").tolist() == [1.5, 1.5, 3]
    assert rank(x, ties="max").tolist() == [2, 2, 3]
    assert rank(x, ties="dense").tolist() == [1, 1, 2]


def test_rank_bad_input():
    """NaN scores and unknown tie rules raise ValueError."""
    with pytest.raises(ValueError, match="NaN"):
        rank([1.0, np.nan])
    with pytest.raises(ValueError, match="ties"):
        rank([1.0, 2.0], ties="first")


def test_rank_correlations_match_scipy(table):
    """Spearman's rho and Kendall's tau-b over the 17 metric columns equal scipy's."""
    scores = table.columns_of(METRIC_COLUMNS)
    np.testing.assert_allclose(rank_correlation(scores), stats.spearmanr(scores).statistic)
    i, j = METRIC_COLUMNS.index("acc"), METRIC_COLUMNS.index("r2")
    assert kendall_tau(scores[:, i], scores[:, j]) == pytest.approx(
        stats.kendalltau(scores[:, i], scores[:, j]).statistic
    )
    assert spearman(scores[:, i], scores[:, j]) == pytest.approx(
        stats.spearmanr(scores[:, i], scores[:, j]).statistic
    )


def test_rounding_breaks_exact_rank_agreement(table):
    """Kappa∼ increases with macR (eq. 16): rho = 1 vs mean(r1..r3), < 1 vs the rounded macR."""
    cal_kappa = table.column("cal_kappa")
    mean_r = table.columns_of(["r1", "r2", "r3"]).mean(axis=1)
    assert spearman(mean_r, cal_kappa) == pytest.approx(1.0)
    assert spearman(table.column("macR"), cal_kappa) < 1.0 - 1e-6


def test_constant_column_has_undefined_correlation():
    """A ranking in which all systems tie has no rank correlation (NaN), without warnings."""
    rho = rank_correlation(np.array([[1.0, 2.0], [1.0, 3.0], [1.0, 1.0]]))
    assert np.isnan(rho[0, 1]) and rho[1, 1] == pytest.approx(1.0)


def test_figures_have_labelled_axes(table):
    """The heat map and the recall dot plot return figures with both axes labelled."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from clfbook.plots.shared_task import rank_correlation_heatmap, recall_dot_plot

    scores = table.columns_of(METRIC_COLUMNS)
    for fig in (
        rank_correlation_heatmap(rank_correlation(scores), list(METRIC_COLUMNS)),
        recall_dot_plot(table),
    ):
        ax = fig.axes[0]
        assert ax.get_xlabel() and ax.get_ylabel()
        plt.close(fig)
    with pytest.raises(ValueError, match="shape"):
        rank_correlation_heatmap(np.eye(2), ["a", "b", "c"])
