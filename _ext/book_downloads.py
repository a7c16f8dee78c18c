"""The book whole: a PDF of every page and a zip of every chapter's executed notebook.

- **The notebooks' zip.** Once the HTML book is written (and ``hidden_checks`` has cut the
  hidden checks from the copies in ``_sources/``), every executed chapter notebook there goes
  into one zip at the site's root (:data:`NOTEBOOKS`), under its path in the repository
  (``chapters/01-confusion-matrix.ipynb``), so a teacher archives or hands out the course in
  one file. The zip is built from those published copies, never from the build's
  ``jupyter_execute/`` (which still holds the hidden checks).
- **The PDF** (:data:`PDF`) is printed after the HTML build by ``python -m
  clfbook.tooling.pdf`` (``make pdf``, which ``make book`` runs), from the HTML build's own
  pages joined into one.
- **Executed copies from the cache too**: see :func:`_cached_outputs_reach_the_copy`.
- **A link to both** under every page's footer (the theme's ``extra_footer``, with each
  page's own relative path), and the ``{book-download}`` role for a link in the text:
  ``{book-download}`pdf``` or ``{book-download}`all the notebooks <notebooks>```.
"""

from __future__ import annotations

import posixpath
import zipfile
from pathlib import Path

from docutils import nodes
from sphinx.util.docutils import SphinxRole
from sphinx.util.nodes import split_explicit_title

#: The files at the site's root, by the role's target name.
PDF = "evaluating-classifiers.pdf"
NOTEBOOKS = "evaluating-classifiers-notebooks.zip"
FILES = {"pdf": PDF, "notebooks": NOTEBOOKS}
LABELS = {"pdf": "the whole book as a PDF", "notebooks": "every chapter as a notebook (zip)"}
#: Under ``build-finished``'s default priority (500: ``hidden_checks``), so the zip is
#: made from the stripped copies.
AFTER_HIDDEN_CHECKS = 900


class book_download(nodes.Inline, nodes.TextElement):
    """A link to one of :data:`FILES`, made a plain reference relative to its page once the
    page is resolved (as the page's own relative path)."""


class BookDownloadRole(SphinxRole):
    def run(self):
        explicit, title, target = split_explicit_title(self.text)
        if target not in FILES:
            msg = f"book-download: unknown target {target!r} (one of {', '.join(FILES)})"
            return [], [self.inliner.reporter.error(msg, line=self.lineno)]
        node = book_download(classes=["clf-book-download"])
        node["target"] = target
        node += nodes.Text(title if explicit else LABELS[target])
        return [node], []


def relative_uri(builder, docname: str, name: str) -> str:
    """``name`` (a file at the site's root) as seen from ``docname``'s page."""
    page = builder.get_target_uri(docname).split("#", 1)[0]
    return posixpath.relpath(name, posixpath.dirname(page) or ".")


def _resolve(app, doctree, docname: str) -> None:
    for node in list(doctree.findall(book_download)):
        uri = relative_uri(app.builder, docname, FILES[node["target"]])
        node.replace_self(
            nodes.reference("", "", *node.children, refuri=uri, classes=node["classes"])
        )


def footer_links(pathto) -> str:
    """The footer's paragraph; ``pathto(name, 1)`` is a site file relative to the page."""
    pdf, zipped = pathto(PDF, 1), pathto(NOTEBOOKS, 1)
    return (
        f'<p class="clf-book-downloads">The whole book: <a href="{pdf}">PDF</a> · '
        f'<a href="{zipped}">every chapter as a notebook (zip)</a></p>'
    )


def _page_context(app, pagename, templatename, context, doctree) -> None:
    if "pathto" in context:
        footer = context.get("theme_extra_footer") or ""
        context["theme_extra_footer"] = footer + footer_links(context["pathto"])


def write_notebooks(outdir: Path) -> Path:
    """Zip every ``.ipynb`` of ``outdir/_sources`` (sorted by path) into ``outdir/NOTEBOOKS``."""
    sources = Path(outdir) / "_sources"
    target = Path(outdir) / NOTEBOOKS
    notebooks = sorted(sources.rglob("*.ipynb"))
    if not notebooks:
        raise RuntimeError(f"no executed notebook under {sources} to zip")
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED) as bundle:
        for path in notebooks:
            bundle.write(path, path.relative_to(sources).as_posix())
    return target


def _build_finished(app, exception) -> None:
    if exception is None and app.builder.name == "html":
        write_notebooks(Path(app.outdir))


def _cached_outputs_reach_the_copy() -> None:
    """A notebook read from the execution cache keeps its outputs in the executed copy.

    myst-nb writes each chapter's executed notebook (``jupyter_execute/``, which the theme
    offers for download and this zip holds) from the notebook object it parsed. Executing
    fills that object; a cache hit merges the outputs into a new one, so on every build after
    the first the copy had no outputs at all. The merged cells go into the parsed object.
    """
    from myst_nb.core.execute.cache import NotebookClientCache

    original = NotebookClientCache.start_client
    if getattr(original, "keeps_the_parsed_notebook", False):
        return

    def start_client(self):
        parsed = self._notebook
        original(self)
        if self._notebook is not parsed:
            parsed["cells"] = self._notebook["cells"]
            parsed["metadata"] = self._notebook["metadata"]
            self._notebook = parsed

    start_client.keeps_the_parsed_notebook = True
    NotebookClientCache.start_client = start_client


def setup(app):
    _cached_outputs_reach_the_copy()
    app.add_role("book-download", BookDownloadRole())
    app.connect("doctree-resolved", _resolve)
    app.connect("html-page-context", _page_context)
    app.connect("build-finished", _build_finished, priority=AFTER_HIDDEN_CHECKS)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
