r"""How sure is a score, and is one system really better than another?

Bootstrap intervals, paired comparisons and tests for any metric of the
library, computed on counts rather than items. Resampling the ``N`` items of
a test set with replacement is one multinomial draw over the cells of its
confusion matrix; resampling two systems on the same items is one draw over
the joint cells (true class, prediction of A, prediction of B). The cost of a
resample therefore grows with the number of cells, not with ``N``, and all
resamples go through the metric as one stack.

Convention: ``m[i, j]`` = items predicted ``i`` whose true class is ``j``.

References: the percentile and BCa intervals follow Efron & Tibshirani (1993,
ch. 13–14) and DiCiccio & Efron (1996); the add-one p-value of the
permutation test follows Phipson & Smyth (2010); the exact McNemar test is
McNemar (1947) (in ``_mcnemar.py``); Holm (1979) adjusts p-values for many tests
(in ``_binomial.py``). The intervals of ROC AUC and average precision
(a bootstrap of the (score, class) cells, BCa, DeLong) and DeLong's paired test
of two AUCs are in ``_auc_uncertainty.py``: DeLong, DeLong & Clarke-Pearson
(1988) and Sun & Xu (2014).
"""

from __future__ import annotations

import numpy as np

from ..metrics import confusion_matrix, resolve_metric
from . import _bootstrap as rs
from ._bootstrap import (
    acceleration,
    count_matrix,
    defined_bounds,
    multinomial_values,
    pair_patterns,
    score,
    scores,
    swapped_values,
    undefined_mask,
    undefined_on,
)
from ._interval import Interval, centred_on_estimate

METHODS = ("percentile", "bca")


def interval_of_stack(func, m, stack, level, method) -> Interval:
    """Interval of ``func`` from an already drawn stack of resampled matrices of ``m``."""
    estimate = score(func, m)
    acc = acceleration(func, m) if method == "bca" else 0.0
    values = scores(func, stack)
    undefined = undefined_mask(func, stack, values)
    observed = not undefined_on(func, m)
    low, high, share = defined_bounds(
        values, undefined, estimate, level, method, acc, observed=observed
    )
    return Interval(estimate, low, high, level, method, share)


def resample_matrix(m: np.ndarray, size: int, rng) -> np.ndarray:
    """The whole ``(size, n, n)`` stack of resampled matrices (small problems and tests)."""
    n = m.shape[0]
    counts = m.ravel()
    cells = np.flatnonzero(counts)
    true, pred = cells % n, cells // n
    (stack,) = rs.multinomial_matrices(counts[cells], [rs.cell_index(pred, true, n)], n, size, rng)
    return stack


def intervals_of_matrix(funcs: dict, m, size: int, rng, level, method="percentile") -> dict:
    """Intervals of several metrics from one set of resamples of ``m``, drawn in chunks.

    The same numbers as :func:`interval_of_stack` on :func:`resample_matrix`'s stack
    for the same ``rng``, in memory bounded by ``_chunked.chunk_budget()``.
    """
    n = m.shape[0]
    counts = m.ravel()
    cells = np.flatnonzero(counts)
    (drawn,) = multinomial_values(funcs, counts[cells], [cells], n, size, rng)
    out = {}
    for name, func in funcs.items():
        values, undefined = drawn[name]
        estimate = score(func, m)
        acc = acceleration(func, m) if method == "bca" else 0.0
        low, high, share = defined_bounds(
            values, undefined, estimate, level, method, acc, observed=not undefined_on(func, m)
        )
        out[name] = Interval(estimate, low, high, level, method, share)
    return out


