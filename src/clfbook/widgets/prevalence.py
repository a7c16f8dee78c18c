"""Prevalence explorer: scale how common each true class is and see which metrics move.

Scaling column ``j`` of ``m`` by ``lam[j]`` (Opitz 2024, eq. 5) keeps the
classifier's behaviour on every true class and changes only the class
frequencies; a prevalence-invariant metric (PIV) does not move. Convention:
``m[i, j]`` = predicted ``i``, true ``j``.
"""

from __future__ import annotations

import ipywidgets as w
import numpy as np

from clfmetrics import METRICS
from clfmetrics._base.checks import as_confusion
from clfmetrics.metrics._prevalence import prevalence_scale

from ..plots.widgets import live_metric_comparison
from ._base import Explorer, FigureImage, check_counts, class_names, fmt, html_table, mark, row
from .confusion import metric_readout

__all__ = ["PrevalenceExplorer", "prevalence_explorer", "prevalence_readout"]

#: A metric "moved" when it changed by more than this.
TOLERANCE = 1e-12


def prevalence_readout(m, lam, *, tol: float = TOLERANCE) -> dict:
    r"""Every metric of ``m`` and of :math:`m\lambda`, and which of them moved.

    Parameters
    ----------
    m : array_like, shape (n, n)
        Confusion matrix, ``m[i, j]`` = predicted ``i``, true ``j``.
    lam : array_like, shape (n,)
        Positive scale per true class (column).
    tol : float
        A metric moved when ``|metric(m lam) - metric(m)| > tol``.

    Returns
    -------
    dict
        ``scaled`` (the matrix :math:`m\lambda`), ``before`` and ``after`` (name -> value, keys
        of :data:`clfmetrics.METRICS`) and ``changed`` (name -> bool).
    """
    m = as_confusion(m)
    scaled = prevalence_scale(m, lam)
    before = metric_readout(m)
    after = metric_readout(scaled)
    changed = {k: bool(abs(after[k] - before[k]) > tol) for k in METRICS}
    return {"scaled": scaled, "before": before, "after": after, "changed": changed}


class PrevalenceExplorer(Explorer):
    """One log-scale slider per class scales its prevalence; the readout marks what moved."""

    _muted = False

    def __init__(self, m, labels=None, *, live_figure: bool = True):
        self._m = check_counts(m)
        if self._m.sum() == 0:
            raise ValueError("m has total mass 0: there is nothing to scale")
        n = self._m.shape[0]
        self._names = class_names(labels, n)
        self._lam = np.ones(n)
        self.sliders = [
            w.FloatLogSlider(
                value=1.0,
                base=10,
                min=-2,
                max=2,
                step=0.05,
                readout_format=".3g",
                description=f"λ {name}",
                continuous_update=True,
            )
            for name in self._names
        ]
        for j, slider in enumerate(self.sliders):
            slider.observe(self._slider_handler(j), names="value")
        self.readout = w.HTML()
        self.matrix_view = w.HTML()
        state = prevalence_readout(self._m, self._lam)
        names = list(METRICS)
        fig, update = live_metric_comparison(
            names, [state["before"][k] for k in names], [state["after"][k] for k in names]
        )
        self._figure = FigureImage(fig, update, live=live_figure)
        self.view = w.VBox(
            [
                w.HTML("<b>Scale the prevalence of each true class</b> (column j times λ_j)"),
                w.VBox(self.sliders),
                row([self.readout, w.VBox([self.matrix_view, self._figure.image])]),
            ]
        )
        self._refresh(redraw=False)

    def _slider_handler(self, j: int):
        def handle(change):
            self._lam[j] = change["new"]
            self._refresh()

        return handle

    def set_scale(self, lam) -> None:
        """Set every λ_j (positive, one per class) through the sliders, then refresh once."""
        lam = np.asarray(lam, dtype=float)
        prevalence_scale(self._m, lam)  # validates shape and positivity
        for slider, value in zip(self.sliders, lam, strict=True):
            if not slider.min <= np.log10(value) <= slider.max:
                raise ValueError(f"each λ must lie between 0.01 and 100; got {value:g}")
        self._muted = True  # one refresh for all sliders, not one per slider
        try:
            for slider, value in zip(self.sliders, lam, strict=True):
                slider.value = float(value)
        finally:
            self._muted = False
        self._lam = lam.copy()
        self._refresh()

    def _refresh(self, redraw: bool = True) -> None:
        if self._muted:
            return
        state = prevalence_readout(self._m, self._lam)
        rows = [
            [k, fmt(state["before"][k]), fmt(state["after"][k]), mark(state["changed"][k])]
            for k in METRICS
        ]
        self.readout.value = html_table(["metric", "m", "m·λ", "moved"], rows)
        scaled = state["scaled"]
        self.matrix_view.value = html_table(
            ["pred \\ true", *self._names],
            [[self._names[i], *[f"{x:.4g}" for x in scaled[i]]] for i in range(len(scaled))],
            caption="scaled matrix m·λ (rows = predicted, columns = true)",
        )
        if redraw:
            names = list(METRICS)
            self._figure.redraw(
                [state["before"][k] for k in names], [state["after"][k] for k in names]
            )

    @property
    def scale(self) -> np.ndarray:
        """The current λ (one factor per true class)."""
        return self._lam.copy()

    def scaled_matrix(self) -> np.ndarray:
        """The matrix m·λ of the current state."""
        return prevalence_scale(self._m, self._lam)

    def metrics(self) -> dict[str, float]:
        """Every metric of :data:`clfmetrics.METRICS` for the scaled matrix m·λ."""
        return metric_readout(self.scaled_matrix())

    def changed(self) -> dict[str, bool]:
        """Metric name -> True when it moved by more than 1e-12 relative to the unscaled matrix."""
        return prevalence_readout(self._m, self._lam)["changed"]

    def figure(self):
        """Bars of every metric before and after scaling (a matplotlib Figure)."""
        return self._figure.fig


def prevalence_explorer(m, labels=None, *, live_figure: bool = True):
    """Sliders that scale each class's prevalence, with a readout of which metrics move.

    Parameters
    ----------
    m : array_like, shape (n, n), 2 <= n <= 6
        Counts, ``m[i, j]`` = predicted ``i``, true ``j``.
    labels : list of str, optional
        Class names.
    live_figure : bool, default True
        Re-render the figure on every edit.

    Returns
    -------
    PrevalenceExplorer
        ``set_scale(lam)``, ``metrics()`` (of m·λ) and ``changed()`` drive and read it.

    Examples
    --------
    >>> ex = prevalence_explorer([[60, 15], [40, 85]], live_figure=False)
    >>> ex.set_scale([1, 3])
    >>> ex.changed()["macro_recall"], ex.changed()["accuracy"]
    (False, True)
    """
    return PrevalenceExplorer(m, labels, live_figure=live_figure)
