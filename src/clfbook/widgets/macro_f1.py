"""Macro F1 explorer: skew a classifier's errors and watch the two "macro F1"s part.

Opitz & Burst (2019): the averaged F1 :math:`\\mathcal{F}_1` (mean of class-wise
F1) and the F1 of averages :math:`\\mathbb{F}_1` (harmonic mean of macro P and
macro R) differ by :math:`\\Delta \\ge 0`, which can approach 1/2 (even n) or
1/2 - 1/(2n^2) (odd n) when errors are skewed towards one direction.
Convention: ``m[i, j]`` = predicted ``i``, true ``j``.
"""

from __future__ import annotations

from fractions import Fraction

import ipywidgets as w
import numpy as np

from clfmetrics._base.checks import as_confusion
from clfmetrics.metrics._averages import _delta_f1, _f1_of_averages, _macro_f1

from ..plots.widgets import live_curves
from ._base import Explorer, FigureImage, MatrixEditor, check_counts, fmt, html_table, row

__all__ = [
    "PRESETS",
    "MacroF1Explorer",
    "delta_supremum",
    "error_skew",
    "macro_f1_explorer",
    "macro_f1_readout",
    "skew_curves",
    "skew_errors",
]

#: The source's examples (Opitz & Burst 2019, Tables 1-2; rows = predicted), and a 3-class
#: matrix we derived from their proof (one class (P, R) -> (0, 1), two classes -> (1, 0)).
PRESETS = {
    "skewed": [[100, 10000], [0, 100]],
    "balanced": [[100, 5000], [5000, 100]],
    "three-class-skewed": [[1, 10000, 10000], [0, 1, 0], [0, 0, 1]],
}

#: Skew values at which the curves are drawn.
SKEW_GRID = np.linspace(0.0, 1.0, 41)


def delta_supremum(n: int) -> Fraction:
    r"""Supremum of :math:`\Delta = \mathbb{F}_1 - \mathcal{F}_1` over n-class matrices.

    Opitz & Burst's proof reaches it with ``r`` classes whose (P, R) tend to
    (0, 1) and ``s = n - r`` whose (P, R) tend to (1, 0), where
    :math:`\Delta \to 2rs/n^2`; the supremum is the largest such value:
    1/2 for even n, 1/2 - 1/(2 n^2) for odd n.

    Examples
    --------
    >>> delta_supremum(2), delta_supremum(3)
    (Fraction(1, 2), Fraction(4, 9))
    """
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 2:
        raise ValueError(f"n must be an integer >= 2; got {n!r}")
    return max(Fraction(2 * r * (n - r), n * n) for r in range(n + 1))


def skew_errors(m, t) -> np.ndarray:
    """Redistribute each pair of mirrored errors: share ``t`` above the diagonal.

    For every class pair ``i < j`` the errors ``e = m[i, j] + m[j, i]`` are
    split as ``m[i, j] = round(t e)`` (items of class ``j`` predicted as the
    lower-index class ``i``) and ``m[j, i] = e - m[i, j]``. The diagonal,
    each pair's total and hence the number of errors stay fixed; only the
    direction of the errors moves. ``t`` may be an array: the result is then a
    stack ``t.shape + (n, n)``.
    """
    m = as_confusion(m)
    t = np.asarray(t, dtype=float)
    if not ((t >= 0) & (t <= 1)).all():
        raise ValueError(f"t must lie in [0, 1]; got {t}")
    n = m.shape[-1]
    upper = np.triu(np.ones((n, n), dtype=bool), k=1)
    pair_total = np.where(upper, m + m.T, 0.0)
    above = np.round(t[..., None, None] * pair_total)
    below = np.swapaxes(pair_total - above, -1, -2)
    diag = np.diag(np.diagonal(m))
    return diag + above + below


def error_skew(m) -> float:
    """Share of the off-diagonal mass above the diagonal (0.5 when there are no errors)."""
    m = as_confusion(m)
    above = np.triu(m, k=1).sum()
    errors = m.sum() - np.trace(m)
    return float(above / errors) if errors > 0 else 0.5


def macro_f1_readout(m) -> dict:
    r"""Both macro F1s, their gap and the supremum of the gap for this many classes.

    Returns
    -------
    dict
        ``macro_f1`` (:math:`\mathcal{F}_1`), ``f1_of_averages`` (:math:`\mathbb{F}_1`),
        ``delta_f1`` (:math:`\Delta` by the closed form), ``supremum`` (float),
        ``share_of_supremum`` (:math:`\Delta / \sup`) and ``skew`` (:func:`error_skew`).
    """
    m = as_confusion(m)
    sup = float(delta_supremum(m.shape[-1]))
    delta = float(_delta_f1(m, 0.0))
    return {
        "macro_f1": float(_macro_f1(m, 0.0)),
        "f1_of_averages": float(_f1_of_averages(m, 0.0)),
        "delta_f1": delta,
        "supremum": sup,
        "share_of_supremum": delta / sup,
        "skew": error_skew(m),
    }


def skew_curves(m, ts=SKEW_GRID) -> dict[str, np.ndarray]:
    """Both macro F1s and Δ of :func:`skew_errors` ``(m, t)`` for every ``t`` (one stacked call)."""
    stack = skew_errors(m, ts)
    return {
        "macro F1 (mean of F1_i)": _macro_f1(stack, 0.0),
        "F1 of averages H(macP, macR)": _f1_of_averages(stack, 0.0),
        "Δ": _delta_f1(stack, 0.0),
    }


