r"""Exact (sympy) derivations for accuracy, the micro averages, macro recall and precision
and weighted F1 (Opitz 2024, section 4 and appendices A, B, C, F).

Convention: the symbolic confusion matrix :math:`M` has entries
:math:`m_{i,j}` = mass predicted as class ``i`` whose true class is ``j``
(rows = predictions, columns = reference). The symbols are declared positive,
so an identity proved here holds for every confusion matrix whose entries are
all positive, and by continuity of both sides for every matrix on which both
sides are defined.

The expressions mirror the numpy functions of :mod:`clfmetrics.metrics`; the
tests evaluate both on the same matrices, so the two cannot drift apart. Only
this module imports sympy; ``import clfmetrics`` does not load it.
"""

from __future__ import annotations

import numpy as np
import sympy as sp

__all__ = [
    "accuracy_expr",
    "appendix_gradient",
    "as_math",
    "bias_expr",
    "bookmaker_win_expr",
    "calibrated_accuracy_expr",
    "chance_matrix",
    "class_symbols",
    "confusion_symbols",
    "correct_expr",
    "exactly_equal",
    "false_negative_total",
    "false_positive_total",
    "gradient",
    "gradient_signs",
    "macro_precision_expr",
    "macro_recall_expr",
    "micro_f1_expr",
    "micro_precision_expr",
    "micro_recall_expr",
    "precision_gap_expr",
    "prevalence_expr",
    "total_expr",
    "weighted_f1_appendix_class",
    "weighted_f1_chain_rule",
    "weighted_f1_class_expr",
    "weighted_f1_expr",
    "weighted_f1_gradient_at",
]

METRICS = ("accuracy", "macro_recall", "macro_precision", "weighted_f1")


def _check_n(n) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 2:
        raise ValueError(f"n must be an integer number of classes >= 2; got {n!r}")
    return int(n)


def confusion_symbols(n: int) -> sp.Matrix:
    r"""An ``n x n`` matrix of positive symbols :math:`m_{i,j}` (1-based names, as in the paper).

    Examples
    --------
    >>> confusion_symbols(2)
    Matrix([
    [m_{1,1}, m_{1,2}],
    [m_{2,1}, m_{2,2}]])
    """
    n = _check_n(n)
    return sp.Matrix(n, n, lambda i, j: sp.Symbol(f"m_{{{i + 1},{j + 1}}}", positive=True))


def bias_expr(M: sp.Matrix) -> list[sp.Expr]:
    r""":math:`bias(i) = \sum_x m_{i,x}` (row sums)."""
    return [sp.Add(*M.row(i)) for i in range(M.rows)]


def prevalence_expr(M: sp.Matrix) -> list[sp.Expr]:
    r""":math:`prevalence(i) = \sum_x m_{x,i}` (column sums)."""
    return [sp.Add(*M.col(i)) for i in range(M.cols)]


def correct_expr(M: sp.Matrix) -> list[sp.Expr]:
    r""":math:`correct(i) = m_{i,i}` (the diagonal)."""
    return [M[i, i] for i in range(M.rows)]


def total_expr(M: sp.Matrix) -> sp.Expr:
    r""":math:`|S| = \sum_{i,j} m_{i,j}`."""
    return sp.Add(*M)


def false_positive_total(M: sp.Matrix) -> sp.Expr:
    r""":math:`\sum_i FP_i = \sum_i (bias(i) - correct(i))`: every error counted in its row."""
    return sp.Add(*[b - c for b, c in zip(bias_expr(M), correct_expr(M), strict=True)])


def false_negative_total(M: sp.Matrix) -> sp.Expr:
    r""":math:`\sum_i FN_i = \sum_i (prevalence(i) - correct(i))`: errors counted by column."""
    return sp.Add(*[p - c for p, c in zip(prevalence_expr(M), correct_expr(M), strict=True)])


def accuracy_expr(M: sp.Matrix) -> sp.Expr:
    r""":math:`accuracy = \sum_i correct(i) / |S|`."""
    return sp.Add(*correct_expr(M)) / total_expr(M)


def micro_precision_expr(M: sp.Matrix) -> sp.Expr:
    r""":math:`\sum_i TP_i / \sum_i (TP_i + FP_i) = \sum_i correct(i) / \sum_i bias(i)`."""
    return sp.Add(*correct_expr(M)) / sp.Add(*bias_expr(M))


def micro_recall_expr(M: sp.Matrix) -> sp.Expr:
    r""":math:`\sum_i TP_i / \sum_i (TP_i + FN_i) = \sum_i correct(i) / \sum_i prevalence(i)`."""
    return sp.Add(*correct_expr(M)) / sp.Add(*prevalence_expr(M))


