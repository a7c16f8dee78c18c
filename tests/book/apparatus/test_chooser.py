"""The fingerprint chooser: its pool agrees with the computed property table on every
combination of answers, its links point at real sections, and its plan round-trips
through ``python -m clfmetrics report --plan``."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from clfbook.properties import PROPERTIES, TABLE_METRICS, property_table
from clfbook.properties.chooser import (
    PITFALLS,
    QUESTIONS,
    check_answers,
    choose,
    every_answer,
    metric_plan,
    write_plan,
)
from clfmetrics.io import run
from clfmetrics.reporting import check_plan

CHAPTERS = Path(__file__).resolve().parents[3] / "chapters"
ANSWERS = list(every_answer())


@pytest.fixture(scope="module")
def rows():
    return property_table().as_dict()


def test_every_combination_is_enumerated():
    sizes = [len(options) for _, options in QUESTIONS.values()]
    assert len(ANSWERS) == int(np.prod(sizes)) == len({json.dumps(a) for a in ANSWERS})


@pytest.mark.parametrize("answers", ANSWERS, ids=lambda a: "-".join(a.values()))
def test_the_pool_agrees_with_the_computed_table(rows, answers):
    choice = choose(answers, rows)
    required = set(choice.required)
    # What each answer asks for, in the table's terms.
    assert "PI" in required
    assert ("PII" in required) == (answers["imbalance"] == "yes")
    assert ("PIV" in required) == (answers["prevalence"] != "same")
    matrix = [e for e in choice.pool if e.metric.removesuffix("~") in TABLE_METRICS]
    # In the pool exactly when the computed row has every required property.
    expected = [
        name
        for name, props in rows.items()
        if all(props[c] for c in required)
        and (not name.endswith("~") or answers["prevalence"] != "same")
    ]
    assert [e.metric for e in matrix] == expected
    for e in matrix:
        assert (
            e.properties == {c: True for c in required} == {c: rows[e.metric][c] for c in required}
        )
    for e in choice.left_out:
        assert not all(rows[e.metric][c] for c in required)
        lacks = [c for c in choice.required if not rows[e.metric][c]]
        assert e.reason == "lacks " + ", ".join(f"{c} ({PROPERTIES[c]})" for c in lacks)
    assert {e.metric for e in matrix} | {e.metric for e in choice.left_out} >= set(TABLE_METRICS)
    names = [e.metric for e in choice.pool]
    assert len(names) == len(set(names))
    scored, binary = answers["output"] != "labels", answers["classes"] == "two"
    assert ("roc_auc" in names) == scored
    assert ("brier_score" in names) == (scored and answers["calibration"] == "yes")
    assert ("expected_cost" in names) == (answers["costs"] == "known")
    assert ("net_benefit" in names) == (scored and binary and answers["costs"] != "equal")
    assert ("sensitivity" in names) == (scored and binary)
    assert all(e.pitfall is not None for e in (*choice.pool, *choice.left_out))


def test_the_pitfalls_link_to_sections_that_exist():
    texts = {p.name: p.read_text(encoding="utf-8") for p in CHAPTERS.glob("*.md")}
    for metric, pit in PITFALLS.items():
        owner = [n for n, t in texts.items() if f"({pit.label})=" in t]
        assert len(owner) == 1, (metric, pit.label)
        assert re.search(rf"^## {re.escape(pit.section)}$", texts[owner[0]], re.M), (metric, pit)


def test_known_facts_of_the_table_show_in_the_pool(rows):
    base = {"classes": "more", "costs": "equal", "output": "labels", "calibration": "no"}
    strict = choose({**base, "prevalence": "unknown", "imbalance": "yes"}, rows)
    out = {e.metric: e for e in strict.left_out}
    assert "accuracy" in out and "PII" in out["accuracy"].reason  # the accuracy paradox
    assert "mcc" in out and "PI (monotonicity)" in out["mcc"].reason
    assert out["mcc"].pitfall.section == "More errors, higher score"
    assert "macro_recall" in [e.metric for e in strict.pool]


@pytest.mark.parametrize(
    ("answers", "message"),
    [
        ({"classes": "two"}, "is not answered"),
        ({**ANSWERS[0], "colour": "red"}, "unknown question 'colour'"),
        ({**ANSWERS[0], "costs": "maybe"}, "costs='maybe' is not an answer"),
    ],
)
def test_bad_answers_are_refused(answers, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        check_answers(answers)


def _files(tmp_path):
    rng = np.random.default_rng(0)
    n = 120
    y = rng.integers(0, 2, n)
    s = np.round(np.clip(0.4 * y + 0.6 * rng.random(n), 0, 1), 4)
    two = tmp_path / "two.csv"
    two.write_text(
        "y,pred,other,s\n"
        + "".join(f"{t},{int(v >= 0.5)},{int(v >= 0.4)},{v}\n" for t, v in zip(y, s, strict=True))
    )
    y3 = rng.integers(0, 3, n)
    p = rng.dirichlet([2, 2, 2], n).round(4)
    p[:, 2] = (1 - p[:, 0] - p[:, 1]).round(4)
    more = tmp_path / "more.csv"
    more.write_text(
        "y,pred,p0,p1,p2\n"
        + "".join(
            f"{t},{int(np.argmax(r))},{r[0]},{r[1]},{r[2]}\n" for t, r in zip(y3, p, strict=True)
        )
    )
    return two, more


def test_every_plan_round_trips_through_report_plan(rows, tmp_path, capsys):
    two, more = _files(tmp_path)
    seen = set()
    for answers in ANSWERS:
        choice = choose(answers, rows)
        binary = answers["classes"] == "two"
        costs = [[0, 5], [1, 0]] if binary else [[0, 1, 2], [1, 0, 1], [4, 1, 0]]
        plan = metric_plan(choice, costs=costs, deployment_prevalence=0.05)
        check_plan(plan)
        key = json.dumps({k: v for k, v in plan.items() if k not in ("answers", "reasons")})
        if key in seen:
            continue
        seen.add(key)
        path = tmp_path / "plan.json"
        write_plan(plan, path)
        argv = ["report", str(two if binary else more), "--truth", "y", "--pred", "pred"]
        if answers["output"] != "labels":
            argv += ["--scores", "s"] if binary else ["--proba", "p0", "p1", "p2"]
        status = run([*argv, "--plan", str(path), "--size", "30", "--json"])
        captured = capsys.readouterr()
        assert status == 0, (answers, captured.err)
        data = json.loads(captured.out)
        assert [r["metric"] for r in data["plan"]["metrics"]] == plan["metrics"]
        assert data["plan"]["answers"] == answers
        for r in data["plan"]["metrics"]:
            if r["metric"] in data["metrics"]:
                assert r["estimate"] == data["metrics"][r["metric"]]["estimate"]
            elif r["metric"] != "net_benefit":
                assert r["estimate"] is not None, (answers, r)
        if "thresholds" in plan:
            assert data["decision_curve"]["threshold"] == plan["thresholds"]
        if "costs" in plan and answers["output"] != "labels":
            assert data["bayes_decisions"]["costs"] == plan["costs"]
        if "deployment_prevalence" in plan:
            assert data["plan"]["deployment"]["prevalence"] == 0.05
    assert len(seen) > 20


@pytest.mark.parametrize(
    ("plan", "message"),
    [
        ({"metrics": ["accuracy"], "metric": []}, "unknown key 'metric'"),
        ({"metrics": ["accuracy", "f2"]}, "unknown metric 'f2'"),
        ({"metrics": []}, "non-empty list"),
        ({"metrics": ["accuracy", "accuracy"]}, "'accuracy' twice"),
        ({"metrics": ["net_benefit"]}, "gives no 'thresholds'"),
        ({"metrics": ["expected_cost"]}, "gives no 'costs'"),
        ({"metrics": ["accuracy"], "thresholds": [0.1, 1.0]}, "strictly between 0 and 1"),
        ({"metrics": ["accuracy"], "deployment_prevalence": 2}, "strictly between 0 and 1"),
        ({"metrics": ["accuracy"], "costs": [[0, -1], [1, 0]]}, "negative"),
        ({"metrics": ["accuracy"], "costs": [[0, 1, 1], [1, 0, 1], [1, 1, 0]]}, "2 x 2 matrix"),
        ({"metrics": ["roc_auc"]}, "needs the predicted probabilities"),
        ({"metrics": ["macro_f1"], "answers": []}, "'answers' must be an object"),
        ([1, 2], "a JSON object"),
    ],
)
def test_bad_plans_one_line_and_status_2(tmp_path, capsys, plan, message):
    two, _ = _files(tmp_path)
    path = tmp_path / "plan.json"
    path.write_text(json.dumps(plan))
    status = run(
        ["report", str(two), "--truth", "y", "--pred", "pred", "--plan", str(path), "--size", "30"]
    )
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1 and message in err, err


def test_a_plan_is_for_one_system(tmp_path, capsys):
    two, _ = _files(tmp_path)
    path = tmp_path / "plan.json"
    path.write_text('{"metrics": ["accuracy"]}')
    status = run(
        [
            "report",
            str(two),
            "--truth",
            "y",
            "--pred",
            "pred",
            "--pred",
            "other",
            "--plan",
            str(path),
        ]
    )
    assert status == 2 and "one --pred" in capsys.readouterr().err
