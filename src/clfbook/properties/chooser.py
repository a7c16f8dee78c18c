"""A chooser that asks about the problem: fingerprint questions, a pool of metrics, a plan.

After Metrics Reloaded (Maier-Hein et al. 2024; Reinke et al. 2024 for the pitfalls):
the problem's *fingerprint* comes first, in plain words (:data:`QUESTIONS`), and
the answer is a *pool* of metrics, each with the reason it is there. For the metrics
of the confusion matrix the reason is a property **computed** by the probes of
chapter 10 (:func:`clfbook.properties.property_table`): the answers ask for a set of
properties (:func:`required_properties`), and a metric is in the pool exactly when
its row of the computed table has them all (:func:`clfbook.properties.rows_with`);
a metric left out names the property it lacks. Each entry links to the section of
the book that demonstrates its pitfall (:data:`PITFALLS`). The metrics of scores,
costs and decisions follow from the answers alone (no probe covers them), and say so.

:func:`metric_plan` writes the pool as the plan ``python -m clfmetrics report --plan``
follows (:mod:`clfmetrics.reporting`'s plan: metrics, thresholds, costs, deployment
prevalence).
"""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass, field

from .cases import CALIBRATED_SUFFIX, PROPERTIES
from .choose import rows_with

#: The fingerprint questions: key, the question in plain words, the answers (key: words).
QUESTIONS = {
    "classes": (
        "How many classes are there?",
        {"two": "two (a positive and a negative class)", "more": "more than two"},
    ),
    "costs": (
        "Do the two kinds of error (or the confusions between classes) cost different amounts?",
        {
            "known": "yes, and we can put numbers on the costs",
            "unequal": "yes, but we cannot put numbers on them",
            "equal": "no, every error counts the same",
        },
    ),
    "prevalence": (
        "Are the classes as common in the test set as where the system will be used?",
        {
            "same": "yes, the test set is a sample of the deployment",
            "known": "no, but we know how common they are there",
            "unknown": "no, and we do not know how common they will be",
        },
    ),
    "imbalance": (
        "Should a rare class count as much as a common one?",
        {"yes": "yes, every class matters equally", "no": "no, every item matters equally"},
    ),
    "output": (
        "What does the system hand on?",
        {
            "labels": "a label for each item (a hard decision)",
            "threshold": "a score, cut at a threshold fixed in advance",
            "sensitivity": "a score, cut where it reaches a target sensitivity",
        },
    ),
    "calibration": (
        "Will the scores be read as probabilities (risks) by someone downstream?",
        {"yes": "yes, the numbers themselves are used", "no": "no, only their order or the cut"},
    ),
}


@dataclass(frozen=True)
class Pitfall:
    """Where the book demonstrates a metric's pitfall: a chapter's label and a section title.

    Parameters
    ----------
    label : str
        The chapter's MyST label (``{ref}`` target).
    section : str
        The title of the section (a ``##`` heading of that chapter).
    what : str
        The pitfall, in a sentence.
    """

    label: str
    section: str
    what: str


PITFALLS = {
    "accuracy": Pitfall(
        "ch-accuracy-micro",
        "A surprise: the accuracy paradox",
        "a classifier that never finds the rare class can have the best accuracy",
    ),
    "macro_recall": Pitfall(
        "ch-prevalence-calibration",
        "Calibrated accuracy is macro recall",
        "it is accuracy with every class made equally common, so it hides how common errors "
        "are at deployment",
    ),
    "geometric_macro_recall": Pitfall(
        "ch-recall-variants",
        "One family of means",
        "one class with recall 0 sends it to 0 whatever the others do",
    ),
    "harmonic_macro_recall": Pitfall(
        "ch-recall-variants",
        "One family of means",
        "the worst class dominates it",
    ),
    "macro_precision": Pitfall(
        "ch-f-measure-paradox",
        "When precision and recall are undefined",
        "a class never predicted has precision 0/0, and the library's convention decides",
    ),
    "macro_f1": Pitfall(
        "ch-two-macro-f1",
        "The gap in closed form",
        "two formulas share the name; say which one (and its 0/0 convention)",
    ),
    "f1_of_averages": Pitfall(
        "ch-two-macro-f1",
        'What "rewards biased classifiers" means',
        "averaging precision and recall first rewards a biased classifier",
    ),
    "weighted_f1": Pitfall(
        "ch-weighted-f1",
        "The smallest error that raises weighted F1",
        "one more error can raise it",
    ),
    "kappa": Pitfall(
        "ch-kappa-mcc",
        "More errors, higher score",
        "more errors can give a higher score",
    ),
    "mcc": Pitfall(
        "ch-kappa-mcc",
        "More errors, higher score",
        "more errors can give a higher score",
    ),
    "roc_auc": Pitfall(
        "ch-scores-thresholds",
        "Why ROC ignores the prevalence and PR does not",
        "it ignores the prevalence, so it says nothing about precision at deployment",
    ),
    "average_precision": Pitfall(
        "ch-scores-thresholds",
        "Precision at low prevalence",
        "it moves with the prevalence of the test set",
    ),
    "sensitivity": Pitfall(
        "ch-scores-thresholds",
        "Choose on validation, report on test",
        "a threshold chosen on the test set makes the test sensitivity optimistic",
    ),
    "specificity": Pitfall(
        "ch-scores-thresholds",
        "Choose on validation, report on test",
        "a threshold chosen on the test set makes the test numbers optimistic",
    ),
    "brier_score": Pitfall(
        "ch-probabilities",
        "Scores that reward honest probabilities",
        "it mixes calibration and discrimination; read the reliability diagram beside it",
    ),
    "log_loss": Pitfall(
        "ch-probabilities",
        "Scores that reward honest probabilities",
        "one confident mistake dominates it",
    ),
    "expected_cost": Pitfall(
        "ch-decisions",
        "Bayes decisions for ten classes",
        "it is only as right as the cost matrix; the Bayes decision needs calibrated probabilities",
    ),
    "net_benefit": Pitfall(
        "ch-decisions",
        "A decision curve is only as good as the probabilities",
        "it is a decision measure at a threshold probability, only as good as the "
        "probabilities are calibrated",
    ),
}

