"""The contents manager JupyterLab reads chapters through: glued numbers, folds, saving back.

A small book in a temporary folder, opened by the manager as the server opens a chapter: a
glue role becomes an inline expression for the kernel, shown until then with the value of
the book's last build (a cache written here as ``jupyter-book build`` writes it) or a note
that the cells must run; the cells the page folds are folded; saving writes the chapter as it
was.
"""

from __future__ import annotations

import asyncio

import jupytext
import nbformat
import pytest
from coursework_mini import HEADER  # the mini chapters' jupytext header

from clfbook.tooling.glue import Glue, glue_text, pending
from clfbook.tooling.lab_contents import FOLDED, KEY, BookContentsManager, build_glue, folds

CHAPTER = (
    HEADER
    + """

```{code-cell} ipython3
:tags: [hide-input]

from clfbook.tooling.glue import glue
```

```{code-cell} ipython3
glue("mini-f1", 0.123456, display=False)
glue("mini-n", 7, display=False)
```

F1 is {glue:text}`mini-f1:.3f` on {glue:text}`mini-n`
items.

```{code-cell} ipython3
:tags: [solution]

answer = 1
```

```{code-cell} ipython3
:tags: [hidden-check, remove-cell]

assert answer == 1
```
"""
)

RECORD = "application/papermill.record/"


def _manager(root):
    return BookContentsManager(root_dir=str(root))


def _get(root, path="chapters/mini.md"):
    return asyncio.run(_manager(root).get(path, content=True, type="notebook"))


def _executed(path):
    """The chapter as the build leaves it in its cache: the glue cell with its outputs."""
    nb = jupytext.read(path, fmt="md:myst")
    cell = next(c for c in nb.cells if "glue(" in c.source and "import" not in c.source)
    cell.outputs = [
        nbformat.v4.new_output(
            "display_data",
            data={f"{RECORD}text/plain": value},
            metadata={"scrapbook": {"name": name, "mime_prefix": RECORD}},
        )
        for name, value in (("mini-f1", "0.123456"), ("mini-n", "7"))
    ]
    return nb


@pytest.fixture
def book(tmp_path):
    (tmp_path / "chapters").mkdir()
    (tmp_path / "chapters" / "mini.md").write_text(CHAPTER)
    return tmp_path


def _markdown(model):
    return next(c for c in model["content"]["cells"] if "F1 is" in c["source"])


def _shown(cell):
    return {e["expression"]: e["result"] for e in cell["metadata"]["user_expressions"]}


def test_a_glued_number_is_a_kernel_expression_shown_as_pending_without_a_build(book):
    cell = _markdown(_get(book))
    assert '{eval}`glue.text("mini-f1", ".3f")`' in cell["source"]
    assert '{eval}`glue.text("mini-n")`' in cell["source"]
    shown = _shown(cell)
    assert shown['glue.text("mini-f1", ".3f")']["data"]["text/plain"] == pending("mini-f1")
    assert shown['glue.text("mini-f1", ".3f")']["metadata"] == {"clfbook": "pending"}


def test_before_the_kernel_runs_a_glued_number_is_the_books_last_build(book):
    from jupyter_cache import get_cache
    from jupyter_cache.base import CacheBundleIn

    path = book / "chapters" / "mini.md"
    cache = get_cache(str(book / "_build" / ".jupyter_cache"))
    cache.cache_notebook_bundle(CacheBundleIn(_executed(path), str(path)), check_validity=False)
    assert build_glue(book, jupytext.read(path, fmt="md:myst")) == {
        "mini-f1": {"text/plain": "0.123456"},
        "mini-n": {"text/plain": "7"},
    }
    shown = _shown(_markdown(_get(book)))
    assert shown['glue.text("mini-f1", ".3f")']["data"] == {"text/plain": "0.123"}
    assert shown['glue.text("mini-n")']["data"] == {"text/plain": "7"}
    assert shown['glue.text("mini-n")']["metadata"] == {"clfbook": "build"}
    # the chapter's code changed since the build: its values are not the chapter's any more
    path.write_text(CHAPTER.replace("0.123456", "0.5"))
    assert _shown(_markdown(_get(book)))['glue.text("mini-n")']["data"] == {
        "text/plain": pending("mini-n")
    }


def test_the_cells_the_page_folds_are_folded(book):
    code = [c for c in _get(book)["content"]["cells"] if c["cell_type"] == "code"]
    assert code[0]["metadata"]["jupyter"] == {"source_hidden": True}  # hide-input
    assert "jupyter" not in code[1]["metadata"]
    assert code[2]["metadata"]["jupyter"] == {"source_hidden": True, "outputs_hidden": True}
    assert code[3]["metadata"]["jupyter"] == {"source_hidden": True, "outputs_hidden": True}
    assert folds(["remove-output", "skip-execution"]) == {}  # an explorer's live cell shows


def test_saving_writes_the_chapter_back_without_what_the_rewrite_added(book):
    path = book / "chapters" / "mini.md"
    before = jupytext.read(path, fmt="md:myst")
    model = _get(book)
    asyncio.run(_manager(book).save(model, "chapters/mini.md"))
    after = jupytext.read(path, fmt="md:myst")
    assert [c.source for c in after.cells] == [c.source for c in before.cells]
    text = path.read_text()
    for added in ("user_expressions", "source_hidden", "jupyter", KEY, FOLDED):
        assert added not in text


@pytest.mark.parametrize(
    ("text", "spec"),
    [("0.123456", ".3f"), ("7", ""), ("7", "d"), ("'a word'", ""), ("0.5", ".1%"), ("x y", "s")],
)
def test_glue_text_is_what_the_book_shows(text, spec):
    from myst_nb.core.variables import format_plain_text

    assert glue_text(text, spec) == format_plain_text(text, spec)


def test_the_kernels_glue_keeps_each_value_by_name(capsys):
    glue = Glue()
    assert glue.text("a", ".2f") == pending("a")
    glue("a", 0.125, display=False)
    glue("md", __import__("IPython").display.Markdown("*yes*"), display=False)
    assert glue.text("a", ".2f") == "0.12" and glue.text("a") == "0.125"
    assert glue.markdown("md") == "*yes*"
