"""Numbers as the library prints them: fixed decimals without a negative zero, counts with
their noun, p-values, seeds. A leaf: every concern may print a number without loading the
report."""

from __future__ import annotations

import numpy as np


def count(n: int, noun: str, plural: str | None = None) -> str:
    """'1 item', '2 items': a count with its noun in the right number."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def fixed(x, digits: int = 3, *, sign: bool = False) -> str:
    """``x`` with ``digits`` decimals (a leading '+' with ``sign``), never a negative zero.

    A value that rounds to zero prints without a minus: ``-1e-17`` is '0.000', not '-0.000',
    so the text does not depend on the floating-point summation order that produced it.
    """
    s = f"{x:{'+' if sign else ''}.{digits}f}"
    if s.startswith("-") and not any(c in "123456789" for c in s):
        s = ("+" if sign else "") + s[1:]
    return s


def seed_of(rng):
    """The seed behind ``rng``: an int, "generator" for a given Generator, None for none."""
    if isinstance(rng, (int, np.integer)) and not isinstance(rng, bool):
        return int(rng)
    return "generator" if isinstance(rng, np.random.Generator) else None


def seed_text(seed) -> str:
    """'seed 0', or what stands in for a seed that the output cannot name."""
    if seed is None:
        return "no seed: the intervals change from run to run"
    return "the caller's random generator" if seed == "generator" else f"seed {seed}"


def num(x, digits: int = 3) -> str:
    """A number for a table cell; NaN prints as 'undefined'."""
    return "undefined" if x != x else fixed(x, digits)


def pvalue(p: float, prose: bool = False) -> str:
    """A p-value for a cell ('< 0.001', '0.042'); ``prose`` adds '=' where needed."""
    if p < 0.001:
        return "< 0.001"
    return f"= {fixed(p)}" if prose else fixed(p)
