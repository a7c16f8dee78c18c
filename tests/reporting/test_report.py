"""clfmetrics.report and clfmetrics.compare: the numbers are the library's, the words fit them."""

from __future__ import annotations

import json

import numpy as np
import pytest
from counted_items import counted, labelled_items

import clfmetrics as cm
from clfmetrics import (
    COVERAGE_FLAG,
    auc_method_for,
    expected_coverage,
    mcnemar,
    paired_interval,
    permutation_test,
)

TWEETS = np.array([[60, 15, 5], [35, 170, 40], [5, 15, 55]])
LABELS = ["negative", "neutral", "positive"]


@pytest.fixture(scope="module")
def tweets_report():
    y_true, y_pred = cm.to_labels(TWEETS, LABELS)
    return cm.report(y_true, y_pred, size=2000, rng=3)


def test_report_numbers_are_the_librarys(tweets_report):
    r = tweets_report
    assert r.n_items == 400 and r.labels == LABELS
    np.testing.assert_array_equal(r.matrix, TWEETS)
    assert list(r.intervals) == list(cm.METRICS)
    for name, func in cm.METRICS.items():
        assert r.intervals[name] == cm.interval(name, TWEETS, size=2000, rng=3)
        assert r.intervals[name].estimate == pytest.approx(func(TWEETS))
    pc = r.per_class
    np.testing.assert_allclose(pc["precision"], cm.precision(TWEETS))
    np.testing.assert_allclose(pc["recall"], cm.recall(TWEETS))
    np.testing.assert_allclose(pc["f1"], cm.f1(TWEETS))
    np.testing.assert_allclose(pc["prevalence"], [0.25, 0.5, 0.25])
    np.testing.assert_allclose(pc["bias"], np.array([80, 245, 75]) / 400)
    assert r.macro_f1s["delta_f1"] == pytest.approx(cm.f1_of_averages(TWEETS) - cm.macro_f1(TWEETS))
    assert r.calibrated["accuracy"] == pytest.approx(cm.macro_recall(TWEETS))
    assert r.baselines["majority class"]["accuracy"] == 0.5
    assert r.baselines["uniform random guess (expected counts)"]["macro_recall"] == pytest.approx(
        1 / 3
    )
    # The tweet classifier says "neutral" for 245 of 400 tweets, of which 200 are neutral.
    assert r.over_predicted == ["neutral"] and r.under_predicted == ["negative", "positive"]
    assert r.warnings == []


def test_report_renders_three_ways(tweets_report):
    text = str(tweets_report)
    assert repr(tweets_report).startswith("<Report: 400 items, 3 classes, accuracy 0.713 [")
    assert "Evaluation report" in text and "Suggested reporting" in text
    assert f"{cm.accuracy(TWEETS):.3f}" in text
    html = tweets_report._repr_html_()
    assert html.count("<table>") == 6 and "neutral" in html
    data = json.loads(tweets_report.to_json())
    assert data["metrics"]["macro_f1"]["estimate"] == pytest.approx(cm.macro_f1(TWEETS))
    assert data["per_class"]["neutral"]["recall"] == pytest.approx(0.85)
    assert data == json.loads(json.dumps(tweets_report.to_dict()))


def test_report_explains_a_material_gap_between_the_macro_f1s():
    # Class 0 is predicted for everything of class 1: one class over-, one under-predicted.
    m = np.array([[50, 40, 0], [0, 10, 0], [0, 0, 50]])
    y_true, y_pred = cm.to_labels(m)
    r = cm.report(y_true, y_pred, size=200, rng=0)
    assert r.macro_f1s["delta_f1"] >= 0.01
    assert r.over_predicted == [0] and r.under_predicted == [1]
    words = r.delta_explanation()
    assert "Over-predicted" in words and f"{r.macro_f1s['delta_f1']:.3f}" in words


def test_report_warns():
    y_true = ["a"] * 200 + ["b"] * 40 + ["c"] * 10
    y_pred = ["a"] * 200 + ["a"] * 40 + ["c"] * 10  # b never predicted
    r = cm.report(y_true, y_pred, labels=["a", "b", "c", "d"], size=200, rng=0)
    text = " | ".join(r.warnings)
    assert "class b is never predicted" in text
    assert "class d never occurs" in text
    assert "class c has only 10 items" in text
    assert "far from equally common" in text
    assert "undefined on this matrix" in text and "macro_precision" in text
    assert r.calibrated == {}
    assert "undefined" in str(r)
    assert json.loads(r.to_json())["per_class"]["d"]["recall"] is None


