r"""Prevalence calibration: what the metrics become when every class is equally common.

Convention: ``m[i, j]`` is the mass predicted as class ``i`` whose true class
is ``j`` (rows = predictions, columns = reference). Prevalence calibration
(Opitz 2024, eq. 5-6) scales column ``j`` by
:math:`\lambda^\sim_{jj} = |S| / (n \cdot prevalence(j))`, so that every class
holds :math:`|S|/n` of the mass; :func:`clfmetrics.scaling.prevalence_calibrate` does it.

Numeric helpers (numpy, vectorised over stacks ``(..., n, n)``):

* :func:`calibrated_bias` -- the normalised bias :math:`\tilde{\mathbf b}` of :math:`m\lambda^\sim`;
* :func:`calibrated_precision`, :func:`calibrated_macro_precision` -- :math:`P^\sim_i`, macP∼;
* :func:`calibrated_kappa_closed_form`, :func:`calibrated_mcc_closed_form` -- eq. 16.

Symbolic helpers (sympy, imported on demand) build the same quantities on a
matrix of positive symbols, so that the calibration identities can be
derived exactly: :func:`symbolic_confusion`, :func:`symbolic_calibrate`,
:func:`symbolic_scores`, :func:`calibration_identities` and :func:`is_zero`.
"""

from __future__ import annotations

import numpy as np

from ._checks import as_confusion, fill_value, scalar_or_array
from .averages import _macro_recall
from .classwise import _bias, _precision, _prevalence
from .scaling import prevalence_calibrate

__all__ = [
    "calibrated_bias",
    "calibrated_kappa_closed_form",
    "calibrated_macro_precision",
    "calibrated_mcc_closed_form",
    "calibrated_precision",
    "calibration_identities",
    "is_zero",
    "symbolic_calibrate",
    "symbolic_confusion",
    "symbolic_scores",
]


def _calibrated(m) -> np.ndarray:
    """Validate once and calibrate (raises ValueError when a class never occurs)."""
    return prevalence_calibrate(as_confusion(m))


def calibrated_bias(m) -> np.ndarray:
    r"""Normalised bias of the calibrated matrix, :math:`\tilde b_i = bias^\sim(i) / |S|`.

    Since column ``j`` of :math:`m\lambda^\sim` holds :math:`|S|/n`,
    :math:`\tilde b_i = \frac{1}{n}\sum_j m_{i,j} / prevalence(j)
    \approx \frac{1}{n}\sum_j \mathcal{P}(f \to i \mid c = j)`: how often the
    classifier would predict ``i`` if all classes were equally common. The
    entries sum to 1.

    Parameters
    ----------
    m : array_like, shape (n, n) or (..., n, n)
        Confusion matrix or stack; ``m[i, j]`` = predicted ``i``, true ``j``.
        Every class must occur.

    Returns
    -------
    ndarray, shape (..., n)

    Examples
    --------
    >>> calibrated_bias([[30, 5], [10, 15]])
    array([0.5, 0.5])
    """
    c = _calibrated(m)
    return _bias(c) / c.sum(axis=(-2, -1))[..., None]


def calibrated_precision(m, *, zero_division=0) -> np.ndarray:
    r"""Class-wise precision after calibration, :math:`P^\sim_i = correct^\sim(i) / bias^\sim(i)`.

    Equivalently :math:`P^\sim_i = R_i / (n\,\tilde b_i)`: Bayes' rule with a
    uniform prior over the true classes.

    Parameters
    ----------
    m : array_like, shape (n, n) or (..., n, n)
        Confusion matrix or stack; ``m[i, j]`` = predicted ``i``, true ``j``.
    zero_division : {0, 1, 'nan'}, default 0
        Value of :math:`P^\sim_i` for a class that is never predicted.

    Returns
    -------
    ndarray, shape (..., n)

    Examples
    --------
    >>> calibrated_precision([[30, 5], [10, 15]])
    array([0.75, 0.75])
    """
    return _precision(_calibrated(m), fill_value(zero_division))


def calibrated_macro_precision(m, *, zero_division=0):
    r"""Calibrated macro precision :math:`macP^\sim = \frac{1}{n}\sum_i P^\sim_i`, i.e. macP of mλ∼.

    Parameters
    ----------
    m : array_like, shape (n, n) or (..., n, n)
        Confusion matrix or stack; ``m[i, j]`` = predicted ``i``, true ``j``.
    zero_division : {0, 1, 'nan'}, default 0
        Value of :math:`P^\sim_i` for a class that is never predicted.

    Returns
    -------
    float or ndarray of shape (...)

    Examples
    --------
    >>> calibrated_macro_precision([[30, 5], [10, 15]])
    0.75
    """
    p = calibrated_precision(m, zero_division=zero_division)
    return scalar_or_array(p.mean(axis=-1))


