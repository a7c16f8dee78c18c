"""The report's decision sections: the decision curve, the paired difference, Bayes costs.

- ``net_benefit=`` (a range ``"0.05:0.35"``, ``"0.05:0.35:0.05"``, a list ``"0.1,0.2"``
  or a sequence of numbers) adds :func:`clfmetrics.inference.decision_curve` of the
  binary scores: the net benefit with its simultaneous band, treat all, treat none
  and the interventions avoided; with two systems
  :func:`clfmetrics.inference.net_benefit_difference`, their paired difference with
  its band.
- ``costs=`` (an ``n x n`` matrix, ``costs[i, j]`` the cost of predicting class ``i``
  when the truth is ``j``) adds the mean cost of the Bayes decisions
  (:func:`clfmetrics.inference.bayes_cost_interval`) beside that of the predictions.

Both resample on their own generator from the report's seed, so each number equals
the library function's called with ``rng=seed`` (the report's other numbers are
those without these options).
"""

from __future__ import annotations

import html

import numpy as np

from .._base.codes import as_label_vector
from .._base.numbers import count, num, seed_text
from ..inference import (
    bayes_cost_interval,
    decision_curve,
    decision_curve_from_counts,
    net_benefit_difference,
    net_benefit_difference_from_counts,
)
from ..scores import check_thresholds, expected_cost
from ._html import Series, chart
from ._render import Section, interval_dict

#: The step of a range ``LOW:HIGH`` given without one.
RANGE_STEP = 0.01
#: At most this many thresholds (a range's grid, a list).
MOST_THRESHOLDS = 1000
#: Resamples of a band at most (its cost grows with the thresholds, not the items).
BAND_SIZE = 2000


def parse_thresholds(spec) -> np.ndarray:
    """``net_benefit=`` as a sorted array of distinct threshold probabilities in (0, 1).

    A string is ``LOW:HIGH`` (every ``RANGE_STEP`` from LOW to HIGH, both included),
    ``LOW:HIGH:STEP`` or a comma list ``t1,t2,...``; anything else is a sequence of numbers.
    Each refusal begins ``net_benefit <spec>:`` (the command line names its option there).
    """
    where = f"net_benefit {spec!r}"
    if isinstance(spec, str):
        try:
            ranged = ":" in spec
            parts = [float(p) for p in spec.split(":" if ranged else ",") if p.strip()]
            if ranged and len(parts) not in (2, 3):
                raise ValueError
        except ValueError:
            raise ValueError(
                f"{where}: give LOW:HIGH, LOW:HIGH:STEP or a comma list of threshold "
                "probabilities, such as 0.05:0.35 or 0.1,0.2,0.3"
            ) from None
        if ranged:
            low, high = parts[:2]
            step = parts[2] if len(parts) == 3 else RANGE_STEP
            _in_unit(where, [low, high])
            if not high > low:
                raise ValueError(f"{where}: LOW must be below HIGH (LOW:HIGH[:STEP])")
            if not (step > 0 and np.isfinite(step)):
                raise ValueError(f"{where}: STEP must be a positive number")
            k = int(np.floor((high - low) / step + 1e-9))
            if k + 1 > MOST_THRESHOLDS:
                raise ValueError(
                    f"{where}: {k + 1} thresholds; at most {MOST_THRESHOLDS} (a larger STEP)"
                )
            # Rounded, so that 0.05:0.35 gives 0.15, not 0.15000000000000002.
            parts = np.round(low + step * np.arange(k + 1), 12)
        spec = parts
    try:
        t = np.asarray(spec, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"{where}: the thresholds must be numbers") from None
    if t.ndim != 1 or t.size == 0:
        raise ValueError(f"{where}: give one or more threshold probabilities")
    _in_unit(where, t)
    t = np.unique(t)
    if t.size > MOST_THRESHOLDS:
        raise ValueError(f"{where}: {t.size} thresholds; at most {MOST_THRESHOLDS}")
    return check_thresholds(t)


def _in_unit(where: str, values) -> None:
    for v in values:
        if not 0 < v < 1:
            raise ValueError(
                f"{where}: a threshold probability lies strictly between 0 and 1 (t/(1-t) is "
                f"the weight of a false positive); got {float(v):g}"
            )


