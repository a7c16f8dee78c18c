"""Confusion matrices as labelled tables for notebooks and the rendered book.

Rows are predictions and columns the reference (``m[i, j]`` = predicted ``i``,
true ``j``); the margins show each class's bias (row sum) and prevalence
(column sum). The object renders as an accessible HTML table in Jupyter and as
aligned text elsewhere.
"""

from __future__ import annotations

import html

import numpy as np

from ._checks import as_confusion

__all__ = ["ConfusionTable", "confusion_table"]


def _fmt(x: float) -> str:
    return f"{x:.0f}" if float(x).is_integer() else f"{x:.3g}"


class ConfusionTable:
    """A single confusion matrix with class names, displayable as HTML or text."""

    def __init__(self, m, labels=None, *, margins: bool = True, caption: str | None = None):
        arr = as_confusion(m)
        if arr.ndim != 2:
            raise ValueError(f"a table shows one matrix (n, n); got shape {arr.shape}")
        n = arr.shape[0]
        labels = list(range(n)) if labels is None else list(labels)
        if len(labels) != n:
            raise ValueError(f"labels must name {n} classes; got {len(labels)}: {labels}")
        self.matrix = arr
        self.labels = [str(label) for label in labels]
        self.margins = margins
        self.caption = caption

    def _rows(self) -> tuple[list[str], list[list[str]]]:
        m = self.matrix
        header = ["predicted \u2193 / true \u2192", *self.labels]
        if self.margins:
            header.append("bias")
        body = []
        for i, name in enumerate(self.labels):
            row = [name, *(_fmt(v) for v in m[i])]
            if self.margins:
                row.append(_fmt(m[i].sum()))
            body.append(row)
        if self.margins:
            body.append(["prevalence", *(_fmt(v) for v in m.sum(axis=0)), _fmt(m.sum())])
        return header, body

    def _repr_html_(self) -> str:
        header, body = self._rows()
        esc = html.escape
        parts = ['<table class="confusion-table">']
        if self.caption:
            parts.append(f"<caption>{esc(self.caption)}</caption>")
        parts.append(
            "<thead><tr>"
            + "".join(f'<th scope="col">{esc(h)}</th>' for h in header)
            + "</tr></thead><tbody>"
        )
        for k, row in enumerate(body):
            cells = []
            for j, value in enumerate(row[1:], start=1):
                diagonal = k < len(self.labels) and j == k + 1
                style = ' style="font-weight:bold"' if diagonal else ""
                cells.append(f"<td{style}>{esc(value)}</td>")
            parts.append(f'<tr><th scope="row">{esc(row[0])}</th>{"".join(cells)}</tr>')
        parts.append("</tbody></table>")
        return "".join(parts)

    def __repr__(self) -> str:
        header, body = self._rows()
        widths = [max(len(r[c]) for r in [header, *body]) for c in range(len(header))]
        lines = [
            "  ".join(cell.rjust(w) for cell, w in zip(row, widths, strict=True))
            for row in [header, *body]
        ]
        if self.caption:
            lines.insert(0, self.caption)
        return "\n".join(lines)


def confusion_table(m, labels=None, *, margins: bool = True, caption: str | None = None):
    """Return a displayable table of ``m`` (rows = predicted, columns = true) with optional margins.

    Parameters
    ----------
    m : array_like, shape (n, n)
        ``m[i, j]`` = mass predicted as ``labels[i]`` whose true class is ``labels[j]``.
    labels : sequence, optional
        Class names; default ``0 .. n-1``.
    margins : bool, default True
        Add the bias column (row sums) and the prevalence row (column sums).
    caption : str, optional
        Caption shown above the table.

    Examples
    --------
    >>> print(repr(confusion_table([[15, 5], [10, 10]], ["x", "y"])))
    predicted ↓ / true →   x   y  bias
                       x  15   5    20
                       y  10  10    20
              prevalence  25  15    40
    """
    return ConfusionTable(np.asarray(m), labels, margins=margins, caption=caption)
