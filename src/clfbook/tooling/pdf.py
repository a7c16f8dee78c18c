"""The whole book as one PDF: a single-page build of the same sources, printed by Chromium.

``python -m clfbook.tooling.pdf [--path-output DIR]`` (``make pdf``) runs ``jupyter-book build
--builder singlehtml`` on the book (every chapter's outputs come from the execution cache the
HTML build filled, so nothing runs twice) into ``DIR/_build/singlehtml``, opens that page in
Debian's Chromium (Playwright drives it; Playwright's own browser download is never used) and
prints it to ``DIR/_build/html/evaluating-classifiers.pdf``, beside the site that links to it
(``_ext/book_downloads.py``).

Before printing, the page is made a book:

- **every figure loaded**: the figures below the first of a page load lazily too;
- **the explorers' static figures**: an explorer's controls need a reader; its starting state
  is the figure above it, which stays (``_static/explorers.css`` hides the controls in print);
- **the solutions at the end of their chapter**: on the page a solution is folded under its
  exercise; in the PDF each chapter's solutions follow its last section, under "Solutions",
  unfolded, each titled with the exercise it solves (its link leads back). The quick
  self-checks' answers go there too.

The formulas are typeset when the book is built (``_ext/page_math.py``: KaTeX's HTML, with its
stylesheet and fonts in the site's ``_static``), so the printer waits for the fonts only and
asks no other site for anything.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
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

#: Every figure loaded (those below a page's first load lazily) and every font the page uses
#: (KaTeX's among them); the number of formulas.
LOAD_ALL = """async () => {
    const images = [...document.querySelectorAll('img')];
    images.forEach(img => { img.loading = 'eager'; });
    await Promise.all(images.map(img => img.complete ? null
        : new Promise(done => { img.addEventListener('load', done);
                                img.addEventListener('error', done); })));
    await document.fonts.ready;
    return document.querySelectorAll('.katex').length;
}"""

#: Each chapter's solutions (and self-check answers) moved to a "Solutions" section at its end,
#: unfolded. A chapter is what follows one of the single page's ``document-`` anchors.
SOLUTIONS_AT_CHAPTER_END = r"""() => {
    // A chapter is the section after one of the single page's "document-" anchors; the root
    // page's section holds the others, so an answer belongs to its innermost chapter.
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
    for (const el of document.querySelectorAll('.katex-display > .katex')) {
        // the formula's own width: its HTML scrolls inside the column (katex-math.css)
        const html = el.querySelector(':scope > .katex-html') || el;
        const room = el.parentElement.clientWidth, width = html.scrollWidth;
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


def single_page(root: Path, path_output: Path) -> Path:
    """The single page, at the top of its build.

    Sphinx writes it as the root page's file (``chapters/intro.html``; ``index.html`` only
    redirects there), but with every address relative to the build's top (``_static/``,
    ``_images/``), so it is printed from a copy there.
    """
    import yaml

    first = yaml.safe_load((root / "_toc.yml").read_text(encoding="utf-8"))["root"]
    folder = path_output / "_build" / "singlehtml"
    written = folder / f"{Path(first).with_suffix('')}.html"
    top = folder / f"{Path(PDF).stem}.html"
    if written.is_file():
        top.write_bytes(written.read_bytes())
    return top


def build_single_page(root: Path, path_output: Path) -> Path:
    """``jupyter-book build --builder singlehtml`` with the book's flags; the page."""
    jupyter_book = Path(sys.executable).parent / "jupyter-book"
    command = [str(jupyter_book), "build", str(root), "--builder", "singlehtml"]
    command += ["--path-output", str(path_output), "-W", "-n", "--keep-going"]
    subprocess.run(command, check=True)
    return single_page(root, path_output)


def print_pdf(page_html: Path, target: Path) -> dict:
    """Print ``page_html`` to ``target``; what was done (formulas, solutions moved, seconds)."""
    from playwright.sync_api import sync_playwright

    if not CHROMIUM.exists():
        raise SystemExit(f"{CHROMIUM} is missing: `make pdf` installs Debian's chromium")
    start = time.monotonic()
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_FLAGS
        )
        try:
            # The paper's printable width (A4 less the margins), so the page is laid out at
            # the width it is printed at (wider, its right side was cut off).
            page = browser.new_page(viewport={"width": PRINT_WIDTH_PX, "height": 1400})
            page.set_default_timeout(TIMEOUT_MS)
            # The page needs no other site (its files are the site's): refuse every other.
            page.route(re.compile(r"^https?://"), lambda route: route.abort())
            page.goto(page_html.resolve().as_uri(), wait_until="load")
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
    parser.add_argument(
        "--no-build", action="store_true", help="print the existing single-page build"
    )
    args = parser.parse_args(argv)
    out = args.path_output or args.root
    start = time.monotonic()
    if args.no_build:
        page = single_page(args.root, out)
    else:
        page = build_single_page(args.root, out)
    built = time.monotonic() - start
    target = out / "_build" / "html" / PDF
    done = print_pdf(page, target)
    size = os.path.getsize(target) / 1e6
    print(
        f"{target}: {size:.1f} MB; single page built in {built:.0f} s, printed in "
        f"{done['seconds']:.0f} s ({done['formulas']} formulas, {done['shrunk']} shrunk to fit, "
        f"{done['solutions']} solutions moved)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