def micro_f1_expr(M: sp.Matrix) -> sp.Expr:
    r"""Harmonic mean of micro precision and micro recall, :math:`2PR/(P+R)`."""
    p, r = micro_precision_expr(M), micro_recall_expr(M)
    return 2 * p * r / (p + r)


def macro_recall_expr(M: sp.Matrix) -> sp.Expr:
    r""":math:`macR = \frac{1}{n}\sum_i correct(i)/prevalence(i)`."""
    pairs = zip(correct_expr(M), prevalence_expr(M), strict=True)
    return sp.Add(*[c / p for c, p in pairs]) / M.rows


def macro_precision_expr(M: sp.Matrix) -> sp.Expr:
    r""":math:`macP = \frac{1}{n}\sum_i correct(i)/bias(i)`."""
    pairs = zip(correct_expr(M), bias_expr(M), strict=True)
    return sp.Add(*[c / b for c, b in pairs]) / M.rows


def weighted_f1_expr(M: sp.Matrix) -> sp.Expr:
    r""":math:`\frac{1}{|S|}\sum_i prevalence(i) \cdot 2\,correct(i)/(bias(i)+prevalence(i))`."""
    terms = zip(prevalence_expr(M), correct_expr(M), bias_expr(M), strict=True)
    return sp.Add(*[x * 2 * z / (x + y) for x, z, y in terms]) / total_expr(M)


_EXPRESSIONS = {
    "accuracy": accuracy_expr,
    "macro_recall": macro_recall_expr,
    "macro_precision": macro_precision_expr,
    "weighted_f1": weighted_f1_expr,
}


def _pick(table: dict, metric: str):
    """The expression builder for ``metric`` from ``table``, or a ValueError naming the choices."""
    if metric not in table:
        raise ValueError(f"metric must be one of {sorted(table)}; got {metric!r}")
    return table[metric]


def _metric_expr(metric: str):
    return _pick(_EXPRESSIONS, metric)


def exactly_equal(a, b) -> bool:
    """True when the rational expressions ``a`` and ``b`` are identical.

    Brings ``a - b`` to one fraction and expands its numerator: exact polynomial
    arithmetic, which decides the identity of two rational functions.
    """
    num, _ = sp.fraction(sp.together(sp.sympify(a) - sp.sympify(b)))
    return sp.expand(num) == 0


def gradient(metric, M: sp.Matrix) -> sp.Matrix:
    r"""Matrix of partial derivatives :math:`\partial\,metric / \partial m_{i,j}` (unsimplified).

    Parameters
    ----------
    metric : {'accuracy', 'macro_recall', 'macro_precision', 'weighted_f1'} or callable
        A metric's name, or a function mapping ``M`` to its sympy expression.
    M : sympy.Matrix
        Symbolic confusion matrix, e.g. from :func:`confusion_symbols`.
    """
    expr = (metric if callable(metric) else _metric_expr(metric))(M)
    return sp.Matrix(M.rows, M.cols, lambda i, j: sp.diff(expr, M[i, j]))


def appendix_gradient(metric: str, M: sp.Matrix) -> sp.Matrix:
    r"""The closed-form derivatives stated in Opitz (2024), appendices A.1, B.1, C.1 and F.1.

    With :math:`x_i` = prevalence, :math:`y_i` = bias, :math:`z_i` = correct and
    :math:`|S|` the total:

    - accuracy: :math:`(1 - acc)/|S|` on the diagonal, :math:`-acc/|S|` off it;
    - macro recall: :math:`(x_i - z_i)/(n x_i^2)` and :math:`-z_j/(n x_j^2)`;
    - macro precision: :math:`(y_i - z_i)/(n y_i^2)` and :math:`-z_i/(n y_i^2)`;
    - weighted F1, off the diagonal (F.1):
      :math:`\frac{1}{|S|}\big(\frac{2 y_j z_j}{(x_j+y_j)^2} - \frac{2 x_i z_i}{(x_i+y_i)^2}
      - wF1\big)`; on the diagonal (not given in the source, derived the same way):
      :math:`\frac{1}{|S|}\big(\frac{2 x_i}{x_i+y_i} + \frac{2 z_i (y_i - x_i)}{(x_i+y_i)^2}
      - wF1\big)`.
    """
    n = M.rows
    x, y, z = prevalence_expr(M), bias_expr(M), correct_expr(M)
    s = total_expr(M)
    value = _metric_expr(metric)(M)

    def cell(i, j):
        if metric == "accuracy":
            return (1 - value) / s if i == j else -value / s
        if metric == "macro_recall":
            return (x[i] - z[i]) / (n * x[i] ** 2) if i == j else -z[j] / (n * x[j] ** 2)
        if metric == "macro_precision":
            return (y[i] - z[i]) / (n * y[i] ** 2) if i == j else -z[i] / (n * y[i] ** 2)
        if i == j:
            return (
                2 * x[i] / (x[i] + y[i]) + 2 * z[i] * (y[i] - x[i]) / (x[i] + y[i]) ** 2 - value
            ) / s
        return (
            2 * y[j] * z[j] / (x[j] + y[j]) ** 2 - 2 * x[i] * z[i] / (x[i] + y[i]) ** 2 - value
        ) / s

    return sp.Matrix(n, n, cell)


