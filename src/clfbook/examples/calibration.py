"""Held-out recalibration of the digits model, and item-bootstrap intervals for its losses.

The chapter "Are the probabilities right?" checks the probabilities of the model
of :mod:`clfbook.examples.digits` and recalibrates them. Choosing a
recalibration needs data the report does not use, so :func:`split_held_out`
cuts the task's test part into a *validation* half (to fit the recalibration)
and a *test* half (to report on), each digit split in two. The training part is
untouched, so the model is the one the end-to-end chapter fits.

The intervals here resample test *items* (a multinomial draw of how often each
item appears, vectorised over resamples), as the book's other intervals
resample the cells of a confusion matrix. They assume independent test items, a
test set not used for any choice, and a fixed fitted model.

"Calibration" here is the property of probabilities (:mod:`clfmetrics.probabilities`),
not the *prevalence calibration* of a confusion matrix (Opitz 2024).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from clfmetrics.inference._uncertainty import Interval

from .digits import DigitsTask

__all__ = [
    "HeldOut",
    "bootstrap_weights",
    "ece_interval",
    "item_losses",
    "mean_interval",
    "pooled_f1",
    "pooled_f1_intervals",
    "recalibrate",
    "sharpen",
    "split_held_out",
    "uniform_bin_ids",
]

METHODS = ("sigmoid", "isotonic", "temperature")


@dataclass(frozen=True)
class HeldOut:
    """The task's test part cut in two: ``X_val, y_val`` to fit on, ``X_test, y_test`` to report."""

    X_val: np.ndarray
    y_val: np.ndarray
    X_test: np.ndarray
    y_test: np.ndarray


