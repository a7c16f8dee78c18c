"""A paired comparison of two classifiers on the same items, for every metric.

:func:`compare` gives, for each metric of ``clfmetrics.METRICS``, both
scores, the paired bootstrap interval of the difference and the permutation
p-value, plus McNemar's exact test for accuracy, the report's class warnings
for both systems, and a note wherever a test and its interval disagree; given both
systems' scores, the difference of their ROC AUCs by DeLong's paired test and a paired
bootstrap (:mod:`clfmetrics.reporting._paired_scores`). It renders as text (``str``), as
HTML in Jupyter and as ``to_dict()`` / ``to_json()``.
"""

from __future__ import annotations

import numpy as np

from .._base.codes import counted_codes
from .._base.labels import near_duplicates
from .._base.numbers import count, num, pvalue, seed_of, seed_text
from ..inference import (
    DEFAULT_SEED,
    check_level,
    check_memory,
    check_size,
    holm,
    mcnemar_of_patterns,
    paired_intervals,
    patterns,
    permutation_pvalues,
    system_matrices,
)
from ..metrics import registry
from ._decisions import (
    CostSection,
    DifferenceSection,
    binary_risks,
    check_cost_matrix,
    counted_decisions,
    parse_thresholds,
    probability_matrix,
)
from ._html import Rendered
from ._paired_scores import PairedScores
from ._render import Section, interval_dict, interval_text, plain_labels
from ._scores import check_scores
from ._warnings import centred_warnings, class_warnings, undefined_share_warnings

#: Entries of METRICS for which higher is not better.
NOT_A_SCORE = frozenset({"delta_f1"})


