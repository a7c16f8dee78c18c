"""The bubblewrap sandbox that each submission's code runs in (Debian's ``bwrap``).

A command started through :meth:`Sandbox.wrap` runs

- as an unprivileged user: when the grader runs as root, ``setpriv`` drops to a user id of its
  own per concurrent submission (so ``RLIMIT_NPROC``, which never binds root, binds it and the
  submissions cannot signal one another); otherwise a user namespace maps it to the teacher;
- in its own PID, IPC, UTS and network namespaces: no network, no view of the grader's or the
  other submissions' processes, and when the command ends the namespace's init ends and the
  kernel kills every process left in it (double-forked daemons included); ``--die-with-parent``
  ends it with the grader;
- on a read-only view of the system, the interpreter, the venv and the library, with a private
  ``/tmp`` and a home folder (``/home/student``), both memory-backed and sized (the home
  holds the submission's inputs read-only; :meth:`Sandbox.wrap`), and nothing else of the
  host: not the assignments, not the other submissions, not ``/root``, not the grader's
  ``PYTHONPATH``.

Memory, CPU time, processes and file size are capped by :func:`.isolated.limits`, inherited
through ``bwrap``, and per submission by a cgroup where one can be made (:mod:`.cgroups`).
:func:`probe` tells whether such a sandbox can be made on this machine.
"""

from __future__ import annotations

import fcntl
import importlib.util
import os
import shutil
import stat
import subprocess
import sys
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

#: Where the submission's scratch folder appears inside the sandbox (also its ``HOME``).
HOME = "/home/student"
#: User ids for submissions when the grader runs as root, one per concurrent submission.
FIRST_UID = 61000
#: The flag that lets ``grade`` run students' code without a sandbox.
UNSAFE_FLAG = "--unsafe-no-sandbox"

_SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/etc")


def _bwrap() -> str | None:
    return shutil.which("bwrap") or (
        "/usr/bin/bwrap" if os.access("/usr/bin/bwrap", os.X_OK) else None
    )


def library() -> list[str]:
    """The folders that hold the packages a submission's processes import from outside the
    venv: this package's, the ``clfmetrics`` library's and the book's apparatus ``clfbook``
    (whose code the chapters run), each found, not imported.

    Nothing else of the grader's ``PYTHONPATH``: a teacher's folder listed there (their
    course, their hidden tests) would be readable by every notebook.
    """
    found = [str(Path(__file__).resolve().parents[1])]
    for name in ("clfmetrics", "clfbook"):
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.origin:
            found.append(str(Path(spec.origin).resolve().parents[1]))
    return list(dict.fromkeys(found))


def _read_only() -> list[str]:
    """The host paths a submission may read: the system, the interpreter, the venv, the library."""
    paths = [*_SYSTEM, sys.base_prefix, sys.prefix, *library()]
    paths += [os.path.realpath(p) for p in list(paths)]
    found = []
    for path in paths:
        if os.path.exists(path) and path not in found:
            found.append(path)
    return found


def readable() -> list[str]:
    """Every host path a submission can read in its sandbox (its ``/tmp`` and scratch aside)."""
    return _read_only()


def exposed(path: Path | str) -> str | None:
    """The sandbox-readable path that ``path`` is inside of (it or a parent), else None."""
    real = os.path.realpath(path)
    for bound in readable():
        if os.path.commonpath([real, os.path.realpath(bound)]) == os.path.realpath(bound):
            return bound
    return None


@dataclass(frozen=True)
class Sandbox:
    """How to wrap a command in bubblewrap; ``uid`` is the submission's user when root."""

    bwrap: str
    uid: int | None = None

    def wrap(
        self,
        cmd: list[str],
        scratch: Path,
        extra: tuple[str, ...] = (),
        tmp_mb: int = 512,
        home_mb: int | None = None,
        inputs: tuple[str, ...] = (),
    ) -> list[str]:
        """``cmd`` to run inside the sandbox with ``scratch`` as its writable ``HOME``.

        ``extra`` are host files (such as the values a worker reads) bound read-only at the
        same path; ``/tmp`` is a memory-backed folder of at most ``tmp_mb``. With ``home_mb``,
        ``HOME`` is such a folder too, of at most ``home_mb``, holding the files ``inputs``
        (paths relative to ``scratch``) read-only: nothing the command writes reaches the
        host's disk (what it hands back goes through a file descriptor, see :mod:`.execute`).
        """
        args = [self.bwrap, "--die-with-parent", "--new-session"]
        args += ["--unshare-pid", "--unshare-ipc", "--unshare-net", "--unshare-uts"]
        args += ["--unshare-cgroup-try", "--hostname", "sandbox"]
        if self.uid is None:  # not root: a user namespace, as the teacher's unprivileged user
            args += ["--unshare-user", "--uid", "65534", "--gid", "65534"]
        # A private /tmp first: what is bound below (a venv or a clone under /tmp) goes on top of
        # it and stays visible, where a tmpfs mounted last would hide it.
        # sized, else a notebook filling it takes the machine's memory (bubblewrap >= 0.5)
        args += ["--perms", "1777", "--size", str(tmp_mb * 1024 * 1024), "--tmpfs", "/tmp"]
        binds = [("--ro-bind", path, path) for path in [*_read_only(), *extra]]
        binds.append(("--bind" if home_mb is None else "--home", str(scratch), HOME))
        bound: list[str] = []
        made: set[str] = {"/tmp"}
        for kind, source, target in binds:
            if any(target.startswith(f"{d}/") for d in bound):
                if os.path.realpath(target) == target:
                    continue  # already visible through a folder bound before
            # bwrap would make the missing parents mode 0700, closed to the submission's user
            for parent in map(str, reversed(Path(target).parents[:-1])):
                inside = any(parent == d or parent.startswith(f"{d}/") for d in bound)
                if not inside and parent not in made:
                    args += ["--perms", "0755", "--dir", parent]
                    made.add(parent)
            if kind == "--home":  # a sized memory-backed HOME, the inputs read-only in it
                args += ["--perms", "1777", "--size", str(home_mb * 1024 * 1024)]
                args += ["--tmpfs", HOME]
                for name in inputs:
                    for parent in reversed(Path(HOME, name).parents[:-1]):
                        if str(parent).startswith(f"{HOME}/") and str(parent) not in made:
                            args += ["--perms", "1777", "--dir", str(parent)]
                            made.add(str(parent))
                    args += ["--ro-bind", str(Path(source, name)), f"{HOME}/{name}"]
            else:
                args += [kind, source, target]
            bound.append(target)
        args += ["--proc", "/proc", "--dev", "/dev"]
        args += ["--chdir", HOME]
        args.append("--")
        if self.uid is not None:  # root: drop to the submission's own user before anything runs
            setpriv = shutil.which("setpriv") or "/usr/bin/setpriv"
            args += [setpriv, f"--reuid={self.uid}", f"--regid={self.uid}", "--clear-groups"]
            args += ["--inh-caps=-all", "--bounding-set=-all", "--no-new-privs", "--"]
        return args + cmd

    def prepare(self, scratch: Path) -> None:
        """Give the submission's user its scratch folder."""
        if self.uid is not None:
            for path in [scratch, *scratch.rglob("*")]:
                os.chown(path, self.uid, self.uid, follow_symlinks=False)


