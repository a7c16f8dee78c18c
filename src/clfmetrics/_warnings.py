"""Warnings shared by the report and the comparison: classes too small or absent.

Convention: ``matrix[i, j]`` = items predicted ``labels[i]`` whose true class
is ``labels[j]``, so a class's support is a column sum and its predictions a
row sum.
"""

from __future__ import annotations

import numpy as np

from ._render import count

#: A class with fewer true items than this is flagged as tiny.
TINY_CLASS = 30


def class_warnings(matrix: np.ndarray, labels: list, system: str | None = None) -> list[str]:
    """Per class: never occurs, never predicted (by ``system``, if named), or tiny.

    The first and the last depend on the truth only; a comparison calls this
    once per system and keeps one copy of those.
    """
    support, predicted = matrix.sum(axis=0), matrix.sum(axis=1)
    by = "" if system is None else f" by {system}"
    out = []
    for k, lab in enumerate(labels):
        if support[k] == 0:
            out.append(
                f"class {lab!s} never occurs in y_true: its recall is undefined (0/0, "
                "counted as 0 in the macro averages), and prevalence calibration is undefined"
            )
        elif predicted[k] == 0:
            out.append(
                f"class {lab!s} is never predicted{by}: its precision is undefined (0/0, "
                "counted as 0 in the macro averages)"
            )
        if 0 < support[k] < TINY_CLASS:
            size = int(support[k])
            out.append(
                f"class {lab!s} has only {count(size, 'item')}: its recall moves in steps of "
                f"1/{size}, so the macro metrics' intervals are wide"
            )
    return out
