"""The report's part on scores: ranking quality and the probabilities themselves.

Given scores next to the predictions, :func:`clfmetrics.report` adds, from this
module: ROC AUC and average precision with their bootstrap intervals (for
binary scores, and one class against the rest for each column of a
probability matrix), the Brier score and the log loss with the same scores of
a constant forecast of the class mix, the expected calibration error and a
reliability table. Binary scores outside [0, 1] are not probabilities: only
the ranking part is given for them.

Convention: column ``k`` of an ``(N, n)`` matrix belongs to ``labels[k]``; a
1-d score is the score of the positive class.
"""

from __future__ import annotations

import numpy as np

from .._base.checks import reject_masked
from .._base.numbers import count, fixed, num
from ..inference import (
    CENTRED,
    COVERAGE_FLAG,
    ROWS,
    area_interval,
    auc_method_for,
    centred_on_estimate,
    class_cells,
    expected_coverage,
    macro_auc_interval,
    small_class_warning,
)
from ..probabilities import (
    ROW_SUM_TOLERANCE,
    binned,
    brier_of,
    calibration_test_in_blocks,
    ece_of,
    log_loss_of,
    worst_row_sum,
)
from ._render import Section, interval_dict, interval_text, reported_text

#: Equal-width bins of the reliability table and the ECE.
BINS = 10
#: Outcome draws of the report's calibration test, and the most binomial draws it makes
#: (draws times distinct probabilities): beyond that it is left to ``calibration_test``.
CALIBRATION_DRAWS, CALIBRATION_BUDGET = 999, 2 * 10**7
#: At most this many resamples for each ranking interval: a resample costs one pass over
#: the (distinct score, class) cells, up to N of them, where a matrix metric's costs n**2.
RANKING_SIZE = 2_000
#: How the report's ROC AUC intervals are computed ("auto": see AUC_DELONG_FROM; where the
#: simulated table finds that method short for a class, the one it finds best there).
AUC_METHODS = ("auto", "percentile", "bca", "delong")
#: The method of the AP intervals (percentile for a class of one item: BCa needs two).
AP_METHOD = "bca"
#: From this many items, "auto" uses DeLong's interval: the bootstrap's cost grows with the
#: number of distinct scores (a minute at 10**6), DeLong's is one sort, and at this size
#: the normal approximation behind it is accurate unless the AUC is within a few 1/N of 0 or 1.
AUC_DELONG_FROM = 50_000


def check_scores(scores, n_items: int, labels: list, pos_label):
    """``scores`` as floats ``(N,)`` or ``(N, n)``, and the index of the positive class.

    The positive class of 1-d scores is ``pos_label``, by default the second
    class of ``labels`` (the greater of two sorted labels, as in scikit-learn).
    """
    reject_masked(scores, "scores")
    try:
        arr = np.asarray(scores)
    except ValueError as err:
        raise ValueError(f"scores is not a rectangular array of numbers: {err}") from None
    if arr.dtype.kind not in "biuf":
        raise ValueError(f"scores must hold numbers; got dtype {arr.dtype}")
    arr = arr.astype(np.float64, copy=False)  # float64 scores are used as given, not copied
    n = len(labels)
    if arr.ndim not in (1, 2) or len(arr) != n_items or (arr.ndim == 2 and arr.shape[1] != n):
        raise ValueError(
            f"scores must have shape ({n_items},) (binary: the positive class's score) or "
            f"({n_items}, {n}) (one column per class, in the order {labels}); got {arr.shape}"
        )
    if not all(np.isfinite(arr[i : i + ROWS]).all() for i in range(0, len(arr), ROWS)):
        bad = np.argwhere(~np.isfinite(arr))[0]
        raise ValueError(f"scores has a NaN or infinite value at index {tuple(bad.tolist())}")
    if arr.ndim == 2:
        if pos_label is not None:
            raise ValueError("pos_label applies to 1-d scores; matrix columns follow labels")
        return arr, None
    if n != 2:
        raise ValueError(
            f"1-d scores need two classes; there are {n} ({labels}): pass an (N, {n}) "
            "probability matrix instead"
        )
    if pos_label is None:
        return arr, 1
    if pos_label not in labels:
        raise ValueError(f"pos_label={pos_label!r} is not one of the classes {labels}")
    return arr, labels.index(pos_label)


