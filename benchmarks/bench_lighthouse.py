"""Lighthouse on the built book beside a bare Jupyter Book page of the same theme.

A part of ``make bench`` (not of ``--quick``), and a script:
``.venv/bin/python benchmarks/bench_lighthouse.py [--runs N] [--page PAGE] [--reports DIR]``.
It needs the built book (``_build/html``, ``make book``), Debian's Chromium and npm:
Lighthouse is pinned in ``benchmarks/package.json`` / ``package-lock.json`` and installed into
``benchmarks/node_modules`` by ``npm ci`` the first time (never a downloaded browser).

Every page is served gzipped from a loopback server (``gzip_server.py``) and audited with
Lighthouse's default mobile emulation (simulated slow 4G, 4x CPU slowdown). The bare page is
a one-page book generated in a temporary folder and built with the same ``jupyter-book``.
Every chapter (the toc's pages but the API reference and the references) is audited ``runs``
times, interleaved with the bare page: round k audits the bare page, then each chapter once,
so that a change in the machine's load during the bench falls on every page alike (one run
swings by 10 points). The median score is reported with the range of the performance score
and of the machine's load (its one-minute load average as each run starts: the machine may be
shared), and each chapter's performance beside the bare page's median.

Goals (issues 25 and 40): accessibility and best practices 100, SEO at least 95, mobile
performance (the median of 5 runs) within 5 points of the bare page's.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
CHROMIUM = Path("/usr/bin/chromium")
LIGHTHOUSE = HERE / "node_modules" / ".bin" / "lighthouse"


def chapters() -> list[str]:
    """Every chapter of the toc, as built pages (the API reference and references aside)."""
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    names = [toc["root"]]
    for part in toc["parts"]:
        names += [entry["file"] for entry in part["chapters"]]
    skip = ("chapters/api/", "chapters/references")
    return [f"{name}.html" for name in names if not name.startswith(skip)]


PAGES = chapters()
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
METRICS = {
    "first-contentful-paint": "fcp_ms",
    "largest-contentful-paint": "lcp_ms",
    "total-blocking-time": "tbt_ms",
    "cumulative-layout-shift": "cls",
    "speed-index": "speed_index_ms",
}
GOALS = {"accessibility": 100, "best-practices": 100, "seo": 95, "performance_gap": 5}
RUNS = 5

BARE_CONFIG = """title: A bare book
author: Nobody
execute:
  execute_notebooks: "off"
"""
BARE_TOC = "format: jb-book\nroot: intro\n"
BARE_INTRO = """# A bare page

This page is the default Jupyter Book with its default theme and nothing added: the
yardstick for the book's own pages.

## A section

Some text, so that the page has a body to paint. Some more text, so that the page
has a paragraph of ordinary length like the chapters have.
"""


def ensure_lighthouse() -> Path | None:
    """The pinned Lighthouse, installed with ``npm ci`` when missing; None without npm."""
    if LIGHTHOUSE.exists():
        return LIGHTHOUSE
    npm = shutil.which("npm")
    if npm is None:
        print("bench_lighthouse: npm is missing (apt-get install npm); skipped", file=sys.stderr)
        return None
    subprocess.run(
        [npm, "ci", "--no-audit", "--no-fund", "--ignore-scripts"],
        cwd=HERE,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return LIGHTHOUSE


def build_bare_book(folder: Path) -> Path:
    """A one-page Jupyter Book with the default theme, built into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "_config.yml").write_text(BARE_CONFIG)
    (folder / "_toc.yml").write_text(BARE_TOC)
    (folder / "intro.md").write_text(BARE_INTRO)
    jupyter_book = Path(sys.executable).parent / "jupyter-book"
    subprocess.run(
        [str(jupyter_book), "build", str(folder), "-q"],
        check=True,
        capture_output=True,
    )
    return folder / "_build" / "html"


