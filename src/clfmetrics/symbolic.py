r"""Exact (sympy) derivations for the two macro F1 formulas of Opitz & Burst (2019).

The two formulas, over class-wise precision :math:`P_x` and recall :math:`R_x`
of :math:`n` classes:

.. math::

    \mathcal{F}_1 = \frac{1}{n}\sum_x \frac{2 P_x R_x}{P_x + R_x}
    \quad\text{(averaged F1)}, \qquad
    \mathbb{F}_1 = \frac{2 \bar P \bar R}{\bar P + \bar R}
    \quad\text{(F1 of averages)}.

This module proves the lemma
:math:`\Delta = \mathbb{F}_1 - \mathcal{F}_1 = \frac{1}{\sigma}\sum_{x,y}
\frac{(P_x R_y - P_y R_x)^2}{(P_x + R_x)(P_y + R_y)}` with
:math:`\sigma = n\sum_x (P_x + R_x)` by exact polynomial arithmetic, lays the
derivation out step by step, derives the supremum of :math:`\Delta` and builds
the confusion matrices that approach it. Confusion matrices follow the library
convention ``m[i, j]`` = mass predicted ``i`` whose true class is ``j``.

Only this module imports sympy; ``import clfmetrics`` does not load it.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import sympy as sp

__all__ = [
    "Step",
    "averaged_f1_expr",
    "boundary_delta",
    "class_symbols",
    "common_ratio",
    "count_cross_term",
    "delta_closed_form",
    "delta_is_sum_of_nonnegative_terms",
    "delta_lemma_holds",
    "delta_supremum",
    "exactly_equal",
    "f1_of_averages_expr",
    "fill_gain",
    "lemma_derivation",
    "sequence_delta",
    "sequence_limit",
    "supremum_sequence",
    "supremum_sequence_symbolic",
    "swap_identity_holds",
]

DELTA = sp.Symbol(r"\Delta")
SIGMA = sp.Symbol(r"\sigma", positive=True)


def class_symbols(n: int) -> tuple[tuple[sp.Symbol, ...], tuple[sp.Symbol, ...]]:
    """Positive symbols ``(P_1, ..., P_n), (R_1, ..., R_n)`` for ``n >= 2`` classes."""
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 2:
        raise ValueError(f"n must be an integer number of classes >= 2; got {n!r}")
    n = int(n)
    p = sp.symbols(f"P_1:{n + 1}", positive=True)
    r = sp.symbols(f"R_1:{n + 1}", positive=True)
    return tuple(p), tuple(r)


def averaged_f1_expr(p, r) -> sp.Expr:
    r"""Averaged F1 :math:`\mathcal{F}_1 = \frac{1}{n}\sum_x 2P_xR_x/(P_x+R_x)` (sklearn's)."""
    return sp.Add(*[2 * px * rx / (px + rx) for px, rx in zip(p, r, strict=True)]) / len(p)


def f1_of_averages_expr(p, r) -> sp.Expr:
    r"""F1 of averages :math:`\mathbb{F}_1 = 2\bar P\bar R/(\bar P+\bar R)`."""
    n = len(p)
    p_bar, r_bar = sp.Add(*p) / n, sp.Add(*r) / n
    return 2 * p_bar * r_bar / (p_bar + r_bar)


def _pair_terms(p, r) -> list[sp.Expr]:
    idx = range(len(p))
    return [
        (p[x] * r[y] - p[y] * r[x]) ** 2 / ((p[x] + r[x]) * (p[y] + r[y])) for x in idx for y in idx
    ]


def delta_closed_form(p, r, n: int | None = None) -> sp.Expr:
    r"""The lemma's right-hand side, summed over all ordered pairs ``(x, y)``.

    :math:`\frac{1}{n\sum_x(P_x+R_x)}\sum_{x,y}\frac{(P_xR_y-P_yR_x)^2}{(P_x+R_x)(P_y+R_y)}`.
    Classes with :math:`P_x + R_x = 0` are left out of the sums (pass only the
    others and give ``n``, which counts every class; default ``len(p)``).
    """
    n = len(p) if n is None else n
    return sp.Add(*_pair_terms(p, r)) / (n * sp.Add(*p, *r))


def exactly_equal(a, b) -> bool:
    """True when the rational expressions ``a`` and ``b`` are identical.

    Brings ``a - b`` to one fraction and expands its numerator: exact
    polynomial arithmetic, much faster than ``sympy.simplify`` on large sums.
    """
    num, _ = sp.fraction(sp.together(sp.sympify(a) - sp.sympify(b)))
    return sp.expand(num) == 0


def delta_lemma_holds(n: int) -> bool:
    r"""Prove :math:`\mathbb{F}_1 - \mathcal{F}_1` equals the lemma's closed form for ``n`` classes.

    All :math:`P_x, R_x` are positive symbols, so the identity holds for every
    precision/recall configuration without empty classes.

    Examples
    --------
    >>> delta_lemma_holds(3)
    True
    """
    p, r = class_symbols(n)
    return exactly_equal(
        f1_of_averages_expr(p, r) - averaged_f1_expr(p, r), delta_closed_form(p, r)
    )


def delta_is_sum_of_nonnegative_terms(n: int) -> bool:
    r"""Certify, with sympy's assumptions, that every term of the closed form is :math:`\ge 0`.

    Each pair term is a square over a product of sums of positive symbols and
    the prefactor :math:`1/\sigma` is positive, which proves :math:`\Delta \ge 0`
    (theorem, part 1) for configurations without empty classes.
    """
    p, r = class_symbols(n)
    prefactor = 1 / (n * sp.Add(*p, *r))
    return bool(prefactor.is_positive) and all(t.is_nonnegative for t in _pair_terms(p, r))


class Step(NamedTuple):
    """One step of a derivation: a sentence and the expression it produces.

    Displays as the equation :math:`\\Delta = \\ldots` (``text/latex``); the
    chapter prints the sentence as prose next to it.

    ``shown`` keeps the form the sentence describes (sums left unevaluated);
    ``value`` is the same expression evaluated, used for the exact checks.
    """

    sentence: str
    shown: sp.Expr
    value: sp.Expr

    def latex(self) -> str:
        return rf"\Delta = {sp.latex(self.shown, order='none')}"

    def _repr_latex_(self) -> str:
        return f"$\\displaystyle {self.latex()}$"


def _add(*terms):
    return sp.Add(*terms, evaluate=False)


def _mul(*factors):
    return sp.Mul(*factors, evaluate=False)


def _frac(num, den):
    return _mul(num, sp.Pow(den, -1, evaluate=False))


def lemma_derivation(n: int = 2) -> list[Step]:
    r"""The proof of the lemma (Opitz & Burst 2019, appendix A) for ``n`` classes, step by step.

    Every step's ``value`` is exactly equal to the previous one (checked with
    :func:`exactly_equal`, :math:`\sigma` replaced by :math:`n\sum_x(P_x+R_x)`);
    the last equals :func:`delta_closed_form`. Raises ``AssertionError`` if a
    step does not follow, so a displayed derivation is always a checked one.
    """
    p, r = class_symbols(n)
    idx = range(n)
    s = [p[x] + r[x] for x in idx]
    sigma_value = n * sp.Add(*s)
    p_bar = _frac(_add(*p), n)
    r_bar = _frac(_add(*r), n)
    big = _frac(_mul(2, p_bar, r_bar), _add(p_bar, r_bar))
    small = _mul(sp.Rational(1, n), _add(*[_frac(_mul(2, p[x], r[x]), s[x]) for x in idx]))
    steps = [
        Step(
            "Start from the definitions: the F1 of the averages minus the average of the "
            "class-wise F1s.",
            _add(big, _mul(-1, small)),
            f1_of_averages_expr(p, r) - averaged_f1_expr(p, r),
        )
    ]
    all_pairs = [
        _add(_mul(p[x], r[y]), _mul(-1, _frac(_mul(p[x], r[x], s[y]), s[x])))
        for x in idx
        for y in idx
    ]
    steps.append(
        Step(
            r"Write both over $\sigma = n\sum_x (P_x + R_x)$: "
            r"$\mathbb{F}_1 = \frac{2}{\sigma}\sum_{x,y} P_x R_y$, and $\mathcal{F}_1$ is "
            r"multiplied by $\sum_y (P_y + R_y) / \sum_x (P_x + R_x) = 1$. One term per "
            r"ordered pair $(x, y)$, including $x = y$.",
            _mul(_frac(2, SIGMA), _add(*all_pairs)),
            2 / SIGMA * sp.Add(*[t.doit() for t in all_pairs]),
        )
    )
    off = [
        _frac(_add(_mul(p[x], r[y], s[x]), _mul(-1, p[x], r[x], s[y])), s[x])
        for x in idx
        for y in idx
        if x != y
    ]
    steps.append(
        Step(
            r"The $x = y$ terms vanish, $P_x R_x - P_x R_x (P_x + R_x)/(P_x + R_x) = 0$; "
            r"each remaining term goes over its own denominator $P_x + R_x$.",
            _mul(_frac(2, SIGMA), _add(*off)),
            2 / SIGMA * sp.Add(*[t.doit() for t in off]),
        )
    )
    paired = []
    for x in idx:
        for y in idx:
            if x < y:
                num = sp.expand(
                    (p[x] * r[y] * s[x] - p[x] * r[x] * s[y]) * s[y]
                    + (p[y] * r[x] * s[y] - p[y] * r[y] * s[x]) * s[x]
                )
                paired.append(_frac(num, _mul(s[x], s[y])))
    steps.append(
        Step(
            r"Pair the term of $(x, y)$ with the term of $(y, x)$ for $x < y$ and bring the "
            r"pair to the denominator $(P_x + R_x)(P_y + R_y)$; the expanded numerator is "
            r"$P_x^2 R_y^2 - 2 P_x R_y P_y R_x + P_y^2 R_x^2$.",
            _mul(_frac(2, SIGMA), _add(*paired)),
            2 / SIGMA * sp.Add(*[t.doit() for t in paired]),
        )
    )
    squares = [
        _frac(sp.Pow(p[x] * r[y] - p[y] * r[x], 2, evaluate=False), _mul(s[x], s[y]))
        for x in idx
        for y in idx
        if x != y
    ]
    steps.append(
        Step(
            r"The numerator is the square $(P_x R_y - P_y R_x)^2$, which is symmetric in "
            r"$x, y$: twice the sum over $x < y$ is the sum over all ordered pairs (the "
            r"$x = y$ squares are 0). This is the lemma.",
            _mul(sp.Pow(SIGMA, -1, evaluate=False), _add(*squares)),
            1 / SIGMA * sp.Add(*[t.doit() for t in squares]),
        )
    )
    values = [st.value.subs(SIGMA, sigma_value) for st in steps]
    for k in range(1, len(values)):
        assert exactly_equal(values[k - 1], values[k]), (
            f"step {k} does not follow from step {k - 1}"
        )
    assert exactly_equal(values[-1], delta_closed_form(p, r)), "last step is not the closed form"
    return steps


def count_cross_term() -> sp.Expr:
    r"""The lemma's cross term :math:`P_xR_y - P_yR_x` written with counts, factored.

    With :math:`P_x = c_x/b_x` and :math:`R_x = c_x/p_x` (correct, bias,
    prevalence) it is :math:`c_x c_y (p_x b_y - p_y b_x) / (b_x b_y p_x p_y)`:
    zero exactly when :math:`p_x/b_x = p_y/b_y` (for classes with :math:`c > 0`).
    """
    cx, cy, bx, by, px, py = sp.symbols("c_x c_y b_x b_y p_x p_y", positive=True)
    return sp.factor((cx / bx) * (cy / py) - (cy / by) * (cx / px))


def common_ratio(n: int) -> list[sp.Expr]:
    r"""Solve :math:`\sum_i prevalence(i) = \sum_i bias(i)` for a common ratio :math:`\kappa`.

    If every prevalence is :math:`\kappa` times its bias, the two margins of a
    confusion matrix (which always have the same total) force :math:`\kappa = 1`.
    Returns sympy's solutions for :math:`\kappa` (``[1]``).
    """
    kappa = sp.Symbol("kappa", positive=True)
    b = sp.symbols(f"b_1:{n + 1}", positive=True)
    return sp.solve(sp.Eq(sp.Add(*[kappa * bi for bi in b]), sp.Add(*b)), kappa)


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