class ScoreSummary:
    """Everything the report says about the scores, from the checked scores and true codes."""

    def __init__(self, truth, scores, pos, labels, level, size, rng, auc_method="auto"):
        self.labels, self.level = labels, level
        #: The true class codes and the checked scores (the HTML report's figures).
        self.truth, self.scores = truth, scores
        self.size = size = min(size, RANKING_SIZE)
        if auc_method not in AUC_METHODS:
            raise ValueError(f"auc_method must be one of {AUC_METHODS}; got {auc_method!r}")
        auto = auc_method == "auto"
        if auto:
            auc_method = "delong" if len(truth) >= AUC_DELONG_FROM else "percentile"
        #: The method of the ROC AUC intervals (a small class's may differ: see _ranking).
        self.auc_method = auc_method
        self.binary = scores.ndim == 1
        self.positive = labels[pos] if self.binary else None
        self.notes: list[str] = _not_probabilities(scores)
        self.probabilities = not self.notes
        columns = [(pos, scores)] if self.binary else list(enumerate(scores.T))
        #: Per class scored: ROC AUC and AP with their intervals (None where undefined).
        self.ranking = {
            labels[k]: _ranking(truth == k, s, level, size, rng, auc_method, auto)
            for k, s in columns
        }
        #: Macro-averaged one-vs-rest ROC AUC with its interval (matrices; None if undefined).
        self.macro_auc = (
            None
            if self.binary
            else macro_auc_interval(
                truth,
                scores,
                level,
                size,
                rng,
                auc_method,  # percentile, bca or delong, as the per-class intervals
            )
        )
        #: Ranking intervals of zero width, for the report's warnings.
        self.warnings = [
            f"the {name} interval of class {lab!s} has zero width ({fixed(iv.estimate)}): every "
            "resample ranks the items alike (a perfect or constant ranking), which is not "
            "certainty; more test items of that class are the only remedy"
            for lab, ivs in self.ranking.items()
            for name, iv in zip(("ROC AUC", "AP"), ivs, strict=True)
            if iv is not None and iv.high == iv.low
        ]
        self.warnings += [
            f"the ROC AUC of class {lab!s} lies below 0.5 with its whole interval "
            f"({interval_text(auc)}): the scores rank that class below the others; did you swap "
            "the positive class or the columns?"
            for lab, (auc, _) in self.ranking.items()
            if auc is not None and auc.high < 0.5
        ]
        # Rankings with a small class: the simulated coverage of their AUC interval.
        per_class = np.bincount(truth, minlength=len(labels))
        for k, _ in columns:
            auc, _ = self.ranking[labels[k]]
            sizes = int(per_class[k]), int(len(truth) - per_class[k])
            over = None if auc is None or auc.method == auc_method else auc_method
            flag = (
                None
                if auc is None
                else small_class_warning(labels[k], *sizes, auc.estimate, auc.method, level, over)
            )
            self.warnings += [flag] if flag else []
        self.warnings += [
            f"the AP resamples of class {lab!s} all fell on one side of its estimate (a "
            "resampling bias of AP where the ranking puts that class near the bottom); its "
            "interval is the bootstrap interval moved to centre on the estimate"
            for lab, (_, ap) in self.ranking.items()
            if ap is not None and ap.method.endswith(CENTRED)
        ]
        self.proper: dict[str, float] = {}
        self.reliability = None
        if not self.probabilities:
            return
        # The scores were checked where they entered (finite, in [0, 1], rows summing to 1),
        # so the arithmetic runs on them as they are: no check repeated over the items.
        if self.binary:
            pos_of, cols = truth == pos, None
            mix = pos_of.view(np.int8).mean()
        else:
            pos_of, cols = None, truth
            mix = np.bincount(truth, minlength=len(labels)) / len(truth)
        # The class mix for every item: a read-only view, no array of N rows.
        constant = np.broadcast_to(mix, (len(truth), *np.shape(mix)))
        counts, hits, stated = binned(scores, pos_of, cols, BINS, "uniform")
        self.proper = {
            "brier_score": brier_of(scores, pos_of, cols),
            "brier_score_of_class_mix": brier_of(constant, pos_of, cols),
            "log_loss": log_loss_of(scores, pos_of, cols),
            "log_loss_of_class_mix": log_loss_of(constant, pos_of, cols),
            "expected_calibration_error": ece_of(counts, hits, stated, False),
            "expected_calibration_error_debiased": ece_of(counts, hits, stated, True),
            "squared_calibration_error_debiased": ece_of(counts, hits, stated, True, 2),
            "calibration_test_pvalue": _calibration_pvalue(scores, pos_of, cols, rng),
        }
        self.proper["brier_skill_score"] = brier_skill(self.proper)
        self.reliability = (hits / counts, stated / counts, counts)

    def sentence(self) -> str:
        """One sentence for the report's suggested paragraph."""
        ranked = [(lab, iv) for lab, (iv, _) in self.ranking.items() if iv is not None]
        if self.binary:
            shown = f"{_auc_text(ranked[0][1])}" if ranked else "undefined"
            out = f" ROC AUC of the scores of class {self.positive!s}: {shown}."
        else:
            shown = "; ".join(f"{lab!s} {_auc_text(iv)}" for lab, iv in ranked) or "undefined"
            out = f" One-vs-rest ROC AUC per class: {shown}."
            if self.macro_auc is not None:
                out += f" Their macro average: {reported_text(self.macro_auc)}."
        if self.proper:
            p = self.proper
            out += (
                f" Brier score {fixed(p['brier_score'])} (constant class mix "
                f"{fixed(p['brier_score_of_class_mix'])}; {_skill_text(p)}), "
                f"log loss {fixed(p['log_loss'])}, "
                f"ECE {fixed(p['expected_calibration_error'])} ({BINS} equal-width bins; "
                f"debiased squared error {fixed(p['squared_calibration_error_debiased'])}"
                + (
                    ""
                    if p["calibration_test_pvalue"] is None
                    else f"; calibration test p = {fixed(p['calibration_test_pvalue'])}"
                )
                + ")."
            )
        return out

    def to_dict(self) -> dict:
        out = {
            "kind": "binary scores" if self.binary else "probability matrix",
            "ranking_resamples": self.size,
            "roc_auc_method": self.auc_method,
            "positive_class": None if self.positive is None else str(self.positive),
            "roc_auc": {str(k): _plain(v[0]) for k, v in self.ranking.items()},
            "average_precision": {str(k): _plain(v[1]) for k, v in self.ranking.items()},
            "roc_auc_macro_ovr": _plain(self.macro_auc),
            **self.proper,
            "ece_bins": f"{BINS} equal-width bins on [0, 1]"
            + ("" if self.binary else ", top-label confidence"),
            "notes": list(self.notes),
        }
        if self.reliability is not None:
            observed, predicted, counts = self.reliability
            out["reliability"] = [
                {"predicted": float(p), "observed": float(o), "items": int(c)}
                for o, p, c in zip(observed, predicted, counts, strict=True)
            ]
        return out

    def sections(self) -> list[Section]:
        lv = f"{self.level:.0%}"
        which = (
            f"scores of class {self.positive}" if self.binary else "each column against the rest"
        )
        rows = [[str(lab), *_cells(auc), *_cells(ap)] for lab, (auc, ap) in self.ranking.items()]
        others = {auc.method for auc, _ in self.ranking.values() if auc is not None}
        switched = (
            "" if others <= {self.auc_method} else " (another for a small class: see the warnings)"
        )
        if not self.binary:
            rows.append(["macro (one-vs-rest)", *_cells(self.macro_auc), "", "", ""])
        out = [
            Section(
                f"Ranking ({which}; {lv} intervals: ROC AUC {self.auc_method}{switched}, AP "
                f"BCa bootstrap, {count(self.size, 'resample')}, the classes resampled apart)",
                ["class", "ROC AUC", "low", "high", "AP", "low", "high"],
                rows,
                [
                    "AP's chance level is the class's prevalence, ROC AUC's is 0.5; "
                    "undefined where the class is absent or alone",
                    *(
                        []
                        if self.binary
                        else [
                            "The macro row is the mean of the classes' ROC AUCs (scikit-learn's "
                            "roc_auc_score with multi_class='ovr', average='macro'); its "
                            + (
                                "interval is DeLong's, from the items' first-order terms in "
                                "all the columns at once."
                                if self.auc_method == "delong"
                                else "interval resamples the items of every class at once."
                            )
                        ]
                    ),
                    *self.notes,
                    *_below_chance_notes(self.ranking),
                ],
            )
        ]
        if not self.proper:
            return out
        p = self.proper
        what = "" if self.binary else " (top-label confidence)"
        out.append(
            Section(
                "Probabilities: proper scoring rules and calibration",
                ["score", "value", "constant class mix"],
                [
                    ["Brier score", num(p["brier_score"]), num(p["brier_score_of_class_mix"])],
                    [SKILL_ROW, num(p["brier_skill_score"]), num(0.0)],
                    ["log loss", num(p["log_loss"]), num(p["log_loss_of_class_mix"])],
                    [
                        f"ECE, {BINS} equal-width bins{what}",
                        num(p["expected_calibration_error"]),
                        "",
                    ],
                    ["ECE, debiased", num(p["expected_calibration_error_debiased"]), ""],
                    [
                        "squared calibration error, debiased",
                        num(p["squared_calibration_error_debiased"]),
                        "",
                    ],
                    [
                        "calibration test (p-value)",
                        "not run: too many distinct probabilities; call calibration_test"
                        if p["calibration_test_pvalue"] is None
                        else num(p["calibration_test_pvalue"]),
                        "",
                    ],
                ],
                [
                    "Lower is better. Brier score and log loss are strictly proper scoring "
                    "rules: on average they are lowest at the honest probabilities and nowhere "
                    "else; the error rate of the most probable class is lowest there too, but "
                    "not only there. The constant class "
                    "mix is the score of always stating each class's share of the test set. "
                    "ECE depends on the bins and is biased upward with few items per bin; "
                    "its debiased form removes only part of that bias, the debiased squared "
                    "error (Kumar, Liang & Ma 2019) all of it. The calibration test "
                    f"({CALIBRATION_DRAWS} draws of calibrated outcomes) says whether the "
                    "gaps exceed noise. Calibration here means the probabilities, not "
                    "the book's prevalence calibration.",
                    SKILL_NOTE,
                ],
            )
        )
        observed, predicted, counts = self.reliability
        out.append(
            Section(
                f"Reliability ({BINS} equal-width bins{what}; non-empty bins only)",
                ["mean stated probability", "observed frequency", "items"],
                [
                    [num(pr), num(ob), str(int(c))]
                    for ob, pr, c in zip(observed, predicted, counts, strict=True)
                ],
                [
                    "Calibrated probabilities have observed frequency = stated probability, "
                    f"up to the noise of a bin's items (a bin of {count(int(counts.min()), 'item')}"
                    " moves in big steps)."
                ],
            )
        )
        return out


