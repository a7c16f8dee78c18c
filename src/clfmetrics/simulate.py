"""Sampling confusion matrices from a classifier's behaviour, vectorised over many data sets.

Convention: the returned ``m[..., i, j]`` counts items predicted ``i`` whose
true class is ``j`` (rows = predictions, columns = reference).
"""

from __future__ import annotations

import numpy as np

__all__ = ["random_classifier", "sample_confusion"]


def _distribution(p, name: str, n: int | None = None) -> np.ndarray:
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
