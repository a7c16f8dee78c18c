"""JupyterLab's contents manager for the book: chapters open as notebooks that read like the page.

Jupytext's contents manager turns a chapter's ``.md`` into a notebook; this subclass then
rewrites its markdown cells with :func:`~clfbook.tooling.lab_markup.lab_markdown`, so that
``jupyterlab-myst`` finds nothing it cannot render. The rewrite is for reading only: each
rewritten cell keeps its original source in its metadata, and saving puts the original back
in every cell the reader did not edit, so that saving never rewrites a chapter's markup.

Configured in ``binder/jupyter/jupyter_server_config.py``::

    c.ServerApp.contents_manager_class = "clfbook.tooling.lab_contents.BookContentsManager"
"""

from __future__ import annotations

from pathlib import Path

from jupyter_server.services.contents.largefilemanager import AsyncLargeFileManager
from jupytext.async_contentsmanager import build_async_jupytext_contents_manager_class

from .lab_markup import Book, lab_markdown

__all__ = ["KEY", "BookContentsManager"]

#: Cell metadata key that holds the chapter's own source of a rewritten cell.
KEY = "clfmetrics_myst_source"

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
        for cell in model["content"]["cells"]:
            if cell["cell_type"] != "markdown":
                continue
            source = cell["source"]
            shown = lab_markdown(source, book, here)
            if shown != source:
                cell["metadata"][KEY] = source
                cell["source"] = shown
        return model

    async def save(self, model, path=""):
        if model.get("type") == "notebook" and model.get("content"):
            file = Path(self._get_os_path(path))
            chapters = _chapters_folder(file)
            book, here = Book.from_folder(chapters), file.relative_to(chapters).with_suffix("")
            for cell in model["content"].get("cells", []):
                original = cell.get("metadata", {}).pop(KEY, None)
                if original is None:
                    continue
                source = cell["source"]
                source = "".join(source) if isinstance(source, list) else source
                if source == lab_markdown(original, book, here.as_posix()):
                    cell["source"] = original  # not edited: the chapter keeps its markup
        return await super().save(model, path)
