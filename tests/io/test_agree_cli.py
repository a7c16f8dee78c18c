"""``python -m clfmetrics agree``: agreement of raters as a practitioner's file holds them.

The file is messy the usual ways (a byte-order mark, ``;`` as delimiter, blank and ``NA``
cells for ratings not given, a label with whitespace around it); the numbers printed equal
the library's functions called on the same items, and scikit-learn's ``cohen_kappa_score``,
statsmodels' ``fleiss_kappa`` and the ``krippendorff`` package where they apply. Every bad
input is one line on stderr and exit status 2.
"""

from __future__ import annotations

import csv
import io
import warnings

import krippendorff
import numpy as np
import pytest
from messy_csv import cli_json, messy_csv, missing_cell, run_cli
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats.inter_rater import cohens_kappa
from statsmodels.stats.inter_rater import fleiss_kappa as sm_fleiss_kappa

import clfmetrics as cm


def _ratings(items=80, seed=3):
    """Three raters on an ordinal 1..4 scale; some ratings not given."""
    rng = np.random.default_rng(seed)
    truth = rng.choice([1, 2, 3, 4], size=items, p=[0.1, 0.3, 0.4, 0.2])
    out = []
    for accuracy in (0.8, 0.7, 0.6):
        r = np.where(rng.random(items) < accuracy, truth, rng.integers(1, 5, size=items))
        out.append(r.astype(float))
    out = np.array(out)
    out[0, ::9] = np.nan  # ann skipped some items
    out[2, 4::7] = np.nan  # so did the judge
    out[1, 0] = np.nan  # item 0 has one rating (bob's and ann's are missing)
    return out


def _messy_file(tmp_path, ratings, name="ratings.csv"):
    """UTF-8 with BOM, ';'-delimited, blank and NA cells, CRLF line ends."""
    rows = [
        [str(i)]
        + [
            missing_cell(i + r) if np.isnan(v) else str(int(v))
            for r, v in enumerate(ratings[:3, i])
        ]
        for i in range(ratings.shape[1])
    ]
    return messy_csv(tmp_path / name, ["item", "ann", "bob", "judge"], rows)


def _matrix(a, b, categories):
    both = ~np.isnan(a) & ~np.isnan(b)
    index = {c: k for k, c in enumerate(categories)}
    m = np.zeros((len(categories), len(categories)), dtype=int)
    for x, y in zip(a[both], b[both], strict=True):
        m[index[x], index[y]] += 1
    return m, a[both], b[both]


def test_two_raters_equal_the_library_and_scikit_learn(tmp_path, capsys):
    ratings = _ratings()
    path = _messy_file(tmp_path, ratings)
    out = cli_json(capsys, ["agree", path, "--rater", "ann", "--rater", "bob", "--size", 500])
    m, a, b = _matrix(ratings[0], ratings[1], [1.0, 2.0, 3.0, 4.0])
    assert out["cross_table"]["counts"] == m.tolist()
    assert out["categories"] == ["1", "2", "3", "4"]
    coefficients = out["coefficients"]
    assert list(coefficients) == ["kappa", "scott_pi", "pabak", "gwet_ac1"]
    assert coefficients["kappa"]["estimate"] == pytest.approx(cohen_kappa_score(a, b), abs=1e-12)
    for name, got in coefficients.items():
        direct = cm.agreement_interval(name, m, size=500, rng=0)
        assert (got["estimate"], got["low"], got["high"]) == pytest.approx(
            (direct.estimate, direct.low, direct.high), abs=1e-12
        )
        assert got["items"] == m.sum() < 80  # items with one rating are left out
        assert got["low"] < got["estimate"] < got["high"]
    assert coefficients["scott_pi"]["estimate"] == pytest.approx(cm.scott_pi(m), abs=1e-12)
    assert coefficients["pabak"]["estimate"] == pytest.approx(cm.pabak(m), abs=1e-12)
    assert coefficients["gwet_ac1"]["estimate"] == pytest.approx(cm.gwet_ac1(m), abs=1e-12)
    left = int((np.isnan(ratings[0]) != np.isnan(ratings[1])).sum())  # neither: no item
    assert any(f"{left} items with one rating left out" in n for n in out["notes"])
    assert any("percentile bootstrap of the items" in n for n in out["notes"])
    assert out["method"] == "percentile"  # the default, as before --method
    assert all(c["method"] == "percentile" and c["fallback"] is None for c in coefficients.values())


