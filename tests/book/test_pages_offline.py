"""Pages that ask no other site for anything and ship their formulas typeset (issue 40),
describe themselves, and are light on a phone (issue 25, items 2 and 3).

The fast tests check the Sphinx extensions behind this (``_ext/page_head.py``,
``_ext/page_images.py``, ``_ext/page_code.py``, ``_ext/page_math.py``,
``_ext/page_icons.py``) on small inputs; the
``book`` ones check every page of the built book.
The browser tests (``test_browser.py``) check the same pages' requests and console live.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
from html.parser import HTMLParser
from pathlib import Path

import pytest
from chapter_runner import ROOT, toc_files

sys.path.insert(0, str(ROOT / "_ext"))
import page_code
import page_head
import page_icons
import page_images
import page_math

#: What myst-nb loads for saved widget state (issue 25: two CDNs, for no widget on the page).
WIDGET_CDN = ("require.js", "html-manager", "widget-state+json")


class _Head(HTMLParser):
    """The page's scripts, styles, icons, description and content images, as attributes."""

    def __init__(self):
        super().__init__()
        self.scripts: list[dict] = []
        self.links: list[dict] = []
        self.meta: dict[str, str] = {}
        self.images: list[dict] = []
        self._in_main = 0

    def handle_starttag(self, tag, attrs):
        attrs = {k: (v if v is not None else "") for k, v in attrs}
        if tag == "script":
            self.scripts.append(attrs)
        elif tag == "link":
            self.links.append(attrs)
        elif tag == "meta" and "name" in attrs:
            self.meta[attrs["name"]] = attrs.get("content", "")
        elif tag == "main":
            self._in_main += 1
        elif tag == "img" and self._in_main:
            self.images.append(attrs)

    def handle_endtag(self, tag):
        if tag == "main":
            self._in_main -= 1


def _parse(page: Path) -> _Head:
    head = _Head()
    head.feed(page.read_text(encoding="utf-8"))
    return head


def _pages(built_html: Path) -> list[Path]:
    """Every page of the build (not a redirect such as the top index.html)."""
    return [
        p
        for p in sorted(built_html.rglob("*.html"))
        if "_static" not in p.parts and 'http-equiv="Refresh"' not in p.read_text()[:1000]
    ]


def _outside(url: str) -> bool:
    return url.startswith(("http://", "https://", "//"))


# --- the extensions on small inputs ------------------------------------------------------


PNG_3x2 = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000003000000020806000000"
    "b9eade810000000d49444154789c63f8ffff3f0300050001fe0a0d2a8b0000000049454e44ae426082"
)


def test_images_get_their_size_and_all_but_the_first_load_lazily(tmp_path):
    (tmp_path / "a.png").write_bytes(PNG_3x2)
    (tmp_path / "b.svg").write_text('<svg xmlns="x" width="432pt" height="216pt"></svg>')
    (tmp_path / "c.svg").write_text('<svg xmlns="x" viewBox="0 0 32 16"></svg>')
    (tmp_path / "_images").mkdir()
    for name in ("a.png", "b.svg", "c.svg"):
        (tmp_path / "_images" / name).write_bytes((tmp_path / name).read_bytes())
    (tmp_path / "_static").mkdir()
    (tmp_path / "_static" / "icon.svg").write_text('<svg xmlns="x" viewBox="0 0 44 44"></svg>')
    page = (
        '<img alt="icon" src="_static/icon.svg" />'
        '<img alt="first" src="_images/a.png" />'
        '<img alt="second" src="_images/b.svg">'
        '<img alt="third" src="_images/c.svg" width="10" />'
        '<img alt="remote" src="https://example.org/x.png" />'
    )
    out = page_images.sized_and_lazy(page, tmp_path)
    icon, *tags = re.findall(r"<img[^>]*>", out)
    assert 'width="44" height="44"' in icon and "lazy" not in icon
    assert 'width="3" height="2"' in tags[0] and "lazy" not in tags[0]
    assert 'width="576" height="288"' in tags[1] and 'loading="lazy"' in tags[1]
    assert 'width="10"' in tags[2] and "height" not in tags[2]  # a set size is left alone
    assert 'loading="lazy"' in tags[2]
    assert tags[3] == '<img alt="remote" src="https://example.org/x.png" />'
    assert tags[0].endswith("/>") and tags[1].endswith('async">')


