"""The chapters rendered in the real JupyterLab hold every MyST construct of the book.

``tests/book/test_jupyterlab.py`` renders only the chapters of
:func:`lab_constructs.lab_chapters`; every other chapter is checked there without rendering
(its notebook through the server) and for its math. So a construct that no rendered chapter
shows would never be looked at in JupyterLab: these tests, without a browser, make sure
that cannot happen, and that the inventory sees what it must.
"""

from __future__ import annotations

import shutil

from chapter_runner import ROOT
from lab_constructs import (
    EXPLORER_CHAPTER,
    FRAGMENTS,
    book_constructs,
    chapter_constructs,
    code_blocks,
    constructs,
    cover,
    lab_chapters,
    math_expressions,
)

from clfbook.tooling.lab_markup import Book


def test_the_rendered_chapters_hold_every_construct_of_the_book():
    """What tests/book/test_jupyterlab.py renders (the same call) shows every construct."""
    found = book_constructs()
    rendered = lab_chapters(EXPLORER_CHAPTER)
    assert len(found) >= 18
    shown = set().union(*(found[c] for c in rendered))
    missing = {c: sorted(s - shown) for c, s in found.items() if s - shown}
    # code blocks of the text are rendered one by one, out of their chapters
    missing = {c: [s for s in m if not s.startswith(FRAGMENTS)] for c, m in missing.items()}
    missing = {c: m for c, m in missing.items() if m}
    assert not missing, f"constructs no chapter rendered in JupyterLab shows: {missing}"
    assert rendered[0] == EXPLORER_CHAPTER  # its tab is rendered anyway
    assert len(rendered) < len(found)  # else the cover is no saving


def test_the_inventory_sees_the_books_constructs():
    """Directives, their options and arguments, nesting, math, tables, labels: by name."""
    found = chapter_constructs(ROOT / EXPLORER_CHAPTER)
    for name in (
        "{prf:definition}",
        "{prf:definition} :label:",
        "{prf:definition} argument",
        "{exercise}",
        "{solution-start}",
        "{admonition} > {dropdown}",  # a self-check, as the contents manager rewrites it
        "{admonition} :class:",
        "math_inline",
        "math_block",
        "myst_target",
    ):
        assert name in found, name
    assert "{cite}" not in str(found)  # rewritten before JupyterLab sees it
    assert "{solution-end}" not in str(found)  # a comment: it drew an empty box
    text = "| a | b |\n|---|---|\n| 1 | 2 |\n\n:::{note}\n:class: x\nSee {sub}`x` and $y$.\n:::\n"
    assert {"table_open", "{note} via :::", "{note} :class:", "{note} > role {sub}"} <= (
        constructs(text)
    )
    assert "{note} > markdown" in constructs("```{note}\n*x* and $y$\n```")
    assert "{figure} :width:" in constructs("```{figure} a.png\n---\nwidth: 50%\n---\nCap.\n```")
    assert "raw-looking text" in constructs("Shown as is: {glue}")


def test_a_new_construct_joins_the_rendered_set(tmp_path):
    """A chapter not rendered today, given a construct no chapter has, is rendered then."""
    rendered = lab_chapters(EXPLORER_CHAPTER)
    chapter = next(c for c in book_constructs() if c not in rendered)
    chapters = tmp_path / "chapters"
    shutil.copytree(ROOT / "chapters", chapters)
    (tmp_path / "references.bib").write_text((ROOT / "references.bib").read_text())
    text = (tmp_path / chapter).read_text()
    new = "\n```{margin}\nA made-up construct: *a margin note*.\n```\n"
    (tmp_path / chapter).write_text(text.replace("\n## ", new + "\n## ", 1))
    book = Book.from_folder(chapters)
    found = {c: chapter_constructs(tmp_path / c, book) for c in book_constructs()}
    shown = set().union(*(found[c] for c in rendered))
    assert found[chapter] - shown == {"{margin}", "{margin} > markdown"}
    costs = {c: 1 for c in found}
    assert chapter in cover(found, costs, [EXPLORER_CHAPTER])


def test_the_cover_is_greedy_by_new_constructs_per_cost():
    found = {"a": {1, 2}, "b": {2, 3}, "c": {3}, "d": {4}}
    assert cover(found, {"a": 1, "b": 1, "c": 1, "d": 1}, ["a"]) == ["a", "b", "d"]
    assert cover(found, {"a": 1, "b": 5, "c": 1, "d": 1}, ["a"]) == ["a", "c", "d"]


def test_every_code_block_is_found():
    cells = ["```python\nx = 1\n```\n\n```{note}\nnot code\n```\n", "````text\ny\n````"]
    assert code_blocks(cells) == [("python", "x = 1\n"), ("text", "y\n")]


def test_every_math_expression_is_found():
    cells = ["$a$ and\n\n$$\nb\n$$\n", "```{prf:proof}\n:class: x\n$c$\n```"]
    assert math_expressions(cells) == [("inline", "a"), ("display", "b"), ("inline", "c")]
