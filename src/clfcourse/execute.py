"""Execute a submitted notebook on a fresh kernel and export the values its tests read.

The ``execute`` step of :mod:`.isolated`, run inside the submission's sandbox. The grader
starts it by its path (``python -P .../execute.py NOTEBOOK NAMES OUT OUTPUT_MB``, see
:func:`command`) rather than as ``python -m clfcourse.isolated execute``: the
module imports only the standard library, nbformat and nbclient, so the process does not load
numpy and the whole library (clfmetrics' package ``__init__``) for nothing, once per
submission. ``-P`` keeps this module's folder off ``sys.path``.

Neither the hidden tests nor any grading code are loaded into the kernel; after the last cell
a cell appended by this step writes the values of ``NAMES`` to ``OUT`` with
:func:`.values.encode`, and the executed notebook (its outputs) to ``OUT`` with the suffix
``.ipynb``.

What neither side of a run needs is not loaded. The kernel is ipykernel's, started as its
launcher starts it but with debugpy unimportable, so that it starts no debugger (a
noticeable part of its start-up; grading never attaches one), and with its input history in
memory (no sqlite file, and no saving thread for IPython to restart after a notebook forks,
under the process cap). This step loads nbformat without the optional packages that
jsonschema's format checkers import when they are installed (nbformat's schema checks no
format). Each of these is CPU time every submission would spend for nothing.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sys
from pathlib import Path

#: Exit codes: the kernel died; the output passed its cap; the kernel used up its CPU time.
DEAD_KERNEL, TOO_MUCH_OUTPUT, OUT_OF_CPU = 3, 4, 5

SERIALISE = """\
def _clfmetrics_export(names, path):
    import json
    from clfcourse.values import encode
    values, skipped = {{}}, {{}}
    for name in names:
        if name in globals():
            try:
                values[name] = encode(globals()[name])
            except Exception as exc:
                skipped[name] = str(exc)[:200]
    with open(path, "w") as f:
        json.dump({{"values": values, "skipped": skipped}}, f)
_clfmetrics_export({names!r}, {path!r})
"""


#: How the kernel starts (``{cap}``: the output cap in characters, ``{code}``: the exit code
#: that says it passed it): as ``python -m ipykernel_launcher`` (the spec ``python3``) does, the
#: working folder off ``sys.path`` while ipykernel loads (its shell puts it back), but with
#: debugpy unimportable: ipykernel then starts no debugger (importing debugpy in a notebook
#: raises ImportError). Its stdout and stderr end the kernel once they have been written more
#: than the cap: ipykernel buffers what a cell prints between flushes (every 0.2 s) without
#: bound, so a cell that prints in a loop held gigabytes before the first of them reached the
#: client, which counts what it receives, and the memory limit stopped the run first, with the
#: wrong reason. (A notebook can undo this; the client's count and the memory limit remain.)
LAUNCH = """\
import sys
sys.modules["debugpy"] = None
sys.path[:1] = [p for p in sys.path[:1] if p]
import os
from ipykernel import iostream, kernelapp as app
_write, _written = iostream.OutStream.write, [0]
def _capped(self, string):
    _written[0] += len(string) if isinstance(string, str) else 0
    if _written[0] > {cap}:
        os._exit({code})
    return _write(self, string)
