"""The ten attacks of issue 24 on local grading, each a submission in one `make grade` batch.

One batch grades, side by side, an honest notebook (the teacher's: full points), a blank one
(the student's: zero) and ten hostile notebooks of a small chapter built like the book's (given
data ``m``, an answer ``over`` that the hidden test compares with the library). Before the
sandbox, every attack below gave unearned points, crashed the batch or harmed other submissions
or the machine; each test says what it did. The batch runs once (module fixture) with a process
cap of 30, and the tests read its rows.

Attack 6 appends to the shared venv's ``yaml/__init__.py``: the sandbox's read-only venv must
stop it; the fixture restores the file should it ever change, and the test then fails.
"""

from __future__ import annotations

import csv
import hashlib
import json
import os
import signal
import uuid
from pathlib import Path

import nbformat
import psutil
import pytest
import yaml

from clfmetrics.coursework import Limits, grade_submissions, sandbox
from clfmetrics.coursework.__main__ import main
from clfmetrics.coursework.exercises import META
from clfmetrics.coursework.generate import write_assignments

# With test_coursework.py on one worker: its unsandboxed test touches the library's
# __init__.py, which the fingerprint check of a batch running meanwhile rightly flags.
pytestmark = pytest.mark.xdist_group("tests/test_coursework.py")

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
import numpy as np
from clfmetrics import bias, prevalence
```

```{code-cell} ipython3
m = np.array([[60, 15, 5], [35, 170, 40], [5, 15, 55]])
```

```{exercise}
:label: ex-mini-over

Compute how much more each class of `m` is predicted than it is true, as `over`.
```

````{solution-start} ex-mini-over
:class: dropdown
````

Bias minus prevalence.

```{code-cell} ipython3
:tags: [solution]

over = bias(m) - prevalence(m)
```

````{solution-end}
````

```{code-cell} ipython3
:tags: [check, hide-input]
:points: 2

assert np.shape(over) == (3,), "one entry per class"
```

```{code-cell} ipython3
:tags: [hidden-check, remove-cell]