PYGMENTS_CSS = """
html[data-theme="light"] .highlight .n { color: #080808 }
html[data-theme="light"] .highlight .k { color: #8045E5; font-weight: bold }
html[data-theme="light"] .highlight .p { color: #080808 }
html[data-theme="light"] .highlight .o { color: #00622F }
html[data-theme="light"] .highlight { background: #fefefe; color: #080808 }
html[data-theme="dark"] .highlight .n { color: #F8F8F2 }
html[data-theme="dark"] .highlight .k { color: #F8F8F2 }
html[data-theme="dark"] .highlight .p { color: #F8F8F2 }
html[data-theme="dark"] .highlight .o { color: #F8F8F2 }
html[data-theme="dark"] .highlight { background: #2b2b2b; color: #F8F8F2 }
"""


def test_code_blocks_lose_only_the_spans_painted_in_the_blocks_own_colour():
    """A token class is unwrapped only when every theme paints it in the block's colour and
    nothing else (``k`` is bold in light, ``o`` green in light); the text stays the same."""
    plain = page_code.plain_tokens(PYGMENTS_CSS)
    assert plain == {"n", "p"}
    code = (
        '<div class="highlight"><pre><span></span><span class="k">if</span> '
        '<span class="n">x</span><span class="p">[</span><span class="mi">0</span>'
        '<span class="p">]</span> <span class="o">&gt;</span> <span class="n">y</span>'
        "</pre></div>"
    )
    page = f'<p><span class="n">prose</span></p>{code}<span></span>'
    out = page_code.lean_code(page, plain)
    assert out == (
        '<p><span class="n">prose</span></p><div class="highlight"><pre>'
        '<span class="k">if</span> x[<span class="mi">0</span>] '
        '<span class="o">&gt;</span> y</pre></div><span></span>'
    )
    assert page_code.lean_code(page, set()) == page


def test_icon_script_is_dropped_and_its_font_kept():
    """``fontawesome.js`` goes; the stylesheet that declares the icon font stays."""
    head = (
        '<link href="../_static/styles/pydata-sphinx-theme.css?digest=1" rel="stylesheet" />\n'
        '<script defer src="../_static/scripts/fontawesome.js?digest=1"></script>\n'
        '<script defer src="../_static/scripts/bootstrap.js?digest=1"></script>\n'
    )
    out = page_head.drop_icon_script(head)
    assert "fontawesome.js" not in out
    assert "pydata-sphinx-theme.css" in out and "bootstrap.js" in out


def _theme_site(tmp_path: Path, pages: dict[str, str]) -> Path:
    """A site holding the theme's own stylesheet and icon fonts, and the given pages."""
    import shutil

    import pydata_sphinx_theme

    static = Path(pydata_sphinx_theme.__file__).parent / "theme" / "pydata_sphinx_theme" / "static"
    site = tmp_path / "site"
    for part in (page_icons.WEBFONTS, page_icons.STYLESHEET):
        target = site / part
        target.parent.mkdir(parents=True, exist_ok=True)
        source = static / part.relative_to("_static")
        (shutil.copytree if source.is_dir() else shutil.copy2)(source, target)
    for name, body in pages.items():
        (site / name).write_text(body, encoding="utf-8")
    return site


def _glyphs(font_path: Path) -> set[int]:
    from fontTools.ttLib import TTFont

    return set(TTFont(font_path).getBestCmap())


