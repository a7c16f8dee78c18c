"""The report's decision sections equal the library functions they call, in every format."""

from __future__ import annotations

import json

import numpy as np
import pytest

import clfmetrics as cm
from clfmetrics.reporting._decisions import check_cost_matrix, parse_thresholds

SIZE = 300


def _data(n=300, seed=1):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    risk = np.clip(0.3 * y + 0.7 * rng.random(n), 0, 1)
    other = rng.random(n)
    return y, risk, other


def test_decision_curve_section_equals_decision_curve():
    y, risk, _ = _data()
    r = cm.report(
        y, (risk >= 0.5).astype(int), scores=risk, net_benefit="0.05:0.35:0.05", size=SIZE, rng=3
    )
    direct = cm.decision_curve(y, risk, [0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35], size=SIZE, rng=3)
    got = r.decision_curve.curve
    for field in (
        "threshold",
        "net_benefit",
        "treat_all",
        "treat_none",
        "standardized",
        "interventions_avoided",
        "low",
        "high",
        "pointwise_low",
        "pointwise_high",
    ):
        np.testing.assert_allclose(getattr(got, field), getattr(direct, field), rtol=0, atol=0)
    data = r.to_dict()["decision_curve"]
    assert data["net_benefit"] == direct.net_benefit.tolist()
    assert data["low"] == direct.low.tolist() and data["positive"] == "1"
    # The other numbers are those without the option: it draws on its own generator.
    plain = cm.report(y, (risk >= 0.5).astype(int), scores=risk, size=SIZE, rng=3)
    assert plain.to_dict()["metrics"] == r.to_dict()["metrics"]
    assert plain.to_dict()["decision_curve"] is None


def test_a_two_column_matrix_gives_the_curve_of_its_second_column():
    y, risk, _ = _data()
    proba = np.c_[1 - risk, risk]
    a = cm.report(y, (risk >= 0.5).astype(int), scores=proba, net_benefit=[0.2, 0.1], size=SIZE)
    b = cm.report(y, (risk >= 0.5).astype(int), scores=risk, net_benefit="0.1,0.2", size=SIZE)
    assert a.to_dict()["decision_curve"] == b.to_dict()["decision_curve"]
    assert a.decision_curve.curve.threshold.tolist() == [0.1, 0.2]


def test_pos_label_chooses_the_class_the_curve_is_of():
    y, risk, _ = _data()
    labels = np.array(["sick", "well"])[1 - y]  # y == 1 is "sick", the first sorted class
    r = cm.report(labels, labels, scores=risk, pos_label="sick", net_benefit="0.1,0.3", size=SIZE)
    direct = cm.decision_curve(y, risk, [0.1, 0.3], size=SIZE, rng=0)
    np.testing.assert_array_equal(r.decision_curve.curve.net_benefit, direct.net_benefit)
    assert r.to_dict()["decision_curve"]["positive"] == "sick"


def test_the_paired_difference_equals_net_benefit_difference():
    y, risk, other = _data()
    c = cm.compare(
        y,
        (risk >= 0.5).astype(int),
        (other >= 0.5).astype(int),
        scores=(risk, other),
        names=("lr", "rf"),
        net_benefit="0.1:0.3:0.1",
        size=SIZE,
        rng=5,
    )
    d = cm.net_benefit_difference(y, risk, other, [0.1, 0.2, 0.3], size=SIZE, rng=5)
    got = c.to_dict()["net_benefit_difference"]
    assert got["difference"] == d.difference.tolist()
    assert got["low"] == d.low.tolist() and got["high"] == d.high.tolist()
    assert got["systems"] == ["lr", "rf"]
    text = str(c)
    assert "Net benefit difference (lr - rf" in text
    favours = [lo > 0 for lo in d.low]
    rows = c._sections()
    table = next(s for s in rows if s.title.startswith("Net benefit difference"))
    assert [r[-1] == "lr" for r in table.rows] == favours


def test_costs_equal_bayes_cost_interval_and_the_predictions_cost():
    rng = np.random.default_rng(2)
    y = rng.integers(0, 3, 400)
    proba = rng.dirichlet([1, 1, 1], 400)
    proba[np.arange(400), y] += 0.5
    proba /= proba.sum(axis=1, keepdims=True)
    pred = proba.argmax(axis=1)
    costs = [[0, 4, 1], [1, 0, 1], [2, 8, 0]]
    r = cm.report(y, pred, scores=proba, costs=costs, size=SIZE, rng=4)
    iv = cm.bayes_cost_interval(y, proba, costs, size=SIZE, rng=4)
    got = r.to_dict()["bayes_decisions"]
    assert got["bayes_decisions"] == {"estimate": iv.estimate, "low": iv.low, "high": iv.high}
    assert got["predictions"] == pytest.approx(cm.expected_cost(r.matrix, costs), abs=0)
    assert got["costs"] == np.asarray(costs, float).tolist()


