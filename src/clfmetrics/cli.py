"""The command line: ``python -m clfmetrics report FILE.csv --truth COL --pred COL [--pred COL]``.

One ``--pred`` column prints :func:`clfmetrics.reporting.report`, two print
:func:`clfmetrics.comparison.compare`; ``--json`` prints the JSON rendering
instead of text.

The options besides ``--truth``, ``--pred``, ``--json``:

``--labels L [L ...]``
    Every class of the task, in the order of the matrix (default: the sorted
    labels that occur). Needed when a class is missing from the file.
``--na error|drop|keep``
    What a missing value is (empty, ``NA``, ``NaN``, ``null``, ... as pandas
    reads them, in any case). ``error`` (default): refused, naming the lines.
    ``drop``: rows with a missing value in a column used are skipped, and a
    note on stderr names them. ``keep``: the tokens are labels like any other.
``--scores COL``
    Binary tasks: the score (or probability) of the positive class, which is
    ``--pos-label``, by default the second class in matrix order (``1`` of
    ``0``/``1``, the later of two sorted names). Adds ROC AUC and average
    precision with their intervals and, for probabilities in [0, 1], the Brier
    score, log loss, expected calibration error and a reliability table.
``--proba COL [COL ...]``
    One probability column per class, in matrix order: the order of
    ``--labels`` if given, else of the sorted labels (numbers numerically).
    The same additions, one class against the rest per column. Columns
    named like the classes but listed in another order are refused; rows must
    sum to 1 (rows off by at most 0.01, as rounding leaves them, are rescaled
    and a note on stderr says so).
``--level``, ``--size``, ``--seed``
    Interval level, number of resamples, random seed.

Label columns in which every value is a number are integer labels: they sort
as numbers (1, 2, 10) and ``1`` matches ``1.0``. Problems with the input (a
missing file or column, an empty file, a missing value, a single class, a
label outside ``--labels``, a bad option) print one line to stderr, naming the
file's own line numbers, and exit with status 2.
"""

from __future__ import annotations

import argparse
import os
import sys

import numpy as np

from ._csvinput import NA_CHOICES, InputError, lines_text, read_columns
from ._render import count
from .comparison import compare
from .reporting import report

__all__ = ["InputError", "run"]

USAGE_ERROR = 2
#: --proba rows may miss 1 by this much (rounded probabilities) and are then rescaled.
ROUNDING = 0.01


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line (and status 2), like every other input error."""

    def error(self, message):
        raise InputError(message)


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="python -m clfmetrics",
        description="Evaluate predictions stored in a CSV file, with bootstrap intervals.",
    )
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    rep = sub.add_parser(
        "report",
        help="report one system (one --pred) or compare two (two --pred)",
        description="One --pred prints the report, two print the paired comparison.",
    )
    rep.add_argument("file", help="CSV file with a header row")
    rep.add_argument("--truth", required=True, help="column of reference labels")
    rep.add_argument(
        "--pred", required=True, action="append", help="column of predictions (once or twice)"
    )
    rep.add_argument(
        "--labels",
        nargs="+",
        metavar="LABEL",
        help="every class of the task, in matrix order (default: the sorted labels found)",
    )
    rep.add_argument(
        "--na",
        choices=NA_CHOICES,
        default="error",
        help="missing values (empty, NA, NaN, null...): refuse (default), drop their rows, "
        "or keep them as labels",
    )
    scored = rep.add_mutually_exclusive_group()
    scored.add_argument(
        "--scores", metavar="COL", help="binary: column of the positive class's score"
    )
    scored.add_argument(
        "--proba",
        nargs="+",
        metavar="COL",
        help="one probability column per class, in --labels order (default: sorted labels)",
    )
    rep.add_argument(
        "--pos-label", metavar="LABEL", help="the class --scores scores (default: the second)"
    )
    rep.add_argument("--json", action="store_true", help="print JSON instead of text")
    rep.add_argument("--level", type=float, default=0.95, help="interval level (default 0.95)")
    rep.add_argument("--size", type=int, default=10_000, help="resamples (default 10000)")
    rep.add_argument("--seed", type=int, default=None, help="random seed, for repeatable output")
    return parser


def _evaluate(args):
    if len(args.pred) > 2:
        raise InputError(f"give one --pred (report) or two (compare); got {len(args.pred)}")
    if len(set(args.pred)) != len(args.pred):
        raise InputError(f"the two --pred columns are the same: {args.pred[0]!r}")
    score_columns = [args.scores] if args.scores else list(args.proba or [])
    if score_columns and len(args.pred) == 2:
        raise InputError("--scores and --proba go with one --pred (the report), not a comparison")
    if args.pos_label is not None and not args.scores:
        raise InputError("--pos-label names the class that --scores scores; give --scores")
    cols = read_columns(
        args.file, [args.truth, *args.pred], score_columns, na=args.na, given=args.labels
    )
    if cols.dropped.size:
        print(
            f"clfmetrics: note: --na drop skipped {count(cols.dropped.size, 'row')} with a "
            f"missing value ({lines_text(cols.dropped)}); {count(cols.lines.size, 'row')} remain",
            file=sys.stderr,
        )
    truth = cols.labels[args.truth]
    options = {"labels": cols.classes, "level": args.level, "size": args.size, "rng": args.seed}
    if len(args.pred) == 1:
        scores, pos_label = _scores(args, cols)
        return report(
            truth, cols.labels[args.pred[0]], scores=scores, pos_label=pos_label, **options
        )
    a, b = args.pred
    return compare(truth, cols.labels[a], cols.labels[b], names=(a, b), **options)


def _scores(args, cols):
    """The --scores column or the --proba matrix (checked), and the positive class."""
    classes = cols.classes
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
    proba = np.column_stack([cols.numbers[name] for name in names])
    sums = proba.sum(axis=1)
    off = np.abs(sums - 1)
    if off.max() > ROUNDING:
        k = int(np.argmax(off))
        raise InputError(
            f"{args.file}, line {cols.lines[k]}: the --proba columns sum to {sums[k]:.4g}, not 1"
        )
    if off.max() > 1e-6:
        print(
            f"clfmetrics: note: --proba rows rescaled to sum to 1 (largest deviation "
            f"{off.max():.2g}, rounding in the file)",
            file=sys.stderr,
        )
        proba = proba / sums[:, None]
    return proba, None


def run(argv=None) -> int:
    """Parse ``argv``, print the report or the comparison, return the exit status."""
    try:
        args = _parser().parse_args(argv)
        result = _evaluate(args)
    except (InputError, ValueError) as err:
        message = " ".join(str(err).split())  # one line, whatever the message holds
        print(f"clfmetrics: error: {message}", file=sys.stderr)
        return USAGE_ERROR
    except SystemExit as done:  # --help
        return done.code
    try:
        print(result.to_json() if args.json else result)
    except BrokenPipeError:  # e.g. piped into head: stop quietly, as other tools do
        sys.stdout = open(os.devnull, "w")  # the closed pipe must not be flushed at exit
    return 0
