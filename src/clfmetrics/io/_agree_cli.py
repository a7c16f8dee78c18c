"""``python -m clfmetrics agree FILE --rater A --rater B [--rater C ...]``: agreement beyond chance.

One row per item, one column per rater; an empty (or NA) cell is a rating not given.

Two raters
    Cohen's kappa (:func:`clfmetrics.metrics.weighted_kappa` with ``--weights``), Scott's
    pi, PABAK and Gwet's AC1 (AC2 with ``--weights``) of their cross-table (rows = the first
    ``--rater``, columns = the second), each with its interval of
    :func:`clfmetrics.inference.agreement_interval` (``--method``), and the cross-table. Items
    one of them did not rate are left out, and a note says how many.
Three raters or more
    Fleiss' kappa on the items every rater rated (it needs the same number of ratings per
    item) and Krippendorff's alpha on every item with two ratings or more
    (``--measurement`` its level), each with its interval, and the cross-table of each pair
    of raters on the items both rated.

``--method percentile|bca|analytic``
    Every coefficient's interval, through ``agreement_interval(..., method=...)``: the item
    bootstrap's percentile (default) or BCa ends (the items resampled, the raters fixed),
    or the analytic one, the estimate ± z se clipped to [-1, 1] with the standard error of
    Fleiss, Cohen & Everitt (1969) for kappa and weighted kappa, Gwet (2008) for AC1/AC2 and
    Fleiss' kappa, the delta method for Scott's pi, and for PABAK the exact Clopper-Pearson
    interval of the observed agreement mapped through it.
    Krippendorff's alpha has no standard analytic variance (``AGREEMENT_ANALYTIC`` of
    :mod:`clfmetrics.inference`): with ``analytic`` its interval is the
    percentile bootstrap, and its method and a note say so. Each row names its method.

Below :data:`clfmetrics.inference.AGREEMENT_FEW_ITEMS` items an interval carries the warning
of the simulation that showed such intervals too narrow (not PABAK's exact one). One rater,
a column named twice, an unknown column, a value outside ``--categories``, no item with two
ratings, ``--size`` or ``--seed`` with ``--method analytic`` for two raters (nothing is
resampled), BCa where a leave-one-out coefficient is undefined: one line on stderr, exit
status 2.
"""

from __future__ import annotations

import numpy as np

from .._base.numbers import count, fixed, num, seed_text
from ..inference import AGREEMENT_ANALYTIC, AGREEMENT_METHODS, DEFAULT_SEED, agreement_interval
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

WEIGHTS = ("linear", "quadratic")
MEASUREMENTS = ("nominal", "ordinal", "interval", "ratio")
#: Resamples of the bootstrap unless --size says otherwise.
SIZE = 2000
#: The bootstrap's methods as the tables name them (the analytic ones name their source).
SHOWN = {"percentile": "percentile bootstrap", "bca": "BCa bootstrap"}
#: The coefficients' names in the output, by the name of agreement_interval.
NAMES = {
    "kappa": "Cohen's kappa",
    "weighted_kappa": "Cohen's weighted kappa",
    "scott_pi": "Scott's pi",
    "pabak": "PABAK",
    "gwet_ac1": "Gwet's AC1",
    "fleiss_kappa": "Fleiss' kappa",
    "krippendorff_alpha": "Krippendorff's alpha",
}


def add_agree(sub) -> None:
    """The ``agree`` sub-command on the parsers of ``python -m clfmetrics``."""
    p = sub.add_parser(
        "agree",
        help="agreement of two raters or more (kappa, pi, PABAK, AC1, Fleiss, alpha)",
        description="Agreement beyond chance between raters (people or an automatic judge), "
        "one column per rater, each coefficient with its interval: the item bootstrap's "
        "(percentile or BCa) or, with --method analytic, the analytic one where it exists.",
    )
    p.add_argument("file", help="CSV or Parquet file with a header row; one row per item")
    p.add_argument(
        "--rater",
        action="append",
        required=True,
        metavar="COL",
        help="a rater's column (give it twice or more); an empty or NA cell is a rating not given",
    )
    p.add_argument(
        "--categories",
        nargs="+",
        metavar="CAT",
        help="every category, in order (default: the sorted values found); a value outside "
        "them is refused. The order is the scale of --weights and --measurement ordinal",
    )
    p.add_argument(
        "--weights",
        choices=WEIGHTS,
        help="two raters: weighted kappa and Gwet's AC2 with linear or quadratic weights "
        "(ordered categories)",
    )
    p.add_argument(
        "--measurement",
        choices=MEASUREMENTS,
        default="nominal",
        help="three raters or more: Krippendorff's alpha's level of measurement (default "
        "nominal; interval and ratio need numeric categories)",
    )
    p.add_argument(
        "--method",
        choices=AGREEMENT_METHODS,
        default="percentile",
        help="every coefficient's interval: percentile (default) or bca, the item bootstrap's; "
        "analytic, estimate ± z se with Fleiss, Cohen & Everitt's (1969) se for kappa, "
        "Gwet's (2008) for AC1/AC2 and Fleiss' kappa, the delta method's for Scott's pi, and "
        "PABAK's exact Clopper-Pearson interval; Krippendorff's alpha has no standard "
        "analytic variance and keeps the percentile bootstrap, as its row says",
    )
    add_reading_options(p)
    add_output_options(p, SECTION_FORMATS)
    add_interval_options(p, SIZE)
    p.set_defaults(size=None, seed=None)  # to tell a given --size/--seed from the default


