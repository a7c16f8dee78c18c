"""``_ext/lean_build.py``: doctrees hold no nested document, pybtex's lookups are kept."""

from __future__ import annotations

import pickle
import sys
from pathlib import Path

import pybtex.plugin
from docutils import nodes
from docutils.frontend import get_default_settings
from docutils.parsers.rst import Parser
from docutils.utils import new_document

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "_ext"))

import lean_build


def _document(name: str) -> nodes.document:
    return new_document(name, get_default_settings(Parser))


def test_nodes_moved_from_a_nested_document_point_at_the_page():
    page, nested = _document("page.md"), _document("nested.rst")
    nested.settings.env = "x" * 1_000_000  # stands for Sphinx's BuildEnvironment
    block = nodes.doctest_block(">>> 1", ">>> 1")
    nested += block
    page += nested.children  # an {eval-rst} block moves its nodes into the page, and
    block.document = nested  # some keep their first document (the API pages' examples)
    assert len(pickle.dumps(page)) > 1_000_000  # the nested document rides along
    lean_build._own_document(None, page)
    assert block.document is page
    assert len(pickle.dumps(page)) < 10_000


def test_pybtex_entry_point_lookups_are_cached_and_still_find_plugins():
    lean_build._cache_entry_points()
    lean_build._cache_entry_points()  # a second set-up does not wrap the wrapper
    lookup = pybtex.plugin.entry_points
    assert lookup._clfmetrics_cached
    assert not getattr(lookup.__wrapped__, "_clfmetrics_cached", False)
    found = pybtex.plugin.find_plugin("pybtex.backends", "plaintext")
    assert found.__name__ == "Backend" and found.__module__ == "pybtex.backends.plaintext"
    before = lookup.cache_info().hits
    pybtex.plugin.find_plugin("pybtex.backends", "plaintext")
    assert lookup.cache_info().hits == before + 1
