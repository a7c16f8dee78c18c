"""The set-up's environment owns its files: none is a hard link into an installer's cache.

``make setup`` has uv copy the pins into ``.venv`` (``--link-mode copy``). uv's default
hard-links them to its cache, and then any other environment installed from that cache (the
Binder simulation beside the tests, or a teacher's own) changes the link count, and so the
change time, of the venv's files: the grader fingerprints the files it runs by size, mtime
and ctime, and flagged every submission of a run REVIEW.
"""

import os
from importlib.util import find_spec
from pathlib import Path


def test_the_graders_packages_are_not_hard_links():
    # The files' paths without importing otter (a slow import at every worker's collection).
    numpy, otter = Path(find_spec("numpy").origin), Path(find_spec("otter").origin)
    files = [numpy, otter, numpy.parent / "version.py"]
    linked = [
        f"{path} has {os.stat(path).st_nlink} links"
        for path in files
        if os.stat(path).st_nlink != 1
    ]
    assert not linked, "\n".join(linked)
