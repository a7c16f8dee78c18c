"""Text and HTML rendering shared by the probe results and the property tables."""

from __future__ import annotations

import html

import numpy as np

from .cases import PROPERTIES


def _fmt(x) -> str:
    x = float(x)
    return f"{x:.0f}" if x.is_integer() else f"{x:.4g}"


def _clean(x: float) -> float:
    """Round away floating-point dust so that -1e-17 prints as 0."""
    return round(float(x), 9) + 0.0


def _matrix_text(m) -> str:
    m = np.asarray(m)
    return "[" + ", ".join("[" + ", ".join(_fmt(v) for v in row) + "]" for row in m) + "]"


def _matrix_html(m, highlight=None) -> str:
    m = np.asarray(m)
    rows = []
    for i, row in enumerate(m):
        cells = []
        for j, v in enumerate(row):
            style = ' style="background:#F0E442"' if highlight == (i, j) else ""
            cells.append(f"<td{style}>{_fmt(v)}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    return '<table class="probe-matrix">' + "".join(rows) + "</table>"


class TableView:
    """Text and HTML display of ``self.rows()`` under the property codes, with ``caption``."""

    caption = ""

    def __repr__(self) -> str:
        return _text_table(["metric", *PROPERTIES], self.rows())

    def _repr_html_(self) -> str:
        return _html_table(
            ["metric", *(f"{k} ({v})" for k, v in PROPERTIES.items())],
            self.rows(),
            self.caption,
        )


def _text_table(header, rows) -> str:
    widths = [max(len(str(r[c])) for r in [header, *rows]) for c in range(len(header))]
    return "\n".join(
        "  ".join(str(x).ljust(w) for x, w in zip(r, widths, strict=True)) for r in [header, *rows]
    )


def _html_table(header, rows, caption="") -> str:
    esc = html.escape
    parts = ['<table class="property-table">']
    if caption:
        parts.append(f"<caption>{esc(caption)}</caption>")
    parts.append(
        "<thead><tr>" + "".join(f'<th scope="col">{esc(h)}</th>' for h in header) + "</tr></thead>"
    )
    parts.append("<tbody>")
    for r in rows:
        parts.append(
            f'<tr><th scope="row">{esc(str(r[0]))}</th>'
            + "".join(f"<td>{esc(str(x))}</td>" for x in r[1:])
            + "</tr>"
        )
    parts.append("</tbody></table>")
    return "".join(parts)
