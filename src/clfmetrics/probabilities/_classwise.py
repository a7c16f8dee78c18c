r"""Class-wise calibration of an ``(N, n)`` probability matrix.

Top-label (confidence) calibration, what :func:`~clfmetrics.probabilities.reliability_curve`
and :func:`~clfmetrics.probabilities.expected_calibration_error` check for a
matrix, asks only whether the *largest* probability of each row is right. A
decision rule that uses every class probability (a threshold per class, a
cost matrix, the prior-shift correction of Saerens et al.) needs every column
calibrated: among the items given probability :math:`p` for class :math:`k`, a
fraction :math:`p` is of class :math:`k` (class-wise calibration, Kull et al.
2019). Here each column is checked as a binary problem "class :math:`k`
against the rest".
"""

from __future__ import annotations

import numpy as np

from ._reliability import _as_bins, _as_proba, _true_columns
from ._reliability import bin_ids as _bin_ids
from ._reliability import bin_sums as _sums
from ._reliability import ece_of as _ece


def _columns(y_true, proba, labels):
    """The checked matrix, the column of each item's true class, and the column labels."""
    p = _as_proba(proba)
    if p.ndim != 2:
        raise ValueError(
            f"proba must be an (N, n) matrix, one column per class; got shape {p.shape} "
            "(for 1-d probabilities the class-wise and the binary check are the same)"
        )
    cols = _true_columns(y_true, p, labels)
    if labels is None:
        labels = np.unique(np.asarray(y_true)).tolist()
    return p, cols, list(labels)


def classwise_reliability(y_true, proba, *, bins=10, strategy="uniform", labels=None) -> dict:
    r"""The reliability diagram of every class's column, as "class :math:`k` against the rest".

    For class :math:`k`, the stated probabilities are column :math:`k` and the
    outcome is :math:`[y_i = k]`; the bins are those of
    :func:`~clfmetrics.probabilities.reliability_curve`, cut on each column.

    Parameters
    ----------
    y_true : array_like of shape (N,)
    proba : array_like of shape (N, n)
        One column per class, rows summing to 1.
    bins, strategy
        As in :func:`~clfmetrics.probabilities.reliability_curve`.
    labels : sequence of length n, optional
        The class of each column; default the sorted classes of ``y_true``.

    Returns
    -------
    dict
        For each class label, the tuple ``(observed, predicted, counts)`` of
        :func:`~clfmetrics.probabilities.reliability_curve` for its column.

    Examples
    --------
    >>> curves = classwise_reliability([0, 1, 2, 2], [[.8, .1, .1], [.2, .7, .1],
    ...                                               [.1, .2, .7], [.3, .3, .4]], bins=2)
    >>> curves[2]
    (array([0.33333333, 1.        ]), array([0.2, 0.7]), array([3, 1]))
    """

    bins = _as_bins(bins, strategy)
    p, cols, labels = _columns(y_true, proba, labels)
    out = {}
    for k, label in enumerate(labels):  # a loop over classes, not items
        counts, hits, stated = _sums(_bin_ids(p[:, k], bins, strategy), p[:, k], cols == k, bins)
        out[label] = (hits / counts, stated / counts, counts)
    return out


def classwise_calibration_error(
    y_true, proba, *, bins=10, strategy="uniform", labels=None, debiased=False
) -> float:
    r"""Class-wise ECE: the mean over classes of each column's ECE (Kull et al. 2019).

    .. math:: \mathrm{cwECE} = \frac1n \sum_{k=1}^{n} \sum_b \frac{n_{kb}}{N}
              \left| \mathrm{observed}_{kb} - \mathrm{predicted}_{kb} \right|,

    each column binned as in :func:`classwise_reliability`. 0 only if every
    column's reliability diagram sits on the diagonal.

    Parameters
    ----------
    y_true, proba, bins, strategy, labels
        As in :func:`classwise_reliability`.
    debiased : bool, default False
        Each column's ECE debiased as in
        :func:`~clfmetrics.probabilities.expected_calibration_error`.

    Returns
    -------
    float

    Examples
    --------
    >>> round(classwise_calibration_error([0, 1, 2, 2], [[.8, .1, .1], [.2, .7, .1],
    ...                                   [.1, .2, .7], [.3, .3, .4]], bins=2), 4)
    0.2
    """
    if not isinstance(debiased, (bool, np.bool_)):
        raise ValueError(f"debiased must be True or False; got {debiased!r}")
    curves = classwise_reliability(y_true, proba, bins=bins, strategy=strategy, labels=labels)
    errors = []
    for observed, predicted, counts in curves.values():
        errors.append(_ece(counts, observed * counts, predicted * counts, debiased))
    return float(np.mean(errors))
