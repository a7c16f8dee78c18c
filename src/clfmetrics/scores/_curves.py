"""From scores to decisions: the threshold sweep, ROC and precision-recall curves.

A binary classifier that outputs a score predicts "positive" where
``score >= t``. Lowering ``t`` from ``+inf`` past every distinct score gives one
confusion matrix per threshold: the **threshold sweep is a stack of confusion
matrices**, so every metric of the library has a curve for free
(``metric(stack)``). One sort and cumulative sums build the whole stack.

Costs: :func:`expected_cost` is the mean cost per item of a matrix or a stack,
with ``costs[i, j]`` the cost of predicting ``i`` when the truth is ``j``;
:func:`best_threshold` minimises it along the sweep, and :func:`cost_threshold`
is the Bayes threshold for calibrated probabilities (Elkan 2001).

Convention: ``m[i, j]`` = items predicted ``i`` whose true class is ``j``
(rows = predicted), class order (negative, positive), so
``m = [[TN, FN], [FP, TP]]``. scikit-learn's matrices are the transpose.

The curves match ``sklearn.metrics`` (version 1.9) point for point; the
deliberate differences are listed in each function's notes. None of the
functions takes ``sample_weight``.
"""

from __future__ import annotations

import numpy as np

from .._base.codes import as_label_vector
from ._checks import _classes, as_scores, as_target, positives
from ._costs import expected_cost


def _sweep(pos: np.ndarray, s: np.ndarray):
    """Distinct thresholds in decreasing order, and TP and FP counts at each (``score >= t``)."""
    order = np.argsort(-s)  # ties are grouped below, so the sort need not be stable
    s = s[order]
    ends = np.flatnonzero(s[1:] != s[:-1])  # last item of each tie group but the final one
    ends = np.append(ends, len(s) - 1)
    tps = np.cumsum(pos[order], dtype=np.int64)[ends]
    fps = ends + 1 - tps
    return s[ends], tps, fps


def threshold_stack(y_true, scores, *, pos_label=None):
    """Every confusion matrix of the threshold sweep, one sort and cumulative sums.

    Predict positive where ``scores >= t``. ``thresholds[0] = +inf`` (nothing
    predicted positive), then every distinct score in decreasing order, so the
    last matrix predicts every item positive.

    Parameters
    ----------
    y_true : array_like of shape (N,)
        Reference labels, two classes (or more with ``pos_label``: one against the rest).
    scores : array_like of shape (N,)
        Finite scores; higher means "more positive".
    pos_label : label, optional
        The positive class. Default: the greater of the two labels of ``y_true``.

    Returns
    -------
    thresholds : ndarray of float, shape (K + 1,)
        ``+inf`` followed by the ``K`` distinct scores, decreasing.
    stack : ndarray of int64, shape (K + 1, 2, 2)
        ``stack[k] = [[TN, FN], [FP, TP]]`` at ``thresholds[k]`` (rows = predicted,
        class order (negative, positive)): ready for every metric of the library.

    Notes
    -----
    scikit-learn's ``confusion_matrix_at_thresholds`` gives the same counts without the
    ``+inf`` row and requires ``pos_label`` for labels other than {0, 1} or {-1, 1};
    here the greater label is the default.

    Examples
    --------
    >>> t, stack = threshold_stack([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> t
    array([ inf, 0.8 , 0.4 , 0.35, 0.1 ])
    >>> stack[2]
    array([[1, 1],
           [1, 1]])
    """
    s, pos = positives(y_true, scores, pos_label)
    thresholds, tps, fps = _sweep(pos, s)
    n_pos, n_neg = tps[-1], fps[-1]
    tp = np.concatenate([[0], tps])
    fp = np.concatenate([[0], fps])
    stack = np.empty((len(tp), 2, 2), dtype=np.int64)
    stack[:, 0, 0] = n_neg - fp
    stack[:, 0, 1] = n_pos - tp
    stack[:, 1, 0] = fp
    stack[:, 1, 1] = tp
    return np.concatenate([[np.inf], thresholds]), stack


