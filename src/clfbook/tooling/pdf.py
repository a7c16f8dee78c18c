"""The whole book as one PDF: the HTML build's own pages, joined into one and printed by Chromium.

``python -m clfbook.tooling.pdf [--path-output DIR]`` (``make pdf``, after the HTML build)
reads the pages of ``DIR/_build/html`` in the table of contents' order, joins their articles
into one page (:func:`join_pages`), opens it in Debian's Chromium (Playwright drives it;
Playwright's own browser download is never used) and prints it to
``DIR/_build/html/evaluating-classifiers.pdf``, beside the site that links to it
(``_ext/book_downloads.py``). No second Sphinx build: the PDF holds what the site holds.

The joined page is the first page's, its article the articles of every page, each after an
anchor ``document-<page>`` (the name Sphinx's single-page builder gives a page's start); its
head also loads what any page's head loads. A link to
another page of the book leads to that page's place in the joined page (``#document-<page>``,
or the target's own anchor); every other address of the site is relative to its root, where
the joined page is written while it is printed.

Before printing, the page is made a book:

- **every figure loaded**: the figures below the first of a page load lazily too;
- **the explorers' static figures**: an explorer's controls need a reader; its starting state
  is shown above it (a figure, or a table or list: ``clfbook.widgets.page.NO_SCRIPT``), which
  stays (``_static/explorers.css`` hides the controls in print);
- **the solutions at the end of their chapter**: on the page a solution is folded under its
  exercise; in the PDF each chapter's solutions follow its last section, under "Solutions",
  unfolded, each titled with the exercise it solves (its link leads back). The quick
  self-checks' answers go there too.

The formulas are typeset when the book is built (``_ext/page_math.py``: MathML, with its
stylesheet and font in the site's ``_static``), so the printer waits for the fonts only and
asks no other site for anything.
"""

from __future__ import annotations

import argparse
import os
import re
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PDF = "evaluating-classifiers.pdf"
#: The pages' type printed at 80 %: at 100 % the theme's screen-sized type took 481 A4 pages.
SCALE = 0.8
#: A4's 210 mm less 2 x 16 mm of margin, at CSS's 96 px to the inch, over the scale.
MARGIN_MM = 16
PRINT_WIDTH_PX = round((210 - 2 * MARGIN_MM) / 25.4 * 96 / SCALE)
#: A long page on a busy machine: laying out the whole book takes a while.
TIMEOUT_MS = 600_000
#: The address the pages are read from while they are joined (``fetch`` needs an origin;
#: ``file://`` has none): answered from the HTML build's folder, never from a network.
SITE = "https://book.invalid/"

