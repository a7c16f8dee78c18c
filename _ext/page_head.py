"""What each page's ``<head>`` asks for: nothing from another site (the formulas come typeset,
as MathML with its stylesheet from the site: ``page_math.py``), and a description.

- **Widget state.** nbclient saves the state of every ipywidget a chapter creates into the
  notebook's metadata, and myst-nb then embeds it and loads ``require.js`` and the
  ipywidgets HTML manager from two CDNs (``nb_ipywidgets_js``). The chapters create their
  explorers but show only their static figure and the page version (``_static/explorers.js``):
  no widget *view* is on any page, so the state would render nothing (and the manager
  version myst-nb pins cannot read ipywidgets 8 state anyway). A page that shows no widget
  view gets neither the state nor those scripts.
- **Thebe.** The built pages list the inline configuration scripts of sphinx-thebe and
  sphinx-togglebutton twice (a second copy further down the head), so every page declared
  ``const THEBE_JS_URL`` twice: a SyntaxError logged on every page. Each inline script is
  kept once.
- **Page scripts and styles.** Jupyter Book adds every file of ``_static`` to every page. The
  page explorers' files (``explorers.js``, ``clfmetrics.js``, ``explorers.css``) and the
  self-checks' (``selfcheck.js``, ``selfcheck.css``) and the wide formulas' keyboard helper
  (``math-scroll.js``, on pages with a display formula) stay only on the pages that use them,
  and the formulas' stylesheet on the pages with a formula; sphinxcontrib-katex's own
  (``katex-math.css``, for KaTeX's HTML) on none.
  Every local script but ``documentation_options.js`` (which the head's inline scripts use at
  once) loads with ``defer``: they all wait for ``DOMContentLoaded`` anyway, and ``defer``
  keeps their order (not on the search page, whose search scripts run at once and need
  ``doctools.js`` first). None of them blocks the first paint.
- **Search scripts.** The theme puts Sphinx's search scripts and the whole book's index
  (``searchindex.js``, 175 kB) on every page, for its search-as-you-type box. The book leaves
  that box off (the theme's ``search_as_you_type``, false by default): its search field
  opens the search page, the one page that reads the index. So the other pages drop the
  three scripts (with the box on, they would load with ``defer``).
- **Icons.** The theme loads Font Awesome twice: its stylesheet carries the icon font's CSS
  (``.fa-sun:before`` and the ``@font-face`` rules), and ``fontawesome.js`` (540 kB) replaces
  every ``<i class="fa-...">`` by an inline SVG and then watches every change of the page for
  more. On a phone that script was the theme's costliest in main-thread work (under
  Lighthouse's 4x slowdown). The pages drop it: the same icons are drawn by the font the
  stylesheet already declares.
- **Description.** Every page gets ``<meta name="description">``: the front matter's
  ``description`` when there is one, else the page's first paragraph of prose (shortened to
  about 160 characters); pages without a body (index, search) get the book's.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

from docutils import nodes
from page_math import STYLESHEET as MATH_STYLESHEET

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
#: _static file -> the marker in a page's body that says the page uses it.
PAGE_ASSETS = {
    "explorers.js": "clf-page-explorer",
    "clfmetrics.js": "clf-page-explorer",
    "explorers.css": "clf-page-explorer",
    "selfcheck.js": "clf-selfcheck",
    "selfcheck.css": "clf-selfcheck",
    "math-scroll.js": "tml-display",
    # the formulas' stylesheet, which sphinxcontrib-katex adds to every page
    MATH_STYLESHEET: "<math",
}
#: Styles no page uses: sphinxcontrib-katex's own, which it adds to every page, styles
#: KaTeX's HTML (``.katex-display``) and pins equation numbers to the right, which the theme's
#: ``div.math`` (a reversed flex row) already does; the formulas are MathML (page_math.py).
UNUSED_STYLES = {"katex-math.css"}
#: The one local script that inline scripts of the head use at once (DOCUMENTATION_OPTIONS);
#: every other local script waits for DOMContentLoaded anyway, so it may load with ``defer``.
BLOCKING = {"documentation_options.js"}
#: The theme writes these into every page's head without ``defer``; the search box uses
#: them only once the reader types (searchindex.js holds the whole book's index).
SEARCH_SCRIPTS = ("_static/searchtools.js", "_static/language_data.js", "searchindex.js")
DESCRIPTION_LENGTH = 160
#: Paragraphs inside these are asides, captions or output, not the page's opening prose.
NOT_PROSE = (
    nodes.Admonition,
    nodes.caption,
    nodes.legend,
    nodes.footnote,
    nodes.citation,
    nodes.table,
    nodes.topic,
    nodes.sidebar,
    nodes.field_list,
    nodes.docinfo,
)


def _drop_unshown_widget_state(app, doctree) -> None:
    """Forget the ipywidgets state and CDN scripts myst-nb registered, if no view is shown."""
    if any(WIDGET_VIEW in node.astext() for node in doctree.findall(nodes.raw)):
        return
    page = getattr(app.env, "nb_metadata", {}).get(app.env.docname, {})
    scripts = page.get("js_files", {})
    for key in [k for k in scripts if k.startswith("ipywidgets_")]:
        del scripts[key]


def _asset_name(asset) -> str:
    return str(getattr(asset, "filename", asset) or "").rsplit("/", 1)[-1].split("?", 1)[0]


def _on_page(name: str, body: str) -> bool:
    """Whether a page whose body is ``body`` keeps the ``_static`` file ``name`` in its head."""
    return name not in UNUSED_STYLES and (name not in PAGE_ASSETS or PAGE_ASSETS[name] in body)


def _trim_scripts_and_styles(context: dict, defer: bool) -> None:
    body = context.get("body", "")
    scripts, styles = context.get("script_files"), context.get("css_files")
    seen_inline: set[str] = set()
    kept = []
    for script in scripts or []:
        name = _asset_name(script)
        if not _on_page(name, body):
            continue
        inline = script.attributes.get("body") if not script.filename else None
        if inline is not None:
            if inline in seen_inline:
                continue
            seen_inline.add(inline)
        local = script.filename and "://" not in script.filename
        if (
            defer
            and local
            and name not in BLOCKING
            and not {"async", "defer"} & set(script.attributes)
        ):
            # a copy: the same asset object is shared by every page (the search page too)
            script = type(script)(
                script.filename,
                priority=script.priority,
                **{**script.attributes, "defer": "defer"},
            )
        kept.append(script)
    if scripts is not None:
        scripts[:] = kept
    if styles is not None:
        styles[:] = [s for s in styles if _on_page(_asset_name(s), body)]


def _is_prose(paragraph: nodes.paragraph) -> bool:
    parent = paragraph.parent
    while parent is not None:
        if isinstance(parent, NOT_PROSE):
            return False
        if isinstance(parent, nodes.container) and (
            "cell_output" in parent.get("classes", []) or "cell" in parent.get("classes", [])
        ):
            return False
        parent = parent.parent
    return True


def _shorten(text: str) -> str:
    text = re.sub(r"\s+", " ", text).strip()
    if len(text) <= DESCRIPTION_LENGTH:
        return text
    cut = text[: DESCRIPTION_LENGTH - 1].rsplit(" ", 1)[0].rstrip(",;:")
    return cut + "…"


def page_description(doctree, metadata: dict) -> str | None:
    """The front matter's ``description``, else the first paragraph of prose without math."""
    if metadata.get("description"):
        return _shorten(str(metadata["description"]))
    if doctree is None:
        return None
    paragraphs = [p for p in doctree.findall(nodes.paragraph) if _is_prose(p)]
    plain = [p for p in paragraphs if not any(p.findall(nodes.math)) and len(p.astext()) >= 60]
    chosen = (plain or paragraphs or [None])[0]
    return _shorten(chosen.astext()) if chosen is not None else None


