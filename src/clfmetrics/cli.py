"""The command line: ``python -m clfmetrics report FILE.csv --truth COL --pred COL [--pred COL]``.

One ``--pred`` column prints :func:`clfmetrics.reporting.report`, two print
:func:`clfmetrics.comparison.compare`; ``--json`` prints the JSON rendering instead of
text. Problems with the input (a missing file or column, an empty file, an
empty cell, a single class) print one line to stderr and exit with status 2.
"""

from __future__ import annotations

import argparse
import csv
import os
import sys

from .comparison import compare
from .reporting import report

USAGE_ERROR = 2


class InputError(Exception):
    """A problem with the user's file or arguments, reported in one line."""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m clfmetrics",
        description="Evaluate predictions stored in a CSV file, with bootstrap intervals.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
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
    rep.add_argument("--json", action="store_true", help="print JSON instead of text")
    rep.add_argument("--level", type=float, default=0.95, help="interval level (default 0.95)")
    rep.add_argument("--size", type=int, default=10_000, help="resamples (default 10000)")
    rep.add_argument("--seed", type=int, default=None, help="random seed, for repeatable output")
    return parser


def read_columns(path: str, names: list[str]) -> dict[str, list[str]]:
    """The named columns of a CSV file with a header row, as lists of strings."""
    try:
        with open(path, newline="", encoding="utf-8-sig") as handle:
            rows = list(csv.reader(handle))
    except FileNotFoundError:
        raise InputError(f"no such file: {path}") from None
    except IsADirectoryError:
        raise InputError(f"{path} is a directory, not a CSV file") from None
    except (OSError, UnicodeDecodeError, csv.Error) as err:
        raise InputError(f"cannot read {path}: {err}") from None
    rows = [r for r in rows if any(cell.strip() for cell in r)]
    if not rows:
        raise InputError(f"{path} is empty: expected a header row and one row per item")
    header, body = [h.strip() for h in rows[0]], rows[1:]
    missing = [n for n in names if n not in header]
    if missing:
        raise InputError(f"{path} has no column {missing[0]!r}; its columns are {header}")
    if not body:
        raise InputError(f"{path} has a header but no rows: there is nothing to evaluate")
    out = {}
    for name in names:
        k = header.index(name)
        column = [row[k].strip() if k < len(row) else "" for row in body]
        if "" in column:
            line = column.index("") + 2  # 1-based, after the header
            raise InputError(f"{path}, line {line}: empty value in column {name!r}")
        out[name] = column
    return out


def run(argv=None) -> int:
    """Parse ``argv``, print the report or the comparison, return the exit status."""
    args = _parser().parse_args(argv)
    try:
        if len(args.pred) > 2:
            raise InputError(f"give one --pred (report) or two (compare); got {len(args.pred)}")
        if len(set(args.pred)) != len(args.pred):
            raise InputError(f"the two --pred columns are the same: {args.pred[0]!r}")
        cols = read_columns(args.file, [args.truth, *args.pred])
        options = {"level": args.level, "size": args.size, "rng": args.seed}
        if len(args.pred) == 1:
            result = report(cols[args.truth], cols[args.pred[0]], **options)
        else:
            a, b = args.pred
            result = compare(cols[args.truth], cols[a], cols[b], names=(a, b), **options)
    except (InputError, ValueError) as err:
        print(f"clfmetrics: error: {err}", file=sys.stderr)
        return USAGE_ERROR
    try:
        print(result.to_json() if args.json else result)
    except BrokenPipeError:  # e.g. piped into head: stop quietly, as other tools do
        sys.stdout = open(os.devnull, "w")  # the closed pipe must not be flushed at exit
    return 0
