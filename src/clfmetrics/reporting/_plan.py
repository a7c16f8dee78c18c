"""A metric plan: the metrics, thresholds, costs and deployment prevalence chosen beforehand.

A plan is a small JSON object, written before the test set is looked at (the book's
chooser, ``clfbook.properties.chooser``, writes one from answers about the problem)::

    {"metrics": ["macro_recall", "roc_auc", "net_benefit"],
     "thresholds": [0.1, 0.2, 0.3],
     "costs": [[0, 5], [1, 0]],
     "deployment_prevalence": 0.02}

Only ``metrics`` is required; ``answers`` and ``reasons`` (what led to the plan) are
kept and shown, never read. The report follows it: ``thresholds`` become the decision
curve's (``net_benefit=``), ``costs`` the Bayes decisions' (``costs=``), and a section
"Metric plan" gives each planned metric's estimate with its interval where the report
has one, in the plan's order. ``name~`` is the metric of the prevalence-calibrated
matrix; ``deployment_prevalence`` (binary) adds the precision and NPV the test's
sensitivity and specificity give at that prevalence.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .._base.numbers import num
from ..metrics import METRICS, prevalence_calibrate
from ..scores import expected_cost
from ._decisions import check_cost_matrix, parse_thresholds
from ._render import Section

#: Metrics of the scores (they need ``scores=``), beside those of METRICS and ``name~``.
SCORE_METRICS = ("roc_auc", "average_precision", "brier_score", "log_loss")
#: Metrics of the binary rates (two classes).
RATE_METRICS = ("sensitivity", "specificity")
#: Metrics of the decision sections: net benefit (needs thresholds), expected cost (costs).
DECISION_METRICS = ("net_benefit", "expected_cost")
KEYS = ("metrics", "thresholds", "costs", "deployment_prevalence", "answers", "reasons")


def plan_metrics() -> list[str]:
    """Every name a plan's ``metrics`` may hold."""
    names = list(METRICS)
    return [*names, *(n + "~" for n in names), *SCORE_METRICS, *RATE_METRICS, *DECISION_METRICS]


@dataclass(frozen=True)
class Plan:
    """A checked metric plan (see the module's text).

    Parameters
    ----------
    metrics : tuple of str
    thresholds : ndarray or None
    costs : list of list of float, or None
    deployment_prevalence : float or None
    answers : dict
    reasons : dict
    """

    metrics: tuple
    thresholds: np.ndarray | None
    costs: list | None
    deployment_prevalence: float | None
    answers: dict
    reasons: dict


def check_plan(plan) -> Plan:
    """``plan`` (a mapping, as JSON gives it) checked: unknown keys or metrics raise."""
    if not isinstance(plan, dict):
        raise ValueError(f"a metric plan is a JSON object; got {type(plan).__name__}")
    unknown = [k for k in plan if k not in KEYS]
    if unknown:
        raise ValueError(f"the plan has unknown key {unknown[0]!r}; a plan's keys are {list(KEYS)}")
    metrics = plan.get("metrics")
    if not isinstance(metrics, list) or not metrics or not all(isinstance(m, str) for m in metrics):
        raise ValueError("the plan's 'metrics' must be a non-empty list of metric names")
    known = plan_metrics()
    bad = [m for m in metrics if m not in known]
    if bad:
        raise ValueError(f"the plan names unknown metric {bad[0]!r}; known: {', '.join(known)}")
    if len(set(metrics)) != len(metrics):
        twice = next(m for m in metrics if metrics.count(m) > 1)
        raise ValueError(f"the plan names metric {twice!r} twice")
    thresholds = plan.get("thresholds")
    if thresholds is not None:
        if isinstance(thresholds, bool) or not isinstance(thresholds, (list, str)):
            raise ValueError("the plan's 'thresholds' must be a list of threshold probabilities")
        thresholds = parse_thresholds(thresholds)
    if "net_benefit" in metrics and thresholds is None:
        raise ValueError("the plan names net_benefit but gives no 'thresholds'")
    costs = plan.get("costs")
    if costs is not None and not (
        isinstance(costs, list) and all(isinstance(r, list) for r in costs)
    ):
        raise ValueError("the plan's 'costs' must be a matrix: a list of rows of numbers")
    if "expected_cost" in metrics and costs is None:
        raise ValueError("the plan names expected_cost but gives no 'costs'")
    prevalence = plan.get("deployment_prevalence")
    if prevalence is not None:
        if isinstance(prevalence, bool) or not isinstance(prevalence, (int, float)):
            raise ValueError("the plan's 'deployment_prevalence' must be a number in (0, 1)")
        if not (math.isfinite(prevalence) and 0 < prevalence < 1):
            raise ValueError(
                f"the plan's 'deployment_prevalence' must lie strictly between 0 and 1; got "
                f"{prevalence:g}"
            )
        prevalence = float(prevalence)
    for key in ("answers", "reasons"):
        if not isinstance(plan.get(key, {}), dict):
            raise ValueError(f"the plan's {key!r} must be an object")
    return Plan(
        tuple(metrics), thresholds, costs, prevalence, plan.get("answers", {}),
        plan.get("reasons", {}),
    )  # fmt: skip


