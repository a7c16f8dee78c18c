"""Vectorised searches, constructions and simulations for the accuracy, macro and weighted chapters.

Convention: ``m[i, j]`` is the mass predicted as class ``i`` whose true class
is ``j`` (rows = predictions, columns = reference); an off-diagonal cell holds
errors. Nothing here loops over matrices or items in Python: candidate
matrices form one stack ``(k, n, n)`` and every metric is evaluated on the
whole stack at once.

Contents
--------
- :func:`random_counts`, :func:`all_counts`: stacks of small count matrices to search.
- :func:`error_search`: for every matrix and every off-diagonal cell, the change of
  a metric when one more error lands there (Opitz 2024, property I, discrete form).
- :func:`smallest_rise`: the counterexample with the smallest total count.
- :func:`random_class_items`: macro recall's draw, a random class and then one of its items.
- :func:`bookmaker_net_win`: betting on labels with fair odds (Opitz 2024, section 4.2).
- :func:`precision_gap_construction`: the matrices of footnote 7 whose macro
  precision moves by almost :math:`1 - 1/n` under prevalence scaling.
"""

from __future__ import annotations

from itertools import combinations
from typing import NamedTuple

import numpy as np

from clfmetrics._base.checks import as_confusion
from clfmetrics.metrics._classwise import _bias, _prevalence
from clfmetrics.metrics._confusion import confusion_matrix

from .nonmonotonic import error_gains

__all__ = [
    "ErrorSearch",
    "Rise",
    "all_counts",
    "bookmaker_net_win",
    "error_search",
    "precision_gap_construction",
    "random_class_items",
    "random_counts",
    "smallest_rise",
]


def _check_classes(n) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 2:
        raise ValueError(f"n must be an integer number of classes >= 2; got {n!r}")
    return int(n)


def _all_classes_seen(stack: np.ndarray) -> np.ndarray:
    """True where every class occurs (prevalence > 0) and is predicted (bias > 0)."""
    return (_bias(stack) > 0).all(axis=-1) & (_prevalence(stack) > 0).all(axis=-1)