#: The Brier skill score's row and note in the probabilities table.
SKILL_ROW = "Brier skill score"
SKILL_NOTE = (
    "The Brier skill score is 1 - Brier / Brier_ref, the reference Brier_ref being the "
    "constant class mix's Brier score beside it: 0 is no better than always stating the "
    "test set's class shares, 1 is perfect, below 0 is worse than the class mix. Higher is "
    "better; it is undefined where the test set has one class (Brier_ref = 0)."
)


def brier_skill(proper: dict) -> float:
    """1 - Brier / Brier of the constant class mix (NaN where that reference is 0)."""
    ref = proper["brier_score_of_class_mix"]
    return 1 - proper["brier_score"] / ref if ref > 0 else float("nan")


def _skill_text(p: dict) -> str:
    skill = p["brier_skill_score"]
    shown = "undefined" if skill != skill else fixed(skill)
    return f"Brier skill score against it {shown}"


def _auc_text(iv) -> str:
    """A ROC AUC for the paragraph, with the caveat beside it where its whole interval lies
    below 0.5 (as the warning says: a ranking below chance is most often a swapped class)."""
    if iv.high >= 0.5:
        return reported_text(iv)
    return (
        f"{reported_text(iv)}, below 0.5 with its whole interval: the scores rank this class "
        "below the others, as a swapped positive class or swapped columns would; check them "
        "before reporting this number"
    )


