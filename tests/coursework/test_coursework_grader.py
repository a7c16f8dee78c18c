"""The grader on broken and hostile files, runaway notebooks and a changed grader.

Every test here is about the grader, not a chapter, so each grades the mini chapter
(``coursework_mini.OVER``): the broken files and the attacks of issue 19 are submissions in the
shared batch (``coursework_batch``); the runaway notebooks need limits of their own and are
graded one by one, in an xdist group of their own beside the batch's; the notebook that
touches the grader's files runs without the sandbox, in a grader of its own (``python -m
clfcourse grade`` on a copy of the library), so that what it touches is no file
another grading run checks.
"""

from __future__ import annotations

import csv
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from coursework_batch import lean, mini_assignments, mini_batch, notebook
from coursework_mini import OVER_STEM

from clfcourse import Limits, grade_notebook, isolated
from clfcourse.grading import Prepared, load_manifest
from clfcourse.inputs import load_tests

#: The tests that read the shared batch run on its worker; the others are a group of their own.
pytestmark = pytest.mark.sandbox

LIBRARY = Path(__file__).resolve().parents[2] / "src" / "clfmetrics"
OVER = "ex-mini-over"


@pytest.fixture(scope="module")
def batch(tmp_path_factory) -> dict:
    return mini_batch(tmp_path_factory)


@pytest.fixture(scope="module")
def assignments(tmp_path_factory) -> Path:
    return mini_assignments(tmp_path_factory)


def test_broken_files_get_rows_and_the_rest_is_graded(batch):
    """A dead kernel, a damaged file, a text file and an unknown notebook are rows with reasons."""
    graded = batch["details"]
    assert "kernel died" in graded[(f"crash-{OVER_STEM}.ipynb", OVER)]["message"]
    damaged = graded[(f"{OVER_STEM}-damaged.ipynb", OVER)]
    assert damaged["points"] == "0" and "not a notebook" in damaged["message"]
    assert "not a notebook" in graded[("notes.txt", "")]["message"]
    assert "cannot tell which chapter" in graded[("essay.ipynb", "")]["message"]
    assert not [k for k in graded if ".ipynb_checkpoints" in k[0]]
    summary = (batch["grades"] / "summary.txt").read_text()
    assert summary.startswith(f"Grades of {len(batch['files'])} submitted file(s)")


def test_a_notebook_that_patches_the_grader_gets_no_unflagged_points(batch):
    """Issue 19, item 20: the patched blank notebook scores 0, and its row says REVIEW."""
    rows = [r for (f, _), r in batch["details"].items() if f.startswith("patched/")]
    assert [r["exercise"] for r in rows] == [OVER]
    for row in rows:
        assert row["points"] == "0", row
        assert row["message"].startswith("REVIEW: the notebook's own check reported"), row
        assert "NameError" in row["message"], row
    assert not batch["written_outside"], "ran outside its scratch folder"


def test_the_chapters_own_functions_cannot_be_swapped(batch):
    """The hidden test compares with the library's `bias`, not the notebook's fake one."""
    row = batch["rows"]["3-given-data-fake-bias"]  # with attack 3 of issue 24
    assert row["points"] == "0", row
    assert "test 2: AssertionError" in row["message"] and "test 1" not in row["message"], row


def test_an_object_that_claims_equality_to_everything_earns_nothing(batch):
    row = batch["rows"]["10-forks-liar"]  # with attack 10 of issue 24
    assert row["points"] == "0" and "cannot leave the notebook" in row["message"], row


def _with_cell(assignments: Path, which: str, code: str, folder: Path) -> Path:
    nb = lean(notebook(assignments, which))  # no otter in its kernel (a slow import)
    nb.cells.insert(1, nbformat.v4.new_code_cell(code))
    folder.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, folder / f"{OVER_STEM}.ipynb")
    return folder / f"{OVER_STEM}.ipynb"