def _method_of(coefficient: str, args) -> str:
    """The method ``coefficient`` gets: --method, or the percentile bootstrap where there is
    no analytic variance."""
    if args.method == "analytic" and coefficient not in AGREEMENT_ANALYTIC:
        return "percentile"
    return args.method


def _interval(name, data, args, **options):
    method = _method_of(name, args)
    try:
        return agreement_interval(name, data, method=method, level=args.level,
                                  size=args.size, rng=args.seed, **options)  # fmt: skip
    except ValueError as err:
        if not str(err).startswith("bca"):
            raise
        message = str(err).replace("method='percentile'", "--method percentile")  # the option
        raise InputError(f"--method bca for {NAMES[name]}: {message}") from None


def _fallback(iv, args) -> str | None:
    """What says that ``iv`` is not of --method, or None."""
    if args.method != "analytic" or iv.coefficient in AGREEMENT_ANALYTIC:
        return None
    return (
        f"{NAMES[iv.coefficient]} has no standard analytic variance: with --method analytic "
        f"its interval is the {SHOWN[iv.method]}'s, as Krippendorff (2011) recommends, not an "
        "analytic one"
    )


def _row(iv, args) -> list[str]:
    shown = SHOWN.get(iv.method, iv.method)
    if _fallback(iv, args):
        shown += " (no analytic variance)"
    return [NAMES[iv.coefficient], fixed(iv.estimate), num(iv.low), num(iv.high),
            str(iv.items), shown]  # fmt: skip


def _entry(iv, args) -> dict:
    return {
        "estimate": iv.estimate,
        "low": iv.low,
        "high": iv.high,
        "level": iv.level,
        "method": iv.method,
        "fallback": _fallback(iv, args),
        "items": iv.items,
        "undefined": iv.undefined,
        "warning": iv.warning,
    }


def _assumptions(args, what: str, ivs) -> list[str]:
    """How the intervals were computed and what they assume: one note per kind."""
    assumes = (
        "it assumes the items are an independent sample of the items the raters could be "
        "given, the raters fixed (other raters would add their own variation)"
    )
    analytic = [iv for iv in ivs if iv.method.startswith("analytic")]
    out = []
    if len(analytic) < len(ivs):
        bca = "BCa bootstrap (bias-corrected and accelerated, the acceleration from the jackknife)"
        name = bca if args.method == "bca" else "percentile bootstrap"
        which = "Krippendorff's alpha's interval" if analytic else "each interval"
        out.append(
            f"{which} is the {name} of the items ({args.size} resamples, "
            f"{seed_text(args.seed)}): {what} are drawn with replacement and the coefficient "
            f"computed anew; {assumes}"
        )
    if analytic:
        which = "each interval" if len(analytic) == len(ivs) else (
            "each interval but Krippendorff's alpha's"
        )  # fmt: skip
        exact = any(iv.coefficient == "pabak" for iv in analytic)
        out.append(
            f"{which} is analytic: the estimate ± z times the large-sample standard error its "
            "method names, clipped to [-1, 1]"
            + (
                " (PABAK's: the exact Clopper-Pearson interval of the observed agreement, "
                "mapped through PABAK = (q p_o - 1) / (q - 1))"
                if exact
                else ""
            )
            + f"; {assumes}, and enough items for the normal approximation"
        )
    return out