#: Every page's article joined into the first page, in the order given: the HTML of the
#: joined page, every address of the site made relative to the site's root. ``pages`` are
#: the pages' paths under the root (``chapters/intro.html``), ``docs`` their names.
JOIN_PAGES = r"""async ({site, pages, docs}) => {
    const place = new Map(pages.map((page, i) => [new URL(page, site).href, docs[i]]));
    const read = async page => {
        const url = new URL(page, site).href;
        const response = await fetch(url);
        if (!response.ok) throw new Error(`${page}: ${response.status}`);
        const doc = new DOMParser().parseFromString(await response.text(), 'text/html');
        return {url, doc};
    };
    const read_all = await Promise.all(pages.map(read));
    // Each address made the joined page's: a book page's is its place in the joined page,
    // any other of the site relative to the root, the rest of the web as it is.
    const relocate = (doc, url) => {
        for (const el of doc.querySelectorAll('[href], [src]')) {
            for (const name of ['href', 'src']) {
                const value = el.getAttribute(name);
                if (value === null || value.startsWith('data:')) continue;
                const target = new URL(value, url);
                if (target.origin !== new URL(site).origin) continue;
                const bare = target.origin + target.pathname;
                if (name === 'href' && el.tagName === 'A' && place.has(bare)) {
                    el.setAttribute(name, target.hash || `#document-${place.get(bare)}`);
                } else {
                    el.setAttribute(name, target.pathname.slice(1) + target.search + target.hash);
                }
            }
        }
    };
    read_all.forEach(({url, doc}) => relocate(doc, url));
    const shell = read_all[0].doc;
    // The head: what any page loads, once (a page's own stylesheet or script, such as
    // the math stylesheet where the first page has no formula), each page's order kept.
    const key = el => el.getAttribute('src') || el.getAttribute('href') || el.textContent;
    const wanted = 'script, style, link[rel="stylesheet"]';
    const seen = new Set([...shell.head.querySelectorAll(wanted)].map(key));
    for (const {doc} of read_all.slice(1)) {
        for (const el of doc.head.querySelectorAll(wanted)) {
            if (seen.has(key(el))) continue;
            seen.add(key(el));
            shell.head.append(shell.importNode(el, true));
        }
    }
    const article = shell.querySelector('article.bd-article');
    const parts = read_all.map(({doc}, i) => {
        const own = doc.querySelector('article.bd-article');
        if (!own) throw new Error(`${pages[i]}: no article`);
        const anchor = shell.createElement('span');
        anchor.id = `document-${docs[i]}`;
        return [anchor, ...[...own.childNodes].map(node => shell.importNode(node, true))];
    });
    article.replaceChildren(...parts.flat());
    return '<!DOCTYPE html>\n' + shell.documentElement.outerHTML;
}"""

#: Every figure loaded (those below a page's first load lazily) and every font the page uses
#: (the math font among them); the number of formulas.
LOAD_ALL = """async () => {
    const images = [...document.querySelectorAll('img')];
    images.forEach(img => { img.loading = 'eager'; });
    await Promise.all(images.map(img => img.complete ? null
        : new Promise(done => { img.addEventListener('load', done);
                                img.addEventListener('error', done); })));
    await document.fonts.ready;
    return document.querySelectorAll('math').length;
}"""

#: Each chapter's solutions (and self-check answers) moved to a "Solutions" section at its end,
#: unfolded. A chapter is what follows one of the joined page's ``document-`` anchors.
SOLUTIONS_AT_CHAPTER_END = r"""() => {
    // A chapter is the section after one of the joined page's "document-" anchors (an
    // answer belongs to its innermost chapter).
    for (const anchor of document.querySelectorAll('span[id^="document-"]')) {
        const section = anchor.nextElementSibling;
        if (section && section.tagName === 'SECTION') section.dataset.clfChapter = anchor.id;
    }
    const byChapter = new Map();
    for (const el of document.querySelectorAll('div.solution, details.clf-sc-answer')) {
        const chapter = el.closest('section[data-clf-chapter]');
        if (!chapter) continue;
        if (!byChapter.has(chapter)) byChapter.set(chapter, []);
        byChapter.get(chapter).push(el);
    }
    let moved = 0;
    for (const [chapter, answers] of byChapter) {
        const title = chapter.querySelector(':scope > :is(h1, h2, h3, h4)');
        const part = document.createElement('section');
        part.className = 'clf-print-solutions';
        const heading = document.createElement('h2');
        const name = title ? title.textContent.replace(/#\s*$/, '').trim() : '';
        heading.textContent = 'Solutions: ' + name;
        part.append(heading);
        for (const el of answers) {
            if (el.matches('details')) {
                // A self-check's answer, titled with its question (which stays in the text).
                const form = el.closest('form');
                const question = form && form.querySelector('legend');
                const box = document.createElement('div');
                box.className = 'admonition clf-print-answer';
                const head = document.createElement('p');
                head.className = 'admonition-title';
                head.textContent = question ? question.textContent : 'Self-check';
                box.append(head, ...el.querySelectorAll(':scope > .clf-sc-explain'));
                el.remove();
                part.append(box);
            } else {
                // Unfolded: sphinx-togglebutton folds a dropdown admonition behind a button.
                el.classList.remove('dropdown', 'toggle', 'toggle-hidden');
                el.querySelectorAll('.toggle-hidden')
                    .forEach(c => c.classList.remove('toggle-hidden'));
                el.querySelectorAll('button.toggle-button').forEach(b => b.remove());
                part.append(el);
            }
            moved += 1;
        }
        chapter.append(part);
    }
    return moved;
}"""