class MacroF1Explorer(Explorer):
    """Edit a 2- or 3-class matrix or slide its error direction; both macro F1s update."""

    _muted = False

    def __init__(self, n: int = 2, *, live_figure: bool = True):
        if n not in (2, 3):
            raise ValueError(f"n must be 2 or 3 classes; got {n!r}")
        self._m = check_counts(
            PRESETS["balanced"]
            if n == 2
            else [[100, 1000, 1000], [1000, 100, 1000], [1000, 1000, 100]]
        )
        self.editor = MatrixEditor(self._m, self._names(), self._on_edit)
        self.skew = w.FloatSlider(
            value=error_skew(self._m),
            min=0,
            max=1,
            step=0.01,
            description="error skew",
            continuous_update=True,
            readout_format=".2f",
        )
        self.skew.observe(self._on_skew, names="value")
        self.buttons = {}
        for name in PRESETS:
            button = w.Button(description=name, tooltip=str(PRESETS[name]))
            button.on_click(lambda _b, name=name: self.preset(name))
            self.buttons[name] = button
        self.readout = w.HTML()
        self._figure = FigureImage(*self._live_figure(), live=live_figure)
        self.view = w.VBox(
            [
                w.HTML("<b>Two macro F1s</b> (rows = predicted, columns = true)"),
                row(list(self.buttons.values())),
                self.editor.box,
                self.skew,
                row([self.readout, self._figure.image]),
            ]
        )
        self._refresh(redraw=False)

    def _names(self) -> list[str]:
        return [chr(ord("a") + k) for k in range(self._m.shape[0])]

    def _live_figure(self):
        state = macro_f1_readout(self._m)
        return live_curves(
            SKEW_GRID,
            skew_curves(self._m),
            xlabel="share of each error pair above the diagonal",
            ylabel="score",
            marker=state["skew"],
            xlim=(0, 1),
            ylim=(0, 1.02),
            hlines={f"sup Δ for n = {self._m.shape[0]}": state["supremum"]},
            title="same errors, different direction",
        )

    def set_matrix(self, m) -> None:
        """Show a 2x2 or 3x3 matrix of whole counts >= 0 (rows = predicted)."""
        new = check_counts(m, n_max=3)
        if new.sum() == 0:
            raise ValueError("m has total mass 0: there is nothing to evaluate")
        resized = new.shape != self._m.shape
        self._m = new
        if resized:
            self.editor.rebuild(new, self._names())
            self._figure.attach(*self._live_figure())
        else:
            self.editor.show(new)
        self._refresh()

    def preset(self, name: str) -> None:
        """Load one of :data:`PRESETS` ('skewed', 'balanced', 'three-class-skewed')."""
        if name not in PRESETS:
            raise ValueError(f"unknown preset {name!r}; choose one of {list(PRESETS)}")
        self.set_matrix(PRESETS[name])

    def set_skew(self, t: float) -> None:
        """Move the errors: share ``t`` of each mirrored error pair above the diagonal."""
        if not 0 <= t <= 1:
            raise ValueError(f"the skew must lie in [0, 1]; got {t!r}")
        self.skew.value = float(t)

    def metrics(self) -> dict:
        """:func:`macro_f1_readout` of the current matrix."""
        return macro_f1_readout(self._m)

    @property
    def matrix(self) -> np.ndarray:
        """A copy of the current matrix."""
        return self._m.copy()

    def figure(self):
        """Both macro F1s and Δ against the error skew, the current skew marked."""
        return self._figure.fig

    def _on_edit(self, i: int, j: int, value: int) -> None:
        self._m[i, j] = value
        self._refresh()

    def _on_skew(self, change) -> None:
        if self._muted or self._m.sum() == np.trace(self._m):
            return
        self._m = skew_errors(self._m, change["new"]).astype(np.int64)
        self.editor.show(self._m)
        self._refresh(move_slider=False)

    def _refresh(self, redraw: bool = True, move_slider: bool = True) -> None:
        if self._m.sum() == 0:
            self.readout.value = "<b>All counts are 0</b>: there is nothing to evaluate."
            return
        state = macro_f1_readout(self._m)
        self.readout.value = html_table(
            ["quantity", "value"],
            [
                ["macro F1 (mean of F1_i)", fmt(state["macro_f1"])],
                ["F1 of averages H(macP, macR)", fmt(state["f1_of_averages"])],
                ["Δ (closed form)", fmt(state["delta_f1"])],
                [f"sup Δ for n = {self._m.shape[0]}", fmt(state["supremum"])],
                ["Δ / sup", fmt(state["share_of_supremum"])],
            ],
        )
        if move_slider:
            self._muted = True
            try:
                self.skew.value = state["skew"]
            finally:
                self._muted = False
        if redraw:
            self._figure.redraw(skew_curves(self._m), None, state["skew"])


def macro_f1_explorer(n: int = 2, *, live_figure: bool = True):
    """Drive a 2- or 3-class classifier's error direction; both macro F1s, Δ and sup Δ live.

    Parameters
    ----------
    n : {2, 3}
        Number of classes of the starting matrix (presets may switch it).
    live_figure : bool, default True
        Re-render the figure on every edit.

    Returns
    -------
    MacroF1Explorer
        ``set_matrix``, ``preset(name)``, ``set_skew(t)`` and ``metrics()`` drive and read it.

    Examples
    --------
    >>> ex = macro_f1_explorer(live_figure=False)
    >>> ex.preset("skewed")
    >>> round(ex.metrics()["f1_of_averages"], 3), round(ex.metrics()["macro_f1"], 4)
    (0.505, 0.0196)
    """
    return MacroF1Explorer(n, live_figure=live_figure)
