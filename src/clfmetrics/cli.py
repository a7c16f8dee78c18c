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
``--counts COL``
    The file is already aggregated: ``COL`` holds each row's number of items
    (what ``SELECT truth, pred, count(*) ... GROUP BY`` writes). Needs DuckDB.
``--level``, ``--size``, ``--seed``
    Interval level, number of resamples, random seed.

A CSV or Parquet file (``.parquet``, ``.pq``) is aggregated by DuckDB when it
is installed (``pip install clfmetrics[duckdb]``): DuckDB reads the file out
of core and returns how many rows share each combination of the label
columns, so a file of 10**8 rows needs little memory; the output is the same
as the row-by-row reader's (``_csvcounts``). Without DuckDB, and for
``--scores``/``--proba`` (a score belongs to a row), a CSV file is read row by
row. A small CSV file (under 64 MiB) with a problem, or with rows that
``--na drop`` skips, is reread row by row, so that the message names its lines.

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

from ._csvcounts import counted_columns, duckdb_installed, is_parquet
from ._csvinput import NA_CHOICES, InputError, lines_text, read_columns
from ._render import count
from .comparison import compare, compare_from_counts
from .reporting import report, report_from_counts

__all__ = ["InputError", "run"]

USAGE_ERROR = 2
#: --proba rows may miss 1 by this much (rounded probabilities) and are then rescaled.
ROUNDING = 0.01
#: A CSV file up to this size is reread row by row when it has a problem (for line numbers).
SMALL_CSV = 64 * 2**20


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
    rep.add_argument("file", help="CSV or Parquet file with a header row (column names)")
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
    rep.add_argument(
        "--counts", metavar="COL", help="aggregated file: the column of each row's item count"
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
    counted = _counted(args, score_columns)
    if counted is not None:
        truth, preds, n = counted.labels[args.truth], counted.labels, counted.counts
        options = {"labels": counted.classes, "level": args.level, "size": args.size}
        options["rng"] = args.seed
        if len(args.pred) == 1:
            return report_from_counts(truth, preds[args.pred[0]], n, **options)
        a, b = args.pred
        return compare_from_counts(truth, preds[a], preds[b], n, names=(a, b), **options)
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


def _counted(args, score_columns):
    """The file aggregated by DuckDB, or None where the row reader reads it (see above)."""
    parquet, engine = is_parquet(args.file), duckdb_installed()
    if score_columns and (parquet or args.counts):
        raise InputError("--scores and --proba need one row per item, in a CSV file")
    if (parquet or args.counts) and not engine:
        what = "a Parquet file" if parquet else "--counts"
        raise InputError(f"reading {what} needs DuckDB: pip install duckdb")
    if score_columns or not engine:
        return None
    small = not parquet and os.path.isfile(args.file) and os.path.getsize(args.file) < SMALL_CSV
    try:
        counted = counted_columns(
            args.file, [args.truth, *args.pred], na=args.na, given=args.labels, counts=args.counts
        )
    except InputError:
        if small and not args.counts:
            return None  # the row reader finds the same problem and names its lines
        raise
    if counted.dropped and small and not args.counts:
        return None  # the row reader's note names the skipped lines
    if counted.dropped:
        print(
            f"clfmetrics: note: --na drop skipped {count(counted.dropped, 'row')} with a "
            f"missing value; {count(int(counted.counts.sum()), 'row')} remain",
            file=sys.stderr,
        )
    return counted


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