def needs_scores(plan: Plan) -> list[str]:
    """The plan's metrics (and thresholds) that only scores give."""
    out = [m for m in plan.metrics if m in SCORE_METRICS or m == "net_benefit"]
    return out + (["thresholds"] if plan.thresholds is not None and not out else [])


class PlanSection:
    """The section "Metric plan" of a report that follows ``plan``."""

    def __init__(self, rep, plan: Plan):
        self.plan = plan
        missing = [m for m in needs_scores(plan) if rep.scores is None]
        if missing:
            raise ValueError(
                f"the plan's {missing[0]} needs scores (the predicted probabilities); none given"
            )
        if any(m in RATE_METRICS for m in plan.metrics) or plan.deployment_prevalence:
            if rep.binary is None:
                raise ValueError(
                    "the plan's sensitivity, specificity and deployment_prevalence need two "
                    f"classes; there are {len(rep.labels)}"
                )
        self.costs = None
        if plan.costs is not None:
            self.costs = check_cost_matrix(plan.costs, rep.labels)
        self.rows = [self._row(rep, m) for m in plan.metrics]
        self.deployment = None
        rates = [rep.binary and rep.binary[k] for k in RATE_METRICS]
        if plan.deployment_prevalence is not None and all(rates):
            se, sp = (r["estimate"] for r in rates)
            pi = plan.deployment_prevalence
            with np.errstate(invalid="ignore", divide="ignore"):
                ppv = se * pi / (se * pi + (1 - sp) * (1 - pi))
                npv = sp * (1 - pi) / (sp * (1 - pi) + (1 - se) * pi)
            self.deployment = {"prevalence": pi, "precision": float(ppv), "npv": float(npv)}

    def _row(self, rep, name: str) -> dict:
        out = {"metric": name, "estimate": None, "low": None, "high": None, "where": ""}
        if name in rep.intervals:
            iv = rep.intervals[name]
            out.update(estimate=iv.estimate, low=iv.low, high=iv.high, where="Metrics")
        elif name.endswith("~"):
            value = float(METRICS[name[:-1]](prevalence_calibrate(rep.matrix.astype(float))))
            out.update(estimate=value, where="prevalence-calibrated matrix, no interval")
        elif name in SCORE_METRICS[:2]:
            key = rep.scores.positive if rep.scores.binary else None
            pair = rep.scores.ranking[key] if key is not None else (rep.scores.macro_auc, None)
            iv = pair[0] if name == "roc_auc" else pair[1]
            where = "Ranking" + ("" if key is not None else ", macro one-vs-rest")
            if iv is not None:
                out.update(estimate=iv.estimate, low=iv.low, high=iv.high, where=where)
        elif name in SCORE_METRICS:
            out.update(estimate=rep.scores.proper.get(name), where="Probabilities")
        elif name in RATE_METRICS:
            r = rep.binary[name]
            if r is not None:
                out.update(estimate=r["estimate"], low=r["low"], high=r["high"])
            out["where"] = "Binary rates"
        elif name == "net_benefit":
            out.update(where="Decision curve (one value per threshold)")
        else:  # expected_cost
            value = float(expected_cost(rep.matrix, self.costs))
            out.update(estimate=value, where="the predictions' mean cost; Bayes decisions below")
        return out

    def to_dict(self) -> dict:
        return {
            "metrics": self.rows,
            "thresholds": None if self.plan.thresholds is None else self.plan.thresholds.tolist(),
            "costs": None if self.costs is None else self.costs.tolist(),
            "deployment": self.deployment,
            "answers": self.plan.answers,
            "reasons": self.plan.reasons,
        }

    def sections(self) -> list[Section]:
        def cell(v):
            return "" if v is None else num(v)

        rows = [
            [r["metric"], cell(r["estimate"]), cell(r["low"]), cell(r["high"]), r["where"]]
            for r in self.rows
        ]
        notes = [f"{m}: {why}" for m, why in self.plan.reasons.items()]
        if self.deployment is not None:
            d = self.deployment
            notes.append(
                f"At the deployment prevalence {d['prevalence']:g}, this test set's sensitivity "
                f"and specificity give precision {num(d['precision'])} and NPV {num(d['npv'])} "
                "(Bayes' rule; it assumes that only the prevalence changes)."
            )
        return [
            Section(
                "Metric plan (chosen before the test set was seen)",
                ["metric", "estimate", "low", "high", "from"],
                rows,
                notes,
            )
        ]

    def figures(self) -> list[str]:
        return []


def follow_plan(rep, plan) -> None:
    """Give the report ``rep`` the section of ``plan`` (a mapping or a checked Plan)."""
    rep.plan = PlanSection(rep, plan if isinstance(plan, Plan) else check_plan(plan))