@pytest.mark.parametrize("weights", ["linear", "quadratic"])
def test_weighted_kappa_equals_scikit_learn(tmp_path, capsys, weights):
    ratings = _ratings()
    path = _messy_file(tmp_path, ratings)
    argv = ["agree", path, "--rater", "bob", "--rater", "judge", "--weights", weights]
    out = cli_json(capsys, [*argv, "--size", 300, "--seed", 7])
    m, a, b = _matrix(ratings[1], ratings[2], [1.0, 2.0, 3.0, 4.0])
    got = out["coefficients"]["weighted_kappa"]
    assert got["estimate"] == pytest.approx(cohen_kappa_score(a, b, weights=weights), abs=1e-12)
    direct = cm.agreement_interval("weighted_kappa", m, weights=weights, size=300, rng=7)
    assert (got["low"], got["high"]) == pytest.approx((direct.low, direct.high), abs=1e-12)
    ac2 = out["coefficients"]["gwet_ac1"]["estimate"]
    assert ac2 == pytest.approx(cm.gwet_ac1(m, weights=weights), abs=1e-12)
    assert ac2 != pytest.approx(cm.gwet_ac1(m))  # the weights reach AC2
    _, text, _ = run_cli(capsys, argv)
    assert f"Cohen's weighted kappa ({weights})" in text and f"Gwet's AC2 ({weights})" in text


def test_three_raters_equal_statsmodels_and_krippendorff(tmp_path, capsys):
    ratings = _ratings()
    path = _messy_file(tmp_path, ratings)
    argv = ["agree", path, "--rater", "ann", "--rater", "bob", "--rater", "judge"]
    out = cli_json(capsys, [*argv, "--size", 400])
    complete = ~np.isnan(ratings).any(axis=0)
    table = np.stack([(ratings[:, complete] == c).sum(axis=0) for c in (1, 2, 3, 4)], axis=1)
    fleiss = out["coefficients"]["fleiss_kappa"]
    assert fleiss["estimate"] == pytest.approx(sm_fleiss_kappa(table), abs=1e-12)
    assert fleiss["items"] == complete.sum() < 80
    direct = cm.agreement_interval("fleiss_kappa", table, size=400, rng=0)
    assert (fleiss["low"], fleiss["high"]) == pytest.approx((direct.low, direct.high), abs=1e-12)
    alpha = out["coefficients"]["krippendorff_alpha"]
    reference = krippendorff.alpha(ratings, level_of_measurement="nominal")
    assert alpha["estimate"] == pytest.approx(reference, abs=1e-12)
    pairable = (~np.isnan(ratings)).sum(axis=0) >= 2  # the resamples draw the items alpha uses
    direct = cm.agreement_interval("krippendorff_alpha", ratings[:, pairable], size=400, rng=0)
    assert (alpha["low"], alpha["high"]) == pytest.approx((direct.low, direct.high), abs=1e-10)
    assert alpha["items"] == pairable.sum() < 80
    pairs = [(t["rows"], t["columns"]) for t in out["cross_tables"]]
    assert pairs == [("ann", "bob"), ("ann", "judge"), ("bob", "judge")]
    for table, (i, j) in zip(out["cross_tables"], [(0, 1), (0, 2), (1, 2)], strict=True):
        assert table["counts"] == _matrix(ratings[i], ratings[j], [1, 2, 3, 4])[0].tolist()
    notes = " ".join(out["notes"])
    assert f"the {complete.sum()} items all rated, of 80" in notes
    alone = int(((~np.isnan(ratings)).sum(axis=0) < 2).sum())
    assert alone >= 2 and f"{alone} items with fewer than two ratings drop out" in notes
    # blank and NA cells are ratings not given, not categories, and not warned about
    assert out["categories"] == ["1", "2", "3", "4"] and "holds numbers" not in notes


THREE = ["ann", "bob", "judge"]


def _agree(path, raters, *extra):
    """The argv of ``agree`` on ``raters``' columns of ``path``."""
    return ["agree", path, *(x for r in raters for x in ("--rater", r)), *extra]


