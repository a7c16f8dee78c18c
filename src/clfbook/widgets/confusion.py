"""Confusion-matrix explorer: edit the counts, watch every metric of the library.

Convention: ``m[i, j]`` = mass predicted as class ``i`` whose true class is
``j`` (rows = predicted, columns = true).
"""

from __future__ import annotations

import html

import ipywidgets as w
import numpy as np

from clfmetrics import METRICS
from clfmetrics._base.checks import as_confusion
from clfmetrics.metrics._classwise import _bias, _correct, _f1, _precision, _prevalence, _recall

from ..plots.widgets import EXPLORER_TITLE, live_classwise_bars
from ._base import (
    Explorer,
    FigureImage,
    MatrixEditor,
    check_count,
    check_counts,
    class_names,
    fmt,
    html_table,
    row,
)
from .intervals import LEVEL, interval_text, matrix_intervals, metric_intervals

#: What the readout's intervals are and assume (the page prints the same sentence).
INTERVAL_NOTE = (
    "Accuracy and the micro averages (the same number): exact Clopper–Pearson interval of "
    "correct out of all. Every other metric: estimate ± z × its jackknife standard error, "
    "a large-sample normal interval cut to the metric's range; leave-one-out matrices on "
    "which the metric is 0/0 are left out. Both assume independent items; the jackknife "
    "also enough of them. “no spread seen”: no single item changes the metric."
)

__all__ = [
    "ConfusionMatrixExplorer",
    "classwise_readout",
    "confusion_matrix_explorer",
    "metric_readout",
    "resize_matrix",
]


def metric_readout(m) -> dict[str, float]:
    """Every single-number metric of the library for ``m``: ``{name: METRICS[name](m)}``.

    Parameters
    ----------
    m : array_like, shape (n, n)
        Confusion matrix, ``m[i, j]`` = predicted ``i``, true ``j``.

    Returns
    -------
    dict
        Keys are exactly those of :data:`clfmetrics.METRICS`, in its order.
    """
    arr = as_confusion(m)
    return {name: fn(arr) for name, fn in METRICS.items()}


def classwise_readout(m) -> dict[str, np.ndarray]:
    """Per-class precision, recall, F1 (undefined ratios count as 0), bias, prevalence, correct.

    ``precision[i] = correct(i) / bias(i)``, ``recall[i] = correct(i) / prevalence(i)``,
    ``f1[i] = H(precision[i], recall[i])``.
    """
    arr = as_confusion(m)
    return {
        "precision": _precision(arr, 0.0),
        "recall": _recall(arr, 0.0),
        "f1": _f1(arr, 0.0),
        "bias": _bias(arr),
        "prevalence": _prevalence(arr),
        "correct": _correct(arr).copy(),
    }


def resize_matrix(m, n: int) -> np.ndarray:
    """Keep the top-left block of ``m`` for ``n`` classes; a new class gets 1 correct item.

    The 1 on the new diagonal makes the new class occur and be predicted, so
    no ratio becomes 0/0 merely because the matrix grew.
    """
    m = check_counts(m)
    n = int(n)
    check_counts(np.zeros((n, n)))  # n within 2..6
    out = np.zeros((n, n), dtype=np.int64)
    k = min(n, m.shape[0])
    out[:k, :k] = m[:k, :k]
    for i in range(k, n):
        out[i, i] = 1
    return out


def _bar_scores(cw: dict) -> dict:
    return {"precision": cw["precision"], "recall": cw["recall"], "F1": cw["f1"]}