def interval(metric, m, *, level=0.95, size=10_000, method="percentile", rng=None) -> Interval:
    r"""Bootstrap confidence interval of a metric on one test set.

    Each of ``size`` resampled test sets draws the ``N`` items of ``m`` with
    replacement, which is one multinomial draw of ``N`` over the cells with
    probabilities ``m / N``; the metric scores the whole stack in one call.

    - ``"percentile"``: the :math:`\alpha/2` and :math:`1 - \alpha/2` quantiles of
      the resampled scores, :math:`\alpha = 1 -` ``level``.
    - ``"bca"`` (bias-corrected and accelerated): the quantiles
      :math:`\Phi(z_0 + (z_0 + z_q) / (1 - a (z_0 + z_q)))` for
      :math:`z_q = \Phi^{-1}(\alpha/2), \Phi^{-1}(1 - \alpha/2)`, with
      :math:`z_0 = \Phi^{-1}(\text{share of resamples below the estimate})` and
      the acceleration :math:`a` from the jackknife over items, which reduces to
      the ``n**2`` leave-one-out matrices weighted by their counts.

    **Undefined resamples.** A resample may leave a ratio at 0/0 (a class never
    predicted: its precision). The metric then reports ``zero_division`` (0),
    a number no classifier earned; those resamples form a cluster at the low end
    and, above a share of about :math:`\alpha/2`, set the lower end of the
    interval. By default the interval is therefore computed among the resamples
    where the metric is defined, and ``Interval.undefined`` says how many
    were left out: the interval then describes the metric where it exists, and
    the share says how often it does not.

    Parameters
    ----------
    metric : callable or str
        A function of a stack of confusion matrices (any of the library's
        metrics) or its name in ``clfmetrics.METRICS``.
    m : array_like of non-negative whole numbers, shape (n, n)
        Counts; ``m[i, j]`` = items predicted ``i`` whose true class is ``j``.
    level : float, default 0.95
        Nominal coverage, strictly between 0 and 1.
    size : int, default 10_000
        Number of resampled test sets.
    method : {"percentile", "bca"}, default "percentile"
    rng : numpy.random.Generator or int, optional
        Random source or seed.

    Returns
    -------
    Interval

    Raises
    ------
    ValueError
        For an unknown metric, a matrix that is not one square count matrix of
        whole numbers, ``level`` outside (0, 1), ``size`` < 1 or an unknown method.

    Examples
    --------
    >>> iv = interval("accuracy", [[60, 15, 5], [35, 170, 40], [5, 15, 55]], size=2000, rng=0)
    >>> iv.estimate, iv.low < iv.estimate < iv.high
    (0.7125, True)
    """
    _, func = resolve_metric(metric)
    arr = count_matrix(m)
    level, size = rs.check_level(level), rs.check_size(size)
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}; got {method!r}")
    return intervals_of_matrix({"m": func}, arr, size, np.random.default_rng(rng), level, method)[
        "m"
    ]


def interval_from_labels(
    metric, y_true, y_pred, *, labels=None, level=0.95, size=10_000, method="percentile", rng=None
) -> Interval:
    """:func:`interval` of the confusion matrix counted from two label vectors.

    Parameters
    ----------
    metric : callable or str
        As in :func:`interval`.
    y_true, y_pred : sequence of hashable labels, equal length
        Reference labels and predictions.
    labels : sequence, optional
        The classes in row and column order (default: sorted union of the labels).
    level, size, method, rng
        As in :func:`interval`.

    Returns
    -------
    Interval

    Examples
    --------
    >>> iv = interval_from_labels("accuracy", list("aabbb"), list("abbbb"), size=500, rng=0)
    >>> iv.estimate
    0.8
    """
    m = confusion_matrix(y_true, y_pred, labels=labels)
    return interval(metric, m, level=level, size=size, method=method, rng=rng)


def paired_interval(
    metric, y_true, pred_a, pred_b, *, level=0.95, size=10_000, labels=None, rng=None
) -> Interval:
    r"""Percentile bootstrap interval of ``metric(A) - metric(B)`` on the same items.

    Items are resampled jointly: each resample is one multinomial draw over the
    ``n**3`` joint cells (true class, prediction of A, prediction of B), and
    both systems' matrices are counted from the same draw. The interval of the
    differences is narrower than what two separate intervals suggest whenever
    the two systems tend to be right and wrong on the same items.

    Parameters
    ----------
    metric : callable or str
        As in :func:`interval`.
    y_true, pred_a, pred_b : sequence of hashable labels, equal length
        Reference labels and the two systems' predictions on the same items.
    level : float, default 0.95
    size : int, default 10_000
    labels : sequence, optional
        The classes (default: sorted union of all labels).
    rng : numpy.random.Generator or int, optional

    Returns
    -------
    Interval
        ``estimate`` is the observed difference A - B.

    Examples
    --------
    >>> y = [0, 0, 1, 1, 2, 2] * 20
    >>> a = [0, 0, 1, 1, 2, 0] * 20
    >>> b = [0, 1, 1, 0, 2, 0] * 20
    >>> iv = paired_interval("accuracy", y, a, b, size=2000, rng=0)
    >>> round(iv.estimate, 3), iv.low > 0
    (0.333, True)
    """
    name, func = resolve_metric(metric)
    level, size = rs.check_level(level), rs.check_size(size)
    rows, counts, n, _ = pair_patterns(y_true, pred_a, pred_b, labels)
    return paired_intervals({name: func}, rows, counts, n, level, size, rng)[name]


