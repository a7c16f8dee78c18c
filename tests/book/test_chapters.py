"""Every chapter executes on a fresh kernel; cells that raise must say so with a tag.

The chapters are executed once per test session, by the book build of ``conftest.built_html``
(a cold execution cache, so each notebook on a fresh kernel); these tests read the executed
notebooks it writes to ``_build/jupyter_execute`` instead of executing every chapter again.

Also checked here, without executing anything: code lines fit the page, and the set-up
cells import nothing outside the reader's requirements.
"""

from __future__ import annotations

import re

import nbformat
import pytest
from chapter_runner import (
    CODE_LINE_LIMIT,
    ROOT,
    notebook_pages,
    read_notebook,
    toc_files,
)

PAGES = notebook_pages()


def test_toc_lists_existing_pages():
    """Each entry of _toc.yml has a source file, and every chapter file is in the toc."""
    listed = toc_files()
    missing = [p for p in listed if not p.exists()]
    assert not missing, f"_toc.yml names pages that do not exist: {missing}"
    on_disk = set((ROOT / "chapters").rglob("*.md"))
    assert on_disk == set(listed), f"chapters not in _toc.yml: {sorted(on_disk - set(listed))}"


def test_there_are_notebook_chapters():
    """The book has executable chapters (guards against a toc that lists none)."""
    assert PAGES, "no chapter with a kernelspec found in _toc.yml"


@pytest.mark.parametrize("path", PAGES, ids=[p.stem for p in PAGES])
def test_chapter_executes(path, built_html):
    """The chapter ran top to bottom; only cells tagged raises-exception may raise."""
    executed = built_html.parent / "jupyter_execute" / path.relative_to(ROOT).with_suffix(".ipynb")
    assert executed.exists(), f"the book build wrote no executed notebook for {path.name}"
    nb = nbformat.read(executed, as_version=4)
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        tags = cell.metadata.get("tags", [])
        if "skip-execution" not in tags:
            assert cell.get("execution_count") is not None, f"cell not executed:\n{cell.source}"
        errors = [o for o in cell.get("outputs", []) if o.get("output_type") == "error"]
        if "raises-exception" in tags:
            assert errors, f"cell tagged raises-exception did not raise:\n{cell.source}"
        else:
            assert not errors, f"cell raised:\n{cell.source}"
        streams = [o for o in cell.get("outputs", []) if o.get("name") == "stderr"]
        assert not streams, f"cell wrote to stderr:\n{cell.source}\n{streams}"


@pytest.mark.parametrize("path", PAGES, ids=[p.stem for p in PAGES])
def test_code_exercises_have_solution_and_check(path):
    """Every solution cell is followed by a check cell, so coursework can be graded."""
    tags = [c.metadata.get("tags", []) for c in read_notebook(path).cells if c.cell_type == "code"]
    solutions = [k for k, t in enumerate(tags) if "solution" in t]
    for k in solutions:
        later = tags[k + 1 :]
        next_tagged = next((t for t in later if "solution" in t or "check" in t), [])
        assert "check" in next_tagged, (
            f"solution cell {k} in {path.name} has no check cell after it"
        )


@pytest.mark.parametrize("path", PAGES, ids=[p.stem for p in PAGES])
def test_chapter_has_front_matter_for_jupytext(path):
    """Chapters are MyST notebooks that jupytext and the book both read."""
    head = path.read_text().split("---", 2)[1]
    assert "format_name: myst" in head
    assert re.search(r"kernelspec:\s+display_name", head)


@pytest.mark.parametrize("path", PAGES, ids=[p.stem for p in PAGES])
def test_code_lines_fit_the_column(path):
    """No line of a code cell (shown, hidden or removed) is longer than CODE_LINE_LIMIT."""
    long = [
        f"{len(line)}: {line}"
        for cell in read_notebook(path).cells
        if cell.cell_type == "code"
        for line in cell.source.splitlines()
        if len(line) > CODE_LINE_LIMIT
    ]
    assert not long, f"{path.name}: code lines over {CODE_LINE_LIMIT} characters:\n" + "\n".join(
        long
    )


@pytest.mark.parametrize("path", PAGES, ids=[p.stem for p in PAGES])
def test_setup_cell_needs_only_the_library_stack(path):
    """scikit-learn is imported only in the cells that use it, never in the set-up cell.

    The set-up cell runs first in every reader's kernel; a chapter whose set-up needs
    scikit-learn would fail as a whole where it is missing (chapter 9 shows the pattern).
    """
    code = [c for c in read_notebook(path).cells if c.cell_type == "code"]
    assert code, f"{path.name} has no code cell"
    assert not re.search(r"^\s*(from|import)\s+sklearn\b", code[0].source, re.M), (
        f"{path.name}: import scikit-learn in the cell that uses it, not in the set-up cell"
    )
