"""The simulated coverage table of the ROC AUC intervals, how it is read, and the flag.

The table (``AUC_COVERAGE``) is written by ``python -m clfbook.tooling.auc_coverage_table``;
these tests rerun one of its rows with other seeds (a few seconds) and one of its cells by the
script's own code path (its numbers to the last digit), check that the file is what the script
writes, and check the reading and the report's flag against it.
"""

from __future__ import annotations

import math
import pathlib
from statistics import NormalDist

import numpy as np
import pytest

import clfmetrics as cm
from clfbook.tooling import auc_coverage_table as script
from clfmetrics import (
    AP_COVERAGE,
    AUC_COVERAGE,
    COVERAGE_FLAG,
    SMALL_CLASS_COVERAGE,
    SMALL_CLASS_STUDY,
    auc_coverage,
    auc_method_for,
    expected_coverage,
    small_class_warning,
)
from clfmetrics.inference import _auc_coverage_table as table

METHODS = ("percentile", "bca", "delong", "delong-logit", "newcombe")


def test_a_row_of_the_table_is_reproduced_by_a_fresh_simulation():
    """30 positives, 25 times as many negatives, AUC 0.96: each method, with other seeds,
    lands within three standard errors of the stored share (both simulations' errors)."""
    cell, sets = (30, 25, 0.96), {"percentile": 300, "bca": 300}
    for k, method in enumerate(METHODS):
        stored, *_, stored_sets = AUC_COVERAGE[(*cell, method)]
        n = sets.get(method, 2000)  # the intervals without resampling cost almost nothing
        rerun = auc_coverage(30, 750, 0.96, methods=(method,), sets=n, rng=[77, k])[method]
        se = math.sqrt(stored * (1 - stored) * (1 / n + 1 / stored_sets))
        assert abs(rerun - stored) < 3 * se, (method, rerun, stored)


def test_a_cell_of_the_table_is_what_the_scripts_code_computes_today():
    """The script's own simulation of a cell (the smallest: 10 positives, as many negatives,
    AUC 0.96), seeded as the script seeds it, gives the stored row to its last digit: the
    table was written by the procedure the library ships now, not by an older draw."""
    cell = (10, 1, 0.96)
    found = script.simulate_cell(*cell)
    assert set(found) == set(METHODS)
    for method, row in found.items():
        stored = AUC_COVERAGE[(*cell, method)]
        again = tuple(round(row[k], 4) for k in ("cover", "above", "below", "width"))
        assert again == stored[:4], (method, again, stored)


def test_the_table_is_what_the_script_writes():
    """Every cell of the script's grid is there, and the file is the script's text of it."""
    assert (table.SMALL, table.RATIOS, table.AUCS, table.METHODS, table.SEED) == (
        script.SMALL,
        script.RATIOS,
        script.AUCS,
        script.METHODS,
        script.SEED,
    )
    grid = {(s, r, a) for s in script.SMALL for r in script.RATIOS for a in script.AUCS}
    assert {key[:3] for key in AUC_COVERAGE} == grid and len(AUC_COVERAGE) == 5 * len(grid)
    cells = [
        (
            cell,
            {
                m: dict(
                    zip(
                        ("cover", "above", "below", "width"),
                        AUC_COVERAGE[(*cell, m)][:4],
                        strict=True,
                    )
                )
                for m in METHODS
            },
        )
        for cell in grid
    ]
    ap = [
        (cell, {m: AP_COVERAGE[(*cell, m)] for m in script.AP_METHODS}) for cell in script.AP_GRID
    ]
    written = pathlib.Path(table.__file__).read_text(encoding="utf-8").splitlines()
    again = script._module(cells, ap, 0).splitlines()
    assert [w for w in written if "minutes" not in w] == [w for w in again if "minutes" not in w]
    for (small, ratio, auc, method), (cover, above, below, width, n) in AUC_COVERAGE.items():
        assert abs(cover + above + below - 1) < 2e-4 and width > 0
        assert n == script.sets_of(small, ratio, auc, method)


def test_the_table_is_read_from_the_side_of_lower_coverage():
    cell = AUC_COVERAGE[(14, 25, 0.96, "percentile")][0]
    assert expected_coverage(14, 290, 0.96) == cell  # 290 / 14 rounds up to 25
    assert expected_coverage(15, 290, 0.955, "percentile") == cell  # 15 down to 14, 0.955 up
    assert expected_coverage(290, 14, 0.04) == cell  # either class small, either end
    assert expected_coverage(14, 10**6, 0.96) == AUC_COVERAGE[(14, 100, 0.96, "percentile")][0]
    assert expected_coverage(9, 290, 0.9) is None and expected_coverage(30, 290, 0.995) is None
    assert expected_coverage(30, 290, 0.96, "no such method") is None
    assert SMALL_CLASS_COVERAGE == {m: AUC_COVERAGE[(14, 25, 0.96, m)][0] for m in METHODS}
    assert SMALL_CLASS_STUDY["n_neg"] == 350