def test_binary_scores_give_costs_their_two_columns():
    y, risk, _ = _data()
    costs = [[0, 5], [1, 0]]
    r = cm.report(y, (risk >= 0.5).astype(int), scores=risk, costs=costs, size=SIZE)
    iv = cm.bayes_cost_interval(y, np.c_[1 - risk, risk], costs, size=SIZE, rng=0)
    assert r.bayes.bayes[0] == iv


def test_two_systems_costs_are_each_systems():
    y, risk, other = _data()
    costs = [[0, 5], [1, 0]]
    c = cm.compare(
        y,
        (risk >= 0.5).astype(int),
        (other >= 0.5).astype(int),
        scores=(risk, other),
        costs=costs,
        size=SIZE,
    )
    systems = c.to_dict()["bayes_decisions"]["systems"]
    for name, s in (("A", risk), ("B", other)):
        iv = cm.bayes_cost_interval(y, np.c_[1 - s, s], costs, size=SIZE, rng=0)
        assert systems[name]["bayes_decisions"]["estimate"] == iv.estimate


def test_every_format_has_the_sections():
    y, risk, other = _data()
    r = cm.report(
        y,
        (risk >= 0.5).astype(int),
        scores=risk,
        net_benefit="0.1,0.2",
        costs=[[0, 5], [1, 0]],
        size=SIZE,
    )
    assert "Decision curve (class 1" in str(r) and "Bayes decisions (" in str(r)
    assert "## Decision curve (class 1" in r.to_markdown()
    assert "<strong>Decision curve (class 1" in r._repr_html_()
    page = r.to_html()
    assert 'aria-labelledby="decision-t decision-d"' in page and '<title id="decision-t">' in page
    data = json.loads(r.to_json())
    assert len(data["decision_curve"]["net_benefit"]) == 2
    lines = r.to_csv().splitlines()
    assert (
        "Decision curve,0.1,net benefit," + f"{r.decision_curve.curve.net_benefit[0]:.3f}" in lines
    )
    assert any(line.startswith("Bayes decisions,Bayes decisions,mean cost,") for line in lines)
    # The section key stays whatever the level, resamples and seed.
    other_run = cm.report(
        y, (risk >= 0.5).astype(int), scores=risk, net_benefit="0.1,0.2", size=200, level=0.9, rng=7
    )
    keys = {line.split(",")[0] for line in other_run.to_csv().splitlines()}
    assert "Decision curve" in keys
    c = cm.compare(
        y,
        (risk >= 0.5).astype(int),
        (other >= 0.5).astype(int),
        scores=(risk, other),
        net_benefit="0.1,0.2",
        size=SIZE,
    )
    assert 'aria-labelledby="nb-difference-t nb-difference-d"' in c.to_html()
    assert any(line.startswith("Net benefit difference,0.1,") for line in c.to_csv().splitlines())


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("0.05:0.35", np.round(np.arange(5, 36) / 100, 12)),
        ("0.1:0.3:0.1", [0.1, 0.2, 0.3]),
        (" 0.1 : 0.25 : 0.1 ", [0.1, 0.2]),
        ("0.3,0.1,0.1", [0.1, 0.3]),
        ("0.2,", [0.2]),
        ([0.5, 0.25], [0.25, 0.5]),
        (0.2, None),
    ],
)
def test_thresholds_are_parsed(spec, expected):
    if expected is None:
        with pytest.raises(ValueError, match="one or more"):
            parse_thresholds(spec)
        return
    np.testing.assert_allclose(parse_thresholds(spec), expected, rtol=0, atol=1e-15)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("0:0.3", "strictly between 0 and 1.*got 0$"),
        ("0.1:1", "got 1$"),
        ("0.5", None),
        ("1", "got 1$"),
        ("0.3:0.1", "LOW must be below HIGH"),
        ("0.1:0.2:0", "STEP must be a positive"),
        ("0.1:0.2:-1", "STEP must be a positive"),
        ("0.1:0.9:0.0001", "at most 1000"),
        ("a,b", "LOW:HIGH, LOW:HIGH:STEP or a comma list"),
        ("0.1:0.2:0.3:0.4", "LOW:HIGH, LOW:HIGH:STEP"),
        ("", "one or more"),
        ([0.1, float("nan")], "got nan"),
        (["x"], "must be numbers"),
        ([[0.1, 0.2]], "one or more"),
    ],
)
def test_bad_thresholds_are_refused(spec, message):
    if message is None:
        assert parse_thresholds(spec).tolist() == [0.5]
        return
    with pytest.raises(ValueError, match=message):
        parse_thresholds(spec)


