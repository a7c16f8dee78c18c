"""Every formula typeset when the book is built, as MathML: no script typesets on the pages.

A chapter holds hundreds of formulas. Typesetting them in the reader's browser (MathJax, as
before) was the largest main-thread task of a page load. KaTeX's prerendered HTML (after it)
drew each formula as dozens of positioned spans beside a MathML copy for screen readers:
chapter 04's 259 formulas were 14,000 of its 17,000 elements, and laying them out was the
longest task of its load on a phone. Every current browser lays out MathML itself (MathML
Core: Chromium since 109, Firefox, Safari), so the pages carry MathML alone.

- **Which converter.** npm's ``temml`` (pinned in ``_ext/npm/package.json``, installed there
  by ``npm ci``: ``make book``) is KaTeX's parser and macros with MathML Core output. It
  writes a script or double-struck letter as its Unicode character (ℱ, 𝔽), where KaTeX's
  MathML says ``mathvariant="script"``, which MathML Core dropped: Chromium draws both as
  a plain F, and the book's 𝔽₁/ℱ₁ distinction is the point of chapter 04.
- **How.** ``sphinxcontrib-katex`` with ``katex_prerender`` sends each formula to a node
  server that calls ``renderToString`` of the script ``katex_js_path`` names; Temml has
  KaTeX's interface, so the tool's server and writers typeset with it (``npm/temml.js``
  hands the server Temml's CommonJS build).
  When it prerenders, the tool passes none of ``katex_options`` (its issue 65: not even the
  macros) and draws a formula it cannot parse as red TeX (``throwOnError: false``). So this
  extension registers the renderer the book uses (``html_math_renderer: math_book``): the
  tool's writers, with the book's macros (``math_macros`` in ``_config.yml``) and
  ``throwOnError``. A formula Temml cannot typeset stops the build with its page, line and
  Temml's message.
- **Its font.** Temml's stylesheet for Latin Modern Math (``Temml-Latin-Modern.css``): a
  phone has no math font of its own, and Chromium draws stretched brackets and radicals
  badly with system fonts (Temml's README). The font comes from Debian's ``fonts-lmodern``
  (``make book`` installs it), cut when the build ends to the characters the pages' formulas
  use (fontTools' subsetter, WOFF2 through ``brotli``, its MATH table's size variants and
  glyph assemblies kept), with the math italic letter a browser draws for each one-letter
  ``<mi>``: 380 kB whole (Temml's README), 57 kB cut to the book (206 characters, 674 glyphs
  with their script sizes and stretched forms), its outlines TrueType's (see there).
- **Its line breaks.** Temml's stylesheet lays a formula out as an inline flex box, so that a
  long one breaks between its terms on a phone; the browser may then also break between a
  formula and the full stop after it, which would start a line with "." (KaTeX's HTML was
  text, and the punctuation stuck to it). Each inline formula followed by punctuation is
  wrapped with it in a ``span.math-and-punctuation`` (``book.css``: no break inside).
- **Its node server.** The tool starts one at the first formula on a Unix socket and connects
  once the socket's file exists, which can be before node listens on it: on a busy machine
  the build failed with "Connection refused", and the server it had started lived on (the
  tool stops it at exit only once connected). This extension starts the tool's server on a
  loopback port instead (the tool's own other way, which waits until node listens), and
  stops it when the build ends, however it ends.
"""

from __future__ import annotations

import html
import re
import shutil
import tempfile
from pathlib import Path

import sphinxcontrib.katex as katex_ext
from docutils import nodes
from sphinx.errors import SphinxError
from sphinx.util.logging import get_node_location

#: The pinned npm package (``npm ci`` in this folder installs it).
NPM = Path(__file__).resolve().parent / "npm"
TEMML_DIST = NPM / "node_modules" / "temml" / "dist"
#: What the build runs (Temml's CommonJS build, through a file the tool can name: see there)
#: and what the pages load (its stylesheet, two fonts).
CONVERTER = "temml.cjs"
SERVER_MODULE = NPM / "temml.js"
STYLESHEET = "Temml-Latin-Modern.css"
#: Temml's script capitals (\mathscr), a clone of KaTeX's; loaded only where one is drawn.
SCRIPT_FONT = "Temml.woff2"
#: The file name Temml's stylesheet gives the math font, beside it.
MATH_FONT = "latinmodernmath.woff2"
#: Latin Modern Math as Debian's ``fonts-lmodern`` installs it.
LATIN_MODERN_MATH = Path("/usr/share/texmf/fonts/opentype/public/lm-math/latinmodern-math.otf")
#: The folder under ``_static`` that the stylesheet and its fonts are copied to.
STATIC = "math"
#: What a formula draws from the page's text font, not the cut math font: Temml writes the
#: accent of \bar as U+203E OVERLINE, which Latin Modern Math lacks; an accent of one glyph,
#: not stretched, that every text font has (DejaVu's, Roboto's).
FROM_THE_TEXT_FONT = frozenset({"\u203e"})
#: Seconds for the node server to start, and for it to typeset one formula.
TIMEOUT_S = 120.0