def _below_chance_notes(ranking: dict) -> list[str]:
    """The ranking table's note on each ROC AUC whose whole interval lies below 0.5."""
    return [
        f"The ROC AUC of class {lab!s}, {_auc_text(auc)}."
        for lab, (auc, _) in ranking.items()
        if auc is not None and auc.high < 0.5
    ]


def _not_probabilities(scores: np.ndarray) -> list[str]:
    """Why the scores are not probabilities (then only the ranking is reported), or []."""
    why = ""
    if scores.min() < 0 or scores.max() > 1:
        why = "the scores lie outside [0, 1]"
    elif scores.ndim == 2:
        worst, k = worst_row_sum(scores)
        if worst > ROW_SUM_TOLERANCE:
            why = f"the rows of scores do not all sum to 1 (row {k}: {scores[k].sum():.6g})"
    if not why:
        return []
    return [
        f"{why}, so they are not probabilities: Brier score, log loss and reliability are left out"
    ]


def _cells(iv) -> list[str]:
    return ["undefined"] * 3 if iv is None else [num(iv.estimate), num(iv.low), num(iv.high)]


def _plain(iv):
    return None if iv is None else {**interval_dict(iv), "method": iv.method}


def _ranking(is_class, s, level, size, rng, method="percentile", auto=False) -> tuple:
    """ROC AUC and AP of one class's scores, with intervals; None where undefined.

    ``auto``: where the simulated table (``expected_coverage``) finds ``method`` short of
    ``COVERAGE_FLAG`` for this class, the ROC AUC interval is the method it finds best.
    """
    if is_class.all() or not is_class.any():
        return None, None
    # The scores were checked where they entered: the cells are counted from the column in
    # place, a block of items at a time, once for both areas (auc_interval and ap_interval
    # would check and sort copies of it, each).
    cells = class_cells(is_class, s)
    auc = area_interval("roc_auc", cells, level, size, method, rng)
    n_pos, n_neg = cells.sizes
    if auto and (expected_coverage(n_pos, n_neg, auc.estimate, method) or 0) < COVERAGE_FLAG:
        better = auc_method_for(n_pos, n_neg, auc.estimate)
        auc = auc if better == method else area_interval("roc_auc", cells, level, size, better, rng)
    # BCa for AP: at a small class the percentile interval falls short where BCa does not
    # (AP_COVERAGE); BCa's jackknife needs two items of each class.
    ap_method = AP_METHOD if min(n_pos, n_neg) >= 2 else "percentile"
    ap = area_interval("average_precision", cells, level, size, ap_method, rng)
    return auc, _centred(ap)