#: The page's screen furniture left off the paper (search, navigation, the heading anchors'
#: "#"), the article across the whole width, each chapter from a new page.
PRINT_CSS = """
@media print {
  .skip-link, .bd-header, .bd-header-article, .header-article, .bd-sidebar-primary,
  .bd-sidebar-secondary, .search-button__wrapper, .bd-search, .search-button,
  #pst-back-to-top, .prev-next-area, .headerlink, .bd-footer, .bd-footer-article,
  .bd-footer-content, .primary-toggle, .secondary-toggle, .sidebar-toggle, dialog {
    display: none !important;
  }
  /* Chromium prints what is see-through (a code block's invisible copy button, a shadow) as
     an image of its whole box: hundreds of them, megabytes, and the code's text lost */
  .copybtn, .toggle-button, .tb-icon { display: none !important; }
  /* a self-check's button and verdict need a reader; its answer is in the chapter's end */
  .clf-sc-actions { display: none !important; }
  /* (the theme's own shadows are !important: an id in :not() outranks their classes) */
  :not(#clf-print), :not(#clf-print)::before, :not(#clf-print)::after {
    box-shadow: none !important;
    text-shadow: none !important;
  }
  .clf-print-solutions * { opacity: 1 !important; visibility: visible !important; }
  .bd-main .bd-content .bd-article-container { max-width: 100% !important; }
  pre { white-space: pre-wrap; word-break: break-word; }
  section[data-clf-chapter], .clf-print-solutions { break-before: page; }
  /* a cell whose code the page folds away (an exercise's visible check): its output stays */
  .cell details.hide { display: none !important; }
}
"""

#: A displayed formula wider than the printed column shrunk to fit it: on the page it
#: scrolls sideways, on paper its right end was cut off. Run at the print's width; the count.
FIT_WIDE_FORMULAS = """() => {
    let shrunk = 0;
    for (const el of document.querySelectorAll('div.math > math')) {
        // the formula's own width: it scrolls inside its own box (book.css)
        const room = el.clientWidth, width = el.scrollWidth;
        if (width > room && room > 0) {
            const size = parseFloat(getComputedStyle(el).fontSize);
            el.style.fontSize = `${(0.99 * size * room / width).toFixed(2)}px`;
            shrunk += 1;
        }
    }
    return shrunk;
}"""

FOOTER = (
    '<div style="font-size:8px;width:100%;text-align:center;color:#555">'
    '<span class="pageNumber"></span> / <span class="totalPages"></span></div>'
)


def book_pages(root: Path) -> list[str]:
    """The pages of the table of contents in its order (sections after their chapter), by
    name (``chapters/intro``): the order of the single-page builder's toctree."""
    import yaml

    toc = yaml.safe_load((root / "_toc.yml").read_text(encoding="utf-8"))
    names = [toc["root"]]

    def walk(entries):
        for entry in entries:
            names.append(entry["file"])
            walk(entry.get("sections", []))

    for part in toc.get("parts", []):
        walk(part["chapters"])
    return [str(Path(name).with_suffix("")) for name in names]


#: The empty page the joining runs in (at the site's address: ``fetch``'s origin).
BLANK = f"{SITE}_join.html"


def _site(built_html: Path):
    """Answer the joining's addresses from the HTML build's folder (and the empty page)."""
    top = built_html.resolve()

    def answer(route) -> None:
        url = route.request.url
        if url == BLANK:
            return route.fulfill(body="<!DOCTYPE html><html></html>", content_type="text/html")
        path = (top / url[len(SITE) :].split("?")[0].split("#")[0]).resolve()
        if path.is_file() and path.is_relative_to(top):
            return route.fulfill(path=str(path))
        return route.fulfill(status=404, body="")

    return answer