assert np.allclose(over, bias(m) - prevalence(m))
assert abs(float(np.sum(over))) < 1e-9
```
"""

#: Makes every doctest of the process pass (what attacks 1 and 6 run in the scorer).
PASS_ALL = (
    "import doctest as _d\n"
    "_d.DocTestRunner.summarize = lambda self, verbose=None, _d=_d: _d.TestResults(0, 0)\n"
)

#: Adds forged entries to the values the kernel exports (the kernel is the student's).
FORGE = """\
import json
_dump = json.dump
def _forged(obj, f, **kw):
    obj["values"].update(FORGED)
    return _dump(obj, f, **kw)
json.dump = _forged
"""


def _objarray(*items) -> dict:
    return {"t": "objarray", "shape": [len(items)], "v": list(items)}


SERIES_EXEC = {
    "over": {
        "t": "Series",
        "name": {"t": "ref", "module": "clfmetrics.coursework.runner", "v": "builtins.exec"},
        "index": _objarray({"t": "str", "v": PASS_ALL}),
        "columns": _objarray({"t": "str", "v": "__series__"}),
        "v": [_objarray({"t": "int", "v": 0})],
    }
}

#: Walks up from the kernel to the grader (a pytest process) and lists its process tree, or,
#: when no grader is in sight (in the sandbox), every process the kernel can see. Bounded to
#: the test's own pytest, so that run against an unsandboxed grader it harms nothing else.
PROCS = """\
import os

def _ppid(pid):
    with open(f"/proc/{pid}/stat") as f:
        return int(f.read().rsplit(")", 1)[1].split()[1])

def _cmd(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read()
    except OSError:
        return b""

def _grader():
    chain, pid = [], os.getpid()
    while pid > 1:
        chain.append(pid)
        try:
            pid = _ppid(pid)
        except OSError:
            break
    return next((p for p in chain if b"pytest" in _cmd(p)), None)

TOP = _grader()  # found before any fork: a daemon's own parent is init

def _grader_tree(top=TOP):
    pids = [int(p) for p in os.listdir("/proc") if p.isdigit()]
    if top is None:
        return [p for p in pids if p != os.getpid()]
    tree = {top}
    for _ in range(12):
        for p in pids:
            try:
                if _ppid(p) in tree:
                    tree.add(p)
            except OSError:
                pass
    return sorted(tree - {os.getpid()})
"""

DAEMON = (
    PROCS
    + """
import json, time
FAKE = json.dumps({"tests": [{"name": "ex-mini-over", "score": 2, "max_score": 2,
    "output": "All test cases passed!", "public_passed": True}], "refused": {}, "modules": []})
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        seen, end, tree, scanned = {}, time.time() + 900, [], 0
        while time.time() < end:
            if time.time() - scanned > 1:
                tree, scanned = _grader_tree(), time.time()
            for pid in [p for p in os.listdir("/proc") if p.isdigit() and int(p) in tree]:
                cmd = _cmd(pid)
                if b"isolated" in cmd and b"score" in cmd:
                    try:
                        seen[pid] = os.readlink(f"/proc/{pid}/cwd")
                    except OSError:
                        pass
            for pid, folder in list(seen.items()):
                if not os.path.exists(f"/proc/{pid}"):
                    try:
                        with open(os.path.join(folder, "score.json"), "w") as f:
                            f.write(FAKE)
                    except OSError:
                        del seen[pid]
            time.sleep(0.002)
    os._exit(0)
"""
)

READ_THE_ZIP = """\
import glob, os, re, zipfile
found = []
for pid in [p for p in os.listdir("/proc") if p.isdigit()]:
    try:
        cwd = os.readlink(f"/proc/{pid}/cwd")
    except OSError:
        continue
    found += glob.glob(os.path.join(cwd, "_build/assignments/autograder/mini.zip"))
found += glob.glob("/tmp/pytest-of-*/pytest-*/*/autograder/mini.zip")
found += glob.glob("/tmp/*/autograder/mini.zip")
if found:
    with zipfile.ZipFile(max(found, key=os.path.getmtime)) as zf:
        text = zf.read("tests/ex-mini-over.py").decode()
    over = eval(re.search(r"np.allclose\\(over, (.+?)\\)", text).group(1))
"""

YAML = f"""\
import yaml
try:
    with open(yaml.__file__, "a") as f:
        f.write({PASS_ALL!r})
except OSError as exc:
    print("refused:", exc)
"""

KILL = (
    PROCS
    + """
import signal
for pid in _grader_tree():
    try:
        os.kill(pid, signal.SIGKILL)
    except OSError:
        pass
"""
)

OUTLIVE = """\
import os
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.execv("/bin/sleep", ["{mark}", "600"])
    os._exit(0)
"""

FORKS = """\
import os, time
forked = 0
for _ in range(40):
    try:
        pid = os.fork()
    except OSError:
        break
    if pid == 0:
        time.sleep(20)
        os._exit(0)
    forked += 1
print("forked", forked)
if forked == 40:  # the points report whether all 40 forks got through
    over = bias(m) - prevalence(m)
"""

ATTACKS = {
    "1-series-name": FORGE.replace("FORGED", repr(SERIES_EXEC)),
    "2-shadowed-abs": "over = bias(m) - prevalence(m) + 2e-9\n"
    + FORGE.replace("FORGED", repr({"abs": {"t": "ref", "module": "operator", "v": "not_"}})),
    "3-given-data": "m = np.eye(3, dtype=int)\nover = bias(m) - prevalence(m)",
    "4-daemon": DAEMON,
    "5-read-the-zip": READ_THE_ZIP,
    "6-venv-yaml": YAML,
    "7-values-sabotage": 'import os\nos.symlink("/dev/null", ".values.ipynb")\n'
    'os.mkdir(".values.json")',
    "8-kill": KILL,
    "9-outlive": OUTLIVE,
    "10-forks": FORKS,
}

STEM = "mini"


def _digest(path: str) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def batch(tmp_path_factory) -> dict:
    """One grading run: honest, blank and the ten attacks; rows per submission folder."""
    problem = sandbox.probe()
    assert problem is None, f"no sandbox on this machine: {problem} (make test installs bwrap)"
    book = tmp_path_factory.mktemp("book")
    (book / f"{STEM}.md").write_text(MINI)
    assignments = tmp_path_factory.mktemp("assignments")
    write_assignments(book, assignments, [book / f"{STEM}.md"], run_tests=False)
    folder = tmp_path_factory.mktemp("submissions")
    mark = f"clfmetrics-attack-9-{uuid.uuid4().hex}"
    student = nbformat.read(assignments / "student" / f"{STEM}.ipynb", 4)
    nbformat.write(
        nbformat.read(assignments / "teacher" / f"{STEM}.ipynb", 4), _at(folder / "honest")
    )
    nbformat.write(student, _at(folder / "blank"))
    for name, code in ATTACKS.items():
        nb = nbformat.read(assignments / "student" / f"{STEM}.ipynb", 4)
        (cell,) = [c for c in nb.cells if c.metadata.get(META, {}).get("role") == "solution"]
        cell.source = code.replace("{mark}", mark)
        nbformat.write(nb, _at(folder / name))
    venv_yaml = yaml.__file__
    before = Path(venv_yaml).read_bytes()
    grades = tmp_path_factory.mktemp("grades")
    try:
        grade_submissions(folder, assignments, grades, 240, 2, Limits(processes=30))
    finally:
        survivors = [
            p for p in psutil.process_iter(["cmdline"]) if mark in (p.info["cmdline"] or [""])[0]
        ]
        for proc in survivors:
            os.kill(proc.pid, signal.SIGKILL)
        damaged = Path(venv_yaml).read_bytes() != before
        if damaged:  # never leave the shared venv changed
            Path(venv_yaml).write_bytes(before)
    with open(grades / "grades.csv", newline="") as f:
        rows = {r["student"]: r for r in csv.DictReader(f)}
    return {"rows": rows, "survivors": survivors, "yaml_damaged": damaged}


def _at(folder: Path) -> Path:
    folder.mkdir()
    return folder / f"{STEM}.ipynb"


def _row(batch, name) -> dict:
    return batch["rows"][name]


def test_honest_notebook_keeps_full_points_and_blank_scores_zero(batch):
    assert (_row(batch, "honest")["points"], _row(batch, "honest")["message"]) == ("2", "ok")
    blank = _row(batch, "blank")
    assert blank["points"] == "0" and "NameError" in blank["message"], blank


def test_1_a_callable_series_name_runs_nothing_in_the_scorer(batch):
    """Was: the name resolved to builtins.exec through runner.builtins; pandas called it."""
    row = _row(batch, "1-series-name")
    assert row["points"] == "0" and "over: unreadable (ValueError)" in row["message"], row


def test_2_builtins_are_never_bound_from_the_students_values(batch):
    """Was: an exported `abs` = operator.not_ passed `abs(sum) < 1e-9` for a wrong answer."""
    row = _row(batch, "2-shadowed-abs")
    assert row["points"] == "0" and "test 2: AssertionError" in row["message"], row


def test_3_redefined_given_data_earns_nothing(batch):
    """Was: `m = np.eye(3)` made `over = 0` right; `m` now comes from the teacher's run."""
    row = _row(batch, "3-given-data")
    assert row["points"] == "0" and "test 2: AssertionError" in row["message"], row


def test_4_a_daemon_cannot_rewrite_the_score(batch):
    """Was: a double-forked daemon wrote full points into score.json after the scorer."""
    row = _row(batch, "4-daemon")
    assert row["points"] == "0" and "NameError" in row["message"], row


def test_5_the_grader_and_its_zip_are_out_of_sight(batch):
    """Was: found through /proc and /tmp, the zip gave the expected value."""
    row = _row(batch, "5-read-the-zip")
    assert row["points"] == "0" and "NameError" in row["message"], row


def test_6_the_venv_is_read_only(batch):
    """Was: a line appended to yaml/__init__.py ran in every later scorer: full points."""
    assert not batch["yaml_damaged"], "the venv's yaml/__init__.py changed (restored)"
    row = _row(batch, "6-venv-yaml")
    assert row["points"] == "0" and "NameError" in row["message"], row


def test_7_a_sabotaged_values_file_is_that_submissions_row(batch):
    """Was: a folder .values.json crashed the whole run, with no grades.csv for anyone."""
    row = _row(batch, "7-values-sabotage")
    assert row["points"] == "0" and ".values.json is not a regular file" in row["message"], row


def test_8_a_notebook_cannot_kill_the_grader_or_other_kernels(batch):
    """Was: killing the grader's process tree cost everyone their grades."""
    row = _row(batch, "8-kill")
    assert row["points"] == "0" and "killed" in row["message"], row
    assert len(batch["rows"]) == 12  # every submission graded, the honest one in full


def test_9_nothing_outlives_the_run(batch):
    """Was: a double-forked process outlived `make grade`."""
    assert not batch["survivors"], batch["survivors"]
    assert _row(batch, "9-outlive")["points"] == "0"


def test_10_the_process_cap_binds(batch):
    """Was: as root, RLIMIT_NPROC never bound, so 40 forks got through (and the answer)."""
    row = _row(batch, "10-forks")
    assert row["points"] == "0" and "NameError" in row["message"], row


def test_grading_refuses_without_a_sandbox_unless_told(monkeypatch, tmp_path, capsys):
    """No sandbox: exit 2 and a message naming the flag, before any notebook runs."""
    monkeypatch.setattr(sandbox, "probe", lambda: "bubblewrap (bwrap) is not installed")
    (tmp_path / "assignments").mkdir()
    (tmp_path / "assignments" / "manifest.json").write_text(json.dumps({"chapters": []}))
    (tmp_path / "subs").mkdir()
    args = ["grade", str(tmp_path / "subs"), "--assignments", str(tmp_path / "assignments")]
    assert main([*args, "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert "bwrap" in err and sandbox.UNSAFE_FLAG in err, err
    assert main([*args, "--out", str(tmp_path / "out"), sandbox.UNSAFE_FLAG]) == 0