def test_icon_fonts_keep_the_glyphs_the_pages_name_and_no_other(tmp_path):
    """The theme's Font Awesome fonts (274 kB as WOFF2) are cut to the icons in the pages'
    class attributes and the site's scripts; a word such as "fa-sun" in prose keeps nothing."""
    site = _theme_site(
        tmp_path,
        {
            "a.html": '<i class="fa-solid fa-sun fa-lg"></i><a class="fa-brands fa-github"></a>'
            "<p>The class fa-rocket in prose is not an icon.</p>",
            "b.html": '<span class="fa-solid fa-magnifying-glass"></span>',
        },
    )
    (site / "_static" / "extra.js").write_text('el.className = "fa-solid fa-moon";')
    css = (site / page_icons.STYLESHEET).read_text()
    codes = page_icons.icon_codepoints(css)
    assert codes["sun"] == 0xF185 and codes["magnifying-glass"] == codes["search"]
    fonts = site / page_icons.WEBFONTS
    before = {p.name: (p.stat().st_size, _glyphs(p)) for p in fonts.iterdir()}
    sizes = page_icons.subset_fonts(site)
    assert set(sizes) == set(before) and all(new < old for old, new in sizes.values())
    solid, brands = _glyphs(fonts / "fa-solid-900.woff2"), _glyphs(fonts / "fa-brands-400.woff2")
    wanted = {codes[n] for n in ("sun", "magnifying-glass", "moon")}
    assert wanted <= solid and codes["rocket"] not in solid
    assert codes["github"] in brands and len(brands) < 5
    assert solid == _glyphs(fonts / "fa-solid-900.ttf")
    assert sizes["fa-solid-900.woff2"][1] < 10_000, sizes


def test_an_icon_the_theme_does_not_draw_stops_the_build(tmp_path):
    site = _theme_site(tmp_path, {"a.html": '<i class="fa-solid fa-no-such-icon"></i>'})
    with pytest.raises(page_icons.IconError, match="no-such-icon"):
        page_icons.subset_fonts(site)


def test_search_scripts_are_deferred_or_dropped():
    head = (
        '<script src="../_static/searchtools.js"></script>\n'
        '<script src="../_static/language_data.js"></script>\n'
        '<script src="../searchindex.js"></script>\n'
        '<script src="../_static/doctools.js"></script>\n'
    )
    deferred = page_head.defer_search_scripts(head)
    assert deferred.count("<script defer src=") == 3 and "doctools.js" in deferred
    assert page_head.defer_search_scripts(head, drop=True) == (
        '<script src="../_static/doctools.js"></script>\n'
    )


def test_description_is_front_matter_else_first_prose_paragraph():
    from docutils.core import publish_doctree

    doctree = publish_doctree(
        ".. note:: An aside that is not the opening.\n\n"
        "Short.\n\n"
        + "The opening paragraph of the page says what the page is about, at length. "
        * 4
    )
    text = page_head.page_description(doctree, {})
    assert text.startswith("The opening paragraph of the page says")
    assert len(text) <= page_head.DESCRIPTION_LENGTH and text.endswith("…")
    assert page_head.page_description(doctree, {"description": "Given."}) == "Given."


def test_temml_is_pinned_and_the_site_gets_its_stylesheet_and_fonts(tmp_path):
    """_ext/npm pins one exact Temml, the lock file and the installed copy are that version,
    and the site gets its stylesheet with every font file it names: Temml's script capitals
    and Latin Modern Math cut to the characters the pages' formulas draw (a one-letter <mi>
    as its math italic letter) and little else."""
    npm = ROOT / "_ext" / "npm"
    wanted = json.loads((npm / "package.json").read_text())["dependencies"]["temml"]
    assert re.fullmatch(r"\d+\.\d+\.\d+", wanted), wanted
    lock = json.loads((npm / "package-lock.json").read_text())
    assert lock["packages"]["node_modules/temml"]["version"] == wanted
    installed = json.loads((page_math.temml_dist().parent / "package.json").read_text())
    assert installed["version"] == wanted, "run `npm ci` in _ext/npm"
    assert "_ext/npm/node_modules/" in (ROOT / ".gitignore").read_text()

    page = (
        "<p>x<math><msub><mi>ℱ</mi><mn>1</mn></msub><mo>&#x2264;</mo>"
        '<mi mathvariant="normal">Δ</mi><mi>y</mi><mi>n</mi></math></p>'
    )
    kept = page_math.write_static(tmp_path, [page, "<p>no formula: Ж</p>"])
    css = (tmp_path / page_math.STYLESHEET).read_text()
    fonts = set(re.findall(r"url\('?(?:\./)?([^)']+\.woff2)'?\)", css))
    assert fonts == {page_math.SCRIPT_FONT, page_math.MATH_FONT}, fonts
    assert all((tmp_path / name).is_file() for name in fonts)
    held = _glyphs(tmp_path / page_math.MATH_FONT)
    wanted = {ord(c) for c in "ℱ1≤Δyn𝑦𝑛"}
    assert kept == wanted and wanted <= held
    # TrueType outlines, which Chromium's PDF embeds as a font (a CFF one as Type 3 drawings).
    from fontTools.ttLib import TTFont

    font = TTFont(tmp_path / page_math.MATH_FONT)
    assert "glyf" in font and "CFF " not in font and font["MATH"].table.MathVariants
    assert not {ord(c) for c in "Жx𝑥𝛥"} & held, "a character no formula draws"
    # Besides: the spaces, and what the font's own substitutions reach (≥ from ≤, mirrored).
    assert len(held - wanted) <= 4, sorted(map(chr, held - wanted))
    assert (tmp_path / page_math.MATH_FONT).stat().st_size < 10_000


