"""Code blocks with fewer elements: a phone lays out and styles every one of them.

Pygments wraps every token of a code block in a ``<span>``: on a chapter page 60-70 % of all
elements were the token spans of its code cells (chapter 14: 3,005 of 4,333), and Lighthouse's
"Style & Layout" time and the DOM-size audit grow with them. Most of those spans are names,
punctuation and whitespace, which the theme's ``pygments.css`` paints in exactly the colour of
the code block itself, in the light and in the dark theme. Once the pages are written, such
spans (and Pygments' empty leading ``<span></span>``) are replaced by their text inside every
``<div class="highlight">``: the page looks, copies and runs (Thebe) the same, with about
half the elements. A token class is unwrapped only when the built ``pygments.css`` gives it
nothing but the block's own colour in every theme, so a theme with coloured names keeps them.
"""

from __future__ import annotations

import re
from pathlib import Path

#: ``html[data-theme="light"] .highlight .n { color: #080808 }`` -> (light, n, color: #080808)
RULE = re.compile(
    r'html\[data-theme="(?P<theme>\w+)"\]\s+\.highlight(?:\s+\.(?P<token>[\w-]+))?\s*'
    r"\{(?P<body>[^}]*)\}"
)
BLOCK = re.compile(r'(<div class="highlight[^"]*"><pre>)(.*?)(</pre>)', re.DOTALL)


def _declarations(body: str) -> dict[str, str]:
    pairs = (d.split(":", 1) for d in body.split(";") if ":" in d)
    return {k.strip().lower(): v.strip().lower() for k, v in pairs}


def plain_tokens(pygments_css: str) -> set[str]:
    """Token classes that every theme paints only in its code block's own text colour."""
    base: dict[str, str | None] = {}
    tokens: dict[str, dict[str, dict[str, str]]] = {}
    for match in RULE.finditer(pygments_css):
        declarations = _declarations(match.group("body"))
        theme, token = match.group("theme"), match.group("token")
        if token is None:
            base[theme] = declarations.get("color")
        else:
            tokens.setdefault(token, {}).setdefault(theme, {}).update(declarations)
    if not base:
        return set()
    return {
        token
        for token, themes in tokens.items()
        if set(themes) == set(base)
        and all(
            base[theme] is not None and themes[theme] == {"color": base[theme]} for theme in base
        )
    }


def lean_code(page_html: str, plain: set[str]) -> str:
    """``page_html`` with the ``plain`` token spans of its code blocks replaced by their text."""
    if not plain:
        return page_html
    names = "|".join(re.escape(token) for token in sorted(plain))
    span = re.compile(r'<span class="(?:' + names + r')">([^<]*)</span>|<span></span>')

    def unwrap(match: re.Match) -> str:
        code = span.sub(lambda m: m.group(1) or "", match.group(2))
        return match.group(1) + code + match.group(3)

    return BLOCK.sub(unwrap, page_html)


def _lean_pages(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    css = Path(app.outdir) / "_static" / "pygments.css"
    plain = plain_tokens(css.read_text(encoding="utf-8")) if css.is_file() else set()
    for page in Path(app.outdir).rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        if 'class="highlight' not in text:
            continue
        leaner = lean_code(text, plain)
        if leaner != text:
            page.write_text(leaner, encoding="utf-8")


def setup(app):
    # after pydata-sphinx-theme, which writes the light and dark rules into pygments.css
    # at build-finished (priority 500); before that the file has neither theme
    app.connect("build-finished", _lean_pages, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