def random_counts(n: int, size: int, high: int, rng=None) -> np.ndarray:
    """Random ``n x n`` count matrices with entries uniform in ``0 .. high``, every class seen.

    Draws ``size`` matrices and keeps those in which every class occurs and is
    predicted, so that no precision or recall is undefined (a rise found then
    is not an artefact of the 0/0 convention). The result may therefore hold
    fewer than ``size`` matrices.

    Parameters
    ----------
    n : int
        Number of classes (>= 2).
    size : int
        Number of matrices drawn.
    high : int
        Largest entry (>= 1).
    rng : numpy.random.Generator or int, optional
        Random source or seed.

    Returns
    -------
    ndarray of float, shape (k, n, n), ``k <= size``

    Examples
    --------
    >>> random_counts(3, 100, 5, rng=0).shape[1:]
    (3, 3)
    """
    n = _check_classes(n)
    for name, value, low in (("size", size, 1), ("high", high, 1)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
            raise ValueError(f"{name} must be an integer >= {low}; got {value!r}")
    stack = np.random.default_rng(rng).integers(0, high + 1, size=(size, n, n)).astype(float)
    return stack[_all_classes_seen(stack)]


def all_counts(n: int, total: int, *, require_seen: bool = True) -> np.ndarray:
    """Every ``n x n`` count matrix with the given total (by default: every class seen).

    The matrices are the compositions of ``total`` into ``n * n`` non-negative
    parts (stars and bars). With ``require_seen`` (the default) only those in
    which every class occurs and is predicted are kept, so that no class-wise
    precision or recall is undefined.

    Parameters
    ----------
    n : int
        Number of classes (>= 2).
    total : int
        Total count :math:`|S|`; at least 1, and at least ``n`` with ``require_seen``
        (fewer items cannot show every class).
    require_seen : bool, default True
        Keep only matrices with every row sum and every column sum positive.

    Returns
    -------
    ndarray of float, shape (k, n, n)

    Examples
    --------
    >>> all_counts(2, 2).tolist()
    [[[0.0, 1.0], [1.0, 0.0]], [[1.0, 0.0], [0.0, 1.0]]]
    >>> len(all_counts(2, 2, require_seen=False))  # C(2 + 3, 3) compositions
    10
    """
    n = _check_classes(n)
    if not isinstance(require_seen, (bool, np.bool_)):
        raise ValueError(f"require_seen must be True or False; got {require_seen!r}")
    low = n if require_seen else 1
    if isinstance(total, bool) or not isinstance(total, (int, np.integer)) or total < low:
        need = f"n = {n}" if require_seen else "1"
        raise ValueError(f"total must be an integer >= {need}; got {total!r}")
    cells = n * n
    # Bar positions among total + cells - 1 slots; the gaps between bars are the counts.
    bars = np.array(list(combinations(range(total + cells - 1), cells - 1)), dtype=np.int64)
    edges = np.concatenate(
        [np.full((len(bars), 1), -1), bars, np.full((len(bars), 1), total + cells - 1)], axis=1
    )
    stack = (np.diff(edges, axis=1) - 1).reshape(-1, n, n).astype(float)
    return stack[_all_classes_seen(stack)] if require_seen else stack


class ErrorSearch(NamedTuple):
    """Result of :func:`error_search` for one metric over a stack of matrices."""

    gains: np.ndarray
    """``metric(m + e_ij) - metric(m)``, shape (k, n, n); the diagonal is set to NaN."""
    rises: np.ndarray
    """True where an error (``i != j``) raises the metric by more than ``tol``; (k, n, n)."""
    matrix_rate: float
    """Share of matrices with at least one rising error."""
    cell_rate: float
    """Share of (matrix, off-diagonal cell) pairs whose error raises the metric."""
    max_gain: float
    """Largest change caused by one error over the whole search (<= 0 for a monotone metric)."""


def error_search(metric, stack, *, tol: float = 1e-12) -> ErrorSearch:
    """Add one error to every off-diagonal cell of every matrix and record the metric's change.

    Parameters
    ----------
    metric : callable
        A vectorised metric of this library, e.g. :func:`clfmetrics.weighted_f1`.
    stack : array_like, shape (k, n, n)
        Matrices to search; ``m[i, j]`` = predicted ``i``, true ``j``.
    tol : float, default 1e-12
        Gains up to ``tol`` count as rounding, not as a rise.

    Returns
    -------
    ErrorSearch

    Examples
    --------
    >>> import clfmetrics as cm
    >>> error_search(cm.accuracy, [[[3, 1], [1, 2]]]).max_gain < 0
    True
    """
    stack = as_confusion(stack, name="stack")
    if stack.ndim != 3:
        raise ValueError(f"stack must have shape (k, n, n); got {stack.shape}")
    if isinstance(tol, bool) or not np.isfinite(tol) or tol < 0:
        raise ValueError(f"tol must be a non-negative finite number; got {tol!r}")
    n = stack.shape[-1]
    off = ~np.eye(n, dtype=bool)
    gains = np.where(off, error_gains(metric, stack), np.nan)
    rises = np.where(off, gains > tol, False)
    return ErrorSearch(
        gains=gains,
        rises=rises,
        matrix_rate=float(rises.any(axis=(-2, -1)).mean()),
        cell_rate=float(rises[:, off].mean()),
        max_gain=float(gains[:, off].max()),
    )


class Rise(NamedTuple):
    """One counterexample: adding an error in cell ``(i, j)`` of ``before`` raises the metric."""

    before: np.ndarray
    after: np.ndarray
    cell: tuple[int, int]
    gain: float


def smallest_rise(metric, stack, *, tol: float = 1e-12) -> Rise | None:
    """The matrix with the smallest total in which one error raises ``metric``.

    Among matrices of that total, the one with the largest rise is returned
    (the most visible counterexample); ``None`` when no error raises the metric.

    Parameters
    ----------
    metric : callable
        A vectorised metric of this library.
    stack : array_like, shape (k, n, n)
        Matrices to search; ``m[i, j]`` = predicted ``i``, true ``j``.
    tol : float, default 1e-12
        Gains up to ``tol`` count as rounding.

    Returns
    -------
    Rise or None

    Examples
    --------
    >>> import clfmetrics as cm
    >>> smallest_rise(cm.weighted_f1, all_counts(2, 5)).cell
    (0, 1)
    """
    found = error_search(metric, stack, tol=tol)
    hit = found.rises.any(axis=(-2, -1))
    if not hit.any():
        return None
    stack = np.asarray(stack, dtype=float)
    totals = np.where(hit, stack.sum(axis=(-2, -1)), np.inf)
    best_gain = np.where(found.rises, found.gains, -np.inf).max(axis=(-2, -1))
    candidates = np.flatnonzero(totals == totals.min())
    k = candidates[np.argmax(best_gain[candidates])]
    i, j = np.unravel_index(
        np.argmax(np.where(found.rises[k], found.gains[k], -np.inf)), stack.shape[1:]
    )
    after = stack[k].copy()
    after[i, j] += 1
    return Rise(
        before=stack[k].copy(), after=after, cell=(int(i), int(j)), gain=float(found.gains[k, i, j])
    )


def bookmaker_net_win(y_true, y_pred, labels=None) -> float:
    r"""Net win of betting one coin on every prediction at fair odds (Opitz 2024, section 4.2).

    A bet on item ``s`` wins :math:`odds(c) = |S|/prevalence(c)` coins when the
    prediction equals the true class ``c`` and nothing otherwise; every bet costs
    one coin. The win is computed from the label vectors item by item
    (vectorised), not from the macro recall formula, so it can be compared with
    :math:`|S|(n \cdot macR - 1)`.

    Parameters
    ----------
    y_true, y_pred : sequence of labels, equal length
        Reference labels and predictions.
    labels : sequence, optional
        The classes; default the sorted labels that occur. Every class must occur in ``y_true``.

    Returns
    -------
    float

    Examples
    --------
    >>> bookmaker_net_win(["a", "a", "b", "b"], ["a", "b", "b", "b"])
    2.0
    """
    yt, yp = np.asarray(y_true), np.asarray(y_pred)
    confusion_matrix(yt, yp, labels=labels)  # validates lengths, labels and class count
    names = np.union1d(yt, yp) if labels is None else np.asarray(list(labels))
    order = np.argsort(names, kind="stable")
    true_code = order[np.searchsorted(names[order], yt)]
    prevalence_of = np.bincount(true_code, minlength=len(names))
    if (prevalence_of == 0).any():
        raise ValueError(
            "every class must occur in y_true: the fair odds |S|/prevalence need prevalence > 0"
        )
    odds = len(yt) / prevalence_of[true_code]
    return float(np.sum((yt == yp) * odds) - len(yt))


def random_class_items(y_true, size: int, rng=None) -> np.ndarray:
    """Indices of items drawn by macro recall's experiment: a uniform class, then one of its items.

    Each draw picks one of the classes that occur in ``y_true`` with
    probability :math:`1/n`, then one item of that class uniformly (Opitz 2024,
    section 4.2). The share of draws predicted correctly estimates macro
    recall over those classes. Classes are found with ``np.unique``, so the
    grouping of items, the class sizes and the class codes share one order
    whatever the labels are.

    Parameters
    ----------
    y_true : sequence of labels, shape (N,)
        Reference labels, one per item.
    size : int
        Number of draws.
    rng : numpy.random.Generator or int, optional
        Random source or seed.

    Returns
    -------
    ndarray of int, shape (size,)
        Positions in ``y_true``.

    Examples
    --------
    >>> items = random_class_items(["b", "a", "a", "a"], 1000, rng=0)
    >>> bool(abs((items == 0).mean() - 0.5) < 0.05)  # the lone "b" is drawn half the time
    True
    """
    y = np.asarray(y_true)
    if y.ndim != 1 or len(y) == 0:
        raise ValueError(f"y_true must be a non-empty 1-d sequence of labels; got shape {y.shape}")
    if isinstance(size, bool) or not isinstance(size, (int, np.integer)) or size < 1:
        raise ValueError(f"size must be an integer >= 1; got {size!r}")
    _, code, sizes = np.unique(y, return_inverse=True, return_counts=True)
    grouped = np.argsort(code, kind="stable")  # item positions, class by class
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    gen = np.random.default_rng(rng)
    cls = gen.integers(0, len(sizes), size=size)
    return grouped[starts[cls] + gen.integers(0, sizes[cls])]


def precision_gap_construction(n: int, t) -> tuple[np.ndarray, np.ndarray]:
    r"""The matrix and scaling of Opitz (2024), footnote 7, that move macro precision by almost
    :math:`1 - 1/n`.

    ``m`` has ones on the diagonal and ``t`` in every other cell of the first
    column (many items of class 1 mistaken for the other classes, so their
    precisions are low); ``lam = (1/t**2, 1, ..., 1)`` makes class 1 rare, and
    the other classes' precisions rise to :math:`1/(1 + 1/t)`. The gap is
    exactly :math:`macP(m\lambda) - macP(m) = (1 - 1/n)(t - 1)/(t + 1)`.

    Parameters
    ----------
    n : int
        Number of classes (>= 2).
    t : float or array_like of shape (k,)
        The large number(s), each >= 1; the gap tends to :math:`1 - 1/n` as ``t`` grows.

    Returns
    -------
    m : ndarray, shape (n, n) or (k, n, n)
    lam : ndarray, shape (n,) or (k, n)
        Pass both to :func:`clfmetrics.prevalence_scale`.

    Examples
    --------
    >>> m, lam = precision_gap_construction(2, 3.0)
    >>> m.tolist(), lam.tolist()
    ([[1.0, 0.0], [3.0, 1.0]], [0.1111111111111111, 1.0])
    """
    n = _check_classes(n)
    try:
        t = np.asarray(t, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"t must be a number or a 1-d array of numbers; got {t!r}") from None
    if t.ndim > 1 or not np.isfinite(t).all() or (t < 1).any():
        raise ValueError(f"t must be finite numbers >= 1 (scalar or 1-d); got {t!r}")
    m = np.broadcast_to(np.eye(n), (*t.shape, n, n)).copy()
    m[..., 1:, 0] = t[..., None]
    lam = np.ones((*t.shape, n))
    lam[..., 0] = 1.0 / t**2
    return m, lam