@pytest.mark.parametrize("weights", [None, "quadratic"])
def test_analytic_intervals_of_two_raters_equal_the_library(tmp_path, capsys, weights):
    ratings = _ratings()
    path = _messy_file(tmp_path, ratings)
    argv = ["agree", path, "--rater", "ann", "--rater", "bob", "--method", "analytic"]
    out = cli_json(capsys, argv + (["--weights", weights] if weights else []))
    m, _, _ = _matrix(ratings[0], ratings[1], [1.0, 2.0, 3.0, 4.0])
    first = "weighted_kappa" if weights else "kappa"
    assert list(out["coefficients"]) == [first, "scott_pi", "pabak", "gwet_ac1"]
    assert out["method"] == "analytic" and out["size"] is None and out["seed"] is None
    for name, got in out["coefficients"].items():
        takes = {"weights": weights} if weights and name in (first, "gwet_ac1") else {}
        direct = cm.agreement_interval(name, m, method="analytic", **takes)
        assert (got["estimate"], got["low"], got["high"]) == pytest.approx(
            (direct.estimate, direct.low, direct.high), abs=1e-12
        )
        assert got["method"] == direct.method and got["method"].startswith("analytic (")
        assert got["fallback"] is None and got["items"] == m.sum()
    # statsmodels' asymptotic interval of (weighted) kappa: estimate +- z se, unclipped here
    want = cohens_kappa(m, wt=weights)
    kappa = out["coefficients"][first]
    assert (kappa["low"], kappa["high"]) == pytest.approx((want.kappa_low, want.kappa_upp), 1e-10)
    assert any("each interval is analytic" in n for n in out["notes"])
    assert not any("bootstrap" in n for n in out["notes"])


def test_analytic_fleiss_kappa_and_the_fallback_of_alpha(tmp_path, capsys):
    ratings = _ratings()
    path = _messy_file(tmp_path, ratings)
    out = cli_json(capsys, _agree(path, THREE, "--method", "analytic", "--size", 300, "--seed", 5))
    complete = ~np.isnan(ratings).any(axis=0)
    table = np.stack([(ratings[:, complete] == c).sum(axis=0) for c in (1, 2, 3, 4)], axis=1)
    fleiss = out["coefficients"]["fleiss_kappa"]
    direct = cm.agreement_interval("fleiss_kappa", table, method="analytic")
    assert (fleiss["estimate"], fleiss["low"], fleiss["high"]) == pytest.approx(
        (direct.estimate, direct.low, direct.high), abs=1e-12
    )
    assert fleiss["method"] == "analytic (Gwet 2008)" and fleiss["fallback"] is None
    # alpha has no standard analytic variance: the percentile bootstrap, said so
    alpha = out["coefficients"]["krippendorff_alpha"]
    pairable = (~np.isnan(ratings)).sum(axis=0) >= 2
    direct = cm.agreement_interval("krippendorff_alpha", ratings[:, pairable], size=300, rng=5)
    assert (alpha["low"], alpha["high"]) == pytest.approx((direct.low, direct.high), abs=1e-10)
    assert alpha["method"] == "percentile"
    assert "Krippendorff's alpha has no standard analytic variance" in alpha["fallback"]
    assert alpha["fallback"] in out["notes"]
    notes = " ".join(out["notes"])
    assert "Krippendorff's alpha's interval is the percentile bootstrap" in notes
    assert "each interval but Krippendorff's alpha's is analytic" in notes
    _, text, _ = run_cli(
        capsys, _agree(path, THREE, "--method", "analytic", "--size", 300, "--seed", 5)
    )
    assert "analytic; Krippendorff's alpha's: percentile bootstrap, 300 resamples, seed 5" in text
    assert "percentile bootstrap (no analytic variance)" in text


def test_alpha_alone_with_analytic_says_it_is_the_bootstrap(tmp_path, capsys):
    path = tmp_path / "sparse.csv"
    path.write_text("a,b,c\n" + "x,y,\n,y,x\nx,,x\ny,y,\n" * 10)  # no item rated by all
    argv = ["agree", path, "--rater", "a", "--rater", "b", "--rater", "c", "--size", 100]
    out = cli_json(capsys, [*argv, "--method", "analytic"])
    assert list(out["coefficients"]) == ["krippendorff_alpha"]
    assert out["coefficients"]["krippendorff_alpha"]["method"] == "percentile"
    assert not any("is analytic" in n for n in out["notes"])
    same = cli_json(capsys, argv)["coefficients"]["krippendorff_alpha"]
    assert {**same, "fallback": None} == {**out["coefficients"]["krippendorff_alpha"],
                                          "fallback": None}  # fmt: skip
    _, text, _ = run_cli(capsys, [*argv, "--method", "analytic"])
    assert "no analytic variance: percentile bootstrap, 100 resamples" in text