def calibrated_kappa_closed_form(m):
    r"""Eq. 16 (Opitz 2024) for kappa: :math:`KAPPA(m\lambda^\sim) = (macR - 1/n) / (1 - 1/n)`.

    Computed from the macro recall of ``m`` alone (no calibrated matrix is built).

    Parameters
    ----------
    m : array_like, shape (n, n) or (..., n, n)
        Confusion matrix or stack; ``m[i, j]`` = predicted ``i``, true ``j``.
        Every class must occur.

    Returns
    -------
    float or ndarray of shape (...)

    Examples
    --------
    >>> calibrated_kappa_closed_form([[30, 5], [10, 15]])
    0.5
    """
    arr = as_confusion(m)
    if (_prevalence(arr) <= 0).any():
        _calibrated(arr)  # raises the calibration error naming the class
    n = arr.shape[-1]
    return scalar_or_array((_macro_recall(arr, 0.0) - 1.0 / n) / (1.0 - 1.0 / n))


def calibrated_mcc_closed_form(m, *, zero_division=0):
    r"""Eq. 16 (Opitz 2024) for MCC.

    .. math::

        MCC(m\lambda^\sim) = \frac{macR - 1/n}
            {\sqrt{1 - \tilde{\mathbf b}^T\tilde{\mathbf b}}\,\sqrt{1 - 1/n}}

    with :math:`\tilde{\mathbf b}` from :func:`calibrated_bias`. It depends on
    the calibrated bias, so it is not a function of macR alone.

    Parameters
    ----------
    m : array_like, shape (n, n) or (..., n, n)
        Confusion matrix or stack; ``m[i, j]`` = predicted ``i``, true ``j``.
    zero_division : {0, 1, 'nan'}, default 0
        Returned where :math:`\tilde{\mathbf b}^T\tilde{\mathbf b} = 1` (the
        classifier predicts a single class); the numerator is then 0 too.

    Returns
    -------
    float or ndarray of shape (...)

    Examples
    --------
    >>> round(calibrated_mcc_closed_form([[30, 5], [10, 15]]), 6)
    0.5
    """
    fill = fill_value(zero_division)
    arr = as_confusion(m)
    b = calibrated_bias(arr)
    n = arr.shape[-1]
    num = _macro_recall(arr, 0.0) - 1.0 / n
    spread = np.maximum(1.0 - (b * b).sum(axis=-1), 0.0)
    den = np.sqrt(spread) * np.sqrt(1.0 - 1.0 / n)
    out = np.full(np.shape(num), fill)
    # den is 0 only for a single-class predictor; test with a tolerance for rounding.
    np.divide(num, den, out=out, where=den > 1e-12)
    return scalar_or_array(out)


# --------------------------------------------------------------------- symbolic


def symbolic_confusion(n: int):
    r"""An ``n x n`` sympy Matrix of positive symbols :math:`m_{i,j}` (1-based, as in the papers).

    Examples
    --------
    >>> symbolic_confusion(2)
    Matrix([
    [m_{1,1}, m_{1,2}],
    [m_{2,1}, m_{2,2}]])
    """
    import sympy as sp

    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 2:
        raise ValueError(f"n must be an integer >= 2; got {n!r}")
    return sp.Matrix(n, n, lambda i, j: sp.Symbol(f"m_{{{i + 1},{j + 1}}}", positive=True))


def symbolic_calibrate(M):
    r"""Return :math:`M\lambda^\sim` exactly as eq. 6 defines it: column ``j`` times
    :math:`|S| / (n \cdot prevalence(j))` (nothing simplified yet).

    Examples
    --------
    >>> symbolic_calibrate(symbolic_confusion(2))[0, 0]
    m_{1,1}*(m_{1,1} + m_{1,2} + m_{2,1} + m_{2,2})/(2*m_{1,1} + 2*m_{2,1})
    """
    import sympy as sp

    M = sp.Matrix(M)
    n = M.shape[0]
    total = sum(M)
    prev = [sum(M[:, j]) for j in range(n)]
    return sp.Matrix(n, n, lambda i, j: M[i, j] * total / (n * prev[j]))


