"""``python -m clfmetrics agree FILE --rater A --rater B [--rater C ...]``: agreement beyond chance.

One row per item, one column per rater; an empty (or NA) cell is a rating not given.

Two raters
    Cohen's kappa (:func:`clfmetrics.metrics.weighted_kappa` with ``--weights``), Scott's
    pi, PABAK and Gwet's AC1 (AC2 with ``--weights``) of their cross-table (rows = the first
    ``--rater``, columns = the second), each with the item bootstrap's interval of
    :func:`clfmetrics.inference.agreement_interval`, and the cross-table itself. Items
    one of them did not rate are left out, and a note says how many.
Three raters or more
    Fleiss' kappa on the items every rater rated (it needs the same number of ratings per
    item) and Krippendorff's alpha on every item with two ratings or more
    (``--measurement`` its level), each with its interval, and the cross-table of each pair
    of raters on the items both rated.

Every interval resamples the items (the raters stay fixed); below
:data:`clfmetrics.inference.AGREEMENT_FEW_ITEMS` items it carries the warning of the
simulation that showed such intervals too narrow. One rater, a column named twice, an
unknown column, a value outside ``--categories``, no item with two ratings: one line on
stderr, exit status 2.
"""

from __future__ import annotations

import numpy as np

from .._base.numbers import count, fixed, seed_text
from ..inference import agreement_interval
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
        "one column per rater, with the item bootstrap's intervals.",
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
    add_reading_options(p)
    add_output_options(p, SECTION_FORMATS)
    add_interval_options(p, 2000)


def _interval(name, data, args, **options):
    return agreement_interval(
        name, data, level=args.level, size=args.size, rng=args.seed, **options
    )


def _row(iv) -> list[str]:
    return [NAMES[iv.coefficient], fixed(iv.estimate), fixed(iv.low), fixed(iv.high),
            str(iv.items)]  # fmt: skip


def _entry(iv) -> dict:
    return {
        "estimate": iv.estimate,
        "low": iv.low,
        "high": iv.high,
        "level": iv.level,
        "method": iv.method,
        "items": iv.items,
        "undefined": iv.undefined,
        "warning": iv.warning,
    }


def _assumption(args, what: str) -> str:
    return (
        f"each interval is the percentile bootstrap of the items ({args.size} resamples, "
        f"{seed_text(args.seed)}): {what} are drawn with replacement and the coefficient "
        "computed anew; it assumes the items are an independent sample of the items the "
        "raters could be given, the raters fixed (other raters would add their own variation)"
    )


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
        "size": args.size,
        "seed": args.seed,
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
        rows = [_row(iv) for iv in ivs]
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
        rows = [_row(iv) for iv in ivs]
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
    notes.append(_assumption(args, what))
    sections = [
        Section(
            f"Coefficients ({level}, {args.size} resamples, {seed_text(args.seed)})",
            ["coefficient", "estimate", "low", "high", "items"],
            rows,
        )
    ]
    sections += matrices
    sections.append(Section("Notes", notes=notes))
    data["coefficients"] = {iv.coefficient: _entry(iv) for iv in ivs}
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
