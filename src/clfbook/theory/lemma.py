r"""The lemma of Opitz & Burst (2019), proved exactly with sympy, and its equality condition.

The two macro F1 formulas, over class-wise precision :math:`P_x` and recall
:math:`R_x` of :math:`n` classes:

.. math::

    \mathcal{F}_1 = \frac{1}{n}\sum_x \frac{2 P_x R_x}{P_x + R_x}
    \quad\text{(averaged F1)}, \qquad
    \mathbb{F}_1 = \frac{2 \bar P \bar R}{\bar P + \bar R}
    \quad\text{(F1 of averages)}.

This module proves the lemma
:math:`\Delta = \mathbb{F}_1 - \mathcal{F}_1 = \frac{1}{\sigma}\sum_{x,y}
\frac{(P_x R_y - P_y R_x)^2}{(P_x + R_x)(P_y + R_y)}` with
:math:`\sigma = n\sum_x (P_x + R_x)` by exact polynomial arithmetic for a
given ``n``, lays the derivation out step by step, and factors the cross term
that decides when the two formulas agree. :mod:`clfbook.theory.supremum`
derives how far apart they can be.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import sympy as sp

__all__ = [
    "Step",
    "averaged_f1_expr",
    "class_symbols",
    "common_ratio",
    "count_cross_term",
    "delta_closed_form",
    "delta_is_sum_of_nonnegative_terms",
    "delta_lemma_holds",
    "exactly_equal",
    "f1_of_averages_expr",
    "lemma_derivation",
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