#: The thresholds of interest when the costs are unequal but unknown: a range of exchange rates.
UNKNOWN_COST_THRESHOLDS = (0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5)


@dataclass(frozen=True)
class Entry:
    """One metric of the pool, or one left out.

    Parameters
    ----------
    metric : str
        The name ``report --plan`` knows (``name~``: of the prevalence-calibrated matrix).
    reason : str
        Why it is in (or out), in words.
    properties : dict
        The computed properties the reason rests on, ``{code: holds}`` (empty for
        metrics that no probe covers).
    pitfall : Pitfall or None
    """

    metric: str
    reason: str
    properties: dict = field(default_factory=dict)
    pitfall: Pitfall | None = None


@dataclass(frozen=True)
class Choice:
    """What :func:`choose` returns.

    Parameters
    ----------
    answers : dict
    required : tuple of str
        The property codes the answers ask of a metric of the confusion matrix.
    pool : tuple of Entry
    left_out : tuple of Entry
        The metrics of the property table outside the pool, each with what it lacks.
    thresholds : tuple of float or None
    notes : tuple of str
    """

    answers: dict
    required: tuple
    pool: tuple
    left_out: tuple
    thresholds: tuple | None
    notes: tuple


def check_answers(answers: dict) -> dict:
    """``answers`` with every question answered by one of its keys, or a ValueError."""
    unknown = [k for k in answers if k not in QUESTIONS]
    if unknown:
        raise ValueError(f"unknown question {unknown[0]!r}; the questions are {list(QUESTIONS)}")
    out = {}
    for key, (_, options) in QUESTIONS.items():
        if key not in answers:
            raise ValueError(f"question {key!r} is not answered; answers: {list(options)}")
        if answers[key] not in options:
            raise ValueError(f"{key}={answers[key]!r} is not an answer; answers: {list(options)}")
        out[key] = answers[key]
    return out


def required_properties(answers: dict) -> tuple:
    """The property codes a metric of the confusion matrix must have, for ``answers``.

    - PI (monotonicity) always: a score that can rise with more errors cannot rank
      systems;
    - PII (class sensitivity) where a rare class must count as much as a common one;
    - PIV (prevalence invariance) where the test set's class shares are not the
      deployment's.
    """
    a = check_answers(answers)
    codes = ["PI"]
    if a["imbalance"] == "yes":
        codes.append("PII")
    if a["prevalence"] != "same":
        codes.append("PIV")
    return tuple(c for c in PROPERTIES if c in codes)


def _matrix_entries(rows: dict, required: tuple, calibrated: bool):
    """The metrics of the property table in the pool and left out, from its computed rows."""
    chosen = rows_with(rows, required, calibrated=calibrated)
    pool, out = [], []
    words = ", ".join(f"{c} ({PROPERTIES[c]})" for c in required)
    for name, props in rows.items():
        base = name.removesuffix(CALIBRATED_SUFFIX)
        evidence = {c: bool(props[c]) for c in required}
        if name in chosen:
            which = "of the prevalence-calibrated matrix; " if name != base else ""
            pool.append(
                Entry(
                    name, f"{which}has {words}, as the probes compute", evidence, PITFALLS.get(base)
                )
            )
        elif name == base:
            lacks = [c for c in required if not props[c]]
            out.append(
                Entry(
                    name,
                    "lacks " + ", ".join(f"{c} ({PROPERTIES[c]})" for c in lacks),
                    evidence,
                    PITFALLS.get(base),
                )
            )
    return pool, out


