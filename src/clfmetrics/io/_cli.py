"""The command line: ``python -m clfmetrics report FILE.csv --truth COL --pred COL [--pred COL]``.

One ``--pred`` column prints :func:`clfmetrics.reporting.report`, two print
:func:`clfmetrics.reporting.compare`; with scores, ``--scores`` (or ``--proba``) is given
once per ``--pred``, in the same order::

    python -m clfmetrics report FILE.csv --truth gold --pred lr --scores p_lr \
        --pred rf --scores p_rf

The comparison then adds the difference of the two ROC AUCs with DeLong's paired test
and a paired bootstrap.

The options besides ``--truth`` and ``--pred``:

``--format text|json|markdown|csv|html``
    The rendering (default text; ``--json`` is an alias of ``--format json``):
    Markdown tables, one long CSV table ``section,row,column,value`` (cells that a
    spreadsheet would run as formulas get a leading ``'``), or one self-contained
    HTML page (no script, no network), with ``--scores``/``--proba`` the ROC and
    precision-recall curves with their bands and the reliability diagram as
    inline SVG. Labels are escaped in each format. The text shows the classes of
    lowest F1 and the most common where there are more than 30.
``--output FILE``
    Write there instead of stdout (stdout stays empty; one line on stderr names
    the file). A path that cannot be written is refused before any work.

``--labels L [L ...]``
    Every class of the task, in the order of the matrix (default: the sorted
    labels that occur). Needed when a class is missing from the file.
``--na error|drop|keep``
    What a missing value is (empty, ``NA``, ``NaN``, ``null``, ... as pandas
    reads them, in any case). ``error`` (default): refused, naming the lines.
    ``drop``: rows with a missing value in a column used are skipped, and a
    note on stderr names them. ``keep``: the tokens are labels like any other.
``--strip-labels``
    Remove the whitespace around every label before comparing them, so that
    ``"yes "`` is ``yes``; the report's warnings then say which labels lost
    whitespace. Column names and numbers (scores, counts) are always read
    without the whitespace around them.
``--scores COL``
    Binary tasks: the score (or probability) of the positive class, which is
    ``--pos-label``, by default the second class in matrix order (``1`` of
    ``0``/``1``, the later of two sorted names). Adds ROC AUC and average
    precision with their intervals and, for probabilities in [0, 1], the Brier
    score, log loss, expected calibration error and a reliability table. With
    two ``--pred``, give ``--scores`` twice, the first for the first ``--pred``:
    the comparison adds each system's ROC AUC and the difference with DeLong's
    paired test and interval and a paired, class-stratified percentile bootstrap
    (with pROC's bootstrap test). Another number of ``--scores`` than of
    ``--pred``, or one column for both, is refused.
``--proba COL [COL ...]``
    One probability column per class. Columns named for the classes (``cat``,
    ``p_cat``, ``prob_cat`` or ``proba_cat`` for class ``cat``) are matched to
    them by name, in any order (a note on stderr says how, where the order
    differs); columns named for no class are taken in matrix order: the order
    of ``--labels`` if given, else of the sorted labels (numbers numerically).
    Some columns named for classes and some not, or two for one class, are
    refused. The same additions, one class against the rest per column. Rows
    must sum to 1 (rows off by at most 0.01, as rounding leaves them, are
    rescaled and a note on stderr says so). With two ``--pred``, give
    ``--proba`` twice, a group of columns per system in ``--pred`` order: the
    comparison adds the paired ROC AUC differences of each class against the
    rest and of their macro mean.
``--counts COL``
    The file is already aggregated: ``COL`` holds each row's number of items
    (what ``SELECT truth, pred, count(*) ... GROUP BY`` writes). A CSV file is
    read with or without DuckDB; a Parquet file needs DuckDB.
``--delimiter CHAR``
    The field delimiter (``tab`` for a tab). Default: the one of ``,``, ``;``,
    tab and ``|`` under which the header names every column given; where that
    does not decide, ``csv.Sniffer`` on the first rows.
``--decimal .|,``
    The decimal mark of the number columns (``--scores``, ``--proba``,
    ``--counts``): ``,`` reads ``0,0255`` as 0.0255, for files written with
    decimal commas (their delimiter is then ``;`` or tab, not ``,``). Without
    it, a score written so is refused with a hint naming ``--decimal ,``.
``--encoding NAME``
    The file's text encoding (default UTF-8); a byte that does not decode is
    reported with its line. A ``.gz`` file is decompressed (no DuckDB needed).
``--net-benefit THRESHOLDS``
    Binary probabilities (``--scores``, or ``--proba`` of two classes): adds the
    decision curve at these threshold probabilities, each strictly between 0 and
    1: ``LOW:HIGH`` (every 0.01 from LOW to HIGH, both included), ``LOW:HIGH:STEP``
    or a comma list ``0.1,0.2,0.3``. The section gives the net benefit with its
    simultaneous bootstrap band, treat all, treat none and the net interventions
    avoided per 100 items (:func:`clfmetrics.inference.decision_curve`); the HTML
    page draws it. With two ``--pred``: the paired difference of their net
    benefits with its simultaneous band
    (:func:`clfmetrics.inference.net_benefit_difference`).
``--costs FILE``
    A CSV file of an n x n cost matrix, ``costs[i, j]`` = the cost (>= 0) of
    predicting class i when the truth is j (rows = predicted, columns = true): n
    rows of n numbers in matrix order, or with a header naming the class of each
    column (matched by name, any order; the rows follow it), optionally with a
    first column naming each row's class. Needs probabilities (``--proba``, or
    binary ``--scores``): adds the mean cost of the Bayes decisions (the class of
    least expected cost) with its bootstrap interval beside that of the
    predictions (:func:`clfmetrics.inference.bayes_cost_interval`); with two
    ``--pred``, for each.
``--plan FILE``
    A metric plan (JSON), as the book's chooser writes it: ``metrics`` (names
    of ``clfmetrics.METRICS``, ``name~`` for the prevalence-calibrated matrix,
    ``roc_auc``, ``average_precision``, ``brier_score``, ``log_loss``,
    ``sensitivity``, ``specificity``, ``net_benefit``, ``expected_cost``) and
    optionally ``thresholds``, ``costs`` (n x n, in matrix order) and
    ``deployment_prevalence``. The report follows it: the thresholds and costs
    stand for ``--net-benefit`` and ``--costs`` where those are not given (both
    need scores), and a first section "Metric plan" gives each planned metric.
    One ``--pred`` only. An unknown key or metric, or a metric the input cannot
    give (scores without ``--scores``/``--proba``), is refused.
``--auc-method auto|percentile|bca|delong``
    The ROC AUC intervals of ``--scores``/``--proba``; ``auto`` (default) is the
    percentile bootstrap below 50,000 items and DeLong's interval from there, and for
    a class the library's simulated table finds that short for, the one it finds best.
``--level``, ``--size``, ``--seed``
    Interval level, number of resamples, random seed (default ``DEFAULT_SEED``,
    0, printed in the output: the same command prints the same bytes).

A CSV or Parquet file (``.parquet``, ``.pq``) is aggregated by DuckDB when it
is installed (``pip install clfmetrics[duckdb]``): DuckDB reads the file out
of core and returns how many rows share each combination of the label
columns, so a file of 10**8 rows needs little memory; the output is the same
as the row-by-row reader's (``_csvcounts``). ``--net-benefit`` with ``--scores`` (one
column per ``--pred``) on such a file of ``SCORE_ROWS`` (10**7) rows or more (without
``--costs`` or ``--plan``) is counted by DuckDB too, per class, prediction and number of
thresholds the score reaches (two ``--pred``: per class, pair of predictions and pair of
bins, ``(T + 1)**2`` of them for ``T`` thresholds): the decision curve (two: the paired
difference in net benefit) and its band are the row reader's (for the same seed), the
score summaries that need every row's score (ROC AUC, AP, Brier, calibration; two: the
ROC AUC comparison) are left out, and a warning says so. Without DuckDB, and for
``--scores``/``--proba`` otherwise (a score belongs to a row), the file is read row by
row, streaming in batches (``_csvstream``: counts of label combinations, or
compact per-row arrays with scores; a Parquet file through DuckDB). A small
CSV file (under 64 MiB) with a problem, or with rows that ``--na drop`` skips,
is reread row by row, so that the message names its lines.

Labels are compared as text, as they are written, by the rule of
:func:`clfmetrics.report`: ``yes`` and ``"yes "`` are two classes. Label
columns in which every value is an integer written without leading zeros (or
whitespace around it) are integer labels: they sort as numbers (1, 2, 10) and
``1`` matches ``1.0``; a value such as ``007`` keeps the columns text, so
``007`` and ``7`` are two classes. The report warns (in its text and in
``--json`` as ``warnings``) about labels that differ only in case, whitespace
or leading zeros, and about a column of numbers with a few other values (with
their lines). Problems with the input (a missing file or column, an empty
file, a ragged row, a column named twice, ``--truth`` equal to ``--pred``, a
missing value, a single class, a label outside ``--labels``, more classes than
memory holds, a bad option) print one line to stderr, naming the file's own
line numbers, and exit with status 2.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import warnings

import numpy as np

from .._base.labels import LabelWarning
from .._base.numbers import count
from ..reporting import (
    AUC_METHODS,
    check_plan,
    compare,
    compare_from_counts,
    follow_plan,
    needs_scores,
    parse_thresholds,
    report_from_counts,
    report_of_codes,
)
from ._agree_cli import add_agree, evaluate_agree
from ._columns import DECIMALS, NA_CHOICES
from ._costs import costs_for, read_costs
from ._counts import count_rows, counted_columns, duckdb_installed, is_parquet
from ._file import (
    InputError,
    check_encoding,
    check_shape,
    choose_delimiter,
    delimiter_option,
    header_row,
    lines_text,
)
from ._output import add_interval_options, add_output_options, check_output, render, write
from ._prevalence_cli import add_prevalence, evaluate_prevalence
from ._scores import option_terms as _option_terms
from ._scores import positive_class
from ._scores import score_columns as _scores
from ._stream import read_columns

USAGE_ERROR = 2
#: A CSV file up to this size is reread row by row when it has a problem (for line numbers).
SMALL_CSV = 64 * 2**20
#: From this many rows, --net-benefit on a file DuckDB reads is computed from counts (the
#: row reader's score summaries would take minutes and gigabytes; see ``_binned``).
SCORE_ROWS = 10**7


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
        "--pred",
        required=True,
        action="append",
        help="column of predictions (once: the report; twice: the paired comparison)",
    )
    rep.add_argument(
        "--labels",
        nargs="+",
        metavar="LABEL",
        help="every class of the task, in matrix order (default: the sorted labels found)",
    )
    rep.add_argument(
        "--strip-labels",
        action="store_true",
        help="remove the whitespace around every label before comparing them (default: "
        "labels are compared as written, so 'yes ' and 'yes' are two classes and the report "
        "warns); the report says which labels it stripped",
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
        "--scores",
        action="append",
        metavar="COL",
        help="binary: column of the positive class's score; once per --pred, in --pred order "
        "(two --pred: the paired ROC AUC difference, DeLong and bootstrap)",
    )
    scored.add_argument(
        "--proba",
        nargs="+",
        action="append",
        metavar="COL",
        help="one probability column per class: columns named for the classes (cat, p_cat, "
        "prob_cat, proba_cat) are matched to them by name in any order; others are taken in "
        "--labels order (default: the sorted labels); once per --pred, in --pred order",
    )
    rep.add_argument(
        "--pos-label", metavar="LABEL", help="the class --scores scores (default: the second)"
    )
    rep.add_argument(
        "--auc-method",
        choices=AUC_METHODS,
        default="auto",
        help="ROC AUC intervals: auto (default: percentile bootstrap below 50,000 items, "
        "DeLong from there, the simulated table's best for a small class), percentile, bca "
        "or delong",
    )
    rep.add_argument(
        "--counts", metavar="COL", help="aggregated file: the column of each row's item count"
    )
    rep.add_argument(
        "--delimiter",
        metavar="CHAR",
        help="field delimiter (default: chosen from , ; tab | by the header); 'tab' for a tab",
    )
    rep.add_argument(
        "--decimal",
        choices=DECIMALS,
        default=".",
        metavar="MARK",
        help="decimal mark of the score and count columns: '.' (default) or ',' (0,0255 "
        "read as 0.0255; the delimiter must then be another character, such as ;)",
    )
    rep.add_argument(
        "--encoding", help="the file's text encoding (default utf-8), e.g. latin-1, cp1252"
    )
    rep.add_argument(
        "--net-benefit",
        metavar="THRESHOLDS",
        help="binary probabilities: add the decision curve (net benefit with its band, treat "
        "all, treat none, interventions avoided; two --pred: their paired difference) at "
        "threshold probabilities in (0, 1): LOW:HIGH (step 0.01), LOW:HIGH:STEP or t1,t2,...",
    )
    rep.add_argument(
        "--costs",
        metavar="FILE",
        help="CSV of an n x n cost matrix, costs[i, j] = cost of predicting class i when the "
        "truth is j (optional header of class labels): add the Bayes decisions' mean cost "
        "with its interval (needs --proba, or binary --scores)",
    )
    rep.add_argument(
        "--plan",
        metavar="FILE",
        help="a metric plan (JSON: metrics, thresholds, costs, deployment_prevalence), as the "
        "book's chooser writes it; the report follows it (one --pred)",
    )
    add_output_options(rep)
    add_interval_options(rep, 10_000)
    add_agree(sub)
    add_prevalence(sub)
    return parser


def _evaluate(args):
    if len(args.pred) > 2:
        raise InputError(f"give one --pred (report) or two (compare); got {len(args.pred)}")
    if len(set(args.pred)) != len(args.pred):
        raise InputError(f"the two --pred columns are the same: {args.pred[0]!r}")
    if args.truth in args.pred:
        raise InputError(
            f"--truth and --pred name the same column {args.truth!r}: a column compared with "
            "itself always scores 1; give the column of the system's predictions to --pred"
        )
    score_columns = _check_score_groups(args)
    reused = [c for c in score_columns if c in (args.truth, *args.pred)]
    if reused:
        raise InputError(
            f"column {reused[0]!r} is given both as labels (--truth/--pred) and as scores "
            "(--scores/--proba); name the score columns"
        )
    args.delimiter = delimiter_option(args.delimiter)
    args.encoding_used = check_encoding(args.encoding)
    _check_decimal(args, score_columns)
    if args.pos_label is not None and not args.scores:
        raise InputError("--pos-label names the class that --scores scores; give --scores")
    plan = args.plan_checked = _plan(args, score_columns)
    decisions = _decision_options(args, score_columns)
    if plan is not None and plan.costs is not None and decisions["costs"] is None:
        decisions["costs"] = plan.costs if score_columns else None
    counted = _counted(args, score_columns, decisions)
    if counted is not None:
        truth, preds, n = counted.labels[args.truth], counted.labels, counted.counts
        options = {"labels": counted.classes, "level": args.level, "size": args.size}
        options["rng"] = args.seed
        if counted.bins is not None:
            out = _binned_report(args, counted, decisions["net_benefit"], options)
        elif len(args.pred) == 1:
            out = report_from_counts(truth, preds[args.pred[0]], n, **options)
        else:
            a, b = args.pred
            out = compare_from_counts(truth, preds[a], preds[b], n, names=(a, b), **options)
        out.warnings[:0] = counted.warnings
        return out
    counts = [args.counts] if args.counts else []
    cols = read_columns(
        args.file,
        [args.truth, *args.pred],
        [*score_columns, *counts],
        na=args.na,
        given=args.labels,
        delimiter=args.delimiter,
        encoding=args.encoding,
        strip=args.strip_labels,
        decimal=args.decimal,
    )
    remain = cols.lines.size if cols.counts is None else int(cols.counts.sum())
    if cols.dropped.size:
        print(
            f"clfmetrics: note: --na drop skipped {count(cols.dropped.size, 'row')} with a "
            f"missing value ({lines_text(cols.dropped)}); {count(remain, 'row')} remain",
            file=sys.stderr,
        )
    options = {"labels": cols.classes, "level": args.level, "size": args.size, "rng": args.seed}
    if args.counts or cols.counts is not None:  # aggregated: by the file, or as it streamed
        truth = cols.labels[args.truth]
        n = cols.numbers[args.counts] if args.counts else cols.counts
        if len(args.pred) == 1:
            out = report_from_counts(truth, cols.labels[args.pred[0]], n, **options)
        else:
            a, b = args.pred
            out = compare_from_counts(
                truth, cols.labels[a], cols.labels[b], n, names=(a, b), **options
            )
    elif len(args.pred) == 1:
        scores, pos_label = _scores(args, cols)
        scores = None if scores is None else scores[0]
        truth, pred = cols.codes[args.truth], cols.codes[args.pred[0]]
        classes, notes = cols.classes, cols.warnings
        del cols  # the rows' lines are no longer needed: only the arrays in use stay
        costs = decisions["costs"]
        costs = (
            costs if costs is None or args.costs is None else costs_for(args.costs, costs, classes)
        )
        try:
            out = report_of_codes(truth, pred, classes, scores, pos_label, args.level,
                                  args.size, args.seed, args.auc_method,
                                  decisions["net_benefit"], costs)  # fmt: skip
        except ValueError as err:  # in the options' terms, not the API's
            raise InputError(_option_terms(str(err), args)) from None
        out.warnings[:0] = notes
        return out
    else:
        a, b = args.pred
        scores, pos_label = _scores(args, cols)
        if decisions["costs"] is not None:
            decisions["costs"] = costs_for(args.costs, decisions["costs"], cols.classes)
        try:
            out = compare(cols.labels[args.truth], cols.labels[a], cols.labels[b], names=(a, b),
                          scores=None if scores is None else tuple(scores), pos_label=pos_label,
                          **options, **decisions)  # fmt: skip
        except ValueError as err:  # in the options' terms, not the API's
            raise InputError(_option_terms(str(err), args)) from None
    out.warnings[:0] = cols.warnings
    return out


def _plan(args, score_columns):
    """``--plan`` read and checked (None without it), and the thresholds it gives."""
    if args.plan is None:
        return None
    if len(args.pred) != 1:
        raise InputError("--plan applies to the report of one --pred, not to the comparison")
    try:
        with open(args.plan, encoding="utf-8") as f:
            data = json.load(f)
    except OSError as err:
        raise InputError(f"--plan {args.plan}: cannot read the file ({err.strerror})") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise InputError(f"--plan {args.plan}: not JSON ({err})") from None
    try:
        plan = check_plan(data)
    except ValueError as err:
        raise InputError(f"--plan {args.plan}: {err}") from None
    missing = needs_scores(plan)
    if missing and not score_columns:
        raise InputError(
            f"--plan {args.plan}: its {missing[0]} needs the predicted probabilities: give "
            "--scores (binary) or --proba"
        )
    if plan.thresholds is not None and args.net_benefit is None and score_columns:
        args.net_benefit = ",".join(f"{t!r}" for t in plan.thresholds.tolist())
    return plan


def _decision_options(args, score_columns) -> dict:
    """``--net-benefit`` parsed and ``--costs`` read, before any row is (their refusals)."""
    for option, value in (("--net-benefit", args.net_benefit), ("--costs", args.costs)):
        if value is not None and not score_columns:
            raise InputError(
                f"{option} needs the predicted probabilities: give --scores (binary) or --proba"
            )
    thresholds = None
    if args.net_benefit is not None:
        try:
            thresholds = parse_thresholds(args.net_benefit)
        except ValueError as err:
            where = f"net_benefit {args.net_benefit!r}"
            message = str(err).replace(where, f"--net-benefit {args.net_benefit}")
            raise InputError(message) from None
    costs = None if args.costs is None else read_costs(args.costs)
    return {"net_benefit": thresholds, "costs": costs}


def _check_score_groups(args) -> list[str]:
    """The score columns, each once; one --scores (or --proba group) per --pred, refused
    otherwise, and so is one column for two systems."""
    option = "--scores" if args.scores else "--proba"
    groups = [[c] for c in args.scores] if args.scores else list(args.proba or [])
    if groups and len(groups) != len(args.pred):
        raise InputError(
            f"give {option} once per --pred, in the same order (--pred A {option} ... --pred B "
            f"{option} ...); got {len(args.pred)} --pred and {len(groups)} {option}"
        )
    if len(groups) == 2:
        shared = [c for c in groups[0] if c in groups[1]]
        if shared:
            raise InputError(
                f"column {shared[0]!r} is given as scores of both --pred {args.pred[0]} and "
                f"--pred {args.pred[1]}; each system's {option} names its own columns"
            )
    return list(dict.fromkeys(c for g in groups for c in g))


def _check_decimal(args, score_columns) -> None:
    """``--decimal ,`` needs a delimiter that is not the comma (fixed here if it is chosen)."""
    if args.decimal == "." or is_parquet(args.file):
        return
    names = [args.truth, *args.pred, *score_columns, *([args.counts] if args.counts else [])]
    args.delimiter = args.delimiter or choose_delimiter(args.file, names, args.encoding_used)
    if args.delimiter == ",":
        raise InputError(
            f"--decimal , reads decimal commas, but {args.file}'s delimiter is the comma too; "
            "a file with decimal commas separates its fields by ; or tab (pass --delimiter "
            "if it does)"
        )


#: How the warning of :func:`clfmetrics._base.labels.near_duplicates` begins.
_NEAR = "labels that differ only in case, whitespace or leading zeros"


def _strip_hint(result, args) -> None:
    """Name ``--strip-labels`` in the near-duplicates warning where whitespace is the
    difference (the warning itself is the one :func:`clfmetrics.report` gives)."""
    spaced = [x for x in result.labels if isinstance(x, str) and x != x.strip()]
    if args.strip_labels or not spaced:
        return
    for k, text in enumerate(result.warnings):
        if text.startswith(_NEAR):
            result.warnings[k] = (
                f"{text}; or pass --strip-labels to remove the whitespace around every label"
            )


def _binned(args, decisions, parquet: bool) -> bool:
    """Whether DuckDB counts the rows per bin of the scores for the decision curve (one
    --pred) or the paired difference in net benefit (two, per pair of bins): --scores and
    --net-benefit without --costs or --plan, on a file (Parquet, or a CSV of SMALL_CSV or
    more) of SCORE_ROWS rows or more."""
    if not (args.scores and decisions["net_benefit"] is not None):
        return False
    if decisions["costs"] is not None or args.plan is not None:
        return False
    if not parquet and not (os.path.isfile(args.file) and os.path.getsize(args.file) >= SMALL_CSV):
        return False
    names = [args.truth, *args.pred, *args.scores]
    delimiter = None
    if not parquet:
        delimiter = args.delimiter or choose_delimiter(args.file, names, args.encoding_used)
    return count_rows(args.file, delimiter) >= SCORE_ROWS


def _binned_report(args, counted, thresholds, options):
    """The report (or comparison) of counts per (truth, predictions, bin of each score) with
    the decision curve (or the paired difference in net benefit): each bin's risk stands for
    its items (the curve, the difference and their bands are the items')."""
    edges = np.unique(thresholds)
    risks = np.r_[0.0, edges][counted.bins]  # a score with exactly ``bin`` edges at or below
    pos = positive_class(args, counted.classes)
    truth, n = counted.labels[args.truth], counted.counts
    rows = f"with {count(int(n.sum()), 'row')} (from {count(SCORE_ROWS, 'row')} on) DuckDB"
    if len(args.pred) == 1:
        out = report_from_counts(truth, counted.labels[args.pred[0]], n, scores=risks[0],
                                 net_benefit=thresholds, pos_label=pos, **options)  # fmt: skip
        out.warnings.append(
            "the score summaries (ROC AUC, average precision, Brier score, calibration) need "
            f"every row's score; {rows} counted the rows per class, prediction and threshold "
            "reached for the decision curve, which needs no more. For those summaries, report "
            "on a random sample of the rows"
        )
        return out
    a, b = args.pred
    out = compare_from_counts(truth, counted.labels[a], counted.labels[b], n, names=(a, b),
                              scores=tuple(risks), net_benefit=thresholds, pos_label=pos,
                              **options)  # fmt: skip
    out.warnings.append(
        "the ROC AUC comparison (each system's ROC AUC and their difference, by DeLong's test "
        f"and the paired bootstrap) needs every row's scores; {rows} counted the rows per "
        "class, pair of predictions and pair of thresholds reached for the paired difference "
        "in net benefit, which needs no more. For that comparison, report on a random sample "
        "of the rows"
    )
    return out


def _counted(args, score_columns, decisions):
    """The file aggregated by DuckDB, or None where the row reader reads it (see above)."""
    parquet, engine = is_parquet(args.file), duckdb_installed()
    if score_columns and args.counts:
        raise InputError("--scores and --proba need one row per item, not --counts")
    if parquet and not engine:
        raise InputError("reading a Parquet file needs DuckDB: pip install duckdb")
    big = os.path.isfile(args.file) and os.path.getsize(args.file) >= SMALL_CSV
    if not engine and big and not score_columns:
        print(
            f"clfmetrics: note: DuckDB is not installed, so {args.file} "
            f"({os.path.getsize(args.file) / 2**20:.0f} MiB) is read by Python's csv module "
            "(in bounded memory, about a million rows per few seconds); pip install duckdb "
            "to count it out of core, faster",
            file=sys.stderr,
        )
    if not engine or args.encoding_used != "utf-8-sig":
        return None  # the row reader (DuckDB is asked only for UTF-8 text)
    binned = bool(score_columns) and _binned(args, decisions, parquet)
    if score_columns and not binned:
        return None  # a score belongs to a row
    small = not parquet and os.path.isfile(args.file) and os.path.getsize(args.file) < SMALL_CSV
    names = [args.truth, *args.pred, *([args.counts] if args.counts else [])]
    names += args.scores if binned else []
    delimiter = header = None
    if not parquet:
        delimiter = args.delimiter or choose_delimiter(args.file, names, args.encoding_used)
        header, line = header_row(args.file, delimiter, args.encoding_used)
        check_shape(args.file, header, [], [line], names, delimiter)
    try:
        counted = counted_columns(
            args.file,
            [args.truth, *args.pred],
            na=args.na,
            given=args.labels,
            counts=args.counts,
            delimiter=delimiter,
            width=None if header is None else len(header),
            strip=args.strip_labels,
            decimal=args.decimal,
            scores=args.scores if binned else (),
            edges=np.unique(decisions["net_benefit"]) if binned else None,
        )
    except InputError:
        if small:
            return None  # the row reader finds the same problem and names its lines
        raise
    if (counted.dropped or counted.warnings) and small:
        return None  # the row reader's notes name the lines
    if counted.dropped:
        print(
            f"clfmetrics: note: --na drop skipped {count(counted.dropped, 'row')} with a "
            f"missing value; {count(int(counted.counts.sum()), 'row')} remain",
            file=sys.stderr,
        )
    return counted


#: The sub-commands besides ``report``, each in its module.
_COMMANDS = {"agree": evaluate_agree, "prevalence": evaluate_prevalence}


def run(argv=None) -> int:
    """Parse ``argv``, print the report or the comparison, return the exit status."""
    try:
        args = _parser().parse_args(argv)
        args.plan_checked = None
        args.format = check_output(args)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", LabelWarning)  # the report lists them
            if args.command == "report":
                result = _evaluate(args)
                _strip_hint(result, args)
                if args.plan_checked is not None:
                    try:
                        follow_plan(result, args.plan_checked)
                    except ValueError as err:
                        raise InputError(f"--plan {args.plan}: {err}") from None
            else:
                result = _COMMANDS[args.command](args)
    except (InputError, ValueError) as err:
        message = " ".join(str(err).split())  # one line, whatever the message holds
        print(f"clfmetrics: error: {message}", file=sys.stderr)
        return USAGE_ERROR
    except MemoryError:
        print(
            "clfmetrics: error: out of memory: too many classes for this many resamples; "
            "lower --size (e.g. --size 1000) or merge rare classes",
            file=sys.stderr,
        )
        return USAGE_ERROR
    except SystemExit as done:  # --help
        return done.code
    try:
        return write(render(result, args.format), args.output, args.format)
    except BrokenPipeError:  # e.g. piped into head: stop quietly, as other tools do
        sys.stdout = open(os.devnull, "w")  # the closed pipe must not be flushed at exit
    return 0
