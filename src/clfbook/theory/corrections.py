r"""Kappa, MCC and both macro F1s as exact sympy expressions, and the derivatives that
Opitz (2024) prints wrongly (appendices D.1, E.1 and G.1), derived and compared.

Convention: :math:`m_{i,j}` = mass predicted as class ``i`` whose true class is
``j``. With :math:`s` the total, :math:`r` the correct mass, :math:`\mathbf b`
the bias (row sums) and :math:`\mathbf p` the prevalence (column sums):

.. math::

    \kappa = \frac{N}{D_K},\quad MCC = \frac{N}{D_M},\quad N = rs - \mathbf p^T\mathbf b,
    \quad D_K = s^2 - \mathbf p^T\mathbf b,
    \quad D_M = \sqrt{(s^2 - \mathbf p^T\mathbf p)(s^2 - \mathbf b^T\mathbf b)}.

:func:`gradient` differentiates the definitions; :func:`printed_gradient` is
what the source prints; :func:`corrected_gradient` is the closed form that
equals :func:`gradient` (the tests prove it exactly). The source's sign
conclusions (macro F1 and the F1 of averages are monotonic; kappa and MCC are
not) stand with the corrected forms.
"""

from __future__ import annotations

import numpy as np
import sympy as sp

from .derivations import (
    _pick,
    bias_expr,
    confusion_symbols,
    correct_expr,
    exactly_equal,
    macro_precision_expr,
    macro_recall_expr,
    prevalence_expr,
    total_expr,
)
from .derivations import gradient as _differentiate

__all__ = [
    "CORRECTED",
    "corrected_gradient",
    "corrected_matches",
    "exact_kappa_mcc",
    "f1_of_averages_expr",
    "gradient",
    "kappa_expr",
    "macro_f1_expr",
    "mcc_expr",
    "printed_gradient",
    "printed_is_wrong",
]

#: Where each corrected derivative stands in Opitz (2024) and what was wrong.
CORRECTED = {
    "macro_f1": "appendix D.1, diagonal: 2 correct(i)/(n Z_i^2) where 4 correct(i)/(n Z_i^2)",
    "f1_of_averages": "appendix E.1: 2 x eps/(macR + macP) where 2(P^2 dR + R^2 dP)/(P + R)^2",
    "kappa": "appendix G.1, eq. (20): (r - z_ij) D_K^2 in the numerator where (r - z_ij) D_K",
    "mcc": "appendix G.1: D_M^2 (r - z_ij) where 2 D_M^2 (r - z_ij), and sqrt(s^2 - b.b), "
    "sqrt(s^2 - p.p) where (s^2 - b.b), (s^2 - p.p)",
}


def _dot(u, v) -> sp.Expr:
    return sp.Add(*[a * b for a, b in zip(u, v, strict=True)])


def _parts(M: sp.Matrix):
    s, r = total_expr(M), sp.Add(*correct_expr(M))
    b, p = bias_expr(M), prevalence_expr(M)
    return s, r, b, p


def kappa_expr(M: sp.Matrix) -> sp.Expr:
    r"""Cohen's kappa :math:`(rs - \mathbf p^T\mathbf b)/(s^2 - \mathbf p^T\mathbf b)`."""
    s, r, b, p = _parts(M)
    return (r * s - _dot(p, b)) / (s**2 - _dot(p, b))


def mcc_expr(M: sp.Matrix) -> sp.Expr:
    r"""Multi-class MCC :math:`(rs - \mathbf p^T\mathbf b)/\sqrt{(s^2 - \mathbf p^T\mathbf p)
    (s^2 - \mathbf b^T\mathbf b)}` (Gorodkin 2004), as the library computes it."""
    s, r, b, p = _parts(M)
    return (r * s - _dot(p, b)) / (sp.sqrt(s**2 - _dot(p, p)) * sp.sqrt(s**2 - _dot(b, b)))


def macro_f1_expr(M: sp.Matrix) -> sp.Expr:
    r"""Averaged F1 :math:`\frac1n\sum_i 2\,correct(i)/Z_i`, :math:`Z_i = bias(i) + prevalence(i)`
    (scikit-learn's macro F1)."""
    pairs = zip(correct_expr(M), bias_expr(M), prevalence_expr(M), strict=True)
    return sp.Add(*[2 * c / (b + p) for c, b, p in pairs]) / M.rows


def f1_of_averages_expr(M: sp.Matrix) -> sp.Expr:
    r"""F1 of the averages :math:`2PR/(P + R)`, :math:`P = macP`, :math:`R = macR`."""
    p, r = macro_precision_expr(M), macro_recall_expr(M)
    return 2 * p * r / (p + r)


_EXPRESSIONS = {
    "macro_f1": macro_f1_expr,
    "f1_of_averages": f1_of_averages_expr,
    "kappa": kappa_expr,
    "mcc": mcc_expr,
}


def gradient(metric: str, M: sp.Matrix) -> sp.Matrix:
    r""":math:`\partial\,metric/\partial m_{i,j}` by differentiating the definition, for
    ``metric`` in ``{'macro_f1', 'f1_of_averages', 'kappa', 'mcc'}``."""
    return _differentiate(_pick(_EXPRESSIONS, metric), M)


