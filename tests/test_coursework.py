"""Coursework on otter-grader: what students get leaks nothing, and the grader grades it right.

``otter assign`` runs on every chapter once (without its own test run, which would execute every
chapter); the grader then grades a representative set in one ``make grade``-like call: the
teacher notebooks of two chapters, an untouched student notebook, a planted wrong answer that
passes the public test, a crashing kernel, a damaged file, a text file, an unknown notebook,
and the attacks of issue 19: a blank notebook that patches otter's test runner in its kernel, a
fake library function for the hidden test to compare with, and an object that claims to equal
everything. Runaway notebooks and one that touches the grader's files are graded on their own.
"""

from __future__ import annotations

import ast
import csv
import json
import re
from pathlib import Path

import nbformat
import pytest
from coursework_products import assigned_once

from clfmetrics.coursework import Limits, build_assignment, grade_notebook, master_notebook
from clfmetrics.coursework.__main__ import main
from clfmetrics.coursework.exercises import META, _State, notebook_chapters, strip_solutions
from clfmetrics.coursework.master import assignment_config

ROOT = Path(__file__).resolve().parents[1]
CHAPTERS = notebook_chapters(ROOT)
#: Chapters whose teacher notebooks are graded in full (kept few: each run executes a chapter).
GRADED = ("01-confusion-matrix", "09-f-measure-paradox")

MINI = """---
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

# Mini

```{code-cell} ipython3
m = [[3, 1], [1, 5]]
```

```{exercise}
:label: ex-mini-total

Count the items of `m` as `total`.
```

````{solution-start} ex-mini-total
:class: dropdown
````

Add every entry.

```{code-cell} ipython3
:tags: [solution]

total = sum(map(sum, m))
```

````{solution-end}
````

```{code-cell} ipython3
:tags: [check, hide-input]
:points: 3

assert isinstance(total, int), "total is a count"
```
"""


PATCH_THE_GRADER = """\
import numpy as np
import otter.test_files.ok_test as ok_test
import otter.test_files.abstract_test as abstract_test

ok_test.run_doctest = lambda name, body, env: (True, "")  # every test case passes
abstract_test.TestFile.score = property(lambda self: self.possible)
np.allclose = lambda *args, **kwargs: True
open("written-by-the-student.txt", "w").write("the working folder is a scratch folder")
"""

CLAIMS_EQUALITY = """\
class Anything:
    shape = (5, 3)

    def __eq__(self, other):
        return True

    __gt__ = __ge__ = __lt__ = __le__ = __eq__

    def __getitem__(self, key):
        return self

    def all(self):
        return True


bad = Anything()
"""


def _cells(nb, exercise: str, role: str) -> list:
    return [c for c in nb.cells if c.metadata.get(META, {}) == {"exercise": exercise, "role": role}]


@pytest.fixture(scope="module")
def assigned(tmp_path_factory) -> tuple[Path, dict]:
    return assigned_once(tmp_path_factory)  # one otter assign, shared with the other files


def test_every_chapter_with_exercises_has_three_products(assigned):
    """Student notebook, teacher notebook and autograder zip per chapter with graded exercises."""
    out, manifest = assigned
    stems = {Path(e["chapter"]).name for e in manifest["chapters"]}
    with_checks = {p.stem for p in CHAPTERS if build_assignment(p, ROOT).graded}
    assert stems == with_checks and len(stems) >= 14
    for stem in stems:
        for path in (f"student/{stem}.ipynb", f"teacher/{stem}.ipynb", f"autograder/{stem}.zip"):
            assert (out / path).is_file(), path
        nbformat.validate(nbformat.read(out / "student" / f"{stem}.ipynb", as_version=4))
    teacher = (out / "teacher" / "01-confusion-matrix.ipynb").read_text()
    assert "**Solution of ex-ch01-bayes.** Both ratios share the numerator" in teacher
    assert "# BEGIN SOLUTION" in teacher and ":class:" not in teacher


def _hidden_lines(assignment) -> set[str]:
    nb = assignment.notebook
    return {
        ln.strip()
        for ex in assignment.graded
        for k in ex.hidden_cells
        for ln in nb.cells[k].source.splitlines()
        if ln.strip().startswith("assert")
    }


