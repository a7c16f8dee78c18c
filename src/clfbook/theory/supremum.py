r"""How far apart the two macro F1s can be: the supremum of Δ, derived exactly with sympy.

The source's reduction to boundary configurations (Opitz & Burst 2019,
appendix C), the supremum :math:`1/2` (even ``n``) or :math:`1/2 - 1/(2n^2)`
(odd ``n``), and confusion matrices whose :math:`\Delta` approaches it.
Confusion matrices follow the library convention ``m[i, j]`` = mass predicted
``i`` whose true class is ``j``.
"""

from __future__ import annotations

import numpy as np
import sympy as sp

from .lemma import (
    averaged_f1_expr,
    class_symbols,
    delta_closed_form,
    exactly_equal,
    f1_of_averages_expr,
)

__all__ = [
    "boundary_delta",
    "delta_supremum",
    "fill_gain",
    "odd_bound",
    "push_outwards",
    "sequence_delta",
    "sequence_limit",
    "spread_form",
    "spread_form_holds",
    "supremum_sequence",
    "supremum_sequence_symbolic",
    "swap_identity_holds",
    "weight_derivative_holds",
]


def swap_identity_holds(n: int, i: int = 0) -> bool:
    r"""Check the source's equation (6): how :math:`\Delta` changes when :math:`P_i, R_i` swap.

    .. math::

        \Delta^{swap} - \Delta
        = \frac{2}{n\sum_x(P_x+R_x)}\,(R_i - P_i)\sum_{x\neq i}(R_x - P_x),

    the first step of the source's reduction to boundary configurations.
    """
    p, r = class_symbols(n)
    before = delta_closed_form(p, r)
    after = before.subs({p[i]: r[i], r[i]: p[i]}, simultaneous=True)
    rest = sp.Add(*[r[x] - p[x] for x in range(n) if x != i])
    claimed = 2 / (n * sp.Add(*p, *r)) * (r[i] - p[i]) * rest
    return exactly_equal(after - before, claimed)


def boundary_delta(r=None, s=None, n=None) -> sp.Expr:
    r""":math:`\Delta` of a boundary configuration, derived from the closed form.

    ``r`` classes have :math:`(P, R) = (0, 1)`, ``s`` classes :math:`(1, 0)` and
    the remaining :math:`n - r - s` classes :math:`(0, 0)` (they drop out of the
    sums but count in :math:`n`). The pair sum is evaluated type by type, each
    pair of types weighted by how many ordered class pairs it has. Defaults:
    symbols ``r, s`` and ``n = r + s``.
    """
    r = sp.Symbol("r", nonnegative=True, integer=True) if r is None else sp.sympify(r)
    s = sp.Symbol("s", nonnegative=True, integer=True) if s is None else sp.sympify(s)
    n = r + s if n is None else sp.sympify(n)
    types = {"(0,1)": (sp.Integer(0), sp.Integer(1), r), "(1,0)": (sp.Integer(1), sp.Integer(0), s)}
    pair_sum = sp.Integer(0)
    for px, rx, kx in types.values():
        for py, ry, ky in types.values():
            pair_sum += kx * ky * (px * ry - py * rx) ** 2 / ((px + rx) * (py + ry))
    mass = sp.Add(*[k * (pt + rt) for pt, rt, k in types.values()])
    return sp.factor(pair_sum / (n * mass))


def fill_gain(r=None, s=None, n=None) -> sp.Expr:
    r"""Gain in :math:`\Delta` when one :math:`(0, 0)` class becomes :math:`(1, 0)`.

    Equals :math:`\frac{2}{n}\frac{r^2}{(r+s)(r+s+1)} \ge 0` (source, appendix C (iii)):
    empty classes never help :math:`\Delta`.
    """
    r = sp.Symbol("r", positive=True, integer=True) if r is None else sp.sympify(r)
    s = sp.Symbol("s", positive=True, integer=True) if s is None else sp.sympify(s)
    n = sp.Symbol("n", positive=True, integer=True) if n is None else sp.sympify(n)
    return sp.factor(boundary_delta(r, s + 1, n) - boundary_delta(r, s, n))


