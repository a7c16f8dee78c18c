"""A report on one classifier's predictions that explains itself.

:func:`report` gives the confusion matrix (rows = predicted, columns = true),
every metric of ``clfmetrics.METRICS`` with a bootstrap interval, the
class-wise precision, recall and F1 next to each class's bias and prevalence,
both macro F1s and their gap, chance baselines, prevalence-calibrated scores,
exact (Clopper-Pearson) intervals where the bootstrap fails (a zero-width
interval, a class under 10 items), for two classes sensitivity, specificity, PPV
and NPV with exact intervals under the matrix, warnings, and a suggested reporting
paragraph. Given ``scores=``, it adds ROC AUC and average precision with
their intervals and, for probabilities, the Brier score with its skill score
against the constant class mix, log loss, expected calibration error and a
reliability table. It renders as text (``str``), HTML in
Jupyter, ``to_dict()``, ``to_json()``, ``to_markdown()``, ``to_csv()``, ``to_frame()``
(pandas) and ``to_html()`` (one self-contained page, the scores' curves inline).

Convention: ``matrix[i, j]`` = items predicted ``labels[i]`` whose true class
is ``labels[j]``.
"""

from __future__ import annotations

import numpy as np

from .._base.codes import counted_codes, joint_codes
from .._base.labels import near_duplicates
from .._base.numbers import count, fixed, num, seed_of, seed_text
from ..inference import (
    DEFAULT_SEED,
    centred_on_estimate,
    check_level,
    check_memory,
    check_size,
    intervals_of_matrix,
)
from ..metrics import (
    bias,
    delta_f1,
    f1,
    f1_of_averages,
    macro_f1,
    precision,
    prevalence,
    prevalence_calibrate,
    recall,
    registry,
)
from ._binary import binary_rates, binary_section, binary_sentence
from ._decisions import (
    CostSection,
    DecisionCurveSection,
    binary_risks,
    check_cost_matrix,
    counted_decisions,
    parse_thresholds,
    probability_matrix,
)
from ._html import Rendered, score_figures
from ._plan import check_plan, follow_plan, needs_scores
from ._render import (
    Section,
    interval_dict,
    interval_text,
    matrix_section,
    plain_labels,
    reporting_paragraph,
)
from ._scores import ScoreSummary, argmax_warning, check_scores
from ._warnings import (
    centred_warnings,
    class_warnings,
    exact_intervals,
    exact_section,
    exact_warnings,
    imbalance_warning,
    needs_exact,
    undefined_metrics,
    undefined_share_warnings,
)

#: A gap between the two macro F1s at least this large is explained in the report.
DELTA_MATERIAL = 0.01
#: Bias differing from prevalence by more than this share counts as over- or under-predicting.
BIAS_TOLERANCE = 0.1
_CALIBRATED = ("accuracy", "macro_precision", "macro_f1", "kappa", "mcc")
_BASELINES = ("accuracy", "macro_recall", "macro_f1", "kappa", "mcc")