def join_pages(browser, built_html: Path, docs: list[str]) -> str:
    """The HTML of every page in ``docs`` joined into one (see the module's docstring)."""
    page = browser.new_page()
    try:
        page.route(re.compile(r"^https?://"), lambda route: route.abort())
        page.route(f"{SITE}**", _site(built_html))
        page.goto(BLANK)
        pages = [f"{doc}.html" for doc in docs]
        return page.evaluate(JOIN_PAGES, {"site": SITE, "pages": pages, "docs": docs})
    finally:
        page.close()


def print_pdf(built_html: Path, docs: list[str], target: Path) -> dict:
    """Print the pages ``docs`` of ``built_html``, joined, to ``target``; what was done
    (formulas, formulas shrunk, solutions moved, seconds)."""
    from playwright.sync_api import sync_playwright

    if not CHROMIUM.exists():
        raise SystemExit(f"{CHROMIUM} is missing: `make pdf` installs Debian's chromium")
    start = time.monotonic()
    # Written at the site's root while it is printed, so its relative addresses resolve.
    joined = built_html / f"{Path(PDF).stem}.html"
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_FLAGS
        )
        try:
            joined.write_text(join_pages(browser, built_html, docs), encoding="utf-8")
            # The paper's printable width (A4 less the margins), so the page is laid out at
            # the width it is printed at (wider, its right side was cut off).
            page = browser.new_page(viewport={"width": PRINT_WIDTH_PX, "height": 1400})
            page.set_default_timeout(TIMEOUT_MS)
            # The page needs no other site (its files are the site's): refuse every other.
            page.route(re.compile(r"^https?://"), lambda route: route.abort())
            page.goto(joined.resolve().as_uri(), wait_until="load")
            formulas = page.evaluate(LOAD_ALL)
            moved = page.evaluate(SOLUTIONS_AT_CHAPTER_END)
            page.add_style_tag(content=PRINT_CSS)
            page.emulate_media(media="print")
            shrunk = page.evaluate(FIT_WIDE_FORMULAS)
            target.parent.mkdir(parents=True, exist_ok=True)
            page.pdf(
                path=str(target),
                format="A4",
                margin={
                    "top": "18mm",
                    "bottom": "18mm",
                    "left": f"{MARGIN_MM}mm",
                    "right": f"{MARGIN_MM}mm",
                },
                print_background=True,
                scale=SCALE,
                display_header_footer=True,
                header_template="<span></span>",
                footer_template=FOOTER,
                outline=True,
                tagged=True,
            )
        finally:
            browser.close()
            joined.unlink(missing_ok=True)
    return {
        "formulas": formulas,
        "shrunk": shrunk,
        "solutions": moved,
        "seconds": time.monotonic() - start,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m clfbook.tooling.pdf", description=__doc__.split("\n")[0]
    )
    parser.add_argument(
        "--root", type=Path, default=ROOT, help="the book's folder (default: this checkout)"
    )
    parser.add_argument(
        "--path-output",
        type=Path,
        default=None,
        help="the folder holding _build (default: the book's folder), as jupyter-book's",
    )
    args = parser.parse_args(argv)
    built_html = (args.path_output or args.root) / "_build" / "html"
    docs = book_pages(args.root)
    missing = [doc for doc in docs if not (built_html / f"{doc}.html").is_file()]
    if missing:
        raise SystemExit(f"{built_html} lacks {missing[0]}.html: build the book first (make html)")
    target = built_html / PDF
    done = print_pdf(built_html, docs, target)
    size = os.path.getsize(target) / 1e6
    print(
        f"{target}: {size:.1f} MB, {len(docs)} pages joined and printed in "
        f"{done['seconds']:.0f} s ({done['formulas']} formulas, {done['shrunk']} shrunk to fit, "
        f"{done['solutions']} solutions moved)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