def test_html_escapes_labels():
    r = cm.report(["<b>", "x"] * 20, ["<b>", "<b>"] * 20, size=100, rng=0)
    html = r._repr_html_()
    assert "&lt;b&gt;" in html and "<td><b>" not in html


def _two_systems(seed=0, n_items=300):
    rng = np.random.default_rng(seed)
    y = rng.choice(3, size=n_items, p=[0.5, 0.3, 0.2])
    a = np.where(rng.random(n_items) < 0.8, y, rng.integers(0, 3, n_items))
    b = np.where(rng.random(n_items) < 0.9, a, rng.integers(0, 3, n_items))
    return y, a, b


def test_compare_numbers_are_the_librarys():
    y, a, b = _two_systems()
    c = cm.compare(y, a, b, names=("new", "old"), size=1000, rng=5)
    for name, func in cm.METRICS.items():
        sa, sb = c.scores[name]
        assert sa == pytest.approx(func(cm.confusion_matrix(y, a)))
        assert sb == pytest.approx(func(cm.confusion_matrix(y, b)))
        assert c.differences[name] == paired_interval(name, y, a, b, size=1000, rng=5)
        assert 0 < c.pvalues[name] <= 1
    # Same test, other random swaps: the p-values agree up to Monte-Carlo error.
    assert c.pvalues["macro_f1"] == pytest.approx(
        permutation_test("macro_f1", y, a, b, size=1000, rng=6), abs=0.05
    )
    assert c.mcnemar == mcnemar(y, a, b)
    assert c.verdicts()["delta_f1"] == "n/a"
    data = json.loads(c.to_json())
    assert data["systems"] == ["new", "old"]
    assert data["metrics"]["accuracy"]["new"] == pytest.approx(c.scores["accuracy"][0])
    assert "Paired comparison: new - old" in str(c) and "<table>" in c._repr_html_()


def test_compare_identical_systems_is_undecided():
    y, a, _ = _two_systems(1)
    c = cm.compare(y, a, a, size=300, rng=0)
    assert set(c.verdicts().values()) == {"undecided", "n/a"}
    assert all(p == 1.0 for p in c.pvalues.values()) and c.mcnemar.pvalue == 1.0


def test_bad_input():
    with pytest.raises(ValueError, match="level"):
        cm.report([0, 1], [0, 1], level=1.5)
    with pytest.raises(ValueError, match="size"):
        cm.report([0, 1], [0, 1], size=0)
    with pytest.raises(ValueError, match="differ in length"):
        cm.report([0, 1, 1], [0, 1])
    with pytest.raises(ValueError, match="names"):
        cm.compare([0, 1], [0, 1], [1, 0], names=("A", "A"))
    with pytest.raises(ValueError, match="differ in length"):
        cm.compare([0, 1], [0, 1], [1, 0, 1])


# ---------------------------------------------------------------------------
# Issue 19, item 5: the matrix first, grammar, compare's warnings and disagreements
# ---------------------------------------------------------------------------


def test_the_confusion_matrix_comes_first_in_the_books_orientation(tweets_report):
    text = str(tweets_report).splitlines()
    assert text[3].startswith("Confusion matrix (rows = predicted, columns = true")
    # row "neutral": predicted neutral, true negative / neutral / positive, then the row total
    assert text[5].split() == [
        "predicted",
        "\\",
        "true",
        "negative",
        "neutral",
        "positive",
        "total",
    ]
    assert text[7].split() == ["neutral", "35", "170", "40", "245"]
    assert text[9].split() == ["total", "100", "200", "100", "400"]
    html = tweets_report._repr_html_()
    first = html.index("<table>")
    assert html.index("Confusion matrix") < first < html.index("Metrics")
    assert "<td>neutral</td><td>35</td><td>170</td><td>40</td><td>245</td>" in html
    data = tweets_report.to_dict()
    assert list(data)[:4] == ["n_items", "labels", "matrix", "matrix_orientation"]
    assert data["matrix"][1] == [35, 170, 40] and "rows = predicted" in data["matrix_orientation"]


def test_counts_of_one_are_singular():
    r = cm.report([0], [0], labels=[0, 1], size=1, rng=0)
    text = str(r)
    assert "On 1 test item (2 classes)" in text and "1 items" not in text
    assert "(1 item, 95% percentile bootstrap, 1 resample, seed 0)" in text
    assert repr(r).startswith("<Report: 1 item, 2 classes")
    assert "class 0 has only 1 item:" in " ".join(r.warnings)
    c = cm.compare([0, 1], [0, 0], [1, 1], size=1, rng=0)
    assert "A alone right on 1 item, B alone on 1 item" in str(c)


