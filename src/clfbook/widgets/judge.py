r"""Judge explorer: a judge's sensitivity and specificity, the prevalence, and what each
agreement coefficient and each prevalence estimate says about them.

A judge that flags a positive item with probability :math:`T` (sensitivity) and a negative
one with :math:`F = 1 -` specificity, on items of which a share :math:`q` is positive, has
the expected agreement table (shares; rows = the judge, columns = the people)

.. math::

    m = \begin{pmatrix} (1 - F)(1 - q) & (1 - T) q \\ F (1 - q) & T q \end{pmatrix}.

Its accuracy, Cohen's kappa, Scott's pi, PABAK and Gwet's AC1 come from the library's
functions on that table; kappa falls towards 0 as :math:`q` moves to either end while
PABAK (``2 accuracy - 1``) stays put (Feinstein & Cicchetti 1990). The judge flags
:math:`b = F + (T - F) q` of the items: classify-and-count estimates the prevalence by
:math:`b`, biased by :math:`b - q`; the adjusted (Rogan–Gladen) estimate
:math:`(b - F) / (T - F)` recovers :math:`q` when the rates are known, and its interval
carries the error of the rates measured on :math:`n` hand labels. Both intervals are the
delta method's large-sample ones (the variance of :func:`clfmetrics.labels_needed`), with
the hand labels a random sample of the same items. Convention: ``m[i, j]`` = the judge
says ``i``, the people ``j``; class 1 is the one the judge counts.
"""

from __future__ import annotations

import html
import math
from statistics import NormalDist

import ipywidgets as w
import numpy as np

from clfmetrics.metrics import accuracy, gwet_ac1, kappa, pabak, scott_pi

from ..plots.judges import judge_matrices, live_judge_figure
from ._base import Explorer, FigureImage, fmt, html_table, mark, row

__all__ = [
    "COEFFICIENTS",
    "JudgeExplorer",
    "agreement_values",
    "judge_explorer",
    "prevalence_values",
]

#: The stops of the sensitivity and specificity sliders: 0.50, 0.51, ..., 1.00.
RATES = np.round(np.arange(50, 101) / 100, 2)
#: The stops of the prevalence slider: 0.01, 0.02, ..., 0.99.
PREVALENCES = np.round(np.arange(1, 100) / 100, 2)
#: The stops of the hand-labels slider.
HAND_LABELS = (25, 50, 100, 200, 400, 800, 1600, 3200)
#: The prevalences the figures draw their curves at (every stop of the slider).
GRID = PREVALENCES
#: Readout name -> (label, the library's function of the agreement table).
COEFFICIENTS = {
    "accuracy": ("accuracy", accuracy),
    "kappa": ("Cohen's κ", kappa),
    "scott_pi": ("Scott's π", scott_pi),
    "pabak": ("PABAK", pabak),
    "gwet_ac1": ("Gwet's AC1", gwet_ac1),
}
#: What the prevalence intervals assume (shown under the readout, in both versions).
INTERVAL_NOTE = (
    "Large-sample normal intervals by the delta method (the variance of "
    "clfmetrics.labels_needed), cut to [0, 1]. Classify and count carries only the "
    "deployment items' sampling; the adjusted estimate also the judge's rates, measured on "
    "the hand labels, a random sample of the same items. Both assume independent items and "
    "label shift (the judge's rates are the same on the hand-labelled and the deployment "
    "items). With few positives among the hand labels the bootstrap's interval "
    "(estimate_prevalence) is wider."
)


def _estimate_rows(pct: str) -> list[tuple[str, str, str]]:
    """The rows of the estimates' table: label, classify-and-count key, adjusted key."""
    return [
        ("estimate", "flagged", "adjusted"),
        ("bias", "cc_bias", "adjusted_bias"),
        (f"{pct} low", "cc_low", "adjusted_low"),
        (f"{pct} high", "cc_high", "adjusted_high"),
    ]


def _share(value, name: str, *, closed: bool) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise ValueError(f"{name} must be a number; got {value!r}")
    value = float(value)
    inside = 0 <= value <= 1 if closed else 0 < value < 1
    if not inside:
        where = "[0, 1]" if closed else "(0, 1), strictly"
        raise ValueError(f"{name} must lie in {where}; got {value!r}")
    return value