def _sign(expr: sp.Expr) -> str:
    # Over one denominator (a product of sums of positive symbols); the expanded
    # numerator is a polynomial whose sign sympy reads off its coefficients.
    num, den = sp.fraction(sp.together(expr))
    num = sp.expand(num)
    if num == 0:
        return "0"
    if not den.is_positive:
        return "?"
    if num.is_nonnegative:
        return "+"
    if num.is_nonpositive:
        return "-"
    return "?"


def gradient_signs(metric: str, n: int = 3) -> list[list[str]]:
    r"""Sign of every :math:`\partial\,metric/\partial m_{i,j}` that sympy *proves* for all
    positive matrices: ``'+'`` (never negative), ``'-'`` (never positive), ``'0'``, or ``'?'``
    (not decided by the coefficients' signs).

    Property I (monotonicity) asks for ``'+'`` on the diagonal and ``'-'`` off it.
    Only the three monotone metrics are offered: for weighted F1 the expansion is
    slow and a ``'?'`` would prove nothing; use :func:`weighted_f1_gradient_at`
    to exhibit a positive derivative instead.

    Examples
    --------
    >>> gradient_signs("accuracy", 2)
    [['+', '-'], ['-', '+']]
    """
    if metric not in ("accuracy", "macro_recall", "macro_precision"):
        raise ValueError(
            "gradient_signs proves signs for 'accuracy', 'macro_recall' and 'macro_precision'; "
            f"got {metric!r} (for weighted F1 evaluate weighted_f1_gradient_at on a matrix)"
        )
    grad = gradient(metric, confusion_symbols(_check_n(n)))
    return [[_sign(grad[i, j]) for j in range(grad.cols)] for i in range(grad.rows)]


def class_symbols(n: int) -> tuple[tuple, tuple, tuple, sp.Symbol]:
    r"""Positive symbols: x_i (prevalence), y_i (bias), z_i (correct) and the total |S|."""
    n = _check_n(n)
    x = sp.symbols(f"x_1:{n + 1}", positive=True)
    y = sp.symbols(f"y_1:{n + 1}", positive=True)
    z = sp.symbols(f"z_1:{n + 1}", positive=True)
    return tuple(x), tuple(y), tuple(z), sp.Symbol("|S|", positive=True)


def weighted_f1_class_expr(n: int) -> sp.Expr:
    r"""Weighted F1 in class quantities: :math:`\frac{1}{|S|}\sum_k \frac{2 x_k z_k}{x_k + y_k}`."""
    x, y, z, s = class_symbols(n)
    return sp.Add(*[2 * x[k] * z[k] / (x[k] + y[k]) for k in range(len(x))]) / s


def weighted_f1_chain_rule(n: int, i: int, j: int) -> sp.Expr:
    r""":math:`\partial\, wF1 / \partial m_{i,j}` by the chain rule, in class quantities.

    One more item in cell :math:`(i, j)` raises :math:`bias(i) = y_i`,
    :math:`prevalence(j) = x_j` and :math:`|S|` by one, and :math:`correct(i) = z_i`
    too when :math:`i = j`, so the derivative is
    :math:`\partial_{y_i} + \partial_{x_j} + \partial_{|S|}\,(+\,\partial_{z_i})`.
    Indices are 0-based.
    """
    x, y, z, s = class_symbols(n)
    w = weighted_f1_class_expr(n)
    out = sp.diff(w, y[i]) + sp.diff(w, x[j]) + sp.diff(w, s)
    return out + sp.diff(w, z[i]) if i == j else out


