"""Shared helpers for tests that read and execute the book's chapters.

jupytext and nbclient are imported by the two functions that use them: every pytest process
imports this module (``conftest.py`` takes ``ROOT`` from it), and most never read a
notebook.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import yaml

if TYPE_CHECKING:
    import nbformat

ROOT = Path(__file__).resolve().parents[2]

#: The longest code line a chapter may have. ``_static/book.css`` sizes the code font so
#: that this many characters fit the text column at every desktop width; longer lines
#: would scroll sideways (test_chapters checks the sources, test_browser the pages).
CODE_LINE_LIMIT = 88


def toc_files() -> list[Path]:
    """Every page listed in _toc.yml (sections included), in book order, as .md paths."""
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    files = [toc["root"]]

    def walk(entries):
        for entry in entries:
            files.append(entry["file"])
            walk(entry.get("sections", []))

    for part in toc.get("parts", []):
        walk(part["chapters"])
    return [ROOT / f"{name}.md" for name in files]


def is_notebook(path: Path) -> bool:
    """A page is a notebook when its front matter declares a kernelspec."""
    text = path.read_text()
    return text.startswith("---") and "kernelspec:" in text.split("---", 2)[1]


def notebook_pages() -> list[Path]:
    return [p for p in toc_files() if is_notebook(p)]


def read_notebook(path: Path) -> nbformat.NotebookNode:
    import jupytext

    return jupytext.read(path, fmt="md:myst")


def execute(path: Path, timeout: int = 120) -> nbformat.NotebookNode:
    """Execute a chapter on a fresh kernel with the chapter's folder as working directory."""
    from nbclient import NotebookClient

    nb = read_notebook(path)
    client = NotebookClient(
        nb,
        timeout=timeout,
        kernel_name="python3",
        resources={"metadata": {"path": str(path.parent)}},
    )
    client.execute()
    return nb
