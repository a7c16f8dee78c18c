"""The book whole: one PDF (``make pdf``) and one zip of every chapter's executed notebook,
both linked from every page (``_ext/book_downloads.py``, ``clfbook.tooling.pdf``).

The PDF's text is read with Debian's poppler-utils (``pdftotext``, ``pdfimages``; ``make test``
installs them): every page's title is in it, no formula is left as TeX, every figure of the
pages is drawn, and every solution stands at the end of its chapter.
"""

from __future__ import annotations

import html
import json
import re
import struct
import subprocess
import sys
import unicodedata
import zipfile
from collections import Counter
from functools import cache
from pathlib import Path, PurePosixPath

import nbformat
import pytest
from chapter_runner import ROOT, notebook_pages, toc_files

sys.path.insert(0, str(ROOT / "_ext"))

import book_downloads

TITLE = re.compile(r"<h1>(?P<title>(?:(?!</h1>).)*?)<a class=\"headerlink\"", re.S)
PRE = re.compile(r"<pre\b[^>]*>(?P<code>.*?)</pre>", re.S)
#: TeX of a formula: any beyond the code's own is a formula left raw.
RAW_TEX = ("\\(", "\\)", "$$", "\\frac", "\\begin{", "\\mathcal")
FIGURE = re.compile(r"<img\b[^>]*\bsrc=\"(?:\.\./)*_images/(?P<name>[^\"]+)\"", re.I)
SOLUTION = re.compile(r'<div class="solution dropdown admonition"')
FOOTER = re.compile(r'<p class="clf-book-downloads">(?P<links>.*?)</p>', re.S)
HREF = re.compile(r'href="(?P<href>[^"]+)"')


def _plain(text: str) -> str:
    """Text as ``pdftotext`` gives it back, compared word for word: ligatures undone (NFKC),
    whitespace collapsed."""
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", text)).strip()


def _pages(built_html: Path) -> dict[str, str]:
    """Every page of the table of contents, by path (``chapters/intro.html``): its HTML."""
    pages = {}
    for path in toc_files():
        page = path.relative_to(ROOT).with_suffix(".html").as_posix()
        pages[page] = (built_html / page).read_text(encoding="utf-8")
    return pages


def _title(page: str) -> str:
    found = TITLE.search(page)
    assert found, "a page without a title"
    return _plain(html.unescape(re.sub(r"<[^>]+>", "", found["title"])))


@cache
def _pdf_text(pdf: Path) -> str:
    out = subprocess.run(
        ["pdftotext", "-enc", "UTF-8", str(pdf), "-"], capture_output=True, check=True
    )
    return out.stdout.decode("utf-8")


def _pdf_images(pdf: Path) -> list[list[str]]:
    """``pdfimages -list``'s rows of drawn images (a PNG's alpha channel is a row of its own,
    an ``smask``, and not counted)."""
    out = subprocess.run(
        ["pdfimages", "-list", str(pdf)], capture_output=True, text=True, check=True
    )
    rows = [line.split() for line in out.stdout.splitlines()[2:] if line.strip()]
    return [row for row in rows if row[2] == "image"]


# -- the extension, without a build -----------------------------------------------------


def test_notebooks_zip_holds_every_notebook_of_the_sources_by_path(tmp_path):
    sources = tmp_path / "_sources" / "chapters"
    sources.mkdir(parents=True)
    for name in ("02-b.ipynb", "01-a.ipynb", "01-a.md"):
        (sources / name).write_text(name)
    target = book_downloads.write_notebooks(tmp_path)
    assert target == tmp_path / book_downloads.NOTEBOOKS
    with zipfile.ZipFile(target) as bundle:
        assert bundle.namelist() == ["chapters/01-a.ipynb", "chapters/02-b.ipynb"]
        assert bundle.read("chapters/02-b.ipynb") == b"02-b.ipynb"


def test_notebooks_zip_refuses_a_build_without_notebooks(tmp_path):
    (tmp_path / "_sources").mkdir()
    with pytest.raises(RuntimeError, match="no executed notebook"):
        book_downloads.write_notebooks(tmp_path)


class _Builder:
    def __init__(self, single: bool):
        self.single = single

    def get_target_uri(self, docname: str) -> str:
        return f"index.html#document-{docname}" if self.single else f"{docname}.html"


@pytest.mark.parametrize(
    ("single", "docname", "expected"),
    [
        (False, "chapters/intro", "../evaluating-classifiers.pdf"),
        (False, "chapters/api/metrics", "../../evaluating-classifiers.pdf"),
        (False, "index", "evaluating-classifiers.pdf"),
        (True, "chapters/intro", "evaluating-classifiers.pdf"),
    ],
)
def test_a_link_in_the_text_is_relative_to_its_page(single, docname, expected):
    assert book_downloads.relative_uri(_Builder(single), docname, book_downloads.PDF) == expected