def weighted_f1_appendix_class(n: int, i: int, j: int) -> sp.Expr:
    r"""Appendix F.1's derivative (and its diagonal analogue) in class quantities, 0-based."""
    x, y, z, s = class_symbols(n)
    w = weighted_f1_class_expr(n)
    if i == j:
        return (2 * x[i] / (x[i] + y[i]) + 2 * z[i] * (y[i] - x[i]) / (x[i] + y[i]) ** 2 - w) / s
    return (2 * y[j] * z[j] / (x[j] + y[j]) ** 2 - 2 * x[i] * z[i] / (x[i] + y[i]) ** 2 - w) / s


def weighted_f1_gradient_at(m) -> sp.Matrix:
    r"""Exact :math:`\partial\, wF1/\partial m_{i,j}` at a concrete matrix (rational entries).

    Evaluates :func:`appendix_gradient` with the entries of ``m`` (predicted ``i``,
    true ``j``) substituted as exact rationals; every class must occur and be predicted.
    """
    arr = np.asarray(m)
    n = _check_n(arr.shape[-1])
    if arr.shape != (n, n) or (arr.sum(axis=0) <= 0).any() or (arr.sum(axis=1) <= 0).any():
        raise ValueError(
            "m must be one (n, n) matrix whose classes all occur and are predicted; "
            f"got {arr.tolist()}"
        )
    M = confusion_symbols(n)
    values = {M[i, j]: sp.Rational(str(arr[i, j])) for i in range(n) for j in range(n)}
    return appendix_gradient("weighted_f1", M).subs(values)


def bookmaker_win_expr(M: sp.Matrix) -> sp.Expr:
    r"""The bettor's net win at a fair bookmaker :math:`\sum_i correct(i)\cdot odds(i) - |S|`,
    :math:`odds(i) = |S|/prevalence(i)` (Opitz 2024, §4.2)."""
    s = total_expr(M)
    pairs = zip(correct_expr(M), prevalence_expr(M), strict=True)
    return sp.Add(*[c * s / p for c, p in pairs]) - s


def calibrated_accuracy_expr(M: sp.Matrix) -> sp.Expr:
    r"""Accuracy of :math:`M\lambda^\sim`, :math:`\lambda^\sim_{jj} = |S|/(n\,prevalence(j))`
    (eq. 6 and 8 of Opitz 2024): every column scaled to the same total."""
    n, s = M.rows, total_expr(M)
    lam = [s / (n * p) for p in prevalence_expr(M)]
    return accuracy_expr(sp.Matrix(n, n, lambda i, j: M[i, j] * lam[j]))


def chance_matrix(n: int) -> tuple[sp.Matrix, tuple[sp.Symbol, ...], tuple[sp.Symbol, ...]]:
    r"""Expected confusion matrix of a random classifier: :math:`m_{i,j} = z_i\,p_j`.

    Class ``j`` has prevalence :math:`p_j` and the classifier predicts ``i`` with
    probability :math:`z_i` whatever the truth (appendix B.5). The symbols are
    positive and need not be normalised: the metrics below are scale-free.

    Returns
    -------
    M, p, z
    """
    n = _check_n(n)
    p = sp.symbols(f"p_1:{n + 1}", positive=True)
    z = sp.symbols(f"z_1:{n + 1}", positive=True)
    return sp.Matrix(n, n, lambda i, j: z[i] * p[j]), tuple(p), tuple(z)


def precision_gap_expr(n: int) -> tuple[sp.Symbol, sp.Expr]:
    r"""Exact :math:`macP(m\lambda) - macP(m)` for the construction of Opitz (2024), footnote 7.

    :math:`m` has ones on the diagonal and :math:`t` in every other cell of the
    first column; :math:`\lambda = (1/t^2, 1, \ldots, 1)` shrinks class 1. The
    result is :math:`(1 - 1/n)\,(t - 1)/(t + 1)`, which tends to :math:`1 - 1/n`.

    Returns
    -------
    t, gap
    """
    n = _check_n(n)
    t = sp.Symbol("t", positive=True)
    m = sp.Matrix(n, n, lambda i, j: 1 if i == j else (t if j == 0 else 0))
    lam = [1 / t**2] + [1] * (n - 1)
    scaled = sp.Matrix(n, n, lambda i, j: m[i, j] * lam[j])
    return t, sp.factor(sp.together(macro_precision_expr(scaled) - macro_precision_expr(m)))


def as_math(lhs: str, expr) -> object:
    """Display ``lhs = expr`` as LaTeX in a notebook (an ``IPython.display.Math`` object)."""
    from IPython.display import Math

    return Math(f"{lhs} = {sp.latex(expr)}")
