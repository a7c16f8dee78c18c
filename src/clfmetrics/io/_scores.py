"""The command line's score columns: ``--scores`` and ``--proba`` from the rows read, checked.

``--scores`` is one column for the positive class (``--pos-label``) of two; ``--proba``
one column per class, in class order, whose rows sum to 1 (rows off by at most
``ROUNDING``, as rounding in a file leaves them, are rescaled in place, and a note on
stderr says so). The matrix is the reader's own matrix of number columns, checked a
block of rows at a time, so no second matrix and no column of N row sums is held.
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


def option_terms(message: str, args) -> str:
    """An error of ``report(scores=...)`` in the words of the command line's options."""
    given = "the --scores column" if args.scores else "the --proba columns"
    for api, option in (
        (r"\b1-d scores\b", "--scores"),
        (r"an \((N|\d+), \d+\) probability matrix", "one --proba column per class"),
        (r"(?<!-)\bscores\b", given),
        (r"\by_true\b", "--truth"),
        (r"\by_pred\b", "--pred"),
        (r"\bpos_label=", "--pos-label "),
        (r"\bpos_label\b", "--pos-label"),
    ):
        message = re.sub(api, option, message)
    return message


def score_columns(args, cols):
    """The --scores column or the --proba matrix (checked), and the positive class."""
    classes = cols.classes
    if args.scores and len(classes) != 2:
        shown = " ".join(map(str, classes))
        raise InputError(
            f"--scores gives the score of one class, for a task of two classes; there are "
            f"{len(classes)} ({shown}): give one probability column per class with --proba "
            "instead, in that order"
        )
    if args.scores:
        pos = None
        if args.pos_label is not None:
            pos = next((c for c in classes if str(c) == args.pos_label.strip()), None)
            if pos is None:
                shown = " ".join(map(str, classes))
                raise InputError(f"--pos-label {args.pos_label} is not one of the classes {shown}")
        return cols.numbers[args.scores], pos
    if not args.proba:
        return None, None
    names, shown = list(args.proba), " ".join(map(str, classes))
    if len(names) != len(classes):
        raise InputError(
            f"--proba names {len(names)} columns, but there are {len(classes)} classes "
            f"({shown}): give one column per class, in that order (--labels sets the classes)"
        )
    if sorted(names) == sorted(map(str, classes)) and names != [str(c) for c in classes]:
        raise InputError(
            f"the --proba columns are named like the classes but listed in another order; "
            f"list them in the class order: {shown}"
        )
    if len(set(names)) == len(names):  # the reader's (N, m) matrix holds them in order
        proba = cols.matrix
    else:
        proba = np.stack([cols.numbers[n] for n in names], axis=1)
    cols.numbers.clear()
    worst, row = worst_row_sum(proba)
    if worst > ROUNDING:
        raise InputError(
            f"{args.file}, line {cols.lines[row]}: the --proba columns sum to "
            f"{proba[row].sum():.4g}, not 1"
        )
    if worst > 1e-6:
        note = f"largest deviation {worst:.2g}, rounding in the file"
        print(f"clfmetrics: note: --proba rows rescaled to sum to 1 ({note})", file=sys.stderr)
        for start in range(0, len(proba), BLOCK):  # in place: the same quotients
            block = proba[start : start + BLOCK]
            block /= block.sum(axis=1)[:, None]
    return proba, None