def _solution_lines(assignment) -> set[str]:
    """Solution code and prose lines that appear nowhere else in the chapter (leak candidates)."""
    nb = assignment.notebook
    mine = {k for ex in assignment.exercises.values() for k in ex.solution_cells}
    public = "\n".join(
        c.source for k, c in enumerate(nb.cells) if c.cell_type == "code" and k not in mine
    ) + "\n".join(ex.task for ex in assignment.exercises.values())
    lines = [ln for k in mine for ln in nb.cells[k].source.splitlines()]
    lines += [ln for ex in assignment.exercises.values() for ln in ex.prose]
    return {
        ln.strip()
        for ln in lines
        if len(ln.strip()) >= 4
        and re.search(r"\w", ln)
        and not re.match(r"^\s*(`{3,}|:{3,}|:class:)", ln)
        and ln.strip() not in public
    }


def test_student_notebooks_leak_no_solution_and_no_hidden_test(assigned):
    """No solution line, solution prose or hidden-test line in the chapter's student notebook."""
    out, manifest = assigned
    checked = hidden = 0
    for entry in manifest["chapters"]:
        assignment = build_assignment(ROOT / f"{entry['chapter']}.md", ROOT)
        text = (out / entry["student"]).read_text()
        for line in _solution_lines(assignment) | _hidden_lines(assignment):
            forms = {line, json.dumps(line)[1:-1], json.dumps(line, ensure_ascii=False)[1:-1]}
            assert not [f for f in forms if f in text], f"{entry['chapter']}: leaked {line!r}"
            checked += 1
        student = nbformat.read(out / entry["student"], as_version=4)
        assert "{solution" not in text
        for ex in assignment.graded:
            tests = student.metadata["otter"]["tests"][ex.label]["suites"][0]["cases"]
            assert tests and not any(case["hidden"] for case in tests), ex.label
            hidden += len(ex.hidden_cells)
            (cell,) = _cells(student, ex.label, "solution")
            assert cell.source.rstrip().endswith("...") and f"Exercise {ex.label}" in cell.source
    assert checked >= 100 and hidden >= 30, "found little to check: is the markup still parsed?"


def _constants(source: str) -> tuple[set[float], set[str], list[str]]:
    """Numbers (not indices), other strings and assertion messages of a check cell."""
    tree = ast.parse(source)
    messages = [n.msg for n in ast.walk(tree) if isinstance(n, ast.Assert) and n.msg is not None]
    in_messages = {id(c) for m in messages for c in ast.walk(m)}
    # an index such as bad[:, 2] says where to look, not what to find
    indices = {
        id(c) for n in ast.walk(tree) if isinstance(n, ast.Subscript) for c in ast.walk(n.slice)
    }
    numbers, strings, texts = set(), [], []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Constant) or isinstance(node.value, bool):
            continue
        if isinstance(node.value, int | float) and id(node) not in indices:
            numbers.add(float(node.value))
        elif isinstance(node.value, str):
            (texts if id(node) in in_messages else strings).append(node.value)
    numbers |= {float(x) for t in texts for x in re.findall(r"(?<![\w.])\d+(?:\.\d+)?", t)}
    return numbers, set(strings), texts


def reveals(public: list[str], hidden: list[str], task: str) -> list[str]:
    """What the public check cells show of what only the hidden ones pin (empty when nothing).

    A number of a hidden check (not an index, not 0 or ±1, not stated in the task) used anywhere
    in a public check; a string a hidden check compares with (a system name, a metric name) as a
    word of a public message; a hidden check's message inside a public message.
    """
    pub = [_constants(source) for source in public]
    hid = [_constants(source) for source in hidden]
    stated = {float(x) for x in re.findall(r"(?<![\w.])\d+(?:\.\d+)?", task)}
    secret = set().union(*(h[0] for h in hid)) - stated - {0.0, 1.0, -1.0}
    found = [f"the number {x:g}" for x in secret & set().union(*(p[0] for p in pub))]
    messages = [t for p in pub for t in p[2]]
    for word in set().union(*(h[1] for h in hid)):
        pattern = rf"(?<!\w){re.escape(word)}(?!\w)"
        found += [f"{word!r} in {m!r}" for m in messages if re.search(pattern, m)]
    for text in (t for h in hid for t in h[2] if len(t) >= 10):
        found += [f"{text!r} in {m!r}" for m in messages if text in m]
    return found


