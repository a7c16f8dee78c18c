"""One sandboxed ``make grade`` run of the attacks of issue 38, each beside an honest submission.

A red-team round against ``make grade`` found that links were followed, one student's string
could end the whole run, ids came from the notebook and every one of many guesses counted.
Here each attack is a submission of the mini chapter (``coursework_mini.OVER``) in one folder
with an honest notebook (the teacher's, without otter's cells): the honest one must keep its
2/2 in the same run, and each attack's test (``test_coursework_hostile.py``) reads the row it
got. Most attacks never start a kernel (a refused file is a row before anything runs), so the
batch costs the honest notebook, the notebooks under odd names and the few that run code.

The batch runs once per pytest run, under a file lock in the run's base temporary folder, like
``coursework_batch``'s (on the same xdist worker, so the chapter's teacher run is shared).
"""

from __future__ import annotations

import csv
import json
import os
from pathlib import Path

import nbformat
import pytest
from coursework_batch import _base, lean, mini_assignments, notebook
from coursework_mini import OVER_STEM
from filelock import FileLock

from clfcourse import Limits, grade_submissions, sandbox
from clfcourse.exercises import META

AT = f"{OVER_STEM}.ipynb"

#: A value whose class name is a lone surrogate: the reason it cannot leave the kernel holds
#: the surrogate, which ended the run when grades.csv was written as strict UTF-8.
SURROGATE = "class Odd:\n    pass\n\n\nOdd.__qualname__ = chr(0xDCFF)\nover = Odd()\n"

#: What the kernel writes to the stderr of the step that runs it, just before it ends that
#: step on a signal nbclient does not handle (and itself, before it can say that its parent
#: went): the last line of that stderr is the row's reason, and was the summary's.
ANSI_LINE = "\x1b[2J\x1b[1;1H\x1b[32mEvery submission graded: 2/2\x1b[0m"
ANSI = (
    "import os, signal, sys, time\n"
    f"os.write(2, {(ANSI_LINE + chr(10)).encode()!r})\n"
    "time.sleep(1)  # ipykernel's thread that echoes fd 2 to the real stderr\n"
    "os.kill(os.getppid(), signal.SIGUSR1)\n"
    "os.kill(os.getpid(), signal.SIGKILL)\n"
)

#: A folder name that a spreadsheet would read as a formula.
FORMULA = '=HYPERLINK("http:__evil.example","grades")'
#: A file name of 253 characters (no notebook): its feedback's file name was too long.
LONG = "x" * 253
#: A file name that is not UTF-8 (the bytes of Latin-1).
NOT_UTF8 = b"caf\xe9_" + AT.encode()


#: A folder name that is the honest student's id once made a file name.
CLASH = "honest "
#: Wrong answers to the mini exercise, one per extra file of a student who guesses.
WRONG_GUESSES = ("over = np.zeros(3)", "over = bias(m)")


#: What the teacher's private hidden test holds, in ``HIDDEN=<course>/hidden`` with
#: ``<course>`` on the grader's PYTHONPATH; the notebook looks for it there and on sys.path.
SECRET = "the reference answer is 0.4662, 0.5839"
WALK_THE_PATH = """\
import glob, os, sys
places = sys.path + os.environ.get("PYTHONPATH", "").split(os.pathsep) + ["{course}"]
found = [open(f).read() for p in places for f in glob.glob(os.path.join(p, "hidden", "*.py"))]
raise ValueError(f"found {len(found)}: {found}")
"""


def _write(nb, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, path)