class Comparison(Rendered):
    """What :func:`compare` returns; see there."""

    def __init__(self, rows, counts, n, labels, names, level, size, rng, scores=None):
        self.labels, self.names = list(labels), tuple(names)
        self.level, self.size = level, size
        #: The seed of the resamples and swaps, or None where the caller gave no seed.
        self.seed = seed_of(rng)
        check_memory(n)
        self.n_items = int(counts.sum())
        self._heading = f"Paired comparison: {names[0]} - {names[1]}"
        metrics = registry()
        rng = np.random.default_rng(rng)
        m_a, m_b = system_matrices(rows, counts, n)
        self.scores = {k: (float(f(m_a)), float(f(m_b))) for k, f in metrics.items()}
        #: Paired percentile interval of A - B for every metric.
        self.differences = paired_intervals(metrics, rows, counts, n, level, size, rng)
        #: Permutation (swap) test p-value for every metric.
        self.pvalues = permutation_pvalues(metrics, rows, counts, n, size, rng)
        family = [k for k in self.pvalues if k not in NOT_A_SCORE]
        #: Holm-adjusted permutation p-values over the metrics that are scores (the family).
        self.pvalues_holm = dict(
            zip(family, holm([self.pvalues[k] for k in family]).tolist(), strict=True)
        )
        self.mcnemar = mcnemar_of_patterns(rows, counts)
        #: The paired ROC AUC differences (PairedScores), or None without scores=.
        self.ranking = None
        if scores is not None:  # drawn after the metrics': their numbers stay as without
            truth, preds, checked, pos = scores
            self.ranking = PairedScores(truth, preds, checked, pos, self.labels, self.names,
                                        level, size, rng, self.seed)  # fmt: skip
        # The report's class warnings, for both systems; those of the truth once.
        both = class_warnings(m_a, self.labels, names[0]) + class_warnings(m_b, labels, names[1])
        close = near_duplicates(self.labels)
        #: Near-duplicate labels; classes that never occur, are never predicted, or are tiny.
        undefined = undefined_share_warnings(self.differences, "paired interval")
        undefined += centred_warnings(self.differences, "paired interval")
        self.warnings = ([close] if close else []) + list(dict.fromkeys(both)) + undefined
        self.warnings += [] if self.ranking is None else self.ranking.warnings
        #: The paired net benefit difference of ``net_benefit=`` (DifferenceSection), or None.
        self.net_benefit = None
        #: Each system's Bayes decisions' cost under ``costs=`` (CostSection), or None.
        self.bayes = None
        self._matrices = (m_a, m_b)

    def _decisions(self) -> list:
        return [d for d in (self.net_benefit, self.bayes) if d is not None]

    def _figures(self) -> list[str]:
        return [f for d in self._decisions() for f in d.figures()]

    def __repr__(self) -> str:
        d = self.differences["accuracy"]
        return (
            f"<Comparison: {self.names[0]} - {self.names[1]} on {count(self.n_items, 'item')}, "
            f"accuracy difference {interval_text(d)}; "
            "print() it for every metric>"
        )

    def verdicts(self) -> dict[str, str]:
        """Per metric: the system favoured where the interval and the Holm test both decide.

        A metric favours a system only where its interval of A - B excludes 0 *and*
        its Holm-adjusted permutation p-value is below ``1 - level``; otherwise it is
        'undecided' (where exactly one of the two decides, the notes say so, see
        :meth:`disagreements`). ``delta_f1`` is a gap between two formulas, not a
        score: its verdict is 'n/a'.
        """
        alpha, out = 1 - self.level, {}
        for k, iv in self.differences.items():
            if k in NOT_A_SCORE:
                out[k] = "n/a"
            elif self.pvalues_holm[k] < alpha and (iv.low > 0 or iv.high < 0):
                out[k] = self.names[0] if iv.low > 0 else self.names[1]
            else:
                out[k] = "undecided"
        return out

    def disagreements(self) -> list[dict]:
        """Metrics whose test and interval disagree at the same level.

        The interval excludes 0 while the test's p-value is at least ``1 - level``,
        or the other way round; the test is the Holm-adjusted permutation test (the
        one the verdicts use) and, for accuracy, McNemar's. The tests swap the two
        systems' predictions, the interval resamples the items (and Holm's
        adjustment guards the whole family), so they can fall on either side:
        such a difference is undecided, not a finding. Each entry: ``metric``,
        ``test``, ``p_value`` and ``interval_excludes_zero``.
        """
        alpha = 1 - self.level
        tests = [(k, "Holm-adjusted permutation", p) for k, p in self.pvalues_holm.items()]
        tests.append(("accuracy", "McNemar", self.mcnemar.pvalue))
        out = []
        for k, test, p in tests:
            iv = self.differences[k]
            decided = iv.low > 0 or iv.high < 0
            if k not in NOT_A_SCORE and decided != (p < alpha):
                out.append(
                    {"metric": k, "test": test, "p_value": p, "interval_excludes_zero": decided}
                )
        return out

    def _disagreement_note(self) -> list[str]:
        found = self.disagreements()
        if not found:
            return []
        listed = "; ".join(
            f"{d['metric']} (interval {'excludes' if d['interval_excludes_zero'] else 'includes'}"
            f" 0, {d['test']} p {pvalue(d['p_value'], prose=True)})"
            for d in found
        )
        return [
            f"Test and interval disagree at the {self.level:.0%} level for: {listed}. The tests "
            "swap the two systems' predictions, the intervals resample the items, and Holm's "
            "adjustment guards all the metrics at once, so they can fall on either side: these "
            "differences are undecided (borderline), not findings. A metric favours a system "
            "only where the interval and the Holm-adjusted test both decide."
        ]

    def _notes(self) -> list[str]:
        verdicts = set(self.verdicts().values()) - {"undecided", "n/a"}
        notes = [
            "Both systems are resampled on the same items (paired). Column p is each metric's "
            "permutation p-value, uncorrected: choose the metric before comparing. Column "
            f"'p Holm' adjusts them (Holm 1979) over the family of the {len(self.pvalues_holm)} "
            "metrics that are scores (every row but delta_f1; McNemar's test is not in it), so "
            "rejecting where it is below 1 - level keeps the chance of any false finding among "
            "them at most 1 - level.",
            f"McNemar's exact test on accuracy: {self.names[0]} alone right on "
            f"{count(self.mcnemar.a_only, 'item')}, {self.names[1]} alone on "
            f"{count(self.mcnemar.b_only, 'item')}, "
            f"p {pvalue(self.mcnemar.pvalue, prose=True)}.",
        ]
        if len(verdicts) == 2:
            notes.append("The metrics disagree on which system is better: name several winners.")
        return notes + self._disagreement_note()

    def to_dict(self) -> dict:
        return {
            "n_items": self.n_items,
            "labels": plain_labels(self.labels),
            "systems": list(self.names),
            "level": self.level,
            "size": self.size,
            "seed": self.seed,
            "metrics": {
                k: {
                    self.names[0]: self.scores[k][0],
                    self.names[1]: self.scores[k][1],
                    "difference": interval_dict(self.differences[k]),
                    "p_value": self.pvalues[k],
                    "p_value_holm": self.pvalues_holm.get(k),
                    "favours": self.verdicts()[k],
                }
                for k in self.scores
            },
            "mcnemar": {
                "statistic": self.mcnemar.statistic,
                "p_value": self.mcnemar.pvalue,
                "a_only": self.mcnemar.a_only,
                "b_only": self.mcnemar.b_only,
            },
            "holm_family": "the permutation p-values of every metric in 'metrics' except "
            "delta_f1 (not a score); McNemar's test is not in the family",
            "scores": None if self.ranking is None else self.ranking.to_dict(),
            "net_benefit_difference": None
            if self.net_benefit is None
            else self.net_benefit.to_dict(),
            "bayes_decisions": None if self.bayes is None else self.bayes.to_dict(),
            "warnings": list(self.warnings),
            "test_interval_disagreements": self.disagreements(),
        }

    def _sections(self) -> list[Section]:
        a, b = self.names
        verdicts = self.verdicts()
        rows = [
            [
                k,
                num(sa),
                num(sb),
                num(iv.estimate),
                num(iv.low),
                num(iv.high),
                pvalue(self.pvalues[k]),
                pvalue(self.pvalues_holm[k]) if k in self.pvalues_holm else "",
                verdicts[k],
            ]
            for (k, (sa, sb)), iv in zip(
                self.scores.items(), self.differences.values(), strict=True
            )
        ]
        return [
            # "Metrics (...)": the CSV's section is "Metrics" whatever n, level and seed
            # (section_key); the whole title is its own row there.
            Section(
                f"Metrics ({count(self.n_items, 'item')}, {self.level:.0%} paired percentile "
                f"intervals of {a} - {b}, {count(self.size, 'resample')} and as many "
                f"permutations, {seed_text(self.seed)})",
                ["metric", a, b, "difference", "low", "high", "p", "p Holm", "favours"],
                rows,
            ),
            *([] if self.ranking is None else self.ranking.sections()),
            *(s for d in self._decisions() for s in d.sections()),
            Section("Notes", notes=self._notes()),
            Section("Warnings", notes=self.warnings or ["none"]),
        ]


