r"""The regularized incomplete beta function :math:`I_x(a, b)` by its continued fraction.

.. math::

    I_x(a, b) = \frac{x^a (1 - x)^b}{a\, B(a, b)} \cdot
    \cfrac{1}{1 + \cfrac{d_1}{1 + \cfrac{d_2}{1 + \cdots}}}

with :math:`d_{2m+1} = -\frac{(a+m)(a+b+m)x}{(a+2m)(a+2m+1)}` and
:math:`d_{2m} = \frac{m(b-m)x}{(a+2m-1)(a+2m)}`, evaluated by the modified
Lentz method (Press et al., *Numerical Recipes*, sec. 6.4). It converges fast
for :math:`x < (a+1)/(a+b+2)`; above that point :math:`1 - I_{1-x}(b, a)` is
used. The fraction is vectorised: one loop over terms for a whole array of
``(a, b, x)``, each element leaving the loop once converged, so an array costs
the terms of its slowest element (about :math:`\sqrt{\max(a, b)}` of them).
Used by Student's t tail (:mod:`clfmetrics.resplits`) and by the exact
binomial intervals (:mod:`clfmetrics._binomial`), which supply their own,
stabler front factor.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["continued_fraction", "regularized_beta"]

_TINY = 1e-300
_MAX_TERMS = 200_000  # about 20 sqrt(max(a, b)) suffice; this bounds a = b = 10**8


def continued_fraction(a, b, x) -> np.ndarray:
    """The continued fraction of :math:`I_x(a, b)` (modified Lentz), arrays broadcast.

    Meant for ``x`` below the switch point ``(a + 1) / (a + b + 2)``, where it
    converges; each element stops at a relative change below 1e-16.
    """
    a, b, x = (
        np.array(v, dtype=np.float64) for v in np.broadcast_arrays(np.asarray(a, np.float64), b, x)
    )
    shape = a.shape
    a, b, x = a.ravel(), b.ravel(), x.ravel()
    qab, qap = a + b, a + 1.0
    d = 1.0 - qab * x / qap
    d = 1.0 / np.where(np.abs(d) > _TINY, d, _TINY)
    c = np.ones_like(d)
    h = d.copy()
    out = h.copy()
    live = np.arange(a.size)  # the elements still converging, compacted as they finish
    for m in range(1, _MAX_TERMS):
        if live.size == 0:
            break
        m2 = 2.0 * m
        aa_ = a[live]
        for num in (
            m * (b[live] - m) * x[live] / ((aa_ - 1.0 + m2) * (aa_ + m2)),
            -(aa_ + m) * (qab[live] + m) * x[live] / ((aa_ + m2) * (aa_ + 1.0 + m2)),
        ):
            d = 1.0 + num * d
            d = 1.0 / np.where(np.abs(d) > _TINY, d, _TINY)
            c = 1.0 + num / c
            c = np.where(np.abs(c) > _TINY, c, _TINY)
            step = d * c
            h = h * step
        done = np.abs(step - 1.0) < 1e-16
        out[live] = h
        if done.any():
            keep = ~done
            live, c, d, h = live[keep], c[keep], d[keep], h[keep]
    return out.reshape(shape)


def _lgamma(v: np.ndarray) -> np.ndarray:
    return np.vectorize(math.lgamma, otypes=[np.float64])(v)


def regularized_beta(a, b, x) -> np.ndarray:
    """:math:`I_x(a, b)` for ``a, b > 0``, arrays broadcast (0 at ``x <= 0``, 1 at ``x >= 1``).

    The front factor :math:`x^a (1-x)^b / B(a, b)` comes from ``lgamma``, which
    loses about ``log10(a + b)`` digits for large ``a + b``; the binomial tails
    of :mod:`clfmetrics._binomial` use Loader's mass instead.
    """
    a, b, x = (np.asarray(v, dtype=np.float64) for v in np.broadcast_arrays(a, b, x))
    inside = (x > 0) & (x < 1)
    xs = np.where(inside, x, 0.5)
    with np.errstate(divide="ignore"):
        front = np.exp(
            _lgamma(a + b) - _lgamma(a) - _lgamma(b) + a * np.log(xs) + b * np.log1p(-xs)
        )
    low = xs < (a + 1.0) / (a + b + 2.0)
    # Each element through the side of the switch point where its fraction converges.
    frac = continued_fraction(np.where(low, a, b), np.where(low, b, a), np.where(low, xs, 1 - xs))
    value = np.where(low, front * frac / a, 1.0 - front * frac / b)
    return np.where(inside, value, np.where(x >= 1, 1.0, 0.0))