def _items(value, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise ValueError(f"{name} must be a whole number >= 1; got {value!r}")
    return int(value)


def agreement_values(sensitivity, specificity, prevalence) -> dict:
    """The expected agreement table of a judge and its coefficients, by the library.

    Parameters
    ----------
    sensitivity, specificity : float in [0, 1]
        The judge's rates on the positive and the negative items.
    prevalence : float in (0, 1)
        The share of positive items.

    Returns
    -------
    dict
        ``matrix`` (2x2 shares, rows = the judge, columns = the people) and one value per
        key of :data:`COEFFICIENTS`.
    """
    t = _share(sensitivity, "sensitivity", closed=True)
    s = _share(specificity, "specificity", closed=True)
    q = _share(prevalence, "prevalence", closed=False)
    m = judge_matrices([q], t, s)[0]
    return {"matrix": m} | {key: float(func(m)) for key, (_, func) in COEFFICIENTS.items()}


def _interval(centre: float, se: float, z: float) -> tuple[float, float]:
    return max(0.0, centre - z * se), min(1.0, centre + z * se)


def prevalence_values(
    sensitivity, specificity, prevalence, *, labels, deployment, level=0.95
) -> dict:
    r"""Classify-and-count and the adjusted (Rogan–Gladen) estimate of a prevalence.

    At the judge's expected flagged share :math:`b = F + (T - F) q`: classify-and-count
    says :math:`b`, with the interval :math:`b \pm z\sqrt{b(1 - b)/N}` of the deployment
    items alone; the adjusted estimate says :math:`(b - F)/(T - F) = q`, with the delta
    method's standard error of :func:`clfmetrics.labels_needed` (hand labels a random
    sample, :math:`\pi = q`). Intervals are cut to [0, 1].

    Parameters
    ----------
    sensitivity, specificity : float in [0, 1]
    prevalence : float in (0, 1)
    labels : int
        Hand-labelled items :math:`n` the rates are measured on.
    deployment : int
        Deployment items :math:`N` the judge labels.
    level : float, default 0.95

    Returns
    -------
    dict
        ``prevalence``, ``flagged`` (b), ``cc_bias`` (b - q), ``cc_low``, ``cc_high``,
        ``cc_covers``; ``youden`` (J = T - F), ``adjusted``, ``adjusted_bias`` (0),
        ``adjusted_low``, ``adjusted_high``, ``adjusted_covers`` (all NaN and False where
        J = 0: the verdicts then say nothing about the prevalence), and ``z``.
    """
    t = _share(sensitivity, "sensitivity", closed=True)
    f = 1.0 - _share(specificity, "specificity", closed=True)
    q = _share(prevalence, "prevalence", closed=False)
    n, big_n = _items(labels, "labels"), _items(deployment, "deployment")
    level = _share(level, "level", closed=False)
    z = NormalDist().inv_cdf(0.5 + level / 2)
    j = t - f
    b = f + j * q
    cc_low, cc_high = _interval(b, math.sqrt(b * (1 - b) / big_n), z)
    out = {
        "prevalence": q,
        "flagged": b,
        "cc_bias": b - q,
        "cc_low": cc_low,
        "cc_high": cc_high,
        "cc_covers": bool(cc_low <= q <= cc_high),
        "youden": j,
        "z": z,
    }
    if j <= 0:
        nan = float("nan")
        return (
            out
            | dict.fromkeys(("adjusted", "adjusted_bias", "adjusted_low"), nan)
            | {
                "adjusted_high": nan,
                "adjusted_covers": False,
            }
        )
    # labels_needed's variance with pi = q (a random sample): deployment, positives, negatives
    var = (
        b * (1 - b) / big_n
        + q * q * t * (1 - t) / (n * q)
        + (1 - q) ** 2 * f * (1 - f) / (n * (1 - q))
    ) / (j * j)
    adjusted = (b - f) / j
    low, high = _interval(adjusted, math.sqrt(var), z)
    return out | {
        "adjusted": adjusted,
        "adjusted_bias": adjusted - q,
        "adjusted_low": low,
        "adjusted_high": high,
        "adjusted_covers": bool(low <= q <= high),
    }


def agreement_curves(sensitivity, specificity, grid=GRID) -> dict:
    """Accuracy, kappa, pi, PABAK and AC1 of the judge at every prevalence of ``grid``."""
    stack = judge_matrices(grid, float(sensitivity), float(specificity))
    return {key: np.asarray(func(stack), dtype=float) for key, (_, func) in COEFFICIENTS.items()}


def prevalence_curves(sensitivity, specificity, *, labels, deployment, level=0.95, grid=GRID):
    """:func:`prevalence_values` at every prevalence of ``grid``, as arrays per key."""
    rows = [
        prevalence_values(
            sensitivity, specificity, q, labels=labels, deployment=deployment, level=level
        )
        for q in grid
    ]
    return {key: np.array([r[key] for r in rows], dtype=float) for key in rows[0]}


def _check_stop(value, stops, name: str):
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise ValueError(f"{name} must be a number; got {value!r}")
    hits = np.flatnonzero(np.isclose(np.asarray(stops, dtype=float), value, rtol=0, atol=1e-9))
    if hits.size == 0:
        first, last = stops[0], stops[-1]
        raise ValueError(
            f"{name} must be one of the slider's stops {first}, ..., {last}; got {value!r}"
        )
    return stops[int(hits[0])]


class JudgeExplorer(Explorer):
    """Sliders for a judge's sensitivity and specificity, the prevalence and the hand labels;
    the agreement table and coefficients, the two prevalence estimates, and two figures."""

    _muted = False

    def __init__(
        self,
        sensitivity=0.9,
        specificity=0.9,
        prevalence=0.1,
        *,
        labels=200,
        deployment=20_000,
        level=0.95,
        names=("negative", "positive"),
        live_figure: bool = True,
    ):
        self.sensitivity = float(_check_stop(sensitivity, RATES, "sensitivity"))
        self.specificity = float(_check_stop(specificity, RATES, "specificity"))
        self.prevalence = float(_check_stop(prevalence, PREVALENCES, "prevalence"))
        self.labels = int(_check_stop(labels, HAND_LABELS, "labels"))
        self.deployment = _items(deployment, "deployment")
        self.level = _share(level, "level", closed=False)
        self.names = [str(x) for x in names]
        if len(self.names) != 2:
            raise ValueError(f"names must name the two classes; got {self.names}")

        def slider(stops, value, description):
            s = w.SelectionSlider(
                options=[(f"{x:.2f}" if isinstance(x, float) else str(x), x) for x in stops],
                value=value,
                description=description,
                continuous_update=True,
                style={"description_width": "9em"},
                layout=w.Layout(width="420px"),
            )
            s.observe(self._on_slide, names="value")
            return s

        self.sliders = {
            "sensitivity": slider(RATES.tolist(), self.sensitivity, "sensitivity T"),
            "specificity": slider(RATES.tolist(), self.specificity, "specificity"),
            "prevalence": slider(PREVALENCES.tolist(), self.prevalence, "prevalence q"),
            "labels": slider(list(HAND_LABELS), self.labels, "hand labels n"),
        }
        self.readout = w.HTML()
        fig, update = live_judge_figure(GRID, *self._curves(), self.prevalence, self.names[1])
        self._figure = FigureImage(fig, update, live=live_figure)
        self.view = w.VBox(
            [
                w.HTML(
                    "<b>A judge's rates and the prevalence</b> (the judge's verdicts against "
                    "the people's; the judge counts "
                    f"<i>{html.escape(self.names[1])}</i>)"
                ),
                w.VBox(list(self.sliders.values())),
                row([self.readout, self._figure.image]),
            ]
        )
        self._refresh(redraw=False)

    def _curves(self):
        agree = agreement_curves(self.sensitivity, self.specificity)
        prev = prevalence_curves(
            self.sensitivity,
            self.specificity,
            labels=self.labels,
            deployment=self.deployment,
            level=self.level,
        )
        return agree, prev

    def _on_slide(self, change) -> None:
        if self._muted:
            return
        for key, s in self.sliders.items():
            setattr(self, key, s.value)
        self._refresh()

    def set_state(self, **values) -> None:
        """Move any of ``sensitivity``, ``specificity``, ``prevalence``, ``labels`` to one of
        their sliders' stops, then refresh once."""
        stops = {
            "sensitivity": RATES.tolist(),
            "specificity": RATES.tolist(),
            "prevalence": PREVALENCES.tolist(),
            "labels": list(HAND_LABELS),
        }
        unknown = set(values) - set(stops)
        if unknown:
            raise ValueError(f"unknown settings {sorted(unknown)}; use {sorted(stops)}")
        checked = {k: _check_stop(v, stops[k], k) for k, v in values.items()}
        self._muted = True
        try:
            for key, value in checked.items():
                self.sliders[key].value = value
                setattr(self, key, value)
        finally:
            self._muted = False
        self._refresh()

    def agreement(self) -> dict:
        """The current agreement table and coefficients (:func:`agreement_values`)."""
        return agreement_values(self.sensitivity, self.specificity, self.prevalence)

    def estimates(self) -> dict:
        """The current prevalence estimates (:func:`prevalence_values`)."""
        return prevalence_values(
            self.sensitivity,
            self.specificity,
            self.prevalence,
            labels=self.labels,
            deployment=self.deployment,
            level=self.level,
        )

    def _refresh(self, redraw: bool = True) -> None:
        a, e = self.agreement(), self.estimates()
        m, (neg, pos) = a["matrix"], self.names
        pct = f"{round(self.level * 100)} %"

        def shown(x):
            return "undefined" if math.isnan(x) else fmt(x)

        tables = [
            html_table(
                ["judge \\ people", neg, pos],
                [[neg, fmt(m[0, 0]), fmt(m[0, 1])], [pos, fmt(m[1, 0]), fmt(m[1, 1])]],
                caption="expected agreement table (shares of the items)",
            ),
            html_table(
                ["coefficient", "value"],
                [[label, fmt(a[key])] for key, (label, _) in COEFFICIENTS.items()],
                caption=f"agreement at prevalence {self.prevalence:.2f}",
            ),
            html_table(
                ["estimate of q", "classify and count", "adjusted (Rogan–Gladen)"],
                [[label, shown(e[cc]), shown(e[adj])] for label, cc, adj in _estimate_rows(pct)]
                + [["covers q", mark(e["cc_covers"]), mark(e["adjusted_covers"])]],
                caption=(
                    f"true prevalence q = {self.prevalence:.2f}; {self.labels} hand labels, "
                    f"{self.deployment} deployment items; J = T − F = {fmt(e['youden'])}"
                ),
            ),
            f"<p style='font-size:0.85em;max-width:34em'>{html.escape(INTERVAL_NOTE)}</p>",
        ]
        self.readout.value = "".join(tables)
        if redraw:
            self._figure.redraw(*self._curves(), self.prevalence)

    def figure(self):
        """Agreement against the prevalence, and the two estimates against the true one."""
        return self._figure.fig


def judge_explorer(
    sensitivity=0.9,
    specificity=0.9,
    prevalence=0.1,
    *,
    labels=200,
    deployment=20_000,
    level=0.95,
    names=("negative", "positive"),
    live_figure: bool = True,
):
    """Sliders for a judge's rates and the prevalence: the kappa paradox and the
    classify-and-count bias in one place.

    Parameters
    ----------
    sensitivity, specificity : float, default 0.9
        The judge's rates, each a stop 0.50, 0.51, ..., 1.00 of its slider.
    prevalence : float, default 0.1
        The share of positive items, a stop 0.01, ..., 0.99.
    labels : int, default 200
        Hand-labelled items the rates are measured on, one of :data:`HAND_LABELS`.
    deployment : int, default 20000
        Deployment items the judge labels.
    level : float, default 0.95
        Level of the prevalence intervals.
    names : pair of str
        The negative and the positive class (the one the judge counts).
    live_figure : bool, default True
        Re-render the figure on every edit.

    Returns
    -------
    JudgeExplorer
        ``set_state(...)``, ``agreement()``, ``estimates()`` and ``figure()`` drive and
        read it.

    Examples
    --------
    >>> ex = judge_explorer(0.9, 0.9, 0.5, live_figure=False)
    >>> round(ex.agreement()["kappa"], 4), round(ex.agreement()["pabak"], 4)
    (0.8, 0.8)
    >>> ex.set_state(prevalence=0.02)
    >>> round(ex.agreement()["kappa"], 4), round(ex.agreement()["pabak"], 4)
    (0.2387, 0.8)
    """
    return JudgeExplorer(
        sensitivity,
        specificity,
        prevalence,
        labels=labels,
        deployment=deployment,
        level=level,
        names=names,
        live_figure=live_figure,
    )
