r"""Prevalence calibration on a matrix of positive symbols: the identities of Opitz (2024), exactly.

:func:`symbolic_confusion`, :func:`symbolic_calibrate` and
:func:`symbolic_scores` build what :mod:`clfmetrics.metrics` computes
numerically, on symbols, so that the calibration identities
(:func:`calibration_identities`) are derived rather than sampled;
:func:`is_zero` decides them.
"""

from __future__ import annotations

import sympy as sp

from .derivations import confusion_symbols

__all__ = [
    "calibration_identities",
    "is_zero",
    "symbolic_calibrate",
    "symbolic_confusion",
    "symbolic_scores",
]


def symbolic_confusion(n: int):
    r"""An ``n x n`` sympy Matrix of positive symbols :math:`m_{i,j}` (1-based, as in the papers).

    The same matrix as :func:`clfbook.theory.derivations.confusion_symbols`.

    Examples
    --------
    >>> symbolic_confusion(2)
    Matrix([
    [m_{1,1}, m_{1,2}],
    [m_{2,1}, m_{2,2}]])
    """
    return confusion_symbols(n)


def symbolic_calibrate(M):
    r"""Return :math:`M\lambda^\sim` exactly as eq. 6 defines it: column ``j`` times
    :math:`|S| / (n \cdot prevalence(j))` (nothing simplified yet).

    Examples
    --------
    >>> symbolic_calibrate(symbolic_confusion(2))[0, 0]
    m_{1,1}*(m_{1,1} + m_{1,2} + m_{2,1} + m_{2,2})/(2*m_{1,1} + 2*m_{2,1})
    """
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
