"""The command line's score columns: ``--scores`` and ``--proba`` from the rows read, checked.

``--scores`` is one column for the positive class (``--pos-label``) of two; ``--proba``
one column per class whose rows sum to 1. Each is given once per ``--pred``, in the same
order (two systems: two of them). Columns named for the classes (the label
itself or ``p_<label>``, ``prob_<label>``, ``proba_<label>``) are matched to them by name,
in whatever order they are given; columns named for no class are taken in class order.
Some named for classes and some not, or two named for one class, is refused: the
order would be a guess. Rows must sum to 1 (rows off by at most ``ROUNDING``, as
rounding in a file leaves them, are rescaled in place, and a note on stderr says so).
For one system the matrix is the reader's own matrix of number columns, checked a block
of rows at a time, so no second matrix and no column of N row sums is held; two systems'
matrices are stacked from it.
Errors of :func:`clfmetrics.report` are put in the options' terms here.
"""

from __future__ import annotations

import re
import sys

import numpy as np

from ..probabilities import worst_row_sum
from ._file import InputError

#: --proba rows may miss 1 by this much (rounded probabilities) and are then rescaled.
ROUNDING = 0.01
#: Rows of the --proba matrix rescaled at a time (a few MB of row sums, not N of them).
BLOCK = 2**16


def classes_text(classes) -> str:
    """The classes for a message, space-separated; quoted where one has whitespace in it
    or around it (``' no' 'no'``), which a plain join would hide."""
    texts = [str(c) for c in classes]
    if any(t != t.strip() or " " in t or not t for t in texts):
        return " ".join(map(repr, texts))
    return " ".join(texts)


def strip_hint(classes) -> str:
    """A message's pointer to ``--strip-labels`` where classes differ only in whitespace
    around them (as the report's warning says, the command line keeps them apart)."""
    texts = [c for c in classes if isinstance(c, str)]
    if len({t.strip() for t in texts}) < len(texts):
        return "; some classes differ only in whitespace around them: --strip-labels merges them"
    return ""


def option_terms(message: str, args) -> str:
    """An error of ``report(scores=...)`` in the words of the command line's options."""
    given = "the --scores column" if args.scores else "the --proba columns"
    given += "s" if args.scores and len(args.scores) > 1 else ""
    for api, option in (
        (r"\b1-d scores\b", "--scores"),
        (r"an \((N|\d+), \d+\) probability matrix", "one --proba column per class"),
        (r"(?<!-)\bscores\b", given),
        (r"\by_true\b", "--truth"),
        (r"\by_pred\b", "--pred"),
        (r"\bpos_label=", "--pos-label "),
        (r"\bpos_label\b", "--pos-label"),
        (r"\bnet_benefit\b", "--net-benefit"),
        (r"^costs needs\b", "--costs needs"),
    ):
        message = re.sub(api, option, message)
    return message


#: A --proba column named for class L: L itself, or one of these and L.
PREFIXES = ("p_", "prob_", "proba_")


def _named_class(name: str, texts: list[str]) -> int | None:
    """The class (index into ``texts``) that a column's name names, else None."""
    if name in texts:
        return texts.index(name)
    for prefix in PREFIXES:
        if name.startswith(prefix) and name[len(prefix) :] in texts:
            return texts.index(name[len(prefix) :])
    return None


def _by_name(names: list[str], classes: list) -> list[str]:
    """The --proba columns in class order: matched by name where they are named for the
    classes (see the module's docstring), else as given."""
    texts = [str(c) for c in classes]
    named = [_named_class(n, texts) for n in names]
    if all(k is None for k in named):
        return list(names)
    unnamed = [n for n, k in zip(names, named, strict=True) if k is None]
    if unnamed:
        raise InputError(
            f"--proba column {unnamed[0]!r} is named for no class while others are (classes: "
            f"{' '.join(texts)}); name every column for its class (p_<label>), or none and "
            "list them in the class order"
        )
    twice = next((k for k in named if named.count(k) > 1), None)
    if twice is not None:
        same = [n for n, k in zip(names, named, strict=True) if k == twice]
        raise InputError(
            f"--proba columns {' and '.join(map(repr, same))} are both named for class "
            f"{texts[twice]}; give one column per class"
        )
    return [names[named.index(k)] for k in range(len(classes))]


def positive_class(args, classes):
    """The class ``--scores`` scores: ``--pos-label``'s (None: the default, the second),
    once the task is known to have two classes."""
    if len(classes) != 2:
        shown = classes_text(classes)
        raise InputError(
            f"--scores gives the score of one class, for a task of two classes; there are "
            f"{len(classes)} ({shown}): give one probability column per class with --proba "
            f"instead, in that order{strip_hint(classes)}"
        )
    if args.pos_label is None:
        return None
    pos = next((c for c in classes if str(c) == args.pos_label.strip()), None)
    if pos is None:
        shown = classes_text(classes)
        raise InputError(f"--pos-label {args.pos_label} is not one of the classes {shown}")
    return pos


def score_columns(args, cols):
    """Per ``--pred``, its --scores column or --proba matrix (checked), and the positive
    class; ``(None, None)`` without scores."""
    classes = cols.classes
    if args.scores:
        pos = positive_class(args, classes)
        return [cols.numbers[name] for name in args.scores], pos
    if not args.proba:
        return None, None
    shown = classes_text(classes)
    for names in args.proba:
        if len(names) != len(classes):
            raise InputError(
                f"--proba names {len(names)} columns, but there are {len(classes)} classes "
                f"({shown}): give one column per class, in that order (--labels sets the "
                f"classes){strip_hint(classes)}"
            )
    orders = [_by_name(list(names), classes) for names in args.proba]
    for system, names, order in zip(args.pred, args.proba, orders, strict=True):
        if order != list(names):
            which = f" of --pred {system}" if len(args.proba) > 1 else ""
            matched = ", ".join(
                f"class {c} is column {n!r}" for c, n in zip(classes, order, strict=True)
            )
            print(
                f"clfmetrics: note: --proba columns{which} matched to the classes by name: "
                + matched,
                file=sys.stderr,
            )
    # The reader's (N, m) matrix holds the distinct number columns in order: used as it is
    # where it is the one matrix, else each system's columns stacked.
    if len(orders) == 1 and orders[0] == list(dict.fromkeys(args.proba[0])):
        matrices = [cols.matrix]
    else:
        matrices = [np.stack([cols.numbers[n] for n in order], axis=1) for order in orders]
        cols.matrix = None
    cols.numbers.clear()
    for system, proba in zip(args.pred, matrices, strict=False):
        _sum_to_one(proba, args, cols, f" of --pred {system}" if len(matrices) > 1 else "")
    return matrices, None


def _sum_to_one(proba, args, cols, which: str) -> None:
    """Refuse rows that miss 1 by more than ROUNDING; rescale the others in place."""
    worst, row = worst_row_sum(proba)
    if worst > ROUNDING:
        raise InputError(
            f"{args.file}, line {cols.lines[row]}: the --proba columns{which} sum to "
            f"{proba[row].sum():.4g}, not 1"
        )
    if worst > 1e-6:
        note = f"largest deviation {worst:.2g}, rounding in the file"
        print(
            f"clfmetrics: note: --proba rows{which} rescaled to sum to 1 ({note})",
            file=sys.stderr,
        )
        for start in range(0, len(proba), BLOCK):  # in place: the same quotients
            block = proba[start : start + BLOCK]
            block /= block.sum(axis=1)[:, None]
