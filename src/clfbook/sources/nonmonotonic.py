"""Searching for non-monotonicity: one more error that raises a metric.

Convention: ``m[i, j]`` is the mass predicted as class ``i`` whose true class
is ``j`` (rows = predictions, columns = reference); an off-diagonal cell holds
errors.

Opitz (2024), property I, discrete form: adding one item to the data must not
raise the score if the item is misclassified (cell ``(i, j)``, ``i != j``) and
must not lower it if it is classified correctly. Here every cell of every
matrix of a stack is tried at once: the stack ``(..., n, n)`` becomes
``(..., n, n, n, n)`` (one copy per cell with one item added) and the metric
is evaluated on it in one vectorised call.
"""

from __future__ import annotations

import numpy as np

from clfmetrics._base.checks import as_confusion

__all__ = ["add_one_item", "error_gains", "raising_errors"]


def _check_metric(metric):
    if not callable(metric):
        raise ValueError(f"metric must be a callable taking a stack of matrices; got {metric!r}")


def _check_tol(tol) -> float:
    if isinstance(tol, bool) or not isinstance(tol, (int, float, np.floating, np.integer)):
        raise ValueError(f"tol must be a non-negative number; got {tol!r}")
    if not np.isfinite(tol) or tol < 0:
        raise ValueError(f"tol must be a non-negative finite number; got {tol!r}")
    return float(tol)


def _with_one_more(m: np.ndarray, amount: float) -> np.ndarray:
    n = m.shape[-1]
    unit = np.eye(n * n).reshape(n, n, n, n)  # unit[i, j] has a single 1 at (i, j)
    return m[..., None, None, :, :] + amount * unit


def add_one_item(m, *, amount: float = 1.0) -> np.ndarray:
    """Every way of adding one item to ``m``: ``out[..., i, j, :, :] = m + amount * e_ij``.

    Parameters
    ----------
    m : array_like, shape (n, n) or (..., n, n)
        Confusion matrix or stack; ``m[i, j]`` = predicted ``i``, true ``j``.
    amount : float, default 1
        Mass of the added item (positive).

    Returns
    -------
    ndarray, shape (..., n, n, n, n)

    Examples
    --------
    >>> add_one_item([[1, 0], [0, 1]])[0, 1]
    array([[1., 1.],
           [0., 1.]])
    """
    m = as_confusion(m)
    if isinstance(amount, bool) or not np.isfinite(amount) or amount <= 0:
        raise ValueError(f"amount must be a positive finite number; got {amount!r}")
    return _with_one_more(m, float(amount))


def error_gains(metric, m, *, amount: float = 1.0) -> np.ndarray:
    """Change of ``metric`` when one item is added to each cell: ``metric(m + e_ij) - metric(m)``.

    Parameters
    ----------
    metric : callable
        A vectorised metric of this library, e.g. :func:`clfmetrics.kappa`.
    m : array_like, shape (n, n) or (..., n, n)
        Confusion matrix or stack; ``m[i, j]`` = predicted ``i``, true ``j``.
    amount : float, default 1
        Mass of the added item.

    Returns
    -------
    ndarray, shape (..., n, n)
        Entry ``[..., i, j]``: the gain from one more item predicted ``i`` with
        true class ``j`` (an error when ``i != j``).

    Examples
    --------
    >>> import clfmetrics as cm
    >>> bool(error_gains(cm.mcc, [[10, 43, 0], [1, 1, 0], [0, 0, 1]])[2, 1] > 0)
    True
    """
    _check_metric(metric)
    stacked = add_one_item(m, amount=amount)
    base = np.asarray(metric(as_confusion(m)), dtype=np.float64)
    return np.asarray(metric(stacked), dtype=np.float64) - base[..., None, None]


def raising_errors(metric, m, *, tol: float = 1e-12) -> np.ndarray:
    """Cells where one more *error* raises ``metric`` by more than ``tol``.

    Such a cell is a counterexample to monotonicity (property I of Opitz 2024).

    Parameters
    ----------
    metric : callable
        A vectorised metric of this library.
    m : array_like, shape (n, n) or (..., n, n)
        Confusion matrix or stack; ``m[i, j]`` = predicted ``i``, true ``j``.
    tol : float, default 1e-12
        Gains up to ``tol`` count as rounding, not as a rise.

    Returns
    -------
    ndarray of bool, shape (..., n, n)
        True at off-diagonal ``(i, j)`` where ``metric(m + e_ij) > metric(m) + tol``;
        the diagonal is always False.

    Examples
    --------
    >>> import clfmetrics as cm
    >>> raising_errors(cm.macro_recall, [[5, 1], [2, 3]]).any()
    np.False_
    """
    tol = _check_tol(tol)
    gains = error_gains(metric, m)
    n = gains.shape[-1]
    return (gains > tol) & ~np.eye(n, dtype=bool)