#: The default ``names``: this very tuple means "not given" (then a pandas Series' own
#: ``name`` is used, see :func:`_system_names`); a caller's ("A", "B") is another object.
_DEFAULT_NAMES = ("A", "B")


def compare(
    y_true,
    pred_a,
    pred_b,
    *,
    scores=None,
    pos_label=None,
    labels=None,
    names=_DEFAULT_NAMES,
    level=0.95,
    size=10_000,
    rng=DEFAULT_SEED,
    net_benefit=None,
    costs=None,
) -> Comparison:
    """Is system A better than system B on these items? Every metric, paired.

    For each metric of ``METRICS``: both scores, the paired bootstrap interval
    of A - B (:func:`clfmetrics.inference.paired_interval`), and the p-value of the paired
    permutation test (:func:`clfmetrics.inference.permutation_test`); for accuracy also
    McNemar's exact test. All metrics share one joint resample and one set of
    random swaps. The permutation p-values of the metrics that are scores
    (all but ``delta_f1``) are also Holm-adjusted as one family
    (:func:`clfmetrics.inference.holm`): reject where the adjusted value is below
    ``1 - level`` to keep the family-wise error rate at ``1 - level``.

    Parameters
    ----------
    y_true, pred_a, pred_b : sequence of hashable labels, equal length
    scores : pair of array_like, optional
        ``(scores_a, scores_b)``, the scores behind each system's predictions, both of
        shape ``(N,)`` (binary: the positive class's score) or both ``(N, n)`` (a column
        per class, in the order of ``labels``), as ``scores=`` of :func:`report`. Adds
        each system's ROC AUC (binary; or each column against the rest and their macro
        mean) and the difference A - B with DeLong's paired test and interval (as
        :func:`clfmetrics.inference.compare_auc`) and a paired percentile bootstrap that
        resamples the items within each true class (``min(size, 2000)`` resamples, fewer
        on large sets, at least 200), with pROC's bootstrap test; a row favours a system
        only where both intervals exclude 0 on its side. These p-values are outside the
        Holm family of the metrics.
    net_benefit : str or sequence of float, optional
        Threshold probabilities, as in :func:`report`, for binary probabilities: adds
        :func:`clfmetrics.inference.net_benefit_difference` of the two systems (A - B)
        with its simultaneous paired band (``rng=`` the seed, ``min(size, 2000)``
        resamples; ``net_benefit``).
    costs : array_like of shape (n, n), optional
        As in :func:`report`: each system's Bayes decisions' mean cost with its interval
        beside that of its predictions (``bayes``).
    pos_label : label, optional
        For 1-d scores: the class they score (default: the second class of ``labels``).
    labels : sequence, optional
    names : pair of str, default ("A", "B")
        How the two systems are called in the output. Not given, the ``name`` of
        ``pred_a`` and ``pred_b`` where both have one and they differ (pandas Series:
        ``compare(df.gold, df.lr, df.rf)`` calls them lr and rf), else A and B.
    level : float, default 0.95
    size : int, default 10_000
        Resamples, and separately permutations.
    rng : numpy.random.Generator, int or None, default 0
        The seed of resamples and swaps: fixed by default (``DEFAULT_SEED``, 0), so
        the same call gives the same numbers every time, and printed; ``None``
        draws fresh entropy.

    Returns
    -------
    Comparison
        ``verdicts()`` favour a system only where the interval and the Holm-adjusted
        test agree. ``scores``, ``differences``, ``pvalues``, ``pvalues_holm``, ``mcnemar``,
        ``warnings`` (the report's class warnings, for both systems), ``ranking`` (the
        ROC AUC differences, None without ``scores``), ``verdicts()``,
        ``disagreements()`` (where a test and its interval disagree); ``str()``,
        HTML in Jupyter, ``to_dict()`` and ``to_json()``.

    Examples
    --------
    >>> y = [0, 1, 2] * 40
    >>> c = compare(y, y, [0, 1, 1] * 40, size=500, rng=0)
    >>> c.verdicts()["accuracy"], c.mcnemar.a_only
    ('A', 40)
    """
    # Each item is a combination with count 1: the same code path as counts from an engine.
    arguments = ("y_true", "pred_a", "pred_b")
    if scores is None and pos_label is not None:
        raise ValueError("pos_label names the class that scores score; no scores= given")
    if scores is None and (net_benefit is not None or costs is not None):
        what = "net_benefit" if net_benefit is not None else "costs"
        raise ValueError(f"{what} needs scores= (both systems' predicted probabilities)")
    return _counted(y_true, pred_a, pred_b, None, labels, names, level, size, rng, arguments,
                    scores, pos_label, net_benefit, costs)  # fmt: skip