class Report(Rendered):
    """What :func:`report` returns; see there. Attributes hold the numbers, ``str()`` explains."""

    _heading = "Evaluation report"

    def __init__(self, matrix, labels, level, size, rng, scores=None, seed=None):
        self.matrix = matrix.astype(np.int64)
        self.labels = list(labels)
        self.level, self.size = level, size
        #: The seed of the resamples, or None where a Generator or fresh entropy was given.
        self.seed = seed
        self.n_items = int(matrix.sum())
        check_memory(len(self.labels))
        metrics = registry()
        #: Every metric of METRICS with its percentile interval, by name (resampled in chunks;
        #: an interval that excludes its estimate is centred on it, with a warning).
        self.intervals = {
            name: centred_on_estimate(iv, -1.0 if name in ("kappa", "mcc") else 0.0)
            for name, iv in intervals_of_matrix(metrics, matrix, size, rng, level).items()
        }
        with np.errstate(invalid="ignore", divide="ignore"):
            self.per_class = {
                "support": matrix.sum(axis=0),
                "predicted": matrix.sum(axis=1),
                "prevalence": prevalence(matrix) / self.n_items,
                "bias": bias(matrix) / self.n_items,
                "precision": precision(matrix, zero_division="nan"),
                "recall": recall(matrix, zero_division="nan"),
                "f1": f1(matrix, zero_division="nan"),
            }
        with np.errstate(invalid="ignore", divide="ignore"):
            ratio = self.per_class["bias"] / self.per_class["prevalence"]
        self.over_predicted = [
            lab for lab, r in zip(labels, ratio, strict=True) if r > 1 + BIAS_TOLERANCE
        ]
        self.under_predicted = [
            lab for lab, r in zip(labels, ratio, strict=True) if r < 1 - BIAS_TOLERANCE
        ]
        self.macro_f1s = {
            "macro_f1": macro_f1(matrix),
            "f1_of_averages": f1_of_averages(matrix),
            "delta_f1": delta_f1(matrix),
        }
        self.baselines = self._baselines(matrix)
        present = self.per_class["support"] > 0
        cal = prevalence_calibrate(matrix) if present.all() else None
        self.calibrated = (
            {} if cal is None else {name: float(metrics[name](cal)) for name in _CALIBRATED}
        )
        #: What the report says about the scores, or None without scores=.
        self.scores = (
            None
            if scores is None
            else ScoreSummary(*scores[:3], self.labels, level, size, rng, *scores[3:])
        )
        #: Clopper-Pearson intervals of accuracy and of each class's recall.
        self.exact = exact_intervals(self.matrix, self.labels, level)
        #: Sensitivity, specificity, PPV and NPV with exact intervals for two classes, else None.
        self.binary = None if len(self.labels) != 2 else binary_rates(
            self.matrix, self.labels, self._positive(), level
        )  # fmt: skip
        self.warnings = self._warnings()
        #: The decision curve of ``net_benefit=`` (DecisionCurveSection), or None.
        self.decision_curve = None
        #: The Bayes decisions' cost under ``costs=`` (CostSection), or None.
        self.bayes = None
        #: The section of the metric plan ``plan=`` (PlanSection), or None.
        self.plan = None

    def _decisions(self) -> list:
        return [d for d in (self.decision_curve, self.bayes) if d is not None]

    def _positive(self) -> int:
        """The positive class of a binary report: the one the scores score, else the second."""
        if self.scores is not None and self.scores.binary:
            return self.labels.index(self.scores.positive)
        return 1

    def binary_sentence(self) -> str:
        """The paragraph's sentence on the four binary rates ("" for more classes)."""
        return "" if self.binary is None else binary_sentence(self.binary)

    @staticmethod
    def _baselines(matrix):
        """Scores of two classifiers that ignore the input, on this data's class mix."""
        n = matrix.shape[0]
        support = matrix.sum(axis=0).astype(np.float64)
        majority = np.zeros_like(support, shape=(n, n))
        majority[np.argmax(support)] = support
        uniform = np.repeat(support[None, :] / n, n, axis=0)  # expected counts of a random guess
        metrics = registry()
        return {
            "majority class": {k: float(metrics[k](majority)) for k in _BASELINES},
            "uniform random guess (expected counts)": {
                k: float(metrics[k](uniform)) for k in _BASELINES
            },
        }

    def _warnings(self) -> list[str]:
        pc, close = self.per_class, near_duplicates(self.labels)
        out = ([close] if close else []) + class_warnings(self.matrix, self.labels)
        out += exact_warnings(self.intervals, self.matrix, self.labels, self.exact)
        out += [] if self.scores is None else self.scores.warnings
        out += undefined_metrics(self.matrix, registry())
        out += undefined_share_warnings(self.intervals) + centred_warnings(self.intervals)
        return out + imbalance_warning(pc["prevalence"][pc["support"] > 0], self.intervals)

    def __repr__(self) -> str:
        acc = self.intervals["accuracy"]
        return (
            f"<Report: {count(self.n_items, 'item')}, {len(self.labels)} classes, "
            f"accuracy {interval_text(acc)}; print() it for the whole report>"
        )

    def delta_explanation(self) -> str:
        """Why the two macro F1s differ (or that they agree), in one paragraph."""
        d = self.macro_f1s["delta_f1"]
        if d < DELTA_MATERIAL:
            return (
                f"The two macro F1s differ by {fixed(d, 4)}, less than {DELTA_MATERIAL}: they "
                "agree here, but name the one you report."
            )
        over = ", ".join(map(str, self.over_predicted)) or "none"
        under = ", ".join(map(str, self.under_predicted)) or "none"
        return (
            f"F1 of averages exceeds the mean of class-wise F1 by {fixed(d)}. Over-predicted "
            f"classes (bias above prevalence, recall above precision): {over}. Under-predicted "
            f"(precision above recall): {under}. Averaging precision and recall over the "
            "classes first lets one kind offset the other, so the harmonic mean of the "
            "averages rewards the imbalance that the mean of class-wise F1 penalises "
            "(Opitz & Burst 2019: the gap grows with (P_x R_y - P_y R_x)^2 over class pairs)."
        )

    def _figures(self) -> list[str]:
        return score_figures(self.scores, self.seed) + [
            f for d in self._decisions() for f in d.figures()
        ]

    def reporting_block(self) -> str:
        """A paragraph for an evaluation section, following the book's checklist."""
        return reporting_paragraph(self)

    def to_dict(self) -> dict:
        pc = self.per_class
        return {
            "n_items": self.n_items,
            "labels": plain_labels(self.labels),
            "matrix": self.matrix.tolist(),
            "matrix_orientation": "rows = predicted, columns = true (matrix[i][j]: predicted "
            "labels[i], true labels[j])",
            "level": self.level,
            "size": self.size,
            "seed": self.seed,
            "metrics": {k: interval_dict(v) for k, v in self.intervals.items()},
            "per_class": {
                str(lab): {key: float(pc[key][k]) for key in pc}
                for k, lab in enumerate(self.labels)
            },
            "macro_f1s": {k: float(v) for k, v in self.macro_f1s.items()},
            "over_predicted": plain_labels(self.over_predicted),
            "under_predicted": plain_labels(self.under_predicted),
            "baselines": self.baselines,
            "prevalence_calibrated": self.calibrated,
            "exact_intervals": {
                "method": "Clopper-Pearson (exact binomial)",
                "accuracy": self.exact["accuracy"],
                "recall": {str(k): v for k, v in self.exact["recall"].items()},
            },
            "binary_rates": self.binary,
            "scores": None if self.scores is None else self.scores.to_dict(),
            "decision_curve": None
            if self.decision_curve is None
            else self.decision_curve.to_dict(),
            "bayes_decisions": None if self.bayes is None else self.bayes.to_dict(),
            "plan": None if self.plan is None else self.plan.to_dict(),
            "warnings": list(self.warnings),
            "reporting_block": self.reporting_block(),
        }

    def _sections(self) -> list[Section]:
        lv = f"{self.level:.0%}"
        metric_rows = [
            [k, num(v.estimate), num(v.low), num(v.high)] for k, v in self.intervals.items()
        ]
        pc = self.per_class
        class_rows = [
            [
                str(lab),
                str(int(pc["support"][k])),
                num(pc["prevalence"][k]),
                num(pc["bias"][k]),
                num(pc["precision"][k]),
                num(pc["recall"][k]),
                num(pc["f1"][k]),
            ]
            for k, lab in enumerate(self.labels)
        ]
        names = list(self.baselines)
        base_rows = [[k, *(num(self.baselines[b][k]) for b in names)] for k in _BASELINES]
        return [
            *([] if self.plan is None else self.plan.sections()),
            matrix_section(self.matrix, self.labels),
            *([] if self.binary is None else [binary_section(self.binary)]),
            Section(
                f"Metrics ({count(self.n_items, 'item')}, {lv} percentile bootstrap, "
                f"{count(self.size, 'resample')}, {seed_text(self.seed)})",
                ["metric", "estimate", "low", "high"],
                metric_rows,
            ),
            Section(
                "Per class (bias = share predicted, prevalence = share true)",
                ["class", "support", "prevalence", "bias", "precision", "recall", "F1"],
                class_rows,
            ),
            Section(
                "Two macro F1s",
                ["formula", "value"],
                [
                    ["mean of class-wise F1 (macro_f1)", num(self.macro_f1s["macro_f1"])],
                    ["F1 of macro P and macro R", num(self.macro_f1s["f1_of_averages"])],
                    ["difference (delta_f1)", num(self.macro_f1s["delta_f1"], 4)],
                ],
                [self.delta_explanation()],
            ),
            Section("Chance baselines on this class mix", ["metric", *names], base_rows),
            Section(
                "Prevalence-calibrated scores (every class made equally common)",
                ["metric", "calibrated"] if self.calibrated else [],
                [[k, num(v)] for k, v in self.calibrated.items()],
                [] if self.calibrated else ["undefined: a class never occurs in y_true"],
            ),
            *(
                exact_section(self.exact, self.level)
                if needs_exact(self.intervals, self.matrix)
                else []
            ),
            *([] if self.scores is None else self.scores.sections()),
            *(s for d in self._decisions() for s in d.sections()),
            Section("Warnings", notes=self.warnings or ["none"]),
            Section("Suggested reporting", notes=[self.reporting_block()]),
        ]


