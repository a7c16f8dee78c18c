"""The checker of a ``{selfcheck}`` directive: what a question must hold, and its answer.

:class:`Spec` is one checked self-check, what the page needs to grade it;
:func:`evaluate` computes a number question's ``:answer:`` with the library;
:func:`number_settings` checks ``:digits:`` and ``:tolerance:``. Every problem is a
:class:`SelfCheckError` whose message tells the author what to write instead.
(``selfcheck.py`` explains the directive; ``selfcheck_parse.py`` reads it.)
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

import numpy as np

import clfmetrics as cm

NAMESPACE_HELP = "only `cm` (clfmetrics) and `np` (numpy) are in scope, no builtins"
#: The directive's options, all given as raw text.
OPTIONS = ("answer", "digits", "tolerance", "feedback")


class SelfCheckError(ValueError):
    """A self-check directive that cannot be built (the message says why)."""


@dataclass
class Spec:
    """One self-check, parsed from its directive: what the page needs to grade it."""

    question: list[str]
    feedback: str
    choices: list[str] = field(default_factory=list)
    correct: int | None = None
    answer: float | None = None
    expression: str | None = None
    digits: int = 3
    tolerance: float | None = None

    @property
    def kind(self) -> str:
        return "choice" if self.choices else "number"

    def shown_answer(self) -> str:
        return f"{self.answer:.{self.digits}f}"


def evaluate(expression: str) -> float:
    """The value of an ``:answer:`` expression, with only ``cm`` and ``np`` in scope."""
    try:
        value = eval(expression, {"__builtins__": {}}, {"cm": cm, "np": np})
    except Exception as error:  # any failure of the author's expression is reported
        raise SelfCheckError(
            f":answer: {expression!r} failed ({type(error).__name__}: {error}); {NAMESPACE_HELP}"
        ) from error
    try:
        number = float(np.asarray(value, dtype=float))
    except (TypeError, ValueError) as error:
        raise SelfCheckError(
            f":answer: {expression!r} gave {value!r}, not a single number"
        ) from error
    if not math.isfinite(number):
        raise SelfCheckError(f":answer: {expression!r} gave {number}, not a finite number")
    return number


def _nonnegative_int(name: str, text: str) -> int:
    if not re.fullmatch(r"\d+", text.strip()):
        raise SelfCheckError(f":{name}: must be a whole number >= 0, not {text!r}")
    return int(text)


def number_settings(spec: Spec, options: dict[str, str]) -> Spec:
    """Fill a number question's answer, digits and tolerance from its ``options``."""
    expression = (options.get("answer") or "").strip()
    if not expression:
        raise SelfCheckError(
            "a question without choices needs :answer: (an expression computing the "
            "number; " + NAMESPACE_HELP + ") or a `- [x]` list of choices"
        )
    spec.expression = expression
    spec.answer = evaluate(expression)
    if "digits" in options:
        spec.digits = _nonnegative_int("digits", options["digits"])
        if spec.digits > 6:
            raise SelfCheckError(f":digits: must be at most 6, not {spec.digits}")
    if "tolerance" in options:
        try:
            spec.tolerance = float(options["tolerance"])
        except ValueError:
            raise SelfCheckError(
                f":tolerance: must be a number, not {options['tolerance']!r}"
            ) from None
        if not (math.isfinite(spec.tolerance) and spec.tolerance >= 0):
            raise SelfCheckError(f":tolerance: must be >= 0, not {options['tolerance']!r}")
    else:
        spec.tolerance = 0.5 * 10.0**-spec.digits
    return spec
