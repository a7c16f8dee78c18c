"""The run's background jobs (tests/conftest.py): started once, waited for, pruned with care."""

from __future__ import annotations

import os
import threading
import time

import pytest

from tests import conftest


@pytest.fixture
def jobs(monkeypatch, tmp_path, pytestconfig):
    """A job of one shell command in a folder of its own, under this test's RUNS."""
    monkeypatch.setattr(conftest, "RUNS", tmp_path / "runs")
    marks = tmp_path / "marks"

    def job(script):
        def command(out):
            return ["bash", "-c", f"mkdir -p {out}; echo started >> {marks}; {script}"]

        monkeypatch.setitem(conftest.BACKGROUND, "fake", ("fake", command, 30))
        return pytestconfig

    job.marks = marks
    return job


def test_a_job_asked_for_by_many_starts_once_and_every_waiter_gets_its_result(jobs):
    config = jobs("sleep 0.5; echo done")
    starters = [threading.Thread(target=conftest._start_job, args=(config, "fake")) for _ in "1234"]
    for t in starters:
        t.start()
    for t in starters:
        t.join()
    ok, log, out = conftest._wait_for_job(config, "fake")
    assert ok and log.strip().endswith("done") and out.is_dir()
    assert jobs.marks.read_text() == "started\n"
    assert conftest._wait_for_job(config, "fake")[0]  # a second waiter reads the same status


def test_a_failed_job_says_so_with_its_log(jobs):
    config = jobs("echo broken >&2; exit 3")
    conftest._start_job(config, "fake")
    ok, log, _ = conftest._wait_for_job(config, "fake")
    assert not ok and "broken" in log


def test_waiting_for_a_job_never_started_fails_at_once(jobs):
    config = jobs("true")
    with pytest.raises(AssertionError, match="the fake job was never started"):
        conftest._wait_for_job(config, "fake")


def test_old_runs_go_but_not_one_whose_job_may_still_run(monkeypatch, tmp_path):
    monkeypatch.setattr(conftest, "RUNS", tmp_path)
    for k in range(6):
        job = tmp_path / f"run{k}" / "book"
        job.mkdir(parents=True)
        (job / "started").write_text("1")
        if k != 1:
            (job / "status").write_text("0")
        os.utime(tmp_path / f"run{k}", (time.time() - 100 * (6 - k),) * 2)  # run5 newest
    stale = tmp_path / "run0"
    (stale / "book" / "status").unlink()  # "running", but older than any job's timeout
    os.utime(stale, (time.time() - 10_000,) * 2)
    conftest._prune_runs()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run1", "run4", "run5"]