def report(
    y_true,
    y_pred,
    *,
    scores=None,
    labels=None,
    pos_label=None,
    level=0.95,
    size=10_000,
    rng=DEFAULT_SEED,
    auc_method="auto",
    net_benefit=None,
    costs=None,
    plan=None,
) -> Report:
    """Every metric with its interval, and what a reader needs to interpret them.

    Parameters
    ----------
    y_true, y_pred : sequence of hashable labels, equal length
        Reference labels and predictions.
    scores : array_like, shape (N,) or (N, n), optional
        The scores behind the predictions. 1-d: binary, the score of the
        positive class (any real score for the ranking; probabilities for the
        rest). ``(N, n)``: a probability matrix, column ``k`` for ``labels[k]``.
        Adds ROC AUC and average precision with their intervals (one class
        against the rest per column; stratified bootstraps of ``min(size, 2000)``
        resamples, BCa for AP, whose cost grows with the number of distinct
        scores), and for probabilities the Brier score, the log loss, the expected
        calibration error (10 equal-width bins; top-label confidence for a matrix)
        and a reliability table. Each ROC AUC interval is looked up in the library's
        simulated table of coverage (``AUC_COVERAGE``, by the smaller class's size, the
        ratio of the classes and the AUC): where its method covered less than
        ``COVERAGE_FLAG`` there, the report warns with the table's numbers, and with
        ``auc_method="auto"`` it gives the interval the table finds best
        (``auc_method_for``) instead, saying so.
    labels : sequence, optional
        The classes, in the order of the matrix (default: sorted union of the labels).
    pos_label : label, optional
        For 1-d scores: the class they score (default: the second class of ``labels``).
    auc_method : {"auto", "percentile", "bca", "delong"}, default "auto"
        The ROC AUC intervals' method (see :func:`clfmetrics.inference.auc_interval`).
        "auto": the percentile bootstrap below 50,000 items, DeLong's interval from
        there (``AUC_DELONG_FROM``), whose cost is one sort where the bootstrap's grows
        with the number of distinct scores; for a class the simulated table finds that
        method short for, the method it finds best there.
    net_benefit : str or sequence of float, optional
        Threshold probabilities in (0, 1) for the decision curve of binary scores
        (probabilities; a two-column matrix gives its positive column): ``"LOW:HIGH"``
        (every 0.01 from LOW to HIGH), ``"LOW:HIGH:STEP"``, ``"t1,t2,..."`` or a
        sequence of numbers. Adds :func:`clfmetrics.inference.decision_curve` with
        ``rng=`` the report's seed and ``min(size, 2000)`` resamples: the net benefit
        with its simultaneous band, treat all, treat none, interventions avoided
        (``decision_curve``; its figure in ``to_html()``).
    costs : array_like of shape (n, n), optional
        ``costs[i, j]``: the non-negative cost of predicting ``labels[i]`` when the truth
        is ``labels[j]``. Needs probabilities (a matrix, or binary scores). Adds the
        mean cost of the Bayes decisions with its interval
        (:func:`clfmetrics.inference.bayes_cost_interval`, ``rng=`` the seed) beside
        that of ``y_pred`` (``bayes``).
    plan : dict, optional
        A metric plan (:mod:`clfmetrics.reporting` ``_plan``: ``metrics``, optional
        ``thresholds``, ``costs``, ``deployment_prevalence``), as the book's chooser
        writes it: its thresholds and costs are used where ``net_benefit`` and
        ``costs`` are not given (costs only with scores), and the section "Metric
        plan" (``plan``), first, gives each planned metric in the plan's order. An
        unknown key or metric raises.
    level : float, default 0.95
        Nominal coverage of the bootstrap intervals.
    size : int, default 10_000
        Number of resampled test sets (one stack shared by all metrics).
    rng : numpy.random.Generator, int or None, default 0
        The seed of the resamples. The default is a fixed seed (``DEFAULT_SEED``, 0),
        so the same call gives the same intervals every time; the report prints the
        seed. ``None`` draws fresh entropy (then the output changes from run to run).

    Returns
    -------
    Report
        ``intervals`` (every metric of ``METRICS``), ``per_class``, ``macro_f1s``,
        ``over_predicted`` / ``under_predicted``, ``baselines``, ``calibrated``,
        ``exact`` (Clopper-Pearson intervals of accuracy and of each recall, shown
        when a bootstrap interval has zero width or a class has fewer than 10
        items), ``binary`` (two classes: sensitivity, specificity, PPV and NPV with
        exact Clopper-Pearson intervals, the positive class being the one ``scores``
        score, else the second; None for more classes), ``scores`` (with the Brier
        skill score ``1 - Brier / Brier of the constant class mix``), ``warnings``;
        ``str()``, HTML in Jupyter, ``to_dict()`` and ``to_json()``.

    Examples
    --------
    >>> r = report(list("aaabbbcc"), list("aabbbbcc"), size=500, rng=0)
    >>> r.intervals["accuracy"].estimate, r.over_predicted
    (0.875, ['b'])
    """
    checked_plan = None if plan is None else check_plan(plan)
    if checked_plan is not None and scores is None and needs_scores(checked_plan):
        raise ValueError(
            f"the plan's {needs_scores(checked_plan)[0]} needs scores= (the predicted "
            "probabilities); none given"
        )
    if checked_plan is not None and scores is not None:
        net_benefit = checked_plan.thresholds if net_benefit is None else net_benefit
        costs = checked_plan.costs if costs is None else costs
    if scores is None and (net_benefit is not None or costs is not None):
        what = "net_benefit" if net_benefit is not None else "costs"
        raise ValueError(f"{what} needs scores= (the predicted probabilities); none given")
    if scores is None and pos_label is None:
        # Each item is a combination with count 1: the same code path as counts from an engine.
        out = _counted(y_true, y_pred, None, labels, level, size, rng, ("y_true", "y_pred"))
        if checked_plan is not None:
            follow_plan(out, checked_plan)
        return out
    # A score belongs to an item, so with scores the items cannot be merged into counts.
    if scores is None:
        raise ValueError("pos_label names the class that scores score; no scores= given")
    codes, _, labels = joint_codes(y_true, [y_pred], labels)
    out = report_of_codes(codes[0], codes[1], labels, scores, pos_label, level, size, rng,
                          auc_method, net_benefit, costs)  # fmt: skip
    if checked_plan is not None:
        follow_plan(out, checked_plan)
    return out