def test_an_undefined_analytic_se_prints_undefined_without_a_warning(tmp_path, capsys):
    path = tmp_path / "one.csv"
    path.write_text("a,b\nx,y\n")  # one item: Gwet's se divides by N (N - 1) = 0
    argv = ["agree", path, "--rater", "a", "--rater", "b", "--method", "analytic"]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        status, text, err = run_cli(capsys, argv)
    assert status == 0 and err == ""
    assert not [w for w in caught if issubclass(w.category, RuntimeWarning)]  # numpy's 0/0
    line = next(r for r in text.splitlines() if r.startswith("Gwet's AC1"))
    assert line.split()[3:5] == ["undefined", "undefined"]
    ac1 = cli_json(capsys, argv)["coefficients"]["gwet_ac1"]
    assert ac1["low"] is None and ac1["high"] is None and ac1["estimate"] == -1.0


@pytest.mark.parametrize("raters", [2, 3])
def test_bca_intervals_equal_the_library(tmp_path, capsys, raters):
    ratings = _ratings()
    path = _messy_file(tmp_path, ratings)
    names = THREE[:raters]
    out = cli_json(capsys, _agree(path, names, "--method", "bca", "--size", 400, "--seed", 2))
    assert out["method"] == "bca"
    if raters == 2:
        m, _, _ = _matrix(ratings[0], ratings[1], [1.0, 2.0, 3.0, 4.0])
        data = dict.fromkeys(["kappa", "scott_pi", "pabak", "gwet_ac1"], m)
    else:
        complete = ~np.isnan(ratings).any(axis=0)
        pairable = (~np.isnan(ratings)).sum(axis=0) >= 2
        data = {
            "fleiss_kappa": np.stack(
                [(ratings[:, complete] == c).sum(axis=0) for c in (1, 2, 3, 4)], axis=1
            ),
            "krippendorff_alpha": ratings[:, pairable],
        }
    assert list(out["coefficients"]) == list(data)
    moved = []
    for name, got in out["coefficients"].items():
        direct = cm.agreement_interval(name, data[name], method="bca", size=400, rng=2)
        assert (got["estimate"], got["low"], got["high"]) == pytest.approx(
            (direct.estimate, direct.low, direct.high), abs=1e-10
        )
        assert got["method"] == "bca" and got["fallback"] is None
        percentile = cm.agreement_interval(name, data[name], size=400, rng=2)
        moved.append((got["low"], got["high"]) != pytest.approx((percentile.low, percentile.high)))
    assert sum(moved) >= len(moved) - 1  # PABAK's few values may leave its ends where they were
    assert any("each interval is the BCa bootstrap" in n for n in out["notes"])


def test_every_format_names_each_coefficients_method(tmp_path, capsys):
    path = _messy_file(tmp_path, _ratings())
    argv = _agree(path, THREE, "--method", "analytic", "--size", 200)
    data = cli_json(capsys, argv)
    assert data["coefficients"]["fleiss_kappa"]["method"] == "analytic (Gwet 2008)"
    assert data["coefficients"]["krippendorff_alpha"]["method"] == "percentile"
    shown = {
        "Fleiss' kappa": "analytic (Gwet 2008)",
        "Krippendorff's alpha (nominal)": "percentile bootstrap (no analytic variance)",
    }
    fallback = data["coefficients"]["krippendorff_alpha"]["fallback"]
    _, text, _ = run_cli(capsys, argv)
    for name, method in shown.items():
        line = next(row for row in text.splitlines() if row.startswith(name))
        assert line.endswith(method)
    assert " ".join(fallback.split()[:6]) in text
    _, md, _ = run_cli(capsys, [*argv, "--format", "markdown"])
    for name, method in shown.items():
        row = next(r for r in md.splitlines() if r.startswith(f"| {name} |"))
        assert row.endswith(f"| {method} |")
    assert fallback in md
    _, long, _ = run_cli(capsys, [*argv, "--format", "csv"])
    rows = list(csv.DictReader(io.StringIO(long)))
    cell = {(r["section"], r["row"], r["column"]): r["value"] for r in rows}
    for name, method in shown.items():
        assert cell["Coefficients", name, "method"] == method
    assert fallback in [r["value"] for r in rows if r["column"] == "note"]
    _, page, _ = run_cli(capsys, [*argv, "--format", "html"])
    assert "<td>analytic (Gwet 2008)</td>" in page
    assert "<td>percentile bootstrap (no analytic variance)</td>" in page
    assert "has no standard analytic variance" in page
    two = ["agree", path, "--rater", "ann", "--rater", "bob", "--method", "analytic"]
    _, page, _ = run_cli(capsys, [*two, "--format", "html"])
    assert "<td>analytic (Fleiss, Cohen &amp; Everitt 1969)</td>" in page
    _, long, _ = run_cli(capsys, [*two, "--format", "csv"])
    cell = {(r["section"], r["row"], r["column"]): r["value"]
            for r in csv.DictReader(io.StringIO(long))}  # fmt: skip
    assert cell["Coefficients", "PABAK", "method"] == (
        "analytic (Clopper-Pearson of the observed agreement)"
    )
    _, long, _ = run_cli(capsys, [*two[:-1], "bca", "--format", "csv", "--size", 100])
    cell = {(r["section"], r["row"], r["column"]): r["value"]
            for r in csv.DictReader(io.StringIO(long))}  # fmt: skip
    assert cell["Coefficients", "Scott's pi", "method"] == "BCa bootstrap"


