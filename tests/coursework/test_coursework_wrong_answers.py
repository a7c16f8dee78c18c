"""Issue 40: every graded exercise refuses the plausible wrong answers listed beside it.

``chapters/wrong-answers.yml`` names, per exercise label, wrong answers as code that rebinds
the exercise's answer names. Each chapter's code cells run once, in order, in this process (as
a student's Run All would, without the check cells). Where an exercise's solution cells end,
its public and hidden checks run on a copy of the namespace: the chapter's own answer must
pass them; each wrong answer, run on another copy, must fail at least one of them, since a
question scores all or nothing (:mod:`clfcourse.master`). The grader runs the same cells on
the student's values in a kernel (``test_coursework_hostile`` and the mini batches show that
path); here only what the checks accept is in question.
"""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import matplotlib
import matplotlib.pyplot as plt
import pytest
import yaml
from coursework_products import book_assignment

from clfcourse.exercises import notebook_chapters

ROOT = Path(__file__).resolve().parents[2]
WRONG = yaml.safe_load((ROOT / "chapters" / "wrong-answers.yml").read_text())
CHAPTERS = [p for p in notebook_chapters(ROOT) if book_assignment(p).graded]


def _checks(assignment, exercise) -> list[str]:
    cells = assignment.notebook.cells
    return [cells[k].source for k in exercise.check_cells + exercise.hidden_cells]


def _run(sources: list[str], namespace: dict) -> None:
    with contextlib.redirect_stdout(io.StringIO()):
        for source in sources:
            exec(source, namespace)


def _refusal(checks: list[str], namespace: dict) -> str | None:
    """The first failing check's message, or None when every check passes."""
    try:
        _run(checks, namespace)
    except Exception as error:  # a check that raises anything refuses the answer
        return f"{type(error).__name__}: {error}"
    return None


def test_every_graded_exercise_lists_two_wrong_answers():
    graded = {ex.label for p in CHAPTERS for ex in book_assignment(p).graded}
    assert graded, "the chapters hold graded exercises"
    assert set(WRONG) <= graded, f"wrong answers of no graded exercise: {set(WRONG) - graded}"
    few = sorted(label for label in graded if len(WRONG.get(label) or {}) < 2)
    assert not few, f"graded exercises with fewer than two wrong answers listed: {few}"


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda p: p.stem)
def test_the_checks_pass_the_solution_and_refuse_every_wrong_answer(chapter, monkeypatch):
    matplotlib.use("Agg")
    monkeypatch.chdir(chapter.parent)
    assignment = book_assignment(chapter)
    cells = assignment.notebook.cells
    ends = {max(ex.solution_cells): ex for ex in assignment.graded}
    checking = {k for ex in assignment.graded for k in ex.check_cells + ex.hidden_cells}
    namespace: dict = {}
    scored, failed = [], []
    for k, cell in enumerate(cells):
        if cell.cell_type != "code" or k in checking:
            continue
        _run([cell.source], namespace)
        plt.close("all")  # as a notebook's inline backend does after each cell
        if k not in ends:
            continue
        exercise = ends[k]
        checks = _checks(assignment, exercise)
        if (why := _refusal(checks, dict(namespace))) is not None:
            failed.append(f"{exercise.label}: the chapter's own answer fails ({why})")
        for name, code in (WRONG.get(exercise.label) or {}).items():
            attempt = dict(namespace)
            _run([code], attempt)  # a wrong answer that does not run is a slip of this file
            if _refusal(checks, attempt) is None:
                scored.append(f"{exercise.label}: {name!r} scores")
    assert not failed, failed
    assert not scored, scored
