"""A screening task with one measurement, for the chapter "Scores and thresholds".

The population: each item has a measurement ``x ~ N(0, 1)`` and is positive with
probability ``sigmoid(INTERCEPT + SLOPE * x)``, about one item in five. The model is
logistic regression of the label on ``x``, fitted by maximum likelihood on a training
part; it reports its probability rounded to two decimals, so many items share a score,
as in practice. The model family contains the population's rule, so its probabilities
are calibrated up to the error of two estimated coefficients.

A labelled data set is cut at random into training, validation and test parts
(:func:`split_indices`). :func:`split_sweeps` repeats the cut for many seeds, fits one
model per cut and returns the threshold sweeps of its validation and test parts as
stacks on one shared grid of thresholds, so that a metric scores every cut and every
threshold in one call.

Convention: ``m[i, j]`` = items predicted ``i`` whose true class is ``j``, class order
(negative, positive), so ``m = [[TN, FN], [FP, TP]]``.
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "INTERCEPT",
    "SLOPE",
    "THRESHOLDS",
    "band_coverage",
    "fit_logistic_1d",
    "grid_population",
    "grid_stack",
    "screening_data",
    "screening_scores",
    "split_indices",
    "split_sweeps",
    "threshold_coverage",
    "validation_choice",
]

INTERCEPT, SLOPE = -2.2, 2.0

#: The thresholds of every grid sweep: ``+inf`` (nothing positive), then 1.00, 0.99, ..., 0.00.
THRESHOLDS = np.concatenate([[np.inf], np.arange(100, -1, -1) / 100])


def _sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


def screening_data(n_items: int, *, rng=None) -> tuple[np.ndarray, np.ndarray]:
    """Draw ``n_items`` items of the population: measurements ``x`` and labels ``y`` (0/1).

    Parameters
    ----------
    n_items : int
    rng : numpy.random.Generator or int, optional

    Returns
    -------
    x : ndarray of float, shape (n_items,)
    y : ndarray of int, shape (n_items,)
        1 with probability ``sigmoid(INTERCEPT + SLOPE * x)``.
    """
    if int(n_items) != n_items or n_items < 1:
        raise ValueError(f"n_items must be a positive whole number; got {n_items!r}")
    rng = np.random.default_rng(rng)
    x = rng.normal(size=int(n_items))
    y = (rng.random(int(n_items)) < _sigmoid(INTERCEPT + SLOPE * x)).astype(int)
    return x, y


def split_indices(n_items: int, sizes, *, rng=None) -> tuple[np.ndarray, ...]:
    """Cut the items ``0 .. n_items - 1`` at random into disjoint parts of the given sizes.

    Parameters
    ----------
    n_items : int
    sizes : sequence of int
        Size of each part, e.g. ``(1000, 1000, 1000)`` for training, validation and test;
        the sizes may sum to less than ``n_items`` (the rest is unused).
    rng : numpy.random.Generator or int, optional
        Random source or seed of the cut.

    Returns
    -------
    tuple of ndarray of int
        One sorted index array per part.
    """
    sizes = [int(s) for s in sizes]
    if any(s < 1 for s in sizes) or sum(sizes) > n_items:
        raise ValueError(f"sizes must be positive and sum to at most {n_items}; got {sizes}")
    order = np.random.default_rng(rng).permutation(n_items)
    cuts = np.cumsum(sizes)[:-1]
    return tuple(np.sort(part) for part in np.split(order[: sum(sizes)], cuts))


def fit_logistic_1d(x, y, *, iterations: int = 25) -> tuple[np.ndarray, np.ndarray]:
    r"""Maximum-likelihood logistic regression of ``y`` on one feature, for many data sets.

    Newton's method on the log-likelihood, vectorised over the leading axes: each row of
    ``x`` and ``y`` is its own data set. No penalty (scikit-learn's
    ``LogisticRegression(C=np.inf)``).

    Parameters
    ----------
    x, y : array_like of shape (..., N)
        Measurements and 0/1 labels; each data set needs both labels and overlapping
        classes (otherwise the maximum likelihood is at infinity).
    iterations : int
        Most Newton steps; they stop earlier once no coefficient moves by 1e-12.

    Returns
    -------
    intercept, slope : ndarray of shape (...)
    """
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if x.shape != y.shape or x.shape[-1] < 2:
        raise ValueError(
            f"x and y must have the same shape (..., N >= 2); got {x.shape}, {y.shape}"
        )
    w = np.zeros((*x.shape[:-1], 2))
    for _ in range(iterations):  # Newton steps, each vectorised over all data sets
        p = _sigmoid(w[..., :1] + w[..., 1:] * x)
        r, v = y - p, p * (1 - p)
        g0, g1 = r.sum(-1), (r * x).sum(-1)
        h00, h01, h11 = v.sum(-1), (v * x).sum(-1), (v * x * x).sum(-1)
        det = h00 * h11 - h01 * h01
        step = np.stack([h11 * g0 - h01 * g1, h00 * g1 - h01 * g0], axis=-1) / det[..., None]
        w += step
        if np.all(np.abs(step) < 1e-12):
            break
    return w[..., 0], w[..., 1]


def screening_scores(intercept, slope, x) -> np.ndarray:
    """The model's probability of "positive", rounded to two decimals (one score per item)."""
    intercept, slope = np.asarray(intercept)[..., None], np.asarray(slope)[..., None]
    return np.round(_sigmoid(intercept + slope * np.asarray(x, dtype=float)), 2)


