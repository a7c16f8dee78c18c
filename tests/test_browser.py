"""The rendered book in a real browser: Debian's Chromium driven by Playwright.

The built HTML is served by ``http.server`` on 127.0.0.1. The sandbox has no
internet, so MathJax (which the pages load from a CDN) is answered from the
MathJax 3 files of the ``django-static-mathjax`` wheel, and every other
non-local request is aborted; only local requests must all succeed. Screenshots
of every page go to ``_build/screenshots/``.
"""

from __future__ import annotations

import functools
import http.server
import re
import threading
from pathlib import Path

import pytest
import yaml
from chapter_runner import CODE_LINE_LIMIT, ROOT, is_notebook, toc_files
from playwright.sync_api import sync_playwright

CHROMIUM = Path("/usr/bin/chromium")
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
MATHJAX_CDN = re.compile(r"https://cdn\.jsdelivr\.net/npm/mathjax@3/es5/(?P<path>[^?#]+)")
SCREENSHOTS = ROOT / "_build" / "screenshots"
#: The API reference's module pages all come from one autodoc template: the browser visits the
#: reference's index and one module page, and every other page of the toc (about two minutes
#: less of loading and axe; ``test_book.py`` still checks every built page's HTML).
API_SAMPLE = {"chapters/api/index.html", "chapters/api/uncertainty.html"}
PAGES = [
    path
    for path in (p.relative_to(ROOT).with_suffix(".html").as_posix() for p in toc_files())
    if not path.startswith("chapters/api/") or path in API_SAMPLE
]
MATH_PAGES = {"chapters/notation.html", "chapters/01-confusion-matrix.html"}


def _mathjax_dir() -> Path:
    import mathjax  # the django-static-mathjax wheel

    return Path(mathjax.__file__).parent / "static" / "mathjax" / "es5"


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # keep pytest output readable
        pass


@pytest.fixture(scope="module")
def site(built_html):
    """Serve the built book on a free loopback port for the duration of the module."""
    handler = functools.partial(_QuietHandler, directory=str(built_html))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


@pytest.fixture(scope="module")
def browser():
    assert CHROMIUM.exists(), "make test installs Debian's chromium; it is missing"
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=FLAGS)
        yield b
        b.close()


class PageVisit:
    """One page load with its console errors, failed local requests and the live page."""

    def __init__(self, browser, base: str, path: str):
        self.context = browser.new_context(viewport={"width": 1280, "height": 900})
        self.page = self.context.new_page()
        self.console_errors: list[str] = []
        self.failed_local: list[str] = []
        self.base = base
        self.page.on("console", self._on_console)
        self.page.on("requestfailed", self._on_failed)
        self.page.on("response", self._on_response)
        self.page.route("**/*", self._route)
        self.page.goto(f"{base}/{path}", wait_until="load")
        self.page.wait_for_load_state("networkidle")

    def _route(self, route):
        url = route.request.url
        if url.startswith(self.base):
            return route.continue_()
        match = MATHJAX_CDN.match(url)
        if match:
            local = _mathjax_dir() / match.group("path")
            if local.is_file():
                return route.fulfill(path=str(local))
        return route.abort()  # the sandbox is offline: no other host is reachable

    def _is_local(self, url: str | None) -> bool:
        return bool(url) and (url.startswith(self.base) or MATHJAX_CDN.match(url) is not None)

    def _on_console(self, msg):
        if msg.type != "error":
            return
        url = (msg.location or {}).get("url", "")
        if "Failed to load resource" in msg.text and not self._is_local(url):
            return  # an aborted external request (fonts, thebe, ...), not a page error
        self.console_errors.append(f"{msg.text} @ {url}")

    def _on_failed(self, request):
        if self._is_local(request.url):
            self.failed_local.append(request.url)

    def _on_response(self, response):
        if self._is_local(response.url) and response.status >= 400:
            self.failed_local.append(f"{response.status} {response.url}")

    def close(self):
        self.context.close()