def test_the_math_font_keeps_its_size_variants_for_stretched_brackets(tmp_path):
    """A bracket around a tall formula is drawn from the font's larger variants or its glyph
    assembly (the MATH table): the cut font keeps those for the brackets it keeps."""
    from fontTools.ttLib import TTFont

    page_math.write_static(tmp_path, ["<math><mo>(</mo><mo>)</mo><mo>√</mo></math>"])
    font = TTFont(tmp_path / page_math.MATH_FONT)
    variants = font["MATH"].table.MathVariants
    names = dict(
        zip(variants.VertGlyphCoverage.glyphs, variants.VertGlyphConstruction, strict=True)
    )
    paren = font.getBestCmap()[ord("(")]
    assert paren in names, sorted(names)
    sizes = [v.VariantGlyph for v in names[paren].MathGlyphVariantRecord]
    assert len(sizes) >= 4, sizes
    assert all(name in font.getGlyphOrder() for name in sizes)
    assert names[paren].GlyphAssembly is not None


def test_an_inline_formula_keeps_the_punctuation_after_it():
    """A formula's trailing full stop, comma or bracket goes into one span with it (the
    browser may break a line before punctuation after an inline box); a space or a word after
    a formula, and a display formula, are left alone."""
    from docutils import nodes

    paragraph = nodes.paragraph(
        "",
        "",
        nodes.Text("Let "),
        nodes.math("", "x"),
        nodes.Text("), then "),
        nodes.math("", "y"),
        nodes.Text(" and "),
        nodes.math("", "z"),
        nodes.Text("."),
    )
    block = nodes.math_block("", "a = b")
    tree = nodes.section("", paragraph, block, nodes.paragraph("", "", nodes.math("", "w")))
    assert page_math.keep_punctuation_with_formulas(tree) == 2
    spans = list(tree.findall(nodes.inline))
    assert [span.astext() for span in spans] == ["x),", "z."], [s.astext() for s in spans]
    assert all(span["classes"] == [page_math.WITH_PUNCTUATION] for span in spans)
    assert paragraph.astext() == "Let x), then y and z."
    assert isinstance(spans[0][0], nodes.math) and spans[0][1].astext() == "),"
    assert paragraph[2].astext() == " then "


def test_math_characters_are_what_the_formulas_draw():
    """The characters of ``<math>`` elements, entities decoded, and the math italic letter of
    each one-letter ``<mi>`` without a ``mathvariant``; the page's prose is not read."""
    page = (
        "<p>prose ю</p><math display='block'><mi>𝔽</mi><mo>&lt;</mo><mtext>if x</mtext>"
        '<mi>h</mi><mi class="x">&#x3B1;</mi><mi>ab</mi><mi mathvariant="normal">c</mi></math>'
    )
    drawn = {ord(c) for c in "𝔽<if xhαabc"} | {0x210E, 0x1D6FC}
    assert page_math.math_characters(page) == drawn
    assert page_math.math_italic("A") == 0x1D434 and page_math.math_italic("ω") == 0x1D714
    assert page_math.math_italic("∂") == 0x1D715 and page_math.math_italic("1") is None


#: A page with the book's macro, a numbered equation, a reference to it and an aligned display
#: (the book's form of a multi-line formula); then a formula Temml cannot parse is added.
FORMULA_PAGE = """# A page

The macro $\\F_1$ is the book's, and $x$. ends a sentence.

$$ a = b $$ (eq-one)

See {eq}`eq-one`.

$$
\\begin{aligned}
x &= 1 \\\\
y &= 2
\\end{aligned}
$$
"""
BAD_FORMULA = "\nA formula Temml cannot parse: $\\notacommand{x}$.\n"


