"""Student and teacher notebooks a student can work in: plain CommonMark plus math, answer cells.

The converter (:mod:`clfcourse.markdown`) is tested on each kind of MyST markup the
chapters use; the notebooks ``otter assign`` writes for every chapter are then read for raw MyST
(one ``otter assign`` run shared with ``test_coursework.py``, see ``coursework_products.py``).
"""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from coursework_mini import total_chapter
from coursework_products import assigned_once

from clfcourse import build_assignment, master_notebook
from clfcourse.exercises import META
from clfcourse.markdown import (
    Book,
    executed_glue,
    glue_values,
    raw_myst,
    read_bibliography,
    to_commonmark,
)

pytestmark = pytest.mark.sandbox

ROOT = Path(__file__).resolve().parents[2]

PAGE = """\
(ch-mini)=
# Mini chapter

```{prf:definition} Precision
:label: def-mini-precision

Precision is $P = c / b$.
```

```{exercise}
:label: ex-mini-first

Compute it.
```

:::{note}
See {prf:ref}`def-mini-precision` and {ref}`ch-mini`.
:::

```{exercise} A text question
:label: ex-mini-text

Why? As {cite:t}`opitz2019macro` argue, and others {cite}`opitz2024closer,opitz2019macro`.
```
"""


@pytest.fixture(scope="module")
def book() -> Book:
    book = Book(citations=read_bibliography(ROOT / "references.bib"))
    book.add_page(PAGE, "07-mini")
    book.glue = {"mini-f1": {"text/plain": "0.123456"}, "mini-md": {"text/markdown": "**yes**"}}
    return book


def test_bibliography_gives_author_year(book):
    assert book.citations["opitz2019macro"] == ("Opitz & Burst", "2019")
    assert book.citations["vorderbrueck2020paradox"] == ("vor der Brück", "2020")


def test_directives_become_headed_blocks(book):
    text = to_commonmark(PAGE, book)
    assert not raw_myst(text), raw_myst(text)
    assert "**Definition 7.1** (Precision)\n\nPrecision is $P = c / b$." in text
    assert "**Exercise 7.1**\n\nCompute it." in text
    assert "**Exercise 7.2** (A text question)" in text
    assert "> **Note.**\n>\n> See Definition 7.1 (Precision) and “Mini chapter”." in text
    assert "As Opitz & Burst (2019) argue" in text
    assert "others (Opitz, 2024; Opitz & Burst, 2019)." in text
    assert "(ch-mini)=" not in text and ":label:" not in text


@pytest.mark.parametrize(
    ("myst", "plain"),
    [
        ("F1 is {glue:text}`mini-f1:.3f`.", "F1 is 0.123."),
        ("F1 is {glue:text}`mini-f1`.", "F1 is 0.123456."),
        ("Verdict: {glue:md}`mini-md`.", "Verdict: **yes**."),
        ("Unknown {glue:text}`nope:.2f`.", "Unknown [nope: run the cells to see it]."),
        ("Use {py:func}`~clfmetrics.macro_f1` or {py:func}`clfmetrics.accuracy`.", None),
        ("See {doc}`the notes <notes>` and {ref}`here <ch-mini>`.", "See the notes and here."),
        ("The `{exercise}` block, ``{cite}`x` ``.", "The `{exercise}` block, ``{cite}`x` ``."),
        ("$$\nx = 1\n$$ (eq-one)", "$$\nx = 1\n$$"),
        ("% a MyST comment\nText.", "Text."),
        ("```{prf:proof}\nObvious.\n```", "*Proof.* Obvious. ∎"),
        ("```python\n{cite}`x` stays in code\n```", "```python\n{cite}`x` stays in code\n```"),
        (
            "```{figure} plot.png\n:alt: A plot\n:name: fig-x\n\nThe caption.\n```",
            "![A plot](plot.png)\n\n*The caption.*",
        ),
        (
            "```{selfcheck}\n:feedback: Because.\n\nWhich?\n\n- [x] right\n- [ ] wrong\n```",
            "**Check yourself.** Which?\n\n- right\n- wrong",
        ),
        ("````{admonition} Careful\nMind it.\n````", "> **Careful.**\n>\n> Mind it."),
        ("```{bibliography}\n```\nEnd.", "End."),
        (
            "```{glue:figure} fig-a\n:name: f\n\nA caption.\n```",
            "[fig-a: run the cells to see it]\n\n*A caption.*",
        ),
        ("```{glue} mini-md\n```", "**yes**"),
        # a role whose text runs over a line break of its paragraph (chapter 17 has one)
        (
            "Exactly what {py:func}`clfmetrics.compare\n<clfmetrics.reporting.compare>` gives.",
            "Exactly what `clfmetrics.compare` gives.",
        ),
        (
            "F1 is {glue:text}`mini-f1:.3f`, as\n{ref}`the\nmini <ch-mini>` says.",
            "F1 is 0.123, as\nthe\nmini says.",
        ),
        (
            "A code span `{ref}\nx` and {ref}`the\nmini <ch-mini>`.",
            "A code span `{ref}\nx` and the\nmini.",
        ),
    ],
)
def test_roles_and_blocks(book, myst, plain):
    text = to_commonmark(myst, book)
    if plain is None:
        assert text == "Use `macro_f1` or `clfmetrics.accuracy`."
    else:
        assert text == plain


