"""Sampling confusion matrices from a classifier's behaviour, vectorised over many data sets.

Convention: the returned ``m[..., i, j]`` counts items predicted ``i`` whose
true class is ``j`` (rows = predictions, columns = reference).
"""

from __future__ import annotations

import numpy as np

from .._base.checks import as_confusion, reject_masked
from ..metrics import resolve_metric
from ._bootstrap import (
    acceleration,
    cell_index,
    check_level,
    check_size,
    defined_bounds_of_sets,
    joint_codes,
    multinomial_matrices,
    patterns,
    undefined_mask,
)


def _distribution(p, name: str, n: int | None = None) -> np.ndarray:
    reject_masked(p, name, "values")
    try:
        arr = np.asarray(p, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be numbers; got {p!r}") from None
    if arr.ndim < 1 or arr.shape[-1] < 2:
        raise ValueError(
            f"{name} needs probabilities for at least 2 classes; got shape {arr.shape}"
        )
    if n is not None and arr.shape[-1] != n:
        raise ValueError(f"{name} must have {n} entries per distribution; got shape {arr.shape}")
    if not np.isfinite(arr).all() or (arr < 0).any():
        raise ValueError(f"{name} must be finite and non-negative; got {arr}")
    if not np.allclose(arr.sum(axis=-1), 1.0):
        raise ValueError(f"{name} must sum to 1; sums are {arr.sum(axis=-1)}")
    return arr


def sample_confusion(prevalence, conditional, n_items: int, size=None, rng=None) -> np.ndarray:
    r"""Draw data sets of ``n_items`` and count a classifier's predictions on them.

    True classes are drawn from ``prevalence``; an item of true class ``j`` is
    predicted as ``i`` with probability ``conditional[i, j]``
    :math:`= \mathcal{P}(f \to i \mid c = j)`.

    Parameters
    ----------
    prevalence : array_like, shape (n,)
        Class distribution of the data; sums to 1.
    conditional : array_like, shape (n, n)
        Column-stochastic matrix: column ``j`` is the prediction distribution
        for items of true class ``j`` (each column sums to 1).
    n_items : int
        Items per data set.
    size : int or tuple of int, optional
        Number (shape) of data sets; ``None`` draws one matrix.
    rng : numpy.random.Generator or int, optional
        Random source or seed.

    Returns
    -------
    ndarray of int64, shape ``size + (n, n)``

    Examples
    --------
    >>> m = sample_confusion([0.5, 0.5], [[0.9, 0.2], [0.1, 0.8]], 1000, size=3, rng=0)
    >>> m.shape, m.sum(axis=(-2, -1)).tolist()
    ((3, 2, 2), [1000, 1000, 1000])
    """
    prev = _distribution(prevalence, "prevalence")
    if prev.ndim != 1:
        raise ValueError(f"prevalence must have shape (n,); got {prev.shape}")
    n = prev.shape[0]
    reject_masked(conditional, "conditional", "values")
    cond = np.asarray(conditional, dtype=np.float64)
    if cond.shape != (n, n):
        raise ValueError(f"conditional must have shape ({n}, {n}); got {cond.shape}")
    cond_t = _distribution(cond.T, "each column of conditional", n)
    if isinstance(n_items, bool) or not isinstance(n_items, (int, np.integer)) or n_items < 1:
        raise ValueError(f"n_items must be a positive integer; got {n_items!r}")
    rng = np.random.default_rng(rng)
    shape = () if size is None else tuple(np.atleast_1d(size).tolist())
    true_counts = rng.multinomial(n_items, prev, size=shape)  # shape + (n,)
    # For true class j, split its items over the predicted classes with column j.
    by_true = rng.multinomial(true_counts, cond_t)  # shape + (n_true, n_pred)
    return np.swapaxes(by_true, -1, -2).astype(np.int64)


def random_classifier(prevalence, prediction, n_items: int, size=None, rng=None) -> np.ndarray:
    """Counts of a chance classifier: predictions drawn from ``prediction`` whatever the truth.

    Parameters
    ----------
    prevalence : array_like, shape (n,)
        Class distribution of the data.
    prediction : array_like, shape (n,)
        The classifier's prediction distribution (uniform, prevalence-informed, ...).
    n_items, size, rng
        As in :func:`sample_confusion`.

    Returns
    -------
    ndarray of int64, shape ``size + (n, n)``

    Examples
    --------
    >>> random_classifier([0.95, 0.05], [0.5, 0.5], 1000, size=2, rng=1).shape
    (2, 2, 2)
    """
    pred = _distribution(prediction, "prediction")
    if pred.ndim != 1:
        raise ValueError(f"prediction must have shape (n,); got {pred.shape}")
    conditional = np.repeat(pred[:, None], pred.shape[0], axis=1)
    return sample_confusion(prevalence, conditional, n_items, size=size, rng=rng)


def bootstrap(m, size, rng=None) -> np.ndarray:
    """Resample the items of one test set with replacement, ``size`` times.

    Each resampled test set has the same number of items as ``m`` and draws
    every item independently from the cells of ``m`` in proportion to their
    counts: a multinomial over the ``n * n`` cells. Metrics of the returned
    stack give the bootstrap distribution of a score on this test set.

    Parameters
    ----------
    m : array_like of non-negative integers, shape (n, n)
        Counts; ``m[i, j]`` = items predicted ``i`` whose true class is ``j``.
    size : int or tuple of int
        Number (shape) of resampled test sets.
    rng : numpy.random.Generator or int, optional
        Random source or seed.

    Returns
    -------
    ndarray of int64, shape ``size + (n, n)``

    Examples
    --------
    >>> b = bootstrap([[50, 5], [10, 35]], 4, rng=0)
    >>> b.shape, b.sum(axis=(-2, -1)).tolist()
    ((4, 2, 2), [100, 100, 100, 100])
    """
    arr = as_confusion(m)
    if arr.ndim != 2:
        raise ValueError(f"bootstrap resamples one test set (n, n); got shape {arr.shape}")
    if not np.all(arr == np.round(arr)):
        raise ValueError("bootstrap resamples items: m must hold whole-number counts")
    n = arr.shape[0]
    total = int(arr.sum())
    rng = np.random.default_rng(rng)
    shape = tuple(np.atleast_1d(size).tolist())
    draws = rng.multinomial(total, arr.ravel() / total, size=shape)
    return draws.reshape(*shape, n, n).astype(np.int64)


def paired_bootstrap(y_true, predictions, size: int, labels=None, rng=None) -> np.ndarray:
    """Resample the items of one test set and count every system's matrix on each resample.

    All systems are counted on the *same* resampled items, so differences
    between their scores are paired: the spread of the differences is not
    inflated by comparing different test sets. The items are resampled through
    their joint cells (true class and every system's prediction): one
    multinomial draw over the distinct joint cells per resample, so the cost
    does not grow with the number of items.

    Parameters
    ----------
    y_true : sequence of hashable labels, length N
        Reference labels of the test set.
    predictions : sequence of label sequences, each of length N
        One prediction vector per system.
    size : int
        Number of resampled test sets.
    labels : sequence, optional
        The classes, in row and column order (default: sorted union of all labels).
    rng : numpy.random.Generator or int, optional

    Returns
    -------
    ndarray of int64, shape ``(size, len(predictions), n, n)``
        ``out[b, k, i, j]`` = items of resample ``b`` that system ``k`` predicted
        ``labels[i]`` and whose true class is ``labels[j]``.

    Examples
    --------
    >>> out = paired_bootstrap(["a", "b", "a", "b"], [["a", "b", "b", "b"], ["a", "a", "a", "b"]],
    ...                        5, rng=0)
    >>> out.shape, out.sum(axis=(-2, -1)).tolist()[0]
    ((5, 2, 2, 2), [4, 4])
    """
    size = check_size(size)
    codes, n, _ = joint_codes(y_true, predictions, labels)
    rows, counts = patterns(codes, n)
    maps = [cell_index(pred, rows[0], n) for pred in rows[1:]]
    stacks = multinomial_matrices(counts, maps, n, size, np.random.default_rng(rng))
    return np.stack(stacks, axis=1)


def coverage(
    metric,
    prevalence,
    conditional,
    n_items: int,
    *,
    sets: int = 500,
    level=0.95,
    size: int = 1000,
    method: str = "percentile",
    rng=None,
) -> float:
    """Share of bootstrap intervals that contain the population value: actual coverage.

    Draws ``sets`` test sets of ``n_items`` from a classifier's behaviour (as in
    :func:`sample_confusion`), computes the ``level`` interval of ``metric`` on
    each from ``size`` resamples, and counts how often it contains the population value,
    the metric of the expected matrix ``prevalence[j] * conditional[i, j]``. The
    interval is the one :func:`clfmetrics.inference.interval` computes, for all test
    sets at once: where a resample leaves the metric at 0/0 (a class never predicted)
    it is left out and the ends come from the defined resamples, so the coverage is
    that of the procedure a reader calls, undefined resamples included.

    Parameters
    ----------
    metric : callable or str
        A metric of the library or its name in ``clfmetrics.METRICS``.
    prevalence, conditional
        The population, as in :func:`sample_confusion`.
    n_items : int
        Items per test set.
    sets : int, default 500
        Number of simulated test sets; the result's standard error is about
        ``sqrt(level * (1 - level) / sets)``.
    level : float, default 0.95
    size : int, default 1000
        Resamples per test set.
    method : {"percentile", "bca"}, default "percentile"
    rng : numpy.random.Generator or int, optional

    Returns
    -------
    float
        The actual coverage, to compare with the nominal ``level``.

    Examples
    --------
    >>> c = coverage("accuracy", [0.5, 0.5], [[0.9, 0.2], [0.1, 0.8]], 200, sets=200, rng=0)
    >>> 0.85 < c < 1.0
    True
    """
    return coverages(
        metric,
        prevalence,
        conditional,
        n_items,
        sets=sets,
        level=level,
        size=size,
        methods=(method,),
        rng=rng,
    )[method]


def coverages(
    metric,
    prevalence,
    conditional,
    n_items: int,
    *,
    sets: int = 500,
    level=0.95,
    size: int = 1000,
    methods=("percentile", "bca"),
    rng=None,
) -> dict[str, float]:
    """:func:`coverage` of several interval methods on the same test sets and resamples.

    Each method's interval is computed from the same ``size`` resamples of each of
    the same ``sets`` test sets, as a practitioner would compute both from one
    bootstrap; the draws cost the same as for one method.

    Parameters
    ----------
    metric, prevalence, conditional, n_items, sets, level, size, rng
        As in :func:`coverage`.
    methods : sequence of {"percentile", "bca"}, default both

    Returns
    -------
    dict of method -> float
        The actual coverage of each method.

    Examples
    --------
    >>> c = coverages("accuracy", [0.5, 0.5], [[0.9, 0.2], [0.1, 0.8]], 200, sets=200, rng=0)
    >>> sorted(c), all(0.85 < v < 1.0 for v in c.values())
    (['bca', 'percentile'], True)
    """
    _, func = resolve_metric(metric)
    level, size, sets = check_level(level), check_size(size), check_size(sets)
    methods = (methods,) if isinstance(methods, str) else tuple(methods)
    for method in methods:
        if method not in ("percentile", "bca"):
            raise ValueError(f"method must be 'percentile' or 'bca'; got {method!r}")
    if not methods:
        raise ValueError("methods must name at least one method")
    rng = np.random.default_rng(rng)
    tests = sample_confusion(prevalence, conditional, n_items, size=sets, rng=rng)
    population = func(np.asarray(prevalence, dtype=float)[None, :] * np.asarray(conditional))
    hits = {method: np.zeros(sets, dtype=bool) for method in methods}
    # Blocks of test sets keep each (size, block, n, n) stack to a few million numbers;
    # up to a block's worth of sets, the draws are those of one resample_sets call.
    n = tests.shape[-1]
    step = max(1, _SET_BLOCK // (size * n * n))
    for start in range(0, sets, step):
        block = slice(start, min(start + step, sets))
        stack = resample_sets(tests[block], size, rng)
        ends = set_intervals(func, tests[block], stack, level, methods)
        for method, (low, high) in ends.items():
            hits[method][block] = (low <= population) & (population <= high)
    return {method: float(hit.mean()) for method, hit in hits.items()}


#: Numbers of resampled matrices held at once by :func:`coverages`.
_SET_BLOCK = 2**22


def resample_sets(tests: np.ndarray, size: int, rng) -> np.ndarray:
    """``size`` resamples of each of a stack of test sets ``(sets, n, n)`` of equal size.

    Returns ``(size, sets, n, n)``: ``out[:, k]`` resamples the items of ``tests[k]``.
    """
    sets, n = tests.shape[0], tests.shape[-1]
    n_items = int(tests[0].sum())
    # One multinomial per test set and resample: pvals broadcast over the test sets.
    cells = tests.reshape(sets, n * n) / n_items
    return rng.multinomial(n_items, cells, size=(size, sets)).reshape(size, sets, n, n)


def set_intervals(func, tests: np.ndarray, stack: np.ndarray, level, methods) -> dict:
    """The ends :func:`~clfmetrics.inference.interval` gives each test set from its resamples.

    ``stack[:, k]`` are the resamples of ``tests[k]``. As in ``interval``, the ends of a
    test set are computed among the resamples where the metric is defined (a 0/0 that
    ``zero_division`` filled is left out), unless it is undefined on the test set
    itself. Returns ``{method: (low, high)}``, each of shape ``(sets,)``.
    """
    estimates = func(tests)
    values = func(stack)
    undefined = undefined_mask(func, stack, values)
    observed = ~undefined_mask(func, tests, estimates)
    out = {}
    for method in methods:
        acc = acceleration(func, tests.astype(float)) if method == "bca" else 0.0
        out[method] = defined_bounds_of_sets(
            values, undefined, estimates, level, method, acc, observed=observed
        )
    return out