# Two Sphinx builds (seconds): with the book's tier, not in `make check`.
@pytest.mark.book
def test_formulas_are_typeset_with_the_books_macros_and_a_bad_one_fails_the_build(tmp_path):
    """The book's renderer (sphinxcontrib-katex's writers with Temml, the book's options)
    writes MathML with the book's macro, numbers equations and links references to them, with
    no math script. A formula Temml cannot parse stops the build, and the message names the
    page's file, the formula's line and Temml's reason (the tool alone would draw it as red
    TeX and build on)."""
    page = tmp_path / "index.md"
    page.write_text(FORMULA_PAGE)
    (tmp_path / "conf.py").write_text(
        textwrap.dedent(
            f"""
            import sys
            sys.path.insert(0, {str(ROOT / "_ext")!r})
            extensions = ["myst_parser", "page_math"]
            myst_enable_extensions = ["dollarmath"]
            html_math_renderer = "math_book"
            math_macros = {{"\\\\F": "\\\\mathcal{{F}}"}}
            """
        )
    )
    sphinx_build = Path(sys.executable).parent / "sphinx-build"
    command = [str(sphinx_build), "-q", "-W", "-b", "html", str(tmp_path), str(tmp_path / "out")]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    html = (tmp_path / "out" / "index.html").read_text()
    assert html.count("<math") == 4, "four formulas, each typeset"
    assert re.search(
        r'<span class="math-and-punctuation"><span class="math"><math>.*?</math>'
        r"</span>\.</span> ends",
        html,
    ), "a formula and its full stop in one span"
    assert '<mi class="mathcal">ℱ</mi>' in html, "the book's macro \\F, as its letter"
    assert html.count('<span class="eqno">') == 1, "(1), the labelled equation's number"
    assert '<a class="reference internal" href="#equation-eq-one">(1)</a>' in html
    assert "<mtable" in html and "temml.cjs" not in html and "math/Temml-Latin-Modern.css" in html
    font = tmp_path / "out" / "_static" / page_math.STATIC / page_math.MATH_FONT
    assert ord("ℱ") in _glyphs(font) and ord("=") in _glyphs(font)

    page.write_text(FORMULA_PAGE + BAD_FORMULA)
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode != 0, done.stderr
    assert "Temml cannot typeset a formula" in done.stderr, done.stderr
    line = (FORMULA_PAGE + BAD_FORMULA).splitlines().index(BAD_FORMULA.strip()) + 1
    assert f"{page}:{line}:" in done.stderr, done.stderr
    assert "Unsupported function name: \\notacommand" in done.stderr, done.stderr


def test_chapters_that_query_duckdb_turn_its_progress_bar_off():
    """In Jupyter DuckDB draws a query that runs over 2 s as an ipywidgets progress bar, and
    a page with a widget view carries its state and the CDN loaders (chapter 17 did on a
    loaded machine). Every chapter that queries DuckDB turns the bar off before its first
    query."""
    setting = 'duckdb.execute("SET enable_progress_bar = false")'
    chapters = [src for src in toc_files() if "import duckdb" in src.read_text()]
    assert chapters, "chapter 17 queries DuckDB"
    for src in chapters:
        text = src.read_text()
        first = min(
            text.find(call, text.find("import duckdb"))
            for call in ("duckdb.execute(", "duckdb.sql(", "duckdb.query(")
            if call in text
        )
        assert text.find(setting) == first, f"{src.name}: a query before {setting}"


# --- every page of the built book ---------------------------------------------------------


def test_no_page_loads_a_script_or_style_from_another_site(built_html):
    """No ``<script src>`` or ``<link href>`` leaves the site, MathJax's included, and no page
    carries ipywidgets state or its CDN loaders (require.js, the HTML manager)."""
    problems = []
    for page in _pages(built_html):
        text = page.read_text(encoding="utf-8")
        head = _parse(page)
        for script in head.scripts:
            src = script.get("src", "")
            if _outside(src):
                problems.append(f"{page.name}: script {src}")
        for link in head.links:
            href = link.get("href", "")
            if _outside(href) and link.get("rel") in ("stylesheet", "preload", "modulepreload"):
                problems.append(f"{page.name}: {link.get('rel')} {href}")
        problems += [f"{page.name}: {needle}" for needle in WIDGET_CDN if needle in text]
    assert not problems, "\n".join(problems[:20])