def test_footer_links_both_files_through_the_pages_own_paths():
    footer = book_downloads.footer_links(lambda name, resource: f"../{name}")
    assert HREF.findall(footer) == [
        "../evaluating-classifiers.pdf",
        "../evaluating-classifiers-notebooks.zip",
    ]


def _page(head: str, article: str) -> str:
    return (
        f"<!DOCTYPE html><html><head>{head}</head><body><nav>menu</nav>"
        f'<article class="bd-article">{article}</article></body></html>'
    )


def test_the_pdf_joins_the_built_pages_into_one(browser, tmp_path):
    """Two pages of a site, as the HTML build writes them, joined: each article after its
    ``document-`` anchor, in order; a link to the other page leads to its place (its own
    anchor where it names one); the site's other addresses relative to its root; the head
    loads what either page's head loads, once."""
    from clfbook.tooling import pdf

    (tmp_path / "chapters" / "api").mkdir(parents=True)
    (tmp_path / "_static").mkdir()
    (tmp_path / "_static" / "a.css").write_text("p { color: red }")
    (tmp_path / "_static" / "math.js").write_text("window.mathLoaded = true;")
    (tmp_path / "chapters" / "a.html").write_text(
        _page(
            '<link rel="stylesheet" href="../_static/a.css">',
            '<section id="sec-a"><h1>A</h1><p><a href="api/b.html#there">b there</a> '
            '<a href="api/b.html">b</a> <a href="#sec-a">here</a> '
            '<a href="https://example.org/x">out</a> <img src="../_images/f.png"></p></section>',
        )
    )
    (tmp_path / "chapters" / "api" / "b.html").write_text(
        _page(
            '<link rel="stylesheet" href="../../_static/a.css">'
            "<script>window.MathJax = {};</script>"
            '<script defer src="../../_static/math.js"></script>',
            '<section id="sec-b"><h1>B</h1><p id="there">'
            '<a href="../a.html">back</a></p></section>',
        )
    )
    joined = pdf.join_pages(browser, tmp_path, ["chapters/a", "chapters/api/b"])
    assert joined.index('<span id="document-chapters/a"></span><section id="sec-a">') < (
        joined.index('<span id="document-chapters/api/b"></span><section id="sec-b">')
    )
    assert joined.count("<nav>menu</nav>") == 1 and joined.count("<article") == 1
    assert 'href="#there"' in joined and 'href="#document-chapters/api/b"' in joined
    assert 'href="#sec-a"' in joined and 'href="#document-chapters/a"' in joined
    assert 'href="https://example.org/x"' in joined and 'src="_images/f.png"' in joined
    assert joined.count('href="_static/a.css"') == 1
    assert joined.count("window.MathJax = {};") == 1
    assert joined.count('src="_static/math.js"') == 1


def test_the_pdf_needs_every_page_built(tmp_path, capsys):
    from clfbook.tooling import pdf

    (tmp_path / "_toc.yml").write_text("root: chapters/intro\n")
    with pytest.raises(SystemExit, match=r"lacks chapters/intro\.html: build the book first"):
        pdf.main(["--root", str(tmp_path)])


# -- the built book ---------------------------------------------------------------------


def _resolves(built_html: Path, page: str, href: str) -> Path:
    return (built_html / PurePosixPath(page).parent / href).resolve()


def test_every_page_links_to_the_pdf_and_the_notebooks(built_pdf, built_html):
    """Every page's footer links both files, each path leading to the file from that page."""
    wanted = {built_pdf.resolve(), (built_html / book_downloads.NOTEBOOKS).resolve()}
    pages = sorted(
        p.relative_to(built_html).as_posix()
        for p in built_html.rglob("*.html")
        if not p.relative_to(built_html).parts[0].startswith("_")  # the theme's own files
    )
    pages = [p for p in pages if 'http-equiv="Refresh"' not in (built_html / p).read_text()[:500]]
    assert len(pages) > len(toc_files())
    for page in pages:
        footer = FOOTER.search((built_html / page).read_text(encoding="utf-8"))
        assert footer, f"{page}: no link to the PDF and the notebooks"
        targets = {_resolves(built_html, page, h) for h in HREF.findall(footer["links"])}
        assert targets == wanted, page
        assert all(t.is_file() for t in targets), page


def test_intro_and_teaching_link_both_files(built_html):
    for page in ("chapters/intro.html", "chapters/teaching.html"):
        text = (built_html / page).read_text(encoding="utf-8")
        links = re.findall(r'<a class="[^"]*clf-book-download[^"]*" href="([^"]+)"', text)
        links += re.findall(r'<a [^>]*href="([^"]+)"[^>]*class="[^"]*clf-book-download', text)
        names = {PurePosixPath(h).name for h in links}
        assert names == {book_downloads.PDF, book_downloads.NOTEBOOKS}, page