def tasks_of(uid: int) -> int:
    """How many processes and threads run with real user id ``uid`` (what RLIMIT_NPROC counts).

    Read from each task's ``status``: a process that changed its user (``setpriv`` in the
    sandbox) is not dumpable, and its ``/proc`` entries belong to root, so their owner would
    miss the tasks a submission's user still runs (a previous submission's, ending; another
    grader's), and the cap would leave the new submission fewer than it grants.
    """
    running = 0
    for status in Path("/proc").glob("[0-9]*/task/*/status"):
        try:
            with open(status, "rb") as f:
                for line in f:
                    if line.startswith(b"Uid:"):
                        running += int(line.split()[1]) == uid
                        break
        except (OSError, ValueError, IndexError):  # ended meanwhile
            continue
    return running


#: Where graders claim user ids (one lock file per id; root only, as only root hands them out).
UID_LOCKS = Path("/run/lock/clfmetrics-uids")


def _lock_folder() -> Path:
    """:data:`UID_LOCKS`, made if missing; refused unless it is this user's own folder."""
    folder = UID_LOCKS if UID_LOCKS.parent.is_dir() else Path("/tmp") / UID_LOCKS.name
    folder.mkdir(mode=0o700, exist_ok=True)
    st = os.lstat(folder)
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.geteuid():
        raise RuntimeError(f"{folder} is not a folder of the grader's own: cannot claim user ids")
    return folder


def claim_uid(uid: int) -> int | None:
    """Claim ``uid`` for this process: an open file that holds its lock, or None when taken.

    The claim is an exclusive ``flock`` on the id's lock file: atomic across processes (two
    graders at once never hold the same id; two claims in one process exclude each other too)
    and let go by the kernel when the file is closed or the process ends, crash included.
    """
    fd = os.open(_lock_folder() / f"{uid}.lock", os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    return fd


class _Users:
    """Hands out one user id per running submission (only when the grader is root).

    A user id is handed out only when this grader claims it (:func:`claim_uid`: no other
    grader holds it; ``make test`` grades on two workers) and no process runs as it: not a
    previous submission's, still ending, whose processes would count against this
    submission's process cap.
    """

    @contextmanager
    def take(self):
        uid, claim = FIRST_UID + 1, None  # FIRST_UID is the probe's
        while True:
            claim = claim_uid(uid)
            if claim is not None and not tasks_of(uid):
                break
            if claim is not None:
                os.close(claim)
            uid += 1
        try:
            yield uid
        finally:
            os.close(claim)


_USERS = _Users()


@contextmanager
def sandbox_for_submission():
    """A :class:`Sandbox` for one submission (its own user id when the grader is root)."""
    bwrap = _bwrap()
    if bwrap is None:
        raise RuntimeError(probe() or "no sandbox")
    if os.geteuid() != 0:
        yield Sandbox(bwrap)
        return
    with _USERS.take() as uid:
        yield Sandbox(bwrap, uid)


def probe() -> str | None:
    """``None`` when a sandbox can be made here, else why not (one line)."""
    bwrap = _bwrap()
    if bwrap is None:
        return "bubblewrap (bwrap) is not installed: apt-get install bubblewrap"
    import tempfile

    with tempfile.TemporaryDirectory(prefix="clfmetrics-probe-") as tmp:
        box = Sandbox(bwrap, FIRST_UID if os.geteuid() == 0 else None)
        box.prepare(Path(tmp))
        check = "import os; open('probe', 'w').write(str(os.getuid()))"
        try:
            done = subprocess.run(
                box.wrap([sys.executable, "-c", check], Path(tmp)),
                capture_output=True,
                timeout=60,
                stdin=subprocess.DEVNULL,
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            return f"bwrap could not start: {exc}"
        if done.returncode != 0:
            lines = done.stderr.decode(errors="replace").strip().splitlines() or ["no output"]
            return f"bwrap failed: {lines[-1][:200]}"
        written = Path(tmp) / "probe"
        if not written.is_file() or written.read_text() in ("0", ""):
            return "bwrap ran the probe as root"
    return None
