"""Confusion matrices: built from labels, converted from and to scikit-learn's, as tables.

Convention of this library and of the source papers: ``m[i, j]`` is the mass
predicted as class ``i`` whose true class is ``j`` (rows = predictions, columns =
reference). scikit-learn's ``confusion_matrix`` is the transpose (rows = true
labels); :func:`from_sklearn` and :func:`to_sklearn` convert between the two.
:func:`confusion_table` labels a matrix, with each class's bias (row sum) and
prevalence (column sum) in the margins, as an accessible HTML table in Jupyter and
as aligned text elsewhere.
"""

from __future__ import annotations

import html

import numpy as np

from .._base.checks import as_confusion
from .._base.codes import label_codes


def confusion_matrix(y_true, y_pred, labels=None) -> np.ndarray:
    """Count the label pairs into ``m[i, j]`` = items predicted ``labels[i]``, true ``labels[j]``.

    Rows are predictions and columns the reference, as in the source papers:
    the transpose of ``sklearn.metrics.confusion_matrix``.

    Parameters
    ----------
    y_true, y_pred : sequence of hashable labels, equal length
        Reference labels and the classifier's predictions.
    labels : sequence of hashable, optional
        The classes, in the order of the rows and columns. Defaults to the
        sorted union of the labels that occur (first appearance if they cannot
        be sorted). Give it whenever a class may be missing from both vectors.
        Given, it decides: every label must be one of its classes, compared
        as they are (``0`` is not ``"0"``), so it also admits vectors of
        mixed label types.

    Returns
    -------
    ndarray of int64, shape (n, n)

    Raises
    ------
    ValueError
        If the vectors differ in length or are empty, a label is not in
        ``labels``, ``labels`` repeats a class, or fewer than 2 classes remain;
        if a vector or ``labels`` is a string, a set, a scalar, nested, or a
        masked array with masked entries; or if it holds NaN, an infinity or a
        float with a fractional part (a score, not a class: floats with integer
        values such as 1.0 are labels, as in scikit-learn's ``type_of_target``).
        scikit-learn counts masked entries as if unmasked; this function
        refuses them, since only the caller knows what a masked label means.
        Also if the labels mix kinds (numbers, strings, bytes, tuples, None)
        and ``labels`` is not given, as scikit-learn refuses "a mix of label
        input types": ``[0, 1, 2]`` against ``["0", "1", "2"]`` is an error,
        not six classes. ``Fraction`` and ``Decimal`` labels are refused
        (scikit-learn refuses them too); convert them to ``int`` or ``str``.

    Examples
    --------
    >>> confusion_matrix(["a", "a", "b"], ["a", "b", "b"])
    array([[1, 0],
           [1, 1]])
    """
    t, p, n = label_codes(y_true, y_pred, labels)
    return np.bincount(p * n + t, minlength=n * n).reshape(n, n).astype(np.int64)


def from_sklearn(cm) -> np.ndarray:
    """Convert scikit-learn's matrix (rows = true, columns = predicted) to this library's.

    Parameters
    ----------
    cm : array_like, shape (n, n) or (..., n, n)
        Output of ``sklearn.metrics.confusion_matrix``; ``cm[j, i]`` = true ``j``, predicted ``i``.

    Returns
    -------
    ndarray, shape (..., n, n)
        ``m`` with ``m[i, j]`` = predicted ``i``, true ``j``.

    Examples
    --------
    >>> from_sklearn([[5, 1], [2, 7]])
    array([[5., 2.],
           [1., 7.]])
    """
    return np.swapaxes(as_confusion(cm, name="cm"), -1, -2).copy()


def to_sklearn(m) -> np.ndarray:
    """Convert this library's matrix (rows = predicted) to scikit-learn's layout (rows = true).

    Parameters
    ----------
    m : array_like, shape (n, n) or (..., n, n)
        ``m[i, j]`` = predicted ``i``, true ``j``.

    Returns
    -------
    ndarray, shape (..., n, n)

    Examples
    --------
    >>> to_sklearn([[5, 2], [1, 7]])
    array([[5., 1.],
           [2., 7.]])
    """
    return np.swapaxes(as_confusion(m), -1, -2).copy()


def to_labels(m, labels=None) -> tuple[np.ndarray, np.ndarray]:
    """Expand a count matrix into label vectors ``(y_true, y_pred)`` that reproduce it.

    The inverse of :func:`confusion_matrix`: item order is by predicted class,
    then by true class. ``m[i, j]`` = number of items predicted ``labels[i]``
    whose true label is ``labels[j]``.

    Parameters
    ----------
    m : array_like of non-negative integers, shape (n, n)
    labels : sequence, optional
        Class names; default ``0 .. n-1``.

    Returns
    -------
    y_true, y_pred : ndarray, shape (m.sum(),)

    Examples
    --------
    >>> to_labels([[1, 0], [2, 1]], ["a", "b"])
    (array(['a', 'a', 'a', 'b'], dtype='<U1'), array(['a', 'b', 'b', 'b'], dtype='<U1'))
    """
    arr = as_confusion(m)
    if arr.ndim != 2:
        raise ValueError(f"to_labels expands one matrix (n, n); got shape {arr.shape}")
    if not np.all(arr == np.round(arr)):
        raise ValueError("to_labels needs whole-number counts; got fractional mass")
    n = arr.shape[0]
    names = np.arange(n) if labels is None else np.asarray(list(labels))
    if len(names) != n:
        raise ValueError(f"labels must name {n} classes; got {len(names)}")
    counts = arr.astype(np.int64).ravel()
    pred_index, true_index = np.divmod(np.repeat(np.arange(n * n), counts), n)
    return names[true_index], names[pred_index]


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