def _how(args, ivs) -> str:
    """The coefficients' title's account of the method."""
    analytic = sum(iv.method.startswith("analytic") for iv in ivs)
    resampled = f"{args.size} resamples, {seed_text(args.seed)}"
    if analytic == len(ivs):
        return "analytic"
    if args.method != "analytic":
        return f"{SHOWN[args.method]}, {resampled}"
    if not analytic:  # Krippendorff's alpha alone
        return f"no analytic variance: percentile bootstrap, {resampled}"
    return f"analytic; Krippendorff's alpha's: percentile bootstrap, {resampled}"


def _check_method(args, raters) -> None:
    """--size and --seed are the bootstrap's; the defaults where they are not given."""
    given = [f"--{o}" for o in ("size", "seed") if getattr(args, o) is not None]
    if args.method == "analytic" and len(raters) == 2 and given:
        raise InputError(
            f"{' and '.join(given)} {'is' if len(given) == 1 else 'are'} the bootstrap's: "
            "with --method analytic two raters' intervals resample nothing (leave "
            f"{'it' if len(given) == 1 else 'them'} out, or use --method percentile or bca)"
        )
    args.size = SIZE if args.size is None else args.size
    args.seed = DEFAULT_SEED if args.seed is None else args.seed


def evaluate_agree(args) -> Tables:
    """The coefficients of ``args.rater``'s columns with their intervals, as Tables."""
    raters = args.rater
    if len(raters) < 2:
        raise InputError(
            f"agreement needs two raters or more: give --rater twice or more (got {raters[0]!r})"
        )
    twice = [r for r in dict.fromkeys(raters) if raters.count(r) > 1]
    if twice:
        raise InputError(f"--rater {twice[0]!r} is given twice: a rater agrees with itself")
    if len(raters) == 2 and args.measurement != "nominal":
        raise InputError(
            "--measurement is Krippendorff's alpha's, for three raters or more; two raters "
            "take --weights"
        )
    if len(raters) > 2 and args.weights:
        raise InputError(
            "--weights is of two raters' kappa and AC2; with three raters or more use "
            "--measurement ordinal (or interval)"
        )
    _check_method(args, raters)
    single = "agreement beyond chance needs two categories or more"
    rated = rated_columns(args.file, raters, args, args.categories, single)
    k = len(rated.categories)
    if k < 2:
        raise InputError(
            f"{args.file}: every rating is {rated.categories[0]!r} if any: agreement beyond "
            "chance needs two categories or more (give --categories with the others)"
        )
    codes = np.stack([rated.codes[r] for r in raters])  # raters x combinations
    given = (codes >= 0).sum(axis=0)
    if not (given >= 2).any():
        raise InputError(
            f"{args.file}: no item has two ratings or more: agreement compares the ratings "
            "of one item"
        )
    heading = f"Agreement of {count(len(raters), 'rater')}: {', '.join(raters)}"
    level = f"{args.level:.0%} intervals"
    notes = list(rated.warnings)
    data = {
        "command": "agree",
        "file": args.file,
        "raters": raters,
        "categories": [str(c) for c in rated.categories],
        "level": args.level,
        "method": args.method,
        # null where nothing is resampled (two raters' analytic intervals)
        "size": None if args.method == "analytic" and len(raters) == 2 else args.size,
        "seed": None if args.method == "analytic" and len(raters) == 2 else args.seed,
    }
    if len(raters) == 2:
        both = given == 2
        left = int(rated.counts[given == 1].sum())  # a row with no rating is no item
        if left:
            notes.append(
                f"{count(left, 'item')} with one rating left out: the two raters' cross-table "
                f"holds the {int(rated.counts[both].sum())} items both rated"
            )
        m = _cross(codes[0], codes[1], rated.counts, k)
        weights = {"weights": args.weights} if args.weights else {}
        names = ["weighted_kappa" if args.weights else "kappa", "scott_pi", "pabak", "gwet_ac1"]
        ivs = [_interval(n, m, args, **(weights if n in ("weighted_kappa", "gwet_ac1") else {}))
               for n in names]  # fmt: skip
        rows = [_row(iv, args) for iv in ivs]
        if args.weights:
            rows[0][0] = f"Cohen's weighted kappa ({args.weights})"
            rows[3][0] = f"Gwet's AC2 ({args.weights})"
            notes.append(
                "the weights use the order of the categories: "
                + ", ".join(map(str, rated.categories))
                + ("" if args.categories else " (sorted; give --categories for another)")
            )
        a, b = raters
        matrices = [cross_section(f"Cross-table (rows = {a}, columns = {b})", a, b,
                                  rated.categories, m)]  # fmt: skip
        data["cross_table"] = {"rows": a, "columns": b, "counts": m.tolist()}
        what = "the items (the cells of the cross-table)"
    else:
        complete = given == len(raters)
        ivs = []
        full = int(rated.counts[complete].sum())
        if full:
            per_item = np.stack([(codes[:, complete] == c).sum(axis=0) for c in range(k)], axis=1)
            table = np.repeat(per_item, rated.counts[complete], axis=0)
            ivs.append(_interval("fleiss_kappa", table, args))
            partial = int(rated.counts[~complete].sum())
            if partial:
                notes.append(
                    f"Fleiss' kappa needs every item rated by every rater: it rests on the "
                    f"{full} items all rated, of {int(rated.counts[given > 0].sum())} "
                    "(Krippendorff's alpha takes the others too)"
                )
        else:
            notes.append(
                "no item is rated by every rater, so Fleiss' kappa (which needs as many ratings "
                "of each item) is left out; Krippendorff's alpha takes missing ratings"
            )
        pairable = given >= 2  # the items alpha rests on (the others drop out of it)
        ratings = _ratings(codes[:, pairable], rated.counts[pairable], rated, args)
        ivs.append(
            _interval(
                "krippendorff_alpha",
                ratings,
                args,
                measurement=args.measurement,
                categories=_domain(rated, args),
            )
        )
        alone = int(rated.counts[given == 1].sum())
        if alone:
            notes.append(
                f"{count(alone, 'item')} with fewer than two ratings "
                + ("drops" if alone == 1 else "drop")
                + " out of "
                "Krippendorff's alpha (no pair to compare), as Krippendorff defines it"
            )
        rows = [_row(iv, args) for iv in ivs]
        rows[-1][0] = f"Krippendorff's alpha ({args.measurement})"
        matrices, data["cross_tables"] = [], []
        for i, a in enumerate(raters):  # each pair on the items both rated
            for j in range(i + 1, len(raters)):
                b, m = raters[j], _cross(codes[i], codes[j], rated.counts, k)
                title = f"Cross-table of {a} and {b} (rows = {a}, columns = {b})"
                matrices.append(cross_section(title, a, b, rated.categories, m))
                data["cross_tables"].append({"rows": a, "columns": b, "counts": m.tolist()})
        what = "the items (each with all its ratings)"
    notes += [iv.warning for iv in ivs if iv.warning]
    notes += [f for f in (_fallback(iv, args) for iv in ivs) if f]
    notes += _assumptions(args, what, ivs)
    sections = [
        Section(
            f"Coefficients ({level}, {_how(args, ivs)})",
            ["coefficient", "estimate", "low", "high", "items", "method"],
            rows,
        )
    ]
    sections += matrices
    sections.append(Section("Notes", notes=notes))
    data["coefficients"] = {iv.coefficient: _entry(iv, args) for iv in ivs}
    data["notes"] = notes
    return Tables(heading, sections, data)