@pytest.fixture(scope="module")
def visits(browser, site):
    """Load every page of the toc once; tests inspect the loaded pages."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    loaded = {}
    for path in PAGES:
        visit = PageVisit(browser, site, path)
        if path in MATH_PAGES:
            visit.page.wait_for_function(
                "() => window.MathJax && MathJax.startup && MathJax.startup.promise"
                " && document.querySelectorAll('mjx-container').length > 0",
                timeout=30_000,
            )
        name = path.replace("/", "_").removesuffix(".html")
        visit.page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)
        loaded[path] = visit
    yield loaded
    for visit in loaded.values():
        visit.close()


pytestmark = pytest.mark.slow


def test_pages_load_without_console_errors_or_failed_requests(visits):
    """Every page loads with no JavaScript error and every local request succeeds."""
    for path, visit in visits.items():
        assert not visit.console_errors, f"{path}: {visit.console_errors}"
        assert not visit.failed_local, f"{path}: {visit.failed_local}"


def test_math_is_rendered(visits):
    """MathJax typesets the formulas: rendered math elements exist and no raw TeX remains."""
    for path in MATH_PAGES:
        page = visits[path].page
        count = page.locator("mjx-container").count()
        assert count >= 5, f"{path}: only {count} rendered formulas"
        assert page.locator("mjx-merror").count() == 0, f"{path}: MathJax reported an error"


# A display formula wider than its column must scroll, not run under the margin.
WIDE_UNSCROLLABLE_MATH = """() =>
    [...document.querySelectorAll('mjx-container[display="true"]')]
        .filter(e => e.scrollWidth > e.clientWidth + 2
                     && !['auto', 'scroll'].includes(getComputedStyle(e).overflowX))
        .map(e => e.textContent.slice(0, 60))"""


def test_wide_display_math_scrolls_instead_of_overflowing(visits):
    """A formula wider than the text column gets a scroll bar; none spills past the column."""
    for path, visit in visits.items():
        wide = visit.page.evaluate(WIDE_UNSCROLLABLE_MATH)
        assert not wide, f"{path}: formulas spill out of the column: {wide}"


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


def test_code_cells_do_not_scroll_sideways(visits):
    """On every page no code cell is wider than its column (at the 1280-pixel test window)."""
    for path, visit in visits.items():
        wide = visit.page.evaluate(SCROLLING_CODE)
        assert not wide, f"{path}: code cells scroll sideways; longest lines: {wide}"


@pytest.mark.parametrize("width", [1024, 1200, 1280, 1440, 1920])
def test_a_line_at_the_limit_fits_at_desktop_widths(browser, site, width):
    """A code line of CODE_LINE_LIMIT characters fits without scrolling at every desktop width."""
    context = browser.new_context(viewport={"width": width, "height": 900})
    try:
        page = context.new_page()
        page.route("**/*", lambda r: r.continue_() if r.request.url.startswith(site) else r.abort())
        page.goto(f"{site}/chapters/07-kappa-mcc.html", wait_until="load")
        assert page.evaluate(LINE_OF, CODE_LINE_LIMIT), f"{CODE_LINE_LIMIT} characters scroll"
        assert not page.evaluate(LINE_OF, 2 * CODE_LINE_LIMIT), (
            "the probe line must be able to fail"
        )
    finally:
        context.close()


# Computed style of every data cell of the book's tables, per kind of table.
TABLE_CELLS = """() =>
    [...document.querySelectorAll('main table td')].map(td => {
        const style = getComputedStyle(td);
        return {table: td.closest('table').className || '(markdown)',
                output: td.closest('.cell_output') !== null,
                left: parseFloat(style.paddingLeft), right: parseFloat(style.paddingRight),
                align: style.textAlign, text: td.textContent.trim()};
    })"""


def test_table_cells_have_padding_and_numbers_align_right(visits):
    """Every table cell has room on both sides; numbers printed by code are right-aligned."""
    numbers_seen = 0
    for path, visit in visits.items():
        cells = visit.page.evaluate(TABLE_CELLS)
        for cell in cells:
            assert min(cell["left"], cell["right"]) >= 6, f"{path}: cramped cell {cell}"
            if cell["output"] and re.fullmatch(r"-?[\d.,]+%?", cell["text"]):
                assert cell["align"] == "right", f"{path}: number not right-aligned {cell}"
                numbers_seen += 1
    assert numbers_seen > 100, "the chapters' confusion tables should have been checked"
    # a close-up of a confusion table, to look at
    table = visits["chapters/04-two-macro-f1.html"].page.locator("table.confusion-table").first
    table.screenshot(path=str(SCREENSHOTS / "confusion-table-closeup.png"))


def test_images_have_alt_text_and_load(visits):
    """Every content image carries alt text and actually loaded (natural width > 0)."""
    for path, visit in visits.items():
        images = visit.page.eval_on_selector_all(
            "main img",
            "els => els.map(e => ({src: e.src, alt: e.alt, w: e.naturalWidth}))",
        )
        for img in images:
            assert img["w"] > 0, f"{path}: image did not load: {img['src']}"
            assert img["alt"].strip(), f"{path}: image without alt text: {img['src']}"


def test_proofs_and_exercises_render_and_solutions_open(visits):
    """Definitions and exercises render as admonitions; a solution dropdown opens on click."""
    page = visits["chapters/01-confusion-matrix.html"].page
    assert page.locator("div.proof.definition, div.definition").count() >= 2
    assert page.locator("div.exercise").count() >= 4
    solution = page.locator("div.solution.dropdown").first
    body = solution.locator("section").first  # the content; the title stays visible
    assert not body.is_visible(), "solution should start folded"
    solution.locator("button.toggle-button").first.click()
    body.wait_for(state="visible", timeout=5_000)


def test_launch_buttons_point_at_binder_for_this_repository(visits):
    """The Binder button opens this chapter's source in JupyterLab on mybinder.org."""
    config = yaml.safe_load((ROOT / "_config.yml").read_text())
    repo = config["repository"]["url"].removeprefix("https://github.com/")
    branch = config["repository"]["branch"]
    for src in toc_files():
        if not is_notebook(src):
            continue
        path = src.relative_to(ROOT).with_suffix(".html").as_posix()
        hrefs = visits[path].page.eval_on_selector_all(
            "a[href*='mybinder.org']", "els => els.map(e => e.href)"
        )
        expected = (
            f"https://mybinder.org/v2/gh/{repo}/{branch}"
            f"?urlpath=lab/tree/{src.relative_to(ROOT).as_posix()}"
        )
        assert expected in hrefs, f"{path}: binder links {hrefs}"