def _submissions(assignments: Path, folder: Path) -> dict:
    folder.mkdir(parents=True)
    honest = lean(notebook(assignments, "teacher"))
    _write(honest, folder / "honest" / AT)
    teacher = (assignments / "teacher" / AT).resolve()
    # links: to the teacher's notebook (absolute, and through /proc), to a classmate's, to
    # the grader's secrets; a folder that is a link; a FIFO
    links = {
        "symteacher": str(teacher),
        "symproc": f"/proc/self/root{teacher}",
        "copycat": f"../honest/{AT}",
        "shadow": "/etc/shadow",
        "environ": "/proc/self/environ",
    }
    for student, target in links.items():
        (folder / student).mkdir()
        os.symlink(target, folder / student / AT)
    os.symlink(teacher.parent, folder / "linked-folder")
    (folder / "fifo").mkdir()
    os.mkfifo(folder / "fifo" / AT)
    # strings: a lone surrogate in a value's reason, ANSI escapes in the last stderr line, an
    # id that is a formula, a file name that is not UTF-8, one of 253 characters
    _write(lean(notebook(assignments, "student", SURROGATE)), folder / "surrogate" / AT)
    _write(lean(notebook(assignments, "student", ANSI)), folder / "ansi" / AT)
    _write(honest, folder / FORMULA / AT)
    with open(os.path.join(os.fsencode(folder), NOT_UTF8), "wb") as f:
        f.write(nbformat.writes(honest).encode())
    (folder / LONG).write_text("not a notebook")
    # identity: a blank notebook that names the honest student in its metadata; a folder whose
    # id is the honest one's once made a file name; right, then two wrong guesses (the newest)
    blank = lean(notebook(assignments, "student"))
    blank.metadata[META] = {**blank.metadata.get(META, {}), "student": "honest"}
    _write(blank, folder / f"mallory_{AT}")
    _write(honest, folder / CLASH / AT)
    guesses = [honest, *(lean(notebook(assignments, "student", g)) for g in WRONG_GUESSES)]
    for k, guess in enumerate(guesses):
        path = folder / "guesser" / (AT if k == 0 else f"{OVER_STEM}-{k + 1}.ipynb")
        _write(guess, path)
        os.utime(path, ns=(10**18 + k * 10**9,) * 2)  # in the order written
    # the teacher's course folder, on the grader's PYTHONPATH: a notebook that walks sys.path
    # (and knows where the folder is) prints whatever it finds into its own feedback
    course = folder.parent / "teacher-course"
    (course / "hidden").mkdir(parents=True)
    (course / "hidden" / "ex-mini-over.py").write_text(f"# {SECRET}\n")
    walker = WALK_THE_PATH.replace("{course}", str(course))
    _write(lean(notebook(assignments, "student", walker)), folder / "pathwalker" / AT)
    return {"links": links, "course": str(course)}


def _read(path: Path) -> list[dict]:
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def hostile_batch(factory: pytest.TempPathFactory) -> dict:
    """The batch's results: ``rows`` (grades.csv) by student, ``details`` by file,
    ``gradebook`` by student, ``summary`` (its text), ``grades`` (the output folder) and
    ``run`` (this run's folder)."""
    assignments = mini_assignments(factory)
    base = _base(factory)
    folder = base / "hostile-batch"
    with FileLock(str(base / "hostile-batch.lock")):
        if not (folder / "batch.json").exists():
            problem = sandbox.probe()
            assert problem is None, f"no sandbox on this machine: {problem}"
            made = _submissions(assignments, folder / "submissions")
            before = os.environ.get("PYTHONPATH")
            os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [made["course"], before]))
            try:
                _, summary = grade_submissions(
                    folder / "submissions", assignments, folder / "grades", 240, 2, Limits()
                )
            finally:
                if before is None:
                    del os.environ["PYTHONPATH"]
                else:
                    os.environ["PYTHONPATH"] = before
            (folder / "batch.json").write_text(json.dumps({**made, "summary": summary}))
    found = json.loads((folder / "batch.json").read_text())
    grades = folder / "grades"
    details: dict[str, list[dict]] = {}
    for row in _read(grades / "details.csv"):
        details.setdefault(row["file"], []).append(row)
    return {
        **found,
        "assignments": assignments,
        "grades": grades,
        "run": (grades / "latest").resolve(),
        "rows": {r["student"]: r for r in _read(grades / "grades.csv")},
        "details": details,
        "gradebook": {r["student"]: r for r in _read(grades / "gradebook.csv")},
    }