@pytest.mark.parametrize("path", CHAPTERS, ids=[p.stem for p in CHAPTERS])
def test_public_checks_do_not_reveal_the_hidden_values(path):
    """Every graded exercise has a hidden check, and its public check gives none of it away."""
    assignment = build_assignment(path, ROOT)
    nb = assignment.notebook
    for ex in assignment.graded:
        assert ex.hidden_cells, f"{ex.label}: every graded exercise needs a hidden-check cell"
        public = [nb.cells[k].source for k in ex.check_cells]
        hidden = [nb.cells[k].source for k in ex.hidden_cells]
        assert not reveals(public, hidden, ex.task), ex.label


def test_reveals_catches_an_answer_in_a_public_message():
    """The rule catches the kind of message the chapters used to have."""
    hidden = ['assert rank_acc[systems.index("E")] == 1', "assert abs(x - 0.3) < 0.01"]
    assert reveals(['assert ok, "E has the highest accuracy"'], hidden, "")
    assert reveals(["assert abs(x - 0.3) < 0.5"], hidden, "")
    assert not reveals(["assert abs(x - 0.3) < 0.5"], hidden, "shares (0.6, 0.3, 0.1)")
    assert not reveals(['assert 0 <= x <= 1, "a share between 0 and 1"'], hidden, "")


def test_master_notebook_markup(tmp_path):
    """Points from the check cell's metadata; a check without a hidden check is refused."""
    (tmp_path / "mini.md").write_text(MINI)
    assignment = build_assignment(tmp_path / "mini.md", tmp_path)
    with pytest.raises(ValueError, match="no hidden-check cell"):
        master_notebook(assignment, assignment_config("mini", "requirements.txt", []))
    cell = "```{code-cell} ipython3\n:tags: [hidden-check, remove-cell]\n\nassert total == 10\n```"
    hidden = f"{MINI}\n{cell}\n"
    (tmp_path / "mini.md").write_text(hidden)
    master = master_notebook(build_assignment(tmp_path / "mini.md", tmp_path), {"name": "mini"})
    raw = [c.source for c in master.cells if c.cell_type == "raw"]
    assert raw[1] == "# BEGIN QUESTION\nall_or_nothing: true\nname: ex-mini-total\npoints: 3"
    assert raw[2:] == [
        "# BEGIN SOLUTION",
        "# END SOLUTION",
        "# BEGIN TESTS",
        "# END TESTS",
        "# END QUESTION",
    ]
    tests = [c.source for c in master.cells if c.metadata.get(META, {}).get("role") == "hidden"]
    assert tests == ["# HIDDEN\nassert total == 10"]
    assert not any("Add every entry" in c.source for c in master.cells)


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


def _write(nb, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, path)
    return path