#: What may hold TeX on a typeset page: code and scripts.
NOT_PROSE = re.compile(r"<(pre|code|script)\b[^>]*>.*?</\1>|<textarea\b.*?</textarea>", re.S)
#: A formula's markup (Sphinx's ``span.math`` and ``div.math``, a cell's LaTeX output too).
MATH = re.compile(r'<(?:span|div) class="(?:[^"]* )?math[" ]')
#: A ``mathvariant`` other than "normal", the only one MathML Core draws: Chromium shows
#: ``mathvariant="double-struck"`` F as a plain F, the same as the script one.
UNDRAWN_VARIANT = re.compile(r'mathvariant="(?!normal")[^"]*"')
#: Characters a formula may hold that draw nothing (function application, invisible times,
#: separator and plus, zero-width space and joiners).
INVISIBLE = frozenset({0x2061, 0x2062, 0x2063, 0x2064, 0x200B, 0x200C, 0x200D, 0xFE0E, 0xFE0F})


def test_every_formula_is_typeset_at_build_time(built_html):
    """Every page's formulas come typeset (MathML, written by the build): no raw TeX
    delimiters left in the prose, every formula a ``<math>`` element whose letters are the
    Unicode characters they draw as (no ``mathvariant`` the browser ignores), no page loads a
    math script, and each page with a formula links Temml's stylesheet from the site's
    ``_static`` (its fonts beside it)."""
    static = built_html / "_static" / page_math.STATIC
    assert (static / page_math.STYLESHEET).is_file()
    assert (static / page_math.MATH_FONT).is_file() and (static / page_math.SCRIPT_FONT).is_file()
    assert not (built_html / "_static" / "mathjax").exists(), "MathJax is still copied"
    assert not (built_html / "_static" / "katex").exists(), "KaTeX is still copied"
    with_math = 0
    for page in _pages(built_html):
        text = page.read_text(encoding="utf-8")
        head = _parse(page)
        scripts = [s.get("src", "") for s in head.scripts]
        assert not [s for s in scripts if re.search("mathjax|katex|temml", s, re.I)], page.name
        assert "MathJax" not in text, f"{page.name}: MathJax is still configured"
        prose = NOT_PROSE.sub("", text)
        raw = [d for d in ("\\(", "\\[", "$$") if d in prose]
        assert not raw, f"{page.name}: raw TeX {raw}: {prose[prose.find(raw[0]) - 80 :][:200]}"
        formulas = len(MATH.findall(text))
        if not formulas:
            continue
        with_math += 1
        typeset = len(re.findall(r"<math\b", text))
        assert typeset == formulas, f"{page.name}: {formulas} formulas, {typeset} typeset"
        assert "temml-error" not in text and "<merror" not in text, page.name
        assert not UNDRAWN_VARIANT.findall(text), f"{page.name}: {UNDRAWN_VARIANT.findall(text)}"
        hrefs = [link.get("href", "") for link in head.links]
        sheets = [href for href in hrefs if page_math.STYLESHEET in href]
        assert len(sheets) == 1, f"{page.name}: {sheets}"
        target = (page.parent / sheets[0].split("?")[0]).resolve()
        assert target == (static / page_math.STYLESHEET).resolve(), sheets
    assert with_math > 15, with_math


def test_the_math_font_holds_every_character_of_the_books_formulas(built_html):
    """Every visible character of every formula of the book is drawn by the site's fonts
    (Latin Modern Math cut to the book, Temml's script capitals), not by whatever math font a
    reader's device has, but \\bar's accent; the cut font stays small."""
    static = built_html / "_static" / page_math.STATIC
    held = _glyphs(static / page_math.MATH_FONT) | _glyphs(static / page_math.SCRIPT_FONT)
    allowed = held | INVISIBLE | {ord(c) for c in page_math.FROM_THE_TEXT_FONT}
    missing = {
        f"{page.name}: {chr(c)} U+{c:04X}"
        for page in _pages(built_html)
        for c in page_math.math_characters(page.read_text(encoding="utf-8"))
        if c not in allowed
    }
    assert not missing, sorted(missing)[:20]
    assert (static / page_math.MATH_FONT).stat().st_size < 100_000  # a quarter of the whole font


