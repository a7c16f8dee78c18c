"""Non-monotonicity explorer: add errors one at a time and trace the metrics.

A monotonic metric (PI, Opitz 2024) never rises when an error is added. MCC
and kappa are not monotonic: in Opitz's Tables 7 -> 8, ten more items of true
class y predicted as z *raise* both. Convention: ``m[i, j]`` = predicted
``i``, true ``j``.
"""

from __future__ import annotations

import ipywidgets as w
import numpy as np

from clfmetrics import METRICS

from ..plots.widgets import live_curves
from ._base import (
    Explorer,
    FigureImage,
    check_count,
    check_counts,
    class_names,
    fmt,
    html_table,
    row,
)

__all__ = [
    "M7",
    "M8",
    "TRACE_METRICS",
    "NonMonotonicityExplorer",
    "add_errors",
    "error_trace",
    "nonmonotonicity_explorer",
]

#: Opitz (2024), Table 7 (rows = predicted x, y, z; columns = true x, y, z).
M7 = ((10, 43, 0), (1, 1, 0), (0, 0, 1))
#: Opitz (2024), Table 8: Table 7 with 10 more items of true y predicted as z (cell (2, 1)).
M8 = ((10, 43, 0), (1, 1, 0), (0, 10, 1))
#: The metrics traced, by their names in :data:`clfmetrics.METRICS`.
TRACE_METRICS = ("mcc", "kappa", "weighted_f1", "macro_recall")


def _check_cell(cell, n: int) -> tuple[int, int]:
    try:
        i, j = (int(c) for c in cell)
    except (TypeError, ValueError):
        raise ValueError(f"a cell is a pair (i, j); got {cell!r}") from None
    if not (0 <= i < n and 0 <= j < n):
        raise ValueError(f"cell ({i}, {j}) is outside the {n} x {n} matrix")
    if i == j:
        raise ValueError(
            f"cell ({i}, {i}) is on the diagonal: it counts correct predictions, "
            "not errors; pick i != j"
        )
    return i, j


def add_errors(m, cell, k: int = 1) -> np.ndarray:
    """``m`` plus ``k`` items of true class ``j`` predicted as ``i`` (``cell = (i, j)``, i != j).

    Examples
    --------
    >>> add_errors([[1, 0], [0, 1]], (1, 0), 2).tolist()
    [[1, 0], [2, 1]]
    """
    m = check_counts(m)
    i, j = _check_cell(cell, m.shape[0])
    out = m.copy()
    out[i, j] += check_count(k, "k")
    return out


def error_trace(m, cell, k: int, names=TRACE_METRICS) -> dict[str, np.ndarray]:
    """Each metric after adding 0, 1, ..., k errors to ``cell`` (one stacked call per metric).

    Returns
    -------
    dict of str -> ndarray of shape (k + 1,)
    """
    m = check_counts(m)
    i, j = _check_cell(cell, m.shape[0])
    k = check_count(k, "k")
    stack = np.repeat(m[None].astype(float), k + 1, axis=0)
    stack[:, i, j] += np.arange(k + 1)
    return {name: np.atleast_1d(METRICS[name](stack)) for name in names}


