r"""Intervals when test items come in groups: the cluster (group) bootstrap.

The bootstrap of :mod:`clfmetrics.inference` assumes independent test items.
Items that share a source — the digits of one writer, the sentences of one
document, the images of one patient — are alike, so a test set of ``N`` such
items carries less information than ``N`` independent ones, and an interval
that resamples items is too narrow. When the groups are known, resample whole
groups instead (Davison & Hinkley 1997, sec. 3.8; Field & Welsh 2007): draw
``G`` groups with replacement from the ``G`` observed ones and add up their
confusion matrices. One resample is a multinomial draw of ``G`` over the
groups, so a stack of resamples is one product of a ``(size, G)`` weight matrix
with the ``(G, n * n)`` stack of per-group matrices.

Convention: ``m[..., i, j]`` = items predicted ``i`` whose true class is ``j``.
"""

from __future__ import annotations

import numpy as np

from ..metrics import resolve_metric
from . import _bootstrap as rs
from ._bootstrap import (
    defined_bounds,
    defined_bounds_of_sets,
    score,
    scores,
    undefined_mask,
    undefined_on,
)
from ._interval import Interval
from ._simulate import _distribution


def _group_stack(group_matrices) -> np.ndarray:
    """``group_matrices`` as a float array ``(G, n, n)`` of whole counts, or a ValueError."""
    try:
        arr = np.asarray(group_matrices, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"group_matrices must be numeric counts; {exc}") from None
    if arr.ndim != 3 or arr.shape[1] != arr.shape[2] or arr.shape[1] < 1:
        raise ValueError(
            "group_matrices must have shape (G, n, n), one confusion matrix per group; "
            f"got shape {arr.shape}"
        )
    if arr.shape[0] < 2:
        raise ValueError(
            f"group_matrices must hold at least 2 groups to resample groups; got {arr.shape[0]}"
        )
    if not np.all(np.isfinite(arr)) or np.any(arr < 0):
        raise ValueError("group_matrices must hold finite, non-negative counts")
    rs.whole_counts(arr, "group_matrices")
    if arr.sum() == 0:
        raise ValueError("group_matrices holds no items: every count is 0")
    return arr


def group_interval(metric, group_matrices, *, level=0.95, size=10_000, rng=None) -> Interval:
    r"""Percentile interval of a metric from resampling whole groups of test items.

    With per-group confusion matrices :math:`m_1, \dots, m_G`, a resampled test
    set is :math:`\sum_g w_g m_g` with weights
    :math:`w \sim \text{Multinomial}(G; 1/G, \dots, 1/G)`: ``G`` groups drawn with
    replacement, each bringing all of its items. The interval runs from the
    :math:`\alpha/2` to the :math:`1 - \alpha/2` quantile of the metric over
    ``size`` such test sets, :math:`\alpha = 1 -` ``level``. With one item per
    group it is the item bootstrap of :func:`clfmetrics.inference.interval`.

    Use it when test items come in known groups (writers, documents, patients,
    recording sessions) and the claim is about new groups. It needs enough
    groups: with few, the resampled test sets are too alike and the interval is
    too narrow, as any bootstrap with a small sample is.

    Parameters
    ----------
    metric : callable or str
        A function of a stack of confusion matrices or its name in
        ``clfmetrics.METRICS``.
    group_matrices : array_like of non-negative whole numbers, shape (G, n, n)
        One confusion matrix per group (see :func:`confusion_by_group`),
        ``m[g, i, j]`` = items of group ``g`` predicted ``i`` whose true class is ``j``.
    level : float, default 0.95
        Nominal coverage, strictly between 0 and 1.
    size : int, default 10_000
        Number of resampled test sets.
    rng : numpy.random.Generator or int, optional
        Random source or seed.

    Returns
    -------
    Interval
        ``estimate`` is the metric of the summed matrix; ``method`` is ``"percentile"``.
        As in :func:`clfmetrics.inference.interval`, the ends are computed among the
        resampled test sets where the metric is defined (no 0/0), and ``undefined`` is
        the share of the others (a class never predicted in the groups drawn).

    Raises
    ------
    ValueError
        For an unknown metric, ``group_matrices`` not of shape ``(G, n, n)`` with
        ``G >= 2``, negative, fractional or no counts, ``level`` outside (0, 1)
        or ``size`` < 1.

    Examples
    --------
    >>> groups = [[[8, 1], [2, 9]], [[5, 3], [1, 6]], [[9, 0], [1, 10]]]
    >>> iv = group_interval("accuracy", groups, size=2000, rng=0)
    >>> round(iv.estimate, 4), iv.low <= iv.estimate <= iv.high
    (0.8545, True)
    """
    _, func = resolve_metric(metric)
    arr = _group_stack(group_matrices)
    level, size = rs.check_level(level), rs.check_size(size)
    g, n = arr.shape[0], arr.shape[1]
    flat = arr.reshape(g, n * n)
    rng = np.random.default_rng(rng)
    stack = np.empty((size, n * n))
    # Blocks of resamples bound the (rows, G) weight matrix for many groups.
    for rows in rs._blocks(size, g):
        weights = rng.multinomial(g, np.full(g, 1 / g), size=rows.stop - rows.start)
        stack[rows] = weights @ flat
    m = arr.sum(axis=0)
    estimate = score(func, m)
    stack = stack.reshape(size, n, n)
    values = scores(func, stack)
    undefined = undefined_mask(func, stack, values)
    low, high, share = defined_bounds(
        values, undefined, estimate, level, "percentile", observed=not undefined_on(func, m)
    )
    return Interval(estimate, low, high, level, "percentile", share)


