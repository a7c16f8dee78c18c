"""One sandboxed ``make grade`` run at ``--jobs 2`` of the resource attacks of issue 38.

Each attack is a submission of the mini chapter (``coursework_mini.OVER``) that earns the
points only if its bound fails (it sets the right answer once it got past the bound), graded
two at a time beside an honest notebook that must keep its 2/2 under the same small limits:
``/tmp`` of 32 MB, a home folder of 64 MB, 600 MB for all of a submission's processes
together, 45 tasks. The
payloads stay small (at most a few hundred MB of memory, 100 MB of ``/tmp``), so the tests
endanger no machine that runs them.

Two smaller runs beside it, each an honest notebook and one attack: :func:`deadline_batch`
(a right answer whose function sleeps past ``--timeout`` when the test calls it) and
:func:`unsandboxed_batch` (the deep chain of folders where the home folder is on the host).
"""

from __future__ import annotations

import csv
import json
import os
import tempfile
from pathlib import Path

import nbformat
import pytest
from coursework_batch import _base, lean, mini_assignments, notebook
from coursework_mini import FUNCTION, FUNCTION_STEM, OVER_STEM
from filelock import FileLock

from clfcourse import Limits, grade_submissions, sandbox, untrusted

AT = f"{OVER_STEM}.ipynb"
RIGHT = "over = bias(m) - prevalence(m)"
#: The limits of the batch (each far below what a machine has).
LIMITS = Limits(memory_mb=1024, total_memory_mb=600, tmp_mb=32, home_mb=64, processes=45)

#: Fills /tmp in 1 MB writes: past 40 MB only if /tmp is not bounded at 32 MB.
TMP_FILL = f"""\
written, why = 0, "no error"
try:
    with open("/tmp/fill", "wb") as f:
        for _ in range(100):
            f.write(b"x" * 2**20)
            f.flush()
            written += 1
except OSError as exc:
    why = exc.strerror
if written >= 40:
    {RIGHT}
raise RuntimeError(f"wrote {{written}} MB to /tmp: {{why}}")
"""

#: Five children of 150 MB each, under the per-process cap of 1,024 MB, together past 600 MB.
MEMORY = f"""\
import os, time
children = []
for _ in range(5):
    pid = os.fork()
    if pid == 0:
        block = bytearray(150 * 2**20)  # touched: zeroed pages count
        time.sleep(4)
        os._exit(0)
    children.append(pid)
codes = [os.waitpid(pid, 0)[1] for pid in children]
if all(code == 0 for code in codes):
    {RIGHT}
"""

#: Forks sleeping children, up to 300: past 100 only if neither the process cap nor the
#: group's pids.max binds (45 tasks); the honest notebook graded beside it still starts.
FORK_BOMB = f"""\
import os, time
forked = 0
for _ in range(300):
    try:
        pid = os.fork()
    except OSError:
        break
    if pid == 0:
        time.sleep(10)
        os._exit(0)
    forked += 1
if forked >= 100:
    {RIGHT}
raise RuntimeError(f"forked {{forked}}")
"""

#: Files of 8 MB (each under the 64 MB file-size limit) in its home folder, up to 160 MB:
#: past 100 MB only if that folder is not bounded (at 64 MB, in memory, off the host's disk).
DISK_FILL = f"""\
written, why = 0, "no error"
try:
    for k in range(20):
        with open(f"fill-{{k}}", "wb") as f:
            for _ in range(8):
                f.write(b"x" * 2**20)
                written += 1
except OSError as exc:
    why = exc.strerror
if written >= 100:
    {RIGHT}
raise RuntimeError(f"wrote {{written}} MB to its home folder: {{why}}")
"""

#: A chain of 1,200 folders (shutil.rmtree's recursion ends near 1,000) under the scratch
#: folder, a marker at its bottom; the answer is wrong, the chain is the attack.
DEEP = """\
import os
for _ in range(1200):
    os.mkdir("d")
    os.chdir("d")
open("bottom-of-the-chain", "w").write("left behind")
os.chdir(os.path.expanduser("~"))
over = bias(m)
"""


def _read(path: Path) -> list[dict]:
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def bounds_batch(factory: pytest.TempPathFactory) -> dict:
    """``rows`` by student (grades.csv), ``run`` (the run's folder) and ``left`` (what the
    run left in the temporary folder its scratch folders were made in)."""
    assignments = mini_assignments(factory)
    base = _base(factory)
    folder = base / "bounds-batch"
    with FileLock(str(base / "bounds-batch.lock")):
        if not (folder / "batch.json").exists():
            assert sandbox.probe() is None, sandbox.probe()
            submissions = folder / "submissions"
            nb = lean(notebook(assignments, "teacher"))
            (submissions / "honest").mkdir(parents=True)
            nbformat.write(nb, submissions / "honest" / AT)
            attacks = {"tmpfill": TMP_FILL, "memory": MEMORY, "forks": FORK_BOMB, "deep": DEEP}
            attacks["diskfill"] = DISK_FILL
            for student, code in attacks.items():
                (submissions / student).mkdir()
                nb = lean(notebook(assignments, "student", code))
                nbformat.write(nb, submissions / student / AT)
            scratch = folder / "scratch"
            scratch.mkdir()
            before, tempfile.tempdir = tempfile.tempdir, str(scratch)
            try:
                grade_submissions(submissions, assignments, folder / "grades", 240, 2, LIMITS)
            finally:
                tempfile.tempdir = before
            # the grader's scratch folders (multiprocessing may keep its own there)
            left = sorted(p.name for p in scratch.iterdir() if p.name.startswith("clfmetrics-"))
            (folder / "batch.json").write_text(json.dumps({"left": left}))
    found = json.loads((folder / "batch.json").read_text())
    grades = folder / "grades"
    return {
        **found,
        "rows": {r["student"]: r for r in _read(grades / "grades.csv")},
        "run": (grades / "latest").resolve(),
    }


