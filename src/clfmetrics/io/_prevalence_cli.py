"""``python -m clfmetrics prevalence FILE --truth COL --pred COL``: how often is it really?

The calibration sample is the rows of ``FILE`` with a truth (hand labels) and the judge's
label; the deployment set is the judge's labels on the items nobody labelled. Where they
are is said one of two ways, never both:

- without ``--deploy``, the deployment set is the rows of ``FILE`` whose ``--truth`` cell
  is empty (or NA), their ``--pred`` filled;
- with ``--deploy FILE2``, it is every row of ``FILE2`` (its column ``--deploy-pred``,
  default the ``--pred`` name), and every row of ``FILE`` must have its truth: an empty
  one is refused, since it could be meant as a deployment item.

The output is :func:`clfmetrics.probabilities.estimate_prevalence`'s estimate per class
with its interval (both samples resampled), the naive classify-and-count share beside it,
the calibration cross-table, and for two classes :func:`clfmetrics.probabilities.labels_needed`
for ``--half-width``. A missing prediction, an empty sample, a deployment label the
calibration never saw, or rates that cannot be inverted: one line on stderr, exit status 2.
"""

from __future__ import annotations

import warnings

import numpy as np

from .._base.numbers import count, fixed, seed_text
from ..probabilities import estimate_prevalence, labels_needed
from ..reporting import Section
from ._file import InputError
from ._output import add_interval_options, add_output_options
from ._sections import (
    FORMATS as SECTION_FORMATS,
)
from ._sections import (
    Tables,
    add_reading_options,
    cross_section,
    rated_columns,
)

#: The estimators of predicted labels (the probabilistic ones need probability columns).
METHODS = ("adjusted", "classify_and_count", "acc", "cc")
#: --half-width of labels_needed when not given.
HALF_WIDTH = 0.02


def add_prevalence(sub) -> None:
    """The ``prevalence`` sub-command on the parsers of ``python -m clfmetrics``."""
    p = sub.add_parser(
        "prevalence",
        help="the prevalence of a deployment set through a classifier checked on hand labels",
        description="Estimate each class's prevalence on a deployment set from a judge's "
        "labels, corrected by its rates on a hand-labelled calibration sample "
        "(Rogan-Gladen; black-box shift estimation for more classes).",
    )
    p.add_argument(
        "file",
        help="the calibration sample (--truth and --pred); without --deploy also the "
        "deployment rows, those with an empty --truth",
    )
    p.add_argument("--truth", required=True, help="column of the hand labels")
    p.add_argument("--pred", required=True, help="column of the judge's labels")
    p.add_argument(
        "--deploy",
        metavar="FILE2",
        help="the deployment set, a file of its own (then every row of FILE needs a truth)",
    )
    p.add_argument(
        "--deploy-pred",
        metavar="COL",
        help="FILE2's column of the judge's labels (default: the --pred name)",
    )
    p.add_argument(
        "--labels",
        nargs="+",
        metavar="LABEL",
        help="every class, in order (default: the sorted classes of the calibration truth)",
    )
    p.add_argument(
        "--method",
        choices=METHODS,
        default="adjusted",
        help="adjusted (default; Rogan-Gladen, or the confusion-matrix inversion of BBSE "
        "for more classes) or classify_and_count; acc and cc are QuaPy's names",
    )
    p.add_argument(
        "--half-width",
        type=float,
        metavar="H",
        help=f"two classes: the hand labels an interval of ±H needs (default {HALF_WIDTH})",
    )
    add_reading_options(p)
    add_output_options(p, SECTION_FORMATS)
    add_interval_options(p, 2000)


def _labels(rated, name, keep) -> np.ndarray:
    """Each item's label in column ``name`` among the combinations ``keep``."""
    values = np.array(rated.categories, dtype=object)
    return np.repeat(values[rated.codes[name][keep]], rated.counts[keep])


def _no_missing(rated, name, path, keep=None) -> None:
    keep = np.ones(rated.counts.size, dtype=bool) if keep is None else keep
    gap = keep & (rated.codes[name] < 0)
    if gap.any():
        line = int(rated.lines[gap].min())
        raise InputError(
            f"{path}: column {name!r} has {count(int(rated.counts[gap].sum()), 'missing value')} "
            f"(the first on line {line}): every item needs the judge's label"
        )


def _samples(args):
    """Calibration truth and labels, deployment labels, and the reader's notes."""
    if args.deploy_pred and not args.deploy:
        raise InputError("--deploy-pred names a column of --deploy FILE2; give --deploy")
    if args.truth == args.pred:
        raise InputError(f"--truth and --pred name the same column {args.truth!r}")
    single = "a prevalence needs two classes or more"
    cal = rated_columns(args.file, [args.truth, args.pred], args, single=single)
    labelled = cal.codes[args.truth] >= 0
    notes = list(cal.warnings)
    if args.deploy:
        if not labelled.all():
            line = int(cal.lines[~labelled].min())
            raise InputError(
                f"{args.file}: column {args.truth!r} is empty on line {line}: with --deploy "
                "the deployment set is FILE2, so every row of FILE needs its truth (leave "
                "out --deploy to take FILE's rows without a truth as the deployment set)"
            )
        _no_missing(cal, args.pred, args.file)
        column = args.deploy_pred or args.pred
        dep = rated_columns(args.deploy, [column], args, single=single)
        _no_missing(dep, column, args.deploy)
        notes += [w for w in dep.warnings if w not in notes]
        deploy = _labels(dep, column, np.ones(dep.counts.size, dtype=bool))
        where = f"{args.deploy} (column {column!r})"
    else:
        _no_missing(cal, args.pred, args.file)
        deploy = _labels(cal, args.pred, ~labelled)
        where = f"the rows of {args.file} with an empty {args.truth!r}"
    if not labelled.any():
        raise InputError(
            f"{args.file}: column {args.truth!r} is empty on every row: the calibration "
            "sample needs hand labels"
        )
    if deploy.size == 0:
        raise InputError(
            f"the deployment set ({where}) is empty: give the judge's labels on unlabelled "
            "items, as rows of FILE with an empty truth or as --deploy FILE2"
        )
    truth, pred = _labels(cal, args.truth, labelled), _labels(cal, args.pred, labelled)
    return truth, pred, deploy, where, notes