def _need(count, what: str, curve: str) -> None:
    if count == 0:
        raise ValueError(f"y_true has no {what} items: {curve} is undefined")


def roc_curve(y_true, scores, *, pos_label=None):
    r"""Receiver operating characteristic: false and true positive rates along the sweep.

    :math:`FPR_k = FP_k / N_{neg}`, :math:`TPR_k = TP_k / N_{pos}` at ``thresholds[k]``.

    Parameters
    ----------
    y_true, scores, pos_label
        As in :func:`threshold_stack`.

    Returns
    -------
    fpr, tpr : ndarray of shape (K + 1,)
        Increasing; the first point is (0, 0) at threshold ``+inf``, the last (1, 1).
    thresholds : ndarray of shape (K + 1,)
        ``+inf``, then the distinct scores in decreasing order.

    Notes
    -----
    The same points as ``sklearn.metrics.roc_curve(..., drop_intermediate=False)``.
    Differences: when ``y_true`` lacks one of the two classes this raises
    ``ValueError`` (scikit-learn warns and returns NaN rates), and the default
    ``pos_label`` is the greater label for any two labels.
    """
    s, pos = positives(y_true, scores, pos_label)
    thresholds, tps, fps = _sweep(pos, s)
    _need(tps[-1], "positive", "the true positive rate")
    _need(fps[-1], "negative", "the false positive rate")
    fpr = np.concatenate([[0.0], fps / fps[-1]])
    tpr = np.concatenate([[0.0], tps / tps[-1]])
    return fpr, tpr, np.concatenate([[np.inf], thresholds])


def _binary_auc(pos: np.ndarray, s: np.ndarray) -> float:
    _, tps, fps = _sweep(pos, s)
    _need(tps[-1], "positive", "ROC AUC")
    _need(fps[-1], "negative", "ROC AUC")
    tp = np.concatenate([[0.0], tps])
    # Twice the trapezoid area in counts: every term and partial sum is an integer, so the
    # float64 sum is exact below about 10**8 items and the one division rounds once.
    twice_area = np.dot(np.diff(np.concatenate([[0.0], fps])), tp[1:] + tp[:-1])
    return float(twice_area / (2.0 * tps[-1] * fps[-1]))


def _binary_ap(pos: np.ndarray, s: np.ndarray) -> float:
    precision, recall, _ = _pr_points(pos, s)
    return float(max(0.0, -np.sum(np.diff(recall) * precision[:-1])))


def _one_vs_rest(binary, y_true, scores, labels) -> float:
    """Macro mean of ``binary(is_class_k, scores[:, k])`` over the columns (one-vs-rest)."""
    s = as_scores(scores, ndim=2)
    y = as_target(y_true, len(s))
    n = s.shape[1]
    if n < 2:
        raise ValueError(f"scores must have one column per class (n >= 2); got shape {s.shape}")
    classes = _classes(y) if labels is None else as_label_vector(labels, "labels")
    if len(classes) != n:
        source = "labels" if labels is not None else "y_true"
        raise ValueError(
            f"scores has {n} columns but {source} has {len(classes)} classes "
            f"{classes.tolist()}; there must be one column per class"
        )
    if len(set(classes.tolist())) != n:
        raise ValueError(f"labels must not repeat a class; got {classes.tolist()}")
    unknown = np.setdiff1d(y, classes) if labels is not None else []
    if len(unknown):
        raise ValueError(f"y_true contains label {unknown[0]!r}, which is not in labels")
    per_class = []
    for k, label in enumerate(classes.tolist()):  # a loop over classes, not items
        try:
            per_class.append(binary(y == label, s[:, k]))
        except ValueError as err:
            raise ValueError(f"class {label!r}: {err}") from None
    return float(np.mean(per_class))


