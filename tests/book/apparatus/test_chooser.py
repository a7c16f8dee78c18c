"""The fingerprint chooser: its pool agrees with the computed property table on every
combination of answers, its links point at real sections, and its plan round-trips
through ``python -m clfmetrics report --plan``."""

from __future__ import annotations

import html
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
    plan_text,
    write_plan,
)
from clfbook.widgets import problem_chooser
from clfbook.widgets._page_specs import answers_key
from clfbook.widgets.page import page_spec
from clfbook.widgets.problem import (
    DEFAULT_COSTS,
    SCREENING,
    parse_costs,
    parse_prevalence,
    pitfall_links,
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


# --- the chooser's views: ipywidgets and the page's table ------------------------------------


def _decoded(spec: dict, answers: dict, costs: str, prevalence: str):
    """A combination of the page's table read as the page reads it (explorers.js, problem):
    the entries, the notes and the plan assembled from its keys and the reader's inputs."""
    c = spec["answers"][answers_key(answers)]
    pool = [spec["entries"][k] for k in c["pool"]]
    values = {
        "metrics": lambda: [e["metric"] for e in pool],
        "answers": lambda: dict(answers),
        "reasons": lambda: {e["metric"]: e["reason"] for e in pool},
        "thresholds": lambda: c["thresholds"],
        "costs": lambda: parse_costs(costs),
        "deployment_prevalence": lambda: parse_prevalence(prevalence),
    }
    return c, {key: values[key]() for key in c["plan"]}


def test_the_page_table_is_the_choosers_on_every_combination(rows):
    """The page's table (``problem_spec``, JSON as the page gets it) gives, for all 216
    combinations, the pool, the metrics left out, their reasons, evidence and pitfalls,
    the notes and the plan of :func:`choose` and :func:`metric_plan`."""
    ch = problem_chooser(rows)
    spec = json.loads(json.dumps(page_spec(ch)))  # what the page parses
    assert len(spec["answers"]) == len(ANSWERS)
    costs = {"two": "0 5; 1 0", "more": "0 1 2; 1 0 1; 2.5 1 0"}
    for answers in ANSWERS:
        choice = choose(answers, rows)
        c, plan = _decoded(spec, answers, costs[answers["classes"]], "0.02")
        assert c["required"] == list(choice.required)
        for got, want in ((c["pool"], choice.pool), (c["left_out"], choice.left_out)):
            entries = [spec["entries"][k] for k in got]
            assert [(e["metric"], e["reason"], e["properties"]) for e in entries] == [
                (e.metric, e.reason, e.properties) for e in want
            ]
            assert [spec["pitfalls"][e["pitfall"]]["what"] for e in entries] == [
                e.pitfall.what for e in want
            ]
        assert [spec["notes"][k] for k in c["notes"]] == list(choice.notes)
        known = answers["costs"] == "known"
        want = metric_plan(
            choice,
            costs=parse_costs(costs[answers["classes"]]) if known else None,
            deployment_prevalence=0.02,
        )
        assert plan == want
        assert plan_text(plan) == plan_text(want)
        assert list(plan) == list(want)  # the file's keys in the same order


def test_the_ipywidgets_chooser_shows_the_choosers_plan(rows):
    ch = problem_chooser(rows)
    assert ch.answers() == SCREENING
    assert ch.plan() == metric_plan(choose(SCREENING, rows), deployment_prevalence=0.02)
    assert plan_text(ch.plan()) in html.unescape(ch.result.value)
    ch.answer(costs="known")
    assert ch.plan()["costs"] == [[0.0, 5.0], [1.0, 0.0]]
    ch.answer(classes="more")  # the starting matrix follows the classes
    assert ch.costs.value == DEFAULT_COSTS["more"] and "deployment_prevalence" not in ch.plan()
    ch.costs.value = "0 1; 3 0"
    ch.answer(classes="two")  # the reader's own matrix stays
    assert ch.plan()["costs"] == [[0.0, 1.0], [3.0, 0.0]]
    ch.prevalence.value = "1.5"
    assert "strictly between 0 and 1, not 1.5" in ch.status.value
    assert "<pre></pre>" in ch.result.value
    with pytest.raises(ValueError, match="'colour'"):
        ch.answer(colour="red")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("0 1", "square matrix of at least 2 x 2"),
        ("0 1; 2", "got rows of [2, 1] numbers"),
        ("0 1; -1 0", "must not be negative"),
        ("0 x; 1 0", "a cost must be a number such as 0.5, not \u201cx\u201d"),
        ("0 1e999; 1 0", "must be a finite number"),
        ("0 \u0661; 1 0", "must be a number"),  # an Arabic-Indic one: Python's float reads it
    ],
)
def test_bad_costs_are_refused(text, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        parse_costs(text)


@pytest.mark.parametrize("text", ["0", "1", "-0.1", "", "nan", "inf", "0,5"])
def test_bad_prevalences_are_refused(text):
    with pytest.raises(ValueError, match="deployment prevalence"):
        parse_prevalence(text)


def test_costs_and_prevalences_are_read_as_written():
    assert parse_costs("0, 2.5\n1e-5 ,0") == [[0.0, 2.5], [1e-5, 0.0]]
    assert parse_prevalence(" .05 ") == 0.05 and parse_prevalence("2e-3") == 0.002


def test_pitfall_links_point_at_the_sections_sphinx_names():
    from docutils.nodes import make_id

    links = pitfall_links()
    assert set(links) == set(PITFALLS)
    for metric, pit in PITFALLS.items():
        page, anchor = links[metric].split("#")
        assert anchor == make_id(pit.section)
        text = (CHAPTERS / page.replace(".html", ".md")).read_text(encoding="utf-8")
        assert f"({pit.label})=" in text and f"\n## {pit.section}\n" in text
    with pytest.raises(ValueError, match="chapters of"):
        pitfall_links(CHAPTERS / "no-such-folder")