def confusion_by_group(y_true, y_pred, groups, *, labels=None) -> tuple[np.ndarray, list]:
    """One confusion matrix per group of items, for :func:`group_interval`.

    Parameters
    ----------
    y_true, y_pred : sequence of hashable labels, equal length
    groups : sequence of hashable group ids, same length
        The group of each item (writer, document, patient, ...).
    labels : sequence, optional
        Class order of rows and columns; default the sorted labels that occur.

    Returns
    -------
    matrices : ndarray of int64, shape (G, n, n)
        ``matrices[g, i, j]`` = items of group ``g`` predicted ``i`` whose true
        class is ``j``; the groups in sorted order.
    group_ids : list
        The group of each matrix.

    Raises
    ------
    ValueError
        If the vectors differ in length or a label is not in ``labels``.

    Examples
    --------
    >>> m, ids = confusion_by_group([0, 1, 1, 0], [0, 1, 0, 0], ["a", "a", "b", "b"])
    >>> ids, m[1].tolist()
    (['a', 'b'], [[1, 1], [0, 0]])
    """
    codes, n, _ = rs.joint_codes(y_true, [y_pred], labels)
    ids = np.asarray(groups)
    if ids.ndim != 1 or ids.shape[0] != codes.shape[1]:
        raise ValueError(
            f"groups must be one group id per item ({codes.shape[1]} items); got shape {ids.shape}"
        )
    uniq, index = np.unique(ids, return_inverse=True)
    flat = (index * n + codes[1]) * n + codes[0]
    counts = np.bincount(flat, minlength=uniq.size * n * n)
    return counts.reshape(uniq.size, n, n).astype(np.int64), uniq.tolist()


