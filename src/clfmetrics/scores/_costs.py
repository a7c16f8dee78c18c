r"""Costs of decisions: the expected cost of a confusion matrix and the Bayes threshold.

Public as :func:`clfmetrics.scores.expected_cost` and
:func:`clfmetrics.scores.cost_threshold` (and from ``clfmetrics``).

Convention, the book's orientation: ``costs[i, j]`` is the cost of predicting class
``i`` when the true class is ``j``, as ``m[i, j]`` counts the items predicted ``i``
whose true class is ``j``. For two classes in the order (negative, positive)::

    costs = [[c00, c01],     c00: true negative    c01: false negative
             [c10, c11]]     c10: false positive   c11: true positive

which is also the orientation of Elkan (2001).
"""

from __future__ import annotations

import numpy as np

from .._base.checks import as_confusion_with_totals, reject_masked, scalar_or_array


def _as_costs(costs, *, name: str = "costs") -> np.ndarray:
    """``costs`` as a finite float array of shape ``(..., n, n)``, or a ValueError."""
    reject_masked(costs, name, "values")
    try:
        arr = np.asarray(costs)
    except ValueError as err:  # ragged nested lists
        raise ValueError(f"{name} is not a rectangular array of numbers: {err}") from None
    if arr.dtype.kind not in "iuf":
        raise ValueError(f"{name} must hold numbers (costs); got dtype {arr.dtype}")
    if arr.ndim < 2 or arr.shape[-1] != arr.shape[-2]:
        raise ValueError(
            f"{name} must be a square matrix (n, n) or a stack (..., n, n), rows = predicted, "
            f"columns = true; got shape {arr.shape}"
        )
    arr = arr.astype(np.float64, copy=False)
    if not np.isfinite(arr).all():
        bad = np.argwhere(~np.isfinite(arr))[0]
        raise ValueError(
            f"{name} has a NaN or infinite entry {arr[tuple(bad)]} at index {tuple(bad.tolist())}"
        )
    return arr


def expected_cost(m, costs):
    r"""The mean cost per item of the decisions counted in ``m``.

    .. math:: \mathrm{cost}(m) = \frac{1}{|S|} \sum_{i,j} m_{ij}\, c_{ij}

    with :math:`|S| = \sum_{i,j} m_{ij}` and ``c = costs``.

    Parameters
    ----------
    m : array_like, shape (n, n) or (..., n, n)
        Confusion matrix or stack; ``m[i, j]`` = predicted ``i``, true ``j``.
    costs : array_like, shape (n, n) or (..., n, n)
        ``costs[i, j]`` is the cost of predicting class ``i`` when the truth is ``j``
        (the same orientation as ``m``; scikit-learn's confusion matrix is the
        transpose). Any finite numbers: a negative cost is a gain. A stack of cost
        matrices broadcasts against the stack of confusion matrices.

    Returns
    -------
    float or ndarray of shape (...)
        One mean cost per matrix. Lower is better.

    Notes
    -----
    Accuracy is the special case of the 0/1 costs: ``expected_cost(m, 1 - np.eye(n))``
    is ``1 - accuracy(m)``. For a threshold sweep, ``expected_cost(stack, costs)``
    gives the cost at every threshold (see :func:`clfmetrics.scores.best_threshold`).

    Examples
    --------
    A false negative costs 5, a false positive 1, a correct decision nothing:

    >>> expected_cost([[50, 2], [8, 40]], [[0, 5], [1, 0]])
    0.18
    """
    m, totals = as_confusion_with_totals(m)
    c = _as_costs(costs)
    n = m.shape[-1]
    if c.shape[-1] != n:
        raise ValueError(
            f"costs must be {n} x {n}, one cost per cell of m; got shape {c.shape} "
            f"for m of shape {m.shape}"
        )
    try:
        total_cost = (m * c).sum(axis=(-2, -1))
    except ValueError:
        raise ValueError(
            f"costs of shape {c.shape} does not broadcast against m of shape {m.shape}"
        ) from None
    return scalar_or_array(total_cost / totals)


def cost_threshold(costs) -> float:
    r"""The Bayes threshold on a calibrated probability of the positive class (Elkan 2001).

    With ``costs = [[c00, c01], [c10, c11]]`` in the book's orientation (``c10`` the
    cost of a false positive, ``c01`` of a false negative), an item whose probability
    of being positive is :math:`p` costs in expectation

    .. math::

        \text{predict positive: } p\, c_{11} + (1 - p)\, c_{10}, \qquad
        \text{predict negative: } p\, c_{01} + (1 - p)\, c_{00}.

    Predicting positive is at most as costly exactly when
    :math:`(1 - p)(c_{10} - c_{00}) \le p\,(c_{01} - c_{11})`, that is when
    :math:`p \ge t^*` with

    .. math:: t^* = \frac{c_{10} - c_{00}}{(c_{10} - c_{00}) + (c_{01} - c_{11})}.

    This is Elkan's threshold :math:`p^*`; his cost matrix has the same orientation
    (rows = predicted, columns = actual). Adding a constant to a column of ``costs``
    (a cost every item of that true class pays whatever is decided), or multiplying
    all of ``costs`` by a positive number, does not move :math:`t^*`.

    Parameters
    ----------
    costs : array_like of shape (2, 2)
        ``costs[i, j]`` = cost of predicting ``i`` when the truth is ``j``, class order
        (negative, positive). A mistake must cost at least as much as the correct
        decision for the same truth (``c10 >= c00`` and ``c01 >= c11``, Elkan's
        "reasonableness"), and not both the same.

    Returns
    -------
    float
        :math:`t^* \in [0, 1]`: predict positive where ``p >= t*`` (the library's
        convention ``score >= threshold``). At :math:`p = t^*` both decisions cost
        the same.

    Notes
    -----
    The threshold is optimal only for **calibrated** probabilities, those for which
    :math:`P(\text{positive} \mid p) = p` (:mod:`clfmetrics.probabilities` checks this;
    it is not the *prevalence calibration* of :mod:`clfmetrics.metrics`). The
    probabilities carry the class prior of the data they were calibrated on: after a
    change of class frequencies correct them first
    (:func:`clfmetrics.scores.prior_shift`). For scores that are not calibrated,
    choose the threshold on validation data with
    ``best_threshold(costs, y_val, scores_val)``, which minimises the observed cost
    (:func:`clfmetrics.scores.best_threshold`).

    Examples
    --------
    A false negative five times as costly as a false positive:

    >>> cost_threshold([[0, 5], [1, 0]])
    0.16666666666666666
    """
    c = _as_costs(costs)
    if c.shape != (2, 2):
        raise ValueError(
            "costs must be one 2 x 2 matrix [[c00, c01], [c10, c11]] (rows = predicted, "
            f"columns = true, order negative, positive); got shape {c.shape}"
        )
    fp_extra = c[1, 0] - c[0, 0]  # what a false positive costs beyond a true negative
    fn_extra = c[0, 1] - c[1, 1]  # what a false negative costs beyond a true positive
    if fp_extra < 0 or fn_extra < 0:
        raise ValueError(
            f"costs {c.tolist()}: a mistake costs less than the correct decision "
            f"(c10 - c00 = {fp_extra:g}, c01 - c11 = {fn_extra:g}); the threshold rule "
            "assumes c10 >= c00 and c01 >= c11 (rows = predicted, columns = true)"
        )
    if fp_extra + fn_extra == 0:
        raise ValueError(
            f"costs {c.tolist()}: both decisions cost the same for every item, so no "
            "threshold is better than another"
        )
    return float(fp_extra / (fp_extra + fn_extra))