def grid_stack(y, scores) -> np.ndarray:
    """Threshold sweeps on the grid :data:`THRESHOLDS`, for one or many sets of items.

    Predict positive where ``score >= t``; scores must be multiples of 0.01 in [0, 1].

    Parameters
    ----------
    y : array_like of 0/1, shape (..., N)
    scores : array_like, shape (..., N)

    Returns
    -------
    ndarray of int64, shape (..., 102, 2, 2)
        ``[..., k]`` = ``[[TN, FN], [FP, TP]]`` at ``THRESHOLDS[k]``. For one set these
        are :func:`clfmetrics.scores.threshold_stack`'s matrices, repeated at grid
        thresholds that no score equals.
    """
    y, s = np.asarray(y), np.asarray(scores, dtype=float)
    level = np.rint(s * 100)
    if y.shape != s.shape or not np.all((level >= 0) & (level <= 100)):
        raise ValueError("y and scores must have the same shape, scores in [0, 1]")
    if not np.allclose(level, s * 100, atol=1e-6):
        raise ValueError("scores must be multiples of 0.01 (the model's two decimals)")
    lead = int(np.prod(y.shape[:-1], dtype=int))
    row = np.repeat(np.arange(lead), y.shape[-1])
    # Count (set, score level, class) cells in one bincount, then sweep from the top level.
    cell = (row * 101 + (100 - level.ravel().astype(int))) * 2 + y.ravel().astype(int)
    counts = np.bincount(cell, minlength=lead * 202).reshape(lead, 101, 2)
    above = np.concatenate([np.zeros((lead, 1, 2), np.int64), np.cumsum(counts, axis=1)], 1)
    total = above[:, -1:, :]
    stack = np.stack([total - above, above], axis=2)  # [.., predicted, true]
    return stack.reshape((*y.shape[:-1], 102, 2, 2))