def sample_clustered(
    prevalence,
    conditional,
    n_groups: int,
    items_per_group: int,
    *,
    concentration,
    size=None,
    rng=None,
) -> np.ndarray:
    r"""Draw test sets whose items come in groups that each behave a little differently.

    Each group (a writer, say) gets its own behaviour: column ``j`` of its
    conditional matrix is drawn from
    :math:`\text{Dirichlet}(\kappa \cdot \text{conditional}[:, j])`, with mean
    ``conditional[:, j]``, and its ``items_per_group`` items are drawn as in
    :func:`clfmetrics.inference.sample_confusion` with that behaviour. Small
    ``concentration`` :math:`\kappa` makes groups differ a lot (strongly
    clustered items); as :math:`\kappa \to \infty` the items become independent
    draws from ``prevalence`` and ``conditional``. The population value of a
    metric is, as in :func:`clfmetrics.inference.coverage`, its value on
    ``prevalence[j] * conditional[i, j]``.

    Parameters
    ----------
    prevalence : array_like, shape (n,)
    conditional : array_like, shape (n, n), columns sum to 1
    n_groups, items_per_group : int
        Groups per test set and items per group.
    concentration : float
        Dirichlet concentration :math:`\kappa > 0`.
    size : int or tuple of int, optional
        Number (shape) of test sets; ``None`` draws one.
    rng : numpy.random.Generator or int, optional

    Returns
    -------
    ndarray of int64, shape ``size + (n_groups, n, n)``

    Examples
    --------
    >>> m = sample_clustered([0.5, 0.5], [[0.9, 0.2], [0.1, 0.8]], 4, 25,
    ...                      concentration=10, size=3, rng=0)
    >>> m.shape, m.sum(axis=(-3, -2, -1)).tolist()
    ((3, 4, 2, 2), [100, 100, 100])
    """
    prev = _distribution(prevalence, "prevalence")
    if prev.ndim != 1:
        raise ValueError(f"prevalence must have shape (n,); got {prev.shape}")
    n = prev.shape[0]
    cond = np.asarray(conditional, dtype=np.float64)
    if cond.shape != (n, n):
        raise ValueError(f"conditional must have shape ({n}, {n}); got {cond.shape}")
    cond_t = _distribution(cond.T, "each column of conditional", n)
    for name, value in (("n_groups", n_groups), ("items_per_group", items_per_group)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
            raise ValueError(f"{name} must be a positive integer; got {value!r}")
    try:
        kappa = float(concentration)
    except (TypeError, ValueError):
        kappa = float("nan")
    if not np.isfinite(kappa) or kappa <= 0:
        raise ValueError(f"concentration must be a positive number; got {concentration!r}")
    rng = np.random.default_rng(rng)
    shape = (() if size is None else tuple(np.atleast_1d(size).tolist())) + (n_groups,)
    # Dirichlet draws per group and true class through normalised gammas (vectorised).
    gam = rng.gamma(np.broadcast_to(kappa * cond_t, (*shape, n, n)))
    total = gam.sum(axis=-1, keepdims=True)
    behaviour = np.where(total > 0, gam / np.where(total > 0, total, 1), cond_t)
    true_counts = rng.multinomial(items_per_group, prev, size=shape)  # shape + (n,)
    by_true = rng.multinomial(true_counts, behaviour)  # shape + (n_true, n_pred)
    return np.swapaxes(by_true, -1, -2).astype(np.int64)


def clustered_coverage(
    metric,
    prevalence,
    conditional,
    n_groups: int,
    items_per_group: int,
    *,
    concentration,
    sets: int = 500,
    level=0.95,
    size: int = 1000,
    rng=None,
) -> tuple[float, float]:
    """Actual coverage of the item bootstrap and of the group bootstrap on clustered test sets.

    Draws ``sets`` test sets with :func:`sample_clustered`, computes on each the
    percentile interval that resamples items (:func:`clfmetrics.inference.interval`)
    and the one that resamples groups (:func:`group_interval`), each from
    ``size`` resamples and for many test sets at once (leaving out the resamples where
    the metric is 0/0, as those two functions do), and counts how often each
    contains the population value, the metric of ``prevalence[j] * conditional[i, j]``.

    Parameters
    ----------
    metric : callable or str
    prevalence, conditional, n_groups, items_per_group, concentration
        The clustered population, as in :func:`sample_clustered`.
    sets : int, default 500
        Simulated test sets; each coverage has a standard error of about
        ``sqrt(level * (1 - level) / sets)``.
    level : float, default 0.95
    size : int, default 1000
        Resamples per test set and method.
    rng : numpy.random.Generator or int, optional

    Returns
    -------
    (float, float)
        Coverage of the item interval, then of the group interval.

    Examples
    --------
    >>> items, groups = clustered_coverage("accuracy", [0.5, 0.5], [[0.9, 0.2], [0.1, 0.8]],
    ...                                    20, 20, concentration=2, sets=200, rng=0)
    >>> bool(items < groups)
    True
    """
    _, func = resolve_metric(metric)
    level, size, sets = rs.check_level(level), rs.check_size(size), rs.check_size(sets)
    rng = np.random.default_rng(rng)
    tests = sample_clustered(
        prevalence,
        conditional,
        n_groups,
        items_per_group,
        concentration=concentration,
        size=sets,
        rng=rng,
    )
    n = tests.shape[-1]
    population = func(np.asarray(prevalence, dtype=float)[None, :] * np.asarray(conditional))
    summed = tests.sum(axis=1)
    estimates = func(summed)
    n_items = n_groups * items_per_group
    hits = np.zeros((2, sets), dtype=bool)
    # Blocks of test sets keep the (size, block, n * n) stacks to a few million numbers.
    step = max(1, 2**22 // (size * (n * n + n_groups)))
    for start in range(0, sets, step):
        block = slice(start, min(start + step, sets))
        k = block.stop - block.start
        cells = summed[block].reshape(k, n * n) / n_items
        items = rng.multinomial(n_items, cells, size=(size, k)).reshape(size, k, n, n)
        weights = rng.multinomial(n_groups, np.full(n_groups, 1 / n_groups), size=(size, k))
        flat = tests[block].reshape(k, n_groups, n * n).astype(np.float64)
        groups = np.einsum("bkg,kgc->bkc", weights.astype(np.float64), flat, optimize=True)
        groups = groups.reshape(size, k, n, n)
        # The ends interval and group_interval give: among the defined resamples.
        observed = ~undefined_mask(func, summed[block], estimates[block])
        for row, stack in enumerate((items, groups)):
            values = func(stack)
            low, high = defined_bounds_of_sets(
                values,
                undefined_mask(func, stack, values),
                estimates[block],
                level,
                "percentile",
                observed=observed,
            )
            hits[row, block] = (low <= population) & (population <= high)
    return float(hits[0].mean()), float(hits[1].mean())