def test_compare_shows_the_reports_class_warnings():
    y = ["a"] * 100 + ["b"] * 8
    a = ["a"] * 100 + ["b"] * 8
    b = ["a"] * 108  # b never predicted by B
    c = cm.compare(y, a, b, names=("new", "old"), size=200, rng=0)
    assert c.warnings == [
        "class b has only 8 items: its recall moves in steps of 1/8, so the macro metrics' "
        "intervals are wide",
        "class b is never predicted by old: its precision is undefined (0/0, counted as 0 in "
        "the macro averages)",
    ]
    assert "Warnings" in str(c) and "never predicted by old" in str(c)
    assert c.to_dict()["warnings"] == c.warnings


def _borderline(seed=2, n=60):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    a = np.where(rng.random(n) < 0.85, y, 1 - y)
    b = np.where(rng.random(n) < 0.72, y, 1 - y)
    return cm.compare(y, a, b, size=2000, rng=0)


def test_compare_notes_where_test_and_interval_disagree():
    c = _borderline()
    found = {(d["metric"], d["test"]) for d in c.disagreements()}
    holm = "Holm-adjusted permutation"
    assert ("macro_f1", holm) in found
    for name, iv in c.differences.items():
        excludes = iv.low > 0 or iv.high < 0
        disagree = name != "delta_f1" and excludes != (c.pvalues_holm[name] < 0.05)
        assert ((name, holm) in found) == disagree
    mcnemar_disagrees = (c.differences["accuracy"].low > 0) != (c.mcnemar.pvalue < 0.05)
    assert (("accuracy", "McNemar") in found) == mcnemar_disagrees
    assert "Test and interval disagree at the 95% level for: " in str(c)
    assert "macro_f1 (interval excludes 0, Holm-adjusted permutation p = " in " ".join(
        str(c).split()
    )
    assert c.to_dict()["test_interval_disagreements"] == c.disagreements()
    # where they agree, nothing is said
    y, a, _ = _two_systems()
    agreeing = cm.compare(y, a, a, size=300, rng=0)
    assert agreeing.disagreements() == [] and "disagree at" not in str(agreeing)


# ---------------------------------------------------------------------------
# Issue 18: exact intervals where the bootstrap fails, Holm across compare's metrics
# ---------------------------------------------------------------------------


def _scipy_exact(k, n, level=0.95):
    from scipy.stats import binomtest

    ci = binomtest(int(k), int(n)).proportion_ci(confidence_level=level, method="exact")
    return ci.low, ci.high


def test_zero_width_intervals_warn_and_give_the_exact_interval():
    """240 perfect predictions: the bootstrap says 1.000 [1.000, 1.000], exact is [0.985, 1]."""
    y = [0] * 200 + [1] * 40
    r = cm.report(y, y, size=300, rng=0)
    assert r.intervals["accuracy"].low == r.intervals["accuracy"].high == 1.0
    acc = r.exact["accuracy"]
    assert (acc["low"], acc["high"]) == pytest.approx(_scipy_exact(240, 240), abs=1e-9)
    assert round(acc["low"], 3) == 0.985 and acc["successes"] == acc["trials"] == 240
    for lab, n in [(0, 200), (1, 40)]:
        e = r.exact["recall"][lab]
        assert (e["low"], e["high"]) == pytest.approx(_scipy_exact(n, n), abs=1e-9)
    zero = [w for w in r.warnings if w.startswith("zero-width bootstrap intervals")]
    assert len(zero) == 1 and "1.000 [0.985, 1.000]" in zero[0]
    text = str(r)
    assert "Exact intervals (95% Clopper-Pearson)" in text and "240 / 240" in text
    assert "accuracy is 1.000 (exact Clopper-Pearson interval [0.985, 1.000]" in " ".join(
        text.split()
    )
    data = json.loads(r.to_json())
    assert data["exact_intervals"]["accuracy"]["low"] == pytest.approx(acc["low"])