def report_of_codes(truth, pred, labels, scores, pos_label, level, size, rng, auc_method,
                    net_benefit=None, costs=None):  # fmt: skip
    """:func:`report` with scores, from class codes (indices into ``labels``): the command
    line's reader gives codes, so no column of labels is made for its rows. The one check of
    ``level`` and ``size`` on this path (``report`` leaves them to it)."""
    level, size, n = check_level(level), check_size(size), len(labels)
    thresholds = None if net_benefit is None else parse_thresholds(net_benefit)
    costs = None if costs is None else check_cost_matrix(costs, labels)
    # The reader's codes may be int8: widened for the cells only (the rest compares them).
    cells = pred.astype(np.intp, copy=False) * n + truth
    matrix = np.bincount(cells, minlength=n * n)
    del cells
    matrix = matrix.reshape(n, n)
    checked = (truth, *check_scores(scores, len(truth), labels, pos_label), auc_method)
    # Checked before the report's resamples, so that a refusal costs nothing.
    risks = None if thresholds is None else binary_risks(checked[1], checked[2])
    proba = None if costs is None else probability_matrix(checked[1], checked[2])
    out = Report(
        matrix.astype(np.float64), labels, level, size, np.random.default_rng(rng), checked,
        seed_of(rng),
    )  # fmt: skip
    disagree = argmax_warning(pred, checked[1], checked[2], labels)
    out.warnings[:0] = disagree
    if risks is not None:
        out.decision_curve = DecisionCurveSection(truth, *risks, labels, thresholds, level, size,
                                                  rng, out.seed)  # fmt: skip
    if proba is not None:
        out.bayes = CostSection(truth, [out.matrix], [proba], labels, costs, level, size, rng,
                                out.seed)  # fmt: skip
    return out


