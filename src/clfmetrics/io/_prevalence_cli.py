"""``python -m clfmetrics prevalence FILE --truth COL --pred COL``: how often is it really?

The calibration sample is the rows of ``FILE`` with a truth (hand labels) and the judge's
label; the deployment set is the judge's labels on the items nobody labelled. Where they
are is said one of two ways, never both:

- without ``--deploy``, the deployment set is the rows of ``FILE`` whose ``--truth`` cell
  is empty (or NA), their ``--pred`` filled;
- with ``--deploy FILE2``, it is every row of ``FILE2`` (its column ``--deploy-pred``,
  default the ``--pred`` name), and every row of ``FILE`` must have its truth: an empty
  one is refused, since it could be meant as a deployment item.

The judge's output is its labels (``--pred COL``) or its probabilities (``--proba COL
...``, one column per class, matched to the classes by name as ``report`` matches them;
``--deploy-proba`` names FILE2's, default the same names). Labels allow the count methods
(adjusted, classify-and-count); probabilities also the probabilistic ones: probabilistic
classify-and-count (the mean probability), probabilistic adjusted count (Bella et al.
2010) and EM (Saerens et al. 2002), this one from the calibration sample's class shares or
from ``--prior`` (the fitting prior, taken as known). The adjusted and classify-and-count
methods take the most probable class of ``--proba`` as the label.

The output is :func:`clfmetrics.probabilities.estimate_prevalence`'s estimate per class
with its interval, the naive classify-and-count share beside it, the calibration
cross-table, what the interval assumes, and
:func:`clfmetrics.probabilities.labels_needed` (of the adjusted count, every class within
``--half-width``). A missing prediction, an empty sample, a deployment label the
calibration never saw, rates that cannot be inverted, a probabilistic method without
probabilities: one line on stderr, exit status 2.
"""

from __future__ import annotations

import warnings

import numpy as np

from .._base.numbers import count, fixed, seed_text
from ..probabilities import estimate_prevalence, labels_needed, worst_row_sum
from ..reporting import Section
from ._file import InputError
from ._output import add_interval_options, add_output_options
from ._scores import ROUNDING, _by_name
from ._sections import (
    FORMATS as SECTION_FORMATS,
)
from ._sections import (
    Tables,
    add_reading_options,
    cross_section,
    number_rows,
    rated_columns,
    rated_rows,
)

#: The estimators of labels, and those that need probabilities (--proba); QuaPy's names.
COUNT_METHODS = ("adjusted", "classify_and_count")
PROBABILITY_METHODS = ("probabilistic", "probabilistic_adjusted", "em")
ALIASES = {"acc": "adjusted", "cc": "classify_and_count", "pcc": "probabilistic",
           "pacc": "probabilistic_adjusted", "sld": "em", "emq": "em"}  # fmt: skip
METHODS = (*COUNT_METHODS, *PROBABILITY_METHODS, *ALIASES)
#: What each method's estimate and interval assume, for the notes.
ASSUMES = {
    "adjusted": "label shift: the judge's rates given the true class (the columns of the "
    "cross-table) are the same on the deployment set as on the calibration sample, a random "
    "sample of each class; the interval is the percentile bootstrap of both samples, each "
    "resampled anew",
    "classify_and_count": "that the judge's errors cancel (in each class as many items "
    "wrongly put in as wrongly left out): its share predicted is its bias, not the "
    "prevalence; the interval resamples the deployment set alone",
    "probabilistic": "probabilities calibrated for the deployment set itself, i.e. no shift "
    "since they were calibrated (under a shift the mean probability is biased towards the "
    "old prior); the interval resamples the deployment set alone",
    "probabilistic_adjusted": "label shift, as the adjusted count, with the judge's mean "
    "probability of each class given the true class in place of its rates; the interval is "
    "the percentile bootstrap of both samples, each resampled anew",
    "em": "label shift, and probabilities calibrated for the prior PRIOR; the interval is "
    "the percentile bootstrap of WHICH",
}
#: --half-width of labels_needed when not given.
HALF_WIDTH = 0.02