def test_a_class_under_ten_items_gets_the_exact_interval_of_its_recall():
    m = np.array([[150, 1, 0], [3, 5, 0], [0, 1, 60]])  # class 1 has 7 items, 5 found
    r = cm.report(*cm.to_labels(m, ["a", "b", "c"]), level=0.9, size=300, rng=0)
    e = r.exact["recall"]["b"]
    assert e["estimate"] == pytest.approx(5 / 7)
    assert (e["low"], e["high"]) == pytest.approx(_scipy_exact(5, 7, 0.9), abs=1e-9)
    acc = r.exact["accuracy"]
    assert (acc["low"], acc["high"]) == pytest.approx(_scipy_exact(215, 220, 0.9), abs=1e-9)
    tiny = [w for w in r.warnings if "fewer than 10 items" in w]
    assert tiny == [
        "class b has fewer than 10 items (7): its bootstrap interval is unreliable; the exact "
        f"(Clopper-Pearson) interval of its recall is 0.714 [{e['low']:.3f}, {e['high']:.3f}]"
    ]
    assert "recall of b" in str(r) and "Exact intervals (90% Clopper-Pearson)" in str(r)


def test_no_exact_section_when_the_bootstrap_is_fine(tweets_report):
    assert "Exact intervals" not in str(tweets_report)
    assert tweets_report.to_dict()["exact_intervals"]["recall"]["neutral"]["trials"] == 200


def test_compare_adjusts_its_p_values_with_holm_over_the_score_metrics():
    c = _borderline()
    family = [k for k in cm.METRICS if k != "delta_f1"]
    assert list(c.pvalues_holm) == family
    # Holm (1979) step by step, in plain Python: the i-th smallest p times (m - i), running max
    raw = sorted((c.pvalues[k], k) for k in family)
    running, expected = 0.0, {}
    for i, (p, k) in enumerate(raw):
        running = max(running, min(1.0, (len(raw) - i) * p))
        expected[k] = running
    assert c.pvalues_holm == pytest.approx(expected)
    assert all(c.pvalues_holm[k] >= c.pvalues[k] for k in family)
    data = c.to_dict()
    assert data["metrics"]["macro_f1"]["p_value_holm"] == c.pvalues_holm["macro_f1"]
    assert data["metrics"]["delta_f1"]["p_value_holm"] is None
    assert "except delta_f1" in data["holm_family"]
    text = " ".join(str(c).split())
    assert "p Holm" in text and "over the family of the 13 metrics that are scores" in text


def test_report_from_counts_equals_report_on_the_items():
    y, a, _ = labelled_items()
    truth, pred, counts = counted(y, a)
    assert len(counts) < 15
    by_items = cm.report(y, a, size=2_000, rng=7)
    by_counts = cm.report_from_counts(truth, pred, counts, size=2_000, rng=7)
    assert by_counts.to_json() == by_items.to_json()
    assert str(by_counts) == str(by_items)
    assert by_counts.n_items == len(y)


def test_report_from_counts_with_labels_and_integer_classes():
    y, a, _ = labelled_items(n=500, classes=(3, 5, 9), seed=3)
    truth, pred, counts = counted(y, a)
    labels = [3, 5, 9, 11]  # a class no item has
    by_items = cm.report(y, a, labels=labels, size=500, rng=1)
    by_counts = cm.report_from_counts(truth, pred, counts, labels=labels, size=500, rng=1)
    assert by_counts.to_json() == by_items.to_json()


