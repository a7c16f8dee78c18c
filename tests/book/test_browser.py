"""The rendered book in a real browser: Debian's Chromium driven by Playwright.

The built HTML is served by ``http.server`` on 127.0.0.1, and every non-local request is
aborted and recorded: a page may ask no other site for anything, the math stylesheet and fonts
included (issues 25 and 40: the site serves its own), and every local request must succeed. With
``SCREENSHOTS=1`` in the environment (``SCREENSHOTS=1 make test``), a full-page screenshot of
every page goes to ``_build/screenshots/`` for a person to look through; they are off by
default because no test reads them and a long chapter's screenshot costs several times its
page load.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest
import yaml
from chapter_runner import CODE_LINE_LIMIT, ROOT, is_notebook, toc_files
from local_server import not_local, serve
from selfcheck_site import specs as selfcheck_specs

sys.path.insert(0, str(ROOT / "_ext"))
import page_math

SCREENSHOTS = ROOT / "_build" / "screenshots"
TAKE_SCREENSHOTS = os.environ.get("SCREENSHOTS", "") not in ("", "0")
#: The API reference's module pages all come from one autodoc template: the browser visits the
#: reference's index, one module page and the command line's (sphinx-argparse's output), and
#: every other page of the toc (less loading and axe; ``test_book.py`` still checks every
#: built page's HTML).
API_SAMPLE = {
    "chapters/api/index.html",
    "chapters/api/inference.html",
    "chapters/api/cli.html",
}
PAGES = [
    path
    for path in (p.relative_to(ROOT).with_suffix(".html").as_posix() for p in toc_files())
    if not path.startswith("chapters/api/") or path in API_SAMPLE
]
PAGE_TIMEOUT_MS = 120_000
#: The shortest chapter with code cells: the code line widths and the code token colours are
#: checked on it.
CODE_PAGE = "chapters/13-choosing-a-metric.html"
MATH_PAGES = {"chapters/notation.html", "chapters/01-confusion-matrix.html"}
LOAD_ALL_IMAGES = """async () => {
    const images = [...document.querySelectorAll('img[loading="lazy"]')];
    images.forEach(img => { img.loading = 'eager'; });
    await Promise.all(images.map(img => img.complete ? null
        : new Promise(done => { img.addEventListener('load', done);
                                img.addEventListener('error', done); })));
}"""
#: The math fonts of the site's stylesheet (Latin Modern Math, Temml's script capitals) and
#: whether each has loaded, once every font the page asked for has come (or failed).
MATH_FONTS = """async () => {
    await document.fonts.ready;
    return [...document.fonts].map(f => [f.family.replace(/"/g, ''), f.status])
        .filter(([family]) => ['Latin Modern Math', 'Temml'].includes(family))
        .map(([family, status]) => `${family} ${status}`);
}"""


#: Which DOM nodes each serious or critical violation is on, and whether the node is inside a
#: quick self-check's form (the self-check test reports those, the page's axe test all).
#:
#: Every rule runs over the whole document, with two savings in colour contrast, the costliest rule.
#: Inside a formula (``<math>``) it skips the glyphs: a formula's dozens of MathML elements all take
#: the colour of the text around them (their contrast is that text's, and
#: ``test_formulas_take_the_colour_of_their_text`` checks it in light and dark mode); skipping them
#: (``:not(math *)``) spares colour contrast a per-element test of thousands of elements a chapter.
#: The other rules still see every formula. And a chapter's code cells hold thousands of token spans
#: (60-70 % of its elements) in a few dozen looks. A token span whose look (its colour, size,
#: weight, shadow, opacity and background, and the backgrounds, opacities and filters of every
#: ancestor of its code block) repeats that of a visible span checked before it is marked, and
#: colour contrast skips marked elements; the first visible span of each look, on this page, in its
#: own code block, is checked as before. Spans with the same look have the same contrast, so a poor
#: token colour still fails where it appears (test_code_token_colours_have_enough_contrast checks
#: every token class of the style, in light and dark mode, whether a page uses it or not). The
#: tables that code prints are the same case: hundreds of cells in a few looks. A cell of a table in
#: a cell's output that holds only text (no element inside) and whose look (its colour, size,
#: weight, shadow and alignment, and the backgrounds, opacities and filters of the cell and every
#: ancestor) repeats that of a visible cell checked before is marked too; a cell with elements
#: inside, and every element in a cell, is checked as before. This takes a large share of the axe
#: run off a chapter with many tables.
AXE_PROBLEMS = """async () => {
    document.querySelectorAll('[data-axe-same-look]')
        .forEach(e => e.removeAttribute('data-axe-same-look'));
    const ground = element => {
        const parts = [];
        for (let e = element; e; e = e.parentElement) {
            const s = getComputedStyle(e);
            parts.push(s.backgroundColor, s.backgroundImage, s.opacity, s.filter,
                       s.mixBlendMode);
        }
        return parts.join('|');
    };
    const seen = new Set();
    for (const pre of document.querySelectorAll('.highlight pre')) {
        if (!pre.checkVisibility({opacityProperty: true, visibilityProperty: true})) continue;
        const below = ground(pre);
        for (const span of pre.children) {
            if (!span.checkVisibility({opacityProperty: true, visibilityProperty: true}))
                continue;
            const s = getComputedStyle(span);
            const look = [below, s.color, s.fontSize, s.fontWeight, s.textShadow, s.opacity,
                          s.backgroundColor, s.backgroundImage, s.filter].join('|');
            if (seen.has(look)) span.setAttribute('data-axe-same-look', '');
            else seen.add(look);
        }
    }
    const cells = document.querySelectorAll('.cell_output table td, .cell_output table th');
    for (const cell of cells) {
        if (cell.children.length
            || !cell.checkVisibility({opacityProperty: true, visibilityProperty: true}))
            continue;
        const s = getComputedStyle(cell);
        const look = ['cell', ground(cell), s.color, s.fontSize, s.fontWeight, s.textShadow,
                      s.textAlign].join('|');
        if (seen.has(look)) cell.setAttribute('data-axe-same-look', '');
        else seen.add(look);
    }
    axe.configure({rules: [{id: 'color-contrast',
                            selector: ':not([data-axe-same-look]):not(math *)'}]});
    const result = await axe.run(document, {resultTypes: ['violations']});
    return result.violations
        .filter(v => ['serious', 'critical'].includes(v.impact))
        .flatMap(v => v.nodes.map(n => ({
            rule: v.id, impact: v.impact, target: n.target,
            in_form: n.target.length === 1 && Boolean(
                document.querySelector(n.target[0])?.closest('form.clf-selfcheck')),
        })));
}"""


def _axe_js() -> str:
    import axe_playwright_python

    return (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text()


@pytest.fixture(scope="session")
def site(built_html):
    """Serve the built book on a free loopback port for the whole run."""
    base, server = serve(built_html)
    yield base
    server.shutdown()


class PageVisit:
    """One page load with its console errors, failed local requests and the live page."""

    def __init__(self, browser, base: str, path: str, context=None):
        """Load ``path`` in a context of its own, or in ``context`` (left open by ``close``)."""
        self.own_context = context is None
        self.context = context or browser.new_context(viewport={"width": 1280, "height": 900})
        self.page = self.context.new_page()
        # A page is soon idle here, but the other xdist worker can starve it of CPU
        # for a while (a JVM starting, a venv installing), so waits get two minutes, not 30 s.
        self.page.set_default_timeout(PAGE_TIMEOUT_MS)
        self.console_errors: list[str] = []
        self.failed_local: list[str] = []
        self.outside: list[str] = []  # requests to other sites
        self.base = base
        self.page.on("console", self._on_console)
        # An uncaught exception (a SyntaxError in an inline script) is not a console message.
        self.page.on("pageerror", self._on_page_error)
        self.page.on("requestfailed", self._on_failed)
        self.page.on("response", self._on_response)
        # Only requests to other hosts go through Python: a local request needs no decision,
        # and routing each one (30-40 per chapter) through the client cost CPU for nothing.
        self.page.route(not_local(base), self._route)
        self.page.goto(f"{base}/{path}", wait_until="load")
        self.page.wait_for_load_state("networkidle")
        self._axe: list[dict] | None = None

    def axe(self) -> list[dict]:
        """The page's serious and critical axe violations, one entry per node.

        axe runs once per page, over the whole document, as the page stands when first asked
        (after the self-checks were graded, when their test ran first): a run costs seconds of
        CPU on a long chapter (colour contrast over thousands of code tokens), so the
        accessibility test and the self-check test share it. ``resultTypes`` keeps every rule
        and every violating node; it only stops axe from describing each of the thousands of
        nodes that pass (a large part of the run, and megabytes sent back to Python). Colour
        contrast checks one code token span per look (``AXE_PROBLEMS``), which cuts the run
        of a long chapter most.
        """
        if self._axe is None:
            self.add_axe()
            self._axe = self.page.evaluate(AXE_PROBLEMS)
        return self._axe

    def add_axe(self) -> None:
        """Put axe-core on the page, once."""
        if not self.page.evaluate("() => Boolean(window.axe)"):
            self.page.add_script_tag(content=_axe_js())

    def changed(self) -> None:
        """A test changed the page: the next ``axe()`` runs axe again."""
        self._axe = None

    def _route(self, route):
        self.outside.append(route.request.url)
        return route.abort()  # the sandbox is offline: no other host is reachable

    def _is_local(self, url: str | None) -> bool:
        return bool(url) and url.startswith(self.base)

    def _on_console(self, msg):
        if msg.type != "error":
            return
        url = (msg.location or {}).get("url", "")
        if "Failed to load resource" in msg.text and not self._is_local(url):
            return  # an aborted external request (fonts, thebe, ...), not a page error
        self.console_errors.append(f"{msg.text} @ {url}")

    def _on_page_error(self, error):
        self.console_errors.append(f"uncaught {error}")

    def _on_failed(self, request):
        if self._is_local(request.url):
            self.failed_local.append(request.url)

    def _on_response(self, response):
        if self._is_local(response.url) and response.status >= 400:
            self.failed_local.append(f"{response.status} {response.url}")

    def close(self):
        if self.own_context:
            self.context.close()
        else:
            self.page.close()


def _page_param(path: str):
    """One page as a test parameter, named by its path."""
    return pytest.param(path, id=path)


PAGE_PARAMS = [_page_param(path) for path in PAGES]
NOTEBOOK_PARAMS = [
    _page_param(src.relative_to(ROOT).with_suffix(".html").as_posix())
    for src in toc_files()
    if is_notebook(src)
]


@pytest.fixture(scope="session")
def page_context(browser):
    """The browser context the book's pages share, as a reader's tabs do: the theme's
    scripts, styles and fonts come from its cache, compiled once (a page loads at a
    fraction of its CPU cost in a context that has loaded a page before). No page test
    writes storage or cookies."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    yield context
    context.close()


@pytest.fixture(scope="session")
def visit(browser, site, page_context):
    """Load a page once (on first use) and keep it open; tests inspect the loaded page.

    Every page of the book is loaded once in the run, in the shared context: the code-line
    width tests resize chapter 13's page.
    """
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    loaded = {}
    context = page_context

    def load(path: str) -> PageVisit:
        if path not in loaded:
            page_visit = PageVisit(browser, site, path, context=context)
            # Figures below the first load lazily (as the reader scrolls); load them all now.
            page_visit.page.evaluate(LOAD_ALL_IMAGES)
            if TAKE_SCREENSHOTS:
                name = path.replace("/", "_").removesuffix(".html")
                shot = SCREENSHOTS / f"{name}.png"
                page_visit.page.screenshot(path=str(shot), full_page=True)
            loaded[path] = page_visit
        return loaded[path]

    yield load
    for page_visit in loaded.values():
        page_visit.close()


# The fixtures are session-scoped: under xdist a worker runs page groups of this file between
# other files' tests, and a module scope would relaunch the browser and reload pages each time.
@pytest.mark.parametrize("path", PAGE_PARAMS)
def test_pages_load_without_console_errors_or_failed_requests(visit, path):
    """Every page loads with no JavaScript error (console error or uncaught exception, such
    as a constant declared twice), every local request succeeds, and the page asks no other
    site for anything, the math fonts included (issue 25: no require.js, no widget manager, no
    thebe; issue 40: no CDN)."""
    loaded = visit(path)
    assert not loaded.console_errors, f"{path}: {loaded.console_errors}"
    assert not loaded.failed_local, f"{path}: {loaded.failed_local}"
    assert not loaded.outside, f"{path}: requests to other sites {loaded.outside}"


@pytest.mark.parametrize("path", [_page_param(path) for path in sorted(MATH_PAGES)])
def test_math_is_rendered(visit, path):
    """The formulas come typeset (MathML, written at build time), the browser lays them out
    (a ``<math>`` element it does not know would be an inline box of its text), and they draw
    with the site's Latin Modern Math; no math script runs in the page."""
    page = visit(path).page
    count = page.locator("math").count()
    assert count >= 5, f"{path}: only {count} typeset formulas"
    assert page.locator("merror, .temml-error").count() == 0, f"{path}: Temml reported an error"
    laid_out = page.evaluate(
        "() => [...document.querySelectorAll('math')].every(m => m instanceof MathMLElement)"
    )
    assert laid_out, f"{path}: a formula is not a MathML element"
    fonts = page.evaluate(MATH_FONTS)
    assert "Latin Modern Math loaded" in fonts and not [f for f in fonts if "error" in f], fonts
    assert page.evaluate("() => !window.MathJax && !window.katex && !window.temml"), (
        "a math script ran"
    )


#: The MathML elements that hold a formula's text.
FORMULA_TEXT = "math mi, math mn, math mo, math mtext, math ms"


def _local_fonts_in_formulas(page) -> dict[str, str]:
    """Each font of the machine (not one the page loaded) that Chromium drew a formula's text
    with, and the first element it drew: DevTools' platform fonts of each text element."""
    cdp = page.context.new_cdp_session(page)
    try:
        cdp.send("DOM.enable")
        cdp.send("CSS.enable")
        root = cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
        found = cdp.send("DOM.querySelectorAll", {"nodeId": root, "selector": FORMULA_TEXT})
        local: dict[str, str] = {}
        for node in found["nodeIds"]:
            fonts = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
            if all(font["isCustomFont"] for font in fonts):
                continue
            html = cdp.send("DOM.getOuterHTML", {"nodeId": node})["outerHTML"]
            if set(re.sub(r"<[^>]+>", "", html)) <= page_math.FROM_THE_TEXT_FONT:
                continue
            for font in fonts:
                if not font["isCustomFont"]:
                    local.setdefault(font["familyName"], html[:120])
        return local
    finally:
        cdp.detach()


@pytest.mark.parametrize("path", PAGE_PARAMS)
def test_formulas_draw_with_the_sites_fonts_only(visit, path):
    """Every glyph of every formula comes from the fonts the site serves (Latin Modern Math cut
    to the book's characters, Temml's script capitals), none from a font of the machine, which
    a reader's phone would not have: a character the cut font lost falls back to one (this
    machine has Debian's Latin Modern Math and DejaVu; an mtext's no-break space did)."""
    local = _local_fonts_in_formulas(visit(path).page)
    assert not local, f"{path}: formulas drawn with the machine's fonts: {local}"


#: The colour of each formula's glyphs and of the text around it, in the given theme.
FORMULA_COLOURS = """theme => {
    const html = document.documentElement, before = html.dataset.theme;
    html.dataset.theme = theme;
    try {
        return [...document.querySelectorAll('math mi, math mn, math mo')].slice(0, 50)
            .map(e => [getComputedStyle(e).color,
                       getComputedStyle(e.closest('.math').parentElement).color]);
    } finally {
        if (before === undefined) delete html.dataset.theme; else html.dataset.theme = before;
    }
}"""


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_formulas_take_the_colour_of_their_text(visit, theme):
    """A formula is drawn in the colour of the text around it, so it reads in dark mode as the
    text does (light glyphs on the dark page)."""
    path = "chapters/notation.html"
    colours = visit(path).page.evaluate(FORMULA_COLOURS, theme)
    assert len(colours) >= 20, colours
    assert all(glyph == text for glyph, text in colours), colours
    light = _luminance(colours[0][0]) > 0.5
    assert light == (theme == "dark"), (theme, colours[0])


# A display formula wider than its column must scroll, not run under the margin nor be cut
# off: what its MathML draws (each element's box, scrolled to the start) must lie within what
# its scrolling box (the <math> or the div around it) reaches. The div's own widths do not
# show a formula cut off: it clips, and a reversed flex row overflows at its start.
WIDE_UNSCROLLABLE_MATH = """() =>
    [...document.querySelectorAll('div.math')].filter(div => {
        const math = div.querySelector('math');
        if (!math) return false;
        const scroller = [math, div]
            .find(e => ['auto', 'scroll'].includes(getComputedStyle(e).overflowX));
        if (scroller) scroller.scrollLeft = 0;
        const frame = (scroller || div).getBoundingClientRect();
        const column = div.getBoundingClientRect();
        let left = frame.left, right = frame.left;
        for (const e of [math, ...math.querySelectorAll('*')]) {
            const r = e.getBoundingClientRect();
            if (r.width > 0) { left = Math.min(left, r.left); right = Math.max(right, r.right); }
        }
        const reach = scroller ? scroller.scrollWidth : frame.width;
        return left < frame.left - 2 || right - frame.left > reach + 2
            || frame.right > column.right + 2;
    }).map(div => div.textContent.slice(0, 60))"""


#: Display formulas that scroll but are not in the tab order, and narrow ones that are.
UNREACHABLE_OR_NEEDLESS_TAB_STOPS = """() =>
    [...document.querySelectorAll('div.math > math')]
        .filter(m => (m.scrollWidth > m.clientWidth) !== (m.getAttribute('tabindex') === '0'))
        .map(m => `${m.getAttribute('tabindex')} ${m.textContent.slice(0, 50)}`)"""


@pytest.mark.parametrize("path", PAGE_PARAMS)
def test_wide_display_math_scrolls_instead_of_overflowing(visit, path):
    """A formula wider than the text column gets a scroll bar over all of it; none spills past
    the column or is cut off at its edge; and each one that scrolls is in the tab order, so the
    keyboard can scroll it, while those that fit are not (``_static/math-scroll.js``)."""
    page = visit(path).page
    wide = page.evaluate(WIDE_UNSCROLLABLE_MATH)
    assert not wide, f"{path}: formulas spill out of the column: {wide}"
    stops = page.evaluate(UNREACHABLE_OR_NEEDLESS_TAB_STOPS)
    assert not stops, f"{path}: scrolling formulas out of the tab order or fitting ones in: {stops}"


# Code cells never scroll sideways: every source line fits (book.css sizes the font).
SCROLLING_CODE = """() =>
    [...document.querySelectorAll('div.cell_input pre')]
        .filter(e => e.scrollWidth > e.clientWidth + 1)
        .map(e => e.textContent.split('\\n').reduce((a, b) => a.length >= b.length ? a : b))"""

# The width a line of n characters needs in the first code cell, against what it has.
LINE_OF = """(n) => {
    const pre = document.querySelector('div.cell_input pre');
    const line = document.createElement('span');
    line.textContent = '\\n' + 'x'.repeat(n);
    pre.appendChild(line);
    const fits = pre.scrollWidth <= pre.clientWidth;
    line.remove();
    return fits;
}"""


@pytest.mark.parametrize("path", PAGE_PARAMS)
def test_code_cells_do_not_scroll_sideways(visit, path):
    """On every page no code cell is wider than its column (at the 1280-pixel test window)."""
    wide = visit(path).page.evaluate(SCROLLING_CODE)
    assert not wide, f"{path}: code cells scroll sideways; longest lines: {wide}"


@pytest.fixture
def line_page(visit):
    """A chapter with code cells (the page the other checks load); each width test resizes
    the window and sets it back (the probe line is the test's own: the shortest such chapter
    costs least to lay out)."""
    page = visit(CODE_PAGE).page
    yield page
    page.set_viewport_size({"width": 1280, "height": 900})


@pytest.mark.parametrize("width", [1024, 1200, 1280, 1440, 1920])
def test_a_line_at_the_limit_fits_at_desktop_widths(line_page, width):
    """A code line of CODE_LINE_LIMIT characters fits without scrolling at every desktop width
    (the page laid out again at each width: resizing reapplies the same CSS as a load)."""
    line_page.set_viewport_size({"width": width, "height": 900})
    assert line_page.evaluate("() => window.innerWidth") == width
    assert line_page.evaluate(LINE_OF, CODE_LINE_LIMIT), f"{CODE_LINE_LIMIT} characters scroll"
    assert not line_page.evaluate(LINE_OF, 2 * CODE_LINE_LIMIT), (
        "the probe line must be able to fail"
    )


# Computed style of every data cell of the book's tables, per kind of table.
TABLE_CELLS = """() =>
    [...document.querySelectorAll('main table td')].map(td => {
        const style = getComputedStyle(td);
        return {table: td.closest('table').className || '(markdown)',
                output: td.closest('.cell_output') !== null,
                left: parseFloat(style.paddingLeft), right: parseFloat(style.paddingRight),
                align: style.textAlign, text: td.textContent.trim()};
    })"""


#: A page whose code prints many confusion tables: the table check must see numbers there.
TABLE_PAGE = "chapters/04-two-macro-f1.html"


@pytest.mark.parametrize("path", PAGE_PARAMS)
def test_table_cells_have_padding_and_numbers_align_right(visit, path):
    """Every table cell has room on both sides; numbers printed by code are right-aligned."""
    numbers_seen = 0
    for cell in visit(path).page.evaluate(TABLE_CELLS):
        assert min(cell["left"], cell["right"]) >= 6, f"{path}: cramped cell {cell}"
        if cell["output"] and re.fullmatch(r"-?[\d.,]+%?", cell["text"]):
            assert cell["align"] == "right", f"{path}: number not right-aligned {cell}"
            numbers_seen += 1
    if path == TABLE_PAGE:
        assert numbers_seen > 20, "the chapter's confusion tables should have been checked"
        if TAKE_SCREENSHOTS:  # a close-up of a confusion table, to look at
            table = visit(path).page.locator("table.confusion-table").first
            table.screenshot(path=str(SCREENSHOTS / "confusion-table-closeup.png"))


@pytest.mark.parametrize("path", PAGE_PARAMS)
def test_images_have_alt_text_and_load(visit, path):
    """Every content image carries alt text and actually loaded (natural width > 0)."""
    images = visit(path).page.eval_on_selector_all(
        "main img",
        "els => els.map(e => ({src: e.src, alt: e.alt, w: e.naturalWidth}))",
    )
    for img in images:
        assert img["w"] > 0, f"{path}: image did not load: {img['src']}"
        assert img["alt"].strip(), f"{path}: image without alt text: {img['src']}"


@pytest.mark.parametrize("path", [_page_param("chapters/01-confusion-matrix.html")])
def test_proofs_and_exercises_render_and_solutions_open(visit, path):
    """Definitions and exercises render as admonitions; a solution dropdown opens on click."""
    page = visit(path).page
    assert page.locator("div.proof.definition, div.definition").count() >= 2
    assert page.locator("div.exercise").count() >= 4
    solution = page.locator("div.solution.dropdown").first
    body = solution.locator("section").first  # the content; the title stays visible
    assert not body.is_visible(), "solution should start folded"
    solution.locator("button.toggle-button").first.click()
    body.wait_for(state="visible", timeout=5_000)


@pytest.mark.parametrize("path", NOTEBOOK_PARAMS)
def test_launch_buttons_point_at_binder_for_this_repository(visit, path):
    """The Binder button opens this chapter's source in JupyterLab on mybinder.org."""
    config = yaml.safe_load((ROOT / "_config.yml").read_text())
    repo = config["repository"]["url"].removeprefix("https://github.com/")
    branch = config["repository"]["branch"]
    hrefs = visit(path).page.eval_on_selector_all(
        "a[href*='mybinder.org']", "els => els.map(e => e.href)"
    )
    source = path.removesuffix(".html") + ".md"
    expected = f"https://mybinder.org/v2/gh/{repo}/{branch}?urlpath=lab/tree/{source}"
    assert expected in hrefs, f"{path}: binder links {hrefs}"


def test_search_finds_prevalence(browser, site, page_context):
    """The built-in search page finds the word 'prevalence'."""
    visit = PageVisit(browser, site, "search.html?q=prevalence", context=page_context)
    try:
        results = visit.page.locator("#search-results li")
        results.first.wait_for(timeout=15_000)
        assert results.count() >= 2
    finally:
        visit.close()


#: Pages whose source holds quick self-checks (_ext/selfcheck.py), with their specs.
SELF_CHECKS = {
    path: specs for path in PAGES if (specs := selfcheck_specs((ROOT / path).with_suffix(".md")))
}


@pytest.mark.parametrize("path", [_page_param(path) for path in sorted(SELF_CHECKS)])
def test_self_checks_accept_the_right_answer_and_reject_a_wrong_one(visit, path):
    """Every self-check on the page rejects a wrong reply and accepts the right one, by
    pointer (and the first one also by keyboard); the right reply is the one computed
    from the chapter source, not read from the page. Grading sends no request, and axe
    finds no serious or critical violation in the graded forms.

    The pointer replies of all the page's forms go in one evaluation
    (``selfcheck_site.ANSWER_ALL_BY_POINTER``: each control hit-tested where it is shown,
    then clicked or typed into, the page's own listeners grading); the keyboard reply drives
    the real keyboard. ``test_selfcheck.py`` clicks with Playwright's real pointer on each
    kind of self-check."""
    from selfcheck_site import answer_all_by_pointer, answer_by_keys

    page = visit(path).page
    forms = page.locator("form.clf-selfcheck")
    specs = SELF_CHECKS[path]
    assert forms.count() == len(specs), f"{path}: {forms.count()} forms for {len(specs)} blocks"
    requests: list[str] = []

    def record(request):
        requests.append(request.url)

    page.on("request", record)
    try:
        verdicts = answer_all_by_pointer(page, specs)
        verdicts[0] += [answer_by_keys(page, 0, specs[0], right) for right in (False, True)]
        assert [len(replies) for replies in verdicts] == [4] + [2] * (len(specs) - 1)
        for k, replies in enumerate(verdicts):
            for n, (state, text) in enumerate(replies):  # wrong, right (, wrong, right)
                if n % 2:
                    assert state == "correct" and text.startswith("Correct."), (path, k, text)
                else:
                    assert state == "wrong" and text.startswith("Not quite"), (path, k, text)
    finally:
        page.remove_listener("request", record)
    assert not requests, f"{path}: grading made requests {requests}"
    # axe over the page as graded (the one run the page's own axe test reuses when it runs
    # next, as it does in file order); only the violations inside a form count here, the
    # rest are that test's to report
    visit(path).changed()
    in_forms = [p for p in visit(path).axe() if p["in_form"]]
    problems = [f"{path}: {p['rule']} ({p['impact']}) {p['target']}" for p in in_forms]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("path", PAGE_PARAMS)
def test_no_serious_accessibility_violations(visit, path):
    """axe-core finds no serious or critical violation on any page (every rule, the whole
    document, every image loaded; the self-checks graded when the
    test above ran first on this page)."""
    problems = [f"{path}: {p['rule']} ({p['impact']}) {p['target']}" for p in visit(path).axe()]
    assert not problems, "\n".join(problems)


EXPLORER_PAGES = {
    path for path in PAGES if "page_view(" in (ROOT / path).with_suffix(".md").read_text()
}


@pytest.mark.parametrize("path", [_page_param(path) for path in sorted(EXPLORER_PAGES)])
def test_page_explorers_come_alive(visit, path):
    """Every page version of an explorer (clfbook.widgets.page) is built by explorers.js:
    its no-JavaScript note is replaced by controls and a readout (the behaviour of each one
    is checked against the library in test_page_explorers.py)."""
    roots = visit(path).page.locator(".clf-page-explorer")
    assert roots.count() > 0, path
    for k in range(roots.count()):
        root = roots.nth(k)
        assert root.locator(".clf-nojs").count() == 0, path
        assert root.locator("input, button").count() > 0, path
        assert root.locator("[aria-live]").first.text_content().strip(), path


def test_every_explorer_has_a_page_version():
    chapters = " ".join((ROOT / p).with_suffix(".md").read_text() for p in PAGES)
    assert chapters.count("page_view(") >= 10


#: Each pitfall link of the problem-to-plan chooser, and whether its page has the section.
PITFALL_TARGETS = """async () => {
    const root = document.querySelector('.clf-page-explorer[data-kind="problem"]');
    const links = [...root.querySelectorAll('a[href]')].map(a => a.getAttribute('href'));
    const out = {};
    for (const href of links) {
        const [page, id] = href.split('#');
        const text = await (await fetch(new URL(page, location.href))).text();
        out[href] = new DOMParser().parseFromString(text, 'text/html').getElementById(id) !== null;
    }
    return out;
}"""


def test_the_problem_choosers_pitfall_links_reach_their_sections(visit):
    """Every pitfall the chooser links (its pool, folded or not, and the metrics left out)
    points at a section that exists in the built book."""
    found = visit("chapters/13-choosing-a-metric.html").page.evaluate(PITFALL_TARGETS)
    assert len(found) >= 8 and all(found.values()), found


#: The classes the book's pygments style colours or styles, in either theme.
STYLE_CLASS = re.compile(r'html\[data-theme="(?:light|dark)"\] \.highlight \.([\w-]+) \{')
#: One span per token class (and one of unclassed text) appended to the first visible code
#: cell, colour contrast run over those spans alone, in the given theme; the theme and the
#: cell are restored before returning. Returns each probe's outcome (violation, incomplete
#: or pass) with axe's message.
TOKEN_PROBE = """async ([classes, theme]) => {
    const visible = e => e.checkVisibility({opacityProperty: true, visibilityProperty: true});
    const pre = [...document.querySelectorAll('div.cell_input div.highlight pre')]
        .find(visible);
    const html = document.documentElement;
    const before = html.dataset.theme;
    const probes = ['', ...classes].map(name => {
        const span = document.createElement('span');
        if (name) span.className = name;
        span.dataset.tokenProbe = name || '(text)';
        span.textContent = 'x = 0.5 ';
        return span;
    });
    pre.append('\\n', ...probes);
    try {
        html.dataset.theme = theme;
        const result = await axe.run({include: [['[data-token-probe]']]},
                                     {runOnly: {type: 'rule', values: ['color-contrast']}});
        const outcome = {};
        for (const kind of ['violations', 'incomplete', 'passes'])
            for (const rule of result[kind])
                for (const node of rule.nodes) {
                    const probe = document.querySelector(node.target[0]).dataset.tokenProbe;
                    outcome[probe] = [kind, node.failureSummary || ''];
                }
        return outcome;
    } finally {
        probes.forEach(span => span.remove());
        pre.lastChild.remove();  // the line break
        if (before === undefined) delete html.dataset.theme; else html.dataset.theme = before;
    }
}"""


@pytest.mark.parametrize("path", [_page_param(CODE_PAGE)])
@pytest.mark.parametrize("theme", ["light", "dark"])
def test_code_token_colours_have_enough_contrast(visit, built_html, path, theme):
    """Every token class of the book's code style (``_static/pygments.css``), in light and dark
    mode, reaches axe's colour contrast in a real code cell (4.5:1 for code's normal-size
    text), used by a page or not. The pages' axe run checks one code token per look, so this
    is what guarantees the colours of tokens a future page may use."""
    css = (built_html / "_static" / "pygments.css").read_text()
    classes = sorted(set(STYLE_CLASS.findall(css)))
    assert len(classes) > 50, f"the style's token classes were not found: {classes}"
    loaded = visit(path)
    loaded.add_axe()
    outcome = loaded.page.evaluate(TOKEN_PROBE, [classes, theme])
    assert set(outcome) == {"(text)", *classes}, f"axe did not check {set(classes) - set(outcome)}"
    poor = {name: found for name, found in outcome.items() if found[0] != "passes"}
    assert not poor, f"{theme} mode: {poor}"


# --- offline, on a phone, in dark mode (issue 40) -------------------------------------------


def test_math_reads_from_a_saved_copy_with_no_network(browser, built_html):
    """Opened from the files (``file://``, as a saved or offline copy is) with every request
    to another site aborted, a page draws its formulas with the site's own math stylesheet
    and font."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    outside: list[str] = []

    def refuse(route):
        outside.append(route.request.url)
        route.abort()

    context.route(re.compile(r"^(?!file:)"), refuse)
    try:
        page = context.new_page()
        page.set_default_timeout(PAGE_TIMEOUT_MS)
        page.goto((built_html / "chapters" / "notation.html").as_uri(), wait_until="load")
        sheet = page.evaluate("() => document.querySelector('link[href*=Temml]').href")
        assert sheet.startswith("file:") and "/_static/math/" in sheet, sheet
        fonts = page.evaluate(MATH_FONTS)
        assert "Latin Modern Math loaded" in fonts and not [f for f in fonts if "error" in f], fonts
        assert page.locator("math").count() >= 5
        assert not outside, outside
    finally:
        context.close()


#: Every page of the toc, the whole API reference included (its signatures were the widest).
ALL_PAGES = [p.relative_to(ROOT).with_suffix(".html").as_posix() for p in toc_files()]
PHONE = {"width": 390, "height": 844}
#: Elements that stick out of the phone's screen, and how far the page scrolls sideways.
SIDEWAYS = """() => {
    const W = document.documentElement.clientWidth;
    const clipped = e => {
        for (let p = e.parentElement; p; p = p.parentElement)
            if (['auto', 'scroll', 'hidden', 'clip'].includes(getComputedStyle(p).overflowX))
                return true;
        return false;
    };
    // the sidebars are drawers off the screen until the reader opens them
    const out = [...document.querySelectorAll('main *')]
        .filter(e => !e.closest('.bd-sidebar-primary, .bd-sidebar-secondary'))
        .filter(e => e.getBoundingClientRect().right > W + 1 && !clipped(e))
        .slice(0, 5)
        .map(e => `${e.tagName.toLowerCase()}.${e.className} ${e.textContent.slice(0, 40)}`);
    return {scrollWidth: document.documentElement.scrollWidth, width: W, out};
}"""
#: Every figure image of the cells' output: its drawn width and the width it is shown at.
FIGURE_SIZES = """() => [...document.querySelectorAll('main .cell_output img')]
    .filter(img => img.naturalWidth > 0)
    .map(img => [img.getAttribute('src'), img.naturalWidth,
                 img.getBoundingClientRect().width])"""
#: The share of its drawn size a figure keeps on a phone: its smallest text (7-point legends
#: at the figures' 100 dpi, about 10 pixels) stays at 8 pixels or more.
READABLE_SCALE = 0.8


@pytest.fixture(scope="session")
def phone_context(browser):
    """A phone's screen (390 x 844, touch, the mobile layout) shared by the phone tests."""
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    context.route(re.compile(r"^(?!http://127\.0\.0\.1)"), lambda route: route.abort())
    yield context
    context.close()


@pytest.mark.parametrize("path", [_page_param(path) for path in ALL_PAGES])
def test_no_page_is_wider_than_a_phone_and_figures_stay_readable(phone_context, site, path):
    """On a 390-pixel phone no page scrolls sideways, with the math font and every image
    loaded (a long inline name or an API signature wraps; a wide formula or figure scrolls
    inside its own box, all of it within reach); and every figure is shown at 80 % of its
    drawn size or more, so its legends stay readable (shrunk to the column they were 4 pixels
    tall)."""
    page = phone_context.new_page()
    page.set_default_timeout(PAGE_TIMEOUT_MS)
    try:
        page.goto(f"{site}/{path}", wait_until="load")
        page.evaluate(MATH_FONTS)
        page.evaluate(LOAD_ALL_IMAGES)
        found = page.evaluate(SIDEWAYS)
        assert found["width"] == PHONE["width"], found
        assert found["scrollWidth"] <= found["width"] and not found["out"], f"{path}: {found}"
        cut = page.evaluate(WIDE_UNSCROLLABLE_MATH)
        assert not cut, f"{path}: formulas cut off at the column's edge: {cut}"
        stops = page.evaluate(UNREACHABLE_OR_NEEDLESS_TAB_STOPS)
        assert not stops, f"{path}: scrolling formulas out of the tab order: {stops}"
        for src, drawn, shown in page.evaluate(FIGURE_SIZES):
            assert shown >= READABLE_SCALE * drawn - 1, (
                f"{path}: {src} drawn {drawn} px wide, shown at {shown:.0f}"
            )
    finally:
        page.close()


#: Each explorer's height, and whether its first figure sits beside its controls.
EXPLORER_LAYOUT = """() => [...document.querySelectorAll('.clf-page-explorer')].map(root => {
    const side = root.querySelector('.clf-side').getBoundingClientRect();
    const figure = root.querySelector('.clf-figures > figure');
    const box = figure && figure.getBoundingClientRect();
    return {kind: root.dataset.kind, height: root.getBoundingClientRect().height,
            beside: box ? box.left >= side.right - 1 && box.top < side.bottom : null};
})"""
#: An explorer, controls, readout and figures together, fits in about a screen at 1,280 px.
EXPLORER_HEIGHT = 1_100


@pytest.mark.parametrize("path", [_page_param(path) for path in sorted(EXPLORER_PAGES)])
def test_explorers_put_controls_beside_figures_and_fit_a_screen(visit, path):
    """At 1,280 and 1,000 pixels every explorer with figures shows its first figure beside
    its controls and readout, and at 1,280 each is under 1,100 pixels tall (the threshold
    explorer was one column 2,360 tall: its long metric table folds)."""
    page = visit(path).page
    try:
        for width in (1280, 1000):
            page.set_viewport_size({"width": width, "height": 900})
            for explorer in page.evaluate(EXPLORER_LAYOUT):
                assert explorer["beside"] in (True, None), f"{path} at {width}: {explorer}"
                if width == 1280:
                    assert explorer["height"] < EXPLORER_HEIGHT, f"{path}: {explorer}"
    finally:
        page.set_viewport_size({"width": 1280, "height": 900})


def _luminance(rgb: str) -> float:
    """The WCAG relative luminance of a computed ``rgb(...)`` colour."""
    channels = [int(x) / 255 for x in re.findall(r"\d+", rgb)[:3]]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


#: In dark mode: the colour behind each explorer (its first ancestor with a background), its
#: text colour and the colour scheme its inputs are drawn in; then axe's colour contrast over
#: the explorers alone.
EXPLORER_DARK = """async () => {
    const html = document.documentElement, before = html.dataset.theme;
    html.dataset.theme = 'dark';
    try {
        const seen = [...document.querySelectorAll('.clf-page-explorer')].map(root => {
            let e = root, ground = 'rgba(0, 0, 0, 0)';
            for (; e && ground === 'rgba(0, 0, 0, 0)'; e = e.parentElement)
                ground = getComputedStyle(e).backgroundColor;
            const input = root.querySelector('input');
            return {kind: root.dataset.kind, ground, text: getComputedStyle(root).color,
                    scheme: input ? getComputedStyle(input).colorScheme : 'dark'};
        });
        const result = await axe.run({include: [['.clf-page-explorer']]},
            {runOnly: {type: 'rule', values: ['color-contrast']}});
        const poor = result.violations.flatMap(v => v.nodes.map(n => n.target.join(' ')));
        return {seen, poor};
    } finally {
        if (before === undefined) delete html.dataset.theme; else html.dataset.theme = before;
    }
}"""


@pytest.mark.parametrize("path", [_page_param(path) for path in sorted(EXPLORER_PAGES)])
def test_explorers_follow_dark_mode(visit, path):
    """In dark mode an explorer sits on the dark page (not in a light box), with light text,
    inputs drawn in the dark scheme, and enough colour contrast everywhere in it."""
    loaded = visit(path)
    loaded.add_axe()
    found = loaded.page.evaluate(EXPLORER_DARK)
    loaded.changed()
    for explorer in found["seen"]:
        assert _luminance(explorer["ground"]) < 0.1, f"{path}: {explorer}"
        assert _luminance(explorer["text"]) > 0.5, f"{path}: {explorer}"
        assert explorer["scheme"] == "dark", f"{path}: {explorer}"
    assert not found["poor"], f"{path}: poor contrast in dark mode: {found['poor']}"


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_book_follows_the_readers_colour_scheme(browser, site, scheme):
    """``default_mode: auto``: until the reader picks a theme, the page takes the system's."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme=scheme)
    context.route(re.compile(r"^(?!http://127\.0\.0\.1)"), lambda route: route.abort())
    try:
        page = context.new_page()
        page.goto(f"{site}/chapters/intro.html", wait_until="load")
        assert page.evaluate("() => document.documentElement.dataset.mode") == "auto"
        assert page.evaluate("() => document.documentElement.dataset.theme") == scheme
    finally:
        context.close()