def check_cost_matrix(costs, labels) -> np.ndarray:
    """``costs`` as a finite, non-negative ``(n, n)`` float matrix for the ``n`` labels."""
    n = len(labels)
    try:
        c = np.asarray(costs, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(
            f"costs must be a {n} x {n} matrix of numbers (rows = predicted, columns = true, "
            f"classes in the order {list(labels)}); it holds something else"
        ) from None
    if c.shape != (n, n):
        raise ValueError(
            f"costs must be a {n} x {n} matrix, a row and a column per class (rows = "
            f"predicted, columns = true, in the order {list(labels)}); got shape {c.shape}"
        )
    if not np.isfinite(c).all():
        i, j = np.argwhere(~np.isfinite(c))[0].tolist()
        raise ValueError(f"costs[{i}, {j}] is not a finite number")
    if (c < 0).any():
        i, j = np.argwhere(c < 0)[0].tolist()
        raise ValueError(
            f"costs[{i}, {j}] = {c[i, j]:g} is negative; a cost matrix holds costs >= 0 "
            "(subtract a gain from every entry of its column instead)"
        )
    return c


def binary_risks(scores: np.ndarray, pos) -> tuple[np.ndarray, int]:
    """The positive class's predicted risk and its class code: 1-d scores, or the second
    column of a two-column matrix."""
    if scores.ndim == 2:
        if scores.shape[1] != 2:
            raise ValueError(
                "net_benefit needs a binary task (the risk of the positive class); there are "
                f"{scores.shape[1]} classes"
            )
        scores, pos = scores[:, 1], 1
    _check_probabilities(scores, "net_benefit")
    return scores, pos


def probability_matrix(scores: np.ndarray, pos) -> np.ndarray:
    """``(N, n)`` class probabilities: a matrix as given, 1-d binary scores as two columns."""
    _check_probabilities(scores, "costs")
    if scores.ndim == 2:
        return scores
    out = np.empty((scores.size, 2))
    out[:, pos], out[:, 1 - pos] = scores, 1 - scores
    return out


def _check_probabilities(p: np.ndarray, what: str) -> None:
    if p.size and (p.min() < 0 or p.max() > 1):
        raise ValueError(
            f"{what} needs predicted probabilities in [0, 1]; the scores reach "
            f"{p.min():g} to {p.max():g}"
        )


def counted_decisions(truth, labels, pos_label, scores, net_benefit):
    """For ``*_from_counts(scores=, net_benefit=, pos_label=)``, the arguments checked: None
    without ``net_benefit``, else ``(thresholds, positive, is_pos)``, the positive class (the
    second of ``labels`` by default) and whether each combination's true class is it."""
    if net_benefit is None:
        if scores is not None or pos_label is not None:
            raise ValueError("scores and pos_label are read only with net_benefit")
        return None
    if scores is None:
        raise ValueError(
            "net_benefit needs scores: the predicted risk of the positive class of each combination"
        )
    thresholds = parse_thresholds(net_benefit)
    if len(labels) != 2:
        raise ValueError(f"net_benefit needs two classes; there are {len(labels)} ({labels})")
    if pos_label is not None and pos_label not in labels:
        raise ValueError(f"pos_label={pos_label!r} is not one of the classes {labels}")
    positive = labels[1] if pos_label is None else pos_label
    return thresholds, positive, as_label_vector(truth, "truth") == positive


def _seeded(rng):
    """A generator of its own from the report's seed (the same for each section)."""
    return np.random.default_rng(rng) if rng is None or isinstance(rng, int) else rng


class DecisionCurveSection:
    """:func:`clfmetrics.inference.decision_curve` of a report's binary scores."""

    def __init__(self, truth, risks, pos, labels, thresholds, level, size, rng, seed):
        self.positive, self.seed = labels[pos], seed
        self.size = min(size, BAND_SIZE)
        #: The DecisionCurve.
        self.curve = decision_curve(truth == pos, risks, thresholds, pos_label=True,
                                    level=level, size=self.size, rng=_seeded(rng))  # fmt: skip

    @classmethod
    def from_counts(cls, risks, positives, negatives, positive, thresholds, level, size, rng,
                    seed):  # fmt: skip
        """The section from counts of positives and negatives per risk
        (:func:`~clfmetrics.inference.decision_curve_from_counts`: the same curve and, for
        the same ``rng``, the same band as the items)."""
        self = cls.__new__(cls)
        self.positive, self.seed = positive, seed
        self.size = min(size, BAND_SIZE)
        self.curve = decision_curve_from_counts(risks, positives, negatives, thresholds,
                                                level=level, size=self.size,
                                                rng=_seeded(rng))  # fmt: skip
        return self

    def to_dict(self) -> dict:
        c = self.curve
        return {
            "positive": str(self.positive),
            "prevalence": c.prevalence,
            "level": c.level,
            "size": self.size,
            "band": "simultaneous (sup-t) bootstrap band of the net benefit over the thresholds",
            **{
                k: getattr(c, k).tolist()
                for k in (
                    "threshold",
                    "net_benefit",
                    "low",
                    "high",
                    "pointwise_low",
                    "pointwise_high",
                    "treat_all",
                    "treat_none",
                    "standardized",
                    "interventions_avoided",
                )
            },
        }

    def sections(self) -> list[Section]:
        c = self.curve
        rows = [
            [_t(t), num(nb), num(lo), num(hi), num(a), num(0.0), num(ia, 2), num(st)]
            for t, nb, lo, hi, a, ia, st in zip(
                c.threshold,
                c.net_benefit,
                c.low,
                c.high,
                c.treat_all,
                c.interventions_avoided,
                c.standardized,
                strict=True,
            )
        ]
        above = c.low > np.maximum(c.treat_all, 0)
        notes = [
            f"Net benefit of treating the items whose risk of class {self.positive} is at least "
            "the threshold t: TP/N - FP/N * t/(1-t) (Vickers & Elkin 2006), the true positives "
            "per item net of the false positives at the exchange rate t/(1-t). Treat all: "
            f"prevalence {num(c.prevalence)} - (1 - prevalence) * t/(1-t); treat none: 0. "
            "Avoided: net interventions avoided per 100 items against treating all.",
            f"low/high: the {c.level:.0%} simultaneous bootstrap band (sup-t over the "
            f"thresholds, {count(self.size, 'resample')} of the items): it covers the whole "
            "curve at once, under the assumption that the test items are a random sample of "
            "those the model will see.",
            (
                "The band lies above both treat all and treat none at "
                f"{count(int(above.sum()), 'threshold')} of {c.threshold.size}"
                + _span(c.threshold[above])
                + "; elsewhere the model is not shown to help over the simpler policy."
            ),
        ]
        return [
            Section(
                f"Decision curve (class {self.positive}, {c.level:.0%} simultaneous band, "
                f"{count(self.size, 'resample')}, {seed_text(self.seed)})",
                [
                    "threshold",
                    "net benefit",
                    "low",
                    "high",
                    "treat all",
                    "treat none",
                    "avoided per 100",
                    "standardized",
                ],
                rows,
                notes,
            )
        ]

    def figures(self) -> list[str]:
        c = self.curve
        xlim, ylim = _limits(c.threshold, [c.low, c.high, c.net_benefit, np.zeros(1)], 3)
        desc = (
            f"Decision curve of class {self.positive}: net benefit against the threshold "
            f"probability, with its {c.level:.0%} simultaneous bootstrap band; treat all and "
            "treat none (0) beside it."
        )
        # Treat all falls steeply past the prevalence: drawn while it is on the plot.
        shown = c.treat_all >= ylim[0]
        series = [
            Series("model", c.threshold, c.net_benefit, c.low, c.high),
            Series("treat all", c.threshold[shown], c.treat_all[shown]),
            Series("treat none", c.threshold, c.treat_none),
        ]
        svg = chart(series, title="Decision curve", xlabel="threshold probability",
                    ylabel="net benefit", desc=desc, ident="decision", xlim=xlim, ylim=ylim,
                    legend="lower left")  # fmt: skip
        cut = "" if shown.all() else " Treat all is drawn while it is above the plot's foot."
        return [_figure(svg, desc + cut)]


class DifferenceSection:
    """:func:`clfmetrics.inference.net_benefit_difference` of two systems' binary scores."""

    def __init__(self, truth, risks, pos, labels, names, thresholds, level, size, rng, seed):
        self.positive, self.names, self.seed = labels[pos], names, seed
        self.size = min(size, BAND_SIZE)
        #: The NetBenefitDifference.
        self.difference = net_benefit_difference(
            truth == pos,
            risks[0],
            risks[1],
            thresholds,
            pos_label=True,
            level=level,
            size=self.size,
            rng=_seeded(rng),
        )

    @classmethod
    def from_counts(cls, risks, positives, negatives, positive, names, thresholds, level, size,
                    rng, seed):  # fmt: skip
        """The section from counts of positives and negatives per pair of risks ``(risks_a,
        risks_b)`` (:func:`~clfmetrics.inference.net_benefit_difference_from_counts`: the same
        difference and, for the same ``rng``, the same band as the items)."""
        self = cls.__new__(cls)
        self.positive, self.names, self.seed = positive, names, seed
        self.size = min(size, BAND_SIZE)
        self.difference = net_benefit_difference_from_counts(
            risks[0], risks[1], positives, negatives, thresholds, level=level, size=self.size,
            rng=_seeded(rng),
        )  # fmt: skip
        return self

    def to_dict(self) -> dict:
        d = self.difference
        return {
            "positive": str(self.positive),
            "systems": list(self.names),
            "level": d.level,
            "size": self.size,
            "band": "simultaneous (sup-t) paired bootstrap band of the difference",
            **{
                k: getattr(d, k).tolist()
                for k in (
                    "threshold",
                    "difference",
                    "low",
                    "high",
                    "pointwise_low",
                    "pointwise_high",
                    "net_benefit_a",
                    "net_benefit_b",
                )
            },
        }

    def _favours(self, lo, hi) -> str:
        return self.names[0] if lo > 0 else self.names[1] if hi < 0 else "undecided"

    def sections(self) -> list[Section]:
        d, (a, b) = self.difference, self.names
        verdicts = [self._favours(lo, hi) for lo, hi in zip(d.low, d.high, strict=True)]
        rows = [
            [_t(t), num(na), num(nb), num(df), num(lo), num(hi), v]
            for t, na, nb, df, lo, hi, v in zip(
                d.threshold,
                d.net_benefit_a,
                d.net_benefit_b,
                d.difference,
                d.low,
                d.high,
                verdicts,
                strict=True,
            )
        ]
        notes = [
            f"Net benefit of {a} minus that of {b} on the same items (class {self.positive}), "
            f"with the {d.level:.0%} simultaneous paired bootstrap band "
            f"({count(self.size, 'resample')}; each resampled item keeps both its scores): "
            "a threshold favours a system only where the band excludes 0 on its side, and then "
            "for every such threshold at once. Undecided is not a finding.",
        ]
        return [
            Section(
                f"Net benefit difference ({a} - {b}, {d.level:.0%} simultaneous paired band, "
                f"{count(self.size, 'resample')}, {seed_text(self.seed)})",
                ["threshold", a, b, "difference", "low", "high", "favours"],
                rows,
                notes,
            )
        ]

    def figures(self) -> list[str]:
        d, (a, b) = self.difference, self.names
        xlim, ylim = _limits(d.threshold, [d.low, d.high, np.zeros(1)], 1)
        desc = (
            f"Difference in net benefit {a} - {b} against the threshold probability, with its "
            f"{d.level:.0%} simultaneous paired bootstrap band; dashed: no difference."
        )
        svg = chart([Series(f"{a} - {b}", d.threshold, d.difference, d.low, d.high)],
                    title="Net benefit difference", xlabel="threshold probability",
                    ylabel="difference in net benefit", desc=desc, ident="nb-difference",
                    xlim=xlim, ylim=ylim, reference=((xlim[0], 0), (xlim[1], 0)),
                    legend="lower left")  # fmt: skip
        return [_figure(svg, desc)]


class CostSection:
    """The mean cost of the Bayes decisions under ``costs`` and of the given predictions."""

    def __init__(self, truth, matrix, proba, labels, costs, level, size, rng, seed, names=None):
        self.labels, self.costs, self.seed, self.size = labels, costs, seed, size
        self.names = names or [None]
        #: Per system: the Interval of the Bayes decisions' mean cost.
        self.bayes = [
            bayes_cost_interval(
                truth,
                p,
                costs,
                labels=list(range(len(labels))),
                level=level,
                size=size,
                rng=_seeded(rng),
            )
            for p in proba
        ]
        #: Per system: the mean cost of its predictions (the report's matrix).
        self.predictions = [float(expected_cost(m, costs)) for m in matrix]
        self.level = level

    def to_dict(self) -> dict:
        out = {
            "costs": self.costs.tolist(),
            "orientation": "costs[i][j]: the cost of predicting labels[i] when the truth is "
            "labels[j]",
            "level": self.level,
            "size": self.size,
        }
        keyed = [
            {"bayes_decisions": interval_dict(iv), "predictions": c}
            for iv, c in zip(self.bayes, self.predictions, strict=True)
        ]
        if self.names[0] is None:
            return {**out, **keyed[0]}
        return {**out, "systems": dict(zip(self.names, keyed, strict=True))}

    def sections(self) -> list[Section]:
        rows = []
        for name, iv, c in zip(self.names, self.bayes, self.predictions, strict=True):
            who = "" if name is None else f"{name}: "
            rows.append([f"{who}Bayes decisions", num(iv.estimate), num(iv.low), num(iv.high)])
            rows.append([f"{who}the predictions", num(c), "", ""])
        matrix = "; ".join(
            f"predicting {lab}: " + ", ".join(f"{v:g}" for v in row)
            for lab, row in zip(self.labels, self.costs, strict=True)
        )
        notes = [
            "Mean cost per item. The Bayes decision of an item is the class of least expected "
            "cost under its stated probabilities (argmin over i of sum_j costs[i, j] p_j); it "
            "is the best decision only where those probabilities are calibrated. The "
            "predictions are the system's own labels under the same costs.",
            f"low/high: the {self.level:.0%} percentile bootstrap of the items "
            f"({count(self.size, 'resample')}), assuming the test items are a random sample "
            "of those the decisions will be made for.",
            f"Costs (rows = predicted, columns = true, in the order "
            f"{', '.join(map(str, self.labels))}): {matrix}.",
        ]
        return [
            Section(
                f"Bayes decisions ({self.level:.0%} percentile bootstrap, "
                f"{count(self.size, 'resample')}, {seed_text(self.seed)})",
                ["decisions", "mean cost", "low", "high"],
                rows,
                notes,
            )
        ]

    def figures(self) -> list[str]:
        return []


def _span(t: np.ndarray) -> str:
    if t.size == 0:
        return ""
    return f" ({_t(t[0])})" if t.size == 1 else f" (from {_t(t.min())} to {_t(t.max())})"


def _t(t: float) -> str:
    """A threshold as given (0.05, 0.125), not padded to a fixed number of decimals."""
    return f"{t:.6g}"


def _limits(thresholds, ys, keys: int) -> tuple:
    """The axes' limits: the thresholds, and the values with room below for ``keys`` legend
    lines (the legend sits in the plot's lower left corner)."""
    lo, hi = float(thresholds.min()), float(thresholds.max())
    xlim = (lo, hi) if hi > lo else (max(lo - 0.05, 0.0), min(hi + 0.05, 1.0))
    y = np.concatenate([np.asarray(v, float).ravel() for v in ys])
    bottom, top = float(y.min()), float(y.max())
    span = top - bottom if top > bottom else 0.1
    return xlim, (bottom - span * (0.05 + 0.07 * keys), top + 0.05 * span)


def _figure(svg: str, caption: str) -> str:
    return f"<figure>{svg}<figcaption>{html.escape(caption)}</figcaption></figure>"