def _area(binary, y_true, scores, pos_label, labels) -> float:
    """``binary(is_positive, scores)`` for 1-d scores, its one-vs-rest macro mean for a matrix."""
    if np.ndim(scores) == 2:
        if pos_label is not None:
            raise ValueError("pos_label applies to 1-d scores; a score matrix uses labels=")
        return _one_vs_rest(binary, y_true, scores, labels)
    if labels is not None:
        raise ValueError("labels applies to an (N, n) score matrix; 1-d scores use pos_label=")
    return binary(*positives(y_true, scores, pos_label)[::-1])


def roc_auc(y_true, scores, *, pos_label=None, labels=None) -> float:
    r"""Area under the ROC curve: P(a random positive outscores a random negative).

    .. math:: AUC = \frac{1}{N_{pos} N_{neg}} \sum_{i \in pos} \sum_{j \in neg}
              \left( [s_i > s_j] + \tfrac12 [s_i = s_j] \right)

    computed as the trapezoid area under :func:`roc_curve` (tied scores count one half).

    Parameters
    ----------
    y_true : array_like of shape (N,)
    scores : array_like of shape (N,) or (N, n)
        One score per item (binary), or one column per class: then the result is the
        one-vs-rest macro AUC, the mean over classes of the AUC of column ``k`` for
        "class ``k``" against the rest.
    pos_label : label, optional
        Binary case only, as in :func:`threshold_stack`.
    labels : sequence, optional
        ``(N, n)`` case only: the class of each column. Default: the sorted classes of
        ``y_true``, which must then number ``n``.

    Returns
    -------
    float

    Notes
    -----
    Equal to ``sklearn.metrics.roc_auc_score`` (binary) and to
    ``roc_auc_score(..., multi_class="ovr", average="macro")`` (matrix) up to rounding.
    Differences: a class missing from ``y_true`` raises ``ValueError`` (scikit-learn 1.9
    warns and returns NaN); the rows of an ``(N, n)`` matrix need not sum to 1 (the
    one-vs-rest AUC only uses each column's ranking; scikit-learn requires
    probabilities); ``labels`` may be in any order; the area is summed exactly in
    counts and divided once.
    """
    return _area(_binary_auc, y_true, scores, pos_label, labels)


def _pr_points(pos: np.ndarray, s: np.ndarray):
    thresholds, tps, fps = _sweep(pos, s)
    _need(tps[-1], "positive", "recall")
    precision = tps / (tps + fps)  # every distinct threshold predicts at least one item
    recall = tps / tps[-1]
    return (
        np.concatenate([precision[::-1], [1.0]]),
        np.concatenate([recall[::-1], [0.0]]),
        thresholds[::-1],
    )


def precision_recall_curve(y_true, scores, *, pos_label=None):
    r"""Precision and recall of the positive class along the sweep.

    :math:`P_k = TP_k / (TP_k + FP_k)`, :math:`R_k = TP_k / N_{pos}` at ``thresholds[k]``.

    Parameters
    ----------
    y_true, scores, pos_label
        As in :func:`threshold_stack`.

    Returns
    -------
    precision, recall : ndarray of shape (K + 1,)
        In order of *increasing* threshold, as scikit-learn returns them; the last point
        (precision 1, recall 0) has no threshold: it stands for "predict nothing".
    thresholds : ndarray of shape (K,)
        The distinct scores, increasing.

    Notes
    -----
    The same arrays as ``sklearn.metrics.precision_recall_curve`` (whose default is
    ``drop_intermediate=False``). Difference: without positive items this raises
    ``ValueError`` (scikit-learn warns and sets every recall to 1).
    """
    return _pr_points(*positives(y_true, scores, pos_label)[::-1])


