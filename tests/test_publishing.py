"""Binder, launch buttons and the publishing workflow are configured the way the README says."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from chapter_runner import ROOT


def _pins(path: Path) -> dict[str, str]:
    pins = {}
    for line in path.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if "==" in line:
            name, version = line.split("==", 1)
            pins[name.strip().lower()] = version.strip()
    return pins


def test_binder_pins_match_the_reader_requirements():
    """binder/requirements.txt pins exactly what requirements.txt pins (one source of truth)."""
    assert _pins(ROOT / "binder" / "requirements.txt") == _pins(ROOT / "requirements.txt")


def test_binder_runtime_and_postbuild():
    """Binder gets Python 3.11 and installs the package in postBuild, which is executable."""
    assert (ROOT / "binder" / "runtime.txt").read_text().strip() == "python-3.11"
    post = ROOT / "binder" / "postBuild"
    assert os.access(post, os.X_OK), "binder/postBuild must be executable"
    assert re.search(r"pip install .*-e \.", post.read_text())


def test_repository_url_is_set_once_and_launch_buttons_use_it():
    """_config.yml holds the repository URL; Binder (JupyterLab) and Live Code are enabled."""
    text = (ROOT / "_config.yml").read_text()
    config = yaml.safe_load(text)
    url = config["repository"]["url"]
    assert url.startswith("https://github.com/")
    assert text.count(url) == 1, "the repository URL must appear in one place only"
    buttons = config["launch_buttons"]
    assert buttons["binderhub_url"] == "https://mybinder.org"
    assert buttons["notebook_interface"] == "jupyterlab"
    assert buttons["thebe"] is True


def test_workflow_tests_builds_and_deploys_with_minimal_permissions():
    """CI runs make test; Pages deploys only from main with the two permissions it needs."""
    wf = yaml.safe_load((ROOT / ".github" / "workflows" / "book.yml").read_text())
    assert wf["permissions"] == {"contents": "read"}
    jobs = wf["jobs"]
    assert any(step.get("run") == "make test" for step in jobs["test"]["steps"])
    # Debian, so that make test can apt-get a real chromium for the browser tests.
    assert "bookworm" in jobs["test"]["container"]
    build_steps = jobs["build"]["steps"]
    assert any(step.get("run") == "make book" for step in build_steps)
    cache = next(s for s in build_steps if s.get("uses", "").startswith("actions/cache"))
    assert "chapters/**" in cache["with"]["key"]
    assert jobs["deploy"]["permissions"] == {"pages": "write", "id-token": "write"}
    assert "refs/heads/main" in jobs["build"]["if"]


@pytest.mark.slow
def test_repo2docker_accepts_the_binder_configuration():
    """repo2docker (offline, --no-build) reads binder/ and plans the pinned install."""
    exe = shutil.which("repo2docker") or str(Path(sys.executable).parent / "repo2docker")
    proc = subprocess.run(
        [exe, "--no-build", "--debug", str(ROOT)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out[-3000:]
    assert "python=3.11" in out
    assert 'pip install --no-cache-dir -r "binder/requirements.txt"' in out
    assert "./binder/postBuild" in out