def _closed_form(metric: str, M: sp.Matrix, printed: bool) -> sp.Matrix:
    _pick(_EXPRESSIONS, metric)  # validates the name
    n = M.rows
    s, r, b, p = _parts(M)
    c = correct_expr(M)
    if metric == "macro_f1":
        z = [bi + pi for bi, pi in zip(b, p, strict=True)]
        k = 2 if printed else 4

        def cell(i, j):
            if i == j:
                return 2 / (n * z[i]) - k * c[i] / (n * z[i] ** 2)
            return -2 * c[i] / (n * z[i] ** 2) - 2 * c[j] / (n * z[j] ** 2)

        return sp.Matrix(n, n, cell)
    if metric == "f1_of_averages":
        mp, mr = macro_precision_expr(M), macro_recall_expr(M)
        dp = _differentiate("macro_precision", M)
        dr = _differentiate("macro_recall", M)
        if printed:
            eps = mr + mp - mp * mr
            return sp.Matrix(n, n, lambda i, j: 2 * (dr[i, j] + dp[i, j]) * eps / (mr + mp))
        return sp.Matrix(
            n, n, lambda i, j: 2 * (mp**2 * dr[i, j] + mr**2 * dp[i, j]) / (mp + mr) ** 2
        )
    pb, pp, bb = _dot(p, b), _dot(p, p), _dot(b, b)
    num = r * s - pb
    # d(p.b)/dm_ij = prevalence(i) + bias(j) (the source's z_ij); the diagonal adds 1 to r too
    z = [[p[i] + b[j] for j in range(n)] for i in range(n)]
    dnum = [[r + (s if i == j else 0) - z[i][j] for j in range(n)] for i in range(n)]
    if metric == "kappa":
        den = s**2 - pb
        power = 2 if printed else 1
        return sp.Matrix(
            n, n, lambda i, j: (dnum[i][j] * den**power - (2 * s - z[i][j]) * num) / den**2
        )
    # mcc: v_ij = d(p.p)/dm_ij = 2 prevalence(j), u_ij = d(b.b)/dm_ij = 2 bias(i)
    dm = sp.sqrt(s**2 - pp) * sp.sqrt(s**2 - bb)
    wp, wb = (sp.sqrt(s**2 - pp), sp.sqrt(s**2 - bb)) if printed else (s**2 - pp, s**2 - bb)
    lead = 1 if printed else 2

    def mcc_cell(i, j):
        v, u = 2 * p[j], 2 * b[i]
        return (lead * dm**2 * dnum[i][j] - num * (2 * s - v) * wb - num * (2 * s - u) * wp) / (
            2 * dm**3
        )

    return sp.Matrix(n, n, mcc_cell)


def printed_gradient(metric: str, M: sp.Matrix) -> sp.Matrix:
    r"""The derivative as Opitz (2024) prints it (see :data:`CORRECTED`).

    The source gives kappa's and MCC's derivative for :math:`i \ne j` only; on
    the diagonal the same formula is used with :math:`r + s - z_{ii}` for the
    numerator's derivative (one more correct item also raises :math:`r`).
    """
    return _closed_form(metric, M, printed=True)


def corrected_gradient(metric: str, M: sp.Matrix) -> sp.Matrix:
    r"""The corrected closed form of the source's derivative.

    - macro F1 (D.1): :math:`\frac{2}{nZ_i} - \frac{4\,correct(i)}{nZ_i^2}` on the
      diagonal, :math:`-\frac{2\,correct(i)}{nZ_i^2} - \frac{2\,correct(j)}{nZ_j^2}` off it;
    - F1 of averages (E.1): :math:`2(P^2\,\partial R + R^2\,\partial P)/(P + R)^2`;
    - kappa (G.1, eq. 20): :math:`\big((r - z_{ij})D_K - (2s - z_{ij})N\big)/D_K^2`;
    - MCC (G.1): :math:`\frac{1}{2D_M^3}\big[2D_M^2(r - z_{ij}) - N(2s - v_{ij})(s^2 -
      \mathbf b^T\mathbf b) - N(2s - u_{ij})(s^2 - \mathbf p^T\mathbf p)\big]`.
    """
    return _closed_form(metric, M, printed=False)


def corrected_matches(metric: str, n: int = 2) -> bool:
    r"""True when :func:`corrected_gradient` equals :func:`gradient` exactly, cell by cell,
    for every ``n x n`` matrix of positive entries.

    For MCC the square roots of :math:`s^2 - \mathbf p^T\mathbf p` and
    :math:`s^2 - \mathbf b^T\mathbf b` are atoms to sympy's rational arithmetic, and
    their powers still cancel exactly.
    """
    M = confusion_symbols(n)
    g, c = gradient(metric, M), corrected_gradient(metric, M)
    return all(exactly_equal(g[k], c[k]) for k in range(n * n))


def printed_is_wrong(metric: str, m) -> tuple[sp.Matrix, sp.Matrix]:
    """The true and the printed derivative at a concrete integer matrix, exactly.

    Returns ``(true, printed)``; where they differ the source is wrong.
    """
    M = confusion_symbols(len(m))
    values = {M[i, j]: sp.Integer(int(v)) for (i, j), v in np.ndenumerate(np.asarray(m))}
    true = gradient(metric, M).subs(values).applyfunc(sp.radsimp)
    printed = printed_gradient(metric, M).subs(values).applyfunc(sp.radsimp)
    return true, printed


def exact_kappa_mcc(m) -> tuple[sp.Rational, sp.Expr]:
    r"""Kappa and MCC of an integer confusion matrix, exactly (``m[i, j]`` = predicted ``i``,
    true ``j``). Kappa is a rational number, MCC an algebraic one.

    Examples
    --------
    >>> exact_kappa_mcc([[2, 1], [0, 1]])
    (1/2, sqrt(3)/3)
    """
    arr = np.asarray(m)
    if (
        arr.ndim != 2
        or arr.shape[0] != arr.shape[1]
        or arr.shape[0] < 2
        or not np.issubdtype(arr.dtype, np.integer)
        or (arr < 0).any()
    ):
        raise ValueError(f"m must be one square (n, n) matrix of non-negative integers; got {m!r}")
    M = sp.Matrix(arr.tolist())
    return sp.nsimplify(kappa_expr(M)), sp.radsimp(mcc_expr(M))
