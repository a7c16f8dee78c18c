"""One sandboxed ``make grade`` run over the mini chapter, shared by the grader's tests.

The grader's tests need submissions, not a book chapter, so one batch grades them all side by
side on ``coursework_mini.OVER`` (a kernel runs it in about a second): an honest notebook (the
teacher's: full points; eve's in the gradebook, her id in its file name) and a blank one (the
student's: zero); the ten attacks of issue 24 (``test_coursework_attacks.py``) and those of
issue 19 in six notebooks (``coursework_attack_code.ATTACKS``: a kernel start is most of a
submission's cost, so attacks that cannot mask one another share a notebook); the broken
files (``test_coursework_grader.py``); a typo for the gradebook (``test_gradebook.py``),
graded after an earlier run. Every submission shares the batch's process cap of 45 (tasks of
its user beyond those it runs already, threads included): with a cap of 30 an honest kernel
now and then could not start its threads under load ("Kernel died before replying to
kernel_info"); the kernel and its nbclient hold some ten tasks or more, so attack 10's
40 forks still meet the cap.

The batch runs once per pytest run (the first test to ask runs it under a file lock in the
run's base temporary folder; a test on another xdist worker waits and reads its files). Attack 6
appends to the shared venv's ``yaml/__init__.py``: the sandbox's read-only venv must stop it;
the batch restores the file should it ever change, and the attack's test then fails.
"""

from __future__ import annotations

import csv
import json
import os
import signal
import uuid
from pathlib import Path

import nbformat
import psutil
import pytest
import yaml
from coursework_attack_code import ATTACKS, PATCH_THE_GRADER
from coursework_mini import OVER, OVER_STEM
from coursework_products import compiled_library
from filelock import FileLock

from clfcourse import Limits, grade_submissions, sandbox
from clfcourse.exercises import META
from clfcourse.generate import write_assignments
from clfcourse.runner import otters

#: The gradebook's earlier run, which the batch's run must keep.
EARLIER = "20250101T000000Z"


def _base(factory: pytest.TempPathFactory) -> Path:
    base = factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # each worker's basetemp is popen-gwN below the run's basetemp
    return base


def mini_assignments(
    factory: pytest.TempPathFactory, stem: str = OVER_STEM, text: str = OVER
) -> Path:
    """``make assignments`` of the mini chapter (or of the chapter ``text``, assigned under
    ``stem``), once per run (student, teacher, zip)."""
    compiled_library()  # before any of the chapter's kernels
    base = _base(factory)
    out = base / f"{stem}-assignments"
    with FileLock(str(base / f"{stem}-assignments.lock")):
        if not (out / "manifest.json").exists():
            book = base / f"{stem}-book"
            book.mkdir(exist_ok=True)
            (book / f"{stem}.md").write_text(text)
            write_assignments(book, out, [book / f"{stem}.md"], run_tests=False)
    return out


def notebook(assignments: Path, which: str, solution: str | None = None, stem: str = OVER_STEM):
    """The mini chapter's (or ``stem``'s) ``student`` or ``teacher`` notebook, its answer cell
    replaced."""
    nb = nbformat.read(assignments / which / f"{stem}.ipynb", 4)
    if solution is not None:
        (cell,) = [c for c in nb.cells if c.metadata.get(META, {}).get("role") == "solution"]
        cell.source = solution
    return nb


def lean(nb):
    """``nb`` without otter's cells (its start-up and ``grader.check``), so that its kernel
    never imports otter (a slow import, in each kernel). For the submissions whose test needs no
    otter in their kernel (only the honest and the patched notebook do): points come only
    from the scorer outside the kernel either way. The grader's own rule (:func:`otters`),
    which also leaves otter's cells out of the teacher's run."""
    nb.cells = [c for c in nb.cells if not otters(c)]
    return nb


def _write(nb, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, path)


