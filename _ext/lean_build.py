"""Two costs of the book's build that buy nothing; the pages come out the same.

- **Doctrees that carry the whole environment.** An ``{eval-rst}`` block (the API
  reference's ``automodule``) is parsed into a document of its own, and some of its nodes
  (the docstrings' ``>>>`` examples) keep a reference to that document after they are moved
  into the page. Its settings hold Sphinx's ``BuildEnvironment``, so every API page's
  pickled doctree carried a copy of the environment, many times the page's own size,
  pickled once and unpickled twice per page (Sphinx strips the environment from the page's
  own document only). Each node is pointed at the page's document once the page is read.
- **Citation styles looked up again for every citation.** sphinxcontrib-bibtex asks
  pybtex for its style and backend plugins at each ``{cite}``, and pybtex then scans the
  entry points of every installed distribution (about 200 files read per lookup). The
  installed entry points do not change during a build, so each lookup is kept; plugins
  registered at run time are still looked up first, as before.
"""

from __future__ import annotations

import functools

import pybtex.plugin


def _own_document(app, doctree) -> None:
    """Point every node that still refers to another (nested) document at this one."""
    for node in doctree.findall():
        other = getattr(node, "_document", None)
        if other is not None and other is not doctree:
            node.document = doctree


def _cache_entry_points() -> None:
    lookup = pybtex.plugin.entry_points
    if getattr(lookup, "_clfmetrics_cached", False):
        return

    @functools.cache
    def cached(**selection):
        return tuple(lookup(**selection))

    cached._clfmetrics_cached = True
    pybtex.plugin.entry_points = cached


def setup(app):
    _cache_entry_points()
    app.connect("doctree-read", _own_document)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
