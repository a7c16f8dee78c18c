"""Every formula typeset when the book is built: the pages ship KaTeX's HTML, no math script.

A chapter holds hundreds of formulas; typesetting them in the reader's browser (MathJax, as
before) was the largest main-thread task of a page load, and the page moved as they reflowed.
``sphinxcontrib-katex`` with ``katex_prerender`` typesets each formula under node when the
page is written (its ``katex-server.js``), and the page links KaTeX's stylesheet only.

- **Which KaTeX.** npm's ``katex``, pinned in ``_ext/npm/package.json`` (installed there by
  ``npm ci``: ``make book``), does both halves: its ``katex.min.js`` typesets (the tool's
  ``katex_js_path``), and its ``katex.min.css`` and fonts are copied into the site's
  ``_static/katex/`` (``katex_css_path``; the tool's default is a CDN's address). The
  stylesheet is the one of the KaTeX that wrote the HTML, and no page asks another site.
- **The book's options.** When it prerenders, the tool passes KaTeX none of
  ``katex_options`` (its issue 65: not even the macros) and has KaTeX draw a formula it cannot
  parse as red TeX (``throwOnError: false``). So this extension registers the renderer the
  book uses (``html_math_renderer: katex_book``): the tool's own writers, with the book's
  macros (``katex_macros`` in ``_config.yml``) and ``throwOnError``. A formula KaTeX cannot
  typeset stops the build with its page, line and KaTeX's message.
- **Its node server.** The tool starts one at the first formula on a Unix socket and connects
  once the socket's file exists, which can be before node listens on it: on a busy machine
  the build failed with "Connection refused", and the server it had started lived on (the
  tool stops it at exit only once connected). This extension starts the tool's server on a
  loopback port instead (the tool's own other way, which waits until node listens), and
  stops it when the build ends, however it ends.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import sphinxcontrib.katex as katex_ext
from sphinx.errors import SphinxError
from sphinx.util.logging import get_node_location

#: The pinned npm package (``npm ci`` in this folder installs it).
NPM = Path(__file__).resolve().parent / "npm"
KATEX_DIST = NPM / "node_modules" / "katex" / "dist"
#: The folder under ``_static`` that the stylesheet and its fonts are copied to.
STATIC = "katex"
#: What the build reads (the script) and what the pages load (the stylesheet, its fonts).
SCRIPT = "katex.min.js"
STYLESHEET = "katex.min.css"
#: Seconds for KaTeX's node server to start, and for it to typeset one formula.
TIMEOUT_S = 120.0


class KaTeXFormulaError(SphinxError):
    category = "KaTeX cannot typeset a formula"


def katex_dist() -> Path:
    """The ``dist`` folder of the pinned ``katex`` npm package, or a clear error."""
    if not (KATEX_DIST / SCRIPT).is_file():
        raise RuntimeError(
            f"the book typesets its formulas with npm's katex: run `npm ci` in {NPM} "
            "(make book does)"
        )
    if shutil.which(katex_ext.NODEJS_BINARY) is None:
        raise RuntimeError("the book typesets its formulas under node: install nodejs")
    return KATEX_DIST


def katex_options(macros: dict[str, str]) -> dict:
    """KaTeX's options for every formula: the book's macros; a parse error is raised."""
    return {"throwOnError": True, "macros": dict(macros)}


def copy_stylesheet(target: Path, dist: Path | None = None) -> None:
    """KaTeX's stylesheet and the fonts it names (``fonts/``, relative to it) into ``target``."""
    dist = dist or katex_dist()
    target.mkdir(parents=True, exist_ok=True)
    shutil.copy2(dist / STYLESHEET, target / STYLESHEET)
    shutil.copytree(dist / "fonts", target / "fonts", dirs_exist_ok=True)


def start_server() -> None:
    """The tool's node server, on a loopback port, unless one runs (see the docstring)."""
    server = katex_ext.KaTeXServer
    if server.katex_server is None:
        rundir = Path(tempfile.mkdtemp(prefix="katex-book-"))
        process, sock = server.start_network_socket(rundir, TIMEOUT_S)
        server.katex_server = server(rundir, process, sock)


def stop_server() -> None:
    """Stop the node server, if one runs."""
    server = katex_ext.KaTeXServer
    if server.katex_server is not None:
        server.katex_server.terminate()
        server.katex_server = None


def _typeset(visit):
    """The tool's writer for a formula, a KaTeX error raised with the formula's place."""

    def visit_with_location(self, node):
        start_server()
        try:
            visit(self, node)
        except katex_ext.KaTeXError as error:
            where = get_node_location(node) or self.builder.current_docname
            raise KaTeXFormulaError(f"{where}: {error}") from None

    return visit_with_location


def _configure(app, config) -> None:
    dist = katex_dist()  # fail at the start of the build, not at the first formula
    config.katex_prerender = True
    config.katex_js_path = str(dist / SCRIPT)
    config.katex_css_path = f"{STATIC}/{STYLESHEET}"
    # The tool's renderer reads its options from here for every formula (see the docstring).
    katex_ext.KATEX_DEFAULT_OPTIONS = katex_options(config.katex_macros)
    # Its node server gets 5 s to start and 5 s a formula: on a busy machine (two cores, a
    # test suite beside the build) node alone can take longer to start.
    katex_ext.STARTUP_TIMEOUT = katex_ext.RENDER_TIMEOUT = TIMEOUT_S


def _finish(app, exception) -> None:
    stop_server()
    if exception is None and app.builder.format == "html":
        copy_stylesheet(Path(app.outdir) / "_static" / STATIC)


def setup(app):
    app.setup_extension("sphinxcontrib.katex")
    app.add_config_value("katex_macros", {}, "html", dict)
    app.add_html_math_renderer(
        "katex_book",
        inline_renderers=(_typeset(katex_ext.html_visit_math), None),
        block_renderers=(_typeset(katex_ext.html_visit_displaymath), None),
    )
    app.connect("config-inited", _configure)
    app.connect("build-finished", _finish)
    return {"parallel_read_safe": True, "parallel_write_safe": False}
