"""The rewrite of the book's Sphinx-only MyST for jupyterlab-myst, on every chapter and by rule."""

from __future__ import annotations

import re

import pytest
from chapter_runner import ROOT, notebook_pages, read_notebook

from clfbook.tooling.lab_markup import Book, bib_entries, cite_text, lab_markdown

#: What jupyterlab-myst cannot render: roles it has no data for, this book's own directive.
UNRENDERABLE = re.compile(r"\{(cite(:[a-z]+)?|ref|numref|prf:ref|doc|py:[a-z]+|glue(:[a-z]+)?)\}`")


@pytest.fixture(scope="module")
def book():
    return Book.from_folder(ROOT / "chapters")


def test_the_book_is_read_whole(book):
    assert len(book.bib) >= 40 and "opitz2019macro" in book.bib
    assert book.labels["def-precision-recall"][0] == "01-confusion-matrix"
    assert book.labels["ch-two-macro-f1"] == ("04-two-macro-f1", "Two metrics called macro F1")
    assert not any(page.startswith(".") for page in book.pages)


@pytest.mark.parametrize("path", notebook_pages(), ids=lambda p: p.stem)
def test_no_chapter_keeps_markup_jupyterlab_myst_cannot_render(book, path):
    here = path.relative_to(ROOT / "chapters").with_suffix("").as_posix()
    for cell in read_notebook(path).cells:
        if cell.cell_type != "markdown":
            continue
        shown = lab_markdown(cell.source, book, here)
        assert not UNRENDERABLE.search(shown), shown
        assert "{selfcheck}" not in shown
        # What jupyterlab-myst renders itself stays as written.
        for kept in ("{prf:definition}", "{exercise}", "{solution-start}", ":label:", "$"):
            assert shown.count(kept) == cell.source.count(kept)


def test_citations_read_author_year():
    bib = bib_entries(
        "@article{a, author = {Opitz, Juri and Burst, Sebastian}, year = {2019}}\n"
        '@misc{b, author = {vor der Br{\\"u}ck, Tim}, year = 2020}\n'
        "@book{c, author = {A, B and C, D and E, F}, year = {1999}}\n"
    )
    assert cite_text(["a"], bib, textual=True) == "Opitz and Burst (2019)"
    assert (
        cite_text(["a", "b"], bib, textual=False) == "(Opitz and Burst, 2019; vor der Brück, 2020)"
    )
    assert cite_text(["c"], bib, textual=False) == "(A et al., 1999)"


def test_roles_become_text_links_and_code(book):
    text = (
        "See {prf:ref}`def-precision-recall`, {ref}`the chapter <ch-two-macro-f1>`, "
        "{doc}`references`, {py:func}`clfmetrics.macro_f1`, {glue:text}`ch04-lop-big:.3f` "
        "and {cite:t}`opitz2019macro`."
    )
    shown = lab_markdown(text, book, "04-two-macro-f1")
    assert "[Definition (" in shown and "](01-confusion-matrix.md)" in shown
    assert "*the chapter*" in shown  # a label of the open chapter: no link to itself
    assert "](references.md)" in shown
    assert "`clfmetrics.macro_f1`" in shown
    assert '{eval}`glue.text("ch04-lop-big", ".3f")`' in shown  # for the kernel's glue
    assert "Opitz and Burst (2019)" in shown


def test_a_role_over_a_line_break_is_rewritten_like_any_other(book):
    text = (
        "what {py:func}`clfmetrics.compare\n<clfmetrics.reporting.compare>` gives, as\n"
        "{ref}`the\nchapter <ch-two-macro-f1>` says"
    )
    shown = lab_markdown(text, book, "04-two-macro-f1")
    assert shown == "what `clfmetrics.compare` gives, as\n*the\nchapter* says"


def test_the_end_of_a_solution_draws_nothing():
    assert lab_markdown("````{solution-end}\n````", Book(), "x") == "% the end of the solution"


def test_a_selfcheck_becomes_a_box_with_its_answer_folded():
    source = "```{selfcheck}\n:feedback: Because.\n\nWhich one?\n\n- [x] this\n- [ ] that\n```\n"
    shown = lab_markdown(source, Book(), "x")
    assert "{admonition} Quick check" in shown and "{dropdown} Answer" in shown
    assert "- [x]" not in shown and "**Answer:** this" in shown and "Because." in shown