def split_sweeps(x, y, sizes, n_splits: int, *, rng=None) -> tuple[np.ndarray, np.ndarray]:
    """Repeat the random cut of one data set, fit a model per cut, sweep validation and test.

    Parameters
    ----------
    x, y : array_like of shape (N,)
        The labelled data set (measurements and 0/1 labels).
    sizes : (int, int, int)
        Sizes of the training, validation and test parts.
    n_splits : int
        Number of seeded cuts.
    rng : numpy.random.Generator or int, optional

    Returns
    -------
    val_stacks, test_stacks : ndarray of int64, shape (n_splits, 102, 2, 2)
        The grid sweeps (:func:`grid_stack`) of the validation and the test part of each cut.
    """
    x, y = np.asarray(x, dtype=float), np.asarray(y)
    if len(sizes) != 3:
        raise ValueError(f"sizes must give training, validation and test sizes; got {sizes}")
    sizes = [int(k) for k in sizes]
    if int(n_splits) < 1 or min(sizes) < 1 or sum(sizes) > len(x):
        raise ValueError(f"need n_splits >= 1 and positive sizes summing to at most {len(x)}")
    # One random permutation per cut (the order of random keys), all cuts at once.
    order = np.argsort(np.random.default_rng(rng).random((int(n_splits), len(x))), axis=1)
    train, val, test = np.split(order[:, : sum(sizes)], np.cumsum(sizes)[:-1], axis=1)
    intercept, slope = fit_logistic_1d(x[train], y[train])
    return (
        grid_stack(y[val], screening_scores(intercept, slope, x[val])),
        grid_stack(y[test], screening_scores(intercept, slope, x[test])),
    )


def validation_choice(metric, val_stacks, test_stacks) -> tuple[np.ndarray, np.ndarray]:
    """The honest and the tuned-on-test score of each cut.

    Parameters
    ----------
    metric : callable
        Maps a stack ``(..., 2, 2)`` to one value per matrix.
    val_stacks, test_stacks : ndarray of shape (S, K, 2, 2)

    Returns
    -------
    honest : ndarray of shape (S,)
        The test score at the threshold that maximises the metric on validation (the
        highest such threshold, as :func:`clfmetrics.scores.best_threshold` chooses).
    tuned : ndarray of shape (S,)
        The largest test score over all thresholds: what tuning on the test set reports.
    """
    on_val = np.asarray(metric(val_stacks), dtype=float)
    on_test = np.asarray(metric(test_stacks), dtype=float)
    if on_val.shape != val_stacks.shape[:2] or on_test.shape != test_stacks.shape[:2]:
        raise ValueError("metric must return one value per matrix of the stacks")
    k = np.nanargmax(np.where(np.isnan(on_val), -np.inf, on_val), axis=1)
    honest = np.take_along_axis(on_test, k[:, None], axis=1)[:, 0]
    return honest, np.nanmax(on_test, axis=1)


def grid_population(intercept, slope, *, points: int = 200_001) -> np.ndarray:
    """The population's confusion matrices, as proportions, of one fitted model on the grid.

    Items come from the population (``x ~ N(0, 1)``, positive with probability
    ``sigmoid(INTERCEPT + SLOPE * x)``); the model scores ``screening_scores(intercept,
    slope, x)``. The masses are integrals over ``x`` by the rectangle rule on ``points``
    points of ``[-8, 8]``.

    Returns
    -------
    ndarray of float, shape (102, 2, 2)
        ``[k]`` = the expected ``[[TN, FN], [FP, TP]]`` shares at ``THRESHOLDS[k]``.
    """
    x = np.linspace(-8.0, 8.0, points)
    weight = np.exp(-(x**2) / 2) / np.sqrt(2 * np.pi) * (x[1] - x[0])
    positive = _sigmoid(INTERCEPT + SLOPE * x)
    level = 100 - np.rint(screening_scores(intercept, slope, x) * 100).astype(int)
    mass = np.stack(
        [
            np.bincount(level, weight * (1 - positive), 101),
            np.bincount(level, weight * positive, 101),
        ],
        axis=1,
    )
    above = np.concatenate([np.zeros((1, 2)), np.cumsum(mass, axis=0)])
    return np.stack([above[-1:] - above, above], axis=1)