#: One formula's markup on a built page, the tags inside it, and a one-letter ``<mi>`` with
#: no ``mathvariant``, which a browser draws as that letter's math italic character (MathML
#: Core's ``text-transform: math-auto``), not as the character in the page's text.
MATH_ELEMENT = re.compile(r"<math\b[^>]*>(.*?)</math>", re.S)
TAG = re.compile(r"<[^>]+>")
ONE_LETTER_MI = re.compile(r"<mi(?![^>]*\bmathvariant=)[^>]*>([^<]|&[^;]+;)</mi>")
#: Math italic, as MathML Core maps it: Latin (italic h is the Planck constant, U+210E,
#: in the block's hole), Greek, and the letter-like symbols and dotless i and j.
ITALIC_RUNS = (("A", "Z", 0x1D434), ("a", "z", 0x1D44E), ("Α", "Ω", 0x1D6E2), ("α", "ω", 0x1D6FC))
ITALIC_SINGLES = {
    "h": 0x210E, "ı": 0x1D6A4, "ȷ": 0x1D6A5, "∇": 0x1D6FB, "∂": 0x1D715, "ϵ": 0x1D716,
    "ϑ": 0x1D717, "ϰ": 0x1D718, "ϕ": 0x1D719, "ϱ": 0x1D71A, "ϖ": 0x1D71B,
}  # fmt: skip


def math_italic(letter: str) -> int | None:
    """The code point a browser draws for a one-letter ``<mi>``, or None if it draws it as is."""
    if letter in ITALIC_SINGLES:
        return ITALIC_SINGLES[letter]
    for first, last, start in ITALIC_RUNS:
        if first <= letter <= last and letter != "\u03a2":  # Greek's hole (final sigma's capital)
            return start + ord(letter) - ord(first)
    return None


#: What may follow a formula without a space and must stay on its line.
TRAILING_PUNCTUATION = re.compile(r"[.,;:!?)\]}\u2019\u201d\u2026]+")
#: The class of the span that holds an inline formula and the punctuation after it.
WITH_PUNCTUATION = "math-and-punctuation"


class FormulaError(SphinxError):
    category = "Temml cannot typeset a formula"


def temml_dist() -> Path:
    """The ``dist`` folder of the pinned ``temml`` npm package, or a clear error."""
    if not (TEMML_DIST / CONVERTER).is_file():
        raise RuntimeError(
            f"the book typesets its formulas with npm's temml: run `npm ci` in {NPM} "
            "(make book does)"
        )
    if shutil.which(katex_ext.NODEJS_BINARY) is None:
        raise RuntimeError("the book typesets its formulas under node: install nodejs")
    return TEMML_DIST


def math_font_source() -> Path:
    """Debian's Latin Modern Math, or a clear error."""
    if not LATIN_MODERN_MATH.is_file():
        raise RuntimeError(
            f"the book's formulas draw with Latin Modern Math: {LATIN_MODERN_MATH} is missing "
            "(apt-get install fonts-lmodern; make book does)"
        )
    return LATIN_MODERN_MATH


def temml_options(macros: dict[str, str]) -> dict:
    """Temml's options for every formula: the book's macros; a parse error is raised."""
    return {"throwOnError": True, "macros": dict(macros)}


def math_characters(page: str) -> set[int]:
    """The code points a built page's ``<math>`` elements draw: their text's characters, and
    the math italic ones of their one-letter identifiers."""
    inners = MATH_ELEMENT.findall(page)
    text = html.unescape("".join(TAG.sub("", inner) for inner in inners))
    letters = html.unescape("".join(ONE_LETTER_MI.findall("".join(inners))))
    italic = {math_italic(letter) for letter in letters} - {None}
    # A space is drawn too (an mtext's no-break space among them); line ends are not.
    return {ord(c) for c in text if c not in "\n\r\t"} | italic


def truetype_outlines(font) -> None:
    """A font's cubic (CFF) outlines replaced by quadratic TrueType ones, in place (fontTools'
    ``cu2qu``, within one font unit of the curve, at 1,000 units an em): Chromium's PDF
    embeds a CFF web font as Type 3 drawings (4.5 MB more in the book's PDF) and a TrueType
    one as a font."""
    from fontTools.pens.cu2quPen import Cu2QuPen
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from fontTools.ttLib import newTable

    order = font.getGlyphOrder()
    glyphs = font.getGlyphSet()
    glyf = newTable("glyf")
    glyf.glyphOrder = order
    glyf.glyphs = {}
    for name in order:
        pen = TTGlyphPen(glyphs)
        # CFF contours run counter-clockwise, TrueType's clockwise.
        glyphs[name].draw(Cu2QuPen(pen, max_err=1.0, reverse_direction=True))
        glyf[name] = pen.glyph()
    del font["CFF "]
    font["glyf"] = glyf
    font["loca"] = newTable("loca")
    maxp = font["maxp"]
    maxp.tableVersion = 0x00010000  # TrueType's; the counts are recomputed when it is saved
    maxp.maxZones = 1
    for field in ("maxTwilightPoints", "maxStorage", "maxFunctionDefs", "maxInstructionDefs",
                  "maxStackElements", "maxSizeOfInstructions", "maxComponentElements"):  # fmt: skip
        setattr(maxp, field, 0)
    maxp.maxComponentDepth = 0
    font["head"].glyphDataFormat = 0
    font.sfntVersion = "\x00\x01\x00\x00"