def average_precision(y_true, scores, *, pos_label=None, labels=None) -> float:
    r"""Average precision: precision averaged over the recall steps of the sweep.

    .. math:: AP = \sum_k (R_k - R_{k-1})\, P_k

    over the distinct thresholds in decreasing order, :math:`R_0 = 0`: the step-function
    area under the precision-recall curve, without interpolation.

    Parameters
    ----------
    y_true, scores, pos_label, labels
        As in :func:`roc_auc`; an ``(N, n)`` matrix gives the one-vs-rest macro mean.

    Returns
    -------
    float

    Notes
    -----
    Equal to ``sklearn.metrics.average_precision_score`` (its default ``average="macro"``
    for a score matrix). Difference: a class without positive items raises
    ``ValueError`` (scikit-learn warns and returns 0).
    """
    return _area(_binary_ap, y_true, scores, pos_label, labels)


def best_threshold(metric, y_true, scores, *, pos_label=None) -> tuple[float, float]:
    """The best threshold of the sweep: largest ``metric``, or smallest expected cost.

    Parameters
    ----------
    metric : callable or array_like of shape (2, 2)
        Either a function that maps a stack ``(K, 2, 2)`` to one value per matrix,
        shape ``(K,)``, where larger is better: any single-number metric of the
        library, e.g. ``clfmetrics.macro_f1`` or ``lambda s: clfmetrics.f1(s)[..., 1]``
        for the F1 of the positive class. Or a cost matrix ``costs[i, j]`` = cost of
        predicting ``i`` when the truth is ``j`` (class order negative, positive; see
        :func:`expected_cost`), and then the mean cost per item is minimised.
    y_true, scores, pos_label
        As in :func:`threshold_stack`.

    Returns
    -------
    threshold : float
        Predict positive where ``score >= threshold``; ``inf`` means "predict nothing".
        Of several equally good thresholds (a flat stretch) the highest is returned.
    value : float
        The metric at ``threshold``, or, for a cost matrix, the smallest mean cost
        per item, ``expected_cost(m, costs)`` of the matrix ``m`` at ``threshold``.

    Notes
    -----
    Undefined values (NaN) are skipped. Choose the threshold on validation data and
    report the metric at it on test data: the best value on the data that chose it is
    optimistic. scikit-learn's ``TunedThresholdClassifierCV`` tunes a threshold on a
    grid (100 points by default) by cross-validation, or on one validation set with
    ``cv="prefit", refit=False``; this evaluates every distinct score of one labelled
    set exactly. For calibrated probabilities and a cost matrix, the threshold
    estimates :func:`cost_threshold`.

    Examples
    --------
    >>> best_threshold([[0, 5], [1, 0]], [0, 0, 1, 1, 0], [0.1, 0.3, 0.35, 0.8, 0.9])
    (0.35, 0.2)
    """
    if callable(metric):
        larger_is_better = True
    else:
        try:
            costs = np.asarray(metric, dtype=np.float64)
        except (TypeError, ValueError):
            costs = None
        if costs is None or costs.shape != (2, 2) or isinstance(metric, str):
            raise ValueError(
                "metric must be a function of a stack of matrices, or a (2, 2) cost matrix "
                f"(rows = predicted, columns = true); got {metric!r}"
            )
        larger_is_better = False
    thresholds, stack = threshold_stack(y_true, scores, pos_label=pos_label)
    if larger_is_better:
        values = np.asarray(metric(stack), dtype=np.float64)
    else:
        values = np.asarray(expected_cost(stack, metric), dtype=np.float64)
    if values.shape != thresholds.shape:
        raise ValueError(
            f"metric must return one value per matrix, shape {thresholds.shape}; got "
            f"{values.shape} (a per-class metric needs e.g. lambda s: f1(s)[..., 1])"
        )
    if np.isnan(values).all():
        raise ValueError("metric is undefined (NaN) at every threshold")
    k = int(np.nanargmax(values) if larger_is_better else np.nanargmin(values))
    return float(thresholds[k]), float(values[k])
