"""The sandbox keeps what is bound below ``/tmp`` visible.

CI grades from a fresh clone that may live under ``/tmp`` (``mktemp -d``), with its venv there;
a private ``/tmp`` mounted after the binds hid them, and every submission failed with
"setpriv: failed to execute …/.venv/bin/python". The tmpfs goes first, the binds on top.
"""

import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from clfcourse import sandbox

pytestmark = pytest.mark.sandbox


def test_the_private_tmp_comes_before_every_bind(tmp_path):
    args = sandbox.Sandbox("/usr/bin/bwrap", uid=sandbox.FIRST_UID).wrap(["true"], tmp_path)
    tmpfs = args.index("--tmpfs")
    assert args[tmpfs + 1] == "/tmp"
    assert tmpfs < min(k for k, a in enumerate(args) if a in ("--ro-bind", "--bind"))


def test_an_interpreter_under_tmp_runs_in_the_sandbox():
    """A venv made under /tmp, bound read-only, runs inside the sandbox as the submission."""
    assert sandbox.probe() is None, sandbox.probe()
    with (
        tempfile.TemporaryDirectory(prefix="clfmetrics-venv-") as venv,
        tempfile.TemporaryDirectory(prefix="clfmetrics-scratch-") as scratch,
    ):
        subprocess.run([sys.executable, "-m", "venv", "--without-pip", venv], check=True)
        Path(venv).chmod(0o755)
        with sandbox.sandbox_for_submission() as box:
            box.prepare(Path(scratch))
            python = str(Path(venv) / "bin" / "python")
            cmd = box.wrap([python, "-c", "print('inside')"], Path(scratch), extra=(venv,))
            done = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "inside"