def system_matrices(rows: np.ndarray, counts: np.ndarray, n: int):
    """Both systems' observed count matrices from the joint patterns."""
    t, a, b = rows
    return tuple(np.bincount(p * n + t, counts, n * n).reshape(n, n) for p in (a, b))


def paired_intervals(funcs: dict, rows, counts, n, level, size, rng) -> dict:
    """Paired percentile intervals of A - B for several metrics from one joint resample."""
    t, a, b = rows
    maps = [rs.cell_index(a, t, n), rs.cell_index(b, t, n)]
    drawn_a, drawn_b = multinomial_values(funcs, counts, maps, n, size, np.random.default_rng(rng))
    m_a, m_b = system_matrices(rows, counts, n)
    out = {}
    for name, func in funcs.items():
        estimate = score(func, m_a) - score(func, m_b)
        (values_a, undefined_a), (values_b, undefined_b) = drawn_a[name], drawn_b[name]
        undefined = undefined_a | undefined_b
        observed = not (undefined_on(func, m_a) or undefined_on(func, m_b))
        low, high, share = defined_bounds(
            values_a - values_b, undefined, estimate, level, "percentile", observed=observed
        )
        # A difference of two scores in [0, 1] lies in [-1, 1]; of kappa or MCC in [-2, 2].
        reach = 2.0 if name in ("kappa", "mcc") else 1.0
        iv = Interval(estimate, low, high, level, "percentile", share)
        out[name] = centred_on_estimate(iv, -reach, reach)
    return out


def permutation_pvalues(funcs: dict, rows, counts, n, size, rng) -> dict:
    """Swap-test p-values of A - B for several metrics from one set of random swaps."""
    m_a, m_b = system_matrices(rows, counts, n)
    swap_a, swap_b = swapped_values(funcs, rows, counts, n, size, np.random.default_rng(rng))
    out = {}
    for name, func in funcs.items():
        observed = score(func, m_a) - score(func, m_b)
        diffs = swap_a[name][0] - swap_b[name][0]
        # A relative tolerance, so that swaps reproducing the observed split count as ties.
        as_extreme = np.abs(diffs) >= abs(observed) * (1 - 1e-9) - 1e-12
        out[name] = float((1 + np.count_nonzero(as_extreme)) / (1 + size))
    return out


def permutation_test(
    metric, y_true, pred_a, pred_b, *, size=10_000, labels=None, rng=None
) -> float:
    r"""Two-sided p-value of the paired permutation (swap) test of ``metric(A) - metric(B)``.

    Under the null hypothesis that the two systems are exchangeable, each
    item's two predictions are equally likely to have come from either system.
    Each permutation swaps them with probability 1/2, independently per item:
    for a joint cell (true ``t``, A says ``a``, B says ``b``) with ``a != b``
    holding ``c`` items, a ``Binomial(c, 1/2)`` number of them change sides. The
    p-value is :math:`(1 + \#\{|d^*| \ge |d|\}) / (1 + \text{size})`, which never
    returns 0 (Phipson & Smyth 2010).

    Parameters
    ----------
    metric : callable or str
        As in :func:`interval`.
    y_true, pred_a, pred_b : sequence of hashable labels, equal length
    size : int, default 10_000
        Number of random permutations.
    labels : sequence, optional
    rng : numpy.random.Generator or int, optional

    Returns
    -------
    float
        The p-value, in ``(0, 1]``.

    Examples
    --------
    >>> y = [0, 1] * 50
    >>> permutation_test("accuracy", y, y, y, size=200, rng=0)
    1.0
    """
    name, func = resolve_metric(metric)
    size = rs.check_size(size)
    rows, counts, n, _ = pair_patterns(y_true, pred_a, pred_b, labels)
    return permutation_pvalues({name: func}, rows, counts, n, size, rng)[name]
