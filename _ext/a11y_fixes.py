"""Small accessibility fixes to the HTML that docutils writes.

docutils 0.21 wraps a bibliography in ``<div role="list">`` and gives each
entry ``role="doc-biblioentry"``. That role is deprecated (DPUB-ARIA 1.1) and
is not a ``listitem``, so screen readers and axe-core see a list without
items (axe rule ``aria-required-children``, "critical"). Each entry becomes a
plain ``listitem``; its id, and so every citation link, is unchanged.
"""

from __future__ import annotations


def _fix_bibliography_roles(app, pagename, templatename, context, doctree):
    body = context.get("body")
    if body and 'role="doc-biblioentry"' in body:
        context["body"] = body.replace('role="doc-biblioentry"', 'role="listitem"')


def setup(app):
    app.connect("html-page-context", _fix_bibliography_roles)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