def _submissions(assignments: Path, folder: Path, mark: str) -> None:
    at = f"{OVER_STEM}.ipynb"
    # the honest notebook: the teacher's, otter's cells included, its student id (eve, for the
    # gradebook) in its file name, as an LMS names a download
    _write(notebook(assignments, "teacher"), folder / f"eve_{at}")
    # the student's notebook as handed out, without otter's cells: otter in its kernel decides
    # nothing (the honest and the patched notebooks run it in the sandbox)
    _write(lean(notebook(assignments, "student")), folder / "blank" / at)
    for name, code in ATTACKS.items():
        attack = notebook(assignments, "student", code.replace("{mark}", mark))
        _write(lean(attack), folder / name / at)
    # issue 19: a blank notebook that patches otter in its own kernel (the fake `bias` and the
    # object equal to everything are in ATTACKS)
    patched = notebook(assignments, "student")
    patched.cells.insert(1, nbformat.v4.new_code_cell(PATCH_THE_GRADER))
    _write(patched, folder / "patched" / at)
    # broken files: a dead kernel, a damaged file, a text file, an unknown notebook
    crash = lean(notebook(assignments, "teacher"))
    crash.cells.insert(2, nbformat.v4.new_code_cell("import os\nos._exit(1)"))
    _write(crash, folder / f"crash-{at}")
    (folder / f"{OVER_STEM}-damaged.ipynb").write_text('{"cells": [')
    (folder / "notes.txt").write_text("I did the exercises on paper.\n")
    _write(nbformat.v4.new_notebook(), folder / "essay.ipynb")
    (folder / ".ipynb_checkpoints").mkdir()
    (folder / ".ipynb_checkpoints" / "x-checkpoint.ipynb").write_text("{}")
    # the gradebook: a typo after a wrong answer that passes the public test
    typo = "over = np.zeros(3)\nratio = bias(m) / prevalance(m)"
    _write(lean(notebook(assignments, "student", typo)), folder / "dana" / at)


def _grade(folder: Path, assignments: Path) -> dict:
    problem = sandbox.probe()
    assert problem is None, f"no sandbox on this machine: {problem} (make test installs bwrap)"
    submissions, grades = folder / "submissions", folder / "grades"
    mark = f"clfmetrics-attack-9-{uuid.uuid4().hex}"
    _submissions(assignments, submissions, mark)
    (grades / "runs" / EARLIER).mkdir(parents=True)  # an earlier run, kept
    (grades / "runs" / EARLIER / "grades.csv").write_text("earlier\n")
    venv_yaml = yaml.__file__
    before = Path(venv_yaml).read_bytes()
    try:
        grade_submissions(submissions, assignments, grades, 240, 2, Limits(processes=45))
    finally:
        survivors = [
            p for p in psutil.process_iter(["cmdline"]) if mark in (p.info["cmdline"] or [""])[0]
        ]
        for proc in survivors:
            os.kill(proc.pid, signal.SIGKILL)
        damaged = Path(venv_yaml).read_bytes() != before
        if damaged:  # never leave the shared venv changed
            Path(venv_yaml).write_bytes(before)
    files = sorted(
        p.relative_to(submissions).as_posix()
        for p in submissions.rglob("*")
        if p.is_file() and ".ipynb_checkpoints" not in p.parts
    )
    return {
        "survivors": [" ".join(p.info["cmdline"] or []) for p in survivors],
        "yaml_damaged": damaged,
        "files": files,
        "written_outside": [str(p) for p in submissions.rglob("written-by-the-student.txt")],
    }


def _read(path: Path) -> list[dict]:
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def mini_batch(factory: pytest.TempPathFactory) -> dict:
    """The shared batch's results: ``rows`` by student (grades.csv, one exercise each),
    ``details`` by file and exercise (details.csv), ``grades`` (the output folder), ``runs``,
    ``survivors`` (attack 9), ``yaml_damaged`` (attack 6), ``files`` (every file submitted)
    and ``written_outside`` (files a notebook wrote outside its scratch folder)."""
    assignments = mini_assignments(factory)
    base = _base(factory)
    folder = base / "mini-batch"
    with FileLock(str(base / "mini-batch.lock")):
        if not (folder / "batch.json").exists():
            folder.mkdir(exist_ok=True)
            found = _grade(folder, assignments)
            (folder / "batch.json").write_text(json.dumps(found))
    found = json.loads((folder / "batch.json").read_text())
    grades = folder / "grades"
    return {
        **found,
        "assignments": assignments,
        "grades": grades,
        "runs": sorted((grades / "runs").iterdir()),
        "rows": {r["student"]: r for r in _read(grades / "grades.csv")},
        "details": {(r["file"], r["exercise"]): r for r in _read(grades / "details.csv")},
    }