def delta_supremum(n: int) -> sp.Rational:
    r"""The supremum of :math:`\Delta` over confusion matrices with ``n`` classes, derived.

    On the boundary, :math:`\Delta = 2rs/n^2` with :math:`r + s = n`
    (:func:`boundary_delta`); this maximises it over the integers
    :math:`r = 0, \dots, n` exactly. Result: :math:`1/2` for even ``n``,
    :math:`1/2 - 1/(2n^2)` for odd ``n``.

    Examples
    --------
    >>> delta_supremum(3)
    4/9
    """
    class_symbols(n)  # validates n
    rr = sp.Symbol("r", nonnegative=True, integer=True)
    on_boundary = boundary_delta(rr, n - rr, n)
    return max(sp.Rational(on_boundary.subs(rr, k)) for k in range(n + 1))


def spread_form(p, r) -> sp.Expr:
    r""":math:`\Delta` written with :math:`d_x = P_x - R_x` and :math:`w_x = P_x + R_x`:

    .. math::

        \Delta = \frac{1}{2n}\Big(\sum_x \frac{d_x^2}{w_x}
                  - \frac{(\sum_x d_x)^2}{\sum_x w_x}\Big).

    It follows from :math:`\frac{UV}{U+V} = \frac{U+V}{4} - \frac{(U-V)^2}{4(U+V)}`,
    applied to each class (:math:`U, V = P_x, R_x`) and to the sums
    (:math:`U, V = \sum P, \sum R`). Chapter 4 bounds :math:`\Delta` from it
    (with :func:`weight_derivative_holds` and :func:`odd_bound`).
    """
    n = len(p)
    d = [px - rx for px, rx in zip(p, r, strict=True)]
    w = [px + rx for px, rx in zip(p, r, strict=True)]
    spread = sp.Add(*[dx**2 / wx for dx, wx in zip(d, w, strict=True)])
    return (spread - sp.Add(*d) ** 2 / sp.Add(*w)) / (2 * n)


def spread_form_holds(n: int) -> bool:
    r"""Prove :func:`spread_form` equals :math:`\mathbb{F}_1 - \mathcal{F}_1` for ``n`` classes
    with positive :math:`P_x, R_x` (exact rational arithmetic)."""
    p, r = class_symbols(n)
    return exactly_equal(f1_of_averages_expr(p, r) - averaged_f1_expr(p, r), spread_form(p, r))


def weight_derivative_holds(n: int) -> bool:
    r"""Prove :math:`\partial G/\partial w_k = (u_k - \bar u)^2` for
    :math:`G = \sum_x w_x u_x^2 - (\sum_x w_x u_x)^2/\sum_x w_x`, :math:`\bar u = \sum w u/\sum w`.

    :math:`G = 2n\Delta` when :math:`u_x = d_x/w_x`; so moving a class outwards
    along its ray (:math:`w_x` up, :math:`u_x` fixed) never lowers :math:`\Delta`.
    """
    class_symbols(n)
    w = sp.symbols(f"w_1:{n + 1}", positive=True)
    u = sp.symbols(f"u_1:{n + 1}", real=True)
    sw, swu = sp.Add(*w), sp.Add(*[a * b for a, b in zip(w, u, strict=True)])
    g = sp.Add(*[a * b**2 for a, b in zip(w, u, strict=True)]) - swu**2 / sw
    return exactly_equal(sp.diff(g, w[0]), (u[0] - swu / sw) ** 2)


def push_outwards(precision, recall) -> tuple[np.ndarray, np.ndarray]:
    r"""Move every class along its ray from :math:`(0, 0)` until :math:`\max(P_x, R_x) = 1`;
    an empty class :math:`(0, 0)` goes to :math:`(1, 1)`. Never lowers :math:`\Delta`
    (:func:`weight_derivative_holds`). Arrays of shape ``(..., n)``."""
    p, r = np.asarray(precision, dtype=float), np.asarray(recall, dtype=float)
    top = np.maximum(p, r)
    safe = np.where(top > 0, top, 1.0)
    return np.where(top > 0, p / safe, 1.0), np.where(top > 0, r / safe, 1.0)


