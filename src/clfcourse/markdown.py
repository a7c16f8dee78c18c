"""MyST markdown as plain CommonMark plus math, for notebooks opened without a MyST renderer.

The chapters are written in MyST: directives (```` ```{exercise} ````, ``{prf:definition}``,
``{note}``, ``{figure}``, ``{selfcheck}`` ...), roles (``{cite:t}`key```, ``{prf:ref}``,
``{ref}``, ``{numref}``, ``{glue:text}`` ...), targets ``(label)=`` and ``:label:`` options.
Classic Jupyter, VS Code or a JupyterLab without ``jupyterlab-myst`` shows them as raw text.
:func:`to_commonmark` rewrites one markdown cell:

- an exercise becomes ``**Exercise 4.2** (title)`` and its text; definitions, theorems and
  lemmas become ``**Definition 4.1** (title)``, a proof ``*Proof.* ... ∎``, an admonition a
  quote ``> **Note.** ...``, a figure an image and its caption, a self-check its question (the
  choices without the ticked answer);
- a reference becomes the name of its target (``Definition 4.1``, the section's title), a
  citation author-year text from ``references.bib`` (``Opitz & Burst (2019)``), a glued number
  its value from the executed chapter, or, without one, a pointer to the cell that computes it;
- targets, labels, options, ``(label)`` after display math and MyST comments go.

:class:`Book` holds what the rewrite looks up: every labelled target of the book, the
bibliography and, per chapter, the glued values of its last build.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import jupytext
import nbformat

from .exercises import _OPEN, _closes, _options, toc_pages

#: Directive name -> the word its heading starts with (numbered per chapter).
NUMBERED = {
    "exercise": "Exercise",
    "exercise-start": "Exercise",
    "prf:definition": "Definition",
    "prf:theorem": "Theorem",
    "prf:lemma": "Lemma",
    "prf:corollary": "Corollary",
    "prf:proposition": "Proposition",
    "prf:example": "Example",
    "prf:remark": "Remark",
}
ADMONITIONS = {"note", "warning", "tip", "hint", "important", "caution", "attention", "danger"}
#: Directives whose content is left out: the book's furniture, or solutions.
DROPPED = {"bibliography", "tableofcontents", "solution", "solution-start", "exercise-end"}


@dataclass
class Target:
    """What a reference to a label shows: its kind (``Exercise``, ``section``...) and title."""

    kind: str
    title: str = ""
    number: str = ""

    def name(self) -> str:
        """``Definition 4.1``; a section is its quoted title."""
        if self.kind == "section":
            return f"“{self.title}”" if self.title else "this section"
        return f"{self.kind} {self.number}".strip()

    def text(self) -> str:
        """What a reference shows: the name and, for a block, its title."""
        if self.kind == "section" or not self.title:
            return self.name()
        return f"{self.name()} ({self.title})"


@dataclass
class Book:
    """The labelled targets, citations and glued values the rewrite looks up."""

    targets: dict[str, Target] = field(default_factory=dict)
    citations: dict[str, tuple[str, str]] = field(default_factory=dict)
    glue: dict[str, dict[str, str]] = field(default_factory=dict)
    titles: dict[str, str] = field(default_factory=dict)

    @classmethod
    def load(cls, root: Path) -> Book:
        """Targets and titles of every page of ``root/_toc.yml``, citations of its bib file."""
        root = Path(root)
        book = cls(citations=read_bibliography(root / "references.bib"))
        pages = toc_pages(root) if (root / "_toc.yml").exists() else []
        for page in pages:
            if page.exists():
                book.add_page(page.read_text(), page.stem, _doc_name(page, root))
        return book

    def add_page(self, text: str, stem: str, doc: str | None = None) -> None:
        """Index the labelled blocks, targets and figures of one page."""
        chapter = re.match(r"\d+", stem)
        prefix = f"{int(chapter[0])}." if chapter else ""
        counts: dict[str, int] = {}
        lines = text.split("\n")
        heading = next((ln[2:].strip() for ln in lines if ln.startswith("# ")), stem)
        if doc:
            self.titles[doc] = heading
        skip, closers = -1, set()
        for k, line in enumerate(lines):
            if k <= skip or k in closers:  # inside a code block, or a directive's end
                continue
            opened = _OPEN.match(line)
            if opened:
                ends = (j for j in range(k + 1, len(lines)) if _closes(lines[j], opened["fence"]))
                end = next(ends, len(lines))
                closers.add(end)
                if opened["name"] == "code-cell":  # its figure, if it names one
                    skip = end
                    for name in re.findall(
                        r"^\s*name:\s*(fig-[\w.-]+)", "\n".join(lines[k:end]), re.M
                    ):
                        counts["Figure"] = counts.get("Figure", 0) + 1
                        number = f"{prefix}{counts['Figure']}"
                        self.targets.setdefault(name, Target("Figure", "", number))
            if fence := re.match(r"^\s*(`{3,}|~{3,})(?!\{)", line):
                closing = (j for j in range(k + 1, len(lines)) if _closes(lines[j], fence[1]))
                skip = next(closing, len(lines))
            elif m := re.match(r"^\s*\(([\w:.-]+)\)=\s*$", line):
                after = next((ln for ln in lines[k + 1 :] if ln.strip()), "")
                self.targets.setdefault(m[1], Target("section", after.lstrip("#").strip()))
            elif opened and opened["name"] in NUMBERED:
                kind = NUMBERED[opened["name"]]
                counts[kind] = counts.get(kind, 0) + 1
                options = _options(lines[k + 1 : end])[0]
                label = options.get("label") or options.get("name")
                if label:
                    number = f"{prefix}{counts[kind]}"
                    self.targets.setdefault(str(label), Target(kind, opened["arg"], number))

    @classmethod
    def of_page(cls, path: Path) -> Book:
        """A book of one page (its own targets; no citations, no glued values)."""
        book = cls()
        book.add_page(Path(path).read_text(), Path(path).stem)
        return book

    def exercise_heading(self, label: str, title: str) -> str:
        target = self.targets.get(label)
        name = target.name() if target is not None else "Exercise"
        return f"**{name}**" + (f" ({title})" if title else "")


def _doc_name(page: Path, root: Path) -> str:
    try:
        return page.resolve().relative_to(root.resolve()).with_suffix("").as_posix()
    except ValueError:
        return page.stem


def read_bibliography(path: Path) -> dict[str, tuple[str, str]]:
    """Per citation key its authors as cited (``Opitz & Burst``, ``X et al.``) and its year."""
    if not Path(path).exists():
        return {}
    from pybtex.database import parse_file

    found = {}
    for key, entry in parse_file(str(path), bib_format="bibtex").entries.items():
        people = entry.persons.get("author") or entry.persons.get("editor") or []
        names = [_plain(" ".join(p.prelast_names + p.last_names)) for p in people]
        if len(names) > 2:
            who = f"{names[0]} et al."
        else:
            who = " & ".join(names) or _plain(entry.fields.get("title", key))
        found[key] = (who, _plain(entry.fields.get("year", "n.d.")))
    return found


def _plain(text: str) -> str:
    """A BibTeX field as text: accents resolved, braces gone."""
    import codecs

    import latexcodec  # noqa: F401  (registers the codec; pybtex brings it)

    try:
        text = codecs.decode(text, "ulatex")
    except Exception:
        pass
    return re.sub(r"[{}\\]", "", text).strip()


#: How myst-nb stores a glued value's mime types in the output of its cell.
_RECORD = "application/papermill.record/"


def glue_values(executed: nbformat.NotebookNode) -> dict[str, dict[str, str]]:
    """The values ``glue(name, ...)`` left in an executed notebook: per name its mime data."""
    found = {}
    for cell in executed.cells:
        for output in cell.get("outputs", []):
            name = output.get("metadata", {}).get("scrapbook", {}).get("name")
            if name:
                data = output.get("data", {})
                found[name] = {k.removeprefix(_RECORD): str(v) for k, v in data.items()}
    return found


def executed_glue(root: Path, source: nbformat.NotebookNode | Path) -> dict:
    """Glued values of a chapter from the book's execution cache, if its code is still the same.

    ``make book`` keeps every executed chapter in ``root/_build/.jupyter_cache`` (its outputs
    complete: the book's pages drop those of removed cells), matched on the code cells;
    ``source`` is the chapter's notebook, or its path (read only when there is a cache).
    """
    path = Path(root) / "_build" / ".jupyter_cache"
    if not path.is_dir():
        return {}
    source = source if isinstance(source, dict) else read_chapter(Path(source))
    try:
        from jupyter_cache import get_cache

        cache = get_cache(str(path))
        record = cache.match_cache_notebook(source)
        return glue_values(cache.get_cache_bundle(record.pk).nb)
    except Exception:  # no match (the chapter changed since), or no cache package
        return {}


def _format_glue(data: dict[str, str] | None, spec: str, md: bool) -> str | None:
    if not data:
        return None
    if md and "text/markdown" in data:
        return str(data["text/markdown"]).strip()
    text = str(data.get("text/plain", "")).strip()
    if spec:
        try:
            return format(float(text), spec)
        except ValueError:
            pass
    return text.strip("'\"") or None


def _cite(book: Book, keys: str, textual: bool) -> str:
    parts = []
    for key in (k.strip() for k in keys.split(",") if k.strip()):
        who, year = book.citations.get(key, (key, ""))
        parts.append(f"{who} ({year})" if textual else f"{who}, {year}".rstrip(", "))
    return "; ".join(parts) if textual else f"({'; '.join(parts)})"


def _explicit(content: str) -> tuple[str | None, str]:
    """``text <target>`` -> (text, target); ``target`` -> (None, target)."""
    m = re.match(r"^(.*?)\s*<([^<>]+)>\s*$", content, re.S)
    return (m[1].strip() or None, m[2].strip()) if m else (None, content.strip())


def _role(book: Book, name: str, content: str) -> str:
    text, target = _explicit(content)
    if name in ("cite", "cite:p", "cite:ps", "cite:t", "cite:ts", "cite:alp", "cite:author"):
        return _cite(book, target, textual=name.startswith("cite:t") or name == "cite:author")
    if name.startswith("glue"):
        key, _, spec = target.partition(":")
        value = _format_glue(book.glue.get(key), spec, md=name == "glue:md")
        return value if value is not None else f"[{key}: run the cells to see it]"
    if name in ("math",):
        return f"${content}$"
    if name in ("sub", "sup"):
        return f"<{name}>{content}</{name}>"
    if name.startswith("py:") or name in ("func", "class", "mod", "meth", "attr", "code"):
        shown = target.lstrip("~").split(".")[-1] if target.startswith("~") else target
        return f"`{text or shown}`"
    if text is not None and name not in ("numref",):
        return text
    if name == "doc":
        doc = target.removesuffix(".md").lstrip("/")
        titles = [t for d, t in book.titles.items() if d == doc or d.endswith("/" + doc)]
        return f"“{titles[0]}”" if titles else doc
    if name in ("ref", "numref", "prf:ref", "exercise", "solution", "eq", "term", "abbr"):
        found = book.targets.get(target)
        if found is not None:
            return found.text()
        if name == "eq":
            return "the equation above"
        return (text or target).replace("%s", "").strip()
    return text or target


#: A role, or a code span (left alone: it may show MyST on purpose); either may run over a
#: line break of its paragraph.
_INLINE = re.compile(
    r"(?P<role>\{(?P<name>[\w:.+-]+)\}`(?P<content>[^`]*)`)"
    r"|(?P<code>(?P<ticks>`+)[\s\S]*?(?<!`)(?P=ticks)(?!`))"
)


def convert_inline(text: str, book: Book) -> str:
    """Roles as text; everything else as it was."""

    def sub(m: re.Match) -> str:
        return m[0] if m["code"] else _role(book, m["name"], m["content"])

    return _INLINE.sub(sub, text)


def _choices(body: str) -> str:
    """A self-check's choices without which one is ticked."""
    return re.sub(r"^(\s*[-*])\s+\[[ xX]\]\s+", r"\1 ", body, flags=re.M)


def _block(name: str, arg: str, options: dict, body: str, book: Book) -> str:
    """One directive as CommonMark (``body`` already converted)."""
    arg = convert_inline(arg, book)
    if name in DROPPED:
        return ""
    if name in NUMBERED:
        label = str(options.get("label") or options.get("name") or "")
        head = (
            book.exercise_heading(label, arg)
            if label
            else f"**{NUMBERED[name]}**" + (f" ({arg})" if arg else "")
        )
        return f"{head}\n\n{body}".strip()
    if name == "prf:proof":
        return f"*Proof.* {body} ∎".strip()
    if name in ADMONITIONS or name == "admonition":
        title = arg if name == "admonition" else name.capitalize()
        quoted = "\n".join(f"> {ln}".rstrip() for ln in body.split("\n"))
        return f"> **{title}.**\n>\n{quoted}" if body else f"> **{title}.**"
    if name in ("figure", "image"):
        alt = options.get("alt", "")
        image = f"![{alt}]({arg})"
        return f"{image}\n\n*{body}*" if body else image
    if name.startswith("glue"):  # {glue} / {glue:figure} / {glue:math}: its value, or a pointer
        value = _format_glue(book.glue.get(arg), "", md=True)
        if name == "glue:math" and value is not None:
            return f"$$\n{value.strip('$')}\n$$"
        shown = value if value is not None and name != "glue:figure" else None
        return shown or f"[{arg}: run the cells to see it]" + (f"\n\n*{body}*" if body else "")
    if name == "selfcheck":
        return f"**Check yourself.** {_choices(body)}".strip()
    if name in ("math",):
        return f"$$\n{body}\n$$"
    if name in ("code", "code-block", "sourcecode"):
        return f"```{arg}\n{body}\n```"
    return f"**{arg}**\n\n{body}".strip() if arg else body


def to_commonmark(text: str, book: Book | None = None) -> str:
    """One markdown cell's MyST as CommonMark plus math (see the module's docstring)."""
    book = book or Book()
    lines, out, k = text.split("\n"), [], 0
    paragraph: list[str] = []  # lines of running text, converted together: a role may span them

    def flush() -> None:
        if paragraph:
            out.extend(convert_inline("\n".join(paragraph), book).split("\n"))
            paragraph.clear()

    while k < len(lines):
        line = lines[k]
        opened = _OPEN.match(line)
        fence = re.match(r"^\s*(`{3,}|~{3,})", line)
        if opened or fence or not line.strip():
            flush()
        if opened:
            indent = line[: len(line) - len(line.lstrip())]
            end = next(
                (j for j in range(k + 1, len(lines)) if _closes(lines[j], opened["fence"])),
                len(lines),
            )
            body = [ln[len(indent) :] if ln.startswith(indent) else ln for ln in lines[k + 1 : end]]
            options, rest = _options(body)
            inner = "\n".join(rest)
            if opened["name"] not in ("code", "code-block", "sourcecode", "math"):
                inner = to_commonmark(inner, book)
            name, arg = opened["name"], opened["arg"]
            if name == "exercise-start":  # gated: the text follows, up to {exercise-end}
                name = "exercise"
            block = _block(name, arg, options, inner.strip("\n"), book)
            out += [indent + ln if ln else ln for ln in block.split("\n")] if block else []
            k = end + 1
        elif fence:  # a plain code block: as it is
            end = next(
                (j for j in range(k + 1, len(lines)) if _closes(lines[j], fence[1])), len(lines)
            )
            out += lines[k : end + 1]
            k = end + 1
        elif re.match(r"^\s*\([\w:.-]+\)=\s*$", line) or re.match(r"^%( |$)", line):
            k += 1  # a target or a MyST comment
        elif not line.strip():
            out.append(line)
            k += 1
        else:
            paragraph.append(re.sub(r"(\$\$)\s*\([\w:.-]+\)\s*$", r"\1", line))  # $$ (label)
            k += 1
    flush()
    text = "\n".join(out)
    return re.sub(r"\n{3,}", "\n\n", text).strip("\n")


#: What counts as raw MyST left in a converted cell (the test's definition).
RAW_MYST = re.compile(r"^\s*(`{3,}|:{3,})\{|^\s*\([\w:.-]+\)=\s*$|^\s*:label:")


def raw_myst(text: str) -> list[str]:
    """The lines of ``text`` that still show MyST markup (a role, not a code span showing one)."""
    starts = {text.count("\n", 0, m.start()) for m in _INLINE.finditer(text) if m["role"]}
    return [line for k, line in enumerate(text.split("\n")) if k in starts or RAW_MYST.search(line)]


def convert_notebook(nb: nbformat.NotebookNode, book: Book) -> nbformat.NotebookNode:
    """Every markdown cell of ``nb`` through :func:`to_commonmark` (in place); returns ``nb``."""
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            cell.source = to_commonmark(cell.source, book)
    return nb


def read_chapter(path: Path) -> nbformat.NotebookNode:
    """A chapter's MyST notebook (for :func:`executed_glue`)."""
    return jupytext.read(path, fmt="md:myst")