def evaluate_prevalence(args) -> Tables:
    """The estimated prevalence per class, with the naive share and the labels needed."""
    truth, pred, deploy, where, notes = _samples(args)
    options = {"labels": args.labels, "level": args.level, "size": args.size}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # the result's warning says it
            est = estimate_prevalence(truth, pred, deploy, method=args.method, rng=args.seed,
                                      **options)  # fmt: skip
            naive = estimate_prevalence(truth, pred, deploy, method="cc", rng=args.seed,
                                        **options)  # fmt: skip
    except ValueError as err:  # in the options' terms, not the API's
        raise InputError(_option_terms(str(err), args)) from None
    labels = est.labels
    k = len(labels)
    if est.warning:
        notes.append(est.warning)
    cells = {lab: i for i, lab in enumerate(labels)}
    m = np.zeros((k, k), dtype=np.int64)
    np.add.at(m, ([cells[p] for p in pred], [cells[t] for t in truth]), 1)
    need = _labels_needed(args, est, m, notes)
    level = f"{args.level:.0%} intervals"
    rows = [
        [str(lab), fixed(est.estimate[i]), fixed(est.low[i]), fixed(est.high[i]),
         fixed(naive.estimate[i]), fixed(naive.low[i]), fixed(naive.high[i])]
        for i, lab in enumerate(labels)
    ]  # fmt: skip
    notes.append(
        f"the deployment set is {where}: {count(est.deployment, 'item')}; the calibration "
        f"sample is {count(est.calibration, 'hand-labelled item')}"
    )
    notes.append(
        "the estimate assumes label shift: the judge's rates given the true class (the "
        "columns of the cross-table) are the same on the deployment set as on the calibration "
        "sample, which is a random sample of each class; the interval is the percentile "
        f"bootstrap of both samples, each resampled anew ({args.size} resamples, "
        f"{seed_text(args.seed)}); the classify-and-count share is the judge's bias, not the "
        "prevalence, and its interval resamples the deployment set alone"
    )
    sections = [
        Section(
            f"Prevalence ({est.method}; {level}, {args.size} resamples, {seed_text(args.seed)})",
            ["class", "estimate", "low", "high", "classify-and-count", "low", "high"],
            rows,
        ),
        cross_section(
            f"Calibration cross-table (rows = {args.pred}, columns = {args.truth})",
            args.pred,
            args.truth,
            labels,
            m,
        ),
        Section("Notes", notes=notes),
    ]
    data = {
        "command": "prevalence",
        "file": args.file,
        "deploy": args.deploy,
        "method": est.method,
        "labels": [str(lab) for lab in labels],
        "estimate": est.estimate.tolist(),
        "low": est.low.tolist(),
        "high": est.high.tolist(),
        "raw": est.raw.tolist(),
        "clipped": est.clipped,
        "condition": est.condition,
        "classify_and_count": {
            "estimate": naive.estimate.tolist(),
            "low": naive.low.tolist(),
            "high": naive.high.tolist(),
        },
        "calibration": est.calibration,
        "deployment": est.deployment,
        "cross_table": m.tolist(),
        "labels_needed": need,
        "level": args.level,
        "size": args.size,
        "seed": args.seed,
        "notes": notes,
    }
    return Tables(f"Prevalence of {args.pred}'s classes on the deployment set", sections, data)


def _option_terms(message: str, args) -> str:
    """The library's message with the command's names for its arguments."""
    for api, option in (
        ("labels=", "--labels"),
        ("pred_deploy", "the deployment set's --pred"),
        ("pred_cal", f"--pred {args.pred!r}"),
        ("y_cal", f"--truth {args.truth!r}"),
    ):
        message = message.replace(api, option)
    return message


def _labels_needed(args, est, m, notes):
    """For two classes, labels_needed at the estimate and the calibration's rates."""
    if len(est.labels) != 2:
        if args.half_width is not None:
            raise InputError(
                f"--half-width gives the labels needed for two classes; this task has "
                f"{len(est.labels)}"
            )
        return None
    half = HALF_WIDTH if args.half_width is None else args.half_width
    positive = est.labels[1]
    tpr, tnr = m[1, 1] / m[:, 1].sum(), m[0, 0] / m[:, 0].sum()
    pi = m[:, 1].sum() / m.sum()
    try:
        n = labels_needed(2 * half, prevalence=float(est.estimate[1]), sensitivity=float(tpr),
                          specificity=float(tnr), deployment=est.deployment,
                          calibration_prevalence=float(pi), level=args.level)  # fmt: skip
    except ValueError as err:
        notes.append(f"hand labels for ±{half:g}: none computed ({err})")
        return {"half_width": half, "labels": None, "reason": str(err)}
    notes.append(
        f"hand labels for a {args.level:.0%} interval of ±{half:g} on the prevalence of "
        f"{positive!r} (at the estimate {fixed(est.estimate[1])}, sensitivity {fixed(tpr)}, "
        f"specificity {fixed(tnr)}, {fixed(pi)} of the hand labels {positive!r}, by the delta "
        f"method): {n:,}; this sample has {est.calibration:,}"
    )
    return {"half_width": half, "labels": n, "sensitivity": tpr, "specificity": tnr}