iostream.OutStream.write = _capped
app.launch_new_instance()
"""

#: What ``jsonschema`` imports for its format checkers when installed (isoduration brings
#: arrow and dateutil's parser): nothing that nbformat's validation or this step uses.
FORMAT_CHECKERS = (
    "arrow",
    "fqdn",
    "idna",
    "isoduration",
    "jsonpointer",
    "rfc3339_validator",
    "rfc3986_validator",
    "rfc3987",
    "uri_template",
    "webcolors",
)


@contextlib.contextmanager
def _without(modules: tuple[str, ...]):
    """Make ``modules`` unimportable (ImportError) for the imports made in this block."""
    blocked = [m for m in modules if m not in sys.modules]
    sys.modules.update(dict.fromkeys(blocked))
    try:
        yield
    finally:  # importable again should anything need them later
        for m in blocked:
            if sys.modules.get(m, 0) is None:
                del sys.modules[m]


def command(
    python: str,
    notebook: str,
    names: list[str],
    out: str,
    output_mb: float,
    emit_fd: int | None = None,
    cap: int = 0,
) -> list:
    """The command line of this step (``python -P`` and this file's path); with ``emit_fd``
    the outputs also leave through that descriptor (:func:`emit`), each up to ``cap`` bytes."""
    script = str(Path(__file__).resolve())
    line = [python, "-P", script, notebook, json.dumps(names), out, str(output_mb)]
    return line if emit_fd is None else [*line, "--emit", str(emit_fd), str(cap)]


def execute(notebook: Path, names: list[str], out: Path, output_mb: float) -> int:
    """Run ``notebook``, then write the values of ``names`` to ``out``; an exit code."""
    with _without(FORMAT_CHECKERS):
        import nbformat
    from jupyter_client.manager import AsyncKernelManager
    from nbclient import NotebookClient
    from nbclient.exceptions import DeadKernelError

    cap = int(output_mb * 1024 * 1024)

    class Kernel(AsyncKernelManager):
        """The kernel of the spec ``python3``, started by :data:`LAUNCH`."""

        def format_kernel_cmd(self, extra_arguments=None):
            file = os.path.realpath(self.connection_file)
            launch = LAUNCH.format(cap=cap, code=TOO_MUCH_OUTPUT)
            return [sys.executable, "-c", launch, "-f", file, "--HistoryManager.hist_file=:memory:"]

    class CappedClient(NotebookClient):
        """Stops the run when the notebook's outputs pass ``cap`` bytes."""

        written = 0
        kernel = None
        overflowed = False

        async def async_start_new_kernel(self, **kwargs):
            await super().async_start_new_kernel(**kwargs)
            self.kernel = getattr(self.km.provisioner, "process", None)  # to read how it ended

        def output(self, outs, msg, display_id, cell_index):
            self.written += len(json.dumps(msg.get("content", {}), default=str))
            if self.written <= cap:
                return super().output(outs, msg, display_id, cell_index)
            if not self.overflowed and self.kernel is not None:
                # a busy cell never replies, so only ending the kernel ends the run
                self.overflowed = True
                self.kernel.kill()
            return None

    nb = nbformat.read(notebook, as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell(SERIALISE.format(names=names, path=str(out))))
    client = CappedClient(
        nb,
        timeout=None,
        startup_timeout=120,
        allow_errors=True,
        kernel_name="python3",
        kernel_manager_class=Kernel,
        resources={"metadata": {"path": str(notebook.parent)}},
    )
    try:
        client.execute()
    except DeadKernelError:
        ended = client.kernel.poll() if client.kernel is not None else None
        if client.overflowed or ended == TOO_MUCH_OUTPUT:
            return TOO_MUCH_OUTPUT
        return OUT_OF_CPU if ended == -signal.SIGXCPU else DEAD_KERNEL
    finally:  # the outputs, so the grader can compare what the notebook claimed
        nbformat.write(nb, out.with_suffix(".ipynb"))
    return 0


def emit(out: Path, fd: int, cap: int) -> None:
    """Hand the values file and the executed notebook back through ``fd``, each as an
    8-byte length and its bytes (a length of 2**64 - 1 for a missing one).

    In a sandbox whose ``HOME`` is memory-backed (:meth:`.sandbox.Sandbox.wrap`) this is the
    only way out: nothing is left on the host's disk but what this writes (the kernel, which
    does not inherit ``fd``, could reach it, but only under its own file-size limit, and what
    it could write there are values it could give anyway). Links and anything but regular
    files are missing, never followed.
    """
    import stat

    with os.fdopen(fd, "wb") as f:
        for path in (out, out.with_suffix(".ipynb")):
            data = None
            try:
                handle = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
            except OSError:
                handle = None
            if handle is not None:  # a folder opens too: checked before anything is read
                try:
                    st = os.fstat(handle)
                    if stat.S_ISREG(st.st_mode) and st.st_size <= cap:
                        chunks, size = [], 0
                        while size <= cap and (chunk := os.read(handle, 1 << 20)):
                            chunks.append(chunk)
                            size += len(chunk)
                        data = b"".join(chunks) if size <= cap else None
                finally:
                    os.close(handle)
            if data is None:
                f.write((2**64 - 1).to_bytes(8, "big"))
            else:
                f.write(len(data).to_bytes(8, "big") + data)


def received(data: bytes) -> tuple[bytes | None, bytes | None]:
    """The values and the executed notebook as :func:`emit` wrote them (None when missing)."""
    found: list[bytes | None] = []
    at = 0
    for _ in range(2):
        size = int.from_bytes(data[at : at + 8], "big") if len(data) >= at + 8 else 2**64 - 1
        at += 8
        if size == 2**64 - 1 or at + size > len(data):
            found.append(None)
            continue
        found.append(data[at : at + size])
        at += size
    return found[0], found[1]


def main(argv: list[str]) -> int:
    notebook, names, out, output_mb, *rest = argv
    try:
        return execute(Path(notebook), json.loads(names), Path(out), float(output_mb))
    finally:
        if rest:  # --emit FD CAP: the outputs leave through FD (see emit)
            emit(Path(out), int(rest[1]), int(rest[2]))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