#: The deadline of :func:`deadline_batch`'s run, for running a notebook and scoring its values
#: together (``--timeout``), and how long the slow answer's function sleeps when the test calls
#: it: longer than the whole deadline, yet within the 30 s that scoring got of its own (the
#: deadline generous: the honest notebook beside it must fit it on a loaded machine).
DEADLINE, SLEEP = 20, 25

#: The right count, but only after a sleep in the scorer's worker (the notebook never calls
#: it): executing and scoring together take longer than the deadline.
SLOW_FUNCTION = f"""\
def total_of(m):
    import time
    time.sleep({SLEEP})
    return sum(map(sum, m))
"""


def deadline_batch(factory: pytest.TempPathFactory) -> dict:
    """``FUNCTION``'s honest notebook and a slow one, graded at ``--jobs 2`` under
    ``--timeout DEADLINE``: ``rows`` by student (grades.csv)."""
    assignments = mini_assignments(factory, FUNCTION_STEM, FUNCTION)
    base = _base(factory)
    folder = base / "deadline-batch"
    with FileLock(str(base / "deadline-batch.lock")):
        if not (folder / "batch.json").exists():
            assert sandbox.probe() is None, sandbox.probe()
            submissions, at = folder / "submissions", f"{FUNCTION_STEM}.ipynb"
            honest = lean(notebook(assignments, "teacher", stem=FUNCTION_STEM))
            slow = lean(notebook(assignments, "student", SLOW_FUNCTION, FUNCTION_STEM))
            for student, nb in {"honest": honest, "slow": slow}.items():
                (submissions / student).mkdir(parents=True)
                nbformat.write(nb, submissions / student / at)
            grade_submissions(submissions, assignments, folder / "grades", DEADLINE, 2, LIMITS)
            (folder / "batch.json").write_text("{}")
    grades = folder / "grades"
    return {"rows": {r["student"]: r for r in _read(grades / "grades.csv")}}


def unsandboxed_batch(factory: pytest.TempPathFactory) -> dict:
    """The honest notebook and ``DEEP``, graded with ``--unsafe-no-sandbox`` (the one run in
    which a notebook's home folder is a folder on the host, its scratch folder: the teacher's
    choice where no sandbox can be made): ``rows`` by student, ``left`` (the scratch folders
    the run left behind, then removed here) and ``payload`` (whether the file at the bottom of
    the chain was among them)."""
    assignments = mini_assignments(factory)
    base = _base(factory)
    folder = base / "unsandboxed-batch"
    with FileLock(str(base / "unsandboxed-batch.lock")):
        if not (folder / "batch.json").exists():
            submissions = folder / "submissions"
            honest = lean(notebook(assignments, "teacher"))
            deep = lean(notebook(assignments, "student", DEEP))
            for student, nb in {"honest": honest, "deep": deep}.items():
                (submissions / student).mkdir(parents=True)
                nbformat.write(nb, submissions / student / AT)
            scratch = folder / "scratch"
            scratch.mkdir()
            before, tempfile.tempdir = tempfile.tempdir, str(scratch)
            try:
                grades = folder / "grades"
                grade_submissions(submissions, assignments, grades, 240, 1, LIMITS, True)
            finally:
                tempfile.tempdir = before
            left = sorted(p for p in scratch.iterdir() if p.name.startswith("clfmetrics-"))
            payload = any(_holds(p, "bottom-of-the-chain") for p in left)
            for path in left:  # what a failed cleanup left, never on the machine after the test
                untrusted.remove_tree(path)
            names = [p.name for p in left]
            (folder / "batch.json").write_text(json.dumps({"left": names, "payload": payload}))
    found = json.loads((folder / "batch.json").read_text())
    grades = folder / "grades"
    return {**found, "rows": {r["student"]: r for r in _read(grades / "grades.csv")}}


def _holds(top: Path, name: str) -> bool:
    """Whether a file ``name`` is anywhere below ``top`` (walked by descriptor, however deep)."""
    stack = [os.open(top, os.O_RDONLY | os.O_DIRECTORY)]
    try:
        while stack:
            fd = stack.pop()
            try:
                for entry in os.scandir(fd):
                    if entry.name == name:
                        return True
                    if entry.is_dir(follow_symlinks=False):
                        stack.append(os.open(entry.name, os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd))
            finally:
                os.close(fd)
    finally:
        for fd in stack:
            os.close(fd)
    return False
