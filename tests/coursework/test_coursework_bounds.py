"""Issue 38: memory, ``/tmp``, processes, CPU, time and leftovers bounded per submission.

The attacks are graded at ``--jobs 2`` beside an honest notebook in ``coursework_bounds``'s
batches; each earns its points only if its bound fails. The CPU share and the groups' files are
checked on their own (a CPU-starvation test of a whole batch would time on a shared machine).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from coursework_bounds import (
    DEADLINE,
    LIMITS,
    bounds_batch,
    deadline_batch,
    unsandboxed_batch,
)
from coursework_mini import OVER_STEM

from clfcourse import cgroups, untrusted
from clfcourse.grading import Unbounded, grade_submissions
from clfcourse.runner import groups_available

pytestmark = pytest.mark.sandbox


@pytest.fixture(scope="module")
def batch(tmp_path_factory) -> dict:
    assert groups_available() is None, groups_available()  # root, cgroup v1 or v2
    return bounds_batch(tmp_path_factory)


def test_the_honest_notebook_keeps_its_points_under_the_same_limits(batch):
    assert (batch["rows"]["honest"]["points"], batch["rows"]["honest"]["message"]) == ("2", "ok")


def test_tmp_is_bounded(batch):
    """Was: --tmpfs /tmp had no size: a notebook filled the machine's memory through it (the
    out-of-memory killer then chose the grader)."""
    row = batch["rows"]["tmpfill"]
    assert row["points"] == "0", row
    note = (batch["run"] / "teacher" / "tmpfill" / f"{OVER_STEM}.md").read_text()
    assert f"wrote {LIMITS.tmp_mb - 1} MB to /tmp: No space left on device" in note or (
        f"wrote {LIMITS.tmp_mb} MB to /tmp: No space left on device" in note
    ), note


def test_the_home_folder_is_bounded_and_off_the_disk(batch):
    """Was: the scratch folder was a folder on the host's disk, and RLIMIT_FSIZE caps one
    file, not the total: a notebook filled the disk, still got 2/2, and the next students
    got "No space left on device"."""
    row = batch["rows"]["diskfill"]
    assert row["points"] == "0", row
    # the full folder also leaves no room for the run's own outputs: that is the row's reason
    assert row["message"].endswith("No space left on device"), row


def test_a_submissions_processes_share_one_memory_bound(batch):
    """Was: RLIMIT_AS bounds each process: five children of 150 MB under 1,024 MB each held
    750 MB together (the red team's held several times 1,024 MB, and scored)."""
    row = batch["rows"]["memory"]
    assert row["points"] == "0", row
    assert f"together used more than {LIMITS.total_memory_mb} MB" in row["message"], row


def test_a_fork_bomb_is_capped_and_its_neighbour_graded(batch):
    """At --jobs 2 the honest notebook runs beside it (and keeps 2/2, above)."""
    row = batch["rows"]["forks"]
    assert row["points"] == "0", row
    note = (batch["run"] / "teacher" / "forks" / f"{OVER_STEM}.md").read_text()
    forked = int(note.split("RuntimeError: forked ")[1].split()[0])
    assert 0 < forked < LIMITS.processes, note


def test_a_deep_chain_of_folders_is_cleaned_up(batch):
    """Was: shutil.rmtree raised RecursionError on 1,200 nested folders: the scratch folder
    stayed behind with its payload, and the file's row said the grader failed. In a sandbox
    the chain is made in the memory-backed home and goes with it (nothing of it on the host:
    the remover's own defence is shown where the home is a host folder, below)."""
    row = batch["rows"]["deep"]
    assert row["points"] == "0" and "test 2: AssertionError" in row["message"], row
    assert batch["left"] == [], batch["left"]


@pytest.fixture(scope="module")
def unsandboxed(tmp_path_factory) -> dict:
    return unsandboxed_batch(tmp_path_factory)


def test_a_deep_chain_on_the_host_is_removed_without_recursion(unsandboxed):
    """Without a sandbox (--unsafe-no-sandbox) the notebook's home is its scratch folder on
    the host: the 1,200 folders and the payload at their bottom are made there, and the
    scratch folder's removal (``untrusted.remove_tree``, no recursion) takes them all; the
    honest notebook of the run keeps its points."""
    rows = unsandboxed["rows"]
    assert (rows["honest"]["points"], rows["honest"]["message"]) == ("2", "ok"), rows
    assert rows["deep"]["points"] == "0", rows
    assert "test 2: AssertionError" in rows["deep"]["message"], rows
    assert (unsandboxed["left"], unsandboxed["payload"]) == ([], False), unsandboxed


#: Applies limits of 1,024 MB to itself, then starts a child that asks for 2,048 MB (as the
#: scorer, limited to --memory-mb, starts the worker that runs the student's functions).
NESTED_LIMITS = """\
import subprocess, sys
from clfcourse import isolated
isolated.limits(1024, 120, 64, 64)()
child = "import resource; print(resource.getrlimit(resource.RLIMIT_AS)[1] // 2**20)"
run = subprocess.run([sys.executable, "-c", child], preexec_fn=isolated.limits(2048, 60, 16, 16),
                     capture_output=True, text=True)
print(run.stdout.strip() or run.stderr.strip().splitlines()[-1])
"""


def test_a_childs_limits_never_exceed_its_parents():
    """Was: the scorer's worker asked for 2,048 MB of address space; under --memory-mb below
    that, a process without CAP_SYS_RESOURCE cannot raise its hard limit, so every test that
    calls a student's function failed ("Exception occurred in preexec_fn")."""
    env = {**os.environ, "PYTHONPATH": str(Path(untrusted.__file__).parents[1])}
    done = subprocess.run(
        [sys.executable, "-c", NESTED_LIMITS], env=env, capture_output=True, text=True
    )
    assert done.stdout.strip() == "1024", (done.stdout, done.stderr)


def test_remove_tree_needs_no_recursion(tmp_path):
    top = tmp_path / "top"
    top.mkdir()
    fd = os.open(top, os.O_RDONLY)
    for _ in range(1500):  # deeper than the recursion limit, longer than PATH_MAX
        os.mkdir("d", dir_fd=fd)
        child = os.open("d", os.O_RDONLY, dir_fd=fd)
        os.close(fd)
        fd = child
    os.close(fd)
    (tmp_path / "outside").write_text("kept")
    os.symlink(tmp_path / "outside", top / "link")  # removed, never followed
    untrusted.remove_tree(top)
    assert not top.exists() and (tmp_path / "outside").read_text() == "kept"


#: Eight processes spin for two seconds of wall time, each then waits for its children (so
#: that their CPU time adds up in the first one's parent, this test).
SPIN = """\
import os, time
for _ in range(3):
    os.fork()
end = time.time() + 2
while time.time() < end:
    pass
while True:
    try:
        os.wait()
    except ChildProcessError:
        break
"""


def test_a_groups_cpu_share_binds():
    """Eight busy processes in a group of a quarter of a core get about half a second of CPU
    time in two seconds, however many cores are free (unbounded: up to 16 s on 8 cores)."""
    group = cgroups.make(256, 16, 0.25)
    try:
        before = os.times()
        subprocess.run([sys.executable, "-c", SPIN], preexec_fn=group.join, check=True)
        after = os.times()
    finally:
        group.remove()
    used = (after.children_user - before.children_user) + (
        after.children_system - before.children_system
    )
    assert 0.2 < used < 0.9, used


def test_a_groups_files_in_both_layouts(tmp_path, monkeypatch):
    """cgroup v1 (a hierarchy per controller) and v2 (one, with the controllers delegated)."""
    monkeypatch.setattr(cgroups, "_own", lambda c, root: root / c if c else root)
    v1 = tmp_path / "v1"
    for controller in cgroups.V1:
        (v1 / controller).mkdir(parents=True)
        (v1 / controller / "cgroup.procs").write_text("")
    group = cgroups.make(300, 20, 1.0, v1)
    name = group.folders[0].name
    assert (v1 / "memory" / name / "memory.limit_in_bytes").read_text() == str(300 * 2**20)
    assert (v1 / "pids" / name / "pids.max").read_text() == "20"
    assert (v1 / "cpu" / name / "cpu.cfs_quota_us").read_text() == "100000"
    assert (v1 / "cpu" / name / "cpu.cfs_period_us").read_text() == "100000"
    v2 = tmp_path / "v2"
    v2.mkdir()
    (v2 / "cgroup.controllers").write_text("cpu memory pids")
    (v2 / "cgroup.subtree_control").write_text("memory pids cpu")
    group = cgroups.make(300, 20, 0.5, v2)
    folder = group.folders[0]
    assert (folder / "memory.max").read_text() == str(300 * 2**20)
    assert (folder / "cpu.max").read_text() == "50000 100000"
    (v2 / "cgroup.subtree_control").write_text("memory")
    assert "does not give its children the" in cgroups.probe(v2)


def test_jobs_above_one_are_refused_without_groups(tmp_path, monkeypatch):
    from clfcourse import runner

    monkeypatch.setattr(runner, "_GROUPS", ["no cgroup here"])
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "manifest.json").write_text('{"chapters": []}')
    (tmp_path / "in").mkdir()
    with pytest.raises(Unbounded, match="--jobs 2 needs a cgroup per submission"):
        grade_submissions(tmp_path / "in", tmp_path / "a", tmp_path / "out", jobs=2)
    grade_submissions(tmp_path / "in", tmp_path / "a", tmp_path / "out", jobs=1)
    assert Path(tmp_path / "out" / "latest").exists()


