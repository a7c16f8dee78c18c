"""Page weight and time to interactive of every page with an explorer, in Chromium.

A script, not a test: ``.venv/bin/python benchmarks/bench_pages.py [--repeat N]``, and a
part of ``make bench``. It measures the built book's chapters (``_build/html``) when
they exist, else standalone pages of the eleven page explorers (``tests/support/page_site.py``).
Each load is cold: a fresh browser context, so nothing is cached; the pages are served
from 127.0.0.1 and every request to another host is aborted (the sandbox is offline; the
book asks none). Reported per page:

- ``weight_kB``: bytes of every local response of the load (HTML, CSS, JS, images);
- ``explorer_kB``: what the page versions add: their snippets in the HTML plus
  ``explorers.js``, ``clfmetrics.js``, ``explorers.css`` and ``selfcheck.js`` (goal: at
  most 300 kB);
- ``interactive_ms``: from navigation start until every explorer on the page is built
  and answers (``clfPage.readyAt``, set by explorers.js), median of the loads (goal: < 1 s);
- ``dom_ready_ms``: when the HTML was parsed (the theme's own scripts included), and
  ``explorer_init_ms``: how long explorers.js took to build the page's explorers.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = Path("/usr/bin/chromium")
PAGE_FILES = ("explorers.js", "clfmetrics.js", "explorers.css", "selfcheck.js")


def _pages(together: bool = False) -> tuple[Path, list[str], object]:
    """(directory, page paths, server handle or None) of the pages to measure.

    ``together`` (``make bench QUICK=1``): one standalone page holding all eleven explorers,
    one browser load instead of ten, whether or not the book is built.
    """
    sys.path.insert(0, str(ROOT / "tests" / "support"))
    from local_server import serve
    from page_site import explorers, standalone, write_site

    if together:
        from clfbook.widgets.page import page_html

        directory = Path(tempfile.mkdtemp(prefix="bench-pages-"))
        write_site(directory, {})  # the static files
        snippets = "".join(page_html(explorer) for explorer in explorers().values())
        (directory / "all.html").write_text(standalone(snippets, "the eleven page explorers"))
        return directory, ["all.html"], serve(directory)
    html = ROOT / "_build" / "html"
    built = sorted(
        p.relative_to(html).as_posix()
        for p in (html / "chapters").glob("*.html")
        if "clf-page-explorer" in p.read_text(errors="ignore")
    )
    if built:
        return html, built, serve(html)
    directory = Path(tempfile.mkdtemp(prefix="bench-pages-"))
    pages = write_site(directory, explorers())
    return directory, sorted(pages.values()), serve(directory)


def bench_pages(repeat: int = 3, together: bool = False) -> list[dict]:
    """One row per page with an explorer: weight, explorer share, time to interactive.

    ``together``: the eleven explorers on one page (see ``_pages``), one row.
    """
    if not CHROMIUM.exists():
        return []
    from playwright.sync_api import sync_playwright

    directory, paths, (base, server) = _pages(together)
    static = directory / "_static" if (directory / "_static").is_dir() else directory
    shared = sum((static / name).stat().st_size for name in PAGE_FILES)
    rows = []
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(
                executable_path=str(CHROMIUM), headless=True, args=["--no-sandbox"]
            )
            for path in paths:
                source = (directory / path).read_text()
                snippets = _snippets_in(source)
                weights, times, inits, dom = [], [], [], []
                for _ in range(repeat):
                    context = browser.new_context()
                    page = context.new_page()
                    sizes: list[int] = []
                    page.route(
                        "**/*",
                        lambda r: r.continue_() if r.request.url.startswith(base) else r.abort(),
                    )
                    page.on("response", lambda resp, s=sizes: s.append(len(resp.body() or b"")))
                    page.goto(f"{base}/{path}", wait_until="load")
                    page.wait_for_function("() => window.clfPage && clfPage.readyAt > 0")
                    times.append(page.evaluate("() => clfPage.readyAt"))
                    inits.append(page.evaluate("() => clfPage.initMs"))
                    dom.append(
                        page.evaluate(
                            "() => performance.getEntriesByType('navigation')[0]"
                            ".domContentLoadedEventStart"
                        )
                    )
                    weights.append(sum(sizes))
                    context.close()
                rows.append(
                    {
                        "page": path,
                        "explorers": source.count('class="clf-page-explorer"'),
                        "weight_kB": round(statistics.median(weights) / 1000, 1),
                        "explorer_kB": round((snippets + shared) / 1000, 1),
                        "interactive_ms": round(statistics.median(times), 1),
                        "interactive_max_ms": round(max(times), 1),
                        "dom_ready_ms": round(statistics.median(dom), 1),
                        "explorer_init_ms": round(statistics.median(inits), 1),
                    }
                )
            browser.close()
    finally:
        server.shutdown()
    return rows


def _snippets_in(source: str) -> int:
    """Bytes of the page explorers' snippets in an HTML file."""
    total, start = 0, 0
    while (k := source.find('<div class="clf-page-explorer"', start)) >= 0:
        end = source.find("</script></div>", k) + len("</script></div>")
        total += len(source[k:end].encode())
        start = end
    return total


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    for row in bench_pages(args.repeat):
        print(row)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