def test_the_icon_fonts_hold_every_icon_of_the_book_and_little_else(built_html):
    """Each page's icons are in the site's cut-down Font Awesome fonts, which stay small."""
    css = (built_html / page_icons.STYLESHEET).read_text(encoding="utf-8")
    codes = page_icons.icon_codepoints(css)
    fonts = sorted((built_html / page_icons.WEBFONTS).glob("*.woff2"))
    held = set().union(*(_glyphs(font) for font in fonts))
    missing = {
        f"{page.name}: fa-{name}"
        for page in _pages(built_html)
        for name in page_icons.icons_of_page(page.read_text(encoding="utf-8"))
        if codes[name] not in held
    }
    assert not missing, sorted(missing)[:20]
    sizes = {font.name: font.stat().st_size for font in fonts}
    assert all(size < 10_000 for size in sizes.values()), sizes


def test_thebe_configuration_is_declared_once(built_html):
    """sphinx-thebe's inline ``const THEBE_JS_URL`` appears once per page (twice is a
    SyntaxError in every browser)."""
    for page in _pages(built_html):
        count = page.read_text(encoding="utf-8").count("const THEBE_JS_URL")
        assert count <= 1, f"{page.name}: declared {count} times"
    assert "const THEBE_JS_URL" in (built_html / "chapters" / "intro.html").read_text()


def test_every_page_has_a_description_and_a_favicon(built_html):
    """A meta description of prose (not markup), at most 160 characters, and an icon that
    exists in the build."""
    descriptions = {}
    for page in _pages(built_html):
        head = _parse(page)
        text = head.meta.get("description", "")
        assert 50 <= len(text) <= page_head.DESCRIPTION_LENGTH, f"{page.name}: {text!r}"
        assert not re.search(r"[<>{}\\]|\$", text), f"{page.name}: markup in {text!r}"
        descriptions[page.relative_to(built_html).as_posix()] = text
        icons = [link for link in head.links if "icon" in link.get("rel", "").split()]
        assert icons, f"{page.name}: no favicon"
        icon = (page.parent / icons[0]["href"].split("?")[0]).resolve()
        assert icon.is_file() and icon.stat().st_size < 5_000, f"{page.name}: {icon}"
    chapter = descriptions["chapters/01-confusion-matrix.html"]
    assert chapter != descriptions["chapters/intro.html"], "each chapter describes itself"


def test_images_are_sized_and_load_lazily_below_the_first(built_html):
    """Every image has width and height; the first figure of a page loads at once, the
    others lazily."""
    counted = 0
    for src in toc_files():
        page = built_html / src.relative_to(ROOT).with_suffix(".html")
        images = _parse(page).images
        for img in images:
            assert img.get("width") and img.get("height"), f"{page.name}: {img.get('src')}"
        figures = [img for img in images if "_images/" in img.get("src", "")]
        for k, img in enumerate(figures):
            lazy = img.get("loading") == "lazy"
            assert lazy == (k > 0), f"{page.name}: image {k} loading={img.get('loading')}"
            counted += 1
    assert counted > 40, "the book's figures should have been checked"