def test_the_flag_fires_at_thirty_positives_and_an_auc_of_096():
    flag = small_class_warning("8", 30, 290, 0.96, "percentile", 0.95)
    cover, above = AUC_COVERAGE[(30, 25, 0.96, "percentile")][:2]
    assert cover < COVERAGE_FLAG
    assert f"covered the true AUC only {cover:.2f}" in flag and f"above it {above:.2f}" in flag
    assert "30 items of the smaller class" in flag and "lower end" in flag
    assert small_class_warning("8", 30, 290, 0.96, "bca", 0.95) is not None
    # where the table finds the method short, the flag names the one it finds best
    best = auc_method_for(30, 290, 0.96)
    assert best != "percentile" and f"method={best!r}" in flag


def test_the_flag_is_silent_where_the_table_finds_the_method_good():
    good = [key for key, row in AUC_COVERAGE.items() if row[0] >= COVERAGE_FLAG]
    small, ratio, auc, method = good[0]
    assert small_class_warning("a", small, small * ratio, auc, method, 0.95) is None
    assert small_class_warning("a", 5, 290, 0.9, "percentile", 0.95).count("outside") == 1


def test_the_best_method_is_the_narrowest_that_covers_or_else_the_one_that_covers_most():
    for small, ratio, auc in {key[:3] for key in AUC_COVERAGE}:
        rows = {m: AUC_COVERAGE[(small, ratio, auc, m)] for m in METHODS}
        best = auc_method_for(small, small * ratio, auc)
        covering = {m for m, row in rows.items() if row[0] >= COVERAGE_FLAG}
        if covering:
            assert best in covering
            assert rows[best][3] == min(rows[m][3] for m in covering)
        else:
            assert rows[best][0] == max(row[0] for row in rows.values())


def test_the_misses_at_a_small_class_are_one_sided():
    """At 14 positives and AUC 0.96 the percentile, BCa and DeLong intervals miss mostly
    from above: wholly above the true AUC far more often than wholly below it."""
    for method in ("percentile", "bca", "delong"):
        cover, above, below, _, _ = AUC_COVERAGE[(14, 25, 0.96, method)]
        assert cover < COVERAGE_FLAG and above > 4 * below


def test_the_reports_ap_method_covers_better_at_a_small_class():
    assert AP_COVERAGE[(14, 25, 0.96, "bca")] > AP_COVERAGE[(14, 25, 0.96, "percentile")]


def _binormal(n_pos, n_neg, auc, seed):
    rng = np.random.default_rng(seed)
    y = np.r_[np.ones(n_pos, int), np.zeros(n_neg, int)]
    s = rng.normal(math.sqrt(2) * NormalDist().inv_cdf(auc) * y)
    return y, s


def test_the_report_gives_the_tables_better_interval_at_thirty_positives():
    y, s = _binormal(30, 290, 0.96, 5)
    p = 1 / (1 + np.exp(-s))
    auto = cm.report(y, (p >= 0.5).astype(int), scores=p, size=300, rng=0)
    auc, _ = auto.scores.ranking[1]
    best = auc_method_for(30, 290, auc.estimate)
    assert auc.method == best != "percentile"
    if best not in ("percentile", "bca"):  # no resampling: the same interval as the call's
        assert auc == cm.auc_interval(y, p, method=best)
    flags = [w for w in auto.warnings if "items of the smaller class" in w]
    assert len(flags) == 1 and f"gives {best}'s interval, not the percentile one" in flags[0]
    fixed = cm.report(y, (p >= 0.5).astype(int), scores=p, size=300, rng=0, auc_method="percentile")
    (flag,) = [w for w in fixed.warnings if "items of the smaller class" in w]
    assert "covered the true AUC only" in flag


@pytest.mark.parametrize("method", METHODS)
def test_coverage_with_detail_splits_the_misses(method):
    out = auc_coverage(20, 60, 0.9, methods=(method,), sets=40, size=200, rng=1, detail=True)
    row = out[method]
    assert row["cover"] + row["above"] + row["below"] == pytest.approx(1)
    assert row["width"] > 0
    plain = auc_coverage(20, 60, 0.9, methods=(method,), sets=40, size=200, rng=1)
    assert plain[method] == row["cover"]


def test_the_cell_of_a_large_balanced_set_is_the_balanced_one():
    # Rounded from the side of lower coverage by the set's own ratio, not by the ratio of
    # its larger class to the rounded-down smaller one.
    cell = AUC_COVERAGE[(100, 1, 0.9, "percentile")][0]
    assert expected_coverage(10_000, 10_000, 0.9) == cell
    assert expected_coverage(500, 2_400, 0.9) == AUC_COVERAGE[(100, 5, 0.9, "percentile")][0]