def test_search_finds_prevalence(browser, site):
    """The built-in search page finds the word 'prevalence'."""
    visit = PageVisit(browser, site, "search.html?q=prevalence")
    try:
        results = visit.page.locator("#search-results li")
        results.first.wait_for(timeout=15_000)
        assert results.count() >= 2
    finally:
        visit.close()


def test_no_serious_accessibility_violations(visits):
    """axe-core finds no serious or critical violation on any page."""
    import axe_playwright_python

    axe_js = (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text()
    problems = []
    for path, visit in visits.items():
        visit.page.add_script_tag(content=axe_js)
        result = visit.page.evaluate("async () => await axe.run(document)")
        for violation in result["violations"]:
            if violation["impact"] in ("serious", "critical"):
                targets = [n["target"] for n in violation["nodes"]][:3]
                problems.append(f"{path}: {violation['id']} ({violation['impact']}) {targets}")
    assert not problems, "\n".join(problems)


def test_page_explorers_come_alive(visits):
    """Every page version of an explorer (clfmetrics.widgets.page) is built by explorers.js:
    its no-JavaScript note is replaced by controls and a readout (the behaviour of each one
    is checked against the library in test_page_explorers.py)."""
    seen = 0
    for path, visit in visits.items():
        roots = visit.page.locator(".clf-page-explorer")
        for k in range(roots.count()):
            root = roots.nth(k)
            assert root.locator(".clf-nojs").count() == 0, path
            assert root.locator("input, button").count() > 0, path
            assert root.locator("[aria-live]").first.text_content().strip(), path
            seen += 1
    assert seen >= 8, f"only {seen} page explorers in the book"


def test_self_checks_accept_the_answer_and_reject_a_wrong_one(visits):
    """Every quick self-check (_ext/self_check.py) grades its own answer right and another
    one wrong, and shows its explanation."""
    import json

    seen = 0
    for path, visit in visits.items():
        checks = visit.page.locator(".clf-self-check")
        for k in range(checks.count()):
            check = checks.nth(k)
            key = json.loads(check.get_attribute("data-check"))
            if key["kind"] == "choice":
                wrong = next(c for c in key["choices"] if c != key["answer"])
                right = key["answer"]
            else:
                wrong, right = str(key["answer"] + 10 * key["tolerance"] + 1), key["shown"]
            for answer, verdict in ((wrong, "wrong"), (right, "right")):
                if key["kind"] == "choice":
                    check.get_by_label(answer, exact=True).check()
                else:
                    check.locator("input[type=text]").fill(answer)
                check.get_by_role("button", name="Check").click()
                assert check.get_attribute("data-result") == verdict, (path, key, answer)
            assert check.locator("details").get_attribute("open") is not None, path
            seen += 1
    assert seen >= 3, f"only {seen} self-checks in the book"