class NonMonotonicityExplorer(Explorer):
    """Pick an off-diagonal cell, add errors to it, and watch MCC, kappa, weighted F1, macro R."""

    def __init__(self, m=None, labels=None, *, live_figure: bool = True):
        self._start = check_counts(M7 if m is None else m)
        if self._start.sum() == 0:
            raise ValueError("m has total mass 0: there is nothing to evaluate")
        n = self._start.shape[0]
        if labels is None and m is None:
            labels = ["x", "y", "z"]
        self._names = class_names(labels, n)
        cells = [
            (f"predicted {self._names[i]}, true {self._names[j]}  ({i}, {j})", (i, j))
            for i in range(n)
            for j in range(n)
            if i != j
        ]
        default = (2, 1) if m is None else cells[0][1]
        self.cell = w.Dropdown(
            options=cells, value=default, description="cell", layout=w.Layout(width="340px")
        )
        self.step = w.BoundedIntText(
            value=1, min=1, max=1000, description="errors", layout=w.Layout(width="160px")
        )
        self.add_button = w.Button(description="add errors", button_style="warning")
        self.add_button.on_click(lambda _b: self.add_error(self.step.value))
        self.reset_button = w.Button(description="reset")
        self.reset_button.on_click(lambda _b: self.reset())
        self.readout = w.HTML()
        self._m = self._start.copy()
        self._trace = {name: [METRICS[name](self._m)] for name in TRACE_METRICS}
        fig, update = live_curves(
            [0],
            self._trace,
            xlabel="errors added",
            ylabel="score",
            title="adding errors one at a time",
        )
        self._figure = FigureImage(fig, update, live=live_figure)
        self.view = w.VBox(
            [
                w.HTML("<b>Add errors to one cell</b> (rows = predicted, columns = true)"),
                row([self.cell, self.step, self.add_button, self.reset_button]),
                row([self.readout, self._figure.image]),
            ]
        )
        self._refresh(redraw=False)

    @property
    def matrix(self) -> np.ndarray:
        """A copy of the current matrix."""
        return self._m.copy()

    def select_cell(self, i: int, j: int) -> None:
        """Choose the off-diagonal cell (predicted ``i``, true ``j``) that receives errors."""
        self.cell.value = _check_cell((i, j), self._m.shape[0])

    def add_error(self, k: int = 1) -> None:
        """Add ``k`` errors to the selected cell, one at a time (each step is traced)."""
        k = check_count(k, "k")
        steps = error_trace(self._m, self.cell.value, k)
        for name in TRACE_METRICS:
            self._trace[name].extend(steps[name][1:].tolist())
        self._m = add_errors(self._m, self.cell.value, k)
        self._refresh()

    def reset(self) -> None:
        """Back to the starting matrix, with an empty trace."""
        self._m = self._start.copy()
        self._trace = {name: [METRICS[name](self._m)] for name in TRACE_METRICS}
        self._refresh()

    def trace(self) -> dict[str, list[float]]:
        """Metric name -> its values after 0, 1, 2, ... added errors."""
        return {name: list(values) for name, values in self._trace.items()}

    def metrics(self) -> dict[str, float]:
        """The traced metrics for the current matrix."""
        return {name: METRICS[name](self._m) for name in TRACE_METRICS}

    def figure(self):
        """The traces against the number of errors added (a matplotlib Figure)."""
        return self._figure.fig

    def _refresh(self, redraw: bool = True) -> None:
        first = {name: values[0] for name, values in self._trace.items()}
        now = {name: values[-1] for name, values in self._trace.items()}
        rows = [
            [
                name,
                fmt(first[name]),
                fmt(now[name]),
                "rose"
                if now[name] > first[name] + 1e-12
                else ("fell" if now[name] < first[name] - 1e-12 else "same"),
            ]
            for name in TRACE_METRICS
        ]
        n = self._m.shape[0]
        matrix = html_table(
            ["pred \\ true", *self._names],
            [[self._names[i], *self._m[i].tolist()] for i in range(n)],
            caption=f"{len(self._trace['mcc']) - 1} errors added",
        )
        self.readout.value = matrix + html_table(["metric", "start", "now", "change"], rows)
        if redraw:
            steps = np.arange(len(self._trace["mcc"]))
            self._figure.redraw(self._trace, steps)


def nonmonotonicity_explorer(m=None, labels=None, *, live_figure: bool = True):
    """Add errors to a chosen cell and trace MCC, kappa, weighted F1 and macro recall.

    Parameters
    ----------
    m : array_like, shape (n, n), optional
        Starting counts (rows = predicted); default Opitz (2024) Table 7 with the
        cell (2, 1) selected, so ``add_error(10)`` gives Table 8.
    labels : list of str, optional
        Class names (x, y, z for the default).
    live_figure : bool, default True
        Re-render the figure on every edit.

    Returns
    -------
    NonMonotonicityExplorer
        ``select_cell(i, j)``, ``add_error(k)``, ``reset()`` and ``trace()`` drive and read it.

    Examples
    --------
    >>> ex = nonmonotonicity_explorer(live_figure=False)
    >>> ex.add_error(10)
    >>> ex.trace()["mcc"][-1] > ex.trace()["mcc"][0]
    True
    """
    return NonMonotonicityExplorer(m, labels, live_figure=live_figure)