def choose(answers: dict, table_rows: dict) -> Choice:
    """The pool of metrics for ``answers`` (every question of :data:`QUESTIONS`).

    Parameters
    ----------
    answers : dict
        ``{question: answer key}``.
    table_rows : dict
        ``PropertyTable.as_dict()`` of the computed table (rows ``name`` and ``name~``).
    """
    a = check_answers(answers)
    required = required_properties(a)
    # Calibrated rows are offered where the test set's class shares are not the deployment's:
    # they are metrics of a matrix with every class equally common.
    pool, left_out = _matrix_entries(table_rows, required, calibrated=a["prevalence"] != "same")
    notes = []
    scored, binary = a["output"] != "labels", a["classes"] == "two"
    if scored:
        ranking = "the scores' ranking, before any threshold"
        pool.append(
            Entry(
                "roc_auc",
                ranking + ("" if binary else " (macro, one class against the rest)"),
                pitfall=PITFALLS["roc_auc"],
            )
        )
    if scored and binary:
        if a["prevalence"] == "same":
            pool.append(
                Entry(
                    "average_precision",
                    "precision across recall at this prevalence",
                    pitfall=PITFALLS["average_precision"],
                )
            )
        pool += [
            Entry(m, "the two rates at the operating point", pitfall=PITFALLS[m])
            for m in ("sensitivity", "specificity")
        ]
    if scored and a["calibration"] == "yes":
        pool += [
            Entry(
                m,
                "a strictly proper scoring rule: it rewards honest probabilities",
                pitfall=PITFALLS[m],
            )
            for m in ("brier_score", "log_loss")
        ]
    elif not scored and a["calibration"] == "yes":
        notes.append("calibration needs scores; with labels alone there is nothing to calibrate")
    if a["costs"] == "known":
        pool.append(
            Entry(
                "expected_cost",
                "the mean cost of the decisions under the known costs",
                pitfall=PITFALLS["expected_cost"],
            )
        )
    thresholds = None
    if scored and binary and a["costs"] != "equal":
        thresholds = UNKNOWN_COST_THRESHOLDS
        pool.append(
            Entry(
                "net_benefit",
                "the net benefit across the threshold probabilities (exchange rates) of interest",
                pitfall=PITFALLS["net_benefit"],
            )
        )
    if a["prevalence"] == "known" and not binary:
        notes.append(
            "the deployment prevalence enters the plan for two classes only; with more, "
            "recompute the precisions at the deployment's class shares by hand"
        )
    if a["prevalence"] == "known" and binary:
        notes.append(
            "the plan carries the deployment prevalence: the report gives the precision "
            "the test's sensitivity and specificity imply there"
        )
    if a["prevalence"] == "unknown":
        notes.append(
            "with the deployment prevalence unknown, report prevalence-free metrics and "
            "say so; precision cannot be quoted for deployment"
        )
    return Choice(a, required, tuple(pool), tuple(left_out), thresholds, tuple(notes))


def every_answer():
    """Every combination of answers, in a fixed order."""
    keys = list(QUESTIONS)
    for values in itertools.product(*(list(QUESTIONS[k][1]) for k in keys)):
        yield dict(zip(keys, values, strict=True))


def metric_plan(choice: Choice, *, costs=None, deployment_prevalence=None, thresholds=None):
    """The plan of ``choice`` as a dict (``json.dumps`` it for ``report --plan``).

    Parameters
    ----------
    costs : list of list of float, optional
        The cost matrix (rows = predicted, columns = true, matrix order); needed when the
        costs are known.
    deployment_prevalence : float, optional
        The positive class's share at deployment; used when it is known (two classes).
    thresholds : sequence of float, optional
        Threshold probabilities of interest instead of the chooser's range.
    """
    a = choice.answers
    if a["costs"] == "known" and costs is None:
        raise ValueError("the costs are known: pass costs= (rows = predicted, columns = true)")
    binary_known = a["prevalence"] == "known" and a["classes"] == "two"
    if binary_known and deployment_prevalence is None:
        raise ValueError("the deployment prevalence is known: pass deployment_prevalence=")
    plan = {
        "metrics": [e.metric for e in choice.pool],
        "answers": dict(a),
        "reasons": {e.metric: e.reason for e in choice.pool},
    }
    if "net_benefit" in plan["metrics"]:
        plan["thresholds"] = list(thresholds or choice.thresholds)
    if a["costs"] == "known":
        plan["costs"] = [list(map(float, row)) for row in costs]
    if binary_known:
        plan["deployment_prevalence"] = float(deployment_prevalence)
    return plan


def plan_text(plan: dict) -> str:
    """The text of the plan file :func:`write_plan` writes (JSON, indented by two spaces)."""
    return json.dumps(plan, indent=2) + "\n"


def write_plan(plan: dict, path) -> None:
    """Write ``plan`` as the JSON file ``report --plan`` reads."""
    with open(path, "w", encoding="utf-8") as f:
        f.write(plan_text(plan))
