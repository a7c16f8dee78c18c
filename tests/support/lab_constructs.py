"""Which MyST constructs each chapter shows in JupyterLab, and the chapters that show them all.

What can go wrong in JupyterLab beyond what the built page's tests check is whether
``jupyterlab-myst`` renders each construct the book uses (a directive and each of its
options, a role, a math form, nesting, a table...) instead of showing its markup.
Rendering a chapter there costs seconds of CPU, quadratic in its markdown cells
(``jupyterlab-myst`` runs a notebook-wide pass at the first render of each cell), so the
real-JupyterLab test opens only :func:`lab_chapters`: chapters chosen by a greedy set cover
so that together they contain every construct found in any chapter. A chapter with a new
construct joins that set by itself; ``tests/book/test_lab_constructs.py`` checks the cover.

Two kinds of markup mean the same wherever they stand, so each instance is rendered out of
its chapter instead, all in one cell (one notebook-wide pass): math expressions (JupyterLab's
KaTeX, not the book's, may refuse one expression or another; the math *forms* are
still constructs of the cover) and code blocks of the text (:data:`FRAGMENTS`).

The constructs are read from what JupyterLab is given: each markdown cell as the book's
contents manager rewrites it (:func:`~clfbook.tooling.lab_markup.lab_markdown`), parsed
with the parser the book builds with (myst-parser's markdown-it, with the extensions of
``_config.yml``), directive bodies parsed again as Sphinx does.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import yaml
from chapter_runner import ROOT, notebook_pages, read_notebook
from markdown_it.renderer import RendererHTML
from myst_parser.config.main import MdParserConfig
from myst_parser.parsers.mdit import create_md_parser

from clfbook.tooling.lab_markup import Book, lab_markdown

#: The chapter with an explorer that the JupyterLab test opens as a notebook and runs.
EXPLORER_CHAPTER = "chapters/01-confusion-matrix.md"

DIRECTIVE = re.compile(r"^\{(?P<name>[^}\s]+)\}\s*(?P<arg>.*)$")
OPTION = re.compile(r"^:(?P<key>[\w-]+):")
#: Text that would read as raw MyST if it reached the reader as it is (a role or a
#: directive that the parser did not take as one); such a chapter must be looked at.
RAW_LOOKING = re.compile(r"\{[a-z]+(?::[a-z]+)*\}|^\s*(`{3,}|:{3,})|^\s*\([\w:.-]+\)=")
#: Constructs (top level) whose every instance is rendered in the cell of fragments, so the
#: cover leaves them out: code blocks of the text, by language (one chapter has them).
FRAGMENTS = ("code ",)
#: Token types that are only structure or plain text, not a construct to render.
PLAIN = {"inline", "text", "softbreak", "paragraph_open", "paragraph_close"}
#: What counts on its own inside a directive (MyST's own constructs, HTML, raw-looking
#: text); the rest (emphasis, lists, links, tables...) is "markdown" there: the risk is
#: that the body is not parsed at all, not that one kind of emphasis fails in one directive.
NESTED_KINDS = ("myst", "role", "html", "code ", "raw-looking", "{")


@cache
def _parser():
    config = yaml.safe_load((ROOT / "_config.yml").read_text())
    extensions = set(config["parse"]["myst_enable_extensions"])
    return create_md_parser(MdParserConfig(enable_extensions=extensions), RendererHTML)


def _name(kind: str, context: str) -> str:
    """A construct's name; inside a directive, CommonMark's own formatting is one construct."""
    if context and not kind.startswith(NESTED_KINDS):
        kind = "markdown"
    return context + kind


def _inline(tokens, found: set[str], context: str) -> None:
    for token in tokens:
        kind = token.type
        if kind == "text" and RAW_LOOKING.search(token.content):
            found.add(f"{context}raw-looking text")
        if kind in PLAIN or kind.endswith("_close"):
            continue
        if kind == "myst_role":
            kind = f"role {{{token.meta['name']}}}"
        elif kind == "link_open":
            href = token.attrs.get("href", "")
            kind = "link " + ("url" if "://" in href else Path(href.split("#")[0]).suffix or "#")
        found.add(_name(kind, context))
        _inline(token.children or [], found, context)


def constructs(markdown: str, context: str = "") -> set[str]:
    """The constructs of one markdown text (a cell, or a directive's body), by name.

    ``context`` prefixes what sits inside a directive (``{admonition} > {dropdown}``), so
    that a construct nested in another directive counts as a construct of its own. Options
    count by name, whether written ``:key: value`` or as a YAML block.
    """
    found: set[str] = set()
    for token in _parser().parse(markdown):
        kind = token.type
        if kind in PLAIN or kind.endswith("_close"):
            if kind == "inline":
                _inline(token.children or [], found, context)
            continue
        if kind in ("fence", "colon_fence"):
            directive = DIRECTIVE.match(token.info.strip())
            if directive is None:  # a code block: its language is the construct
                found.add(f"{context}code {token.info.strip() or '(none)'}")
                continue
            name = "{" + directive.group("name") + "}"
            found.add(f"{context}{name}" + (" via :::" if kind == "colon_fence" else ""))
            if directive.group("arg"):
                found.add(f"{context}{name} argument")
                _inline(_parser().parseInline(directive.group("arg")), found, f"{name} title > ")
            lines = token.content.splitlines()
            if lines and lines[0].strip() == "---" and "---" in (s.strip() for s in lines[1:]):
                end = 1 + [s.strip() for s in lines[1:]].index("---")
                keys = (yaml.safe_load("\n".join(lines[1:end])) or {}).keys()
                found.update(f"{context}{name} :{key}:" for key in keys)
                lines = lines[end + 1 :]
            while lines and OPTION.match(lines[0]):
                found.add(f"{context}{name} :{OPTION.match(lines.pop(0)).group('key')}:")
            found |= constructs("\n".join(lines), f"{name} > ")
            continue
        if kind == "heading_open":
            kind = f"heading {token.tag}"
        found.add(_name(kind, context))
    return found


def chapter_cells(path: Path, book: Book | None = None) -> list[str]:
    """The markdown cells of a chapter as JupyterLab receives them (rewritten for reading)."""
    book = book or Book.from_folder(path.parent)
    here = path.relative_to(path.parent).with_suffix("").as_posix()
    cells = read_notebook(path).cells
    return [lab_markdown(c.source, book, here) for c in cells if c.cell_type == "markdown"]


def chapter_constructs(path: Path, book: Book | None = None) -> set[str]:
    """Every construct of one chapter (its markdown cells as JupyterLab shows them)."""
    return set().union(*map(constructs, chapter_cells(path, book)))


def cost(cells: list[str]) -> int:
    """The rendering cost of a chapter in JupyterLab: markdown cells x markdown characters."""
    return len(cells) * sum(map(len, cells))


def cover(found: dict[str, set[str]], costs: dict[str, int], start: list[str]) -> list[str]:
    """A small set of chapters containing every construct: greedy weighted set cover.

    ``start`` is opened anyway; then the chapter with the most new constructs per unit of
    cost joins, until none is left (ties: the cheaper, then the first by name).
    """
    chosen = list(start)
    missing = set().union(*found.values()) - set().union(*(found[c] for c in chosen))
    while missing:
        best = max(
            (c for c in sorted(found) if c not in chosen and found[c] & missing),
            key=lambda c: (len(found[c] & missing) / costs[c], -costs[c]),
        )
        chosen.append(best)
        missing -= found[best]
    return chosen


@cache
def book_cells() -> dict[str, list[str]]:
    """Chapter path (relative to the repository) -> its markdown cells as JupyterLab gets
    them, for every notebook page."""
    book = Book.from_folder(ROOT / "chapters")
    return {p.relative_to(ROOT).as_posix(): chapter_cells(p, book) for p in notebook_pages()}


@cache
def book_constructs() -> dict[str, set[str]]:
    """Chapter path (relative to the repository) -> its constructs, for every notebook page."""
    return {c: set().union(*map(constructs, cells)) for c, cells in book_cells().items()}


def lab_chapters(start: str) -> list[str]:
    """The chapters the real-JupyterLab test opens: ``start`` first, then the cover."""
    costs = {c: cost(cells) for c, cells in book_cells().items()}
    found = {c: {s for s in f if not s.startswith(FRAGMENTS)} for c, f in book_constructs().items()}
    return cover(found, costs, [start])


def math_expressions(cells: list[str]) -> list[tuple[str, str]]:
    """Every math expression of some markdown cells, in order and repeated as often as it
    occurs, as (form, LaTeX): "inline" or "display". Directive bodies are searched too."""
    found = []

    def walk(tokens):
        for token in tokens:
            if token.type == "math_inline":
                found.append(("inline", token.content.strip()))
            elif token.type in ("math_block", "math_block_label"):
                found.append(("display", token.content.strip()))
            elif token.type.startswith(("math", "amsmath")):
                raise ValueError(f"a math form the lab's math check does not know: {token.type}")
            elif token.type in ("fence", "colon_fence") and DIRECTIVE.match(token.info.strip()):
                body = token.content.splitlines()
                walk(_parser().parse("\n".join(s for s in body if not OPTION.match(s))))
            walk(token.children or [])

    for cell in cells:
        walk(_parser().parse(cell))
    return found


def code_blocks(cells: list[str]) -> list[tuple[str, str]]:
    """The code blocks of some markdown cells (top level, not directives): (info, code)."""
    return [
        (token.info.strip(), token.content)
        for cell in cells
        for token in _parser().parse(cell)
        if token.type in ("fence", "colon_fence") and not DIRECTIVE.match(token.info.strip())
    ]


def fragments_markdown(
    expressions: set[tuple[str, str]], blocks: set[tuple[str, str]] = frozenset()
) -> str:
    """One markdown text showing each expression once, in its form (one paragraph each),
    then each code block once."""
    math = [
        f"${tex}$" if form == "inline" else f"$$\n{tex}\n$$" for form, tex in sorted(expressions)
    ]
    code = [f"````{info}\n{text}````" for info, text in sorted(blocks)]
    return "\n\n".join(math + code)