def test_interval_alpha_takes_decimal_categories(tmp_path, capsys):
    path = tmp_path / "scores.csv"
    rows = [("0.5", "1.5", "1.5"), ("10.5", "10.5", ""), ("1.5", "1.5", "0.5"), ("10.5", "", "2.5")]
    path.write_text("a,b,c\n" + "".join(",".join(r) + "\n" for r in rows * 8))
    argv = ["agree", path, "--rater", "a", "--rater", "b", "--rater", "c"]
    out = cli_json(capsys, [*argv, "--measurement", "interval", "--size", 100])
    values = np.array([[float(x) if x else np.nan for x in r] for r in rows * 8]).T
    reference = krippendorff.alpha(values, level_of_measurement="interval")
    assert out["coefficients"]["krippendorff_alpha"]["estimate"] == pytest.approx(reference)
    assert out["categories"] == ["0.5", "1.5", "2.5", "10.5"]  # by value, as written
    ordinal = cli_json(capsys, [*argv, "--measurement", "ordinal", "--size", 100])
    reference = krippendorff.alpha(values, level_of_measurement="ordinal")
    assert ordinal["coefficients"]["krippendorff_alpha"]["estimate"] == pytest.approx(reference)


@pytest.mark.parametrize("level", ["ordinal", "interval"])
def test_krippendorff_levels_equal_the_package(tmp_path, capsys, level):
    ratings = _ratings()
    path = _messy_file(tmp_path, ratings)
    argv = ["agree", path, "--rater", "ann", "--rater", "bob", "--rater", "judge"]
    out = cli_json(capsys, [*argv, "--measurement", level, "--size", 200])
    got = out["coefficients"]["krippendorff_alpha"]["estimate"]
    assert got == pytest.approx(krippendorff.alpha(ratings, level_of_measurement=level), 1e-10)


def test_every_format_holds_the_same_numbers(tmp_path, capsys):
    path = _messy_file(tmp_path, _ratings())
    argv = ["agree", path, "--rater", "ann", "--rater", "bob", "--size", 200]
    data = cli_json(capsys, argv)
    kappa = data["coefficients"]["kappa"]
    shown = [f"{kappa[k]:.3f}" for k in ("estimate", "low", "high")]
    _, text, _ = run_cli(capsys, argv)
    assert "Cohen's kappa" in text and all(s in text for s in shown)
    assert "Cross-table (rows = ann, columns = bob)" in text
    _, md, _ = run_cli(capsys, [*argv, "--format", "markdown"])
    assert f"| Cohen's kappa | {shown[0]} | {shown[1]} | {shown[2]} |" in md
    _, long, _ = run_cli(capsys, [*argv, "--format", "csv"])
    rows = list(csv.DictReader(io.StringIO(long)))
    cell = {(r["section"], r["row"], r["column"]): r["value"] for r in rows}
    assert [cell["Coefficients", "Cohen's kappa", k] for k in ("estimate", "low", "high")] == shown
    m = data["cross_table"]["counts"]
    assert cell["Cross-table", "1", "2"] == str(m[0][1])
    target = tmp_path / "out.md"
    status, out, err = run_cli(capsys, [*argv, "--format", "markdown", "--output", target])
    assert status == 0 and out == "" and str(target) in err
    assert target.read_text(encoding="utf-8") == md
    _, page, _ = run_cli(capsys, [*argv, "--format", "html"])
    assert page.startswith("<!DOCTYPE html>") and "Content-Security-Policy" in page
    assert f'<th scope="row">Cohen&#x27;s kappa</th><td>{shown[0]}</td>' in page
    assert "<script" not in page and "src=" not in page