def test_a_billion_items_in_four_counts():
    # McNemar's exact test sums O(sqrt(N)) binomial masses, not N: quick even here.
    truth, a, b = ["x", "x", "y", "y"], ["x", "y", "y", "x"], ["x", "x", "x", "x"]
    big = np.array([4e8, 1e8, 3e8, 2e8])
    c = cm.compare_from_counts(truth, a, b, big.astype(np.int64), size=200, rng=0)
    assert c.n_items == 10**9
    assert c.scores["accuracy"] == pytest.approx((0.7, 0.5))
    assert c.mcnemar.a_only == 3 * 10**8 and c.mcnemar.b_only == 10**8
    assert c.mcnemar.pvalue == 0.0  # 2 * P(X <= 10**8) for X ~ Bin(4 * 10**8, 1/2) underflows
    # The report's exact (Clopper-Pearson) intervals search a root over O(sqrt(N)) masses.
    r = cm.report_from_counts(truth, a, big // 1000, size=200, rng=0)
    assert r.matrix.tolist() == [[4 * 10**5, 2 * 10**5], [10**5, 3 * 10**5]]


@pytest.mark.parametrize(
    ("counts", "message"),
    [
        ([2, -1], "must not be negative"),
        ([2, 0.5], "whole-number counts"),
        ([2, np.nan], "finite"),
        ([2, np.inf], "finite"),
        ([0, 0], "sum to 0"),
        ([2], "counts has 1 entries but the label arrays have 2"),
        ([[2, 1]], "1-d"),
        (["2", "1"], "numbers of items"),
        ([True, False], "numbers of items"),
        ([2, None], "numbers of items"),
        (np.ma.masked_array([2, 1], mask=[0, 1]), "masked"),
    ],
)
def test_bad_counts_raise_a_value_error_naming_counts(counts, message):
    with pytest.raises(ValueError, match=message):
        cm.report_from_counts(["a", "b"], ["a", "a"], counts)
    with pytest.raises(ValueError, match=message):
        cm.compare_from_counts(["a", "b"], ["a", "a"], ["b", "b"], counts)


def test_bad_combinations_name_their_argument():
    with pytest.raises(ValueError, match="truth and pred differ in length"):
        cm.report_from_counts(["a", "b"], ["a"], [1, 1])
    with pytest.raises(ValueError, match="truth and pred_b differ in length"):
        cm.compare_from_counts(["a", "b"], ["a", "b"], ["a"], [1, 1])
    with pytest.raises(ValueError, match="y_true and y_pred differ in length"):
        cm.report(["a", "b"], ["a"])  # the item-level call keeps its own names
    with pytest.raises(ValueError, match="names must be two different names"):
        cm.compare_from_counts(["a"], ["a"], ["a"], [1], names=("A", "A"))


def _binary(n_pos, n_neg=200, seed=0):
    rng = np.random.default_rng(seed)
    y = np.r_[np.ones(n_pos, int), np.zeros(n_neg, int)]
    s = 1 / (1 + np.exp(-rng.normal(2 * y, 1)))
    return y, (s >= 0.5).astype(int), s


def test_the_report_flags_an_auc_interval_with_a_small_class_and_quotes_the_table():
    y, pred, s = _binary(14)
    auc = cm.roc_auc(y, s)
    for method in ("percentile", "delong"):
        r = cm.report(y, pred, scores=s, size=300, rng=0, auc_method=method)
        (flag,) = [w for w in r.warnings if "items of the smaller class" in w]
        expect = expected_coverage(14, 200, auc, method)
        assert expect < COVERAGE_FLAG
        assert "rests on 14 items" in flag and f"only {expect:.2f} of the time" in flag
        assert f"nominal 95 % {method} intervals" in flag


def test_the_report_gives_the_tables_choice_by_default_and_says_so():
    y, pred, s = _binary(14)
    r = cm.report(y, pred, scores=s, size=300, rng=0)
    auc, _ = r.scores.ranking[1]
    best = auc_method_for(14, 200, auc.estimate)
    assert auc.method == best != "percentile"
    (flag,) = [w for w in r.warnings if "items of the smaller class" in w]
    assert f"gives {best}'s interval, not the percentile one" in flag
    assert "another for a small class" in r.scores.sections()[0].title


def test_the_report_does_not_flag_a_class_the_table_finds_covered():
    rng = np.random.default_rng(3)
    y = np.r_[np.ones(100, int), np.zeros(200, int)]
    s = 1 / (1 + np.exp(-rng.normal(0.7 * y, 1)))  # AUC about 0.69
    pred = (s >= 0.5).astype(int)
    auc = cm.roc_auc(y, s)
    assert expected_coverage(100, 200, auc, "percentile") >= COVERAGE_FLAG
    r = cm.report(y, pred, scores=s, size=300, rng=0)
    assert not [w for w in r.warnings if "items of the smaller class" in w]
    assert r.scores.ranking[1][0].method == "percentile"


def test_every_column_of_a_probability_matrix_is_checked():
    rng = np.random.default_rng(4)
    y = np.r_[np.zeros(100, int), np.ones(100, int), np.full(8, 2)]
    p = rng.dirichlet(np.ones(3), size=y.size)
    p[np.arange(y.size), y] += 1
    p /= p.sum(axis=1, keepdims=True)
    r = cm.report(y, p.argmax(1), scores=p, size=200, rng=0)
    flags = [w for w in r.warnings if "items of the smaller class" in w]
    (small,) = [w for w in flags if "class 2 " in w]
    assert "rests on 8 items" in small and "outside the simulated table" in small
    # the other two rank their 100 items almost perfectly: beyond the table's AUCs too
    aucs = [r.scores.ranking[k][0].estimate for k in (0, 1)]
    assert len(flags) == 1 + sum(a > 0.99 for a in aucs)


def test_the_report_docstring_names_the_table_and_the_flag():
    doc = " ".join(cm.report.__doc__.split())
    for name in ("AUC_COVERAGE", "COVERAGE_FLAG", "auc_method_for", "BCa for AP"):
        assert name in doc