def symbolic_scores(M) -> dict:
    r"""Every metric of the book on a symbolic matrix, with the margins simplified.

    The column sums and the total are cancelled first (the row sums are put
    over a common denominator); this is what makes
    :math:`prevalence^\sim(j) = |S|/n` visible and keeps the expressions small.
    Kappa and MCC use the normalised forms of Opitz (2024), eq. 14-15.

    Returns
    -------
    dict
        Keys ``total``, ``bias`` and ``prevalence`` (lists, normalised to sum
        to 1), ``recall``, ``precision``, ``f1`` (lists), and ``accuracy``,
        ``macro_recall``, ``macro_precision``, ``macro_f1``, ``weighted_f1``,
        ``chance``, ``kappa``, ``mcc``.
    """
    import sympy as sp

    M = sp.Matrix(M)
    n = M.shape[0]
    # factor_terms pulls out a column's common factor |S|/(n prevalence(j)), which
    # then cancels structurally; rows need only a common denominator.
    col = [sp.cancel(sp.factor_terms(sum(M[:, j]))) for j in range(n)]
    row = [sp.together(sum(M[i, :])) for i in range(n)]
    total = sp.cancel(sum(col))
    diag = [M[i, i] for i in range(n)]
    p = [sp.cancel(x / total) for x in col]
    b = [x / total for x in row]
    recall = [d / x for d, x in zip(diag, col, strict=True)]
    precision = [d / x for d, x in zip(diag, row, strict=True)]
    f1 = [2 * d / (x + y) for d, x, y in zip(diag, row, col, strict=True)]
    accuracy = sp.cancel(sum(diag) / total)
    chance = sp.cancel(sum(x * y for x, y in zip(p, b, strict=True)))
    bb = sum(x * x for x in b)
    pp = sp.cancel(sum(x * x for x in p))
    return {
        "total": total,
        "bias": b,
        "prevalence": p,
        "recall": recall,
        "precision": precision,
        "f1": f1,
        "accuracy": accuracy,
        "macro_recall": sum(recall) / n,
        "macro_precision": sum(precision) / n,
        "macro_f1": sum(f1) / n,
        "weighted_f1": sum(x * y for x, y in zip(p, f1, strict=True)),
        "chance": chance,
        "kappa": (accuracy - chance) / (1 - chance),
        "mcc": (accuracy - chance) / (sp.sqrt(1 - bb) * sp.sqrt(1 - pp)),
    }


def is_zero(expr) -> bool:
    """True when ``expr`` is identically zero, by expanding the numerator over a common denominator.

    For a rational function of the symbols this is a proof of zero. Square
    roots are treated as atoms, so ``True`` is still a proof, while ``False``
    only means "not shown zero this way" (substitute numbers to show a
    non-zero value).
    """
    import sympy as sp

    return sp.expand(sp.numer(sp.together(sp.sympify(expr)))) == 0


def calibration_identities(n: int) -> dict:
    r"""The calibration identities of Opitz (2024) as ``name -> (lhs, rhs)`` on an ``n x n`` matrix.

    * ``accuracy``: :math:`accuracy(m\lambda^\sim) = macR(m)` (eq. 8);
    * ``weighted_f1``: :math:`weightF1(m\lambda^\sim) = macF1(m\lambda^\sim)` (§4.6);
    * ``kappa``: :math:`KAPPA(m\lambda^\sim) = (macR - 1/n)/(1 - 1/n)` (eq. 16);
    * ``mcc``: :math:`MCC(m\lambda^\sim) = (macR - 1/n) / (\sqrt{1 - \tilde{\mathbf b}^T
      \tilde{\mathbf b}}\sqrt{1 - 1/n})` (eq. 16).

    ``is_zero(lhs - rhs)`` is True for each (the tests check n = 2 and 3).
    """
    import sympy as sp

    M = symbolic_confusion(n)
    raw = symbolic_scores(M)
    cal = symbolic_scores(symbolic_calibrate(M))
    macr = raw["macro_recall"]
    inv_n = sp.Rational(1, n)
    bb = sum(x * x for x in cal["bias"])
    return {
        "accuracy": (cal["accuracy"], macr),
        "weighted_f1": (cal["weighted_f1"], cal["macro_f1"]),
        "kappa": (cal["kappa"], (macr - inv_n) / (1 - inv_n)),
        "mcc": (cal["mcc"], (macr - inv_n) / (sp.sqrt(1 - bb) * sp.sqrt(1 - inv_n))),
    }
