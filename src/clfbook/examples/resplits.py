"""A null comparison of two ways of training over resplits, for the size of the resplit tests.

Two classifiers are equally good by construction: each item has two exchangeable
measurements ``x1, x2 ~ N(0, 1)`` and is positive with probability
``sigmoid(beta * (x1 + x2))``; method A learns a class-mean threshold on ``x1``,
method B the same on ``x2``. Their expected accuracies are therefore equal at every
training size, and any test of "A and B train equally well" should reject at its
nominal rate. :func:`resplit_rejections` draws data sets, resplits each ``splits``
times into a training and a test part, and counts how often the corrected resampled
t-test (:func:`clfmetrics.inference.corrected_resampled_ttest`) and the ordinary paired
t-test over the splits reject at 5 %.
"""

from __future__ import annotations

import numpy as np

import clfmetrics as cm

__all__ = ["resplit_rejections"]


def _accuracies(x, y, train, test):
    """Test accuracy of the class-mean threshold on one feature, per data set and split."""
    x_train, y_train = np.take_along_axis(x, train, -1), np.take_along_axis(y, train, -1)
    x_test, y_test = np.take_along_axis(x, test, -1), np.take_along_axis(y, test, -1)
    positives = np.maximum(y_train.sum(-1), 1)
    negatives = np.maximum((1 - y_train).sum(-1), 1)
    mean_pos = (x_train * y_train).sum(-1) / positives
    mean_neg = (x_train * (1 - y_train)).sum(-1) / negatives
    cut, sign = (mean_pos + mean_neg) / 2, np.sign(mean_pos - mean_neg)
    predicted = (sign[..., None] * (x_test - cut[..., None]) > 0).astype(int)
    return (predicted == y_test).mean(-1)


def resplit_rejections(
    n_train: int, n_test: int, splits: int, *, datasets: int, n_items=None, beta=0.8, rng=None
) -> dict:
    """Rejection rates at 5 % of the two resplit tests when the two methods are equally good.

    Parameters
    ----------
    n_train, n_test : int
        Items of each split's training and test part, drawn at random without
        overlap from the data set's ``n_items``, ``splits`` times.
    splits : int
        Resplits per data set (at least 2).
    datasets : int
        Simulated data sets; a rate near 0.05 is uncertain by about
        ``sqrt(0.05 * 0.95 / datasets)``.
    n_items : int, optional
        Items of each data set (default ``n_train + n_test``: every split uses them all).
    beta : float, default 0.8
        How strongly the measurements predict the class.
    rng : numpy.random.Generator or int, optional

    Returns
    -------
    dict
        ``"corrected"`` and ``"naive"``: the share of data sets whose test rejects at 5 %.
    """
    rng = np.random.default_rng(rng)
    n = int(n_train) + int(n_test) if n_items is None else int(n_items)
    if n < int(n_train) + int(n_test):
        raise ValueError(f"n_items must be at least n_train + n_test; got {n}")
    x = rng.normal(size=(int(datasets), 2, 1, n))
    y = rng.random((int(datasets), 1, 1, n)) < 1 / (1 + np.exp(-beta * x.sum(axis=1)))[:, None]
    y = y[:, 0].astype(int)  # (datasets, 1, n), shared by both features
    order = np.argsort(rng.random((int(datasets), int(splits), n)), axis=-1)
    train, test = order[..., :n_train], order[..., n_train : n_train + n_test]
    d = _accuracies(x[:, 0], y, train, test) - _accuracies(x[:, 1], y, train, test)
    corrected = naive = 0
    for row in d:
        if row.std() == 0:
            continue  # no difference on any split: neither test rejects
        corrected += cm.corrected_resampled_ttest(row, n_train, n_test).pvalue < 0.05
        t = row.mean() / (row.std(ddof=1) / np.sqrt(row.size))
        naive += cm.student_t_two_sided(t, row.size - 1) < 0.05
    return {"corrected": corrected / int(datasets), "naive": naive / int(datasets)}
