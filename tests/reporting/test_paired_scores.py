"""compare(..., scores=(a, b)): the two systems' ROC AUC difference, paired, in every format."""

from __future__ import annotations

import csv
import io
import json

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

import clfmetrics as cm


def _two_systems(n=200, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    sa = 1 / (1 + np.exp(-(2 * rng.normal(size=n) + 3 * y - 1.5)))
    sb = 1 / (1 + np.exp(-(2 * rng.normal(size=n) + 1.5 * y - 0.75)))
    labels = np.array(["no", "yes"])
    return labels[y], labels[(sa >= 0.5).astype(int)], labels[(sb >= 0.5).astype(int)], sa, sb


def test_the_difference_equals_sklearn_and_compare_auc_and_the_metrics_stay():
    y, a, b, sa, sb = _two_systems()
    c = cm.compare(y, a, b, scores=(sa, sb), names=("new", "old"), size=500)
    row = c.ranking.rows["yes"]
    assert row.auc_a == pytest.approx(roc_auc_score(y == "yes", sa), abs=1e-12)
    assert row.auc_b == pytest.approx(roc_auc_score(y == "yes", sb), abs=1e-12)
    d = cm.compare_auc(y, sa, sb)
    assert (row.delong.low, row.delong.high, row.delong_p) == pytest.approx(
        (d.low, d.high, d.pvalue), abs=1e-12
    )
    plain = cm.compare(y, a, b, names=("new", "old"), size=500)
    assert c.to_dict()["metrics"] == plain.to_dict()["metrics"]  # drawn after the metrics
    assert plain.to_dict()["scores"] is None and plain.ranking is None
    data = c.to_dict()["scores"]
    assert data["positive_class"] == "yes" and data["bootstrap_resamples"] == 500
    assert data["roc_auc"]["yes"]["favours"] == c.ranking.verdict(row)


def test_the_verdict_needs_both_intervals():
    y, a, b, sa, sb = _two_systems(n=600)
    c = cm.compare(y, a, b, scores=(sa, sb), size=500)
    row = c.ranking.rows["yes"]
    assert row.delong.low > 0 and row.bootstrap.low > 0
    assert c.ranking.verdict(row) == "A"
    same = cm.compare(y, a, b, scores=(sa, sa), size=300).ranking  # a zero difference
    assert same.rows["yes"].delong_p == 1.0 and same.verdict(same.rows["yes"]) == "undecided"


def test_probability_matrices_give_a_row_per_class_and_the_macro_mean():
    rng = np.random.default_rng(4)
    y = rng.integers(0, 3, 150)

    def proba(shift):
        e = np.exp(rng.normal(size=(150, 3)) + shift * np.eye(3)[y])
        return e / e.sum(axis=1, keepdims=True)

    pa, pb = proba(1.5), proba(0.8)
    c = cm.compare(y, pa.argmax(1), pb.argmax(1), scores=(pa, pb), size=300)
    assert list(c.ranking.rows) == [0, 1, 2, "macro (one-vs-rest)"]
    macro = c.ranking.rows["macro (one-vs-rest)"]
    assert macro.auc_a == pytest.approx(roc_auc_score(y, pa, multi_class="ovr"), abs=1e-12)


def test_every_format_has_the_section_with_a_stable_key():
    texts = []
    for n, seed in ((200, 0), (150, 7)):
        y, a, b, sa, sb = _two_systems(n, seed)
        c = cm.compare(y, a, b, scores=(sa, sb), names=("new", "old"), size=300, rng=seed)
        texts.append(c)
    rows = [list(csv.reader(io.StringIO(c.to_csv()))) for c in texts]
    keys = [{(r[0], r[1], r[2]) for r in table if r[0] == "ROC AUC"} for table in rows]
    assert keys[0] == keys[1] and ("ROC AUC", "yes", "DeLong p") in keys[0]
    c = texts[0]
    assert "ROC AUC (scores of class yes; 95% paired intervals of new - old" in str(c)
    assert "## ROC AUC (scores of class yes" in c.to_markdown()
    assert "DeLong low" in c.to_html() and "bootstrap p" in c.to_html()
    data = json.loads(c.to_json())
    assert data["scores"]["roc_auc"]["yes"]["new"] == pytest.approx(c.ranking.rows["yes"].auc_a)


def test_swapped_scores_are_warned_about():
    y, a, b, sa, sb = _two_systems()
    c = cm.compare(y, a, b, scores=(sa, sb), pos_label="no", size=300)
    assert any("A's scores of class no is" in w and "below 0.5" in w for w in c.warnings)
    assert any(w.startswith("A: a score of at least 0.5 for class no") for w in c.warnings)


@pytest.mark.parametrize(
    ("scores", "pos_label", "message"),
    [
        (None, "yes", "pos_label names the class that scores score"),
        ("one", None, "scores must be a pair"),
        ("three", None, "scores must be a pair"),
        ("shapes", None, "scores_a and scores_b differ in shape"),
        ("short", None, "scores must have shape"),
        ("pair", "maybe", "pos_label='maybe' is not one of the classes"),
    ],
)
def test_bad_scores_raise_a_clear_value_error(scores, pos_label, message):
    y, a, b, sa, sb = _two_systems(n=40)
    given = {
        None: None,
        "one": sa,
        "three": (sa, sb, sa),
        "shapes": (sa, np.c_[1 - sb, sb]),
        "short": (sa[:-1], sb),
        "pair": (sa, sb),
    }[scores]
    with pytest.raises(ValueError, match=message):
        cm.compare(y, a, b, scores=given, pos_label=pos_label, size=50)


def test_a_test_set_of_one_class_gives_undefined_rows_and_says_why():
    c = cm.compare(["x"] * 4, ["x", "y", "x", "x"], ["y", "x", "x", "x"],
                   labels=["x", "y"], scores=([0.1, 0.7, 0.2, 0.3], [0.6, 0.2, 0.3, 0.1]),
                   size=50)  # fmt: skip
    assert c.ranking.rows == {"y": None} and c.to_dict()["scores"]["roc_auc"] == {"y": None}
    (section,) = c.ranking.sections()
    assert "no bootstrap" in section.title and section.rows[0][1:] == ["undefined"] * 10
    assert any("its ROC AUC is 0/0" in n for n in section.notes)