@pytest.mark.parametrize(
    ("costs", "message"),
    [
        ([[0, 1], [1, 0], [1, 1]], r"2 x 2 matrix.*got shape \(3, 2\)"),
        ([[0, 1, 2]], "got shape"),
        ([[0, -1], [1, 0]], r"costs\[0, 1\] = -1 is negative"),
        ([[0, np.inf], [1, 0]], r"costs\[0, 1\] is not a finite"),
        ([["a", 1], [1, 0]], "matrix of numbers"),
    ],
)
def test_bad_cost_matrices_are_refused(costs, message):
    with pytest.raises(ValueError, match=message):
        check_cost_matrix(costs, ["a", "b"])


def test_refusals_of_the_report():
    y, risk, _ = _data()
    pred = (risk >= 0.5).astype(int)
    with pytest.raises(ValueError, match="net_benefit needs scores="):
        cm.report(y, pred, net_benefit="0.1,0.2")
    with pytest.raises(ValueError, match="costs needs scores="):
        cm.compare(y, pred, pred, costs=[[0, 1], [1, 0]])
    with pytest.raises(ValueError, match=r"predicted probabilities in \[0, 1\]"):
        cm.report(y, pred, scores=risk * 3, net_benefit="0.1,0.2")
    with pytest.raises(ValueError, match=r"costs needs predicted probabilities"):
        cm.report(y, pred, scores=risk - 1, costs=[[0, 1], [1, 0]])
    y3 = np.arange(300) % 3
    p3 = np.full((300, 3), 1 / 3)
    with pytest.raises(ValueError, match=r"binary task.*3 classes"):
        cm.report(y3, y3, scores=p3, net_benefit="0.1")
    with pytest.raises(ValueError, match="3 x 3 matrix"):
        cm.report(y3, y3, scores=p3, costs=[[0, 1], [1, 0]])


def test_report_follows_a_plan():
    y, risk, _ = _data()
    pred = (risk >= 0.5).astype(int)
    plan = {
        "metrics": ["macro_recall", "accuracy~", "roc_auc", "net_benefit", "expected_cost"],
        "thresholds": [0.1, 0.3],
        "costs": [[0, 5], [1, 0]],
        "deployment_prevalence": 0.1,
    }
    r = cm.report(y, pred, scores=risk, plan=plan, size=SIZE)
    got = {row["metric"]: row for row in r.to_dict()["plan"]["metrics"]}
    assert got["macro_recall"]["estimate"] == r.intervals["macro_recall"].estimate
    assert got["accuracy~"]["estimate"] == cm.accuracy(cm.prevalence_calibrate(r.matrix))
    assert got["roc_auc"]["estimate"] == r.scores.ranking[1][0].estimate
    assert got["expected_cost"]["estimate"] == cm.expected_cost(r.matrix, plan["costs"])
    assert r.decision_curve.curve.threshold.tolist() == [0.1, 0.3]
    assert r.bayes is not None
    se, sp = (r.binary[k]["estimate"] for k in ("sensitivity", "specificity"))
    ppv = se * 0.1 / (se * 0.1 + (1 - sp) * 0.9)
    assert r.to_dict()["plan"]["deployment"]["precision"] == pytest.approx(ppv, abs=1e-15)
    assert str(r).index("Metric plan") < str(r).index("Confusion matrix")
    # Without scores, metrics of the matrix and the predictions' cost only.
    r = cm.report(y, pred, plan={"metrics": ["mcc", "expected_cost"], "costs": [[0, 5], [1, 0]]})
    assert [row["metric"] for row in r.to_dict()["plan"]["metrics"]] == ["mcc", "expected_cost"]
    with pytest.raises(ValueError, match="the plan's roc_auc needs scores="):
        cm.report(y, pred, plan={"metrics": ["roc_auc"]})
    with pytest.raises(ValueError, match="unknown metric 'auc'"):
        cm.report(y, pred, plan={"metrics": ["auc"]})
    y3 = np.arange(300) % 3
    with pytest.raises(ValueError, match="need two classes; there are 3"):
        cm.report(y3, y3, plan={"metrics": ["sensitivity"]})
