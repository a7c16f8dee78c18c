"""Small accessibility fixes to the HTML that docutils writes.

docutils 0.21 wraps a bibliography in ``<div role="list">`` and gives each
entry ``role="doc-biblioentry"``. That role is deprecated (DPUB-ARIA 1.1) and
is not a ``listitem``, so screen readers and axe-core see a list without
items (axe rule ``aria-required-children``, "critical"). Each entry becomes a
plain ``listitem``; its id, and so every citation link, is unchanged.

The theme's sidebar folds a page's sub-pages (the API reference) under a
``<summary>`` that holds only a chevron icon, so the control has no name
(axe rule ``summary-name``, "serious"). Once the pages are written, each such
``<summary>`` gets an ``aria-label``.
"""

from __future__ import annotations

from pathlib import Path


def _fix_bibliography_roles(app, pagename, templatename, context, doctree):
    body = context.get("body")
    if body and 'role="doc-biblioentry"' in body:
        context["body"] = body.replace('role="doc-biblioentry"', 'role="listitem"')


_BARE_TOGGLE = '<summary><span class="toctree-toggle" role="presentation">'
_NAMED_TOGGLE = (
    '<summary aria-label="Show or hide the pages of this section">'
    '<span class="toctree-toggle" role="presentation">'
)


def _name_sidebar_toggles(app, exception):
    if exception is not None or app.builder.format != "html":
        return
    for page in Path(app.outdir).rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        if _BARE_TOGGLE in text:
            page.write_text(text.replace(_BARE_TOGGLE, _NAMED_TOGGLE), encoding="utf-8")


def setup(app):
    app.connect("html-page-context", _fix_bibliography_roles)
    app.connect("build-finished", _name_sidebar_toggles)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