class ConfusionMatrixExplorer(Explorer):
    """Edit an ``n x n`` matrix (n = 2..6); every metric and per-class P/R/F1 update live.

    Build it with :func:`confusion_matrix_explorer`.
    """

    def __init__(self, m, labels=None, *, live_figure: bool = True):
        self._m = check_counts(m)
        n = self._m.shape[0]
        self._labels = None if labels is None else class_names(labels, n)
        self._live = live_figure
        self.size = w.Dropdown(
            options=list(range(2, 7)),
            value=n,
            description="classes",
            layout=w.Layout(width="160px"),
        )
        self.size.observe(self._on_size, names="value")
        self.editor = MatrixEditor(self._m, self._names(), self._on_edit)
        self.readout = w.HTML()
        self.per_class = w.HTML()
        self.status = w.HTML()
        self._new_figure()
        self.view = w.VBox(
            [
                w.HTML("<b>Confusion matrix</b> (rows = predicted, columns = true)"),
                row([self.size]),
                self.editor.box,
                self.status,
                row([self.readout, w.VBox([self.per_class, self._figure.image])]),
            ]
        )
        self._refresh(redraw=False)

    # --- state -------------------------------------------------------------
    @property
    def matrix(self) -> np.ndarray:
        """A copy of the current matrix (rows = predicted, columns = true)."""
        return self._m.copy()

    def _names(self) -> list[str]:
        n = self._m.shape[0]
        if self._labels is not None and len(self._labels) == n:
            return self._labels
        return class_names(None, n)

    def _new_figure(self) -> None:
        n = self._m.shape[0]
        cw = (
            classwise_readout(self._m)
            if self._m.sum() > 0
            else {k: np.zeros(n) for k in ("precision", "recall", "f1")}
        )
        fig, update = live_classwise_bars(_bar_scores(cw), self._names(), title=EXPLORER_TITLE)
        if hasattr(self, "_figure"):
            self._figure.attach(fig, update)
        else:
            self._figure = FigureImage(fig, update, live=self._live)

    # --- methods that drive the widget -------------------------------------
    def set_matrix(self, m) -> None:
        """Show matrix ``m`` (2..6 classes, whole counts >= 0); a new size rebuilds the grid."""
        new = check_counts(m)
        resized = new.shape != self._m.shape
        self._m = new
        if resized:
            self.editor.rebuild(new, self._names())
            self._new_figure()
            self.size.unobserve(self._on_size, names="value")
            self.size.value = new.shape[0]
            self.size.observe(self._on_size, names="value")
        else:
            self.editor.show(new)
        self._refresh()

    def set_cell(self, i: int, j: int, value) -> None:
        """Set ``m[i, j]`` (predicted ``i``, true ``j``) through its input box, as a user would."""
        n = self._m.shape[0]
        if not (0 <= i < n and 0 <= j < n):
            raise ValueError(f"cell ({i}, {j}) is outside the {n} x {n} matrix")
        self.editor.boxes[i][j].value = check_count(value, f"m[{i}, {j}]")

    def metrics(self) -> dict[str, float]:
        """Every metric of :data:`clfmetrics.METRICS` for the current matrix."""
        return metric_readout(self._m)

    def classwise(self) -> dict[str, np.ndarray]:
        """Per-class precision, recall, F1, bias, prevalence and correct for the current matrix."""
        return classwise_readout(self._m)

    def intervals(self) -> dict:
        """Exact intervals of accuracy and each class's precision and recall (see
        :func:`clfbook.widgets.intervals.matrix_intervals`), and under ``"metrics"`` one
        ``(low, high, method)`` per metric (:func:`.intervals.metric_intervals`)."""
        return {**matrix_intervals(self._m, LEVEL), "metrics": metric_intervals(self._m, LEVEL)}

    def figure(self):
        """The per-class P/R/F1 bar figure of the current state (a matplotlib Figure)."""
        return self._figure.fig

    # --- view callbacks ----------------------------------------------------
    def _on_edit(self, i: int, j: int, value: int) -> None:
        self._m[i, j] = value
        self._refresh()

    def _on_size(self, change) -> None:
        self.set_matrix(resize_matrix(self._m, change["new"]))

    def _refresh(self, redraw: bool = True) -> None:
        if self._m.sum() == 0:
            self.status.value = "<b>All counts are 0</b>: there is nothing to evaluate."
            return
        self.status.value = ""
        values = metric_readout(self._m)
        cw = classwise_readout(self._m)
        ci = self.intervals()

        def span(ends):
            return f"[{fmt(ends[0])}, {fmt(ends[1])}]"

        self.readout.value = (
            html_table(
                ["metric", "value", f"{LEVEL:.0%} interval"],
                [
                    [name, fmt(v), interval_text(*ci["metrics"][name][:2], fmt)]
                    for name, v in values.items()
                ],
                caption=f"|S| = {int(self._m.sum())}",
            )
            + f"<p><small>{html.escape(INTERVAL_NOTE)}</small></p>"
        )
        names = self._names()
        self.per_class.value = html_table(
            ["class", "bias", "prevalence", "P", f"P {LEVEL:.0%}", "R", f"R {LEVEL:.0%}", "F1"],
            [
                [
                    names[i],
                    int(cw["bias"][i]),
                    int(cw["prevalence"][i]),
                    fmt(cw["precision"][i]),
                    span(ci["precision"][i]),
                    fmt(cw["recall"][i]),
                    span(ci["recall"][i]),
                    fmt(cw["f1"][i]),
                ]
                for i in range(len(names))
            ],
        )
        if redraw:
            self._figure.redraw(_bar_scores(cw))


def confusion_matrix_explorer(m, labels=None, *, live_figure: bool = True):
    """An editable confusion matrix with a live readout of every metric of the library.

    Parameters
    ----------
    m : array_like, shape (n, n), 2 <= n <= 6
        Starting counts, ``m[i, j]`` = predicted ``i``, true ``j``.
    labels : list of str, optional
        Class names (indices when omitted).
    live_figure : bool, default True
        Re-render the P/R/F1 figure on every edit (switch off for scripting or benchmarks).

    Returns
    -------
    ConfusionMatrixExplorer
        ``.view`` is the ipywidgets container; ``set_matrix``, ``set_cell``, ``metrics``,
        ``classwise`` and ``figure`` drive and read it without a browser.

    Examples
    --------
    >>> ex = confusion_matrix_explorer([[15, 5], [10, 10]], live_figure=False)
    >>> ex.set_cell(1, 0, 0)
    >>> round(ex.metrics()["accuracy"], 3)
    0.833
    """
    return ConfusionMatrixExplorer(m, labels, live_figure=live_figure)