def _add_description(app, pagename, templatename, context, doctree) -> None:
    if app.builder.format != "html":
        return
    remembered = app.env.__dict__.setdefault("clf_descriptions", {})
    text = page_description(doctree, app.env.metadata.get(pagename, {}))
    if text:
        remembered[pagename] = text
    else:
        root = app.config.root_doc
        text = remembered.get(root) or page_description(
            app.env.get_doctree(root), app.env.metadata.get(root, {})
        )
    metatags = context.get("metatags", "")
    if text and 'name="description"' not in metatags:
        tag = f'<meta name="description" content="{html.escape(text, quote=True)}" />\n'
        context["metatags"] = metatags + tag
    # The search page runs its search scripts at once, and they need doctools.js first.
    _trim_scripts_and_styles(context, defer=pagename != "search")


ICON_SCRIPT = re.compile(
    r'<script defer src="(?:\.\./)*_static/scripts/fontawesome\.js[^"]*"></script>\n?'
)


def drop_icon_script(page_html: str) -> str:
    """``page_html`` without the theme's ``fontawesome.js`` (the stylesheet's font draws the
    icons)."""
    return ICON_SCRIPT.sub("", page_html)


def defer_search_scripts(page_html: str, drop: bool = False) -> str:
    """``page_html`` with the theme's search scripts loading after the document is parsed,
    or without them (``drop``: a page that never searches)."""
    for name in SEARCH_SCRIPTS:
        page_html = re.sub(
            r'<script src="((?:\.\./)*' + re.escape(name) + r')"></script>\n?',
            "" if drop else r'<script defer src="\1"></script>',
            page_html,
        )
    return page_html


def _defer_search(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    options = app.config.html_theme_options or {}
    as_you_type = str(options.get("search_as_you_type", False)).lower() == "true"
    for page in Path(app.outdir).rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        deferred = drop_icon_script(text)
        if page.name != "search.html":  # the search page needs its index at once
            deferred = defer_search_scripts(deferred, drop=not as_you_type)
        if deferred != text:
            page.write_text(deferred, encoding="utf-8")


def _remove_unused_styles(app, exception) -> None:
    """What no page links is not shipped either (the tool copies its file every build)."""
    if exception is None and app.builder.format == "html":
        for name in UNUSED_STYLES:
            (Path(app.outdir) / "_static" / name).unlink(missing_ok=True)


def setup(app):
    app.connect("doctree-read", _drop_unshown_widget_state)
    app.connect("build-finished", _defer_search)
    app.connect("build-finished", _remove_unused_styles)
    # after myst-nb (priority 500) has added a page's own scripts
    app.connect("html-page-context", _add_description, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