@pytest.fixture(scope="module")
def graded(assigned, tmp_path_factory) -> dict:
    """One `make grade` run over a folder of good, wrong and broken submissions."""
    out, _ = assigned
    folder = tmp_path_factory.mktemp("submissions")
    for stem in GRADED:
        _write(
            nbformat.read(out / "teacher" / f"{stem}.ipynb", 4),
            folder / "teacher" / f"{stem}.ipynb",
        )
    untouched = nbformat.read(out / "student" / "01-confusion-matrix.ipynb", 4)
    _write(untouched, folder / "untouched" / "01-confusion-matrix.ipynb")
    wrong = nbformat.read(out / "student" / "09-f-measure-paradox.ipynb", 4)
    # right shape and type, so the public test passes; the hidden test knows the answer
    _cells(wrong, "ex-ch09-find", "solution")[0].source = "bad = np.zeros((2, 3), dtype=int)"
    _write(wrong, folder / "wrong" / "09-f-measure-paradox.ipynb")
    crash = nbformat.read(out / "teacher" / "01-confusion-matrix.ipynb", 4)
    crash.cells.insert(3, nbformat.v4.new_code_cell("import os\nos._exit(1)"))
    _write(crash, folder / "crash-01-confusion-matrix.ipynb")
    # issue 19, item 20: a blank notebook plus one cell that replaces otter's test runner (and
    # np.allclose) in its own kernel; under `otter run` this got every point with "ok"
    patched = nbformat.read(out / "student" / "01-confusion-matrix.ipynb", 4)
    patched.cells.insert(1, nbformat.v4.new_code_cell(PATCH_THE_GRADER))
    _write(patched, folder / "patched" / "01-confusion-matrix.ipynb")
    # a wrong answer and a fake `precision` for the hidden test to compare it with
    shadow = nbformat.read(out / "student" / "01-confusion-matrix.ipynb", 4)
    _cells(shadow, "ex-ch01-bayes", "solution")[
        0
    ].source = (
        "p_from_recall = np.full(3, 0.5)\n\n\ndef precision(m):\n    return np.full(3, 0.5)\n"
    )
    _write(shadow, folder / "shadow" / "01-confusion-matrix.ipynb")
    liar = nbformat.read(out / "student" / "09-f-measure-paradox.ipynb", 4)
    _cells(liar, "ex-ch09-find", "solution")[0].source = CLAIMS_EQUALITY
    _write(liar, folder / "liar" / "09-f-measure-paradox.ipynb")
    (folder / "01-confusion-matrix-damaged.ipynb").write_text('{"cells": [')
    (folder / "notes.txt").write_text("I did the exercises on paper.\n")
    _write(nbformat.v4.new_notebook(), folder / "essay.ipynb")
    (folder / ".ipynb_checkpoints").mkdir()
    (folder / ".ipynb_checkpoints" / "x-checkpoint.ipynb").write_text("{}")
    grades = tmp_path_factory.mktemp("grades")
    args = ["grade", str(folder), "--assignments", str(out), "--out", str(grades), "--jobs", "2"]
    assert main(["--root", str(ROOT), *args, "--timeout", "300"]) == 0
    with open(grades / "details.csv", newline="") as f:  # grades.csv and the file graded
        rows = list(csv.DictReader(f))
    assert (grades / "summary.txt").read_text().startswith("Grades of 11 submitted file(s)")
    assert not list(folder.rglob("written-by-the-student.txt")), "ran outside its scratch folder"
    return {(r["file"], r["exercise"]): r for r in rows}


def test_teacher_notebooks_score_full_points(graded, assigned):
    """Every graded exercise of the teacher notebooks gets its maximum."""
    _, manifest = assigned
    for entry in manifest["chapters"]:
        stem = Path(entry["chapter"]).name
        if stem not in GRADED:
            continue
        for ex in (e for e in entry["exercises"] if e["graded"]):
            row = graded[(f"teacher/{stem}.ipynb", ex["exercise"])]
            assert (row["points"], row["max_points"], row["message"]) == ("1", "1", "ok"), row


def test_untouched_student_notebook_scores_zero(graded):
    """Stubs score nothing, and the grader says why instead of crashing."""
    rows = [r for (f, _), r in graded.items() if f.startswith("untouched/")]
    assert {r["exercise"] for r in rows} == {"ex-ch01-overpredicted", "ex-ch01-bayes"}
    assert all(r["points"] == "0" and "NameError" in r["message"] for r in rows), rows


def test_planted_wrong_answer_passes_public_test_and_fails_hidden_one(graded):
    """The hidden test adds something: the public hint (test 1) passes, the hidden one fails."""
    row = graded[("wrong/09-f-measure-paradox.ipynb", "ex-ch09-find")]
    assert row["points"] == "0"
    assert "test 2: AssertionError" in row["message"] and "test 1" not in row["message"], row
    untouched = graded[("wrong/09-f-measure-paradox.ipynb", "ex-ch09-average")]
    assert untouched["points"] == "0" and "NameError" in untouched["message"]


def test_broken_files_get_rows_and_the_rest_is_graded(graded):
    """A dead kernel, a damaged file, a text file and an unknown notebook are rows with reasons."""
    for label in ("ex-ch01-overpredicted", "ex-ch01-bayes"):
        assert "kernel died" in graded[("crash-01-confusion-matrix.ipynb", label)]["message"]
        damaged = graded[("01-confusion-matrix-damaged.ipynb", label)]
        assert damaged["points"] == "0" and "not a notebook" in damaged["message"]
    assert "not a notebook" in graded[("notes.txt", "")]["message"]
    assert "cannot tell which chapter" in graded[("essay.ipynb", "")]["message"]
    assert not [k for k in graded if ".ipynb_checkpoints" in k[0]]