def add_prevalence(sub) -> None:
    """The ``prevalence`` sub-command on the parsers of ``python -m clfmetrics``."""
    p = sub.add_parser(
        "prevalence",
        help="the prevalence of a deployment set through a classifier checked on hand labels",
        description="Estimate each class's prevalence on a deployment set from a judge's "
        "labels or probabilities, corrected by its behaviour on a hand-labelled calibration "
        "sample (Rogan-Gladen; black-box shift estimation for more classes; with "
        "probabilities also Bella et al.'s adjusted mean and the EM of Saerens et al.).",
    )
    p.add_argument(
        "file",
        help="the calibration sample (--truth, and --pred or --proba); without --deploy also "
        "the deployment rows, those with an empty --truth",
    )
    p.add_argument("--truth", required=True, help="column of the hand labels")
    given = p.add_mutually_exclusive_group(required=True)
    given.add_argument("--pred", help="column of the judge's labels")
    given.add_argument(
        "--proba",
        nargs="+",
        metavar="COL",
        help="the judge's probabilities, one column per class: named for the classes (cat, "
        "p_cat, prob_cat, proba_cat) they are matched by name, else taken in class order",
    )
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
        "--deploy-proba",
        nargs="+",
        metavar="COL",
        help="FILE2's probability columns (default: the --proba names)",
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
        help="adjusted (the default with --pred; Rogan-Gladen, or the confusion-matrix "
        "inversion of BBSE for more classes) or classify_and_count; with --proba also "
        "probabilistic (the mean probability), probabilistic_adjusted (the default with "
        "--proba) and em (Saerens et al.); acc, cc, pcc, pacc, sld and emq are QuaPy's names",
    )
    p.add_argument(
        "--prior",
        nargs="+",
        type=float,
        metavar="P",
        help="--method em: the prior the probabilities are calibrated for (the fitting "
        "prior), one share per class in class order (default: the calibration sample's "
        "class shares)",
    )
    p.add_argument(
        "--half-width",
        type=float,
        metavar="H",
        help=f"the hand labels an interval of ±H on every class needs (default {HALF_WIDTH})",
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
    """Calibration truth and the judge's output, the deployment output, the reader's notes, and
    the classes in order (None: the library sorts them).

    The judge's output is labels (``--pred``) or an ``(N, classes)`` matrix (``--proba``).
    """
    if args.deploy_pred and not args.deploy:
        raise InputError("--deploy-pred names a column of --deploy FILE2; give --deploy")
    if args.deploy_proba and not args.deploy:
        raise InputError("--deploy-proba names columns of --deploy FILE2; give --deploy")
    if args.proba:
        return _probability_samples(args)
    if args.deploy_proba:
        raise InputError("--deploy-proba names FILE2's --proba columns; give --proba")
    if args.truth == args.pred:
        raise InputError(f"--truth and --pred name the same column {args.truth!r}")
    cal = rated_columns(args.file, [args.truth, args.pred], args, single=SINGLE)
    labelled = cal.codes[args.truth] >= 0
    notes = list(cal.warnings)
    if args.deploy:
        _all_labelled(args, cal, labelled)
        _no_missing(cal, args.pred, args.file)
        column = args.deploy_pred or args.pred
        dep = rated_columns(args.deploy, [column], args, single=SINGLE)
        _no_missing(dep, column, args.deploy)
        notes += [w for w in dep.warnings if w not in notes]
        deploy = _labels(dep, column, np.ones(dep.counts.size, dtype=bool))
        where = f"{args.deploy} (column {column!r})"
    else:
        _no_missing(cal, args.pred, args.file)
        deploy = _labels(cal, args.pred, ~labelled)
        where = f"the rows of {args.file} with an empty {args.truth!r}"
    _not_empty(args, labelled, deploy.size, where)
    truth, pred = _labels(cal, args.truth, labelled), _labels(cal, args.pred, labelled)
    return truth, pred, deploy, where, notes, args.labels


SINGLE = "a prevalence needs two classes or more"


def _all_labelled(args, cal, labelled) -> None:
    if not labelled.all():
        line = int(cal.lines[~labelled].min())
        raise InputError(
            f"{args.file}: column {args.truth!r} is empty on line {line}: with --deploy "
            "the deployment set is FILE2, so every row of FILE needs its truth (leave "
            "out --deploy to take FILE's rows without a truth as the deployment set)"
        )


def _not_empty(args, labelled, deployed: int, where: str) -> None:
    if not labelled.any():
        raise InputError(
            f"{args.file}: column {args.truth!r} is empty on every row: the calibration "
            "sample needs hand labels"
        )
    if deployed == 0:
        raise InputError(
            f"the deployment set ({where}) is empty: give the judge's output on unlabelled "
            "items, as rows of FILE with an empty truth or as --deploy FILE2"
        )


def _probability_samples(args):
    """As :func:`_samples` with ``--proba``: the columns in class order, rows summing to 1."""
    if args.truth in args.proba:
        raise InputError(f"--truth {args.truth!r} is also one of the --proba columns")
    if len(set(args.proba)) != len(args.proba):
        raise InputError(f"--proba names a column twice: {' '.join(args.proba)}")
    cal, numbers = rated_rows(args.file, [args.truth], args.proba, args, single=SINGLE)
    labelled = cal.codes[args.truth] >= 0
    classes = cal.categories
    if args.labels:  # the truth's values in --labels order (an integer label stays one)
        found = {str(c): c for c in cal.categories}
        outside = [c for c in cal.categories if str(c) not in set(args.labels)]
        if outside:
            raise InputError(
                f"{args.file}: the truth {outside[0]!r} is not one of --labels "
                + " ".join(args.labels)
            )
        classes = [found.get(label, label) for label in args.labels]
    if len(args.proba) != len(classes):
        raise InputError(
            f"--proba names {len(args.proba)} columns, but there are {len(classes)} classes "
            f"({' '.join(map(str, classes))}): give one column per class (--labels sets them)"
        )
    order = _by_name(list(args.proba), classes)
    notes = list(cal.warnings)
    if order != list(args.proba):
        notes.append(
            "--proba columns matched to the classes by name: "
            + ", ".join(f"class {c} is column {n!r}" for c, n in zip(classes, order, strict=True))
        )
    matrix = np.stack([numbers[n] for n in order], axis=1)
    if args.deploy:
        _all_labelled(args, cal, labelled)
        names = args.deploy_proba or args.proba
        if len(names) != len(classes):
            raise InputError(
                f"--deploy-proba names {len(names)} columns for {len(classes)} classes"
            )
        dep_order = _by_name(list(names), classes)
        deploy = number_rows(args.deploy, dep_order, args)
        where = f"{args.deploy} (columns {' '.join(map(repr, dep_order))})"
    else:
        deploy = matrix[~labelled]
        where = f"the rows of {args.file} with an empty {args.truth!r}"
    _not_empty(args, labelled, len(deploy), where)
    calibration = matrix[labelled]
    for name, p, lines in ((args.file, calibration, cal.lines[labelled]),
                           (args.deploy or args.file, deploy, None)):  # fmt: skip
        _sum_to_one(name, p, lines, notes)
    values = np.array(cal.categories, dtype=object)
    truth = values[cal.codes[args.truth][labelled]]
    return truth, calibration, deploy, where, notes, classes


def _sum_to_one(path, p, lines, notes) -> None:
    """Refuse rows that miss 1 by more than ROUNDING; rescale the others in place, noted."""
    worst, row = worst_row_sum(p)
    if worst > ROUNDING:
        where = f", line {lines[row]}" if lines is not None else f", item {row + 1}"
        raise InputError(f"{path}{where}: the --proba columns sum to {p[row].sum():.4g}, not 1")
    if worst > 1e-6:
        p /= p.sum(axis=1, keepdims=True)
        notes.append(
            f"{path}: --proba rows rescaled to sum to 1 (largest deviation {worst:.2g}, "
            "rounding in the file)"
        )


def _method(args) -> str:
    """--method in full (QuaPy's names too); probabilistic methods need --proba."""
    default = "probabilistic_adjusted" if args.proba else "adjusted"
    method = ALIASES.get(args.method, args.method) or default
    if method in PROBABILITY_METHODS and not args.proba:
        raise InputError(
            f"--method {args.method} needs the judge's probabilities: give --proba, one "
            "column per class (with --pred the methods are adjusted and classify_and_count)"
        )
    if args.prior is not None and method != "em":
        raise InputError(
            f"--prior is the prior EM's probabilities are calibrated for; --method is {method}"
        )
    return method


def evaluate_prevalence(args) -> Tables:
    """The estimated prevalence per class, with the naive share and the labels needed."""
    method = _method(args)
    truth, pred, deploy, where, notes, labels = _samples(args)
    options = {"labels": labels, "level": args.level, "size": args.size}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # the result's warning says it
            est = estimate_prevalence(truth, pred, deploy, method=method, rng=args.seed,
                                      prior=args.prior, **options)  # fmt: skip
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
    judged = np.array(labels, dtype=object)[pred.argmax(axis=1)] if args.proba else pred
    np.add.at(m, ([cells[p] for p in judged], [cells[t] for t in truth]), 1)
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
    notes.append(f"the {est.method} estimate assumes {_assumes(est.method, args)}")
    judge = args.pred or "the most probable class of --proba"
    notes.append(
        f"the intervals: {args.size} resamples, {seed_text(args.seed)}; the classify-and-count "
        f"share (of {judge}) is the judge's bias, not the prevalence, and its interval "
        "resamples the deployment set alone"
    )
    name = args.pred or "judge"
    sections = [
        Section(
            f"Prevalence ({est.method}; {level}, {args.size} resamples, {seed_text(args.seed)})",
            ["class", "estimate", "low", "high", "classify-and-count", "low", "high"],
            rows,
        ),
        cross_section(
            f"Calibration cross-table (rows = {judge}, columns = {args.truth})",
            name,
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
        "prior": args.prior,
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
    heading = f"Prevalence of {args.pred or 'the judge'}'s classes on the deployment set"
    return Tables(heading, sections, data)


def _assumes(method: str, args) -> str:
    text = ASSUMES[method]
    if method != "em":
        return text
    if args.prior is None:
        prior = "the calibration sample's class shares"
        which = "both samples, each resampled anew (the prior with the calibration sample)"
    else:
        prior = "--prior " + " ".join(f"{p:g}" for p in args.prior) + " (taken as known)"
        which = "the deployment set alone"
    return text.replace("PRIOR", prior).replace("WHICH", which)


def _option_terms(message: str, args) -> str:
    """The library's message with the command's names for its arguments."""
    for api, option in (
        ("labels=", "--labels"),
        ("pred_deploy", "the deployment set's --pred"),
        ("pred_cal", f"--pred {args.pred!r}" if args.pred else "--proba"),
        ("prior=", "--prior"),
        ("prior ", "--prior "),
        ("y_cal", f"--truth {args.truth!r}"),
    ):
        message = message.replace(api, option)
    return message


def _labels_needed(args, est, m, notes):
    """labels_needed at the estimate and the calibration's rates (of the adjusted count)."""
    half = HALF_WIDTH if args.half_width is None else args.half_width
    labels = est.labels
    rates = m / m.sum(axis=0)
    pi = m.sum(axis=0) / m.sum()
    common = {"deployment": est.deployment, "level": args.level}
    if len(labels) == 2:
        positive = labels[1]
        tpr, tnr = rates[1, 1], rates[0, 0]
        plan = {"prevalence": float(est.estimate[1]), "sensitivity": float(tpr),
                "specificity": float(tnr), "calibration_prevalence": float(pi[1])}  # fmt: skip
        what = (
            f"on the prevalence of {positive!r} (at the estimate {fixed(est.estimate[1])}, "
            f"sensitivity {fixed(tpr)}, specificity {fixed(tnr)}, {fixed(pi[1])} of the hand "
            f"labels {positive!r}"
        )
        extra = {"sensitivity": tpr, "specificity": tnr}
    else:
        plan = {"prevalence": est.estimate, "rates": rates, "calibration_prevalence": pi}
        what = (
            f"on the prevalence of every one of the {len(labels)} classes (at the estimate, "
            "the cross-table's rates and the hand labels' class shares"
        )
        extra = {"rates": rates.tolist()}
    try:
        n = labels_needed(2 * half, **plan, **common)
    except ValueError as err:
        notes.append(f"hand labels for ±{half:g}: none computed ({err})")
        return {"half_width": half, "labels": None, "reason": str(err)}
    notes.append(
        f"hand labels for a {args.level:.0%} interval of ±{half:g} {what}, for the adjusted "
        f"count by the delta method): {n:,}; this sample has {est.calibration:,}"
    )
    return {"half_width": half, "labels": n, **extra}
