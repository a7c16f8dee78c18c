"""Coursework: student notebooks leak no solution, and the grader scores submissions correctly.

Execution is expensive (a fresh kernel each), so only chapter 1's teacher notebook runs a real
chapter; the failure cases run a two-exercise mini book written below in the same markup.
"""

from __future__ import annotations

import copy
import csv
import json
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import nbformat
import pytest

from clfmetrics.coursework import build_assignment, grade_notebook, write_assignments
from clfmetrics.coursework.__main__ import main
from clfmetrics.coursework.exercises import META, _State, strip_solutions
from clfmetrics.coursework.grading import inject_checks

ROOT = Path(__file__).resolve().parents[1]
CH01 = ROOT / "chapters" / "01-confusion-matrix.md"

FRONT = """---
jupytext:
  text_representation:
    extension: .md
    format_name: myst
    format_version: 0.13
kernelspec:
  display_name: Python 3
  language: python
  name: python3
---
"""

MINI = (
    FRONT
    + """
# Mini chapter

```{code-cell} ipython3
import numpy as np
m = np.array([[3, 1], [1, 5]])
```

## Exercises

```{exercise}
:label: ex-mini-total

Compute the number of items counted in `m` as `total`.
```

````{solution-start} ex-mini-total
:class: dropdown
````

Every item is counted exactly once somewhere in the matrix, so add all entries.

```{code-cell} ipython3
:tags: [solution]

total = int(m.sum())
```

````{solution-end}
````

```{code-cell} ipython3
:tags: [check, hide-input]

assert total == 10, "total must count every item of m exactly once"
```

```{exercise}
:label: ex-mini-diagonal

Put the correct mass of each class into `hits`.
```

````{solution-start} ex-mini-diagonal
:class: dropdown
````

The correct predictions sit on the main diagonal of the table.

```{code-cell} ipython3
:tags: [solution]

hits = np.diag(m).copy()
```

````{solution-end}
````

```{code-cell} ipython3
:tags: [check, hide-input]

assert list(hits) == [3, 5], "hits should hold the diagonal of m"
```

```{exercise}
:label: ex-mini-why

Why is the diagonal the correct mass?
```

```{solution} ex-mini-why
:class: dropdown

Because row and column index agree exactly on the diagonal of the matrix.
```
"""
)