def test_time_limit_gives_a_row_per_exercise(assigned, tmp_path):
    """A notebook that never ends is stopped at the time limit, with a reason in every row."""
    out, manifest = assigned
    nb = nbformat.read(out / "student" / "01-confusion-matrix.ipynb", 4)
    nb.cells.insert(2, nbformat.v4.new_code_cell("while True:\n    pass"))
    path = _write(nb, tmp_path / "01-confusion-matrix.ipynb")
    rows, problem = grade_notebook(path, manifest["chapters"], out, timeout=15)
    assert problem == "timed out after 15 s"
    assert [(r.exercise, r.points, r.max_points) for r in rows] == [
        ("ex-ch01-overpredicted", 0, 1),
        ("ex-ch01-bayes", 0, 1),
    ]


def test_a_notebook_that_patches_the_grader_gets_no_unflagged_points(graded):
    """Issue 19, item 20: the patched blank notebook scores 0, and every row says REVIEW."""
    rows = [r for (f, _), r in graded.items() if f.startswith("patched/")]
    assert {r["exercise"] for r in rows} == {"ex-ch01-overpredicted", "ex-ch01-bayes"}
    for row in rows:
        assert row["points"] == "0", row
        assert row["message"].startswith("REVIEW: the notebook's own check reported"), row
        assert "NameError" in row["message"], row


def test_the_chapters_own_functions_cannot_be_swapped(graded):
    """The hidden test compares with the library's `precision`, not the notebook's fake one."""
    row = graded[("shadow/01-confusion-matrix.ipynb", "ex-ch01-bayes")]
    assert row["points"] == "0", row
    assert "test 2: AssertionError" in row["message"] and "test 1" not in row["message"], row


def test_an_object_that_claims_equality_to_everything_earns_nothing(graded):
    row = graded[("liar/09-f-measure-paradox.ipynb", "ex-ch09-find")]
    assert row["points"] == "0" and "cannot leave the notebook" in row["message"], row


@pytest.mark.parametrize(
    ("cell", "limits", "reason"),
    [
        ('while True:\n    print("x" * 200_000)', Limits(output_mb=1), "cell output passed 1 MB"),
        ("while True:\n    pass", Limits(cpu_seconds=3), "used more than 3 s of CPU time"),
    ],
    ids=["output", "cpu"],
)
def test_a_runaway_notebook_becomes_rows_with_a_reason(assigned, tmp_path, cell, limits, reason):
    """Issue 19, item 21: the limits stop it long before the time limit."""
    out, manifest = assigned
    nb = nbformat.read(out / "student" / "01-confusion-matrix.ipynb", 4)
    nb.cells.insert(2, nbformat.v4.new_code_cell(cell))
    path = _write(nb, tmp_path / "01-confusion-matrix.ipynb")
    rows, problem = grade_notebook(path, manifest["chapters"], out, timeout=120, limits=limits)
    assert problem is not None and reason in problem, problem
    assert [(r.points, r.max_points, r.message) for r in rows] == [(0, 1, problem)] * 2


def test_teaching_page_states_the_default_limits_and_the_sandbox():
    text = " ".join((ROOT / "chapters" / "teaching.md").read_text().split())
    d = Limits()
    assert f"{d.memory_mb // 1024} GB of memory and {d.cpu_seconds} s of CPU time" in text
    assert f"{d.processes} more processes, files up to {d.file_mb} MB" in text
    assert f"{d.output_mb:g} MB of cell output" in text
    assert "bubblewrap" in text and "**read-only**" in text
    assert "UNSAFE_NO_SANDBOX=1" in text and "--unsafe-no-sandbox" in text


def test_a_notebook_that_touches_the_graders_files_is_flagged(assigned, tmp_path):
    """Without the sandbox (whose read-only venv refuses it), touching a file the scoring
    process runs gives no points and REVIEW: the fingerprint check does not fail silently."""
    out, manifest = assigned
    nb = nbformat.read(out / "teacher" / "01-confusion-matrix.ipynb", 4)
    touch = "import os\nimport clfmetrics\nos.utime(clfmetrics.__file__)"
    nb.cells.insert(2, nbformat.v4.new_code_cell(touch))
    path = _write(nb, tmp_path / "01-confusion-matrix.ipynb")
    rows, problem = grade_notebook(path, manifest["chapters"], out, timeout=120, sandboxed=False)
    assert problem.startswith("REVIEW: a file of the grader changed"), problem
    assert problem.endswith("clfmetrics/__init__.py)"), problem
    assert [(r.points, r.message) for r in rows] == [(0, problem)] * 2