def _centred(iv):
    """``iv``, centred on its estimate where it excludes it (see ``centred_on_estimate``)."""
    return centred_on_estimate(iv)


def argmax_warning(pred_codes: np.ndarray, scores: np.ndarray, pos, labels: list) -> list[str]:
    """A warning when the scores' decision disagrees with the predictions on most items.

    For a probability matrix the decision is the argmax of each row; for binary
    probabilities, a score of at least 0.5 for ``labels[pos]``. Scores outside
    [0, 1] imply no decision and are not checked.
    """
    if scores.min() < 0 or scores.max() > 1:
        return []
    if scores.ndim == 2:  # counted a block of rows at a time: no N row indices held
        differ = sum(
            int((np.argmax(scores[i : i + ROWS], axis=1) != pred_codes[i : i + ROWS]).sum())
            for i in range(0, len(scores), ROWS)
        )
        what = "the class of highest probability (the argmax of each row of scores)"
        fix = f"are the probability columns in the class order ({' '.join(map(str, labels))})?"
    else:
        differ = int(((scores >= 0.5) != (pred_codes == pos)).sum())
        what = f"a score of at least 0.5 for class {labels[pos]!s}"
        fix = "do the scores score the positive class (pos_label)?"
    share = differ / len(scores)
    if share <= 0.5:
        return []
    return [
        f"{what} differs from the predictions on {share:.0%} of the items: {fix} "
        "If the predictions come from other scores or thresholds, say so."
    ]


def _calibration_pvalue(scores, pos_of, cols, rng) -> float | None:
    """The calibration test's p-value, or None where its draws would exceed the budget."""
    most = CALIBRATION_BUDGET // CALIBRATION_DRAWS
    test = calibration_test_in_blocks(scores, pos_of, cols, BINS, CALIBRATION_DRAWS, rng, most)
    return None if test is None else test.pvalue