def compare_from_counts(
    truth,
    pred_a,
    pred_b,
    counts,
    *,
    labels=None,
    names=_DEFAULT_NAMES,
    level=0.95,
    size=10_000,
    rng=DEFAULT_SEED,
    scores=None,
    net_benefit=None,
    pos_label=None,
) -> Comparison:
    """:func:`compare` from how many items share each (true class, A's, B's prediction).

    ``counts[c]`` items have true class ``truth[c]``, prediction ``pred_a[c]`` from
    system A and ``pred_b[c]`` from B, as ``SELECT truth, a, b, count(*) ... GROUP
    BY truth, a, b`` returns them (:mod:`clfmetrics.io` runs it in DuckDB,
    Spark or Dask). These joint cells determine both systems' matrices; the paired
    bootstrap is one multinomial draw over them and the permutation test one
    binomial draw per cell, so the result, for the same ``rng``, equals ``compare``
    on the expanded items, at a cost independent of their number.

    Parameters
    ----------
    truth, pred_a, pred_b : sequence of hashable labels, equal length
        The combinations; one may occur more than once (their counts add up).
    counts : array_like of whole numbers >= 0, same length
        Items with that combination (0 drops it), not all 0.
    labels, names, level, size, rng
        As in :func:`compare`.
    scores : pair of array_like of float, each of the same length, optional
        With ``net_benefit``: ``(risks_a, risks_b)``, each system's predicted risk of the
        positive class for each combination (the combinations are then (true class, A's
        and B's prediction, A's and B's risk)). The net benefit depends on a risk only
        through the thresholds it reaches, so a risk may stand for all the items between
        two consecutive thresholds: ``(T + 1)**2`` pairs of bins per class and pair of
        predictions at most.
    net_benefit, pos_label
        As in :func:`compare` (two classes): the paired difference in net benefit from the
        counts (:func:`clfmetrics.inference.net_benefit_difference_from_counts`), the same
        difference and, for the same ``rng``, the same band as :func:`compare` gives on the
        items. The ROC AUC comparison of ``scores=`` in :func:`compare` needs every item's
        score and is not given (``ranking`` is None).

    Returns
    -------
    Comparison

    Examples
    --------
    >>> c = compare_from_counts([0, 1, 2, 2], [0, 1, 2, 2], [0, 1, 1, 2], [40, 40, 40, 0],
    ...                         size=500, rng=0)
    >>> c.verdicts()["accuracy"], c.mcnemar.a_only, c.n_items
    ('A', 40, 120)
    >>> c = compare_from_counts([0, 0, 1, 1], [0, 1, 1, 1], [0, 0, 0, 1], [50, 10, 30, 10],
    ...                         scores=([0.1, 0.6, 0.8, 0.8], [0.2, 0.2, 0.3, 0.7]),
    ...                         net_benefit=[0.5], size=200, rng=0)
    >>> c.net_benefit.difference.difference.round(4).tolist()
    [0.2]
    """
    arguments = ("truth", "pred_a", "pred_b")
    out = _counted(truth, pred_a, pred_b, counts, labels, names, level, size, rng, arguments)
    decisions = counted_decisions(truth, out.labels, pos_label, scores, net_benefit)
    if decisions is None:
        return out
    if not isinstance(scores, (tuple, list)) or len(scores) != 2:
        raise ValueError(
            "scores must be a pair (risks_a, risks_b), one array per system; got "
            f"{type(scores).__name__}"
        )
    thresholds, positive, is_pos = decisions
    weights = np.asarray(counts)
    out.net_benefit = DifferenceSection.from_counts(
        scores, np.where(is_pos, weights, 0), np.where(is_pos, 0, weights), positive,
        out.names, thresholds, out.level, out.size, rng, out.seed,
    )  # fmt: skip
    return out