def test_notebooks_zip_holds_every_chapter_executed_and_valid(built_html):
    """One notebook per chapter, each valid, its code cells run (outputs kept), no hidden check."""
    chapters = {p.relative_to(ROOT).with_suffix(".ipynb").as_posix() for p in notebook_pages()}
    with zipfile.ZipFile(built_html / book_downloads.NOTEBOOKS) as bundle:
        assert set(bundle.namelist()) == chapters
        for name in sorted(chapters):
            nb = nbformat.reads(bundle.read(name).decode("utf-8"), as_version=4)
            nbformat.validate(nb)
            code = [c for c in nb.cells if c.cell_type == "code"]
            tags = [set(c.metadata.get("tags", [])) for c in code]
            assert not [t for t in tags if "hidden-check" in t], name
            ran = [c for c, t in zip(code, tags, strict=True) if "skip-execution" not in t]
            assert ran and all(c.execution_count for c in ran), f"{name}: a cell did not run"
            assert sum(len(c.outputs) for c in ran) >= len(ran) // 2, f"{name}: outputs missing"


def test_pdf_holds_every_pages_title(built_pdf, built_html):
    text = _plain(_pdf_text(built_pdf))
    missing = [page for page, html_ in _pages(built_html).items() if _title(html_) not in text]
    assert not missing, missing


def test_pdf_has_no_formula_left_as_tex(built_pdf, built_html):
    """Every formula is printed typeset (the build typesets them): the PDF holds no more
    TeX than the code shown on the pages (a sympy cell's ``r"\\frac..."``)."""
    text = _pdf_text(built_pdf)
    code = "".join(
        html.unescape(re.sub(r"<[^>]+>", "", found["code"]))
        for page in _pages(built_html).values()
        for found in PRE.finditer(page)
    )
    assert code.count("\\frac"), "no TeX in the pages' code: what is this test comparing?"
    for raw in RAW_TEX:
        assert text.count(raw) <= code.count(raw), (
            f"raw TeX {raw!r} in the PDF: {text[text.find(raw) - 200 :][:400]!r}"
        )


def _png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n", f"{path.name}: not a PNG"
    return struct.unpack(">II", head[16:24])


def test_pdf_draws_every_figure_of_the_pages(built_pdf, built_html):
    """Every figure of the pages (an explorer's static figure among them) is drawn in the
    PDF at its own pixel size: a figure that failed to load would be a browser's 16-pixel
    broken-image icon instead."""
    names = [f["name"] for page in _pages(built_html).values() for f in FIGURE.finditer(page)]
    assert len(names) >= len(notebook_pages())
    wanted = Counter(_png_size(built_html / "_images" / name) for name in names)
    drawn = Counter((int(row[3]), int(row[4])) for row in _pdf_images(built_pdf))
    assert drawn == wanted


def test_pdf_puts_each_chapters_solutions_at_its_end(built_pdf, built_html):
    """Each solution once, unfolded, under its chapter's "Solutions" at the chapter's end."""
    text = _plain(_pdf_text(built_pdf))
    pages = _pages(built_html)
    solved = {page: len(SOLUTION.findall(html_)) for page, html_ in pages.items()}
    assert sum(solved.values()) > 0
    assert text.count("Solution to Exercise") == sum(solved.values())
    order = [page for page in pages]
    for page, count in solved.items():
        if not count:
            continue
        heading = f"Solutions: {_title(pages[page])}"
        assert heading in text, page
        start = text.index(heading)
        later = order[order.index(page) + 1 :]
        end = min(
            (text.find(_title(pages[p]), start) for p in later if _title(pages[p]) in text[start:]),
            default=len(text),
        )
        assert text[start:end].count("Solution to Exercise") == count, page


def test_pdf_keeps_proofs_and_exercises(built_pdf, built_html):
    text = _plain(_pdf_text(built_pdf))
    pages = "".join(_pages(built_html).values())
    exercises = len(re.findall(r'<div class="exercise admonition"', pages))
    proofs = len(re.findall(r'<div class="proof admonition"', pages))
    assert exercises and proofs
    assert len(re.findall(r"\bExercise \d+ ", text)) >= exercises
    assert text.count("Proof.") >= proofs


def test_readme_and_contributing_name_make_pdf():
    for name in ("README.md", "CONTRIBUTING.md"):
        assert "make pdf" in (ROOT / name).read_text(), name


def test_json_of_the_zip_is_what_the_site_offers(built_html):
    """The zip's notebooks are the site's own download copies, byte for byte."""
    with zipfile.ZipFile(built_html / book_downloads.NOTEBOOKS) as bundle:
        for name in bundle.namelist():
            offered = built_html / "_sources" / name
            assert bundle.read(name) == offered.read_bytes(), name
            json.loads(offered.read_text(encoding="utf-8"))
