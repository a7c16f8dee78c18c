"""Kinds of labels: numbers and strings are never merged, nor silently kept apart.

``confusion_matrix([0, 1, 2], ["0", "1", "2"])`` has no right answer: counted
as they are, ``0`` and ``"0"`` are six different classes and accuracy is 0;
converted to one type, they are three. scikit-learn refuses such input ("Mix
of label input types"), and so does this library unless ``labels=`` says
which classes there are (then every label must be one of them, and nothing
is converted). ``Fraction`` and ``Decimal`` labels are refused everywhere, as
scikit-learn's ``type_of_target`` refuses them: a rational number is more
likely a score than a class, and ``Fraction(1, 2)`` would otherwise be a
class while the equal float ``0.5`` is refused as a score.
"""

from __future__ import annotations

import re
from decimal import Decimal
from fractions import Fraction

import numpy as np

_NUMBER_TYPES = (bool, int, float, np.bool_, np.integer, np.floating)
_KIND_OF_DTYPE = {"b": "number", "i": "number", "u": "number", "f": "number", "U": "string"}
_KIND_OF_DTYPE["S"] = "bytes"


def _kind_of_type(t: type) -> str:
    if issubclass(t, _NUMBER_TYPES):
        return "number"
    if issubclass(t, str):
        return "string"
    if issubclass(t, bytes):
        return "bytes"
    if issubclass(t, tuple):
        return "tuple"
    if t is type(None):
        return "None"
    return t.__name__


def refuse_exact_numbers(items: list, name: str) -> None:
    """Refuse ``Fraction``, ``Decimal`` and complex labels, naming the first one."""
    types = set(map(type, items))
    if not any(issubclass(t, (Fraction, Decimal, complex)) for t in types):
        return
    exact = (Fraction, Decimal, complex)
    k, v = next((k, v) for k, v in enumerate(items) if isinstance(v, exact))
    if isinstance(v, complex):
        raise ValueError(f"{name} holds complex numbers ({v!r} at index {k}); labels are classes")
    raise ValueError(
        f"{name} holds a {type(v).__name__} label ({v!r} at index {k}); Fraction and Decimal "
        "labels are refused, as by scikit-learn: convert them to int or str (a class), or "
        "threshold them if they are scores"
    )


def kinds(arr: np.ndarray) -> dict[str, object]:
    """The kinds of label in a checked 1-d array, each with its first example.

    Numbers (bool, int and integer-valued float, of Python or numpy) are one
    kind, since ``1 == 1.0 == True`` makes them the same class; strings,
    bytes, tuples, ``None`` and every other type are kinds of their own.
    """
    if arr.size == 0:
        return {}
    if arr.dtype != object:
        kind = _KIND_OF_DTYPE.get(arr.dtype.kind, str(arr.dtype))
        return {kind: arr[0].item()}
    items = arr.tolist()
    by_type = {t: _kind_of_type(t) for t in set(map(type, items))}
    if len(set(by_type.values())) == 1:
        return {next(iter(by_type.values())): items[0]}
    out: dict[str, object] = {}
    for v in items:  # only reached when the kinds are mixed: find one example of each
        out.setdefault(by_type[type(v)], v)
        if len(out) == len(set(by_type.values())):
            break
    return out


def _described(kind: str, example) -> str:
    if kind == "None":
        return "None"
    return f"{kind if kind == 'bytes' else kind + 's'} (e.g. {example!r})"


def refuse_mixed(named: list[tuple[str, np.ndarray]]) -> None:
    """Raise a ValueError when the label vectors together hold more than one kind of label.

    ``named`` pairs each vector's argument name with its checked array. Used
    only when ``labels=`` is not given: given labels decide which classes exist.
    """
    found = [(name, kinds(arr)) for name, arr in named]
    every = {kind for _, ks in found for kind in ks}
    if len(every) < 2:
        return
    described = "; ".join(
        f"{name} holds " + " and ".join(_described(k, ex) for k, ex in ks.items())
        for name, ks in found
    )
    raise ValueError(
        f"mixed label types: {described}. Labels of different types never match (0 is not "
        "'0'), and scikit-learn refuses them: convert them to one type (e.g. "
        f"[str(v) for v in {found[0][0]}]) or pass labels= with the classes to count"
    )


class LabelWarning(UserWarning):
    """Warned when the classes hold labels that differ only in case, whitespace or leading zeros
    (``'Spam'`` and ``'spam'``, ``'007'`` and ``'7'``); the warning names both spellings, and
    they stay separate classes."""


_SPACE = re.compile(r"\s+")
_LEADING_ZEROS = re.compile(r"(?<![0-9.])0+(?=[0-9])")


def _folded(label: str) -> str:
    """The label without case, surrounding or repeated whitespace, or leading zeros of numbers."""
    return _LEADING_ZEROS.sub("", _SPACE.sub(" ", label.strip()).casefold())


def near_duplicates(labels, most: int = 5) -> str:
    """A warning naming the string labels that differ only in case, whitespace or leading zeros.

    ``"Spam"`` and ``"spam"``, ``"no spam"`` and ``" no  spam"``, ``"007"`` and ``"7"``
    are each one group. Returns "" when there is no such group (non-string labels
    are never grouped).
    """
    groups: dict[str, list[str]] = {}
    for label in labels:
        if isinstance(label, str):
            groups.setdefault(_folded(label), []).append(label)
    close = [g for g in groups.values() if len(g) > 1]
    if not close:
        return ""
    shown = "; ".join(" and ".join(repr(v) for v in g) for g in close[:most])
    more = f" (and {len(close) - most} more groups)" if len(close) > most else ""
    return (
        f"labels that differ only in case, whitespace or leading zeros are separate classes: "
        f"{shown}{more}; if each group is one class, fix the spelling in the data first"
    )