def report_from_counts(
    truth,
    pred,
    counts,
    *,
    labels=None,
    level=0.95,
    size=10_000,
    rng=DEFAULT_SEED,
    scores=None,
    net_benefit=None,
    pos_label=None,
):
    """:func:`report` from how many items share each (true class, prediction).

    ``truth[c]``, ``pred[c]`` and ``counts[c]`` describe ``counts[c]`` items, as one
    ``SELECT truth, pred, count(*) ... GROUP BY truth, pred`` returns them
    (:mod:`clfmetrics.io` runs it in DuckDB, Spark or Dask). The matrix
    ``m[i, j] = sum of counts[c] with pred[c] = labels[i], truth[c] = labels[j]``
    determines every metric, and the bootstrap draws the matrix's cells
    (a multinomial), never items, so the result, for the same ``rng``, equals
    ``report`` on the expanded items, at a cost independent of their number.

    Parameters
    ----------
    truth, pred : sequence of hashable labels, equal length
        The combinations; one may occur more than once (their counts add up).
    counts : array_like of whole numbers >= 0, same length
        Items with that combination (0 drops it), not all 0.
    labels, level, size, rng
        As in :func:`report`.
    scores : array_like of float, same length, optional
        With ``net_benefit``: the predicted risk of the positive class of each
        combination (the combinations are then (true class, prediction, risk)). The
        decision curve depends on a risk only through the thresholds it reaches, so a
        risk may stand for all the items between two consecutive thresholds.
    net_benefit, pos_label
        As in :func:`report` (two classes): the decision curve from the counts
        (:func:`clfmetrics.inference.decision_curve_from_counts`), the same curve and,
        for the same ``rng``, the same band as :func:`report` gives on the items.

    Returns
    -------
    Report

    Examples
    --------
    >>> r = report_from_counts(["a", "a", "b", "c"], ["a", "b", "b", "c"], [2, 1, 3, 2],
    ...                        size=500, rng=0)
    >>> r.intervals["accuracy"].estimate, r.n_items
    (0.875, 8)
    >>> r = report_from_counts([0, 0, 1, 1], [0, 1, 0, 1], [50, 10, 5, 35], size=200,
    ...                        scores=[0.1, 0.6, 0.3, 0.8], net_benefit=[0.2, 0.5])
    >>> r.decision_curve.curve.net_benefit.round(4).tolist()
    [0.375, 0.25]
    """
    out = _counted(truth, pred, counts, labels, level, size, rng, ("truth", "pred"))
    decisions = counted_decisions(truth, out.labels, pos_label, scores, net_benefit)
    if decisions is None:
        return out
    thresholds, positive, is_pos = decisions
    weights = np.asarray(counts)
    out.decision_curve = DecisionCurveSection.from_counts(
        scores, np.where(is_pos, weights, 0), np.where(is_pos, 0, weights), positive,
        thresholds, out.level, out.size, rng, out.seed,
    )  # fmt: skip
    return out


def _counted(truth, pred, counts, labels, level, size, rng, names) -> Report:
    level, size = check_level(level), check_size(size)
    codes, weights, n, labels = counted_codes(truth, [pred], counts, labels, names)
    matrix = np.bincount(codes[1] * n + codes[0], weights=weights, minlength=n * n)
    matrix = matrix.reshape(n, n).astype(np.float64)
    return Report(matrix, labels, level, size, np.random.default_rng(rng), seed=seed_of(rng))