def test_no_page_blocks_on_a_script_it_does_not_use(built_html):
    """The explorers' and self-checks' files and the formulas' stylesheet are only on the
    pages that use them, sphinxcontrib-katex's own stylesheet (for KaTeX's HTML) on none and
    not in the site, the theme's icon script on none, the search scripts and the book's index
    on the search page alone (the theme's search-as-you-type box, the one other reader of the
    index, is off), and no script blocks parsing but ``documentation_options.js`` (the head's
    inline scripts use it at once; the search page needs its index at once)."""
    assert not [n for n in page_head.UNUSED_STYLES if (built_html / "_static" / n).exists()]
    seen_with, seen_without = 0, 0
    for page in _pages(built_html):
        text = page.read_text(encoding="utf-8")
        body = text.split("<body", 1)[-1]
        head = _parse(page)
        loaded = {
            (tag.get("src") or tag.get("href") or "").rsplit("/", 1)[-1].split("?")[0]
            for tag in head.scripts + head.links
        }
        for name, marker in page_head.PAGE_ASSETS.items():
            assert (name in loaded) == (marker in body), f"{page.name}: {name}"
        assert not page_head.UNUSED_STYLES & loaded, f"{page.name}: {loaded}"
        # the theme's stylesheet draws the icons with its font; the SVG script is not needed
        assert "fontawesome.js" not in loaded, f"{page.name}: fontawesome.js"
        blocking = {
            script["src"].rsplit("/", 1)[-1].split("?")[0]
            for script in head.scripts
            if script.get("src") and not {"defer", "async"} & set(script)
        }
        searching = {Path(name).name for name in page_head.SEARCH_SCRIPTS} & loaded
        if page.name == "search.html":  # it searches at once, so it loads its tools at once
            assert searching == {"searchtools.js", "language_data.js", "searchindex.js"}
            continue
        assert not searching, f"{page.name}: {searching}"
        assert blocking <= page_head.BLOCKING, f"{page.name}: blocking scripts {blocking}"
        if "clf-page-explorer" in body:
            seen_with += 1
        else:
            seen_without += 1
    assert seen_with >= 7 and seen_without > 10


def test_code_blocks_carry_no_span_that_paints_nothing(built_html):
    """No code block keeps a name, punctuation or whitespace span (the theme paints them in
    the block's own colour, so they only cost a phone layout time), and the chapters' code
    cells stay small: at most 1,500 elements of code input on any page (chapter 14 had 3,005)."""
    plain = page_code.plain_tokens((built_html / "_static" / "pygments.css").read_text())
    assert {"n", "p", "w"} <= plain, f"the theme colours names or punctuation: {plain}"
    leftover = re.compile(r'<span class="(?:n|p|w)">|^<span></span>')
    for page in _pages(built_html):
        for block in page_code.BLOCK.finditer(page.read_text(encoding="utf-8")):
            found = leftover.search(block.group(2))
            assert not found, f"{page.name}: {found.group(0)} in {block.group(2)[:80]!r}"
    chapter = (built_html / "chapters" / "14-scores-and-thresholds.html").read_text()
    inputs = re.findall(r'<div class="cell_input.*?</pre>', chapter, re.DOTALL)
    assert len(inputs) > 20 and 'class="k"' in chapter, "the code cells are still highlighted"
    for src in toc_files():
        page = built_html / src.relative_to(ROOT).with_suffix(".html")
        blocks = re.findall(r'<div class="cell_input.*?</pre>', page.read_text(), re.DOTALL)
        elements = sum(block.count("<") - block.count("</") for block in blocks)
        assert elements <= 1_500, f"{page.name}: {elements} elements in code cells"


# --- the Lighthouse bench's own parts (the audit itself runs in `make bench` only) ---------


def test_lighthouse_is_pinned_for_the_bench():
    """benchmarks/package.json pins one exact Lighthouse that runs on Debian's Node, and the
    lock file holds that version (``npm ci`` installs exactly it)."""
    import json

    bench = ROOT / "benchmarks"
    wanted = json.loads((bench / "package.json").read_text())["dependencies"]["lighthouse"]
    assert re.fullmatch(r"\d+\.\d+\.\d+", wanted), wanted
    lock = json.loads((bench / "package-lock.json").read_text())
    assert lock["packages"]["node_modules/lighthouse"]["version"] == wanted
    assert "benchmarks/node_modules/" in (ROOT / ".gitignore").read_text()


def test_bench_server_gzips_text(tmp_path):
    """The bench's loopback server compresses HTML as a real host does and serves the
    page unchanged."""
    import gzip
    import urllib.request

    sys.path.insert(0, str(ROOT / "benchmarks"))
    from gzip_server import serve_gzipped

    page = '<link rel="stylesheet" href="_static/math/Temml-Latin-Modern.css">' + "x" * 2000
    (tmp_path / "index.html").write_text(page)
    base, server = serve_gzipped(tmp_path)
    try:
        request = urllib.request.Request(f"{base}/", headers={"Accept-Encoding": "gzip"})
        with urllib.request.urlopen(request) as response:
            assert response.headers["Content-Encoding"] == "gzip"
            raw = response.read()
        assert len(raw) < 500
        assert gzip.decompress(raw).decode() == page
    finally:
        server.shutdown()