def threshold_coverage(
    intercept, slope, n_val: int, n_test: int, *, repetitions: int, size: int, rng=None
) -> dict:
    """How often the two intervals of a tuned threshold's macro F1 contain their targets.

    Each repetition draws a fresh validation part and test part from the population,
    scored by the one fitted model, and computes the test-only interval of the macro F1
    at the threshold chosen on validation (:func:`clfmetrics.inference.interval`) and
    the interval of the whole rule (:func:`clfmetrics.inference.tuned_threshold_interval`),
    each from ``size`` resamples. The targets are the population macro F1 of the chosen
    threshold, ``theta(t_hat)`` (what the deployed classifier does), and its mean over
    validation parts, ``E theta(t_hat)`` (what the recipe does on average), from
    :func:`grid_population` and 4,000 further validation parts.

    Returns
    -------
    dict
        ``"test_only"`` and ``"rule"``, each a dict with the share of repetitions whose
        interval contains ``"deployed"`` (``theta(t_hat)``) and ``"recipe"``
        (``E theta(t_hat)``).
    """
    import clfmetrics as cm

    rng = np.random.default_rng(rng)
    theta = np.asarray(cm.macro_f1(grid_population(intercept, slope)))

    def draw(n, shape=()):
        x = rng.normal(size=(*shape, n))
        y = (rng.random(x.shape) < _sigmoid(INTERCEPT + SLOPE * x)).astype(int)
        return y, screening_scores(intercept, slope, x)

    y_many, s_many = draw(n_val, (4_000,))
    recipe = float(theta[np.argmax(cm.macro_f1(grid_stack(y_many, s_many)), axis=1)].mean())
    hits = {name: {"deployed": 0, "recipe": 0} for name in ("test_only", "rule")}
    for _ in range(int(repetitions)):
        (y_val, s_val), (y_test, s_test) = draw(n_val), draw(n_test)
        rule = cm.tuned_threshold_interval(
            y_val, s_val, y_test, s_test, metric="macro_f1", size=size, rng=rng
        )
        t_hat = rule["threshold"].estimate
        k = 0 if np.isinf(t_hat) else 101 - round(100 * t_hat)
        counts = grid_stack(y_test, s_test)[k]
        ivs = {
            "test_only": cm.interval("macro_f1", counts, size=size, rng=rng),
            "rule": rule["score"],
        }
        for name, iv in ivs.items():
            hits[name]["deployed"] += bool(iv.low <= theta[k] <= iv.high)
            hits[name]["recipe"] += bool(iv.low <= recipe <= iv.high)
    return {
        name: {target: count / int(repetitions) for target, count in row.items()}
        for name, row in hits.items()
    }


def band_coverage(intercept, slope, n_test: int, *, sets: int, size: int, rng=None) -> float:
    """Share of simulated test parts whose simultaneous ROC band holds the population curve.

    Each of ``sets`` test parts of ``n_test`` items is drawn from the population and
    scored by the one fitted model (two decimals, so scores are tied); on each,
    :func:`clfmetrics.inference.roc_band` (sup-t, 101 grid points, ``size``
    resamples) is computed and checked against the model's population ROC curve from
    :func:`grid_population`, read off on the same grid.
    """
    import clfmetrics as cm

    rng = np.random.default_rng(rng)
    pop = grid_population(intercept, slope)
    fpr, tpr = pop[:, 1, 0] / pop[0, 0, 0], pop[:, 1, 1] / pop[0, 0, 1]
    grid = np.linspace(0.0, 1.0, 101)
    true = np.interp(grid, fpr, tpr)
    hits = 0
    for _ in range(int(sets)):
        x = rng.normal(size=int(n_test))
        y = (rng.random(x.size) < _sigmoid(INTERCEPT + SLOPE * x)).astype(int)
        band = cm.roc_band(y, screening_scores(intercept, slope, x), size=size, rng=rng)
        hits += bool(np.all((band.low <= true + 1e-12) & (true <= band.high + 1e-12)))
    return hits / int(sets)
