"""From the problem to a plan: six questions, the pool of metrics and the plan file, live.

A thin view of :mod:`clfbook.properties.chooser` (the logic and its tests live there):
one group of radio buttons per fingerprint question (:data:`~clfbook.properties.chooser.
QUESTIONS`), the deployment prevalence and the cost matrix where the answers need them,
and a readout of the properties the answers ask for, the pool (each metric with its
reason and the section that demonstrates its pitfall), the metrics left out, the notes,
and the text of the plan file that ``python -m clfmetrics report --plan`` follows. The
page version (``clfbook.widgets.page``) reads a table of all 216 answers, computed here
by :func:`~clfbook.properties.chooser.choose`, so it gives the same pool and plan with no
kernel.

The two text inputs are read by :func:`parse_prevalence` and :func:`parse_costs`, which
accept the numbers the page accepts (written with digits, a point and an exponent).
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import ipywidgets as w

from ..properties.chooser import (
    PITFALLS,
    QUESTIONS,
    Choice,
    check_answers,
    choose,
    metric_plan,
    plan_text,
)
from ._base import Explorer, row
from .chooser import _check_table

__all__ = [
    "DEFAULT_COSTS",
    "ProblemChooser",
    "parse_costs",
    "parse_prevalence",
    "pitfall_links",
    "problem_chooser",
    "section_id",
]

#: The answers the chooser starts from: the screening task of the chapter on scores.
SCREENING = {
    "classes": "two",
    "costs": "unequal",
    "prevalence": "known",
    "imbalance": "yes",
    "output": "threshold",
    "calibration": "yes",
}
#: The deployment prevalence the input starts with (the screened population's 2 %).
DEFAULT_PREVALENCE = "0.02"
#: The cost matrix the input starts with, per answer to "classes" (rows = predicted,
#: columns = true; rows separated by ";"): a miss five times a false alarm, and |i - j|.
DEFAULT_COSTS = {"two": "0 5; 1 0", "more": "0 1 2; 1 0 1; 2 1 0"}
#: A number as both inputs accept it (the page's parser uses the same pattern).
NUMBER = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
#: The book's chapters, whose labels and headings the pitfall links point at.
CHAPTERS = Path(__file__).resolve().parents[3] / "chapters"


def _number(text: str, what: str) -> float:
    if not NUMBER.fullmatch(text):
        raise ValueError(f"{what} must be a number such as 0.5, not \u201c{text}\u201d")
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise ValueError(f"{what} must be a finite number, not \u201c{text}\u201d")
    return value


def parse_prevalence(text: str) -> float:
    """The deployment prevalence written in ``text``: a number strictly between 0 and 1."""
    value = _number(str(text).strip(), "the deployment prevalence")
    if not 0 < value < 1:
        raise ValueError(
            f"the deployment prevalence must lie strictly between 0 and 1, not {value!r}"
        )
    return value


def parse_costs(text: str) -> list[list[float]]:
    """The cost matrix written in ``text``: rows separated by ``;`` (or new lines), numbers
    by spaces or commas; square, at least 2 x 2, no negative cost.

    Examples
    --------
    >>> parse_costs("0 5; 1 0")
    [[0.0, 5.0], [1.0, 0.0]]
    """
    rows = [r.strip() for r in re.split(r"[;\n]", str(text)) if r.strip()]
    matrix = [[_number(x, "a cost") for x in re.split(r"[,\s]+", r) if x] for r in rows]
    n = len(matrix)
    if n < 2 or any(len(r) != n for r in matrix):
        raise ValueError(
            "the costs must be a square matrix of at least 2 x 2 (rows = predicted, columns = "
            f"true; rows separated by ;); got rows of {[len(r) for r in matrix]} numbers"
        )
    if any(x < 0 for r in matrix for x in r):
        raise ValueError("a cost must not be negative")
    return matrix


def section_id(title: str) -> str:
    """The id Sphinx gives the section ``title`` (docutils' ``make_id`` for ASCII titles)."""
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")


def pitfall_links(chapters: Path = CHAPTERS) -> dict:
    """``{metric: "page.html#section"}``: where each pitfall of
    :data:`~clfbook.properties.chooser.PITFALLS` is shown, relative to a chapter's page.

    Raises
    ------
    ValueError
        If a pitfall's label is not defined by exactly one chapter of ``chapters``.
    """
    owner = {}
    for path in sorted(Path(chapters).glob("*.md")):
        for label in re.findall(r"^\(([\w-]+)\)=$", path.read_text(encoding="utf-8"), re.M):
            owner.setdefault(label, []).append(path.stem)
    links = {}
    for metric, pit in PITFALLS.items():
        pages = owner.get(pit.label, [])
        if len(pages) != 1:
            raise ValueError(
                f"the pitfall of {metric} points at {pit.label!r}, which {len(pages)} chapters "
                f"of {chapters} define (one is needed)"
            )
        links[metric] = f"{pages[0]}.html#{section_id(pit.section)}"
    return links


def _pitfall_key(entry) -> str | None:
    return next((k for k, p in PITFALLS.items() if p is entry.pitfall), None)


def readout_html(choice: Choice, plan: str) -> str:
    """The chooser's readout: required properties, pool, left out, notes and plan text."""
    esc = html.escape
    pool = "".join(
        f"<li><code>{esc(e.metric)}</code>: {esc(e.reason)}"
        + (
            f" <i>Pitfall:</i> {esc(e.pitfall.what)} ({esc(e.pitfall.section)})"
            if e.pitfall
            else ""
        )
        + "</li>"
        for e in choice.pool
    )
    out = "".join(
        f"<li><code>{esc(e.metric)}</code>: {esc(e.reason)}</li>" for e in choice.left_out
    )
    notes = "".join(f"<li>{esc(n)}</li>" for n in choice.notes)
    return (
        f"<p><b>Required of a metric of the matrix:</b> {esc(', '.join(choice.required))}</p>"
        f"<p><b>The pool</b></p><ul>{pool}</ul>"
        f"<details><summary>{len(choice.left_out)} metrics left out</summary><ul>{out}</ul>"
        "</details>"
        + (f"<ul>{notes}</ul>" if notes else "")
        + f"<p><b>The plan</b> (plan.json)</p><pre>{esc(plan)}</pre>"
    )


class ProblemChooser(Explorer):
    """Radio buttons for the six questions, two inputs, the pool and the plan, live."""

    def __init__(self, table, answers=None):
        self.table = _check_table(table)
        start = check_answers(SCREENING if answers is None else answers)
        self.questions = {
            key: w.RadioButtons(
                options=[(words, k) for k, words in options.items()],
                value=start[key],
                layout=w.Layout(width="auto"),
            )
            for key, (_, options) in QUESTIONS.items()
        }
        self.prevalence = w.Text(value=DEFAULT_PREVALENCE, description="deployment prevalence")
        self.costs = w.Text(value=DEFAULT_COSTS[start["classes"]], description="costs")
        for widget in (*self.questions.values(), self.prevalence, self.costs):
            widget.observe(self._on_change, names="value")
        self.status = w.HTML()
        self.result = w.HTML()
        self._muted = False
        groups = [
            w.VBox([w.HTML(f"<b>{html.escape(q)}</b>"), self.questions[key]])
            for key, (q, _) in QUESTIONS.items()
        ]
        self.view = w.VBox([row(groups), row([self.prevalence, self.costs]), self.status,
                            self.result])  # fmt: skip
        self._refresh()

    def answer(self, **answers) -> None:
        """Pick answers, e.g. ``answer(classes="more", output="labels")``."""
        check_answers({**self.answers(), **answers})
        self._muted = True
        try:
            for key, value in answers.items():
                self.questions[key].value = value
        finally:
            self._muted = False
        self._refresh()

    def answers(self) -> dict:
        """The answers picked, ``{question: answer key}``."""
        return {key: radio.value for key, radio in self.questions.items()}

    def choice(self) -> Choice:
        """:func:`~clfbook.properties.chooser.choose` of the answers picked."""
        return choose(self.answers(), self.table)

    def plan(self) -> dict:
        """The plan of the answers, with the inputs' prevalence and costs where it needs them.

        Raises
        ------
        ValueError
            If an input the plan needs cannot be read (:func:`parse_prevalence`,
            :func:`parse_costs`).
        """
        a = self.answers()
        costs = parse_costs(self.costs.value) if a["costs"] == "known" else None
        known = a["prevalence"] == "known" and a["classes"] == "two"
        prevalence = parse_prevalence(self.prevalence.value) if known else None
        return metric_plan(self.choice(), costs=costs, deployment_prevalence=prevalence)

    def _on_change(self, change) -> None:
        if change["owner"] is self.questions["classes"]:
            other = DEFAULT_COSTS["more" if change["new"] == "two" else "two"]
            if self.costs.value == other:  # the reader's own matrix stays
                self._muted, muted = True, self._muted
                self.costs.value = DEFAULT_COSTS[change["new"]]
                self._muted = muted
        if not self._muted:
            self._refresh()

    def _refresh(self) -> None:
        try:
            text = plan_text(self.plan())
            self.status.value = ""
        except ValueError as err:
            text = ""
            self.status.value = f"<b>{html.escape(str(err))}</b>"
        self.result.value = readout_html(self.choice(), text)


def problem_chooser(table, answers=None):
    """Answer six questions about the problem; see the pool of metrics and its plan.

    Parameters
    ----------
    table : PropertyTable or mapping {metric name: {property code: bool}}
        The computed property table (:func:`clfbook.properties.property_table`), rows
        ``name`` and ``name~``.
    answers : dict, optional
        The starting answers (default: the screening task, :data:`SCREENING`).

    Returns
    -------
    ProblemChooser
        ``answer(**answers)``, ``choice()``, ``plan()`` drive and read it.

    Examples
    --------
    >>> codes = ["PI", "PII", "PIII", "PIV", "PV"]
    >>> table = {"accuracy": dict.fromkeys(codes, False)}
    >>> table["macro_recall"] = dict.fromkeys(codes, True)
    >>> ch = problem_chooser(table)  # in the book: the computed property_table()
    >>> ch.plan()["metrics"][:3]
    ['macro_recall', 'roc_auc', 'sensitivity']
    >>> ch.answer(output="labels", calibration="no", costs="equal")
    >>> "net_benefit" in ch.plan()["metrics"]
    False
    """
    return ProblemChooser(table, answers)