def test_raw_myst_finds_what_a_student_would_see():
    assert raw_myst("```{exercise}\n:label: ex-1\n```") == ["```{exercise}", ":label: ex-1"]
    assert raw_myst("(ch-x)=\nSee {ref}`ch-x`.") == ["(ch-x)=", "See {ref}`ch-x`."]
    assert raw_myst(":::{note}\nHi\n:::") == [":::{note}"]
    assert raw_myst("The `{exercise}` directive, $x$ and [a link](b.md).") == []
    assert raw_myst("What {py:func}`f\n<g>` gives.") == ["What {py:func}`f"]
    assert raw_myst("A `code\nspan {ref}`x`` ends.") == []


def _executed(code: str, value: str) -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell(code)
    cell.outputs = [
        nbformat.v4.new_output(
            "display_data",
            data={"application/papermill.record/text/plain": value},
            metadata={"scrapbook": {"name": "a", "mime_prefix": "application/papermill.record/"}},
        )
    ]
    nb.cells.append(cell)
    return nb


def test_glue_values_read_an_executed_notebook():
    assert glue_values(_executed("glue('a', 0.5)", "0.5")) == {"a": {"text/plain": "0.5"}}


def test_glued_values_come_from_the_books_execution_cache_while_the_code_is_the_same(tmp_path):
    from jupyter_cache import get_cache
    from jupyter_cache.base import CacheBundleIn

    cache = get_cache(str(tmp_path / "_build" / ".jupyter_cache"))
    cache.cache_notebook_bundle(
        CacheBundleIn(_executed("glue('a', 0.5)", "0.5"), "ch.md"), check_validity=False
    )
    source = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("glue('a', 0.5)")])
    assert executed_glue(tmp_path, source) == {"a": {"text/plain": "0.5"}}
    source.cells[0].source = "glue('a', 0.25)"
    assert executed_glue(tmp_path, source) == {}
    assert executed_glue(tmp_path / "nowhere", source) == {}


MINI = total_chapter(", as {cite:t}`opitz2019macro` would", "assert total == 10", why=True)


def test_master_notebook_has_commonmark_and_an_answer_cell_per_text_exercise(tmp_path):
    (tmp_path / "03-mini.md").write_text(MINI)
    assignment = build_assignment(tmp_path / "03-mini.md", tmp_path)
    book = Book(citations=read_bibliography(ROOT / "references.bib"))
    book.add_page(MINI, "03-mini")
    master = master_notebook(assignment, {"name": "mini"}, book)
    markdown = [c for c in master.cells if c.cell_type == "markdown"]
    assert not [ln for c in markdown for ln in raw_myst(c.source)]
    assert any(c.source.startswith("**Exercise 3.1**") for c in markdown)
    answers = [c for c in markdown if c.metadata.get(META, {}).get("role") == "answer"]
    assert [c.metadata[META]["exercise"] for c in answers] == ["ex-mini-why"]
    assert answers[0].source.startswith("**Your answer to Exercise 3.2:**")
    (stub,) = [c for c in master.cells if "# BEGIN SOLUTION" in c.source and c.cell_type == "code"]
    assert "as Opitz & Burst (2019) would" in stub.source and "{cite" not in stub.source


@pytest.fixture(scope="module")
def assigned(tmp_path_factory) -> tuple[Path, dict]:
    return assigned_once(tmp_path_factory)


def test_no_raw_myst_in_any_student_or_teacher_notebook(assigned):
    out, manifest = assigned
    found = []
    for entry in manifest["chapters"]:
        for which in ("student", "teacher"):
            nb = nbformat.read(out / entry[which], as_version=4)
            for k, cell in enumerate(nb.cells):
                if cell.cell_type == "markdown":
                    found += [f"{entry[which]}, cell {k}: {ln}" for ln in raw_myst(cell.source)]
    assert not found, found[:10]


def test_every_exercise_has_a_cell_to_answer_in(assigned):
    """A code cell with otter's stub, or a markdown answer cell for a text exercise."""
    out, manifest = assigned
    text_exercises = 0
    for entry in manifest["chapters"]:
        student = nbformat.read(out / entry["student"], as_version=4)
        roles = {
            (c.metadata.get(META, {}).get("exercise"), c.metadata.get(META, {}).get("role"))
            for c in student.cells
        }
        assignment = build_assignment(ROOT / f"{entry['chapter']}.md", ROOT)
        for ex in assignment.exercises.values():
            if ex.solution_cells:
                assert (ex.label, "solution") in roles, ex.label
            else:
                assert (ex.label, "answer") in roles, ex.label
                text_exercises += 1
    assert text_exercises >= 10