def test_one_deadline_for_running_and_scoring(monkeypatch):
    """Was: scoring got max(left, 30) s of its own, and the functions the tests call (student
    code, in the sandbox's worker) ran in it: past a 60 s limit, with full points."""
    import time

    from clfcourse import isolated, runner

    files = [isolated.__file__]
    seen = []

    def slow(*args):
        time.sleep(1.5)
        return b"{}", None, None

    def score(values, tests, context, timeout, *rest):
        seen.append(timeout)
        return None, "timed out while its values were graded"

    monkeypatch.setattr(runner, "_execute", slow)
    monkeypatch.setattr(runner, "_score_values", score)
    found = runner.fingerprint(files)
    args = ({}, "mini")
    kwargs = {"files": found, "modules": files, "sandboxed": False}
    assert runner.run_isolated(b"{}", *args, 1, **kwargs) == (None, "timed out after 1 s")
    assert seen == []  # no time left: nothing scored
    problem = runner.run_isolated(b"{}", *args, 4, **kwargs)[1]
    assert problem == "timed out after 4 s, while its values were graded"
    assert len(seen) == 1 and seen[0] < 4 - 1.5, seen


def test_the_outputs_leave_through_a_descriptor_as_data(tmp_path):
    """execute.emit hands back regular files only (a folder or a link is a missing value)."""
    from clfcourse import execute

    out = tmp_path / ".values.json"
    out.write_bytes(b'{"values": {}}')
    sink = tmp_path / "emitted"
    execute.emit(out, os.open(sink, os.O_WRONLY | os.O_CREAT), 100)
    assert execute.received(sink.read_bytes()) == (b'{"values": {}}', None)
    out.unlink()
    out.mkdir()
    (tmp_path / ".values.ipynb").symlink_to("/etc/passwd")
    execute.emit(out, os.open(sink, os.O_WRONLY | os.O_TRUNC), 100)
    assert execute.received(sink.read_bytes()) == (None, None)
    assert execute.received(b"\x00" * 8 + b"\x00\x00") == (b"", None)  # cut short: missing


