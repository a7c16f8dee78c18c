"""Multi-class decisions from class probabilities: argmax, Bayes decisions, a prior shift.

A probabilistic classifier outputs a row of class probabilities per item; the
argmax of the row is its prediction, and that step sets the classifier's
**bias** (how often it predicts each class). When the class frequencies of the
deployment data differ from those of the training data, Bayes' rule moves the
probabilities to the new prior (Saerens, Latinne & Decaestecker 2002):

.. math:: p'(k \\mid x) \\propto p(k \\mid x) \\cdot \\frac{\\pi'_k}{\\pi_k}

and the argmax of the corrected rows moves the bias toward the new prevalence.
Column ``k`` always belongs to class ``k`` (``labels[k]``).
"""

from __future__ import annotations

import numpy as np

from .._base.checks import reject_masked
from ._costs import _as_costs


def _as_probabilities(probabilities) -> np.ndarray:
    reject_masked(probabilities, "probabilities", "items")
    try:
        p = np.asarray(probabilities)
    except ValueError as err:
        raise ValueError(f"probabilities is not a rectangular array: {err}") from None
    if p.dtype.kind not in "biuf":
        raise ValueError(f"probabilities must hold numbers; got dtype {p.dtype}")
    if p.ndim != 2 or p.shape[1] < 2 or p.shape[0] == 0:
        raise ValueError(
            f"probabilities must have shape (N, n): one row per item, one column per class, "
            f"N >= 1 and n >= 2; got shape {p.shape}"
        )
    p = p.astype(np.float64, copy=False)
    if not np.isfinite(p).all():
        row = int(np.argwhere(~np.isfinite(p))[0, 0])
        raise ValueError(f"probabilities has a NaN or infinite entry in row {row}")
    if (p < 0).any():
        row = int(np.argwhere(p < 0)[0, 0])
        raise ValueError(f"probabilities has a negative entry in row {row}")
    return p


def _as_prior(prior, n: int, name: str) -> np.ndarray:
    reject_masked(prior, name, "values")
    arr = np.asarray(prior)
    if arr.dtype.kind not in "iuf" or arr.shape != (n,):
        raise ValueError(f"{name} must be {n} numbers, one per class; got {prior!r}")
    arr = arr.astype(np.float64)
    if not np.isfinite(arr).all() or (arr <= 0).any():
        raise ValueError(f"{name} must be positive and finite; got {arr.tolist()}")
    return arr / arr.sum()


def argmax_predictions(probabilities, labels=None) -> np.ndarray:
    """The class of largest probability in each row (the Bayes decision under 0/1 loss).

    Parameters
    ----------
    probabilities : array_like of shape (N, n)
        Non-negative scores, one column per class (rows need not sum to 1).
    labels : sequence of length n, optional
        The class of each column; default the column indices ``0..n-1``.

    Returns
    -------
    ndarray of shape (N,)
        ``labels[argmax(row)]``; of tied columns the first wins, as in ``np.argmax`` and
        scikit-learn's ``predict``.

    Examples
    --------
    >>> argmax_predictions([[0.2, 0.8], [0.6, 0.4]], labels=["ham", "spam"])
    array(['spam', 'ham'], dtype='<U4')
    """
    p = _as_probabilities(probabilities)
    codes = np.argmax(p, axis=1)
    if labels is None:
        return codes
    reject_masked(labels, "labels", "values")
    names = np.asarray(labels)
    if names.shape != (p.shape[1],):
        raise ValueError(f"labels must name the {p.shape[1]} columns; got {labels!r}")
    return names[codes]


def prior_shift(probabilities, old_prior, new_prior) -> np.ndarray:
    r"""Adjust class probabilities to new class frequencies (Saerens et al. 2002).

    .. math:: p'(k \mid x) = \frac{p(k \mid x)\, \pi'_k / \pi_k}
              {\sum_j p(j \mid x)\, \pi'_j / \pi_j}

    Parameters
    ----------
    probabilities : array_like of shape (N, n)
        The model's probabilities ``p(k | x)``, learnt under the prior ``old_prior``.
    old_prior, new_prior : array_like of shape (n,)
        Class frequencies of the training data and of the data the model is applied to;
        positive, normalised here (counts are fine).

    Returns
    -------
    ndarray of shape (N, n)
        Rows sum to 1. Only the ratio ``new_prior / old_prior`` matters.

    Raises
    ------
    ValueError
        For a matrix of the wrong shape, negative or non-finite entries, a row of zeros,
        or priors that are not ``n`` positive numbers.

    Notes
    -----
    The correction assumes that only the class frequencies changed, and that the
    probabilities were calibrated for ``old_prior``. Saerens et al. also estimate an
    unknown new prior by EM; here the new prior is given.

    Examples
    --------
    >>> prior_shift([[0.5, 0.5]], [0.5, 0.5], [0.9, 0.1])
    array([[0.9, 0.1]])
    """
    p = _as_probabilities(probabilities)
    n = p.shape[1]
    ratio = _as_prior(new_prior, n, "new_prior") / _as_prior(old_prior, n, "old_prior")
    weighted = p * ratio
    totals = weighted.sum(axis=1, keepdims=True)
    if (totals <= 0).any():
        row = int(np.argwhere(totals[:, 0] <= 0)[0, 0])
        raise ValueError(f"probabilities row {row} is all zeros: it has no class to reweight")
    return weighted / totals


def bayes_decisions(proba, costs) -> np.ndarray:
    r"""The class of least expected cost for each item (the Bayes decision).

    With calibrated probabilities :math:`p_{kj}` (item :math:`k`, class :math:`j`) and
    ``costs[i, j]`` :math:`= c_{ij}`, the cost of predicting class :math:`i` when the
    truth is :math:`j` (rows = predictions, as ``m[i, j]``), the expected cost of
    predicting :math:`i` is :math:`\sum_j c_{ij}\, p_{kj}`, and the decision is

    .. math:: \hat y_k = \arg\min_i \sum_j c_{ij}\, p_{kj}

    (Elkan 2001). Under 0/1 costs (:math:`c_{ij} = [i \ne j]`) it is the argmax of
    the row (:func:`argmax_predictions`); with unequal costs it moves towards the
    classes whose misses cost more.

    Parameters
    ----------
    proba : array_like of shape (N, n)
        Non-negative class probabilities, one column per class.
    costs : array_like of shape (n, n)
        Finite costs, ``costs[i, j]`` for predicting column ``i`` when the truth is
        column ``j``; a negative cost is a gain.

    Returns
    -------
    ndarray of int, shape (N,)
        The column index of the chosen class; of tied classes the first.

    Raises
    ------
    ValueError
        For probabilities that are not an ``(N, n)`` array of non-negative numbers, or
        costs that are not a finite ``(n, n)`` matrix.

    Examples
    --------
    >>> p = [[0.7, 0.3], [0.9, 0.1]]
    >>> bayes_decisions(p, [[0, 1], [1, 0]]).tolist()  # 0/1 costs: the argmax
    [0, 0]
    >>> bayes_decisions(p, [[0, 5], [1, 0]]).tolist()  # a miss of class 1 costs 5
    [1, 0]
    """
    p = _as_probabilities(proba)
    c = _as_costs(costs)
    if c.shape != (p.shape[1], p.shape[1]):
        raise ValueError(
            f"costs must be a ({p.shape[1]}, {p.shape[1]}) matrix, one row and one column per "
            f"class of proba (rows = predicted, columns = true); got shape {c.shape}"
        )
    return np.argmin(p @ c.T, axis=1)