def test_html_escapes_the_raters_and_their_labels(tmp_path, capsys):
    path = tmp_path / "tags.csv"
    path.write_text(
        '"<i>ann</i>",bob & co\n' + '"<b>yes</b>",no\nno,no\n"<b>yes</b>","<b>yes</b>"\n' * 5
    )
    argv = ["agree", path, "--rater", "<i>ann</i>", "--rater", "bob & co", "--size", 50]
    status, page, err = run_cli(capsys, [*argv, "--format", "html"])
    assert status == 0, err
    assert "<b>" not in page and "<i>" not in page
    assert "&lt;b&gt;yes&lt;/b&gt;" in page and "&lt;i&gt;ann&lt;/i&gt;" in page
    assert "bob &amp; co" in page


def test_few_items_carry_the_simulations_warning(tmp_path, capsys):
    path = tmp_path / "few.csv"
    path.write_text("a,b\n" + "yes,yes\nno,no\nyes,no\nno,no\n" * 5)
    out = cli_json(capsys, ["agree", path, "--rater", "a", "--rater", "b", "--size", 200])
    for entry in out["coefficients"].values():
        assert "rests on 20 items (fewer than 30)" in entry["warning"]
    assert sum("rests on 20 items" in n for n in out["notes"]) == 4
    argv = ["agree", path, "--rater", "a", "--rater", "b"]
    analytic = cli_json(capsys, [*argv, "--method", "analytic"])
    for name, entry in analytic["coefficients"].items():
        if name == "pabak":  # its exact interval covers at least its level at any size
            assert entry["warning"] is None
        else:
            assert "nominal 95 % analytic intervals" in entry["warning"]
            assert entry["warning"] in analytic["notes"]
    bca = cli_json(capsys, [*argv, "--method", "bca", "--size", 200])
    for entry in bca["coefficients"].values():
        assert "nominal 95 % bca intervals" in entry["warning"]
        assert entry["warning"] in bca["notes"]


def test_strip_labels_merges_whitespace_and_decides_the_categories(tmp_path, capsys):
    path = tmp_path / "ws.csv"
    path.write_text("a,b\n" + '"yes ",yes\nyes,yes\nno,no\n" no",yes\n' * 10)
    argv = ["agree", path, "--rater", "a", "--rater", "b", "--size", 100]
    assert cli_json(capsys, argv)["categories"] == [" no", "no", "yes", "yes "]
    out = cli_json(capsys, [*argv, "--strip-labels"])
    assert out["categories"] == ["no", "yes"]
    assert out["cross_table"]["counts"] == [[10, 10], [0, 20]]  # rows a, columns b


def test_categories_give_the_order_of_the_weights(tmp_path, capsys):
    path = tmp_path / "grades.csv"
    grades = ["low", "mid", "high"]
    rng = np.random.default_rng(1)
    a = rng.integers(0, 3, 60)
    b = np.clip(a + rng.integers(-1, 2, 60), 0, 2)
    path.write_text(
        "a,b\n" + "".join(f"{grades[x]},{grades[y]}\n" for x, y in zip(a, b, strict=True))
    )
    argv = ["agree", path, "--rater", "a", "--rater", "b", "--weights", "linear"]
    out = cli_json(capsys, [*argv, "--categories", *grades, "--size", 100])
    got = out["coefficients"]["weighted_kappa"]["estimate"]
    assert got == pytest.approx(cohen_kappa_score(a, b, weights="linear"), abs=1e-12)
    sorted_order = cli_json(capsys, [*argv, "--size", 100])  # high < low < mid: another value
    assert sorted_order["coefficients"]["weighted_kappa"]["estimate"] != pytest.approx(got)
    assert any("(sorted; give --categories" in n for n in sorted_order["notes"])