#: Empty files in the home folder (no block of the folder's size limit), up to 400,000,
#: the count printed every 10,000.
INODES = """\
import os
for n in range(1, 400_001):
    open(f"/home/student/f{n}", "w").close()
    if n % 10_000 == 0:
        print(n, flush=True)
"""


def test_empty_files_are_bounded_by_the_groups_memory(tmp_path):
    """Was: empty files were made at 21k/s in a folder on the host's disk, without end. In
    the home folder each one's inode is memory of the submission's group: a group of 100 MB
    stops the flood long before 400,000 (about 1 KB each)."""
    from clfcourse import sandbox

    group = cgroups.make(100, 16, 1.0)
    try:
        with sandbox.sandbox_for_submission() as box:
            box.prepare(tmp_path)
            cmd = box.wrap([sys.executable, "-c", INODES], tmp_path, home_mb=64)
            done = subprocess.run(
                cmd, preexec_fn=group.join, capture_output=True, text=True, timeout=300
            )
        assert group.out_of_memory()
    finally:
        group.remove()
    made = [int(line) for line in done.stdout.split()]
    assert done.returncode != 0 and max(made, default=0) < 400_000, (done.returncode, made[-1:])
    assert not list(tmp_path.iterdir())  # nothing of it on the host


@pytest.fixture(scope="module")
def deadline(tmp_path_factory) -> dict:
    assert groups_available() is None, groups_available()
    return deadline_batch(tmp_path_factory)


def test_one_deadline_for_a_whole_batch(deadline):
    """Was: scoring got max(left, 30) s of its own, and the function the test calls (student
    code, in the sandbox's worker) ran in it: a right answer that sleeps there for longer
    than the whole --timeout earned its points. Now it times out while its values are graded,
    and the honest notebook graded beside it keeps its points."""
    rows = deadline["rows"]
    assert (rows["honest"]["points"], rows["honest"]["message"]) == ("2", "ok"), rows
    assert rows["slow"]["points"] == "0", rows
    why = f"timed out after {DEADLINE} s, while its values were graded"
    assert rows["slow"]["message"] == why, rows
