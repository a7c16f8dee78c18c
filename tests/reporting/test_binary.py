"""The binary report's headline and its score caveats (issue 40 item 7).

- sensitivity, specificity, PPV and NPV with exact (Clopper-Pearson) intervals, equal to
  scikit-learn's rates and scipy's exact binomial interval;
- the Brier skill score 1 - Brier / Brier of the constant class mix, beside both;
- a ROC AUC whose whole interval lies below 0.5 carries its caveat where the number is.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import binomtest
from sklearn.metrics import brier_score_loss, confusion_matrix

import clfmetrics as cm
from clfmetrics.reporting._scores import brier_skill


def _data(seed=0, n=300):
    rng = np.random.default_rng(seed)
    y = np.where(rng.random(n) < 0.3, "sick", "well")
    p = np.clip(np.where(y == "sick", 0.65, 0.3) + rng.normal(0, 0.2, n), 0, 1).round(3)
    return y, np.where(p >= 0.5, "sick", "well"), p


def test_the_four_rates_equal_sklearn_and_scipys_exact_interval():
    y, pred, _ = _data()
    r = cm.report(y, pred, size=200)
    assert r.binary["positive_class"] == "well"  # the second of the sorted classes
    (tn, fp), (fn, tp) = confusion_matrix(y == "well", pred == "well")
    expected = {
        "sensitivity": (tp, tp + fn),
        "specificity": (tn, tn + fp),
        "PPV": (tp, tp + fp),
        "NPV": (tn, tn + fn),
    }
    for name, (k, n) in expected.items():
        e = r.binary[name]
        ci = binomtest(int(k), int(n)).proportion_ci(0.95, method="exact")
        assert (e["successes"], e["trials"]) == (k, n) and e["estimate"] == k / n
        assert (e["low"], e["high"]) == pytest.approx((ci.low, ci.high), abs=1e-9)


def test_the_positive_class_follows_the_scores_and_the_rates_swap():
    y, pred, p = _data()
    well = cm.report(y, pred, size=200).binary
    sick = cm.report(y, pred, scores=p, pos_label="sick", size=200).binary
    assert sick["positive_class"] == "sick"
    assert sick["sensitivity"] == well["specificity"] and sick["PPV"] == well["NPV"]


def test_the_rates_are_in_every_format_and_in_the_paragraph():
    y, pred, _ = _data()
    r = cm.report(y, pred, size=200)
    text = str(r)
    assert text.index("Binary rates (positive class well") < text.index("Metrics (")
    assert "sensitivity (recall of well)" in text
    s = r.binary["sensitivity"]
    shown = f"sensitivity {s['estimate']:.3f} [{s['low']:.3f}, {s['high']:.3f}]"
    assert shown in r.reporting_block()
    assert "Binary rates,sensitivity (recall of well),low," in r.to_csv()
    assert r.to_dict()["binary_rates"]["NPV"]["trials"] == int((pred == "sick").sum())
    assert "## Binary rates" in r.to_markdown() and "specificity (recall of sick)" in r.to_html()


def test_an_empty_margin_is_undefined_and_more_classes_have_no_rates():
    y = ["a", "b", "a", "b"]
    r = cm.report(y, ["a"] * 4, size=50)  # nothing predicted b, the positive class
    assert r.binary["PPV"] is None and "PPV (precision of b)       undefined" in str(r)
    assert r.binary["NPV"]["estimate"] == 0.5
    three = cm.report(["a", "b", "c"] * 5, ["a", "b", "b"] * 5, size=50)
    assert three.binary is None and "Binary rates" not in str(three)
    assert three.to_dict()["binary_rates"] is None


def test_the_brier_skill_score_against_the_class_mix():
    y, pred, p = _data()
    proper = cm.report(y, pred, scores=p, pos_label="sick", size=200).scores.proper
    sick = y == "sick"
    reference = brier_score_loss(sick, np.full(y.size, sick.mean()))
    assert proper["brier_score_of_class_mix"] == pytest.approx(reference, abs=1e-12)
    skill = 1 - brier_score_loss(sick, p) / reference
    assert proper["brier_skill_score"] == pytest.approx(skill, abs=1e-12)
    assert 0 < skill < 1
    r = cm.report(y, pred, scores=p, pos_label="sick", size=200)
    assert f"Brier skill score against it {skill:.3f}" in r.reporting_block()
    row = next(line for line in str(r).splitlines() if line.startswith("Brier skill score "))
    assert row.split()[-2:] == [f"{skill:.3f}", "0.000"]  # the class mix's own skill is 0
    assert brier_skill({"brier_score": 0.0, "brier_score_of_class_mix": 0.0}) != 0  # NaN


def test_a_swapped_auc_carries_its_caveat_where_it_is_printed():
    y, pred, p = _data()
    swapped = cm.report(y, pred, scores=p, size=200)  # p scores "sick", not "well"
    auc = swapped.scores.ranking["well"][0]
    assert auc.high < 0.5
    block = swapped.reporting_block()
    at = block.index("ROC AUC of the scores of class well")
    assert "below 0.5 with its whole interval" in block[at : at + 200]
    ranking = next(s for s in swapped._sections() if s.title.startswith("Ranking"))
    assert any("below 0.5 with its whole interval" in n for n in ranking.notes)
    right = cm.report(y, pred, scores=p, pos_label="sick", size=200)
    assert "below 0.5" not in right.reporting_block() and "below 0.5" not in str(right)
