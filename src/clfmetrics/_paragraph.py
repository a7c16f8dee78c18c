"""The report's suggested paragraph for an evaluation section (:meth:`Report.reporting_block`).

It follows the book's checklist: accuracy beside macro recall and their chance levels, which
"macro F1" is meant, the class-wise recalls, what the intervals are and assume, and how a 0/0
counts. A zero-width bootstrap interval is never printed as if it measured something.
"""

from __future__ import annotations

from ._formats import TEXT_CLASSES, TOP_K
from ._render import count, fixed, interval_text, num, reported_text, seed_text


def reporting_paragraph(rep) -> str:
    """The paragraph of a :class:`clfmetrics.reporting.Report`."""
    iv = rep.intervals
    n = len(rep.labels)
    pairs = list(zip(rep.labels, rep.per_class["recall"], strict=True))
    which = "Class-wise recalls"
    if n > TEXT_CLASSES:  # a paragraph, not a table: the lowest recalls, and where the rest are
        pairs = sorted(pairs, key=lambda p: -1.0 if p[1] != p[1] else p[1])[:TOP_K]
        which = f"The {TOP_K} lowest of the {n} class-wise recalls (all in the per-class table)"
    recalls = ", ".join(f"{lab!s} {num(r)}" for lab, r in pairs)
    acc, exact = interval_text(iv["accuracy"]), rep.exact["accuracy"]
    if iv["accuracy"].high == iv["accuracy"].low:
        acc = (
            f"{fixed(exact['estimate'])} (exact Clopper-Pearson interval "
            f"[{fixed(exact['low'])}, {fixed(exact['high'])}]; "
            "the bootstrap interval has zero width)"
        )
    return (
        f"On {count(rep.n_items, 'test item')} ({n} classes), accuracy is "
        f"{acc} and macro recall (balanced accuracy) {reported_text(iv['macro_recall'])} "
        f"(chance: {fixed(1 / n)} for macro recall; "
        f"{fixed(rep.baselines['majority class']['accuracy'])} accuracy for always "
        f"predicting the majority class). Macro F1, the mean of class-wise F1 "
        f"(scikit-learn's average='macro'), is {reported_text(iv['macro_f1'])}; "
        "the F1 of macro precision and macro recall is "
        f"{fixed(iv['f1_of_averages'].estimate)}. "
        f"{which}: {recalls}. Intervals: {rep.level:.0%} percentile bootstrap "
        f"over {count(rep.size, 'resample')} of the test items ({seed_text(rep.seed)}). "
        "A precision or recall that is 0/0 on the test set counts as 0; resamples on "
        "which a metric is undefined while the test set is not are left out of its "
        "interval."
        + ("" if rep.scores is None else rep.scores.sentence())
        + " Computed with clfmetrics (rows = predictions, columns = reference)."
    )