@pytest.mark.parametrize(
    "body, extra, message",
    [
        ("a,b\n1,1\n", ["--rater", "a"], "needs two raters or more"),
        ("a,b\n1,1\n", ["--rater", "a", "--rater", "zz"], "has no column 'zz'"),
        ("a,b\n1,1\n", ["--rater", "a", "--rater", "a"], "is given twice"),
        ("a,b\n1,3\n2,2\n", ["--rater", "a", "--rater", "b", "--categories", "1", "2"],
         "the value 3 is not one of --categories"),
        ("a,b\n1,\n,2\n", ["--rater", "a", "--rater", "b"], "no item has two ratings"),
        ("a,b,c\n1,,\n,2,\n,,1\n", ["--rater", "a", "--rater", "b", "--rater", "c"],
         "no item has two ratings"),
        ("a,b\n1,1\n1,1\n", ["--rater", "a", "--rater", "b"], "two categories or more"),
        ("a,b,c\n1,1,2\n", ["--rater", "a", "--rater", "b", "--rater", "c", "--weights",
                            "linear"], "--weights is of two raters"),
        ("a,b\n1,1\n2,2\n", ["--rater", "a", "--rater", "b", "--measurement", "ordinal"],
         "--measurement is Krippendorff's alpha's"),
        ("a,b,c\nx,y,x\ny,y,x\n", ["--rater", "a", "--rater", "b", "--rater", "c",
                                   "--measurement", "interval"], "needs numeric categories"),
        ("a,b\n1,1\n2,2\n", ["--rater", "a", "--rater", "b", "--level", "1.5"], "level"),
        ("a,b\n1,1\n2,2\n1\n", ["--rater", "a", "--rater", "b"], "number of fields"),
        ("a,b\n1,1\n", ["--weights", "cubic"], "invalid choice"),
        ("a,b\n1,1\n", ["--rater", "a", "--rater", "b", "--method", "delta"], "invalid choice"),
        ("a,b\n1,1\n2,2\n", ["--rater", "a", "--rater", "b", "--method", "analytic", "--size",
                             "500"], "--size is the bootstrap's"),
        ("a,b\n1,1\n2,2\n", ["--rater", "a", "--rater", "b", "--method", "analytic", "--seed",
                             "1", "--size", "9"], "--size and --seed are the bootstrap's"),
        ("a,b,c\nx,x,x\ny,y,y\n", ["--rater", "a", "--rater", "b", "--rater", "c", "--method",
                                   "bca"], "--method bca for Fleiss' kappa: bca is undefined"),
    ],
)  # fmt: skip
def test_bad_input_is_one_line_and_status_2(tmp_path, capsys, body, extra, message):
    path = tmp_path / "bad.csv"
    path.write_text(body)
    status, out, err = run_cli(capsys, ["agree", path, *extra])
    assert status == 2 and out == ""
    assert err.startswith("clfmetrics: error: ") and err.count("\n") == 1
    assert message in err


def test_a_missing_file_is_one_line(tmp_path, capsys):
    status, out, err = run_cli(
        capsys, ["agree", tmp_path / "no.csv", "--rater", "a", "--rater", "b"]
    )
    assert status == 2 and out == "" and err.count("\n") == 1 and "no.csv" in err


def test_a_parquet_file_gives_the_csv_files_numbers(tmp_path, capsys):
    import duckdb  # in requirements.txt: installed wherever tests run

    ratings = _ratings()
    source = tmp_path / "plain.csv"
    cells = np.where(np.isnan(ratings), "", np.nan_to_num(ratings).astype(int).astype(str))
    source.write_text("ann,bob,judge\n" + "".join(",".join(c) + "\n" for c in cells.T))
    target = tmp_path / "ratings.parquet"
    duckdb.execute(
        f"COPY (SELECT * FROM read_csv('{source}', all_varchar=true)) TO '{target}' "
        "(FORMAT parquet)"
    )
    argv = ["--rater", "ann", "--rater", "bob", "--rater", "judge", "--size", 200]
    from_csv = cli_json(capsys, ["agree", source, *argv])
    from_parquet = cli_json(capsys, ["agree", target, *argv])
    assert from_parquet["coefficients"] == from_csv["coefficients"]
    assert from_parquet["notes"] == from_csv["notes"]
