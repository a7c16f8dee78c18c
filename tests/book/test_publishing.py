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
    # make book prints the PDF with Debian's chromium, so the build job runs on Debian too.
    assert "bookworm" in jobs["build"]["container"]
    build_steps = jobs["build"]["steps"]
    assert any(step.get("run") == "make book" for step in build_steps)
    cache = next(s for s in build_steps if s.get("uses", "").startswith("actions/cache"))
    assert "chapters/**" in cache["with"]["key"]
    assert jobs["deploy"]["permissions"] == {"pages": "write", "id-token": "write"}
    assert "refs/heads/main" in jobs["build"]["if"]


@pytest.mark.fresh_env
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


def test_every_reference_is_a_usable_citation():
    """Each entry of references.bib names its author and year, or its note says they are
    unknown; nothing stands in for them (no "n.d." year, no description as an author)."""
    from pybtex.database import parse_file

    entries = parse_file(ROOT / "references.bib").entries
    assert "microaveraging" in entries
    for key, entry in entries.items():
        note = entry.fields.get("note", "").lower()
        assert entry.fields.get("title"), f"{key}: no title"
        people = entry.persons.get("author", []) + entry.persons.get("editor", [])
        if people:
            for person in people:
                assert person.last_names, f"{key}: an author without a name: {person}"
                assert " " not in "".join(person.last_names).strip("{}"), (
                    f"{key}: {person} is a description, not a name"
                )
        else:
            assert "author" in note and "unknown" in note, f"{key}: say the author is unknown"
        year = entry.fields.get("year", "")
        if year:
            assert re.fullmatch(r"\d{4}", year), f"{key}: year {year!r} is not a year"
        else:
            assert "date" in note and "unknown" in note, f"{key}: say the date is unknown"


def _toc_files(node) -> list[str]:
    """Every `file:` of the table of contents, in reading order."""
    if isinstance(node, dict):
        found = [node["file"]] if "file" in node else []
        for value in node.values():
            if isinstance(value, list):
                for item in value:
                    found += _toc_files(item)
        return found
    return []


def test_chapter_files_are_numbered_in_reading_order():
    """Issue 19, item 19: `ls chapters/` lists the numbered chapters in the order the book reads."""
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    numbers = [
        int(m.group(1))
        for f in _toc_files(toc)
        if (m := re.fullmatch(r"chapters/(\d\d)-[a-z0-9-]+", f))
    ]
    assert numbers == list(range(1, len(numbers) + 1)), (
        "chapters are numbered 1, 2, ... in toc order"
    )
    on_disk = sorted(p.stem for p in (ROOT / "chapters").glob("[0-9][0-9]-*.md"))
    assert [int(s[:2]) for s in on_disk] == numbers, "a chapter file is missing from _toc.yml"