def _system_names(pred_a, pred_b, names) -> tuple:
    """``names``, or where it was not given the two predictions' own distinct names."""
    if names is not _DEFAULT_NAMES:
        return names
    own = [getattr(p, "name", None) for p in (pred_a, pred_b)]
    if all(isinstance(x, str) and x.strip() for x in own) and own[0] != own[1]:
        return tuple(own)
    return names


def _counted(truth, pred_a, pred_b, counts, labels, names, level, size, rng, arguments,
             scores=None, pos_label=None, net_benefit=None, costs=None):  # fmt: skip
    level, size = check_level(level), check_size(size)
    names = _system_names(pred_a, pred_b, names)
    if len(names) != 2 or len(set(map(str, names))) != 2:
        raise ValueError(f"names must be two different names; got {names!r}")
    codes, weights, n, labels = counted_codes(truth, [pred_a, pred_b], counts, labels, arguments)
    checked = None if scores is None else _paired_scores(scores, codes, labels, pos_label)
    thresholds = None if net_benefit is None else parse_thresholds(net_benefit)
    costs = None if costs is None else check_cost_matrix(costs, labels)
    # Checked before the resamples, so that a refusal costs nothing.
    risks = proba = None
    if thresholds is not None:
        (r_a, pos), (r_b, _) = (binary_risks(s, checked[3]) for s in checked[2])
        risks = ((r_a, r_b), pos)
    if costs is not None:
        proba = [probability_matrix(s, checked[3]) for s in checked[2]]
    rows, counts = patterns(codes, n, weights)
    names = tuple(map(str, names))
    out = Comparison(rows, counts, n, labels, names, level, size, rng, checked)
    if risks is not None:
        out.net_benefit = DifferenceSection(codes[0], risks[0], risks[1], labels, names,
                                            thresholds, level, size, rng, out.seed)  # fmt: skip
    if proba is not None:
        out.bayes = CostSection(codes[0], out._matrices, proba, labels, costs, level, size, rng,
                                out.seed, names)  # fmt: skip
    return out


def _paired_scores(scores, codes, labels, pos_label):
    """``(truth, preds, (scores_a, scores_b), pos)``: the two systems' scores checked."""
    if not isinstance(scores, (tuple, list)) or len(scores) != 2:
        raise ValueError(
            "scores must be a pair (scores_a, scores_b), one array per system; got "
            f"{type(scores).__name__}"
            + (f" of length {len(scores)}" if hasattr(scores, "__len__") else "")
        )
    checked = [check_scores(s, len(codes[0]), labels, pos_label) for s in scores]
    if checked[0][0].shape != checked[1][0].shape:
        raise ValueError(
            f"scores_a and scores_b differ in shape: {checked[0][0].shape} vs "
            f"{checked[1][0].shape}; give both systems the same kind of scores"
        )
    return codes[0], codes[1:], (checked[0][0], checked[1][0]), checked[0][1]
