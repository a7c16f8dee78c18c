"""The report as one self-contained HTML file, with its curves as inline SVG (numpy only).

The page needs nothing outside itself: no script, no external style sheet,
font or image, and a Content-Security-Policy that forbids them, so a label
that escaping somehow missed could still not run or fetch anything. Every
text from the user's file is escaped with :func:`html.escape`. The page
follows the reader's light or dark colour scheme.
The figures come from :mod:`clfmetrics._report_figures`.
"""

from __future__ import annotations

import html

from ._section import Section
from ._svg import style

#: A confusion matrix of more classes is left to CSV and JSON (a page of n**2 cells).
MATRIX_CLASSES = 100
_CSP = (
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; "
    "form-action 'none'"
)
_PAGE_STYLE = (
    ":root{color-scheme:light dark}"
    "body{font:15px/1.45 system-ui,sans-serif;max-width:64rem;margin:1.5rem auto;padding:0 1rem;"
    "background:#fff;color:#1a1a1a}"
    "@media (prefers-color-scheme: dark){body{background:#15171a;color:#e6e6e6}}"
    "table{border-collapse:collapse;margin:.5rem 0;font-variant-numeric:tabular-nums}"
    "th,td{padding:.15rem .6rem;border-bottom:1px solid color-mix(in srgb,currentColor 25%,"
    "transparent);text-align:right}th:first-child,td:first-child{text-align:left}"
    ".scroll{overflow-x:auto}figure{display:inline-block;margin:.5rem 1rem .5rem 0}"
    "figcaption{font-size:13px;max-width:420px}"
)


def document(sections: list[Section], heading: str, figures: list[str]) -> str:
    """The whole page; ``figures`` (``<figure>`` strings) go before the warnings."""
    e = html.escape
    body = []
    placed = False
    for s in sections:
        if figures and not placed and s.title == "Warnings":
            body.append("<section><h2>Figures</h2>" + "".join(figures) + "</section>")
            placed = True
        if s.header[:1] == ["predicted \\ true"] and len(s.rows) - 1 > MATRIX_CLASSES:
            n = len(s.rows) - 1
            s = Section(s.title, notes=[f"{n} classes: the matrix is in --format csv or json"])
        part = [f"<section><h2>{e(s.title)}</h2>"]
        if s.header:
            head = "".join(f'<th scope="col">{e(h)}</th>' for h in s.header)
            rows = "".join(
                f'<tr><th scope="row">{e(r[0])}</th>'
                + "".join(f"<td>{e(c)}</td>" for c in r[1:])
                + "</tr>"
                for r in s.rows
            )
            part.append(
                f'<div class="scroll"><table><thead><tr>{head}</tr></thead>'
                f"<tbody>{rows}</tbody></table></div>"
            )
        if s.notes:
            part.append("<ul>" + "".join(f"<li>{e(n)}</li>" for n in s.notes) + "</ul>")
        body.append("".join(part) + "</section>")
    if figures and not placed:
        body.append("<section><h2>Figures</h2>" + "".join(figures) + "</section>")
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{e(heading)}</title>\n<style>{_PAGE_STYLE}{style()}</style>\n</head>\n"
        f"<body>\n<main>\n<h1>{e(heading)}</h1>\n"
        + "\n".join(body)
        + "\n</main>\n</body>\n</html>\n"
    )
