"""JupyterLab's contents manager for the book: chapters open as notebooks that read like the page.

Jupytext's contents manager turns a chapter's ``.md`` into a notebook; this subclass then
rewrites its markdown cells with :func:`~clfbook.tooling.lab_markup.lab_markdown`, so that
``jupyterlab-myst`` finds nothing it cannot render. Glued numbers become inline expressions
that the kernel evaluates (:mod:`~clfbook.tooling.glue`); until it has, each shows the value
of the book's last build, from its execution cache (``_build/.jupyter_cache``, matched on the
chapter's code as the build matches it), where there is one. Cells the page folds are folded:
a cell tagged ``hide-*`` or ``remove-input``, a solution or a hidden check (``remove-cell``)
has what the page hides collapsed until the reader opens it.

The rewrite is for reading only: each rewritten cell keeps its original source in its
metadata, and saving puts the original back in every cell the reader did not edit, and
drops what the rewrite added (the build's values, the folds), so that saving never rewrites
a chapter's markup.

Configured in ``binder/jupyter/jupyter_server_config.py``::

    c.ServerApp.contents_manager_class = "clfbook.tooling.lab_contents.BookContentsManager"
"""

from __future__ import annotations

import logging
from pathlib import Path

import nbformat
from jupyter_server.services.contents.largefilemanager import AsyncLargeFileManager
from jupytext.async_contentsmanager import build_async_jupytext_contents_manager_class

from .lab_markup import Book, lab_markdown, user_expressions

__all__ = ["FOLDED", "KEY", "BookContentsManager", "build_glue", "folds"]

#: Cell metadata key that holds the chapter's own source of a rewritten cell.
KEY = "clfmetrics_myst_source"
#: Cell metadata key that marks the ``jupyter`` folding metadata as the rewrite's own.
FOLDED = "clfmetrics_folded"
#: How the page shows a cell with these tags: collapsed behind a toggle (``hide-*``), in a
#: closed dropdown (a solution) or not at all (a hidden check): (input, output) folded.
FOLDS = {
    "hide-input": (True, False),
    "hide-output": (False, True),
    "hide-cell": (True, True),
    "remove-input": (True, False),
    "solution": (True, True),
    "remove-cell": (True, True),
}
#: How myst-nb stores a glued value's mime types in the output of its cell (display=False).
RECORD = "application/papermill.record/"


def folds(tags) -> dict[str, bool]:
    """The ``jupyter`` cell metadata (``source_hidden``, ``outputs_hidden``) for these tags."""
    source = outputs = False
    for tag in tags or ():
        hidden = FOLDS.get(tag, (False, False))
        source, outputs = source or hidden[0], outputs or hidden[1]
    return {key: True for key, on in (("source_hidden", source), ("outputs_hidden", outputs)) if on}


def build_glue(root: Path, notebook) -> dict[str, dict]:
    """Glued name -> display data of the book's last build of ``notebook``, or nothing.

    ``jupyter-book build`` keeps every executed chapter in ``root/_build/.jupyter_cache``;
    the cache matches a notebook on its code, so a chapter changed since gives nothing.
    """
    path = Path(root) / "_build" / ".jupyter_cache"
    if not path.is_dir():
        return {}
    try:
        from jupyter_cache import get_cache

        cache = get_cache(str(path))
        record = cache.match_cache_notebook(nbformat.from_dict(notebook))
        executed = cache.get_cache_bundle(record.pk).nb
    except Exception as error:  # no match (the chapter changed since), an unreadable cache
        logging.getLogger(__name__).debug("no build values for the chapter: %s", error)
        return {}
    found = {}
    for cell in executed.cells:
        for output in cell.get("outputs", []):
            name = output.get("metadata", {}).get("scrapbook", {}).get("name")
            if name:
                data = output.get("data", {})
                found[name] = {key.removeprefix(RECORD): value for key, value in data.items()}
    return found


_Base = build_async_jupytext_contents_manager_class(AsyncLargeFileManager)


def _chapters_folder(path: Path) -> Path:
    """The ``chapters`` folder a page lives in (or its own folder outside the book)."""
    for folder in path.parents:
        if folder.name == "chapters":
            return folder
    return path.parent


class BookContentsManager(_Base):
    """Jupytext's contents manager, with chapters' markdown cells rewritten for reading."""

    async def get(self, path, content=True, type=None, format=None, **kwargs):
        model = await super().get(path, content=content, type=type, format=format, **kwargs)
        if not (content and model.get("type") == "notebook" and path.endswith(".md")):
            return model
        file = Path(self._get_os_path(path))
        chapters = _chapters_folder(file)
        book = Book.from_folder(chapters)
        here = file.relative_to(chapters).with_suffix("").as_posix()
        cells = model["content"]["cells"]
        if any("{glue" in c["source"] for c in cells if c["cell_type"] == "markdown"):
            book.glue = build_glue(chapters.parent, model["content"])
        for cell in cells:
            if cell["cell_type"] == "code":
                fold = folds(cell["metadata"].get("tags"))
                if fold and "jupyter" not in cell["metadata"]:
                    cell["metadata"]["jupyter"] = fold
                    cell["metadata"][FOLDED] = True
            if cell["cell_type"] != "markdown":
                continue
            source = cell["source"]
            shown = lab_markdown(source, book, here)
            if shown != source:
                cell["metadata"][KEY] = source
                cell["source"] = shown
                expressions = user_expressions(shown, book)
                if expressions:
                    cell["metadata"]["user_expressions"] = expressions
        return model

    async def save(self, model, path=""):
        if model.get("type") == "notebook" and model.get("content"):
            file = Path(self._get_os_path(path))
            chapters = _chapters_folder(file)
            book, here = Book.from_folder(chapters), file.relative_to(chapters).with_suffix("")
            for cell in model["content"].get("cells", []):
                if cell.get("metadata", {}).pop(FOLDED, None):
                    cell["metadata"].pop("jupyter", None)
                original = cell.get("metadata", {}).pop(KEY, None)
                if original is None:
                    continue
                source = cell["source"]
                source = "".join(source) if isinstance(source, list) else source
                if source == lab_markdown(original, book, here.as_posix()):
                    cell["source"] = original  # not edited: the chapter keeps its markup
                    cell["metadata"].pop("user_expressions", None)  # the build's or the kernel's
        return await super().save(model, path)
