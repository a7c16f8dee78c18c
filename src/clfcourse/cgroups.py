"""Each submission's own control group: memory (``/tmp``'s pages included), processes, CPU.

Per-process limits (:func:`.isolated.limits`) bound one process, not a submission: many
processes under ``RLIMIT_AS`` each, or files in a memory-backed ``/tmp``, add up, and the
kernel's out-of-memory killer then picks any process of the machine, the grader's included.
A cgroup bounds the submission's processes together, and an out-of-memory kill stays inside
it. The grader makes one per submission run, puts the run's first process in it before that
process runs anything (:meth:`Cgroup.join`, from the child's ``preexec_fn``), and after the
run kills whatever is left in it and removes it.

Both layouts are supported:

- cgroup v1, one hierarchy per controller (``/sys/fs/cgroup/memory``, ``pids``, ``cpu``):
  ``memory.limit_in_bytes`` (and ``memory.memsw.limit_in_bytes`` when swap is accounted),
  ``pids.max``, ``cpu.cfs_quota_us`` over a ``cpu.cfs_period_us`` of 0.1 s;
- cgroup v2, one unified hierarchy with the ``memory``, ``pids`` and ``cpu`` controllers
  enabled for the grader's own group's children (``cgroup.subtree_control``): ``memory.max``,
  ``memory.swap.max``, ``pids.max``, ``cpu.max``.

A group is made below the grader's own group of each hierarchy (``/proc/self/cgroup``), so
whatever bounds the grader also bounds it. Writing there needs root or a delegated group;
:func:`probe` says why none can be made, and the grader then grades one notebook at a time.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

#: Where the hierarchies are mounted.
ROOT = Path("/sys/fs/cgroup")
#: The v1 controllers a submission's group needs.
V1 = ("memory", "pids", "cpu")
#: The prefix of every group the grader makes (so that a leftover is recognisable).
PREFIX = "clfcourse-"


def _own(controller: str, root: Path) -> Path | None:
    """The grader's own group in ``controller``'s hierarchy (v1), or the v2 one (``""``)."""
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        _, names, path = line.split(":", 2)
        if (controller and controller in names.split(",")) or (not controller and not names):
            mount = root / controller if controller else root
            inside = mount / path.lstrip("/")
            return inside if inside.is_dir() else mount  # a cgroup namespace shows "/"
    return None


def _layout(root: Path) -> tuple[str, dict[str, Path]] | str:
    """``("v1", {controller: parent})`` or ``("v2", {"": parent})``, or why neither."""
    if all((root / c / "cgroup.procs").exists() for c in V1):
        parents = {c: _own(c, root) for c in V1}
        if all(p is not None for p in parents.values()):
            return "v1", parents  # type: ignore[return-value]
    controllers = root / "cgroup.controllers"
    if controllers.exists():
        parent = _own("", root)
        if parent is not None:
            wanted = {"memory", "pids", "cpu"}
            enabled = set((parent / "cgroup.subtree_control").read_text().split())
            missing = wanted - enabled
            if missing:
                with contextlib.suppress(OSError):  # a delegated group may enable them
                    (parent / "cgroup.subtree_control").write_text(
                        " ".join(f"+{c}" for c in sorted(missing))
                    )
                enabled = set((parent / "cgroup.subtree_control").read_text().split())
            if wanted <= enabled:
                return "v2", {"": parent}
            return (
                f"cgroup v2 at {parent} does not give its children the "
                f"{', '.join(sorted(wanted - enabled))} controller(s)"
            )
    return f"no cgroup v1 memory, pids and cpu hierarchies and no cgroup v2 under {root}"


@dataclass
class Cgroup:
    """One submission's group (made by :func:`make`): its folders, one per hierarchy."""

    version: str
    folders: list[Path] = field(default_factory=list)
    memory: Path | None = None

    def join(self) -> None:
        """Move the calling process into the group (called in the child before it runs)."""
        pid = str(os.getpid())
        for folder in self.folders:
            (folder / "cgroup.procs").write_text(pid)

    def pids(self) -> set[int]:
        found: set[int] = set()
        for folder in self.folders:
            with contextlib.suppress(OSError, ValueError):
                found |= {int(p) for p in (folder / "cgroup.procs").read_text().split()}
        return found

    def out_of_memory(self) -> bool:
        """Whether the group reached its memory limit and a process was killed for it."""
        if self.memory is None:
            return False
        with contextlib.suppress(OSError, ValueError):
            if self.version == "v2":
                events = (self.memory / "memory.events").read_text().split()
                counts = dict(zip(events[::2], map(int, events[1::2]), strict=False))
                return counts.get("oom_kill", 0) > 0
            control = (self.memory / "memory.oom_control").read_text().split()
            counts = dict(zip(control[::2], map(int, control[1::2]), strict=False))
            if "oom_kill" in counts:
                return counts["oom_kill"] > 0
            return int((self.memory / "memory.failcnt").read_text()) > 0
        return False

    def remove(self) -> None:
        """Kill every process left in the group, then remove its folders."""
        for _ in range(50):
            left = self.pids()
            if not left:
                break
            for pid in left:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
            time.sleep(0.02)
        for folder in self.folders:
            for _ in range(50):
                try:
                    folder.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:  # its last processes are still being reaped
                    time.sleep(0.02)


def make(memory_mb: int, processes: int, cpus: float = 1.0, root: Path = ROOT) -> Cgroup:
    """A new group bounding memory (swap included), processes and CPU; ``OSError`` or
    ``RuntimeError`` saying why none can be made."""
    layout = _layout(root)
    if isinstance(layout, str):
        raise RuntimeError(layout)
    version, parents = layout
    name = f"{PREFIX}{uuid.uuid4().hex[:12]}"
    group = Cgroup(version)
    memory = memory_mb * 1024 * 1024
    try:
        if version == "v2":
            folder = parents[""] / name
            folder.mkdir()
            group.folders.append(folder)
            group.memory = folder
            (folder / "memory.max").write_text(str(memory))
            with contextlib.suppress(FileNotFoundError):
                (folder / "memory.swap.max").write_text("0")
            (folder / "pids.max").write_text(str(processes))
            (folder / "cpu.max").write_text(f"{int(cpus * 100_000)} 100000")
            return group
        for parent in parents.values():
            folder = parent / name
            folder.mkdir()
            group.folders.append(folder)
        memory_folder, pids_folder, cpu_folder = (parents[c] / name for c in V1)
        group.memory = memory_folder
        (memory_folder / "memory.limit_in_bytes").write_text(str(memory))
        swap = memory_folder / "memory.memsw.limit_in_bytes"
        if swap.exists():  # only when the kernel accounts swap
            swap.write_text(str(memory))
        (pids_folder / "pids.max").write_text(str(processes))
        (cpu_folder / "cpu.cfs_period_us").write_text("100000")
        (cpu_folder / "cpu.cfs_quota_us").write_text(str(int(cpus * 100_000)))
    except BaseException:
        group.remove()
        raise
    return group


def probe(root: Path = ROOT) -> str | None:
    """``None`` when a submission's group can be made here, else why not (one line)."""
    try:
        make(64, 8, 1.0, root).remove()
    except (OSError, RuntimeError) as exc:
        return str(exc)
    return None