@pytest.fixture(scope="module")
def unscored(assignments) -> dict[str, Prepared]:
    """The mini chapter prepared for notebooks that never reach the scorer: its tests, without
    the teacher's run for its given data (a kernel, and a scoring server that imports otter,
    in this file's worker) and with the scorer's files as one module's folder. A runaway
    notebook that the limit failed to stop would run into the time limit instead, and its
    test would fail on the reason."""
    (chapter,) = load_manifest(assignments)
    tests = load_tests(assignments / chapter["autograder"])
    return {chapter["autograder"]: Prepared(tests, {}, {}, [isolated.__file__])}


def test_time_limit_gives_a_row_per_exercise(assignments, unscored, tmp_path):
    """A notebook that never ends is stopped at the time limit, with a reason in every row."""
    never = "import time\nwhile True:\n    time.sleep(0.1)"  # no CPU spent while it waits
    path = _with_cell(assignments, "student", never, tmp_path)
    # the limit is what is tested: a short one holds a worker for less time
    chapters = load_manifest(assignments)
    rows, problem = grade_notebook(path, chapters, assignments, timeout=6, prepared=unscored)
    assert problem == "timed out after 6 s"
    assert [(r.exercise, r.points, r.max_points) for r in rows] == [(OVER, 0, 2)]


@pytest.mark.parametrize(
    ("cell", "limits", "reason"),
    [
        ('while True:\n    print("x" * 200_000)', Limits(output_mb=1), "cell output passed 1 MB"),
        ("while True:\n    pass", Limits(cpu_seconds=2), "used more than 2 s of CPU time"),
    ],
    ids=["output", "cpu"],
)
def test_a_runaway_notebook_becomes_rows_with_a_reason(
    assignments, unscored, tmp_path, cell, limits, reason
):
    """Issue 19, item 21: the limits stop it long before the time limit."""
    path = _with_cell(assignments, "student", cell, tmp_path)
    chapters = load_manifest(assignments)
    rows, problem = grade_notebook(path, chapters, assignments, 120, None, limits, unscored)
    assert problem is not None and reason in problem, problem
    assert [(r.points, r.max_points, r.message) for r in rows] == [(0, 2, problem)]


def _without_teacher(assignments: Path, folder: Path) -> Path:
    """``assignments`` with no teacher notebook: grading then runs no teacher notebook and
    starts no scoring server, and checks the grader's default files (:func:`fingerprint`:
    the library, otter and numpy) before and after each notebook."""
    (chapter,) = load_manifest(assignments)
    chapter.pop("teacher")
    (folder / "autograder").mkdir(parents=True)
    shutil.copy(assignments / chapter["autograder"], folder / chapter["autograder"])
    (folder / "manifest.json").write_text(json.dumps({"chapters": [chapter]}))
    return folder


def test_a_notebook_that_touches_the_graders_files_is_flagged(assignments, tmp_path):
    """Without the sandbox (whose read-only venv refuses it), touching a file of the grader
    gives no points and REVIEW: the fingerprint check does not fail silently. The touch comes
    before any scoring, so the chapter is graded without its teacher's run (which only gives
    the scorer its data and its list of files; ``test_coursework_scoring`` checks that the
    list holds the library)."""
    library = tmp_path / "library"
    shutil.copytree(LIBRARY, library / "clfmetrics", ignore=shutil.ignore_patterns("__pycache__"))
    touch = "import os\nimport clfmetrics\nos.utime(clfmetrics.__file__)"
    _with_cell(assignments, "teacher", touch, tmp_path / "submissions")
    bare = _without_teacher(assignments, tmp_path / "assignments")
    command = [sys.executable, "-m", "clfcourse", "grade", "submissions"]
    command += ["--assignments", str(bare), "--out", "grades"]
    command += ["--timeout", "120", "--unsafe-no-sandbox"]
    env = {**os.environ, "PYTHONPATH": str(library)}
    done = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]
    with open(tmp_path / "grades" / "details.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    problem = rows[0]["message"]
    assert problem.startswith("REVIEW: a file of the grader changed"), problem
    assert problem.endswith(f"{library}/clfmetrics/__init__.py)"), problem  # the copy's
    assert [(r["exercise"], r["points"], r["message"]) for r in rows] == [(OVER, "0", problem)]