@pytest.fixture(scope="module")
def mini_root(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("mini-book")
    (root / "chapters").mkdir()
    (root / "chapters" / "intro.md").write_text("# Intro\n")
    (root / "chapters" / "mini.md").write_text(MINI)
    (root / "_toc.yml").write_text(
        "format: jb-book\nroot: chapters/intro\nparts:\n"
        "  - caption: Mini\n    chapters:\n      - file: chapters/mini\n"
    )
    return root


@pytest.fixture(scope="module")
def book_assignments(tmp_path_factory) -> tuple[Path, dict]:
    out = tmp_path_factory.mktemp("assignments")
    return out, write_assignments(ROOT, out)


def _solution_lines(assignment) -> set[str]:
    """Lines of the solutions that appear nowhere else in the chapter (the leak candidates)."""
    solution_cells = {k for ex in assignment.exercises.values() for k in ex.teacher_solution_cells}
    public = "\n".join(
        c.source
        for k, c in enumerate(assignment.teacher.cells)
        if c.cell_type == "code" and k not in solution_cells
    ) + "\n".join(ex.task for ex in assignment.exercises.values())
    lines = [ln for k in solution_cells for ln in assignment.teacher.cells[k].source.splitlines()]
    lines += [ln for ex in assignment.exercises.values() for ln in ex.prose]
    return {
        ln.strip()
        for ln in lines
        if len(ln.strip()) >= 4
        and re.search(r"\w", ln)
        and not re.match(r"^\s*(`{3,}|:{3,}|:class:)", ln)
        and ln.strip() not in public
    }


def test_student_notebooks_contain_no_solution_text(book_assignments):
    """No solution line occurs in its student notebook, nor a whole one in any other."""
    out, manifest = book_assignments
    students = {p.name: p.read_text() for p in (out / "student").glob("*.ipynb")}
    assert len(students) == len(manifest["chapters"]) >= 1
    checked = 0
    for entry in manifest["chapters"]:
        assignment = build_assignment(ROOT / f"{entry['chapter']}.md", ROOT)
        for line in _solution_lines(assignment):
            forms = {line, json.dumps(line)[1:-1], json.dumps(line, ensure_ascii=False)[1:-1]}
            for name, text in students.items():
                # In its own chapter's notebook any solution line is a leak; in another
                # chapter's only a whole line is (a wrapped fragment like "classifier." is not).
                own = name == f"{Path(entry['chapter']).name}.ipynb"
                if not own and len(line) < 30:
                    continue
                leaked = [f for f in forms if f in text]
                assert not leaked, f"{entry['chapter']}: solution text in {name}: {line!r}"
            checked += 1
    for name, text in students.items():
        assert "{solution" not in text, f"{name} still has a solution directive"
    assert checked >= 5, "found almost no solution text to check: is the markup still parsed?"


def test_student_copy_structure(book_assignments):
    """Stubs raise with the label and restate the task; checks and tags match the teacher's."""
    out, manifest = book_assignments
    for entry in manifest["chapters"]:
        student = nbformat.read(out / entry["student"], as_version=4)
        teacher = nbformat.read(out / entry["teacher"], as_version=4)
        nbformat.validate(student)
        for nb in (student, teacher):
            assert all(not c.get("outputs") for c in nb.cells if c.cell_type == "code")
        for ex in entry["exercises"]:
            for s, t in zip(ex["student_check_cells"], ex["teacher_check_cells"], strict=True):
                assert student.cells[s].source == teacher.cells[t].source
                assert student.cells[s].metadata == teacher.cells[t].metadata
                assert student.cells[s].metadata[META]["role"] == "check"
            for s, t in zip(
                ex["student_solution_cells"], ex["teacher_solution_cells"], strict=True
            ):
                cell = student.cells[s]
                assert f'NotImplementedError("Exercise {ex["exercise"]}' in cell.source
                assert cell.metadata.get("tags") == teacher.cells[t].metadata.get("tags")
                assert cell.metadata[META] == {"exercise": ex["exercise"], "role": "solution"}
    ch01 = next(e for e in manifest["chapters"] if e["chapter"] == "chapters/01-confusion-matrix")
    graded = {ex["exercise"] for ex in ch01["exercises"] if ex["graded"]}
    assert {"ex-ch01-overpredicted", "ex-ch01-bayes"} <= graded
    stub = nbformat.read(out / ch01["student"], as_version=4).cells[
        ch01["exercises"][0]["student_solution_cells"][0]
    ]
    assert "as an array `over`" in stub.source, "the stub should restate the exercise"


@pytest.mark.parametrize(
    ("text", "kept", "removed"),
    [
        ("a\n```{solution} ex-1\n:class: dropdown\n\nsecret\n```\nb", "a\nb", "secret"),
        ("a\n::::{solution} ex-1\n```python\nx = 1\n```\n::::\nb", "a\nb", "x = 1"),
        (
            "a\n````{solution-start} ex-1\n````\nsecret\n````{solution-end}\n````\nb",
            "a\nb",
            "secret",
        ),
    ],
)
def test_strip_solutions_handles_fences(text, kept, removed):
    """Solution blocks go, including nested code fences and colon fences; the rest stays."""
    result, gone = strip_solutions(text, _State())
    assert result == kept
    assert removed in [line for _, line in gone]
    assert {label for label, _ in gone} == {"ex-1"}


def test_hidden_checks_replace_edited_and_deleted_check_cells():
    """A check edited to `pass` gets the teacher's source back; a deleted one is re-inserted."""
    assignment = build_assignment(CH01, ROOT)
    nb = copy.deepcopy(assignment.student)
    first, second = (ex for ex in assignment.exercises.values() if ex.graded)
    nb.cells[first.student_check_cells[0]].source = "pass"
    del nb.cells[second.student_check_cells[0]]
    placed = inject_checks(nb, assignment)
    for ex in (first, second):
        teacher = assignment.teacher.cells[ex.teacher_check_cells[0]].source
        at = [k for k, c in enumerate(nb.cells) if c.metadata.get(META, {}).get("role") == "check"]
        assert [nb.cells[k].source for k in at].count(teacher) == 1
        assert placed[ex.label][0].source == teacher
        solution = next(
            k
            for k, c in enumerate(nb.cells)
            if c.metadata.get(META, {}).get("exercise") == ex.label
        )
        assert nb.cells[solution + 1].source == teacher, "the check belongs after its solution"
    assert "pass" not in [c.source for c in nb.cells]


def test_teacher_notebook_runs_cleanly_and_passes(executions):
    """Chapter 1's teacher copy executes without errors and is graded as passing every check."""
    rows, problem, nb = executions["teacher"]
    assert problem is None
    assert {"ex-ch01-overpredicted", "ex-ch01-bayes"} <= {r.exercise for r in rows}
    assert all((r.passed, r.message) == (True, "ok") for r in rows), rows
    for cell in nb.cells:
        if cell.cell_type == "code" and "raises-exception" not in cell.metadata.get("tags", []):
            errors = [o for o in cell.outputs if o.output_type == "error"]
            assert not errors, f"teacher notebook cell raised:\n{cell.source}\n{errors}"


def _submission(mini_root: Path, which: str) -> nbformat.NotebookNode:
    return copy.deepcopy(
        getattr(build_assignment(mini_root / "chapters" / "mini.md", mini_root), which)
    )


@pytest.fixture(scope="module")
def executions(mini_root, book_assignments, tmp_path_factory) -> dict:
    """Run every kernel of this file at once (each start-up costs seconds).

    Chapter 1's teacher copy; four bad submissions to the mini book graded through the command
    line (rows by (file, exercise)); and a hanging notebook with a 3 s budget.
    """
    folder = tmp_path_factory.mktemp("submissions")
    wrong = _submission(mini_root, "student")
    for cell in wrong.cells:
        meta = cell.metadata.get(META, {})
        exercise, role = meta.get("exercise"), meta.get("role")
        if (exercise, role) == ("ex-mini-total", "solution"):
            cell.source = "total = 11"
        if (exercise, role) == ("ex-mini-diagonal", "solution"):
            cell.source = "hits = [0, 0]"
        if (exercise, role) == ("ex-mini-diagonal", "check"):
            cell.source = "pass"
    (folder / "alice").mkdir()
    nbformat.write(wrong, folder / "alice" / "mini.ipynb")
    crash = _submission(mini_root, "teacher")
    crash.cells[1].source = 'raise RuntimeError("broken set-up")'
    nbformat.write(crash, folder / "crash.ipynb")
    (folder / "notes.txt").write_text("I did the exercises on paper.\n")
    (folder / "mini-bob.ipynb").write_text('{"cells": [')
    (folder / ".ipynb_checkpoints").mkdir()
    (folder / ".ipynb_checkpoints" / "mini-checkpoint.ipynb").write_text("{}")
    hang = _submission(mini_root, "teacher")
    hang.cells.insert(2, nbformat.v4.new_code_cell("while True:\n    pass"))
    hang_path = tmp_path_factory.mktemp("hang") / "hang.ipynb"
    nbformat.write(hang, hang_path)
    mini = build_assignment(mini_root / "chapters" / "mini.md", mini_root)
    teacher = book_assignments[0] / "teacher" / "01-confusion-matrix.ipynb"
    out = tmp_path_factory.mktemp("grades")
    args = ["--root", str(mini_root), "grade", str(folder), "--out", str(out), "--timeout", "60"]
    with ThreadPoolExecutor(max_workers=3) as pool:
        jobs = {
            "teacher": pool.submit(grade_notebook, teacher, [build_assignment(CH01, ROOT)], 90),
            "main": pool.submit(main, [*args, "--jobs", "2"]),
            "hang": pool.submit(grade_notebook, hang_path, [mini], 3),
        }
        results = {name: job.result() for name, job in jobs.items()}
    assert results.pop("main") == 0
    with open(out / "grades.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert (out / "summary.txt").exists()
    results["mini"] = {
        (r["student_file"], r["exercise"]): (r["passed"], r["message"]) for r in rows
    }
    return results


@pytest.fixture(scope="module")
def graded_mini(executions) -> dict[tuple[str, str], tuple[str, str]]:
    return executions["mini"]


def test_wrong_answer_and_weakened_check_fail(graded_mini):
    """A wrong answer fails with the check's message, also when its check cell says `pass`."""
    passed, message = graded_mini[("alice/mini.ipynb", "ex-mini-total")]
    assert passed == "0" and "count every item" in message
    passed, message = graded_mini[("alice/mini.ipynb", "ex-mini-diagonal")]
    assert passed == "0" and "hits should hold the diagonal" in message


def test_crashing_notebook_fails_every_exercise_and_names_the_first_error(graded_mini):
    """A set-up cell that raises makes every check fail, and the message points at it."""
    for label in ("ex-mini-total", "ex-mini-diagonal"):
        passed, message = graded_mini[("crash.ipynb", label)]
        assert passed == "0"
        assert "NameError" in message and "RuntimeError: broken set-up" in message


def test_non_notebooks_get_a_row_and_hidden_files_are_skipped(graded_mini):
    """A .txt gets one row without exercise; bad JSON named after a chapter fails its exercises."""
    passed, message = graded_mini[("notes.txt", "")]
    assert passed == "0" and "not a notebook" in message
    for label in ("ex-mini-total", "ex-mini-diagonal"):
        passed, message = graded_mini[("mini-bob.ipynb", label)]
        assert passed == "0" and "not a notebook" in message
    assert not [key for key in graded_mini if ".ipynb_checkpoints" in key[0]]
    assert {f for f, _ in graded_mini} == {
        "alice/mini.ipynb",
        "crash.ipynb",
        "notes.txt",
        "mini-bob.ipynb",
    }


def test_hanging_notebook_times_out(executions):
    """An endless loop uses up the notebook's time budget; every exercise fails saying so."""
    rows, problem, _ = executions["hang"]
    assert problem is not None and problem.startswith("timed out after 3 s")
    assert {r.exercise for r in rows} == {"ex-mini-total", "ex-mini-diagonal"}
    assert all(not r.passed and "timed out" in r.message for r in rows)


def test_text_exercise_is_listed_but_not_graded(mini_root, tmp_path):
    """The assign command writes both copies; a {solution}-only exercise is not graded."""
    assert main(["--root", str(mini_root), "assign", "--out", str(tmp_path)]) == 0
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    graded = {ex["exercise"]: ex["graded"] for ex in manifest["chapters"][0]["exercises"]}
    assert graded == {"ex-mini-total": True, "ex-mini-diagonal": True, "ex-mini-why": False}
    student = (tmp_path / "student" / "mini.ipynb").read_text()
    assert "row and column index agree" not in student
    assert "Why is the diagonal the correct mass?" in student