def write_static(target: Path, pages, dist: Path | None = None, font: Path | None = None):
    """Temml's stylesheet, its script font and the math font cut to the characters of
    ``pages`` (texts of built pages) into ``target``; the math font's code points."""
    from fontTools import subset
    from fontTools.ttLib import TTFont

    dist = dist or temml_dist()
    font = font or math_font_source()
    target.mkdir(parents=True, exist_ok=True)
    shutil.copy2(dist / STYLESHEET, target / STYLESHEET)
    shutil.copy2(dist / SCRIPT_FONT, target / SCRIPT_FONT)
    wanted = set()
    for page in pages:
        wanted |= math_characters(page)
    options = subset.Options()
    options.layout_features = ["*"]  # ssty (script-size forms), among others
    options.notdef_outline = True
    options.drop_tables += ["FFTM"]  # FontForge's time stamps, which fontTools cannot cut
    math_font = TTFont(font)
    present = set(math_font.getBestCmap())
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(wanted & present))
    subsetter.subset(math_font)
    truetype_outlines(math_font)
    math_font.flavor = "woff2"
    math_font.save(target / MATH_FONT)
    return wanted & present


def keep_punctuation_with_formulas(doctree) -> int:
    """Each inline formula followed by punctuation, wrapped with it in one
    ``span.math-and-punctuation`` (see the docstring); the number wrapped."""
    wrapped = 0
    for formula in list(doctree.findall(nodes.math)):
        parent = formula.parent
        after = formula.next_node(descend=False, siblings=True)
        if parent is None or not isinstance(after, nodes.Text):
            continue
        found = TRAILING_PUNCTUATION.match(after.astext())
        if not found:
            continue
        span = nodes.inline(classes=[WITH_PUNCTUATION])
        parent.replace(formula, span)
        span += [formula, nodes.Text(found.group())]
        rest = after.astext()[found.end() :]
        if rest:
            parent.replace(after, nodes.Text(rest))
        else:
            parent.remove(after)
        wrapped += 1
    return wrapped


def _doctree_resolved(app, doctree, docname) -> None:
    keep_punctuation_with_formulas(doctree)


def start_server() -> None:
    """The tool's node server, on a loopback port, unless one runs (see the docstring)."""
    server = katex_ext.KaTeXServer
    if server.katex_server is None:
        rundir = Path(tempfile.mkdtemp(prefix="math-book-"))
        process, sock = server.start_network_socket(rundir, TIMEOUT_S)
        server.katex_server = server(rundir, process, sock)


def stop_server() -> None:
    """Stop the node server, if one runs."""
    server = katex_ext.KaTeXServer
    if server.katex_server is not None:
        server.katex_server.terminate()
        server.katex_server = None


def _typeset(visit):
    """The tool's writer for a formula, a conversion error raised with the formula's place."""

    def visit_with_location(self, node):
        start_server()
        try:
            visit(self, node)
        except katex_ext.KaTeXError as error:
            where = get_node_location(node) or self.builder.current_docname
            raise FormulaError(f"{where}: {error}") from None

    return visit_with_location


def _configure(app, config) -> None:
    temml_dist()  # fail at the start of the build, not at the first formula
    math_font_source()
    config.katex_prerender = True
    config.katex_js_path = str(SERVER_MODULE)
    config.katex_css_path = f"{STATIC}/{STYLESHEET}"
    # The tool's renderer reads its options from here for every formula (see the docstring).
    katex_ext.KATEX_DEFAULT_OPTIONS = temml_options(config.math_macros)
    # Its node server gets 5 s to start and 5 s a formula: on a busy machine (two cores, a
    # test suite beside the build) node alone can take longer to start.
    katex_ext.STARTUP_TIMEOUT = katex_ext.RENDER_TIMEOUT = TIMEOUT_S


def _finish(app, exception) -> None:
    stop_server()
    if exception is None and app.builder.format == "html":
        site = Path(app.outdir)
        # Every page of the site, the ones this build did not rewrite among them.
        pages = (p.read_text(encoding="utf-8", errors="replace") for p in site.rglob("*.html"))
        write_static(site / "_static" / STATIC, pages)


def setup(app):
    app.setup_extension("sphinxcontrib.katex")
    app.add_config_value("math_macros", {}, "html", dict)
    app.add_html_math_renderer(
        "math_book",
        inline_renderers=(_typeset(katex_ext.html_visit_math), None),
        block_renderers=(_typeset(katex_ext.html_visit_displaymath), None),
    )
    app.connect("config-inited", _configure)
    app.connect("doctree-resolved", _doctree_resolved)
    app.connect("build-finished", _finish)
    return {"parallel_read_safe": True, "parallel_write_safe": False}