def _cross(a, b, counts, k) -> np.ndarray:
    """The k x k cross-table of two raters' codes on the combinations both rated."""
    both = (a >= 0) & (b >= 0)
    m = np.zeros((k, k), dtype=np.int64)
    np.add.at(m, (a[both], b[both]), counts[both])
    return m


def _domain(rated, args) -> list:
    """The values alpha's distances use: the categories' ranks, or their numbers (interval,
    ratio), which must then be numbers."""
    if args.measurement not in ("interval", "ratio"):
        return list(range(len(rated.categories)))
    try:
        values = [float(c) for c in rated.categories]
    except ValueError:
        bad = next(c for c in rated.categories if not _is_number(c))
        raise InputError(
            f"--measurement {args.measurement} needs numeric categories; {args.file} has {bad!r}"
        ) from None
    if not np.isfinite(values).all():
        raise InputError(f"--measurement {args.measurement} needs finite numeric categories")
    return values


def _is_number(value) -> bool:
    try:
        float(value)
    except ValueError:
        return False
    return True


def _ratings(codes, counts, rated, args) -> np.ndarray:
    """Raters x items, NaN where missing: codes, or the categories' values for interval and
    ratio (which must then be numbers)."""
    if args.measurement in ("interval", "ratio"):
        values = np.array(_domain(rated, args))
        out = np.where(codes >= 0, values[np.maximum(codes, 0)], np.nan)
    else:
        out = np.where(codes >= 0, codes.astype(float), np.nan)
    return np.repeat(out, counts, axis=1)
