"""Chance-baseline simulator: what does a classifier that ignores its input score?

A random classifier predicts class ``i`` with probability ``z_i`` whatever
the truth; the data hold class ``j`` with probability ``p_j``. Opitz (2024,
PV) calls a metric chance corrected when the best such score is a known
:math:`\\omega(n)`: 1/n for macro recall, macro precision and the F1 of
averages, an upper bound 1/n for macro F1, 0 for kappa and MCC. Convention of
the simulated matrices: ``m[i, j]`` = predicted ``i``, true ``j``.
"""

from __future__ import annotations

import ipywidgets as w
import numpy as np

from clfmetrics import METRICS
from clfmetrics.inference._simulate import random_classifier

from ..plots.widgets import live_histograms
from ._base import Explorer, FigureImage, check_count, fmt, html_table, row

__all__ = [
    "SHOWN",
    "ChanceBaselineSimulator",
    "chance_baseline_simulator",
    "chance_limit",
    "chance_summary",
    "normalise",
    "omega",
    "simulate_chance",
]

#: The metrics drawn as histograms (all of :data:`clfmetrics.METRICS` are simulated).
SHOWN = ("accuracy", "macro_recall", "macro_precision", "macro_f1", "kappa", "mcc")


def normalise(weights, n: int, name: str) -> np.ndarray:
    """Non-negative ``weights`` for ``n`` classes scaled to sum to 1."""
    try:
        arr = np.asarray(weights, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be {n} numbers; got {weights!r}") from None
    if arr.shape != (n,):
        raise ValueError(f"{name} must have {n} entries, one per class; got shape {arr.shape}")
    if not np.isfinite(arr).all() or (arr < 0).any():
        raise ValueError(f"{name} must be finite and >= 0; got {arr.tolist()}")
    if arr.sum() <= 0:
        raise ValueError(f"{name} must have a positive entry; got {arr.tolist()}")
    return arr / arr.sum()


def omega(name: str, n: int) -> float | None:
    """The chance baseline ω(n) of Opitz (2024, Table 5), or None if the metric has none.

    1/n for macro recall, macro precision, F1 of averages (strict), and for macro
    F1 and the geometric and harmonic macro recall (an upper bound, reached by
    some random classifiers only); 0 for kappa and MCC (complete chance correction).
    """
    if name in (
        "macro_recall",
        "macro_precision",
        "f1_of_averages",
        "macro_f1",
        "geometric_macro_recall",
        "harmonic_macro_recall",
    ):
        return 1.0 / n
    if name in ("kappa", "mcc"):
        return 0.0
    return None


def chance_limit(name: str, prevalence, prediction) -> float:
    """The score of the expected matrix ``outer(prediction, prevalence)``: the large-data limit.

    As the data grow, the random classifier's normalised matrix tends to
    ``m[i, j] = z_i p_j``, and every metric here is continuous there (where
    every class occurs and is predicted).
    """
    return METRICS[name](np.outer(prediction, prevalence))


def simulate_chance(
    prevalence, prediction, *, n_sets: int = 2000, n_items: int = 200, seed=0, names=tuple(METRICS)
) -> dict[str, np.ndarray]:
    """Scores of a random classifier on ``n_sets`` simulated data sets of ``n_items`` items.

    One call of :func:`clfmetrics.inference.random_classifier` draws the whole
    stack; each metric is then one vectorised call on it.
    """
    n_sets = check_count(n_sets, "n_sets")
    if n_sets < 1:
        raise ValueError("n_sets must be at least 1")
    stack = random_classifier(
        prevalence, prediction, check_count(n_items, "n_items"), size=n_sets, rng=seed
    )
    return {name: np.atleast_1d(METRICS[name](stack)) for name in names}


def chance_summary(scores: dict, prevalence, prediction) -> dict[str, dict]:
    """Mean, spread and reference values of each metric's simulated scores.

    Returns
    -------
    dict of name -> {mean, std, q05, q95, omega, limit}
        ``omega`` from :func:`omega` (None if the metric has no baseline), ``limit``
        from :func:`chance_limit`.
    """
    n = len(prevalence)
    out = {}
    for name, values in scores.items():
        out[name] = {
            "mean": float(np.mean(values)),
            "std": float(np.std(values)),
            "q05": float(np.quantile(values, 0.05)),
            "q95": float(np.quantile(values, 0.95)),
            "omega": omega(name, n),
            "limit": chance_limit(name, prevalence, prediction),
        }
    return out


def _bins(name: str) -> np.ndarray:
    low = -1.0 if name in ("kappa", "mcc") else 0.0
    return np.linspace(low, 1.0, 41 if low == 0 else 81)


class ChanceBaselineSimulator(Explorer):
    """Sliders for prevalence and prediction distribution; histograms of the chance scores."""

    _muted = False

    def __init__(
        self,
        n: int = 3,
        *,
        live_figure: bool = True,
        n_sets: int = 2000,
        n_items: int = 200,
        seed: int = 0,
    ):
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or not 2 <= n <= 6:
            raise ValueError(f"n must be an integer from 2 to 6; got {n!r}")
        self.n = int(n)
        self._p = np.full(n, 1.0 / n)
        self._z = np.full(n, 1.0 / n)

        def sliders(kind):
            return [
                w.FloatSlider(
                    value=1.0,
                    min=0.0,
                    max=1.0,
                    step=0.01,
                    readout_format=".2f",
                    description=f"{kind} {k}",
                    continuous_update=False,
                )
                for k in range(n)
            ]

        self.prevalence_sliders = sliders("P(c=k)")
        self.prediction_sliders = sliders("P(f→k)")
        for s in self.prevalence_sliders + self.prediction_sliders:
            s.observe(self._on_slider, names="value")
        self.n_sets = w.BoundedIntText(value=n_sets, min=10, max=100_000, description="data sets")
        self.n_items = w.BoundedIntText(value=n_items, min=1, max=100_000, description="items")
        self.seed = w.IntText(value=seed, description="seed")
        for box in (self.n_sets, self.n_items, self.seed):
            box.observe(self._on_slider, names="value")
        self.readout = w.HTML()
        self._scores = None
        fig, update = live_histograms({k: _bins(k) for k in SHOWN}, {k: omega(k, n) for k in SHOWN})
        self._figure = FigureImage(fig, update, live=live_figure)
        self.view = w.VBox(
            [
                w.HTML("<b>A random classifier</b>: sliders are weights, normalised to sum to 1"),
                row(
                    [
                        w.VBox([w.HTML("data: prevalence"), *self.prevalence_sliders]),
                        w.VBox(
                            [
                                w.HTML("classifier: prediction distribution"),
                                *self.prediction_sliders,
                            ]
                        ),
                        w.VBox([self.n_sets, self.n_items, self.seed]),
                    ]
                ),
                row([self.readout, self._figure.image]),
            ]
        )
        self.simulate()

    def _set_sliders(self, sliders, values) -> None:
        self._muted = True
        try:
            for s, v in zip(sliders, values, strict=True):
                s.value = float(v)
        finally:
            self._muted = False

    def set_prevalence(self, p) -> None:
        """Class distribution of the data (non-negative weights, normalised), then re-simulate."""
        self._p = normalise(p, self.n, "prevalence")
        self._set_sliders(self.prevalence_sliders, self._p / self._p.max())
        self.simulate()

    def set_prediction(self, z) -> None:
        """The random classifier's prediction distribution (weights, normalised); re-simulate."""
        self._z = normalise(z, self.n, "prediction")
        self._set_sliders(self.prediction_sliders, self._z / self._z.max())
        self.simulate()

    def simulate(
        self, n_sets: int | None = None, n_items: int | None = None, seed: int | None = None
    ) -> dict[str, np.ndarray]:
        """Simulate (arguments default to the boxes), refresh the view, return name -> scores."""
        self._muted = True
        try:
            if n_sets is not None:
                self.n_sets.value = check_count(n_sets, "n_sets")
            if n_items is not None:
                self.n_items.value = check_count(n_items, "n_items")
            if seed is not None:
                self.seed.value = int(seed)
        finally:
            self._muted = False
        self._scores = simulate_chance(
            self._p,
            self._z,
            n_sets=self.n_sets.value,
            n_items=self.n_items.value,
            seed=self.seed.value,
        )
        self._refresh()
        return {k: v.copy() for k, v in self._scores.items()}

    def summary(self) -> dict[str, dict]:
        """:func:`chance_summary` of the last simulation."""
        return chance_summary(self._scores, self._p, self._z)

    def figure(self):
        """Histograms of the last simulation (a matplotlib Figure)."""
        return self._figure.fig

    @property
    def prevalence(self) -> np.ndarray:
        """The normalised class distribution of the data."""
        return self._p.copy()

    @property
    def prediction(self) -> np.ndarray:
        """The normalised prediction distribution."""
        return self._z.copy()

    def _on_slider(self, _change) -> None:
        if self._muted:
            return
        p = [s.value for s in self.prevalence_sliders]
        z = [s.value for s in self.prediction_sliders]
        if sum(p) <= 0 or sum(z) <= 0:
            self.readout.value = "<b>Each distribution needs a positive weight.</b>"
            return
        self._p = normalise(p, self.n, "prevalence")
        self._z = normalise(z, self.n, "prediction")
        self.simulate()

    def _refresh(self) -> None:
        summary = self.summary()
        rows = [
            [name, fmt(s["mean"]), fmt(s["q05"]), fmt(s["q95"]), fmt(s["omega"]), fmt(s["limit"])]
            for name, s in summary.items()
        ]
        dist = ", ".join(f"{a:.2f}/{b:.2f}" for a, b in zip(self._p, self._z, strict=True))
        self.readout.value = html_table(
            ["metric", "mean", "5%", "95%", "ω(n)", "limit"],
            rows,
            caption=f"prevalence/prediction per class: {dist}",
        )
        self._figure.redraw({k: self._scores[k] for k in SHOWN})


def chance_baseline_simulator(
    n: int = 3, *, live_figure: bool = True, n_sets: int = 2000, n_items: int = 200, seed: int = 0
):
    """Simulate a random classifier on many data sets and show each metric's distribution.

    Parameters
    ----------
    n : int, 2..6
        Number of classes.
    live_figure : bool, default True
        Re-render the histograms after every simulation.
    n_sets, n_items, seed : int
        Defaults for the simulation boxes.

    Returns
    -------
    ChanceBaselineSimulator
        ``set_prevalence``, ``set_prediction``, ``simulate(...)`` and ``summary()``.

    Examples
    --------
    >>> sim = chance_baseline_simulator(2, live_figure=False, n_sets=500)
    >>> abs(sim.summary()["kappa"]["mean"]) < 0.05
    True
    """
    return ChanceBaselineSimulator(
        n, live_figure=live_figure, n_sets=n_sets, n_items=n_items, seed=seed
    )