def odd_bound() -> tuple[sp.Symbol, sp.Symbol, sp.Expr]:
    r"""The bound :math:`h(s) = s - (s - n + 1)^2/(2n - s)` on :math:`2n\Delta` for odd ``n``
    when :math:`s = \sum_x |P_x - R_x| > n - 1` (all classes pushed outwards).

    Returns ``(s, n, h)``; :math:`h(n) = n - 1/n`, i.e. :math:`\Delta \le \frac12 - \frac1{2n^2}`.
    """
    s_, n_ = sp.symbols("s n", positive=True)
    return s_, n_, s_ - (s_ - n_ + 1) ** 2 / (2 * n_ - s_)


def _sequence_entries(n: int):
    """(row, column, is_z) entries of the sequence matrix: rows = predicted, columns = true."""
    entries = [(k, k, False) for k in range(n)]
    paired = n if n % 2 == 0 else n - 3
    for a in range(0, paired, 2):
        entries.append((a + 1, a, True))  # true class a predicted as a + 1: P_a = 1, R_a -> 0
    if n % 2:
        a, b, c = n - 3, n - 2, n - 1
        entries += [(b, a, True), (b, c, True)]  # b absorbs a and c: P_b -> 0, R_b = 1
    return entries


def supremum_sequence(n: int, z) -> np.ndarray:
    r"""Confusion matrices whose :math:`\Delta` tends to :func:`delta_supremum` as ``z`` grows.

    The diagonal is 1. Even ``n``: classes pair up as :math:`(2k, 2k+1)` and
    ``z`` items of class :math:`2k` are predicted as :math:`2k+1`, so class
    :math:`2k` has :math:`(P, R) = (1, 1/(1+z)) \to (1, 0)` and class :math:`2k+1`
    has :math:`(1/(1+z), 1) \to (0, 1)`. Odd ``n``: the last three classes
    :math:`a, b, c` form a block in which ``b`` absorbs ``z`` items of ``a`` and
    ``z`` of ``c``, giving the limits :math:`(1,0), (0,1), (1,0)`.

    Parameters
    ----------
    n : int
        Number of classes, ``n >= 2``.
    z : float or array_like of shape (k,)
        Off-diagonal mass; an array gives a stack of matrices.

    Returns
    -------
    ndarray, shape (n, n) or (k, n, n)
        ``m[i, j]`` = mass predicted ``i``, true ``j``.
    """
    class_symbols(n)
    z = np.asarray(z, dtype=np.float64)
    if (z < 0).any() or not np.isfinite(z).all():
        raise ValueError(f"z must be finite and non-negative; got {z}")
    m = np.zeros((*z.shape, n, n))
    for i, j, is_z in _sequence_entries(n):
        m[..., i, j] = z if is_z else 1.0
    return m


def supremum_sequence_symbolic(n: int) -> tuple[sp.Symbol, sp.Matrix]:
    """The matrix of :func:`supremum_sequence` with a positive symbol ``z``: ``(z, matrix)``."""
    class_symbols(n)
    z = sp.Symbol("z", positive=True)
    m = sp.zeros(n, n)
    for i, j, is_z in _sequence_entries(n):
        m[i, j] = z if is_z else 1
    return z, m


def sequence_delta(n: int) -> tuple[sp.Symbol, sp.Expr]:
    r""":math:`\mathbb{F}_1 - \mathcal{F}_1` of the symbolic sequence matrix, a function of ``z``.

    Computed from the definitions (precision = diagonal / row sum, recall =
    diagonal / column sum), not from the lemma.
    """
    z, m = supremum_sequence_symbolic(n)
    p = [m[i, i] / sum(m.row(i)) for i in range(n)]
    r = [m[i, i] / sum(m.col(i)) for i in range(n)]
    return z, sp.cancel(sp.together(f1_of_averages_expr(p, r) - averaged_f1_expr(p, r)))


def sequence_limit(n: int) -> sp.Expr:
    r""":math:`\lim_{z\to\infty} \Delta(m_z)` of the sequence, computed by ``sympy.limit``."""
    z, delta = sequence_delta(n)
    return sp.limit(delta, z, sp.oo)