def audit(lighthouse: Path, url: str, out: Path) -> dict:
    """One Lighthouse run (mobile, default throttling): category scores, metrics, failures."""
    flags = "--headless=new --no-sandbox --disable-gpu --no-first-run --disable-sync"
    load = os.getloadavg()[0]
    subprocess.run(
        [
            str(lighthouse),
            url,
            "--quiet",
            "--output=json",
            f"--output-path={out}",
            f"--only-categories={','.join(CATEGORIES)}",
            f"--chrome-flags={flags}",
            "--max-wait-for-load=120000",
        ],
        check=True,
        env={**os.environ, "CHROME_PATH": str(CHROMIUM)},
        capture_output=True,
        timeout=600,
    )
    report = json.loads(out.read_text())
    scores = {name: round(100 * report["categories"][name]["score"]) for name in CATEGORIES}
    audits = report["audits"]
    metrics = {key: audits[name]["numericValue"] for name, key in METRICS.items()}
    failed = sorted(
        ref["id"]
        for name in CATEGORIES[1:]
        for ref in report["categories"][name]["auditRefs"]
        if ref["weight"] > 0 and (audits[ref["id"]].get("score") or 0) < 1
        if audits[ref["id"]].get("scoreDisplayMode") == "binary"
    )
    console = audits["errors-in-console"].get("details", {}).get("items", [])
    return {
        "scores": scores,
        "metrics": metrics,
        "failed": failed,
        "console": sorted({str(item.get("description", ""))[:120] for item in console}),
        "dom_size": audits["dom-size"].get("numericValue"),
        "load": load,
    }


def _row(label: str, runs: list[dict]) -> dict:
    row = {"page": label, "runs": len(runs)}
    for name in CATEGORIES:
        values = [r["scores"][name] for r in runs]
        row[name] = statistics.median(values)
    perf = [r["scores"]["performance"] for r in runs]
    row["performance_range"] = f"{min(perf)}-{max(perf)}"
    load = [r["load"] for r in runs]
    row["load_range"] = f"{min(load):.1f}-{max(load):.1f}"
    for key in METRICS.values():
        row[key] = round(statistics.median(r["metrics"][key] for r in runs), 3)
    row["dom_size"] = runs[0]["dom_size"]
    row["failed"] = sorted({a for r in runs for a in r["failed"]})
    row["console"] = sorted({c for r in runs for c in r["console"]})
    return row


def bench_lighthouse(
    runs: int = RUNS,
    pages: list[str] = PAGES,
    html: Path | None = None,
    reports: Path | None = None,
) -> dict:
    """Scores of the book's pages and of the bare page, with the goals checked; with
    ``reports``, every run's Lighthouse report is kept there (to see what costs a score)."""
    html = html or ROOT / "_build" / "html"
    if not CHROMIUM.exists() or not (html / PAGES[0]).exists():
        return {"skipped": "needs /usr/bin/chromium and the built book (make book)"}
    lighthouse = ensure_lighthouse()
    if lighthouse is None:
        return {"skipped": "needs npm for the pinned lighthouse"}
    sys.path.insert(0, str(HERE))
    from gzip_server import serve_gzipped

    with tempfile.TemporaryDirectory(prefix="bench-lighthouse-") as tmp:
        tmp = Path(tmp)
        bare = build_bare_book(tmp / "bare")
        sites = [("bare Jupyter Book page", bare, "intro.html")]
        sites += [(page, html, page) for page in pages]
        servers = [serve_gzipped(directory) for _, directory, _ in sites]
        results: list[list[dict]] = [[] for _ in sites]
        try:
            for n in range(runs):
                for k, ((_, _, page), (base, _)) in enumerate(zip(sites, servers, strict=True)):
                    out = tmp / "report.json"
                    if reports is not None:
                        reports.mkdir(parents=True, exist_ok=True)
                        name = "bare" if k == 0 else page.removesuffix(".html").replace("/", "_")
                        out = reports / f"{name}-{n}.json"
                    results[k].append(audit(lighthouse, f"{base}/{page}", out))
        finally:
            for _, server in servers:
                server.shutdown()
        rows = [_row(label, found) for (label, _, _), found in zip(sites, results, strict=True)]
    bare_perf = rows[0]["performance"]
    for row in rows[1:]:
        row["behind_bare"] = bare_perf - row["performance"]
        row["meets_goals"] = (
            row["accessibility"] >= GOALS["accessibility"]
            and row["best-practices"] >= GOALS["best-practices"]
            and row["seo"] >= GOALS["seo"]
            and bare_perf - row["performance"] <= GOALS["performance_gap"]
        )
    return {"goals": GOALS, "pages": rows}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=RUNS)
    parser.add_argument("--page", action="append", help="a page of the book (repeatable)")
    parser.add_argument("--html", type=Path, help="the built book (default: _build/html)")
    parser.add_argument("--reports", type=Path, help="keep every run's report in this folder")
    args = parser.parse_args(argv)
    result = bench_lighthouse(args.runs, args.page or PAGES, args.html, args.reports)
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
