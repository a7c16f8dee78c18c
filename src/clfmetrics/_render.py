"""Text, HTML and JSON renderings shared by the report and the comparison.

An object to render lists its content as sections: a title, an optional table
(header and rows of already formatted cells) and notes (plain sentences). The
text and the HTML renderings are two views of the same sections.
"""

from __future__ import annotations

import html
import json
import textwrap

import numpy as np

from ._formats import for_text, markdown, to_csv, to_frame
from ._html_report import document
from ._section import Section

#: Line width of the text rendering's notes.
WIDTH = 88


def count(n: int, noun: str, plural: str | None = None) -> str:
    """'1 item', '2 items': a count with its noun in the right number."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def fixed(x, digits: int = 3, *, sign: bool = False) -> str:
    """``x`` with ``digits`` decimals (a leading '+' with ``sign``), never a negative zero.

    A value that rounds to zero prints without a minus: ``-1e-17`` is '0.000', not '-0.000',
    so the text does not depend on the floating-point summation order that produced it.
    """
    s = f"{x:{'+' if sign else ''}.{digits}f}"
    if s.startswith("-") and not any(c in "123456789" for c in s):
        s = ("+" if sign else "") + s[1:]
    return s


def seed_of(rng):
    """The seed behind ``rng``: an int, "generator" for a given Generator, None for none."""
    if isinstance(rng, (int, np.integer)) and not isinstance(rng, bool):
        return int(rng)
    return "generator" if isinstance(rng, np.random.Generator) else None


def seed_text(seed) -> str:
    """'seed 0', or what stands in for a seed that the output cannot name."""
    if seed is None:
        return "no seed: the intervals change from run to run"
    return "the caller's random generator" if seed == "generator" else f"seed {seed}"


def num(x, digits: int = 3) -> str:
    """A number for a table cell; NaN prints as 'undefined'."""
    return "undefined" if x != x else fixed(x, digits)


def pvalue(p: float, prose: bool = False) -> str:
    """A p-value for a cell ('< 0.001', '0.042'); ``prose`` adds '=' where needed."""
    if p < 0.001:
        return "< 0.001"
    return f"= {fixed(p)}" if prose else fixed(p)


def text(sections: list[Section], heading: str) -> str:
    """Plain-text rendering: aligned columns, notes as bullets."""
    out = [heading, "=" * len(heading)]
    for s in sections:
        out += ["", s.title, "-" * len(s.title)]
        if s.header:
            widths = [max(len(r[k]) for r in [s.header, *s.rows]) for k in range(len(s.header))]
            for r in [s.header, *s.rows]:
                cells = [r[0].ljust(widths[0])] + [
                    c.rjust(w) for c, w in zip(r[1:], widths[1:], strict=True)
                ]
                out.append("  ".join(cells).rstrip())
        for note in s.notes:
            out += textwrap.wrap(note, WIDTH, initial_indent="* ", subsequent_indent="  ")
    return "\n".join(out)


def as_html(sections: list[Section], heading: str) -> str:
    """HTML rendering for Jupyter: one small table per section."""
    e = html.escape
    # Bold paragraphs, not headings: a report shown in a page must not add to its outline.
    out = [f'<div class="clfmetrics-report"><p><strong>{e(heading)}</strong></p>']
    for s in sections:
        out.append(f"<p><strong>{e(s.title)}</strong></p>")
        if s.header:
            head = "".join(f"<th>{e(h)}</th>" for h in s.header)
            body = "".join(
                "<tr>" + "".join(f"<td>{e(c)}</td>" for c in r) + "</tr>" for r in s.rows
            )
            out.append(f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")
        if s.notes:
            out.append("<ul>" + "".join(f"<li>{e(n)}</li>" for n in s.notes) + "</ul>")
    out.append("</div>")
    return "".join(out)


def matrix_section(matrix, labels, title: str = "Confusion matrix") -> Section:
    """The count matrix as a table in the book's orientation: rows predicted, columns true."""
    names = [str(lab) for lab in labels]
    rows = [
        [name, *(str(int(c)) for c in row), str(int(row.sum()))]
        for name, row in zip(names, matrix, strict=True)
    ]
    rows.append(["total", *(str(int(c)) for c in matrix.sum(axis=0)), str(int(matrix.sum()))])
    return Section(
        f"{title} (rows = predicted, columns = true; scikit-learn's is the transpose)",
        ["predicted \\ true", *names, "total"],
        rows,
    )


def plain_labels(labels) -> list[str]:
    """Class labels as strings, for JSON keys and table cells."""
    return [str(label) for label in labels]


def interval_text(iv) -> str:
    """'0.713 [0.667, 0.755]': estimate and interval ends."""
    return f"{fixed(iv.estimate)} [{fixed(iv.low)}, {fixed(iv.high)}]"


def reported_text(iv) -> str:
    """:func:`interval_text` for prose; a zero-width interval is said to be one, not shown.

    Every resample giving the same value (no errors, a perfect ranking) is no measure of
    uncertainty, so a paragraph must not print ``1.000 [1.000, 1.000]`` as if it were.
    """
    if iv.high == iv.low:
        return (
            f"{fixed(iv.estimate)} (every resample gave this value, so the bootstrap says "
            "nothing about its uncertainty)"
        )
    return interval_text(iv)


def interval_dict(iv) -> dict:
    return {"estimate": iv.estimate, "low": iv.low, "high": iv.high}


def _plain(value):
    """JSON-ready: floats stay floats (NaN becomes None), containers recurse."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, float) and value != value:
        return None
    return value


class Rendered:
    """Mixin: ``str``, ``_repr_html_`` and ``to_json`` from ``_sections()`` and ``to_dict()``."""

    _heading = ""

    def _sections(self) -> list[Section]:  # pragma: no cover - defined by subclasses
        raise NotImplementedError

    def to_dict(self) -> dict:  # pragma: no cover - defined by subclasses
        raise NotImplementedError

    def _figures(self) -> list[str]:
        """Inline SVG figures of the HTML file (none unless a subclass has some)."""
        return []

    def __str__(self) -> str:
        return text(for_text(self._sections()), self._heading)

    def _repr_html_(self) -> str:
        return as_html(self._sections(), self._heading)

    def to_json(self, **kwargs) -> str:
        """The content of :meth:`to_dict` as JSON (undefined values become ``null``)."""
        return json.dumps(_plain(self.to_dict()), **{"indent": 2, **kwargs})

    def to_markdown(self) -> str:
        """Every section as Markdown: pipe tables and lists, labels escaped (see ``_formats``)."""
        return markdown(self._sections(), self._heading)

    def to_csv(self) -> str:
        """Every table cell and note as CSV rows ``section,row,column,value``, formula-safe."""
        return to_csv(self._sections())

    def to_frame(self):
        """The rows of :meth:`to_csv` as a pandas DataFrame (numbers as floats); needs pandas.

        Raises ImportError, naming the remedy, where pandas is not installed.
        """
        return to_frame(self._sections())

    def to_html(self) -> str:
        """One self-contained HTML page: the tables and, with scores, the curves as inline SVG.

        No script, no external file, no network; labels escaped; light and dark schemes.
        """
        return document(self._sections(), self._heading, self._figures())