def split_held_out(task: DigitsTask, *, seed: int = 0) -> HeldOut:
    """Validation and test items for ``task``: its own validation part, or half its test part.

    A task made with a validation part (non-empty ``X_val``) keeps it and its whole
    test part. Otherwise the test images of each digit are shuffled with a seeded
    generator; the first ``count // 2`` go to validation and the rest to test, so
    both halves keep the task's class frequencies (the odd image of a digit goes to
    test). Either way the training part, and so the fitted model, is untouched.

    Parameters
    ----------
    task : DigitsTask
    seed : int
        Seed of the shuffle (unused when the task has a validation part).

    Returns
    -------
    HeldOut
        Items in their original order within each half.
    """
    own_val = getattr(task, "X_val", None)
    if own_val is not None and len(own_val) > 0:
        return HeldOut(task.X_val, np.asarray(task.y_val), task.X_test, np.asarray(task.y_test))
    y = np.asarray(task.y_test)
    rng = np.random.default_rng(seed)
    val = np.zeros(len(y), dtype=bool)
    for k in np.unique(y):
        items = rng.permutation(np.flatnonzero(y == k))
        val[items[: len(items) // 2]] = True
    return HeldOut(task.X_test[val], y[val], task.X_test[~val], y[~val])


def recalibrate(model, X_val, y_val, *, method: str = "temperature"):
    """Recalibrate a fitted classifier on held-out data (scikit-learn's ``CalibratedClassifierCV``).

    The model is wrapped in ``sklearn.frozen.FrozenEstimator`` (scikit-learn >= 1.6
    replaced ``cv="prefit"`` with it), so only the calibration map is fitted, on all
    of ``X_val, y_val``; these items must not have been used to fit ``model``.

    Parameters
    ----------
    model : fitted classifier with ``predict_proba``
    X_val, y_val : array_like
        Held-out items and labels.
    method : {"temperature", "sigmoid", "isotonic"}
        ``"temperature"`` divides the logits by one fitted number (Guo et al. 2017);
        ``"sigmoid"`` fits Platt's (1999) logistic map per class, one against the rest;
        ``"isotonic"`` a monotone step function per class (Zadrozny & Elkan 2002).
        The last two renormalise the classes' probabilities to sum to 1.

    Returns
    -------
    sklearn.calibration.CalibratedClassifierCV
        Fitted; its ``predict_proba`` gives the recalibrated probabilities.
    """
    from sklearn.calibration import CalibratedClassifierCV
    from sklearn.frozen import FrozenEstimator

    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}; got {method!r}")
    return CalibratedClassifierCV(FrozenEstimator(model), method=method).fit(X_val, y_val)


def sharpen(proba, power: float) -> np.ndarray:
    r"""Exaggerate probabilities: :math:`q_k = p_k^a / \sum_j p_j^a` with :math:`a` = ``power``.

    A 1-D array is the probability of the positive class, :math:`q = p^a / (p^a +
    (1 - p)^a)`. For ``power > 1`` every probability moves away from the uniform
    one, for ``power < 1`` toward it; the order of the classes within an item, and
    so the argmax decision, never changes (nor, for 1-D input, the ranking of items).

    Raises
    ------
    ValueError
        If ``power`` is not a positive number or ``proba`` lies outside [0, 1].
    """
    if isinstance(power, bool) or not isinstance(power, (int, float, np.number)) or not power > 0:
        raise ValueError(f"power must be a positive number; got {power!r}")
    p = np.asarray(proba, dtype=float)
    if p.ndim not in (1, 2) or not np.all((p >= 0) & (p <= 1)):
        raise ValueError("proba must be a 1-D or 2-D array of probabilities in [0, 1]")
    if p.ndim == 1:
        p = np.column_stack([1 - p, p])
        out = p**power
        return out[:, 1] / out.sum(axis=1)
    out = p**power
    return out / out.sum(axis=1, keepdims=True)


def item_losses(y_true, proba) -> dict[str, np.ndarray]:
    r"""Each item's Brier loss and log loss, whose means are the Brier score and log loss.

    For class indices ``y_true`` and probabilities ``proba`` of shape (N, n):
    Brier :math:`\sum_k (p_{ik} - [y_i = k])^2` and log loss :math:`-\log p_{i y_i}`,
    with :math:`p_{i y_i}` clipped to :math:`[\epsilon, 1 - \epsilon]` (machine epsilon)
    as scikit-learn's ``log_loss`` clips it.
    For 0/1 labels and a 1-D probability of class 1: :math:`(q_i - y_i)^2` (the
    binary Brier score, half the two-column form) and
    :math:`-y_i \log q_i - (1 - y_i) \log(1 - q_i)`. The item losses are what
    :func:`mean_interval` resamples.

    Returns
    -------
    dict with keys ``"brier"`` and ``"log_loss"``, arrays of shape (N,)
    """
    y = np.asarray(y_true)
    p = np.asarray(proba, dtype=float)
    if y.ndim != 1 or len(p) != len(y) or p.ndim not in (1, 2) or len(y) == 0:
        raise ValueError("y_true must be 1-D with one row (or entry) of proba per item")
    if not np.all((p >= 0) & (p <= 1)):
        raise ValueError("proba must lie in [0, 1]")
    if p.ndim == 1:
        if not np.all((y == 0) | (y == 1)):
            raise ValueError("with a 1-D proba, y_true must hold only 0 and 1")
        p = np.column_stack([1 - p, p])
        brier = (p[:, 1] - y) ** 2
    else:
        if not np.issubdtype(y.dtype, np.integer) or y.min() < 0 or y.max() >= p.shape[1]:
            raise ValueError("y_true must hold class indices 0 .. n - 1")
        brier = ((p - (np.arange(p.shape[1])[None, :] == y[:, None])) ** 2).sum(axis=1)
    # Clipped as scikit-learn's log_loss clips, so a probability of exactly 0 for the
    # true class costs -log(eps) instead of an infinite loss.
    eps = np.finfo(float).eps
    log_loss = -np.log(np.clip(p[np.arange(len(y)), y.astype(int)], eps, 1 - eps))
    return {"brier": brier, "log_loss": log_loss}


def _check_size(size) -> None:
    if isinstance(size, bool) or not isinstance(size, (int, np.integer)) or size < 1:
        raise ValueError(f"size must be a positive integer; got {size!r}")


def bootstrap_weights(n_items: int, size: int, rng=None) -> np.ndarray:
    """How often each of ``n_items`` items is drawn in each of ``size`` item resamples.

    Shape ``(size, n_items)``; every row sums to ``n_items`` (a multinomial draw with
    equal probabilities: item indices drawn with replacement, then counted).
    """
    if isinstance(n_items, bool) or not isinstance(n_items, (int, np.integer)) or n_items < 1:
        raise ValueError(f"n_items must be a positive integer; got {n_items!r}")
    _check_size(size)
    rng = np.random.default_rng(rng)
    # Item indices drawn with replacement, counted per resample by one bincount
    # (several times faster than numpy's multinomial with many categories).
    drawn = rng.integers(0, n_items, size=(size, n_items))
    drawn += n_items * np.arange(size)[:, None]
    return np.bincount(drawn.ravel(), minlength=size * n_items).reshape(size, n_items)


#: Most item counts held in memory at once: resamples are drawn in blocks of rows.
_BLOCK = 2_000_000


def _resampled(values: np.ndarray, size: int, rng) -> np.ndarray:
    """``w @ values`` for ``size`` rows ``w`` of :func:`bootstrap_weights`, in blocks.

    ``values`` has shape (N, ...); the result (size, ...). Blocks of resamples keep
    memory bounded (``size * N`` counts at once would be 160 MB at 10,000 x 2,000).
    """
    rng = np.random.default_rng(rng)
    n = len(values)
    step = max(1, _BLOCK // n)
    flat = values.reshape(n, -1)
    out = [
        bootstrap_weights(n, min(step, size - start), rng) @ flat for start in range(0, size, step)
    ]
    return np.concatenate(out).reshape((size, *values.shape[1:]))


def _percentile(estimate: float, draws: np.ndarray, level: float) -> Interval:
    if not 0 < level < 1:
        raise ValueError(f"level must lie in (0, 1); got {level!r}")
    low, high = np.quantile(draws, [(1 - level) / 2, (1 + level) / 2])
    return Interval(float(estimate), float(low), float(high), float(level), "percentile")


def mean_interval(per_item, *, level: float = 0.95, size: int = 10_000, rng=None) -> Interval:
    """Percentile bootstrap interval of the mean of per-item values (losses, or their differences).

    The Brier score and log loss are means over items of a per-item loss, so the
    interval of the score is that of the mean; pass ``loss_a - loss_b`` of two models
    on the same items for the paired interval of their difference.

    Parameters
    ----------
    per_item : array_like of shape (N,)
    level : float in (0, 1)
    size : int
        Number of item resamples.
    rng : None, int or numpy Generator

    Returns
    -------
    Interval
        ``estimate`` is the observed mean.
    """
    x = np.asarray(per_item, dtype=float)
    if x.ndim != 1 or len(x) == 0 or not np.all(np.isfinite(x)):
        raise ValueError("per_item must be a non-empty 1-D array of finite numbers")
    _check_size(size)
    return _percentile(x.mean(), _resampled(x, size, rng) / len(x), level)


def uniform_bin_ids(proba, bins: int = 10) -> np.ndarray:
    """Bin of each probability among ``bins`` equal-width bins of [0, 1].

    The assignment of ``sklearn.calibration.calibration_curve(strategy="uniform")``:
    a probability on an inner edge goes to the lower bin.
    """
    if isinstance(bins, bool) or not isinstance(bins, (int, np.integer)) or bins < 1:
        raise ValueError(f"bins must be a positive integer; got {bins!r}")
    p = np.asarray(proba, dtype=float)
    return np.searchsorted(np.linspace(0.0, 1.0, bins + 1)[1:-1], p)


def ece_interval(
    y_true, proba, *, bins: int = 10, level: float = 0.95, size: int = 10_000, rng=None
) -> Interval:
    r"""Percentile item-bootstrap interval of the binary ECE with ``bins`` equal-width bins.

    **Not a valid confidence interval of the calibration error**: the chapter
    "Are the probabilities right?" computes it only to show why. The plug-in ECE
    is biased upward by each bin's noise, and every resample adds that noise once
    more, so the interval sits too high by about the bias; for a calibrated
    forecaster, whose true ECE is 0, no resample reaches 0 and the interval never
    contains the truth. Use :func:`clfmetrics.probabilities.calibration_test` for
    the question the interval seems to answer, and
    :func:`clfmetrics.probabilities.expected_calibration_error` with ``norm=2,
    debiased=True`` for an unbiased summary.

    :math:`ECE = \sum_b \frac{N_b}{N} |\bar y_b - \bar p_b| = \frac{1}{N}\sum_b
    |\sum_{i \in b} (y_i - p_i)|`. Equal-width bin edges do not depend on the data,
    so each resample keeps every item's bin and only reweights the items: all
    resamples are one matrix product.

    Parameters
    ----------
    y_true : array_like of shape (N,)
        0/1 outcomes (1 = the event the probability is about, e.g. "the argmax is right").
    proba : array_like of shape (N,)
        Probabilities in [0, 1].
    bins, level, size, rng
        As in :func:`uniform_bin_ids` and :func:`mean_interval`.
    """
    y = np.asarray(y_true, dtype=float)
    p = np.asarray(proba, dtype=float)
    if y.ndim != 1 or y.shape != p.shape or len(y) == 0:
        raise ValueError("y_true and proba must be 1-D arrays of the same non-zero length")
    if not np.all((y == 0) | (y == 1)):
        raise ValueError("y_true must hold only 0 and 1")
    if not np.all((p >= 0) & (p <= 1)):
        raise ValueError("proba must lie in [0, 1]")
    ids = uniform_bin_ids(p, bins)
    residual = np.zeros((len(y), bins))
    residual[np.arange(len(y)), ids] = y - p
    estimate = np.abs(residual.sum(axis=0)).sum() / len(y)
    _check_size(size)
    draws = np.abs(_resampled(residual, size, rng)).sum(axis=1) / len(y)
    return _percentile(estimate, draws, level)


def _pooled_counts(y_true, proba, threshold) -> np.ndarray:
    """Per item: (TP, FP, FN) of the ten one-vs-rest decisions ``proba[:, k] >= threshold``."""
    y = np.asarray(y_true)
    p = np.asarray(proba, dtype=float)
    if p.ndim != 2 or y.shape != (len(p),):
        raise ValueError("proba must have shape (N, n) and y_true shape (N,)")
    if not np.issubdtype(y.dtype, np.integer) or y.min() < 0 or y.max() >= p.shape[1]:
        raise ValueError("y_true must hold class indices 0 .. n - 1, one per row of proba")
    if not np.isscalar(threshold) or not np.isfinite(threshold):
        raise ValueError(f"threshold must be a finite number; got {threshold!r}")
    truth = np.arange(p.shape[1])[None, :] == y[:, None]
    chosen = p >= threshold
    return np.column_stack(
        [(chosen & truth).sum(axis=1), (chosen & ~truth).sum(axis=1), (~chosen & truth).sum(axis=1)]
    )


def _f1(counts: np.ndarray) -> np.ndarray:
    tp, fp, fn = np.moveaxis(counts, -1, 0)
    return 2 * tp / (2 * tp + fp + fn)


def pooled_f1(y_true, proba, threshold: float) -> float:
    r"""F1 of the pooled one-vs-rest decisions: class ``k`` is claimed for item ``i`` where
    ``proba[i, k] >= threshold``; :math:`F1 = 2TP / (2TP + FP + FN)` over all ``N n`` pairs.

    This is the binary problem "is item i of class k?" with the probability of
    class k as its score (the micro-averaged F1 of multi-label decisions).
    """
    return float(_f1(_pooled_counts(y_true, proba, threshold).sum(axis=0)))


def pooled_f1_intervals(
    y_true, rules, *, level: float = 0.95, size: int = 10_000, rng=None
) -> tuple[list[Interval], Interval | None]:
    """Item-bootstrap intervals of :func:`pooled_f1` for several ``(proba, threshold)`` rules.

    The ``n`` pairs of one item are not independent, so whole *items* are resampled,
    the same resamples for every rule; with two rules the second result is the
    paired interval of the difference (first rule minus second).

    Parameters
    ----------
    y_true : array_like of shape (N,)
        Class indices.
    rules : sequence of (proba, threshold)
        ``proba`` of shape (N, n) for the same items.
    level, size, rng
        As in :func:`mean_interval`.

    Returns
    -------
    intervals : list of Interval
        One per rule.
    difference : Interval or None
        For exactly two rules, the first minus the second; otherwise None.
    """
    counts = [_pooled_counts(y_true, proba, t) for proba, t in rules]
    if not counts:
        raise ValueError("rules must hold at least one (proba, threshold) pair")
    _check_size(size)
    # One resample of the items serves every rule: stack their counts side by side.
    stacked = _resampled(np.concatenate(counts, axis=1), size, rng)
    draws = [_f1(stacked[:, 3 * k : 3 * k + 3]) for k in range(len(counts))]
    observed = [_f1(c.sum(axis=0)) for c in counts]
    intervals = [_percentile(o, d, level) for o, d in zip(observed, draws, strict=True)]
    difference = None
    if len(rules) == 2:
        difference = _percentile(observed[0] - observed[1], draws[0] - draws[1], level)
    return intervals, difference
