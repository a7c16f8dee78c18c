"""The book's Sphinx-only MyST, rewritten into what ``jupyterlab-myst`` renders.

``jupyterlab-myst`` renders directives, roles, math, proofs and exercises in JupyterLab, but
it has no bibliography, knows only the labels of the open notebook, has no glue store and
does not know this book's own directives. :func:`lab_markdown` rewrites one markdown cell:

* ``{cite}`` / ``{cite:p}`` -> "(Opitz and Burst, 2019)"; ``{cite:t}`` -> "Opitz and Burst
  (2019)", from ``references.bib``;
* ``{ref}``, ``{numref}``, ``{prf:ref}``, ``{doc}`` -> the target's title, linked to its
  chapter when it lives in another one;
* ``{py:func}`` and friends -> the name as code;
* ``{glue:text}`name:.3f``` / ``{glue:md}`` / ``{glue}`` -> ``jupyterlab-myst``'s inline
  expression ``{eval}`glue.text("name", ".3f")``` (:mod:`~clfbook.tooling.glue`): the kernel
  evaluates it when the markdown cell runs; until then the cell's ``user_expressions``
  metadata (:func:`user_expressions`) holds the value of the book's last build, or says
  that the cells must run;
* ``{selfcheck}`` (this book's own directive, which ``jupyterlab-myst`` would drop) -> a
  "Quick check" box with the answer in a dropdown;
* ``{solution-end}`` -> a MyST comment: on the page it only closes the solution's dropdown,
  and ``jupyterlab-myst``, which reads each cell on its own, drew it as an empty box.

Everything ``jupyterlab-myst`` renders itself (``(label)=``, ``:label:``, ``{prf:*}``,
``{exercise}``, ``{solution}``, ``{solution-start}``, admonitions, math) is left as it is.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

from .glue import glue_text, pending

__all__ = [
    "Book",
    "bib_entries",
    "cite_text",
    "lab_markdown",
    "label_titles",
    "user_expressions",
]

ROLE = re.compile(r"\{(?P<role>[a-z]+(?::[a-z]+)?)\}`(?P<body>[^`]*)`")
EXPLICIT = re.compile(r"^(?P<text>.*?)\s*<(?P<target>[^<>]+)>$", re.S)
FENCE = re.compile(r"^(?P<fence>`{3,}|:{3,})\{(?P<name>[a-z:-]+)\}(?P<arg>.*)$")
HEADING = re.compile(r"^#{1,6}\s+(?P<title>.+?)\s*$")
TARGET = re.compile(r"^\((?P<label>[^()\s]+)\)=\s*$")
OPTION = re.compile(r"^:(?P<key>[a-z-]+):\s*(?P<value>.*)$")
#: The inline expression a glue role becomes (the kernel's ``glue`` of ``clfbook.tooling.glue``).
EVAL = re.compile(
    r'\{eval\}`glue\.(?P<how>text|markdown)\("(?P<name>[^"`]+)"(?:, "(?P<spec>[^"`]*)")?\)`'
)
KINDS = {
    "prf:definition": "Definition",
    "prf:theorem": "Theorem",
    "prf:lemma": "Lemma",
    "prf:proof": "Proof",
    "prf:corollary": "Corollary",
    "prf:example": "Example",
    "exercise": "Exercise",
    "figure": "Figure",
}


ACCENTS = {'"': "\u0308", "'": "\u0301", "`": "\u0300", "^": "\u0302", "~": "\u0303"}


def _unbrace(text: str) -> str:
    """BibTeX text as plain text: accents composed ({\\"u} -> ü), braces and macros dropped."""
    text = re.sub(
        r"\\([\"'`^~])\{?(\w)\}?",
        lambda m: unicodedata.normalize("NFC", m.group(2) + ACCENTS[m.group(1)]),
        text,
    )
    text = re.sub(r"\\[a-z]+\s*", "", text)
    return re.sub(r"\s+", " ", re.sub(r"[{}]", "", text)).strip()


def bib_entries(text: str) -> dict[str, dict[str, str]]:
    """Key -> {field: value} of a BibTeX file (values unbraced; enough for author-year)."""
    entries = {}
    for match in re.finditer(r"@\w+\s*\{\s*(?P<key>[^,\s]+)\s*,", text):
        depth, start, i = 1, match.end(), match.end()
        while i < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        body = text[start : i - 1]
        fields = {}
        for f in re.finditer(r"(?P<name>\w+)\s*=\s*", body):
            j, value = f.end(), ""
            if j < len(body) and body[j] == "{":
                depth, k = 1, j + 1
                while k < len(body) and depth:
                    depth += {"{": 1, "}": -1}.get(body[k], 0)
                    k += 1
                value = body[j + 1 : k - 1]
            else:
                value = re.match(r"[^,\n]*", body[j:]).group(0)
            fields.setdefault(f.group("name").lower(), _unbrace(value.strip('"')))
        entries[match.group("key")] = fields
    return entries


def _surname(author: str) -> str:
    author = author.strip()
    if "," in author:
        return author.split(",")[0].strip()
    words = author.split()
    # "vor der Brück, Tim" is handled above; "Tim vor der Brück" keeps its particles.
    for i, word in enumerate(words[:-1]):
        if word[:1].islower():
            return " ".join(words[i:])
    return words[-1] if words else author


def cite_text(keys: list[str], bib: dict[str, dict[str, str]], textual: bool) -> str:
    """Author-year text of citation keys: "A and B (2019)" or "(A and B, 2019; C, 2020)"."""
    parts = []
    for key in keys:
        entry = bib.get(key)
        if entry is None:
            parts.append((key, ""))
            continue
        people = entry.get("author") or entry.get("editor")
        if not people:  # no author known (the entry's note says so): its title stands in
            parts.append((f"“{entry.get('title', key).strip('[]')}”", entry.get("year", "")))
            continue
        names = [_surname(a) for a in re.split(r"\s+and\s+", people)]
        if len(names) == 1:
            who = names[0]
        elif len(names) == 2 and names[1] != "others":
            who = f"{names[0]} and {names[1]}"
        else:
            who = f"{names[0]} et al."
        parts.append((who, entry.get("year", "")))
    if textual:
        return "; ".join(f"{who} ({year})" if year else who for who, year in parts)
    return "(" + "; ".join(f"{who}, {year}" if year else who for who, year in parts) + ")"


def label_titles(text: str) -> dict[str, str]:
    """Label -> title of every ``(label)=`` heading and ``:label:`` directive of a page."""
    titles = {}
    lines = text.splitlines()
    for i, line in enumerate(lines):
        target = TARGET.match(line)
        if target:
            following = next((s for s in lines[i + 1 :] if s.strip()), "")
            heading = HEADING.match(following)
            titles[target.group("label")] = heading.group("title") if heading else ""
            continue
        fence = FENCE.match(line)
        if not fence:
            continue
        kind = KINDS.get(fence.group("name"), fence.group("name").title())
        arg = fence.group("arg").strip()
        for option in lines[i + 1 : i + 12]:
            found = OPTION.match(option)
            if not found:
                break
            if found.group("key") == "label":
                titles[found.group("value").strip()] = f"{kind} ({arg})" if arg else kind
    return titles


@dataclass
class Book:
    """What the rewrite needs to know about the book: its bibliography and its labels."""

    bib: dict[str, dict[str, str]] = field(default_factory=dict)
    #: label -> (page path relative to the chapters folder, without .md; title)
    labels: dict[str, tuple[str, str]] = field(default_factory=dict)
    #: page (relative, without .md) -> its first heading
    pages: dict[str, str] = field(default_factory=dict)
    #: glued name -> its display data in the book's last build of the page being read
    glue: dict[str, dict] = field(default_factory=dict)

    @classmethod
    def from_folder(cls, chapters: Path) -> Book:
        """Read ``chapters/**/*.md`` and the ``references.bib`` above the folder."""
        book = cls()
        for folder in (chapters, *chapters.parents):
            if (folder / "references.bib").is_file():
                book.bib = bib_entries((folder / "references.bib").read_text("utf-8"))
                break
        for page in sorted(chapters.rglob("*.md")):
            name = page.relative_to(chapters).with_suffix("").as_posix()
            if any(part.startswith((".", "_")) for part in name.split("/")):
                continue  # checkpoints, build output
            text = page.read_text("utf-8")
            first = next((m for m in map(HEADING.match, text.splitlines()) if m), None)
            book.pages[name] = first.group("title") if first else name
            for label, title in label_titles(text).items():
                book.labels.setdefault(label, (name, title or book.pages[name]))
        return book


def _link(book: Book, here: str, page: str, title: str) -> str:
    if page == here:
        return f"*{title}*"
    depth = here.count("/")
    return f"[{title}]({'../' * depth}{page}.md)"


def _role(match: re.Match, book: Book, here: str) -> str:
    role, body = match.group("role"), match.group("body").strip()
    explicit = EXPLICIT.match(body)
    text, target = (explicit.group("text"), explicit.group("target")) if explicit else ("", body)
    if role.startswith("cite"):
        keys = [k.strip() for k in target.split(",") if k.strip()]
        return cite_text(keys, book.bib, textual=role in ("cite:t", "cite:ts"))
    if role in ("ref", "numref", "prf:ref", "eq"):
        page, title = book.labels.get(target, (here, target.replace("-", " ")))
        return _link(book, here, page, (text or title).replace("{number}", "").strip())
    if role == "doc":
        page = (Path(here).parent / target).as_posix().removeprefix("./")
        page = re.sub(r"^(\.\./)*chapters/", "", page)
        return _link(book, here, page, text or book.pages.get(page, target))
    if role.startswith("py:"):
        return f"`{(text or target).lstrip('~.')}`"
    if role.startswith("glue"):
        name, _, spec = target.rpartition(":") if ":" in target else (target, "", "")
        if role == "glue:md":  # its optional suffix names a Markdown flavour, not a format
            return f'{{eval}}`glue.markdown("{name}")`'
        return (
            f'{{eval}}`glue.text("{name}", "{spec}")`' if spec else f'{{eval}}`glue.text("{name}")`'
        )
    return match.group(0)


def _selfcheck(arg: str, body: list[str]) -> list[str]:
    options, rest = {}, list(body)
    while rest and OPTION.match(rest[0]):
        found = OPTION.match(rest.pop(0))
        options[found.group("key")] = found.group("value")
    answer = [re.sub(r"^- \[x\] ", "", s) for s in rest if s.startswith("- [x] ")]
    question = [re.sub(r"^- \[[ x]\] ", "- ", s) for s in rest]
    if "answer" in options:
        answer = [f"`{options['answer']}` (run it in the chapter's kernel)"]
    shown = ["**Answer:** " + "; ".join(answer)] if answer else []
    if options.get("feedback"):
        shown += ["", options["feedback"]]
    title = arg.strip() or "Quick check"
    return [
        f"`````{{admonition}} {title}",
        ":class: tip",
        *question,
        "",
        "````{dropdown} Answer",
        *shown,
        "````",
        "`````",
    ]


def lab_markdown(source: str, book: Book, here: str) -> str:
    """One markdown cell of page ``here`` (relative, no .md) as ``jupyterlab-myst`` reads it."""
    out, lines, i = [], source.splitlines(), 0
    while i < len(lines):
        fence = FENCE.match(lines[i])
        if fence and fence.group("name") in ("selfcheck", "solution-end"):
            end = next(
                (j for j in range(i + 1, len(lines)) if lines[j].strip() == fence.group("fence")),
                len(lines),
            )
            if fence.group("name") == "selfcheck":
                out += _selfcheck(fence.group("arg"), lines[i + 1 : end])
            else:
                out.append("% the end of the solution")
            i = end + 1
            continue
        out.append(lines[i])
        i += 1
    text = "\n".join(out)
    return ROLE.sub(lambda m: _role(m, book, here), text)


def _formatted(data: dict, spec: str) -> str | None:
    try:
        return glue_text(str(data["text/plain"]), spec)
    except (KeyError, TypeError, ValueError):  # no text, or one the spec cannot format
        return None


def user_expressions(shown: str, book: Book) -> list[dict]:
    """The ``user_expressions`` cell metadata ``jupyterlab-myst`` shows before the kernel runs.

    One entry per glue expression of the rewritten cell ``shown``, in the shape of a kernel's
    reply (``status``, ``data``, ``metadata``): the value of the book's last build
    (``book.glue``, formatted as the page formats it), else :func:`~clfbook.tooling.glue.pending`.
    ``metadata.clfbook`` says which (``"build"`` or ``"pending"``); the kernel's own results,
    once the cell runs, replace them.
    """
    found = []
    for match in EVAL.finditer(shown):
        data, how = book.glue.get(match["name"], {}), match["how"]
        if how == "markdown" and "text/markdown" in data:
            text = str(data["text/markdown"]).strip()
        else:
            text = _formatted(data, match["spec"] or "")
        result = {
            "status": "ok",
            "data": {"text/plain": pending(match["name"]) if text is None else text},
            "metadata": {"clfbook": "pending" if text is None else "build"},
        }
        found.append({"expression": match[0][len("{eval}`") : -1], "result": result})
    return found
