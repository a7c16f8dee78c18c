"""The scoring step on its own (:mod:`clfcourse.scoring`), without a notebook.

Each score is a process forked from a server that imported otter once; the batch and CLI tests
grade through it end to end. Here, on a small values file and two otter test files: a forked
score says what the scoring code says in this process, a score that runs out of time is
killed with every process it started, and what one score leaves in its process reaches no
later score.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np
import psutil
import pytest

import clfmetrics
from clfcourse import isolated, scoring
from clfcourse.runner import _environment
from clfcourse.values import encode
from clfmetrics import bias, prevalence

pytestmark = pytest.mark.sandbox

M = np.array([[60, 15, 5], [35, 170, 40], [5, 15, 55]])
#: Memory (MB), CPU seconds, processes, file size (MB): :func:`isolated.limits`' arguments.
LIMITS = (2048, 60, 64, 16)
CONTEXT = {
    "names": ["over", "under", "m", "np", "bias", "prevalence"],
    "imports": {"np": ["numpy", None], "bias": ["clfmetrics", "bias"]}
    | {"prevalence": ["clfmetrics", "prevalence"]},
    "givens": {"m": encode(M)},
}


def _test_file(name: str, *cases: tuple[str, bool]) -> str:
    """An otter test file (as ``otter assign`` writes them) of doctest ``cases`` (code, hidden)."""
    suite = {"scored": True, "setup": "", "teardown": "", "type": "doctest"}
    suite["cases"] = [{"code": code, "hidden": hidden, "locked": False} for code, hidden in cases]
    test = {"all_or_nothing": True, "name": name, "points": 2, "suites": [suite]}
    return f"OK_FORMAT = True\n\ntest = {test!r}\n"


def _score_args(folder: Path, tests: dict[str, str], values: dict) -> list[str]:
    """Write the tests, the values and the context as the grader does; ``isolated``'s argv."""
    (folder / "tests").mkdir(parents=True)
    for name, text in tests.items():
        (folder / "tests" / f"{name}.py").write_text(text)
    encoded = {"values": {k: encode(v) for k, v in values.items()}, "skipped": {}}
    (folder / "values.json").write_text(json.dumps(encoded))
    (folder / "context.json").write_text(json.dumps(CONTEXT))
    return ["score", *(str(folder / p) for p in ("tests", "values.json", "context.json"))]


def _forked(argv: list[str], folder: Path, timeout: float) -> tuple[int | None, Path]:
    env = {**_environment(str(folder), False), "TMPDIR": str(folder)}
    out = folder / "score.json"
    return scoring.run_forked(argv, folder, env, LIMITS, timeout, out, folder / "score.log"), out


def test_a_forked_score_says_what_the_scoring_code_says_in_process(tmp_path):
    tests = {
        "ex-over": _test_file(
            "ex-over",
            (">>> assert np.shape(over) == (3,)\n", False),
            (">>> assert np.allclose(over, bias(m) - prevalence(m))\n", True),
        ),
        "ex-under": _test_file(
            "ex-under",
            (">>> assert np.shape(under) == (3,)\n", False),
            (">>> assert np.allclose(under, prevalence(m) - bias(m))\n", True),
        ),
    }
    values = {"over": bias(M) - prevalence(M), "under": np.zeros(3)}
    argv = _score_args(tmp_path, tests, values)
    code, out = _forked(argv, tmp_path, 120)
    assert code == 0, (tmp_path / "score.log").read_text()[-2000:]
    forked = json.loads(out.read_text())
    here = isolated._score(*map(Path, argv[1:3]), CONTEXT)
    assert forked["tests"] == here["tests"] and forked["refused"] == here["refused"]
    scores = [(t["name"], t["score"], t["public_passed"]) for t in forked["tests"]]
    assert scores == [("ex-over", 2, True), ("ex-under", 0, True)]
    # requirements.txt's jsonschema pin keeps the IRI parser (slow to build) out of it
    assert not [f for f in forked["modules"] if "/lark/" in f or "rfc3987" in f]
    # the files the grader checks for a change (runner.fingerprint) include the library's
    assert clfmetrics.__file__ in forked["modules"], "the scorer does not list the library"


def test_a_score_out_of_time_is_killed_with_what_it_started(tmp_path):
    """The score starts a process in a session of its own, then never ends: after the time
    limit both are gone and the call says it ran out of time (None)."""
    hang = (
        ">>> import subprocess, time\n"
        ">>> p = subprocess.Popen(['sleep', '600'], start_new_session=True)\n"
        ">>> _ = open('started', 'w').write(str(p.pid))\n"
        ">>> time.sleep(600)\n"
    )
    argv = _score_args(tmp_path, {"ex-hang": _test_file("ex-hang", (hang, False))}, {})
    started = time.monotonic()
    code, _ = _forked(argv, tmp_path, 5)  # waits, costs no CPU time; the score needs < 1 s
    assert code is None and time.monotonic() - started < 60
    assert (tmp_path / "started").exists(), "the score did not start its process in 5 s"
    pid = int((tmp_path / "started").read_text())
    try:
        alive = psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        alive = False
    assert not alive, f"the score's process {pid} outlived its time-out"


def test_what_a_score_leaves_in_its_process_reaches_no_later_score(tmp_path):
    """Each score is a fresh fork of a server that never holds a student's values."""
    leave = ">>> import clfmetrics\n>>> clfmetrics.LEFT_BEHIND = over\n"
    find = ">>> import clfmetrics\n>>> assert not hasattr(clfmetrics, 'LEFT_BEHIND')\n"
    results = []
    for k, case in enumerate((leave, find)):
        folder = tmp_path / str(k)
        tests = {"ex-state": _test_file("ex-state", (case, False))}
        code, out = _forked(_score_args(folder, tests, {"over": np.ones(3)}), folder, 120)
        assert code == 0, (folder / "score.log").read_text()[-2000:]
        results.append(json.loads(out.read_text())["tests"][0]["score"])
    assert results == [2, 2]
